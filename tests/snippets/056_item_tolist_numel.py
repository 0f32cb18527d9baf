import torch

x = torch.tensor([[1.5, 2.5], [3.5, 4.5]], requires_grad=True)
print(x.sum().item(), type(x.sum().item()))
print(x.tolist())
print(x.numel(), x.dim(), x.ndim)
print(torch.tensor(7).item(), torch.tensor([3]).item())
print(float(x[0, 0]), int(x[1, 1]))
