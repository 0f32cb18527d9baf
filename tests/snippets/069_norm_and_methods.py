import torch

x = torch.tensor([3.0, -4.0], requires_grad=True)
n = x.norm()
print(n)
n.backward()
print(x.grad)
y = x.pow(2).abs().sqrt().exp().log()
print(y)
print(x.abs().max(), x.min().item())
