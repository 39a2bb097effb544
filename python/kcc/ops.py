"""kcc's ops on tensors: the same kernels, variants and argument checks as
kcc::ops in C++ (kernels/attention/AttentionOp.h, kernels/gemm/GemmOp.h).

Inputs are torch tensors or NumPy arrays (bfloat16 as torch.bfloat16, or as
NumPy uint16 bits; float16; attention's and gemm's FP8 as torch.float8_e4m3fn /
float8_e4m3fnuz, or uint8 bits with fp8_format), all on one device: host arrays run on the
emulator (or `device=`), ROCm tensors in place, on torch's current
stream. Results come back as the inputs' kind. Every argument is checked
before anything runs: a wrong dtype is a TypeError, a wrong shape, stride
or device a ValueError, with the C++ op's message. kcc.last_launch() tells
what the launch reported.
"""
from . import _kcc
from ._arrays import empty, for_kcc, shape_of, stream_of, type_name
from ._launches import record


def attention(q, k, v, *, causal=False, scale=None, return_lse=False, out=None,
              device=None, params=None, fp8_format=None, descale=None, out_dtype=None):
    """O = softmax(scale * Q K^T [+ causal mask]) V on [B, S, H, D] tensors.

    q [B, S_q, H, D], k and v [B, S_kv, H_kv, D] with H a multiple of H_kv
    (MHA, GQA, MQA), D 64 or 128, all bfloat16 or all float16; the head
    dimension contiguous, other strides free. `causal` aligns the diagonal
    bottom-right (query i sees keys j <= i + S_kv - S_q). `scale` defaults
    to 1/sqrt(D). Returns out [B, S_q, H, D], and with return_lse also the
    log-sum-exp [B, H, S_q] (float32, natural log). `params` overrides the
    kernel's parameters ({"BN": 32}), for tuning.

    FP8: q, k, v as torch.float8_e4m3fn (gfx950) / torch.float8_e4m3fnuz
    (gfx942) tensors, or as uint8 bits with fp8_format="e4m3fn" /
    "e4m3fnuz" (NumPy, or a torch without float8); their true values are the
    codes times descale = (q, k, v) (default 1, 1, 1). O is out_dtype
    (bfloat16 by default, or float16); P is quantised to e4m3 for P V
    (kernels/attention/fmha_fwd_fp8.mlir). Not differentiable.

    On torch tensors that require grad (and out not given) the result is
    differentiable: torch.autograd runs attention_backward for q, k and v.
    """
    fmt = _fp8_format((q, k, v), fp8_format)
    if fmt is not None:
        q, k, v = (_fp8_bits(t) for t in (q, k, v))
    elif out_dtype is not None:
        raise ValueError("out_dtype is FP8 attention's (O is q's type otherwise)")
    if descale is not None:
        descale = tuple(float(x) for x in descale)
        if len(descale) != 3:
            raise ValueError(f"descale is (q, k, v); got {len(descale)} values")
    if fmt is None and out is None and _needs_grad(q, k, v):
        # torch autograd: the backward runs kcc::ops::attention_backward.
        o, lse = _attention_function().apply(q, k, v, bool(causal), scale, device,
                                             _params(params))
        return (o, lse) if return_lse else o
    b, sq, h, _ = shape_of(q, "q", 4)
    if out is None:
        out_type = type_name(out_dtype if out_dtype is not None else "bfloat16", q) \
            if fmt is not None else type_name(None, q)
        out = empty(q, shape_of(q, "q", 4), out_type)
    lse = empty(q, (b, h, sq), "float32") if return_lse else None
    record(_kcc._attention(for_kcc(q), for_kcc(k), for_kcc(v), for_kcc(out), lse,
                           bool(causal), None if scale is None else float(scale),
                           device, _params(params), stream_of(q), fmt, descale))
    return (out, lse) if return_lse else out


_TORCH_FP8 = {"float8_e4m3fn": "e4m3fn", "float8_e4m3fnuz": "e4m3fnuz"}


def _fp8_format(tensors, fp8_format):
    """The FP8 encoding of attention's inputs: torch's float8 dtype, else
    fp8_format (for uint8 bits); None for bf16/f16."""
    found = None
    for t in tensors:
        name = str(getattr(t, "dtype", "")).replace("torch.", "")
        if name in _TORCH_FP8:
            found = found or _TORCH_FP8[name]
    if found and fp8_format is not None and fp8_format != found:
        raise ValueError(f"fp8_format={fp8_format!r} but the tensors are float8_{found}")
    return found or fp8_format


def _fp8_bits(t):
    """torch float8 tensors as their uint8 bits (what kcc reads)."""
    name = str(getattr(t, "dtype", "")).replace("torch.", "")
    if name in _TORCH_FP8:
        import torch
        return t.view(torch.uint8)
    return t


def attention_backward(q, k, v, out, grad_out, lse, *, causal=False, scale=None, device=None):
    """dQ, dK, dV of attention(q, k, v) from its output `out`, the output's
    gradient `grad_out` (both [B, S_q, H, D]) and the forward's log-sum-exp
    `lse` [B, H, S_q] (float32, attention(..., return_lse=True)); dK and dV
    of a key/value head sum over the query heads of its group. The same
    dtypes, shapes and strides as attention; returns (grad_q, grad_k,
    grad_v), of q's, k's and v's shapes.
    """
    grad_q = empty(q, shape_of(q, "q", 4), type_name(None, q))
    grad_k = empty(k, shape_of(k, "k", 4), type_name(None, k))
    grad_v = empty(v, shape_of(v, "v", 4), type_name(None, v))
    record(_kcc._attention_backward(for_kcc(q), for_kcc(k), for_kcc(v), for_kcc(out),
                                    for_kcc(grad_out), for_kcc(lse), for_kcc(grad_q),
                                    for_kcc(grad_k), for_kcc(grad_v), bool(causal),
                                    None if scale is None else float(scale), device,
                                    stream_of(q)))
    return grad_q, grad_k, grad_v


def _needs_grad(*tensors):
    """True for torch tensors of which one requires grad, with grad mode on."""
    torch = _torch_if_loaded()
    return (torch is not None and torch.is_grad_enabled()
            and any(isinstance(t, torch.Tensor) and t.requires_grad for t in tensors))


def _torch_if_loaded():
    import sys
    return sys.modules.get("torch")


_ATTENTION_FUNCTION = None


def _attention_function():
    """attention as a torch.autograd.Function (made once, on first use, so
    that kcc does not import torch itself)."""
    global _ATTENTION_FUNCTION
    if _ATTENTION_FUNCTION is not None:
        return _ATTENTION_FUNCTION
    import torch

    class Attention(torch.autograd.Function):
        @staticmethod
        def forward(ctx, q, k, v, causal, scale, device, params):
            q, k, v = q.detach(), k.detach(), v.detach()
            b, sq, h, _ = q.shape
            out = torch.empty(q.shape, dtype=q.dtype, device=q.device)
            lse = torch.empty((b, h, sq), dtype=torch.float32, device=q.device)
            record(_kcc._attention(for_kcc(q), for_kcc(k), for_kcc(v), for_kcc(out),
                                   for_kcc(lse), causal,
                                   None if scale is None else float(scale), device, params,
                                   stream_of(q)))
            ctx.save_for_backward(q, k, v, out, lse)
            ctx.causal, ctx.scale, ctx.device = causal, scale, device
            ctx.mark_non_differentiable(lse)
            return out, lse

        @staticmethod
        def backward(ctx, grad_out, _grad_lse):
            q, k, v, out, lse = ctx.saved_tensors
            dq, dk, dv = attention_backward(q, k, v, out, grad_out.contiguous(), lse,
                                            causal=ctx.causal, scale=ctx.scale,
                                            device=ctx.device)
            return dq, dk, dv, None, None, None, None

    _ATTENTION_FUNCTION = Attention
    return Attention


def gemm(a, b_t, *, bias=None, out_dtype=None, out=None, device=None, params=None,
         a_scale=None, b_scale=None, fp8_format=None):
    """C = A B_t^T (+ bias) with float32 accumulation.

    a [M, K] and b_t [N, K] bfloat16 or float16 (the same), the bias [N] of
    a's type; C [M, N] of out_dtype (bfloat16, float16 or float32; default
    a's type), or written into `out`. K and N contiguous, row strides free.
    `params` overrides the tile parameters ({"WM": 64}), for tuning.

    FP8 (kernels/gemm/gemm_q8.mlir): a and b_t as torch.float8_e4m3fn
    (gfx950) / float8_e4m3fnuz (gfx942) tensors, or uint8 bits with
    fp8_format="e4m3fn" / "e4m3fnuz"; C = (a * a_scale) (b_t * b_scale)^T
    (+ bias: bfloat16, float16 or float32), bfloat16 by default. The
    scales are float32 and their shapes say what they cover: a number or a
    one-element array per tensor (the default, 1); a_scale [M] per token,
    b_scale [N] per channel; a_scale [M, ceil(K/128)] over 1x128 blocks
    with b_scale [ceil(N/128), ceil(K/128)] over 128x128 blocks, applied to
    each 128-deep block of K's sum.

    int8: a and b_t int8 (torch.int8 or NumPy int8), the sums exact in
    int32, scales per tensor or per row as for FP8 (not blocks).
    """
    fmt = _fp8_format((a, b_t), fp8_format)
    if fmt is None and _is_int8(a):
        fmt = "i8"
    if fmt == "mxfp4":
        raise ValueError("fp8_format='mxfp4': kcc has no MXFP4 GEMM yet (issue 48); "
                         "the FP8 GEMM takes 'e4m3fn' (gfx950) or 'e4m3fnuz' (gfx942)")
    if fmt is not None:
        return _gemm_fp8(a, b_t, a_scale, b_scale, bias, out_dtype, out, device, params, fmt)
    if a_scale is not None or b_scale is not None:
        raise ValueError("a_scale and b_scale are the 8-bit GEMMs' (torch.float8 tensors, "
                         "fp8_format, or int8); a is " + type_name(None, a))
    m, _ = shape_of(a, "a", 2)
    n, _ = shape_of(b_t, "b_t", 2)
    if out is None:
        out = empty(a, (m, n), type_name(out_dtype, a))
    elif out_dtype is not None and type_name(out_dtype, a) != type_name(None, out):
        raise ValueError(f"out has type {type_name(None, out)} but out_dtype is {out_dtype}")
    record(_kcc._gemm(for_kcc(a), for_kcc(b_t), for_kcc(out),
                      None if bias is None else for_kcc(bias), device, _params(params),
                      stream_of(a)))
    return out


def _gemm_fp8(a, b_t, a_scale, b_scale, bias, out_dtype, out, device, params, fmt):
    a, b_t = _fp8_bits(a), _fp8_bits(b_t)
    m, _ = shape_of(a, "a", 2)
    n, _ = shape_of(b_t, "b_t", 2)
    if out is None:
        out = empty(a, (m, n), type_name(out_dtype if out_dtype is not None else "bfloat16", a))
    elif out_dtype is not None and type_name(out_dtype, a) != type_name(None, out):
        raise ValueError(f"out has type {type_name(None, out)} but out_dtype is {out_dtype}")
    sa, sb = _scale_matrix(a_scale, a, "a_scale"), _scale_matrix(b_scale, a, "b_scale")
    record(_kcc._gemm_fp8(for_kcc(a), for_kcc(b_t), for_kcc(sa), for_kcc(sb), for_kcc(out),
                          None if bias is None else for_kcc(bias), device, _params(params),
                          stream_of(a), fmt))
    return out


def _is_int8(x):
    return str(getattr(x, "dtype", "")).replace("torch.", "") == "int8"


def _scale_matrix(scale, like, name):
    """A scale as the op takes it, a float32 matrix: a number (or None: 1)
    or a one-element array [1, 1], a vector [L] a column [L, 1], a matrix
    as it is; of like's kind (same torch device)."""
    if scale is None:
        scale = 1.0
    if isinstance(scale, (int, float)):
        x = empty(like, (1, 1), "float32")
        x[0, 0] = float(scale)
        return x
    shape = tuple(scale.shape)
    if len(shape) == 0 or (len(shape) == 1 and shape[0] == 1):
        return scale.reshape(1, 1)
    if len(shape) == 1:
        return scale.reshape(shape[0], 1)
    if len(shape) != 2:
        raise ValueError(f"{name} has {len(shape)} dimensions; a scale is a number, a vector "
                         "(one per row) or a matrix of blocks")
    return scale


def _params(params):
    if params is None:
        return []
    from ._compile import param_strings
    return param_strings(params)
