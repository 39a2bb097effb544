//===- EmuTests.cpp - The emulator against clang-compiled HIP kernels -----===//
//
// Each test loads one kernel of test/emu/kernels (compiled by clang-22 for
// the chip under test), feeds it seeded random inputs, runs it on the
// emulated device and compares every output element with a CPU reference
// computed here: exactly for integer and correctly rounded results, within
// the ISA's stated precision for hardware approximations.
//
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include <algorithm>
#include <bitset>
#include <cmath>
#include <map>
#include <numeric>

using namespace kcc;
using namespace kcc::emutest;

namespace {

class Vector : public EmuTest {};
class Half : public EmuTest {};
class CrossLane : public EmuTest {};
class Math : public EmuTest {};
class Lds : public EmuTest {};
class Atomics : public EmuTest {};
class Sync : public EmuTest {};
class Buffer : public EmuTest {};
class Control : public EmuTest {};
class Grid : public EmuTest {};
class Narrow : public EmuTest {};
class Fp8 : public EmuTest {};
class Append : public EmuTest {};
class LdsBuiltins : public EmuTest {};

template <typename T> std::vector<T> randomInts(std::mt19937_64 &rng, size_t n,
                                                int64_t lo, int64_t hi) {
  std::uniform_int_distribution<int64_t> d(lo, hi);
  std::vector<T> v(n);
  for (auto &x : v)
    x = (T)d(rng);
  return v;
}

std::vector<float> randomFloats(std::mt19937_64 &rng, size_t n, float lo,
                                float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto &x : v)
    x = d(rng);
  return v;
}

// A random finite f16 with exponent in [emin, emax] (unbiased), random sign
// and fraction.
uint16_t randomF16(std::mt19937_64 &rng, int emin, int emax) {
  std::uniform_int_distribution<int> e(emin + 15, emax + 15);
  std::uniform_int_distribution<int> f(0, 1023), s(0, 1);
  return (uint16_t)((s(rng) << 15) | (e(rng) << 10) | f(rng));
}

//===----------------------------------------------------------------------===//
// vector.hip
//===----------------------------------------------------------------------===//

TEST_P(Vector, AddF32) {
  auto m = load("vector");
  ASSERT_TRUE(m);
  // 1000 is not a multiple of the block: the last wave is partly idle, and
  // the elements past n (initialised to a sentinel) must stay untouched.
  const int n = 1000, padded = 1024;
  auto a = randomFloats(rng, n, -100, 100), b = randomFloats(rng, n, -100, 100);
  uint64_t da = upload(a), db = upload(b), dc = alloc(padded * 4, 0xcd);
  EMU_LAUNCH(*m, "vadd_f32", {4, 1, 1}, {256, 1, 1},
             ArgPack().add(da).add(db).add(dc).add(n));
  auto c = download<uint32_t>(dc, padded);
  Report r("c");
  for (int i = 0; i < padded; ++i) {
    uint32_t want = i < n ? bitsOf(a[i] + b[i]) : 0xcdcdcdcdu;
    if (c[i] != want)
      r.fail(i, hex(c[i]), hex(want));
  }
}

// The same kernel as clang emits it by default (code object v6 with
// clang-22), which a user's own HIP build produces.
TEST_P(Vector, AddF32DefaultCodeObjectVersion) {
  auto m = load("vector_defaultcov");
  ASSERT_TRUE(m);
  const int n = 300;
  auto a = randomFloats(rng, n, -1, 1), b = randomFloats(rng, n, -1, 1);
  uint64_t da = upload(a), db = upload(b), dc = alloc(n * 4);
  EMU_LAUNCH(*m, "vadd_f32", {2, 1, 1}, {256, 1, 1},
             ArgPack().add(da).add(db).add(dc).add(n));
  auto c = download<float>(dc, n);
  Report r("c");
  for (int i = 0; i < n; ++i)
    if (bitsOf(c[i]) != bitsOf(a[i] + b[i]))
      r.fail(i, c[i], a[i] + b[i]);
}

TEST_P(Vector, GatherI64) {
  auto m = load("vector");
  ASSERT_TRUE(m);
  const uint64_t n = 3001;
  const uint64_t mul = 0x9E3779B97F4A7C15ull % 1000003ull + 4000000000ull;
  auto src = randomInts<int64_t>(rng, n, INT64_MIN, INT64_MAX);
  int64_t addend = (int64_t)rng();
  uint64_t ds = upload(src), dd = alloc(n * 8);
  EMU_LAUNCH(*m, "gather_i64", {(uint32_t)((n + 255) / 256), 1, 1},
             {256, 1, 1}, ArgPack().add(ds).add(dd).add(n).add(mul).add(addend));
  auto dst = download<int64_t>(dd, n);
  Report r("dst");
  for (uint64_t i = 0; i < n; ++i) {
    // The kernel computes i * mul in 64 bits (wrapping) before the modulo.
    uint64_t j = (i * mul) % n;
    int64_t v = src[j];
    uint64_t prod = (uint64_t)v * (uint64_t)addend;
    int64_t want = (int64_t)((prod ^ (i << 37)) + (uint64_t)(v >> 13) +
                             ((uint64_t)v >> 51));
    if (dst[i] != want)
      r.fail(i, dst[i], want);
  }
}

struct Pair {
  int32_t a;
  float b;
};

TEST_P(Vector, ManyScalarArgs) {
  auto m = load("vector");
  ASSERT_TRUE(m);
  int8_t c = -5;
  int16_t s = -1234;
  int32_t i = (int32_t)rng();
  int64_t l = (int64_t)rng();
  float f = 3.25f;
  double d = doubleOf(rng() & 0x7fefffffffffffffull);
  uint8_t uc = 200;
  uint16_t us = 60000;
  uint32_t u = 0xdeadbeef;
  uint64_t ul = rng();
  Pair p{-77, 1.5f};
  int32_t i2 = (int32_t)rng();
  float f2 = -0.0f;
  double d2 = -1e300;
  int8_t c2 = 'z';
  int64_t l2 = (int64_t)rng();
  uint64_t dout = alloc(32 * 8, 0xee);
  EMU_LAUNCH(*m, "many_args", {1, 1, 1}, {64, 1, 1},
             ArgPack()
                 .add(dout).add(c).add(s).add(i).add(l).add(f).add(d).add(uc)
                 .add(us).add(u).add(ul).add(p).add(i2).add(f2).add(d2)
                 .add(c2).add(l2));
  auto out = download<int64_t>(dout, 32);
  std::vector<int64_t> want = {c,
                               s,
                               i,
                               l,
                               (int32_t)bitsOf(f),
                               (int64_t)bitsOf(d),
                               uc,
                               us,
                               u,
                               (int64_t)ul,
                               p.a,
                               (int32_t)bitsOf(p.b),
                               i2,
                               (int32_t)bitsOf(f2),
                               (int64_t)bitsOf(d2),
                               c2,
                               l2};
  want.resize(32, (int64_t)0xeeeeeeeeeeeeeeeeull);
  Report r("out (argument index)");
  r.expectEqual(out, want);
}

//===----------------------------------------------------------------------===//
// half.hip
//===----------------------------------------------------------------------===//

TEST_P(Half, PackedF16) {
  auto m = load("half");
  ASSERT_TRUE(m);
  const int n = 256; // pairs
  std::vector<uint16_t> a(2 * n), b(2 * n), c(2 * n);
  for (int i = 0; i < 2 * n; ++i) {
    a[i] = randomF16(rng, -12, 7);
    b[i] = randomF16(rng, -12, 7);
    c[i] = randomF16(rng, -14, 14);
  }
  // Special operands: zeros, a denormal, infinity, results that overflow and
  // that round exactly half-way.
  a[0] = 0x0000, b[0] = 0x8000;             // +0 * -0
  a[1] = 0x0001, b[1] = 0x3c00;             // denormal * 1
  a[2] = 0x7c00, b[2] = 0x4000;             // inf * 2
  a[3] = 0x7bff, b[3] = 0x7bff;             // overflow to inf
  a[4] = 0x3c01, b[4] = 0x3c01, c[4] = 0;   // 1+2^-9 rounding
  uint64_t da = upload(a), db = upload(b), dc = upload(c);
  uint64_t out[4];
  for (auto &o : out)
    o = alloc(4 * n);
  EMU_LAUNCH(*m, "pk_f16", {4, 1, 1}, {64, 1, 1},
             ArgPack().add(da).add(db).add(dc).add(out[0]).add(out[1])
                 .add(out[2]).add(out[3]).add(n));
  const char *names[] = {"fma", "mul", "add", "max"};
  for (int k = 0; k < 4; ++k) {
    auto got = download<uint16_t>(out[k], 2 * n);
    Report r(names[k]);
    for (int i = 0; i < 2 * n; ++i) {
      double x = fromF16(a[i]), y = fromF16(b[i]), z = fromF16(c[i]);
      uint16_t want;
      // x*y and x*y+z are exact in double for these exponent ranges, so one
      // rounding to f16 is the IEEE result.
      if (k == 0)
        want = toF16(x * y + z);
      else if (k == 1)
        want = toF16(x * y);
      else if (k == 2)
        want = toF16(x + y);
      else
        want = x >= y ? a[i] : b[i];
      if (k == 3 && x == 0 && y == 0)
        continue; // max(+0, -0) may return either zero
      if (got[i] != want &&
          !(std::isnan(fromF16(got[i])) && std::isnan(fromF16(want))))
        r.fail(i, hex(got[i]), hex(want));
    }
  }
}

TEST_P(Half, ConvertF16) {
  auto m = load("half");
  ASSERT_TRUE(m);
  const int n = 320;
  std::vector<float> f(n);
  std::vector<uint16_t> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    switch (i % 4) {
    case 0: // Exactly half-way between two f16 values: ties to even.
      f[i] = (float)(fromF16(randomF16(rng, -14, 15) & 0x7ffe) *
                     (1.0 + std::ldexp(1.0, -11)));
      break;
    case 1: // Denormal f16 range.
      f[i] = std::ldexp(std::uniform_real_distribution<float>(-1, 1)(rng), -16);
      break;
    case 2: // Overflow range.
      f[i] = std::uniform_real_distribution<float>(60000, 70000)(rng);
      break;
    default:
      f[i] = std::uniform_real_distribution<float>(-1000, 1000)(rng);
    }
    a[i] = randomF16(rng, -8, 7);
    b[i] = randomF16(rng, -8, 7);
  }
  uint64_t df = upload(f), da = upload(a), db = upload(b);
  uint64_t dh = alloc(2 * n), d32 = alloc(4 * n), dfma = alloc(2 * n);
  EMU_LAUNCH(*m, "cvt_f16", {(n + 63) / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(df).add(da).add(db).add(dh).add(d32).add(dfma)
                 .add(n));
  auto h = download<uint16_t>(dh, n);
  auto o32 = download<float>(d32, n);
  auto hf = download<uint16_t>(dfma, n);
  Report rh("h = (f16)f"), r32("(f32)(a*b)"), rf("fma(a,b,h)");
  for (int i = 0; i < n; ++i) {
    uint16_t wantH = toF16(f[i]);
    if (h[i] != wantH)
      rh.fail(i, hex(h[i]), hex(wantH), "f = " + std::to_string(f[i]));
    float want32 = (float)fromF16(toF16(fromF16(a[i]) * fromF16(b[i])));
    if (bitsOf(o32[i]) != bitsOf(want32))
      r32.fail(i, o32[i], want32);
    uint16_t wantF =
        toF16(fromF16(a[i]) * fromF16(b[i]) + fromF16(wantH));
    if (hf[i] != wantF && !(std::isnan(fromF16(hf[i])) &&
                            std::isnan(fromF16(wantF))))
      rf.fail(i, hex(hf[i]), hex(wantF));
  }
}

TEST_P(Half, ConvertBf16) {
  auto m = load("half");
  ASSERT_TRUE(m);
  const int n = 256;
  std::vector<float> f(2 * n);
  for (int i = 0; i < 2 * n; ++i) {
    uint32_t u = (uint32_t)rng();
    switch (i % 4) {
    case 0: // Ties: the 16 dropped bits are exactly 0x8000.
      f[i] = floatOf((u & 0xbfff0000u) | 0x8000u);
      break;
    case 1: // Random bits, finite.
      f[i] = floatOf(u & 0xbf7fffffu);
      break;
    default:
      f[i] = std::uniform_real_distribution<float>(-10, 10)(rng);
    }
  }
  f[0] = NAN;
  f[1] = -INFINITY;
  f[2] = floatOf(0x7f7fffff); // rounds up to infinity
  std::vector<uint16_t> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = toBf16(std::uniform_real_distribution<double>(-50, 50)(rng));
    b[i] = toBf16(std::uniform_real_distribution<double>(-50, 50)(rng));
  }
  uint64_t df = upload(f), da = upload(a), db = upload(b);
  uint64_t dp = alloc(4 * n), ds = alloc(2 * n), dm = alloc(2 * n),
           dw = alloc(4 * n);
  EMU_LAUNCH(*m, "cvt_bf16", {n / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(df).add(da).add(db).add(dp).add(ds).add(dm)
                 .add(dw).add(n));
  auto packed = download<uint16_t>(dp, 2 * n);
  auto sum = download<uint16_t>(ds, n), prod = download<uint16_t>(dm, n);
  auto wide = download<float>(dw, n);
  Report rp("packed bf16"), rs("a+b"), rm("a*b"), rw("(float)a");
  for (int i = 0; i < 2 * n; ++i) {
    uint16_t want = toBf16(f[i]);
    bool bothNan = std::isnan(fromBf16(packed[i])) && std::isnan(f[i]);
    if (packed[i] != want && !bothNan)
      rp.fail(i, hex(packed[i]), hex(want), "f = " + hex(bitsOf(f[i])));
  }
  for (int i = 0; i < n; ++i) {
    float x = fromBf16(a[i]), y = fromBf16(b[i]);
    // The kernel adds/multiplies in f32 (rounded) and then rounds to bf16.
    uint16_t ws = toBf16(x + y), wm = toBf16(x * y);
    if (sum[i] != ws)
      rs.fail(i, hex(sum[i]), hex(ws));
    if (prod[i] != wm)
      rm.fail(i, hex(prod[i]), hex(wm));
    if (bitsOf(wide[i]) != bitsOf(x))
      rw.fail(i, wide[i], x);
  }
}

//===----------------------------------------------------------------------===//
// crosslane.hip
//===----------------------------------------------------------------------===//

// A DPP case of crosslane.hip's dpp kernel: the source lane of each lane (-1
// when invalid), row and bank masks, bound_ctrl.
struct DppCase {
  const char *name;
  std::function<int(int)> src;
  unsigned rowMask = 0xf, bankMask = 0xf;
  bool boundCtrl = false;
};

std::vector<DppCase> dppCases() {
  auto quad = [](int a, int b, int c, int d) {
    return [=](int l) {
      int p[4] = {a, b, c, d};
      return (l & ~3) | p[l & 3];
    };
  };
  auto rowShl = [](int n) {
    return [=](int l) { return (l % 16) + n < 16 ? l + n : -1; };
  };
  auto rowShr = [](int n) {
    return [=](int l) { return (l % 16) >= n ? l - n : -1; };
  };
  auto rowRor = [](int n) {
    return [=](int l) { return (l & ~15) | ((l - n) & 15); };
  };
  return {
      {"quad_perm[1,0,3,2]", quad(1, 0, 3, 2)},
      {"quad_perm[3,3,0,1]", quad(3, 3, 0, 1)},
      {"row_shl:1", rowShl(1)},
      {"row_shr:3", rowShr(3)},
      {"row_shr:3 bound_ctrl", rowShr(3), 0xf, 0xf, true},
      {"row_ror:4", rowRor(4)},
      {"wave_shl:1", [](int l) { return l < 63 ? l + 1 : -1; }},
      {"wave_rol:1", [](int l) { return (l + 1) % 64; }},
      {"wave_shr:1", [](int l) { return l > 0 ? l - 1 : -1; }},
      {"wave_ror:1", [](int l) { return (l + 63) % 64; }},
      {"row_mirror", [](int l) { return (l & ~15) | (15 - (l & 15)); }},
      {"row_half_mirror", [](int l) { return (l & ~7) | (7 - (l & 7)); }},
      // Lane 15 of the previous row into rows 1 and 3 (row_mask 0xa).
      {"row_bcast:15", [](int l) { return l >= 16 ? (l / 16 - 1) * 16 + 15 : -1; },
       0xa},
      // Lane 31 into rows 2 and 3 (row_mask 0xc).
      {"row_bcast:31", [](int) { return 31; }, 0xc},
      {"row_shl:2 row_mask:0x5 bank_mask:0x6", rowShl(2), 0x5, 0x6},
      {"mov_dpp row_ror:15 bound_ctrl", rowRor(15), 0xf, 0xf, true},
  };
}

TEST_P(CrossLane, Dpp) {
  auto m = load("crosslane");
  ASSERT_TRUE(m);
  auto in = randomInts<int32_t>(rng, 64, INT32_MIN, INT32_MAX);
  auto cases = dppCases();
  uint64_t din = upload(in), dout = alloc(cases.size() * 64 * 4);
  EMU_LAUNCH(*m, "dpp", {1, 1, 1}, {64, 1, 1}, ArgPack().add(din).add(dout));
  auto out = download<int32_t>(dout, cases.size() * 64);
  for (size_t k = 0; k < cases.size(); ++k) {
    const DppCase &c = cases[k];
    Report r(std::string("dpp ") + c.name + ", lane");
    for (int l = 0; l < 64; ++l) {
      bool written = ((c.rowMask >> (l / 16)) & 1) &&
                     ((c.bankMask >> ((l % 16) / 4)) & 1);
      int s = c.src(l);
      int32_t want = -1; // the old value
      if (written)
        want = s >= 0 ? in[s] : (c.boundCtrl ? 0 : -1);
      // mov_dpp has no old operand: its disabled lanes are unspecified.
      if (k == cases.size() - 1 && !written)
        continue;
      if (out[k * 64 + l] != want)
        r.fail(l, out[k * 64 + l], want);
    }
  }
}

TEST_P(CrossLane, PermuteAndSwizzle) {
  auto m = load("crosslane");
  ASSERT_TRUE(m);
  auto in = randomInts<int32_t>(rng, 64, INT32_MIN, INT32_MAX);
  std::vector<int32_t> sel(64);
  std::iota(sel.begin(), sel.end(), 0);
  std::shuffle(sel.begin(), sel.end(), rng);
  uint64_t din = upload(in), dsel = upload(sel), dout = alloc(5 * 64 * 4);
  EMU_LAUNCH(*m, "permute", {1, 1, 1}, {64, 1, 1},
             ArgPack().add(din).add(dsel).add(dout));
  auto out = download<int32_t>(dout, 5 * 64);
  auto bitmask = [](int l, int andM, int orM, int xorM) {
    return (l & 32) | ((((l & 31) & andM) | orM) ^ xorM);
  };
  std::vector<int32_t> want(5 * 64);
  for (int l = 0; l < 64; ++l) {
    want[l] = in[sel[l]];           // bpermute pulls from sel[l]
    want[64 + sel[l]] = in[l];      // permute pushes to sel[l]
    want[128 + l] = in[(l & ~3) | (3 - (l & 3))];
    want[192 + l] = in[bitmask(l, 0x1f, 0, 0x10)];
    want[256 + l] = in[bitmask(l, 0x18, 0x03, 0x04)];
  }
  const char *names[] = {"ds_bpermute", "ds_permute", "swizzle quad_perm",
                         "swizzle swap16", "swizzle and/or/xor"};
  for (int k = 0; k < 5; ++k) {
    Report r(names[k]);
    for (int l = 0; l < 64; ++l)
      if (out[k * 64 + l] != want[k * 64 + l])
        r.fail(l, out[k * 64 + l], want[k * 64 + l]);
  }
}

TEST_P(CrossLane, ReadlaneBallotMbcnt) {
  auto m = load("crosslane");
  ASSERT_TRUE(m);
  auto in = randomInts<int32_t>(rng, 64, -1000, 1000);
  int first = 1 + (int)(rng() % 62), pick = (int)(rng() % 64);
  uint64_t din = upload(in), dout = alloc(256 * 4), db = alloc(8);
  EMU_LAUNCH(*m, "lanes", {1, 1, 1}, {64, 1, 1},
             ArgPack().add(din).add(first).add(pick).add(dout).add(db));
  auto out = download<int32_t>(dout, 256);
  auto ballot = download<uint64_t>(db, 1)[0];
  uint64_t mask = 0;
  for (int l = 0; l < 64; ++l)
    if (in[l] > 0)
      mask |= 1ull << l;
  Report rf("readfirstlane (lanes >= " + std::to_string(first) + " active)"),
      rl("readlane " + std::to_string(pick)), rm("mbcnt(~0)"),
      rb("mbcnt(ballot)");
  for (int l = 0; l < 64; ++l) {
    int32_t wf = l >= first ? in[first] : -7;
    if (out[l] != wf)
      rf.fail(l, out[l], wf);
    if (out[64 + l] != in[pick])
      rl.fail(l, out[64 + l], in[pick]);
    if (out[128 + l] != l)
      rm.fail(l, out[128 + l], l);
    int wb = (int)std::bitset<64>(mask & ((1ull << l) - 1)).count();
    if (out[192 + l] != wb)
      rb.fail(l, out[192 + l], wb);
  }
  EXPECT_EQ(hex(ballot), hex(mask)) << "ballot";
}

TEST_P(CrossLane, DppScanAndBlockReduce) {
  auto m = load("crosslane");
  ASSERT_TRUE(m);
  const int blocks = 4, n = blocks * 256;
  auto in = randomInts<int32_t>(rng, n, -100000, 100000);
  uint64_t din = upload(in), dscan = alloc(n * 4), dsum = alloc(blocks * 4);
  EMU_LAUNCH(*m, "scan_reduce", {blocks, 1, 1}, {256, 1, 1},
             ArgPack().add(din).add(dscan).add(dsum));
  auto scan = download<int32_t>(dscan, n);
  auto sum = download<int32_t>(dsum, blocks);
  Report rs("wave inclusive scan"), rb("block sum");
  for (int w = 0; w < n / 64; ++w) {
    int32_t acc = 0;
    for (int l = 0; l < 64; ++l) {
      acc += in[w * 64 + l];
      if (scan[w * 64 + l] != acc)
        rs.fail(w * 64 + l, scan[w * 64 + l], acc);
    }
  }
  for (int b = 0; b < blocks; ++b) {
    int32_t want = std::accumulate(in.begin() + b * 256,
                                   in.begin() + (b + 1) * 256, 0);
    if (sum[b] != want)
      rb.fail(b, sum[b], want);
  }
}

TEST_P(CrossLane, WaveMaxButterfly) {
  auto m = load("crosslane");
  ASSERT_TRUE(m);
  const int waves = 3;
  auto in = randomFloats(rng, waves * 64, -1e6f, 1e6f);
  uint64_t din = upload(in), dout = alloc(waves * 64 * 4);
  EMU_LAUNCH(*m, "wave_max", {waves, 1, 1}, {64, 1, 1},
             ArgPack().add(din).add(dout));
  auto out = download<float>(dout, waves * 64);
  Report r("wave max");
  for (int w = 0; w < waves; ++w) {
    float want = *std::max_element(in.begin() + w * 64, in.begin() + w * 64 + 64);
    for (int l = 0; l < 64; ++l)
      if (out[w * 64 + l] != want)
        r.fail(w * 64 + l, out[w * 64 + l], want);
  }
}

//===----------------------------------------------------------------------===//
// math.hip
//===----------------------------------------------------------------------===//

TEST_P(Math, Transcendental) {
  auto m = load("math");
  ASSERT_TRUE(m);
  const int n = 512;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) {
    if (i % 2)
      x[i] = std::uniform_real_distribution<float>(-30, 30)(rng);
    else // log-uniform positive over [2^-60, 2^60]
      x[i] = std::ldexp(std::uniform_real_distribution<float>(1, 2)(rng),
                        (int)(rng() % 121) - 60);
  }
  const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, 1.0f, 0.5f};
  for (int i = 0; i < 6; ++i)
    x[i * 2] = specials[i];
  uint64_t dx = upload(x), dout = alloc(11 * n * 4);
  EMU_LAUNCH(*m, "transcendental", {n / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(dx).add(dout).add(n));
  auto out = download<float>(dout, 11 * n);
  const double twoPi = 2 * M_PI;
  // Accuracy (ISA guides): v_exp_f32, v_log_f32, v_rcp_f32, v_rsq_f32 and
  // v_sqrt_f32 are within 1 ULP; v_log_f32 near 1 is also allowed an
  // absolute 2^-22 (its result is tiny there). v_sin/v_cos have no ULP bound
  // in the guide; an absolute 2^-16 still fails radians for revolutions.
  // fract, ldexp and frexp are exact.
  struct Fn {
    const char *name;
    std::function<double(double, int)> ref;
    int maxUlp;
    double absTol;
    bool finiteOnly;
  };
  Fn fns[] = {
      {"exp2", [](double v, int) { return std::exp2(v); }, 1, 0, false},
      {"log2", [](double v, int) { return std::log2(v); }, 1,
       std::ldexp(1.0, -22), false},
      {"rcp", [](double v, int) { return 1.0 / v; }, 1, 0, false},
      {"rsq", [](double v, int) { return 1.0 / std::sqrt(v); }, 1, 0, false},
      {"sqrt", [](double v, int) { return std::sqrt(v); }, 1, 0, false},
      {"sin", [=](double v, int) { return std::sin(twoPi * v); }, 0,
       std::ldexp(1.0, -16), true},
      {"cos", [=](double v, int) { return std::cos(twoPi * v); }, 0,
       std::ldexp(1.0, -16), true},
      // v_fract_f32 clamps to the largest float below 1.
      {"fract",
       [](double v, int) {
         return std::min(v - std::floor(v), (double)floatOf(0x3f7fffff));
       },
       0, 0, true},
      {"ldexp", [](double v, int i) { return std::ldexp(v, i % 17 - 8); }, 0,
       0, true},
      {"frexp_mant",
       [](double v, int) {
         int e;
         return std::frexp(v, &e);
       },
       0, 0, true},
      {"frexp_exp",
       [](double v, int) {
         int e;
         std::frexp(v, &e);
         return (double)e;
       },
       0, 0, true},
  };
  for (int k = 0; k < 11; ++k) {
    Report r(fns[k].name);
    for (int i = 0; i < n; ++i) {
      if (fns[k].finiteOnly && !std::isfinite(x[i]))
        continue;
      // v_sin/v_cos are defined for |x| <= 256 revolutions.
      if ((k == 5 || k == 6) && std::fabs(x[i]) > 256)
        continue;
      double refD = fns[k].ref(x[i], i);
      float want = (float)refD, got = out[k * n + i];
      if (k == 4 && x[i] == 0 && bitsOf(got) != bitsOf(x[i]))
        r.fail(i, got, x[i], "sqrt(+-0) is +-0");
      int64_t ulp = ulpDistance(got, want);
      bool ok = ulp <= fns[k].maxUlp ||
                (std::isfinite(got) && std::fabs(got - refD) <= fns[k].absTol);
      if (!ok)
        r.fail(i, got, want,
               "x = " + std::to_string(x[i]) + ", ulp " + std::to_string(ulp));
    }
  }
}

TEST_P(Math, TranscendentalF16) {
  auto m = load("math");
  ASSERT_TRUE(m);
  const int n = 256;
  std::vector<uint16_t> x(n);
  for (auto &v : x)
    v = randomF16(rng, -14, 15) & 0x7fff;
  uint64_t dx = upload(x), dout = alloc(2 * n * 2);
  EMU_LAUNCH(*m, "transcendental_f16", {n / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(dx).add(dout).add(n));
  auto out = download<uint16_t>(dout, 2 * n);
  Report rr("rcp_f16"), rs("sqrt_f16");
  for (int i = 0; i < n; ++i) {
    double v = fromF16(x[i]);
    // 1 ULP, as for the f32 versions.
    uint16_t wr = toF16(1.0 / v), ws = toF16(std::sqrt(v));
    if (ulpDistanceF16(out[i], wr) > 1)
      rr.fail(i, hex(out[i]), hex(wr));
    if (ulpDistanceF16(out[n + i], ws) > 1)
      rs.fail(i, hex(out[n + i]), hex(ws));
  }
}

TEST_P(Math, IeeeDivSqrtCorrectlyRounded) {
  auto m = load("math");
  ASSERT_TRUE(m);
  const int n = 384;
  std::vector<float> a(n), b(n);
  std::vector<double> da(n), db(n);
  for (int i = 0; i < n; ++i) {
    // Wide exponents, including quotients in the denormal range.
    a[i] = std::ldexp(std::uniform_real_distribution<float>(-2, 2)(rng),
                      (int)(rng() % 200) - 100);
    b[i] = std::ldexp(std::uniform_real_distribution<float>(-2, 2)(rng),
                      (int)(rng() % 200) - 100);
    da[i] = std::ldexp(std::uniform_real_distribution<double>(-2, 2)(rng),
                       (int)(rng() % 1200) - 600);
    db[i] = std::ldexp(std::uniform_real_distribution<double>(-2, 2)(rng),
                       (int)(rng() % 1200) - 600);
  }
  b[0] = 0.0f;
  db[0] = -0.0;
  a[1] = INFINITY;
  a[2] = 0.0f;
  b[2] = 0.0f; // NaN
  uint64_t pa = upload(a), pb = upload(b), pda = upload(da), pdb = upload(db);
  uint64_t q = alloc(4 * n), s = alloc(4 * n), dq = alloc(8 * n),
           ds = alloc(8 * n);
  EMU_LAUNCH(*m, "ieee_div_sqrt", {n / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(pa).add(pb).add(pda).add(pdb).add(q).add(s).add(dq)
                 .add(ds).add(n));
  auto gq = download<float>(q, n), gs = download<float>(s, n);
  auto gdq = download<double>(dq, n), gds = download<double>(ds, n);
  Report rq("a/b f32"), rs("sqrt f32"), rdq("a/b f64"), rds("sqrt f64");
  auto same = [](double x, double y) {
    return bitsOf(x) == bitsOf(y) || (std::isnan(x) && std::isnan(y));
  };
  for (int i = 0; i < n; ++i) {
    float wq = a[i] / b[i], ws = std::sqrt(std::fabs(a[i]));
    double wdq = da[i] / db[i], wds = std::sqrt(std::fabs(da[i]));
    if (!same(gq[i], wq))
      rq.fail(i, hex(bitsOf(gq[i])), hex(bitsOf(wq)));
    if (!same(gs[i], ws))
      rs.fail(i, hex(bitsOf(gs[i])), hex(bitsOf(ws)));
    if (!same(gdq[i], wdq))
      rdq.fail(i, hex(bitsOf(gdq[i])), hex(bitsOf(wdq)));
    if (!same(gds[i], wds))
      rds.fail(i, hex(bitsOf(gds[i])), hex(bitsOf(wds)));
  }
}

//===----------------------------------------------------------------------===//
// lds.hip
//===----------------------------------------------------------------------===//

TEST_P(Lds, TiledTranspose) {
  auto m = load("lds");
  ASSERT_TRUE(m);
  const int rows = 96, cols = 64;
  auto in = randomFloats(rng, rows * cols, -1, 1);
  uint64_t din = upload(in), dout = alloc(rows * cols * 4);
  EMU_LAUNCH(*m, "transpose", {cols / 32, rows / 32, 1}, {32, 8, 1},
             ArgPack().add(din).add(dout).add(rows).add(cols));
  auto out = download<float>(dout, rows * cols);
  Report r("out");
  for (int c = 0; c < cols; ++c)
    for (int rr = 0; rr < rows; ++rr)
      if (bitsOf(out[c * rows + rr]) != bitsOf(in[rr * cols + c]))
        r.fail(c * rows + rr, out[c * rows + rr], in[rr * cols + c]);
}

TEST_P(Lds, TiledMatmul) {
  auto m = load("lds");
  ASSERT_TRUE(m);
  const int M = 64, N = 48, K = 64;
  auto a = randomFloats(rng, M * K, -1, 1), b = randomFloats(rng, K * N, -1, 1);
  uint64_t da = upload(a), db = upload(b), dc = alloc(M * N * 4);
  EMU_LAUNCH(*m, "matmul", {N / 16, M / 16, 1}, {16, 16, 1},
             ArgPack().add(da).add(db).add(dc).add(M).add(N).add(K));
  auto c = download<float>(dc, M * N);
  Report r("c");
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0, mag = 0;
      for (int k = 0; k < K; ++k) {
        ref += (double)a[i * K + k] * b[k * N + j];
        mag += std::fabs((double)a[i * K + k] * b[k * N + j]);
      }
      // K sequential f32 roundings (fma or mul+add) at most.
      double tol = (K + 1) * std::ldexp(1.0, -24) * mag;
      if (std::fabs(c[i * N + j] - ref) > tol)
        r.fail(i * N + j, c[i * N + j], ref);
    }
}

TEST_P(Lds, DynamicLds) {
  auto m = load("lds");
  ASSERT_TRUE(m);
  const int blocks = 3, bs = 256;
  auto in = randomInts<int32_t>(rng, blocks * bs, INT32_MIN, INT32_MAX);
  uint64_t din = upload(in), dout = alloc(blocks * bs * 4);
  EMU_LAUNCH(*m, "reverse_dynamic", {blocks, 1, 1}, {bs, 1, 1},
             ArgPack().add(din).add(dout), bs * 4);
  auto out = download<int32_t>(dout, blocks * bs);
  std::vector<int32_t> want(blocks * bs);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < bs; ++t)
      want[b * bs + t] = in[b * bs + bs - 1 - t];
  Report("out").expectEqual(out, want);
}

//===----------------------------------------------------------------------===//
// atomics.hip
//===----------------------------------------------------------------------===//

TEST_P(Atomics, GlobalAtomics) {
  auto m = load("atomics");
  ASSERT_TRUE(m);
  const int n = 2000;
  auto val = randomInts<int32_t>(rng, n, 1, 999999);
  uint64_t dval = upload(val);
  uint64_t sum32 = alloc(7 * 4), sum64 = alloc(8), fsum = alloc(3 * 4);
  uint64_t imax = upload(std::vector<int32_t>{INT32_MIN});
  uint64_t umin = upload(std::vector<uint32_t>{UINT32_MAX});
  uint64_t bits = alloc(8), addOld = alloc(n * 4);
  EMU_LAUNCH(*m, "global_atomics", {(n + 255) / 256, 1, 1}, {256, 1, 1},
             ArgPack().add(dval).add(sum32).add(sum64).add(fsum).add(imax)
                 .add(umin).add(bits).add(addOld).add(n));
  auto g32 = download<uint32_t>(sum32, 7);
  auto g64 = download<uint64_t>(sum64, 1)[0];
  auto gf = download<float>(fsum, 3);
  auto gmax = download<int32_t>(imax, 1)[0];
  auto gmin = download<uint32_t>(umin, 1)[0];
  auto gbits = download<uint64_t>(bits, 1)[0];
  auto olds = download<uint32_t>(addOld, n);
  uint32_t w32[7] = {};
  uint64_t w64 = 0;
  float wf[3] = {};
  for (int i = 0; i < n; ++i) {
    w32[i % 7] += (uint32_t)val[i];
    w64 += (uint64_t)val[i] << 20;
    wf[i % 3] += (float)(val[i] % 1024);
  }
  for (int c = 0; c < 7; ++c)
    EXPECT_EQ(g32[c], w32[c]) << "atomic add u32, counter " << c;
  EXPECT_EQ(g64, w64) << "atomic add u64";
  for (int c = 0; c < 3; ++c)
    EXPECT_EQ(gf[c], wf[c]) << "atomic add f32, counter " << c;
  EXPECT_EQ(gmax, *std::max_element(val.begin(), val.end()) - 500000)
      << "atomic max i32";
  EXPECT_EQ(gmin, (uint32_t)*std::min_element(val.begin(), val.end()))
      << "atomic min u32";
  EXPECT_EQ(hex(gbits), hex(~0ull)) << "atomic or u64";
  // The returned old values of one counter, in increasing order, are the
  // running sums of one serial order of the additions (all addends > 0).
  for (int c = 0; c < 7; ++c) {
    std::map<uint32_t, uint32_t> byOld; // old -> addend
    bool dup = false;
    for (int i = c; i < n; i += 7)
      dup |= !byOld.emplace(olds[i], (uint32_t)val[i]).second;
    EXPECT_FALSE(dup) << "two atomic adds returned the same old value, counter "
                      << c;
    uint32_t expect = 0;
    bool chain = true;
    for (auto &[old, add] : byOld) {
      chain &= old == expect;
      expect = old + add;
    }
    EXPECT_TRUE(chain && expect == w32[c])
        << "returned old values of counter " << c
        << " are not the running sums of one order of the additions";
  }
}

TEST_P(Atomics, CmpSwapAndExchange) {
  auto m = load("atomics");
  ASSERT_TRUE(m);
  const int n = 1500, nslots = 37;
  uint64_t slots = alloc(nslots * 4), won = alloc(n * 4), xchg = alloc(4),
           xold = alloc(n * 4);
  EMU_LAUNCH(*m, "cas_xchg", {(n + 255) / 256, 1, 1}, {256, 1, 1},
             ArgPack().add(slots).add(nslots).add(won).add(xchg).add(xold)
                 .add(n));
  auto gs = download<uint32_t>(slots, nslots);
  auto gw = download<uint32_t>(won, n);
  auto gx = download<uint32_t>(xchg, 1)[0];
  auto go = download<uint32_t>(xold, n);
  for (int s = 0; s < nslots; ++s) {
    int winners = 0, winner = -1;
    for (int i = s; i < n; i += nslots)
      if (gw[i]) {
        ++winners;
        winner = i;
      }
    EXPECT_EQ(winners, 1) << "cmpswap winners of slot " << s;
    EXPECT_EQ(gs[s], (uint32_t)winner + 1) << "slot " << s;
  }
  std::vector<uint32_t> all(go);
  all.push_back(gx);
  std::sort(all.begin(), all.end());
  std::vector<uint32_t> want(n + 1);
  std::iota(want.begin(), want.end(), 0u);
  EXPECT_TRUE(all == want)
      << "exchange: old values plus the final value are not a permutation "
         "of 0..n";
}

TEST_P(Atomics, LdsAtomics) {
  auto m = load("atomics");
  ASSERT_TRUE(m);
  const int blocks = 4;
  auto val = randomInts<int32_t>(rng, blocks * 256, -1000000, 1000000);
  uint64_t dval = upload(val), hist = alloc(blocks * 16 * 4),
           mx = alloc(blocks * 4), fs = alloc(blocks * 4),
           claim = alloc(blocks * 4);
  EMU_LAUNCH(*m, "lds_atomics", {blocks, 1, 1}, {256, 1, 1},
             ArgPack().add(dval).add(hist).add(mx).add(fs).add(claim));
  auto gh = download<uint32_t>(hist, blocks * 16);
  auto gm = download<int32_t>(mx, blocks);
  auto gf = download<float>(fs, blocks);
  auto gc = download<uint32_t>(claim, blocks);
  for (int b = 0; b < blocks; ++b) {
    uint32_t h[16] = {};
    int32_t wm = INT32_MIN;
    float wf = 0;
    for (int t = 0; t < 256; ++t) {
      int32_t v = val[b * 256 + t];
      ++h[v & 15];
      wm = std::max(wm, v);
      wf += (float)(v & 255);
    }
    for (int k = 0; k < 16; ++k)
      EXPECT_EQ(gh[b * 16 + k], h[k]) << "LDS histogram, block " << b
                                      << " bin " << k;
    EXPECT_EQ(gm[b], wm) << "LDS max, block " << b;
    EXPECT_EQ(gf[b], wf) << "LDS f32 add, block " << b;
    EXPECT_TRUE(gc[b] >= 1 && gc[b] <= 256)
        << "LDS cmpswap claim, block " << b << ": " << gc[b];
  }
}

//===----------------------------------------------------------------------===//
// sync.hip
//===----------------------------------------------------------------------===//

TEST_P(Sync, FlagChainAcrossWorkgroups) {
  auto m = load("sync");
  ASSERT_TRUE(m);
  const int nwg = 8;
  auto in = randomInts<int32_t>(rng, nwg * 64, -1000, 1000);
  uint64_t din = upload(in), data = alloc(nwg * 64 * 4), flags = alloc(nwg * 4);
  EMU_LAUNCH(*m, "chain", {nwg, 1, 1}, {64, 1, 1},
             ArgPack().add(din).add(data).add(flags).add(nwg));
  auto out = download<int32_t>(data, nwg * 64);
  auto f = download<uint32_t>(flags, nwg);
  std::vector<int32_t> want(nwg * 64);
  for (int l = 0; l < 64; ++l) {
    int32_t acc = 0;
    for (int k = nwg - 1; k >= 0; --k) {
      acc += in[k * 64 + l];
      want[k * 64 + l] = acc;
    }
  }
  Report("data (suffix sums)").expectEqual(out, want);
  Report("flags").expectEqual(f, std::vector<uint32_t>(nwg, 1));
}

//===----------------------------------------------------------------------===//
// buffer.hip
//===----------------------------------------------------------------------===//

TEST_P(Buffer, LoadsOutOfRangeReturnZero) {
  auto m = load("buffer");
  ASSERT_TRUE(m);
  // 96 bytes in range out of a 4 KiB allocation of random bytes: every size
  // has lanes entirely inside and lanes entirely outside the range.
  const int numBytes = 96, lanes = 128;
  auto src = randomInts<uint8_t>(rng, 4096, 0, 255);
  uint64_t dsrc = upload(src);
  uint64_t o8 = alloc(lanes * 4), o16 = alloc(lanes * 4), o32 = alloc(lanes * 4),
           o64 = alloc(lanes * 8), o128 = alloc(lanes * 16),
           oS = alloc(lanes * 4);
  EMU_LAUNCH(*m, "buffer_loads", {lanes / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(dsrc).add(numBytes).add(o8).add(o16).add(o32)
                 .add(o64).add(o128).add(oS));
  auto word = [&](int byteOff, int bytes) {
    uint32_t v = 0;
    if (byteOff + bytes <= numBytes)
      for (int k = 0; k < bytes; ++k)
        v |= (uint32_t)src[byteOff + k] << (8 * k);
    return v;
  };
  struct Out {
    const char *name;
    uint64_t addr;
    int size; // bytes per lane loaded
  } outs[] = {{"b8", o8, 1}, {"b16", o16, 2}, {"b32", o32, 4},
              {"b64", o64, 8}, {"b128", o128, 16}};
  for (auto &o : outs) {
    int words = std::max(1, o.size / 4);
    auto got = download<uint32_t>(o.addr, lanes * words);
    Report r(std::string("raw_buffer_load_") + o.name + " (lane*words+w)");
    for (int l = 0; l < lanes; ++l)
      for (int w = 0; w < words; ++w) {
        // Whole access in or out of range (the offsets are chosen so).
        uint32_t want = l * o.size + o.size <= numBytes
                            ? word(l * o.size + 4 * w, std::min(4, o.size))
                            : 0;
        if (got[l * words + w] != want)
          r.fail(l * words + w, hex(got[l * words + w]), hex(want));
      }
  }
  auto gs = download<uint32_t>(oS, lanes);
  Report rs("raw_buffer_load_b32 with soffset 12");
  for (int l = 0; l < lanes; ++l) {
    uint32_t want = word((l & 15) * 4 + 12, 4);
    if (gs[l] != want)
      rs.fail(l, hex(gs[l]), hex(want));
  }
}

TEST_P(Buffer, StoresOutOfRangeDropped) {
  auto m = load("buffer");
  ASSERT_TRUE(m);
  const int numBytes = 300, lanes = 128;
  uint64_t dst = alloc(lanes * 4, 0xa5);
  EMU_LAUNCH(*m, "buffer_stores", {lanes / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(dst).add(numBytes));
  auto got = download<uint32_t>(dst, lanes);
  std::vector<uint32_t> want(lanes);
  for (int l = 0; l < lanes; ++l)
    want[l] = l * 4 + 4 <= numBytes ? (uint32_t)l + 1 : 0xa5a5a5a5u;
  Report("dst").expectEqual(got, want);
}

//===----------------------------------------------------------------------===//
// control.hip
//===----------------------------------------------------------------------===//

// Mirrors `divergence` in control.hip.
void controlRef(uint32_t x, uint32_t out[3]) {
  uint32_t r;
  if (x & 1) {
    r = x * 3 + 1;
    if (x & 4)
      r ^= 0x5555;
  } else {
    r = x >> 1;
  }
  uint32_t c = (x % 1000) + 1, steps = 0;
  while (c != 1) {
    c = (c & 1) ? 3 * c + 1 : c / 2;
    ++steps;
  }
  uint32_t acc = 0;
  for (uint32_t k = 0; k < 64; ++k) {
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
  out[0] = r;
  out[1] = steps;
  out[2] = acc;
}

// Uniform dynamic indexing of a per-lane register array: clang emits VGPR
// index mode (s_set_gpr_idx_on ... s_set_gpr_idx_off) for it.
TEST_P(Control, VgprIndexMode) {
  auto m = load("gpr_index");
  ASSERT_TRUE(m);
  std::vector<float> in(64 * 32);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = float(int(rng() % 2001) - 1000) / 8.0f; // exact in f32
  uint64_t din = upload(in), dout = alloc(64 * 4);
  for (int k : {0, 5, 24, 31, 37}) {
    for (int j : {0, 3, 7, 29}) {
      EMU_LAUNCH(*m, "private_array", {1, 1, 1}, {64, 1, 1},
                 ArgPack().add(din).add(dout).add(int32_t(k)).add(int32_t(j)));
      auto out = download<float>(dout, 64);
      Report r("private_array k=" + std::to_string(k) + " j=" + std::to_string(j) + ", lane");
      for (int t = 0; t < 64; ++t) {
        float a[32];
        for (int i = 0; i < 32; ++i)
          a[i] = in[t * 32 + i];
        a[k & 31] += 1.0f;
        a[(k + 7) & 31] *= 2.0f;
        float want = a[j & 31] - a[(j * 5 + 3) & 31];
        if (out[t] != want)
          r.fail(t, out[t], want);
      }
    }
  }
}

TEST_P(Control, Divergence) {
  auto m = load("control");
  ASSERT_TRUE(m);
  const int n = 620; // the last wave is partly idle
  auto in = randomInts<uint32_t>(rng, n, 0, UINT32_MAX);
  uint64_t din = upload(in), dout = alloc(3 * n * 4);
  EMU_LAUNCH(*m, "divergence", {(n + 63) / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(din).add(dout).add(n));
  auto out = download<uint32_t>(dout, 3 * n);
  std::vector<uint32_t> want(3 * n);
  for (int i = 0; i < n; ++i)
    controlRef(in[i], &want[3 * i]);
  Report("out (3*i + {if/else, collatz steps, break/continue/switch})")
      .expectEqual(out, want);
}

//===----------------------------------------------------------------------===//
// grid.hip
//===----------------------------------------------------------------------===//

void checkGrid(emu::Dim3 grid, emu::Dim3 block, const std::string &launchErr,
               const std::vector<uint32_t> &got) {
  ASSERT_TRUE(launchErr.empty()) << launchErr;
  uint32_t perWg = block.x * block.y * block.z;
  Report r("ids (9 per work-item)");
  size_t total = (size_t)grid.x * grid.y * grid.z * perWg;
  for (uint32_t bz = 0; bz < grid.z; ++bz)
    for (uint32_t by = 0; by < grid.y; ++by)
      for (uint32_t bx = 0; bx < grid.x; ++bx)
        for (uint32_t tz = 0; tz < block.z; ++tz)
          for (uint32_t ty = 0; ty < block.y; ++ty)
            for (uint32_t tx = 0; tx < block.x; ++tx) {
              size_t idx = ((bz * grid.y + by) * grid.x + bx) * perWg +
                           (tz * block.y + ty) * block.x + tx;
              uint32_t want[9] = {tx, ty, tz, bx, by, bz,
                                  block.x, block.y, block.z};
              for (int k = 0; k < 9; ++k)
                if (got[idx * 9 + k] != want[k])
                  r.fail(idx * 9 + k, got[idx * 9 + k], want[k]);
            }
  for (size_t i = total * 9; i < got.size(); ++i)
    if (got[i] != 0xeeeeeeeeu)
      r.fail(i, hex(got[i]), "untouched");
}

TEST_P(Grid, Ids3D) {
  auto m = load("grid");
  ASSERT_TRUE(m);
  // A block of 96 work-items is one and a half waves: the second wave runs
  // with half of EXEC.
  struct Geo {
    emu::Dim3 grid, block;
  } geos[] = {{{3, 2, 2}, {8, 4, 2}}, {{2, 1, 3}, {16, 2, 3}}};
  for (auto &g : geos) {
    SCOPED_TRACE("grid " + std::to_string(g.grid.x) + "x" +
                 std::to_string(g.grid.y) + "x" + std::to_string(g.grid.z) +
                 ", block " + std::to_string(g.block.x) + "x" +
                 std::to_string(g.block.y) + "x" + std::to_string(g.block.z));
    size_t total = (size_t)g.grid.x * g.grid.y * g.grid.z * g.block.x *
                   g.block.y * g.block.z;
    uint64_t dout = alloc((total + 64) * 9 * 4, 0xee);
    std::string err = launch(*m, "ids3d", g.grid, g.block,
                             ArgPack().add(dout).add(g.grid.x).add(g.grid.y));
    checkGrid(g.grid, g.block, err,
              download<uint32_t>(dout, (total + 64) * 9));
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// narrow.hip
//===----------------------------------------------------------------------===//

// Saturating, wrapping and min/max/median math on short and unsigned short
// as clang lowers it (v_add_i16/v_sub_i16 clamp, v_add_u16/v_sub_u16 clamp,
// v_mad_legacy_u16, v_med3_i16/u16), on random shorts with the limits in
// the first elements.
TEST_P(Narrow, ShortMath) {
  auto m = load("narrow");
  ASSERT_TRUE(m);
  const int n = 256;
  auto a = randomInts<int16_t>(rng, n, -32768, 32767);
  auto b = randomInts<int16_t>(rng, n, -32768, 32767);
  auto c = randomInts<int16_t>(rng, n, -32768, 32767);
  const int16_t lim[] = {32767, -32768, 1, -1, 0, 32767, -32768, 100};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      a[8 * i + j] = lim[i];
      b[8 * i + j] = lim[j];
    }
  uint64_t da = upload(a), db = upload(b), dc = upload(c), dout = alloc(12 * n * 2);
  EMU_LAUNCH(*m, "i16_ops", {n / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(da).add(db).add(dc).add(dout).add(n));
  auto out = download<uint16_t>(dout, 12 * n);
  const char *names[12] = {"add_sat i16", "sub_sat i16", "add_sat u16", "sub_sat u16",
                           "mad i16", "mad u16", "min3 i16", "max3 i16", "med3 i16",
                           "min3 u16", "max3 u16", "med3 u16"};
  std::vector<Report> r;
  r.reserve(12);
  for (auto *nm : names)
    r.emplace_back(nm);
  for (int i = 0; i < n; ++i) {
    int64_t x = a[i], y = b[i], z = c[i];
    int64_t ux = uint16_t(a[i]), uy = uint16_t(b[i]), uz = uint16_t(c[i]);
    int64_t s3[3] = {x, y, z}, u3[3] = {ux, uy, uz};
    std::sort(s3, s3 + 3);
    std::sort(u3, u3 + 3);
    int64_t want[12] = {std::clamp<int64_t>(x + y, -32768, 32767),
                        std::clamp<int64_t>(x - y, -32768, 32767),
                        std::min<int64_t>(ux + uy, 65535),
                        std::max<int64_t>(ux - uy, 0),
                        x * y + z, ux * uy + uz, s3[0], s3[2], s3[1],
                        u3[0], u3[2], u3[1]};
    for (int k = 0; k < 12; ++k) {
      uint16_t w = uint16_t(uint64_t(want[k]) & 0xffff);
      if (out[12 * i + k] != w)
        r[k].fail(i, hex(out[12 * i + k]), hex(w));
    }
  }
}

namespace {
bool isNaNF16(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
/// V_DIV_FIXUP_F16(q, den, num) as the ISA lists its cases.
uint16_t divFixupF16Ref(uint16_t q, uint16_t den, uint16_t num) {
  double d = fromF16(den), nu = fromF16(num);
  uint16_t sign = (std::signbit(d) != std::signbit(nu)) ? 0x8000 : 0;
  if (std::isnan(nu)) return num | 0x200;
  if (std::isnan(d)) return den | 0x200;
  if ((d == 0 && nu == 0) || (std::isinf(d) && std::isinf(nu))) return 0xfe00;
  if (d == 0 || std::isinf(nu)) return sign | 0x7c00;
  if (std::isinf(d) || nu == 0) return sign;
  return sign | (q & 0x7fff);
}

} // namespace

// _Float16 division (clang's f32 reciprocal iteration ending in
// v_div_fixup_f16, correctly rounded), sin and cos (v_mul_f16 by 1/(2 pi)
// then v_sin_f16/v_cos_f16), frexp (v_frexp_mant_f16, v_frexp_exp_i16_f16),
// min and max of three (v_min3_f16, v_max3_f16) and v_div_fixup_f16 itself.
TEST_P(Narrow, HalfMath) {
  auto m = load("narrow");
  ASSERT_TRUE(m);
  const int n = 256;
  std::vector<uint16_t> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = randomF16(rng, -14, 15);
    b[i] = randomF16(rng, -14, 15);
    c[i] = randomF16(rng, -14, 15);
  }
  // Division's special cases, f16 denormals, and sin/cos arguments.
  const uint16_t sa[] = {0x0000, 0x3c00, 0x7c00, 0x3c00, 0x0000, 0x7bff, 0x0001, 0x8000,
                         0x03ff, 0x4248, 0xfc00, 0x7e00};
  const uint16_t sb[] = {0x0000, 0x0000, 0xfc00, 0x7c00, 0x3c00, 0x0400, 0x3800, 0x4000,
                         0x3c01, 0x7e00, 0x4000, 0x3c00};
  for (int i = 0; i < 12; ++i) {
    a[i] = sa[i];
    b[i] = sb[i];
  }
  uint64_t da = upload(a), db = upload(b), dc = upload(c),
           dout = alloc(8 * n * 2, 0xcd), de = alloc(n * 4);
  EMU_LAUNCH(*m, "f16_ops", {n / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(da).add(db).add(dc).add(dout).add(de).add(n));
  auto out = download<uint16_t>(dout, 8 * n);
  auto ex = download<int32_t>(de, n);
  Report rdiv("x / y"), rsin("sin"), rcos("cos"), rmant("frexp mant"),
      rexp("frexp exp"), rmin("min3"), rmax("max3"), rfix("div_fixup"), rpad("untouched");
  const uint16_t invTwoPi = toF16(0.15915494309189533577);
  for (int i = 0; i < n; ++i) {
    const uint16_t *o = &out[8 * i];
    double x = fromF16(a[i]), y = fromF16(b[i]), z = fromF16(c[i]);
    // Division: correctly rounded (the double quotient of two f16 values is
    // never an f16 rounding tie, so rounding it again is exact); any NaN.
    uint16_t q = toF16(x / y);
    if (!(o[0] == q || (isNaNF16(o[0]) && isNaNF16(q))))
      rdiv.fail(i, hex(o[0]), hex(q));
    // sin/cos: of the f16 product t = x * f16(1/(2 pi)), sin(2 pi t) within
    // the ISA's 1 ulp (f16 denormal results: 1 ulp of the smallest normal).
    double t = fromF16(toF16(x * fromF16(invTwoPi)));
    double turns = std::remainder(t, 1.0);
    const long double twoPi = 6.28318530717958647692528676655900577L;
    for (int k = 0; k < 2; ++k) {
      uint16_t w = toF16(double(k ? std::cos(twoPi * turns) : std::sin(twoPi * turns)));
      uint16_t g = o[1 + k];
      bool ok = ulpDistanceF16(g, w) <= 1 ||
                (std::fabs(fromF16(g) - fromF16(w)) <= 0x1p-24 * 1) ||
                (std::isinf(x) && isNaNF16(g));
      if (!ok)
        (k ? rcos : rsin).fail(i, hex(g), hex(w));
    }
    // frexp: exact for finite x (0 gives 0 and 0).
    if (std::isfinite(x)) {
      int e = 0;
      double mant = x == 0 ? x : std::frexp(x, &e);
      if (o[3] != toF16(mant))
        rmant.fail(i, hex(o[3]), hex(toF16(mant)));
      if (ex[i] != e)
        rexp.fail(i, std::to_string(ex[i]), std::to_string(e));
    }
    // min/max of three (values compared, so -0 and +0 are both accepted).
    if (!std::isnan(x) && !std::isnan(y)) {
      double mn = std::min({x, y, z}), mx = std::max({x, y, z});
      if (fromF16(o[4]) != mn)
        rmin.fail(i, hex(o[4]), hex(toF16(mn)));
      if (fromF16(o[5]) != mx)
        rmax.fail(i, hex(o[5]), hex(toF16(mx)));
    }
    uint16_t wf = divFixupF16Ref(a[i], b[i], c[i]);
    if (!(o[6] == wf || (isNaNF16(o[6]) && isNaNF16(wf))))
      rfix.fail(i, hex(o[6]), hex(wf));
    if (o[7] != 0xcdcd)
      rpad.fail(i, hex(o[7]), "cdcd");
  }
}

// The byte SAD and lerp builtins (v_sad_u8, v_msad_u8, v_sad_hi_u8,
// v_sad_u16, v_lerp_u8) and |x - y| + z, which clang turns into v_sad_u32.
TEST_P(Narrow, SadLerp) {
  auto m = load("narrow");
  ASSERT_TRUE(m);
  const int n = 128;
  auto a = randomInts<uint32_t>(rng, n, 0, 0xffffffffll);
  auto b = randomInts<uint32_t>(rng, n, 0, 0xffffffffll);
  auto c = randomInts<uint32_t>(rng, n, 0, 0xffffffffll);
  for (int i = 0; i < 16; ++i) // zero reference bytes for v_msad_u8
    b[i] &= 0x00ff00ffu << (i & 8);
  uint64_t da = upload(a), db = upload(b), dc = upload(c), dout = alloc(6 * n * 4);
  EMU_LAUNCH(*m, "sad_ops", {n / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(da).add(db).add(dc).add(dout).add(n));
  auto out = download<uint32_t>(dout, 6 * n);
  const char *names[6] = {"sad_u8", "msad_u8", "sad_hi_u8", "sad_u16", "lerp_u8", "sad_u32"};
  std::vector<Report> r;
  r.reserve(12);
  for (auto *nm : names)
    r.emplace_back(nm);
  for (int i = 0; i < n; ++i) {
    uint64_t sad = 0, msad = 0, sad16 = 0, lerp = 0;
    for (int k = 0; k < 4; ++k) {
      int64_t x = (a[i] >> (8 * k)) & 0xff, y = (b[i] >> (8 * k)) & 0xff;
      sad += uint64_t(x > y ? x - y : y - x);
      if (y != 0)
        msad += uint64_t(x > y ? x - y : y - x);
      lerp |= uint64_t((x + y + ((c[i] >> (8 * k)) & 1)) >> 1) << (8 * k);
    }
    for (int k = 0; k < 2; ++k) {
      int64_t x = (a[i] >> (16 * k)) & 0xffff, y = (b[i] >> (16 * k)) & 0xffff;
      sad16 += uint64_t(x > y ? x - y : y - x);
    }
    uint64_t d32 = a[i] > b[i] ? uint64_t(a[i]) - b[i] : uint64_t(b[i]) - a[i];
    uint32_t want[6] = {uint32_t(sad + c[i]), uint32_t(msad + c[i]),
                        uint32_t((sad << 16) + c[i]), uint32_t(sad16 + c[i]),
                        uint32_t(lerp), uint32_t(d32 + c[i])};
    for (int k = 0; k < 6; ++k)
      if (out[6 * i + k] != want[k])
        r[k].fail(i, hex(out[6 * i + k]), hex(want[k]));
  }
}

// __builtin_amdgcn_trig_preop(x, k), k = 0..2: segment k of 2/pi holds the
// bits [53 k + s, 53 k + s + 53) of its binary fraction, s = the excess of
// x's exponent over 1077, at their place value (times 2^128 for exponents
// of 1968 and more). Checked here bit by bit against the bits of 2/pi that
// a long double holds (the first 62); AluTests checks all 1201 bits.
TEST_P(Narrow, TrigPreop) {
  auto m = load("narrow");
  ASSERT_TRUE(m);
  const int n = 128;
  std::vector<double> x(n);
  std::uniform_int_distribution<int> e(1000, 2046);
  std::uniform_int_distribution<uint64_t> f(0, (uint64_t(1) << 52) - 1);
  for (int i = 0; i < n; ++i)
    x[i] = doubleOf(uint64_t(i < 64 ? 1023 + i % 60 : e(rng)) << 52 | f(rng));
  x[1] = doubleOf(uint64_t(1077) << 52);
  x[2] = doubleOf(uint64_t(1078) << 52);
  x[3] = doubleOf(uint64_t(1967) << 52);
  x[4] = doubleOf(uint64_t(1968) << 52 | 5);
  x[5] = -x[2];
  uint64_t dx = upload(x), dout = alloc(3 * n * 8);
  EMU_LAUNCH(*m, "trig_preop", {n / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(dx).add(dout).add(n));
  auto out = download<double>(dout, 3 * n);
  // Bits 0..61 of 2/pi = 0.b0 b1 b2 ... (b0 the 2^-1 bit).
  long double tp = 0.63661977236758134307553505349005744813783858296182579L;
  int twoPiBits[62];
  long double v = tp;
  for (int i = 0; i < 62; ++i) {
    v *= 2;
    twoPiBits[i] = v >= 1;
    if (v >= 1)
      v -= 1;
  }
  Report r("trig_preop");
  for (int i = 0; i < n; ++i) {
    int ex = int((bitsOf(x[i]) >> 52) & 0x7ff);
    int s = ex > 1077 ? ex - 1077 : 0;
    int adj = ex >= 1968 ? 128 : 0;
    for (int k = 0; k < 3; ++k) {
      double g = out[3 * i + k];
      int first = 53 * k + s;
      // g * 2^(first + 53 - adj) is the 53-bit integer of those bits.
      long double bitsInt = std::ldexp((long double)g, first + 53 - adj);
      bool ok = bitsInt == std::floor(bitsInt) && bitsInt >= 0 && bitsInt < 0x1p53L;
      for (int p = first; ok && p < first + 53 && p < 62; ++p) {
        long double sh = std::floor(std::ldexp(bitsInt, -(first + 52 - p)));
        ok = std::fmod(sh, 2.0L) == twoPiBits[p];
      }
      if (!ok)
        r.fail(3 * i + k, std::to_string(g), "bits " + std::to_string(first) + "..");
    }
  }
}

// __builtin_elementwise_maximum/minimum of three floats and three half
// pairs: NaN in, NaN out; -0 below +0; else the extreme value.
TEST_P(Narrow, Fmaximum) {
  auto m = load("narrow");
  ASSERT_TRUE(m);
  const int n = 128;
  const float pick[] = {0.0f, -0.0f, 1.5f, -2.0f, NAN, INFINITY, -INFINITY, 3.0f};
  std::uniform_int_distribution<int> d(0, 7);
  std::vector<float> a(n), b(n), c(n);
  std::vector<uint32_t> ha(n), hb(n), hc(n);
  for (int i = 0; i < n; ++i) {
    a[i] = pick[d(rng)], b[i] = pick[d(rng)], c[i] = pick[d(rng)];
    auto pair = [&] {
      return uint32_t(toF16(pick[d(rng)])) | uint32_t(toF16(pick[d(rng)])) << 16;
    };
    ha[i] = pair(), hb[i] = pair(), hc[i] = pair();
  }
  uint64_t da = upload(a), db = upload(b), dc = upload(c), dha = upload(ha),
           dhb = upload(hb), dhc = upload(hc), dout = alloc(2 * n * 4),
           dhout = alloc(2 * n * 4);
  EMU_LAUNCH(*m, "fmaximum", {n / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(da).add(db).add(dc).add(dha).add(dhb).add(dhc)
                 .add(dout).add(dhout).add(n));
  auto out = download<float>(dout, 2 * n);
  auto hout = download<uint32_t>(dhout, 2 * n);
  // The extreme of three in IEEE 754-2019's order, as (is NaN, value, sign).
  auto ext = [](double x, double y, double z, bool isMax) {
    double v[3] = {x, y, z}, best = x;
    for (double e : v)
      if (std::isnan(e))
        return e;
    for (double e : v) {
      bool neg = std::signbit(e), bneg = std::signbit(best);
      if (isMax ? (e > best || (e == best && bneg && !neg))
                : (e < best || (e == best && !bneg && neg)))
        best = e;
    }
    return best;
  };
  auto same = [](double g, double w) {
    return (std::isnan(g) && std::isnan(w)) ||
           (g == w && std::signbit(g) == std::signbit(w));
  };
  Report rmax("maximum3 f32"), rmin("minimum3 f32"), rhmax("maximum3 f16"),
      rhmin("minimum3 f16");
  for (int i = 0; i < n; ++i) {
    double wmax = ext(a[i], b[i], c[i], true), wmin = ext(a[i], b[i], c[i], false);
    if (!same(out[2 * i], wmax))
      rmax.fail(i, out[2 * i], wmax);
    if (!same(out[2 * i + 1], wmin))
      rmin.fail(i, out[2 * i + 1], wmin);
    for (int h = 0; h < 2; ++h) {
      auto f = [h](uint32_t v) { return fromF16(uint16_t(v >> (16 * h))); };
      double gx = fromF16(uint16_t(hout[2 * i] >> (16 * h)));
      double gn = fromF16(uint16_t(hout[2 * i + 1] >> (16 * h)));
      double wx = ext(f(ha[i]), f(hb[i]), f(hc[i]), true);
      double wn = ext(f(ha[i]), f(hb[i]), f(hc[i]), false);
      if (!same(gx, wx))
        rhmax.fail(2 * i + h, gx, wx);
      if (!same(gn, wn))
        rhmin.fail(2 * i + h, gn, wn);
    }
  }
}

//===----------------------------------------------------------------------===//
// fp8.hip
//===----------------------------------------------------------------------===//

// clang's FP8/BF8 conversion builtins on every code (each of 128 elements
// holds four, all 256 codes twice) and on f32 values: the rounding
// boundaries, NaN and infinities of both chips' formats, then random values
// around their ranges; random words for the stochastic roundings. The
// references (EmuTestSupport.cpp) decode by formula and encode by search.
TEST_P(Fp8, Builtins) {
  auto m = load("fp8");
  ASSERT_TRUE(m);
  const int n = 128;
  std::vector<int32_t> codes(n), rnd(n);
  std::vector<float> x(n), y(n);
  const float edge[] = {0.0f, -0.0f, 1.0f, -1.0f, NAN, INFINITY, -INFINITY, 240.0f, 248.0f,
                        247.99998f, 448.0f, 464.0f, 465.0f, 57344.0f, 61440.0f, 61439.996f,
                        1e30f, std::ldexp(1.0f, -10), std::ldexp(1.0f, -11), std::ldexp(3.0f, -11),
                        std::ldexp(1.0f, -17), std::ldexp(3.0f, -18), 1.0625f, 1.1875f, 1.125f,
                        -std::ldexp(1.0f, -16), 1e-40f, -300.0f};
  const int nEdge = int(sizeof(edge) / sizeof(edge[0]));
  std::uniform_real_distribution<float> unit(1.0f, 2.0f);
  for (int i = 0; i < n; ++i) {
    int l = i % 64;
    codes[i] = int32_t(uint32_t(4 * l) | uint32_t(4 * l + 1) << 8 | uint32_t(4 * l + 2) << 16 |
                       uint32_t(4 * l + 3) << 24);
    rnd[i] = int32_t(uint32_t(rng()));
    auto random = [&] {
      float v = std::ldexp(unit(rng), int(rng() % 44) - 24);
      return rng() & 1 ? -v : v;
    };
    x[i] = i < nEdge ? edge[i] : random();
    y[i] = i < nEdge ? edge[(i + 5) % nEdge] : random();
  }
  uint64_t dc = upload(codes), dx = upload(x), dy = upload(y), dr = upload(rnd),
           dfout = alloc(16 * n * 4), dout = alloc(4 * n * 4);
  EMU_LAUNCH(*m, "fp8_cvt", {n / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(dc).add(dx).add(dy).add(dr).add(dfout).add(dout).add(n));
  auto fout = download<float>(dfout, 16 * n);
  auto out = download<uint32_t>(dout, 4 * n);
  const Fp8Spec fp8 = fp8Spec(isGfx950()), bf8 = bf8Spec(isGfx950());
  Report floats("fp8/bf8 to f32"), words("f32 to fp8/bf8");
  // Which byte and format each of the 16 floats converts.
  const int byteOf[16] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 2, 3, 0, 1};
  for (int i = 0; i < n; ++i) {
    uint32_t c = uint32_t(codes[i]);
    for (int k = 0; k < 16; ++k) {
      bool isBf8 = (k >= 4 && k < 8) || k >= 12;
      double want = fp8Value((c >> (8 * byteOf[k])) & 0xff, isBf8 ? bf8 : fp8);
      float got = fout[16 * i + k];
      bool same = std::isnan(want) ? std::isnan(got) : bitsOf(got) == bitsOf(float(want));
      if (!same)
        floats.fail(16 * i + k, hex(bitsOf(got)), hex(bitsOf(float(want))));
    }
    uint32_t w0 = (c & 0xffff0000u) | fp8Nearest(x[i], fp8) | fp8Nearest(y[i], fp8) << 8;
    uint32_t want[4] = {
        w0, (w0 & 0xffffu) | (fp8Nearest(x[i], bf8) | fp8Nearest(y[i], bf8) << 8) << 16,
        (c & 0xff00ffffu) | fp8Stochastic(x[i], uint32_t(rnd[i]), fp8) << 16,
        (c & 0xffff00ffu) | fp8Stochastic(y[i], uint32_t(rnd[i]), bf8) << 8};
    for (int k = 0; k < 4; ++k)
      if (out[4 * i + k] != want[k])
        words.fail(4 * i + k, hex(out[4 * i + k]), hex(want[k]));
  }
}

// gfx950's scaled conversion builtins (__builtin_amdgcn_cvt_scalef32_*) on
// the same codes and values, with scales whose exponents vary around 1 and
// whose sign and mantissa bits are random (the conversions use only the
// exponent). References: decode by formula times 2^(E - 127); encode the
// value divided by it by searching the OCP format's values.
TEST_P(Fp8, ScaledBuiltins) {
  if (!isGfx950())
    GTEST_SKIP() << "v_cvt_scalef32_* are gfx950 only";
  auto m = load("fp8");
  ASSERT_TRUE(m);
  const int n = 128;
  std::vector<int32_t> codes(n), rnd(n);
  std::vector<float> x(n), y(n), scale(n);
  const float edge[] = {0.0f, -0.0f, 1.0f, -1.0f, NAN, INFINITY, -INFINITY, 448.0f, 464.0f,
                        465.0f, 57344.0f, 61440.0f, 1e30f, std::ldexp(1.0f, -9),
                        std::ldexp(1.0f, -10), std::ldexp(3.0f, -10), 0.25f, 0.75f, 5.0f, 7.0f};
  const int nEdge = int(sizeof(edge) / sizeof(edge[0]));
  std::uniform_real_distribution<float> unit(1.0f, 2.0f);
  for (int i = 0; i < n; ++i) {
    int l = i % 64;
    codes[i] = int32_t(uint32_t(4 * l) | uint32_t(4 * l + 1) << 8 | uint32_t(4 * l + 2) << 16 |
                       uint32_t(4 * l + 3) << 24);
    rnd[i] = int32_t(uint32_t(rng()));
    auto random = [&] {
      float v = std::ldexp(unit(rng), int(rng() % 40) - 20);
      return rng() & 1 ? -v : v;
    };
    x[i] = i < nEdge ? edge[i] : random();
    y[i] = i < nEdge ? edge[(i + 3) % nEdge] : random();
    uint32_t e = i < nEdge ? 127 : 120 + uint32_t(rng() % 15);
    scale[i] = floatOf((uint32_t(rng()) & 0x807fffffu) | e << 23);
  }
  uint64_t dc = upload(codes), dx = upload(x), dy = upload(y), dr = upload(rnd), ds = upload(scale),
           dfout = alloc(8 * n * 4), dout = alloc(4 * n * 4);
  EMU_LAUNCH(*m, "fp8_scaled", {n / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(dc).add(dx).add(dy).add(dr).add(ds).add(dfout).add(dout).add(n));
  auto fout = download<float>(dfout, 8 * n);
  auto out = download<uint32_t>(dout, 4 * n);
  const Fp8Spec fp8{4, 3, 7, false}, bf8{5, 2, 15, false}, fp4{2, 1, 1, false, true};
  Report floats("scaled to f32"), words("scaled from f32");
  for (int i = 0; i < n; ++i) {
    uint32_t c = uint32_t(codes[i]);
    double k = std::pow(2.0, double(int((bitsOf(scale[i]) >> 23) & 0xff) - 127));
    auto byte = [&](int b) { return (c >> (8 * b)) & 0xff; };
    double want[8] = {fp8Value(byte(1), fp8) * k, fp8Value(byte(2), bf8) * k,
                      fp8Value(byte(2), fp8) * k, fp8Value(byte(3), fp8) * k,
                      fp8Value(byte(3) & 15, fp4) * k, fp8Value(byte(3) >> 4, fp4) * k,
                      fp8Value(byte(0), bf8) * k, fp8Value(byte(1), bf8) * k};
    for (int j = 0; j < 8; ++j) {
      float got = fout[8 * i + j], w = float(want[j]);
      bool same = std::isnan(w) ? std::isnan(got) : bitsOf(got) == bitsOf(w);
      if (!same)
        floats.fail(8 * i + j, hex(bitsOf(got)), hex(bitsOf(w)));
    }
    double xs = double(x[i]) / k, ys = double(y[i]) / k;
    double xf = std::fmin(std::fmax(double(x[i]), -1e6), 1e6) / k;
    double yf = std::fmin(std::fmax(double(y[i]), -1e6), 1e6) / k;
    uint32_t w0 = fp8Nearest(xs, fp8) | fp8Nearest(ys, fp8) << 8 |
                  (fp8Nearest(xs, bf8) | fp8Nearest(ys, bf8) << 8) << 16;
    uint32_t wantWords[4] = {
        w0, (c & 0xff00ffffu) | (fp8Nearest(xf, fp4) | fp8Nearest(yf, fp4) << 4) << 16,
        (c & 0x00ffffffu) | fp8Stochastic(xs, uint32_t(rnd[i]), fp8) << 24,
        (c & 0xffffff00u) | fp8Stochastic(ys, uint32_t(rnd[i]), bf8)};
    for (int j = 0; j < 4; ++j)
      if (out[4 * i + j] != wantWords[j])
        words.fail(4 * i + j, hex(out[4 * i + j]), hex(wantWords[j]));
  }
}

// append.hip: clang's __builtin_amdgcn_ds_append/ds_consume (LLVM puts the
// LDS pointer in M0 and folds the rest into the offset), per workgroup on
// its own LDS counter.
TEST_P(Append, AppendConsume) {
  auto m = load("append");
  ASSERT_TRUE(m);
  const int groups = 4, n = 64 * groups;
  std::vector<int32_t> in(n);
  for (auto &v : in)
    v = int32_t(rng() & 0xff);
  uint64_t din = upload(in), d1 = alloc(n * 4), d2 = alloc(n * 4), d3 = alloc(n * 4),
           dfinal = alloc(groups * 4);
  EMU_LAUNCH(*m, "append_consume", {groups, 1, 1}, {64, 1, 1},
             ArgPack().add(din).add(d1).add(d2).add(d3).add(dfinal));
  auto first = download<int32_t>(d1, n), second = download<int32_t>(d2, n),
       third = download<int32_t>(d3, n), fin = download<int32_t>(dfinal, groups);
  std::vector<int32_t> w1(n), w2(n), w3(n), wfin(groups);
  for (int g = 0; g < groups; ++g) {
    int odd = 0;
    for (int l = 0; l < 64; ++l)
      odd += in[g * 64 + l] & 1;
    for (int l = 0; l < 64; ++l) {
      int i = g * 64 + l;
      w1[i] = (in[i] & 1) ? 10 : -1;
      w2[i] = 10 + odd;
      w3[i] = 10 + odd + 64;
    }
    wfin[g] = 10 + odd;
  }
  Report("first append").expectEqual(first, w1);
  Report("second append").expectEqual(second, w2);
  Report("consume").expectEqual(third, w3);
  Report("final counter").expectEqual(fin, wfin);
}

// append.hip on gfx950: __builtin_amdgcn_prng_b32 and the stochastic
// conversions to bf16 and f16. References from the CDNA4 pseudocode, on the
// f32 bit pattern: the LFSR step, and for normal results the dropped
// mantissa bits plus the top bits of the random value carrying into the
// kept ones.
TEST_P(Append, PrngAndStochasticRounding) {
  if (!isGfx950())
    GTEST_SKIP() << "v_prng_b32 and v_cvt_sr_bf16/f16_f32 are gfx950 only";
  auto m = load("append");
  ASSERT_TRUE(m);
  const int n = 128;
  std::vector<float> x(n);
  std::vector<uint32_t> rnd(n);
  std::uniform_real_distribution<float> unit(1.0f, 2.0f);
  for (int i = 0; i < n; ++i) {
    float v = std::ldexp(unit(rng), int(rng() % 28) - 13); // normal f16 range
    x[i] = rng() & 1 ? -v : v;
    rnd[i] = uint32_t(rng());
  }
  x[0] = 65504.0f; // the largest f16: any carry overflows to infinity
  rnd[0] = 0xffffffffu;
  x[1] = 1.0f;     // exact: no random value rounds it
  rnd[1] = 0xffffffffu;
  uint64_t dx = upload(x), dr = upload(rnd), dp = alloc(n * 4), ds = alloc(n * 4);
  EMU_LAUNCH(*m, "prng_sr", {n / 64, 1, 1}, {64, 1, 1},
             ArgPack().add(dx).add(dr).add(dp).add(ds));
  auto prng = download<uint32_t>(dp, n), sr = download<uint32_t>(ds, n);
  std::vector<uint32_t> wp(n), ws(n);
  for (int i = 0; i < n; ++i) {
    uint32_t r = rnd[i], bits = bitsOf(x[i]);
    wp[i] = (r << 1) ^ ((r >> 31) ? 197u : 0u);
    // bf16: the low 16 bits plus r[31:16]; a carry moves bit 16 up.
    uint32_t bf = (bits >> 16) + (((bits & 0xffff) + (r >> 16)) >> 16);
    // f16: the f32 mantissa's 13 low bits plus r[31:19]; a carry adds one
    // unit in the last place of the truncated f16 (into the exponent, and
    // from 65504 to infinity).
    uint16_t h = toF16(double(floatOf(bits & ~0x1fffu)));
    h = uint16_t(h + (((bits & 0x1fff) + (r >> 19)) >> 13));
    ws[i] = (bf & 0xffff) | uint32_t(h) << 16;
  }
  Report("v_prng_b32").expectEqual(prng, wp);
  Report("v_cvt_sr_bf16_f32 | v_cvt_sr_f16_f32 << 16").expectEqual(sr, ws);
}

// lds_builtins.hip: __builtin_amdgcn_global_load_lds of 1 and 2 bytes
// (global_load_lds_ubyte/_ushort): each lane's byte or short lands
// zero-extended in its LDS dword.
TEST_P(LdsBuiltins, NarrowGlobalLoadLds) {
  auto m = load("lds_builtins");
  ASSERT_TRUE(m);
  std::vector<uint8_t> src(128);
  for (auto &v : src)
    v = uint8_t(rng());
  uint64_t dsrc = upload(src), dout = alloc(128 * 4, 0xcd);
  EMU_LAUNCH(*m, "narrow_lds_dma", {1, 1, 1}, {64, 1, 1}, ArgPack().add(dsrc).add(dout));
  auto out = download<uint32_t>(dout, 128);
  std::vector<uint32_t> want(128);
  for (int t = 0; t < 64; ++t) {
    want[t] = src[t];
    want[64 + t] = src[2 * t] | uint32_t(src[2 * t + 1]) << 8;
  }
  Report("narrow_lds_dma out (byte, then short)").expectEqual(out, want);
}

// lds_builtins.hip on gfx950: __builtin_amdgcn_ds_read_tr4_b64 and
// ds_read_tr6_b96 on each lane's own 16 bytes: lane i's element e is
// element i % 16 of lane 16 * (i / 16) + e's 16 elements.
TEST_P(LdsBuiltins, TransposeB4B6) {
  if (!isGfx950())
    GTEST_SKIP() << "ds_read_b64_tr_b4 and ds_read_b96_tr_b6 are gfx950 only";
  auto m = load("lds_builtins");
  ASSERT_TRUE(m);
  std::vector<uint32_t> src(256);
  for (auto &v : src)
    v = uint32_t(rng());
  uint64_t dsrc = upload(src), dout = alloc(384 * 4, 0);
  EMU_LAUNCH(*m, "transpose_b4_b6", {1, 1, 1}, {64, 1, 1}, ArgPack().add(dsrc).add(dout));
  auto out = download<uint32_t>(dout, 384);
  // Element e of `bits` bits of the words at w, by its bits.
  auto elem = [](const uint32_t *w, unsigned bits, unsigned e) {
    unsigned v = 0;
    for (unsigned b = 0; b < bits; ++b) {
      unsigned at = bits * e + b;
      v |= ((w[at / 32] >> (at % 32)) & 1u) << b;
    }
    return v;
  };
  int bad = 0;
  for (unsigned bits : {4u, 6u})
    for (unsigned i = 0; i < 64; ++i)
      for (unsigned e = 0; e < 16; ++e) {
        unsigned want = elem(&src[4 * (16 * (i / 16) + e)], bits, i % 16);
        unsigned got = elem(&out[bits == 4 ? 2 * i : 128 + 4 * i], bits, e);
        if (got != want && bad++ < 8)
          ADD_FAILURE() << "tr_b" << bits << " lane " << i << " element " << e << ": got "
                        << got << " expected " << want;
      }
}

#define EMU_INSTANTIATE(Suite)                                                 \
  INSTANTIATE_TEST_SUITE_P(Chips, Suite,                                       \
                           ::testing::Values(Chip::gfx942, Chip::gfx950),     \
                           chipParamName)
EMU_INSTANTIATE(Vector);
EMU_INSTANTIATE(Half);
EMU_INSTANTIATE(CrossLane);
EMU_INSTANTIATE(Math);
EMU_INSTANTIATE(Lds);
EMU_INSTANTIATE(Atomics);
EMU_INSTANTIATE(Sync);
EMU_INSTANTIATE(Buffer);
EMU_INSTANTIATE(Control);
EMU_INSTANTIATE(Grid);
EMU_INSTANTIATE(Narrow);
EMU_INSTANTIATE(Fp8);
EMU_INSTANTIATE(Append);
EMU_INSTANTIATE(LdsBuiltins);
