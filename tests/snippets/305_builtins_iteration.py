# next, iter, enumerate, zip, sorted, reversed, map, filter, any, all, isinstance, issubclass, getattr,
# hasattr, setattr, sum, min, max, abs, round, divmod, repr, callable, id
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
first = next(model.parameters())
print(first.shape, next(iter(model)))
it = iter([10, 20, 30])
print(next(it), next(it), next(it), next(it, "done"))
names = [n for n, _ in model.named_parameters()]
print(sorted(names, key=len), list(reversed(names)))
print(list(map(lambda p: tuple(p.shape), model.parameters())))
print(list(filter(lambda v: v % 3 == 0, range(10))), list(map(str, [1, 2])))
print(any(p.requires_grad for p in model.parameters()), all(p.dim() == 2 for p in model.parameters()))
print(isinstance(first, torch.Tensor), isinstance(model, torch.nn.Module), issubclass(bool, int))
print(list(enumerate("abc", start=1)), list(zip([1, 2, 3], "xy")))
print(sum([1.5, 2.5]), min(3, 1, 2), max([4, 9, 2]), abs(-2.5), round(2.675, 2), round(7.5), divmod(-7, 2))
print(repr("text"), callable(print), callable(3), id(model) == id(model))


class Box:
    pass


b = Box()
setattr(b, "size", 3)
print(getattr(b, "size"), hasattr(b, "size"), hasattr(b, "weight"), getattr(b, "weight", None))
print(hasattr(model[0], "weight"), getattr(model[0], "out_features"))
try:
    next(iter([]))
except StopIteration:
    print("exhausted")
