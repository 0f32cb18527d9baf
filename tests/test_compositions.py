"""Random compositions of ops against PyTorch (issue 15 §2): tests/goldens/compositions.json.gz holds ~12,000
expressions recorded with PyTorch 2.13 in float64 and float32 (output, every leaf's .grad or None, or the
error), Hessians for a subset, rows tables and `run` programs (scripts/make_composition_goldens.py,
generator in tests/compositions.py).  Replayed here without PyTorch through the calculator (the path of
`gradcli eval`), the command itself for a sample, rows mode batched and looped, and `gradcli run`.

    python tests/test_compositions.py            # counts of agreeing cases per category
    python -m pytest tests/test_compositions.py --live   # also fuzz fresh seeds against installed PyTorch
"""

from __future__ import annotations

import gzip
import json
import math
import subprocess
import sys
from collections import Counter
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from gradcli.calc.calculator import attach_derivatives
from gradcli.engine import dtypes
from gradcli.engine.errors import EngineError
from gradcli.lang.evaluation import evaluate_expression
from gradcli.safety.errors import GradcliError

GOLDENS = Path(__file__).parent / "goldens" / "compositions.json.gz"
CHUNK = 400
TOLERANCE = {"float64": (1e-9, 1e-12), "float32": (2e-3, 2e-5)}  # rtol, atol (atol scaled by the magnitude)

def _has_nan(case: dict) -> bool:
    return any(math.isnan(float(v)) for leaf in case["leaves"].values() for v in leaf["values"])


# Where gradcli knowingly differs: (applies to Hessians only?, predicate, why).
DEVIATIONS = [
    (False, lambda c: "torch.det" in c["expr"], "det at a singular matrix: the cofactor matrix (docs/deviations.md)"),
    (True, lambda c: "ord=1" in c["expr"] and _has_nan(c),
     "second derivatives through an ord=1 norm at a nan input: PyTorch's first-order rule hands a ZeroTensor that "
     "absorbs the nan (0, where gradcli's is nan)"),
]


@lru_cache(maxsize=1)
def goldens() -> dict:
    with gzip.open(GOLDENS, "rt") as fh:
        return json.load(fh)


def array(values, shape=None) -> np.ndarray:
    """Golden numbers (nan/inf travel as strings) as a float64 array."""
    a = np.array([float(v) for v in values], dtype=np.float64)
    return a if shape is None else a.reshape(shape)


def close(got, expected, dtype: str, magnitude: float = 1.0) -> bool:
    """Equal within the dtype's tolerance; the absolute part scales with the largest finite number in play
    (`magnitude`: the inputs'), since a result that cancels to ~0 carries the rounding of its terms."""
    got = np.asarray(got, dtype=np.float64).reshape(-1)
    expected = np.asarray(expected, dtype=np.float64).reshape(-1)
    if got.shape != expected.shape:
        return False
    rtol, atol = TOLERANCE[dtype]
    finite = expected[np.isfinite(expected)]
    scale = max(1.0, magnitude, float(np.max(np.abs(finite))) if finite.size else 1.0)
    return bool(np.allclose(got, expected, rtol=rtol, atol=atol * scale, equal_nan=True))


def magnitude(case: dict) -> float:
    values = [abs(float(v)) for leaf in case["leaves"].values() for v in leaf["values"]]
    finite = [v for v in values if math.isfinite(v)]
    return max(finite, default=1.0)


def compare(case: dict, dtype: str, *, hessian: bool = False) -> str | None:
    """None when gradcli gives PyTorch's answer for `case` in `dtype`, else what differs."""
    golden = case[dtype]
    inputs = {name: array(leaf["values"], leaf["shape"]) for name, leaf in case["leaves"].items()}
    gout = None if case["grad_output"] is None else array(case["grad_output"], case["grad_output_shape"])
    try:
        result = evaluate_expression(case["expr"], inputs, grad_output=gout, dtype=dtypes.by_name(dtype))
        if hessian:
            attach_derivatives(result, hessian=True)
    except (GradcliError, EngineError) as err:
        if "error" in golden:
            return None  # both refuse (the message is compared for the engine's own errors below)
        return f"gradcli refused: {getattr(err, 'message', err)}"
    if "error" in golden:
        if result.error is not None:
            return None if golden["error"][1] == result.error else \
                f"backward error differs: {result.error!r} vs PyTorch {golden['error'][1]!r}"
        return f"PyTorch raised {golden['error'][0]}: {golden['error'][1]}"
    if list(np.shape(result.output)) != golden["shape"]:
        return f"output shape {list(np.shape(result.output))} vs {golden['shape']}"
    scale = magnitude(case)
    if not close(result.output, array(golden["output"]), dtype, scale):
        return f"output {np.ravel(result.output)[:4]} vs {golden['output'][:4]}"
    if result.error is not None and "grads" in golden:
        return f"backward failed: {result.error}"
    for name, expected in golden.get("grads", {}).items():
        got = result.tensors[name].grad
        if expected is None:
            if got is not None and np.any(got != 0):
                return f"{name}.grad is {np.ravel(got)[:4]}, PyTorch leaves it None"
            continue
        if got is None:
            return f"{name}.grad is None, PyTorch {expected[:4]}"
        if not close(got, array(expected), dtype, scale):
            return f"{name}.grad {np.ravel(got)[:4]} vs {expected[:4]}"
    if hessian:
        blocks = result.extras.get("hessian") or {}
        for key, rows in golden["hessian"].items():
            expected = array([v for row in rows for v in row])
            got = blocks.get(key, np.zeros_like(expected))  # a tensor the expression does not use: 0
            if not close(got, expected, dtype, magnitude(case)):
                return f"Hessian {key} differs"
    return None


def deviation(case: dict, hessian: bool = False) -> str | None:
    return next((why for only_hessian, applies, why in DEVIATIONS if (hessian or not only_hessian) and applies(case)),
                None)


def chunks() -> list[int]:
    if not GOLDENS.exists():
        return []
    return list(range(0, len(goldens()["cases"]), CHUNK))


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("start", chunks())
def test_calculator_matches_pytorch(start, dtype):
    failures = []
    for i, case in enumerate(goldens()["cases"][start:start + CHUNK], start):
        why = compare(case, dtype)
        if why and not deviation(case):
            failures.append(f"#{i} {case['expr']}  {why}")
    assert not failures, f"{len(failures)} of {CHUNK} differ:\n" + "\n".join(failures[:15])


def test_hessians_match_pytorch():
    cases = [c for c in goldens()["cases"] if "hessian" in c["float64"]]
    assert len(cases) >= 300
    failures = [f"{c['expr']}  {why}" for c in cases if (why := compare(c, "float64", hessian=True))
                and not deviation(c, hessian=True)]
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:15])


def test_eval_command_sample():
    """The same numbers through `gradcli eval ... --json` (in-process), for a sample of cases."""
    from typer.testing import CliRunner

    from gradcli.cli.commands import app

    runner = CliRunner()
    checked = 0
    for case in goldens()["cases"][::60]:
        golden = case["float64"]
        if "error" in golden or any(0 in leaf["shape"] for leaf in case["leaves"].values()):
            continue
        # " -x": the leading space main() adds to an expression that starts with a minus (cli.py)
        args = ["eval", " " + case["expr"], "--json", "--no-check", "--no-strict"]
        for name, leaf in case["leaves"].items():
            args.append(f"{name}={json.dumps(array(leaf['values'], leaf['shape']).tolist())}".replace("NaN", "nan")
                        .replace("Infinity", "inf"))
        if case["grad_output"] is not None:
            args += ["--grad-output", json.dumps(array(case["grad_output"], case["grad_output_shape"]).tolist())]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (case["expr"], result.output)
        data = json.loads(result.stdout)
        out = data["output"]["value"]
        assert close(array(np.ravel(out)) if isinstance(out, list) else array([out]), array(golden["output"]),
                     "float64"), case["expr"]
        for name, expected in golden["grads"].items():
            got = data["tensors"][name]["grad"]
            if expected is not None:
                assert close(array(np.ravel(np.array(got, dtype=object))), array(expected), "float64"), \
                    (case["expr"], name)
        checked += 1
    assert checked >= 100


def test_rows_batched_and_looped():
    """Rows mode: each table batched (one pass over all rows) and row by row, as PyTorch row by row."""
    from gradcli.calc.rows import RowEvaluator

    failures = []
    for table in goldens()["rows"]:
        ev = RowEvaluator(table["expr"], {}, {})
        program_info = ev.program(table["names"])
        good = [r for r in table["rows"] if "error" not in r]
        columns = {n: array([r["values"][n] for r in good]) for n in table["names"]}
        batched = ev.batch(program_info[0], columns, len(good)) if program_info[2] else None
        for k, row in enumerate(good):
            out, grads = ev.one(program_info[0], {n: float(row["values"][n]) for n in table["names"]})
            if not close(out, array(row["output"]), "float64"):
                failures.append(f"{table['expr']} row {k}: {out} vs {row['output']}")
            for n in table["names"]:
                want = row["grads"][n]
                if want is not None and not close(0.0 if grads[n] is None else grads[n], array(want), "float64"):
                    failures.append(f"{table['expr']} row {k}: d/d{n} {grads[n]} vs {want}")
                if batched is not None and want is not None and not close(batched[1][n][k], array(want), "float64"):
                    failures.append(f"{table['expr']} row {k} (batched): d/d{n} {batched[1][n][k]} vs {want}")
    assert not failures, f"{len(failures)} differ:\n" + "\n".join(failures[:15])


def test_run_programs_print_what_pytorch_prints(tmp_path):
    failures = []
    for i, case in enumerate(goldens()["runs"]):
        result = subprocess.run([sys.executable, "-m", "gradcli", "run", "-"], input=case["program"],
                                capture_output=True, text=True, timeout=60)
        if case["error"] is None:
            if result.returncode != 0 or result.stdout != case["stdout"]:
                failures.append(f"#{i}\n{case['program']}--- PyTorch\n{case['stdout']}--- gradcli\n"
                                f"{result.stdout}{result.stderr}")
        elif result.returncode != 1 or case["error"] not in result.stderr:
            failures.append(f"#{i}\n{case['program']}--- PyTorch\n{case['error']}\n--- gradcli\n{result.stderr}")
    assert not failures, f"{len(failures)} of {len(goldens()['runs'])} differ:\n" + "\n".join(failures[:5])


REGRESSIONS = json.loads((Path(__file__).parent / "goldens" / "fuzz_regressions.json").read_text())["cases"]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("case", REGRESSIONS, ids=[c["found"].split(":")[0] for c in REGRESSIONS])
def test_fuzz_regression(case, dtype):
    """What the live fuzz once found wrong (scripts/make_fuzz_regressions.py), against PyTorch's record."""
    why = compare(case, dtype)
    assert why is None, f"{case['found']} — again: {why}"


def test_live_fuzz_against_pytorch(request):
    """`--live`: fresh seeds recorded with the installed PyTorch and compared at once."""
    if not request.config.getoption("--live"):
        pytest.skip("pass --live (needs PyTorch) to fuzz fresh seeds")
    torch = pytest.importorskip("torch")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import make_composition_goldens as maker
    from compositions import cases

    seed = request.config.getoption("--live-seed")
    failures = []
    for i, case in enumerate(cases(seed, 2000)):
        entry = maker.record(case, i, hessian=False)
        for dtype in ("float64", "float32"):
            why = compare(entry, dtype)
            if why and not deviation(entry):
                failures.append(f"seed {seed} #{i} {dtype} {case['expr']}  {why}")
    del torch
    assert not failures, f"{len(failures)} differ:\n" + "\n".join(failures[:20])


def summary() -> Counter:
    """Agreeing / differing cases per (dtype, outermost op)."""
    counts = Counter()
    for case in goldens()["cases"]:
        family = case["expr"].split("(")[0].strip() or "(...)"
        for dtype in ("float64", "float32"):
            ok = compare(case, dtype) is None or deviation(case) is not None
            counts[(dtype, "agree" if ok else "differ")] += 1
            if not ok:
                counts[(dtype, "differ", family)] += 1
    return counts


if __name__ == "__main__":
    for key, n in sorted(summary().items(), key=lambda kv: (-kv[1], kv[0])):
        print(n, *key)

