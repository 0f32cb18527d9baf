import math

import torch

print(math.pi, math.e, math.sqrt(2), math.exp(1), math.log(10), math.log(8, 2), math.log10(1000))
print(math.floor(2.7), math.ceil(2.1), math.isclose(0.1 + 0.2, 0.3), math.inf > 1e308, math.isnan(math.nan))
print(math.cos(0), math.sin(math.pi / 2), math.tanh(0.5), math.atan2(1, 1), math.degrees(math.pi))
print(math.hypot(3, 4), math.fabs(-2), math.pow(2, 10), math.erf(0.5), math.gamma(5), math.lgamma(10.5))
print(math.factorial(5), math.gcd(12, 18), math.fsum([0.1] * 10), math.prod([1, 2, 3, 4]), math.comb(5, 2))
x = torch.tensor(math.pi / 4)
print(torch.sin(x), math.sin(math.pi / 4), torch.tensor(math.sqrt(2.0)))
lr = 0.1 * math.exp(-0.5 * 3)
print(f"{lr:.6f}", round(lr, 3), round(2.5), round(3.5), round(-1.25, 1))
