import torch
import torch.nn as nn

# an in-place activation may not overwrite a leaf that requires grad
w = torch.tensor([-1.0, 2.0], requires_grad=True)
print(nn.ReLU()(w), w)
nn.ReLU(inplace=True)(w)
