import torch

lr = 0.0
steps = 10
print(steps / lr)
