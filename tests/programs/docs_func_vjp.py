# The examples in the documentation of torch.func.vjp (PyTorch 2.13's docstring, torch/_functorch/eager_transforms.py),
# as a learner runs them one after the other: the docstring's lines unchanged, torch.manual_seed(0) added.
# Added: print(...) of each vjp computed (grad, vjps). Cut: nothing.
import torch

torch.manual_seed(0)

x = torch.randn([5])
f = lambda x: x.sin().sum()
(_, vjpfunc) = torch.func.vjp(f, x)
grad = vjpfunc(torch.tensor(1.0))[0]
assert torch.allclose(grad, torch.func.grad(f)(x))
print(grad)

x = torch.randn([5])
f = lambda x: (x.sin(), x.cos())
(_, vjpfunc) = torch.func.vjp(f, x)
vjps = vjpfunc((torch.ones([5]), torch.ones([5])))
assert torch.allclose(vjps[0], x.cos() + -x.sin())
print(vjps)

x = torch.randn([5])
f = lambda x: {"first": x.sin(), "second": x.cos()}
(_, vjpfunc) = torch.func.vjp(f, x)
cotangents = {"first": torch.ones([5]), "second": torch.ones([5])}
vjps = vjpfunc(cotangents)
assert torch.allclose(vjps[0], x.cos() + -x.sin())
print(vjps)

x, y = torch.randn([5, 4]), torch.randn([4, 5])
(_, vjpfunc) = torch.func.vjp(torch.matmul, x, y)
cotangents = torch.randn([5, 5])
vjps = vjpfunc(cotangents)
assert len(vjps) == 2
assert torch.allclose(vjps[0], torch.matmul(cotangents, y.transpose(0, 1)))
assert torch.allclose(vjps[1], torch.matmul(x.transpose(0, 1), cotangents))
print(vjps)

x = torch.randn([5])
def f(x, scale=4.):
  return x * scale

(_, vjpfunc) = torch.func.vjp(f, x)
vjps = vjpfunc(torch.ones_like(x))
assert torch.allclose(vjps[0], torch.full(x.shape, 4.0))
print(vjps)
