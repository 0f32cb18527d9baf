"""deg2rad / rad2deg (ATen multiplies by its constants M_PI_180 / M_180_PI, integers first made the default float
type; derivatives.yaml's Deg2RadBackward0 / Rad2DegBackward0 multiply the gradient by the same), signbit and
positive."""

from __future__ import annotations

import numpy as np

from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.ops.elementwise import unary
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor

M_PI_180 = 0.017453292519943295769236907684886127134428718885417
M_180_PI = 57.295779513082320876798154814105170332405472466564


def _times(constant: float):
    def forward(x: np.ndarray) -> np.ndarray:
        if x.dtype == np.float16:  # computed in float (ATen's opmath), rounded once
            return (x.astype(np.float32) * np.float32(constant)).astype(np.float16)
        return x * x.dtype.type(constant)

    return forward


deg2rad = unary("deg2rad", "Deg2RadBackward0", _times(M_PI_180), lambda g, _x: g * M_PI_180,
                doc="degrees to radians (input * pi / 180)")
rad2deg = unary("rad2deg", "Rad2DegBackward0", _times(M_180_PI), lambda g, _x: g * M_180_PI,
                doc="radians to degrees (input * 180 / pi)")


@register("signbit", sig="signbit(input)", doc="elementwise test of the sign bit (True for -0.0; bool)",
          category="comparison")
def signbit(input):  # noqa: A002 - torch's names
    array = input.array
    return Tensor._make(np.signbit(array) if array.dtype.kind != "b" else np.zeros(array.shape, bool), None)


@register("positive", sig="positive(input)", doc="the input itself (+input); refused on bool as torch's",
          category="arithmetic")
def positive(input):  # noqa: A002 - torch's names
    if input.dtype.name == "bool":
        raise TorchRuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input
