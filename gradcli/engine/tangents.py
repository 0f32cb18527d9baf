"""Forward-mode AD's state, below the ops: the open dual level, whether forward grad is on, and a tensor's
tangent (its `_fw_grad` slot holds ``(level, tangent Tensor)``; a tangent of a closed level is no tangent).
`forward_ad.py` opens levels and propagates tangents through ops; the ops that handle tangents themselves
(in-place ops, a program's autograd.Function) read and write them here."""

from __future__ import annotations

from gradcli.engine.state import DUAL_LEVEL as LEVEL
from gradcli.engine.state import FW_GRAD_ENABLED as ENABLED
from gradcli.engine.tensor import Tensor


class NoForwardFormula(Exception):
    """An op was given a dual input and has no forward formula in gradcli yet: a refusal, not torch's error."""

    def __init__(self, op: str, whole: bool = False):
        super().__init__(op if whole else f"forward-mode AD through {op} (gradcli has no forward formula for it "
                         "yet): compute that derivative with torch.autograd.functional.jvp or torch.func.jacrev "
                         "instead")
        self.op = op


class fw_grad_disabled:  # noqa: N801
    """Forward grad off for a block (a custom Function's forward: its own jvp gives the tangent)."""

    def __enter__(self):
        self._token = ENABLED.set(False)

    def __exit__(self, *exc):
        ENABLED.reset(self._token)
        return False


def tangent_of(tensor, level=None):
    """The tangent Tensor of `tensor` at the open level (None: none, or no level)."""
    level = LEVEL.get() if level is None else level
    fw = getattr(tensor, "_fw_grad", None)
    if fw is None or level is None or fw[0] != level:
        return None
    return fw[1]


def set_tangent(tensor: Tensor, tangent: Tensor) -> None:
    tensor._fw_grad = (LEVEL.get(), tangent)
