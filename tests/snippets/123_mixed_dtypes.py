# A 0-d float64 tensor (or an integer tensor) in a float32 op: torch computes in float32 (the result dtype),
# forward and backward, and casts each gradient to its tensor's dtype at the end.  Also div's rounded modes,
# whose gradient is zero for both operands.
import torch
x = torch.tensor([1.1, 2.3, 3.7, 0.3], requires_grad=True)
y = torch.tensor(0.1234567, dtype=torch.float64, requires_grad=True)
n = torch.tensor([3, -2, 7, 1])
(x * y * 3.3).sin().sum().backward()
print(x.grad.tolist(), y.grad.item())
x.grad = None
y.grad = None
(x / y).exp().sum().backward()
print(x.grad.tolist(), y.grad.item())
x.grad = None
y.grad = None
torch.atan2(x, y).sum().backward()
print(x.grad.tolist(), y.grad.item())
x.grad = None
y.grad = None
torch.hypot(x, y).sum().backward()
print(x.grad.tolist(), y.grad.item())
x.grad = None
y.grad = None
torch.addcdiv(x, y, y, value=0.3).sum().backward()
print(x.grad.tolist(), y.grad.item())
x.grad = None
y.grad = None
z = torch.addcmul(x, y, y, value=0.7)
z.sum().backward()
print(z.tolist(), x.grad.tolist(), y.grad.item())
x.grad = None
y.grad = None
torch.lerp(x, 2 * x.detach(), y).sum().backward()
print(x.grad.tolist(), y.grad.item())
x.grad = None
(x * n / 7).sum().backward()
print(x.grad.tolist())
a = torch.tensor([1.5, -2.5, 3.0], requires_grad=True)
b = torch.tensor([[2.0], [-3.0]], requires_grad=True)
q = torch.div(a, b, rounding_mode="floor")
print(q, q.grad_fn)
(q * 2).sum().backward()
print(a.grad, b.grad)
print(torch.div(a, 2, rounding_mode="trunc"))
y.grad = None
w = y * 3 + 0.1
(x * w).exp().sum().backward()
print(y.grad.item(), y.grad.dtype)
(gx,) = torch.autograd.grad(((x * y) ** 2 / (x + y)).sum(), x, create_graph=True)
print(gx.tolist())
