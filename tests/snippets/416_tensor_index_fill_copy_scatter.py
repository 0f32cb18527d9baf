import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
f = x.index_fill(1, torch.tensor([0, 2]), -1.0)
print(f, f.grad_fn)
(f * torch.arange(6.0).reshape(2, 3)).sum().backward()
print(x.grad)
print(torch.index_fill(x.detach(), 0, torch.tensor([-1]), 7), x.detach().index_fill(0, torch.tensor([0]), torch.tensor(9.0)))
x.grad = None
src = torch.tensor([[10.0], [20.0]], requires_grad=True)
c = x.index_copy(1, torch.tensor([1]), src)
print(c, c.grad_fn)
(c * torch.arange(6.0).reshape(2, 3)).sum().backward()
print(x.grad, src.grad)
x.grad = None
mask = x.detach() > 2.5
s = torch.tensor([100.0, 200.0, 300.0, 400.0, 500.0], requires_grad=True)
m = x.masked_scatter(mask, s)
print(m, m.grad_fn)
(m * torch.arange(6.0).reshape(2, 3)).sum().backward()
print(x.grad, s.grad)
print(torch.zeros(2, 2).masked_scatter(torch.tensor([True, False]), torch.arange(1.0, 5.0)))
y = torch.zeros(3, 2)
y.index_fill_(0, torch.tensor([1]), 5.0)
y.index_copy_(0, torch.tensor([2]), torch.ones(1, 2))
y.masked_scatter_(y == 0, torch.tensor([7.0, 8.0, 9.0]))
print(y, y._version)
for bad in (lambda: x.index_fill(1, torch.tensor([3]), 0.0), lambda: x.index_fill(1, torch.tensor([0.0]), 0.0),
            lambda: x.masked_scatter(mask, torch.ones(2)), lambda: x.index_copy(1, torch.tensor([0]), torch.ones(2, 2))):
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__ + ":", e)

v = torch.tensor([1.0, -0.0, float("inf"), -float("inf"), float("nan")])
print(v.isposinf(), v.isneginf(), torch.isposinf(torch.tensor([1, 2])))
a, b = torch.tensor([12, -18, 0, 7]), torch.tensor([8, 12, 5, 0])
print(a.gcd(b), a.lcm(b), torch.gcd(a, b), a.gcd(torch.tensor(4)))
try:
    torch.tensor([1.0]).gcd(torch.tensor([2.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
w = torch.tensor([0.75, -1.5, 3.0], requires_grad=True)
e = torch.tensor([1, -2, 3])
l = w.ldexp(e)
print(l, l.grad_fn, torch.ldexp(torch.tensor([1.0]), torch.tensor([2.5])))
l.sum().backward()
print(w.grad)
w.grad = None
mant, expo = w.frexp()
print(mant, expo, mant.grad_fn)
(mant * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(w.grad)
print(torch.frexp(torch.tensor([0.0, 1e-40, 8.0, -0.3], dtype=torch.float64)))
try:
    torch.tensor([3]).frexp()
except RuntimeError as e:
    print("RuntimeError:", e)
