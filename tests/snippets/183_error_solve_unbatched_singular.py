# torch's error, word for word
import torch
print(torch.linalg.solve(torch.zeros(3, 3), torch.ones(2, 3, 1)))
