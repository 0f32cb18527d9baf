# norm(p='fro') over more than two dims is a matrix norm in torch/functional.py: matrix_norm's error
# (fuzz_differential sum seed 12 #421, #460)
import torch

x = torch.ones(2, 3, 4, 5)
try:
    print(x.norm(dim=(0, 2, 3)))
except RuntimeError as e:
    print("RuntimeError:", e)
print(x.norm(dim=(0, 2)).shape, torch.norm(x, p="fro", dim=1).shape)
