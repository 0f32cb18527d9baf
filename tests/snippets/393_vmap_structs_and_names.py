# vmap: struct in_dims, non-Tensor inputs, autograd.grad inside it (one batched call), the result's node name;
# dot's gradient under create_graph (grad * other: MulBackward0).
import torch

torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
xs = torch.randn(4, 3)
print(torch.vmap(lambda x: x.dot(w).relu())(xs))
print(torch.vmap(lambda x: x * w)(xs))
print(torch.vmap(lambda x: (x * w).sum(), out_dims=0)(xs))
print(torch.vmap(lambda d: d["a"] @ d["b"], in_dims=({"a": 0, "b": None},))({"a": xs, "b": torch.ones(3)}))
print(torch.vmap(lambda t: t[0] + t[1], in_dims=((0, None),))((xs, torch.ones(3))))
try:
    torch.vmap(lambda a, b: a)(xs, 3)
except ValueError as e:
    print(e)
y = w ** 3
print(torch.vmap(lambda v: torch.autograd.grad(y, w, v))(torch.eye(3)))
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
ga, gb = torch.autograd.grad(torch.dot(a, b) ** 2, (a, b), create_graph=True)
print(ga, gb)
print(torch.autograd.grad(ga.sum(), b))
print(torch.func.grad(lambda t: t.dot(b).relu() ** 2)(a))
