# A node's saved values (grad_fn._saved_<name>, torch's names per node), their identity, torch's error after backward
# freed them, and a SavedTensor's register_hooks (_raw_saved_<name>).
import torch
torch.manual_seed(0)
a = torch.randn(3, requires_grad=True); b = torch.randn(3, requires_grad=True)
y = a * b
print(y.grad_fn._saved_self is a, y.grad_fn._saved_other is b)
y = a.pow(2)
print(y.grad_fn._saved_exponent, y.grad_fn._saved_self)
y = torch.exp(a)
print(y.grad_fn._saved_result, y.grad_fn._saved_result is y, y.grad_fn._saved_result.equal(y))
y = a.sum(0)
print(y.grad_fn._saved_dim, y.grad_fn._saved_keepdim, y.grad_fn._saved_self_sym_sizes)
y = a * 2
print(y.grad_fn._saved_self, y.grad_fn._saved_other)
y = a * b
y.sum().backward()
try:
    y.grad_fn._saved_self
except RuntimeError as e:
    print(e)
y = a * b
r = y.grad_fn._raw_saved_self
print(r)
r.register_hooks(lambda x: (print("pack", x), x)[1], lambda x: (print("unpack", x), x)[1])
print(y.grad_fn._saved_self)
try:
    r.register_hooks(lambda x: x, lambda x: x)
except RuntimeError as e:
    print(e)
y.sum().backward()
print(a.grad)
try:
    y.grad_fn._saved_foo
except AttributeError as e:
    print(e)
