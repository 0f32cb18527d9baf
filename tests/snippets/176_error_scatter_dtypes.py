# torch's error, word for word
import torch
F = torch.nn.functional
x = torch.arange(10.).reshape(1, 1, 10)
x4 = torch.randn(1, 2, 5, 5)
print(torch.randn(3).scatter(0, torch.tensor([0]), torch.randn(1, dtype=torch.float64)))
