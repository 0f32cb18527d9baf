# from __future__ imports have no effect; names starting with one '_' are the program's own
from __future__ import print_function, division, absolute_import
import torch

_scale = 0.5


def _scaled(x, _power=2):
    _tmp = x ** _power
    return _tmp * _scale


class Cache:
    _hits = 0

    def __init__(self):
        self._store = {}

    def _key(self, n):
        return "k%d" % n

    def get(self, n):
        key = self._key(n)
        if key in self._store:
            Cache._hits += 1
            return self._store[key]
        self._store[key] = torch.arange(n) * _scale
        return self._store[key]


c = Cache()
print(c.get(3), c.get(3), Cache._hits, c._hits)
print(_scaled(torch.tensor([1.0, 2.0, 3.0])), 7 / 2, 7 // 2)
for _ in range(2):
    _, _last = divmod(7, 3)
print(_last)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self._hidden = torch.nn.Linear(2, 2)
        self._w = torch.nn.Parameter(torch.ones(2))
        self._calls = 0

    def forward(self, x):
        self._calls += 1
        return self._hidden(x) * self._w


torch.manual_seed(0)
net = Net()
out = net(torch.ones(1, 2))
print(out, net._calls)
print([name for name, _ in net.named_parameters()])
print(net)
