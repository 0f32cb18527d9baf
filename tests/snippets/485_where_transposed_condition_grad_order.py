# where(cond, x[0], x.t()) with a transposed condition: torch lays its gradient out as the condition, so the
# sum back to the broadcast x[0] adds in the transposed order (fuzz_differential elementwise seed 11 #1220)
import torch

torch.manual_seed(0)
x = (torch.randn(33, 33, dtype=torch.float64) * 2).round(decimals=1).requires_grad_()
out = torch.where(x[0] > x.t(), x[0], x.t())
g = torch.randn(33, 33, dtype=torch.float64)
out.backward(g)
print(x.grad[0].tolist())
y = x.detach().float().requires_grad_()
torch.where(y[0] > y.t(), y[0], y.t()).backward(g.float())
print(y.grad[0].tolist())
