"""Swap kcc's attention into a PyTorch module written for scaled dot-product
attention, and check that the module's output does not change.

    PYTHONPATH=build/python /usr/bin/python3 python/examples/sdpa_swap.py

The module keeps PyTorch's [B, H, S, D] layout; kcc takes [B, S, H, D], and
the transposes between them are views (kcc reads the strides, nothing is
copied on a GPU). On a machine without an AMD GPU the CPU tensors run on the
emulator.
"""
import torch
import torch.nn.functional as F

import kcc  # after torch: registers torch.ops.kcc.attention and .gemm


def sdpa(q, k, v, causal):
    """PyTorch's attention on [B, H, S, D] (torch 2's public name, or 1.13's)."""
    if hasattr(F, "scaled_dot_product_attention"):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    return F._scaled_dot_product_attention(q, k, v, None, 0.0, False, causal)[0]


def kcc_attention(q, k, v, causal):
    """The same contract through torch.ops.kcc.attention."""
    o = torch.ops.kcc.attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), causal)
    return o.transpose(1, 2)


class SelfAttention(torch.nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.qkv = torch.nn.Linear(dim, 3 * dim)
        self.out = torch.nn.Linear(dim, dim)
        self.attention = sdpa

    def forward(self, x):
        b, s, _ = x.shape
        qkv = self.qkv(x).view(b, s, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        o = self.attention(qkv[0], qkv[1], qkv[2], True)
        return self.out(o.transpose(1, 2).reshape(b, s, -1))


def main():
    torch.manual_seed(0)
    model = SelfAttention(dim=512, heads=8).bfloat16()  # head size 64
    x = torch.randn(2, 100, 512, dtype=torch.bfloat16)
    with torch.no_grad():
        expected = model(x)
        model.attention = kcc_attention
        got = model(x)
    err = (got.float() - expected.float()).abs().max().item()
    scale = expected.float().abs().max().item()
    print(f"max |kcc - sdpa| = {err:.4f} (outputs up to {scale:.3f}), "
          f"attention on {kcc.last_launch().device}")
    # Both run the attention in bfloat16; they differ by its rounding, which
    # the output projection sums over 512 inputs.
    assert err <= 0.02 * scale, "kcc's attention changed the module's output"
    print("OK")


if __name__ == "__main__":
    main()
