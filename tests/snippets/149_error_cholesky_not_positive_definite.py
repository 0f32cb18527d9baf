# torch.linalg.LinAlgError from cholesky
import torch
print(torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]])))
