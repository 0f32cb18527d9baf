"""The fast mode's vectorised erf, erfc and lgamma (gradcli/engine/kernels/vector_erf.py, vector_lgamma.py)
against mpmath at 50 digits - an independent reference - on random arguments, around the zeros and the
regions' edges, and on the special values; and the branch-free forms of elu, celu, selu, hardswish, maximum and
amax on the values where a sum of two sides or a skipped tie check could go wrong (signed zeros, nan, ties)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from gradcli import engine as E
from gradcli.engine import kernels
from gradcli.engine.kernels import vector_erf, vector_lgamma
from gradcli.engine.ops.special import _lgamma_per_element

mpmath.mp.dps = 50
DTYPES = (np.float32, np.float64)


def ulps_from(got, exact, dtype):
    """|got - exact| in units of the dtype's spacing at the correctly rounded exact value."""
    out = []
    for g, e in zip(got.tolist(), exact):
        rounded = dtype(float(e))
        out.append(abs(mpmath.mpf(g) - e) / mpmath.mpf(float(np.spacing(abs(rounded)))))
    return np.array([float(u) for u in out])


def arguments(dtype, lo, hi, edges):
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(lo, hi, 1500), rng.standard_normal(500), edges])
    return x[(x >= lo) & (x <= hi)].astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_erf_is_within_2_ulps_of_the_exact_value(dtype):
    edges = [0.0, 1e-30, 1e-8, 0.5, 0.9999, 1.0, 1.0001, 2.5, 3.9, 5.9, 6.0, -1.0, -0.5, -3.0]
    x = arguments(dtype, -7, 7, edges)
    exact = [mpmath.erf(mpmath.mpf(float(v))) for v in x]
    off = ulps_from(vector_erf.erf(x), exact, dtype)
    assert off.max() <= 2.5, x[off.argmax()]


@pytest.mark.parametrize("dtype", DTYPES)
def test_erfc_is_within_6_ulps_of_the_exact_value_down_to_its_underflow(dtype):
    top = 9.0 if dtype == np.float32 else 26.0
    edges = [0.0, 0.4999, 0.5, 0.5001, 0.99, 1.0, 2.0, 5.0, top, -0.9999, -1.0, -1.0001, -3.0, -6.0]
    x = arguments(dtype, -7, top, edges)
    exact = [mpmath.erfc(mpmath.mpf(float(v))) for v in x]
    off = ulps_from(vector_erf.erfc(x), exact, dtype)
    assert off.max() <= 6.5, x[off.argmax()]


@pytest.mark.parametrize("dtype", DTYPES)
def test_erf_and_erfc_special_values(dtype):
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 40.0, -40.0], dtype)
    erf, erfc = vector_erf.erf(x), vector_erf.erfc(x)
    assert erf.dtype == erfc.dtype == dtype
    assert erf.tolist()[:4] == [0.0, 0.0, 1.0, -1.0] and math.copysign(1, erf[1]) == -1
    assert np.isnan(erf[4]) and np.isnan(erfc[4])
    assert erf[5] == 1 and erf[6] == -1
    assert erfc.tolist()[:4] == [1.0, 1.0, 0.0, 2.0] and erfc[5] == 0 and erfc[6] == 2


@pytest.mark.parametrize("dtype", DTYPES)
def test_lgamma_keeps_its_relative_accuracy_at_the_zeros_1_and_2(dtype):
    eps = float(np.finfo(dtype).eps)
    edges = [1 + k * eps for k in (-8, -1, 1, 8)] + [2 + k * eps for k in (-8, -2, 2, 8)] + \
        [0.5, 1.5, 2.5, 7.999, 8.0, 8.001, 1.4616321, 1e-6, 1e-20, 3.0, 100.0, 1e6, 1e20]
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.uniform(0.01, 10, 1500), rng.uniform(0.9, 1.1, 300), rng.uniform(1.9, 2.1, 300),
                        edges]).astype(dtype)
    exact = [mpmath.loggamma(mpmath.mpf(float(v))).real for v in x]
    got = vector_lgamma.lgamma(x, _lgamma_per_element)
    nonzero = np.array([e != 0 for e in exact])
    off = ulps_from(got[nonzero], [e for e in exact if e != 0], dtype)
    # the most: a few ulps near lgamma's minimum at 1.4616, where e*R(e) - log(x) cancels by a factor of 3
    assert off.max() <= (7 if dtype == np.float32 else 4.5), x[nonzero][off.argmax()]
    assert np.all(got[~nonzero] == 0)  # lgamma(1) = lgamma(2) = 0 exactly


def test_lgamma_gives_the_per_element_path_what_is_not_positive_and_finite():
    x = np.array([-0.5, -1.0, 0.0, -0.0, np.inf, -np.inf, np.nan, 2.5, -2.457], np.float64)
    got = vector_lgamma.lgamma(x, _lgamma_per_element)
    assert got[0] == pytest.approx(math.lgamma(-0.5), rel=1e-15)
    assert got.tolist()[1:6] == [np.inf] * 5 and np.isnan(got[6])
    assert got[7] == pytest.approx(math.lgamma(2.5), rel=1e-15)


def test_the_fast_mode_uses_the_vectorised_kernels_and_torch_mode_the_c_library(monkeypatch):
    """(Without MKL: with it, torch mode calls MKL's own vector erf - tests/engine/test_vml_goldens.py.)"""
    monkeypatch.setattr(kernels.mkl, "available", lambda: False)
    x = np.linspace(-3, 3, 41)
    with kernels.bits("torch"):
        exact = kernels.erf(x)
    assert exact.tolist() == [math.erf(v) for v in x]  # the C library's, element by element
    assert np.array_equal(kernels.erf(x), vector_erf.erf(x))


def _op(name, *args):
    t = E.Tensor(np.array(args[0]))
    return E.ops.REGISTRY[name].fn(t, *args[1:]).array


@pytest.mark.parametrize("dtype", DTYPES)
def test_elu_family_keeps_signed_zeros_nan_and_infinities(dtype):
    x = np.array([-0.0, 0.0, np.nan, np.inf, -np.inf, -1.0, 2.0], dtype)
    for name, args, negative in (("elu", (), -1.0), ("celu", (2.0,), -2.0), ("selu", (), -1.7580993408473766)):
        out = _op(name, x, *args)
        assert out.dtype == dtype
        assert math.copysign(1, out[0]) == -1 and math.copysign(1, out[1]) == 1, name  # torch: -0.0 -> -0.0
        assert np.isnan(out[2])
        assert out[3] == np.inf and out[4] == pytest.approx(negative, rel=1e-6), name
    elu = _op("elu", x)
    assert elu[5] == dtype(math.expm1(-1.0)) and elu[6] == 2.0
    zero_alpha = _op("elu", np.array([-1.0, 1.0], dtype), 0.0)
    assert zero_alpha[1] == 1.0 and zero_alpha[0] == 0 and math.copysign(1, zero_alpha[0]) == -1  # 0 * expm1(-1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_hardswish_at_its_kinks_and_nan(dtype):
    x = np.array([-4.0, -3.0, -1.5, 0.0, 1.5, 3.0, 4.0, np.nan], dtype)
    out = _op("hardswish", x)
    expected = [0.0, 0.0, -1.5 * 1.5 / 6, 0.0, 1.5 * 4.5 / 6, 3.0, 4.0]
    assert out.dtype == dtype and out[:7].tolist() == pytest.approx(expected, rel=1e-7) and np.isnan(out[7])


def test_maximum_settles_zero_ties_and_keeps_nan():
    a = np.array([-0.0, 0.0, 1.0, np.nan, 2.0] * 5)
    b = np.array([0.0, -0.0, 1.0, 1.0, np.nan] * 5)
    out = E.ops.REGISTRY["maximum"].fn(E.Tensor(a), E.Tensor(b)).array
    # torch's vectorised loop returns the second operand on a tie of zeros (the scalar tail the first)
    lanes = kernels.scalar_lanes(out.shape, out.itemsize, a, b)
    tie_zero = np.where(lanes, a, b)
    for i in range(0, 25, 5):
        assert math.copysign(1, out[i]) == math.copysign(1, tie_zero[i])
        assert out[i + 2] == 1.0 and np.isnan(out[i + 3]) and np.isnan(out[i + 4])


def test_amax_backward_shares_the_gradient_among_ties_found_in_backward():
    x = E.Tensor(np.array([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]]), requires_grad=True)
    y = E.ops.REGISTRY["amax"].fn(x, 1)
    E.ops.sum(y * E.Tensor(np.array([1.0, 10.0]))).backward()
    assert x.grad.array.tolist() == [[0.0, 0.5, 0.5], [5.0, 0.0, 5.0]]
    x = E.Tensor(np.array([1.0, np.nan, 2.0]), requires_grad=True)
    E.ops.REGISTRY["amax"].fn(x).backward()
    assert np.isnan(x.grad.array).all()  # a nan maximum matches nothing: grad / 0


def test_cummax_and_cummin_indices_take_the_latest_tie_and_every_later_nan():
    """Hand-derived from torch's kernel rule `isnan(x) || (!isnan(out) && op(x, out))` (now vectorised with
    accumulate instead of a Python loop over the dim: 12 s for 10**6 elements before)."""
    x = np.array([1.0, 3.0, 3.0, 2.0, np.nan, 5.0, np.nan, 0.0])
    values, indices = E.ops.REGISTRY["cummax"].fn(E.Tensor(x), 0)
    assert indices.array.tolist() == [0, 1, 2, 2, 4, 4, 6, 6]
    assert values.array[:4].tolist() == [1.0, 3.0, 3.0, 3.0] and np.isnan(values.array[4:]).all()
    _, indices = E.ops.REGISTRY["cummin"].fn(E.Tensor(np.array([[2, 1, 1, 3], [0, 0, -1, 5]])), 1)
    assert indices.array.tolist() == [[0, 1, 2, 2], [0, 1, 2, 2]]
    _, indices = E.ops.REGISTRY["cummax"].fn(E.Tensor(np.array([[2.0, 1.0], [2.0, 3.0], [1.0, 3.0]])), 0)
    assert indices.array.tolist() == [[0, 0], [1, 1], [1, 2]]


def _torch_running_extremum(x, d, largest):
    """torch's cummax/cummin kernel, one element at a time: (values, indices) along d."""
    x = np.moveaxis(x, d, -1)
    values, indices = np.empty_like(x), np.zeros(x.shape, np.int64)
    for lane in np.ndindex(x.shape[:-1]):
        best, at = x[lane + (0,)], 0
        for i, v in enumerate(x[lane]):
            if v != v or (best == best and (v >= best if largest else v <= best)):
                best, at = v, i
            values[lane + (i,)], indices[lane + (i,)] = best, at
    return np.moveaxis(values, -1, d), np.moveaxis(indices, -1, d)


def test_cummax_and_cummin_agree_with_torchs_kernel_rule_on_random_lanes_any_dim():
    """Ties, nan, signed zeros (the later zero's sign, as torch's `out = x`), ints, every dim of 1-3-d inputs."""
    rng = np.random.default_rng(7)
    for _ in range(60):
        shape = tuple(int(n) for n in rng.integers(1, 6, rng.integers(1, 4)))
        x = rng.integers(-2, 3, shape).astype(np.float64)
        x[rng.random(shape) < 0.1] = np.nan
        x[x == 0] = np.where(rng.random(int((x == 0).sum())) < 0.5, -0.0, 0.0)
        for source in (x, x.astype(np.float32), rng.integers(-3, 3, shape)):
            d = int(rng.integers(0, len(shape)))
            for name, largest in (("cummax", True), ("cummin", False)):
                values, indices = E.ops.REGISTRY[name].fn(E.Tensor(source), d)
                want_values, want_indices = _torch_running_extremum(source, d, largest)
                assert indices.array.tolist() == want_indices.tolist(), (name, source, d)
                np.testing.assert_array_equal(values.array, want_values)
                assert (np.signbit(values.array) == np.signbit(want_values)).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_erfinv_is_within_4_ulps_of_the_exact_value_up_to_the_last_float_below_1(dtype):
    eps = float(np.finfo(dtype).eps)
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(-1, 1, 1500), 1 - np.exp(rng.uniform(math.log(eps), 0, 500)),
                        [1e-30, 0.5, -0.99, 1 - eps, -(1 - eps / 2)]]).astype(dtype)
    exact = [mpmath.erfinv(mpmath.mpf(float(v))) for v in x]
    off = ulps_from(vector_erf.erfinv(x), exact, dtype)
    assert off.max() <= 4, x[off.argmax()]
    special = vector_erf.erfinv(np.array([0.0, -0.0, 1.0, -1.0, 1.5, np.nan], dtype))
    assert special[:4].tolist() == [0.0, 0.0, np.inf, -np.inf] and math.copysign(1, special[1]) == -1
    assert np.isnan(special[4:]).all()


def test_norm_with_bits_torch_adds_the_squares_in_torchs_vector_lanes():
    """torch's float32 2-norm of a whole tensor sums in one AVX2 register of 8 floats lane by lane, then the
    lanes left to right, then the tail.  Hand-derived: 4096**2 = 2**24 first, then ones; in that order every 1
    is a tie rounded back to 2**24, so the norm is exactly 4096; numpy's pairwise sum (1 + 1 first) keeps them,
    and so does the reversed order in torch's (torch 2.13 prints 4096.0 and 4096.0010)."""
    row = np.array([4096.0] + [1.0] * 9, np.float32)
    norm = E.ops.REGISTRY["norm"].fn
    with kernels.bits("torch"):
        assert float(norm(E.Tensor(row)).array) == 4096.0
        assert float(norm(E.Tensor(row[::-1].copy())).array) == float(np.sqrt(np.float32(2 ** 24 + 10)))
        assert norm(E.Tensor(row.reshape(2, 5)), keepdim=True).array.tolist() == [[4096.0]]


@pytest.mark.parametrize("dtype", DTYPES)
def test_special_kernels_in_blocks_give_each_element_what_it_gets_alone(dtype):
    """erf, erfc, erfinv, lgamma and digamma run a block of kernels.BLOCK elements at a time: an input of a few
    blocks and a ragged end, 2-d, gives the values of the same elements evaluated a few at a time."""
    rng = np.random.default_rng(11)
    x = rng.uniform(-3, 6, (3, kernels.BLOCK // 2 + 7)).astype(dtype)
    for name, arg in (("erf", x), ("erfc", x), ("erfinv", np.tanh(x)), ("lgamma", np.abs(x) + dtype(0.1)),
                      ("digamma", x)):
        fn = E.ops.REGISTRY[name].fn
        whole = fn(E.Tensor(arg)).array
        pieces = np.concatenate([fn(E.Tensor(arg.reshape(-1)[i:i + 997])).array
                                 for i in range(0, arg.size, 997)]).reshape(arg.shape)
        assert whole.shape == arg.shape and whole.dtype == dtype
        np.testing.assert_array_equal(whole, pieces)
