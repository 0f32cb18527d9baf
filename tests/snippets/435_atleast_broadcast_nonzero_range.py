import torch
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.ones(2, 3, requires_grad=True)
for f in (torch.atleast_1d, torch.atleast_2d, torch.atleast_3d):
    for t in (a, b, c):
        r = f(t)
        print(r.shape, r.grad_fn.name() if r.grad_fn is not None else None, r is t)
    print(f(a, b))
    print(f((a, c)))
    print(f([b]))
x, y = torch.broadcast_tensors(torch.tensor([[1.0], [2.0]], requires_grad=True), torch.tensor([3.0, 4.0, 5.0]))
print(x, y)
print(torch.nonzero(torch.tensor([[0, 1], [2, 0]])), torch.argwhere(torch.tensor([0.0, 1.5, -2.0])))
print(torch.nonzero(torch.tensor([[0, 1], [2, 0]]), as_tuple=True))
print(torch.nonzero(torch.tensor(3)), torch.nonzero(torch.tensor(0.0), as_tuple=True), torch.nonzero(torch.zeros(0, 2)))
print(torch.nonzero(torch.tensor([True, False, True])))
print(torch.get_device(torch.zeros(1)))
print(torch.scalar_tensor(3), torch.scalar_tensor(2, dtype=torch.int32), torch.scalar_tensor(True))
print(torch.range(1, 4), torch.range(0, 1, 0.25), torch.range(1, 3, dtype=torch.int64))
try:
    torch.broadcast_tensors(torch.zeros(2), torch.zeros(3))
except RuntimeError as e:
    print("RuntimeError:", e)
