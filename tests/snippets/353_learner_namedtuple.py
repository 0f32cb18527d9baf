from collections import namedtuple

import torch

Batch = namedtuple("Batch", ["inputs", "targets"])
b = Batch(torch.ones(2, 3), torch.zeros(2))
print(b.inputs.shape, b.targets, b[0].sum(), len(b))
inputs, targets = b
print(inputs.shape == b.inputs.shape, targets.dtype)
Point = namedtuple("Point", "x y", defaults=[0])
p = Point(1)
print(p, Point(2, 3), p.x + p.y, p == (1, 0), isinstance(p, tuple), type(p).__name__, Point, type(p))
print([Point(i) for i in range(2)], {"origin": Point(0, 0)}, max(Point(5, 1)), list(Point(7, 8)))
try:
    Point()
except TypeError as e:
    print("TypeError:", e)
