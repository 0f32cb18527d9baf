"""Small programs about the meta device, deepcopy, stack_module_state, load_state_dict(assign=True) and timeit:
goldens recorded from PyTorch 2.13 by scripts/make_meta_device_goldens.py, compared by tests/run/test_meta_device.py.
Each runs as a whole program (its errors caught and printed by the program itself, so one case covers many)."""

from __future__ import annotations

HEADER = '''import torch
import torch.nn as nn
import torch.nn.functional as F


def show(name, f):
    try:
        r = f()
        print(name, r, tuple(r.shape), r.stride(), r.dtype, r.device, r.requires_grad, r.is_leaf)
    except Exception as e:
        print(name, type(e).__name__, e)

'''

CASES = {
    "meta_elementwise": HEADER + '''
x = torch.randn(4, 5, device='meta', requires_grad=True)
y = torch.randn(5, device='meta')
i = torch.zeros(3, dtype=torch.int64, device='meta')
show("x", lambda: x)
show("add", lambda: x + y)
show("radd", lambda: 1 + x)
show("rsub", lambda: 1 - x)
show("mul", lambda: x * 2.5)
show("div", lambda: x / y)
show("rdiv", lambda: 2 / x)
show("pow", lambda: x ** 2)
show("neg", lambda: -x)
show("exp", lambda: torch.exp(x))
show("sigmoid", lambda: x.sigmoid())
show("tanh", lambda: torch.tanh(x))
show("relu", lambda: F.relu(x))
show("gelu", lambda: F.gelu(x))
show("leaky_relu", lambda: F.leaky_relu(x, 0.1))
show("softmax", lambda: F.softmax(x, dim=1))
show("log_softmax", lambda: F.log_softmax(x, -1))
show("gt", lambda: x > 0)
show("where", lambda: torch.where(x > 0, x, y))
show("int add", lambda: i + 1)
show("int div", lambda: i / 2)
show("int float add", lambda: i + y[:3])
show("cpu scalar", lambda: x * torch.tensor(2.0))
show("broadcast", lambda: torch.randn(3, 1, 5, device='meta') + torch.randn(4, 1, device='meta'))
show("no grad", lambda: torch.randn(2, device='meta') * 3)
''',
    "meta_products": HEADER + '''
x = torch.randn(4, 5, device='meta', requires_grad=True)
y = torch.randn(5, device='meta')
w = torch.randn(3, 5, device='meta', requires_grad=True)
b = torch.randn(3, device='meta')
show("matmul", lambda: x @ w.t())
show("mm", lambda: torch.mm(x, w.T))
show("dot", lambda: y @ y)
show("matvec", lambda: x @ y)
show("vecmat", lambda: torch.randn(4, device='meta') @ x)
show("bmm", lambda: torch.bmm(torch.randn(2, 3, 4, device='meta'), torch.randn(2, 4, 5, device='meta')))
show("batched", lambda: torch.randn(7, 1, 3, 4, device='meta') @ torch.randn(6, 4, 2, device='meta'))
show("3d @ 2d", lambda: torch.randn(2, 3, 5, device='meta', requires_grad=True) @ w.t())
show("linear", lambda: F.linear(x, w, b))
show("linear 3d", lambda: F.linear(torch.randn(2, 4, 5, device='meta'), w, b))
show("linear no bias", lambda: F.linear(x, w))
show("nn.Linear", lambda: nn.Linear(5, 3, device='meta')(x))
''',
    "meta_conv_pool": HEADER + '''
img = torch.randn(2, 3, 16, 16, device='meta')
k = torch.randn(6, 3, 5, 5, device='meta', requires_grad=True)
seq = torch.randn(2, 3, 20, device='meta')
k1 = torch.randn(4, 3, 3, device='meta')
show("conv2d", lambda: F.conv2d(img, k))
show("conv2d bias", lambda: F.conv2d(img, k, torch.randn(6, device='meta')))
show("conv2d stride pad", lambda: F.conv2d(img, k, stride=2, padding=1))
show("conv2d dilation", lambda: F.conv2d(img, k, dilation=2))
show("conv2d same", lambda: F.conv2d(img, k, padding='same'))
show("conv2d groups", lambda: F.conv2d(torch.randn(1, 4, 8, 8, device='meta'), torch.randn(6, 2, 3, 3, device='meta'),
                                       groups=2))
show("conv2d unbatched", lambda: F.conv2d(img[0], k))
show("conv1d", lambda: F.conv1d(seq, k1, padding=1))
show("nn.Conv2d", lambda: nn.Conv2d(3, 5, 2, device='meta')(img))
show("max_pool2d", lambda: F.max_pool2d(img, 2))
show("max_pool2d ceil", lambda: F.max_pool2d(img[:, :, :15], 2, ceil_mode=True))
show("max_pool2d grad", lambda: F.max_pool2d(F.conv2d(img, k), 2))
show("avg_pool2d", lambda: F.avg_pool2d(img, 3, stride=2, padding=1))
show("max_pool1d", lambda: F.max_pool1d(seq, 3))
show("avg_pool1d", lambda: F.avg_pool1d(seq, 4))
show("nn.MaxPool2d", lambda: nn.MaxPool2d(2, 2)(img))
big = torch.rand(2**10, 3, 2**16, 2**16, device="meta")
show("huge conv", lambda: nn.Conv2d(3, 5, 2, device="meta")(big))
show("huge relu", lambda: F.relu(big))
show("huge sum", lambda: big.sum(dim=(2, 3)))
''',
    "meta_views_reductions": HEADER + '''
x = torch.randn(4, 5, device='meta', requires_grad=True)
img = torch.randn(2, 3, 4, 6, device='meta')
show("view", lambda: x.view(20))
show("view -1", lambda: x.view(-1, 10))
show("reshape", lambda: x.reshape(5, 4))
show("reshape transposed", lambda: x.t().reshape(20))
show("view of a permuted", lambda: img.permute(1, 0, 2, 3).view(3, 2, 24))
show("reshape permuted", lambda: img.permute(0, 1, 3, 2).reshape(6, 24))
show("flatten", lambda: img.flatten(1))
show("torch.flatten", lambda: torch.flatten(img))
show("permute", lambda: img.permute(0, 2, 3, 1))
show("transpose", lambda: img.transpose(1, 3))
show("t", lambda: x.t())
show("unsqueeze", lambda: x.unsqueeze(1))
show("squeeze", lambda: x.unsqueeze(0).squeeze(0))
show("squeeze all", lambda: torch.randn(1, 3, 1, device='meta').squeeze())
show("expand", lambda: torch.randn(5, device='meta').expand(4, 5))
show("index", lambda: img[0])
show("slice", lambda: img[:, 1:, ::2])
show("none", lambda: x[None])
show("ellipsis", lambda: img[..., 0])
show("select", lambda: x.select(1, 2))
show("unbind", lambda: x.unbind(1)[0])
print(len(x.unbind(1)), [tuple(r.shape) for r in x], len(x))
torch.save({"x": x, "n": 3}, "meta.pt")
print(torch.load("meta.pt"))
show("sum", lambda: x.sum())
show("sum dim", lambda: x.sum(dim=1))
show("sum keepdim", lambda: img.sum((1, 2), keepdim=True))
show("mean", lambda: x.mean())
show("mean dim", lambda: img.mean(-1))
show("int sum", lambda: torch.ones(3, dtype=torch.int64, device='meta').sum())
show("cat", lambda: torch.cat([x, x], 0))
show("cat dim 1", lambda: torch.cat((x, x, x), dim=1))
show("stack", lambda: torch.stack([x, x]))
show("zeros_like", lambda: torch.zeros_like(x))
show("clone", lambda: x.clone())
show("detach", lambda: x.detach())
show("double", lambda: x.double())
show("to meta", lambda: torch.ones(2, requires_grad=True).to('meta'))
show("contiguous", lambda: x.t().contiguous())
''',
    "meta_inplace": '''import torch
import torch.nn as nn

x = torch.ones(2, 3, device='meta')
print(x.add_(1), x._version)
y = torch.ones(3, device='meta', requires_grad=True)
z = x * 1
print(z.add_(y), z.grad_fn.next_functions[0])
print(torch.nn.functional.relu(z, inplace=True), z, z._version)
print(nn.ReLU(inplace=True)(torch.randn(2, 2, device='meta')))
w = torch.ones(3, device='meta')
try:
    w.add_(x)
except RuntimeError as e:
    print(e)
i = torch.ones(3, dtype=torch.int64, device='meta')
print(i.mul_(1.5))
try:
    y.mul_(2)
except RuntimeError as e:
    print(e, y._version)
with torch.no_grad():
    y.mul_(2)
print(y._version, y)
lin = nn.Linear(4, 2, device='meta')
nn.init.xavier_uniform_(lin.weight)
nn.init.zeros_(lin.bias)
print(lin.weight._version, lin.bias)
''',
    "meta_layers": HEADER + '''
torch.manual_seed(0)
x = torch.randn(4, 3, 5, device='meta', requires_grad=True)
show("dropout", lambda: F.dropout(x, 0.5))
print(F.dropout(x, 0.5, training=False) is x)
bn = nn.BatchNorm1d(3, device='meta')
show("batch_norm", lambda: bn(x))
print(bn.num_batches_tracked)
bn.eval()
show("batch_norm eval", lambda: bn(x))
show("layer_norm", lambda: nn.LayerNorm(5, device='meta')(x))
show("layer_norm mismatch", lambda: F.layer_norm(x, (4,)))
show("embedding", lambda: nn.Embedding(10, 4, device='meta')(torch.zeros(2, 3, dtype=torch.long, device='meta')))
show("F.batch_norm", lambda: F.batch_norm(x, torch.zeros(3, device='meta'), torch.ones(3, device='meta')))
show("batch_norm mismatch", lambda: F.batch_norm(x, torch.zeros(4, device='meta'), torch.ones(4, device='meta')))
show("nn.Dropout", lambda: nn.Dropout(0.2)(x))
print(torch.rand(1))
''',
    "meta_errors": HEADER + '''
x = torch.randn(4, 5, device='meta')
w = torch.randn(3, 6, device='meta')
img = torch.randn(2, 3, 8, 8, device='meta')
show("add mismatch", lambda: x + torch.randn(4, device='meta'))
show("matmul mismatch", lambda: x @ w)
show("mm mismatch", lambda: torch.mm(x, w))
show("dot mismatch", lambda: torch.randn(3, device='meta') @ torch.randn(4, device='meta'))
show("bmm mismatch", lambda: torch.randn(2, 3, 4, device='meta') @ torch.randn(2, 5, 6, device='meta'))
show("linear mismatch", lambda: F.linear(x, w))
show("conv channels", lambda: F.conv2d(img, torch.randn(6, 4, 3, 3, device='meta')))
show("conv kernel too large", lambda: F.conv2d(img, torch.randn(6, 3, 9, 9, device='meta')))
show("conv 2d input", lambda: F.conv2d(x, torch.randn(6, 3, 3, 3, device='meta')))
show("pool too small", lambda: F.max_pool2d(torch.randn(1, 1, 2, 2, device='meta'), 3))
show("view invalid", lambda: x.view(3, 7))
show("view two -1", lambda: x.view(-1, -1))
show("view non-contiguous", lambda: x.t().view(20))
show("cat mismatch", lambda: torch.cat([x, torch.randn(4, 6, device='meta')], 0))
show("stack mismatch", lambda: torch.stack([x, torch.randn(4, 6, device='meta')]))
show("meta + cpu", lambda: x + torch.ones(4, 5))
show("cpu + meta", lambda: torch.ones(4, 5) + x)
show("index out of range", lambda: x[4])
show("too many indices", lambda: x[0, 0, 0])
show("transpose dim", lambda: x.transpose(0, 2))
show("sum dim", lambda: x.sum(2))
for name, f in [("item", lambda: x[0, 0].item()), ("item many", lambda: x.item()), ("tolist", lambda: x.tolist()),
                ("numpy", lambda: x.numpy()), ("float", lambda: float(x[0, 0])), ("int", lambda: int(x[0, 0])),
                ("bool", lambda: bool(x[0, 0])), ("cpu", lambda: x.cpu()), ("to cpu", lambda: x.to('cpu')),
                ("format", lambda: f"{x.sum():.3f}"), ("str", lambda: f"{x.sum()}"),
                ("if", lambda: 1 if x[0, 0] else 0),
                ("copy into cpu", lambda: torch.ones(4, 5).copy_(x)), ("print", lambda: print(x, x.sum()))]:
    try:
        print(name, repr(f()))
    except Exception as e:
        print(name, type(e).__name__, e)
''',
    "meta_modules": HEADER + '''
torch.manual_seed(0)
lin = nn.Linear(3, 2, device='meta')
print(lin.weight, lin.bias, lin.weight.is_leaf, lin.weight.device)
with torch.device('meta'):
    conv = nn.Conv2d(1, 2, 3)
    t = torch.tensor([1.0, 2.0])
    z = torch.zeros(2, 3, dtype=torch.int64)
    r = torch.randn((4, 3))
print(conv.weight, conv.bias)
print(t, z, r)
print(torch.ones(2))
print(torch.rand(2))  # the meta tensors drew no random numbers
m = nn.Linear(2, 3)
w = m.weight
m.weight.grad = torch.ones(3, 2)
m.to('meta')
print(m.weight is w, m.weight, m.weight.grad, w.device)
try:
    m.to('cpu')
except Exception as e:
    print(type(e).__name__, e)
m.to_empty(device='cpu')
print(m.weight is w, m.weight.shape, m.weight.device, m.weight.requires_grad, m.weight.grad.shape)
m.to_empty(device='meta')
print(m.weight, m.bias)
print(nn.Linear(2, 2).to(torch.device('meta')).weight)
net = nn.Sequential(nn.Conv2d(3, 6, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(6 * 14 * 14, 10)).to('meta')
print(net(torch.randn(8, 3, 32, 32, device='meta')))
print(net.double()[0].weight)
''',
    "load_state_dict_assign": '''import torch
import torch.nn as nn

torch.manual_seed(0)
sd = nn.Linear(2, 3).state_dict()
with torch.device('meta'):
    mm = nn.Linear(2, 3)
r = mm.load_state_dict(sd)
print(r, mm.weight)
r = mm.load_state_dict(sd, assign=True)
print(r, mm.weight, mm.weight is sd['weight'], type(mm.weight).__name__, mm.weight.requires_grad,
      sd['weight'].requires_grad, mm.weight.device)
sd['weight'].add_(1)
print(mm.weight)
m2 = nn.Linear(2, 3)
sd2 = {k: v.clone().requires_grad_() for k, v in sd.items()}
m2.load_state_dict(sd2, assign=True)
print(m2.weight is sd2['weight'], m2.weight, m2.bias.requires_grad)
p = nn.Parameter(torch.zeros(3), requires_grad=False)
m2.load_state_dict({'weight': sd['weight'], 'bias': p}, assign=True)
print(m2.bias is p, m2.bias.requires_grad)
torch.save(sd, 'checkpoint.pth')
loaded = torch.load('checkpoint.pth', mmap=True)
with torch.device('meta'):
    m3 = nn.Linear(2, 3)
m3.load_state_dict(loaded, assign=True)
print(m3(torch.ones(1, 2)))
bn_sd = nn.BatchNorm1d(2).state_dict()
with torch.device('meta'):
    bn = nn.BatchNorm1d(2)
print(bn.running_mean, bn.num_batches_tracked)
bn.load_state_dict(bn_sd, assign=True)
print(bn.running_mean is bn_sd['running_mean'], bn.num_batches_tracked)
''',
    "deepcopy": '''import copy
import torch
import torch.nn as nn

torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.fc2 = nn.Linear(4, 2)
        self.scale = 2.0
        self.tags = ["a", "b"]

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x))) * self.scale


m = MLP()
c = copy.deepcopy(m)
print(type(c).__name__, c is m, c.fc1 is m.fc1, c.fc1.weight is m.fc1.weight, c.tags is m.tags, c.tags == m.tags)
with torch.no_grad():
    c.fc1.weight.add_(1.0)
c.scale = 5.0
c.tags.append("c")
x = torch.ones(1, 3)
print(m(x), c(x), m.scale, m.tags)
print(m.fc1.weight)
print(c.fc1.weight)
print(c)
t = torch.ones(2, requires_grad=True)
t.grad = torch.full((2,), 3.0)
d = copy.deepcopy(t)
d.grad.add_(1)
print(d, d.grad, t.grad, d is t, d.is_leaf)
try:
    copy.deepcopy(t * 2)
except RuntimeError as e:
    print(e)
p = nn.Parameter(torch.ones(2))
q = copy.deepcopy(p)
print(type(q).__name__, q)
pair = [p, p]
copied = copy.deepcopy(pair)
print(copied[0] is copied[1], copied[0] is p)
meta = torch.rand(2, 3, device='meta')
print(copy.deepcopy(meta))
shared = nn.Linear(2, 2)
tied = nn.Sequential(shared, shared)
tc = copy.deepcopy(tied)
print(tc[0] is tc[1], len(list(tc.parameters())))
d = {"w": torch.zeros(2), "n": 3}
dc = copy.deepcopy(d)
dc["w"].add_(1)
print(d, dc)
m.fc1.weight.grad = torch.ones(4, 3)
print(copy.deepcopy(m).fc1.weight.grad, copy.deepcopy(m.fc1.weight).grad)
print(copy.deepcopy([t])[0].grad)
best = copy.deepcopy(m.state_dict())
print(list(best), best["fc1.bias"].requires_grad)
''',
    "stack_module_state": '''import copy
import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state, vmap

torch.manual_seed(0)
models = [nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2)) for _ in range(3)]
params, buffers = stack_module_state(models)
for k, v in params.items():
    print(k, tuple(v.shape), v.requires_grad, v.is_leaf)
for k, v in buffers.items():
    print(k, tuple(v.shape), v.requires_grad, v.dtype)
print(params['0.weight'][1])
print(models[1][0].weight)
base = copy.deepcopy(models[0]).to('meta')
for m in models:
    m.eval()
base.eval()
x = torch.randn(5, 3)
out = vmap(lambda p, b, x: functional_call(base, (p, b), (x,)), in_dims=(0, 0, None))(params, buffers, x)
print(out.shape, torch.allclose(out, torch.stack([m(x) for m in models]), atol=1e-6))
print(base[0].weight)
try:
    stack_module_state([])
except RuntimeError as e:
    print(e)
models[0].eval()
models[1].train()
try:
    stack_module_state(models)
except RuntimeError as e:
    print(e)
''',
    "timeit": '''import timeit
import torch

calls = []


def step():
    calls.append(1)
    return torch.ones(2) * 2


t = timeit.timeit(step, number=5)
print(type(t).__name__, t >= 0, len(calls))
r = timeit.repeat(step, repeat=3, number=2)
print(len(r), all(v >= 0 for v in r), len(calls))
timer = timeit.Timer(lambda: calls.append(2))
print(timer.timeit(number=4) >= 0, len(calls), len(timer.repeat(2, 1)), len(calls))
start = timeit.default_timer()
end = timeit.default_timer()
print(end >= start, type(start).__name__)
''',
}
