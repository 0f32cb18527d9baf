import torch

square = lambda v: v ** 2
add = lambda a, b=1: a + b
print(square(3), add(2), add(2, b=5), (lambda: "hi")())
xs = [torch.tensor(float(i), requires_grad=True) for i in range(4)]
total = sum(square(x) for x in xs)
total.backward()
print([x.grad.item() for x in xs])
evens = [i for i in range(10) if i % 2 == 0]
pairs = [(i, j) for i in range(3) for j in range(i)]
table = {i: i * i for i in range(5)}
nested = [[i * j for j in range(3)] for i in range(3)]
print(evens, pairs, table, nested)
print(sorted(["bb", "a", "ccc"], key=lambda s: len(s)), max([3, -7, 5], key=abs), list(map(lambda t: t * 2, [1, 2])))
print(list(filter(lambda v: v > 1, [0, 1, 2, 3])), any(x > 2 for x in range(4)), all([]))
grads = {name: p.shape for name, p in [("w", torch.ones(2, 3)), ("b", torch.ones(3))]}
print(grads)
