# an ndarray on the left of a tensor: numpy defers, the tensor refuses arrays (Python's TypeError)
import numpy as np
import torch

a = np.ones(2)
t = torch.ones(2)
print(t * a)
try:
    a * t
except TypeError as e:
    print(e)
print(a + t)
