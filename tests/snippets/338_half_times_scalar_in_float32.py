# float16 times / over a one-element other (a Python number, a 0-d tensor): torch takes its value in float32, computes in
# float32 and rounds once (gradcli rounded the number to float16 first: h * 0.7 gave 1.05078125 for 1.5).
import torch
h = torch.tensor([1.0498046875, 1.5, 0.333251953125, 3.0, 100.0, 65000.0, 1e-5], dtype=torch.float16)
print((h * 0.7).tolist(), (h / 0.7).tolist(), (h * 3).tolist(), (h / 3).tolist())
print((h * torch.tensor(0.7, dtype=torch.float64)).tolist(), (h / torch.tensor(0.7)).tolist(), (h * torch.tensor([0.7], dtype=torch.float16)).tolist())
z = torch.tensor(1.5, dtype=torch.float16)
print((z * torch.tensor(0.7, dtype=torch.float64)).dtype, (z * 0.7).tolist(), (z / 0.7).tolist())
print((h * 1e6).tolist(), (h * torch.tensor(True)).tolist())
w = torch.tensor([1.5, 3.0], dtype=torch.float16, requires_grad=True)
y = w * 0.7
y.sum().backward()
print(y.tolist(), w.grad.tolist())
