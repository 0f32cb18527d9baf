"""gradcli: PyTorch-style expressions in, PyTorch's gradients out, without PyTorch.

The Python API (`gradcli.grad`, `gradcli.compile`, `gradcli.check`, `gradcli.run_program`; see docs/api.md) is
loaded on first use, so the command line's start-up does not pay for it.
"""

import sys
import warnings

from gradcli.version import __version__  # noqa: F401  (gradcli.__version__)

_API = ("grad", "compile", "check", "run_program", "GradResult", "Compiled", "ColumnsResult", "CheckResult",
        "RunResult", "RunLimits", "GradcliError", "EngineError", "Limits")


def __getattr__(name):
    if name in _API:
        if "gradcli.api" not in sys.modules:  # numpy's import adds warning filters: not ours to leave behind
            before = list(warnings.filters)
            from gradcli import api

            api.drop_import_filters(before)
        from gradcli import api

        return getattr(api, name)
    raise AttributeError(f"module 'gradcli' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_API])
