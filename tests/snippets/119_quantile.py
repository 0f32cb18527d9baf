# quantile and nanquantile: every interpolation, dims, keepdim, a tensor of q (torch's sort, gather and in-place lerp,
# so float32 results carry the same last bits), gradients through all of them.
import torch
x = torch.tensor([[3.0, 1.0, 2.0, 5.0], [0.5, 4.0, -1.0, 2.0], [1.0, 1.0, 7.0, -3.0]], requires_grad=True)
w = torch.arange(1.0, 7.0)
outs = []
for q in [0.3, torch.tensor([0.25, 0.5, 0.9])]:
    for kw in [{}, {"dim": 1}, {"dim": 0, "keepdim": True}, {"interpolation": "lower"}, {"interpolation": "higher", "dim": 1},
               {"interpolation": "midpoint", "dim": 0}, {"interpolation": "nearest", "dim": -1, "keepdim": True}]:
        r = torch.quantile(x, q, **kw)
        print(r)
        outs.append(r)
print(x.quantile(0.5), torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0, 2.0]), 0.5), torch.quantile(torch.tensor([1.0, float("nan"), 3.0]), 0.5))
total = sum((r * torch.arange(r.numel()).reshape(r.shape).cos()).sum() for r in outs)
total.backward()
print(x.grad)
