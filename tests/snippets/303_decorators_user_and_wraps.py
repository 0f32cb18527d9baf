# decorators the program writes: a function taking a function, with functools.wraps, stacked, with arguments
import functools
import torch

calls = []


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        calls.append(len(args))
        return fn(*args, **kwargs)
    return wrapper


def repeat(n):
    def decorate(fn):
        def wrapper(*args):
            out = None
            for _ in range(n):
                out = fn(*args)
            return out
        return wrapper
    return decorate


@logged
def loss(w, x, target=1.0):
    return ((w * x - target) ** 2).mean()


@repeat(3)
@logged
def step(counter):
    counter.append(1)
    return len(counter)


w = torch.tensor([0.5, 1.5], requires_grad=True)
value = loss(w, torch.tensor([1.0, 2.0]), target=2.0)
value.backward()
print(value, w.grad, calls)
print(step([]), calls)
print(loss, step)


def plain(x):
    return x + 1


same = logged(plain)
print(same(1), same)


class Tracker:
    def __init__(self):
        self.n = 0

    @logged
    def bump(self, k):
        self.n += k
        return self.n


t = Tracker()
print(t.bump(2), t.bump(3), calls)
print(functools.reduce(lambda a, b: a * b, [1, 2, 3, 4]))
