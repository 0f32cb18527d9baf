# Rearranging and reducing: narrow, select, movedim, tile, unbind, vstack/hstack, broadcast_to, flips, rot90,
# take_along_dim, masked_select, unflatten, repeat_interleave, scatter(_add), index_add, .H/.mH, nansum, nanmean,
# var_mean, std_mean, logcumsumexp, diff, trapezoid, any/all/count_nonzero, meshgrid; one backward through all.
import torch
x = torch.tensor([[1.0, -2.0, 3.0, 0.5], [4.0, 5.0, -6.0, 2.0], [0.0, 1.5, 2.5, -1.0]], requires_grad=True)
w = torch.arange(12.0).reshape(3, 4)
outs = {
  "narrow": x.narrow(1, 1, 2), "narrow_neg": torch.narrow(x, 0, -2, 2), "select": x.select(1, 2),
  "movedim": torch.movedim(x, 0, 1), "moveaxis": x.moveaxis(1, 0), "tile": x.tile((2,)), "tile2": torch.tile(x, (2, 1, 1)),
  "unbind0": x.unbind(1)[2], "vstack": torch.vstack([x[0], x[1]]), "hstack": torch.hstack((x, x)), "hstack1": torch.hstack([x[0], x[1]]),
  "broadcast_to": x[0].broadcast_to(2, 4), "fliplr": x.fliplr(), "flipud": torch.flipud(x), "rot90": x.rot90(), "rot90k": torch.rot90(x, 3, [1, 0]),
  "tad": torch.take_along_dim(x, torch.tensor([[0], [2], [3]]), dim=1), "tadnone": torch.take_along_dim(x, torch.tensor([0, 5, 11])),
  "masked_select": x.masked_select(x > 0.7), "ms_bcast": torch.masked_select(x, torch.tensor([True, False, True, False])),
  "unflatten": x.unflatten(1, (2, 2)), "ri": x.repeat_interleave(2), "ri_dim": x.repeat_interleave(2, dim=0), "ri_t": x.repeat_interleave(torch.tensor([1, 0, 2]), dim=0),
  "scatter_v": x.scatter(1, torch.tensor([[0], [2], [1]]), 9.0), "scatter_t": x.scatter(0, torch.tensor([[2, 1, 0, 0]]), x[:1] * 2),
  "scatter_add": x.scatter_add(1, torch.tensor([[0, 0], [3, 1], [2, 2]]), x[:, :2] * 3), "index_add": x.index_add(0, torch.tensor([2, 0]), x[:2] * 2, alpha=0.5),
  "H": x.H, "mH": x.mH, "nansum": torch.nansum(x), "nansum1": x.nansum(1), "nanmean": torch.nanmean(x, dim=0),
  "var_mean0": torch.var_mean(x)[0], "var_mean1": torch.var_mean(x, dim=1)[1], "std_mean": torch.std_mean(x, 0, keepdim=True)[0], "std_mean_u": torch.std_mean(x, unbiased=False)[1],
  "logcumsumexp": torch.logcumsumexp(x, 1), "lcse0": x.logcumsumexp(dim=0), "diff": torch.diff(x), "diff2": x.diff(n=2, dim=0), "diffpa": torch.diff(x, dim=1, prepend=torch.zeros(3, 1), append=x[:, :1]),
  "trapz": torch.trapezoid(x), "trapz_dx": torch.trapezoid(x, dx=0.5, dim=0), "trapz_x": torch.trapezoid(x, torch.tensor([0.0, 1.0, 3.0, 4.5])),
}
total = 0
for k, v in outs.items():
    print(k, v)
    total = total + (v * torch.arange(v.numel()).reshape(v.shape).float()).sum()
total.backward()
print(x.grad)
print(torch.any(x > 4), x.all(), torch.all(x > -10, dim=1), x.any(0, keepdim=True), torch.count_nonzero(x), torch.count_nonzero(x, dim=0))
g1, g2 = torch.meshgrid(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0]), indexing="xy")
print(g1, g2, torch.meshgrid(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0]), indexing="ij"))
print(torch.nanmean(torch.tensor([1.0, float("nan"), 3.0])), torch.nansum(torch.tensor([1.0, float("nan")])))
