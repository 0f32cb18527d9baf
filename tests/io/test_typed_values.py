"""Values typed as PyTorch types them (issue 29, item 1): a constant's integers are int64, as
torch.tensor([0, 2]) is; True/False bool; tensor(...) and long(...)/int(...) state the type; a tensor that
requires grad stays floating.  The expected types are torch's (torch.tensor / torch.arange / torch.full of the
same literal, and Tensor.long()'s truncation)."""

from __future__ import annotations

import gzip
import io
import json

import numpy as np
import pytest

from gradcli.io.inputs import LazyGenerator, parse_value, read_values
from gradcli.safety.errors import InputError
from gradcli.safety.limits import Limits

F64, F32 = np.dtype(np.float64), np.dtype(np.float32)


def const(text, dtype=F64, **kw):
    return parse_value(text, dtype=dtype, rng=LazyGenerator(0), limits=Limits(**kw), typed=True)


def grad_value(text, dtype=F64):
    return parse_value(text, dtype=dtype, rng=LazyGenerator(0), limits=Limits())


@pytest.mark.parametrize("text,expected,dtype", [
    ("[0, 2]", [0, 2], "int64"), ("3", 3, "int64"), ("-3", -3, "int64"),
    ("[[1, 2], [3, -4]]", [[1, 2], [3, -4]], "int64"),
    ("[0., 2]", [0.0, 2.0], "float64"), ("2.0", 2.0, "float64"), ("[1, 2.5]", [1.0, 2.5], "float64"),
    ("True", True, "bool"), ("[True, False]", [True, False], "bool"), ("[True, 2]", [1, 2], "int64"),
    ("tensor([0, 2])", [0, 2], "int64"), ("tensor([0.5, 1])", [0.5, 1.0], "float64"), ("tensor(True)", True, "bool"),
    ("long([0.7, -1.7, 2])", [0, -1, 2], "int64"), ("int(2.9)", 2, "int64"),
    ("long(arange(0, 2, 0.5))", [0, 0, 1, 1], "int64"),
    ("arange(3)", [0, 1, 2], "int64"), ("arange(1, 7, 2)", [1, 3, 5], "int64"),
    ("arange(0, 1, 0.5)", [0.0, 0.5], "float64"),
    ("full((2,), 7)", [7, 7], "int64"), ("full((2,), 7.0)", [7.0, 7.0], "float64"),
    ("zeros(2)", [0.0, 0.0], "float64"), ("ones(2)", [1.0, 1.0], "float64"), ("eye(2)", np.eye(2), "float64"),
    ("1/2", 0.5, "float64"), ("nan", np.nan, "float64"), ("[]", [], "float64"),
    ("9223372036854775807", 2**63 - 1, "int64"), ("9223372036854775808", 2.0**63, "float64"),
])
def test_constants_are_typed_as_torch_tensor_types_their_data(text, expected, dtype):
    array = const(text)
    assert array.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(array, np.asarray(expected, dtype=dtype))


def test_constant_floats_follow_the_command_dtype_and_integers_stay_int64():
    assert const("[0.5, 1.5]", F32).dtype == F32
    assert const("[0, 1]", F32).dtype == np.int64


@pytest.mark.parametrize("text", ["[0, 2]", "3", "tensor([0, 2])", "arange(3)", "full((2,), 7)", "True"])
def test_tensors_that_require_grad_stay_floating(text):
    assert grad_value(text).dtype == F64
    assert grad_value(text, F32).dtype == F32


@pytest.mark.parametrize("text", ["long([1, 2])", "int(3)"])
def test_an_integer_tensor_cannot_require_grad(text):
    with pytest.raises(InputError) as info:
        grad_value(text)
    assert "only Tensors of floating point and complex dtype can require gradients" in info.value.message
    assert "--const" in info.value.hint


@pytest.mark.parametrize("text,message", [
    ("long(nan)", "long(...) of nan or inf: an integer cannot hold it"),
    ("long([1e19])", "long(...): the value does not fit in int64"),
    ("long([1], [2])", "long(...) takes one value"),
    ("[tensor([1])]", "tensor(...) types the whole value"),
    ("zeros(True)", "zeros() takes numbers, not True"),
])
def test_typed_forms_refuse_what_they_cannot_hold(text, message):
    with pytest.raises(InputError) as info:
        const(text)
    assert info.value.message == message


def test_files_carry_their_integers_to_a_constant(tmp_path):
    np.save(tmp_path / "i64.npy", np.array([0, 2], dtype=np.int64))
    np.save(tmp_path / "i32.npy", np.array([[1], [0]], dtype=np.int32))
    np.save(tmp_path / "f.npy", np.array([0.0, 2.0]))
    np.save(tmp_path / "b.npy", np.array([True, False]))
    (tmp_path / "i.json").write_text("[0, 2]")
    (tmp_path / "f.json").write_text("[0.0, 2]")
    (tmp_path / "i.csv").write_text("# labels\n0,2\n1,3\n")
    (tmp_path / "f.csv").write_text("0.,2\n1,3\n")
    (tmp_path / "i.txt.gz").write_bytes(gzip.compress(b"4 5 6\n"))
    (tmp_path / "big.csv").write_text("".join(f"{i % 10},{i % 7}\n" for i in range(20000)))  # streamed from the file
    expected = {"i64.npy": "int64", "i32.npy": "int64", "f.npy": "float64", "b.npy": "bool", "i.json": "int64",
                "f.json": "float64", "i.csv": "int64", "f.csv": "float64", "i.txt.gz": "int64", "big.csv": "int64"}
    for name, dtype in expected.items():
        typed, plain = const(f"@{tmp_path / name}"), grad_value(f"@{tmp_path / name}")
        assert typed.dtype == np.dtype(dtype), name
        assert plain.dtype == F64, name  # requires grad: floating
        np.testing.assert_array_equal(typed, plain)
    np.testing.assert_array_equal(const(f"@{tmp_path / 'big.csv'}")[-1], [19999 % 10, 19999 % 7])


def test_standard_input_carries_integers_to_a_constant():
    array = parse_value("-", dtype=F64, rng=LazyGenerator(0), limits=Limits(), stdin=io.StringIO("[0, 1]"), typed=True)
    assert array.dtype == np.int64


def test_read_values_types_the_consts_only():
    values = read_values(["x=[1, 2]"], ["t=[0, 1]", "w=[0.5, 1]"], [], "[1, 1]", dtype=F64, limits=Limits(),
                         rng=LazyGenerator(0))
    assert values.inputs["x"].dtype == F64 and values.grad_output.dtype == F64
    assert values.consts["t"].dtype == np.int64 and values.consts["w"].dtype == F64


def test_inputs_files_stay_floating(tmp_path):
    path = tmp_path / "in.json"
    path.write_text(json.dumps({"x": [1, 2]}))
    values = read_values([], [], [str(path)], None, dtype=F64, limits=Limits(), rng=LazyGenerator(0))
    assert values.inputs["x"].dtype == F64
