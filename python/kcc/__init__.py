"""kcc from Python: AMD GPU kernels written in kcc's tile dialect, on tensors.

    import kcc, torch
    q, k, v = (torch.randn(1, 256, 8, 128, dtype=torch.bfloat16) for _ in range(3))
    o = kcc.ops.attention(q, k, v, causal=True)  # the emulator when there is no GPU
    print(kcc.last_launch())                     # wave instructions, or GPU ms

Host (CPU) tensors and NumPy arrays run on the emulator (copied in and out);
ROCm GPU tensors run in place on their device. `kcc.compile` JIT-compiles a
kernel of kernels/ or tile-dialect source (the disk cache is the C++ API's)
and `Kernel.launch` runs it. Importing kcc after torch registers
torch.ops.kcc.attention and torch.ops.kcc.gemm (kcc.torch_ops).
"""
import sys as _sys

from ._kcc import (
    CompileError,
    Device,
    Error,
    LaunchError,
    LaunchInfo,
    Module,
    __version__,
    build_identity,
    cache_dir,
    device,
    devices,
    hip_status,
    jit_stats,
)
from ._compile import CompiledKernel, compile
from ._launches import last_launch
from . import ops

if "torch" in _sys.modules:
    from . import torch_ops  # noqa: F401  (registers torch.ops.kcc.*)

__all__ = [
    "CompileError", "CompiledKernel", "Device", "Error", "LaunchError",
    "LaunchInfo", "Module", "build_identity", "cache_dir", "compile", "device",
    "devices", "hip_status", "jit_stats", "last_launch", "ops",
]
