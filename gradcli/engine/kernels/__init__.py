"""The elementwise math kernels torch's CPU build calls (MKL's vector math, SLEEF's lanes, the C library, the
compiled fused multiply-adds) and the loop structure around them (which lanes are scalar, the order of a whole
sum).  See docs/architecture.md."""

from gradcli.engine.kernels.loops import (
                                          BLOCK,
                                          GRAIN_SIZE,
                                          THREADS,
                                          VECTOR_BYTES,
                                          elements_are_rows,
                                          in_blocks,
                                          rows_batch,
                                          scalar_lanes,
                                          whole_sum,
)

__all__ = ["BLOCK", "GRAIN_SIZE", "THREADS", "VECTOR_BYTES", "elements_are_rows", "in_blocks", "rows_batch",
           "scalar_lanes", "whole_sum"]
