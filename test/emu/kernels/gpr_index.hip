//===- gpr_index.hip - Uniform dynamic indexing of register arrays --------===//
//
// A private array indexed by a uniform value stays in VGPRs, and clang (for
// gfx942 and gfx950) reads and writes its element through VGPR index mode:
// s_set_gpr_idx_on sK, gpr_idx(SRC0) or gpr_idx(DST) around a v_mov_b32.
// The indices come from kernel arguments so that they are uniform; the
// array is per lane.
//
//===----------------------------------------------------------------------===//
#include "common.h"

// The host mirrors this function (gprIndexRef in EmuTests.cpp).
KERNEL void private_array(const float *in, float *out, int k, int j) {
  int t = tidX();
  float a[32];
  for (int i = 0; i < 32; ++i)
    a[i] = in[t * 32 + i];
  a[k & 31] += 1.0f;          // read and write at index k
  a[(k + 7) & 31] *= 2.0f;    // and at k + 7
  out[t] = a[j & 31] - a[(j * 5 + 3) & 31];
}
