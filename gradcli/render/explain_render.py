"""`gradcli explain` output: a rich tree of the graph with the chain rule under it, or Graphviz DOT."""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from rich.tree import Tree

from gradcli.render.symbolic_render import prettify, short_number, subscript_digits
from gradcli.render.text import format_array, format_shape
from gradcli.render.wrap import print_wrapped


def _value(array, linewidth: int | None = None) -> str:
    if array is None:
        return "—"
    return short_number(float(array)) if getattr(array, "ndim", 0) == 0 else format_array(array, linewidth=linewidth)


_TREE_GUIDE = 4  # the cells rich's Tree puts before a node at each level


_SLOT = re.compile(r"(?<![A-Za-z_])([a-h])(?![A-Za-z_])")


_BY_SLOT = re.compile(r"/∂([a-h])\s*=")


def named(template: str, operands: dict, inputs: set | None = None) -> str:
    """A rule written with slots a, b, c, named by the node's own operands: ∂(a·b)/∂a = b -> ∂(w·x)/∂w = x
    (never a local a/b that an input called b would make ambiguous).  `inputs`: the slots that are graph
    inputs; the derivatives by the other (constant) slots are left out."""
    if not operands:
        return template
    if inputs is not None:
        clauses = template.split(", ")
        kept = [c for c in clauses if not (_BY_SLOT.search(c) and _BY_SLOT.search(c).group(1) not in inputs)]
        template = ", ".join(kept or clauses)
    return _numeric_powers(_SLOT.sub(lambda m: subscript_digits(operands.get(m.group(1), m.group(1))), template))


_POWER_MINUS = re.compile(r"\^\((-?\d+(?:\.\d+)?) − (\d+(?:\.\d+)?)\)")


def _numeric_powers(text: str) -> str:
    """A rule with a number in it, worked out as a teacher writes it: ∂(x^2)/∂x = 2·x, not 2·x^(2 − 1)."""
    def exponent(m):
        value = float(m.group(1)) - float(m.group(2))
        shown = str(int(value)) if value.is_integer() else f"{value:g}"
        return "" if shown == "1" else f"^({shown})" if value < 0 else f"^{shown}"

    worked = _POWER_MINUS.sub(exponent, text)
    if worked == text:
        return text
    return _COEFFICIENT.sub(r"= \1\2", worked)  # 2·x as 2x, the way the power rule is written


_COEFFICIENT = re.compile(r"= (\d+(?:\.\d+)?)·([A-Za-z])")


def _node_line(node, torch_names: bool = True, width: int | None = None) -> Text:
    """The node's line: its operation, shape, value and grad on one line when they fit `width` (the cells
    left at its depth of the tree); else value and grad each on lines of their own under it, a matrix as a
    matrix, numpy wrapping a long row with aligned continuation lines, never inside a number."""
    name = subscript_digits(node.label)
    if node.grad_fn is None:
        head = Text.assemble((name, "bold cyan"), ("  input", "dim"))
    else:
        head = Text.assemble((name, "bold"), f" = {named(node.op, node.operands)}")
        if torch_names:
            head.append(f"  {node.grad_fn}", style="dim")
    value, grad = _value(node.value), _value(node.grad)
    inline = f"  shape {format_shape(node.shape)}  value {value}  grad {grad}"
    if "\n" not in value + grad and (width is None or cell_len(head.plain + inline) <= width):
        head.append(f"  shape {format_shape(node.shape)}  value {value}  ")
        head.append(f"grad {grad}", style="green")
    else:
        head.append(f"  shape {format_shape(node.shape)}")
        linewidth = None if width is None else max(width - len("value "), 20)
        for label, array, style in (("value ", node.value, ""), ("grad  ", node.grad, "green")):
            lines = _value(array, linewidth).split("\n")
            head.append("\n" + label + ("\n" + " " * len(label)).join(lines), style=style)
    if node.rule:
        head.append(f"\n{named(node.rule, node.operands, {slot for slot, _ in node.children})}", style="dim")
    return head


def print_explanation(e, console: Console, torch_names: bool | None = None) -> None:
    """`torch_names`: show PyTorch's grad_fn names (AddBackward0 ...); by default not for homework input."""
    if torch_names is None:
        torch_names = not e.homework
    output = _value(e.output, max(console.width - len("output  "), 20)).replace("\n", "\n" + " " * len("output  "))
    console.print(Text.assemble(("output  ", "bold"), output), soft_wrap=True)
    print_wrapped(console, Text("graph, from the output to the inputs (grad: ∂L/∂node, as backward computed it)",
                                style="dim"), 2)
    tree = Tree(_node_line(e.nodes[0], torch_names, console.width))
    shown = {0}

    def grow(branch, node, depth=1):
        for _slot, child_id in node.children:
            child = e.nodes[child_id]
            if child_id in shown and child.grad_fn is not None:
                branch.add(Text(f"{subscript_digits(child.label)} (shown above)", style="dim"))
                continue
            shown.add(child_id)
            grow(branch.add(_node_line(child, torch_names, console.width - _TREE_GUIDE * depth)), child, depth + 1)

    grow(tree, e.nodes[0])
    console.print(tree)
    if e.forward:
        console.print(Text("forward (a formula, then its value)", style="bold"))
        for name, local, formula, value in e.forward:
            local, formula = e.forward_textbook.get(name, (prettify(local), prettify(formula)))
            parts = [subscript_digits(name), subscript_digits(local)]
            if formula != local:
                parts.append(formula)
            head = "  " + " = ".join(parts)
            print_wrapped(console, head, len(subscript_digits(name)) + 3)
            console.print(Text(" " * (len(subscript_digits(name)) + 3) + f"= {short_number(value)}"))
    if e.steps:
        print_wrapped(console, Text("chain rule, backward from L (∂L/∂L = 1): the rule, then the numbers",
                                    style="bold"), 2)
        for step in e.steps:
            formula, numbers = _step_lines(step)
            hanging = len(formula) - len(formula.lstrip(" ")) + 2
            print_wrapped(console, formula, hanging)
            print_wrapped(console, numbers, len(numbers) - len(numbers.lstrip(" ")) + 2)
    if e.note:
        print_wrapped(console, Text(f"note: {e.note}", style="dim"))
    for warning in e.warnings:
        print_wrapped(console, Text("warning: " + warning, style="yellow"))


def _step_lines(step) -> tuple[str, str]:
    """(∂L/∂t = Σ ∂L/∂p·∂p/∂t = its formula in the inputs, simplified;  = the numbers = the value)."""
    target = subscript_digits(step.target)
    head = f"  ∂L/∂{target}"
    parts = []
    if any(t.parent != "L" for t in step.terms):
        parts.append(" + ".join(f"∂L/∂{subscript_digits(t.parent)}·∂{subscript_digits(t.parent)}/∂{target}"
                                if t.parent != "L" else f"∂L/∂{target}" for t in step.terms))
    parts.append(step.textbook or prettify(step.formula))
    numbers = " + ".join(short_number(t.local_value) if t.parent == "L" and t.parent_grad == 1 else
                         f"{_factor(short_number(t.parent_grad))}·{_factor(short_number(t.local_value))}"
                         for t in step.terms)
    tail = [numbers] + ([short_number(step.value)] if short_number(step.value) != numbers else [])
    return head + " = " + " = ".join(parts), " " * len(head) + " = " + " = ".join(tail)


def _step_text(step) -> str:
    """∂L/∂t = Σ ∂L/∂p·∂p/∂t = (numbers times local formulas) = (formula in the inputs) = value; a factor
    ∂L/∂L = 1 is left out."""
    target = subscript_digits(step.target)
    parts = [f"∂L/∂{target}"]
    if any(t.parent != "L" for t in step.terms):
        parts.append(" + ".join(f"∂L/∂{subscript_digits(t.parent)}·∂{subscript_digits(t.parent)}/∂{target}"
                                if t.parent != "L" else f"∂L/∂{target}" for t in step.terms))
    local = [prettify(subscript_digits(t.local)) for t in step.terms]
    parts.append(" + ".join(text if t.parent == "L" and t.parent_grad == 1 else
                            f"{short_number(t.parent_grad)}·{_factor(text)}" for t, text in zip(step.terms, local)))
    for text in (prettify(step.formula), short_number(step.value)):
        if text != parts[-1]:
            parts.append(text)
    return " = ".join(parts)


def _factor(text: str) -> str:
    return f"({text})" if any(op in text for op in "+-") and not text.startswith("(") else text


def to_dot(e) -> str:
    """Graphviz DOT, one box per node (operation, shape, value, grad), edges from inputs to their users."""
    lines = ["digraph gradcli {", "  rankdir=BT;", '  node [shape=box, fontname="Helvetica"];']
    for node in e.nodes:
        title = [f"{node.label} (input)"] if node.grad_fn is None else [f"{node.label} = {node.op}", node.grad_fn]
        label = "\\n".join(_dot_escape(line) for line in [*title, f"shape {format_shape(node.shape)}",
                                                           *f"value {_value(node.value)}".split("\n"),
                                                           *f"grad {_value(node.grad)}".split("\n")])
        style = ', style=filled, fillcolor="#dbeafe"' if node.grad_fn is None else ""
        lines.append(f'  n{node.id} [label="{label}"{style}];')
    for node in e.nodes:
        for slot, child in node.children:
            lines.append(f'  n{child} -> n{node.id} [label="{slot}"];')
    lines.append("}")
    return "\n".join(lines)


def _dot_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')
