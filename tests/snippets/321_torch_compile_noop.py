# torch.compile as a decorator (bare or with options) and on a module: the program computes the same values
import torch


@torch.compile
def f(x):
    return torch.sin(x) + 1


@torch.compile(mode="reduce-overhead")
def g(x):
    return x * 2


torch.manual_seed(0)
model = torch.compile(torch.nn.Linear(2, 1))
x = torch.tensor([0.0, 1.0])
print(f(x), g(x))
with torch.no_grad():
    print(model(x))
