"""The Python API (gradcli.grad / compile / check): hand-derived values, the same numbers as the commands,
the doctests of docs/api.md and gradcli/api.py, and the Dask example on a local cluster."""

from __future__ import annotations

import csv
import doctest
import io
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli import api

ROOT = Path(__file__).resolve().parents[1]


def test_docs_api_md_doctests():
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 15 and result.failed == 0


def test_api_module_doctests():
    result = doctest.testmod(api)
    assert result.attempted >= 5 and result.failed == 0


def test_import_is_lazy():
    """`import gradcli` (what the CLI does first) loads neither the API nor sympy."""
    code = "import sys, gradcli; print('gradcli.api' in sys.modules, 'sympy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_grad_hand_derived():
    r = gradcli.grad("(x**2).sum()", x=[1, 2, 3])
    assert r.output.item() == 14.0 and r.grads["x"].tolist() == [2.0, 4.0, 6.0]  # d/dx_i sum x^2 = 2 x_i
    assert r.check == "agrees"
    r = gradcli.grad("(W @ x).sum()", W=[[1.0, 2.0], [3.0, 4.0]], x=[5.0, 6.0], check=False)
    assert r.grads["W"].tolist() == [[5.0, 6.0], [5.0, 6.0]]  # each row of W meets x
    assert r.grads["x"].tolist() == [4.0, 6.0]  # column sums of W
    assert r.check == "off"


def test_grad_output_consts_and_dtype():
    r = gradcli.grad("x * c", x=[1.0, 2.0], consts={"c": 3.0}, grad_output=[1.0, 10.0], dtype="float32")
    assert r.grads["x"].dtype == np.float32 and r.grads["x"].tolist() == [3.0, 30.0]
    assert r.grads["c"] is None


def test_grad_errors_carry_message_hint_span():
    with pytest.raises(gradcli.GradcliError) as info:
        gradcli.grad("x +* 2", x=1.0)
    assert info.value.message and info.value.span is not None
    with pytest.raises(gradcli.GradcliError, match="no value given for y"):
        gradcli.grad("x * y", x=1.0)
    with pytest.raises(gradcli.GradcliError, match="elements, more than the limit"):
        gradcli.grad("x.sum()", x=np.zeros(11), limits=gradcli.Limits(max_elements=10))
    with pytest.raises(gradcli.GradcliError, match="not a string"):
        gradcli.grad("x * 2", x="randn(3)")


def _rows_cli(expression: str, rows: dict[str, np.ndarray], tmp_path) -> dict[str, list[float]]:
    """`gradcli eval EXPR --rows FILE -o out.csv`, read back by column."""
    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    names = list(rows)
    with src.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(names)
        for i in range(len(rows[names[0]])):
            writer.writerow([repr(float(rows[n][i])) for n in names])
    subprocess.run([sys.executable, "-m", "gradcli", "eval", expression, "--rows", str(src), "--no-check",
                    "-o", str(out)], check=True, capture_output=True)
    table = list(csv.DictReader(io.StringIO(out.read_text())))
    return {key: [float(r[key]) if r[key] else math.nan for r in table] for key in table[0] if key != "error"}


@pytest.mark.parametrize("expression", ["sin(x)*y**2 + exp(-x*y)", "torch.where(x > 0.5, x*y, y**3)",
                                        "(x - y).abs() + x.clamp(min=0.2)"])
def test_compile_equals_rows_mode(expression, tmp_path):
    rng = np.random.default_rng(7)
    cols = {"x": rng.uniform(-1, 2, 40), "y": rng.uniform(-2, 2, 40)}
    result = gradcli.compile(expression)(**cols)
    expected = _rows_cli(expression, cols, tmp_path)
    assert result.output.tolist() == expected["output"]
    assert result.grads["x"].tolist() == expected["grad_x"] and result.grads["y"].tolist() == expected["grad_y"]


def test_compile_loops_when_not_rowwise_and_reports_bad_rows():
    f = gradcli.compile("x.sum() * y")  # x.sum() over one row is x itself: row by row, d/dx = y, d/dy = x
    r = f(x=[1.0, 2.0], y=[3.0, 4.0])
    assert r.output.tolist() == [3.0, 8.0] and r.grads["x"].tolist() == [3.0, 4.0]
    assert r.grads["y"].tolist() == [1.0, 2.0]
    with pytest.raises(gradcli.GradcliError, match="no values given for y"):
        f(x=[1.0])
    with pytest.raises(gradcli.GradcliError, match="equal length"):
        f(x=[1.0, 2.0], y=[1.0])


def test_check_verdicts():
    assert gradcli.check("x^2 sin x", expect="2x sin x + x^2 cos x").verdict == "correct"
    wrong = gradcli.check("x^3", expect="3x")
    assert wrong.verdict == "incorrect"
    point = wrong.counterexample["point"]["x"]
    assert wrong.counterexample["derivative"] == pytest.approx(3 * point ** 2)
    assert gradcli.check("x*y", expect="x", wrt="y").verdict == "correct"


def test_dask_map_partitions_on_local_cluster_equals_rows(tmp_path):
    dd = pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("distributed")
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"x": rng.uniform(-1, 2, 300), "y": rng.uniform(-2, 2, 300)})
    dataset = tmp_path / "data"
    dd.from_pandas(frame, npartitions=4).to_parquet(str(dataset))
    expression = "sin(x)*y**2 + exp(-x*y)"
    f = gradcli.compile(expression)

    def gradients(part):
        r = f(x=part["x"].to_numpy(), y=part["y"].to_numpy())
        return part.assign(output=r.output, grad_x=r.grads["x"], grad_y=r.grads["y"])

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) \
            as cluster, distributed.Client(cluster):
        df = dd.read_parquet(str(dataset))
        meta = df._meta.assign(output=0.0, grad_x=0.0, grad_y=0.0)
        got = df.map_partitions(gradients, meta=meta).compute()
    expected = _rows_cli(expression, {"x": frame["x"].to_numpy(), "y": frame["y"].to_numpy()}, tmp_path)
    assert got["output"].tolist() == expected["output"]
    assert got["grad_x"].tolist() == expected["grad_x"] and got["grad_y"].tolist() == expected["grad_y"]


def test_compiled_reductions_are_batched_and_equal_single_evaluations(monkeypatch):
    from gradcli.calc import rows as rows_module

    points = [(0.5, 1.0), (1.0, 2.0), (-2.0, 3.0), (0.0, -0.0)]
    expected = [gradcli.grad("(x.sin()*x + y).sum()", x=a, y=b, check=False) for a, b in points]

    def per_row(*args, **kwargs):
        raise AssertionError("went row by row")

    monkeypatch.setattr(rows_module.RowEvaluator, "one", per_row)
    out = gradcli.compile("(x.sin()*x + y).sum()")(x=[a for a, _ in points], y=[b for _, b in points])
    for i, single in enumerate(expected):
        assert out.output[i] == float(single.output)
        assert out.grads["x"][i] == float(single.grads["x"]) and out.grads["y"][i] == float(single.grads["y"])
