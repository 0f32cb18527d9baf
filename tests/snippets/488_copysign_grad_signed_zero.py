# copysign's gradient where the input is 0: torch's grad * ratio with the ratio masked to 0, so a negative
# incoming gradient gives -0.0 (fuzz_differential elementwise seed 21 #2181, #2024, #42)
import torch

x = torch.tensor([[0.0, -0.0, 1.5], [-2.0, 0.0, 3.0]], requires_grad=True)
g = torch.tensor([[-1.0, -2.0, 0.5], [1.0, 2.0, -0.25]])
torch.copysign(x, 2.5).backward(g)
print(x.grad.tolist())
x.grad = None
torch.copysign(x, torch.tensor([-1.0, 1.0, -0.0])).backward(g)
print(x.grad.tolist())
