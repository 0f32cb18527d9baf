import torch

w = torch.tensor(3.0, requires_grad=True)
z = torch.tensor(4.0)
out = w * z
out.backward()
print(w.grad, z.grad)
print(z.requires_grad, out.requires_grad)
