"""float32/float64 sum, mean and nansum in ATen's summation order, bit for bit, against
tests/goldens/sum_order.json.gz (scripts/make_sum_order_goldens.py): every length 1..300, the powers of
two +-1 up to 2**16, 10**5 and large lengths up to 2**21 + 17 (every level of the cascade, rows moved in
several slabs), every dim / pair of dims / all dims of 2-D and 3-D tensors up to 10**6 elements in every
memory layout, keepdim, 1-4 threads, mean's gradient, and issue 28's randn examples.  numpy's pairwise sum differs
from torch on most of these cases (checked below, so the goldens cannot pass by accident).

The golden tests run twice (the `path` fixture): through the compiled kernels (gradcli/engine/kernels/native_sum.c,
every sum of one element or more, skipped when the library is not built) and through the numpy path."""

from __future__ import annotations

import gzip
import hashlib
import json
from collections import defaultdict

import numpy as np
import pytest
from goldens import GOLDEN_DIR

from gradcli import engine
from gradcli.engine import dtypes, kernels, sum_order
from gradcli.engine.kernels import native
from gradcli.engine.ops import summaries
from gradcli.engine.tensor import Tensor

GOLDENS = json.loads(gzip.decompress((GOLDEN_DIR / "sum_order.json.gz").read_bytes()))
GROUPS = defaultdict(list)
for _case in GOLDENS["cases"]:
    GROUPS[(_case["op"], _case["dtype"], tuple(_case["shape"]))].append(_case)


NOT_BUILT = ("the compiled summation kernels are not built (gradcli/engine/kernels/_native_sum*.so: "
             "`pip install -e .` builds them where a C compiler is at hand); the numpy path is tested")


@pytest.fixture(params=["native", "numpy"])
def path(request, monkeypatch):
    """Sums through the compiled kernels (every size) or through the numpy path."""
    if request.param == "native":
        monkeypatch.setattr(native, "ENABLED", True)
        if native.sum_kernels() is None:
            pytest.skip(NOT_BUILT)
        monkeypatch.setattr(sum_order, "NATIVE_MIN", 0)
    else:
        monkeypatch.setattr(native, "ENABLED", False)
    return request.param


def values(shape, dtype: str, salt: int = 0) -> np.ndarray:
    """The generator script's deterministic values (scripts/make_sum_order_goldens.py)."""
    n = int(np.prod(shape))
    with np.errstate(over="ignore"):
        h = np.arange(n, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(salt * 7919 + 1)
        h ^= h >> np.uint64(31)
        h *= np.uint64(0x94D049BB133111EB)
        h ^= h >> np.uint64(29)
    mantissa = 1.0 + (h >> np.uint64(12)).astype(np.float64) / 2.0 ** 52
    sign = np.where(h & np.uint64(1), -1.0, 1.0)
    exponent = ((h >> np.uint64(3)) % np.uint64(24)).astype(np.float64) - 12
    return (sign * mantissa * 2.0 ** exponent).astype(dtype).reshape(shape)


def digest(array) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()


def base_of(op, dtype, shape):
    if op == "nansum":
        base = values(shape, dtype, 5)
        base.reshape(-1)[::7] = np.nan
        return base
    return values(shape, dtype, shape[0] if len(shape) == 1 else sum(shape))


def run(case, base):
    x = Tensor(base.transpose(case["perm"]))
    fn = summaries.nansum if case["op"] == "nansum" else getattr(engine.ops, case["op"])
    return fn(x) if case["dims"] is None else fn(x, dim=tuple(case["dims"]), keepdim=case["keepdim"])


@pytest.mark.parametrize("key", sorted(GROUPS), ids=lambda k: f"{k[0]}-{k[1]}-{'x'.join(map(str, k[2]))}")
def test_sums_bit_for_bit(key, monkeypatch, path):
    base = base_of(*key)
    wrong = []
    for case in GROUPS[key]:
        monkeypatch.setattr(kernels, "THREADS", case["threads"])
        out = run(case, base)
        if list(out.shape) != case["out_shape"] or digest(out.array) != case["out"]:
            wrong.append((case["perm"], case["dims"], case["keepdim"], case["threads"]))
    assert not wrong, f"{len(wrong)} of {len(GROUPS[key])} differ from torch: {wrong[:5]}"


def test_numpy_order_differs_from_torch_on_most_goldens():
    """The goldens discriminate: numpy's own (pairwise) sum misses most of them."""
    differ = total = 0
    for (op, dtype, shape), cases in GROUPS.items():
        if op != "sum" or len(shape) == 1 and shape[0] < 16:
            continue
        base = base_of(op, dtype, shape)
        for case in cases:
            a = base.transpose(case["perm"])
            axis = None if case["dims"] is None else tuple(case["dims"])
            total += 1
            differ += digest(a.sum(axis=axis, keepdims=case["keepdim"] and axis is not None)) != case["out"]
    assert differ > total // 2


def test_mean_gradient_bit_for_bit(path):
    for case in GOLDENS["mean_grads"]:
        x = Tensor(values(tuple(case["shape"]), case["dtype"], 3), requires_grad=True)
        out = engine.ops.mean(x) if case["dims"] is None else engine.ops.mean(x, dim=tuple(case["dims"]))
        out.backward(Tensor(values(tuple(out.shape), case["dtype"], 4)))
        assert digest(x.grad.array) == case["grad"], case


@pytest.mark.parametrize("example", GOLDENS["examples"], ids=lambda e: f"seed{e['seed']}-{e['shape']}")
def test_issue_28_examples(example, path):
    """torch.manual_seed(s); x = torch.randn(rows, width): x.sum(dim=0), x.sum(dim=1), x.sum(), x.mean()."""
    engine.manual_seed(example["seed"])
    x = engine.randn(*example["shape"], dtype=dtypes.float32)
    if "sum0" in example:
        assert engine.ops.sum(x, dim=0).array.tolist() == example["sum0"]
        assert engine.ops.sum(x, dim=1).array.tolist() == example["sum1"]
    assert engine.ops.sum(x).item() == example["sum"]
    assert engine.ops.mean(x).item() == example["mean"]


def test_the_issue_literal(path):
    """torch.tensor([0.1318, 1.0198, -0.4468, 0.4520, -0.9759]).sum(): 0.1808999478816986 in torch 2.13
    (recorded by hand; numpy's order gives 0.18089991807937622)."""
    x = engine.tensor([0.1318, 1.0198, -0.4468, 0.4520, -0.9759], dtype=dtypes.float32)
    assert engine.ops.sum(x).item() == 0.1808999478816986


def test_zero_sums_are_positive_and_empty_sums_are_zero(path):
    """torch adds into a 0-filled output: a sum of -0.0 is +0.0 (torch.tensor([-0.0]).sum() is tensor(0.))."""
    for shape in [(), (1,), (3,), (1, 1), (2, 1)]:
        out = sum_order.torch_sum(np.full(shape, -0.0, np.float32), ())
        assert out == 0 and not np.signbit(out).any()
    assert sum_order.torch_sum(np.zeros((3, 0)), (1,)).tolist() == [0.0, 0.0, 0.0]


def test_numpy_reduce_adds_in_order_where_sum_order_uses_it():
    """sum_order calls np.add.reduce along axis 0 only where numpy adds one by one (axis 0 is not the
    innermost of numpy's iteration); elsewhere numpy sums pairwise, which this test also sees."""
    rng = np.random.default_rng(0)
    used = pairwise = 0
    for _ in range(1500):
        n = int(rng.integers(2, 70))
        lanes = tuple(int(s) for s in rng.integers(1, 20, rng.integers(1, 4)))
        base = (rng.standard_normal((n,) + lanes) * np.exp(rng.uniform(-10, 10, (n,) + lanes))).astype(np.float32)
        perm = tuple(rng.permutation(base.ndim))
        other = np.ascontiguousarray(base.transpose(perm)).transpose(np.argsort(perm))
        for a in (base, other, other[::2]):
            loop = a[0].copy()
            for k in range(1, a.shape[0]):
                loop += a[k]
            same = np.array_equal(np.add.reduce(a, axis=0), loop)
            if sum_order._ordered_reduce(a):
                used += 1
                assert same, (a.shape, a.strides)
            pairwise += not same
    assert used > 500 and pairwise > 100


def test_results_are_contiguous_as_torch_outputs(path):
    """torch's sum writes a fresh contiguous tensor; a later sum of it follows that layout (a transposed
    result summed again gave -65.18329620361328 for torch's -65.18330383300781, snippet 282)."""
    base = values((4, 33, 17), "float32", 1)
    for perm in [(2, 0, 1), (1, 2, 0), (0, 2, 1)]:
        for dims in [(0,), (1,), (2,), (0, 2)]:
            out = sum_order.torch_sum(base.transpose(perm), dims)
            assert out.flags.c_contiguous, (perm, dims)
    assert sum_order.torch_sum(base.transpose(2, 0, 1)[:, :1], (1,)).flags.c_contiguous


def test_concurrent_large_sums_keep_their_own_buffers(monkeypatch, path):
    """The fast cascade moves rows through per-thread scratch buffers: sums running at once in several
    threads (numpy releases the GIL while it copies and adds) still give the recorded bits."""
    from concurrent.futures import ThreadPoolExecutor

    jobs = []
    for key in [("sum", "float32", (1000000,)), ("sum", "float64", (1000003,)), ("sum", "float32", (1000, 1000))]:
        base = base_of(*key)
        for case in GROUPS[key]:
            if case["threads"] == 2 and (case["dims"] is None or len(case["dims"]) == 1):
                jobs.append((case, base))
    assert len(jobs) >= 5
    monkeypatch.setattr(kernels, "THREADS", 2)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda job: digest(run(*job).array) == job[0]["out"], jobs * 3))
    assert all(results)


@pytest.mark.parametrize("key", sorted(k for k in GROUPS if k[0] == "sum" and np.prod(k[2]) < kernels.GRAIN_SIZE),
                         ids=lambda k: f"{k[1]}-{'x'.join(map(str, k[2]))}")
def test_rows_sum_is_each_rows_own_sum_bit_for_bit(key, monkeypatch):
    """rows_sum (a batch of rows with a leading batch axis, --rows) gives every row torch's sum of that row alone:
    row 0 is the golden's tensor (torch's digest), the others random rows, each compared with torch_sum of the row
    by itself; every length 1..300, every dim / pair of dims / all dims of 2-D and 3-D rows in every layout."""
    _, dtype, shape = key
    base = base_of(*key)
    rng = np.random.default_rng(len(shape) * 1000 + int(np.prod(shape)))
    stacked = np.stack([base, *(rng.standard_normal((5, *shape)) * 10.0 ** rng.integers(-3, 4, (5,) + (1,) * len(shape))
                                ).astype(dtype)])
    wrong = []
    for case in GROUPS[key]:
        if case["threads"] != 1 and np.prod(shape) * 6 < kernels.GRAIN_SIZE:
            continue  # (one thread's order below GRAIN_SIZE: the rows' batch is no bigger than that)
        monkeypatch.setattr(kernels, "THREADS", case["threads"])
        batch = stacked.transpose((0, *(p + 1 for p in case["perm"])))
        dims = tuple(range(batch.ndim - 1)) if case["dims"] is None else tuple(case["dims"])
        keepdim = bool(case["keepdim"]) and case["dims"] is not None
        got = sum_order.rows_sum(batch, dims, keepdim)
        with kernels.elements_are_rows(kernels.LEADING):  # torch_sum dispatches there for a sum keeping axis 0
            via_torch_sum = sum_order.torch_sum(batch, tuple(d + 1 for d in dims), keepdim)
        alone = [sum_order.torch_sum(row, dims, keepdim) for row in batch]
        if digest(got[0]) != case["out"] or list(got[0].shape) != case["out_shape"] \
                or any(digest(got[i]) != digest(alone[i]) for i in range(len(alone))) \
                or digest(via_torch_sum) != digest(got):
            wrong.append((case["perm"], case["dims"], case["keepdim"], case["threads"]))
    assert not wrong, f"{len(wrong)} of {len(GROUPS[key])} differ: {wrong[:5]}"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_rows_sum_of_the_last_dim_equals_whole_sums_of_each_row(dtype):
    """A (B, n) sum over the last dim in rows mode equals n-element whole sums row by row (the single-evaluation
    path, `Tensor.sum()`), for every n from 1 to 300."""
    rng = np.random.default_rng(7)
    for n in range(1, 301):
        batch = (rng.standard_normal((9, n)) * 10.0 ** rng.integers(-4, 5, (9, n))).astype(dtype)
        got = sum_order.rows_sum(batch, (0,))
        alone = np.stack([engine.ops.sum(Tensor(row)).array for row in batch])
        assert got.tobytes() == alone.tobytes(), n


@pytest.mark.parametrize("shape", [(2049, 1000), (4096, 512), (3000, 700)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_row_sums_of_many_lanes_are_not_overwritten_by_the_next_slab(shape, dtype, path):
    """Sums over the last dim of 2,000+ rows go a slab of lanes at a time through per-thread scratch buffers;
    each slab's sums were left in the buffer the next slab reused, so 75% of the rows of (4096, 1000).sum(1)
    came out wrong by up to 150 (and logsumexp's gradient with them).  Checked against numpy's float64 sum."""
    x = np.random.default_rng(7).standard_normal(shape).astype(dtype)
    np.testing.assert_allclose(sum_order.torch_sum(x, (1,), False), x.astype(np.float64).sum(1),
                               rtol=1e-5 if dtype == "float32" else 1e-12, atol=1e-3 if dtype == "float32" else 1e-9)
