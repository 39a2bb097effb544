"""kcc.ops.gemm on torch tensors and NumPy arrays, both emulated chips,
against float64: tails in M, N and K (odd K takes the packing path), every
output type, bias, strided rows, out=."""
import numpy as np
import pytest
import torch

import kcc
from conftest import bf16_bits, bf16_values, gemm_reference


def _close(got, ref, out_type, k):
    """f32 output: accumulation-order error only (grows like sqrt(K));
    bf16/f16 output: the output's own rounding on top."""
    if out_type == "float32":
        tol = 1e-5 * np.sqrt(k) * (1 + np.abs(ref))
    else:
        tol = np.abs(ref) * (2.0 ** -8 if out_type == "bfloat16" else 2.0 ** -11) + 1e-4
    bad = np.abs(got - ref) > tol
    assert not bad.any(), f"{bad.sum()} of {bad.size} wrong; first at {np.argwhere(bad)[0]}"


@pytest.mark.parametrize("m,n,k", [(100, 70, 52), (33, 130, 67), (1, 16, 8), (257, 64, 130)])
@pytest.mark.parametrize("dtype,out_dtype", [
    (torch.bfloat16, None), (torch.float16, None), (torch.bfloat16, torch.float32),
    (torch.float16, torch.float32)], ids=["bf16", "f16", "bf16-f32", "f16-f32"])
def test_torch(emu, m, n, k, dtype, out_dtype):
    g = torch.Generator().manual_seed(m * 7 + n + k)
    a = (torch.rand(m, k, generator=g) * 2 - 1).to(dtype)
    b_t = (torch.rand(n, k, generator=g) * 2 - 1).to(dtype)
    c = kcc.ops.gemm(a, b_t, out_dtype=out_dtype, device=emu)
    expected = dtype if out_dtype is None else out_dtype
    assert c.dtype == expected and c.shape == (m, n)
    _close(c.double().numpy(), gemm_reference(a.double(), b_t.double()),
           str(expected).replace("torch.", ""), k)


def test_bias_strided_rows_and_out(emu):
    g = torch.Generator().manual_seed(5)
    wide_a = (torch.rand(90, 200, generator=g) * 2 - 1).to(torch.bfloat16)
    a = wide_a[:, 10:74]  # row stride 200, offset 10
    b_t = (torch.rand(48, 64, generator=g) * 2 - 1).to(torch.bfloat16)
    bias = (torch.rand(48, generator=g) * 2 - 1).to(torch.bfloat16)
    wide_c = torch.full((90, 60), -3.0)
    out = wide_c[:, 4:52]
    got = kcc.ops.gemm(a, b_t, bias=bias, out=out, device=emu)
    assert got is out
    _close(out.double().numpy(), gemm_reference(a.double(), b_t.double(), bias.double()),
           "float32", 64)
    assert torch.all(wide_c[:, :4] == -3.0) and torch.all(wide_c[:, 52:] == -3.0)


def test_numpy(emu):
    rng = np.random.default_rng(6)
    a = bf16_bits(rng.uniform(-1, 1, (37, 41)))
    b_t = bf16_bits(rng.uniform(-1, 1, (29, 41)))
    c = kcc.ops.gemm(a, b_t, out_dtype=np.float32, device=emu)
    assert isinstance(c, np.ndarray) and c.dtype == np.float32
    _close(c.astype(np.float64), gemm_reference(bf16_values(a), bf16_values(b_t)), "float32", 41)
    c16 = kcc.ops.gemm(a, b_t, device=emu)
    assert c16.dtype == np.uint16  # bfloat16 bits, as the inputs
    _close(bf16_values(c16), gemm_reference(bf16_values(a), bf16_values(b_t)), "bfloat16", 41)


def test_params_override(emu):
    a = torch.ones(64, 32, dtype=torch.float16)
    b_t = torch.ones(64, 32, dtype=torch.float16)
    # M = 64 takes the decode tile (one row of four waves); the override
    # names the whole wave grid.
    c = kcc.ops.gemm(a, b_t, out_dtype=torch.float32, device=emu,
                     params={"WM": 32, "WN": 32, "WGM": 2, "WGN": 2})
    assert torch.all(c == 32.0)
    assert kcc.last_launch().workgroups == 1  # one 64x64 workgroup tile
