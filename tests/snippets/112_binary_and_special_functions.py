# Binary ops learners write: %, &, |, ~, fmod/remainder, hypot, logaddexp, div(rounding_mode=), copysign, float_power,
# fmax/fmin, addcmul/addcdiv, logical_*; special functions lgamma, digamma, erfinv, logit, sinc, nan_to_num (values, grads).
import torch
x = torch.tensor([5.5, -3.0, 2.0], requires_grad=True)
y = torch.tensor([2.0, 2.0, -1.5], requires_grad=True)
r = x % y
print(r, x % 2, 7 % y)
m = (x > 0) & (y > 0)
print(m, (x > 0) | (y > 0), ~m, torch.tensor([6, 3]) & 5)
print(torch.fmod(x, y), torch.remainder(x, -2), torch.hypot(x, y), torch.logaddexp(x, y))
print(torch.div(x, y, rounding_mode="floor"), torch.div(x, y, rounding_mode="trunc"), torch.div(torch.tensor([-7, 7]), 2, rounding_mode="trunc"))
print(torch.copysign(x, y), torch.copysign(x, -1.0), torch.float_power(x, 2))
print(torch.fmax(x, torch.tensor([float("nan"), 0.0, 3.0])), torch.addcmul(x, x, y, value=0.5), torch.addcdiv(x, x, y, value=2))
print(torch.logical_and(x > 0, y), torch.logical_not(x), torch.logical_xor(x, y > 0))
(r.sum() + torch.hypot(x, y).sum() + torch.logaddexp(x, y).sum() + torch.copysign(x, y).sum() + torch.fmax(x, y).sum()
 + torch.addcmul(x, x, y).sum() + torch.addcdiv(x, x, y, value=2).sum() + torch.fmod(x, y).sum()).backward()
print(x.grad, y.grad)
p = torch.tensor([0.1, 0.5, 0.95], requires_grad=True)
out = torch.lgamma(p * 3) + torch.digamma(p + 1) + torch.erfinv(p) + torch.logit(p) + torch.logit(p, eps=0.2) + torch.sinc(p) + torch.nan_to_num(p.log())
out.sum().backward()
print(out, p.grad)
print(torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0])), torch.nan_to_num(torch.tensor([float("nan"), float("inf")]), nan=2.0, posinf=9.0))
print(torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)))
print((x % 2).grad_fn, (x % y).grad_fn, torch.div(x, 2, rounding_mode="floor").grad_fn)
