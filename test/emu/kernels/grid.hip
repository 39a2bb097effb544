//===- grid.hip - 3-D grids and blocks --------------------------------------===//
//
// Work-item ids x/y/z (packed into v0 on gfx90a+), workgroup ids x/y/z (system
// SGPRs) and the block size from the hidden kernel arguments: every
// work-item writes what it sees at its own linear index.
//
//===----------------------------------------------------------------------===//
#include "common.h"

// gdim: the grid in workgroups, passed explicitly to compute the index.
KERNEL void ids3d(unsigned *out, unsigned gx, unsigned gy) {
  unsigned bx = blockDimX(), by = blockDimY(), bz = blockDimZ();
  unsigned wg = (bidZ() * gy + bidY()) * gx + bidX();
  unsigned local = (tidZ() * by + tidY()) * bx + tidX();
  unsigned idx = wg * (bx * by * bz) + local;
  unsigned *o = out + idx * 9;
  o[0] = tidX();
  o[1] = tidY();
  o[2] = tidZ();
  o[3] = bidX();
  o[4] = bidY();
  o[5] = bidZ();
  o[6] = bx;
  o[7] = by;
  o[8] = bz;
}
