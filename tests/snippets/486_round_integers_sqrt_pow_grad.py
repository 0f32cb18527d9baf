# round of an integer tensor keeps it (int64, so k.round() * x is float32), round(decimals=) and bool have no
# integer kernel (torch's errors); the gradient of x ** 0.5 at -0.0 is torch's rsqrt's -inf (fuzz_differential)
import torch

k = torch.tensor([1, -2, 3])
print(k.round(), k.round().dtype, (k.round() * torch.ones(3)).dtype)
for d in [0, 2, -1]:
    try:
        print(k.round(decimals=d))
    except NotImplementedError as e:
        print("NotImplementedError:", e)
try:
    print(torch.tensor([True, False]).round())
except NotImplementedError as e:
    print("NotImplementedError:", e)
x = torch.tensor([0.0, -0.0, 4.0, -1.0, 2.25], requires_grad=True)
(x ** 0.5).backward(torch.ones(5))
print(x.grad)
x = torch.tensor([0.0, -0.0, 4.0, -1.0, 2.25], dtype=torch.float64, requires_grad=True)
(x ** 0.5).sum().backward()
print(x.grad)
