# a bare raise re-raises the torch error: reported at the line that raised it
import torch

x = torch.ones(2)
try:
    y = x.view(3)
except RuntimeError:
    print("cleaning up")
    raise
