"""gradcli's autograd engine: Tensor over numpy with PyTorch's .grad semantics.

The engine knows nothing of text or terminals; it raises `EngineError`s carrying PyTorch's messages.
"""

import numpy as _np

from gradcli.engine import dtypes, ops
from gradcli.engine.autograd import backward, enable_grad, grad, is_grad_enabled, no_grad, set_grad_enabled
from gradcli.engine.creation import (
    arange,
    empty,
    empty_like,
    eye,
    full,
    full_like,
    initial_seed,
    linspace,
    logspace,
    manual_seed,
    ones,
    ones_like,
    rand,
    rand_like,
    randn,
    randn_like,
    seed,
    tensor,
    zeros,
    zeros_like,
)
from gradcli.engine.dtypes import get_default_dtype, set_default_dtype
from gradcli.engine.errors import EngineError, LimitExceeded
from gradcli.engine.ops.common import SizeLimit
from gradcli.engine.tensor import Size, Tensor

# PyTorch computes inf and nan silently; numpy would warn on every log(0).  Set once here rather than
# entering np.errstate in every op, which would cost a microsecond per op.
_np.seterr(all="ignore")

__all__ = [
    "Tensor", "Size", "dtypes", "ops", "backward", "grad", "no_grad", "enable_grad", "set_grad_enabled",
    "is_grad_enabled", "tensor", "zeros", "ones", "empty", "full", "eye", "arange", "linspace", "logspace", "rand",
    "randn", "zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like", "manual_seed",
    "initial_seed", "seed",
    "get_default_dtype", "set_default_dtype", "EngineError", "LimitExceeded", "SizeLimit",
]
