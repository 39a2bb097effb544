"""Writes NumPy-made attention inputs (`make DIR`) and checks kcc's o.npy
against a float64 NumPy reference (`check DIR`), for run-attention-npy.test:
the user's own data in, the user's own comparison out."""
import sys

import numpy as np

B, SQ, SKV, H, HKV, D = 2, 37, 91, 4, 2, 128


def make(folder):
    rng = np.random.default_rng(7)
    np.save(f"{folder}/q.npy", rng.uniform(-1, 1, (B, SQ, H, D)).astype(np.float16))
    np.save(f"{folder}/k.npy", rng.uniform(-1, 1, (B, SKV, HKV, D)).astype(np.float16))
    np.save(f"{folder}/v.npy", rng.uniform(-1, 1, (B, SKV, HKV, D)).astype(np.float16))


def check(folder):
    q, k, v = (np.load(f"{folder}/{n}.npy").astype(np.float64) for n in "qkv")
    k, v = np.repeat(k, H // HKV, axis=2), np.repeat(v, H // HKV, axis=2)
    s = np.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(D)
    visible = np.arange(SKV)[None, :] <= np.arange(SQ)[:, None] + (SKV - SQ)
    s = np.where(visible, s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    ref = np.einsum("bhqk,bkhd->bqhd", p / p.sum(-1, keepdims=True), v)
    o = np.load(f"{folder}/out/o.npy")
    assert o.dtype == np.float16 and o.shape == (B, SQ, H, D), (o.dtype, o.shape)
    err = np.abs(o.astype(np.float64) - ref).max()
    print(f"o {o.shape} {o.dtype}: max error {err:.5f} vs NumPy float64:",
          "PASS" if err <= 2e-3 else "FAIL")


if __name__ == "__main__":
    {"make": make, "check": check}[sys.argv[1]](sys.argv[2])
