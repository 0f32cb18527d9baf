# The examples in the documentation of torch.func.jvp (PyTorch 2.13's docstring, torch/_functorch/eager_transforms.py),
# as a learner runs them one after the other: the docstring's lines unchanged, torch.manual_seed(0) added.
# Added: print(...) of each result (value, grad, output). Cut: nothing.
import torch

torch.manual_seed(0)

from torch.func import jvp
x = torch.randn([])
f = lambda x: x * torch.tensor([1.0, 2.0, 3])
value, grad = jvp(f, (x,), (torch.tensor(1.0),))
assert torch.allclose(value, f(x))
assert torch.allclose(grad, torch.tensor([1.0, 2, 3]))
print(value, grad)

from torch.func import jvp
x = torch.randn(5)
y = torch.randn(5)
f = lambda x, y: (x * y)
_, output = jvp(f, (x, y), (torch.ones(5), torch.ones(5)))
assert torch.allclose(output, x + y)
print(output)
