"""kcc.ops.attention with FP8 inputs on both emulated chips (e4m3fn on
gfx950, e4m3fnuz on gfx942): uint8 bits with fp8_format (NumPy, and torch,
whose installed version may lack float8 dtypes), descales, bf16/f16 O,
causal GQA with tails, against a float64 reference on the dequantised
inputs; and the errors of wrong formats, dtypes and descales."""
import math

import numpy as np
import pytest
import torch

import kcc
from conftest import attention_reference, bf16_values

FORMAT = {"gfx942": "e4m3fnuz", "gfx950": "e4m3fn"}


def fp8_values(fmt):
    """The value of each of the 256 codes (NaN for the NaN codes), from the
    encoding's definition: 4 exponent bits (bias 7 OCP, 8 FNUZ), 3 mantissa."""
    fnuz = fmt == "e4m3fnuz"
    out = np.empty(256)
    for c in range(256):
        e, m = (c >> 3) & 15, c & 7
        mag = (8 + m) * 2.0 ** (e - (8 if fnuz else 7) - 3) if e else m * 2.0 ** (1 - (8 if fnuz else 7) - 3)
        nan = c == 0x80 if fnuz else (c & 0x7F) == 0x7F
        out[c] = math.nan if nan else (-mag if c & 0x80 else mag)
    return out


def fp8_codes(x, fmt):
    """float64 -> the nearest code (ties never matter here: random data)."""
    table = fp8_values(fmt)
    finite = np.flatnonzero(np.isfinite(table) & ~((np.arange(256) == 0x80) & (fmt == "e4m3fn")))
    order = finite[np.argsort(table[finite])]
    vals = table[order]
    i = np.clip(np.searchsorted(vals, x), 1, len(vals) - 1)
    pick = np.where(np.abs(vals[i - 1] - x) <= np.abs(vals[i] - x), i - 1, i)
    return order[pick].astype(np.uint8)


def fp8_bound(q, k, v, causal, ref_o, out_rel):
    """The C++ tests' bound (ops::attentionFp8Tolerance, written again here):
    P rounded to e4m3 moves O by at most sum_j u_j |V_j| / l, u_j =
    max(2^-4 P_j, 2^-10), and by eight standard deviations of independent
    uniform roundings at most; plus O's own rounding."""
    b, sq, h, d = q.shape
    skv, hkv = k.shape[1], k.shape[2]
    k = np.repeat(k, h // hkv, axis=2)
    v = np.repeat(v, h // hkv, axis=2)
    s = np.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(d)
    if causal:
        visible = np.arange(skv)[None, :] <= np.arange(sq)[:, None] + (skv - sq)
        s = np.where(visible[None, None], s, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    p = np.exp(s - np.where(np.isfinite(m), m, 0.0))
    l = p.sum(axis=-1)[..., None]  # [b, h, q, 1]
    u = np.where(np.isfinite(s), np.maximum(2.0 ** -4 * p, 2.0 ** -10), 0.0)
    worst = np.einsum("bhqk,bkhd->bqhd", u, np.abs(v))
    sigma = np.sqrt(np.einsum("bhqk,bkhd->bqhd", u * u, v * v) / 3)
    lt = np.transpose(np.where(l > 0, l, 1.0), (0, 2, 1, 3))
    return np.minimum(worst, 8 * sigma) / lt + out_rel * np.abs(ref_o) + 1e-5


def _inputs(chip, shape, descale, seed=0):
    rng = np.random.default_rng(seed)
    b, sq, skv, h, hkv, d = shape
    fmt = FORMAT[chip]
    codes, values = [], []
    for n, (s, hh), ds in zip("qkv", [(sq, h), (skv, hkv), (skv, hkv)], descale):
        c = fp8_codes(rng.standard_normal((b, s, hh, d)) / ds, fmt)
        codes.append(c)
        values.append(fp8_values(fmt)[c] * ds)
    return codes, values


@pytest.mark.parametrize("shape,causal", [((1, 150, 150, 4, 2, 128), True),
                                          ((2, 33, 70, 2, 1, 64), False)],
                         ids=["gqa-causal-128", "mqa-64"])
def test_numpy_bits(emu, chip, shape, causal):
    descale = (0.02, 0.05, 0.01)
    (q, k, v), (qd, kd, vd) = _inputs(chip, shape, descale)
    o, lse = kcc.ops.attention(q, k, v, causal=causal, return_lse=True, device=emu,
                               fp8_format=FORMAT[chip], descale=descale)
    assert o.dtype == np.uint16 and o.shape == q.shape  # bfloat16 bits
    ref_o, ref_lse = attention_reference(qd, kd, vd, causal)
    err = np.abs(bf16_values(o) - ref_o) / fp8_bound(qd, kd, vd, causal, ref_o, 2.0 ** -8)
    assert err.max() < 1.0, f"largest error over its bound {err.max():.3f}"
    assert err.max() > 0.02  # the bound is not loose
    np.testing.assert_allclose(lse, ref_lse, rtol=1e-4, atol=1e-3)
    assert kcc.last_launch().params[0] == ("DTYPE=f8E4M3FN" if chip == "gfx950" else "DTYPE=f8E4M3FNUZ")


def test_torch_uint8_f16_out(emu, chip):
    shape = (1, 70, 90, 4, 2, 128)
    (q, k, v), (qd, kd, vd) = _inputs(chip, shape, (1, 1, 1), seed=3)
    tq, tk, tv = (torch.from_numpy(x) for x in (q, k, v))
    o = kcc.ops.attention(tq, tk, tv, causal=True, device=emu, fp8_format=FORMAT[chip],
                          out_dtype=torch.float16)
    assert isinstance(o, torch.Tensor) and o.dtype == torch.float16
    ref_o, _ = attention_reference(qd, kd, vd, True)
    err = np.abs(o.double().numpy() - ref_o) / fp8_bound(qd, kd, vd, True, ref_o, 2.0 ** -10)
    assert err.max() < 1.0


@pytest.mark.skipif(not hasattr(torch, "float8_e4m3fn"), reason="this torch has no float8 dtypes")
def test_torch_float8(emu, chip):
    shape = (1, 40, 40, 2, 2, 128)
    (q, k, v), (qd, kd, vd) = _inputs(chip, shape, (1, 1, 1), seed=5)
    dt = torch.float8_e4m3fn if chip == "gfx950" else torch.float8_e4m3fnuz
    tq, tk, tv = (torch.from_numpy(x).view(dt) for x in (q, k, v))
    o = kcc.ops.attention(tq, tk, tv, device=emu)
    assert o.dtype == torch.bfloat16
    ref_o, _ = attention_reference(qd, kd, vd, False)
    err = np.abs(o.double().numpy() - ref_o) / fp8_bound(qd, kd, vd, False, ref_o, 2.0 ** -8)
    assert err.max() < 1.0


def test_errors():
    z = np.zeros((1, 16, 1, 128), np.uint8)
    gfx942, gfx950 = kcc.device("emu:gfx942"), kcc.device("emu:gfx950")
    with pytest.raises(ValueError, match=r"attention: Q is e4m3fn, an FP8 encoding gfx942 lacks; "
                                         r"gfx942 takes e4m3fnuz \(FNUZ\)"):
        kcc.ops.attention(z, z, z, device=gfx942, fp8_format="e4m3fn")
    with pytest.raises(ValueError, match=r"attention: Q is e4m3fnuz, an FP8 encoding gfx950 lacks; "
                                         r"gfx950 takes e4m3fn \(OCP\)"):
        kcc.ops.attention(z, z, z, device=gfx950, fp8_format="e4m3fnuz")
    with pytest.raises(TypeError, match=r"q holds uint8 values; FP8 bits need "
                                        r"fp8_format='e4m3fn' \(gfx950\) or 'e4m3fnuz' \(gfx942\)"):
        kcc.ops.attention(z, z, z, device=gfx950)
    with pytest.raises(ValueError, match=r"fp8_format='e5m2'; kcc's FP8 formats are 'e4m3fn' "
                                         r"\(OCP, gfx950\) and 'e4m3fnuz' \(FNUZ, gfx942\)"):
        kcc.ops.attention(z, z, z, device=gfx950, fp8_format="e5m2")
    h = np.zeros((1, 16, 1, 128), np.float16)
    with pytest.raises(TypeError, match="k has elements of type float16; FP8 attention takes "
                                        "torch.float8_e4m3fn / float8_e4m3fnuz tensors or uint8 bits"):
        kcc.ops.attention(z, h, z, device=gfx950, fp8_format="e4m3fn")
    with pytest.raises(ValueError, match=r"descale applies to FP8 inputs \(fp8_format or "
                                         r"torch.float8 tensors\); q is float16"):
        kcc.ops.attention(h, h, h, device=gfx950, descale=(1, 1, 1))
    with pytest.raises(ValueError, match="attention: Q's descale factor 0 must be positive and finite"):
        kcc.ops.attention(z, z, z, device=gfx950, fp8_format="e4m3fn", descale=(0, 1, 1))
    with pytest.raises(ValueError, match=r"descale is \(q, k, v\); got 2 values"):
        kcc.ops.attention(z, z, z, device=gfx950, fp8_format="e4m3fn", descale=(1, 1))
    with pytest.raises(TypeError, match="out has elements of type float32; FP8 attention writes "
                                        "bfloat16 or float16"):
        kcc.ops.attention(z, z, z, device=gfx950, fp8_format="e4m3fn",
                          out=np.zeros((1, 16, 1, 128), np.float32))
    with pytest.raises(ValueError, match=r"out_dtype is FP8 attention's"):
        kcc.ops.attention(h, h, h, device=gfx950, out_dtype=np.float32)
