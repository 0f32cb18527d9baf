"""`gradcli explain`: how backward() reached its answer.

The computation graph from the output down to the inputs (walking `grad_fn.next_functions`), each node
with its operation, shape, forward value, the gradient that flowed into it during backward (recorded by
the engine's backward observer) and its local derivative rule in words.  For a scalar function of scalar
inputs, also the chain rule step by step: each intermediate value u₁, u₂ ... as a sympy formula, each
local derivative, and the numbers, ending in the gradients `gradcli eval` prints.
"""

from __future__ import annotations

import ast
import copy
import math
import re
import shlex
import time
from dataclasses import dataclass, field

import numpy as np

from gradcli.engine import Tensor, dtypes
from gradcli.engine.autograd import Function, run_backward
from gradcli.engine.ops.joint_node import Parcel
from gradcli.engine.ops.linalg import MatMul
from gradcli.homework.reading import pytorch_expression
from gradcli.lang.evaluation import const_array, engine_settings, evaluate_expression
from gradcli.lang.evaluator import EngineBackend, evaluate
from gradcli.lang.parser import parse
from gradcli.safety.errors import EvalError, GradcliError
from gradcli.safety.guard import time_limit
from gradcli.safety.limits import Limits

SLOTS = "abcdefgh"  # names of a node's inputs in the rules below

# grad_fn name -> (the operation, its local derivative rule)
RULES = {
    "AddBackward0": ("a + b", "∂(a+b)/∂a = 1, ∂(a+b)/∂b = 1"),
    "SubBackward0": ("a − b", "∂(a−b)/∂a = 1, ∂(a−b)/∂b = −1"),
    "RsubBackward1": ("c − a", "∂(c−a)/∂a = −1"),
    "MulBackward0": ("a · b", "∂(a·b)/∂a = b, ∂(a·b)/∂b = a"),
    "DivBackward0": ("a / b", "∂(a/b)/∂a = 1/b, ∂(a/b)/∂b = −a/b²"),
    "NegBackward0": ("−a", "∂(−a)/∂a = −1"),
    "ReciprocalBackward0": ("1 / a", "∂(1/a)/∂a = −1/a²"),
    "PowBackward0": ("a ^ c", "∂(a^c)/∂a = c·a^(c − 1)"),
    "PowBackward1": ("a ^ b", "∂(a^b)/∂a = b·a^(b − 1), ∂(a^b)/∂b = a^b·ln(a)"),
    "PowBackward2": ("c ^ a", "∂(c^a)/∂a = c^a·ln(c)"),
    "ExpBackward0": ("exp(a)", "∂exp(a)/∂a = exp(a)"),
    "LogBackward0": ("log(a)", "∂log(a)/∂a = 1/a"),
    "SinBackward0": ("sin(a)", "∂sin(a)/∂a = cos(a)"),
    "CosBackward0": ("cos(a)", "∂cos(a)/∂a = −sin(a)"),
    "TanBackward0": ("tan(a)", "∂tan(a)/∂a = 1 + tan²(a)"),
    "TanhBackward0": ("tanh(a)", "∂tanh(a)/∂a = 1 − tanh²(a)"),
    "SigmoidBackward0": ("σ(a)", "∂σ(a)/∂a = σ(a)·(1 − σ(a))"),
    "ReluBackward0": ("relu(a)", "∂relu(a)/∂a = 1 where a > 0, else 0"),
    "SqrtBackward0": ("√a", "∂√a/∂a = 1/(2·√a)"),
    "AbsBackward0": ("|a|", "∂|a|/∂a = sign(a), 0 at a = 0"),
    "ClampBackward1": ("clamp(a)", "1 where min ≤ a ≤ max, else 0"),
    "SumBackward0": ("sum(a)", "every element of a receives the gradient of the sum"),
    "SumBackward1": ("sum(a, dim)", "every element of a receives the gradient of its sum"),
    "MeanBackward0": ("mean(a)", "every element of a receives the gradient / n"),
    "MeanBackward1": ("mean(a, dim)", "every element of a receives the gradient of its mean / n"),
    "MaxBackward1": ("max(a)", "the maxima share the gradient evenly, the rest get 0"),
    "MinBackward1": ("min(a)", "the minima share the gradient evenly, the rest get 0"),
    "MaxBackward0": ("max(a, dim)", "the selected element of each slice gets the gradient, the rest 0"),
    "MinBackward0": ("min(a, dim)", "the selected element of each slice gets the gradient, the rest 0"),
    "MmBackward0": ("a @ b", "∂/∂a = G·bᵀ, ∂/∂b = aᵀ·G (G: the incoming gradient)"),
    "DotBackward0": ("a · b (dot)", "∂/∂a = G·b, ∂/∂b = G·a"),
    "MvBackward0": ("a @ b (matrix·vector)", "∂/∂a = G·bᵀ, ∂/∂b = aᵀ·G"),
    "SoftmaxBackward0": ("softmax(a)", "∂/∂a = y·(G − Σ G·y), y = softmax(a)"),
    "LogSoftmaxBackward0": ("log_softmax(a)", "∂/∂a = G − softmax(a)·Σ G"),
    "ViewBackward0": ("view(a)", "the gradient is reshaped back to a's shape"),
    "UnsafeViewBackward0": ("reshape(a)", "the gradient is reshaped back to a's shape"),
    "TransposeBackward0": ("transpose(a)", "the gradient is transposed back"),
    "TBackward0": ("a.T", "the gradient is transposed back"),
    "PermuteBackward0": ("permute(a)", "the gradient's dims are permuted back"),
    "ExpandBackward0": ("expand(a)", "the gradient is summed over the broadcast dims"),
    "SqueezeBackward0": ("squeeze(a)", "the gradient is reshaped back to a's shape"),
    "SqueezeBackward1": ("squeeze(a, dim)", "the gradient is reshaped back to a's shape"),
    "UnsqueezeBackward0": ("unsqueeze(a)", "the gradient is reshaped back to a's shape"),
    "SelectBackward0": ("a[i]", "the gradient goes to the selected elements, zeros elsewhere"),
    "SliceBackward0": ("a[i:j]", "the gradient goes to the selected elements, zeros elsewhere"),
    "IndexBackward0": ("a[index]", "the gradient goes to the selected elements (summed where repeated)"),
    "AliasBackward0": ("a[...]", "the gradient passes through"),
    "WhereBackward0": ("where(c, a, b)", "a gets the gradient where c holds, b where it does not"),
    "CloneBackward0": ("clone(a)", "the gradient passes through"),
    "SignBackward0": ("sign(a)", "∂sign(a)/∂a = 0"),
    "MseLossBackward0": ("mse_loss(a, b)", "∂/∂a = 2·(a − b)/n, ∂/∂b = −2·(a − b)/n"),
}
_MATMUL_RULE = ("a @ b", "∂/∂a = G·bᵀ, ∂/∂b = aᵀ·G (G: the incoming gradient)")


def describe(node) -> tuple[str, str]:
    """(operation, local derivative rule) of a graph node."""
    if node.name in RULES:
        return RULES[node.name]
    if isinstance(node, MatMul):  # matmul's nodes carry the names of torch's views (UnsafeView, Clone ...)
        return _MATMUL_RULE
    op = re.sub(r"Backward\d*$", "", node.name).lower()
    return f"{op}(a)", f"the local derivative of {op}"


@dataclass
class GraphNode:
    id: int
    label: str  # L for the output, u1, u2 ... for intermediate values, the tensor's name for inputs
    grad_fn: str | None  # None for an input (a leaf)
    op: str
    rule: str
    shape: tuple
    value: np.ndarray | None  # None when the engine made it inside a composite op and kept no value
    grad: np.ndarray | None  # ∂L/∂(this value): what flowed in during backward (.grad for inputs)
    children: list[tuple[str, int]] = field(default_factory=list)  # (slot a/b/..., node id)
    operands: dict[str, str] = field(default_factory=dict)  # slot a/b/c -> what it is: u1, x, the constant 2


@dataclass
class ChainTerm:
    parent: str  # the value that uses the target
    parent_grad: float  # ∂L/∂parent
    local: str  # ∂parent/∂target in the names u1, x ...
    local_value: float


@dataclass
class ChainStep:
    target: str
    terms: list[ChainTerm]
    formula: str  # ∂L/∂target in the inputs
    value: float  # from backward: the number `eval` prints for an input
    textbook: str | None = None  # the formula simplified, in homework notation (σ, ln, e^x)


@dataclass
class Explanation:
    expression: str
    output: np.ndarray
    nodes: list[GraphNode]  # nodes[0] is the output
    grads: dict[str, np.ndarray | None]
    forward: list[tuple[str, str, str, float]] = field(default_factory=list)  # (u, in u's, in inputs, value)
    steps: list[ChainStep] = field(default_factory=list)
    note: str | None = None  # why there is no chain rule section
    homework: bool = False  # the expression was read as homework notation
    forward_textbook: dict[str, tuple[str, str]] = field(default_factory=dict)  # u -> (local, in the inputs)
    warnings: list[str] = field(default_factory=list)  # as eval's: unused tensors, nan/inf from finite inputs

    def node(self, label: str) -> GraphNode:
        return next(n for n in self.nodes if n.label == label)


class _Recorder:
    """A Backend that forwards to another and remembers each call: (method, arguments, result)."""

    def __init__(self, inner):
        self.inner = inner
        self.calls = []

    def variable(self, name):
        return self._record("variable", name)

    def binary(self, op, a, b):
        return self._record("binary", op, a, b)

    def unary(self, op, a):
        return self._record("unary", op, a)

    def compare(self, op, a, b):
        return self._record("compare", op, a, b)

    def call(self, spec, args, kwargs):
        return self._record("call", spec, list(args), dict(kwargs))

    def method(self, obj, spec, args, kwargs):
        return self._record("method", obj, spec, list(args), dict(kwargs))

    def attribute(self, obj, name):
        return self._record("attribute", obj, name)

    def getitem(self, obj, key):
        return self._record("getitem", obj, key)

    def _record(self, method, *args):
        copies = tuple(list(a) if isinstance(a, list) else dict(a) if isinstance(a, dict) else a for a in args)
        result = getattr(self.inner, method)(*copies)  # EngineBackend may edit its argument lists
        self.calls.append((method, args, result))
        return result


_PYTORCH_ONLY = re.compile(r"\btorch\.|\bF\.|\.\s*[A-Za-z_]\w*\s*\(|\*\*|@|\[|\bdim\s*=")


def reads_as_homework(text: str, known: frozenset = frozenset()) -> bool:
    """Homework notation (ln, 2x, e^(wx+b), sec x ...) rather than PyTorch syntax: the text is not valid
    PyTorch syntax, or the homework reader reads it differently; never when it uses PyTorch-only forms."""
    if _PYTORCH_ONLY.search(text):
        return False
    try:
        as_pytorch = parse(text, known_variables=known)
    except GradcliError:  # homework notation, if the homework reader can read it; else PyTorch's error stands
        try:
            pytorch_expression(text, known)
        except GradcliError:
            return False
        return True
    try:
        rewritten, _ = pytorch_expression(text, known)
        as_homework = parse(rewritten, known_variables=known)
    except GradcliError:
        return False
    return ast.dump(_normal(as_homework.tree)) != ast.dump(_normal(as_pytorch.tree))


def _normal(tree):
    """The tree with ^ read as ** (both parsers' meaning of ^) for comparing two readings."""
    tree = copy.deepcopy(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitXor):
            node.op = ast.Pow()
    return tree


def explain(expression: str, inputs: dict[str, np.ndarray], consts: dict[str, np.ndarray] | None = None, *,
            grad_output: np.ndarray | None = None, dtype: dtypes.DType = dtypes.float64,
            limits: Limits | None = None, timeout: float = 5.0, homework: bool | None = None) -> Explanation:
    """`homework`: read the expression as homework notation (None: decide by `reads_as_homework`)."""
    consts = consts or {}
    limits = limits or Limits()
    taken = sorted(n for n in (*inputs, *consts) if n == "L" or re.fullmatch(r"u\d+", n))
    if taken:  # the steps name the output L and the intermediate values u1, u2 ...: a tensor so named would blur
        raise EvalError(f"'{taken[0]}' names a step of the explanation (L is the output, u1, u2 ... the "
                        "intermediate values)", hint=f"give the tensor '{taken[0]}' another name")
    text = expression
    known = frozenset(inputs) | frozenset(consts)
    if homework is None:
        homework = reads_as_homework(expression, known)
    if homework:
        expression, renamed = pytorch_expression(expression, known, limits)  # errors point into the text
        inputs = {renamed.get(k, k): v for k, v in inputs.items()}
        consts = {renamed.get(k, k): v for k, v in consts.items()}
    try:
        result = evaluate_expression(expression, inputs, consts, grad_output=grad_output, dtype=dtype, limits=limits)
    except EvalError as err:
        if err.message.startswith("no value given for") and err.hint:  # explain walks a graph at a point
            err.hint += f"; or the rules without values: gradcli steps {shlex.quote(expression)}"
        raise
    if result.error is not None:
        raise EvalError(result.error, hint="pass --grad-output VALUE for a non-scalar output"
                        if "scalar outputs" in result.error else None)
    with engine_settings(dtype, limits), time_limit(limits.max_seconds):
        leaves = {name: Tensor._make(np.array(v, dtype=dtype.np), None).requires_grad_(True)
                  for name, v in inputs.items()}
        constants = {name: Tensor._make(const_array(v, dtype), None) for name, v in consts.items()}
        recorder = _Recorder(EngineBackend({**leaves, **constants}, dtype))
        out = evaluate(result.program, recorder)
        if not isinstance(out, Tensor):
            out = Tensor._make(np.asarray(float(out), dtype=dtype.np), None)
        incoming = {}
        if out.requires_grad:
            seed = np.ones_like(out.array) if grad_output is None else np.asarray(grad_output, dtype=out.array.dtype)
            run_backward([out], [seed], retain_graph=True, create_graph=False,
                         observer=lambda node, grad: isinstance(grad, Parcel) or incoming.__setitem__(node, grad))
    labels = _labels(recorder.calls, leaves, out)
    node_labels = {t.grad_fn: labels[id(t)] for _, _, t in recorder.calls if _is_node(t)}
    nodes = _graph(out, leaves, node_labels, _values(recorder.calls), incoming,
                   _constant_operands(recorder.calls, constants))
    explanation = Explanation(text, out.array, nodes,
                              {name: None if t._grad is None else t._grad.array for name, t in leaves.items()},
                              homework=homework, warnings=list(result.warnings))
    _chain_rule(explanation, recorder.calls, labels, leaves, constants, out, incoming, timeout)
    return explanation


def _operands(method, args) -> list:
    """The operands of a recorded backend call, in order."""
    if method in ("binary", "compare"):
        return [args[1], args[2]]
    if method == "unary":
        return [args[1]]
    if method == "call":
        return list(args[1])
    if method == "method":
        return [args[0], *args[2]]
    return []


def _constant_operands(calls, constants) -> dict:
    """grad_fn -> the texts of its operands that are not graph nodes (numbers, --const tensors), in order."""
    from gradcli.render.symbolic_render import short_number

    names = {id(t): name for name, t in constants.items()}
    found = {}
    for method, args, result in calls:
        if not _is_node(result):
            continue
        texts = []
        for operand in _operands(method, args):
            if isinstance(operand, Tensor) and operand.requires_grad:
                continue
            if id(operand) in names:
                texts.append(names[id(operand)])
            elif isinstance(operand, (int, float)) and not isinstance(operand, bool):
                texts.append({math.e: "e", math.pi: "π"}.get(float(operand), short_number(float(operand))))
            elif isinstance(operand, Tensor) and operand.array.ndim == 0:
                texts.append(short_number(float(operand.array)))
        found[result.grad_fn] = texts
    return found


def _is_node(value) -> bool:
    return isinstance(value, Tensor) and value.grad_fn is not None


def _labels(calls, leaves, out) -> dict[int, str]:
    """id(tensor) -> its name: the inputs' names, u1, u2 ... in the order they were computed, L last."""
    labels = {id(t): name for name, t in leaves.items()}
    count = 0
    for _, _, result in calls:
        if _is_node(result) and id(result) not in labels:
            count += 1
            labels[id(result)] = f"u{count}"
    if out.grad_fn is not None:
        labels[id(out)] = "L"
    return labels


def _values(calls) -> dict[Function, np.ndarray]:
    return {result.grad_fn: result.array for _, _, result in calls if _is_node(result)}


def _graph(out, leaves, node_labels, values, incoming, constants=None) -> list[GraphNode]:
    """The nodes from the output down (depth first, inputs in order); a shared node appears once."""
    leaf_names = {id(t): name for name, t in leaves.items()}
    nodes: list[GraphNode] = []
    index: dict[int, int] = {}

    def visit(item) -> int:
        key = id(item)
        if key in index:
            return index[key]
        node_id = len(nodes)
        index[key] = node_id
        if isinstance(item, Function):
            op, rule = describe(item)
            value = values.get(item, item.out if item.saves_output else None)
            grad = incoming.get(item)
            node = GraphNode(node_id, node_labels.get(item, f"#{node_id}"), item.name, op, rule, tuple(item.out_shape),
                             value, None if grad is None else np.broadcast_to(grad, item.out_shape))
            nodes.append(node)
            # the rules name tensor operands a, b ... in order and a constant c: 2 - x is c − a, e^u is c ^ a
            spare = list((constants or {}).get(item, []))
            letters = iter(SLOTS)
            for child in item.next_functions:
                if child is not None:
                    slot = next(letters)
                    child_id = visit(child)
                    node.children.append((slot, child_id))
                    node.operands[slot] = nodes[child_id].label
            if spare:
                node.operands["c"] = spare[0]
                template = node.op + " " + node.rule
                for slot in letters:
                    if not spare or not re.search(rf"(?<![A-Za-z_]){slot}(?![A-Za-z_])", template):
                        break
                    node.operands[slot] = spare.pop(0)
        else:
            grad = item._grad
            nodes.append(GraphNode(node_id, leaf_names.get(key, "input"), None, "input", "", tuple(item.array.shape),
                                   item.array, None if grad is None else grad.array))
        return node_id

    visit(out.grad_fn if out.grad_fn is not None else out)
    return nodes


def _chain_rule(explanation, calls, labels, leaves, constants, out, incoming, timeout) -> None:
    """Fill `forward` and `steps`: replay the recorded calls on sympy twice, once on the inputs' symbols
    (each value as a formula of the inputs) and once with every value's own operands as symbols (u1, x)
    to differentiate each step locally."""
    tensors = [t for _, _, t in calls if _is_node(t)]
    if out.grad_fn is None:
        explanation.note = "the output is an input: there is no chain to follow"
        return
    if any(t.array.ndim for t in (*leaves.values(), *tensors)):
        explanation.note = "the step-by-step chain rule is shown for scalar functions of scalar inputs"
        return
    from gradcli.verify import symbolic, sympy_forms

    try:
        forms = sympy_forms.cpu_bounded(timeout, _replay_chain, explanation, calls, labels, leaves, constants, incoming)
    except (symbolic.NoSymbolicForm, symbolic.SymbolicTimeout) as err:
        explanation.forward, explanation.steps = [], []
        explanation.note = f"no step-by-step chain rule: {err.message}"
        return
    except Exception as err:  # noqa: BLE001 - the steps are an extra: sympy failing there never fails explain
        explanation.forward, explanation.steps = [], []
        explanation.note = f"no step-by-step chain rule: sympy failed ({type(err).__name__}: {str(err)[:120]})"
        return
    try:
        _textbook_forms(explanation, forms, list(leaves), min(timeout, TEXTBOOK_BUDGET))
    except Exception:  # noqa: BLE001 - simplified forms are an extra: the raw chain rule above still stands
        pass


TEXTBOOK_BUDGET = 4.0  # seconds of CPU time for simplifying every formula of the chain rule together


def _textbook_forms(explanation, forms, inputs, budget) -> None:
    """Each value and each input's gradient in homework notation, simplified (σ(u) for the sigmoid):
    for binary cross-entropy ∂L/∂w = x·(σ(b + w·x) - y)."""
    import sympy as sp

    from gradcli.homework.textbook import style_for, textbook_form, to_text, with_sigma

    style = style_for(explanation.expression)
    deadline = time.process_time() + budget  # CPU time, as every sympy budget of the homework commands
    for label, (local, full) in forms["forward"].items():
        explanation.forward_textbook[label] = (to_text(with_sigma(local), style), to_text(with_sigma(full), style))
    symbols = forms["symbols"]
    loss = with_sigma(forms["loss"])
    for step in explanation.steps:
        if step.target in inputs and step.target in symbols:
            gradient = with_sigma(sp.diff(loss, symbols[step.target]))
        elif step.target in forms["totals"]:
            gradient = with_sigma(forms["totals"][step.target])
        else:
            continue
        remaining = max(0.0, deadline - time.process_time())
        step.textbook = to_text(textbook_form(gradient, style, function=loss, budget=remaining), style)


def _replay_chain(explanation, calls, labels, leaves, constants, incoming) -> None:
    import sympy as sp

    from gradcli.verify.symbolic import SympyBackend, tensor_symbols
    from gradcli.verify.sympy_forms import constant_array, number, value_at

    given = {**leaves, **constants}
    symbols = {name: tensor_symbols(name, ()) for name in given}
    point = {symbols[name][()]: sp.Float(float(t.array), 30) for name, t in given.items()}
    placeholders = {}  # id(tensor) -> the symbol standing for it in local formulas
    full = {}  # id(object) -> its sympy value in terms of the inputs
    local_forms = {}  # label -> (formula in its operands' symbols, [operand ids])
    backend = SympyBackend(symbols, point=point)
    scratch = SympyBackend(symbols, point=point)

    def as_full(obj):
        if id(obj) in full:
            return full[id(obj)]
        if isinstance(obj, Tensor):  # a constant made on the way (e.g. a number promoted to a tensor)
            return constant_array(obj.array)
        if isinstance(obj, list):
            return [as_full(o) for o in obj]
        if isinstance(obj, dict):
            return {k: as_full(v) for k, v in obj.items()}
        return obj

    def as_local(obj, operands):
        if isinstance(obj, Tensor) and obj.requires_grad and id(obj) in labels:
            operands.append(id(obj))
            return placeholders.setdefault(id(obj), tensor_symbols(labels[id(obj)], ()))
        if isinstance(obj, list):
            return [as_local(o, operands) for o in obj]
        if isinstance(obj, dict):
            return {k: as_local(v, operands) for k, v in obj.items()}
        return as_full(obj)

    for method, args, result in calls:
        value = getattr(backend, method)(*[as_full(a) for a in args])
        full[id(result)] = value
        if _is_node(result) and labels[id(result)] not in local_forms:
            operands: list[int] = []
            local = getattr(scratch, method)(*[as_local(a, operands) for a in args])
            local_forms[labels[id(result)]] = (sp.sympify(np.asarray(local)[()]), list(dict.fromkeys(operands)))

    order = list(dict.fromkeys(labels[id(t)] for _, _, t in calls if _is_node(t)))
    formula = {label: sp.sympify(np.asarray(full[i])[()]) for i, label in labels.items() if i in full}
    symbol_of = {labels[i]: sp.sympify(np.asarray(s)[()]) for i, s in placeholders.items()}
    in_inputs = {symbol_of[label]: formula[label] for label in order if label in symbol_of}
    computed = {labels[id(t)]: float(np.asarray(t.array).reshape(())) for _, _, t in calls if _is_node(t)}
    for label in order:
        local, _ = local_forms[label]
        # the value autograd computed (log(0) is -inf), not sympy's evaluation of the formula (zoo, unsigned)
        explanation.forward.append((label, sp.sstr(local), sp.sstr(formula[label]), computed[label]))

    grad_of = {labels[id(t)]: float(np.sum(incoming[t.grad_fn])) for _, _, t in calls
               if _is_node(t) and t.grad_fn in incoming}
    grad_of.update({name: float(t._grad.array) for name, t in leaves.items() if t._grad is not None})
    total = {"L": number(grad_of.get("L", 1.0))}
    terms: dict[str, list[ChainTerm]] = {}
    for label in reversed(order):
        local, operands = local_forms[label]
        for operand in operands:
            target = labels[operand]
            derivative = sp.diff(local, symbol_of[target])
            value = value_at(derivative.xreplace(in_inputs), point)
            terms.setdefault(target, []).append(ChainTerm(label, grad_of.get(label, math.nan), sp.sstr(derivative),
                                                          value))
            total[target] = total.get(target, 0) + total.get(label, 0) * derivative.xreplace(in_inputs)
    for target in [*reversed(order), *leaves]:
        if target in terms:
            explanation.steps.append(ChainStep(target, terms[target][::-1], sp.sstr(total[target]),
                                               grad_of.get(target, math.nan)))
    return {"forward": {label: (local_forms[label][0], formula[label]) for label in order},
            "loss": formula.get("L", formula[order[-1]]), "totals": total,
            "symbols": {name: sp.sympify(np.asarray(symbols[name])[()]) for name in given}}


def to_dict(e: Explanation) -> dict:
    """`explain --json`."""
    return {
        "expression": e.expression, "output": e.output,
        "nodes": [{"id": n.id, "label": n.label, "grad_fn": n.grad_fn, "op": n.op, "rule": n.rule,
                   "shape": list(n.shape), "value": n.value, "grad": n.grad,
                   "children": [{"slot": slot, "id": child} for slot, child in n.children]} for n in e.nodes],
        "forward": [{"name": name, "local": local, "formula": formula, "value": value}
                    for name, local, formula, value in e.forward],
        "steps": [{"target": s.target, "formula": s.formula, "value": s.value,
                   "terms": [{"parent": t.parent, "parent_grad": t.parent_grad, "local": t.local,
                              "local_value": t.local_value} for t in s.terms]} for s in e.steps],
        "grads": e.grads, "note": e.note, "warnings": e.warnings,
    }
