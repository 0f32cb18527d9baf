# torch.linalg.LinAlgError for a batch: the element named
import torch
A = torch.stack([torch.eye(2), torch.tensor([[1.0, 2.0], [2.0, 4.0]])])
print(torch.linalg.solve(A, torch.ones(2, 2)))
