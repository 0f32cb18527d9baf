"""kernels.fused: a * b + c rounded once, for arrays (the compiled loop of native_math.c, and the numpy emulation
without it) and for single numbers (the C library's fma), in float32 and float64, against the exact value computed
with fractions and rounded to nearest-even by hand."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gradcli.engine.kernels import fused, native


def _round_exact(value: Fraction, dtype) -> float:
    """The float of `dtype` nearest to `value`, ties to the even one (checked against both neighbours)."""
    guess = dtype(float(value))  # float() is correctly rounded to double; then to float32 it may be an ulp off
    if not np.isfinite(guess):
        return guess
    best = guess
    for candidate in (np.nextafter(guess, dtype(-np.inf)), np.nextafter(guess, dtype(np.inf))):
        if not np.isfinite(candidate):
            continue
        d_best, d_cand = abs(Fraction(float(best)) - value), abs(Fraction(float(candidate)) - value)
        if d_cand < d_best or (d_cand == d_best and int(candidate.view(_INT[dtype])) % 2 == 0):
            best = candidate
    return best


_INT = {np.float32: np.int32, np.float64: np.int64}


def _expected(a, b, c, dtype):
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    if exact == 0:  # IEEE 754: -0 only when the product and c are zeros of that sign, else +0
        product_negative = bool(np.signbit(a)) != bool(np.signbit(b))
        both_negative_zeros = (a == 0 or b == 0) and c == 0 and product_negative and bool(np.signbit(c))
        return dtype(-0.0) if both_negative_zeros else dtype(0.0)
    return _round_exact(exact, dtype)


def _floats(dtype):
    width = 32 if dtype == np.float32 else 64
    return st.floats(width=width, allow_nan=False, allow_infinity=False).filter(lambda v: abs(v) < 1e30)


def _same(x, y) -> bool:
    return np.asarray(x).tobytes() == np.asarray(y).tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_one_number_is_rounded_once(dtype, data):
    a, b, c = (dtype(data.draw(_floats(dtype))) for _ in range(3))
    want = _expected(a, b, c, dtype)
    got = fused.fma(a, b, c)
    assert np.asarray(got).dtype == dtype
    assert _same(dtype(got), want), (a, b, c, got, want)


@pytest.fixture(params=["compiled", "numpy"])
def array_path(request, monkeypatch):
    if request.param == "compiled" and native.library_path("_native_math") is None:
        pytest.skip("the compiled math kernels are not built (pip install -e . builds them with a C compiler)")
    monkeypatch.setattr(native, "ENABLED", request.param == "compiled")
    return request.param


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_arrays_and_numbers_agree_on_hard_cases(dtype, array_path):
    """Ties of the plain sum (a float32 product plus c landing on a midpoint), cancellations to zero and to tiny
    values: the array path (numpy emulation) and the number path (C library) give the exactly rounded value."""
    rng = np.random.default_rng(7)
    eps = np.finfo(dtype).eps
    a = rng.standard_normal(400).astype(dtype)
    b = rng.standard_normal(400).astype(dtype)
    c = np.concatenate([-(a[:100] * b[:100]).astype(dtype),                    # near-total cancellation
                        (rng.standard_normal(100) * eps).astype(dtype),        # tiny addends
                        (np.ones(100) * dtype(1 + eps / 2)).astype(dtype),
                        rng.standard_normal(100).astype(dtype)])
    a[300:310], b[300:310] = dtype(1 + eps), dtype(1 - eps)  # products just off 1: midpoint ties in float32
    array_result = fused.fma(a, b, c)
    for i in range(a.size):
        want = _expected(a[i], b[i], c[i], dtype)
        assert _same(array_result[i], want), (i, a[i], b[i], c[i], array_result[i], want)
        assert _same(dtype(fused.fma(a[i], b[i], c[i])), want), (i, a[i], b[i], c[i])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_broadcast_operands(dtype, array_path):
    """A number, a row and a column broadcast as numpy broadcasts them, each element rounded once."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 1)).astype(dtype)
    b = rng.standard_normal(5).astype(dtype)
    c = dtype(0.1)
    out = fused.fma(a, b, c)
    assert out.shape == (4, 5) and out.dtype == dtype
    for i in range(4):
        for j in range(5):
            assert _same(out[i, j], _expected(a[i, 0], b[j], c, dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_number_times_an_array_plus_an_array(dtype, array_path):
    """lerp's and the optimisers' shape (the compiled loop's number-first case), long enough to be vectorised."""
    rng = np.random.default_rng(5)
    b, c = rng.standard_normal(1000).astype(dtype), rng.standard_normal(1000).astype(dtype)
    a = dtype(0.1)
    out = fused.fma(a, b, c)
    assert out.shape == (1000,) and out.dtype == dtype
    for i in range(0, 1000, 7):
        assert _same(out[i], _expected(a, b[i], c[i], dtype))
