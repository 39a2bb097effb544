"""kcc.ops.attention through torch.autograd on both emulated chips: the
gradients of q, k and v (kcc::ops::attention_backward) against PyTorch's own
autograd of a float64 attention written here from the definition; and
kcc.ops.attention_backward called directly, with its argument checks."""
import math

import pytest
import torch

import kcc

# (B, S_q, S_kv, H, H_kv, D, causal): tails everywhere (no S a multiple of
# the kernels' 32/64-row tiles), GQA and MQA, S_q != S_kv both ways.
SHAPES = [
    (1, 70, 90, 4, 2, 64, True),
    (2, 33, 47, 2, 2, 128, False),
    (1, 100, 40, 4, 1, 128, True),
]


def _reference(q, k, v, causal):
    """softmax(Q K^T / sqrt(D) [+ bottom-right causal mask]) V in float64
    torch ops, differentiable by torch itself."""
    b, sq, h, d = q.shape
    skv, hkv = k.shape[1], k.shape[2]
    k = k.repeat_interleave(h // hkv, dim=2)
    v = v.repeat_interleave(h // hkv, dim=2)
    s = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(d)
    if causal:
        i = torch.arange(sq).view(sq, 1)
        j = torch.arange(skv).view(1, skv)
        s = s.masked_fill(j > i + (skv - sq), float("-inf"))
    p = torch.softmax(s, dim=-1)
    p = torch.nan_to_num(p)  # queries that see no key: no weight, no gradient
    return torch.einsum("bhqk,bkhd->bqhd", p, v)


def _close(got, ref, bf16, what):
    """Error over the reference's largest magnitude (at least 0.1): P and dS
    are rounded to the input type before their products."""
    scale = max(ref.abs().max().item(), 0.1)
    err = (got.double() - ref).abs().max().item() / scale
    assert err <= (1.5e-2 if bf16 else 2.5e-3), f"{what}: error {err:.3g} of {scale:.3g}"


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s[:6])) + ("-causal" if s[6] else ""))
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "f16"])
def test_autograd_matches_torch(emu, shape, dtype):
    b, sq, skv, h, hkv, d, causal = shape
    g = torch.Generator().manual_seed(sq * 7 + skv)
    q = (torch.randn(b, sq, h, d, generator=g)).to(dtype).requires_grad_()
    k = (torch.randn(b, skv, hkv, d, generator=g)).to(dtype).requires_grad_()
    v = (torch.randn(b, skv, hkv, d, generator=g)).to(dtype).requires_grad_()
    w = torch.randn(b, sq, h, d, generator=g)  # the loss's weights: dO
    o = kcc.ops.attention(q, k, v, causal=causal, device=emu)
    assert o.requires_grad and o.dtype == dtype
    (o.float() * w).sum().backward()

    qd, kd, vd = (t.detach().double().requires_grad_() for t in (q, k, v))
    (_reference(qd, kd, vd, causal) * w.double()).sum().backward()
    bf = dtype == torch.bfloat16
    for got, ref, name in ((q.grad, qd.grad, "dq"), (k.grad, kd.grad, "dk"), (v.grad, vd.grad, "dv")):
        assert got.dtype == dtype and got.shape == ref.shape
        _close(got, ref, bf, name)


def test_no_grad_is_the_plain_op(emu):
    q = torch.randn(1, 16, 2, 64).to(torch.bfloat16).requires_grad_()
    with torch.no_grad():
        o = kcc.ops.attention(q, q.detach(), q.detach(), device=emu)
    assert not o.requires_grad


def test_direct_call_and_checks(emu):
    g = torch.Generator().manual_seed(3)
    q, k, v, do = (torch.randn(1, 40, 2, 64, generator=g).to(torch.float16) for _ in range(4))
    o, lse = kcc.ops.attention(q, k, v, return_lse=True, device=emu)
    dq, dk, dv = kcc.ops.attention_backward(q, k, v, o, do, lse, device=emu)
    qd, kd, vd = (t.double().requires_grad_() for t in (q, k, v))
    (_reference(qd, kd, vd, False) * do.double()).sum().backward()
    for got, ref, name in ((dq, qd.grad, "dq"), (dk, kd.grad, "dk"), (dv, vd.grad, "dv")):
        _close(got, ref, False, name)
    with pytest.raises(ValueError, match="LSE has 40 elements; expected B \\* H \\* S_q = 80"):
        kcc.ops.attention_backward(q, k, v, o, do, lse[:, :1], device=emu)
    with pytest.raises(TypeError, match="grad_out has elements of type"):
        kcc.ops.attention_backward(q, k, v, o, do.float(), lse, device=emu)
