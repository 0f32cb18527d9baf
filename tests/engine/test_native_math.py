"""The compiled SLEEF powf (gradcli/engine/kernels/native_math.c) against the numpy emulation it was ported from
(kernels/float32.py's _sleef_powf, checked against PyTorch's goldens in test_float32_kernels.py), bit for bit, on
every element rather than only on those the numpy path's filter sends to the emulation: random arguments over
the whole float32 range, integer and half-integer exponents, specials (zeros, infinities, nan, subnormals, 1,
-1, 2**24 neighbours).  Then torch.pow's float32 path with and without the library gives the same bytes.  (The
compiled fused multiply-add is checked against exact arithmetic in test_fused_multiply_add.py.)"""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.engine import kernels
from gradcli.engine.kernels import float32, libm, mkl_exp, mkl_sqrt, native, sleef

needs_library = pytest.mark.skipif(
    native.library_path("_native_math") is None,
    reason="the compiled math kernels are not built (gradcli/engine/kernels/_native_math*.so: `pip install -e .` "
           "builds them with a C compiler)")

F32 = np.float32
SPECIALS = np.array([0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 0.75, 1.5, 3.0, -3.0, np.inf, -np.inf, np.nan,
                     1e-45, -1e-45, 1e-38, 3.4e38, -3.4e38, 16777215.0, 16777216.0, 16777218.0, 2.0 ** 31,
                     -(2.0 ** 31), 1.0000001, 0.99999994, 100.0, -104.5, 88.7], dtype=F32)


def _same(a, b) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def _arguments(seed: int):
    rng = np.random.default_rng(seed)
    n = 50_000
    x = (rng.standard_normal(n) * 10.0 ** rng.integers(-6, 7, n)).astype(F32)
    y = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 3, n)).astype(F32)
    if seed % 3 == 0:
        y = np.rint(y)  # integer exponents: signs of negative bases
    if seed % 3 == 1:
        y = (np.rint(y * 2) / 2).astype(F32)
    bits = rng.integers(-2 ** 31, 2 ** 31, n, dtype=np.int64).astype(np.int32).view(F32)  # any float32 pattern
    xs, ys = np.meshgrid(SPECIALS, SPECIALS)
    return np.concatenate([x, bits, xs.ravel()]), np.concatenate([y, y[::-1], ys.ravel()])


@needs_library
@pytest.mark.parametrize("seed", range(6))
def test_compiled_powf_is_the_emulation_bit_for_bit(seed):
    x, y = _arguments(seed)
    compiled = native.sleef_powf()(x, y)
    emulated = float32._sleef_powf(x, y)
    same = (compiled.view(np.int32) == emulated.view(np.int32)) | (np.isnan(compiled) & np.isnan(emulated))
    assert same.all(), list(zip(x[~same][:5], y[~same][:5], compiled[~same][:5], emulated[~same][:5]))


@needs_library
@pytest.mark.parametrize("exponent", [4.0, 1.7, -2.5, 0.3, 5.0])
def test_torch_pow_is_the_same_with_and_without_the_library(exponent, monkeypatch):
    rng = np.random.default_rng(int(exponent * 10) % 7)
    x = np.concatenate([np.linspace(-np.pi, np.pi, 2000), rng.standard_normal(3001) * 50]).astype(F32)
    y_tensor = rng.standard_normal(x.size).astype(F32)
    with kernels.bits("torch"):
        monkeypatch.setattr(native, "ENABLED", True)
        with_library = (kernels.pow(x, exponent), kernels.pow(np.abs(x), y_tensor))
        monkeypatch.setattr(native, "ENABLED", False)
        without = (kernels.pow(x, exponent), kernels.pow(np.abs(x), y_tensor))
    for a, b in zip(with_library, without):
        assert _same(np.asarray(a), np.asarray(b))


EXP_SPECIALS = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 88.7, 88.73, 100.0, 100.5, -87.3, -103.9, -104.0,
                -104.1, 709.7, 709.79, 710.0, -745.1, -999.0, -1000.0, -1001.0, 1e-45, 1e-310, 2.0 ** 31, -(2.0 ** 31)]


@needs_library
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("seed", range(3))
def test_compiled_exp_is_the_emulation_bit_for_bit(dtype, seed, monkeypatch):
    """SLEEF's expf / exp (sigmoid's, silu's inner exp) over the whole range where exp is finite and beyond."""
    rng = np.random.default_rng(seed)
    x = np.concatenate([rng.uniform(-110 if dtype == np.float32 else -760, 110 if dtype == np.float32 else 720,
                                    60_000), rng.standard_normal(20_000) * 10.0 ** rng.integers(-8, 3, 20_000),
                        EXP_SPECIALS]).astype(dtype)
    function = sleef.expf if dtype == np.float32 else sleef.exp
    monkeypatch.setattr(native, "ENABLED", True)
    compiled = function(x)
    monkeypatch.setattr(native, "ENABLED", False)
    emulated = function(x)
    same = (compiled == emulated) & (np.signbit(compiled) == np.signbit(emulated)) \
        | (np.isnan(compiled) & np.isnan(emulated))
    assert compiled.dtype == emulated.dtype == dtype
    assert same.all(), list(zip(x[~same][:5], compiled[~same][:5], emulated[~same][:5]))


def _compare_paths(function, x, monkeypatch):
    monkeypatch.setattr(native, "ENABLED", True)
    compiled = function(x)
    monkeypatch.setattr(native, "ENABLED", False)
    emulated = function(x)
    same = (compiled == emulated) & (np.signbit(compiled) == np.signbit(emulated)) \
        | (np.isnan(compiled) & np.isnan(emulated))
    assert compiled.dtype == emulated.dtype == x.dtype and compiled.shape == x.shape
    assert same.all(), list(zip(x[~same][:5], compiled[~same][:5], emulated[~same][:5]))


@needs_library
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("seed", range(3))
def test_compiled_mkl_exp_and_sqrt_are_the_emulations_bit_for_bit(dtype, seed, monkeypatch):
    """MKL's table-driven exp (main path and the C library beyond it) and its rsqrt-refined sqrt (every
    exponent parity and seed group, the special lanes), against mkl_exp.py / mkl_sqrt.py."""
    rng = np.random.default_rng(10 + seed)
    limit = 90 if dtype == np.float32 else 720
    small = rng.standard_normal(20_000) * 10.0 ** rng.integers(-8, 3, 20_000)
    x = np.concatenate([rng.uniform(-limit, limit, 50_000), small, EXP_SPECIALS]).astype(dtype)
    _compare_paths(mkl_exp.exp, x, monkeypatch)
    bits = rng.integers(0, 2 ** 31 if dtype == np.float32 else 2 ** 63, 60_000, dtype=np.int64)
    positive = (bits.astype(np.int32) & 0x7FFFFFFF).view(np.float32) if dtype == np.float32 else bits.view(np.float64)
    _compare_paths(mkl_sqrt.sqrt, np.concatenate([positive.astype(dtype), -positive[:100].astype(dtype),
                                                  np.array(EXP_SPECIALS, dtype=dtype)]).reshape(-1, 2), monkeypatch)


def test_disabled_library_is_not_used(monkeypatch):
    monkeypatch.setattr(native, "ENABLED", False)
    assert native.sleef_powf() is None and native.fma() is None and native.sleef_exp() is None
    assert native.mkl_exp() is None and native.mkl_sqrt() is None


@needs_library
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["erf", "erfc", "lgamma", "tan", "sin", "log", "exp"])
def test_compiled_map_calls_the_same_c_function(dtype, name, monkeypatch):
    """libm.call through the compiled loop and through numpy's per-element ufunc, and call_in_double against
    Python's math module (whose erf, erfc, ... are the C library's): the same bytes."""
    import math

    rng = np.random.default_rng(len(name))
    x = np.concatenate([rng.standard_normal(20_000) * 10.0 ** rng.integers(-5, 3, 20_000),
                        EXP_SPECIALS]).astype(dtype)
    _compare_paths(lambda v: libm.call(name, v), x, monkeypatch)
    if name in ("erf", "erfc", "tan", "sin"):
        monkeypatch.setattr(native, "ENABLED", True)
        compiled = libm.call_in_double(name, x)

        def by_math(v):
            try:
                return getattr(math, name)(v)
            except (ValueError, OverflowError):
                return float("nan")

        expected = np.asarray(np.frompyfunc(by_math, 1, 1)(x.astype(np.float64)), dtype=dtype)
        same = (compiled == expected) | (np.isnan(compiled) & np.isnan(expected))
        assert compiled.dtype == dtype and same.all()


@needs_library
@pytest.mark.parametrize("seed", range(3))
def test_compiled_float32_sin_cos_are_the_emulation_bit_for_bit(seed, monkeypatch):
    """MKL's float32 sin and cos: the double-precision path (|x| <= 10000, every quotient parity, both signs,
    zeros) and the lanes beyond it and at nan, which stay numpy's."""
    rng = np.random.default_rng(20 + seed)
    wide = rng.standard_normal(20_000) * 10.0 ** rng.integers(-8, 6, 20_000)
    x = np.concatenate([rng.uniform(-10_000, 10_000, 40_000), wide,
                        EXP_SPECIALS, [10_000.0, -10_000.0, 10_000.001, 3.1415927, -1.5707964]]).astype(np.float32)
    _compare_paths(float32.sin, x, monkeypatch)
    _compare_paths(float32.cos, x, monkeypatch)


@needs_library
def test_a_zero_dim_array_keeps_its_shape():
    """np.ascontiguousarray makes a 0-d array 1-d; every compiled kernel returns the argument's shape (sigmoid
    of a 0-d tensor in `gradcli run` printed tensor([0.1262]) for torch's tensor(0.1262))."""
    from gradcli.engine import kernels as engine_kernels

    x32, x64 = np.float32(0.5) * np.ones((), np.float32), np.ones((), np.float64) * 0.5
    assert native.sleef_powf()(x32, np.float32(1.7)).shape == ()
    assert native.sleef_exp()(x64).shape == () and native.map_function()(libm._function("exp", np.float64)[0],
                                                                            x64).shape == ()
    assert mkl_exp.exp(x64).shape == () and mkl_sqrt.sqrt(x32).shape == () and float32.sin(x32).shape == ()
    with engine_kernels.bits("torch"):
        assert engine_kernels.sigmoid(x32).shape == () and engine_kernels.sigmoid(x64).shape == ()
