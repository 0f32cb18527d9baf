import torch

a = torch.tensor([[2.0, 1.0], [1.0, 3.0], [0.5, -1.0]], requires_grad=True)
q, r = a.qr()
print(q, r)
print(a.qr())
(q.sum() + r.sum()).backward()
print(a.grad)
a.grad = None
p = a.pinverse()
print(p, p.grad_fn)
p.pow(2).sum().backward()
print(a.grad)
print(torch.pinverse(torch.tensor([[1.0, 2.0], [2.0, 4.0]])), torch.tensor([[1.0, 2.0], [2.0, 4.0]]).pinverse(rcond=0.5))
q2, r2 = torch.qr(a.detach().double())
print(q2.shape, r2.shape)
