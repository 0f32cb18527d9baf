# raise with a message: uncaught, it ends the program as Python reports it
import torch


def check(x):
    if x.dim() != 2:
        raise ValueError(f"expected a matrix, got {x.dim()} dims")
    return x


print(check(torch.ones(2, 2)).shape)
try:
    check(torch.ones(3))
except ValueError as e:
    print("caught:", e)
assert check(torch.ones(1, 1)).numel() == 1, "one element"
check(torch.ones(2, 2, 2))
print("not reached")
