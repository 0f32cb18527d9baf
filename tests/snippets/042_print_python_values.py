import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
print([a, a * 2])
print((a.sum(),))
print({"loss": 0.5, "w": a})
print(None, True, 3, 2.5, "text")
print(0.1 + 0.2, 1 / 3, 10 ** 20, 1e100)
print([1, 2.0, None, "s"], (1,), ())
print("a", "b", sep="-", end="!\n")
print()
