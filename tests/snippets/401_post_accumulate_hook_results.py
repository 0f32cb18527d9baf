# What a post-accumulate-grad hook may return: None or the tensor itself (an in-place update's result); another
# tensor is torch's RuntimeError, anything else its TypeError; the hook runs under the backward's grad mode.
import torch

for make in (lambda p: None, lambda p: p.mul_(1.0), lambda p: p * 2, lambda p: 1):
    x = torch.ones(2, requires_grad=True)
    x.register_post_accumulate_grad_hook(make)
    try:
        (x * 3).sum().backward()
        print("ok", x.grad)
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
x = torch.ones(2, requires_grad=True)
x.register_post_accumulate_grad_hook(lambda p: print("grad mode", torch.is_grad_enabled()))
torch.autograd.grad((x * 3).sum(), x)
(x * 3).sum().backward()
