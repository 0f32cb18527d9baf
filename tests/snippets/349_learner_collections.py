from collections import OrderedDict, defaultdict

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(OrderedDict([
    ("fc1", nn.Linear(4, 3)),
    ("act", nn.ReLU()),
    ("fc2", nn.Linear(3, 1)),
]))
print(model)
print(model.fc1.weight.shape)
counts = defaultdict(int)
for word in "a b a c b a".split():
    counts[word] += 1
print(dict(counts), counts["z"], sorted(counts.items()))
groups = defaultdict(list)
for i in range(6):
    groups[i % 3].append(i)
print(dict(groups))
od = OrderedDict()
od["b"] = 1
od["a"] = 2
print(list(od.keys()), od)
state = model.state_dict()
print(type(state).__name__, list(state.keys()))
