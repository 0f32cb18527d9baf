import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
(w * w).sum().backward()
print(w.grad)
opt.zero_grad()
print(w.grad)
(w * w).sum().backward()
opt.zero_grad(set_to_none=False)
print(w.grad)
