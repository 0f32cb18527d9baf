from functools import partial, reduce

import torch
import torch.nn.functional as F

leaky = partial(F.leaky_relu, negative_slope=0.2)
x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
y = leaky(x)
print(y)
y.sum().backward()
print(x.grad)
product = reduce(lambda a, b: a * b, [1, 2, 3, 4])
total = reduce(lambda a, b: a + b, [torch.ones(2), torch.ones(2) * 2, torch.ones(2) * 3])
print(product, total, reduce(max, [3, 9, 2], 0))


def power(base, exponent):
    return base ** exponent


square = partial(power, exponent=2)
print(square(torch.tensor(3.0)), [square(i) for i in range(4)])
