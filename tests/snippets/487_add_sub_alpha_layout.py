# add/sub with alpha of a transposed operand: the result is laid out as torch's (transposed), so a following
# sum adds in torch's order (fuzz_differential elementwise seed 21 #2439, #1242)
import torch

torch.manual_seed(0)
for n in (8, 17, 33):
    x = torch.randn(n, n, dtype=torch.float64)
    k = torch.randint(-3, 3, (n,))
    print(torch.sub(x[0], x.t(), alpha=2).sum().item(), torch.add(x.t(), x, alpha=0.3).sum().item())
    print(torch.sub(x.t().float(), k, alpha=2).sum(0).tolist())
    print(torch.add(x.t(), k, alpha=3).sum(1).tolist())
