# Run by python-package.test with only the installed prefix on the path.
import numpy as np

import kcc

print(kcc.__file__)
c = kcc.ops.gemm(np.ones((8, 16), np.float16), np.ones((4, 16), np.float16),
                 out_dtype="f32", device="emu:gfx942")
print(c.shape, c.dtype, float(c.min()), float(c.max()))
