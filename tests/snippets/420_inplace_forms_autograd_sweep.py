import torch

# Every in-place form of a differentiable op on a non-leaf that requires grad: value, node, version,
# gradient (or torch's error).
calls = [
    ("absolute_", lambda x, o: x.absolute_()),
    ("acosh_", lambda x, o: x.acosh_()),
    ("arccos_", lambda x, o: x.arccos_()),
    ("arccosh_", lambda x, o: x.arccosh_()),
    ("arcsin_", lambda x, o: x.arcsin_()),
    ("arcsinh_", lambda x, o: x.arcsinh_()),
    ("arctan_", lambda x, o: x.arctan_()),
    ("arctanh_", lambda x, o: x.arctanh_()),
    ("asinh_", lambda x, o: x.asinh_()),
    ("atanh_", lambda x, o: x.atanh_()),
    ("erfc_", lambda x, o: x.erfc_()),
    ("deg2rad_", lambda x, o: x.deg2rad_()),
    ("rad2deg_", lambda x, o: x.rad2deg_()),
    ("negative_", lambda x, o: x.negative_()),
    ("sgn_", lambda x, o: x.sgn_()),
    ("fix_", lambda x, o: x.fix_()),
    ("round_", lambda x, o: x.round_()),
    ("clamp_min_", lambda x, o: x.clamp_min_(0.3)),
    ("clamp_max_", lambda x, o: x.clamp_max_(0.3)),
    ("clip_", lambda x, o: x.clip_(-0.1, 0.4)),
    ("cumsum_", lambda x, o: x.cumsum_(0)),
    ("cumprod_", lambda x, o: x.cumprod_(0)),
    ("atan2_", lambda x, o: x.atan2_(o)),
    ("arctan2_", lambda x, o: x.arctan2_(o)),
    ("copysign_", lambda x, o: x.copysign_(o)),
    ("hypot_", lambda x, o: x.hypot_(o)),
    ("fmod_", lambda x, o: x.fmod_(0.25)),
    ("remainder_", lambda x, o: x.remainder_(0.25)),
    ("divide_", lambda x, o: x.divide_(o)),
    ("true_divide_", lambda x, o: x.true_divide_(o)),
    ("multiply_", lambda x, o: x.multiply_(o)),
    ("subtract_", lambda x, o: x.subtract_(o)),
    ("xlogy_", lambda x, o: x.xlogy_(o)),
    ("lerp_", lambda x, o: x.lerp_(o, 0.3)),
    ("addcmul_", lambda x, o: x.addcmul_(o, o)),
    ("addcdiv_", lambda x, o: x.addcdiv_(o, o)),
    ("ldexp_", lambda x, o: x.ldexp_(torch.tensor([1, -1, 2]))),
]
for name, call in calls:
    base = torch.tensor([0.2, 0.45, 0.7], requires_grad=True)
    o = torch.tensor([1.5, 1.25, 2.0], requires_grad=True)
    x = base * 1.0 if name not in ("acosh_", "arccosh_") else base + 1.5
    call(x, o)
    print(name, x, x.grad_fn.name(), x._version)
    try:
        x.sum().backward()
    except NotImplementedError as e:
        print("    NotImplementedError:", e)
    print("   ", base.grad, o.grad)

m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
for name, call in (("tril_", lambda y: y.tril_()), ("triu_", lambda y: y.triu_(1))):
    y = m * 2
    call(y)
    y.sum().backward()
    print(name, y, y.grad_fn.name(), m.grad)
    m.grad = None
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = a * 1
y.addmm_(a, a.t(), beta=0.5, alpha=2)
y.sum().backward()
print(y, y.grad_fn.name(), a.grad)
t = torch.tensor([1.0, 1.0, 0.0])
compares = [
    ("lt_", lambda c: c.lt_(t)),
    ("le_", lambda c: c.le_(t)),
    ("gt_", lambda c: c.gt_(t)),
    ("ge_", lambda c: c.ge_(t)),
    ("ne_", lambda c: c.ne_(t)),
    ("less_", lambda c: c.less_(t)),
    ("greater_equal_", lambda c: c.greater_equal_(t)),
    ("not_equal_", lambda c: c.not_equal_(t)),
    ("logical_and_", lambda c: c.logical_and_(t)),
    ("logical_or_", lambda c: c.logical_or_(t)),
    ("logical_xor_", lambda c: c.logical_xor_(t)),
    ("heaviside_", lambda c: c.heaviside_(t)),
    ("floor_divide_", lambda c: c.floor_divide_(t)),
    ("float_power_", lambda c: c.float_power_(t)),
    ("logical_not_", lambda c: c.logical_not_()),
]
for name, call in compares:
    c = torch.tensor([0.5, 1.0, -2.0])
    try:
        call(c)
        print(name, c, c._version)
    except RuntimeError as e:
        print(name, "RuntimeError:", e)
j = torch.tensor([8, 3, 6])
ints = [
    ("gcd_", lambda i: i.gcd_(j)),
    ("lcm_", lambda i: i.lcm_(j)),
    ("bitwise_and_", lambda i: i.bitwise_and_(j)),
    ("bitwise_or_", lambda i: i.bitwise_or_(j)),
    ("bitwise_xor_", lambda i: i.bitwise_xor_(j)),
    ("bitwise_not_", lambda i: i.bitwise_not_()),
]
for name, call in ints:
    i = torch.tensor([12, 7, -4])
    call(i)
    print(name, i)
leaf = torch.tensor([1.0, 2.0], requires_grad=True)
for name, call in (("cumsum_", lambda: leaf.cumsum_(0)), ("atan2_", lambda: leaf.atan2_(torch.ones(2))),
                   ("sgn_", lambda: leaf.sgn_()), ("ldexp_", lambda: leaf.ldexp_(torch.tensor([1, 1])))):
    try:
        call()
    except RuntimeError as e:
        print(name, "RuntimeError:", e)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = v.exp()
w.cumsum_(0)
try:
    w.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
