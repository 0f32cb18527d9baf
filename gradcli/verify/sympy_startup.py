"""Start-up cuts, each measured with `python -X importtime` (benchmarks/bench_startup.py has the totals).

1. A placeholder for `sympy.tensor.tensor` (the default path, with the sympy cross-check).
sympy's `Add.flatten` imports `sympy.tensor.tensor` the first time two expressions are added, only to ask
`isinstance(term, TensExpr)`; that module pulls in all of `sympy.combinatorics`, which builds permutation
groups at import: ~40 ms, more than a small cross-check itself.  gradcli never builds tensor expressions,
so until something else needs the module a placeholder answers that question ("no"); any other attribute
loads the real module, which then replaces the placeholder for good.
"""

from __future__ import annotations

import importlib
import sys
import types

MODULE = "sympy.tensor.tensor"


class _Placeholder(types.ModuleType):
    class TensExpr:  # nothing gradcli builds is an instance of these
        pass

    class TensAdd(TensExpr):
        pass

    def __getattr__(self, name: str):
        if name.startswith("__"):  # the import system probing (__path__, __file__ ...): not a real use
            raise AttributeError(name)
        return getattr(load_real_module(), name)


def load_real_module() -> types.ModuleType:
    if isinstance(sys.modules.get(MODULE), _Placeholder):
        del sys.modules[MODULE]
    return importlib.import_module(MODULE)


def install_sympy_placeholder() -> None:
    """Call before sympy first adds expressions; does nothing if the real module is already loaded."""
    sys.modules.setdefault(MODULE, _Placeholder(MODULE))
