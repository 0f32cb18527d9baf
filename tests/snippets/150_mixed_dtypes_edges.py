# Mixed dtypes through cat, stack and a loss (each gradient cast to its input's dtype at the edge, as torch's
# engine does), and float16 with a float32 0-d operand (torch keeps the operand in float32 there).
import torch
torch.manual_seed(0)
x = torch.rand(2000, requires_grad=True)
z = torch.rand(5, dtype=torch.float64, requires_grad=True)
w = torch.rand(2005, dtype=torch.float64)
(torch.cat([x * 1.7, z]) * w).sum().backward()
print(x.grad[:8].tolist(), x.grad.sum().item(), z.grad.tolist())
x.grad = None
z.grad = None
(torch.stack([x[:5].exp(), z]) * w[:5]).sum().backward()
print(x.grad[:6].tolist(), z.grad.tolist())
x.grad = None
t64 = torch.rand(2000, dtype=torch.float64)
l = torch.nn.functional.mse_loss(x * 0.5, t64)
l.backward()
print(round(l.item(), 10), l.dtype, x.grad[:6].tolist(), x.grad.sum().item())
h = torch.tensor([2.560546875, 9.0], dtype=torch.float16, requires_grad=True)
s = torch.tensor(0.1234567, requires_grad=True)
(h * s).backward(torch.tensor([1.0693359375, 8.578125], dtype=torch.float16))
print(h.grad.tolist(), s.grad.item())
h.grad = None
(h / s).backward(torch.tensor([1.0693359375, 8.578125], dtype=torch.float16))
print(h.grad.tolist())
