# torch's error, word for word
import torch
print(torch.nn.functional.conv2d(torch.randn(1, 1, 2, 5), torch.randn(1, 1, 3, 3), padding=(0, 1)))
