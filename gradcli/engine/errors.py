"""Errors the engine raises, carrying the exception type PyTorch would raise.

The engine knows nothing of terminals: callers decide how to show these.  `torch_type` is the name
PyTorch uses (``RuntimeError``, ``IndexError`` ...), so `gradcli run` can print exactly what PyTorch prints.
"""

import re


class EngineError(Exception):
    torch_type = "RuntimeError"


class TorchRuntimeError(EngineError, RuntimeError):
    torch_type = "RuntimeError"


class TorchIndexError(EngineError, IndexError):
    torch_type = "IndexError"


class TorchTypeError(EngineError, TypeError):
    torch_type = "TypeError"


class TorchValueError(EngineError, ValueError):
    torch_type = "ValueError"


class TorchAttributeError(EngineError, AttributeError):
    torch_type = "AttributeError"


class TorchKeyError(EngineError, KeyError):
    torch_type = "KeyError"

    def __str__(self) -> str:  # KeyError's str is the repr of its key; torch's messages are quoted that way
        return KeyError.__str__(self)


class TorchLinAlgError(EngineError, RuntimeError):
    """torch.linalg.LinAlgError (a RuntimeError), which Python prints under its C name."""

    torch_type = "torch._C._LinAlgError"


class TorchAssertionError(EngineError, AssertionError):
    """torch's Python-level asserts (torch.cuda's `Torch not compiled with CUDA enabled`)."""

    torch_type = "AssertionError"


class TorchNotImplementedError(EngineError, NotImplementedError):
    torch_type = "NotImplementedError"


class Unsupported(EngineError):
    """Something the engine does not implement (an op on the meta device without a shape rule, backward through
    meta tensors): `gradcli run` reports it as a refusal naming the construct (exit 2), never as the program's
    error."""


class GradientShapeError(EngineError):
    """An op's backward rule handed a gradient that does not fit its edge: a gradcli bug, never silent."""

    torch_type = "RuntimeError"


class LimitExceeded(EngineError):
    """A tensor would exceed the configured size limit (not a PyTorch error: a gradcli safety limit)."""

    torch_type = "RuntimeError"
    hint = "raise the limit with --max-elements, or work on a smaller tensor"


_SHAPE = r"\(([\d, ]*)\)"
_NUMPY_BROADCAST = re.compile(
    r"operands could not be broadcast together with (?:remapped )?shapes ((?:\([\d, ]*\) ?)+)")
_NUMPY_MISMATCH = re.compile(rf"Mismatch is between arg \d+ with shape {_SHAPE} and arg \d+ with shape {_SHAPE}")


def _shape(text: str) -> tuple[int, ...]:
    return tuple(int(s) for s in text.replace(" ", "").split(",") if s)


def broadcast_message(sa: tuple, sb: tuple) -> str | None:
    """torch's text for two shapes that do not broadcast (the first disagreeing dim from the right)."""
    for i in range(1, min(len(sa), len(sb)) + 1):
        if sa[-i] != sb[-i] and sa[-i] != 1 and sb[-i] != 1:
            return (f"The size of tensor a ({sa[-i]}) must match the size of tensor b ({sb[-i]}) at "
                    f"non-singleton dimension {max(len(sa), len(sb)) - i}")
    return None


def from_numpy(error: Exception) -> EngineError | None:
    """The PyTorch error for a numpy error an op let through (shapes that do not broadcast), or None."""
    if not isinstance(error, ValueError):
        return None
    text = str(error)
    shapes = None
    if match := _NUMPY_BROADCAST.search(text):
        shapes = [_shape(s) for s in re.findall(_SHAPE, match.group(1))]
    elif match := _NUMPY_MISMATCH.search(text):
        shapes = [_shape(match.group(1)), _shape(match.group(2))]
    if not shapes:
        return None
    for a, b in zip(shapes, shapes[1:]):
        if message := broadcast_message(a, b):
            return TorchRuntimeError(message)
    return None
