# generator functions (yield, yield from, return), generator expressions, lazy pipelines
import torch


def batches(data, size):
    for start in range(0, len(data), size):
        yield data[start:start + size]


def countdown(n):
    while n > 0:
        yield n
        n -= 1
    return "done"


def chain(*parts):
    for part in parts:
        yield from part


def squares():
    k = 0
    while True:
        k += 1
        yield k * k


data = torch.arange(10.0)
for batch in batches(data, 4):
    print(batch, batch.sum())
print(list(countdown(3)), list(chain([1, 2], (3,), countdown(2))))
gen = squares()
print([next(gen) for _ in range(5)])
print(sum(x * x for x in range(4)), max(len(s) for s in ["a", "abc"]))
g = countdown(2)
print(next(g), next(g), next(g, "end"))
evens = (i for i in range(10) if i % 2 == 0)
print(list(evens), list(evens))


def with_grad_mode():
    with torch.no_grad():
        yield torch.is_grad_enabled()
    yield torch.is_grad_enabled()


print(list(with_grad_mode()))


def fallible(items):
    for item in items:
        try:
            yield 10 / item
        except ZeroDivisionError:
            yield "skip"


print(list(fallible([1, 0, 4])))
