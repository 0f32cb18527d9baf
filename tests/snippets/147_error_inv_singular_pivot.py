# torch.linalg.LinAlgError, printed under its C name, naming the zero pivot of the LU
import torch
print(torch.linalg.inv(torch.tensor([[1.0, 2.0], [2.0, 4.0]])))
