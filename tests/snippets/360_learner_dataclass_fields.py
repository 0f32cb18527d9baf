# @dataclass as a learner writes it: fields with and without defaults, its __init__, repr, == and errors.
from dataclasses import dataclass
import dataclasses


@dataclass
class P:
    x: int
    y: float = 0.5
    tag: str = "p"

    def norm(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5


@dataclasses.dataclass()
class Q:
    """A Q."""
    items: list


p = P(3, y=4.0)
print(p, p.norm(), P(1) == P(1), P(1) == P(2), P(1) != P(1), [P(2)], repr(P(1, 2, "t")), Q([1, 2]), Q.__doc__)
p.x = 10
print(p, p == P(10, 4.0), type(p).__name__, isinstance(p, P), str(p), f"{p}")
for bad in [lambda: P(), lambda: P(1, 2, 3, 4), lambda: P(1, z=2), lambda: P(1, x=2)]:
    try:
        bad()
    except TypeError as e:
        print("TypeError:", e)
