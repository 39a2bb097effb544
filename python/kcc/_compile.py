"""kcc.compile: a kernel of kernels/ or tile-dialect source, JIT-compiled."""
from . import _kcc
from ._arrays import stream_of
from ._launches import record

_CHIPS = ("gfx942", "gfx950")


def _param_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    raise TypeError(
        f"kernel parameters are bool, int, float or str; got {type(value).__name__}")


def param_strings(params):
    """{"D": 128, "CAUSAL": True} -> ["D=128", "CAUSAL=true"]."""
    return [f"{name}={_param_text(value)}" for name, value in params.items()]


def device_for_chip(chip):
    """The device that runs code for `chip`: the default device when it is
    that chip (a GPU, or KCC_DEVICE's choice), else its emulator."""
    if chip not in _CHIPS:
        raise ValueError(f"unknown chip {chip!r}; kcc supports {', '.join(_CHIPS)}")
    default = _kcc.device()
    return default if default.chip == chip else _kcc.device("emu:" + chip)


class CompiledKernel:
    """One kernel of a compiled code object, loaded on a device.

    launch(grid, block, *args, dynamic_lds=0, check=False, seed=1) runs it:
    arrays (torch, NumPy) for pointer arguments, Python numbers for values,
    all checked against the code object's metadata before anything runs.
    """

    def __init__(self, module, kernel):
        self.module = module
        self._kernel = kernel

    name = property(lambda self: self._kernel.name)
    device = property(lambda self: self._kernel.device)
    args = property(lambda self: self._kernel.args,
                    doc="The explicit arguments, as the metadata lists them.")
    vgprs = property(lambda self: self._kernel.vgprs)
    agprs = property(lambda self: self._kernel.agprs)
    sgprs = property(lambda self: self._kernel.sgprs)
    lds_bytes = property(lambda self: self._kernel.lds_bytes)
    scratch_bytes = property(lambda self: self._kernel.scratch_bytes)
    cache_key = property(lambda self: self.module.cache_key)
    cache_outcome = property(
        lambda self: self.module.cache_outcome,
        doc='"compiled", "memory-hit", "disk-hit" or "override"')

    def launch(self, grid, block, *args, dynamic_lds=0, check=False, seed=1, stream=None):
        """`stream`: a hipStream_t as an int; default: torch's current stream
        when an argument is a torch GPU tensor, else the null stream."""
        if stream is None:
            stream = next((s for s in map(stream_of, args) if s), 0)
        return record(self._kernel.launch(grid, block, *args,
                                          dynamic_lds=dynamic_lds,
                                          check=check, seed=seed, stream=stream))

    def __repr__(self):
        return (f"<kcc.CompiledKernel {self.name!r} on {self.device.spec} "
                f"({self.cache_outcome})>")


def compile(name_or_source, chip=None, *, device=None, kernel=None, **params):
    """Compiles (or finds in the JIT caches) a kernel of kernels/ by name
    ("gemm", "fmha_fwd") or tile-dialect source text, with its parameters
    as keywords (DTYPE="f16", D=128, CAUSAL=True), for `chip` ("gfx942",
    "gfx950") or `device` (default: the default device), and loads it.

    Returns the kernel `kernel` names, or the code object's only kernel.
    Raises kcc.CompileError with the located diagnostics when it does not
    compile.
    """
    if not isinstance(name_or_source, str):
        raise TypeError("name_or_source is a kernel name or tile-dialect source text")
    if chip is not None and device is not None:
        raise ValueError("pass chip or device, not both")
    where = device_for_chip(chip) if chip is not None else device
    module = _kcc._compile(name_or_source, param_strings(params), where)
    names = module.kernel_names
    if kernel is None:
        if len(names) != 1:
            raise ValueError(
                f"the code object has kernels {', '.join(names)}; pass kernel=NAME")
        kernel = names[0]
    return CompiledKernel(module, module.kernel(kernel))
