//===- vector.hip - Elementwise f32 and 64-bit integer kernels ------------===//
//
// The simplest things a code object does: global loads and stores indexed by
// workgroup and work-item ids, f32 VALU, 64-bit integer multiply/shift/divide
// (which the AMDGPU backend expands into long VALU sequences), and scalar
// kernel arguments of every size and alignment.
//
//===----------------------------------------------------------------------===//
#include "common.h"

// c = a + b; the bound check leaves the tail lanes of the last wave inactive.
KERNEL void vadd_f32(const float *a, const float *b, float *c, int n) {
  int i = bidX() * blockDimX() + tidX();
  if (i < n)
    c[i] = a[i] + b[i];
}

// 64-bit index math: the gather index (i * mul) % n overflows 32 bits before
// the modulo, so a 32-bit shortcut anywhere gives a wrong element; the value
// mixes a 64-bit multiply, an arithmetic shift and a logical shift.
KERNEL void gather_i64(const long long *src, long long *dst,
                       unsigned long long n, unsigned long long mul,
                       long long addend) {
  unsigned long long i = (unsigned long long)bidX() * 256 + tidX();
  if (i >= n)
    return;
  unsigned long long j = (i * mul) % n;
  long long v = src[j];
  unsigned long long prod = (unsigned long long)v * (unsigned long long)addend;
  dst[i] = (long long)(prod ^ (i << 37)) + (v >> 13) +
           (long long)((unsigned long long)v >> 51);
}

// A struct passed by value among the scalar arguments.
struct Pair {
  int a;
  float b;
};

// Many scalar arguments of mixed size and alignment: work-item k writes
// argument k (widened to 64 bits; floating point as its bit pattern), so a
// wrong kernarg offset or a wrong hidden-argument placement shows up by index.
KERNEL void many_args(long long *out, char c, short s, int i, long long l,
                      float f, double d, unsigned char uc, unsigned short us,
                      unsigned u, unsigned long long ul, Pair p, int i2,
                      float f2, double d2, char c2, long long l2) {
  unsigned k = tidX();
  long long v;
  switch (k) {
  case 0: v = c; break;
  case 1: v = s; break;
  case 2: v = i; break;
  case 3: v = l; break;
  case 4: v = __builtin_bit_cast(int, f); break;
  case 5: v = __builtin_bit_cast(long long, d); break;
  case 6: v = uc; break;
  case 7: v = us; break;
  case 8: v = u; break;
  case 9: v = (long long)ul; break;
  case 10: v = p.a; break;
  case 11: v = __builtin_bit_cast(int, p.b); break;
  case 12: v = i2; break;
  case 13: v = __builtin_bit_cast(int, f2); break;
  case 14: v = __builtin_bit_cast(long long, d2); break;
  case 15: v = c2; break;
  case 16: v = l2; break;
  default: return;
  }
  out[k] = v;
}
