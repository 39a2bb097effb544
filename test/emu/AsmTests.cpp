//===- AsmTests.cpp - Hand-assembled kernels and negative tests -----------===//
//
// The kernels of test/emu/asm (llvm-mc output) for what clang does not
// readily emit: AGPR moves, LDS DMA through M0, DS addresses that wrap at 32
// bits, gfx950's transposing LDS read and lane swaps. And what the emulator
// must refuse: an instruction it does not implement (the error names it),
// the saturating MODE.FP16_OVFL, conversions whose result is not
// documented, and a kernel that waits forever (a deadlock is reported
// instead of a hang).
//
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include <algorithm>
#include <cctype>
#include <csignal>
#include <numeric>
#include <sys/wait.h>
#include <unistd.h>

using namespace kcc;
using namespace kcc::emutest;

namespace {

class Asm : public EmuTest {};
class Negative : public EmuTest {};

TEST_P(Asm, AccVgprMoves) {
  auto m = load("accvgpr");
  ASSERT_TRUE(m);
  auto in = std::vector<uint32_t>(64);
  for (auto &v : in)
    v = (uint32_t)rng();
  uint64_t din = upload(in), dout = alloc(4 * 64 * 4);
  EMU_LAUNCH(*m, "accvgpr", {1, 1, 1}, {64, 1, 1}, ArgPack().add(din).add(dout));
  auto out = download<uint32_t>(dout, 4 * 64);
  std::vector<uint32_t> want(4 * 64);
  for (int l = 0; l < 64; ++l) {
    want[l] = in[l];           // v_accvgpr_write, _mov, _read
    want[64 + l] = 7;          // inline constant into an AGPR
    want[128 + l] = in[l];     // global_load_dword into an AGPR
    want[192 + l] = in[l] + 1; // global_store_dword from an AGPR
  }
  Report("out").expectEqual(out, want);
}

// The 24-bit multiplies take bits 0..23 of each operand, signed (bit 23 the
// sign) for the i24 forms, and ignore bits 24..31. The reference below
// extends the 24-bit fields by arithmetic on int64_t, not by the shifts the
// emulator uses.
TEST_P(Asm, Int24Multiplies) {
  auto m = load("int24");
  ASSERT_TRUE(m);
  std::vector<uint32_t> a(64), b(64), c(64);
  for (int l = 0; l < 64; ++l) {
    a[l] = (uint32_t)rng();
    b[l] = (uint32_t)rng();
    c[l] = (uint32_t)rng();
  }
  a[0] = 0x00ffffff; b[0] = 0x00ffffff; // -1 * -1 (i24), max * max (u24)
  a[1] = 0xff800000; b[1] = 0x00000002; // the most negative i24
  a[2] = 0x00000001; b[2] = 0x12800000; // high byte ignored, sign kept
  uint64_t da = upload(a), db = upload(b), dc = upload(c), dout = alloc(7 * 64 * 4);
  EMU_LAUNCH(*m, "int24", {1, 1, 1}, {64, 1, 1},
             ArgPack().add(da).add(db).add(dc).add(dout));
  auto out = download<uint32_t>(dout, 7 * 64);
  auto s24 = [](uint32_t x) {
    int64_t v = x & 0xffffff;
    return v >= 0x800000 ? v - 0x1000000 : v;
  };
  auto u24 = [](uint32_t x) { return int64_t(x & 0xffffff); };
  std::vector<uint32_t> want(7 * 64);
  for (int l = 0; l < 64; ++l) {
    int64_t sp = s24(a[l]) * s24(b[l]), up = u24(a[l]) * u24(b[l]);
    want[l] = uint32_t(sp);
    want[64 + l] = uint32_t(uint64_t(sp) >> 32);
    want[128 + l] = uint32_t(sp + c[l]);
    want[192 + l] = uint32_t(up);
    want[256 + l] = uint32_t(uint64_t(up) >> 32);
    want[320 + l] = uint32_t(up + c[l]);
    want[384 + l] = uint32_t(-96 * s24(a[l]));
  }
  Report("out").expectEqual(out, want);
}

TEST_P(Asm, BufferLoadDwordLds) {
  auto m = load("buffer_lds");
  ASSERT_TRUE(m);
  std::vector<uint32_t> in(128);
  for (auto &v : in)
    v = (uint32_t)rng();
  uint64_t din = upload(in), dout = alloc(128 * 4);
  EMU_LAUNCH(*m, "buffer_lds", {1, 1, 1}, {64, 1, 1},
             ArgPack().add(din).add(dout));
  auto out = download<uint32_t>(dout, 128);
  std::vector<uint32_t> want(128);
  for (int l = 0; l < 64; ++l) {
    want[l] = in[l];                // M0 = 0, identity offsets
    want[64 + l] = in[64 + 63 - l]; // M0 = 256, reversed offsets, soffset 256
  }
  Report("LDS after buffer_load_dword ... lds").expectEqual(out, want);
}

// buffer_lds_narrow.s: byte and short buffer loads with lds write the
// extended value to the lane's LDS dword, and are range-checked on their
// own bytes (num_records 383: the short at 382 is out, the one at 380 in).
TEST_P(Asm, BufferLoadNarrowLds) {
  auto m = load("buffer_lds_narrow");
  ASSERT_TRUE(m);
  std::vector<uint32_t> in(128);
  for (auto &v : in)
    v = (uint32_t)rng();
  in[16] = 0x807f01ffu; // bytes 64..67: sign bits set and clear
  uint64_t din = upload(in), dout = alloc(4 * 64 * 4, 0xcd);
  EMU_LAUNCH(*m, "buffer_lds_narrow", {1, 1, 1}, {64, 1, 1}, ArgPack().add(din).add(dout));
  auto out = download<uint32_t>(dout, 4 * 64);
  auto byteAt = [&](unsigned i) { return (in[i / 4] >> (8 * (i % 4))) & 0xffu; };
  auto halfAt = [&](unsigned i) { return byteAt(i) | byteAt(i + 1) << 8; };
  auto sext = [](uint32_t v, unsigned bits) {
    return v >= (1u << (bits - 1)) ? v - (1u << bits) : v; // modulo 2^32
  };
  std::vector<uint32_t> want(4 * 64);
  for (unsigned l = 0; l < 64; ++l) {
    want[l] = byteAt(l);
    want[64 + l] = sext(byteAt(64 + l), 8);
    want[128 + l] = halfAt(128 + 2 * l);
    want[192 + l] = 256 + 2 * l + 2 <= 383 ? sext(halfAt(256 + 2 * l), 16) : 0;
  }
  Report("LDS after buffer_load_{u,s}{byte,short} ... lds").expectEqual(out, want);
}

TEST_P(Asm, BufferLoadDwordx4Lds) {
  if (!isGfx950())
    GTEST_SKIP() << "buffer_load_dwordx4 ... lds is gfx950 only";
  auto m = load("buffer_lds_x4_gfx950");
  ASSERT_TRUE(m);
  std::vector<uint32_t> in(256);
  for (auto &v : in)
    v = (uint32_t)rng();
  uint64_t din = upload(in), dout = alloc(256 * 4);
  EMU_LAUNCH(*m, "buffer_lds_x4", {1, 1, 1}, {64, 1, 1},
             ArgPack().add(din).add(dout));
  auto out = download<uint32_t>(dout, 256);
  std::vector<uint32_t> want(256);
  for (int l = 0; l < 64; ++l)
    for (int j = 0; j < 4; ++j)
      want[4 * l + j] = in[4 * (63 - l) + j];
  Report("LDS after buffer_load_dwordx4 ... lds").expectEqual(out, want);
}

// DS addresses are VGPR + offset modulo 2^32 (see asm/ds_wrap.s): a base of
// 0xfffffff0 with offset:32 reads LDS address 16, in every DS form (single,
// read2/write2 with scaled offsets, ST64, atomics). The expected values are
// where the data was put with plain, non-wrapping addresses.
// The f16 normalising conversions, the saturating u8 pack and the 32-bit
// quad masks (asm/valu_norm.s), against the ISA's definitions:
// f16_to_snorm = clamp(x, -1, 1) * 32767 and f16_to_unorm = clamp(x, 0, 1)
// * 65535 rounded to nearest even (NaN: 0), sat8 = clamp(int16, 0, 255).
TEST_P(Asm, NormAndQuadMasks) {
  auto m = load("valu_norm");
  ASSERT_TRUE(m);
  // f16 edge cases first: 1, -1, 0.5 (a tie under unorm), -0.5, +-0, 2,
  // -2, inf, -inf, NaN, the smallest denormal, 1/3; then random halves.
  const uint16_t edges[] = {0x3c00, 0xbc00, 0x3800, 0xb800, 0x0000, 0x8000, 0x4000,
                            0xc000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x3555};
  std::vector<uint32_t> a(64), b(64);
  for (int l = 0; l < 64; ++l) {
    a[l] = uint32_t(rng());
    b[l] = uint32_t(rng());
    if (l < int(std::size(edges))) {
      a[l] = (a[l] & 0xffff0000u) | edges[l];
      b[l] = (b[l] & 0xffff0000u) | edges[std::size(edges) - 1 - l];
    }
  }
  uint64_t da = upload(a), db = upload(b), dout = alloc(8 * 64 * 4);
  EMU_LAUNCH(*m, "valu_norm", {1, 1, 1}, {64, 1, 1}, ArgPack().add(da).add(db).add(dout));
  auto out = download<uint32_t>(dout, 8 * 64);
  // An f16 by its fields, in double.
  auto f16 = [](uint32_t h) {
    int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    double mag = exp == 0    ? std::ldexp(double(man), -24)
                 : exp == 31 ? (man ? std::nan("") : INFINITY)
                             : std::ldexp(double(man | 0x400), exp - 25);
    return sign ? -mag : mag;
  };
  auto norm = [&](uint32_t h, bool isSigned) -> uint32_t {
    double x = f16(h & 0xffff);
    if (std::isnan(x))
      return 0;
    double lo = isSigned ? -1.0 : 0.0, scale = isSigned ? 32767.0 : 65535.0;
    double v = std::nearbyint(std::min(std::max(x, lo), 1.0) * scale);
    return uint32_t(int32_t(v)) & 0xffff;
  };
  auto sat8 = [](uint32_t h) -> uint32_t {
    int v = int(h & 0xffff) - ((h & 0x8000) ? 0x10000 : 0);
    return v < 0 ? 0 : v > 255 ? 255 : uint32_t(v);
  };
  std::vector<uint32_t> want(8 * 64);
  for (int l = 0; l < 64; ++l) {
    uint32_t *r = &want[l];
    r[0 * 64] = norm(a[l], true);
    r[1 * 64] = norm(a[l], false);
    r[2 * 64] = norm(a[l], true) | norm(b[l], true) << 16;
    r[3 * 64] = norm(a[l], false) | norm(b[l], false) << 16;
    r[4 * 64] = sat8(a[l]) | sat8(a[l] >> 16) << 8;
    r[5 * 64] = 0x0ff00ff0; // nibbles 1, 2, 5, 6 of 0x01200f80 are set
    r[6 * 64] = 0x66;
    r[7 * 64] = 1;          // SCC 1 of the wqm, 0 of the empty quadmask
  }
  Report("valu_norm out (row * 64 + lane)").expectEqual(out, want);
}

TEST_P(Asm, RegisterIndexing) {
  auto m = load("gpr_idx");
  ASSERT_TRUE(m);
  uint64_t dout = alloc(14 * 64 * 4);
  EMU_LAUNCH(*m, "gpr_idx", {1, 1, 1}, {64, 1, 1}, ArgPack().add(dout));
  auto out = download<uint32_t>(dout, 14 * 64);
  std::vector<uint32_t> want(14 * 64);
  for (uint32_t l = 0; l < 64; ++l) {
    uint32_t *r = &want[l];
    r[0 * 64] = 300 + l;     // src0 v10 + 3
    r[1 * 64] = 400 + 2 * l; // v10 + (src1 v11 + 3)
    r[2 * 64] = l;           // vdst v20 + 5
    r[3 * 64] = 100 + l;     // s_set_gpr_idx_idx 1
    r[4 * 64] = l;           // s_set_gpr_idx_mode gpr_idx(DST)
    r[5 * 64] = 0xffff5f03u; // M0[7:0] = 3, M0[15:12] = 0b0101, the rest kept
    r[6 * 64] = 200 + l;     // v[10:11] + 2 = v[12:13]
    r[7 * 64] = 300 + l;
    r[8 * 64] = l;           // after s_set_gpr_idx_off
    r[9 * 64] = 33;          // s_movrels_b32 s8, s20 with M0 = 2
    r[10 * 64] = 33;         // s_movrels_b64 s[10:11], s[20:21]
    r[11 * 64] = 44;
    r[12 * 64] = 99;         // s_movreld_b32 s20, s9 wrote s22
    r[13 * 64] = 66;         // s_movreld_b64 s[20:21], s[24:25] wrote s[22:23]
  }
  Report("gpr_idx out (row * 64 + lane)").expectEqual(out, want);
  std::string err = launch(*m, "gpr_idx_past_end", {1, 1, 1}, {64, 1, 1},
                                ArgPack().add(dout));
  EXPECT_NE(err.find("VGPR index mode: src0 v250 + M0 index 8 is past v255"),
            std::string::npos)
      << err;
}

TEST_P(Asm, DsAddressWraps) {
  auto m = load("ds_wrap");
  ASSERT_TRUE(m);
  std::vector<uint32_t> src(128);
  for (auto &v : src)
    v = (uint32_t)rng();
  uint64_t dsrc = upload(src), dout = alloc(10 * 64 * 4);
  EMU_LAUNCH(*m, "ds_wrap", {1, 1, 1}, {64, 1, 1}, ArgPack().add(dsrc).add(dout));
  auto out = download<uint32_t>(dout, 10 * 64);
  std::vector<uint32_t> want(10 * 64);
  for (int l = 0; l < 64; ++l) {
    uint32_t *r = &want[l];
    r[0 * 64] = src[l + 4];          // 4l - 16 + 32
    r[1 * 64] = src[l];              // read2 offset0:4 (x4 bytes)
    r[2 * 64] = src[l + 1];          // read2 offset1:5
    r[3 * 64] = src[l];              // read2st64 offset0:1 (x256 bytes)
    r[4 * 64] = src[l + 64];         // read2st64 offset1:2
    r[5 * 64] = ~src[l];             // ds_write_b32 through the wrap
    r[6 * 64] = src[l] + 1;          // write2st64, first element
    r[7 * 64] = src[l] + 2;          // write2st64, second element
    r[8 * 64] = src[l + 64];         // ds_add_rtn_u32 returns the old value
    r[9 * 64] = src[l + 64] + src[l]; // and adds
  }
  Report("ds_wrap out (row * 64 + lane)").expectEqual(out, want);
}

TEST_P(Asm, DsReadB64TrB16) {
  if (!isGfx950())
    GTEST_SKIP() << "ds_read_b64_tr_b16 is gfx950 only";
  auto m = load("ds_read_tr_gfx950");
  ASSERT_TRUE(m);
  std::vector<uint16_t> src(256);
  for (auto &v : src)
    v = (uint16_t)rng();
  // Each lane reads one of the 64 8-byte slots, in a random order.
  std::vector<uint32_t> slot(64);
  std::iota(slot.begin(), slot.end(), 0u);
  std::shuffle(slot.begin(), slot.end(), rng);
  std::vector<uint32_t> addr(64);
  for (int l = 0; l < 64; ++l)
    addr[l] = slot[l] * 8;
  uint64_t dsrc = upload(src), daddr = upload(addr), dout = alloc(256 * 2);
  EMU_LAUNCH(*m, "ds_read_tr", {1, 1, 1}, {64, 1, 1},
             ArgPack().add(dsrc).add(daddr).add(dout));
  auto out = download<uint16_t>(dout, 256);
  // R[t][e]: element e of the 64 bits lane t addressed.
  auto R = [&](int t, int e) { return src[4 * slot[t] + e]; };
  std::vector<uint16_t> want(256);
  for (int i = 0; i < 64; ++i)
    for (int e = 0; e < 4; ++e)
      want[4 * i + e] = R(16 * (i / 16) + 4 * e + (i % 16) / 4, i % 4);
  Report("ds_read_b64_tr_b16 result (4 * lane + element)")
      .expectEqual(out, want);
}

TEST_P(Asm, DsReadB64TrB8) {
  if (!isGfx950())
    GTEST_SKIP() << "ds_read_b64_tr_b8 is gfx950 only";
  auto m = load("ds_read_tr8_gfx950");
  ASSERT_TRUE(m);
  std::vector<uint8_t> src(512);
  for (auto &v : src)
    v = (uint8_t)rng();
  // Each lane reads one of the 64 8-byte slots, in a random order.
  std::vector<uint32_t> slot(64);
  std::iota(slot.begin(), slot.end(), 0u);
  std::shuffle(slot.begin(), slot.end(), rng);
  std::vector<uint32_t> addr(64);
  for (int l = 0; l < 64; ++l)
    addr[l] = slot[l] * 8;
  uint64_t dsrc = upload(src), daddr = upload(addr), dout = alloc(512);
  EMU_LAUNCH(*m, "ds_read_tr8", {1, 1, 1}, {64, 1, 1},
             ArgPack().add(dsrc).add(daddr).add(dout));
  auto out = download<uint8_t>(dout, 512);
  // R[t][e]: byte e of the 64 bits lane t addressed.
  auto R = [&](int t, int e) { return src[8 * slot[t] + e]; };
  std::vector<uint8_t> want(512);
  for (int i = 0; i < 64; ++i)
    for (int e = 0; e < 8; ++e)
      want[8 * i + e] = R(16 * (i / 16) + 2 * e + (i % 16) / 8, i % 8);
  Report("ds_read_b64_tr_b8 result (8 * lane + byte)").expectEqual(out, want);
}

TEST_P(Asm, DsReadTransposeB4B6) {
  if (!isGfx950())
    GTEST_SKIP() << "ds_read_b64_tr_b4 and ds_read_b96_tr_b6 are gfx950 only";
  auto m = load("ds_read_tr46_gfx950");
  ASSERT_TRUE(m);
  std::vector<uint8_t> src(1024);
  for (auto &v : src)
    v = (uint8_t)rng();
  std::vector<uint32_t> slot(64);
  std::iota(slot.begin(), slot.end(), 0u);
  std::shuffle(slot.begin(), slot.end(), rng);
  std::vector<uint32_t> addr(64);
  for (int l = 0; l < 64; ++l)
    addr[l] = slot[l] * 16;
  uint64_t dsrc = upload(src), daddr = upload(addr), dout = alloc(512 + 1024);
  EMU_LAUNCH(*m, "ds_read_tr46", {1, 1, 1}, {64, 1, 1},
             ArgPack().add(dsrc).add(daddr).add(dout));
  auto out = download<uint8_t>(dout, 512 + 1024);
  // Bit j of the bytes at p, and element e of `bits` bits there.
  auto bitAt = [](const uint8_t *p, unsigned j) { return (p[j / 8] >> (j % 8)) & 1u; };
  auto elem = [&](const uint8_t *p, unsigned bits, unsigned e) {
    unsigned v = 0;
    for (unsigned b = 0; b < bits; ++b)
      v |= bitAt(p, bits * e + b) << b;
    return v;
  };
  int bad = 0;
  for (unsigned bits : {4u, 6u})
    for (int i = 0; i < 64; ++i)
      for (unsigned e = 0; e < 16; ++e) {
        // Lane i's element e is element i % 16 of what lane 16 * (i / 16) + e read.
        const uint8_t *read = &src[16 * slot[16 * (i / 16) + e]];
        unsigned want = elem(read, bits, unsigned(i % 16));
        unsigned got = elem(&out[bits == 4 ? 8 * i : 512 + 16 * i], bits, e);
        if (got != want && bad++ < 8)
          ADD_FAILURE() << "tr_b" << bits << " lane " << i << " element " << e << ": got "
                        << got << " expected " << want;
      }
  // The fourth dword of each tr_b6 lane is not written.
  for (int i = 0; i < 64; ++i)
    for (int k = 12; k < 16; ++k)
      EXPECT_EQ(out[512 + 16 * i + k], 0) << "lane " << i;
}

TEST_P(Asm, PermlaneSwap) {
  if (!isGfx950())
    GTEST_SKIP() << "v_permlane16/32_swap_b32 are gfx950 only";
  auto m = load("permlane_swap_gfx950");
  ASSERT_TRUE(m);
  std::vector<uint32_t> x(64), y(64);
  for (int l = 0; l < 64; ++l) {
    x[l] = 0x10000u + l; // distinct and recognisable in failures
    y[l] = 0x20000u + l;
  }
  uint64_t dx = upload(x), dy = upload(y), dout = alloc(4 * 64 * 4);
  EMU_LAUNCH(*m, "permlane_swap", {1, 1, 1}, {64, 1, 1},
             ArgPack().add(dx).add(dy).add(dout));
  auto out = download<uint32_t>(dout, 4 * 64);
  std::vector<uint32_t> want(4 * 64);
  for (int l = 0; l < 64; ++l) {
    // 32-lane swap: vdst lanes 32..63 <-> vsrc lanes 0..31.
    want[l] = l < 32 ? x[l] : y[l - 32];
    want[64 + l] = l < 32 ? x[l + 32] : y[l];
    // 16-lane swap: vdst rows 1, 3 <-> vsrc rows 0, 2.
    bool oddRow = (l / 16) % 2;
    want[128 + l] = oddRow ? y[l - 16] : x[l];
    want[192 + l] = oddRow ? y[l] : x[l + 16];
  }
  Report("out (vdst32, vsrc32, vdst16, vsrc16)").expectEqual(out, want);
}

// control2.s: the control instructions a compute wave can run without a
// debugger, trap handler or host attached, with references from the CDNA3
// ISA's pseudocode (SOPP/SOPK/SOP1/SOP2).
TEST_P(Asm, ProgramControl) {
  auto m = load("control2");
  ASSERT_TRUE(m);
  uint64_t dout = alloc(9 * 64 * 4, 0xcd);
  EMU_LAUNCH(*m, "control2", {1, 1, 1}, {64, 1, 1}, ArgPack().add(dout));
  auto out = download<uint32_t>(dout, 9 * 64);
  std::vector<uint32_t> want(9 * 64);
  for (int l = 0; l < 64; ++l) {
    uint32_t *r = &want[l];
    r[0 * 64] = 7;        // the subroutine ran
    r[1 * 64] = ~3u;      // s_call_b64 saved .Lret, s_getpc_b64 there gave .Lret + 4
    // i_fork: lanes < 20 pass (1), the rest fail (2); both halves ran.
    r[2 * 64] = l < 20 ? 1 : 2;
    r[3 * 64] = 1;        // CSP 1 inside the fork, 0 after the join
    r[4 * 64] = l < 50 ? 3 : 4;
    r[5 * 64] = 1;        // no debug branch taken
    r[6 * 64] = 5 + 16;   // both returns skipped their 0xbad
    r[7 * 64] = 9 + 0x100 * 11;
    r[8 * 64] = 0x600d;
  }
  Report("control2 out (row * 64 + lane)").expectEqual(out, want);
}

// s_setkill 1 ends the wave where it is (its first store stays, the second
// never happens); s_sendmsghalt, s_sethalt 1 and a doorbell request stop
// the launch with an error saying what the emulator has no host for.
TEST_P(Asm, WaveKillAndHalt) {
  auto m = load("control2");
  ASSERT_TRUE(m);
  uint64_t dout = alloc(64 * 4, 0xcd);
  EMU_LAUNCH(*m, "setkill", {1, 1, 1}, {64, 1, 1}, ArgPack().add(dout));
  Report("setkill out").expectEqual(download<uint32_t>(dout, 64),
                                    std::vector<uint32_t>(64, 1));
  const std::pair<const char *, const char *> stops[] = {
      {"sendmsghalt", "halted the wave"}, {"sethalt", "s_sethalt 1 halted"},
      {"doorbell", "get doorbell"}};
  for (auto [kernel, what] : stops) {
    std::string err = launch(*m, kernel, {1, 1, 1}, {64, 1, 1}, ArgPack().add(dout));
    ASSERT_FALSE(err.empty()) << kernel << " ran on as if nothing happened";
    EXPECT_NE(err.find(what), std::string::npos) << kernel << ": " << err;
  }
}

// lds_narrow.s: byte and short LDS DMA extend to the lane's dword ("zero
// extend to 32 bits and store the result into a data share", CDNA4 ISA,
// FLAT opcodes); ds_append/ds_consume add or subtract the active lane count
// at M0 + offset and return the old value to every active lane;
// ds_condxchg32_rtn_b64 follows the CDNA4 pseudocode.
TEST_P(Asm, NarrowLdsDmaAndAppend) {
  auto m = load("lds_narrow");
  ASSERT_TRUE(m);
  std::vector<uint32_t> src(192);
  for (auto &v : src)
    v = uint32_t(rng());
  src[0] = 0x80ff7f01u; // sign bits set and clear in each byte and half
  uint64_t dsrc = upload(src), dout = alloc(17 * 64 * 4, 0xcd);
  EMU_LAUNCH(*m, "lds_narrow", {1, 1, 1}, {64, 1, 1}, ArgPack().add(dsrc).add(dout));
  auto out = download<uint32_t>(dout, 17 * 64);
  auto byteAt = [&](unsigned i) { return (src[i / 4] >> (8 * (i % 4))) & 0xff; };
  auto halfAt = [&](unsigned i) { return byteAt(i) | byteAt(i + 1) << 8; };
  auto sext = [](uint32_t v, unsigned bits) {
    return v >= (1u << (bits - 1)) ? v - (1u << bits) : v; // modulo 2^32
  };
  std::vector<uint32_t> want(17 * 64);
  for (unsigned l = 0; l < 64; ++l) {
    uint32_t *r = &want[l];
    r[0 * 64] = byteAt(3 * l);
    r[1 * 64] = sext(byteAt(64 + l), 8);
    r[2 * 64] = halfAt(128 + 2 * l);
    r[3 * 64] = sext(halfAt(256 + 2 * l), 16);
    r[4 * 64] = (src[l] >> 8) & 0xff;
    r[5 * 64] = sext(src[l] >> 24, 8);
    r[6 * 64] = src[l] >> 16;
    r[7 * 64] = sext(~src[l] >> 16, 16);
    r[8 * 64] = 100;
    r[9 * 64] = l < 10 ? 164 : 7;
    r[10 * 64] = 50;
    r[11 * 64] = 174;
    r[12 * 64] = uint32_t(50 - 64);
    // ds_condxchg32_rtn_b64: the old pair back; each data dword with bit
    // 31 set replaces its dword, bit 31 cleared.
    uint32_t first = 3 * l, second = 0x80000000u | l, d0 = src[l], d1 = ~src[l];
    r[13 * 64] = first;
    r[14 * 64] = second;
    r[15 * 64] = (d0 >> 31) ? d0 - 0x80000000u : first;
    r[16 * 64] = (d1 >> 31) ? d1 - 0x80000000u : second;
  }
  Report("lds_narrow out (row * 64 + lane)").expectEqual(out, want);
}

TEST_P(Negative, UnimplementedInstructionIsNamed) {
  auto m = load("unsupported");
  ASSERT_TRUE(m);
  uint64_t dout = alloc(64 * 4);
  std::string err =
      launch(*m, "unsupported", {1, 1, 1}, {64, 1, 1}, ArgPack().add(dout));
  ASSERT_FALSE(err.empty())
      << "s_scratch_load_dword ran without error: the emulator guessed a result";
  EXPECT_NE(err.find("s_scratch_load_dword"), std::string::npos)
      << "the error does not name the instruction: " << err;
}

TEST_P(Negative, GraphicsOnlyInstructionIsNamed) {
  auto m = load("graphics_only");
  ASSERT_TRUE(m);
  uint64_t dout = alloc(64 * 4);
  std::string err =
      launch(*m, "graphics_only", {1, 1, 1}, {64, 1, 1}, ArgPack().add(dout));
  ASSERT_FALSE(err.empty()) << "v_cubeid_f32 ran in a compute kernel";
  EXPECT_NE(err.find("v_cubeid_f32"), std::string::npos) << err;
  EXPECT_NE(err.find("graphics-only"), std::string::npos) << err;
}

// MODE.FP16_OVFL (saturating conversions) is not modelled: a kernel whose
// descriptor sets it, or that sets it with s_setreg, must fail with an error
// naming it when it converts, not run as if it were clear.
TEST_P(Negative, Fp16OverflowModeIsRefused) {
  auto m = load("fp16_ovfl");
  ASSERT_TRUE(m);
  for (const char *kernel : {"fp16_ovfl_descriptor", "fp16_ovfl_setreg"}) {
    uint64_t dout = alloc(64 * 4);
    std::string err = launch(*m, kernel, {1, 1, 1}, {64, 1, 1}, ArgPack().add(dout));
    ASSERT_FALSE(err.empty()) << kernel << " ran with MODE.FP16_OVFL set";
    EXPECT_NE(err.find("FP16_OVFL"), std::string::npos)
        << kernel << ": the error does not name FP16_OVFL: " << err;
  }
}

// What the scaled conversions refuse (a NaN scale, a NaN to FP4): each
// launch fails with an error saying what, instead of storing a guess.
TEST_P(Negative, UndocumentedConversionsAreRefused) {
  if (!isGfx950())
    GTEST_SKIP() << "v_cvt_scalef32_* are gfx950 only";
  auto m = load("cvt_refused_gfx950");
  ASSERT_TRUE(m);
  const std::pair<const char *, const char *> cases[] = {
      {"cvt_nan_scale", "NaN scale"},
      {"cvt_nan_to_fp4", "NaN to FP4"}};
  for (auto [kernel, what] : cases) {
    uint64_t dout = alloc(64 * 4);
    std::string err = launch(*m, kernel, {1, 1, 1}, {64, 1, 1}, ArgPack().add(dout));
    ASSERT_FALSE(err.empty()) << kernel << " ran: the emulator guessed a result";
    EXPECT_NE(err.find(what), std::string::npos) << kernel << ": " << err;
  }
}

// The matrix ops' refusals (mfma_refused_gfx950.s): each launch stops with
// an error naming what is not modelled.
TEST_P(Negative, UndocumentedMatrixOpsAreRefused) {
  if (!isGfx950())
    GTEST_SKIP() << "the f8f6f4 MFMAs are gfx950 only";
  auto m = load("mfma_refused_gfx950");
  ASSERT_TRUE(m);
  const std::pair<const char *, const char *> cases[] = {
      {"mfma_scale_nan", "NaN scale"},
      {"mfma_f8f6f4_reserved", "reserved format"},
      {"smfmac_equal_indices", "equal indices"},
      {"smfmac_abid_past_sets", "selects no index set"}};
  for (auto [kernel, what] : cases) {
    uint64_t dout = alloc(64 * 16);
    std::string err = launch(*m, kernel, {1, 1, 1}, {64, 1, 1}, ArgPack().add(dout));
    ASSERT_FALSE(err.empty()) << kernel << " ran: the emulator guessed a result";
    EXPECT_NE(err.find(what), std::string::npos) << kernel << ": " << err;
  }
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return s;
}

// The launch runs in a child process under an alarm, so a hanging emulator
// fails this test instead of hanging the suite.
TEST_P(Negative, DeadlockIsReported) {
  auto m = load("sync");
  ASSERT_TRUE(m);
  uint64_t flag = alloc(4), out = alloc(64 * 4);
  int pipefd[2];
  ASSERT_EQ(pipe(pipefd), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(pipefd[0]);
    alarm(120);
    std::string err = launch(*m, "wait_forever", {1, 1, 1}, {64, 1, 1},
                             ArgPack().add(flag).add(out));
    ssize_t ignored = write(pipefd[1], err.data(), err.size());
    (void)ignored;
    _exit(err.empty() ? 2 : 0);
  }
  close(pipefd[1]);
  std::string msg;
  char buf[512];
  ssize_t k;
  while ((k = read(pipefd[0], buf, sizeof buf)) > 0)
    msg.append(buf, k);
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) {
    FAIL() << "the emulator did not return within 120 s (signal "
           << WTERMSIG(status) << "): a deadlock must be reported, not hung on";
  }
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_NE(WEXITSTATUS(status), 2)
      << "a kernel spinning on a flag nobody sets completed";
  EXPECT_NE(lower(msg).find("deadlock"), std::string::npos)
      << "the error does not say deadlock: " << msg;
}

} // namespace

INSTANTIATE_TEST_SUITE_P(Chips, Asm,
                         ::testing::Values(Chip::gfx942, Chip::gfx950),
                         chipParamName);
INSTANTIATE_TEST_SUITE_P(Chips, Negative,
                         ::testing::Values(Chip::gfx942, Chip::gfx950),
                         chipParamName);
