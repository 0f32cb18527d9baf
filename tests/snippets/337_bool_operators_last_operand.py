# `a or b` / `a and b` never ask the last operand's truth: a hook written 'lambda g: seen.append(g) or g * 2' returns the
# tensor (it raised 'Boolean value of Tensor with more than one value is ambiguous').
import torch
t = torch.tensor([1.0, 2.0])
print(None or t)
print(t if None else 3)
f = lambda g: None or g
print(f(t))
print(1 and t)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
seen = []
x.register_hook(lambda g: seen.append(g.tolist()) or g * 2)
(x * x).sum().backward()
print(x.grad, seen)
