"""Hostile inputs for the limits that must hold inside one operation, and a way to run one in a child process
measuring its wall time and peak memory.  Shared by tests/safety/test_hostile_limits.py and
benchmarks/hostile_limits.py (which runs them on the original code too)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field

DEEP_TUPLE_AS_KEY = "t = ()\nfor i in range(200000):\n    t = (t,)\nd = {t: 1}\n"
# 4e10 multiply-adds: admitted by the cost model (engine/ops/costs.py) within a 3 s budget, yet tens of seconds
# one numpy call of 1.6e11 multiply-adds (about 10 s here): refused up front by the cost model under a 3 s limit,
# admitted under run's default 30 s, where Ctrl-C (or the supervisor) is what ends it; 450 x 450 took 2.3 s on an
# idle machine, finishing inside the 3 s limit it was meant to exceed
LONG_STATEMENT = 'import torch\nprint("started")\nx = torch.rand(630, 630)\ny = torch.einsum("ij,kl->", x, x)\n'
# a list of ten million references to one list of ten million zeros is small; its text is 3e14 characters
HUGE_REPR = "x = [[0] * 10**7] * 10**7\ns = str(x)\n"
# ten lists of ten million floats, built inside one statement (no check between statements can see it)
ONE_STATEMENT_MEMORY = "import torch\nx = torch.zeros(10**7)\ny = [x.tolist() for i in range(10)]\n"


@dataclass(frozen=True)
class Case:
    name: str
    argv: tuple  # after `python -m gradcli`
    exit_code: int
    message: str  # a piece of stderr the refusal must contain
    max_seconds: float  # a bound on wall time (generous: the machine is shared)
    stdin: str | None = None
    files: dict = field(default_factory=dict)  # name -> program text, written to a temp dir (argv uses {dir})
    before_argv: tuple | None = None  # for the original code, which lacks `run --timeout`
    stdout: str | None = None  # what must still be printed (a killed statement must not lose earlier output)
    stdin_path: str | None = None  # a device or file as standard input (/dev/zero), instead of `stdin` text
    fifos: tuple = ()  # names of FIFOs made in the temp dir that nobody ever writes to


# one numpy call of 10**12 multiply-adds: no Python instruction runs until it returns
STUCK_IN_NUMPY = "einsum('ij,kl->', W, W).sum()"
LONG_LINE = "x = [" + "1," * 5_000_000 + "1]\n"  # 10 MB, one line
LONG_ROW = '{"x": [' + "1," * 5_000_000 + '1]}\n'
WIDE_HEADER = ",".join(f"c{i}" for i in range(400_000)) + "\n" + "1," * 399_999 + "1\n"
VECTOR_ROWS = '{"x": [' + ",".join(["1.5"] * 100) + ']}\n'

CASES = [
    Case("eval diag(x), 50,000 elements", ("eval", "diag(x)", "x=randn(50000)", "--no-check"), 2,
         "diag() would create a tensor of shape (50000, 50000)", 10),
    Case("eval broadcast x*y", ("eval", "(x*y).sum()", "x=randn(50000,1)", "y=randn(50000)", "--no-check"), 2,
         "mul() would create", 10),
    Case("eval fancy indexing x[[0]*4000]", ("eval", "x[[" + "0," * 3999 + "0]].sum()", "x=randn(1000,1000)",
                                              "--no-check", "--max-elements", "1000000"), 2,
         "advanced indexing would create a tensor of shape (4000, 1000)", 10),
    Case("eval cat of many", ("eval", "cat([x,x,x,x,x,x,x,x,x,x,x]).sum()", "x=randn(5000000)", "--no-check"), 2,
         "cat() would create", 10),
    Case("eval --max-memory 10", ("eval", "(W@W).sum()", "W=randn(3000,3000)", "--no-check", "--max-memory", "10"),
         2, "needed more than the memory limit of 10 MB", 10, before_argv=("eval", "(W@W).sum()", "W=randn(3000,3000)",
                                                                         "--no-check")),
    Case("eval einsum --timeout 3", ("eval", "einsum('ij,kl->', x, x).sum()", "x=randn(1000,1000)", "--timeout", "3",
                                     "--no-check"), 2, "took longer than 3 s", 3 + 3),
    Case("check --order 8 --timeout 2 (whole command)", ("check", "sin(x)*exp(x)*x^x*cos(x)", "--order", "8",
                                                         "--expect", "x", "--timeout", "2"), 2,
         "the check used more than 2 s of CPU time", 2 + 8),  # CPU time (issue 30): wall time is longer under load
    Case("run deep tuple as dict key", ("run", "{dir}/deep.py"), 2, "max_value_depth", 20,
         files={"deep.py": DEEP_TUPLE_AS_KEY}),
    Case("run '%*d' % (10**9, 1)", ("run", "{dir}/fmt.py"), 2, "max_sequence_length", 10,
         files={"fmt.py": "s = '%*d' % (10**9, 1)\n"}),
    Case("run 'a' * 10**9", ("run", "{dir}/mul.py"), 2, "max_sequence_length", 10,
         files={"mul.py": "s = 'a' * 10**9\n"}),
    Case("run f-string width", ("run", "{dir}/fs.py"), 2, "max_sequence_length", 10,
         files={"fs.py": "n = 10**9\ns = f'{1:{n}}'\n"}),
    Case("run x[[0]*N]", ("run", "{dir}/idx.py"), 2, "max_tensor_elements", 20,
         files={"idx.py": "import torch\nx = torch.zeros(1000, 1000)\ny = x[[0] * 1000000]\n"}),
    Case("run list of lists in one statement (memory)", ("run", "{dir}/mem.py", "--max-memory", "400"), 2,
         "max_memory_mb=400", 15, files={"mem.py": ONE_STATEMENT_MEMORY}, before_argv=("run", "{dir}/mem.py")),
    # refused before Python's str() starts (issue 31: the text's length is bounded up front)
    Case("run str() of a huge list (C holds the GIL)", ("run", "{dir}/repr.py", "--timeout", "3"), 2,
         "max_sequence_length",
         3 + 4, files={"repr.py": HUGE_REPR}, before_argv=("run", "{dir}/repr.py")),
    Case("run one long numpy statement", ("run", "{dir}/long.py", "--timeout", "3"), 2, "ran too long", 3 + 4,
         files={"long.py": LONG_STATEMENT}, before_argv=("run", "{dir}/long.py"), stdout="started\n"),
    # classes (issue 18): a method that never stops recursing, objects piling up, a module that contains itself
    Case("run class method recursion", ("run", "{dir}/rec.py"), 2, "max_call_depth", 10,
         files={"rec.py": "class A:\n    def f(self):\n        return self.f()\nA().f()\n"}),
    Case("run instances piling up (memory)", ("run", "{dir}/objs.py", "--max-memory", "300"), 2, "max_memory_mb=300",
         20, files={"objs.py": "class A:\n    def __init__(self, x):\n        self.x = x\nkeep = []\n"
                               "while True:\n    keep.append(A([0] * 100000))\n"}),
    Case("run a module inside itself, printed", ("run", "{dir}/self.py"), 2, "recursed too deeply", 20,
         files={"self.py": "import torch\nm = torch.nn.Sequential()\nm.append(m)\nprint(m)\n"}),
    Case("run backward re-entering a program Function forever", ("run", "{dir}/reent.py"), 2, "max_call_depth", 20,
         files={"reent.py": "import torch\nclass F(torch.autograd.Function):\n    @staticmethod\n"
                            "    def forward(ctx, x):\n        return x * 1\n    @staticmethod\n"
                            "    def backward(ctx, g):\n        with torch.enable_grad():\n"
                            "            F.apply(g.detach().requires_grad_()).sum().backward()\n"
                            "        return g\nF.apply(torch.ones(2, requires_grad=True)).sum().backward()\n"}),
    # the REPL: one process, many lines; each line has --timeout and the session --max-memory (guard.arm)
    Case("repl line stuck in one numpy call", ("repl", "--timeout", "2", "--no-check"), 2,
         "the line took longer than 2 s", 2 + 3, stdin="W = randn(1000,1000)\n" + STUCK_IN_NUMPY + "\n"),
    Case("repl bindings past --max-memory", ("repl", "--no-check", "--max-memory", "300"), 2,
         "the line needed more than the memory limit of 300 MB", 5,
         stdin="x = randn(5000,5000)\ny = randn(5000,5000)\n", before_argv=("repl", "--no-check")),
    Case("repl 10 MB line", ("repl", "--no-check"), 2, "line 1 is longer than 10,256 characters", 5,
         stdin=LONG_LINE),
    # rows mode
    Case("rows: one row stuck in one numpy call", ("eval", STUCK_IN_NUMPY + "*x", "W=randn(1000,1000)", "--rows",
                                                   "{dir}/two.csv", "--no-check", "--timeout", "2"), 2,
         "a row's evaluation took longer than 2 s", 2 + 3, files={"two.csv": "x\n1\n2\n"}),
    Case("rows: a shared NAME=@FIFO that never ends", ("eval", "x*y", "--rows", "{dir}/two.csv", "y=@{dir}/fifo",
                                                       "--timeout", "2"), 2,
         "reading the values took longer than 2 s", 2 + 3, files={"two.csv": "x\n1\n2\n"}, fifos=("fifo",)),
    Case("rows: a 10 MB NDJSON line", ("eval", "(x**2).sum()", "--rows", "-", "--no-check"), 2,
         "line 1 of standard input is longer than 4,194,304 bytes", 5, stdin=LONG_ROW),
    Case("rows: a header of 400,000 columns", ("eval", "x**2", "--rows", "{dir}/wide.csv", "--no-check"), 2,
         "no such column in the input (columns: c0, c1", 5, files={"wide.csv": WIDE_HEADER}),
    Case("rows: -o .npz past --max-elements", ("eval", "(x**2).sum()", "--rows", "{dir}/v.jsonl", "--no-check",
                                               "-o", "{dir}/out.npz", "--max-elements", "100000"), 2,
         "the .npz output's grad_x would create a tensor of shape (2000, 100)", 8,
         files={"v.jsonl": VECTOR_ROWS * 2000}),
    # option values that used to end in an internal error or a hang
    Case("eval --max-memory 1", ("eval", "(x**2).sum()", "x=[1,2,3]", "--max-memory", "1"), 2,
         "needed more than the memory limit of 1 MB", 5),
    Case("eval --max-memory 0", ("eval", "(x**2).sum()", "x=[1,2,3]", "--max-memory", "0"), 2,
         "--max-memory must be a positive, finite number of MB, not 0", 5),
    Case("eval --max-memory inf", ("eval", "(x**2).sum()", "x=[1,2,3]", "--max-memory", "inf"), 2,
         "--max-memory must be a positive, finite number of MB, not inf", 5),
    Case("run --max-memory 0", ("run", "{dir}/p.py", "--max-memory", "0"), 2,
         "--max-memory must be a positive, finite number of MB, not 0", 5, files={"p.py": "print(1)\n"}),
    Case("run --timeout inf", ("run", "{dir}/p.py", "--timeout", "inf"), 2,
         "--timeout must be a positive, finite number of seconds, not inf", 5, files={"p.py": "print(1)\n"}),
    Case("run --arg x=@FIFO that never ends", ("run", "{dir}/p.py", "--arg", "x=@{dir}/fifo", "--timeout", "2"), 2,
         "reading the program and its --arg values took longer than 2 s", 2 + 3, files={"p.py": "print(1)\n"},
         fifos=("fifo",)),
    Case("run - < /dev/zero", ("run", "-"), 2, "<stdin> is longer than 800,000 bytes", 5, stdin_path="/dev/zero"),
]

_MEASURE = textwrap.dedent("""
    import json, resource, subprocess, sys, time
    limit = int(sys.argv[1])
    def cap():
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    start = time.monotonic()
    try:
        p = subprocess.run(sys.argv[3:], stdin=subprocess.DEVNULL if sys.argv[2] == '-' else open(sys.argv[2]),
                           capture_output=True, text=True, errors="replace", preexec_fn=cap, timeout=float(%r))
        code, out, err = p.returncode, p.stdout[:4000], p.stderr[:4000]
    except subprocess.TimeoutExpired as e:
        code, out, err = "killed", "", "(killed by the measuring wrapper)"
    seconds = time.monotonic() - start
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps({"exit_code": code, "seconds": seconds, "peak_mb": rss, "stdout": out, "stderr": err}))
""")


def measure(case: Case, python: str = sys.executable, cwd: str | None = None, *, address_cap_mb: int = 8192,
            kill_after: float = 120.0, before: bool = False) -> dict:
    """Run `case` as `python -m gradcli ...` in a child; its wall time, peak resident memory (MB), exit code and
    output.  A measuring wrapper caps the child's address space (the original code would ask for 18.6 GiB) and
    kills it after `kill_after` seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in case.files.items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        for name in case.fifos:
            os.mkfifo(os.path.join(tmp, name))
        stdin = case.stdin_path or "-"
        if case.stdin is not None:
            stdin = os.path.join(tmp, "stdin")
            with open(stdin, "w") as f:
                f.write(case.stdin)
        argv = [a.replace("{dir}", tmp) for a in (case.before_argv if before and case.before_argv else case.argv)]
        wrapper = _MEASURE % kill_after
        out = subprocess.run([sys.executable, "-c", wrapper, str(address_cap_mb * 2**20), stdin,
                              python, "-m", "gradcli", *argv], capture_output=True, text=True, cwd=cwd)
        return json.loads(out.stdout)


def interrupt(argv: tuple, python: str = sys.executable, cwd: str | None = None, after: float = 1.5,
              files: dict | None = None) -> dict:
    """Start `python -m gradcli argv`, send SIGINT `after` seconds in, and time how long it takes to end."""
    import signal

    with tempfile.TemporaryDirectory() as tmp:
        for name, text in (files or {}).items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        argv = [a.replace("{dir}", tmp) for a in argv]
        p = subprocess.Popen([python, "-m", "gradcli", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=cwd)
        time.sleep(after)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        try:
            out, err = p.communicate(timeout=30)
            code = p.returncode
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            code = "killed"
        return {"exit_code": code, "seconds": time.monotonic() - sent, "stdout": out, "stderr": err}
