import torch

x = torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -3.0]])
print(x.nonzero())
print(x.nonzero(as_tuple=True))
print(torch.nonzero(x))
print(x.argwhere())
print(torch.argwhere(x > 0))
print(torch.tensor(5.0).nonzero(), torch.tensor(5.0).nonzero(as_tuple=True))
print(torch.tensor(0.0).nonzero(as_tuple=True))
print(torch.tensor([True, False, True]).nonzero().squeeze(1))
idx = (x != 0).nonzero()
print(idx.dtype, idx.shape, idx.is_contiguous(), idx.stride())
print(torch.zeros(0, 3).nonzero())
rows, cols = x.nonzero(as_tuple=True)
print(x[rows, cols])
print(x.equal(x.clone()), torch.equal(x, x[:1]), x.equal(torch.tensor([[0, 1.5, 0], [2, 0, -3.0]])))
y = x + 1e-7
print(x.isclose(y), x.allclose(y), x.allclose(y, atol=0.0, rtol=0.0))
print(torch.tensor([float("nan")]).isclose(torch.tensor([float("nan")]), equal_nan=True))
try:
    x.isclose(x.double())
except RuntimeError as e:
    print("RuntimeError:", e)
print(x.greater(0), x.greater_equal(0), x.less(0), x.less_equal(0), x.not_equal(0))
print(torch.greater(x, 1.0), torch.not_equal(x, x))
print(x.signbit(), torch.tensor([-0.0, 0.0, -1.0]).signbit(), torch.tensor([-2, 3]).signbit())
