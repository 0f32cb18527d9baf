"""Record PyTorch 2.13's values and gradients of the padding, distance, shuffle, pooling and normalisation layers
gradcli run gained (gradcli/engine/nn_padding.py, nn_shuffle.py, nn_pooling.py, nn_norms.py) over a grid of
layers x shapes x dtypes, as tests/goldens/nn_extra_layers.json: for each case a small program (text) and what it
prints under torch (every number through .tolist(), so float32 values compare bit for bit).
tests/run/test_nn_extra_layers.py runs each program under gradcli run and compares.  Dev-only: needs torch.

    python scripts/make_nn_extra_goldens.py
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "goldens" / "nn_extra_layers.json"

LAYERS = {
    1: ["nn.ZeroPad1d((2, 1))", "nn.ConstantPad1d((1, -1), -0.5)", "nn.ReflectionPad1d((2, 1))",
        "nn.ReplicationPad1d(2)", "nn.CircularPad1d((1, 2))", "nn.AdaptiveAvgPool1d(2)", "nn.AdaptiveMaxPool1d(3)",
        "nn.LPPool1d(2, 2)", "nn.LPPool1d(1.5, 3, stride=1)", "nn.LocalResponseNorm(2)", "nn.RMSNorm(4)",
        "nn.RMSNorm([3, 4], eps=0.1)", "nn.InstanceNorm1d(3)"],
    2: ["nn.ZeroPad2d((1, 0, 2, 1))", "nn.ConstantPad2d(1, 2.0)", "nn.ReflectionPad2d((1, 1, 2, 0))",
        "nn.ReplicationPad2d(1)", "nn.CircularPad2d((1, 0, 0, 2))", "nn.PixelUnshuffle(2)", "nn.ChannelShuffle(2)",
        "nn.LPPool2d(2, 2)", "nn.LPPool2d(3, (2, 1), stride=(1, 2), ceil_mode=True)", "nn.LocalResponseNorm(3, k=2.0)",
        "nn.BatchNorm2d(4)"],
    3: ["nn.ZeroPad3d(1)", "nn.ConstantPad3d((0, 1, 1, 0, 1, 1), 1.5)", "nn.ReflectionPad3d(1)",
        "nn.ReplicationPad3d((1, 0, 0, 1, 1, 0))", "nn.CircularPad3d(1)", "nn.AdaptiveAvgPool3d((1, 2, 3))",
        "nn.BatchNorm3d(2)", "nn.InstanceNorm3d(2, affine=True)"],
}
SHAPES = {1: [(2, 3, 4)], 2: [(2, 4, 4, 6)], 3: [(1, 2, 3, 4, 4)]}
PROGRAM = """import torch
import torch.nn as nn
torch.manual_seed({seed})
m = {layer}.to(torch.{dtype})
x = torch.randn({shape}, dtype=torch.{dtype}, requires_grad=True)
y = m(x)
print(m, type(y.grad_fn).__name__, y.dtype, tuple(y.shape))
print(y.tolist())
g = torch.randn(y.shape, dtype=torch.{dtype})
y.backward(g)
print(x.grad.tolist())
print([p.grad.tolist() for p in m.parameters()])
"""


def cases():
    seed = 0
    for nd, layers in LAYERS.items():
        for layer in layers:
            for shape in SHAPES[nd]:
                for dtype in ("float32", "float64"):
                    seed += 1
                    yield PROGRAM.format(seed=seed, layer=layer, dtype=dtype, shape=shape)


def main() -> None:
    records = []
    for source in cases():
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(source, "case.py", "exec"), {"__name__": "__main__"})  # noqa: S102 - our own programs
        records.append({"program": source, "stdout": out.getvalue()})
    OUT.write_text(json.dumps({"torch": __import__("torch").__version__, "cases": records}, indent=0) + "\n")
    print(f"{len(records)} cases -> {OUT}")


if __name__ == "__main__":
    main()
