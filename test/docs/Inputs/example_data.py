#!/usr/bin/env python3
"""Inputs and host references for the examples of docs/examples/.

  example_data.py gen vadd|gemm DIR      writes DIR/a.bin, DIR/b.bin (raw little-endian)
  example_data.py check vadd|gemm DIR C  compares the kernel's output file C with the
                                         reference computed here; prints PASS or FAIL

Only the standard library: the tests must not depend on NumPy. The inputs
are small integers and halves, so every product and sum is exact in f32
and the comparison is exact too (whatever order the MFMAs sum in).
"""
import struct
import sys

# Fixed shapes: the RUN lines pass the same numbers to `kcc run`.
VADD_N = 1001                  # not a multiple of 256: the last workgroup has a tail
GEMM_M, GEMM_N, GEMM_K = 100, 70, 52  # partial blocks in M, N and K


def vadd_inputs():
    a = [(i % 37) * 0.5 for i in range(VADD_N)]
    b = [float(1000 - i) for i in range(VADD_N)]
    return a, b


def gemm_inputs():
    # A [M, K] and Bt [N, K], row-major; values in -2..2.
    a = [float((3 * i + 1) % 5 - 2) for i in range(GEMM_M * GEMM_K)]
    bt = [float((7 * i + 2) % 5 - 2) for i in range(GEMM_N * GEMM_K)]
    return a, bt


def write(path, fmt, values):
    with open(path, "wb") as f:
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def read(path, fmt):
    with open(path, "rb") as f:
        data = f.read()
    size = struct.calcsize(fmt)
    if len(data) % size:
        sys.exit("%s: %d bytes is not a whole number of '%s'" % (path, len(data), fmt))
    return list(struct.unpack("<%d%s" % (len(data) // size, fmt), data))


def gen(name, out):
    if name == "vadd":
        a, b = vadd_inputs()
        write(out + "/a.bin", "f", a)
        write(out + "/b.bin", "f", b)
    elif name == "gemm":
        a, bt = gemm_inputs()
        write(out + "/a.bin", "e", a)
        write(out + "/bt.bin", "e", bt)
    else:
        sys.exit("unknown example '%s'" % name)


def reference(name):
    if name == "vadd":
        a, b = vadd_inputs()
        return [x + y for x, y in zip(a, b)]
    a, bt = gemm_inputs()
    M, N, K = GEMM_M, GEMM_N, GEMM_K
    return [sum(a[m * K + k] * bt[n * K + k] for k in range(K))
            for m in range(M) for n in range(N)]


def check(name, got_path):
    want = reference(name)
    got = read(got_path, "f")
    if len(got) != len(want):
        print("FAIL: %d values, expected %d" % (len(got), len(want)))
        return 1
    bad = [i for i, (g, w) in enumerate(zip(got, want)) if g != w]
    if bad:
        i = bad[0]
        print("FAIL: %d of %d values differ; first at %d: %r, expected %r"
              % (len(bad), len(want), i, got[i], want[i]))
        return 1
    print("%s: %d of %d values exact: PASS" % (name, len(want), len(want)))
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "gen":
        gen(argv[2], argv[3])
        return 0
    if len(argv) == 5 and argv[1] == "check":
        return check(argv[2], argv[4])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
