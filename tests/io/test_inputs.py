"""NAME=VALUE parsing: every value form, and clear errors for bad ones."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest

from gradcli.io.inputs import parse_assignment, parse_value
from gradcli.safety.errors import InputError
from gradcli.safety.limits import Limits

F64 = np.dtype(np.float64)


def value(text, **kw):
    return parse_value(text, dtype=F64, rng=np.random.default_rng(0), limits=Limits(**kw))


@pytest.mark.parametrize("text,expected", [
    ("2", 2.0), ("-1.5", -1.5), ("1e-3", 1e-3), ("pi", math.pi), ("-inf", -math.inf),
    ("[1,2,3]", [1.0, 2.0, 3.0]), ("[[1,2],[3,4]]", [[1.0, 2.0], [3.0, 4.0]]), ("[]", []),
    ("zeros(2,3)", np.zeros((2, 3))), ("ones(2)", [1.0, 1.0]), ("arange(4)", [0.0, 1.0, 2.0, 3.0]),
    ("arange(0,1,0.25)", [0.0, 0.25, 0.5, 0.75]), ("linspace(0,1,3)", [0.0, 0.5, 1.0]),
    ("eye(2)", np.eye(2)), ("full((2,2),7)", np.full((2, 2), 7.0)), ("zeros((2,3))", np.zeros((2, 3))),
])
def test_value_forms(text, expected):
    np.testing.assert_array_equal(value(text), np.asarray(expected, dtype=np.float64))


def test_random_values_have_shape_and_are_reproducible():
    a, b = value("randn(3,4)"), value("randn(3,4)")
    assert a.shape == (3, 4)
    np.testing.assert_array_equal(a, b)
    assert ((value("rand(100)") >= 0) & (value("rand(100)") < 1)).all()


def test_files_and_stdin(tmp_path):
    (tmp_path / "a.json").write_text("[[1, 2], [3, \"inf\"]]")
    (tmp_path / "b.txt").write_text("1 2 3\n4 5 6\n")
    np.save(tmp_path / "c.npy", np.arange(3.0))
    np.testing.assert_array_equal(value(f"@{tmp_path / 'a.json'}"), [[1, 2], [3, np.inf]])
    np.testing.assert_array_equal(value(f"@{tmp_path / 'b.txt'}"), [[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal(value(f"@{tmp_path / 'c.npy'}"), [0, 1, 2])
    got = parse_value("-", dtype=F64, rng=np.random.default_rng(0), limits=Limits(), stdin=io.StringIO("7"))
    assert got == 7.0


@pytest.mark.parametrize("text,needle", [
    ("[1,2", "cannot read the value"),
    ("[[1,2],[3]]", "same length"),
    ("__import__('os')", "unknown value generator"),
    ("x", "not a value"),
    ("zeros(-1)", "bad arguments"),
    ("@/no/such/file.npy", "no such file"),
    ("", "empty value"),
    ("@", "expected a file name after @"),
])
def test_bad_values(text, needle):
    with pytest.raises(InputError, match=needle):
        value(text)


def test_unknown_generator_suggests_the_closest():
    with pytest.raises(InputError, match="unknown value generator 'randm'") as info:
        value("randm(3)")
    assert info.value.hint == "did you mean `rand`?"


def test_size_limit_is_checked_before_allocating():
    with pytest.raises(InputError, match="limit is 1000"):
        value("zeros(100000, 100000)", max_elements=1000)


def test_assignment_names():
    a = parse_assignment("W1=[1,2]", dtype=F64, rng=np.random.default_rng(0), limits=Limits())
    assert a.name == "W1"
    for bad in ("1x=2", "_x=2", "x"):
        with pytest.raises(InputError):
            parse_assignment(bad, dtype=F64, rng=np.random.default_rng(0), limits=Limits())


@pytest.mark.parametrize("text,expected", [
    ("1/3", 1 / 3), ("10**3", 1000.0), ("2**-1", 0.5), ("-2**2", -4.0), ("1/0", math.inf), ("10.0**400", math.inf),
    ("[1/4, 2*3]", [0.25, 6.0]), ("ones(2**2)", [1.0] * 4),
])
def test_arithmetic_on_numbers_is_ieee_float64(text, expected):
    np.testing.assert_array_equal(value(text), np.asarray(expected, dtype=np.float64))


@pytest.mark.parametrize("text,expected", [
    ("[1, 2] * 2", [2.0, 4.0]), ("ones(2, 2) / 20", [[0.05, 0.05], [0.05, 0.05]]), ("-[1, 2]", [-1.0, -2.0]),
    ("2 * pi * ones(2)", [2 * math.pi] * 2), ("[[1], [2]] + [10, 20]", [[11.0, 21.0], [12.0, 22.0]]),
    ("eye(2) * 3 - 1", [[2.0, -1.0], [-1.0, 2.0]]),
])
def test_arithmetic_on_generated_values_is_elementwise_as_on_tensors(text, expected):
    """A=randn(300,300)/20 was refused: the value language computes with numbers, so with tensors too."""
    np.testing.assert_array_equal(value(text), np.asarray(expected, dtype=np.float64))


def test_random_values_scaled_are_the_generators_draws_scaled():
    rng_values = parse_value("randn(3, 2)", dtype=F64, rng=np.random.default_rng(5), limits=Limits())
    scaled = parse_value("randn(3, 2) / 20", dtype=F64, rng=np.random.default_rng(5), limits=Limits())
    np.testing.assert_array_equal(scaled, rng_values / 20)


@pytest.mark.parametrize("text,message", [
    ("randn(nan)", "bad arguments for randn(): sizes must be non-negative whole numbers, got nan"),
    ("randn(inf)", "bad arguments for randn(): sizes must be non-negative whole numbers, got inf"),
    ("zeros(-1)", "bad arguments for zeros(): sizes must be non-negative whole numbers, got -1"),
    ("zeros(2.5)", "bad arguments for zeros(): sizes must be non-negative whole numbers, got 2.5"),
    ("eye(3, inf)", "bad arguments for eye(): sizes must be non-negative whole numbers, got inf"),
    ("ones(10**12)", "ones(...) would have 1000000000000 elements; the limit is 50000000"),
    ("linspace(0, 1, 1e300)", "linspace(...) would have 1e+300 elements; the limit is 50000000"),
    ("arange(0, inf)", "bad arguments for arange(): start, end and step must be finite"),
    ("arange(0, 1, nan)", "bad arguments for arange(): start, end and step must be finite"),
    ("arange(-1e300, 1e300, 1e-300)", "bad arguments for arange(): too many steps"),
    ("linspace(0, inf, 3)", "bad arguments for linspace(): start and end must be finite"),
    ("ones(" + ",".join(["1"] * 65) + ")", "ones(...) has 65 dimensions; the most is 64"),
    ("9" * 400, "integer too large for a float"),
    ("9" * 5000, "a number in the value has too many digits"),
    ("[1, 2] * [1, 2, 3]", "the shapes (2,) and (3,) do not broadcast"),
    ("ones(10000) * ones(10000, 1)", "the value would have 100000000 elements; the limit is 50000000"),
    ("[1, \udcff]", "the value is not UTF-8 text (byte 0xff)"),  # how Python passes a non-UTF-8 argument
    ("1\x00", "the value contains a NUL byte"),
])
def test_bad_generator_arguments_and_numbers(text, message):
    with pytest.raises(InputError) as info:
        value(text)
    assert info.value.message == message


@pytest.mark.parametrize("text", ["randn(nan)", "zeros(-1)", "ones(10**12)", "arange(0,inf)", "9" * 400,
                                  "randn(" + ",".join(["1"] * 65) + ")"])
def test_bad_values_on_the_command_line_exit_2(text):
    from typer.testing import CliRunner

    from gradcli.cli.commands import app

    result = CliRunner().invoke(app, ["eval", "x.sum()", f"x={text}", "--no-check"])
    assert result.exit_code == 2
    assert result.stderr.startswith("gradcli: error: ") and "internal error" not in result.stderr
