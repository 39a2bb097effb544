"""Results of the input's kind: torch tensors for torch, NumPy for NumPy.

kcc's element types by any name a caller may use: torch dtypes, NumPy
dtypes (uint16 is bfloat16's bits, as NumPy has no bfloat16; ml_dtypes'
bfloat16 when installed), and kcc's own names ("bf16", "f16", "f32").
"""
import sys

_KCC_NAMES = {
    "bf16": "bfloat16", "bfloat16": "bfloat16",
    "f16": "float16", "float16": "float16", "half": "float16",
    "f32": "float32", "float32": "float32", "float": "float32",
}


def is_torch(x):
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(x, torch.Tensor)


def is_numpy(x):
    np = sys.modules.get("numpy")
    return np is not None and isinstance(x, np.ndarray)


def is_ml_bfloat16(x):
    """A NumPy array of ml_dtypes.bfloat16 (passed to kcc as its bits)."""
    return is_numpy(x) and x.dtype.name == "bfloat16"


def for_kcc(x):
    """What the C++ half reads: ml_dtypes bfloat16 arrays as their uint16 bits."""
    return x.view("uint16") if is_ml_bfloat16(x) else x


def type_name(dtype, like):
    """"bfloat16", "float16" or "float32" for `dtype` (None: like's)."""
    if dtype is None:
        if is_torch(like):
            return str(like.dtype).replace("torch.", "")
        if is_numpy(like):
            return "bfloat16" if like.dtype.name in ("uint16", "bfloat16") else like.dtype.name
        raise TypeError(f"expected a torch.Tensor or numpy.ndarray; got {type(like).__name__}")
    if is_torch_dtype(dtype):
        name = str(dtype).replace("torch.", "")
    elif isinstance(dtype, str) or "numpy" not in sys.modules:
        name = str(dtype)
    else:
        np = sys.modules["numpy"]
        try:  # np.float32, np.dtype("float16"), ml_dtypes.bfloat16, ...
            name = np.dtype(dtype).name
        except TypeError:
            name = str(dtype)
        if name == "uint16":  # NumPy's bfloat16: the bits
            name = "bfloat16"
    if name in _KCC_NAMES:
        return _KCC_NAMES[name]
    raise TypeError(f"unsupported dtype {dtype!r}; kcc has bfloat16, float16 and float32")


def is_torch_dtype(dtype):
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(dtype, torch.dtype)


def empty(like, shape, name):
    """An uninitialised array of `shape` and type `name`, of like's kind
    (same torch device; NumPy bfloat16 as like holds it)."""
    if is_torch(like):
        torch = sys.modules["torch"]
        return torch.empty(shape, dtype=getattr(torch, name), device=like.device)
    if is_numpy(like):
        np = sys.modules["numpy"]
        if name == "bfloat16":
            return np.empty(shape, dtype=like.dtype if is_ml_bfloat16(like) else np.uint16)
        return np.empty(shape, dtype=name)
    raise TypeError(f"expected a torch.Tensor or numpy.ndarray; got {type(like).__name__}")


def stream_of(x):
    """The hipStream_t (an int) of torch's current stream on x's GPU, so
    that kcc's launch is ordered after the work queued there; 0 for host
    data and NumPy."""
    if is_torch(x) and x.device.type == "cuda":  # ROCm builds of torch say "cuda"
        torch = sys.modules["torch"]
        return torch.cuda.current_stream(x.device).cuda_stream
    return 0


def shape_of(x, name, rank):
    shape = getattr(x, "shape", None)
    if shape is None:
        raise TypeError(f"{name}: expected a torch.Tensor or numpy.ndarray; got {type(x).__name__}")
    if len(shape) != rank:
        raise ValueError(f"{name} has {len(shape)} dimensions; expected {rank}")
    return tuple(int(s) for s in shape)
