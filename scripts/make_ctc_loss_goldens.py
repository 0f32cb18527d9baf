"""Generate tests/goldens/ctc_loss.json.gz: PyTorch 2.13's F.ctc_loss (LossCTC.cpp's CPU kernel) forward and
backward over a grid of input lengths T, classes C, batch N, target lengths S, blank, reduction ('none', 'mean',
'sum'), zero_infinity and dtype (float32, float64), with padded (N, S) and concatenated 1-D targets, lengths as
tuples and as tensors, unbatched (T, C) inputs, and the hard cases: input lengths 0 and shorter than the target
needs (an infinite loss), empty targets, repeated labels, targets equal to the blank; each with the loss, the
gradient of log_probs for a random grad_output and the loss's grad_fn.  Then torch's error texts for bad lengths,
shapes, dtypes and arguments.  Arrays are stored as base64 of their bytes (little-endian, in the case's dtype).
Dev-only: the test suite never imports torch.

    python scripts/make_ctc_loss_goldens.py
"""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "ctc_loss.json.gz"
DTYPES = {"float32": torch.float32, "float64": torch.float64}


def _b64(a) -> str:
    return base64.b64encode(np.ascontiguousarray(a).tobytes()).decode()


def _case(rng, steps, classes, batch, longest, blank, reduction, zero_infinity, dtype, layout, lengths_as,
          unbatched=False, input_lengths=None, target_lengths=None, targets=None):
    np_dtype = np.float32 if dtype == "float32" else np.float64
    shape = (steps, classes) if unbatched else (steps, batch, classes)
    logits = rng.standard_normal(shape) * 2
    log_probs = torch.tensor(logits, dtype=DTYPES[dtype]).log_softmax(-1).detach()
    if input_lengths is None:
        input_lengths = [int(v) for v in rng.integers(max(1, steps // 2), steps + 1, batch)]
    if target_lengths is None:
        target_lengths = [int(v) for v in rng.integers(0, longest + 1, batch)]
    labels = [c for c in range(classes) if c != blank]
    if targets is None:
        if layout == "padded":
            targets = rng.choice(labels, size=(batch, longest)).tolist()
        else:
            targets = rng.choice(labels, size=sum(target_lengths)).tolist()
    leaf = log_probs.clone().requires_grad_()
    if lengths_as == "tensor":
        il, tl = torch.tensor(input_lengths), torch.tensor(target_lengths)
        if unbatched:
            il, tl = il.reshape(()), tl.reshape(())
    else:
        il, tl = tuple(input_lengths), tuple(target_lengths)
    loss = F.ctc_loss(leaf, torch.tensor(targets, dtype=torch.long), il, tl, blank=blank, reduction=reduction,
                      zero_infinity=zero_infinity)
    grad_output = (rng.standard_normal(loss.shape) + 1.5).astype(np_dtype)
    loss.backward(torch.tensor(grad_output))
    return {"T": steps, "C": classes, "N": batch, "blank": blank, "reduction": reduction,
            "zero_infinity": zero_infinity, "dtype": dtype, "layout": layout, "lengths_as": lengths_as,
            "unbatched": unbatched, "log_probs": _b64(log_probs.numpy()), "targets": targets,
            "input_lengths": input_lengths, "target_lengths": target_lengths, "grad_output": _b64(grad_output),
            "loss_shape": list(loss.shape), "loss": _b64(loss.detach().numpy()), "grad_fn": type(loss.grad_fn).__name__,
            "grad": _b64(leaf.grad.numpy())}


ERRORS = [  # (log_probs shape, targets, input_lengths, target_lengths, keyword arguments)
    ((5, 2, 4), [[1, 2], [3, 3]], (5, 4), (2, 2), {"blank": 4}),
    ((5, 2, 4), [[1, 2], [3, 3]], (5, 4), (2, 2), {"blank": -1}),
    ((5, 2, 4), [[1, 2], [3, 3]], (5, 4, 3), (2, 2), {}),
    ((5, 2, 4), [[1, 2], [3, 3]], (5, 4), (2,), {}),
    ((5, 2, 4), [[1, 2], [3, 3]], (6, 4), (2, 2), {}),
    ((5, 2, 4), [[1, 2], [3, 3]], (-1, 4), (2, 2), {}),
    ((5, 2, 4), [[1, 2], [3, 3]], (5, 4), (-1, 2), {}),
    ((5, 2, 4), [[1, 2], [3, 3]], (5, 4), (3, 2), {}),
    ((5, 2, 4), [[1, 2]], (5, 4), (2, 2), {}),
    ((5, 2, 4), [1, 2, 3], (5, 4), (2, 2), {}),
    ((5, 2, 4), [1, 2, 3], (5, 4), (-1, 2), {}),
    ((5, 2, 4), [[[1, 2], [3, 3]]], (5, 4), (2, 2), {}),
    ((1, 5, 2, 4), [[1, 2], [3, 3]], (5, 4), (2, 2), {}),
    ((4,), [[1, 2], [3, 3]], (5, 4), (2, 2), {}),
    ((5, 2, 4), [[1, 2], [3, 3]], "tensor:float", "tensor", {}),
    ((5, 2, 4), [[1, 2], [3, 3]], "tensor", "tensor:float", {}),
    ((5, 2, 4), [[1, 2], [3, 3]], (5, 4), (2, 2), {"reduction": "avg"}),
    ((5, 2, 4), [[1, 2], [3, 3]], (5, 4), (2, 2), {"dtype": "int64"}),
]


def _errors():
    out = []
    for shape, targets, input_lengths, target_lengths, kwargs in ERRORS:
        kwargs = dict(kwargs)
        dtype = kwargs.pop("dtype", "float32")
        log_probs = torch.zeros(shape).to(getattr(torch, dtype))
        args = []
        for value, default in ((input_lengths, [5, 4]), (target_lengths, [2, 2])):
            if isinstance(value, str):
                args.append(torch.tensor(default, dtype=torch.float32 if value.endswith("float") else torch.long))
            else:
                args.append(value)
        try:
            F.ctc_loss(log_probs, torch.tensor(targets), *args, **kwargs)
        except (RuntimeError, ValueError, NotImplementedError) as exc:
            out.append({"shape": list(shape), "dtype": dtype, "targets": targets,
                        "input_lengths": input_lengths if isinstance(input_lengths, str) else list(input_lengths),
                        "target_lengths": target_lengths if isinstance(target_lengths, str) else list(target_lengths),
                        "kwargs": kwargs, "type": type(exc).__name__, "message": str(exc)})
            continue
        raise AssertionError(f"no error for {shape, targets, input_lengths, target_lengths, kwargs}")
    return out


def main() -> None:
    rng = np.random.default_rng(2132)
    cases = []
    grid = [(6, 4, 3, 2), (12, 5, 4, 4), (20, 8, 2, 6), (50, 20, 4, 12), (9, 3, 5, 4), (1, 4, 2, 1), (30, 6, 3, 14)]
    k = 0
    for steps, classes, batch, longest in grid:
        for dtype in ("float32", "float64"):
            for reduction in ("none", "mean", "sum"):
                blank = (0, classes - 1, classes // 2)[k % 3]
                layout = ("padded", "concatenated")[k % 2]
                lengths_as = ("tuple", "tensor")[(k // 2) % 2]
                zero_infinity = bool((k // 3) % 2)
                cases.append(_case(rng, steps, classes, batch, longest, blank, reduction, zero_infinity, dtype,
                                   layout, lengths_as))
                k += 1
    for dtype in ("float32", "float64"):  # the hard cases
        for zero_infinity in (False, True):
            for reduction in ("none", "mean", "sum"):
                # an infinite loss (target of 4 in 3 steps), an input length 0, an empty target, repeats, blank
                cases.append(_case(rng, 6, 5, 5, 4, 0, reduction, zero_infinity, dtype, "padded", "tuple",
                                   input_lengths=[3, 0, 6, 6, 0], target_lengths=[4, 2, 0, 4, 0],
                                   targets=[[1, 2, 3, 4], [1, 1, 0, 0], [2, 2, 2, 2], [3, 3, 1, 1], [0, 0, 0, 0]]))
                cases.append(_case(rng, 7, 4, 3, 3, 2, reduction, zero_infinity, dtype, "concatenated", "tensor",
                                   input_lengths=[7, 5, 2], target_lengths=[3, 3, 2],
                                   targets=[1, 1, 1, 2, 0, 2, 3, 3]))  # targets that are the blank
                cases.append(_case(rng, 10, 6, 1, 4, 0, reduction, zero_infinity, dtype, "concatenated",
                                   ("tensor", "tuple")[reduction == "sum"], unbatched=True, input_lengths=[10],
                                   target_lengths=[4]))
    goldens = {"torch": torch.__version__, "cases": cases, "errors": _errors()}
    OUT.write_bytes(gzip.compress((json.dumps(goldens, separators=(",", ":")) + "\n").encode(), mtime=0))
    print(f"{len(cases)} cases, {len(goldens['errors'])} errors -> {OUT}")


if __name__ == "__main__":
    main()
