# nansum in a requested dtype, topk of a 0-d tensor with k=0, cummax of a 0-d tensor
import torch
x = torch.tensor([1.5, float("nan"), 2.25], requires_grad=True)
y = torch.nansum(x, dtype=torch.float64)
print(y, y.dtype)
y.backward()
print(x.grad)
print(torch.topk(torch.tensor(2.), 0))
print(torch.cummax(torch.tensor(3.), -1))
