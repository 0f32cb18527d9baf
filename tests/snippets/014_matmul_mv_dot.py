import torch

M = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
v = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
out = torch.matmul(M, v)
print(out)
out.sum().backward()
print(M.grad)
print(v.grad)
u = torch.tensor([3.0, 4.0], requires_grad=True)
d = u @ u
print(d)
d.backward()
print(u.grad)
