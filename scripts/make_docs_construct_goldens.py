"""Record what PyTorch 2.13 prints for the small programs of tests/docs_construct_cases.py (the constructs the
docstring corpus needed: lr_scheduler, clip_grad_norm_, multilabel_margin_loss, ...), as goldens for
tests/run/test_docs_constructs.py.  Each case runs as a script in a subprocess under make_snippet_goldens.py's
runner (warnings and errors reported as `gradcli run` reports them).  Dev-only: needs torch.

    python scripts/make_docs_construct_goldens.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from docs_construct_cases import CASES  # noqa: E402
from make_snippet_goldens import RUNNER  # noqa: E402

OUT = ROOT / "tests" / "goldens" / "docs_constructs.json"


def record(source: str) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "prog.py"
        path.write_text(source)
        done = subprocess.run([sys.executable, "-c", RUNNER, str(path)], capture_output=True, text=True, cwd=scratch,
                              timeout=600)
    return {"stdout": done.stdout, "stderr": done.stderr.replace(str(path), "prog.py"), "code": done.returncode}


def main() -> None:
    import torch  # noqa: F401 - fail early without torch
    goldens = {name: record(source) for name, source in CASES.items()}
    OUT.write_text(json.dumps(goldens, indent=1, sort_keys=True) + "\n")
    print(f"{len(goldens)} cases -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
