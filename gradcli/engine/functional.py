"""Higher-order derivatives from the engine's differentiable gradients, in the spirit of
torch.autograd.functional: full Jacobians, Hessians (by differentiating the gradient graph built with
create_graph=True) and n-th derivatives of a scalar function of one scalar.

Inputs are leaf Tensors that require grad and `output` a Tensor computed from them (its graph is kept:
every pass uses retain_graph).  Results are numpy arrays; an input the output does not depend on gets
zero blocks, as torch's functional API does with its default strict=False.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.autograd import grad
from gradcli.engine.tensor import Tensor


def _zeros(shape, dtype):
    return np.zeros(shape, dtype=dtype)


def _vjp(output: Tensor, inputs: list[Tensor], seed: np.ndarray, *, create_graph: bool = False):
    """seed^T d output / d inputs, one entry per input (None where the output does not depend on it)."""
    if not output.requires_grad:
        return [None] * len(inputs)
    return list(grad(output, inputs, grad_outputs=Tensor._make(seed, None), retain_graph=True,
                     create_graph=create_graph, allow_unused=True))


def jacobian(output: Tensor, inputs: list[Tensor]) -> list[np.ndarray]:
    """d output / d input for each input, of shape output.shape + input.shape (one backward per output element)."""
    out_shape, dtype = output.array.shape, output.array.dtype
    blocks = [_zeros(out_shape + x.array.shape, dtype) for x in inputs]
    seed = np.zeros(out_shape, dtype=dtype)
    flat = seed.reshape(-1)
    for k in range(seed.size):
        flat[k] = 1
        rows = _vjp(output, inputs, seed.copy())
        flat[k] = 0
        index = np.unravel_index(k, out_shape) if out_shape else ()
        for block, row in zip(blocks, rows):
            if row is not None:
                block[index] = row.array
    return blocks


def hessian(output: Tensor, inputs: list[Tensor]) -> dict[tuple[int, int], np.ndarray]:
    """d^2 output / d input_i d input_j for a scalar output, as blocks of shape input_i.shape + input_j.shape.

    The gradient is built with create_graph=True, then each of its elements is differentiated again."""
    if output.array.size != 1:
        raise ValueError("the Hessian needs a scalar output")
    dtype = output.array.dtype
    blocks = {(i, j): _zeros(xi.array.shape + xj.array.shape, dtype)
              for i, xi in enumerate(inputs) for j, xj in enumerate(inputs)}
    firsts = _vjp(output, inputs, np.ones(output.array.shape, dtype=dtype), create_graph=True)
    for i, g in enumerate(firsts):
        if g is None or not g.requires_grad:
            continue  # a gradient without a graph is constant: its derivatives are 0
        g_shape = g.array.shape
        seed = np.zeros(g_shape, dtype=dtype)
        flat = seed.reshape(-1)
        for k in range(seed.size):
            flat[k] = 1
            rows = _vjp(g, inputs, seed.copy())
            flat[k] = 0
            index = np.unravel_index(k, g_shape) if g_shape else ()
            for j, row in enumerate(rows):
                if row is not None:
                    blocks[i, j][index] = row.array
    return blocks


def nth_derivative(output: Tensor, x: Tensor, n: int) -> list[np.ndarray]:
    """[d output/dx, d^2 output/dx^2, ..., d^n output/dx^n] for a scalar output and a one-element x,
    by repeated differentiation with create_graph=True."""
    if output.array.size != 1 or x.array.size != 1:
        raise ValueError("n-th derivatives need a scalar output and a one-element input")
    values = []
    current = output
    for _ in range(n):
        if current is None or not current.requires_grad:
            values.append(np.zeros(x.array.shape, dtype=x.array.dtype))
            current = None
            continue
        seed = np.ones(current.array.shape, dtype=current.array.dtype)
        (current,) = _vjp(current, [x], seed, create_graph=True)
        values.append(np.zeros(x.array.shape, dtype=x.array.dtype) if current is None
                      else np.array(current.array, copy=True))
    return values
