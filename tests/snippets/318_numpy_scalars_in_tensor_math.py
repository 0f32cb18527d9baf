# numpy scalars and arrays in tensor arithmetic follow torch's type promotion
import numpy as np
import torch

t = torch.ones(2)
print(t * np.float64(2.0), np.float64(2.0) * t, t + np.float32(0.5), t * np.int64(3))
print(t + np.ones(2), t * np.arange(2.0), t - np.array([1, 2], dtype=np.int32))
print(torch.tensor([1, 2]) * np.float64(1.5), torch.tensor([1, 2]) + np.int64(1))
print(t == np.ones(2), torch.tensor(np.float64(3.0)) + t)
print(t.sum().item() + np.float32(1), float(np.float32(0.1)), int(np.int64(7)))
