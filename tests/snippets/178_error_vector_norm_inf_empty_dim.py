# torch's error, its missing space included
import torch
print(torch.linalg.vector_norm(torch.ones(2, 3, 0), ord=float("inf"), dim=-1))
