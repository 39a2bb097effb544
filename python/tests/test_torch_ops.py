"""torch.ops.kcc.* through torch.library: the ops in a model in place of
scaled dot-product attention, and their shapes on meta tensors."""
import os
import subprocess
import sys

import torch

import kcc
from conftest import attention_reference, assert_attention_close

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "examples", "sdpa_swap.py")


def test_registered():
    assert hasattr(torch.ops.kcc, "attention") and hasattr(torch.ops.kcc, "gemm")


def test_attention_op_matches_reference():
    g = torch.Generator().manual_seed(11)
    q, k, v = ((torch.rand(2, 40, 4, 64, generator=g) * 2 - 1).bfloat16() for _ in range(3))
    o = torch.ops.kcc.attention(q, k, v, True, None)
    ref, _ = attention_reference(q.double(), k.double(), v.double(), True)
    assert_attention_close(o.double().numpy(), ref, True)


def test_gemm_op_out_dtype():
    a = torch.ones(20, 12, dtype=torch.float16)
    c = torch.ops.kcc.gemm(a, a, None, torch.float32)
    assert c.dtype == torch.float32 and torch.all(c == 12.0)


def test_meta_shapes():
    q = torch.empty(2, 100, 8, 128, dtype=torch.bfloat16, device="meta")
    k = torch.empty(2, 300, 2, 128, dtype=torch.bfloat16, device="meta")
    o = torch.ops.kcc.attention(q, k, k)
    assert o.device.type == "meta" and o.shape == q.shape and o.dtype == q.dtype
    a = torch.empty(7, 64, dtype=torch.float16, device="meta")
    b = torch.empty(9, 64, dtype=torch.float16, device="meta")
    c = torch.ops.kcc.gemm(a, b, None, torch.float32)
    assert c.shape == (7, 9) and c.dtype == torch.float32


def test_example_swaps_sdpa():
    """The README's example: a small attention module with its SDPA call
    replaced by torch.ops.kcc.attention matches the original."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, EXAMPLE], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "max |kcc - sdpa|" in out.stdout and out.stdout.rstrip().endswith("OK")
