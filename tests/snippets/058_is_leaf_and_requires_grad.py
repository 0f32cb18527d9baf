import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([1.0, 2.0])
c = a * b
d = b * 2
print(a.is_leaf, b.is_leaf, c.is_leaf, d.is_leaf)
print(a.requires_grad, b.requires_grad, c.requires_grad, d.requires_grad)
b.requires_grad_()
print(b.requires_grad, b)
e = torch.ones(2)
e.requires_grad = True
print(e)
