"""Generate tests/goldens/conv.json and tests/goldens/conv_programs.json from PyTorch 2.13.

conv.json.gz: F.conv3d, F.conv_transpose1d/2d/3d on a grid of shapes, strides, paddings ('same'/'valid' for conv3d),
dilations, groups, output paddings, with and without bias, batched and unbatched, in float32 and float64: the
inputs, the output, and the gradients of input, weight and bias for a random grad_output, with the backend torch
chose (oneDNN or its own slow kernels; gradcli follows oneDNN's summation order where it is cheap).  Values are
Python floats (float32 values to 9 digits: exactly).

conv_programs.json: what PyTorch prints for the small programs of tests/conv_cases.py (nn.Conv3d and
nn.ConvTranspose1d/2d/3d: output_size=, padding_mode, printed forms, and the error texts of invalid arguments),
run under make_snippet_goldens.py's runner as tests/run/test_conv_programs.py runs them under `gradcli run`.

Dev-only: needs torch.

    python scripts/make_conv_goldens.py
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from conv_cases import CASES  # noqa: E402
from make_snippet_goldens import RUNNER  # noqa: E402

OUT = ROOT / "tests" / "goldens" / "conv.json.gz"
OUT_PROGRAMS = ROOT / "tests" / "goldens" / "conv_programs.json"

# (op, input shape, weight shape, bias, keyword arguments)
GRID = [
    ("conv3d", (2, 3, 5, 6, 7), (4, 3, 2, 3, 2), True, {}),
    ("conv3d", (2, 3, 6, 5, 7), (4, 3, 3, 2, 3), True, {"stride": (2, 1, 2), "padding": (1, 0, 2)}),
    ("conv3d", (1, 2, 7, 6, 5), (3, 2, 2, 2, 3), False, {"padding": 1, "dilation": (2, 1, 1)}),
    ("conv3d", (2, 4, 5, 5, 5), (6, 2, 3, 3, 3), True, {"groups": 2, "stride": 2}),
    ("conv3d", (2, 2, 5, 6, 5), (3, 2, 2, 3, 4), True, {"padding": "same", "dilation": (1, 2, 1)}),
    ("conv3d", (2, 2, 4, 5, 6), (3, 2, 3, 1, 2), True, {"padding": "valid"}),
    ("conv3d", (3, 4, 5, 6), (2, 3, 2, 2, 2), True, {"stride": (1, 2, 1)}),
    ("conv3d", (2, 16, 4, 5, 6), (5, 16, 2, 2, 2), True, {}),
    ("conv3d", (2, 16, 4, 6, 5), (5, 16, 3, 3, 2), True, {"stride": (2, 1, 1), "padding": (2, 1, 0)}),
    ("conv3d", (2, 24, 3, 4, 5), (4, 24, 2, 2, 2), True, {}),
    ("conv3d", (1, 2, 4, 4, 4), (2, 2, 2, 2, 2), True, {}),
    ("conv_transpose1d", (2, 4, 7), (4, 3, 3), True, {}),
    ("conv_transpose1d", (2, 4, 6), (4, 3, 3), True, {"stride": 2, "padding": 1, "output_padding": 1}),
    ("conv_transpose1d", (2, 3, 5), (3, 2, 4), False, {"stride": 3, "dilation": 2, "output_padding": 2}),
    ("conv_transpose1d", (2, 4, 6), (4, 2, 3), True, {"groups": 2, "stride": 2}),
    ("conv_transpose1d", (4, 7), (4, 3, 3), True, {"padding": 1}),
    ("conv_transpose1d", (1, 3, 5), (3, 2, 2), True, {}),
    ("conv_transpose1d", (2, 16, 9), (16, 5, 3), True, {"stride": 2}),
    ("conv_transpose2d", (2, 3, 4, 5), (3, 2, 3, 2), True, {}),
    ("conv_transpose2d", (2, 16, 5, 6), (16, 5, 3, 5), True, {"stride": (2, 1), "padding": (4, 2)}),
    ("conv_transpose2d", (2, 4, 4, 3), (4, 3, 3, 3), True, {"groups": 2, "stride": 2, "output_padding": 1}),
    ("conv_transpose2d", (1, 2, 4, 5), (2, 3, 2, 3), False, {"dilation": (2, 1), "padding": (1, 1)}),
    ("conv_transpose2d", (3, 4, 5), (3, 2, 2, 2), True, {"stride": 2}),
    ("conv_transpose2d", (2, 20, 3, 4), (20, 3, 2, 3), True, {}),
    ("conv_transpose2d", (2, 3, 4, 4), (3, 2, 4, 4), True, {"stride": 3, "dilation": 2, "output_padding": (2, 1)}),
    ("conv_transpose3d", (2, 3, 3, 4, 3), (3, 2, 2, 3, 2), True, {}),
    ("conv_transpose3d", (2, 4, 3, 3, 4), (4, 2, 3, 2, 3), True, {"stride": (2, 1, 2), "padding": (1, 0, 1),
                                                                  "output_padding": (1, 0, 0)}),
    ("conv_transpose3d", (1, 2, 3, 3, 3), (2, 2, 2, 2, 2), False, {"dilation": 2}),
    ("conv_transpose3d", (2, 4, 3, 3, 3), (4, 1, 2, 2, 2), True, {"groups": 2, "stride": 2}),
    ("conv_transpose3d", (3, 3, 4, 2), (3, 2, 2, 2, 2), True, {}),
    ("conv_transpose3d", (2, 16, 3, 4, 3), (16, 4, 2, 3, 2), True, {"stride": 2, "padding": 1}),
]
# Larger float32 cases on oneDNN's path, forward only (their products are long enough for BLAS's regular kernel,
# whose dot products are single multiply-add chains): nn.ConvTranspose2d's and nn.Conv3d's documented layers
LARGE = [
    ("conv_transpose2d", (2, 16, 16, 40), (16, 33, 3, 5), True, {"stride": (2, 1), "padding": (4, 2)}),
    ("conv3d", (2, 16, 5, 8, 16), (33, 16, 2, 2, 2), True, {}),
]


def record_grid() -> list:
    import torch
    import torch.nn.functional as F

    cases = []
    grid = [(entry, dtype) for entry in GRID for dtype in ("float32", "float64")] + [(entry, "float32")
                                                                                     for entry in LARGE]
    for index, ((op, x_shape, w_shape, with_bias, kwargs), dtype) in enumerate(grid):
        torch.manual_seed(1000 + index)
        large = index >= 2 * len(GRID)
        dt = getattr(torch, dtype)
        x = torch.randn(x_shape, dtype=dt, requires_grad=True)
        w = torch.randn(w_shape, dtype=dt, requires_grad=True)
        b = torch.randn(w_shape[1] * kwargs.get("groups", 1) if op.startswith("conv_t") else w_shape[0],
                        dtype=dt, requires_grad=True) if with_bias else None
        out = getattr(F, op)(x, w, b, **kwargs)
        grad_output = torch.randn(out.shape, dtype=dt)
        out.backward(grad_output)
        nd = len(w_shape) - 2
        batched = x if len(x_shape) == nd + 2 else x[None]
        pad = kwargs.get("padding", 0)
        pad = [0] * nd if isinstance(pad, str) else list(pad) if isinstance(pad, tuple) else [pad] * nd
        def listify(v, nd=nd):
            return list(v) if isinstance(v, tuple) else [v] * nd

        backend = str(torch._C._select_conv_backend(
            batched, w, b, listify(kwargs.get("stride", 1)), pad, listify(kwargs.get("dilation", 1)),
            op.startswith("conv_t"), listify(kwargs.get("output_padding", 0)), kwargs.get("groups", 1), None))

        def flat(t, dtype=dtype):
            values = t.detach().reshape(-1).double().tolist()
            if dtype == "float32":  # 9 significant digits give a float32 back exactly
                return [float(f"{v:.9g}") for v in values]
            return values

        cases.append({
            "op": op, "dtype": dtype, "kwargs": kwargs, "backend": backend.split(".")[-1],
            "x_shape": list(x_shape), "w_shape": list(w_shape), "out_shape": list(out.shape),
            "x": flat(x), "w": flat(w), "b": None if b is None else flat(b), "out": flat(out),
            "grad_output": None if large else flat(grad_output), "grad_x": None if large else flat(x.grad),
            "grad_w": None if large else flat(w.grad),
            "grad_b": None if b is None or large else flat(b.grad), "grad_fn": type(out.grad_fn).__name__})
    return cases


def record_program(source: str) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "prog.py"
        path.write_text(source)
        done = subprocess.run([sys.executable, "-c", RUNNER, str(path)], capture_output=True, text=True, cwd=scratch,
                              timeout=600)
    return {"stdout": done.stdout, "stderr": done.stderr.replace(str(path), "prog.py"), "code": done.returncode}


def main() -> None:
    import torch

    cases = record_grid()
    with open(OUT, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:  # the same bytes each run
        f.write((json.dumps({"torch": torch.__version__, "cases": cases}, separators=(",", ":")) + "\n").encode())
    print(f"{len(cases)} cases -> {OUT.relative_to(ROOT)}")
    programs = {name: record_program(source) for name, source in CASES.items()}
    OUT_PROGRAMS.write_text(json.dumps(programs, indent=1, sort_keys=True) + "\n")
    print(f"{len(programs)} programs -> {OUT_PROGRAMS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
