"""The optional C accelerators (gradcli/engine/kernels/native_sum.c: torch's summation order; native_math.c: fused
multiply-adds and SLEEF's powf), built during `pip install` when a C compiler is at hand. pyproject.toml holds the
metadata; this file only declares the extensions. optional=True: a failed build only warns, and gradcli computes
the same bits with numpy (gradcli/engine/kernels/native.py loads the libraries with ctypes; they have no Python
API)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "gradcli.engine.kernels._native_sum",
            sources=["gradcli/engine/kernels/native_sum.c"],
            # IEEE order kept: no reassociation, no fused multiply-add; no -march=native (the wheel runs anywhere)
            extra_compile_args=["-O2", "-fno-fast-math", "-ffp-contract=off", "-std=c99"],
            optional=True,
        ),
        Extension(
            "gradcli.engine.kernels._native_math",
            sources=["gradcli/engine/kernels/native_math.c"],
            extra_compile_args=["-O2", "-fno-fast-math", "-ffp-contract=off", "-std=c99"],
            libraries=["m"],
            optional=True,
        ),
    ],
)
