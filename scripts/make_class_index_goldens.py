"""Generate tests/goldens/class_indices.json: PyTorch 2.13 on the losses and ops that take class indices or
index tensors, with the targets typed as `gradcli eval --const` types them (issue 29, item 1).

Each case is a calculator expression, its tensors that require grad (float64) and its constants written as
the command line writes them (`t=[0, 2]`, `t=[0.]`, `t=tensor([1])`, `t=long([0.7])`, `t=True`); the recorder
builds each constant with the torch call that text stands for (torch.tensor of the literal, .long()), runs the
expression and backward(ones), and keeps the output, every .grad, or the error's type and first line.
Dev-only: the test suite never imports torch.

    python scripts/make_class_index_goldens.py
"""

from __future__ import annotations

import ast
import json
import warnings
from pathlib import Path

import torch
import torch.nn.functional as F

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "class_indices.json"

Z = [[2.0, 1.0, 0.1], [0.5, -1.0, 3.0]]
Z1 = [[2.0, 1.0, 0.1]]
Z3 = [[[2.0, 0.3], [1.0, -0.7], [0.1, 1.5]]]  # (N=1, C=3, d=2)
P = [[0.7, 0.2, 0.1], [0.0, 0.5, 0.5]]

CASES = [
    # cross_entropy: class indices (int64), every reduction, weight, ignore_index, label smoothing
    ("F.cross_entropy(z, t)", {"z": Z1}, {"t": "[0]"}),
    ("F.cross_entropy(z, t)", {"z": Z}, {"t": "[0, 2]"}),
    ("F.cross_entropy(z, t, reduction='sum')", {"z": Z}, {"t": "[1, 2]"}),
    ("F.cross_entropy(z, t, reduction='none').sum()", {"z": Z}, {"t": "[2, 0]"}),
    ("F.cross_entropy(z, t, weight=w)", {"z": Z}, {"t": "[0, 2]", "w": "[0.2, 1.0, 3.0]"}),
    ("F.cross_entropy(z, t, ignore_index=1)", {"z": Z}, {"t": "[1, 2]"}),
    ("F.cross_entropy(z, t, label_smoothing=0.1)", {"z": Z}, {"t": "[0, 2]"}),
    ("F.cross_entropy(z, t)", {"z": [2.0, 1.0, 0.1]}, {"t": "1"}),
    ("F.cross_entropy(z, t)", {"z": Z3}, {"t": "[[2, 0]]"}),
    ("F.cross_entropy(z, t)", {"z": Z}, {"t": "tensor([0, 2])"}),
    ("F.cross_entropy(z, t)", {"z": Z}, {"t": "long([0.7, 2.2])"}),
    ("F.cross_entropy(z, t)", {"z": Z}, {"t": "int([0, 2])"}),
    ("F.cross_entropy(z, t)", {"z": Z}, {"t": "arange(2)"}),
    # cross_entropy: class probabilities (a float target of the input's shape)
    ("F.cross_entropy(z, p)", {"z": Z}, {"p": str(P)}),
    ("F.cross_entropy(z, p, label_smoothing=0.2)", {"z": Z}, {"p": str(P)}),
    ("F.cross_entropy(z, p)", {"z": Z}, {"p": "[[1, 0, 0], [0, 0, 1]]"}),  # integers: not probabilities
    # float targets where class indices are expected: torch's own errors
    ("F.cross_entropy(z, t)", {"z": Z1}, {"t": "[0.]"}),
    ("F.cross_entropy(z, t)", {"z": Z}, {"t": "[0., 2.]"}),
    ("F.cross_entropy(z, t)", {"z": Z1}, {"t": "[0., 1.]"}),
    ("F.cross_entropy(z, t)", {"z": Z1}, {"t": "0."}),
    ("F.cross_entropy(z, t)", {"z": [2.0, 1.0, 0.1]}, {"t": "1."}),
    ("F.cross_entropy(z, t, label_smoothing=0.1)", {"z": Z1}, {"t": "[0.]"}),
    ("F.cross_entropy(z, t)", {"z": Z1}, {"t": "[True]"}),
    ("F.nll_loss(z, t)", {"z": Z1}, {"t": "[0.]"}),
    ("F.nll_loss(z, t)", {"z": Z1}, {"t": "[0., 1.]"}),
    ("F.nll_loss(z, t)", {"z": Z1}, {"t": "0."}),
    ("F.multi_margin_loss(z, t)", {"z": Z1}, {"t": "[0.]"}),
    ("F.multi_margin_loss(z, t)", {"z": Z1}, {"t": "[0, 1]"}),
    # other shapes and values of integer targets
    ("F.cross_entropy(z, t)", {"z": Z1}, {"t": "[0, 1]"}),
    ("F.cross_entropy(z, t)", {"z": Z1}, {"t": "0"}),
    ("F.cross_entropy(z, t)", {"z": Z1}, {"t": "[3]"}),
    ("F.cross_entropy(z, t)", {"z": Z}, {"t": "[[0, 2]]"}),
    ("F.cross_entropy(z, t)", {"z": Z}, {"t": "[0, -100]"}),
    # nll_loss, multi_margin_loss
    ("F.nll_loss(z.log_softmax(1), t)", {"z": Z}, {"t": "[0, 2]"}),
    ("F.nll_loss(z, t, reduction='sum')", {"z": Z}, {"t": "[1, 1]"}),
    ("F.nll_loss(z, t)", {"z": [0.5, -1.0, 3.0]}, {"t": "2"}),
    ("F.multi_margin_loss(z, t)", {"z": Z}, {"t": "[0, 2]"}),
    ("F.multi_margin_loss(z, t, p=2, margin=0.5)", {"z": Z}, {"t": "[1, 0]"}),
    ("F.multi_margin_loss(z, t, reduction='sum')", {"z": Z}, {"t": "[2, 2]"}),
    # index tensors
    ("(F.one_hot(t, 3) * z).sum()", {"z": Z}, {"t": "[0, 2]"}),
    ("F.one_hot(t).sum() * z.sum()", {"z": Z}, {"t": "[0., 2.]"}),
    ("z.gather(1, i).sum()", {"z": Z}, {"i": "[[0], [2]]"}),
    ("z.gather(1, i).sum()", {"z": Z}, {"i": "[[0.], [2.]]"}),
    ("torch.index_select(z, 1, i).sum()", {"z": Z}, {"i": "[2, 0, 2]"}),
    ("torch.index_select(z, 1, i).sum()", {"z": Z}, {"i": "[2., 0.]"}),
    ("F.embedding(i, z).sum()", {"z": Z}, {"i": "[1, 0, 1]"}),
    ("F.embedding(i, z).sum()", {"z": Z}, {"i": "[1., 0.]"}),
    ("z[i].sum()", {"z": Z}, {"i": "[1, 1, 0]"}),
    ("z[:, i].pow(2).sum()", {"z": Z}, {"i": "[2, 0]"}),
    ("z[i].sum()", {"z": Z}, {"i": "[1., 0.]"}),
    ("z[m].sum()", {"z": Z}, {"m": "[[True, False, True], [False, False, True]]"}),
    ("torch.take_along_dim(z, i, dim=1).sum()", {"z": Z}, {"i": "[[0], [1]]"}),
    # integer constants in arithmetic: type promotion as torch's
    ("(z * n).sum()", {"z": Z}, {"n": "3"}),
    ("(z / n).sum()", {"z": Z}, {"n": "[2, 4, 8]"}),
    ("(z ** n).sum()", {"z": Z}, {"n": "2"}),
    ("(z + n // 2).sum()", {"z": Z}, {"n": "[3, 5, 7]"}),
]


def torch_value(text: str) -> torch.Tensor:
    """The torch tensor a --const value text stands for."""
    tree = ast.parse(text, mode="eval").body
    if isinstance(tree, ast.Call):
        inner = ast.literal_eval(tree.args[0]) if tree.func.id != "arange" else None
        if tree.func.id == "tensor":
            return torch.tensor(inner)
        if tree.func.id in ("long", "int"):
            return torch.tensor(inner).long()
        if tree.func.id == "arange":
            return torch.arange(*(ast.literal_eval(a) for a in tree.args))
    data = ast.literal_eval(text)
    value = torch.tensor(data)
    # the calculator's floats are float64: made from the literal, never through float32
    return torch.tensor(data, dtype=torch.float64) if value.is_floating_point() else value


def record(expression: str, values: dict, consts: dict) -> dict:
    leaves = {name: torch.tensor(v, dtype=torch.float64, requires_grad=True) for name, v in values.items()}
    env = {**leaves, **{name: torch_value(text) for name, text in consts.items()}, "torch": torch, "F": F}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = eval(expression, {"__builtins__": {}}, env)  # noqa: S307 - the fixed list above
            out.backward(torch.ones_like(out))
    except Exception as err:  # noqa: BLE001 - the error is the golden
        return {"error": str(err).split("\n")[0], "error_type": type(err).__name__}
    return {"output": out.detach().tolist(), "dtype": str(out.dtype).removeprefix("torch."),
            "grads": {n: None if t.grad is None else t.grad.tolist() for n, t in leaves.items()},
            "const_dtypes": {n: str(env[n].dtype).removeprefix("torch.") for n in consts}}


def main() -> None:
    cases = [{"expression": e, "values": v, "consts": c, **record(e, v, c)} for e, v, c in CASES]
    lines = ",\n".join("  " + json.dumps(case) for case in cases)  # one case a line: readable diffs
    OUT.write_text(f'{{"torch": "{torch.__version__}", "cases": [\n{lines}\n]}}\n')
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
