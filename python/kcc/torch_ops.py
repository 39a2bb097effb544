"""torch.ops.kcc.attention and torch.ops.kcc.gemm, registered with
torch.library, so that a model calls kcc where it would call
scaled_dot_product_attention or a matmul. Imported by `import kcc` when torch
is already imported; `import kcc.torch_ops` registers them otherwise.

The Meta implementations give shapes without running anything, so tracing
(fake and meta tensors) sees the right outputs.
"""
import torch

from . import ops

_lib = torch.library.Library("kcc", "DEF")
_lib.define("attention(Tensor q, Tensor k, Tensor v, bool causal=False, "
            "float? scale=None) -> Tensor")
_lib.define("gemm(Tensor a, Tensor b_t, Tensor? bias=None, "
            "ScalarType? out_dtype=None) -> Tensor")


def _attention(q, k, v, causal=False, scale=None):
    return ops.attention(q, k, v, causal=causal, scale=scale)


def _gemm(a, b_t, bias=None, out_dtype=None):
    return ops.gemm(a, b_t, bias=bias, out_dtype=out_dtype)


def _attention_shape(q, k, v, causal=False, scale=None):
    return torch.empty_like(q, memory_format=torch.contiguous_format)


def _gemm_shape(a, b_t, bias=None, out_dtype=None):
    return a.new_empty((a.shape[0], b_t.shape[0]),
                       dtype=a.dtype if out_dtype is None else out_dtype)


# CPU tensors run on the emulator, ROCm tensors (the CUDA key in a ROCm
# build of torch) in place on their GPU.
for _key in ("CPU", "CUDA"):
    _lib.impl("attention", _attention, _key)
    _lib.impl("gemm", _gemm, _key)
# torch 1.13 has no autograd fallthrough for meta tensors: the shape
# functions serve both keys (the ops have no gradient yet).
for _key in ("Meta", "AutogradMeta"):
    _lib.impl("attention", _attention_shape, _key)
    _lib.impl("gemm", _gemm_shape, _key)
