"""Shared by the kcc package's tests: float64 references written here from the
definitions (not from kcc's C++ references), and bfloat16 bit helpers.

The tests import kcc from the build tree (PYTHONPATH=build/python), run on
both emulated chips, and use the compile cache the caller set up
($KCC_CACHE_DIR: lit gives each suite run its own).
"""
import math

import numpy as np
import pytest

CHIPS = ("gfx942", "gfx950")


def bf16_bits(x):
    """float32 -> bfloat16 bits (uint16), rounding to nearest even."""
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return u.astype(np.uint16)


def bf16_values(bits):
    """bfloat16 bits (uint16) -> float64 values."""
    return (np.asarray(bits).astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def attention_reference(q, k, v, causal, scale=None):
    """O and LSE in float64 for [B, S, H, D] arrays (H a multiple of H_kv).

    Causal aligns bottom-right: query i sees keys j <= i + S_kv - S_q; a
    query that sees no key has O = 0 and LSE = -inf.
    """
    q, k, v = (np.asarray(t, dtype=np.float64) for t in (q, k, v))
    b, sq, h, d = q.shape
    skv, hkv = k.shape[1], k.shape[2]
    scale = 1.0 / math.sqrt(d) if scale is None else scale
    group = h // hkv
    k = np.repeat(k, group, axis=2)
    v = np.repeat(v, group, axis=2)
    s = np.einsum("bqhd,bkhd->bhqk", q, k) * scale
    if causal:
        visible = np.arange(skv)[None, :] <= np.arange(sq)[:, None] + (skv - sq)
        s = np.where(visible[None, None], s, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    finite = np.isfinite(m)
    p = np.where(finite, np.exp(s - np.where(finite, m, 0.0)), 0.0)
    l = p.sum(axis=-1, keepdims=True)
    o = np.einsum("bhqk,bkhd->bqhd", np.divide(p, l, out=np.zeros_like(p), where=l > 0), v)
    lse = np.where(l[..., 0] > 0, np.log(np.where(l[..., 0] > 0, l[..., 0], 1.0)) + m[..., 0], -np.inf)
    return o, lse


def gemm_reference(a, b_t, bias=None):
    c = np.asarray(a, np.float64) @ np.asarray(b_t, np.float64).T
    if bias is not None:
        c = c + np.asarray(bias, np.float64)[None, :]
    return c


def assert_attention_close(got, ref, bf16):
    """The bound the C++ op tests use: outputs of order 1 within 8e-3 (bf16,
    about one rounding of a value near 2) or 2e-3 (f16), larger ones the same
    relative error. A wrong layout or a missed key is off by far more."""
    tol = 8e-3 if bf16 else 2e-3
    err = np.abs(got - ref) / np.maximum(1.0, np.abs(ref))
    worst = np.unravel_index(np.argmax(err), err.shape)
    assert err.max() <= tol, f"at {worst}: got {got[worst]}, reference {ref[worst]}"


@pytest.fixture(params=CHIPS)
def chip(request):
    return request.param


@pytest.fixture
def emu(chip):
    import kcc
    return kcc.device("emu:" + chip)
