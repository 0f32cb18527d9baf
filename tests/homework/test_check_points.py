"""`check --at`: points read without numpy, with the values numpy's float64 arithmetic gives."""

import math

import numpy as np
import pytest

from gradcli.homework.points import parse_point
from gradcli.safety.errors import InputError


@pytest.mark.parametrize("text, expected", [
    ("1.5", 1.5), ("-2", -2.0), ("pi/4", np.pi / 4), ("-pi", -np.pi), ("1/3", np.float64(1) / 3),
    ("10**3", 1000.0), ("2**-2", 0.25), ("e", np.e), ("1e-3", 1e-3)])
def test_values_are_float64_arithmetic(text, expected):
    assert parse_point([f"x={text}"]) == {"x": float(expected)}


def test_ieee_results_for_division_by_zero_and_overflow():
    with np.errstate(all="ignore"):
        for text, a, b, op in [("1/0", 1.0, 0.0, np.divide), ("-1/0", -1.0, 0.0, np.divide),
                               ("1/-0.0", 1.0, -0.0, np.divide), ("10.0**400", 10.0, 400.0, np.power),
                               ("(-10.0)**401", -10.0, 401.0, np.power), ("0.0**-1", 0.0, -1.0, np.power),
                               ("(-0.0)**-1", -0.0, -1.0, np.power), ("(-0.0)**-2", -0.0, -2.0, np.power),
                               ("0**-0.5", 0.0, -0.5, np.power)]:
            got = parse_point([f"x={text}"])["x"]
            assert got == float(op(np.float64(a), np.float64(b)))
    assert math.isnan(parse_point(["x=0/0"])["x"]) and math.isnan(parse_point(["x=(-8)**(1/3)"])["x"])
    assert math.isnan(parse_point(["x=(-10.0)**400.5"])["x"])  # numpy: nan


def test_several_variables_in_one_or_many_options():
    assert parse_point(["x=1,y=2", "z=3"]) == {"x": 1.0, "y": 2.0, "z": 3.0}


@pytest.mark.parametrize("spec, message", [
    ("x=[1]", "one number per variable"), ("x=1,x=2", "gives 'x' twice"), ("x", "VAR=VALUE"),
    ("x=foo(1)", "needs a number"), ("x=2**100000", "beyond the limit")])
def test_bad_points_are_one_clear_error(spec, message):
    with pytest.raises(InputError, match=message):
        parse_point([spec])
