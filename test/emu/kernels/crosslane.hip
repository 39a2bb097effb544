//===- crosslane.hip - DPP, ds_bpermute/permute/swizzle, readlane, scans --===//
//
// Every cross-lane path of a wave64: DPP controls (quad_perm, row shifts and
// rotates, wave shifts and rotates, mirrors, row broadcasts) with row/bank
// masks and bound_ctrl, the LDS-hardware permutes, ds_swizzle in both modes,
// readfirstlane/readlane under divergence, ballot/mbcnt, and a full wave
// prefix sum and block reduction built from them. One workgroup of 64
// work-items per wave; every output element is checked on the host.
//
//===----------------------------------------------------------------------===//
#include "common.h"

// DPP control encodings (AMDGPU DPP_CTRL), old value -1 so lanes that keep
// their old value are visible.
#define QUAD_PERM(a, b, c, d) ((a) | ((b) << 2) | ((c) << 4) | ((d) << 6))
#define ROW_SHL(n) (0x100 + (n))
#define ROW_SHR(n) (0x110 + (n))
#define ROW_ROR(n) (0x120 + (n))
#define WAVE_SHL1 0x130
#define WAVE_ROL1 0x134
#define WAVE_SHR1 0x138
#define WAVE_ROR1 0x13C
#define ROW_MIRROR 0x140
#define ROW_HALF_MIRROR 0x141
#define ROW_BCAST15 0x142
#define ROW_BCAST31 0x143

// out[k * 64 + lane] is the k-th DPP variant of in[lane]; the host mirrors
// this table (test/emu/EmuTests.cpp, DppCases) in the same order.
KERNEL void dpp(const int *in, int *out) {
  unsigned l = tidX();
  int x = in[l];
  int *o = out + l;
  o[0 * 64] = __builtin_amdgcn_update_dpp(-1, x, QUAD_PERM(1, 0, 3, 2), 0xf, 0xf, false);
  o[1 * 64] = __builtin_amdgcn_update_dpp(-1, x, QUAD_PERM(3, 3, 0, 1), 0xf, 0xf, false);
  o[2 * 64] = __builtin_amdgcn_update_dpp(-1, x, ROW_SHL(1), 0xf, 0xf, false);
  o[3 * 64] = __builtin_amdgcn_update_dpp(-1, x, ROW_SHR(3), 0xf, 0xf, false);
  o[4 * 64] = __builtin_amdgcn_update_dpp(-1, x, ROW_SHR(3), 0xf, 0xf, true);
  o[5 * 64] = __builtin_amdgcn_update_dpp(-1, x, ROW_ROR(4), 0xf, 0xf, false);
  o[6 * 64] = __builtin_amdgcn_update_dpp(-1, x, WAVE_SHL1, 0xf, 0xf, false);
  o[7 * 64] = __builtin_amdgcn_update_dpp(-1, x, WAVE_ROL1, 0xf, 0xf, false);
  o[8 * 64] = __builtin_amdgcn_update_dpp(-1, x, WAVE_SHR1, 0xf, 0xf, false);
  o[9 * 64] = __builtin_amdgcn_update_dpp(-1, x, WAVE_ROR1, 0xf, 0xf, false);
  o[10 * 64] = __builtin_amdgcn_update_dpp(-1, x, ROW_MIRROR, 0xf, 0xf, false);
  o[11 * 64] = __builtin_amdgcn_update_dpp(-1, x, ROW_HALF_MIRROR, 0xf, 0xf, false);
  o[12 * 64] = __builtin_amdgcn_update_dpp(-1, x, ROW_BCAST15, 0xa, 0xf, false);
  o[13 * 64] = __builtin_amdgcn_update_dpp(-1, x, ROW_BCAST31, 0xc, 0xf, false);
  // Row mask 0x5 writes rows 0 and 2 only, bank mask 0x6 banks 1 and 2 only
  // (bank k is lanes 4k..4k+3 of each row): the other lanes keep old.
  o[14 * 64] = __builtin_amdgcn_update_dpp(-1, x, ROW_SHL(2), 0x5, 0x6, false);
  o[15 * 64] = __builtin_amdgcn_mov_dpp(x, ROW_ROR(15), 0xf, 0xf, true);
}

// ds_bpermute (pull), ds_permute (push) and ds_swizzle in quad-permute and
// bitmask modes. sel is a permutation of 0..63 given by the host.
KERNEL void permute(const int *in, const int *sel, int *out) {
  unsigned l = tidX();
  int x = in[l];
  int s = sel[l];
  int *o = out + l;
  o[0 * 64] = __builtin_amdgcn_ds_bpermute(s * 4, x);
  o[1 * 64] = __builtin_amdgcn_ds_permute(s * 4, x);
  // Quad-permute mode (offset bit 15): lanes of each quad read [3,2,1,0].
  o[2 * 64] = __builtin_amdgcn_ds_swizzle(x, 0x8000 | QUAD_PERM(3, 2, 1, 0));
  // Bitmask mode, and 0x1f, or 0, xor 0x10: swap 16-lane halves of each 32.
  o[3 * 64] = __builtin_amdgcn_ds_swizzle(x, (0x10 << 10) | (0 << 5) | 0x1f);
  // Bitmask mode, and 0x18, or 0x03, xor 0x04.
  o[4 * 64] = __builtin_amdgcn_ds_swizzle(x, (0x04 << 10) | (0x03 << 5) | 0x18);
}

// readfirstlane under divergence (the first active lane is `first`), readlane
// of a uniform lane index, ballot and mbcnt.
KERNEL void lanes(const int *in, int first, int pick, int *out,
                  unsigned long long *ballots) {
  unsigned l = tidX();
  int x = in[l];
  int r = -7;
  if ((int)l >= first)
    r = __builtin_amdgcn_readfirstlane(x);
  out[l] = r;
  out[64 + l] = __builtin_amdgcn_readlane(x, pick);
  unsigned long long b = __builtin_amdgcn_ballot_w64(x > 0);
  // mbcnt counts the set bits of the mask below this lane: with a full mask
  // it is the lane id; with the ballot it is the rank of this lane.
  out[128 + l] = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0));
  out[192 + l] = __builtin_amdgcn_mbcnt_hi((unsigned)(b >> 32),
                                           __builtin_amdgcn_mbcnt_lo((unsigned)b, 0));
  if (l == 0)
    ballots[bidX()] = b;
}

// Inclusive prefix sum over a wave by DPP (row_shr 1,2,4,8, then row_bcast15
// and row_bcast31, the scan of LLVM's atomic optimizer), its total through
// readlane 63, then a 256-work-item block sum through LDS. Integers, so the
// result is exact.
KERNEL void scan_reduce(const int *in, int *scan, int *blockSum) {
  __shared__ int partial[4];
  unsigned t = tidX();
  unsigned g = bidX() * 256 + t;
  int v = in[g];
  v += __builtin_amdgcn_update_dpp(0, v, ROW_SHR(1), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, ROW_SHR(2), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, ROW_SHR(4), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, ROW_SHR(8), 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, ROW_BCAST15, 0xa, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, ROW_BCAST31, 0xc, 0xf, false);
  scan[g] = v;
  int total = __builtin_amdgcn_readlane(v, 63);
  if ((t & 63) == 0)
    partial[t / 64] = total;
  syncthreads();
  if (t == 0)
    blockSum[bidX()] = partial[0] + partial[1] + partial[2] + partial[3];
}

// Butterfly max of floats over a wave by ds_swizzle (xor 1..16) and
// ds_bpermute (xor 32); every lane must end with the wave maximum.
KERNEL void wave_max(const float *in, float *out) {
  unsigned l = tidX();
  float v = in[bidX() * 64 + l];
  v = __builtin_fmaxf(v, __builtin_bit_cast(float, __builtin_amdgcn_ds_swizzle(
                          __builtin_bit_cast(int, v), (1 << 10) | 0x1f)));
  v = __builtin_fmaxf(v, __builtin_bit_cast(float, __builtin_amdgcn_ds_swizzle(
                          __builtin_bit_cast(int, v), (2 << 10) | 0x1f)));
  v = __builtin_fmaxf(v, __builtin_bit_cast(float, __builtin_amdgcn_ds_swizzle(
                          __builtin_bit_cast(int, v), (4 << 10) | 0x1f)));
  v = __builtin_fmaxf(v, __builtin_bit_cast(float, __builtin_amdgcn_ds_swizzle(
                          __builtin_bit_cast(int, v), (8 << 10) | 0x1f)));
  v = __builtin_fmaxf(v, __builtin_bit_cast(float, __builtin_amdgcn_ds_swizzle(
                          __builtin_bit_cast(int, v), (16 << 10) | 0x1f)));
  v = __builtin_fmaxf(v, __builtin_bit_cast(float, __builtin_amdgcn_ds_bpermute(
                          (int)((l ^ 32) * 4), __builtin_bit_cast(int, v))));
  out[bidX() * 64 + l] = v;
}
