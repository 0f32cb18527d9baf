# The examples in the documentation of torch.Tensor.register_hook and
# torch.Tensor.register_post_accumulate_grad_hook (PyTorch 2.13's docstrings, torch/_tensor.py), as a learner runs
# them one after the other: the docstrings' lines unchanged. Added: print(v.grad) and print(v) where the docs show
# the value (register_hook's docs show it in the old FloatTensor form). Cut: nothing.
import torch

v = torch.tensor([0., 0., 0.], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)  # double the gradient
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)

h.remove()  # removes the hook

v = torch.tensor([0., 0., 0.], requires_grad=True)
lr = 0.01
# simulate a simple SGD update
h = v.register_post_accumulate_grad_hook(lambda p: p.add_(p.grad, alpha=-lr))
v.backward(torch.tensor([1., 2., 3.]))
print(v)

h.remove()  # removes the hook
