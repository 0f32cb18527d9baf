# torch's error, word for word
import torch
print(torch.linalg.cholesky(torch.stack([torch.eye(2), torch.tensor([[1., 2], [2, 1]])])))
