"""kcc.ops.gemm with FP8 and int8 inputs (kernels/gemm/gemm_q8.mlir) on both emulated
chips: NumPy uint8 bits and torch float8 tensors, every scale granularity
(numbers, per-row vectors, 128-deep blocks), bias, tails in M, N and K,
against a float64 reference of the decoded codes times each K block's
scales; and the errors."""
import numpy as np
import pytest
import torch

import kcc
from conftest import bf16_values
from test_attention_fp8 import FORMAT, fp8_values


def _codes(rng, shape, fmt):
    """Random finite codes of magnitude up to 8."""
    table = fp8_values(fmt)
    ok = np.flatnonzero(np.isfinite(table) & (np.abs(table) <= 8))
    return rng.choice(ok, size=shape).astype(np.uint8)


def _expand(scale, rows, kb, block_rows):
    """A scale as one value per (row, K block): a number, a vector (per row)
    or a matrix of blocks of `block_rows` rows."""
    s = np.asarray(scale, np.float64)
    if s.size == 1:
        return np.full((rows, kb), float(s.reshape(-1)[0]))
    if s.ndim == 1:
        return np.repeat(s[:, None], kb, axis=1)
    return np.repeat(s, block_rows, axis=0)[:rows]


def _reference(a, b_t, sa, sb, fmt, bias=None):
    """C and the bound on |C - reference| from the arithmetic: f32 sums of
    exact FP8 products (at most 128 + K/128 + 4 roundings of 2^-24 of the
    magnitudes); the output's rounding is the caller's."""
    table = fp8_values(fmt)
    av, bv = table[a], table[b_t]
    (m, k), n = av.shape, bv.shape[0]
    kb = (k + 127) // 128
    sa, sb = _expand(sa, m, kb, 1), _expand(sb, n, kb, 128)
    ref = np.zeros((m, n)) if bias is None else np.tile(np.asarray(bias, np.float64), (m, 1))
    mag = np.abs(ref)
    for q in range(kb):
        ks = slice(q * 128, min(k, q * 128 + 128))
        s = sa[:, q][:, None] * sb[:, q][None, :]
        ref += (av[:, ks] @ bv[:, ks].T) * s
        mag += (np.abs(av[:, ks]) @ np.abs(bv[:, ks]).T) * np.abs(s)
    return ref, (128 + kb + 4) * 2.0 ** -24 * mag


@pytest.mark.parametrize("m,n,k", [(70, 130, 300), (1, 200, 136), (130, 64, 131)])
def test_numpy_block_scales(emu, chip, m, n, k):
    fmt = FORMAT[chip]
    rng = np.random.default_rng(m + n + k)
    a, b_t = _codes(rng, (m, k), fmt), _codes(rng, (n, k), fmt)
    kb, nb = (k + 127) // 128, (n + 127) // 128
    sa = np.ldexp(1.0, rng.integers(-6, 7, (m, kb))).astype(np.float32)
    sb = np.ldexp(1.0, rng.integers(-6, 7, (nb, kb))).astype(np.float32)
    c = kcc.ops.gemm(a, b_t, a_scale=sa, b_scale=sb, fp8_format=fmt, device=emu)
    assert isinstance(c, np.ndarray) and c.dtype == np.uint16 and c.shape == (m, n)  # bf16 bits
    ref, bound = _reference(a, b_t, sa, sb, fmt)
    err = np.abs(bf16_values(c) - ref)
    assert (err <= bound + 2.0 ** -8 * np.abs(ref)).all()


@pytest.mark.parametrize("kind", ["uint8", "float8"])
def test_torch_rows_bias(emu, chip, kind):
    if kind == "float8" and not hasattr(torch, "float8_e4m3fn"):
        pytest.skip("this torch has no float8 dtypes")
    fmt = FORMAT[chip]
    rng = np.random.default_rng(3)
    m, n, k = 48, 96, 200
    a, b_t = _codes(rng, (m, k), fmt), _codes(rng, (n, k), fmt)
    sa = torch.from_numpy(np.ldexp(1.0, rng.integers(-4, -1, m)).astype(np.float32))
    sb = torch.from_numpy(np.ldexp(1.0, rng.integers(-4, -1, n)).astype(np.float32))
    bias = torch.from_numpy(rng.normal(0, 4, n).astype(np.float32))
    ta, tb = torch.from_numpy(a), torch.from_numpy(b_t)
    if kind == "float8":
        dt = torch.float8_e4m3fn if chip == "gfx950" else torch.float8_e4m3fnuz
        ta, tb, extra = ta.view(dt), tb.view(dt), {}
    else:
        extra = {"fp8_format": fmt}
    c = kcc.ops.gemm(ta, tb, a_scale=sa, b_scale=sb, bias=bias, out_dtype=torch.float16,
                     device=emu, **extra)
    assert isinstance(c, torch.Tensor) and c.dtype == torch.float16
    ref, bound = _reference(a, b_t, sa.numpy(), sb.numpy(), fmt, bias.numpy())
    err = np.abs(c.double().numpy() - ref)
    assert (err <= bound + 2.0 ** -11 * np.abs(ref)).all()


def test_per_tensor_numbers_f32(emu, chip):
    fmt = FORMAT[chip]
    rng = np.random.default_rng(4)
    a, b_t = _codes(rng, (33, 40), fmt), _codes(rng, (17, 40), fmt)
    c = kcc.ops.gemm(a, b_t, a_scale=0.5, b_scale=3.0, fp8_format=fmt, out_dtype=np.float32,
                     device=emu)
    ref, bound = _reference(a, b_t, 0.5, 3.0, fmt)
    assert c.dtype == np.float32 and (np.abs(c - ref) <= bound + 2.0 ** -24 * np.abs(ref)).all()
    # No scales: 1.
    c1 = kcc.ops.gemm(a, b_t, fp8_format=fmt, out_dtype=np.float32, device=emu)
    assert np.array_equal(c1 * 1.5, c)


def test_errors():
    z = np.zeros((16, 128), np.uint8)
    gfx942, gfx950 = kcc.device("emu:gfx942"), kcc.device("emu:gfx950")
    with pytest.raises(ValueError, match=r"gemm_fp8: A is e4m3fn, but gfx942's matrix cores "
                                         r"take e4m3fnuz"):
        kcc.ops.gemm(z, z, fp8_format="e4m3fn", device=gfx942)
    with pytest.raises(ValueError, match=r"gemm_fp8: A's scale is 16x3; for A of 16 rows and K "
                                         r"in 1 blocks of 128 it must be 1x1 \(per tensor\), 16x1 "
                                         r"\(per token\) or 16x1 \(1x128 blocks\)"):
        kcc.ops.gemm(z, z, fp8_format="e4m3fn", a_scale=np.ones((16, 3), np.float32),
                     device=gfx950)
    with pytest.raises(TypeError, match="a_scale has elements of type float16; scales are float32"):
        kcc.ops.gemm(z, z, fp8_format="e4m3fn", a_scale=np.ones(16, np.float16), device=gfx950)
    with pytest.raises(ValueError, match=r"fp8_format='mxfp4': kcc has no MXFP4 GEMM yet"):
        kcc.ops.gemm(z, z, fp8_format="mxfp4", device=gfx950)
    h = np.zeros((16, 128), np.float16)
    with pytest.raises(ValueError, match=r"a_scale and b_scale are the 8-bit GEMMs'"):
        kcc.ops.gemm(h, h, a_scale=1.0, device=gfx950)
    with pytest.raises(TypeError, match="b_t has elements of type float16; the FP8 GEMM takes"):
        kcc.ops.gemm(z, h, fp8_format="e4m3fn", device=gfx950)


@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_int8_rows(emu, chip, kind):
    """int8: exact integer sums; per-token and per-channel scales, tails."""
    rng = np.random.default_rng(7)
    m, n, k = 70, 130, 300
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    b_t = rng.integers(-128, 128, (n, k), dtype=np.int8)
    sa = rng.uniform(0.5, 2, m).astype(np.float32) * np.float32(1e-3)
    sb = rng.uniform(0.5, 2, n).astype(np.float32) * np.float32(1e-2)
    if kind == "torch":
        c = kcc.ops.gemm(torch.from_numpy(a), torch.from_numpy(b_t), a_scale=torch.from_numpy(sa),
                         b_scale=torch.from_numpy(sb), out_dtype=torch.float32, device=emu)
        c = c.numpy()
    else:
        c = kcc.ops.gemm(a, b_t, a_scale=sa, b_scale=sb, out_dtype=np.float32, device=emu)
    exact = a.astype(np.int64) @ b_t.astype(np.int64).T
    ref = exact * sa.astype(np.float64)[:, None] * sb.astype(np.float64)[None, :]
    assert c.dtype == np.float32
    assert (np.abs(c - ref) <= 5 * 2.0 ** -24 * np.abs(ref) + 1e-30).all()


def test_int8_errors():
    z8 = np.zeros((16, 128), np.int8)
    gfx950 = kcc.device("emu:gfx950")
    with pytest.raises(ValueError, match=r"gemm_i8: A's scale \(16x2\) and Bt's \(1x2\) are over "
                                         r"128-deep blocks; the int8 GEMM takes per-tensor"):
        kcc.ops.gemm(np.zeros((16, 256), np.int8), np.zeros((16, 256), np.int8),
                     a_scale=np.ones((16, 2), np.float32), b_scale=np.ones((1, 2), np.float32),
                     device=gfx950)
    with pytest.raises(TypeError, match="b_t has elements of type uint8; the int8 GEMM takes int8"):
        kcc.ops.gemm(z8, np.zeros((16, 128), np.uint8), device=gfx950)
