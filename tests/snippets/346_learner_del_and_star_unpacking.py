import torch

x = torch.arange(6.0)
first, *rest = x.tolist()
*init, last = [1, 2, 3]
a, *middle, b = range(5)
print(first, rest, init, last, a, middle, b)
head, *_ = torch.ones(3, 2)
print(head)
numbers = [1, 2, 3, 4]
del numbers[0]
del numbers[-1]
print(numbers)
config = {"lr": 0.1, "momentum": 0.9, "debug": True}
del config["debug"]
print(config)
tmp = x * 2
del tmp
print("deleted")
try:
    print(tmp)
except NameError as e:
    print("NameError:", e)
parts = [*range(3), *[10, 11]]
merged = {**config, "lr": 0.01}
print(parts, merged)
