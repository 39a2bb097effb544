"""Runs test/python/Inputs/double.mlir through kcc's JIT on emu:gfx942 and
prints where the code object came from and what the kernel computed."""
import os

import numpy as np

import kcc

source = open(os.path.join(os.path.dirname(__file__), "double.mlir")).read()
kernel = kcc.compile(source, chip="gfx942")
x = np.arange(64, dtype=np.float32)
out = np.zeros(64, np.float32)
kernel.launch(1, 64, x, out)
print(kernel.cache_outcome, "out[3] =", out[3], "out[5] =", out[5])
