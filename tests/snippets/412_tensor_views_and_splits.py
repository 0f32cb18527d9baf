import torch

x = torch.arange(1.0, 9.0).reshape(2, 4).requires_grad_()
r = x.ravel()
print(r, r.grad_fn, r._base is x)
rt = x.t().ravel()
print(rt, rt.grad_fn, rt.grad_fn.next_functions[0][0].name())
a = x.adjoint()
print(a, a.grad_fn, a.shape)
parts = x.tensor_split(3, dim=1)
print(parts)
print(torch.tensor_split(x, [1, 3], dim=1))
print(x.tensor_split(torch.tensor([1, 6]), dim=1))
print(x.hsplit(2), x.vsplit([1]))
print(torch.arange(6.0).hsplit(3))
print(torch.arange(8.0).reshape(2, 2, 2).dsplit(2))
print(x.split_with_sizes([1, 3], 1))
loss = sum((p * (i + 1)).sum() for i, p in enumerate(x.tensor_split(3, dim=1)))
loss.backward()
print(x.grad)
for bad in (lambda: x.hsplit(3), lambda: torch.arange(4.0).vsplit(2), lambda: x.dsplit(2),
            lambda: x.tensor_split(0, dim=1)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
y = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
s = y.sum_to_size(1, 3)
print(s, s.grad_fn)
s2 = y.sum_to_size(3)
print(s2, s2.grad_fn)
print(y.sum_to_size(2, 3) is y, y.sum_to_size((2, 1)))
(s * torch.tensor([[1.0, 2.0, 3.0]])).sum().backward()
print(y.grad)
try:
    y.sum_to_size(2)
except RuntimeError as e:
    print("RuntimeError:", e)
m = torch.tensor([[3.0, 1.0], [2.0, 5.0], [1.0, 4.0]], requires_grad=True)
ms = m.msort()
print(ms, ms.grad_fn)
(ms * torch.tensor([[1.0, 10.0], [2.0, 20.0], [3.0, 30.0]])).sum().backward()
print(m.grad)
print(m.positive() is m)
try:
    torch.tensor([True]).positive()
except RuntimeError as e:
    print("RuntimeError:", e)
