"""Intel MKL itself, when it is installed: the exact kernels torch's CPU build calls, one switch away.

torch 2.13's CPU wheel links MKL 2024.2 ("Intel(R) oneAPI Math Kernel Library Version 2024.2-Product Build
20240605" in torch.__config__.show()) and hands its float32/float64 matrix products to MKL's sgemm/dgemm,
sgemv/dgemv and sdot/ddot.  Those sum in blocked, vectorised orders that depend on the CPU, the flags and the
sizes; no numpy expression reproduces them.  The PyPI wheel `mkl==2024.2.0` (`pip install 'gradcli[mkl]'`,
~200 MB) is the same library: called with the same arguments it gives torch's bits.  This module finds it
(`libmkl_rt.so.2` in <prefix>/lib, where pip puts the wheel's library), loads it on first use only (never
at gradcli's start-up), and binds the BLAS routines by their Fortran names, as ATen calls them (by pointer).

Threads: MKL splits some products' sums differently with another number of threads, and torch runs MKL with
its default, one thread per physical core (or OMP_NUM_THREADS / MKL_NUM_THREADS): e.g. a float64 (33, 65) @
(65, 17) with the right operand transposed differs on 4 of 561 entries between torch with 1 and with 2 threads.
So MKL keeps its own default here too (the Intel OpenMP layer, the `intel-openmp` wheel `mkl` depends on; GNU
OpenMP's when the process already runs libgomp, as it does after `import torch`), which gives torch's bits for
torch's default; `GRADCLI_MKL_THREADS=n` sets another count (torch.set_num_threads(n)),
1 runs MKL sequentially (no OpenMP runtime at all).  `GRADCLI_MKL=0` in the environment disables MKL: numpy's
BLAS is used then, as without MKL."""

from __future__ import annotations

import ctypes
import os
import site  # (the interpreter imported it at start-up already)
import sys

import numpy as np

ENV = "GRADCLI_MKL"
THREADS_ENV = "GRADCLI_MKL_THREADS"
LIBRARY = "libmkl_rt.so.2"
VERSION = "2024.2"  # the version torch 2.13 links; another one computes other bits
_INTEL, _SEQUENTIAL, _GNU = 0, 1, 3  # MKL_THREADING_INTEL, _SEQUENTIAL, _GNU

_state: dict = {}  # "lib": the loaded library or None, "why": why it is not available


def disabled() -> bool:
    """True when GRADCLI_MKL asks gradcli not to use MKL (0, no, off, false)."""
    return os.environ.get(ENV, "").strip().lower() in ("0", "no", "off", "false")


def _threads() -> int:
    """GRADCLI_MKL_THREADS as a count (0: MKL's default, torch's default)."""
    try:
        return max(0, int(os.environ.get(THREADS_ENV, "0").strip() or 0))
    except ValueError:
        return 0


def _gnu_openmp_loaded() -> bool:
    """Whether GNU OpenMP (libgomp: torch's, or another library's) is already in this process."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            return "libgomp" in maps.read()
    except OSError:
        return False


def _layer() -> int:
    """Intel OpenMP (the wheel's own), or GNU OpenMP when the process already runs it: measured, MKL's threads
    under libiomp5 beside a live libgomp (torch imported first in an API user's process) compute garbage."""
    return _GNU if _gnu_openmp_loaded() else _INTEL


def _candidates():
    """Where pip puts the wheel's library: <prefix>/lib of this environment (a venv's, the interpreter's) or of
    the user's site (pip install --user); importlib.metadata would find it too, at ~10 ms of imports."""
    prefixes = [sys.prefix, sys.base_prefix, getattr(site, "USER_BASE", None) or site.getuserbase()]
    for prefix in dict.fromkeys(prefixes):
        yield os.path.join(prefix, "lib", LIBRARY)


def _version(lib) -> str:
    buf = ctypes.create_string_buffer(256)
    try:
        lib.MKL_Get_Version_String(buf, len(buf))
    except AttributeError:
        return ""
    return buf.value.decode(errors="replace")


def _load():
    if disabled():
        return None, f"{ENV}=0"
    for path in _candidates():
        if not os.path.exists(path):
            continue
        # Intel OpenMP's threads spin 200 ms after each parallel region by default, burning the other cores
        # between small products (a convolution's per-image gemms: 0.36 ms a call instead of 0.035 on a loaded
        # machine); 0 lets them sleep at once.  The same threads, the same split, the same bits; the user's
        # setting wins.
        os.environ.setdefault("KMP_BLOCKTIME", "0")
        try:
            lib = ctypes.CDLL(path)
        except OSError as err:
            return None, f"{path}: {err}"
        threads = _threads()
        lib.MKL_Set_Threading_Layer(ctypes.c_int(_SEQUENTIAL if threads == 1 else _layer()))
        if threads:
            lib.MKL_Set_Num_Threads(ctypes.c_int(threads))
            lib.MKL_Set_Dynamic(ctypes.c_int(0))  # as torch.set_num_threads does
        version = _version(lib)
        if f"Version {VERSION}" not in version:
            return None, f"{path} is {version or 'an unknown version'}, not MKL {VERSION} (torch 2.13's)"
        _bind(lib)
        return lib, ""
    return None, "the mkl package is not installed (pip install 'gradcli[mkl]')"


_P = ctypes.c_void_p
_PI = ctypes.POINTER(ctypes.c_int)


def _bind(lib):
    for name in ("sgemm", "dgemm", "sgemv", "dgemv", "sgetrf", "dgetrf", "sgetrs", "dgetrs", "sgesdd", "dgesdd",
                 "ssyevd", "dsyevd", "spotrf", "dpotrf"):
        getattr(lib, name).restype = None
    for name in ("cblas_sgemm_batch", "cblas_dgemm_batch"):
        getattr(lib, name).restype = None
    lib.sdot.restype = ctypes.c_float
    lib.ddot.restype = ctypes.c_double


def library():
    """The loaded MKL (a ctypes.CDLL), or None; loaded on the first call."""
    try:
        return _state["lib"]
    except KeyError:
        lib, why = _load()
        _state["lib"], _state["why"] = lib, why
        return lib


def loaded() -> bool:
    """Whether MKL was loaded in this process (without loading it)."""
    return _state.get("lib") is not None


def available() -> bool:
    """Whether MKL 2024.2 is installed, loadable and not disabled by GRADCLI_MKL=0."""
    return library() is not None


def why_not() -> str:
    """Why MKL is not used ("" when it is)."""
    library()
    return _state["why"]


def set_threads(count: int) -> None:
    """MKL's thread count from now on (torch.set_num_threads(count)); no effect without MKL."""
    lib = library()
    if lib is not None:
        lib.MKL_Set_Num_Threads(ctypes.c_int(int(count)))
        lib.MKL_Set_Dynamic(ctypes.c_int(0))


def threads() -> int:
    """MKL's current thread count (0 without MKL)."""
    lib = library()
    return int(lib.MKL_Get_Max_Threads()) if lib is not None else 0


def reset() -> None:
    """Forget the loaded state, so that the next call looks again (GRADCLI_MKL changed: tests)."""
    _state.clear()


# -- BLAS, as ATen calls it (column-major, Fortran names, every argument by pointer) ------------------------

def _int(v):
    return ctypes.byref(ctypes.c_int(int(v)))


def gemm(char, transa: str, transb: str, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) -> None:
    """?gemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) on raw addresses; char "s" or "d"."""
    lib = _state["lib"]
    scalar = ctypes.c_float if char == "s" else ctypes.c_double
    getattr(lib, char + "gemm")(ctypes.c_char_p(transa.encode()), ctypes.c_char_p(transb.encode()),
                                _int(m), _int(n), _int(k), ctypes.byref(scalar(alpha)), _P(a), _int(lda),
                                _P(b), _int(ldb), ctypes.byref(scalar(beta)), _P(c), _int(ldc))


def gemv(char, trans: str, m, n, alpha, a, lda, x, incx, beta, y, incy) -> None:
    """?gemv(trans, m, n, alpha, a, lda, x, incx, beta, y, incy) on raw addresses."""
    lib = _state["lib"]
    scalar = ctypes.c_float if char == "s" else ctypes.c_double
    getattr(lib, char + "gemv")(ctypes.c_char_p(trans.encode()), _int(m), _int(n), ctypes.byref(scalar(alpha)),
                                _P(a), _int(lda), _P(x), _int(incx), ctypes.byref(scalar(beta)), _P(y), _int(incy))


def getrf(char, m, n, a, lda, ipiv) -> int:
    """?getrf(m, n, a, lda, ipiv, info) on raw addresses (ipiv: int32, 1-based); LAPACK's info."""
    info = ctypes.c_int(0)
    getattr(_state["lib"], char + "getrf")(_int(m), _int(n), _P(a), _int(lda), _P(ipiv), ctypes.byref(info))
    return info.value


def getrs(char, trans: str, n, nrhs, a, lda, ipiv, b, ldb) -> int:
    """?getrs(trans, n, nrhs, a, lda, ipiv, b, ldb, info) on raw addresses; LAPACK's info."""
    info = ctypes.c_int(0)
    getattr(_state["lib"], char + "getrs")(ctypes.c_char_p(trans.encode()), _int(n), _int(nrhs), _P(a), _int(lda),
                                           _P(ipiv), _P(b), _int(ldb), ctypes.byref(info))
    return info.value


def gesdd(char, jobz: str, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork) -> int:
    """?gesdd(jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork, info) on raw addresses (u, vt: 0 when
    jobz is 'N'); LAPACK's info.  lwork -1 is the workspace query: the optimal size comes back in work[0]."""
    info = ctypes.c_int(0)
    getattr(_state["lib"], char + "gesdd")(ctypes.c_char_p(jobz.encode()), _int(m), _int(n), _P(a), _int(lda),
                                           _P(s), _P(u), _int(ldu), _P(vt), _int(ldvt), _P(work), _int(lwork),
                                           _P(iwork), ctypes.byref(info))
    return info.value


def syevd(char, jobz: str, uplo: str, n, a, lda, w, work, lwork, iwork, liwork) -> int:
    """?syevd(jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork, info) on raw addresses; LAPACK's info (lwork
    and liwork -1: the workspace query, sizes in work[0] and iwork[0])."""
    info = ctypes.c_int(0)
    getattr(_state["lib"], char + "syevd")(ctypes.c_char_p(jobz.encode()), ctypes.c_char_p(uplo.encode()), _int(n),
                                           _P(a), _int(lda), _P(w), _P(work), _int(lwork), _P(iwork), _int(liwork),
                                           ctypes.byref(info))
    return info.value


def potrf(char, uplo: str, n, a, lda) -> int:
    """?potrf(uplo, n, a, lda, info) on raw addresses; LAPACK's info."""
    info = ctypes.c_int(0)
    getattr(_state["lib"], char + "potrf")(ctypes.c_char_p(uplo.encode()), _int(n), _P(a), _int(lda),
                                           ctypes.byref(info))
    return info.value


def dot(char, n, x, incx, y, incy) -> float:
    """?dot(n, x, incx, y, incy) on raw addresses."""
    return getattr(_state["lib"], char + "dot")(_int(n), _P(x), _int(incx), _P(y), _int(incy))


# VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE: the mode ATen passes (aten/src/ATen/cpu/vml.h, IMPLEMENT_VML_MKL)
VML_MODE = 0x00000002 | 0x00140000 | 0x00000100
_VML: dict = {}


def vml(name: str, x):
    """MKL's vector math vm?<name>(n, x, y, mode) on a float32/float64 array (any layout: a contiguous copy is
    passed, as ATen's loop copies strided input into a buffer); the result has x's shape, C-contiguous."""
    x = np.asarray(x)
    shape = x.shape
    x = np.ascontiguousarray(x)  # (a 0-d array comes back 1-d: the result is given x's shape below)
    out = np.empty_like(x)
    key = ("s" if x.dtype == np.float32 else "d") + name
    fn = _VML.get(key)
    if fn is None:
        fn = getattr(_state["lib"], "vm" + key)
        fn.restype = None
        fn.argtypes = (ctypes.c_int, _P, _P, ctypes.c_longlong)
        _VML[key] = fn
    if x.size:
        fn(x.size, x.ctypes.data, out.ctypes.data, VML_MODE)
    return out.reshape(shape)


def gemm_batch(char, trans_a: bool, trans_b: bool, m, n, k, alpha, a_ptrs, lda, b_ptrs, ldb, beta, c_ptrs,
               ldc) -> None:
    """cblas_?gemm_batch(CblasRowMajor, one group of len(a_ptrs) products), as ATen's _baddbmm_mkl_ calls it."""
    lib = _state["lib"]
    scalar = ctypes.c_float if char == "s" else ctypes.c_double
    count = len(a_ptrs)
    arrays = [(_P * count)(*p) for p in (a_ptrs, b_ptrs, c_ptrs)]
    getattr(lib, f"cblas_{char}gemm_batch")(
        ctypes.c_int(101), ctypes.byref(ctypes.c_int(112 if trans_a else 111)),
        ctypes.byref(ctypes.c_int(112 if trans_b else 111)), _int(m), _int(n), _int(k),
        ctypes.byref(scalar(alpha)), arrays[0], _int(lda), arrays[1], _int(ldb), ctypes.byref(scalar(beta)),
        arrays[2], _int(ldc), ctypes.c_int(1), _int(count))
