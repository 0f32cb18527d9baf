# Backward formulas as PyTorch's derivatives.yaml and kernels write them, to the last bit: atanh's
# grad / (1 - x*x), log10's grad / (x * 2.3025850929940456) (its literal, not ln 10 rounded), tanh's
# grad * (1 - y*y) with the multiply-add fused.
import torch

torch.manual_seed(3)
for dtype in (torch.float32, torch.float64):
    x = (torch.rand(24, dtype=dtype) * 1.9 - 0.95).requires_grad_()
    g = torch.randn(24, dtype=dtype)
    torch.atanh(x).backward(g)
    print(x.grad.tolist())
    p = (torch.rand(24, dtype=dtype) * 9 + 0.1).requires_grad_()
    torch.log10(p).backward(g)
    print(p.grad.tolist())
t = (torch.rand(24) * 4 - 2).requires_grad_()
y = torch.tanh(t)
y.backward(torch.randn(24))
print(y.tolist())
print(t.grad.tolist())
