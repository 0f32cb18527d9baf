import torch
from torch.func import grad, hessian, jacfwd, jacrev, vmap

torch.manual_seed(0)


def f(x, y):
    return (x.sin() * y).sum()


x = torch.randn(3)
y = torch.randn(3)
print(grad(f)(x, y), grad(f, argnums=1)(x, y), grad(f, argnums=(0, 1))(x, y))
print(grad(grad(torch.sin))(torch.tensor(0.5)))


def g(x):
    return x ** 2 * x.sum()


print(jacrev(g)(x), jacfwd(g)(x))
print(hessian(f)(x, y))
print(vmap(torch.dot)(torch.randn(2, 3), torch.randn(2, 3)))
print(vmap(torch.dot, in_dims=(0, None))(torch.randn(2, 3), y))
print(vmap(jacrev(torch.sin))(torch.randn(2, 2)))


def aux(x):
    return x.sum(), x * 2


print(grad(aux, has_aux=True)(x))
print(torch.isclose(torch.tensor([1., 2.]), torch.tensor([1., 2.1])), torch.allclose(x, x + 1e-9))
print(torch.allclose(torch.tensor([1., float('nan')]), torch.tensor([1., float('nan')]), equal_nan=True))
print(torch.allclose(torch.ones(2), torch.ones(2, dtype=torch.float64)))
