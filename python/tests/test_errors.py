"""Bad arguments raise TypeError/ValueError with the C++ op's message before
anything runs, and nothing crashes the interpreter."""
import numpy as np
import pytest
import torch

import kcc


def _qkv(dtype=torch.bfloat16, sq=16, skv=16, h=2, hkv=2, d=64):
    return (torch.zeros(1, sq, h, d, dtype=dtype), torch.zeros(1, skv, hkv, d, dtype=dtype),
            torch.zeros(1, skv, hkv, d, dtype=dtype))


def _nothing_ran():
    """The error came before a launch: the last launch is unchanged."""
    before = kcc.last_launch()
    return lambda: kcc.last_launch() is before


def test_attention_dtypes():
    q, k, v = _qkv(torch.float32)
    ran = _nothing_ran()
    with pytest.raises(TypeError, match="q has elements of type float32; attention takes bfloat16 or float16"):
        kcc.ops.attention(q, k, v)
    q, k, v = _qkv()
    with pytest.raises(ValueError, match="K is f16 but Q is bf16; Q, K, V and O must have one dtype"):
        kcc.ops.attention(q, k.half(), v)
    assert ran()


def test_attention_shapes():
    q, k, v = _qkv(d=96)
    with pytest.raises(ValueError, match="head size D = 96 is not supported; the kernel has D = 64 and D = 128"):
        kcc.ops.attention(q, k, v)
    q, k, v = _qkv(h=3, hkv=2)
    with pytest.raises(ValueError, match="H = 3 query heads is not a multiple of H_kv = 2"):
        kcc.ops.attention(q, k, v)
    q, k, v = _qkv()
    with pytest.raises(ValueError, match="k has 3 dimensions; expected 4"):
        kcc.ops.attention(q, k[0], v)
    with pytest.raises(ValueError, match=r"V is \[1, 8, 2, 64\] but K is \[1, 16, 2, 64\]; V must have K's shape"):
        kcc.ops.attention(q, k, v[:, :8])


def test_attention_layouts():
    q, k, v = _qkv()
    with pytest.raises(ValueError, match=r"q: the head \(D\) dimension must be contiguous \(stride 1\); got stride 2"):
        kcc.ops.attention(torch.zeros(1, 16, 2, 128, dtype=torch.bfloat16)[..., ::2], k, v)
    with pytest.raises(ValueError, match=r"k: dimension 1 is broadcast \(stride 0\)"):
        kcc.ops.attention(q, torch.zeros(1, 1, 2, 64, dtype=torch.bfloat16).expand(1, 16, 2, 64), v)
    flipped = np.zeros((1, 16, 2, 64), np.float16)[:, ::-1]
    with pytest.raises(ValueError, match="q: dimension 1 has a negative stride"):
        kcc.ops.attention(flipped, flipped, flipped)
    ro = np.zeros((1, 16, 2, 64), np.float16)
    ro.setflags(write=False)
    with pytest.raises(ValueError, match="out is read-only"):
        kcc.ops.attention(ro, ro, ro, out=ro)


def test_not_arrays():
    q, k, v = _qkv()
    with pytest.raises(TypeError, match="q: expected a torch.Tensor or numpy.ndarray; got list"):
        kcc.ops.attention([[1.0]], k, v)
    with pytest.raises(TypeError, match="v: expected a tensor or array"):
        kcc.ops.attention(q, k, "v")
    with pytest.raises(TypeError, match="a device is a kcc.Device, a spec string"):
        kcc.ops.attention(q, k, v, device=3)
    with pytest.raises(ValueError, match="unknown chip 'gfx9000' in device 'emu:gfx9000'; emulated devices: emu:gfx942, emu:gfx950"):
        kcc.ops.attention(q, k, v, device="emu:gfx9000")


def test_gemm_errors():
    a = torch.zeros(8, 16, dtype=torch.bfloat16)
    with pytest.raises(ValueError, match="gemm: A is 8x16 but Bt is 8x12; both need K columns"):
        kcc.ops.gemm(a, torch.zeros(8, 12, dtype=torch.bfloat16))
    with pytest.raises(TypeError, match="b_t has elements of type float64"):
        kcc.ops.gemm(a, torch.zeros(8, 16, dtype=torch.float64))
    with pytest.raises(TypeError, match="unsupported dtype torch.int8"):
        kcc.ops.gemm(a, a, out_dtype=torch.int8)
    with pytest.raises(ValueError, match="out has type float16 but out_dtype is"):
        kcc.ops.gemm(a, a, out=torch.zeros(8, 8, dtype=torch.float16), out_dtype=torch.float32)
    with pytest.raises(ValueError, match=r"a: the K dimension must be contiguous"):
        kcc.ops.gemm(torch.zeros(16, 8, dtype=torch.bfloat16).t(), a)


def test_bad_params():
    """A parameter the kernel does not declare fails its compile (raised as
    kcc.Error, with the list of parameters the kernel has)."""
    q, k, v = _qkv()
    with pytest.raises(kcc.Error, match="unknown parameter 'NOPE' \\(-D NOPE=1\\); this kernel declares: BLOCK, BN"):
        kcc.ops.attention(q, k, v, params={"NOPE": 1})
