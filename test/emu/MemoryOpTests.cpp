//===- MemoryOpTests.cpp - Vector-memory and LDS families, row by row -----===//
//
// The llvm-mc kernels of test/emu/asm for the DS atomics beyond the integer
// read-modify-writes, the LDS-DMA loads of global and scratch memory and
// the typed buffer accesses, and clang's output for the first two
// (kernels/memops.hip) and llc's for the third (ll/buffer_format_llc.ll). The references are written from the ISA guides'
// pseudocode, per lane and per row, with other arithmetic than the
// emulator's (bit classes for the float compares, double-precision sums
// rounded once for the packed adds, formats decoded field by field).
//
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include <algorithm>
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

// See asm/ds_addtid.s: LDS at offset + M0[15:0] + 4 * lane, under EXEC.
TEST_P(MemOps, DsAddTid) {
  auto m = load("ds_addtid");
  ASSERT_TRUE(m);
  std::vector<uint32_t> src(64);
  for (auto &v : src)
    v = (uint32_t)rng();
  uint64_t dsrc = upload(src), dout = alloc(4 * 256);
  EMU_LAUNCH(*m, "ds_addtid", {1, 1, 1}, {64, 1, 1}, ArgPack().add(dsrc).add(dout));
  auto out = download<uint32_t>(dout, 4 * 64);
  std::vector<uint32_t> want(4 * 64);
  for (int l = 0; l < 64; ++l) {
    bool odd = l & 1;
    want[l] = src[l];
    want[64 + l] = src[l];
    want[128 + l] = odd ? ~src[l] : 0xdeadbeefu;
    want[192 + l] = odd ? 0xdeadbeefu : src[l];
  }
  Report("ds_addtid rows").expectEqual(out, want);
}

// See asm/lds_dma.s: LDS = M0 + offset + 4 * lane for every addressing
// form of global_load_lds_dword and scratch_load_lds_dword.
TEST_P(MemOps, GlobalAndScratchLoadLdsDword) {
  auto m = load("lds_dma");
  ASSERT_TRUE(m);
  std::vector<uint32_t> src(192);
  for (auto &v : src)
    v = (uint32_t)rng();
  uint64_t dsrc = upload(src), dout = alloc(8 * 256);
  EMU_LAUNCH(*m, "lds_dma", {1, 1, 1}, {64, 1, 1}, ArgPack().add(dsrc).add(dout));
  auto out = download<uint32_t>(dout, 8 * 64);
  std::vector<uint32_t> want(8 * 64);
  for (int l = 0; l < 64; ++l) {
    want[0 * 64 + l] = src[63 - l];
    want[1 * 64 + l] = src[64 + l];
    want[2 * 64 + l] = 0;             // M0 moved the third load up a row
    want[3 * 64 + l] = src[128 + l];
    want[4 * 64 + l] = ~src[l];       // private dword 1
    want[5 * 64 + l] = ~src[l];
    want[6 * 64 + l] = src[l];        // private dword 0
    want[7 * 64 + l] = src[l];
  }
  Report("LDS rows after the DMA loads").expectEqual(out, want);
}

// See asm/lds_dma_x34_gfx950.s: 12- and 16-byte LDS DMA lanes are 16 bytes
// apart, and a raw buffer's out-of-range dwords arrive as zeros.
TEST_P(MemOps, LoadLdsDwordx3x4) {
  if (!isGfx950())
    GTEST_SKIP() << "12- and 16-byte LDS DMA are gfx950 only";
  auto m = load("lds_dma_x34_gfx950");
  ASSERT_TRUE(m);
  std::vector<uint32_t> src(260);
  for (auto &v : src)
    v = (uint32_t)rng();
  uint64_t dsrc = upload(src), dout = alloc(1024 * 4);
  EMU_LAUNCH(*m, "lds_dma_x34", {1, 1, 1}, {64, 1, 1}, ArgPack().add(dsrc).add(dout));
  auto out = download<uint32_t>(dout, 1024);
  std::vector<uint32_t> want(1024);
  for (uint32_t i = 0; i < 1024; ++i)
    want[i] = 0xdead0000u + i; // the prefill
  for (int l = 0; l < 64; ++l)
    for (int j = 0; j < 4; ++j) {
      want[4 * l + j] = src[4 * l + j];
      if (j < 3) {
        want[256 + 4 * l + j] = src[4 * l + 4 + j];
        unsigned byteOff = 16 * l + 4 * j;
        want[512 + 4 * l + j] = byteOff + 4 <= 520 ? src[4 * l + j] : 0;
      }
    }
  Report("LDS dwords after the x3/x4 DMA loads").expectEqual(out, want);
}

// kernels/memops.hip: clang's ds_pk_add_rtn_f16/bf16 for packed atomic adds
// on __shared__ memory. Four lanes add to each of 16 slots in an order the
// hardware does not fix; with small integers every sum is exact, so the
// final slot is init + the four adds, and the returned old values chain
// from init through the adds in some order.
TEST_P(MemOps, ClangPackedAtomicAddsOnLds) {
  auto m = load("memops");
  ASSERT_TRUE(m);
  for (int bf = 0; bf < 2; ++bf) {
    auto enc = [&](double v) -> uint32_t { return bf ? toBf16(v) : toF16(v); };
    auto dec = [&](uint16_t h) -> double { return bf ? double(fromBf16(h)) : fromF16(h); };
    std::vector<uint32_t> init(16), add(64);
    std::vector<double> initV(32), addV(128);
    for (int i = 0; i < 32; ++i)
      initV[i] = double(int(rng() % 64) - 32);
    for (int i = 0; i < 128; ++i)
      addV[i] = double(int(rng() % 32) - 16) / 2;
    for (int i = 0; i < 16; ++i)
      init[i] = enc(initV[2 * i]) | enc(initV[2 * i + 1]) << 16;
    for (int i = 0; i < 64; ++i)
      add[i] = enc(addV[2 * i]) | enc(addV[2 * i + 1]) << 16;
    uint64_t dinit = upload(init), dadd = upload(add), dold = alloc(64 * 4),
             dslots = alloc(16 * 4);
    const char *name = bf ? "pk_add_bf16_lds" : "pk_add_f16_lds";
    EMU_LAUNCH(*m, name, {1, 1, 1}, {64, 1, 1},
               ArgPack().add(dinit).add(dadd).add(dold).add(dslots));
    auto old = download<uint32_t>(dold, 64);
    auto slots = download<uint32_t>(dslots, 16);
    for (int slot = 0; slot < 16; ++slot)
      for (int h = 0; h < 2; ++h) {
        double cur = initV[2 * slot + h];
        std::vector<int> lanes = {slot, slot + 16, slot + 32, slot + 48};
        // Follow the chain: the lane whose old value is the current sum.
        for (int step = 0; step < 4; ++step) {
          auto it = std::find_if(lanes.begin(), lanes.end(), [&](int l) {
            return dec(uint16_t(old[l] >> 16 * h)) == cur;
          });
          ASSERT_NE(it, lanes.end()) << name << " slot " << slot << " half " << h
                                     << ": no lane returned the partial sum " << cur;
          cur += addV[2 * *it + h];
          lanes.erase(it);
        }
        EXPECT_EQ(dec(uint16_t(slots[slot] >> 16 * h)), cur)
            << name << " slot " << slot << " half " << h;
      }
  }
}

// kernels/memops.hip: clang's global_load_lds_dword (M0 = the LDS array,
// offset:256 applied to the source and to LDS).
TEST_P(MemOps, ClangGlobalLoadLds) {
  auto m = load("memops");
  ASSERT_TRUE(m);
  std::vector<uint32_t> src(192), perm(64);
  for (auto &v : src)
    v = (uint32_t)rng();
  for (int l = 0; l < 64; ++l)
    perm[l] = uint32_t((l * 37 + 5) % 128);
  uint64_t dsrc = upload(src), dperm = upload(perm), dout = alloc(128 * 4);
  EMU_LAUNCH(*m, "global_load_lds", {1, 1, 1}, {64, 1, 1},
             ArgPack().add(dsrc).add(dperm).add(dout));
  auto out = download<uint32_t>(dout, 128);
  std::vector<uint32_t> want(128);
  for (int l = 0; l < 64; ++l) {
    want[l] = src[perm[l]];
    want[64 + l] = src[perm[l] + 64]; // offset:256 bytes on the source too
  }
  Report("out").expectEqual(out, want);
}

// See asm/buffer_format.s for the rows. The references decode each format
// from its definition in the ISA's buffer format table: component bytes
// little-endian, UNORM u / (2^n - 1), SNORM s / (2^(n-1) - 1) clamped to -1,
// SCALED the integer as a float, missing y, z = 0 and w = 1.0.
TEST_P(MemOps, BufferAndTbufferFormats) {
  auto m = load("buffer_format");
  ASSERT_TRUE(m);
  std::vector<uint8_t> src(1024);
  for (auto &b : src)
    b = uint8_t(rng());
  // Every 16-bit half a finite f16 (so every dword a finite f32): NaN
  // payloads are not what this checks.
  for (int i = 0; i < 1024; i += 2)
    if ((src[i + 1] & 0x7c) == 0x7c)
      src[i + 1] &= ~0x40;
  auto u8 = [&](unsigned i) { return uint32_t(src[i]); };
  auto s8 = [&](unsigned i) { return int32_t(int8_t(src[i])); };
  auto u16 = [&](unsigned i) { return uint32_t(src[i] | src[i + 1] << 8); };
  auto s16 = [&](unsigned i) { return int32_t(int16_t(u16(i))); };
  auto u32 = [&](unsigned i) { return u16(i) | u16(i + 2) << 16; };
  auto f = [](double v) { return bitsOf(float(v)); };
  uint64_t dsrc = upload(src), ddst = alloc(1024), dout = alloc(30 * 256);
  EMU_LAUNCH(*m, "buffer_format", {1, 1, 1}, {64, 1, 1},
             ArgPack().add(dsrc).add(ddst).add(dout));
  auto out = download<uint32_t>(dout, 30 * 64);
  std::vector<uint32_t> want(30 * 64);
  for (unsigned l = 0; l < 64; ++l) {
    auto row = [&](int r) -> uint32_t & { return want[r * 64 + l]; };
    for (unsigned k = 0; k < 4; ++k) // 16_16_16_16 UNORM, NR 324
      row(k) = 8 * l + 2 * k + 2 <= 324 ? f(u16(8 * l + 2 * k) / 65535.0) : 0;
    for (unsigned k = 0; k < 2; ++k) // 8_8 SNORM
      row(4 + k) = f(std::max(s8(2 * l + k) / 127.0, -1.0));
    row(6) = 0;
    row(7) = f(1.0);
    row(8) = u32(4 * l); // 32 FLOAT
    row(9) = 0;
    for (unsigned k = 0; k < 3; ++k) // 8_8_8_8 UINT, NR 130
      row(10 + k) = 4 * l + k + 1 <= 130 ? u8(4 * l + k) : 0;
    row(13) = uint32_t(s16(2 * l));             // 16 SINT
    row(14) = f(u16(4 * l));                    // 16_16 USCALED
    row(15) = f(u16(4 * l + 2));
    row(16) = f(s8(l));                         // 8 SSCALED
    row(17) = u32(8 * l);                       // d16 16_16_16_16 FLOAT
    row(18) = u32(8 * l + 4);
    row(19) = uint32_t(toF16(u8(2 * l) / 255.0)) | uint32_t(toF16(u8(2 * l + 1) / 255.0)) << 16;
    row(20) = u16(2 * l) << 16 | 0xabcd;        // d16_hi keeps the low half
    row(21) = 0x12340000u | u8(l);              // d16 keeps the high half
    row(22) = f(std::max(s16(2 * l) / 32767.0, -1.0)); // LDS, 16 SNORM
    uint32_t x = u32(4 * l), y = u32(256 + 4 * l);
    row(23) = uint32_t(toF16(double(floatOf(x)))) | uint32_t(toF16(double(floatOf(y)))) << 16;
    row(24) = x >> 16;
    row(25) = x;
    row(26) = l < 32 ? x : 0;
    // Structured, stride 8: record l, num_records 40.
    row(27) = l < 40 ? uint32_t(s16(8 * l)) : 0;
    row(28) = l < 40 ? uint32_t(s16(8 * l + 2)) : 0;
    row(29) = l < 40 ? f(u16(8 * l + 6) / 65535.0) : 0;
  }
  for (int r = 0; r < 30; ++r) {
    std::vector<uint32_t> got(out.begin() + r * 64, out.begin() + r * 64 + 64),
        exp(want.begin() + r * 64, want.begin() + r * 64 + 64);
    Report("buffer_format row " + std::to_string(r)).expectEqual(got, exp);
  }
}

// LDS DMA past the workgroup's LDS, or from unmapped memory, stops the
// launch with the address (asm/lds_dma_bad.s).
TEST_P(MemOps, LoadLdsOutOfBoundsIsReported) {
  auto m = load("lds_dma_bad");
  ASSERT_TRUE(m);
  struct {
    uint32_t which;
    const char *needle;
  } cases[] = {{0, "beyond the workgroup's 256 bytes"}, {1, "unmapped"}};
  for (auto &c : cases) {
    uint64_t dsrc = alloc(256);
    std::string err = launch(*m, "lds_dma_bad", {1, 1, 1}, {64, 1, 1},
                             ArgPack().add(dsrc).add(uint64_t(c.which)));
    ASSERT_FALSE(err.empty()) << "case " << c.which << " ran";
    EXPECT_NE(err.find(c.needle), std::string::npos)
        << "case " << c.which << ": the error does not say " << c.needle << ": " << err;
  }
}

// Formats whose conversion the guide leaves open are refused by name.
TEST_P(MemOps, UnspecifiedBufferFormatsAreRefused) {
  auto m = load("buffer_format_refused");
  ASSERT_TRUE(m);
  struct {
    uint32_t which;
    const char *needle;
  } cases[] = {{0, "10_11_11"}, {1, "UNORM"}};
  for (auto &c : cases) {
    uint64_t dbuf = alloc(256);
    std::string err = launch(*m, "buffer_format_refused", {1, 1, 1}, {64, 1, 1},
                             ArgPack().add(dbuf).add(uint64_t(c.which)));
    ASSERT_FALSE(err.empty()) << "case " << c.which << " ran";
    EXPECT_NE(err.find(c.needle), std::string::npos)
        << "case " << c.which << ": the error does not name " << c.needle << ": " << err;
  }
}

// ll/buffer_format_llc.ll: the typed buffer intrinsics as llc selects them
// (buffer_load_format_xyzw, tbuffer_load_format_xyzw, buffer_load_format_
// d16_xy, tbuffer_store_format_xy), against the same field-by-field decoding.
TEST_P(MemOps, LlcTypedBufferIntrinsics) {
  auto m = load("buffer_format_llc");
  ASSERT_TRUE(m);
  std::vector<uint8_t> src(1024);
  for (auto &b : src)
    b = uint8_t(rng());
  auto u8 = [&](unsigned i) { return uint32_t(src[i]); };
  auto u16 = [&](unsigned i) { return uint32_t(src[i] | src[i + 1] << 8); };
  uint64_t dsrc = upload(src), dout = alloc(2304), ddst = alloc(256);
  EMU_LAUNCH(*m, "formats", {1, 1, 1}, {64, 1, 1},
             ArgPack().add(dsrc).add(dout).add(ddst));
  auto out = download<uint32_t>(dout, 576);
  auto dst = download<uint32_t>(ddst, 64);
  std::vector<uint32_t> want(576), wantDst(64);
  for (unsigned l = 0; l < 64; ++l) {
    float unorm[4];
    for (unsigned k = 0; k < 4; ++k) {
      unorm[k] = 8 * l + 2 * k + 2 <= 324 ? float(u16(8 * l + 2 * k) / 65535.0) : 0.0f;
      want[4 * l + k] = bitsOf(unorm[k]);
      want[256 + 4 * l + k] = u8(4 * l + k); // 8_8_8_8 UINT
    }
    want[512 + l] = uint32_t(toF16(u8(2 * l) / 255.0)) |
                    uint32_t(toF16(u8(2 * l + 1) / 255.0)) << 16;
    wantDst[l] = l < 50 ? (uint32_t(toF16(unorm[0])) | uint32_t(toF16(unorm[1])) << 16) : 0;
  }
  Report("out (UNORM xyzw, UINT xyzw, d16 UNORM xy)").expectEqual(out, want);
  Report("dst (tbuffer_store_format_xy as 16_16 FLOAT)").expectEqual(dst, wantDst);
}

} // namespace

INSTANTIATE_TEST_SUITE_P(Chips, MemOps,
                         ::testing::Values(Chip::gfx942, Chip::gfx950),
                         chipParamName);
