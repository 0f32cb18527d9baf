"""Which public torch.Tensor attributes and torch.* functions a `gradcli run` program cannot even reach.
Run: python scripts/survey_run_surface.py [tensor|torch]  (needs torch installed; measurement only)."""
import inspect
import io
import sys

import torch

from gradcli.run import run_source

SKIP = ("cuda", "cudnn", "miopen", "mkldnn", "fbgemm", "quantiz", "q_", "sparse", "xpu", "ipu", "mtia", "maia",
        "xla", "vulkan", "mps", "autocast", "sym_", "dlpack", "_copy", "storage", "ccol", "crow", "col_indices",
        "row_indices", "is_coalesced", "coalesce", "indices", "values", "to_padded", "nested", "record_stream",
        "pin_memory", "share_memory", "data_ptr", "int_repr", "dequantize", "qscheme", "fake_quant", "_ir_",
        "parse_", "fork", "import_ir", "complex", "cfloat", "cdouble", "chalf", "conj", "imag", "real", "angle",
        "polar", "istft", "stft", "unsafe_", "thread_safe", "classproperty", "compiled_with", "merge_type",
        "prepare_multi", "profiler_allow", "from_file", "get_file_path", "frombuffer", "segment_reduce",
        "hash_tensor", "resolve_", "is_neg", "_backward", "_stats", "_elemt", "native_", "cudagraph", "bsr", "bsc",
        "csr", "csc", "coo", "mkl", "module_load", "dim_order", "slice_inverse", "nonzero_static", "ormqr",
        "geqrf", "orgqr", "choose_qparams", "grad_dtype", "reinforce", "volatile", "map2_", "map_", "apply_")


def reachable(src: str) -> str | None:
    out, err = io.StringIO(), io.StringIO()
    if run_source(src, "p.py", stdout=out, stderr=err) == 0:
        return None
    return (err.getvalue().strip().splitlines() or ["?"])[-1][:110]


def main(which: str) -> None:
    if which == "tensor":
        names = sorted(n for n in dir(torch.Tensor) if not n.startswith("_"))
        probe = "import torch\nt = torch.zeros(2, 2)\nf = t.{}\n"
    else:
        names = sorted(n for n in dir(torch) if not n.startswith("_") and callable(getattr(torch, n))
                       and not inspect.isclass(getattr(torch, n)) and not inspect.ismodule(getattr(torch, n)))
        probe = "import torch\nf = torch.{}\n"
    missing = [(n, why) for n in names if not any(k in n for k in SKIP) and (why := reachable(probe.format(n)))]
    print(f"{len(missing)} of {len(names)} public names unreachable (skipping device/sparse/quantized/complex/...)")
    for name, why in missing:
        print(f"{name:32} {why}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tensor")
