import torch

# An in-place op on a view rewrites its base's history (CopySlices); the view reads it (AsStridedBackward0)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
h = x * 2
v = h[0]
print(v._base is h, h._base, v._version, h._version)
v.exp_()
print(h)
print(v, v._version, h._version)
h.sum().backward()
print(x.grad)

# every kind of view, modified in place
for name in ["view", "t", "T", "mT", "column", "transpose", "permute", "unsqueeze", "squeeze", "narrow", "select",
             "diagonal", "movedim", "flatten", "unflatten", "view_as", "expand", "reshape", "swapaxes", "ellipsis",
             "none", "alias", "view of view"]:
    x.grad = None
    h = x * torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    if name == "view":
        v = h.view(4)
    if name == "t":
        v = h.t()
    if name == "T":
        v = h.T
    if name == "mT":
        v = h.mT
    if name == "column":
        v = h[:, 1]
    if name == "transpose":
        v = h.transpose(0, 1)
    if name == "permute":
        v = h.permute(1, 0)
    if name == "unsqueeze":
        v = h.unsqueeze(1)
    if name == "squeeze":
        v = h[None].squeeze(0)
    if name == "narrow":
        v = h.narrow(1, 1, 1)
    if name == "select":
        v = h.select(1, 0)
    if name == "diagonal":
        v = torch.diagonal(h)
    if name == "movedim":
        v = h.movedim(0, 1)
    if name == "flatten":
        v = h.flatten()
    if name == "unflatten":
        v = h.flatten().unflatten(0, (2, 2))
    if name == "view_as":
        v = h.view_as(torch.zeros(4))
    if name == "expand":
        v = h.expand(1, 2, 2)
    if name == "reshape":
        v = h.reshape(4)
    if name == "swapaxes":
        v = h.swapaxes(0, 1)
    if name == "ellipsis":
        v = h[..., 0]
    if name == "none":
        v = h[None, 1]
    if name == "alias":
        v = h[:]
    if name == "view of view":
        v = h.t()[1][1:]
    print(name, v.grad_fn.name(), v._base is h)
    v.mul_(torch.arange(v.numel(), dtype=torch.float32).reshape(v.shape) + 1)
    print(h)
    print(v)
    (h * h).sum().backward()
    print(x.grad)

# the cases
x.grad = None
h = x * 2
h.view(4).mul_(3)
h.t().add_(1)
h[:, 1].sigmoid_()
print(h)
h.sum().backward()
print(x.grad)
x.grad = None
buffer = torch.zeros(3)
buffer[1:].copy_(x[0] * x[1])
print(buffer, buffer.requires_grad)
(buffer * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)

# the base changed in place: its views read its new history
x.grad = None
h = x * 2
row = h[0]
column = h[:, 1]
h.mul_(3)
print(row, column, row._version)
row.sum().backward(retain_graph=True)
print(x.grad)
x.grad = None
column.sum().backward()
print(x.grad)
x.grad = None
h = x * 2
row = h[0]
with torch.no_grad():
    h.add_(1)
print(row)
(row * row).sum().backward()
print(x.grad)

# a view of a buffer that did not require grad, before the buffer started to
x.grad = None
buffer = torch.zeros(3)
right = buffer[1:]
left = buffer[:2]
right.copy_(x[0])
print(buffer, right, left, left.requires_grad, left.is_leaf)
(left * left).sum().backward()
print(x.grad)

# an expanded view that repeats its base's elements, regenerated
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
e = w * 1
wide = e.expand(2, 3)
e.mul_(2)
print(wide)
(wide * torch.tensor([[1.0], [10.0]])).sum().backward()
print(w.grad)
w.grad = None
e = w * 1
print(e.expand(1, 3).add_(1), e)
e.sum().backward()
print(w.grad)

# masked_fill_, index_add_, scatter_, scatter_add_ on views, and another input requiring grad
x.grad = None
h = x * 1
o = torch.tensor([5.0], requires_grad=True)
h[0].masked_fill_(torch.tensor([True, False]), 0.0)
h[:, 0].index_add_(0, torch.tensor([1]), o * 2)
h[1].scatter_(0, torch.tensor([0]), torch.tensor([9.0]))
h[:, 1].scatter_add_(0, torch.tensor([0, 0]), o.expand(2))
print(h)
(h * h).sum().backward()
print(x.grad, o.grad)

# x[i] = v, x[i][j] = v, x[i] += v, loops, and advanced indexing (index_put_)
x.grad = None
h = x * 1
for i in range(2):
    h[i] = h[i] * (i + 2)
h[0][1] = 7.0
h[1] += 1
h[:, 1] *= h[:, 0].exp()
print(h)
h.sum().backward()
print(x.grad)
x.grad = None
h = x * 1
h[torch.tensor([0])] = 5.0
print(h)
h[h < 4.5] = x[1] * 10
print(h)
h.sum().backward()
print(x.grad)
a = torch.arange(4)
a[1:] = torch.tensor([1.7, 2.2, 3.9])
print(a)

# retained gradients follow the history
x.grad = None
h = x * 2
h.retain_grad()
h.mul_(3)
h.sum().backward()
print(h.grad, x.grad)
x.grad = None
h = x * 2
h.retain_grad()
h[0].mul_(3)
h.sum().backward()
print(h.grad, x.grad)
x.grad = None
h = x * 2
row = h[0]
row.retain_grad()
h.mul_(3)
(row * row).sum().backward()
print(row.grad, x.grad)

# a view made under no_grad requires grad (its base does) but gets no gradient
x.grad = None
h = x * 2
with torch.no_grad():
    row = h[0]
print(row, row.requires_grad, row.is_leaf, row.grad_fn)
y = row * 2
print(y)
y.sum().backward()
print(row.grad, x.grad)

# in-place under no_grad on a view, then used
h = x * 2
row = h[1]
with torch.no_grad():
    row.mul_(10)
print(h, row)
(h * h).sum().backward()
print(x.grad)

# the version counter is shared by a base, its views and detach(); .data has its own
t = torch.zeros(2, 3)
r = t[0]
d = t.detach()
r.add_(1)
d.mul_(2)
t.data.add_(1)
print(t, t._version, r._version, d._version, t.data._version)

# second derivatives through CopySlices
x.grad = None
h = x * x
h[:, 1].sigmoid_()
(g,) = torch.autograd.grad(h.sum(), x, create_graph=True)
print(g.detach())
g.sum().backward()
print(x.grad)
