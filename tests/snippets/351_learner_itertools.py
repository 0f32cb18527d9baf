import itertools

import torch

for a, b in itertools.product([0, 1], repeat=2):
    print(a, b, end="; ")
print()
print(list(itertools.combinations(range(4), 2)))
print(list(itertools.permutations("abc", 2))[:4])
print(list(itertools.chain([1, 2], (3,), range(4, 6))))
print(list(itertools.accumulate([1, 2, 3, 4])), list(itertools.islice(itertools.count(10, 5), 3)))
print(list(zip(itertools.cycle("ab"), range(5))), list(itertools.repeat(7, 3)))
params = [torch.ones(2, requires_grad=True), torch.ones(3, requires_grad=True)]
print(sum(p.numel() for p in itertools.chain(params)))
