"""`gradcli explain` output: a rich tree of the graph with the chain rule under it, or Graphviz DOT."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text
from rich.tree import Tree

from .symbolic_render import prettify, short_number, subscript_digits
from .text import format_array, format_shape


def _value(array) -> str:
    if array is None:
        return "—"
    return short_number(float(array)) if getattr(array, "ndim", 0) == 0 else format_array(array).replace("\n", "  ")


def _node_line(node) -> Text:
    name = subscript_digits(node.label)
    if node.grad_fn is None:
        head = Text.assemble((name, "bold cyan"), ("  input", "dim"))
    else:
        head = Text.assemble((name, "bold"), f" = {node.op}", (f"  {node.grad_fn}", "dim"))
    head.append(f"  shape {format_shape(node.shape)}  value {_value(node.value)}  ")
    head.append(f"grad {_value(node.grad)}", style="green")
    if node.rule:
        head.append(f"\n{node.rule}", style="dim")
    return head


def print_explanation(e, console: Console) -> None:
    console.print(Text.assemble(("output  ", "bold"), _value(e.output)))
    console.print(Text("graph, from the output to the inputs (grad: ∂L/∂node, as backward computed it)", style="dim"))
    tree = Tree(_node_line(e.nodes[0]))
    shown = {0}

    def grow(branch, node):
        for slot, child_id in node.children:
            child = e.nodes[child_id]
            if child_id in shown and child.grad_fn is not None:
                branch.add(Text(f"{slot}: {subscript_digits(child.label)} (shown above)", style="dim"))
                continue
            shown.add(child_id)
            grow(branch.add(Text.assemble(f"{slot}: ", _node_line(child))), child)

    grow(tree, e.nodes[0])
    console.print(tree)
    if e.forward:
        console.print(Text("forward", style="bold"))
        for name, local, formula, value in e.forward:
            parts = [subscript_digits(name), prettify(subscript_digits(local))]
            if formula != local:
                parts.append(prettify(formula))
            console.print(Text("  " + " = ".join(parts) + f" = {short_number(value)}"))
    if e.steps:
        console.print(Text("chain rule, backward from L (∂L/∂L = 1)", style="bold"))
        for step in e.steps:
            console.print(Text("  " + _step_text(step)))
    if e.note:
        console.print(Text(f"note: {e.note}", style="dim"))


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
                                                           f"value {_value(node.value)}", f"grad {_value(node.grad)}"])
        style = ', style=filled, fillcolor="#dbeafe"' if node.grad_fn is None else ""
        lines.append(f'  n{node.id} [label="{label}"{style}];')
    for node in e.nodes:
        for slot, child in node.children:
            lines.append(f'  n{child} -> n{node.id} [label="{slot}"];')
    lines.append("}")
    return "\n".join(lines)


def _dot_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')
