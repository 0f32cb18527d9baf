# torch's error, word for word
import torch
print(torch.cummin(torch.tensor(1.), -2))
