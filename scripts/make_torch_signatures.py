"""Record torch's argument-parser signatures for the torch functions gradcli has, and torch's messages for calls
that break them (run with torch 2.13 installed; gradcli never imports torch).

  .venv/bin/python scripts/make_torch_signatures.py

1. gradcli/run/torch_signatures.py: for each torch.NAME (and Tensor.NAME) gradcli has that torch implements as a builtin
   (parsed by torch/csrc/utils/python_arg_parser.cpp), the signature strings of its parser, as libtorch_python.so
   holds them (`strings libtorch_python.so | grep '^sum('`): the .so keeps each parser's strings together, and
   several parsers share a name (Tensor.sum's, torch.sum's), so the group kept is the one whose visible
   signatures, formatted by gradcli.run.argument_parser, are the list torch itself prints for a call no
   signature takes (or, for a single signature, whose arity torch's "takes N positional arguments" states).
2. tests/goldens/argparse_errors.json: torch's outcome (its TypeError's text, or "ok") for each of those
   functions called with a number first, a list first, an extra positional argument, a float dim and an int
   keepdim, and for the EXAMPLES below: what tests/run/test_argument_parser.py compares gradcli's messages with;
   and torch's output and warning for a program of deprecated overloads (DEPRECATED).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gradcli.run.api import modules, tensor_attributes  # noqa: E402
from gradcli.run.argument_parser import Signature  # noqa: E402

SIGNATURE = re.compile(r"^([a-z_0-9]+)\((.*)\)(\|hidden|\|deprecated)?$")
PRELUDE = ("import numpy as np\n"
           "x = torch.tensor([[1.5, -2.0], [3.0, 0.5]])\n"
           "t0 = torch.tensor(2.0)\n"  # a 0-d tensor: torch takes it for a number unless it requires grad
           "tg = torch.tensor(2.0, requires_grad=True)\n"
           "i0 = torch.tensor(1)\n"
           "w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))")
# Calls written by hand: the issue's examples, the Scalar overloads torch takes a number first in, what only
# values decide (a 0-d tensor as a number), keywords torch lists in its std::unordered_map's order.
EXAMPLES = """
torch.exp(2.0)
torch.sqrt([1.0, 2.0])
torch.sin(2)
torch.relu(2.0)
torch.tanh([1.0])
torch.sum([1.0, 2.0])
torch.abs(-2)
torch.max(2.0, torch.tensor(1.))
torch.minimum(2.0, x)
torch.clamp_min(2.0, x)
torch.copysign(2.0, x)
torch.lerp(2.0, x, 0.5)
torch.log(x, 3)
torch.sum(2.0, x)
torch.sum(x, 2.0)
torch.sum(x, 1.0)
torch.add(2.0, x)
torch.sub(2, x)
torch.mul(2.0, x)
torch.div(2.0, x)
torch.true_divide(2.0, x)
torch.floor_divide(2.0, x)
torch.remainder(2.0, x)
torch.pow(2.0, x)
torch.float_power(2.0, x)
torch.xlogy(2.0, x)
torch.add(x, x, alpha=t0)
torch.add(x, x, alpha=tg)
torch.clamp(x, min=t0)
torch.sum(x, i0)
torch.sum(x, t0)
torch.sum(x, tg)
torch.max(2.0, w)
torch.exp(w, 1)
torch.cat([x, 1.0])
torch.cat((x, [1.0]))
torch.stack([x, x], 1.0)
torch.sum(x, (0, 1.0))
torch.sum(x, [1.0], True)
torch.permute(x, 1, 0)
torch.reshape(x, 4)
torch.reshape(x, (4.0,))
torch.zeros(2, 3.0)
torch.zeros(2.0, 3)
torch.ones((2, 3), 1)
torch.full((2,), 1.0, 2)
torch.sum(x, dtype=float)
torch.sum(x, dtype=1)
torch.max(x, dim=0, keepdim=1, out=None)
torch.clamp(x, min='a', max='b')
torch.std(x, 1.5, keepdim=1)
torch.std(x, unbiased=1.5)
torch.std(x, dim=0, unbiased=1, keepdim=False)
torch.mean(x, axis=0.5)
torch.sum(x, dim=0, axis=0)
torch.exp(x, foo=1)
torch.sum(x, foo=1, bar=2)
torch.exp()
torch.where(x > 0, 1.0, [2.0])
torch.matmul(x, [1.0, 2.0])
torch.softmax(x, 1.0)
torch.softmax(x)
torch.transpose(x, 0, 1.0)
x.exp(1)
x.exp(foo=1)
x.sum(dim=1.0)
x.max(1.0)
x.clamp(min="a")
x.pow()
x.size(1.0)
x.view(2.0)
x.view(2, 2.0)
x.reshape(2.0)
x.permute(0, 1.0)
x.mean(0, 1)
x.std(1.5)
x.add("a")
x.add(2)
x.to(1.0)
x.to(torch.float64)
x.to("cpu", torch.float64)
x.transpose(0, 1.0)
x.expand(2, 2.0)
x.repeat(2.0)
x.sum(input=x)
torch.exp(np.array([1.0]))
torch.add(np.float32(2.0), x)
torch.mul(x, np.float64(2.0))
torch.clamp(x, min=np.float64(0.5))
torch.softmax(x, np.int64(1))
""".strip().split("\n")


def signature_runs() -> dict[str, list[list[str]]]:
    """Every run of consecutive signature strings of one name in libtorch_python.so, by name."""
    data = (Path(torch.__file__).parent / "lib" / "libtorch_python.so").read_bytes()
    runs: dict[str, list[list[str]]] = {}
    last = None
    for raw in re.findall(rb"[\x20-\x7e]{4,}", data):
        text = raw.decode()
        match = SIGNATURE.match(text)
        if not match:
            last = None
            continue
        name = match.group(1)
        if name != last:
            runs.setdefault(name, []).append([])
            last = name
        runs[name][-1].append(text)
    return runs


def probe(fn) -> str:
    try:
        fn(*[object()] * 30)
    except TypeError as e:
        return str(e)
    raise AssertionError("a call with 30 objects was accepted")


def visible(texts: list[str]) -> list[str]:
    sigs = [Signature(t) for t in texts]
    ordered = [s for s in sigs if not s.deprecated] + [s for s in sigs if s.deprecated]
    return [s.describe() for s in ordered if not s.hidden]


NOARGS = ()  # a method CPython calls without arguments (METH_NOARGS: x.exp()): no parser, Python's own message


def choose(name: str, runs: list[list[str]], fn):
    message = probe(fn)
    if message == f"Tensor.{name}() takes no arguments (30 given)":
        return NOARGS
    if " but expected one of:\n" in message:
        printed = [line[3:] for line in message.split("\n") if line.startswith(" * ")]
    elif ", but expected (" in message:
        printed = [message.split(", but expected ", 1)[1]]
    else:
        printed = None
    for run in runs:
        try:
            sigs = [Signature(t) for t in run]
        except KeyError as unknown:
            print(f"  {name}: unknown parameter type {unknown} in {run}", file=sys.stderr)
            continue
        if printed is not None:
            if len(sigs) > 1 and visible(run) == printed:
                return run
        elif len(sigs) == 1:
            try:
                sigs[0].extra_args(30)
            except TypeError as e:
                if str(e) == message:
                    return run
    if printed:  # a string two parsers share is stored once (median(Tensor input)): gather the printed ones
        found = {}
        for run in runs:
            for text in run:
                shown = visible([text])
                if shown and shown[0] in printed:
                    found.setdefault(shown[0], text)
        if len(found) == len(printed):
            best = max(runs, key=lambda run: len(set(visible(run)) & set(printed)))
            return [found[p] for p in printed] + [t for t in best if not visible([t])]
    print(f"  {name}: no signature group matches torch's {message!r}", file=sys.stderr)
    return None


# -- the generated calls ---------------------------------------------------------------------------------------

VALUES = {"tensor": "x", "scalar": "2", "int": "0", "symint": "0", "double": "0.5", "complex": "0.5",
          "bool": "True", "intlist": "[0]", "symintlist": "[2, 2]", "tensorlist": "[x, x]",
          "floatlist": "[0.5]", "dtype": "torch.float64", "string": "'mean'", "device": "'cpu'"}


def calls(call: str, texts) -> list[tuple[str, str]]:
    if texts == NOARGS:
        return [("extra positional", f"{call}(1)")]
    sigs = [Signature(t) for t in texts]
    shown = [s for s in sigs if not s.hidden] or sigs
    first = shown[0]
    base = []
    for p in first.params:
        if p.optional or p.keyword_only:
            break
        if p.code not in VALUES:
            return []
        base.append(VALUES[p.code])
    out = []
    if base:
        out.append(("number first", f"{call}({', '.join(['2.0', *base[1:]])})"))
        out.append(("list first", f"{call}({', '.join(['[1.0, 2.0]', *base[1:]])})"))
    most = max(s.max_pos_args for s in sigs)
    out.append(("extra positional", f"{call}({', '.join(base + ['1'] * (most + 1 - len(base)))})"))
    with_dim = [s for s in shown if any(p.name == "dim" for p in s.params)]
    if with_dim:
        index = min(next(i for i, p in enumerate(s.params) if p.name == "dim") for s in with_dim)
        args = list(base)
        if index < len(args):
            args[index] = "1.0"
        elif index == len(args) and not any(p.name == "dim" and p.keyword_only for s in with_dim for p in s.params):
            args.append("1.0")
        else:
            args.append("dim=1.0")
        out.append(("float dim", f"{call}({', '.join(args)})"))
    if any(p.name == "keepdim" for s in shown for p in s.params):
        needs_dim = all(p.name != "dim" for p in first.params[:len(base)])
        out.append(("int keepdim", f"{call}({', '.join([*base, *(['dim=0'] if needs_dim else []), 'keepdim=1'])})"))
    return out


# Programs of deprecated overloads (x.add_(-0.1, y), torch.addmm(beta, input, alpha, mat1, mat2)): torch takes them
# with a warning, once per process (TORCH_WARN_ONCE), and computes as the signature that replaced them.
DEPRECATED = """import torch
x = torch.tensor([1.0, 2.0])
y = torch.tensor([0.5, 0.25])
x.add_(-0.1, y)
print(x)
print(torch.add(x, 2, y))
print(torch.sub(x, 2, y))
print(x.sub(3, y))
print(x.add(3, y))
x.sub_(0.5, y)
print(x)
print(torch.addcmul(x, 0.5, y, y))
print(x.addcdiv(0.5, y, y))
print(x.addcmul(2, y, y))
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(torch.addmm(0.5, m, 2.0, m, m))
print(torch.addmm(0.5, m, m, m))
print(m.addmm(0.5, 2.0, m, m))
print(m.addmm(0.5, m, m))
print(torch.add(x, 2, y, out=torch.empty(2)))
"""
RECORD = """import contextlib, io, json, sys, warnings
out = io.StringIO()
with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
    warnings.simplefilter("always")
    exec(sys.stdin.read(), {})
print(json.dumps({"stdout": out.getvalue(), "warnings": [str(w.message) for w in caught]}))
"""


def record_program(source: str) -> dict:
    """torch's output and warnings for a program, in a process of its own (warnings torch shows once)."""
    done = subprocess.run([sys.executable, "-c", RECORD], input=source, capture_output=True, text=True, check=True)
    return {"program": source, **json.loads(done.stdout)}


def outcome(source: str) -> str:
    namespace = {"torch": torch}
    exec(PRELUDE, namespace)
    try:
        eval(source, namespace)
    except Exception as e:  # noqa: BLE001 - every outcome is recorded
        return f"{type(e).__name__}: {e}"
    return "ok"


def table(title: str, chosen: dict) -> list[str]:
    lines = [f"{title} = {{"]
    for name, run in chosen.items():
        lines.append(f"    {name!r}: (")
        lines.extend(f"        {text!r}," for text in run)
        lines.append("    ),")
    return [*lines, "}"]


def main() -> None:
    runs = signature_runs()
    members = modules()["torch"].members  # what a program sees as torch.NAME
    names = sorted(n for n, value in members.items() if callable(value) and
                   type(getattr(torch, n, None)).__name__ == "builtin_function_or_method")
    chosen = {}
    for name in names:
        run = choose(name, runs.get(name, []), getattr(torch, name))
        if run is not None:
            chosen[name] = run
    methods = {}
    for name in sorted(tensor_attributes()):
        if type(getattr(torch.Tensor, name, None)).__name__ == "method_descriptor":
            run = choose(name, runs.get(name, []), getattr(torch.tensor([1.0]), name))
            if run is not None:
                methods[name] = run
    lines = ["# ruff: noqa: E501 - torch's strings, one per line",
             '"""Generated by scripts/make_torch_signatures.py from torch ' + torch.__version__.split("+")[0] +
             "'s libtorch_python.so: the signature strings of\ntorch's argument parser for each torch.NAME "
             "(SIGNATURES) and Tensor.NAME (METHODS; () for a method that takes\nno arguments) gradcli has (see "
             'gradcli/run/argument_parser.py).  Do not edit."""', "", *table("SIGNATURES", chosen), "",
             *table("METHODS", methods)]
    (ROOT / "gradcli/run/torch_signatures.py").write_text("\n".join(lines) + "\n")
    goldens = [{"name": name, "kind": kind, "call": source, "torch": outcome(source)}
               for name, run in chosen.items() for kind, source in calls(f"torch.{name}", run)]
    goldens += [{"name": name, "kind": f"method, {kind}", "call": source, "torch": outcome(source)}
                for name, run in methods.items() for kind, source in calls(f"x.{name}", run)]
    goldens += [{"name": source[source.index(".") + 1:source.index("(")], "kind": "example", "call": source,
                 "torch": outcome(source)} for source in EXAMPLES]
    (ROOT / "tests/goldens/argparse_errors.json").write_text(
        json.dumps({"torch": torch.__version__, "prelude": PRELUDE, "calls": goldens,
                    "deprecated": record_program(DEPRECATED)}, indent=1) + "\n")
    print(f"{len(chosen)} of {len(names)} functions, {len(methods)} methods; {len(goldens)} calls, "
          f"{sum(g['torch'].startswith('TypeError') for g in goldens)} raising TypeError", file=sys.stderr)


if __name__ == "__main__":
    main()
