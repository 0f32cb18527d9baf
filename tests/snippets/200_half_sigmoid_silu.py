# float16 sigmoid and silu compute in float32 (PyTorch's opmath) and round once, forward and backward.
import torch

torch.manual_seed(4)
x = (torch.randn(40) * 3).half().requires_grad_()
g = torch.randn(40).half()
y = torch.nn.functional.silu(x)
y.backward(g)
print(y.tolist())
print(x.grad.tolist())
x.grad = None
s = torch.sigmoid(x)
s.backward(g)
print(s.tolist())
print(x.grad.tolist())
