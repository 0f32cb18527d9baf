import torch

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.no_grad():
    w[0] = 10.0
    w[1:] *= 2
print(w)
m = torch.zeros(2, 3)
m[:, 1] = torch.tensor([7.0, 8.0])
m[0] += 1
print(m)
y = w * 1
y[2] = 0.0
print(y)
y.sum().backward()
print(w.grad)
