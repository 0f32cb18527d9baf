# torch.inference_mode's inference tensors: which tensors are ones, and the errors torch raises for them (their
# version counter, in-place updates outside inference mode, saving one for backward).
import torch
x = torch.ones(2, 3, requires_grad=True)
with torch.inference_mode():
    y = x * x
    z = torch.ones(2)
    v = y[0]
    print(torch.is_inference_mode_enabled(), y.is_inference(), z.is_inference(), v.is_inference(), x.is_inference())
    y.add_(1)
    print(y)
    with torch.inference_mode(False):
        w = torch.ones(2)
        print(torch.is_inference_mode_enabled(), w.is_inference())
print(torch.is_inference_mode_enabled(), y.detach().is_inference(), (y + 1).is_inference(), y.requires_grad)
try:
    y.add_(1)
except RuntimeError as e:
    print(e)
try:
    print(y._version)
except RuntimeError as e:
    print(e)
@torch.inference_mode()
def f(t):
    return t * 2, torch.is_inference_mode_enabled()
r, en = f(x)
print(r.is_inference(), en, torch.is_inference_mode_enabled())
x2 = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    y = torch.ones(2) * 3
z = x2 + y
print(z, z.is_inference())
try:
    w = x2 * y
    print(w)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    w = y.exp() * x2
    print(w)
except RuntimeError as e:
    print("RuntimeError:", e)
c = y.clone()
print((c * x2).sum(), c.is_inference())
