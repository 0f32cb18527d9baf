"""The static check: the whole program is validated before any of it runs.

Default deny: a node type the interpreter has no visit method for is refused, and so are dunder names
and attributes (but methods named __init__, __enter__ and __exit__, super().__init__ and the global
__name__), attributes
starting with "_" that the program never defines itself (what it reads on other objects is checked again
while running), classes other than plain ones and subclasses of torch.nn.Module / torch.autograd.Function
(no metaclass, no class decorators, nothing but methods, attributes and a docstring in the body), imports
of anything but the modules in `api.modules()`, builtins outside the supported set (open, eval, exec ...),
getattr/hasattr/setattr but with a literal attribute name, attributes no supported value has, torch
functions gradcli lacks, `yield` anywhere but as a statement (`yield x`, `y = yield x`), and syntax nested
deeper than max_nesting.
Errors Python itself would report at compile time ('return' outside function) come out as SyntaxError.
"""

from __future__ import annotations

import ast
import builtins

from gradcli.run import api, saved_view
from gradcli.run.errors import LimitReached, ProgramFailed, Refused
from gradcli.safety.errors import InputError

# Human names for the constructs people most often try.
# Human names for the constructs people most often try, each with what to write instead.
CONSTRUCT_NAMES = {
    ast.Delete: "del statements (rebind the name, x = None, or remove an entry with d.pop(key) / lst.pop(i))",
    ast.AsyncFunctionDef: "async functions (write a plain def)", ast.Await: "await (call the function directly)",
    ast.AsyncFor: "async for (write a plain for loop)", ast.AsyncWith: "async with (write a plain with)",
    ast.NamedExpr: "assignment expressions (:=) (assign the value on a line of its own first)",
    ast.Set: "sets (use a list, or a dict's keys: dict.fromkeys(items))",
    ast.SetComp: "set comprehensions (use a list comprehension, or dict.fromkeys(...))",
    ast.Match: "match statements (write if/elif/else)",
    ast.AnnAssign: "annotated assignments (drop the annotation: x = value)",
    ast.ClassDef: "class definitions (define the class at the top level of the program)",
}
if hasattr(ast, "TryStar"):
    CONSTRUCT_NAMES[ast.TryStar] = "except* (exception groups) (write a plain except)"
# What to use instead of a builtin a program may not call (any other: docs/run.md lists the builtins).
BUILTIN_HINTS = {
    "open": "read files outside the program and pass values with gradcli run --arg NAME=VALUE",
    "input": "pass values with gradcli run --arg NAME=VALUE",
    "eval": "write the code in the program itself", "exec": "write the code in the program itself",
    "compile": "write the code in the program itself",
    "globals": "name the variables directly", "locals": "name the variables directly",
    "vars": "name the attributes directly", "dir": "docs/run.md lists what each value offers",
    "set": "use a list, or a dict's keys: dict.fromkeys(items)", "frozenset": "use a tuple",
    "property": "write @property over a method", "staticmethod": "write @staticmethod over a method",
    "classmethod": "write @classmethod over a method", "object": "write class A: (or class A(object):)",
    "breakpoint": "print the values you want to see", "help": "see torch's documentation",
    "memoryview": "use a tensor or a list", "bytearray": "use a list of ints", "bytes": "use a str",
    "complex": "use two real tensors", "format": "use f-strings or str.format",
    "exit": "let the program end, or raise an exception", "quit": "let the program end, or raise an exception",
}

# Nodes that carry no behaviour of their own: contexts, operators, and the parts of larger nodes.
STRUCTURAL_NODES = frozenset({
    ast.Module, ast.Load, ast.Store, ast.Del, ast.arguments, ast.arg, ast.keyword, ast.alias, ast.withitem,
    ast.comprehension, ast.ExceptHandler,
    ast.And, ast.Or, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
    ast.MatMult, ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor, ast.Not, ast.USub, ast.UAdd,
    ast.Invert, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.In, ast.NotIn,
})

CONSTANT_TYPES = (str, int, float, bool, type(None), type(Ellipsis))

# `from __future__ import ...`: every feature Python 3 still accepts, all of them already in effect.
FUTURE_FEATURES = frozenset({"nested_scopes", "generators", "division", "absolute_import", "with_statement",
                             "print_function", "unicode_literals", "generator_stop", "annotations"})
# Dunder names a program may read: `if __name__ == "__main__":` (the interpreter binds it to "__main__").
READABLE_DUNDER_NAMES = frozenset({"__name__"})
# Dunder attributes a program may read (never assign): a value's class and a class's or function's names and
# docstring (gradcli/run/metadata.py answers them; what leads further, __bases__, __dict__ ..., stays refused).
READABLE_DUNDER_ATTRIBUTES = api.READABLE_DUNDER_ATTRIBUTES
# Dunder methods a program's class may define: construction, its printed text (__str__, __repr__), and the
# context-manager protocol (`with Timer():`),
# which only the interpreter calls (reading `obj.__enter__` stays refused).
PROGRAM_DUNDER_METHODS = frozenset({"__init__", "__enter__", "__exit__", "__str__", "__repr__", "__del__"})
# The builtins that take an attribute name: only with a literal one, checked like `obj.name`.
ATTRIBUTE_BUILTINS = frozenset({"getattr", "hasattr", "setattr", "delattr"})
# Writing builtins whose attribute name may be a variable (setattr(model, name, value) in a loop over
# named_parameters()): the interpreter checks the name when it is known, as it checks any attribute write.
DYNAMIC_NAME_BUILTINS = frozenset({"setattr", "delattr"})


def check_program(tree: ast.Module, supported: frozenset, max_nesting: int) -> None:
    """Raise Refused, LimitReached or ProgramFailed(SyntaxError) for the first problem in source order.

    `supported` holds the node types the interpreter can execute.
    """
    _Checker(tree, supported | STRUCTURAL_NODES, max_nesting).run()


def check_expression(program: ast.Module, expression: ast.expr, supported: frozenset, max_nesting: int) -> None:
    """The check of an expression a program evaluates from a string (eval): the same rules, in the context of the
    program (its imports, names and attributes)."""
    checker = _Checker(program, supported | STRUCTURAL_NODES, max_nesting)
    checker.tree = expression
    checker.run()


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
        self.statement_yields = statement_yields(tree)
        self.builtin_decorators: set[int] = set()

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
                if field in ("annotation", "returns", "type_comment"):
                    continue  # annotations are never evaluated
                child_loop = in_loop
                child_function = in_function
                if isinstance(node, (ast.For, ast.While)):
                    child_loop = in_loop or field == "body"
                elif isinstance(node, (ast.FunctionDef, ast.Lambda)) and field == "body":
                    child_function, child_loop = True, False
                elif isinstance(node, ast.ClassDef) and field == "body":
                    child_function, child_loop = False, False
                for child in value if isinstance(value, list) else [value]:
                    if isinstance(child, ast.AST):
                        children.append((child, depth + 1, child_function, child_loop))
            stack.extend(reversed(children))

    def refuse(self, what: str, node: ast.AST):
        raise Refused(what, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1)

    def check_node(self, node: ast.AST, in_function: bool, in_loop: bool) -> None:
        kind = type(node)
        if kind not in self.allowed:
            self.refuse(CONSTRUCT_NAMES.get(kind, f"the Python construct {kind.__name__} (docs/run.md lists the "
                                                  "Python a program may use)"), node)
        check = getattr(self, "check_" + kind.__name__, None)
        if check is not None:
            check(node, in_function, in_loop)

    # -- one method per node type that needs more than being allowed ----------------------------------
    def check_Name(self, node: ast.Name, *_):
        if id(node) in self.builtin_decorators:
            return  # @staticmethod, @classmethod, @property over a method
        if node.id in READABLE_DUNDER_NAMES and isinstance(node.ctx, ast.Load) and node.id not in self.bound:
            return
        _check_identifier(self, node.id, node)
        if node.id == "object" and id(node) in self.class_bases:
            return  # class A(object):
        if isinstance(node.ctx, ast.Load) and node.id not in self.bound and node.id not in api.BUILTIN_NAMES \
                and hasattr(builtins, node.id):
            hint = BUILTIN_HINTS.get(node.id, "docs/run.md lists the builtins a program may call")
            self.refuse(f"the builtin {node.id}() ({hint})", node)

    def check_Attribute(self, node: ast.Attribute, *_):
        if node.attr == "__init__" and _is_super_call(node.value):
            return  # super().__init__(...)
        self.check_attribute_name(node.attr, node, isinstance(node.ctx, ast.Load), id(node) in self.on_receiver)
        dotted = _dotted_module_path(node, self.module_aliases)
        if dotted is not None:
            module, attr = dotted
            if attr not in module.members and not api.absent_in_torch(module.name, attr):
                self.refuse(api.missing_member(module.name, attr) + unsupported_hint(f"{module.name}.{attr}"), node)
        elif node.attr not in api.known_attributes() and node.attr not in self.attributes \
                and id(node) not in self.on_receiver and not saved_view.SAVED_NAME.fullmatch(node.attr):
            hint = TENSOR_METHOD_HINTS.get(node.attr)
            self.refuse(f"the attribute .{node.attr} ({UNKNOWN_ATTRIBUTE})" if hint is None else
                        f"the tensor method .{node.attr} ({hint})", node)

    def check_attribute_name(self, attr: str, node: ast.AST, load: bool, on_receiver: bool) -> None:
        """Dunders never; other names starting with '_' only where the program defines them itself (`self._x`,
        a method `_helper`) or a tensor's `_version`/`_base` (read only).  Which object a read reaches is
        known only while running, where the interpreter allows it on the program's own objects only."""
        if not attr.startswith("_"):
            return
        if attr in READABLE_DUNDER_ATTRIBUTES and load:
            return  # type(x).__name__, self.__class__.__name__, f.__qualname__: read only
        if attr.startswith("__"):
            self.refuse(f"the attribute .{attr} ({DUNDER_ADVICE})", node)
        if load and saved_view.SAVED_NAME.fullmatch(attr):
            return  # grad_fn._saved_self, grad_fn._raw_saved_result: a node's saved values (run/saved_view.py)
        if attr in api.PRIVATE_TENSOR_ATTRIBUTES:
            if load:
                return
            self.refuse(f"the attribute .{attr} (a tensor's {attr} is read only: read it, torch updates it)", node)
        if attr not in self.attributes and not on_receiver:
            self.refuse(f"the attribute .{attr} (names starting with '_' are readable only on the program's own "
                        "objects, where it assigns them; use the public attribute or method)", node)

    def check_Call(self, node: ast.Call, *_):
        func = node.func
        if isinstance(func, ast.Name) and func.id in ATTRIBUTE_BUILTINS and func.id not in self.bound:
            name = node.args[1] if len(node.args) > 1 else None
            if func.id in DYNAMIC_NAME_BUILTINS and name is not None and not isinstance(name, ast.Constant):
                return
            if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
                self.refuse(f"{func.id}() with an attribute name that is not a literal string (write "
                            f"{func.id}(obj, 'name'), or obj.name)", node)
            self.check_attribute_name(name.value, name, func.id not in DYNAMIC_NAME_BUILTINS, func.id == "hasattr")
            answers_missing = func.id in ("hasattr", "delattr") or (func.id == "getattr" and len(node.args) > 2)
            if not answers_missing and name.value not in api.known_attributes() and name.value not in self.attributes:
                self.refuse(f"the attribute .{name.value} ({UNKNOWN_ATTRIBUTE})", name)

    def check_Yield(self, node: ast.Yield, in_function: bool, _):
        self.check_yield(node, in_function)

    def check_YieldFrom(self, node: ast.YieldFrom, in_function: bool, _):
        self.check_yield(node, in_function)

    def check_yield(self, node, in_function: bool) -> None:
        if not in_function:
            raise ProgramFailed("SyntaxError", "'yield' outside function", node.lineno)
        if id(node) not in self.statement_yields:
            self.refuse("yield inside an expression (write it as a statement: `yield x`, `y = yield x`, "
                        "`yield from g`)", node)

    def check_Lambda(self, node: ast.Lambda, *_):
        if node.args.vararg or node.args.kwarg:
            self.check_arg(node.args.vararg or node.args.kwarg)

    def check_Global(self, node: ast.Global, *_):
        for name in node.names:
            _check_identifier(self, name, node)

    def check_Nonlocal(self, node: ast.Nonlocal, in_function: bool, _):
        if not in_function:
            raise ProgramFailed("SyntaxError", "nonlocal declaration not allowed at module level", node.lineno)
        for name in node.names:
            _check_identifier(self, name, node)

    def check_ExceptHandler(self, node: ast.ExceptHandler, *_):
        if node.name is not None:
            _check_identifier(self, node.name, node)

    def check_keyword(self, node: ast.keyword, *_):
        if node.arg is not None:
            _check_identifier(self, node.arg, node)

    def check_arg(self, node: ast.arg, *_):
        _check_identifier(self, node.arg, node)

    def check_Constant(self, node: ast.Constant, *_):
        if not isinstance(node.value, CONSTANT_TYPES):
            kind = type(node.value).__name__
            self.refuse(f"{kind} literals ({LITERAL_HINTS.get(kind, 'use numbers, strings, lists and tensors')})", node)

    def check_FunctionDef(self, node: ast.FunctionDef, in_function: bool, _):
        is_method = id(node) in self.methods
        if not (is_method and node.name in PROGRAM_DUNDER_METHODS):
            _check_identifier(self, node.name, node)
        for position, decorator in enumerate(node.decorator_list):
            builtin = _builtin_decorator(decorator, self.bound)
            if builtin is not None:
                self.builtin_decorators.add(id(decorator))
            if builtin is not None and not is_method:
                self.refuse(f"@{builtin} outside a class (put it over a method inside a class)", decorator)
            if builtin is not None and position != 0:
                self.refuse(f"@{builtin} below another decorator (put it first, above the others)", decorator)
            if builtin == "property" and len(node.decorator_list) > 1:
                self.refuse("@property over another decorator (put @property alone over the getter)", decorator)
        if is_method and any(_is_setter(d, node.name) for d in node.decorator_list) and len(node.decorator_list) > 1:
            self.refuse("@name.setter over another decorator (put @name.setter alone over the setter)",
                        node.decorator_list[1])

    def check_ImportFrom_future(self, node: ast.ImportFrom) -> bool:
        if node.module != "__future__" or node.level:
            return False
        for alias in node.names:
            if alias.name not in FUTURE_FEATURES:
                raise ProgramFailed("SyntaxError", f"future feature {alias.name} is not defined", node.lineno)
        return True

    def check_ClassDef(self, node: ast.ClassDef, *_):
        _check_identifier(self, node.name, node)
        if id(node) not in self.classes:
            self.refuse("class definitions inside functions, classes or statements (define the class at the top "
                        "level of the program)", node)
        if node.keywords:
            self.refuse("class keywords (metaclass=, ...) (write class A(Base): with one base)", node.keywords[0])
        if len(node.decorator_list) > 1 or node.decorator_list and not _is_dataclass(node.decorator_list[0]):
            self.refuse("class decorators other than @dataclass (write the class's __init__ yourself, or decorate "
                        "its methods)", node.decorator_list[-1])
        if node.decorator_list and node.bases:
            self.refuse("a @dataclass with a base class (write the class's __init__ yourself)", node.bases[0])
        if len(node.bases) > 1:
            self.refuse("multiple inheritance (derive from one class and keep the other as an attribute)",
                        node.bases[1])
        for base in node.bases:
            if not isinstance(base, (ast.Name, ast.Attribute)):
                self.refuse("a base class that is not a name (name it: class A(nn.Module):)", base)
        for item in node.body:
            if isinstance(item, ast.Assign) and all(isinstance(t, ast.Name) for t in item.targets):
                continue
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                continue  # lr: float = 0.1 (the annotation is never evaluated)
            if isinstance(item, ast.FunctionDef) or isinstance(item, ast.Pass) or (
                    isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant)
                    and isinstance(item.value.value, str)):
                continue
            self.refuse("statements in a class body other than methods, attributes (name = value) and a "
                        "docstring (move them into __init__ or a method)", item)

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

    def check_AnnAssign(self, node: ast.AnnAssign, *_):
        _check_target(self, node.target)

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
                self.refuse(f"importing {alias.name} ({import_advice(alias.name)})", node)

    def check_ImportFrom(self, node: ast.ImportFrom, *_):
        if self.check_ImportFrom_future(node):
            return
        module = api.modules().get(node.module) if node.level == 0 else None
        if module is None:
            hint = unsupported_hint(node.module or "") if node.level == 0 else ""
            advice = import_advice(node.module or "")
            self.refuse(f"importing from {'.' * node.level}{node.module or ''}{hint or f' ({advice})'}", node)
        for alias in node.names:
            if alias.name not in module.members:
                dotted = f"{module.name}.{alias.name}"
                self.refuse(api.missing_member(module.name, alias.name) + unsupported_hint(dotted)
                            if alias.name != "*" else f"import * (import the names you use: from {module.name} "
                                                      "import name)", node)


def _is_dataclass(decorator: ast.expr) -> bool:
    """@dataclass, @dataclass() or @dataclasses.dataclass: the one class decorator a program may use."""
    if isinstance(decorator, ast.Call) and not decorator.args and not decorator.keywords:
        decorator = decorator.func
    return (isinstance(decorator, ast.Name) and decorator.id == "dataclass") or (
        isinstance(decorator, ast.Attribute) and decorator.attr == "dataclass"
        and isinstance(decorator.value, ast.Name) and decorator.value.id == "dataclasses")


def _check_identifier(checker: _Checker, name: str, node: ast.AST) -> None:
    """A program's own names may start with one '_' (`_scale`, `_helper`); dunder names (`__builtins__`,
    `__import__`) and private `__x` names are never the program's."""
    if name.startswith("__"):
        checker.refuse(f"the name {name} (names starting with '__' are off limits; rename it, one leading '_' is "
                       "fine)", node)


def _builtin_decorator(decorator: ast.expr, bound: set) -> str | None:
    """'staticmethod', 'classmethod' or 'property' for those builtins used as a decorator, else None."""
    if isinstance(decorator, ast.Name) and decorator.id in ("staticmethod", "classmethod", "property") \
            and decorator.id not in bound:
        return decorator.id
    return None


def _is_setter(decorator: ast.expr, name: str) -> bool:
    """`@x.setter` over `def x(self, value)`: the setter of the property x defined above."""
    return isinstance(decorator, ast.Attribute) and decorator.attr == "setter" \
        and isinstance(decorator.value, ast.Name) and decorator.value.id == name


def statement_yields(tree: ast.Module) -> set[int]:
    """The yields a generator can run: the whole value of an expression statement or of an assignment."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Expr, ast.Assign)) and isinstance(node.value, (ast.Yield, ast.YieldFrom)):
            found.add(id(node.value))
    return found


def _check_target(checker: _Checker, target: ast.AST) -> None:
    if isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            _check_target(checker, element.value if isinstance(element, ast.Starred) else element)


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
             and isinstance(node.ctx, ast.Store) and not node.attr.startswith("__")}
    # a name the program spells as a string may be an attribute it makes: nn.Sequential(OrderedDict([("fc1", ...)])),
    # add_module("fc1", m), register_buffer("mean", t) (reading it is still checked against the value at run time)
    looked_up = {id(node.args[1]) for node in ast.walk(tree) if isinstance(node, ast.Call)
                 and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr") and len(node.args) > 1}
    for node in ast.walk(tree):  # (and namedtuple("Point", "x y")'s field names)
        if isinstance(node, ast.Constant) and id(node) not in looked_up and isinstance(node.value, str) \
                and len(node.value) < 1000:
            names.update(word for word in node.value.replace(",", " ").split()
                         if word.isidentifier() and not word.startswith("_"))
    for node in ast.walk(tree):  # setattr(obj, "name", value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" \
                and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) \
                and isinstance(node.args[1].value, str) and not node.args[1].value.startswith("__"):
            names.add(node.args[1].value)
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("__"):
                    names.add(item.name)
                elif isinstance(item, ast.Assign):
                    names.update(t.id for t in item.targets if isinstance(t, ast.Name) and not t.id.startswith("__"))
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) \
                        and not item.target.id.startswith("__"):
                    names.add(item.target.id)
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


DUNDER_ADVICE = ("dunder names are off limits; read x.__class__, type(x).__name__, __qualname__, __module__ or "
                 "isinstance(x, T) instead")
UNKNOWN_ATTRIBUTE = "no value gradcli run offers has it: check the spelling; docs/run.md lists what a program may use"
IMPORT_ADVICE = ("a program imports torch and its submodules, functorch, numpy, math, random, functools, itertools, "
                 "typing, collections, copy and timeit; read files outside the program and pass values with gradcli "
                 "run --arg NAME=VALUE")
# What to write instead of a module learners import (by its top-level name).
IMPORT_HINTS = {
    "time": "gradcli run has no clock of its own: time a function with timeit.timeit(f, number=N) or "
            "timeit.default_timer()",
    "matplotlib": "print the values; plotting is not part of gradcli run",
    "torchvision": "build the tensors in the program (torch.rand, torch.randn ...)",
    "pandas": "build the data as lists, numpy arrays or tensors in the program",
}


def import_advice(module: str) -> str:
    return IMPORT_HINTS.get(module.split(".")[0], IMPORT_ADVICE)
LITERAL_HINTS = {"complex": "gradcli run has no complex numbers: use two real tensors", "bytes": "use a str"}


# What to use instead of a torch API gradcli does not have, by dotted prefix (the longest that matches wins).
UNSUPPORTED_HINTS = {
    "torch.func": "use torch.func's grad, jacrev, jacfwd, hessian, vmap, vjp, jvp and functional_call, or "
                  "torch.autograd.functional's jacobian, hessian, vjp, jvp, hvp and vhp",
    "torch.autograd.graph": "torch.autograd.graph has saved_tensors_hooks, save_on_cpu, "
                            "disable_saved_tensors_hooks and register_multi_grad_hook; read a node's inputs "
                            "through grad_fn.next_functions",
    "torch.autograd.forward_ad": "use dual_level, make_dual and unpack_dual (torch.autograd.forward_ad's names "
                                 "gradcli offers)",
    "torch.backends": "gradcli computes with its own CPU kernels: there is no backend to configure; drop the line",
    "torch.utils": "build the batches by slicing tensors (x[i:i + batch_size])",
    "torch.compile": "call the function itself",
    "torch.jit": "call the function itself",
    "torch.nn": "docs/run.md lists the torch.nn layers gradcli has",
    "torch.distributions": "torch.distributions has Normal, Uniform, Bernoulli, Categorical, Gamma and Beta; draw "
                           "others with torch.rand / torch.randn",
    "torch": "`gradcli ops` lists the torch functions gradcli has",
}


# torch.Tensor's methods gradcli run does not have (issue 28's survey), each with what to write instead.
_RAW_STORAGE = ("gradcli's tensors do not expose their storage; use view, reshape, expand, narrow or clone, or "
                "torch.zeros(size) for a new tensor")
_BLAS = "write beta * input + alpha * ({}) with the product spelled out"
TENSOR_METHOD_HINTS = {
    **dict.fromkeys(("as_strided", "as_strided_", "as_strided_scatter", "set_", "resize", "resize_", "resize_as",
                     "resize_as_", "new_empty_strided", "is_set_to", "dense_dim", "to_dense", "smm", "sspaddmm",
                     "is_distributed", "as_subclass"), _RAW_STORAGE),
    "addmv": _BLAS.format("mat @ vec"), "addmv_": _BLAS.format("mat @ vec"),
    "addr": _BLAS.format("torch.outer(vec1, vec2)"), "addr_": _BLAS.format("torch.outer(vec1, vec2)"),
    "baddbmm": _BLAS.format("batch1 @ batch2"), "baddbmm_": _BLAS.format("batch1 @ batch2"),
    "addbmm": _BLAS.format("(batch1 @ batch2).sum(0)"), "addbmm_": _BLAS.format("(batch1 @ batch2).sum(0)"),
    "aminmax": "use x.amin(dim) and x.amax(dim)",
    "kthvalue": "use x.sort(dim).values and index k - 1 (or x.topk(k, dim, largest=False))",
    "mode": "use x.unique(return_counts=True) and pick the value with the largest count",
    "nanmedian": "use x[~x.isnan()].median()",
    "bfloat16": "gradcli has no bfloat16 dtype; use x.half() or x.float()",
    "cholesky": "use torch.linalg.cholesky(x)",
    "cholesky_inverse": "use torch.linalg.inv(L @ L.mT) with L the Cholesky factor",
    "cholesky_solve": "use torch.linalg.solve(L @ L.mT, b) with L the Cholesky factor",
    "lu": "use torch.linalg.solve or torch.linalg.det (gradcli has no LU factor objects)",
    "lu_solve": "use torch.linalg.solve(A, b)", "solve": "use torch.linalg.solve(A, B)",
    "triangular_solve": "use torch.linalg.solve(A, b) with A triangular",
    "lstsq": "use torch.linalg.lstsq(A, B)", "eig": "use torch.linalg.eigh(x) for a symmetric matrix",
    "symeig": "use torch.linalg.eigh(x)",
    "cov": "compute it: xc = x - x.mean(1, keepdim=True); xc @ xc.T / (x.shape[1] - 1)",
    "corrcoef": "compute it from the covariance divided by the outer product of the standard deviations",
    "bincount": "use torch.zeros(n).index_add(0, x, torch.ones(len(x))) or x.unique(return_counts=True)",
    "histc": "compute each bin as ((x >= lo) & (x < hi)).sum(), or use x.unique(return_counts=True)",
    "histogram": "compute each bin as ((x >= lo) & (x < hi)).sum()",
    **dict.fromkeys(("index_put", "index_put_", "index"), "write x[indices] = values (or x[indices] for reading)"),
    **dict.fromkeys(("put", "put_"), "write x.view(-1)[index] = source (x.take(index) reads)"),
    **dict.fromkeys(("index_reduce", "index_reduce_", "scatter_reduce", "scatter_reduce_"),
                    "use index_add / scatter_add (for sums), or scatter with reduce='multiply'"),
    **dict.fromkeys(("select_scatter", "slice_scatter", "diagonal_scatter"),
                    "write y = x.clone(); y[...] = src (x.clone() then an indexed assignment)"),
    "fill_diagonal_": "write x.diagonal().fill_(value) (or x[range(n), range(n)] = value)",
    "unfold": "use torch.stack([x.narrow(dim, i, size) for i in range(0, n - size + 1, step)], dim)",
    "renorm": "compute it: x * (maxnorm / norms).clamp(max=1) with norms = x.norm(p, dims, keepdim=True)",
    "renorm_": "compute it out of place: x * (maxnorm / norms).clamp(max=1)",
    **dict.fromkeys(("bitwise_left_shift", "bitwise_left_shift_"), "use x * 2 ** n for integers"),
    **dict.fromkeys(("bitwise_right_shift", "bitwise_right_shift_"), "use x // 2 ** n for integers"),
    **dict.fromkeys(("i0", "i0_", "igamma", "igamma_", "igammac", "igammac_", "polygamma", "polygamma_",
                     "mvlgamma", "mvlgamma_"), "gradcli run has lgamma, digamma, erf, erfc and erfinv of the "
                                                "special functions; use those"),
    **dict.fromkeys(("nextafter", "nextafter_"), "use numpy's np.nextafter on x.numpy()"),
    "output_nr": "read x.grad_fn and grad_fn.next_functions to see where a tensor comes from",
    "name": "named tensors are not supported; keep names in a dict beside the tensors",
}


def unsupported_hint(dotted: str) -> str:
    """'; <what to use instead>' for an unsupported torch name, '' for a name outside torch."""
    for prefix in sorted(UNSUPPORTED_HINTS, key=len, reverse=True):
        if dotted == prefix or dotted.startswith(prefix + "."):
            return f"; {UNSUPPORTED_HINTS[prefix]}"
    return ""
