"""Generate tests/goldens/repr_goldens.json from real PyTorch printing.

Run with a Python that has torch installed:  python scripts/make_repr_goldens.py

The file holds two lists:

* ``tensor_cases``: ``{"name", "dtype", "shape", "values" | "arange_scale", "requires_grad",
  "grad_fn", "default_dtype", "expected"}``.  ``values`` is the flat element list with nan,
  inf, -inf and -0.0 spelled as strings.  Tensors too big to store (1000x1000) give
  ``arange_scale`` instead: the elements are ``arange(numel, dtype=float64) * arange_scale``
  cast to ``dtype``.
* ``python_value_cases``: ``{"name", "value", "expected"}`` where ``value`` is a tagged
  encoding (see ``encode_python_value``) and ``expected`` is what ``print(value)`` shows.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import torch

OUTPUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "repr_goldens.json"

F16, F32, F64 = torch.float16, torch.float32, torch.float64
NAN, INF = math.nan, math.inf


def encode_float(value: float) -> float | str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value == 0 and math.copysign(1.0, value) < 0:
        return "-0.0"
    return value


def encode_tensor(tensor: torch.Tensor) -> dict:
    values = tensor.detach().reshape(-1).tolist()
    if tensor.dtype.is_floating_point:
        values = [encode_float(value) for value in values]
    grad_fn = tensor.grad_fn
    return {
        "dtype": str(tensor.dtype).removeprefix("torch."),
        "shape": list(tensor.shape),
        "values": values,
        "requires_grad": tensor.requires_grad,
        "grad_fn": None if grad_fn is None else type(grad_fn).__name__,
    }


class GoldenBuilder:
    def __init__(self) -> None:
        self.tensor_cases: list[dict] = []
        self.python_value_cases: list[dict] = []

    def tensor(self, name: str, tensor: torch.Tensor, default_dtype: torch.dtype = F32) -> None:
        # repr depends on the default dtype at print time, so print under it.
        previous = torch.get_default_dtype()
        torch.set_default_dtype(default_dtype)
        try:
            expected = repr(tensor)
        finally:
            torch.set_default_dtype(previous)
        case = {"name": name, **encode_tensor(tensor)}
        case["default_dtype"] = str(default_dtype).removeprefix("torch.")
        case["expected"] = expected
        self.tensor_cases.append(case)

    def values(self, name: str, data, dtype: torch.dtype = F32, **kwargs) -> None:
        self.tensor(name, torch.tensor(data, dtype=dtype), **kwargs)

    def arange(self, name: str, shape: tuple[int, ...], scale: float, dtype: torch.dtype) -> None:
        numel = math.prod(shape)
        tensor = (torch.arange(numel, dtype=F64) * scale).to(dtype).reshape(shape)
        self.tensor_cases.append(
            {
                "name": name,
                "dtype": str(dtype).removeprefix("torch."),
                "shape": list(shape),
                "arange_scale": scale,
                "requires_grad": False,
                "grad_fn": None,
                "default_dtype": "float32",
                "expected": repr(tensor),
            }
        )

    def python_value(self, name: str, value) -> None:
        self.python_value_cases.append(
            {"name": name, "value": encode_python_value(value), "expected": str(value)}
        )


def encode_python_value(value) -> dict:
    """Tag every value with its Python type so the test can rebuild it without torch."""
    if value is None:
        return {"none": None}
    if isinstance(value, torch.Size):
        return {"size": list(value)}
    if isinstance(value, torch.Tensor):
        return {"tensor": encode_tensor(value)}
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, int):
        return {"int": value}
    if isinstance(value, float):
        return {"float": encode_float(value)}
    if isinstance(value, str):
        return {"str": value}
    if isinstance(value, list):
        return {"list": [encode_python_value(item) for item in value]}
    if isinstance(value, tuple):
        return {"tuple": [encode_python_value(item) for item in value]}
    if isinstance(value, dict):
        return {"dict": [[encode_python_value(k), encode_python_value(v)] for k, v in value.items()]}
    raise TypeError(f"cannot encode {type(value).__name__}")


def add_scalar_cases(g: GoldenBuilder) -> None:
    for name, value in [
        ("two", 2.0),
        ("minus_two", -2.0),
        ("half", 0.5),
        ("third", 1 / 3),
        ("zero", 0.0),
        ("neg_zero", -0.0),
        ("nan", NAN),
        ("inf", INF),
        ("neg_inf", -INF),
        ("small", 1e-5),
        ("large", 1e9),
        ("123456.789", 123456.789),
        ("0.1+0.2", 0.1 + 0.2),
    ]:
        g.values(f"scalar_f32_{name}", value)
    g.values("scalar_f64_two", 2.0, F64)
    g.values("scalar_f64_third", 1 / 3, F64)
    g.values("scalar_f16_two", 2.0, F16)
    g.values("scalar_f16_tenth", 0.1, F16)
    g.values("scalar_i64", 5, torch.int64)
    g.values("scalar_i64_neg", -5, torch.int64)
    g.values("scalar_i32", 7, torch.int32)
    g.values("scalar_i16", 3, torch.int16)
    g.values("scalar_i8", -3, torch.int8)
    g.values("scalar_u8", 200, torch.uint8)
    g.values("scalar_bool_true", True, torch.bool)
    g.values("scalar_bool_false", False, torch.bool)
    g.tensor("scalar_requires_grad", torch.tensor(3.5, requires_grad=True))
    g.tensor("scalar_f64_requires_grad", torch.tensor(3.5, dtype=F64, requires_grad=True))
    g.tensor("scalar_sum_grad_fn", torch.tensor([1.0, 2.5], requires_grad=True).sum())


def add_float_vector_cases(g: GoldenBuilder) -> None:
    for name, data in [
        ("ints", [1.0, 2.0]),
        ("ints3", [1.0, 2.0, 3.0]),
        ("mixed_signs", [-1.0, 2.0, -3.5]),
        ("neg_zero_one", [-0.0, 1.0]),
        ("neg_zero_zero", [-0.0, 0.0]),
        ("zeros", [0.0, 0.0]),
        ("neg_zero_half", [-0.0, -0.5]),
        ("nan", [NAN]),
        ("all_nan", [NAN, NAN]),
        ("nan_one", [NAN, 1.0]),
        ("nan_frac", [NAN, 1.5]),
        ("inf_neg_inf", [INF, -INF]),
        ("inf_one", [INF, 1.0]),
        ("nonfinite_zero", [NAN, INF, -INF, 0.0]),
        ("nan_frac_inf", [NAN, 1.5, INF]),
        ("small_one", [1e-5, 1.0]),
        ("small", [1e-5]),
        ("neg_small_two", [-1e-5, 2.0]),
        ("large_one", [1e9, 1.0]),
        ("large", [1e9]),
        ("1e8_one", [1e8, 1.0]),
        ("1e-4_exact", [1e-4, 1e-4]),
        ("below_1e-4", [9.9e-5]),
        ("ratio_1000", [1000.0, 1.0]),
        ("ratio_1001", [1001.0, 1.0]),
        ("ratio_frac", [1000.5, 1.0]),
        ("123456.789", [123456.789]),
        ("0.1+0.2_third", [0.1 + 0.2, 1 / 3]),
        ("small_nan_inf", [1e-5, NAN, INF]),
        ("int_sci", [1.5e10, 3.0]),
        ("1e30", [1e30]),
        ("f32_max", [3.4028234663852886e38]),
        ("subnormal", [1e-40, 1.0]),
        ("0.00012345", [0.00012345]),
        ("align", [1.0, -10.5, 100.25]),
        ("align_sci", [-123.456, 0.001]),
        ("align_mixed", [12.5, -0.125, 3.0]),
        ("neg_zero_frac", [-0.0, 0.25, -1.75]),
        ("rounds_to_neg_zero", [-0.00004, 0.5]),
        ("rounding", [0.00005, 0.99995, 2.5]),
        ("big_ints", [123456789.0, 1.0]),
        ("int_sci_neg", [-2e9, 5.0, -0.0]),
    ]:
        g.values(f"f32_{name}", data)

    g.values("f64_ints", [1.0, 2.0], F64)
    g.values("f64_tenths", [0.1, 0.2], F64)
    g.values("f64_third", [1 / 3, 2 / 3], F64)
    g.values("f64_tiny", [1e-300, 1.0], F64)
    g.values("f64_huge", [1e300], F64)
    g.values("f64_nan_inf", [NAN, -INF, 2.0], F64)
    g.values("f16_frac", [0.1, 1.5], F16)
    g.values("f16_max", [65504.0], F16)
    g.values("f16_subnormal", [1e-7, 1.0], F16)
    g.values("f16_ints", [1.0, -2.0, 3.0], F16)


def add_integer_cases(g: GoldenBuilder) -> None:
    g.values("i64_vector", [1, 2, 3], torch.int64)
    g.values("i64_wide", [-100, 5, 20000], torch.int64)
    g.values("i64_extremes", [-(2**63), 2**63 - 1], torch.int64)
    g.values("i32_vector", [1, 2], torch.int32)
    g.values("i16_vector", [-7, 300], torch.int16)
    g.values("i8_extremes", [-128, 127], torch.int8)
    g.values("u8_extremes", [0, 255], torch.uint8)
    g.values("bool_vector", [True, False, True], torch.bool)
    g.values("bool_matrix", [[True, False], [False, False]], torch.bool)
    g.values("i64_matrix", [[1, -2, 3], [40, 5, -600]], torch.int64)
    g.values("i32_matrix", [[1, 2], [3, 4]], torch.int32)


def add_shape_cases(g: GoldenBuilder) -> None:
    g.tensor("empty_f32", torch.zeros(0))
    g.tensor("empty_0x3_f32", torch.zeros(0, 3))
    g.tensor("empty_2x0_f32", torch.zeros(2, 0))
    g.tensor("empty_0x2x3_f32", torch.zeros(0, 2, 3))
    g.tensor("empty_f64", torch.zeros(0, dtype=F64))
    g.tensor("empty_i64", torch.zeros(0, dtype=torch.int64))
    g.tensor("empty_0x3_i64", torch.zeros(0, 3, dtype=torch.int64))
    g.tensor("empty_i32", torch.zeros(0, dtype=torch.int32))
    g.tensor("empty_bool", torch.zeros(0, dtype=torch.bool))
    g.tensor("empty_requires_grad", torch.zeros(0, requires_grad=True))
    g.tensor("empty_grad_fn", torch.zeros(0, 3, requires_grad=True) * 2)
    g.tensor("shape_3", torch.tensor([1.5, -2.25, 3.0]))
    g.tensor("shape_2x3", torch.arange(6, dtype=F32).reshape(2, 3) / 4)
    g.tensor("shape_2x3x4", torch.arange(24, dtype=F32).reshape(2, 3, 4) - 12)
    g.tensor("shape_1x1x1", torch.tensor([[[7.0]]]))
    g.tensor("shape_5x1", torch.arange(5, dtype=F32).reshape(5, 1) * 0.5)
    g.tensor("shape_1x5", torch.arange(5, dtype=F32).reshape(1, 5))
    g.tensor("shape_2x1x3", torch.arange(6, dtype=F32).reshape(2, 1, 3))
    g.tensor("shape_2x2x2x2", torch.arange(16, dtype=F32).reshape(2, 2, 2, 2) / 3)
    g.tensor("shape_2x2x2x2_i64", torch.arange(16).reshape(2, 2, 2, 2))


def add_wrapping_cases(g: GoldenBuilder) -> None:
    torch.manual_seed(1)
    g.tensor("wrap_30_rand", torch.rand(30))
    g.tensor("wrap_100_randn", torch.randn(100))
    g.tensor("wrap_100_i64", torch.arange(100))
    g.tensor("wrap_30_mixed_width", torch.arange(30, dtype=F32) ** 2 - 200)
    g.tensor("wrap_3x20", torch.randn(3, 20))
    g.tensor("wrap_2x30", torch.randn(2, 30))
    g.tensor("wrap_2x2x25", torch.randn(2, 2, 25))
    g.tensor("wrap_40_sci", torch.randn(40) * 1e5)
    g.tensor("wrap_50_bool", torch.arange(50) % 3 == 0)
    g.tensor("wrap_f64_2x8", torch.randn(2, 8, dtype=F64) * 100)
    g.tensor("wrap_f64_9", torch.tensor([1.0, 22.5, 333.25, 4444.125, 5.5, 6.0, 7.75, 8.0, 9.5], dtype=F64))
    g.tensor("wrap_f64_grad_fn_60", torch.randn(60, dtype=F64, requires_grad=True) * 3)

    # Sweep line lengths across the point where a suffix moves to its own line
    # (torch overestimates the last line's length, so the boundary is not at 80 columns).
    for n in range(5, 10):
        g.tensor(f"suffix_wrap_f64_1x{n}", torch.full((n,), 1000.0, dtype=F64))
        g.tensor(f"suffix_wrap_f64_2x{n}", torch.full((2, n), 1000.0, dtype=F64))
    for n in range(11, 16):
        g.tensor(f"suffix_wrap_requires_grad_{n}", torch.full((n,), 5.0, requires_grad=True))


def add_summarised_cases(g: GoldenBuilder) -> None:
    torch.manual_seed(2)
    g.tensor("summary_1001_arange", torch.arange(1001, dtype=F32))
    g.tensor("summary_2000_randn", torch.randn(2000))
    g.tensor("summary_5000_i64", torch.arange(5000))
    g.tensor("summary_40x40_randn", torch.randn(40, 40))
    g.tensor("summary_2x1000", torch.randn(2, 1000))
    g.tensor("summary_1000x2", torch.randn(1000, 2))
    g.tensor("summary_11x10x10", torch.randn(11, 10, 10))
    g.tensor("summary_2x2x300", torch.randn(2, 2, 300))
    g.tensor("summary_5x5x5x10", torch.randn(5, 5, 5, 10))
    g.tensor("summary_1001_bool", torch.arange(1001) % 2 == 0)
    g.tensor("summary_f64_1500", torch.randn(1500, dtype=F64))
    g.tensor("summary_f64_grad_fn_40x30", torch.randn(40, 30, dtype=F64, requires_grad=True).exp())

    with_nan = torch.randn(1200)
    with_nan[0] = NAN
    with_nan[-1] = -INF
    g.tensor("summary_nan_inf_edges", with_nan)

    # Elements that are not printed must not influence the notation.
    hidden_tiny = torch.ones(2000)
    hidden_tiny[1000] = 1e-10
    g.tensor("summary_hidden_tiny", hidden_tiny)
    hidden_frac = torch.ones(30, 40)
    hidden_frac[15, 20] = 0.5
    g.tensor("summary_hidden_fraction", hidden_frac)

    g.arange("summary_1000x1000_arange", (1000, 1000), 0.37, F32)
    g.arange("summary_1000x1000_f64", (1000, 1000), 1.0, F64)


def add_autograd_cases(g: GoldenBuilder) -> None:
    torch.manual_seed(3)
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    g.tensor("leaf_requires_grad", x)
    g.tensor("leaf_2x3_requires_grad", torch.randn(2, 3, requires_grad=True))
    g.tensor("leaf_f64_requires_grad", torch.tensor([0.5, 1.0], dtype=F64, requires_grad=True))
    g.tensor("mul_grad_fn", x * 2)
    g.tensor("add_grad_fn", x + 1)
    g.tensor("exp_grad_fn", x.exp())
    g.tensor("mean_grad_fn", x.mean())
    g.tensor("pow_grad_fn", x**2)
    g.tensor("mm_grad_fn", torch.randn(2, 3, requires_grad=True) @ torch.randn(3, 2))
    y = torch.tensor([2.0, -1.0], dtype=F64, requires_grad=True)
    g.tensor("f64_mul_grad_fn", y * y)
    g.tensor("f64_sum_grad_fn", (y * 3).sum())
    g.tensor("f16_mul_grad_fn", torch.tensor([1.5, 2.0], dtype=F16, requires_grad=True) * 2)
    g.tensor("wide_grad_fn", torch.randn(9, requires_grad=True) * 1000)
    g.tensor("long_line_grad_fn", torch.randn(2, 8, requires_grad=True).tanh())


def add_random_cases(g: GoldenBuilder) -> None:
    torch.manual_seed(0)
    g.tensor("randn_5", torch.randn(5))
    g.tensor("randn_3x4", torch.randn(3, 4))
    g.tensor("randn_2x3x4_f64", torch.randn(2, 3, 4, dtype=F64))
    g.tensor("randn_times_1000", torch.randn(6) * 1000)
    g.tensor("randn_times_1e-3", torch.randn(6) * 1e-3)
    g.tensor("rand_4x4", torch.rand(4, 4))
    g.tensor("randint_3x3", torch.randint(-50, 50, (3, 3)))
    g.tensor("randn_f16_8", torch.randn(8, dtype=F16))


def add_default_dtype_cases(g: GoldenBuilder) -> None:
    g.values("default64_f32", [1.5, 2.0], F32, default_dtype=F64)
    g.values("default64_f64", [1.5, 2.0], F64, default_dtype=F64)
    g.values("default64_i64", [1, 2], torch.int64, default_dtype=F64)
    g.tensor("default64_empty_f32", torch.zeros(0, dtype=F32), default_dtype=F64)
    g.tensor("default64_empty_f64", torch.zeros(0, 2, dtype=F64), default_dtype=F64)
    g.tensor("default64_f32_grad_fn", torch.tensor([1.0], requires_grad=True) * 3, default_dtype=F64)


def add_python_value_cases(g: GoldenBuilder) -> None:
    for name, value in [
        ("float_tenth", 0.1),
        ("float_1e-20", 1e-20),
        ("float_1e16", 1e16),
        ("float_1e15", 1e15),
        ("float_nan", NAN),
        ("float_inf", INF),
        ("float_neg_inf", -INF),
        ("float_neg_zero", -0.0),
        ("float_three", 3.0),
        ("float_0.1+0.2", 0.1 + 0.2),
        ("float_third", 1 / 3),
        ("float_1e-5", 1e-5),
        ("int_zero", 0),
        ("int_neg", -5),
        ("int_huge", 10**20),
        ("bool_true", True),
        ("bool_false", False),
        ("none", None),
        ("str", "hello"),
        ("list_floats", [0.1, 0.2, 3.0]),
        ("tuple_floats", (1.0, 2.5)),
        ("tuple_single", (1.0,)),
        ("list_empty", []),
        ("tuple_empty", ()),
        ("list_mixed", [1, 2.5, True, None, "a"]),
        ("nested", [[1.0], (2,), []]),
        ("dict", {"a": 1.5, "b": [1, 2]}),
        ("size_2x3", torch.Size([2, 3])),
        ("size_empty", torch.Size([])),
        ("size_single", torch.Size([5])),
        ("list_of_size", [torch.Size([2])]),
        ("tuple_with_size", (torch.Size([1, 2]), 3)),
        ("tensor", torch.tensor([1.0, 2.5])),
        ("tensor_grad_fn", torch.tensor([1.0, 2.0], requires_grad=True) * 2),
        ("list_of_tensors", [torch.tensor(1.0), torch.tensor([2, 3])]),
        ("tuple_of_tensors", (torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor(0.5, dtype=F64))),
        ("tuple_single_tensor", (torch.tensor([1.0], requires_grad=True),)),
        ("dict_of_tensors", {"grad": torch.tensor([0.25, -1.0]), "n": 2}),
    ]:
        g.python_value(name, value)


def _one_case_per_line(cases: list[dict]) -> str:
    # Keeps the file diffable without spreading thousands of element values over lines.
    return "[\n  " + ",\n  ".join(json.dumps(case) for case in cases) + "\n ]"


def main() -> None:
    builder = GoldenBuilder()
    add_scalar_cases(builder)
    add_float_vector_cases(builder)
    add_integer_cases(builder)
    add_shape_cases(builder)
    add_wrapping_cases(builder)
    add_summarised_cases(builder)
    add_autograd_cases(builder)
    add_random_cases(builder)
    add_default_dtype_cases(builder)
    add_python_value_cases(builder)

    names = [case["name"] for case in builder.tensor_cases + builder.python_value_cases]
    duplicates = {name for name in names if names.count(name) > 1}
    if duplicates:
        raise SystemExit(f"duplicate case names: {sorted(duplicates)}")

    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(
        "{\n"
        f' "torch_version": {json.dumps(torch.__version__)},\n'
        f' "tensor_cases": {_one_case_per_line(builder.tensor_cases)},\n'
        f' "python_value_cases": {_one_case_per_line(builder.python_value_cases)}\n'
        "}\n"
    )
    print(
        f"wrote {len(builder.tensor_cases)} tensor cases and "
        f"{len(builder.python_value_cases)} python value cases to {OUTPUT}"
    )


if __name__ == "__main__":
    main()
