"""Engine speed, as ratios against baselines measured in the same run (never asserted in tests).

  python benchmarks/bench_engine.py            # everything
  python benchmarks/bench_engine.py --quick    # 10^6 only, fewer repeats
  python benchmarks/bench_engine.py --threads 2  # both sides on 2 threads (default: 1 each)

1. Large tensors: forward+backward of gradcli's engine vs hand-written numpy (the same expression in numpy
   plus its gradient formula written by hand, reusing forward intermediates), and vs PyTorch if installed.
2. Per-op overhead: a 10,000-op chain on 3-element tensors, forward plus backward, in microseconds per op.
3. Start-up: `gradcli eval "(x**2).sum()" x=[1,2,3] --json` vs `python -c "import numpy"`.

Times are the process's CPU time (--clock wall: wall-clock time; start-up is always wall time), and both sides
get the same number of threads (--threads, default 1): gradcli's numpy ufuncs run on one thread, so
torch.set_num_threads and numpy's BLAS (OpenBLAS/MKL, set through the environment before numpy loads) get
--threads each.  (torch's default, every core, made the logsumexp row compare gradcli's one thread with torch's
two: 1.38x in wall time while gradcli used 0.39x torch's CPU time.)
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

THREADS = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 1
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # before numpy loads its BLAS
    os.environ[_var] = str(THREADS)

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gradcli import engine as E  # noqa: E402

try:
    import torch

    torch.set_num_threads(THREADS)
except ImportError:  # PyTorch is optional: its column is skipped
    torch = None


# the process's CPU time (every thread's, page faults included) by default: with one thread each it is the wall
# time of a quiet machine, and on a shared one it does not count the time other processes held the cores
CLOCK = time.perf_counter if "--clock" in sys.argv and sys.argv[sys.argv.index("--clock") + 1] == "wall" \
    else time.process_time


def best_of(fn, repeat: int) -> float:
    fn()  # warm-up (page faults, caches)
    times = []
    for _ in range(repeat):
        gc.collect()
        t0 = CLOCK()
        fn()
        times.append(CLOCK() - t0)
    return min(times)


# -- 1. large tensors ----------------------------------------------------------------------------------

def numpy_square_sum(x):
    loss = (x ** 2).sum()
    return loss, 2.0 * x


def numpy_sin_exp_mean(x):
    s, e = np.sin(x), np.exp(x)
    loss = np.mean(s * e)
    return loss, (np.cos(x) + s) * e / x.size


def numpy_matmul_tanh(W, V):
    t = np.tanh(W @ V)
    loss = t.sum()
    g = 1.0 - t * t
    return loss, g @ V.T, W.T @ g


def numpy_logsumexp_sum(x):
    m = x.max(axis=1, keepdims=True)
    e = np.exp(x - m)
    s = e.sum(axis=1, keepdims=True)
    loss = (np.log(s) + m).sum()
    return loss, e / s


def loss_of(name, tensors):
    """The benchmarked expression, written once: gradcli's Tensor and torch.Tensor share this API."""
    if name == "square_sum":
        (x,) = tensors
        return (x ** 2).sum()
    if name == "sin_exp_mean":
        (x,) = tensors
        return (x.sin() * x.exp()).mean()
    if name == "logsumexp":
        (x,) = tensors
        return x.logsumexp(dim=1).sum()
    W, V = tensors
    return (W @ V).tanh().sum()


def forward_backward(name, tensors):
    def run():
        for t in tensors:
            t.grad = None
        loss_of(name, tensors).backward()

    return run


HAND_WRITTEN = {"square_sum": numpy_square_sum, "sin_exp_mean": numpy_sin_exp_mean,
                "matmul_tanh": numpy_matmul_tanh, "logsumexp": numpy_logsumexp_sum}


def check_same_gradients(name, arrays):
    """The benchmark is only meaningful if both sides compute the same thing."""
    tensors = [E.Tensor(a, requires_grad=True) for a in arrays]
    loss_of(name, tensors).backward()
    for t, g in zip(tensors, HAND_WRITTEN[name](*arrays)[1:]):
        np.testing.assert_allclose(t.grad.array, g, rtol=1e-8, atol=1e-10)


def bench_large(sizes, repeat):
    rng = np.random.default_rng(0)
    clock = "wall" if CLOCK is time.perf_counter else "CPU"
    print(f"1. forward+backward on large tensors (float64, best of {repeat}, {clock} time, {THREADS} thread(s) each)")
    header = f"{'case':<34}{'numpy by hand':>14}{'gradcli':>10}{'ratio':>8}"
    header += f"{'torch':>10}{'ratio':>8}" if torch is not None else "   (torch not installed)"
    print(header)
    cases = [(f"(x**2).sum()  x: {n:.0e}", "square_sum", [rng.standard_normal(n)]) for n in sizes]
    cases += [(f"(x.sin()*x.exp()).mean()  {n:.0e}", "sin_exp_mean", [rng.standard_normal(n)]) for n in sizes]
    cases += [("logsumexp(dim=1).sum() 4096×1000", "logsumexp", [rng.standard_normal((4096, 1000))])]
    cases += [("(W@V).tanh().sum() 2000², 2000×64", "matmul_tanh",
               [rng.standard_normal((2000, 2000)) / 45, rng.standard_normal((2000, 64))])]
    ratios = []
    for label, name, arrays in cases:
        check_same_gradients(name, arrays)
        hand = HAND_WRITTEN[name]
        t_np = best_of(lambda hand=hand, arrays=arrays: hand(*arrays), repeat)
        t_gc = best_of(forward_backward(name, [E.Tensor(a, requires_grad=True) for a in arrays]), repeat)
        ratios.append(t_gc / t_np)
        line = f"{label:<34}{t_np * 1e3:>11.2f} ms{t_gc * 1e3:>7.2f} ms{t_gc / t_np:>7.2f}x"
        if torch is not None:
            t_pt = best_of(forward_backward(name, [torch.tensor(a, requires_grad=True) for a in arrays]), repeat)
            line += f"{t_pt * 1e3:>7.2f} ms{t_gc / t_pt:>7.2f}x"
        print(line)
    return ratios


# -- 2. per-op overhead -----------------------------------------------------------------------------------

def chain(x, n, mod):
    y = x
    for _ in range(n // 4):
        y = mod.tanh(y * 0.5 + 0.1) - 0.01
    return y.sum()


def bench_chain(repeat):
    n = 10_000
    ops = (n // 4) * 4 + 1
    print(f"\n2. per-op cost on a {n}-op chain of 3-element tensors (forward + backward, best of {repeat})")
    x = E.tensor([0.1, 0.2, 0.3], requires_grad=True)

    def run_engine():
        x._grad = None
        chain(x, n, E.ops).backward()

    t = best_of(run_engine, repeat)
    print(f"gradcli   {t / ops * 1e6:6.2f} µs/op   ({t * 1e3:.1f} ms for {ops} ops)")
    if torch is not None:
        xt = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)

        def run_torch():
            xt.grad = None
            chain(xt, n, torch).backward()

        tt = best_of(run_torch, repeat)
        print(f"torch     {tt / ops * 1e6:6.2f} µs/op   (gradcli/torch = {t / tt:.2f}x)")
    return t / ops * 1e6


# -- 3. start-up ------------------------------------------------------------------------------------------

def wall(cmd, runs, env=None):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_startup(runs):
    print(f"\n3. start-up (median of {runs} runs, bytecode compiled as after pip install)")
    # An installed package has its .pyc files; PYTHONDONTWRITEBYTECODE would make every run recompile.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(E.__file__).parents[1])], check=True,
                   env=env)
    base = wall([sys.executable, "-c", "import numpy"], runs, env)
    both = wall([sys.executable, "-c", "import numpy, typer"], runs, env)
    cmd = [sys.executable, "-m", "gradcli", "eval", "(x**2).sum()", "x=[1,2,3]", "--json"]
    flags = subprocess.run([*cmd[:3], "eval", "--help"], capture_output=True, text=True).stdout
    if "--no-check" in flags:
        cmd.append("--no-check")
    t_gradcli = wall(cmd, runs, env)
    print(f"python -c 'import numpy'           {base * 1e3:7.1f} ms   1.00x")
    print(f"python -c 'import numpy, typer'    {both * 1e3:7.1f} ms   {both / base:.2f}x")
    print(f"gradcli eval ... --json{' --no-check' if '--no-check' in cmd else '':<11}"
          f"{t_gradcli * 1e3:7.1f} ms   {t_gradcli / base:.2f}x")
    return t_gradcli / base


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="10^6 elements only, fewer repeats")
    parser.add_argument("--threads", type=int, default=1, help="threads of torch and of numpy's BLAS (default 1)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="process CPU time or wall time")
    args = parser.parse_args()
    sizes = [10**6] if args.quick else [10**6, 10**7]
    repeat = 3 if args.quick else 7
    E.set_default_dtype(E.dtypes.float64)
    # Objects from imports (torch brings hundreds of thousands) would be rescanned by every full garbage
    # collection during the runs; freeze them so only the work being measured is measured.
    gc.freeze()
    bench_large(sizes, repeat)
    bench_chain(repeat)
    bench_startup(5 if args.quick else 15)


if __name__ == "__main__":
    main()
