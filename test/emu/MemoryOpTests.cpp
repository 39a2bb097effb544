//===- MemoryOpTests.cpp - Vector-memory and LDS families, row by row -----===//
//
// The llvm-mc kernels of test/emu/asm for the DS atomics beyond the integer
// read-modify-writes. The references are written from the ISA guides'
// pseudocode, per lane and per row, with other arithmetic than the
// emulator's (bit classes for the float compares, double-precision sums
// rounded once for the packed adds).
//
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include <cstring>

using namespace kcc;
using namespace kcc::emutest;

namespace {

class MemOps : public EmuTest {};

/// IEEE equality from the bit patterns: a NaN equals nothing, +0 equals -0.
bool f32Equal(uint32_t a, uint32_t b) {
  auto isNan = [](uint32_t x) { return (x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu); };
  if (isNan(a) || isNan(b))
    return false;
  return a == b || ((a | b) & 0x7fffffffu) == 0;
}
bool f64Equal(uint64_t a, uint64_t b) {
  auto isNan = [](uint64_t x) {
    return (x & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (x & 0xfffffffffffffull);
  };
  if (isNan(a) || isNan(b))
    return false;
  return a == b || ((a | b) & 0x7fffffffffffffffull) == 0;
}

/// Packed halves summed in double (exact for f16; for bf16 one rounding of
/// the double sum, which double rounding cannot change at 53 >= 2 * 8 + 2).
uint32_t pkAddF16(uint32_t a, uint32_t b) {
  uint32_t r = 0;
  for (int h = 0; h < 2; ++h)
    r |= uint32_t(toF16(fromF16(uint16_t(a >> 16 * h)) + fromF16(uint16_t(b >> 16 * h))))
         << 16 * h;
  return r;
}
uint32_t pkAddBf16(uint32_t a, uint32_t b) {
  uint32_t r = 0;
  for (int h = 0; h < 2; ++h)
    r |= uint32_t(toBf16(double(fromBf16(uint16_t(a >> 16 * h))) +
                         double(fromBf16(uint16_t(b >> 16 * h)))))
         << 16 * h;
  return r;
}

// See asm/ds_atomics2.s for the rows.
TEST_P(MemOps, DsCompareStoreWrapPackedAddExchange2) {
  auto m = load("ds_atomics2");
  ASSERT_TRUE(m);
  std::vector<uint32_t> a(64), b(64), c(64);
  std::vector<uint64_t> a64(64), b64(64), c64(64);
  std::uniform_real_distribution<double> unit(-4.0, 4.0);
  for (int l = 0; l < 64; ++l) {
    // Floats that compare equal in a third of the lanes.
    a[l] = bitsOf(float(unit(rng)));
    b[l] = l % 3 == 0 ? a[l] : bitsOf(float(unit(rng)));
    c[l] = (uint32_t)rng();
    a64[l] = bitsOf(unit(rng));
    b64[l] = l % 3 == 0 ? a64[l] : bitsOf(unit(rng));
    c64[l] = rng();
  }
  // Float-compare corner cases: +0 == -0, NaN != NaN (same bits), -0 == +0.
  a[1] = 0x00000000; b[1] = 0x80000000;
  a[2] = 0x7fc00000; b[2] = 0x7fc00000;
  a[4] = 0x80000000; b[4] = 0x00000000;
  a64[1] = 0; b64[1] = 0x8000000000000000ull;
  a64[2] = 0x7ff8000000000000ull; b64[2] = a64[2];
  // Packed adds: memory c32, data the low word of c64, as f16 or bf16
  // pairs; an all-ones exponent field in any half is cleared (finite
  // operands; NaN payloads are not what this checks). Lane 5 adds opposite
  // values to an exact zero.
  auto lo = [](uint64_t x) { return uint32_t(x); };
  c64[5] = (c64[5] & ~0xffffffffull) | (c[5] ^ 0x80008000u);
  for (int l = 0; l < 64; ++l) {
    uint32_t w[2] = {c[l], lo(c64[l])};
    for (uint32_t &v : w)
      for (int h = 0; h < 2; ++h) {
        if (((v >> (16 * h + 10)) & 0x1f) == 0x1f)
          v ^= 0x4000u << (16 * h); // f16 exponent not all ones
        if (((v >> (16 * h + 7)) & 0xff) == 0xff)
          v ^= 0x2000u << (16 * h); // bf16 exponent not all ones
      }
    c[l] = w[0];
    c64[l] = (c64[l] & ~0xffffffffull) | w[1];
  }
  // Wrap: in lanes 8..15 memory reaches or passes the limit.
  for (int l = 8; l < 16; ++l)
    b[l] = a[l] - uint32_t(l - 8);
  b[16] = a[16] + 1; // just below the limit: steps forward
  uint64_t da = upload(a), db = upload(b), dc = upload(c), da64 = upload(a64),
           db64 = upload(b64), dc64 = upload(c64), dout = alloc(19 * 256 + 11 * 512);
  EMU_LAUNCH(*m, "ds_atomics2", {1, 1, 1}, {64, 1, 1},
             ArgPack().add(da).add(db).add(dc).add(da64).add(db64).add(dc64).add(dout));
  auto out = download<uint32_t>(dout, 19 * 64 + 11 * 128);
  std::vector<uint32_t> want(19 * 64);
  std::vector<uint64_t> want64(11 * 64);
  for (int l = 0; l < 64; ++l) {
    uint32_t *r = &want[l];
    uint32_t cmpst = f32Equal(a[l], b[l]) ? c[l] : a[l];
    r[0 * 64] = a[l];
    r[1 * 64] = cmpst;
    r[2 * 64] = cmpst;
    r[3 * 64] = a[l];
    r[4 * 64] = a[l] >= b[l] ? a[l] - b[l] : a[l] + c[l];
    uint32_t pkData = uint32_t(c64[l]);
    r[5 * 64] = c[l];
    r[6 * 64] = pkAddF16(c[l], pkData);
    r[7 * 64] = c[l];
    r[8 * 64] = pkAddBf16(c[l], pkData);
    r[9 * 64] = pkAddF16(c[l], pkData);
    r[10 * 64] = pkAddBf16(c[l], pkData);
    for (int k = 0; k < 2; ++k) { // wrxchg2, then wrxchg2st64
      r[(11 + 4 * k) * 64] = a[l];
      r[(12 + 4 * k) * 64] = b[l];
      r[(13 + 4 * k) * 64] = c[l];
      r[(14 + 4 * k) * 64] = a[l];
    }
    uint64_t *q = &want64[l];
    uint64_t cmpst64 = f64Equal(a64[l], b64[l]) ? c64[l] : a64[l];
    q[0 * 64] = a64[l];
    q[1 * 64] = cmpst64;
    q[2 * 64] = cmpst64;
    for (int k = 0; k < 2; ++k) {
      q[(3 + 4 * k) * 64] = a64[l];
      q[(4 + 4 * k) * 64] = b64[l];
      q[(5 + 4 * k) * 64] = c64[l];
      q[(6 + 4 * k) * 64] = a64[l];
    }
  }
  std::vector<uint32_t> got32(out.begin(), out.begin() + 19 * 64);
  std::vector<uint64_t> got64(11 * 64);
  std::memcpy(got64.data(), out.data() + 19 * 64, 11 * 64 * 8);
  Report("ds_atomics2 u32 rows (row * 64 + lane)").expectEqual(got32, want);
  Report("ds_atomics2 u64 rows (row * 64 + lane)").expectEqual(got64, want64);
}

} // namespace

INSTANTIATE_TEST_SUITE_P(Chips, MemOps,
                         ::testing::Values(Chip::gfx942, Chip::gfx950),
                         chipParamName);
