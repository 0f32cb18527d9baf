# with: torch's grad modes and the program's own context managers (__enter__/__exit__), exceptions through them;
# a generator under @torch.no_grad() runs each step without grad, as torch's decorator makes it
import torch


class Section:
    depth = 0

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        Section.depth += 1
        print("enter", self.name, Section.depth)
        return self

    def __exit__(self, exc_type, exc, tb):
        Section.depth -= 1
        print("exit", self.name, exc_type, exc)
        return exc_type is KeyError


x = torch.ones(2, requires_grad=True)
with Section("outer") as s, torch.no_grad():
    y = x * 2
    print(s.name, y.requires_grad, torch.is_grad_enabled())
print(torch.is_grad_enabled())
with Section("swallow"):
    raise KeyError("ignored")
try:
    with Section("inner"):
        torch.ones(2) @ torch.ones(3)
except RuntimeError as e:
    print("propagated:", e)
with torch.set_grad_enabled(False):
    print((x * 3).requires_grad)
print((x * 3).requires_grad)


@torch.no_grad()
def doubled(values):
    for v in values:
        yield v * 2, torch.is_grad_enabled()


for pair in doubled([x, x + 1]):
    print(pair)
print(torch.is_grad_enabled())
