"""Record what PyTorch 2.13 prints for the small programs of tests/meta_device_cases.py (the meta device: shapes,
strides, dtypes and grad_fn names of ~60 ops, torch's shape errors and its errors for reading a meta tensor's data;
deepcopy, stack_module_state, load_state_dict(assign=True), timeit), as goldens for tests/run/test_meta_device.py.
Each case runs as a script in a subprocess under make_snippet_goldens.py's runner.  Dev-only: needs torch.

    python scripts/make_meta_device_goldens.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from make_docs_construct_goldens import record  # noqa: E402
from meta_device_cases import CASES  # noqa: E402

OUT = ROOT / "tests" / "goldens" / "meta_device.json"


def main() -> None:
    import torch  # noqa: F401 - fail early without torch
    goldens = {name: record(source) for name, source in CASES.items()}
    OUT.write_text(json.dumps(goldens, indent=1, sort_keys=True) + "\n")
    print(f"{len(goldens)} cases -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
