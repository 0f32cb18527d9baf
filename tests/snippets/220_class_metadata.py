# The metadata learners read: type(x), x.__class__, a class's __name__/__qualname__/__module__, type(x) is T.
import torch
import torch.nn as nn
x = torch.ones(2)
print(type(x) is torch.Tensor, type(1) is int, type(x) is not torch.Tensor, type(x) is type(x), type(1.0) is int)
p = nn.Parameter(torch.ones(1))
print(type(p) is nn.Parameter, type(p).__name__, type(p).__module__, type(p).__qualname__)
class A:
    """Doc of A."""
    def f(self):
        "f's doc"
        return 1
class B(A):
    pass
def g():
    def h():
        pass
    return h
lam = lambda: 0
print(A.__name__, A.__qualname__, A.__module__, A.__doc__, B.__doc__, A().__class__.__name__, A().__module__)
print(A.f.__name__, A.f.__qualname__, A().f.__name__, A().f.__qualname__, A.f.__doc__, g.__doc__, g().__qualname__, lam.__name__, lam.__qualname__)
for v in [1, 1.5, "s", [1], (1,), {}, None, True, nn.Linear(2, 2), nn.Conv2d(1, 1, 1), torch.float32, torch.Size([1]), print, len, g]:
    print(type(v).__name__, type(v).__qualname__, type(v).__module__, v.__class__ is type(v))
print(torch.relu.__name__, len.__name__, print.__name__, torch.nn.functional.relu.__name__, g.__module__, isinstance(x, type(x)), issubclass(B, A))
print(getattr(x, '__class__'), hasattr(A, '__doc__'), f"{type(x).__name__:>10}|")
class N(nn.Module):
    def forward(self, x):
        return x
print(N().__class__.__name__, type(N()).__name__, N.__name__, type(N()) is N, N().__class__ is N, type(N).__name__)
try:
    x.__name__
except AttributeError as e:
    print(e)
try:
    A().__name__
except AttributeError as e:
    print(e)
