"""PyTorch's CPU random numbers, bit for bit (issue 18 §1), against tests/goldens/rng.json recorded with
PyTorch 2.13 by scripts/make_rng_goldens.py: every function, four seeds, sizes on both sides of the vectorised
normal path up to 10**6, float32 and float64, and sequences of mixed draws after one seed."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from goldens import load
from typer.testing import CliRunner

from gradcli import engine
from gradcli.cli.commands import app
from gradcli.engine import creation, dtypes, modules

GOLDEN = load("rng.json")
DTYPES = {"float32": dtypes.float32, "float64": dtypes.float64}

DRAWS = {
    "rand": lambda n, dt: engine.rand(n, dtype=dt),
    "randn": lambda n, dt: engine.randn(n, dtype=dt),
    "normal_": lambda n, dt: engine.empty(n, dtype=dt).normal_(2.5, 0.3),
    "uniform_": lambda n, dt: engine.empty(n, dtype=dt).uniform_(-0.37, 0.37),
    "bernoulli_": lambda n, dt: engine.empty(n, dtype=dt).bernoulli_(0.3),
    "bernoulli": lambda n, dt: creation.bernoulli(engine.linspace(0, 1, n, dtype=dt)),
    "randint": lambda n, dt: creation.randint(-3, 10, (n,)),
    "randint_wide": lambda n, dt: creation.randint(0, 2 ** 30, (n,)),
    "randperm": lambda n, dt: creation.randperm(n),
    "exponential_": lambda n, dt: engine.empty(n, dtype=dt).exponential_(1.5),
    "multinomial": lambda n, dt: creation.multinomial(engine.linspace(0.1, 1, n, dtype=dt), min(n, 5)),
    "multinomial_one": lambda n, dt: creation.multinomial(engine.linspace(0.1, 1, n, dtype=dt).reshape(1, n), 1),
    "multinomial_replacement": lambda n, dt: creation.multinomial(engine.linspace(0.1, 1, 7, dtype=dt), n, True),
    "linear_init": lambda n, dt: engine.tensor(np.concatenate([p.array.reshape(-1) for p in
                                                               modules.Linear(n, 2, dtype=dt).parameters()])),
}


def check(record, tensor, what):
    a = tensor.array
    if "values" in record:
        expected = np.array(record["values"], dtype=a.dtype)
        np.testing.assert_array_equal(a, expected, err_msg=what)
    else:
        digest = hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()
        assert digest == record["sha256"], f"{what}: starts {a[:4].tolist()}, PyTorch {record['head']}"


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: f"{c['draw']}-{c['dtype']}-{c['seed']}-{c['n']}")
def test_draw_matches_pytorch(case):
    engine.manual_seed(case["seed"])
    check(case, DRAWS[case["draw"]](case["n"], DTYPES[case["dtype"]]), case["draw"])


@pytest.mark.parametrize("sequence", GOLDEN["sequences"], ids=lambda s: f"{s['dtype']}-{s['seed']}")
def test_sequence_of_draws_matches_pytorch(sequence):
    # the second value of a Box-Muller pair waits in the generator for the next small normal draw
    engine.manual_seed(sequence["seed"])
    for i, draw in enumerate(sequence["draws"]):
        check(draw, DRAWS[draw["draw"]](draw["n"], DTYPES[sequence["dtype"]]), f"draw {i} {draw['draw']}")


def test_eval_seed_gives_pytorchs_numbers():
    # the example: torch.manual_seed(0); torch.randn(2, 3)
    out = CliRunner().invoke(app, ["eval", "w.sum()", "w=randn(2,3)", "--seed", "0", "--json", "--no-check",
                                   "--dtype", "float32"])
    values = np.array(__import__("json").loads(out.stdout)["tensors"]["w"]["value"], dtype=np.float32)
    expected = np.array([[1.5410, -0.2934, -2.1788], [0.5684, -1.0845, -1.3986]], dtype=np.float32)
    np.testing.assert_allclose(values, expected, atol=5e-5)


def test_a_program_without_manual_seed_gets_a_fresh_seed():
    from gradcli.run import run_source

    outputs = []
    for _ in range(2):
        buffer = __import__("io").StringIO()
        run_source("import torch\nprint(torch.initial_seed())\n", "<test>", stdout=buffer, stderr=buffer)
        outputs.append(int(buffer.getvalue()))
    assert outputs[0] != outputs[1] and all(0 <= s < 2 ** 64 for s in outputs)
