# Saved values modified in place after the node saved them: reading them is torch's version-counter error, as
# backward's; torch.as_tensor with device='cuda' as a CPU-only torch.
import torch
a = torch.rand(3, requires_grad=True)
b = a * 1
y = b * b
b.add_(1)
try:
    print(y.grad_fn._saved_self)
except RuntimeError as e:
    print("RuntimeError:", e)
z = a.exp()
z.mul_(2)
node = z.grad_fn.next_functions[0][0]
print(node.name())
try:
    print(node._saved_result)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.as_tensor([1.0], device="cuda")
except AssertionError as e:
    print("AssertionError:", e)
