import torch
x = torch.tensor([180., 90., -45.], requires_grad=True)
y = torch.deg2rad(x)
print(y, y.dtype)
y.sum().backward()
print(x.grad)
print(torch.rad2deg(torch.tensor([3, 1])), torch.deg2rad(torch.tensor([1.5], dtype=torch.float64)))
print(torch.deg2rad(torch.tensor([33.3], dtype=torch.float16)))
z = torch.tensor([0.3, -1.2], requires_grad=True)
w = torch.rad2deg(z * 2)
print(w, w.grad_fn.name())
w.backward(torch.ones(2))
print(z.grad)
print(torch.signbit(torch.tensor([-0., 1, -2])), torch.signbit(torch.tensor([-1, 1])), torch.signbit(torch.tensor([True])))
print(torch.positive(torch.tensor([2])))
try:
    torch.positive(torch.tensor([True]))
except RuntimeError as e:
    print("RuntimeError:", e)
