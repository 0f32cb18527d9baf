"""gradcli's float32 kernels (gradcli/engine/kernels/float32.py) against PyTorch 2.13's own results
(tests/goldens/float32_kernels.json, recorded by scripts/make_float32_kernel_goldens.py):

- sin and cos: every bit, on |x| <= 10000 (MKL's double-precision path: values near multiples of pi/2,
  where torch's float32 quotient lands on the other side, within 1e-12 of a rounding boundary, zeros,
  subnormals, nan); beyond, where MKL computes in float32, within an ulp.
- pow: every bit where torch's vectorised loop computes (SLEEF's powf, reproduced), for a number exponent
  or base, on IEEE special cases and on the nn tutorial's (x, x^2, x^3); within an ulp, and nearly always
  exact, where torch calls glibc's powf one element at a time (gradcli rounds the exact value there).
- the matrix and vector products whose MKL summation order gradcli reproduces: every bit, through the ops
  and through linear's backward.
- sqrt: every bit (MKL's refinement of the CPU's rsqrtps estimate): inputs it rounds the other way, one
  input per estimate, the same scaled by powers of 4, zeros, subnormals, the largest floats, nan and inf;
  through torch.sqrt, ** 0.5 and the optimisers' square roots.  float64 sqrt too (MKL's double kernel): every
  bit, on squares of midpoints between doubles, where it rounds the other way.
- sigmoid and silu, forward and backward, in float32 and float64: every bit (SLEEF's exp on the vector
  lanes, the C library's on the tail).
- exp (MKL's table-driven kernels) in float32 and float64: every bit, through torch.exp and its gradient.
- digamma and its derivative (polygamma(1, x)) in float32 and float64: every bit (torch's scalar kernels, in
  the dtype's own arithmetic, with the C library's log, tan and sin).
"""

from __future__ import annotations

import base64

import numpy as np
import pytest
from goldens import load

from gradcli import engine
from gradcli.engine import Tensor, dual, kernels
from gradcli.engine.kernels import float32 as float32_kernels
from gradcli.engine.kernels import mkl_sqrt as sqrt_kernel
from gradcli.engine.ops.elementwise import cos, sin, sqrt
from gradcli.engine.ops.linalg import matmul
from gradcli.engine.ops.nn_linear import linear

GOLDEN = load("float32_kernels.json")


@pytest.fixture(autouse=True)
def torch_bits():
    """These goldens are torch's own bits: the exact kernels (--bits torch; tests/engine/test_kernel_contract.py
    holds the default, fast kernels to their stated ulps on the same goldens)."""
    with kernels.bits("torch"):
        yield


def arr(text, shape=None):
    out = np.frombuffer(base64.b64decode(text), dtype="<f4").astype(np.float32)
    return out.reshape(shape) if shape is not None else out


def ulps(got, expected):
    """Distance in float32 steps; 0 also for two nans (of any payload)."""
    got, expected = np.asarray(got, np.float32).ravel(), np.asarray(expected, np.float32).ravel()
    assert got.shape == expected.shape

    def ordered(a):
        bits = a.view(np.int32).astype(np.int64)
        return np.where(bits < 0, -(bits & 0x7FFFFFFF), bits)

    same = (got.view(np.int32) == expected.view(np.int32)) | (np.isnan(got) & np.isnan(expected))
    return np.where(same, 0, np.abs(ordered(got) - ordered(expected)) + (np.isnan(got) != np.isnan(expected)))


def layout(a, transposed):
    """The same values stored column-major when `transposed` (what torch and gradcli see through .t())."""
    return np.ascontiguousarray(a.T).T if transposed else a


TRIG = [(fn, group) for fn in ("sin", "cos") for group in GOLDEN[fn]]


@pytest.mark.parametrize(("fn", "group"), TRIG, ids=[f"{fn}-{group}" for fn, group in TRIG])
def test_sin_and_cos_are_torchs_bits(fn, group):
    case = GOLDEN[fn][group]
    x = arr(case["x"])
    got = {"sin": sin, "cos": cos}[fn](Tensor._make(x, None)).array
    assert got.dtype == np.float32
    off = ulps(got, arr(case["torch"]))
    if case["claim"] == "exact":
        bad = np.flatnonzero(off)
        assert bad.size == 0, f"{fn}: {bad.size} of {x.size} differ, first at x={x[bad[0]]!r}"
    else:  # beyond |x| = 10000 MKL computes in float32: the correctly rounded value is within an ulp
        assert off.max() <= 1
        assert (off == 0).mean() > 0.97


def test_sin_and_cos_keep_their_symmetry_and_zeros():
    x = np.array([0.0, -0.0, 1e-45, -1e-45], np.float32)
    np.testing.assert_array_equal(np.signbit(float32_kernels.sin(x)), np.signbit(x))
    np.testing.assert_array_equal(float32_kernels.cos(x), np.ones(4, np.float32))


def strided(a):
    """The values every other element of a buffer: torch's (and gradcli's) loop computes each one at a time."""
    return np.stack([a, a], -1)[..., 0]


def pow_of(case):
    layout = case["layout"]
    if layout == "tutorial":  # x.unsqueeze(-1).pow(torch.tensor([1, 2, 3])): int64 exponents, broadcast
        x = arr(case["x"])
        return engine.ops.pow(Tensor._make(x[:, None], None), Tensor._make(np.array([1, 2, 3]), None)).array
    if layout == "number":
        return engine.ops.pow(Tensor._make(arr(case["x"]), None), case["exponent"]).array
    if layout == "number_base":
        return (case["base"] ** Tensor._make(arr(case["y"]), None)).array
    x, y = arr(case["x"]), arr(case["y"])
    if layout == "strided":
        x, y = strided(x), strided(y)
    return engine.ops.pow(Tensor._make(x, None), Tensor._make(y, None)).array


@pytest.mark.parametrize("group", sorted(GOLDEN["pow"]))
def test_pow_is_torchs_value(group):
    case = GOLDEN["pow"][group]
    got = pow_of(case)
    assert got.dtype == np.float32
    off = ulps(got, arr(case["torch"]))
    assert off.max() <= 1
    if case["claim"] == "exact":
        assert off.max() == 0, f"{int((off > 0).sum())} of {off.size} differ"
    elif case["claim"] == "exact_but_tail":  # SLEEF's vector lanes exactly; the tail is glibc's powf
        vector = off.size - off.size % 32
        assert off[:vector].max() == 0, f"{int((off[:vector] > 0).sum())} vector lanes differ"
    else:  # glibc's powf, one at a time: the correctly rounded value but for about 0.07%
        assert (off == 0).mean() >= 0.995


def test_pow_with_a_number_is_double_in_the_tail_and_float32_in_vectors():
    x = np.linspace(0.5, 40, 35, dtype=np.float32)  # 32 vector lanes, 3 in the tail
    got = engine.ops.pow(Tensor._make(x, None), 2.7).array
    tail = (x[32:].astype(np.float64) ** 2.7).astype(np.float32)  # std::pow(float, double)
    np.testing.assert_array_equal(got[32:], tail)
    np.testing.assert_array_equal(got[:32], float32_kernels._sleef_powf(x[:32], np.full(32, 2.7, np.float32)))


def product_id(case):
    shape = "x".join(map(str, case.get("a_shape", case.get("x_shape", []))))
    return f"{case['op']}-{case['label']}-{shape}"


@pytest.mark.parametrize("case", GOLDEN["products"], ids=product_id)
def test_products_sum_in_mkls_order(case):
    if case["op"] == "linear":
        rows = case["x_shape"][0]
        x, w, bias, g = arr(case["x"], (rows, 3)), arr(case["w"], (1, 3)), arr(case["bias"]), arr(case["g"], (rows, 1))
        weight = engine.tensor(w, requires_grad=True)
        b = engine.tensor(bias, requires_grad=True)
        out = linear(engine.tensor(x), weight, b)
        assert ulps(out.array, arr(case["torch"])).max() == 0
        out.backward(engine.tensor(g))
        assert ulps(weight.grad.array, arr(case["torch_weight_grad"])).max() == 0
        assert ulps(b.grad.array, arr(case["torch_bias_grad"])).max() == 0
        return
    a = layout(arr(case["a"], case["a_shape"]), case["a_t"])
    b = layout(arr(case["b"], case["b_shape"]), case["b_t"])
    assert float32_kernels.matmul(a, b) is not None, "no established order for this product"
    got = matmul(Tensor._make(a, None), Tensor._make(b, None)).array
    off = ulps(got, arr(case["torch"]))
    assert off.max() == 0, f"{int((off > 0).sum())} of {off.size} differ"


def test_products_without_an_established_order_keep_numpys():
    a = np.ones((16, 16), np.float32)
    assert float32_kernels.matmul(a, a) is None  # a matrix result: MKL vectorises, order not established
    assert float32_kernels.matmul(np.ones((2000, 5), np.float32), np.ones((5, 1), np.float32).T.T) is None
    assert float32_kernels.matmul(np.ones(4, np.float32), np.ones(4, np.float32)) is None  # dot of 4
    assert float32_kernels.matmul(np.ones((3, 2), np.float64), np.ones((2, 1), np.float64)) is None


@pytest.mark.parametrize("group", sorted(GOLDEN["sqrt"]))
def test_sqrt_is_torchs_bits(group):
    case = GOLDEN["sqrt"][group]
    x, expected = arr(case["x"]), arr(case["torch"])
    for got in (sqrt(Tensor._make(x, None)).array, (Tensor._make(x, None) ** 0.5).array):
        assert got.dtype == np.float32
        bad = np.flatnonzero(ulps(got, expected))
        assert bad.size == 0, f"{bad.size} of {x.size} differ, first at x={x[bad[0]]!r}"


def test_sqrt_differs_from_the_correctly_rounded_root_where_torchs_does():
    """The golden inputs near a rounding boundary are where MKL's sqrt is not numpy's: a kernel that returned
    np.sqrt would fail above, and this says by how much."""
    case = GOLDEN["sqrt"]["near_boundaries"]
    x, expected = arr(case["x"]), arr(case["torch"])
    assert (ulps(np.sqrt(x), expected) > 0).mean() > 0.3  # 35%
    assert ulps(sqrt_kernel.sqrt(x), expected).max() == 0


@pytest.mark.parametrize("group", sorted(GOLDEN["sqrt64"]))
def test_float64_sqrt_is_torchs_bits(group):
    case = GOLDEN["sqrt64"][group]
    x = np.frombuffer(base64.b64decode(case["x"]), dtype="<f8").astype(np.float64)
    expected = np.frombuffer(base64.b64decode(case["torch"]), dtype="<f8")
    for got in (sqrt(Tensor._make(x, None)).array, (Tensor._make(x, None) ** 0.5).array):
        assert got.dtype == np.float64
        bad = np.flatnonzero(got.view(np.int64) != expected.view(np.int64))
        assert bad.size == 0, f"{bad.size} of {x.size} differ, first at x={x[bad[0]]!r}"
    if group == "near_midpoints":  # where a correctly rounded root would fail
        assert (np.sqrt(x) != expected).mean() > 0.1


def test_sqrt_of_a_few_elements_and_of_0d_arrays():
    """Small arrays and 0-d ones take the same kernel: each element as in a long array."""
    case = GOLDEN["sqrt64"]["near_midpoints"]
    x = np.frombuffer(base64.b64decode(case["x"]), dtype="<f8").astype(np.float64)[:200]
    whole = sqrt_kernel.sqrt(x)
    assert [sqrt_kernel.sqrt(np.array(v)).item() for v in x.tolist()] == whole.tolist()
    assert np.array_equal(np.concatenate([sqrt_kernel.sqrt(x[i:i + 3]) for i in range(0, 200, 3)]), whole)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_digamma_and_its_derivative_are_torchs_bits(dtype):
    case = GOLDEN["gamma"][dtype]
    code = "<f4" if dtype == "float32" else "<f8"

    def decode(key):
        return np.frombuffer(base64.b64decode(case[key]), dtype=code).astype(dtype)

    x = engine.tensor(decode("x"), requires_grad=True)
    y = engine.ops.REGISTRY["digamma"].fn(x)
    y.sum().backward()
    for got, key in ((y.array, "digamma"), (x.grad.array, "trigamma")):
        assert got.dtype == np.dtype(dtype)
        expected = decode(key)
        bad = np.flatnonzero((got != expected) & ~(np.isnan(got) & np.isnan(expected)))
        assert bad.size == 0, f"{key}: {bad.size} of {got.size} differ, first at x={x.array[bad[0]]!r}"


@pytest.mark.parametrize("name", sorted(GOLDEN["exp_kernels"]))
def test_sigmoid_and_silu_are_torchs_bits(name):
    case = GOLDEN["exp_kernels"][name]
    code = "<f4" if case["dtype"] == "float32" else "<f8"

    def decode(key):
        return np.frombuffer(base64.b64decode(case[key]), dtype=code).astype(case["dtype"])

    x = engine.tensor(decode("x"), requires_grad=True)
    y = engine.ops.REGISTRY[case["op"]].fn(x)
    y.backward(engine.tensor(decode("g")))
    for got, key in ((y.array, "torch"), (x.grad.array, "torch_grad")):
        expected = decode(key)
        assert got.dtype == expected.dtype
        bad = np.flatnonzero(got != expected)  # finite inputs: no nan
        assert bad.size == 0, f"{key}: {bad.size} of {got.size} differ, first at x={x.array[bad[0]]!r}"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_emulated_kernels_work_in_bounded_memory(dtype):
    """The kernels make a dozen temporaries; on a large array they go a block at a time, so the memory they
    need beyond their result stays small (a whole-array pass needed 8-12 times the input)."""
    import tracemalloc

    x = np.linspace(0.5, 3.0, 2_000_000, dtype=dtype)
    tracemalloc.start()
    try:
        out = sqrt_kernel.sqrt(x)
        sqrt_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        dual.np_sigmoid(x)
        sigmoid_peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert sqrt_peak < 1.5 * x.nbytes, sqrt_peak / x.nbytes
    assert sigmoid_peak < 4 * x.nbytes, sigmoid_peak / x.nbytes
    assert out.shape == x.shape and out.dtype == x.dtype


@pytest.mark.parametrize("group", sorted(GOLDEN["exp64"]))
def test_exp_is_torchs_bits(group):
    case = GOLDEN["exp64"][group]
    code = "<f4" if case["dtype"] == "float32" else "<f8"
    x = np.frombuffer(base64.b64decode(case["x"]), dtype=code).astype(case["dtype"])
    expected = np.frombuffer(base64.b64decode(case["torch"]), dtype=code)
    t = engine.tensor(x, requires_grad=True)
    y = engine.ops.exp(t)
    y.sum().backward()
    for got in (y.array, t.grad.array):  # exp's gradient is its result
        bad = np.flatnonzero((got != expected) & ~(np.isnan(got) & np.isnan(expected)))
        assert bad.size == 0, f"{bad.size} of {x.size} differ, first at x={x[bad[0]]!r}"
    if group in ("random", "float32"):
        assert (np.exp(x.astype(np.float64)).astype(x.dtype) != expected).mean() > 0.005  # not the rounded value


def test_float64_lgamma_is_within_a_few_ulps_of_torchs_even_near_its_zeros():
    """torch computes lgamma with SLEEF; gradcli with the C library's (math.lgamma was 1e5 ulps off near 1, 2)."""
    case = GOLDEN["lgamma64"]
    x = np.frombuffer(base64.b64decode(case["x"]), dtype="<f8").astype(np.float64)
    expected = np.frombuffer(base64.b64decode(case["torch"]), dtype="<f8")
    got = engine.ops.REGISTRY["lgamma"].fn(engine.tensor(x)).array
    off = np.abs(got.view(np.int64) - expected.view(np.int64))
    assert off.max() <= 16, f"{int(off.max())} ulps at x={x[off.argmax()]!r}"
