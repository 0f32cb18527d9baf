"""The cost of torch's argument-parser checks in `gradcli run` (gradcli/run/argument_parser.py): a loop of 14,000
calls of torch functions and Tensor methods on 2x2 tensors (the worst case: the ops themselves cost least),
run alternately with the checks and without them in one process, as ratios of CPU time.

  python benchmarks/bench_argument_parser.py
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gradcli.run import api, argument_parser, run_source  # noqa: E402

PROGRAM = """import torch
x = torch.tensor([[1.5, -2.0], [3.0, 0.5]])
y = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
for i in range(2000):
    a = torch.exp(x)
    b = torch.add(a, y)
    c = torch.sum(b, dim=0)
    d = torch.clamp(x, min=0.0)
    e = x.exp().sum(dim=0)
    f = y.view(4).mean()
"""
CALLS = 14000
PARSER, CHECKED_METHOD = argument_parser.parser, argument_parser.checked_method


def run(checked: bool) -> float:
    argument_parser.parser = PARSER if checked else (lambda name: None)
    argument_parser.checked_method = CHECKED_METHOD if checked else (lambda tensor, name: None)
    api.modules.cache_clear()  # the torch module's functions are wrapped when it is built
    run_source(PROGRAM, "bench.py", stdout=io.StringIO(), stderr=io.StringIO())  # warm
    start = time.process_time()
    run_source(PROGRAM, "bench.py", stdout=io.StringIO(), stderr=io.StringIO())
    return time.process_time() - start


def main() -> None:
    times: dict[bool, list] = {True: [], False: []}
    for i in range(8):
        for checked in ((True, False) if i % 2 else (False, True)):
            times[checked].append(run(checked))
    on, off = statistics.median(times[True]), statistics.median(times[False])
    print(f"{CALLS} calls: with the checks {on * 1e3:.0f} ms, without {off * 1e3:.0f} ms (medians of 8): "
          f"ratio {on / off:.3f}, {(on - off) / CALLS * 1e6:+.2f} us per call")


if __name__ == "__main__":
    main()
