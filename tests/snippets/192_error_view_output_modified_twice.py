import torch

# tanh_ saves its output, the view; a second in-place op on the view changes it: torch names tanh's node
# (the view's grad_fn of the tanh_ is gone), where it names AsStrided while that grad_fn lives
x = torch.tensor([[0.3, -0.7, 1.1], [0.5, 0.9, -1.3], [0.2, 0.4, 0.6]], dtype=torch.float64, requires_grad=True)
h = x * 1
v = h.diagonal()
v.tanh_()
v.clamp_(min=0.1)
print(v, h.grad_fn.name())
h.sum().backward()
