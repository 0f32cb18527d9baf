"""Elementwise kernels and reductions at 10^6 elements: gradcli's forward of one op against numpy's own best
expression of the same formula and PyTorch (one thread), measured in one process (never asserted in tests).

  python benchmarks/bench_kernels.py                         # default mode (fast kernels)
  python benchmarks/bench_kernels.py --bits torch            # the bit-exact kernels
  python benchmarks/bench_kernels.py --baseline /tmp/old     # also an older gradcli, interleaved op by op
  python benchmarks/bench_kernels.py --ops sigmoid,exp --repeat 9

For each op and dtype (float32, float64): the best of N forward calls of the registry op on a Tensor that does
not require grad; numpy's own best expression of the same formula (its column "numpy expression" names it);
torch's op with torch.set_num_threads(1) (when installed); and the ratio gradcli / max(numpy, torch), the
contract's bound being 2.0 (issue 27).  With --baseline DIR the same op is timed, between the others, by a
worker process that imports the gradcli found in DIR, so before and after are measured side by side under the
same load.  Everything runs on one thread: torch's, and numpy's BLAS (np.linalg.norm is a dot product); the
times are that thread's CPU time (--clock wall: wall time), which on a shared machine does not count the time
other processes held the core.

The numpy yardstick:
- a numpy function where numpy has one (np.sin, np.logaddexp, np.linalg.norm, np.maximum.accumulate, ...);
- else the formula as a numpy user writes it in the input's dtype (sigmoid: 1 / (1 + np.exp(-x)), hardswish:
  clip(x + 3, 0, 6) * x / 6 in place, selu: scale * (max(x, 0) + alpha * expm1(min(x, 0))), ...);
- erf, erfc, erfinv, gelu, which numpy lacks (scipy is no dependency): the published approximations of the same
  accuracy as gradcli's fast kernels, written as a competent numpy user would (benchmarks/special_baselines.py:
  Cephes' ndtr.c/ndtrf.c rational approximations for erf/erfc, Giles' erfinv polynomials, gelu as torch's
  x * 0.5 * (1 + erf(x / sqrt 2)) on that erf; Horner in place, each region on its own elements, exp(-x**2)
  split as Cephes' expx2; within 2-10 ulps of torch, as the kernels' 2-6; `python
  benchmarks/special_baselines.py` measures it);
- '-' (torch alone) for lgamma and digamma: the published approximations (Cephes' lgam and psi, written out in
  special_baselines.py) are 1,700-3,100 ulps from torch near their zeros and root where the kernels are 6-128,
  so they are not of the same accuracy and are not the yardstick.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path

# one thread each: numpy's BLAS (np.linalg.norm's dot) as torch.set_num_threads(1) below; set before numpy loads
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import special_baselines as special  # noqa: E402

N = 10**6

# name -> (gradcli call, numpy formula or None, torch call, input domain)
# a domain: (low, high) uniform, "normal", or "positive" (0.01 .. 10)


def _np_sigmoid(x):
    one = x.dtype.type(1)
    return one / (one + np.exp(-x))


def _np_softplus(x):
    return np.logaddexp(x.dtype.type(0), x)


def _np_silu(x):
    one = x.dtype.type(1)
    return x / (one + np.exp(-x))


def _np_hardswish(x):
    d = x.dtype.type
    t = x + d(3)
    np.clip(t, d(0), d(6), out=t)
    t *= x
    t /= d(6)
    return t


SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _np_selu(x):
    d = x.dtype.type
    e = np.minimum(x, d(0))
    np.expm1(e, out=e)
    e *= d(SELU_ALPHA)
    e += np.maximum(x, d(0))
    e *= d(SELU_SCALE)
    return e


def _np_logsumexp(x):
    m = x.max(axis=1, keepdims=True)
    return (np.log(np.exp(x - m).sum(axis=1, keepdims=True)) + m)[:, 0]


def _op(E, name):
    fn = getattr(E.ops, name, None)
    return fn if fn is not None else E.ops.REGISTRY[name].fn


CASES = {
    # the table
    "sigmoid": (lambda E, t: _op(E, "sigmoid")(t), _np_sigmoid, lambda T, t: T.sigmoid(t), "normal"),
    "pow 1.7": (lambda E, t: _op(E, "pow")(t, 1.7), lambda x: np.power(x, x.dtype.type(1.7)),
                lambda T, t: T.pow(t, 1.7), "positive"),
    "sin": (lambda E, t: _op(E, "sin")(t), np.sin, lambda T, t: T.sin(t), (-10, 10)),
    "sqrt": (lambda E, t: _op(E, "sqrt")(t), np.sqrt, lambda T, t: T.sqrt(t), "positive"),
    "exp": (lambda E, t: _op(E, "exp")(t), np.exp, lambda T, t: T.exp(t), (-20, 20)),
    "sum": (lambda E, t: _op(E, "sum")(t), np.sum, lambda T, t: T.sum(t), "normal"),
    # the other unary ops
    "cos": (lambda E, t: _op(E, "cos")(t), np.cos, lambda T, t: T.cos(t), (-10, 10)),
    "tan": (lambda E, t: _op(E, "tan")(t), np.tan, lambda T, t: T.tan(t), (-1.5, 1.5)),
    "tanh": (lambda E, t: _op(E, "tanh")(t), np.tanh, lambda T, t: T.tanh(t), "normal"),
    "log": (lambda E, t: _op(E, "log")(t), np.log, lambda T, t: T.log(t), "positive"),
    "log2": (lambda E, t: _op(E, "log2")(t), np.log2, lambda T, t: T.log2(t), "positive"),
    "log10": (lambda E, t: _op(E, "log10")(t), np.log10, lambda T, t: T.log10(t), "positive"),
    "log1p": (lambda E, t: _op(E, "log1p")(t), np.log1p, lambda T, t: T.log1p(t), "positive"),
    "expm1": (lambda E, t: _op(E, "expm1")(t), np.expm1, lambda T, t: T.expm1(t), (-20, 20)),
    "exp2": (lambda E, t: _op(E, "exp2")(t), np.exp2, lambda T, t: T.exp2(t), (-20, 20)),
    "sinh": (lambda E, t: _op(E, "sinh")(t), np.sinh, lambda T, t: T.sinh(t), (-10, 10)),
    "cosh": (lambda E, t: _op(E, "cosh")(t), np.cosh, lambda T, t: T.cosh(t), (-10, 10)),
    "asin": (lambda E, t: _op(E, "asin")(t), np.arcsin, lambda T, t: T.asin(t), (-1, 1)),
    "acos": (lambda E, t: _op(E, "acos")(t), np.arccos, lambda T, t: T.acos(t), (-1, 1)),
    "atan": (lambda E, t: _op(E, "atan")(t), np.arctan, lambda T, t: T.atan(t), "normal"),
    "asinh": (lambda E, t: _op(E, "asinh")(t), np.arcsinh, lambda T, t: T.asinh(t), "normal"),
    "acosh": (lambda E, t: _op(E, "acosh")(t), np.arccosh, lambda T, t: T.acosh(t), (1, 10)),
    "atanh": (lambda E, t: _op(E, "atanh")(t), np.arctanh, lambda T, t: T.atanh(t), (-0.99, 0.99)),
    "rsqrt": (lambda E, t: _op(E, "rsqrt")(t), lambda x: 1 / np.sqrt(x), lambda T, t: T.rsqrt(t), "positive"),
    "reciprocal": (lambda E, t: _op(E, "reciprocal")(t), np.reciprocal, lambda T, t: T.reciprocal(t), "positive"),
    "abs": (lambda E, t: _op(E, "abs")(t), np.abs, lambda T, t: T.abs(t), "normal"),
    "neg": (lambda E, t: _op(E, "neg")(t), np.negative, lambda T, t: T.neg(t), "normal"),
    "square": (lambda E, t: _op(E, "square")(t), np.square, lambda T, t: T.square(t), "normal"),
    "relu": (lambda E, t: _op(E, "relu")(t), lambda x: np.maximum(x, 0), lambda T, t: T.relu(t), "normal"),
    "sign": (lambda E, t: _op(E, "sign")(t), np.sign, lambda T, t: T.sign(t), "normal"),
    "floor": (lambda E, t: _op(E, "floor")(t), np.floor, lambda T, t: T.floor(t), (-10, 10)),
    "round": (lambda E, t: _op(E, "round")(t), np.round, lambda T, t: T.round(t), (-10, 10)),
    "trunc": (lambda E, t: _op(E, "trunc")(t), np.trunc, lambda T, t: T.trunc(t), (-10, 10)),
    "frac": (lambda E, t: _op(E, "frac")(t), lambda x: x - np.trunc(x), lambda T, t: T.frac(t), (-10, 10)),
    "erf": (lambda E, t: _op(E, "erf")(t), special.erf, lambda T, t: T.erf(t), "normal"),
    "erfc": (lambda E, t: _op(E, "erfc")(t), special.erfc, lambda T, t: T.erfc(t), "normal"),
    "erfinv": (lambda E, t: _op(E, "erfinv")(t), special.erfinv, lambda T, t: T.erfinv(t), (-0.99, 0.99)),
    "lgamma": (lambda E, t: _op(E, "lgamma")(t), None, lambda T, t: T.lgamma(t), "positive"),
    "digamma": (lambda E, t: _op(E, "digamma")(t), None, lambda T, t: T.digamma(t), "positive"),
    "logit": (lambda E, t: _op(E, "logit")(t), lambda x: np.log(x / (1 - x)), lambda T, t: T.logit(t), (0.01, 0.99)),
    "sinc": (lambda E, t: _op(E, "sinc")(t), np.sinc, lambda T, t: T.sinc(t), (-10, 10)),
    "silu": (lambda E, t: _op(E, "silu")(t), _np_silu, lambda T, t: T.nn.functional.silu(t), "normal"),
    "softplus": (lambda E, t: _op(E, "softplus")(t), _np_softplus, lambda T, t: T.nn.functional.softplus(t), "normal"),
    "logsigmoid": (lambda E, t: _op(E, "logsigmoid")(t), lambda x: -np.logaddexp(x.dtype.type(0), -x),
                   lambda T, t: T.nn.functional.logsigmoid(t), "normal"),
    "gelu": (lambda E, t: _op(E, "gelu")(t), special.gelu, lambda T, t: T.nn.functional.gelu(t), "normal"),
    "mish": (lambda E, t: _op(E, "mish")(t), lambda x: x * np.tanh(np.logaddexp(x.dtype.type(0), x)),
             lambda T, t: T.nn.functional.mish(t), "normal"),
    "elu": (lambda E, t: _op(E, "elu")(t), lambda x: np.where(x > 0, x, np.expm1(x)),
            lambda T, t: T.nn.functional.elu(t), "normal"),
    "selu": (lambda E, t: _op(E, "selu")(t), _np_selu, lambda T, t: T.nn.functional.selu(t), "normal"),
    "softsign": (lambda E, t: _op(E, "softsign")(t), lambda x: x / (1 + np.abs(x)),
                 lambda T, t: T.nn.functional.softsign(t), "normal"),
    "hardswish": (lambda E, t: _op(E, "hardswish")(t), _np_hardswish, lambda T, t: T.nn.functional.hardswish(t),
                  "normal"),
    "ceil": (lambda E, t: _op(E, "ceil")(t), np.ceil, lambda T, t: T.ceil(t), (-10, 10)),
    "nan_to_num": (lambda E, t: _op(E, "nan_to_num")(t), np.nan_to_num, lambda T, t: T.nan_to_num(t), "normal"),
    "clamp": (lambda E, t: _op(E, "clamp")(t, -1.0, 1.0), lambda x: np.clip(x, -1, 1), lambda T, t: T.clamp(t, -1, 1),
              "normal"),
    "celu": (lambda E, t: _op(E, "celu")(t), lambda x: np.where(x > 0, x, np.expm1(x)),
             lambda T, t: T.nn.functional.celu(t), "normal"),
    "leaky_relu": (lambda E, t: _op(E, "leaky_relu")(t), lambda x: np.where(x > 0, x, x * x.dtype.type(0.01)),
                   lambda T, t: T.nn.functional.leaky_relu(t), "normal"),
    "hardtanh": (lambda E, t: _op(E, "hardtanh")(t), lambda x: np.clip(x, -1, 1),
                 lambda T, t: T.nn.functional.hardtanh(t), "normal"),
    "relu6": (lambda E, t: _op(E, "relu6")(t), lambda x: np.clip(x, 0, 6), lambda T, t: T.nn.functional.relu6(t),
              "normal"),
    "hardsigmoid": (lambda E, t: _op(E, "hardsigmoid")(t), lambda x: np.clip(x / 6 + 0.5, 0, 1),
                    lambda T, t: T.nn.functional.hardsigmoid(t), "normal"),
    # binary ops
    "minimum": (lambda E, t: _op(E, "minimum")(t, t), lambda x: np.minimum(x, x), lambda T, t: T.minimum(t, t),
                "normal"),
    "fmax": (lambda E, t: _op(E, "fmax")(t, t), lambda x: np.fmax(x, x), lambda T, t: T.fmax(t, t), "normal"),
    "fmod": (lambda E, t: _op(E, "fmod")(t, 1.5), lambda x: np.fmod(x, x.dtype.type(1.5)), lambda T, t: T.fmod(t, 1.5),
             "normal"),
    "remainder": (lambda E, t: _op(E, "remainder")(t, 1.5), lambda x: np.remainder(x, x.dtype.type(1.5)),
                  lambda T, t: T.remainder(t, 1.5), "normal"),
    "copysign": (lambda E, t: _op(E, "copysign")(t, t), lambda x: np.copysign(x, x), lambda T, t: T.copysign(t, t),
                 "normal"),
    "xlogy": (lambda E, t: _op(E, "xlogy")(t, t), lambda x: x * np.log(x), lambda T, t: T.xlogy(t, t), "positive"),
    "logaddexp2": (lambda E, t: _op(E, "logaddexp2")(t, t), lambda x: np.logaddexp2(x, x),
                   lambda T, t: T.logaddexp2(t, t), "normal"),
    "lerp": (lambda E, t: _op(E, "lerp")(t, t, 0.3), lambda x: x + x.dtype.type(0.3) * (x - x),
             lambda T, t: T.lerp(t, t, 0.3), "normal"),
    "addcmul": (lambda E, t: _op(E, "addcmul")(t, t, t), lambda x: x + x * x, lambda T, t: T.addcmul(t, t, t),
                "normal"),
    "addcdiv": (lambda E, t: _op(E, "addcdiv")(t, t, t), lambda x: x + x / x, lambda T, t: T.addcdiv(t, t, t),
                "positive"),
    "where": (lambda E, t: _op(E, "where")(_op(E, "gt")(t, 0), t, _op(E, "neg")(t)), lambda x: np.where(x > 0, x, -x),
              lambda T, t: T.where(t > 0, t, -t), "normal"),
    "pow x**y": (lambda E, t: _op(E, "pow")(t, t), lambda x: np.power(x, x), lambda T, t: T.pow(t, t), "positive"),
    "add": (lambda E, t: _op(E, "add")(t, t), np.add.reduce and (lambda x: x + x), lambda T, t: T.add(t, t), "normal"),
    "mul": (lambda E, t: _op(E, "mul")(t, t), lambda x: x * x, lambda T, t: T.mul(t, t), "normal"),
    "div": (lambda E, t: _op(E, "div")(t, t), lambda x: x / x, lambda T, t: T.div(t, t), "positive"),
    "atan2": (lambda E, t: _op(E, "atan2")(t, t), lambda x: np.arctan2(x, x), lambda T, t: T.atan2(t, t), "normal"),
    "hypot": (lambda E, t: _op(E, "hypot")(t, t), lambda x: np.hypot(x, x), lambda T, t: T.hypot(t, t), "normal"),
    "logaddexp": (lambda E, t: _op(E, "logaddexp")(t, t), lambda x: np.logaddexp(x, x), lambda T, t: T.logaddexp(t, t),
                  "normal"),
    "maximum": (lambda E, t: _op(E, "maximum")(t, t), lambda x: np.maximum(x, x), lambda T, t: T.maximum(t, t),
                "normal"),
    # reductions
    "mean": (lambda E, t: _op(E, "mean")(t), np.mean, lambda T, t: T.mean(t), "normal"),
    "prod": (lambda E, t: _op(E, "prod")(t), np.prod, lambda T, t: T.prod(t), (0.999, 1.001)),
    "amax": (lambda E, t: _op(E, "amax")(t), np.max, lambda T, t: T.amax(t), "normal"),
    "norm": (lambda E, t: _op(E, "norm")(t), np.linalg.norm, lambda T, t: T.norm(t), "normal"),
    "var": (lambda E, t: _op(E, "var")(t), lambda x: x.var(ddof=1), lambda T, t: T.var(t), "normal"),
    "amin": (lambda E, t: _op(E, "amin")(t), np.min, lambda T, t: T.amin(t), "normal"),
    "max": (lambda E, t: _op(E, "max")(t), np.max, lambda T, t: T.max(t), "normal"),
    "min": (lambda E, t: _op(E, "min")(t), np.min, lambda T, t: T.min(t), "normal"),
    "std": (lambda E, t: _op(E, "std")(t), lambda x: x.std(ddof=1), lambda T, t: T.std(t), "normal"),
    "median": (lambda E, t: _op(E, "median")(t), np.median, lambda T, t: T.median(t), "normal"),
    "cumprod": (lambda E, t: _op(E, "cumprod")(t, 0), np.cumprod, lambda T, t: T.cumprod(t, 0), (0.999, 1.001)),
    "cummax": (lambda E, t: _op(E, "cummax")(t, 0), np.maximum.accumulate, lambda T, t: T.cummax(t, 0), "normal"),
    "logcumsumexp": (lambda E, t: _op(E, "logcumsumexp")(t, 0), np.logaddexp.accumulate,
                     lambda T, t: T.logcumsumexp(t, 0), "normal"),
    "cumsum": (lambda E, t: _op(E, "cumsum")(t, 0), np.cumsum, lambda T, t: T.cumsum(t, 0), "normal"),
    "logsumexp 1000": (lambda E, t: _op(E, "logsumexp")(_op(E, "reshape")(t, (1000, 1000)), 1),
                       lambda x: _np_logsumexp(x.reshape(1000, 1000)),
                       lambda T, t: T.logsumexp(t.reshape(1000, 1000), 1), "normal"),
}


# what numpy's column times, in short, where it is not one numpy function (those print as np.<name>)
EXPRESSIONS = {
    "sigmoid": "1/(1+exp(-x))", "pow 1.7": "np.power", "rsqrt": "1/sqrt(x)", "relu": "maximum(x,0)",
    "frac": "x-trunc(x)", "erf": "Cephes ndtr", "erfc": "Cephes ndtr", "erfinv": "Giles", "gelu": "Cephes x/2(1+erf)",
    "logit": "log(x/(1-x))", "silu": "x/(1+exp(-x))", "softplus": "logaddexp(0,x)", "logsigmoid": "-logaddexp(0,-x)",
    "mish": "x*tanh(logaddexp)", "elu": "where+expm1", "selu": "expm1(min)+max", "softsign": "x/(1+|x|)",
    "hardswish": "x*clip(x+3)/6", "clamp": "np.clip", "celu": "where+expm1", "leaky_relu": "where(x>0,..)",
    "hardtanh": "np.clip", "relu6": "np.clip", "hardsigmoid": "clip(x/6+.5)", "minimum": "np.minimum",
    "fmax": "np.fmax", "fmod": "np.fmod", "remainder": "np.remainder", "copysign": "np.copysign",
    "xlogy": "x*log(x)", "logaddexp2": "np.logaddexp2", "lerp": "x+w*(y-x)", "addcmul": "x+x*x", "addcdiv": "x+x/x",
    "where": "np.where", "pow x**y": "np.power", "add": "x+x", "mul": "x*x", "div": "x/x", "atan2": "np.arctan2",
    "hypot": "np.hypot", "logaddexp": "np.logaddexp", "maximum": "np.maximum", "var": "x.var", "std": "x.std",
    "cummax": "maximum.accumulate", "logcumsumexp": "logaddexp.accum", "norm": "linalg.norm (dot)",
    "logsumexp 1000": "max,exp,sum,log",
}


def expression(name):
    fn = CASES[name][1]
    if fn is None:
        return "-"
    return EXPRESSIONS.get(name) or f"np.{getattr(fn, '__name__', '?')}"


def inputs(domain, dtype):
    rng = np.random.default_rng(0)
    if domain == "normal":
        x = rng.standard_normal(N)
    elif domain == "positive":
        x = rng.uniform(0.01, 10, N)
    else:
        x = rng.uniform(*domain, N)
    return x.astype(dtype)


# the calling thread's CPU time (user + system, page faults included) by default: on one thread each it is the
# wall time of a quiet machine, and on a shared one it does not count the time other processes held the core
CLOCK = time.perf_counter if os.environ.get("BENCH_CLOCK") == "wall" else time.thread_time


def best_of(fn, repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t0 = CLOCK()
        fn()
        times.append(CLOCK() - t0)
    return min(times)


def gradcli_time(E, name, dtype, repeat):
    call = CASES[name][0]
    t = E.Tensor(inputs(CASES[name][3], dtype))
    return best_of(lambda: call(E, t), repeat)


def warm_allocator():
    """Free one 16 MB array, so that the C allocator's adaptive thresholds are where a process doing large
    array work settles: glibc maps every block above 128 KB afresh (page faults on each use) until it frees one,
    then raises the threshold to that block's size (at most 32 MB) and keeps freed memory up to twice that.
    Without this, the first ops timed in a process ran 2-3x slower than the same ops later on (numpy's Cephes
    erf: 18 ms first, 7 ms after), whichever side they were on."""
    np.ones(1 << 21).sum()  # 16 MB: a block above the 32 MB cap would not move the threshold


def worker():
    """Answer `name dtype repeat` lines with the time of the gradcli on sys.path (--baseline)."""
    from gradcli import engine as E

    gc.freeze()
    warm_allocator()
    for line in sys.stdin:
        name, dtype, repeat = json.loads(line)
        try:
            seconds = gradcli_time(E, name, np.dtype(dtype), repeat)
        except Exception as exc:  # an op the old engine lacks
            seconds = repr(exc)
        print(json.dumps(seconds), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--ops", default="", help="comma-separated names (default: all)")
    parser.add_argument("--dtypes", default="float32,float64")
    parser.add_argument("--baseline", default="", help="a directory holding another gradcli, timed alongside")
    parser.add_argument("--bits", choices=("fast", "torch"), default="fast")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="the thread's CPU time (default) or wall time")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    global CLOCK
    if args.worker:
        return worker()
    os.environ["BENCH_CLOCK"] = args.clock  # the --baseline worker's clock too
    CLOCK = time.perf_counter if args.clock == "wall" else time.thread_time
    os.environ["GRADCLI_BITS"] = args.bits
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from gradcli import engine as E

    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    old = None
    if args.baseline:
        env = dict(os.environ, PYTHONPATH=str(Path(args.baseline).resolve()))
        old = subprocess.Popen([sys.executable, __file__, "--worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, env=env, cwd=args.baseline)
    gc.freeze()
    warm_allocator()
    names = [n.strip() for n in args.ops.split(",") if n.strip()] or list(CASES)
    print(f"forward of one op on {N:.0e} elements, best of {args.repeat} ({args.clock} time), bits={args.bits}; "
          f"ratio = gradcli / max(numpy, torch); torch {'1 thread' if torch else 'not installed'}")
    head = f"{'op':<16}{'dtype':<9}{'numpy expression':<20}{'numpy':>9}{'torch':>9}{'gradcli':>10}{'ratio':>8}"
    if old:
        head += f"{'before':>10}{'ratio':>8}"
    print(head)
    worst = 0.0
    for name in names:
        _, np_fn, torch_fn, domain = CASES[name]
        for dtype in args.dtypes.split(","):
            dtype = np.dtype(dtype)
            x = inputs(domain, dtype)
            t_np = best_of(lambda np_fn=np_fn, x=x: np_fn(x), args.repeat) if np_fn else None
            t_pt = None
            if torch is not None:
                xt = torch.from_numpy(x.copy())
                t_pt = best_of(lambda torch_fn=torch_fn, xt=xt: torch_fn(torch, xt), args.repeat)
            t_gc = gradcli_time(E, name, dtype, args.repeat)
            base = max(t for t in (t_np, t_pt) if t is not None)
            worst = max(worst, t_gc / base)

            def ms(t):
                return f"{t * 1e3:7.2f}ms" if isinstance(t, float) else f"{'-':>9}"

            line = f"{name:<16}{dtype.name:<9}{expression(name):<20}{ms(t_np)}{ms(t_pt)}"
            line += f"{ms(t_gc):>10}{t_gc / base:7.2f}x"
            if old:
                old.stdin.write(json.dumps([name, dtype.name, args.repeat]) + "\n")
                old.stdin.flush()
                t_old = json.loads(old.stdout.readline())
                line += f"{ms(t_old):>10}{t_old / base:7.2f}x" if isinstance(t_old, float) else "      (n/a)"
            print(line, flush=True)
    print(f"worst ratio {worst:.2f}x (bound 2.00x)")
    if old:
        old.stdin.close()
        old.wait()


if __name__ == "__main__":
    main()
