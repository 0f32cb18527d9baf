"""Strict RFC 8259 JSON for results: NaN and infinities become the strings "nan", "inf", "-inf"."""

from __future__ import annotations

import json
import math
import sys


def jsonable(value):
    """numpy arrays/scalars and nested containers as JSON-safe Python values.  numpy is looked up, not imported:
    a command that never loaded it (`check`, an error before any value) has no arrays to convert."""
    np = sys.modules.get("numpy")
    if np is None:
        return _plain(value)
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "f" and value.ndim:  # whole arrays at once: a call per number took 0.4 µs
            if np.isfinite(value).all():
                return value.tolist()
            cells = value.astype(np.float64).astype(object)
            cells[np.isnan(value)], cells[value == np.inf], cells[value == -np.inf] = "nan", "inf", "-inf"
            return cells.tolist()
        return jsonable(value.tolist())
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        return jsonable(value.item())
    return _plain(value)


def _plain(value):
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def dumps(obj) -> str:
    return json.dumps(jsonable(obj), allow_nan=False, ensure_ascii=False)


def eval_result(result) -> dict:
    """The `gradcli eval --json` object."""
    obj = {
        "expression": result.expression,
        "output": {"value": result.output, "shape": list(getattr(result.output, "shape", ()))},
        "tensors": {
            name: {"shape": list(t.value.shape), "value": t.value, "requires_grad": t.requires_grad,
                   "grad": t.grad, "used": t.used}
            for name, t in result.tensors.items()
        },
    }
    if result.grad_output is not None:
        obj["grad_output"] = result.grad_output
    if result.error is not None:
        obj["error"] = result.error
    obj.update({k: v for k, v in result.extras.items() if not k.startswith("_")})  # "_render": hooks for tables
    obj["warnings"] = list(result.warnings)
    found = result.disagreements()
    if found:  # exit status 1: autograd disagreed with an independent check, a gradcli bug
        obj["disagreements"] = found
    return obj
