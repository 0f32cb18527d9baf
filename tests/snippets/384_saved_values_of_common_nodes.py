# The saved values torch's nodes keep for the common ops, by torch's names, read through grad_fn._saved_<name>.
import torch
torch.manual_seed(0)
a = torch.rand(3, requires_grad=True)
b = torch.rand(3, requires_grad=True)
cases = [("a*b", lambda: a * b, lambda g: [g._saved_self, g._saved_other]),
         ("a/b", lambda: a / b, lambda g: [g._saved_self, g._saved_other]),
         ("a*2.5", lambda: a * 2.5, lambda g: [g._saved_self, g._saved_other]),
         ("a+b", lambda: a + b, lambda g: [g._saved_alpha]),
         ("a.add(b, alpha=2)", lambda: a.add(b, alpha=2), lambda g: [g._saved_alpha]),
         ("a-b", lambda: a - b, lambda g: [g._saved_alpha]),
         ("a**2.5", lambda: a ** 2.5, lambda g: [g._saved_self, g._saved_exponent]),
         ("a**b", lambda: a ** b, lambda g: [g._saved_self, g._saved_exponent, g._saved_result]),
         ("a.sum()", lambda: a.sum(), lambda g: [g._saved_self_sym_sizes]),
         ("a.sum(0, keepdim=True)", lambda: a.sum(0, keepdim=True),
          lambda g: [g._saved_dim, g._saved_keepdim, g._saved_self_sym_sizes]),
         ("a.mean()", lambda: a.mean(), lambda g: [g._saved_self_sym_numel, g._saved_self_sym_sizes])]
for op in [torch.exp, torch.tan, torch.tanh, torch.sigmoid, torch.relu, torch.sqrt, torch.rsqrt, torch.exp2,
           torch.expm1, torch.reciprocal]:
    cases.append((op.__name__, lambda op=op: op(a), lambda g: [g._saved_result]))
for op in [torch.log, torch.sin, torch.cos, torch.asin, torch.acos, torch.atan, torch.sinh, torch.cosh, torch.log2,
           torch.log10, torch.log1p, torch.erf, torch.erfc, torch.abs, torch.asinh, torch.atanh, torch.lgamma,
           torch.digamma]:
    cases.append((op.__name__, lambda op=op: op(a), lambda g: [g._saved_self]))
for label, make, read in cases:
    y = make()
    values = read(y.grad_fn)
    print(label, y.grad_fn.name(), values)
    print("  ", [(v is a, v is b, v is y) for v in values if isinstance(v, torch.Tensor)])
for make in [torch.neg, torch.sign, torch.floor]:
    y = make(a)
    try:
        y.grad_fn._saved_self
    except AttributeError as e:
        print(e)
y = a.exp()
y.sum().backward()
print(y.grad_fn._raw_saved_result)
y = (a * b).sum(0)
y.backward()
print(y.grad_fn._saved_dim, y.grad_fn._saved_self_sym_sizes)
m = torch.rand(2, 3, requires_grad=True)
for y in [m.sum(-1), m.sum((1, 0)), m.sum(dim=[-2], keepdim=True), m.mean(-1), m.mean((1,)), m.mean()]:
    print(y.grad_fn.name(), y.grad_fn._saved_self_sym_sizes, y.grad_fn._saved_self_sym_numel
          if y.grad_fn.name().startswith("Mean") else "")
for y in [m.sum(-1), m.sum((1, 0)), m.sum(dim=[-2], keepdim=True), m.mean(-1), m.mean((1,))]:
    print(y.grad_fn._saved_dim, y.grad_fn._saved_keepdim)
print(m.view(6).grad_fn._saved_self_sym_sizes, m[:, :1].expand(2, 4).grad_fn._saved_self_sym_sizes)
for y in [m.t(), m.clone()]:
    try:
        y.grad_fn._saved_self
    except AttributeError as e:
        print(e)
