"""Text -> validated program.  Python's `ast` parses; a default-deny table decides what may appear.

Nothing here evaluates text: no `eval`, no `exec`.  Literal numbers are checked (exponent magnitude) and
every name is resolved against the op table now, so a typo fails before anything runs, with a caret under
it and the closest known names as a hint.
"""

from __future__ import annotations

import ast
import difflib
import io
import itertools
import keyword
import math
import tokenize
import unicodedata
from dataclasses import dataclass, field

from gradcli.lang import names
from gradcli.safety.errors import ParseError
from gradcli.safety.limits import Limits

# Keywords whose value may be a string (torch takes strings there); anywhere else a string is an error.
STRING_KEYWORDS = frozenset({"reduction", "p", "ord", "approximate", "mode", "indexing", "equation",
                             "nonlinearity", "rounding_mode", "interpolation", "padding"})
# Ops whose first positional argument is a string.
STRING_FIRST_ARG = frozenset({"einsum"})

_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.MatMult, ast.BitXor, ast.Mod, ast.FloorDiv,
           ast.BitAnd, ast.BitOr)
_CMPOPS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)


@dataclass
class Program:
    source: str
    tree: ast.Expression
    offsets: list[int]  # character offset of each line start, for spans
    variables: list[str] = field(default_factory=list)  # free names the user must supply, in order of use
    tree_depth: int = 0  # depth of the syntax tree (a flat sum of n terms is n deep): what evaluation recurses

    def span(self, node: ast.AST) -> tuple[int, int]:
        return node_span(self.source, self.offsets, node)


def line_offsets(source: str) -> list[int]:
    offsets = [0]
    for i, ch in enumerate(source):
        if ch == "\n":
            offsets.append(i + 1)
    return offsets


def node_span(source: str, offsets: list[int], node: ast.AST) -> tuple[int, int]:
    """Character span of `node` (ast columns are UTF-8 byte offsets within a line)."""

    def char_offset(lineno, col):
        start = offsets[lineno - 1]
        line = source[start:].split("\n", 1)[0]
        return start + len(line.encode("utf-8")[:col].decode("utf-8", errors="ignore"))

    start = char_offset(node.lineno, node.col_offset)
    end_line = getattr(node, "end_lineno", None) or node.lineno
    end_col = getattr(node, "end_col_offset", None)
    end = char_offset(end_line, end_col) if end_col is not None else start + 1
    return start, max(end, start + 1)


MAX_TREE_DEPTH = 2000  # levels of the syntax tree evaluation may recurse through (see evaluator.evaluate)


def _chain(node) -> str | None:
    """The family of a binary operator that chains flat in text: a + b - c, a * b / c."""
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, (ast.Add, ast.Sub)):
            return "+"
        if isinstance(node.op, (ast.Mult, ast.Div)):
            return "*"
    return None


def parse(source: str, limits: Limits | None = None, *, known_variables: frozenset = frozenset()) -> Program:
    """Parse and validate one expression.  Free names not in the op table are the user's variables."""
    limits = limits or Limits()
    if len(source) > limits.max_length:
        raise ParseError(f"expression is {len(source)} characters long; the limit is {limits.max_length}",
                         hint="raise it with --max-length")
    if not source.strip():
        raise ParseError("empty expression")
    _check_characters(source)
    if "\n" not in source.strip():
        source = source.strip()
    try:
        tree = _parse_with_power_carets(source)
    except SyntaxError as err:
        raise _syntax_error(source, err) from None
    except (RecursionError, MemoryError):
        raise ParseError("expression is nested too deeply", source=source,
                         hint=f"at most {limits.max_depth} levels are allowed") from None
    _check_variable_names(known_variables)
    program = Program(source, tree, line_offsets(source))
    _Validator(program, limits, known_variables).check()
    return program


def _parse_with_power_carets(source: str) -> ast.Expression:
    """`^` means power, with power's precedence: `2*x^2` is 2*x**2, never Python's (2*x)^2 (xor binds
    loosest).  Each `^` token is parsed as `**`, then every node's columns are moved back onto the text the
    user typed, so carets in error messages stay under what they wrote."""
    carets = _caret_columns(source)
    if not carets:
        return ast.parse(source, mode="eval")
    lines = source.split("\n")
    rewritten = "\n".join(_with_double_stars(line, carets.get(n, ())) for n, line in enumerate(lines, 1))
    try:
        tree = ast.parse(rewritten, mode="eval")
    except SyntaxError as err:
        if err.lineno in carets and err.offset:
            new_line = rewritten.split("\n")[err.lineno - 1]
            err.offset = _original_column(new_line, lines[err.lineno - 1], carets[err.lineno], err.offset - 1) + 1
        raise
    new_lines = rewritten.split("\n")
    for node in ast.walk(tree):
        for line_attr, col_attr in (("lineno", "col_offset"), ("end_lineno", "end_col_offset")):
            line, col = getattr(node, line_attr, None), getattr(node, col_attr, None)
            if line in carets and col is not None:
                setattr(node, col_attr, _original_column(new_lines[line - 1], lines[line - 1], carets[line], col,
                                                         in_bytes=True))
    return tree


def _caret_columns(source: str) -> dict[int, list[int]]:
    """Line number -> character columns of the `^` operator tokens (not inside strings)."""
    carets: dict[int, list[int]] = {}
    if "^" not in source:
        return carets
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return {}  # ast.parse reports the problem itself
    for k, token in enumerate(tokens):
        if token.type == tokenize.OP and token.string == "^":
            carets.setdefault(token.start[0], []).append(token.start[1])
            _no_fraction_exponent(source, tokens[k + 1:k + 5])
    return carets


def _no_fraction_exponent(source: str, after) -> None:
    """x^1/2, x^-1/2, e^1/x: power's precedence makes them (x^1)/2 ..., never meant by a power 1 or a negative
    literal followed by a division; refused rather than read another way in silence (x**1/2 is Python's)."""
    signed = len(after) > 0 and after[0].type == tokenize.OP and after[0].string in ("-", "+")
    rest = after[1:] if signed else after
    if len(rest) < 3 or rest[0].type != tokenize.NUMBER or rest[1].string != "/" or \
            rest[2].type not in (tokenize.NUMBER, tokenize.NAME):
        return
    if not (after[0].string == "-" or rest[0].string == "1"):
        return
    starts = [0, *itertools.accumulate(len(line) for line in source.splitlines(keepends=True))]
    start, end = starts[after[0].start[0] - 1] + after[0].start[1], starts[rest[2].end[0] - 1] + rest[2].end[1]
    typed, exponent = source[start:end], source[start:starts[rest[1].start[0] - 1] + rest[1].start[1]].strip()
    raise ParseError(f"^{typed} is ambiguous: power's precedence reads it as a power divided by {rest[2].string}",
                     source=source, span=(start, end),
                     hint=f"write ^({typed}) for the power {typed}, or (…^{exponent})/{rest[2].string} for the "
                          "quotient")


def _with_double_stars(line: str, columns) -> str:
    for col in sorted(columns, reverse=True):
        line = line[:col] + "**" + line[col + 1:]
    return line


def _original_column(new_line: str, old_line: str, carets, col: int, in_bytes: bool = False) -> int:
    """A column of the rewritten line (each `^` became `**`) as a column of the typed line."""
    if in_bytes:
        col = len(new_line.encode("utf-8")[:col].decode("utf-8", errors="ignore"))
    shift = sum(1 for k, c in enumerate(sorted(carets)) if c + k + 2 <= col)
    col -= shift
    return len(old_line[:col].encode("utf-8")) if in_bytes else col


def _check_characters(source: str) -> None:
    """Characters Python's parser cannot take, refused by name (not a ValueError from ast)."""
    for ch in source:
        if ch == "\x00" or "\ud800" <= ch <= "\udfff":
            message = "the expression contains a NUL character" if ch == "\x00" else \
                f"the expression is not valid UTF-8 text (byte 0x{ord(ch) - 0xDC00:02x})" if ch >= "\udc80" else \
                f"the expression contains a lone surrogate U+{ord(ch):04X}"
            shown = source.replace("\x00", "\\x00").encode("ascii", "backslashreplace").decode("ascii")
            raise ParseError(message, source=shown, hint="gradcli reads text as UTF-8")


def _check_variable_names(known_variables) -> None:
    """A given name the expression could never refer to would be silently unused: refuse it."""
    for name in sorted(known_variables):
        if keyword.iskeyword(name):
            raise ParseError(f"'{name}' is a Python keyword and cannot name a tensor",
                             hint="names are identifiers such as x, W1 or bias")
        normal = unicodedata.normalize("NFKC", name)
        if normal != name:  # Python reads identifiers in NFKC form: the expression's 'ｘ' is 'x'
            raise ParseError(f"the tensor name '{name}' is read as '{normal}' in an expression",
                             hint=f"name it '{normal}'")


def _syntax_error(source: str, err: SyntaxError) -> ParseError:
    offsets = line_offsets(source)
    lineno = err.lineno or 1
    col = max((err.offset or 1) - 1, 0)
    start = offsets[min(lineno, len(offsets)) - 1] + col
    start = min(start, max(len(source) - 1, 0))
    msg = err.msg
    hint = None
    if "was never closed" in msg or "unexpected EOF" in msg:
        hint = "check that every bracket is closed"
    elif msg.startswith("invalid syntax") or "decimal literal" in msg:
        msg = "invalid syntax" if msg.startswith("invalid syntax") else msg
        if "decimal literal" in msg or _looks_implicit_mul(source, start):
            hint = "write multiplication explicitly: 2*x, not 2x"
    return ParseError(f"cannot parse the expression: {msg}", source=source, span=(start, start + 1), hint=hint)


def _looks_implicit_mul(source: str, pos: int) -> bool:
    before = source[:pos].rstrip()
    return bool(before) and (before[-1].isdigit() or before[-1] == ")") and pos < len(source) and \
        (source[pos].isalpha() or source[pos] == "(")


class _Validator:
    """Walks the tree once (iteratively), rejecting everything not explicitly allowed."""

    def __init__(self, program: Program, limits: Limits, known_variables: frozenset):
        self.program = program
        self.limits = limits
        self.known_variables = known_variables

    def fail(self, node: ast.AST, message: str, hint: str | None = None):
        raise ParseError(message, source=self.program.source, span=self.program.span(node), hint=hint)

    def check(self):
        # depth as the user wrote it: a chain of + and - (or of * and /) is one level, as a+b+c is flat text;
        # the tree's own depth (what evaluation recurses on) is bounded by MAX_TREE_DEPTH
        stack = [(self.program.tree.body, 1, 1, "value")]
        count = 0
        deepest = 0
        seen_vars: dict[str, None] = {}
        while stack:
            node, depth, tree_depth, role = stack.pop()
            count += 1
            deepest = max(deepest, tree_depth)
            if count > self.limits.max_nodes:
                self.fail(node, f"expression has more than {self.limits.max_nodes} syntax nodes",
                          hint="raise it with --max-nodes")
            if depth > self.limits.max_depth:
                self.fail(node, f"expression is nested more than {self.limits.max_depth} levels deep",
                          hint="raise it with --max-depth")
            if tree_depth > MAX_TREE_DEPTH:
                self.fail(node, f"expression chains more than {MAX_TREE_DEPTH} operations",
                          hint="sum a long list with a tensor and .sum() instead")
            visit = getattr(self, "visit_" + type(node).__name__, None)
            if visit is None:
                self.fail(node, f"{_describe(node)} is not allowed in an expression",
                          hint="expressions use numbers, names, + - * / ** @, calls and indexing")
            # children come in source order; push reversed so errors are found left to right
            chain = _chain(node)
            for child, child_role in reversed(visit(node, role, seen_vars)):
                same_chain = chain is not None and child is node.left and _chain(child) == chain
                stack.append((child, depth if same_chain else depth + 1, tree_depth + 1, child_role))
        self.program.variables = list(seen_vars)
        self.program.tree_depth = deepest

    # Each visit method validates one node and returns (child, role) pairs to visit next.
    def visit_BinOp(self, node, role, seen):
        if not isinstance(node.op, _BINOPS):
            self.fail(node, f"operator {type(node.op).__name__} is not supported")
        if isinstance(node.op, (ast.Pow, ast.BitXor)):
            exponent = _literal_number(node.right)
            if exponent is not None and abs(exponent) > self.limits.max_exponent:
                self.fail(node.right, f"exponent {exponent:g} exceeds the limit of {self.limits.max_exponent:g}",
                          hint="raise it with --max-exponent")
        return [(node.left, "value"), (node.right, "value")]

    def visit_UnaryOp(self, node, role, seen):
        if not isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)):
            self.fail(node, f"unary operator {type(node.op).__name__} is not supported")
        return [(node.operand, "value")]

    def visit_Compare(self, node, role, seen):
        if len(node.ops) != 1 or not isinstance(node.ops[0], _CMPOPS):
            self.fail(node, "only single comparisons (x > 0) are supported")
        return [(node.left, "value"), (node.comparators[0], "value")]

    def visit_Constant(self, node, role, seen):
        value = node.value
        if isinstance(value, bool) or value is None:
            return []
        if value is Ellipsis:
            if role != "index":
                self.fail(node, "... is only allowed inside [ ] indexing, as in x[..., 0]")
            return []
        if isinstance(value, (int, float)):
            if isinstance(value, int) and abs(value) > 2**63:
                self.fail(node, "integer literal is too large")
            return []
        if isinstance(value, str):
            if role != "string":
                self.fail(node, "a string is not allowed here",
                          hint="strings are only accepted where torch takes one, e.g. reduction='sum'")
            return []
        self.fail(node, f"literal of type {type(value).__name__} is not allowed")

    def visit_Name(self, node, role, seen):
        name = node.id
        _check_identifier(self, node, name)
        if role == "callee":
            if name in self.known_variables:
                self.fail(node, f"'{name}' is a tensor you gave ({name}=...), so it cannot be called",
                          hint=f"give the tensor another name to use the function {name}()")
            if names.resolve_function((name,)) is None:
                self._unknown(node, name, names.function_names())
            return []
        if name in names.CONSTANTS or name in self.known_variables:
            if name in self.known_variables:
                seen.setdefault(name, None)
            return []
        if name in ("torch", "F", "nn", "math"):
            self.fail(node, f"'{name}' is a namespace, not a value", hint=f"write e.g. {name}.exp(x)")
        if names.resolve_function((name,)) is not None:
            self.fail(node, f"'{name}' is a function: call it, e.g. {name}(x)")
        seen.setdefault(name, None)
        return []

    def visit_Attribute(self, node, role, seen):
        _check_identifier(self, node, node.attr)
        path = dotted_name(node)
        if path is not None and path[0] in ("torch", "F", "nn", "math"):
            if path[0] in self.known_variables:
                self.fail(node, f"'{path[0]}' is a tensor you gave ({path[0]}=...) and also the namespace of "
                                f"{'.'.join(path)}", hint="give the tensor another name")
            if role == "callee":
                if path[:2] == ("torch", "autograd"):  # not "did you mean rand": what to type instead
                    self.fail(node, f"{'.'.join(path)} is not part of an expression: gradcli runs backward itself",
                              hint=_AUTOGRAD_HINT)
                if names.resolve_function(path) is None:
                    self._unknown(node, ".".join(path), names.function_names(path[:-1]), last=path[-1])
                return []
            if names.resolve_constant(path) is None:
                self.fail(node, f"'{'.'.join(path)}' is not a known value",
                          hint="known values: " + ", ".join(names.constant_names()))
            return []
        # attribute of a value: x.T, torch.max(x, 0).values, x.sum (as method when called)
        if role == "callee":
            if names.resolve_method(node.attr) is None and node.attr in _AUTOGRAD_METHODS:
                self.fail(node, f".{node.attr}() is not part of an expression: gradcli runs backward itself",
                          hint=_AUTOGRAD_HINT)
            if names.resolve_method(node.attr) is None:
                self._unknown(node, node.attr, names.method_names(), what="tensor method")
        elif node.attr in _AUTOGRAD_ATTRIBUTES:
            self.fail(node, f".{node.attr} is not part of an expression: gradcli prints every tensor's .grad",
                      hint=_AUTOGRAD_HINT)
        elif node.attr not in names.VALUE_ATTRIBUTES:
            hint = None
            if names.resolve_method(node.attr) is not None:
                hint = f"'{node.attr}' is a method: call it, e.g. x.{node.attr}()"
            self.fail(node, f"attribute '{node.attr}' is not supported", hint=hint)
        return [(node.value, "value")]

    def visit_Call(self, node, role, seen):
        if not isinstance(node.func, (ast.Name, ast.Attribute)):
            self.fail(node.func, "only functions and methods can be called",
                      hint="call a function by name, e.g. sin(x), or a method, e.g. x.sum()")
        callee_name = _callee_name(node.func)
        children = [(node.func, "callee")]
        for i, arg in enumerate(node.args):
            if isinstance(arg, ast.Starred):
                self.fail(arg, "*arguments are not supported")
            string_ok = i == 0 and callee_name in STRING_FIRST_ARG
            children.append((arg, "string" if string_ok else "value"))
        for kw in node.keywords:
            if kw.arg is None:
                self.fail(node, "**keyword arguments are not supported")
            _check_identifier(self, node, kw.arg)
            children.append((kw.value, "string" if kw.arg in STRING_KEYWORDS else "value"))
        return children

    def visit_Subscript(self, node, role, seen):
        return [(node.value, "value"), (node.slice, "index")]

    def visit_Slice(self, node, role, seen):
        return [(part, "value") for part in (node.lower, node.upper, node.step) if part is not None]

    def visit_Tuple(self, node, role, seen):
        return [(elt, "index" if role == "index" else "value") for elt in node.elts]

    def visit_List(self, node, role, seen):
        return [(elt, "value") for elt in node.elts]

    def _unknown(self, node, name, candidates, *, last=None, what="function"):
        key = last or name
        spelling = names.torch_spelling(name) if what == "function" else None
        if spelling is not None:  # ln(x): math notation, which check/explain/steps read
            self.fail(node, f"unknown function '{name}'",
                      hint=f"did you mean `{spelling}`? {name}(x) is math notation, which gradcli check, explain "
                           "and steps read")
        close = difflib.get_close_matches(key, list(candidates), n=3, cutoff=0.6)
        hint = "did you mean " + " or ".join(f"`{c}`" for c in close) + "?" if close else \
            "run `gradcli ops` to list the supported operations"
        self.fail(node, f"unknown {what} '{name}'", hint=hint)


# What a PyTorch user types to get gradients, which gradcli does for every expression
_AUTOGRAD_ATTRIBUTES = frozenset({"grad", "grad_fn", "is_leaf", "requires_grad", "data"})
_AUTOGRAD_METHODS = frozenset({"backward", "retain_grad", "requires_grad_", "register_hook"})
_AUTOGRAD_HINT = ("type the expression whose gradient you want, e.g. (x**2).sum(): backward() runs on it and "
                  "every tensor's .grad is printed; a program that calls torch.autograd runs with gradcli run FILE.py")


def _check_identifier(validator, node, name):
    if name.startswith("_"):
        validator.fail(node, f"names starting with '_' are not allowed ('{name}')")


def _describe(node: ast.AST) -> str:
    return {
        "Lambda": "lambda", "ListComp": "a list comprehension", "GeneratorExp": "a generator expression",
        "DictComp": "a dict comprehension", "SetComp": "a set comprehension", "Dict": "a dict",
        "Set": "a set", "IfExp": "a conditional expression", "JoinedStr": "an f-string",
        "NamedExpr": "the := operator", "BoolOp": "and/or", "Starred": "*unpacking", "Await": "await",
    }.get(type(node).__name__, type(node).__name__)


def dotted_name(node) -> tuple[str, ...] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return tuple(reversed(parts))
    return None


def _callee_name(func) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _literal_number(node) -> float | None:
    sign = 1.0
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        sign = -sign if isinstance(node.op, ast.USub) else sign
        node = node.operand
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        value = float(node.value) if abs(node.value) < 1e308 else math.inf
        return sign * value
    return None
