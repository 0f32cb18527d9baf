"""Errors the engine raises, carrying the exception type PyTorch would raise.

The engine knows nothing of terminals: callers decide how to show these.  `torch_type` is the name
PyTorch uses (``RuntimeError``, ``IndexError`` ...), so `gradcli run` can print exactly what PyTorch prints.
"""


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


class TorchNotImplementedError(EngineError, NotImplementedError):
    torch_type = "NotImplementedError"


class GradientShapeError(EngineError):
    """An op's backward rule handed a gradient that does not fit its edge: a gradcli bug, never silent."""

    torch_type = "RuntimeError"


class LimitExceeded(EngineError):
    """A tensor would exceed the configured size limit (not a PyTorch error: a gradcli safety limit)."""

    torch_type = "RuntimeError"
    hint = "raise the limit with --max-elements, or work on a smaller tensor"
