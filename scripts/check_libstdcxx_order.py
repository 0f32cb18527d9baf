"""Check gradcli/engine/ops/libstdcxx_order.py against libstdc++ itself: compiles a small C++ program (g++ needed)
that runs std::nth_element, std::partial_sort and std::sort - also libstdc++'s internal __introselect and
__introsort_loop with a given depth limit, to reach the heap fallbacks - on (value, index) pairs compared by
value, and compares the resulting index orders with the Python replays (list and numpy versions) on random
inputs full of ties.  Dev-only.

    python scripts/check_libstdcxx_order.py [--cases N]
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from gradcli.engine.ops import libstdcxx_order as L
from gradcli.engine.ops.ordering import _comparators, sort_indices

HARNESS = r"""
#include <algorithm>
#include <cstdio>
#include <vector>
#include <utility>
// stdin lines: op depth n k v0 .. v(n-1); op 0 nth_element(k), 1 partial_sort(k), 2 sort(first k); depth -1 = default
int main() { int op, depth, n, k;
  while (scanf("%d %d %d %d", &op, &depth, &n, &k) == 4) {
    std::vector<std::pair<double, long>> q(n);
    for (int i = 0; i < n; i++) { scanf("%lf", &q[i].first); q[i].second = i; }
    auto less = [](const std::pair<double, long>& a, const std::pair<double, long>& b) { return a.first < b.first; };
    auto cmp = __gnu_cxx::__ops::__iter_comp_iter(less);
    if (op == 0) { if (depth < 0) std::nth_element(q.begin(), q.begin() + k, q.end(), less);
                   else std::__introselect(q.begin(), q.begin() + k, q.end(), (long)depth, cmp); }
    else if (op == 1) std::partial_sort(q.begin(), q.begin() + k, q.end(), less);
    else { if (depth < 0) std::sort(q.begin(), q.begin() + k, less);
           else { std::__introsort_loop(q.begin(), q.begin() + k, (long)depth, cmp);
                  std::__final_insertion_sort(q.begin(), q.begin() + k, cmp); } }
    for (int i = 0; i < n; i++) printf("%ld ", q[i].second);
    printf("\n"); } }
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=3000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "harness"
        (Path(tmp) / "h.cpp").write_text(HARNESS)
        subprocess.run(["g++", "-O1", "-o", str(exe), str(Path(tmp) / "h.cpp")], check=True)
        rng = np.random.default_rng(0)
        cases = []
        for _ in range(args.cases):
            n = int(rng.integers(1, 3000))
            op = int(rng.integers(0, 3))
            depth = -1 if op == 1 else int(rng.choice([-1, -1, 0, 1, 2, 3]))
            k = int(rng.integers(0, n)) if op == 0 else int(rng.integers(0, n + 1))
            values = rng.integers(0, int(rng.choice([2, 5, 1000])), n).astype(float)
            cases.append((op, depth, n, k, values))
        text = "".join(f"{op} {depth} {n} {k} " + " ".join(map(repr, v.tolist())) + "\n"
                       for op, depth, n, k, v in cases)
        lines = subprocess.run([str(exe)], input=text, capture_output=True, text=True, check=True).stdout.splitlines()
    less, less_vec, greater_vec = _comparators(False)
    bad = 0
    for (op, depth, n, k, values), line in zip(cases, lines):
        expected = list(map(int, line.split()))
        q = list(zip(values.tolist(), range(n)))
        limit = None if depth < 0 else depth
        (L.nth_element(q, k, less, limit) if op == 0 else L.partial_sort(q, k, less) if op == 1
         else L.sort(q, k, less, limit))
        got = [[i for _, i in q]]
        if depth < 0 and op != 1:  # the numpy versions take the default depth
            v, ix = values.copy(), np.arange(n)
            if op == 0:
                L.nth_element_array(v, ix, k, less, less_vec, greater_vec)
            else:
                L.sort_array(v, ix, k, less, less_vec, greater_vec, lambda w: sort_indices(w, 0, False))
            got.append(ix.tolist())
        bad += any(g != expected for g in got)
    print(f"{bad} of {len(cases)} differ from libstdc++")
    raise SystemExit(1 if bad else 0)


if __name__ == "__main__":
    main()
