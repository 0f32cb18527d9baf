"""The static check: the whole program is validated before any of it runs.

Default deny: a node type the interpreter has no visit method for is refused, and so are names and
attributes starting with "_" (but a method named __init__ and super().__init__), classes other than
plain ones and subclasses of torch.nn.Module / torch.autograd.Function (no metaclass, no decorators but
@staticmethod and @classmethod, nothing but methods, attributes and a docstring in the body), imports of
anything but torch and math, builtins outside the supported set (open, eval, exec, getattr ...),
attributes no supported value has, torch functions gradcli lacks, nested functions, decorators, *args and
**kwargs, and syntax nested deeper than max_nesting.
Errors Python itself would report at compile time ('return' outside function) come out as SyntaxError.
"""

from __future__ import annotations

import ast
import builtins

from gradcli.run import api
from gradcli.run.errors import LimitReached, ProgramFailed, Refused
from gradcli.safety.errors import InputError

# Human names for the constructs people most often try.
CONSTRUCT_NAMES = {
    ast.ClassDef: "class definitions", ast.Lambda: "lambda expressions", ast.Try: "try statements",
    ast.Raise: "raise statements", ast.Global: "global statements", ast.Nonlocal: "nonlocal statements",
    ast.Delete: "del statements", ast.AsyncFunctionDef: "async functions", ast.Await: "await",
    ast.AsyncFor: "async for", ast.AsyncWith: "async with", ast.Yield: "generators (yield)",
    ast.YieldFrom: "generators (yield from)", ast.NamedExpr: "assignment expressions (:=)",
    ast.Set: "sets", ast.SetComp: "set comprehensions", ast.Match: "match statements",
    ast.AnnAssign: "annotated assignments",
}
if hasattr(ast, "TryStar"):
    CONSTRUCT_NAMES[ast.TryStar] = "try statements"

# Nodes that carry no behaviour of their own: contexts, operators, and the parts of larger nodes.
STRUCTURAL_NODES = frozenset({
    ast.Module, ast.Load, ast.Store, ast.arguments, ast.arg, ast.keyword, ast.alias, ast.withitem,
    ast.comprehension, ast.And, ast.Or, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
    ast.MatMult, ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor, ast.Not, ast.USub, ast.UAdd,
    ast.Invert, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.In, ast.NotIn,
})

CONSTANT_TYPES = (str, int, float, bool, type(None), type(Ellipsis))


def check_program(tree: ast.Module, supported: frozenset, max_nesting: int) -> None:
    """Raise Refused, LimitReached or ProgramFailed(SyntaxError) for the first problem in source order.

    `supported` holds the node types the interpreter can execute.
    """
    _Checker(tree, supported | STRUCTURAL_NODES, max_nesting).run()


class _Checker:
    def __init__(self, tree: ast.Module, allowed: frozenset, max_nesting: int):
        self.tree = tree
        self.allowed = allowed
        self.max_nesting = max_nesting
        self.bound = _bound_names(tree)
        self.module_aliases = _module_aliases(tree)
        self.classes = {id(node) for node in tree.body if isinstance(node, ast.ClassDef)}
        self.methods = {id(item) for node in tree.body if isinstance(node, ast.ClassDef) for item in node.body
                        if isinstance(item, ast.FunctionDef)}
        self.attributes = _program_attributes(tree)
        self.on_receiver = _receiver_attributes(tree)
        self.class_bases = {id(base) for node in tree.body if isinstance(node, ast.ClassDef) for base in node.bases}

    def run(self) -> None:
        # (node, depth, in_function, in_loop), depth-first in source order, without recursion
        stack = [(self.tree, 0, False, False)]
        while stack:
            node, depth, in_function, in_loop = stack.pop()
            if depth > self.max_nesting:
                raise LimitReached(f"the program nests deeper than {self.max_nesting} levels (max_nesting)",
                                   getattr(node, "lineno", None))
            self.check_node(node, in_function, in_loop)
            children = []
            for field, value in ast.iter_fields(node):
                if field in ("annotation", "returns", "type_comment", "decorator_list"):
                    continue  # annotations are never evaluated; decorators are checked with their function
                child_loop = in_loop
                child_function = in_function
                if isinstance(node, (ast.For, ast.While)):
                    child_loop = in_loop or field == "body"
                elif isinstance(node, ast.FunctionDef) and field == "body":
                    child_function, child_loop = True, False
                for child in value if isinstance(value, list) else [value]:
                    if isinstance(child, ast.AST):
                        children.append((child, depth + 1, child_function, child_loop))
            stack.extend(reversed(children))

    def refuse(self, what: str, node: ast.AST):
        raise Refused(what, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1)

    def check_node(self, node: ast.AST, in_function: bool, in_loop: bool) -> None:
        kind = type(node)
        if kind not in self.allowed:
            self.refuse(CONSTRUCT_NAMES.get(kind, f"{kind.__name__} nodes"), node)
        check = getattr(self, "check_" + kind.__name__, None)
        if check is not None:
            check(node, in_function, in_loop)

    # -- one method per node type that needs more than being allowed ----------------------------------
    def check_Name(self, node: ast.Name, *_):
        _check_identifier(self, node.id, node)
        if node.id == "object" and id(node) in self.class_bases:
            return  # class A(object):
        if isinstance(node.ctx, ast.Load) and node.id not in self.bound and node.id not in api.BUILTIN_NAMES \
                and hasattr(builtins, node.id):
            self.refuse(f"the builtin {node.id}()", node)

    def check_Attribute(self, node: ast.Attribute, *_):
        if node.attr == "__init__" and _is_super_call(node.value):
            return  # super().__init__(...)
        if node.attr.startswith("_") and not (node.attr in api.PRIVATE_TENSOR_ATTRIBUTES
                                              and isinstance(node.ctx, ast.Load)):
            self.refuse(f"the attribute .{node.attr} (names starting with '_' are off limits)", node)
        dotted = _dotted_module_path(node, self.module_aliases)
        if dotted is not None:
            module, attr = dotted
            if attr not in module.members:
                self.refuse(f"{module.name}.{attr}{unsupported_hint(f'{module.name}.{attr}')}", node)
        elif node.attr not in api.known_attributes() and node.attr not in self.attributes \
                and id(node) not in self.on_receiver:
            self.refuse(f"the attribute .{node.attr}", node)

    def check_keyword(self, node: ast.keyword, *_):
        if node.arg is not None:
            _check_identifier(self, node.arg, node)

    def check_arg(self, node: ast.arg, *_):
        _check_identifier(self, node.arg, node)

    def check_Constant(self, node: ast.Constant, *_):
        if not isinstance(node.value, CONSTANT_TYPES):
            self.refuse(f"{type(node.value).__name__} literals", node)

    def check_FunctionDef(self, node: ast.FunctionDef, in_function: bool, _):
        is_method = id(node) in self.methods
        if not (is_method and node.name == "__init__"):
            _check_identifier(self, node.name, node)
        if in_function:
            self.refuse("nested function definitions", node)
        for decorator in node.decorator_list:
            if not (is_method and len(node.decorator_list) == 1 and isinstance(decorator, ast.Name)
                    and decorator.id in ("staticmethod", "classmethod") and decorator.id not in self.bound):
                self.refuse("decorators (but @staticmethod and @classmethod on a method)", decorator)
        if node.args.vararg or node.args.kwarg:
            self.refuse("*args and **kwargs parameters", node.args.vararg or node.args.kwarg)

    def check_ClassDef(self, node: ast.ClassDef, *_):
        _check_identifier(self, node.name, node)
        if id(node) not in self.classes:
            self.refuse("class definitions inside functions, classes or statements (only at the top level)", node)
        if node.keywords:
            self.refuse("class keywords (metaclass=, ...)", node.keywords[0])
        if node.decorator_list:
            self.refuse("class decorators", node.decorator_list[0])
        if len(node.bases) > 1:
            self.refuse("multiple inheritance", node.bases[1])
        for base in node.bases:
            if not isinstance(base, (ast.Name, ast.Attribute)):
                self.refuse("a base class that is not a name", base)
        for item in node.body:
            if isinstance(item, ast.Assign) and all(isinstance(t, ast.Name) for t in item.targets):
                continue
            if isinstance(item, ast.FunctionDef) or isinstance(item, ast.Pass) or (
                    isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant)
                    and isinstance(item.value.value, str)):
                continue
            self.refuse("statements in a class body other than methods, attributes (name = value) and a "
                        "docstring", item)

    def check_Return(self, node: ast.Return, in_function: bool, _):
        if not in_function:
            raise ProgramFailed("SyntaxError", "'return' outside function", node.lineno)

    def check_Break(self, node: ast.Break, _, in_loop: bool):
        if not in_loop:
            raise ProgramFailed("SyntaxError", "'break' outside loop", node.lineno)

    def check_Continue(self, node: ast.Continue, _, in_loop: bool):
        if not in_loop:
            raise ProgramFailed("SyntaxError", "'continue' not properly in loop", node.lineno)

    def check_Assign(self, node: ast.Assign, *_):
        for target in node.targets:
            _check_target(self, target)

    def check_For(self, node: ast.For, *_):
        _check_target(self, node.target)

    def check_comprehension(self, node: ast.comprehension, *_):
        _check_target(self, node.target)

    def check_withitem(self, node: ast.withitem, *_):
        if node.optional_vars is not None:
            _check_target(self, node.optional_vars)

    def check_Import(self, node: ast.Import, *_):
        for alias in node.names:
            if alias.name not in api.modules():
                self.refuse(f"importing {alias.name} (only torch, torch.nn, torch.nn.functional, torch.optim, "
                            "torch.autograd and math)", node)

    def check_ImportFrom(self, node: ast.ImportFrom, *_):
        module = api.modules().get(node.module) if node.level == 0 else None
        if module is None:
            self.refuse(f"importing from {'.' * node.level}{node.module or ''}"
                        f"{unsupported_hint(node.module or '') if node.level == 0 else ''}", node)
        for alias in node.names:
            if alias.name not in module.members:
                self.refuse(f"{module.name}.{alias.name}{unsupported_hint(f'{module.name}.{alias.name}')}"
                            if alias.name != "*" else "import *", node)


def _check_identifier(checker: _Checker, name: str, node: ast.AST) -> None:
    if name.startswith("_") and name != "_":
        checker.refuse(f"the name {name} (names starting with '_' are off limits)", node)


def _check_target(checker: _Checker, target: ast.AST) -> None:
    if isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            if isinstance(element, ast.Starred):
                checker.refuse("starred assignment targets", element)
            _check_target(checker, element)


def _bound_names(tree: ast.Module) -> set[str]:
    """Every name the program binds anywhere (so a user's own `sum` is not mistaken for the builtin)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return names


def _is_super_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def _program_attributes(tree: ast.Module) -> frozenset:
    """The attribute names the program itself defines: what it assigns (self.x = ..., ctx.k = ...), and
    its classes' methods and class attributes."""
    names = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
             and isinstance(node.ctx, ast.Store) and not node.attr.startswith("_")}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("_"):
                    names.add(item.name)
                elif isinstance(item, ast.Assign):
                    names.update(t.id for t in item.targets if isinstance(t, ast.Name))
    return frozenset(names)


def _receiver_attributes(tree: ast.Module) -> set[int]:
    """The attribute reads on a method's first parameter (self.fc2, ctx.k): a typo there is the program's
    AttributeError at run time, as in Python, not a missing feature of gradcli."""
    found = set()
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        for method in node.body:
            if isinstance(method, ast.FunctionDef) and (method.args.posonlyargs or method.args.args):
                receiver = (method.args.posonlyargs + method.args.args)[0].arg
                found.update(id(n) for n in ast.walk(method) if isinstance(n, ast.Attribute)
                             and isinstance(n.value, ast.Name) and n.value.id == receiver)
    return found


def _module_aliases(tree: ast.Module) -> dict[str, api.Module]:
    """Names bound to a module by an import and never rebound: their attribute chains resolve statically."""
    aliases: dict[str, api.Module] = {}
    modules = api.modules()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    aliases[alias.asname] = modules.get(alias.name)
                else:
                    aliases[alias.name.split(".")[0]] = modules.get(alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in modules:
            for alias in node.names:
                member = modules[node.module].members.get(alias.name)
                if isinstance(member, api.Module):
                    aliases[alias.asname or alias.name] = member
    rebound = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    rebound |= {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)}
    return {name: module for name, module in aliases.items() if module is not None and name not in rebound}


def _dotted_module_path(node: ast.Attribute, aliases: dict) -> tuple[api.Module, str] | None:
    """For a chain that starts at an imported module, the module and attribute where it leaves the modules:
    `torch.nn.functional.relu` -> (torch.nn.functional, "relu"), `torch.fft.fft` -> (torch, "fft").
    None when the chain does not start at a module or `node` is past the modules (`torch.float32.itemsize`)."""
    path = []
    while isinstance(node, ast.Attribute):
        path.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in aliases:
        return None
    module = aliases[node.id]
    for depth, attr in enumerate(reversed(path)):
        member = module.members.get(attr)
        if member is None or depth == len(path) - 1:
            return module, attr
        if not isinstance(member, api.Module):
            return None
        module = member


def check_arguments(source: str, filename: str, names: list[str]) -> list[str]:
    """The globals bound by `gradcli run --arg`: one the program rebinds before reading it is an error
    (InputError); one it never reads is returned as a warning."""
    if not names:
        return []

    try:
        tree = ast.parse(source, filename)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []  # running the program reports it
    overwritten, unread = _argument_uses(tree, names)
    for name, line in overwritten.items():
        raise InputError(f"--arg {name} is overwritten at line {line} of {filename} before the program reads it",
                         hint=f"drop --arg {name}, or rename what line {line} binds")
    return [f"--arg {name} is never read by {filename}; it has no effect" for name in unread]


def _argument_uses(tree: ast.Module, names) -> tuple[dict[str, int], list[str]]:
    """For the globals bound by `gradcli run --arg`: ({name: line of the module-level statement that rebinds
    it before anything reads it}, [names nothing in the program reads]).  Conservative: a read anywhere in
    a statement (a function body too) counts as a read before the rebinding."""
    reads = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    reads |= {node.target.id for node in ast.walk(tree)
              if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name)}  # n += 1 reads n
    overwritten = {}
    for name in names:
        if name not in reads:
            continue
        for statement in tree.body:
            if any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
                   for n in ast.walk(statement)) or (isinstance(statement, ast.AugAssign)
                                                     and _binds(statement.target, name)):
                break
            if _rebinds(statement, name):
                overwritten[name] = statement.lineno
                break
    return overwritten, [name for name in names if name not in reads]


def _rebinds(statement: ast.stmt, name: str) -> bool:
    """Whether `statement`, run at module level, always binds `name`."""
    if isinstance(statement, ast.Assign):
        return any(_binds(target, name) for target in statement.targets)
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return any((alias.asname or alias.name).split(".")[0] == name for alias in statement.names)
    if isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
        return statement.name == name
    return False


def _binds(target: ast.expr, name: str) -> bool:
    if isinstance(target, ast.Name):
        return target.id == name
    if isinstance(target, (ast.Tuple, ast.List)):
        return any(_binds(element, name) for element in target.elts)
    if isinstance(target, ast.Starred):
        return _binds(target.value, name)
    return False


# What to use instead of a torch API gradcli does not have, by dotted prefix (the longest that matches wins).
UNSUPPORTED_HINTS = {
    "torch.func": "torch.func has grad, jacrev, jacfwd, hessian and vmap; torch.autograd.functional has jacobian, "
                  "hessian, vjp, jvp, hvp and vhp",
    "torch.inference_mode": "use `with torch.no_grad():`",
    "torch.autograd.graph": "saved-tensor and graph hooks are not supported: compute what the hook would see "
                            "explicitly",
    "torch.autograd.forward_ad": "use torch.autograd.functional.jvp",
    "torch.backends": "gradcli computes with its own CPU kernels: there is no backend to configure",
    "torch.utils": "build the batches by slicing tensors (x[i:i + batch_size])",
    "torch.compile": "call the function itself",
    "torch.jit": "call the function itself",
    "torch.nn": "docs/run.md lists the torch.nn layers gradcli has",
    "torch.distributions": "torch.distributions.Normal is there; draw others with torch.rand / torch.randn",
    "torch": "`gradcli ops` lists the torch functions gradcli has",
}


def unsupported_hint(dotted: str) -> str:
    """'; <what to use instead>' for an unsupported torch name, '' for a name outside torch."""
    for prefix in sorted(UNSUPPORTED_HINTS, key=len, reverse=True):
        if dotted == prefix or dotted.startswith(prefix + "."):
            return f"; {UNSUPPORTED_HINTS[prefix]}"
    return ""
