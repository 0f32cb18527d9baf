"""Fuzzing the four commands in-process: random well-formed expressions from the grammar, the same mutated,
and raw text/bytes.  Whatever comes in, gradcli answers (0), says "no" (1) or gives a clear error (2):
never an internal error, never a traceback.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gradcli.cli.commands import app

runner = CliRunner()
# GRADCLI_FUZZ_SCALE=20 for a long, randomised hunt; the default keeps the file well under a minute
SCALE = float(os.environ.get("GRADCLI_FUZZ_SCALE", "1"))
FAST = settings(max_examples=int(40 * SCALE), deadline=None, suppress_health_check=list(HealthCheck),
                derandomize=SCALE == 1)
QUICK = ["--timeout", "2"]

# -- the expression grammar ----------------------------------------------------------------------------

# mostly valid pieces (so that evaluation, backward and the cross-check run), a few hostile ones
LEAVES = ["x", "y", "W", "x", "y", "W", "pi", "e", "nan", "inf", "0", "1", "2", "2.5", "-3", "0.5", "1e308",
          "1e-320", "1e400", "9223372036854775807", "True"]
BINARY = ["+", "-", "*", "/", "**", "^", "@", "//", "+", "-", "*", "/", "**", "<", ">=", "%"]
FUNCTIONS = ["sin", "exp", "log", "sqrt", "abs", "relu", "sigmoid", "tanh", "torch.sum", "torch.max", "F.softmax",
             "torch.clamp", "torch.where", "torch.cat", "torch.stack", "torch.diag", "torch.cumprod",
             "torch.floor_divide", "torch.detach", "torch.zeros_like", "torch.arange", "F.mse_loss", "torch.einsum",
             "torch.linalg.det", "math.log", "torch.logsumexp", "torch.norm", "torch.atan2", "torch.maximum",
             "F.gelu", "torch.pow", "torch.xlogy", "torch.lerp", "F.linear", "torch.outer", "torch.trace",
             "torch.log_softmax", "torch.prod", "torch.amax", "torch.std", "torch.erf", "torch.sign"]
METHODS = ["sum", "mean", "max", "detach", "exp", "T", "t", "reshape", "view", "abs", "norm", "softmax",
           "unsqueeze", "squeeze", "prod", "cumsum", "flip", "clamp", "pow", "std", "var", "min", "logsumexp",
           "sum", "mean", "detach", "relu", "sigmoid", "log", "sqrt", "tanh", "expand_as", "matmul", "mul"]
ARGS = ["", "", "", "0", "-1", "1", "(2, 2)", "dim=0", "-1, keepdim=True", "x", "W", "y", "min=0", "2", "nan",
        "0.5", "dim=5", "2**70", "[0]"]
VALUES = ["x=[0.5,-1.5]", "y=2", "W=[[1,2],[3,-4]]"]


def _binary(parts):
    a, op, b = parts
    return f"({a}{op}{b})"


def _call(parts):
    fn, a, extra = parts
    return f"{fn}({a}{', ' + extra if extra else ''})"


def _method(parts):
    a, m, arg = parts
    return f"({a}).{m}" if m == "T" else f"({a}).{m}({arg})"


def _index(parts):
    a, key = parts
    return f"({a})[{key}]"


def _grow(children):
    return st.one_of(
        st.tuples(children, st.sampled_from(BINARY), children).map(_binary),
        st.tuples(st.sampled_from(FUNCTIONS), children, st.sampled_from(ARGS)).map(_call),
        st.tuples(children, st.sampled_from(METHODS), st.sampled_from(ARGS)).map(_method),
        st.tuples(children, st.sampled_from(["0", "-1", "1:", "..., 0", "x > 0", "[0, 0]", "None", "5"])).map(_index),
        children.map(lambda a: f"-{a}"),
        children.map(lambda a: f"{a}**{a}**{a}"),  # power towers
    )


EXPRESSIONS = st.recursive(st.sampled_from(LEAVES), _grow, max_leaves=8)
HOSTILE_CHARS = "()[]{},.:;'\"\\*/+-@^%~!&|<>=#$_ \n\t\x00é∂ℯ\u200b\u202e\uff0b😀\udcff\ud800"


@st.composite
def mutated(draw):
    """A well-formed expression with a few characters deleted, inserted or duplicated."""
    text = draw(EXPRESSIONS)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["delete", "insert", "duplicate"]))
        if how == "delete":
            text = text[:at] + text[at + 1:]
        elif how == "insert":
            text = text[:at] + draw(st.sampled_from(HOSTILE_CHARS)) + text[at:]
        else:
            end = draw(st.integers(at, len(text)))
            text = text[:end] + text[at:end] + text[end:]
    return text


def assert_clean(result, args):
    output = result.output
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, output, result.exception)
    assert "internal error" not in output, (args, output)
    assert "Traceback" not in output, (args, output)
    if result.exit_code == 2 and result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError((args, repr(result.exception)))


def invoke(*args, input=None):
    args = list(args)
    result = runner.invoke(app, args, input=input)
    assert_clean(result, args)
    return result


# -- eval and explain over the grammar ------------------------------------------------------------------
# Options go before "--" so that an expression starting with "-" is not read as an option.

@FAST
@given(EXPRESSIONS)
def test_eval_well_formed_expressions_with_the_cross_check(expression):
    invoke("eval", *QUICK, "--check-timeout", "1", "--grad-output", "1", "--", expression, *VALUES)


@settings(FAST, max_examples=int(100 * SCALE))
@given(st.one_of(EXPRESSIONS, mutated()))
def test_eval_json_well_formed_and_mutated(expression):
    invoke("eval", *QUICK, "--no-check", "--json", "--grad-output", "1", "--", expression, *VALUES)


@FAST
@given(st.one_of(EXPRESSIONS, mutated()))
def test_explain_well_formed_and_mutated(expression):
    invoke("explain", "--const", "W=-1", *QUICK, "--", expression, "x=0.5", "y=2")


@FAST
@given(st.text(max_size=40))
def test_eval_and_explain_raw_text(text):
    invoke("eval", *QUICK, "--check-timeout", "1", "--", text, "x=1")
    invoke("explain", *QUICK, "--", text, "x=1")


# -- check (homework notation) --------------------------------------------------------------------------

HOMEWORK = st.recursive(
    st.sampled_from(["x", "y", "2", "e", "pi", "0", "1.5", "x^2", "sin(x)", "ln(x)", "e^x", "3x", "√x", "|x|"]),
    lambda c: st.one_of(
        st.tuples(c, st.sampled_from(["+", "-", "*", "/", "^", " ", ""]), c).map(lambda p: f"({p[0]}{p[1]}{p[2]})"),
        st.tuples(st.sampled_from(["sin", "cos", "exp", "ln", "log", "sqrt", "tan", "arctan"]), c)
        .map(lambda p: f"{p[0]}({p[1]})"),
    ),
    max_leaves=6,
)


@settings(FAST, max_examples=int(25 * SCALE))
@given(HOMEWORK, st.one_of(HOMEWORK, st.text(max_size=20)))
def test_check_homework_expressions(function, expected):
    invoke("check", "--wrt", "x", "--expect", expected, *QUICK, "--", function)


@FAST
@given(st.text(max_size=40), st.text(max_size=20))
def test_check_raw_text(function, expected):
    invoke("check", "--expect", expected, *QUICK, "--", function)


# -- run: raw bytes and mutated programs ------------------------------------------------------------------

PROGRAM = b"""import torch
x = torch.tensor([1.0, -2.0], requires_grad=True)
y = (x ** 2 * torch.sin(x)).sum() // 1 + x.detach().sum()
y.backward()
print(x.grad)
"""


@st.composite
def mutated_program(draw):
    data = bytearray(PROGRAM)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        how = draw(st.sampled_from(["delete", "insert", "byte"]))
        if how == "delete":
            del data[at:at + draw(st.integers(1, 5))]
        elif how == "insert":
            data[at:at] = draw(st.sampled_from([b"(", b")", b"[", b":", b"\n", b"    ", b"**", b"//", b"\xef\xbb\xbf",
                                                b"\xff", b"\x00", b"lambda", b"import os", b"__", b"9" * 30]))
        elif at < len(data):
            data[at] = draw(st.integers(0, 255))
    return bytes(data)


@FAST
@given(st.one_of(st.binary(max_size=60), mutated_program()))
def test_run_raw_bytes_and_mutated_programs(data):
    invoke("run", "-", input=data)
