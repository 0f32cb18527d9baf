"""torch's float32/float64 matrix products, routed to MKL exactly as ATen routes them (when MKL is installed).

ATen 2.13 (aten/src/ATen/native/LinearAlgebra.cpp, Blas.cpp, CPUBlas.cpp, mkl/LinearAlgebra.cpp) decides from
the operands' strides which BLAS routine to call and with which flags and leading dimensions; MKL's summation
order depends on all of them, so each decision is replayed here on the numpy arrays (whose strides are the
tensors' strides) and the same routine is called on the same memory:

- mm / addmm (addmm_impl_cpu_): the result is C-contiguous, so unless it has one column the product is computed
  transposed (operands swapped); each operand is passed as it is stored when one of its strides is 1 and the
  other a valid leading dimension (flag N or T), else copied contiguous; cpublas::gemm then rewrites the leading
  dimensions of size-1 extents (normalize_last_dims) and calls ?gemm with alpha, beta (addmm: C holds the
  bias, beta = 1);
- mv / addmv: ?gemv('n') on a column-major matrix, ?gemv('t') on a row-major one (others copied contiguous);
  a vector with a stride <= 0 goes to ATen's own loop, not to BLAS;
- dot: ?dot;
- bmm / baddbmm: under 400 multiply-adds per batch item ATen's own loop (float sums in k order, no BLAS);
  else MKL's cblas_?gemm_batch (row-major) when every batch item is contiguous or transposed, else addmm per
  batch item;
- matmul: dot, mv, mm, mm on the larger operand folded to a matrix (should_fold), else bmm on the broadcast
  batch.

Each function returns None when MKL is not available or the dtypes are not float32/float64: the caller keeps
numpy's product."""

from __future__ import annotations

import numpy as np

from gradcli.engine.kernels import mkl

_CHARS = {np.dtype(np.float32): "s", np.dtype(np.float64): "d"}
SMALL_BMM = 400  # ATen's loop kernel below this many multiply-adds per batch item


def _char(*arrays):
    """'s' or 'd' when MKL is usable on arrays of that one dtype, else None."""
    dtype = arrays[0].dtype
    char = _CHARS.get(dtype)
    if char is None or any(a.dtype != dtype for a in arrays[1:]) or not mkl.available():
        return None
    return char


def _strides(a):
    size = a.itemsize
    return [s // size for s in a.strides]


def _addr(a) -> int:
    return a.__array_interface__["data"][0]


def _gemm(char, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc):
    """cpublas::gemm: normalize_last_dims, then ?gemm (addresses of a, b, c's first elements)."""
    if n == 1:
        ldc = m
    if transa != "N":
        if m == 1:
            lda = k
    elif k == 1:
        lda = m
    if transb != "N":
        if k == 1:
            ldb = n
    elif n == 1:
        ldb = k
    mkl.gemm(char, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)


def addmm_into(result, m1, m2, beta, alpha, char) -> None:
    """addmm_impl_cpu_ on a result already holding beta's operand (C-contiguous, 2-D, not empty, k > 0)."""
    rs = _strides(result)
    rows, cols = result.shape
    if rs[0] == 1 and (cols == 1 or rs[1] >= max(1, rows)):
        transpose_c = False
    elif rs[1] == 1 and (rows == 1 or rs[0] >= max(1, cols)):
        m1, m2 = m2, m1
        transpose_c = True
    else:  # pragma: no cover - results here are fresh C-contiguous arrays
        raise AssertionError("addmm into a result that is neither row- nor column-major")
    s1, s2 = _strides(m1), _strides(m2)
    lo, hi = (1, 0) if transpose_c else (0, 1)
    m = result.shape[1 if transpose_c else 0]
    n = result.shape[0 if transpose_c else 1]
    k = m1.shape[0 if transpose_c else 1]
    if s1[lo] == 1 and s1[hi] >= max(1, m):
        trans_a = False
    elif s1[hi] == 1 and s1[lo] >= max(1, k):
        trans_a = True
    else:
        trans_a = not transpose_c
        m1 = np.ascontiguousarray(m1)
    if s2[lo] == 1 and s2[hi] >= max(1, k):
        trans_b = False
    elif s2[hi] == 1 and s2[lo] >= max(1, n):
        trans_b = True
    else:
        trans_b = not transpose_c
        m2 = np.ascontiguousarray(m2)
    sa, sb = _strides(m1), _strides(m2)
    lda = sa[1 if trans_a == transpose_c else 0]
    ldb = sb[1 if trans_b == transpose_c else 0]
    ldc = rs[0 if transpose_c else 1]
    _gemm(char, "T" if trans_a else "N", "T" if trans_b else "N", m, n, k, alpha, _addr(m1), lda, _addr(m2), ldb,
          beta, _addr(result), ldc)


def addmm(bias, m1, m2, beta=1, alpha=1):
    """torch.addmm(bias, m1, m2, beta=, alpha=) (mm: bias None, beta 0) on 2-D arrays; None without MKL."""
    char = _char(m1, m2) if bias is None else _char(m1, m2, np.asarray(bias))
    if char is None:
        return None
    rows, cols = m1.shape[0], m2.shape[1]
    if bias is not None and np.broadcast_shapes(np.shape(bias), (rows, cols)) != (rows, cols):
        return None  # a bias that does not expand to the result (the caller's error or broadcast)
    result = np.empty((rows, cols), dtype=m1.dtype)
    if beta != 0 and bias is not None:
        result[...] = bias
    if result.size == 0:
        return result
    if m1.shape[1] == 0:
        if beta == 0 or bias is None:
            result[...] = 0
        else:
            result *= result.dtype.type(beta)
        return result
    addmm_into(result, m1, m2, 0.0 if bias is None else float(beta), float(alpha), char)
    return result


def mm(a, b):
    return addmm(None, a, b, 0, 1)


def mv(mat, vec, bias=None, beta=1, alpha=1):
    """torch.mv / addmv (addmv_out_cpu) on a 2-D and a 1-D array; None without MKL or off BLAS."""
    char = _char(mat, vec)
    if char is None:
        return None
    rows, inner = mat.shape
    result = np.empty((rows,), dtype=mat.dtype)
    if bias is not None and beta != 0:
        result[...] = bias
    if mat.size == 0:
        if bias is None or beta == 0:
            result[...] = 0
        else:
            result *= result.dtype.type(beta)
        return result
    incx = _strides(vec)[0] if inner > 1 else 1
    if incx <= 0:  # gemv_use_fast_path refuses it: ATen's own loop, each entry summed in order from 0
        acc = np.zeros(rows, dtype=mat.dtype)
        for j in range(inner):
            acc += mat[:, j] * vec[j]
        if alpha != 1:
            acc = acc * mat.dtype.type(alpha)
        return acc if bias is None or beta == 0 else result * mat.dtype.type(beta) + acc
    s0, s1 = _strides(mat)
    beta = 0.0 if bias is None else float(beta)
    if s0 == 1 and (inner == 1 or s1 >= max(1, rows)):
        trans, m, n, lda = "n", rows, inner, s1
    elif s1 == 1 and (rows == 1 or s0 >= max(1, inner)):
        trans, m, n, lda = "t", inner, rows, s0
    else:
        mat = np.ascontiguousarray(mat)
        trans, m, n, lda = "t", inner, rows, _strides(mat)[0]
    if n == 1:
        lda = m
    mkl.gemv(char, trans, m, n, float(alpha), _addr(mat), lda, _addr(vec), incx, beta, _addr(result), 1)
    return result


def dot(x, y):
    """torch.dot on two 1-D arrays (a 0-d array); None without MKL."""
    char = _char(x, y)
    if char is None:
        return None
    n = x.shape[0]
    incx, incy = (_strides(x)[0], _strides(y)[0]) if n != 1 else (1, 1)
    if incx < 0 or incy < 0:  # BLAS reads a negative increment from the other end: copy instead (0: broadcast)
        x, y = np.ascontiguousarray(x), np.ascontiguousarray(y)
        incx = incy = 1
    return np.array(mkl.dot(char, n, _addr(x), incx, _addr(y), incy), dtype=x.dtype)


def _contiguous_or_transposed(t) -> bool:
    _, r, c = t.shape
    s = _strides(t)
    return (s[2] == 1 and (r == 1 or s[1] >= c)) or (s[1] == 1 and (c == 1 or s[2] >= r))


def _loop_bmm(a, b):
    """ATen's baddbmm_cpu_kernel (is_bmm): acc = 0; acc += a[i, k] * b[k, j] in k order, in the dtype."""
    acc = np.zeros((a.shape[0], a.shape[1], b.shape[2]), dtype=a.dtype)
    for k in range(a.shape[2]):
        acc += a[:, :, k, None] * b[:, None, k, :]
    return acc


def bmm(a, b):
    """torch.bmm on 3-D arrays (bmm_out_or_baddbmm_); None without MKL."""
    char = _char(a, b)
    if char is None:
        return None
    batch, rows, inner = a.shape
    cols = b.shape[2]
    result = np.empty((batch, rows, cols), dtype=a.dtype)
    if result.size == 0:
        return result
    if inner == 0:
        result[...] = 0
        return result
    if inner * rows * cols < SMALL_BMM:
        return _loop_bmm(a, b)
    if _contiguous_or_transposed(a) and _contiguous_or_transposed(b):
        sa, sb = _strides(a), _strides(b)
        trans_a = sa[1] == 1 and sa[2] >= rows
        trans_b = sb[1] == 1 and sb[2] >= inner
        lda = sa[2] if trans_a else sa[1]
        ldb = sb[2] if trans_b else sb[1]
        ldc = _strides(result)[1]
        if batch == 1:  # cblas_?gemm(CblasRowMajor, ...) is ?gemm on the transposed problem
            mkl.gemm(char, "T" if trans_b else "N", "T" if trans_a else "N", cols, rows, inner, 1.0, _addr(b), ldb,
                     _addr(a), lda, 0.0, _addr(result), ldc)
        else:
            a0, b0, c0 = _addr(a), _addr(b), _addr(result)
            step_a, step_b, step_c = a.strides[0], b.strides[0], result.strides[0]
            mkl.gemm_batch(char, trans_a, trans_b, rows, cols, inner, 1.0,
                           [a0 + i * step_a for i in range(batch)], lda,
                           [b0 + i * step_b for i in range(batch)], ldb, 0.0,
                           [c0 + i * step_c for i in range(batch)], ldc)
        return result
    for i in range(batch):
        addmm_into(result[i], a[i], b[i], 0.0, 1.0, char)
    return result


def should_fold(a, b, fold_grad: bool) -> bool:
    """ATen's should_fold: a >= 3-D operand times a <= 2-D one computed as one mm (or mv) on the larger folded
    to a matrix.  fold_grad: the smaller operand requires grad (then torch folds whatever the strides)."""
    larger_first = a.ndim >= b.ndim
    t1 = a if larger_first else np.swapaxes(b, -1, -2)
    small = b.ndim if larger_first else a.ndim
    if not (t1.ndim >= 3 and small <= 2):
        return False
    if fold_grad:
        return True
    if a.ndim == 2:
        return False
    if t1.size == 0:
        return True
    st = _strides(t1)
    return all(st[i] == st[i + 1] * t1.shape[i + 1] for i in range(t1.ndim - 2))


def matmul(a, b, fold_grad: bool = False):
    """torch.matmul (_matmul_impl) on arrays of >= 1 dims each; None without MKL (or off BLAS)."""
    if _char(a, b) is None:
        return None
    da, db = a.ndim, b.ndim
    if da == 1 and db == 1:
        return dot(a, b)
    if da == 2 and db == 1:
        return mv(a, b)
    if da == 1 and db == 2:
        out = mm(_unsqueeze_first(a), b)
        return None if out is None else out[0]
    if da == 2 and db == 2:
        return mm(a, b)
    if should_fold(a, b, fold_grad):
        transpose = db > da
        t1 = np.swapaxes(b, -1, -2) if transpose else a
        t2 = (a.T if da == 2 else a) if transpose else b
        lead = t1.shape[:-1]
        folded = _reshape(t1, (int(np.prod(lead)), t1.shape[-1]))
        if t2.ndim == 2:
            out = mm(folded, t2)
            if out is None:
                return None
            out = out.reshape(lead + (t2.shape[1],))
            return np.ascontiguousarray(np.swapaxes(out, -1, -2)) if transpose else out
        out = mv(folded, t2)
        return None if out is None else out.reshape(lead)
    n = a.shape[-2] if da > 1 else 1
    p = b.shape[-1] if db > 1 else 1
    batch = np.broadcast_shapes(a.shape[:-2] if da > 2 else (), b.shape[:-2] if db > 2 else ())
    count = int(np.prod(batch))
    a3, b3 = _batched(a, b, batch, count, n, p)
    out = bmm(a3, b3)
    if out is None:
        return None
    shape = batch + ((n,) if da > 1 else ()) + ((p,) if db > 1 else ())
    return out.reshape(shape)


def _view(x, shape, strides):
    """x's memory seen with `shape` and `strides` (in elements)."""
    return np.lib.stride_tricks.as_strided(x, tuple(shape), tuple(int(s) * x.itemsize for s in strides),
                                           writeable=False)


def _expand(x, shape):
    """torch's expand (inferExpandGeometry): strides 0 where a size-1 dim is expanded, and new leading dims of
    size 1 get the stride of a contiguous dim (numpy's broadcast_to gives them 0)."""
    shape = tuple(shape)
    if x.shape == shape:
        return x
    old, old_strides = x.shape, _strides(x)
    sizes, strides = [0] * len(shape), [0] * len(shape)
    for i in range(len(shape) - 1, -1, -1):
        d = x.ndim - len(shape) + i
        size = old[d] if d >= 0 else 1
        stride = old_strides[d] if d >= 0 else sizes[i + 1] * strides[i + 1] if i + 1 < len(shape) else 1
        if size != shape[i]:
            size, stride = shape[i], 0
        sizes[i], strides[i] = size, stride
    return _view(x, sizes, strides)


def _compute_stride(old, old_strides, new):
    """ATen's computeStride: the strides of a view of `old` with shape `new`, or None (a copy is needed)."""
    if not old:
        return [1] * len(new)
    numel = int(np.prod(old))
    if numel == 0:
        if tuple(old) == tuple(new):
            return list(old_strides)
        out = [0] * len(new)
        for d in range(len(new) - 1, -1, -1):
            out[d] = 1 if d == len(new) - 1 else max(new[d + 1], 1) * out[d + 1]
        return out
    out = [0] * len(new)
    view_d = len(new) - 1
    chunk = old_strides[-1]
    tensor_numel = view_numel = 1
    for d in range(len(old) - 1, -1, -1):
        tensor_numel *= old[d]
        if d == 0 or (old[d - 1] != 1 and old_strides[d - 1] != tensor_numel * chunk):
            while view_d >= 0 and (view_numel < tensor_numel or new[view_d] == 1):
                out[view_d] = view_numel * chunk
                view_numel *= new[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                chunk = old_strides[d - 1]
                tensor_numel = view_numel = 1
    return out if view_d == -1 else None


def _reshape(x, shape):
    """torch's reshape: a view with computeStride's strides, else a contiguous copy."""
    shape = tuple(int(s) for s in shape)
    if -1 in shape:
        known = int(np.prod([s for s in shape if s != -1]))
        shape = tuple(x.size // known if s == -1 else s for s in shape)
    strides = _compute_stride(x.shape, _strides(x), shape)
    if strides is None:
        return np.ascontiguousarray(x).reshape(shape)
    return _view(x, shape, strides)


def reshape(x, shape):
    """torch's reshape of an array (a view with ATen's strides where one exists): what ATen hands its products."""
    return _reshape(x, shape)


def _unsqueeze_first(x):
    """x.unsqueeze(0) with torch's stride for the new dim (size * stride of the old first dim)."""
    return np.lib.stride_tricks.as_strided(x, (1,) + x.shape, (x.shape[0] * x.strides[0],) + x.strides,
                                           writeable=False)


def _batched(a, b, batch, count, n, p):
    """_matmul_impl's operands of bmm: each expanded to the broadcast batch and reshaped to 3-D."""
    a3 = _reshape(_expand(a, batch + (n, a.shape[-1])), (count, n, a.shape[-1]))
    if b.ndim == 1:
        b3 = _unsqueeze_last(_reshape(_expand(b, batch + b.shape), (count, b.shape[0])))
    else:
        b3 = _reshape(_expand(b, batch + b.shape[-2:]), (count, b.shape[-2], p))
    return a3, b3


def _unsqueeze_last(x):
    """x.unsqueeze(-1) with torch's stride for the new dim (1)."""
    return np.lib.stride_tricks.as_strided(x, x.shape + (1,), x.strides + (x.itemsize,), writeable=False)


# -- backward: torch's formulas (tools/autograd/derivatives.yaml, FunctionsManual.cpp) on the node matmul made --

def _column_major(x) -> bool:
    """mm_mat?_backward's test: strides (1, size(0))."""
    s = _strides(x)
    return s[0] == 1 and s[1] == x.shape[0]


def mm_backward(g, m1, m2, need1: bool, need2: bool):
    """mm's gradients (mm_mat1_backward, mm_mat2_backward): for an input stored column-major torch computes
    the transposed product and transposes it back."""
    g1 = g2 = None
    if need1:
        g1 = _transposed(mm(m2, g.T)) if _column_major(m1) else mm(g, m2.T)
    if need2:
        g2 = _transposed(mm(g.T, m1)) if _column_major(m2) else mm(m1.T, g)
    return g1, g2


def _transposed(product):
    return None if product is None else product.T  # None: no MKL (the caller falls back)


def _mv_backward(g, mat, vec, need1, need2):
    return (np.multiply(g[:, None], vec[None, :]) if need1 else None,  # grad.ger(vec): reshape(-1, 1) * vec
            mv(mat.T, g) if need2 else None)


def bmm_backward(g, a, b, need1, need2):
    """torch.bmm's gradients: grad.bmm(mat2.transpose(1, 2)), self.transpose(1, 2).bmm(grad); None without MKL."""
    if _char(a, b, g) is None:
        return None
    return _bmm_backward(g, a, b, need1, need2)


def _bmm_backward(g, a, b, need1, need2):
    return (bmm(g, np.swapaxes(b, 1, 2)) if need1 else None, bmm(np.swapaxes(a, 1, 2), g) if need2 else None)


def matmul_backward(g, a, b, need_a: bool, need_b: bool, fold_grad: bool = False):
    """The gradients of torch.matmul(a, b) for the output gradient g, through the nodes _matmul_impl makes
    (a's gradient of the broadcast shape where a was broadcast: the caller sums it); None without MKL."""
    grads = _matmul_backward(g, a, b, need_a, need_b, fold_grad) if _char(a, b, g) is not None else None
    if grads is None or (need_a and grads[0] is None) or (need_b and grads[1] is None):
        return None
    return grads


def _matmul_backward(g, a, b, need_a, need_b, fold_grad):
    da, db = a.ndim, b.ndim
    if da == 1 and db == 1:  # dot: grad * other, grad * self
        return (np.multiply(g, b) if need_a else None), (np.multiply(g, a) if need_b else None)
    if da == 2 and db == 1:
        return _mv_backward(g, a, b, need_a, need_b)
    if da == 1 and db == 2:
        ga, gb = mm_backward(_unsqueeze_first(g), _unsqueeze_first(a), b, need_a, need_b)
        return (None if ga is None else ga[0]), gb
    if da == 2 and db == 2:
        return mm_backward(g, a, b, need_a, need_b)
    if should_fold(a, b, fold_grad):
        transpose = db > da
        t1 = np.swapaxes(b, -1, -2) if transpose else a
        t2 = (a.T if da == 2 else a) if transpose else b
        need1, need2 = (need_b, need_a) if transpose else (need_a, need_b)
        folded = _reshape(t1, (int(np.prod(t1.shape[:-1])), t1.shape[-1]))
        gt = np.swapaxes(g, -1, -2) if transpose and t2.ndim == 2 else g  # mv's result is not transposed
        if t2.ndim == 2:
            g1, g2 = mm_backward(_reshape(gt, (folded.shape[0], t2.shape[1])), folded, t2, need1, need2)
        else:
            g1, g2 = _mv_backward(_reshape(gt, (folded.shape[0],)), folded, t2, need1, need2)
        if g1 is not None:
            g1 = g1.reshape(t1.shape)
            if transpose:
                g1 = np.swapaxes(g1, -1, -2)
        if g2 is not None and transpose and da == 2:
            g2 = g2.T
        return (g2, g1) if transpose else (g1, g2)
    n = a.shape[-2] if da > 1 else 1
    p = b.shape[-1] if db > 1 else 1
    batch = np.broadcast_shapes(a.shape[:-2] if da > 2 else (), b.shape[:-2] if db > 2 else ())
    count = int(np.prod(batch))
    a3, b3 = _batched(a, b, batch, count, n, p)
    g3 = _reshape(g, (count, n, p))
    ga, gb = _bmm_backward(g3, a3, b3, need_a, need_b)
    if ga is not None:
        ga = ga.reshape(batch + ((n,) if da > 1 else ()) + (a.shape[-1],))
    if gb is not None:
        gb = gb.reshape(batch + ((b.shape[-2], p) if db > 1 else (b.shape[0],)))
    return ga, gb
