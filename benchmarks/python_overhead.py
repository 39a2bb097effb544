"""Per-call overhead of kcc's Python binding on cached kernels.

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/python_overhead.py [--calls N] [--device emu:gfx950]

For kcc.ops.attention and kcc.ops.gemm on small torch tensors (the kernel
already compiled and loaded, so every call is a memory-cache hit), it prints
the median over N calls of:
  - wall: the Python call as a user makes it;
  - op: the C++ op inside it (kcc::ops::attention_forward / gemm: argument
    checks, JIT lookup, launch, wait), what the same call costs from C++;
  - python overhead = wall - op: the Python wrapper, output allocation,
    reading the tensors through DLPack, and (CPU tensors on the emulator)
    copying them into and out of emulated memory.
Target (issue 20): python overhead below 20 us.
"""
import argparse
import statistics
import time

import torch

import kcc


def measure(call, calls):
    call()  # compile and load once
    walls, ops = [], []
    for _ in range(calls):
        start = time.perf_counter()
        call()
        walls.append(time.perf_counter() - start)
        ops.append(kcc.last_launch().op_seconds)
    wall, op = statistics.median(walls), statistics.median(ops)
    over = statistics.median(w - o for w, o in zip(walls, ops))
    return wall, op, over


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--device", default="emu:gfx950")
    args = parser.parse_args()
    dev = kcc.device(args.device)

    q = torch.randn(1, 16, 1, 64, dtype=torch.bfloat16)
    a = torch.randn(16, 32, dtype=torch.bfloat16)
    cases = [
        ("attention [1,16,1,64] bf16", lambda: kcc.ops.attention(q, q, q, device=dev)),
        ("gemm 16x16x32 bf16", lambda: kcc.ops.gemm(a, a[:16], device=dev)),
    ]
    print(f"device {dev.spec}, {args.calls} calls each, medians")
    print(f"{'call':<30} {'wall us':>9} {'op us':>9} {'python overhead us':>19}")
    for name, call in cases:
        wall, op, over = measure(call, args.calls)
        verdict = "meets" if over < 20e-6 else "misses"
        print(f"{name:<30} {wall * 1e6:9.1f} {op * 1e6:9.1f} {over * 1e6:19.1f}  ({verdict} the 20 us target)")


if __name__ == "__main__":
    main()
