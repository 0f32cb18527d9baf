"""Generate tests/goldens/random_programs.json: what PyTorch 2.13 prints for small programs that draw from
torch's CPU generator through the functions built on it (rrelu's training slopes, ...), under torch.manual_seed
and with generator= (several seeds, shapes, dtypes, mixed signs, gradients).  The values are printed with
.tolist() (Python floats: exact), so the comparison is bit for bit.  tests/run/test_random_programs.py runs each
program with `gradcli run` (run_source) and compares its output.  Dev-only: the suite never imports torch.

    python scripts/make_random_program_goldens.py
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "random_programs.json"
PRELUDE = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
ADDRESS = re.compile(r" at 0x[0-9a-f]+")
SEEDS = [0, 1, 42, 2 ** 32 + 5]
DTYPES = ["float32", "float64"]


def rrelu_cases() -> list[tuple[str, str]]:
    cases = []
    for seed in SEEDS:
        for dtype in DTYPES:
            for shape in [(7,), (3, 4), (2, 3, 5), (1000,)]:
                for lower, upper in [(1 / 8, 1 / 3), (0.1, 0.3)]:
                    cases.append((f"rrelu-train-{seed}-{dtype}-{'x'.join(map(str, shape))}-{lower:.3f}", f"""
torch.manual_seed({seed})
x = torch.randn({shape}, dtype=torch.{dtype}, requires_grad=True)
y = F.rrelu(x, {lower!r}, {upper!r}, training=True)
print(y.tolist())
print(y.grad_fn)
(y * torch.linspace(-1, 2, y.numel(), dtype=torch.{dtype}).reshape(y.shape)).sum().backward()
print(x.grad.tolist())
print(torch.rand(3, dtype=torch.{dtype}).tolist())
"""))
    for seed in SEEDS[:2]:
        for dtype in DTYPES:
            cases.append((f"rrelu-module-{seed}-{dtype}", f"""
torch.manual_seed({seed})
m = nn.RReLU(0.1, 0.3)
print(m, nn.RReLU(), nn.RReLU(0.2, 0.4, True), m.lower, m.upper, m.inplace, m.training)
x = torch.randn(4, 5, dtype=torch.{dtype}, requires_grad=True)
y = m(x)
print(y.tolist(), y.grad_fn)
y.sum().backward()
print(x.grad.tolist())
m.eval()
z = m(x)
print(z.tolist(), z.grad_fn)
x.grad = None
z.sum().backward()
print(x.grad.tolist())
print(F.rrelu(x).tolist(), F.rrelu(x, 0.05, 0.5).tolist())
print(torch.rrelu(x, training=False).tolist())
"""))
            cases.append((f"rrelu-inplace-{seed}-{dtype}", f"""
torch.manual_seed({seed})
x = torch.randn(3, 6, dtype=torch.{dtype}, requires_grad=True)
h = x * 2
r = F.rrelu_(h, 0.2, 0.6, training=True)
print(r is h, h.tolist(), h.grad_fn)
h.sum().backward()
print(x.grad.tolist())
m = nn.RReLU(inplace=True)
w = torch.randn(2, 5, dtype=torch.{dtype})
v = m(w)
print(v is w, w.tolist())
h2 = x * 1
F.rrelu(h2, training=True, inplace=True)
print(h2.tolist(), h2.grad_fn)
h3 = x * 1
torch.rrelu_(h3)
print(h3.tolist(), h3.grad_fn)
x.grad = None
h3.sum().backward()
print(x.grad.tolist())
"""))
            cases.append((f"rrelu-generator-{seed}-{dtype}", f"""
g = torch.Generator().manual_seed({seed})
torch.manual_seed(123)
x = torch.randn(40, dtype=torch.{dtype})
y = torch.rrelu(x, 0.1, 0.9, True, g)
print(y.tolist())
print(torch.rrelu(x, 0.1, 0.9, training=True, generator=g).tolist())
print(torch.rand(2).tolist(), torch.rand(2, generator=g).tolist())
"""))
    cases.append(("rrelu-edges", """
torch.manual_seed(3)
x = torch.tensor([-1.0, float('nan'), 0.0, -0.0, 2.0, float('-inf'), float('inf'), -1e-30], requires_grad=True)
y = F.rrelu(x, training=True)
print(y.tolist())
y.sum().backward()
print(x.grad.tolist())
t = torch.randn(4, 3).t()
print(F.rrelu(t, 0.3, 0.3, training=True).tolist())
print(F.rrelu(torch.randn(5, 4)[:, 1:3], training=True).tolist())
print(F.rrelu(torch.randn(3, 0), training=True).tolist(), F.rrelu(torch.tensor(-2.0), training=True).tolist())
x2 = torch.randn(6, dtype=torch.float64, requires_grad=True)
y2 = F.rrelu(x2, training=True)
g, = torch.autograd.grad(y2.sum(), x2, create_graph=True)
print(g.tolist())
with torch.no_grad():
    print(F.rrelu(torch.randn(5), training=True).tolist())
for bad in (lambda: F.rrelu(torch.tensor([1, -2]), training=True), lambda: F.rrelu(torch.randn(3), 0.5, 0.1),
            lambda: nn.RReLU(0.5, 0.1)(torch.randn(2))):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
"""))
    return cases


def dropout_cases() -> list[tuple[str, str]]:
    cases = []
    for seed in SEEDS:
        for dtype in DTYPES:
            cases.append((f"dropout-feature-{seed}-{dtype}", f"""
torch.manual_seed({seed})
x = torch.randn(4, 6, 5, dtype=torch.{dtype}, requires_grad=True)
m = nn.Dropout1d(0.4)
print(m, nn.Dropout3d(), nn.Dropout2d(0.25, True))
y = m(x)
print(y.tolist(), y.grad_fn)
(y * y).sum().backward()
print(x.grad.tolist())
u = F.dropout1d(torch.randn(6, 5, dtype=torch.{dtype}, requires_grad=True), 0.3)
print(u.tolist(), u.grad_fn)
print(F.dropout1d(x, training=False) is x, F.dropout1d(x, 0.0) is x, m.eval()(x) is x)
print(F.dropout1d(x, 1.0).tolist())
v = torch.randn(2, 3, 2, 2, 2, dtype=torch.{dtype}, requires_grad=True)
w = nn.Dropout3d(0.5)(v)
print(w.tolist(), w.grad_fn)
w.sum().backward()
print(v.grad.tolist())
print(F.dropout3d(torch.randn(3, 2, 2, 3, dtype=torch.{dtype}), 0.6).tolist())
print(F.dropout2d(torch.randn(2, 3, 2, 2, dtype=torch.{dtype}), 0.5).tolist())
h = torch.randn(3, 4, dtype=torch.{dtype})
F.dropout1d(h, 0.5, inplace=True)
print(h.tolist())
k = torch.randn(2, 3, 4, dtype=torch.{dtype})
print(F.dropout1d(k, 0.5, inplace=True) is k, k.tolist())
print(torch.rand(3, dtype=torch.{dtype}).tolist())
"""))
            cases.append((f"dropout-alpha-{seed}-{dtype}", f"""
torch.manual_seed({seed})
x = torch.randn(5, 7, dtype=torch.{dtype}, requires_grad=True)
m = nn.AlphaDropout(0.2)
print(m, nn.FeatureAlphaDropout(), m.p, m.inplace)
y = m(x)
print(y.tolist(), y.grad_fn)
(y * y).sum().backward()
print(x.grad.tolist())
print(F.alpha_dropout(x, 0.5, training=True).tolist())
print(F.alpha_dropout(x, 0.5) is x, m.eval()(x) is x, F.alpha_dropout(x, 0.0, True) is x)
print(F.alpha_dropout(x, 1.0, True).tolist())
f = nn.FeatureAlphaDropout(0.3)
z = torch.randn(2, 3, 4, dtype=torch.{dtype}, requires_grad=True)
q = f(z)
print(q.tolist(), q.grad_fn)
q.sum().backward()
print(z.grad.tolist())
print(F.feature_alpha_dropout(torch.randn(4, 6, dtype=torch.{dtype}), 0.5, training=True).tolist())
h = torch.randn(3, 4, dtype=torch.{dtype})
print(F.alpha_dropout(h, 0.4, True, True) is h, h.tolist())
print(torch.rand(3, dtype=torch.{dtype}).tolist())
"""))
    cases.append(("dropout-errors", """
for bad in (lambda: nn.Dropout1d(1.5), lambda: F.alpha_dropout(torch.randn(3), -0.1, True),
            lambda: F.feature_alpha_dropout(torch.randn(3), 0.5, True), lambda: F.dropout1d(torch.randn(3), 0.5),
            lambda: F.dropout3d(torch.randn(2), 0.5)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError", e)
    except ValueError as e:
        print("ValueError", e)
"""))
    return cases


GROUPS = {"rrelu": rrelu_cases, "dropout": dropout_cases}


def run(source: str) -> str:
    import torch  # noqa: F401 - the program imports it; fail early without it

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(PRELUDE + source, "prog.py", "exec"), {"__name__": "__main__"})
    return ADDRESS.sub("", out.getvalue())


def main():
    import torch

    cases = []
    for group, make in GROUPS.items():
        for name, source in make():
            cases.append({"group": group, "name": name, "source": PRELUDE + source.lstrip("\n"),
                          "stdout": run(source)})
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, indent=0) + "\n")
    print(f"wrote {len(cases)} programs to {OUT}")


if __name__ == "__main__":
    main()
