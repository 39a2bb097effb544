"""kcc.compile and Kernel.launch: a kernel of kernels/ and tile-dialect source,
arguments checked against the code object's metadata, located diagnostics."""
import numpy as np
import pytest
import torch

import kcc
from conftest import gemm_reference


def test_compile_and_launch_gemm(chip):
    kern = kcc.compile("gemm", chip=chip, DTYPE="f16", OUT="f32", WM=32, WN=32, BK=32,
                       KS=16, SWZ=0, WIDE=False, HAS_BIAS=False)
    assert kern.name == "gemm" and kern.device.chip == chip
    assert kern.cache_outcome in ("compiled", "memory-hit", "disk-hit")
    assert [a["kind"] for a in kern.args] == ["pointer"] * 4 + ["value"] * 6
    assert kern.vgprs > 0 and kern.scratch_bytes == 0
    m, n, k = 70, 50, 40
    g = torch.Generator().manual_seed(8)
    a = (torch.rand(m, k, generator=g) * 2 - 1).half()
    b_t = (torch.rand(n, k, generator=g) * 2 - 1).half()
    c = torch.zeros(m, n)
    bias = torch.zeros(n, dtype=torch.float16)
    # C = A Bt^T with the kernel's own arguments: M, N, K and the three
    # leading dimensions; one workgroup per 64x64 block, M blocks in x.
    info = kern.launch(((m + 63) // 64, (n + 63) // 64), 256, a, b_t, c, bias, m, n, k, k, k, n)
    assert info.wave_instructions > 0 and kcc.last_launch() is info
    np.testing.assert_allclose(c.double().numpy(), gemm_reference(a.double(), b_t.double()),
                               rtol=1e-5, atol=1e-5 * np.sqrt(k))
    again = kcc.compile("gemm", chip=chip, DTYPE="f16", OUT="f32", WM=32, WN=32, BK=32,
                        KS=16, SWZ=0, WIDE=False, HAS_BIAS=False)
    assert again.cache_outcome == "memory-hit" and again.cache_key == kern.cache_key


SOURCE = """
!ptr = !llvm.ptr<1>
func.func @scale(%x: !ptr, %n: index, %f: f32) attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  return
}
"""


def test_argument_checks(chip):
    kern = kcc.compile("gemm", chip=chip, DTYPE="bf16", OUT="bf16", WM=32, WN=32, BK=32,
                       KS=16, SWZ=0, WIDE=False, HAS_BIAS=False)
    t = torch.zeros(64, 64, dtype=torch.bfloat16)
    with pytest.raises(ValueError, match="kernel 'gemm' takes 10 arguments; got 3"):
        kern.launch(1, 256, t, t, t)
    with pytest.raises(TypeError, match="argument 4 of kernel 'gemm' is a 4-byte value; pass a Python int or float, not Tensor"):
        kern.launch(1, 256, t, t, t, t, t, 1, 1, 1, 1, 1)
    with pytest.raises(ValueError, match="does not fit 32 bits"):
        kern.launch(1, 256, t, t, t, t, 2 ** 40, 1, 1, 1, 1, 1)
    with pytest.raises(TypeError, match="argument 0: expected a tensor or array"):
        kern.launch(1, 256, [1, 2], t, t, t, 1, 1, 1, 1, 1, 1)
    with pytest.raises(ValueError, match="grid dimension 0 is 0"):
        kern.launch(0, 256, t, t, t, t, 1, 1, 1, 1, 1, 1)
    with pytest.raises(ValueError, match=r"kernel 'gemm' requires a block of \(256, 1, 1\) work-items \(its .reqd_workgroup_size\); got \(100, 1, 1\)"):
        kern.launch(1, 100, t, t, t, t, 1, 1, 1, 1, 1, 1)


def test_compile_error_has_location(chip):
    bad = "func.func @k() attributes {tile.kernel} {\n  %0 = tile.bogus\n  return\n}\n"
    with pytest.raises(kcc.CompileError) as e:
        kcc.compile(bad, chip=chip)
    assert ":2:" in str(e.value)
    assert isinstance(e.value, kcc.Error) and isinstance(e.value, RuntimeError)


def test_unknown_names():
    with pytest.raises(kcc.CompileError, match="no kernel named 'nosuch'"):
        kcc.compile("nosuch", chip="gfx950")
    with pytest.raises(ValueError, match="unknown chip 'gfx90a'"):
        kcc.compile("gemm", chip="gfx90a")
    with pytest.raises(ValueError, match="emu:gfx942"):
        kcc.device("emu:gfx1")
    with pytest.raises(TypeError, match="kernel parameters are bool, int, float or str"):
        kcc.compile("gemm", chip="gfx950", WM=[1])
