"""Generate tests/goldens/upsample.json.gz: torch 2.13's F.interpolate (every mode, 3-D/4-D/5-D inputs, sizes and
scale factors, integer and not, align_corners, recompute_scale_factor, float32 and float64, the channels-last
kernel's conditions: small and large outputs, channel counts around the vector width, a channels-last input) and
F.bilinear, their outputs and the gradients of every input for a fixed grad_output, as SHA-256 digests of the
arrays' bytes plus a few leading values, and torch's error texts for wrong calls.

The inputs are a deterministic hash of their position (`values`, repeated in tests/engine/test_upsample.py), so
the goldens hold no input data.  Dev-only: the tests never import torch.

    python scripts/make_upsample_goldens.py [--out tests/goldens/upsample.json.gz]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import itertools
import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "goldens" / "upsample.json.gz"


def values(shape, dtype: str, salt: int = 0) -> np.ndarray:
    """Deterministic values of mixed sign and magnitude (2**-3 .. 2**3), from a hash of the element index."""
    n = int(np.prod(shape))
    with np.errstate(over="ignore"):
        h = np.arange(n, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(salt * 7919 + 1)
        h ^= h >> np.uint64(31)
        h *= np.uint64(0x94D049BB133111EB)
        h ^= h >> np.uint64(29)
    mantissa = 1.0 + (h >> np.uint64(12)).astype(np.float64) / 2.0 ** 52
    sign = np.where(h & np.uint64(1), -1.0, 1.0)
    exponent = ((h >> np.uint64(3)) % np.uint64(6)).astype(np.float64) - 3
    return (sign * mantissa * 2.0 ** exponent).astype(dtype).reshape(shape)


def digest(array) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()


def summary(array) -> dict:
    a = np.ascontiguousarray(array)
    return {"shape": list(a.shape), "sha256": digest(a), "head": [float(v) for v in a.ravel()[:4]]}


MODES = {3: ["nearest", "nearest-exact", "linear", "area"],
         4: ["nearest", "nearest-exact", "bilinear", "bicubic", "area"],
         5: ["nearest", "nearest-exact", "trilinear", "area"]}
SPATIAL = {3: [(5,), (7,), (1,)], 4: [(3, 4), (5, 2), (1, 3)], 5: [(2, 3, 2), (3, 1, 4)]}
SCALES = [2, 3, 0.5, 1.5, 2.5, 1.7, 0.75, 1 / 3]
INTERPOLATING = ("linear", "bilinear", "bicubic", "trilinear")


def interpolate_cases():
    cases = []
    for nd, modes in MODES.items():
        for mode, spatial, dtype in itertools.product(modes, SPATIAL[nd], ("float32", "float64")):
            aligns = (False, True) if mode in INTERPOLATING else (None,)
            for k, align in enumerate(aligns):
                channels = (1, 3, 9)[(len(cases) + k) % 3]
                shape = (2, channels) + spatial
                calls = []
                for i, s in enumerate(SCALES):
                    if all(int(n * s) >= 1 for n in spatial):
                        scale = s if i % 2 else tuple(SCALES[(i + j) % len(SCALES)] for j in range(nd - 2))
                        if isinstance(scale, tuple) and not all(int(n * f) >= 1 for n, f in zip(spatial, scale)):
                            scale = s
                        calls.append({"scale_factor": scale})
                calls.append({"scale_factor": 1.5, "recompute_scale_factor": True})
                calls.append({"size": [n + 3 for n in spatial]})
                calls.append({"size": [max(1, n - 1) for n in spatial]})
                calls.append({"size": 6})
                if nd == 4:
                    calls.append({"size": [70, 64]})  # H + W > 128: the generic kernel
                for call in calls:
                    kwargs = dict(call, mode=mode)
                    if align is not None:
                        kwargs["align_corners"] = align
                    if mode == "area" and call.get("recompute_scale_factor"):
                        continue
                    cases.append({"shape": list(shape), "dtype": dtype, "kwargs": kwargs, "layout": "contiguous"})
    # channels around the vector width (8 float32, 4 float64) and a channels-last input
    for dtype, channels, size in itertools.product(("float32", "float64"), (4, 8, 11, 17), ([5, 7], [60, 70])):
        for mode in ("bilinear", "nearest"):
            kwargs = {"size": size, "mode": mode}
            if mode == "bilinear":
                kwargs["align_corners"] = channels % 2 == 0
            cases.append({"shape": [2, channels, 3, 4], "dtype": dtype, "kwargs": kwargs, "layout": "contiguous"})
            cases.append({"shape": [2, channels, 3, 4], "dtype": dtype, "kwargs": kwargs, "layout": "channels_last"})
    for dtype, channels in itertools.product(("float32", "float64"), (5, 9)):
        cases.append({"shape": [1, channels, 2, 3, 2], "dtype": dtype, "layout": "channels_last",
                      "kwargs": {"size": [3, 4, 3], "mode": "trilinear"}})
    return cases


def torch_input(case, salt=0):
    x = torch.from_numpy(values(case["shape"], case["dtype"], salt))
    if case["layout"] == "channels_last":
        x = x.contiguous(memory_format=torch.channels_last if x.ndim == 4 else torch.channels_last_3d)
    return x


def call_kwargs(kwargs):
    out = dict(kwargs)
    if isinstance(out.get("size"), list):
        out["size"] = tuple(out["size"])
    return out


def record_interpolate(case):
    x = torch_input(case).requires_grad_()
    y = F.interpolate(x, **call_kwargs(case["kwargs"]))
    g = torch.from_numpy(values(tuple(y.shape), case["dtype"], 1))
    y.backward(g)
    return dict(case, output=summary(y.detach().numpy()), grad=summary(x.grad.numpy()), grad_fn=y.grad_fn.name())


BILINEAR_SHAPES = [((4, 3), (4, 5), 2), ((7, 20), (7, 30), 6), ((2, 3, 21), (2, 3, 19), 4), ((1, 8), (1, 9), 3),
                   ((30, 2), (30, 1), 5), ((5, 24), (5, 18), 3), ((11, 2), (11, 450), 3), ((3,), (4,), 2),
                   ((1, 40), (1, 30), 4), ((9, 33), (9, 37), 2), ((2, 2, 2, 25), (2, 2, 2, 17), 3)]


def bilinear_cases():
    cases = []
    for (s1, s2, out), dtype, bias in itertools.product(BILINEAR_SHAPES, ("float32", "float64"), (True, False)):
        cases.append({"shape1": list(s1), "shape2": list(s2), "out": out, "dtype": dtype, "bias": bias})
    return cases


def record_bilinear(case):
    x1 = torch.from_numpy(values(case["shape1"], case["dtype"], 2)).requires_grad_()
    x2 = torch.from_numpy(values(case["shape2"], case["dtype"], 3)).requires_grad_()
    w = torch.from_numpy(values((case["out"], case["shape1"][-1], case["shape2"][-1]), case["dtype"], 4))
    w.requires_grad_()
    b = torch.from_numpy(values((case["out"],), case["dtype"], 5)).requires_grad_() if case["bias"] else None
    y = F.bilinear(x1, x2, w, b)
    y.backward(torch.from_numpy(values(tuple(y.shape), case["dtype"], 6)))
    grads = {"input1": x1.grad.numpy(), "input2": x2.grad.numpy(), "weight": w.grad.numpy()}
    if b is not None:
        grads["bias"] = b.grad.numpy()
    return dict(case, output=summary(y.detach().numpy()), grad_fn=y.grad_fn.name(),
                grads={k: summary(v) for k, v in grads.items()})


ERROR_CALLS = [
    ((1, 1, 4, 4), {"size": 2, "scale_factor": 2}),
    ((1, 1, 4, 4), {"scale_factor": 2, "mode": "nearest", "align_corners": True}),
    ((1, 1, 4, 4), {"scale_factor": 2, "mode": "area", "align_corners": False}),
    ((1, 1, 4, 4), {}),
    ((1, 1, 4, 4), {"size": (2, 2, 2)}),
    ((1, 1, 4, 4), {"scale_factor": (2, 2, 2)}),
    ((1, 1, 4, 4), {"size": (2, 2), "recompute_scale_factor": True}),
    ((1, 1, 4, 4), {"scale_factor": 2, "mode": "linear"}),
    ((1, 1, 4, 4), {"scale_factor": 2, "mode": "trilinear"}),
    ((1, 1, 4), {"scale_factor": 2, "mode": "bilinear"}),
    ((1, 1, 4), {"scale_factor": 2, "mode": "trilinear"}),
    ((1, 1, 4), {"scale_factor": 2, "mode": "bicubic"}),
    ((1, 1, 2, 2, 2), {"scale_factor": 2, "mode": "bilinear"}),
    ((1, 1, 2, 2, 2), {"scale_factor": 2, "mode": "linear"}),
    ((1, 1, 2, 2, 2), {"scale_factor": 2, "mode": "bicubic"}),
    ((1, 4), {"scale_factor": 2}),
    ((1, 4), {"scale_factor": 2, "mode": "linear"}),
    ((1, 1, 4, 4), {"scale_factor": 2, "mode": "cubic"}),
    ((1, 1, 4, 4), {"scale_factor": 2, "mode": "nearest", "antialias": True}),
    ((1, 1, 4), {"scale_factor": 2, "mode": "linear", "antialias": True}),
    ((1, 1, 4, 4), {"scale_factor": 0.1, "mode": "bilinear"}),
    ((1, 1, 4, 4), {"size": (0, 3), "mode": "nearest"}),
    ((1, 1, 4), {"size": 0, "mode": "linear"}),
    ((1, 1, 2, 2, 2), {"size": (2, 0, 2), "mode": "trilinear"}),
    ((1, 0, 4, 4), {"scale_factor": 2, "mode": "bilinear"}),
    ((1, 1, 4, 4), {"size": (2.5, 3)}),
    ((1, 1, 4, 4), {"scale_factor": float("inf")}),
    ((1, 1, 4, 4), {"scale_factor": float("nan"), "mode": "bilinear"}),
    ((1, 1, 4, 4), {"scale_factor": -1.5}),
    ((1, 1, 4, 4), {"scale_factor": 0.5, "mode": "lanczos"}),
    ((1, 1, 4, 4), {"scale_factor": 0.5, "mode": "lanczos", "align_corners": True}),
    ((1, 1, 2, 2), {"scale_factor": 2, "mode": "nearest"}, "int64"),
    ((1, 1, 2, 2), {"scale_factor": 2, "mode": "bilinear"}, "int64"),
    ((1, 1, 2, 2), {"scale_factor": 2, "mode": "bicubic"}, "int64"),
    ((1, 1, 2), {"scale_factor": 2, "mode": "linear"}, "int64"),
    ((1, 1, 2), {"scale_factor": 2, "mode": "nearest-exact"}, "int64"),
    ((1, 1, 2, 2, 2), {"scale_factor": 2, "mode": "trilinear"}, "int64"),
]

BILINEAR_ERRORS = [
    ((6, 3), (6, 4), (5, 3, 5), None),
    ((6, 3), (5, 4), (5, 3, 4), None),
    ((6, 3), (6, 4), (5, 3, 4), (3,)),
    ((6, 2), (6, 4), (5, 3, 4), None),
    ((6, 3), (6, 1, 4), (5, 3, 4), None),
]


def record_errors():
    out = []
    for shape, kwargs, *dtype in ERROR_CALLS:
        dtype = dtype[0] if dtype else "float32"
        x = torch.ones(shape, dtype=getattr(torch, dtype))
        try:
            F.interpolate(x, **kwargs)
        except Exception as err:  # noqa: BLE001 - the exception is the golden
            out.append({"op": "interpolate", "shape": list(shape), "dtype": dtype, "kwargs": kwargs,
                        "type": type(err).__name__, "message": str(err)})
        else:
            raise AssertionError(f"torch accepted {shape} {kwargs}")
    for s1, s2, sw, sb in BILINEAR_ERRORS:
        try:
            F.bilinear(torch.ones(s1), torch.ones(s2), torch.ones(sw), None if sb is None else torch.ones(sb))
        except Exception as err:  # noqa: BLE001
            out.append({"op": "bilinear", "shapes": [list(s1), list(s2), list(sw), None if sb is None else list(sb)],
                        "type": type(err).__name__, "message": str(err)})
        else:
            raise AssertionError(f"torch accepted bilinear {s1} {s2} {sw} {sb}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    torch.set_num_threads(2)
    data = {"torch_version": torch.__version__, "cpu_capability": torch.backends.cpu.get_cpu_capability(),
            "interpolate": [record_interpolate(c) for c in interpolate_cases()],
            "bilinear": [record_bilinear(c) for c in bilinear_cases()],
            "errors": record_errors()}
    args.out.write_bytes(gzip.compress(json.dumps(data, sort_keys=True).encode(), mtime=0))
    print(f"{len(data['interpolate'])} interpolate cases, {len(data['bilinear'])} bilinear cases, "
          f"{len(data['errors'])} errors -> {args.out}")


if __name__ == "__main__":
    main()
