"""kcc.ops.attention on torch tensors and NumPy arrays, both emulated chips,
against the float64 reference: tails, GQA/MQA, causal with S_q != S_kv, LSE,
strided views, out=."""
import numpy as np
import pytest
import torch

import kcc
from conftest import assert_attention_close, attention_reference, bf16_bits, bf16_values

# (B, S_q, S_kv, H, H_kv, D, causal): every case has a tail (no S a multiple
# of the kernels' 32/64/128-row tiles) except where S = 1 is the point.
SHAPES = [
    (1, 70, 90, 4, 2, 64, True),     # GQA, S_kv > S_q: the diagonal shifts
    (2, 33, 33, 2, 2, 128, False),   # MHA, B = 2
    (1, 129, 65, 4, 1, 128, True),   # MQA, S_q > S_kv: early rows see no key
    (1, 1, 17, 2, 1, 64, False),     # one query (decode-like)
]


def _inputs(shape, dtype, seed=0):
    b, sq, skv, h, hkv, d, _ = shape
    g = torch.Generator().manual_seed(seed)
    q = torch.rand(b, sq, h, d, generator=g) * 2 - 1
    k = torch.rand(b, skv, hkv, d, generator=g) * 2 - 1
    v = torch.rand(b, skv, hkv, d, generator=g) * 2 - 1
    return q.to(dtype), k.to(dtype), v.to(dtype)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s[:6])) + ("-causal" if s[6] else ""))
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "f16"])
def test_torch(emu, shape, dtype):
    q, k, v = _inputs(shape, dtype)
    causal = shape[6]
    o, lse = kcc.ops.attention(q, k, v, causal=causal, return_lse=True, device=emu)
    assert isinstance(o, torch.Tensor) and o.dtype == dtype and o.shape == q.shape
    assert lse.dtype == torch.float32 and lse.shape == (shape[0], shape[3], shape[1])
    ref_o, ref_lse = attention_reference(q.double(), k.double(), v.double(), causal)
    assert_attention_close(o.double().numpy(), ref_o, dtype == torch.bfloat16)
    np.testing.assert_allclose(lse.numpy(), ref_lse, rtol=1e-4, atol=1e-4)
    info = kcc.last_launch()
    assert info.device == emu.spec and info.wave_instructions > 0 and info.device_ms is None


def test_numpy_bf16_bits_and_scale(emu):
    rng = np.random.default_rng(1)
    q = bf16_bits(rng.uniform(-1, 1, (1, 45, 2, 128)))
    k = bf16_bits(rng.uniform(-1, 1, (1, 77, 1, 128)))
    v = bf16_bits(rng.uniform(-1, 1, (1, 77, 1, 128)))
    o = kcc.ops.attention(q, k, v, scale=0.3, device=emu)
    assert isinstance(o, np.ndarray) and o.dtype == np.uint16 and o.shape == q.shape
    ref, _ = attention_reference(bf16_values(q), bf16_values(k), bf16_values(v), False, 0.3)
    assert_attention_close(bf16_values(o), ref, True)


def test_numpy_float16_read_only_inputs(emu):
    rng = np.random.default_rng(2)
    q, k, v = (rng.uniform(-1, 1, (1, 40, 2, 64)).astype(np.float16) for _ in range(3))
    for t in (q, k, v):
        t.setflags(write=False)  # no DLPack for these: the buffer protocol reads them
    o = kcc.ops.attention(q, k, v, causal=True, device=emu)
    assert o.dtype == np.float16
    ref, _ = attention_reference(q, k, v, True)
    assert_attention_close(o.astype(np.float64), ref, False)


def test_strided_views_and_out(emu):
    """q, k, v as slices of one packed QKV projection [B, S, 3, H, D] and out
    a slice of a wider tensor: the kernel reads and writes them in place
    (with the views' strides), and leaves out's neighbours alone."""
    g = torch.Generator().manual_seed(3)
    qkv = (torch.rand(2, 50, 3, 2, 64, generator=g) * 2 - 1).to(torch.bfloat16)
    q, k, v = qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2]
    wide = torch.full((2, 50, 2, 64 * 2), 7.0, dtype=torch.bfloat16)
    out = wide[..., :64]
    assert not q.is_contiguous() and not out.is_contiguous()
    got = kcc.ops.attention(q, k, v, causal=True, out=out, device=emu)
    assert got is out
    ref, _ = attention_reference(q.double(), k.double(), v.double(), True)
    assert_attention_close(out.double().numpy(), ref, True)
    assert torch.all(wide[..., 64:] == 7.0)


def test_requires_grad_input(emu):
    q, k, v = _inputs((1, 20, 20, 1, 1, 64, False), torch.bfloat16)
    q.requires_grad_(True)
    o = kcc.ops.attention(q, k, v, device=emu)
    assert o.requires_grad  # differentiable (test_attention_backward.py checks the gradients)
    ref, _ = attention_reference(q.detach().double(), k.double(), v.double(), False)
    assert_attention_close(o.detach().double().numpy(), ref, True)


def test_host_tensors_run_on_the_emulator():
    """Without device=, CPU tensors run on the default device when it is
    emulated (no GPU, or $KCC_DEVICE), else on the emulated gfx950."""
    q, k, v = _inputs((1, 8, 8, 1, 1, 64, False), torch.float16)
    kcc.ops.attention(q, k, v)
    default = kcc.device()
    expected = default.spec if default.kind == "emu" else "emu:gfx950"
    assert kcc.last_launch().device == expected
