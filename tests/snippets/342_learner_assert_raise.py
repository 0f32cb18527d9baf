import torch


def check_shape(t, shape):
    assert t.shape == shape, f"expected {shape}, got {t.shape}"
    return True


x = torch.ones(2, 3)
print(check_shape(x, (2, 3)))
try:
    check_shape(x, (3, 2))
except AssertionError as e:
    print("AssertionError:", e)


def safe_div(a, b):
    if b == 0:
        raise ValueError("b must not be zero")
    return a / b


try:
    safe_div(1, 0)
except ValueError as err:
    print("caught", err)
finally:
    print("finally runs")
try:
    torch.ones(2) @ torch.ones(3)
except RuntimeError as e:
    print("torch said:", e)
else:
    print("no error")
assert torch.allclose(x.sum(), torch.tensor(6.0))
assert x.requires_grad is False, "no grad here"
print("done")
