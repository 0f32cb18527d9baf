"""gradcli: PyTorch-style expressions in, PyTorch's gradients out, without PyTorch."""

__version__ = "0.1.0"
