# torch.tensor of a list holding tensors: each element is taken as a number (one-element tensors only), as d2l's
# grad_f builds torch.tensor([torch.exp(x) / ..., torch.exp(y) / ...]) from 1-element tensors.
import torch
for v in ([[torch.tensor([0.5])], [torch.tensor([0.25])]], [torch.tensor(0.5), torch.tensor(0.25)], [torch.tensor([[0.5]]), torch.tensor([[0.25]])], [torch.tensor([0.5]), 3], [torch.tensor([1]), torch.tensor([2.5])], [torch.tensor([1]), torch.tensor([2])], [torch.tensor([1.0, 2.0])]):
    try:
        t = torch.tensor(v)
        print(t, t.shape, t.dtype)
    except Exception as e:
        print(type(e).__name__, e)
