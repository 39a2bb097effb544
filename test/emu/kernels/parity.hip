//===- parity.hip - Launch parity with HIP: hidden args, LDS, big args ----===//
//
// What code objects from other compilers rely on at launch: every code
// object v5 hidden argument filled as HIP fills it, dynamic LDS (Triton's
// AMD backend allocates all its LDS dynamically) up to the chip's whole LDS,
// and large packed by-value argument structs.
//
//===----------------------------------------------------------------------===//
#include "common.h"

// Copies the hidden argument block (what __builtin_amdgcn_implicitarg_ptr
// points at) to out[0..words).
KERNEL void hidden_args(unsigned *out, int words) {
  const unsigned *p = (const unsigned *)__builtin_amdgcn_implicitarg_ptr();
  unsigned t = tidX() + tidY() * blockDimX();
  if (bidX() == 0 && bidY() == 0 && t < unsigned(words))
    out[t] = p[t];
}

// A 403-byte packed struct by value, followed by a scalar.
struct __attribute__((packed)) Big {
  char tag;
  double d[40];
  int i[20];
  short s;
};
KERNEL void big_struct(Big b, int after, double *out) {
  if (tidX() != 0)
    return;
  double sum = b.tag + b.s * 1000.0 + after * 1e6;
  for (int k = 0; k < 40; ++k)
    sum += b.d[k];
  for (int k = 0; k < 20; ++k)
    sum += b.i[k] * 0.5;
  out[0] = sum;
}

// Fills `words` dwords of dynamic LDS (up to all of it), then each thread
// folds words written by other waves.
extern __shared__ unsigned dynAll[];
KERNEL void lds_fill(unsigned *out, unsigned words) {
  unsigned t = tidX();
  for (unsigned i = t; i < words; i += 256)
    dynAll[i] = i * 2654435761u;
  syncthreads();
  unsigned acc = 0;
  for (unsigned i = 255 - t; i < words; i += 256)
    acc ^= dynAll[i];
  out[t] = acc;
}
