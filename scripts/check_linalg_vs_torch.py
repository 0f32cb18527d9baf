"""Quick differential check of gradcli against torch 2.13, bit for bit: linalg.eigh, eigvalsh, cholesky, qr and lstsq
on random matrices (values and gradients for random grad_outputs), one MKL thread on both sides.  Dev-only (imports
torch); prints one line per op and dtype.

    python scripts/check_linalg_vs_torch.py
"""
import numpy as np
import torch

from gradcli.engine import ops
from gradcli.engine.autograd import backward
from gradcli.engine.kernels import mkl
from gradcli.engine.tensor import Tensor

torch.set_num_threads(1)
mkl.set_threads(1)
rng = np.random.default_rng(1)
SHAPES = [(2, 2), (3, 3), (4, 4), (5, 5), (8, 8), (16, 16), (33, 33), (3, 4, 4)]
RECT = [(4, 3), (3, 4), (5, 5), (8, 3), (3, 8), (20, 10), (2, 6, 4)]


def spd(a):
    return a @ np.swapaxes(a, -1, -2) + a.shape[-1] * np.eye(a.shape[-1], dtype=a.dtype)


def cases():
    for dtype in (np.float32, np.float64):
        for shape in SHAPES:
            a = rng.standard_normal(shape).astype(dtype)
            s = (a + np.swapaxes(a, -1, -2)).astype(dtype)
            yield "eigvalsh", dtype, [s], lambda T, x: (T.linalg.eigvalsh(x),)
            yield "eigh", dtype, [s], lambda T, x: tuple(T.linalg.eigh(x))
            yield "cholesky", dtype, [spd(a).astype(dtype)], lambda T, x: (T.linalg.cholesky(x),)
        for shape in RECT:
            a = rng.standard_normal(shape).astype(dtype)
            yield "qr", dtype, [a], lambda T, x: tuple(T.linalg.qr(x))
            if shape[-2] >= shape[-1]:
                b = rng.standard_normal(shape[:-1] + (2,)).astype(dtype)
                yield "lstsq", dtype, [a, b], lambda T, x, y: (T.linalg.lstsq(x, y).solution,)


class G:  # gradcli's torch-like namespace
    class linalg:
        eigvalsh = staticmethod(lambda x: ops.LINALG["eigvalsh"].fn(x))
        eigh = staticmethod(lambda x: ops.LINALG["eigh"].fn(x))
        cholesky = staticmethod(lambda x: ops.LINALG["cholesky"].fn(x))
        qr = staticmethod(lambda x: ops.LINALG["qr"].fn(x))
        lstsq = staticmethod(lambda x, y: ops.LINALG["lstsq"].fn(x, y))


stats = {}
for name, dtype, inputs, fn in cases():
    tt = [torch.from_numpy(x.copy()).requires_grad_() for x in inputs]
    gt = [Tensor(x.copy(), requires_grad=True) for x in inputs]
    to = fn(torch, *tt)
    go = fn(G, *gt)
    gouts = [rng.standard_normal(o.shape).astype(dtype) for o in to]
    torch.autograd.backward(list(to), [torch.from_numpy(g) for g in gouts])
    backward(list(go), [Tensor(g) for g in gouts])
    vals = all(np.array_equal(o.detach().numpy(), p.array) for o, p in zip(to, go))
    grads = all(np.array_equal(t.grad.numpy(), g.grad.array) for t, g in zip(tt, gt))
    close = all(np.allclose(o.detach().numpy(), p.array, rtol=1e-3, atol=1e-4) for o, p in zip(to, go))
    key = (name, np.dtype(dtype).name)
    s = stats.setdefault(key, [0, 0, 0, 0])
    for i, ok in enumerate((True, vals, grads, close)):
        s[i] += ok
for key, (n, v, g, c) in sorted(stats.items()):
    print(f"{key[0]:9} {key[1]:8} cases {n:2}  values bit-exact {v:2}  grads bit-exact {g:2}  values close {c:2}")
