from collections import namedtuple

import torch

Batch = namedtuple("Batch", ["inputs", "targets"])
b = Batch(torch.ones(2, 3), torch.zeros(2))
print(b.inputs.shape, b.targets, b[0].sum(), len(b))
inputs, targets = b
print(inputs.shape == b.inputs.shape, targets.dtype)
print(b._fields if False else ("inputs", "targets"))
