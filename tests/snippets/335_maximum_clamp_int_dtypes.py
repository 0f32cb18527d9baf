# maximum, minimum, max(a, b) and clamp with tensor bounds keep integer and bool dtypes (they printed float32).
import torch
a = torch.tensor([1, 5, -2]); b = torch.tensor([3, 2, -2])
print(torch.maximum(a, b), torch.minimum(a, b), torch.max(a, b), torch.fmax(a, b) if hasattr(torch, "fmax") else "")
print(torch.maximum(torch.tensor([True, False]), torch.tensor([False, False])))
print(torch.clamp(a, min=b), torch.clamp(a, max=b), torch.clamp(a, b, torch.tensor([4, 4, 4])))
print(torch.maximum(a, torch.tensor([0.5, 7.0, 1.0])))
print(torch.clamp(a.float(), min=b))
print(torch.maximum(torch.tensor([1, 2], dtype=torch.int32), torch.tensor([3, 1], dtype=torch.int64)).dtype)
x = torch.tensor([1.0, 5.0], requires_grad=True); y = torch.maximum(x, torch.tensor([3, 2])); print(y); y.sum().backward(); print(x.grad)
