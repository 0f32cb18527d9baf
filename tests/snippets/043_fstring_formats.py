import torch

loss = torch.tensor(0.123456789)
x = torch.tensor([1.0, 2.0])
print(f"loss: {loss.item():.4f}")
print(f"loss: {loss}")
print(f"x: {x}")
print(f"{3.14159:8.3f}|{42:>5}|{'left':<6}|{7:03d}")
print(f"{x.sum().item()=}")
print(f"{loss!r}")
print("{} and {:.2f}".format("first", 2.0 / 3))
print("%.3f %d %s" % (1.23456, 7, "x"))
