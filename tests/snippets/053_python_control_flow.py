import torch

total = 0
for i in range(10):
    if i % 2 == 0:
        continue
    if i > 7:
        break
    total += i
print(total)
n = 0
while n < 5:
    n += 1
else:
    print("done", n)
values = [x ** 2 for x in range(6) if x % 2]
print(values, sum(values), min(values), max(values), len(values))
pairs = {k: v for k, v in zip(["a", "b"], [1, 2])}
print(pairs, sorted([3, 1, 2]), list(reversed([1, 2, 3])))
for i, (a, b) in enumerate(zip([1, 2], [3, 4])):
    print(i, a, b)
print(abs(-2), round(2.675, 2), int(3.9), float(2), bool(0), str(12) + "!")
print(isinstance(torch.tensor(1.0), torch.Tensor), isinstance(2, (int, float)))
t = torch.tensor([1.0, 2.0, 3.0])
print([v.item() for v in t], sum(t), max(t.tolist()))
assert total == 16, "unexpected total"
