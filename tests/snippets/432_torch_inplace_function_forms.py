import torch
c = torch.tensor([0.3, -0.2, 0.9], requires_grad=True)
forms = {"arcsin_": torch.arcsin_, "arctan_": torch.arctan_, "erfc_": torch.erfc_, "negative_": torch.negative_,
         "fix_": torch.fix_, "round_": torch.round_, "deg2rad_": torch.deg2rad_, "rad2deg_": torch.rad2deg_,
         "clamp_min_": torch.clamp_min_, "clamp_max_": torch.clamp_max_, "clip_": torch.clip_, "celu_": torch.celu_,
         "selu_": torch.selu_, "threshold_": torch.threshold_, "xlogy_": torch.xlogy_, "acosh_": torch.acosh_,
         "asinh_": torch.asinh_, "atanh_": torch.atanh_, "arccosh_": torch.arccosh_, "arcsinh_": torch.arcsinh_,
         "arctanh_": torch.arctanh_}
extra = {"clamp_min_": (0.,), "clamp_max_": (1.,), "clip_": (0., 1.), "threshold_": (1., 0.), "xlogy_": (2.,)}
for name, fn in forms.items():
    d = c * 1 + 0.5
    out = fn(d, *extra.get(name, ()))
    print(name, out is d, d, d.grad_fn.name())
    try:
        d.sum().backward()
        print(c.grad)
    except NotImplementedError as err:
        print("NotImplementedError:", err)
    c.grad = None
e = torch.tensor([-1.0, 0.5, 2.0])
torch.celu_(e, 2.0)
print(e)
torch.selu_(e)
print(e)
torch.threshold_(e, 0.6, -3.0)
print(e)
f = torch.tensor([0.0, 1.0, 2.0])
torch.xlogy_(f, torch.tensor([3.0, 4.0, 5.0]))
print(f)
g = torch.tensor([1.234567, -2.5, 3.5])
torch.round_(g, decimals=2)
print(g)
try:
    torch.acosh_(torch.tensor([1, 2]))
except RuntimeError as err:
    print("RuntimeError:", err)
try:
    torch.asinh_(torch.tensor([1.0], requires_grad=True))
except RuntimeError as err:
    print("RuntimeError:", err)
