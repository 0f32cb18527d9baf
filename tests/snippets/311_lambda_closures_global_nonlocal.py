# lambda, closures, nested functions, global and nonlocal
import torch

step_count = 0


def make_optimizer_step(lr):
    def step(params):
        global step_count
        step_count += 1
        with torch.no_grad():
            for p in params:
                p -= lr * p.grad
    return step


def make_counter():
    count = 0

    def increment(by=1):
        nonlocal count
        count += by
        return count
    return increment


w = torch.tensor([1.0, -2.0], requires_grad=True)
step = make_optimizer_step(0.1)
for _ in range(3):
    loss = (w ** 2).sum()
    loss.backward()
    step([w])
    w.grad.zero_()
print(w, step_count)
counter = make_counter()
counter()
counter(5)
print(counter())
square = lambda t: t * t  # noqa: E731
print(square(torch.tensor(3.0)), (lambda a, b=2: a + b)(1), sorted([(1, "b"), (0, "a")], key=lambda p: p[1]))
adders = [lambda v, k=k: v + k for k in range(3)]
print([f(10) for f in adders])
late = [lambda: k for k in range(3)]
print([f() for f in late])


def outer():
    x = "outer"

    def inner():
        return x
    x = "changed"
    return inner()


print(outer())
