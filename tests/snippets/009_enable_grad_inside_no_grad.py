import torch

x = torch.tensor(2.0, requires_grad=True)
with torch.no_grad():
    a = x * 3
    with torch.enable_grad():
        b = x * 3
print(a.requires_grad, b.requires_grad)
b.backward()
print(x.grad)
torch.set_grad_enabled(False)
c = x + 1
torch.set_grad_enabled(True)
print(c.requires_grad)
