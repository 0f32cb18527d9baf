"""Which torch.nn modules and torch.nn.functional functions a `gradcli run` program cannot reach.
Run: python scripts/survey_run_surface_nn.py  (needs torch installed; measurement only)."""
import inspect
import io

import torch

from gradcli.run import run_source


def reachable(src):
    out, err = io.StringIO(), io.StringIO()
    if run_source(src, "p.py", stdout=out, stderr=err) == 0:
        return None
    return (err.getvalue().strip().splitlines() or ["?"])[-1][:100]


mods = sorted(n for n in dir(torch.nn)
              if inspect.isclass(getattr(torch.nn, n)) and issubclass(getattr(torch.nn, n), torch.nn.Module))
F_ = torch.nn.functional
fns = sorted(n for n in dir(F_)
             if not n.startswith("_") and callable(getattr(F_, n)) and not inspect.isclass(getattr(F_, n)))
for label, names, probe in (("torch.nn modules", mods, "import torch\nf = torch.nn.{}\n"),
                            ("torch.nn.functional", fns, "import torch\nimport torch.nn.functional as F\nf = F.{}\n")):
    missing = [(n, w) for n in names if (w := reachable(probe.format(n)))]
    print(f"{label}: {len(missing)} of {len(names)} unreachable")
    for n, w in missing:
        print(f"  {n:36} {w}")
