//===- control.hip - Divergent control flow --------------------------------===//
//
// Per-lane if/else, loops whose trip count differs per lane (Collatz steps),
// a loop with break and continue, a switch, and an early return, all inside
// one wave: the emulator's EXEC masking, s_cbranch_execz/vccz and
// s_and_saveexec/s_or_b64 reconvergence are what is tested.
//
//===----------------------------------------------------------------------===//
#include "common.h"

// The host mirrors this function exactly (control_ref in EmuTests.cpp).
KERNEL void divergence(const unsigned *in, unsigned *out, int n) {
  int i = bidX() * 64 + tidX();
  if (i >= n)
    return;
  unsigned x = in[i];
  unsigned r;
  if (x & 1) {
    r = x * 3 + 1;
    if (x & 4)
      r ^= 0x5555;
  } else {
    r = x >> 1;
  }
  // Collatz steps of (x % 1000) + 1: a per-lane trip count.
  unsigned c = (x % 1000) + 1, steps = 0;
  while (c != 1) {
    c = (c & 1) ? 3 * c + 1 : c / 2;
    ++steps;
  }
  // break and continue with per-lane conditions.
  unsigned acc = 0;
  for (unsigned k = 0; k < 64; ++k) {
    if (((x >> (k % 32)) & 3) == 3)
      continue;
    acc += k * (x & 0xff);
    if (acc > (x % 50000))
      break;
  }
  switch ((x >> 3) % 5) {
  case 0: acc += 11; break;
  case 1: acc ^= 0xff; break;
  case 2: acc *= 3; break;
  case 3: break;
  default: acc = ~acc; break;
  }
  out[3 * i] = r;
  out[3 * i + 1] = steps;
  out[3 * i + 2] = acc;
}
