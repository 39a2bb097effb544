//===- AluTests.cpp - VALU and SALU ops against references from the ISA --===//
//
// The kernels of test/emu/asm/valu_int.s, valu_float.s, valu_f64.s,
// valu_cmp.s, valu_pk.s, valu_lanes.s, valu_carry_dpp.s, valu_const.s,
// valu_special.s, valu_dot.s, valu_16bit.s, valu_gfx950.s, cvt_fp8.s,
// cvt_scale_gfx950.s, valu_f16mad.s, valu_sr_gfx950.s, valu_legacy.s, salu.s and salu2.s run one op per output row on per-lane inputs: random values, with
// hand-picked edge cases in the first lanes. Every row is compared with a reference written
// here from the op's description in the CDNA3 ISA guide (and, where the
// guide is terse, with what LLVM's own lowering relies on; each such case
// says so). The references are deliberately written another way than the
// emulator's expressions: loops over bits, wide arithmetic, explicit cases.
//
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <limits>

using namespace kcc;
using namespace kcc::emutest;

namespace {

using Ref = std::function<uint32_t(uint32_t a, uint32_t b, uint32_t c, int lane)>;
/// A reference value meaning "not checked in this lane".
constexpr uint32_t kAny = 0xdeadbeefu;
struct Row {
  std::string name;
  Ref ref;
  enum { Exact, F32NaN, F16NaN, PkF16NaN, PkBf16NaN, F64NaN } nan = Exact; // F32NaN:
  // any f32 NaN matches any NaN (payloads unchecked); F16NaN: the same for
  // the low f16, the high half compared exactly; PkF16NaN: the same for both
  // f16 halves (PkBf16NaN: bf16 halves); F64NaN: this row and the next are
  // the low and high dwords of
  // an f64, and any NaN matches any NaN.
};

// Signed views and saturation, as the ISA's pseudocode uses them.
int64_t sx(uint32_t v) { return int64_t(int32_t(v)); }
uint32_t satU32(int64_t v) {
  return v < 0 ? 0u : v > 0xffffffffll ? 0xffffffffu : uint32_t(v);
}
int64_t sx16(uint32_t v) {
  int64_t x = v & 0xffff;
  return x >= 0x8000 ? x - 0x10000 : x;
}
uint32_t bit(uint64_t v, unsigned i) { return uint32_t(v >> i) & 1; }
uint64_t wide(uint32_t lo, uint32_t hi) { return uint64_t(lo) | uint64_t(hi) << 32; }

/// Bits [off, off + width) of v (64 bits wide), zero-extended.
uint64_t field(uint64_t v, unsigned off, unsigned width) {
  uint64_t r = 0;
  for (unsigned i = 0; i < width && off + i < 64; ++i)
    r |= uint64_t(bit(v, off + i)) << i;
  return r;
}
/// Sign-extends the low `width` bits of v (width >= 1).
int64_t sext(uint64_t v, unsigned width) {
  int64_t x = int64_t(field(v, 0, width));
  return bit(v, width - 1) ? x - (int64_t(1) << width) * (width < 64) : x;
}

int popcount(uint64_t v) {
  int n = 0;
  for (unsigned i = 0; i < 64; ++i)
    n += bit(v, i);
  return n;
}
/// Index counted from the MSB (bit 31 = 0) of the first 1 bit; -1 if none.
uint32_t firstOneFromMsb(uint32_t v) {
  for (int i = 31; i >= 0; --i)
    if (bit(v, i))
      return uint32_t(31 - i);
  return ~0u;
}
/// Index from the LSB of the first 1 bit; -1 if none.
uint32_t firstOneFromLsb(uint64_t v, unsigned width) {
  for (unsigned i = 0; i < width; ++i)
    if (bit(v, i))
      return i;
  return ~0u;
}
/// "First bit opposite the sign bit, counted from the MSB" (V_FFBH_I32,
/// S_FLBIT_I32); -1 when every bit equals the sign (0 and -1). LLVM relies
/// on the count including the sign bit's position: its i64 -> f32 lowering
/// shifts left by v_ffbh_i32(hi) - 1 to leave one sign bit.
uint32_t firstOppositeSign(uint32_t v) {
  unsigned s = bit(v, 31);
  for (int i = 30; i >= 0; --i)
    if (bit(v, i) != s)
      return uint32_t(31 - i);
  return ~0u;
}
uint32_t reverse32(uint32_t v) {
  uint32_t r = 0;
  for (unsigned i = 0; i < 32; ++i)
    r |= bit(v, i) << (31 - i);
  return r;
}
uint32_t median3(int64_t a, int64_t b, int64_t c) {
  int64_t v[3] = {a, b, c};
  std::sort(v, v + 3);
  return uint32_t(v[1]);
}

/// V_PERM_B32's byte_permute over in = {S0, S1} (S1 the low dword).
uint32_t permByteRef(uint32_t s0, uint32_t s1, unsigned sel) {
  uint8_t in[8];
  for (int i = 0; i < 4; ++i) {
    in[i] = uint8_t(s1 >> (8 * i));
    in[4 + i] = uint8_t(s0 >> (8 * i));
  }
  if (sel >= 13) return 0xff;
  if (sel == 12) return 0x00;
  if (sel == 11) return (in[7] >> 7) * 0xff;
  if (sel == 10) return (in[5] >> 7) * 0xff;
  if (sel == 9) return (in[3] >> 7) * 0xff;
  if (sel == 8) return (in[1] >> 7) * 0xff;
  return in[sel];
}
uint32_t permRef(uint32_t s0, uint32_t s1, uint32_t s2) {
  uint32_t r = 0;
  for (int i = 0; i < 4; ++i)
    r |= permByteRef(s0, s1, (s2 >> (8 * i)) & 0xff) << (8 * i);
  return r;
}

/// Compares output row k of a kernel with rows[k] on every lane.
void compareRows(const std::string &kernel, const std::vector<Row> &rows,
                 const std::vector<uint32_t> &out, const std::vector<uint32_t> &a,
                 const std::vector<uint32_t> &b, const std::vector<uint32_t> &c) {
  std::vector<uint32_t> want(rows.size() * 64);
  for (size_t k = 0; k < rows.size(); ++k)
    for (int l = 0; l < 64; ++l)
      want[k * 64 + l] = rows[k].ref(a[l], b[l], c[l], l);
  // f64 NaNs: either payload is accepted, for both dwords.
  for (size_t k = 0; k + 1 < rows.size(); ++k)
    if (rows[k].nan == Row::F64NaN)
      for (int l = 0; l < 64; ++l) {
        size_t lo = k * 64 + l, hi = lo + 64;
        if (std::isnan(doubleOf(wide(want[lo], want[hi]))) &&
            std::isnan(doubleOf(wide(out[lo], out[hi])))) {
          want[lo] = out[lo];
          want[hi] = out[hi];
        }
      }
  auto isNaN16 = [](uint32_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); };
  auto isNaNBf16 = [](uint32_t h) { return (h & 0x7f80) == 0x7f80 && (h & 0x7f); };
  for (size_t k = 0; k < rows.size(); ++k) {
    int bad = 0;
    for (int l = 0; l < 64; ++l) {
      uint32_t got = out[k * 64 + l], w = want[k * 64 + l];
      bool same = got == w || w == kAny ||
                  (rows[k].nan == Row::F32NaN && std::isnan(floatOf(got)) &&
                   std::isnan(floatOf(w))) ||
                  (rows[k].nan == Row::F16NaN && (got >> 16) == (w >> 16) &&
                   isNaN16(got & 0xffff) && isNaN16(w & 0xffff)) ||
                  (rows[k].nan == Row::PkBf16NaN &&
                   ((got ^ w) & 0xffff) * !(isNaNBf16(got & 0xffff) && isNaNBf16(w & 0xffff)) == 0 &&
                   ((got ^ w) >> 16) * !(isNaNBf16(got >> 16) && isNaNBf16(w >> 16)) == 0) ||
                  (rows[k].nan == Row::PkF16NaN &&
                   ((got ^ w) & 0xffff) * !(isNaN16(got & 0xffff) && isNaN16(w & 0xffff)) == 0 &&
                   ((got ^ w) >> 16) * !(isNaN16(got >> 16) && isNaN16(w >> 16)) == 0);
      if (!same && bad++ < 4)
        ADD_FAILURE() << kernel << " row " << k << " " << rows[k].name
                      << " lane " << l << ": a=" << hex(a[l])
                      << " b=" << hex(b[l]) << " c=" << hex(c[l])
                      << " got " << hex(got) << " expected " << hex(w);
    }
  }
}

class Alu : public EmuTest {
protected:
  /// Runs `kernel` (arguments a, b, c, out) on one wave and checks every
  /// row of out against `rows`.
  void run(const std::string &kernel, const std::vector<Row> &rows,
           const std::vector<uint32_t> &a, const std::vector<uint32_t> &b,
           const std::vector<uint32_t> &c) {
    auto m = load(kernel);
    ASSERT_TRUE(m);
    uint64_t da = upload(a), db = upload(b), dc = upload(c),
             dout = alloc(rows.size() * 64 * 4, 0xcd);
    EMU_LAUNCH(*m, kernel, {1, 1, 1}, {64, 1, 1},
               ArgPack().add(da).add(db).add(dc).add(dout));
    compareRows(kernel, rows, download<uint32_t>(dout, rows.size() * 64), a, b, c);
  }
  std::vector<uint32_t> random32() {
    std::vector<uint32_t> v(64);
    for (auto &x : v)
      x = uint32_t(rng());
    return v;
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// valu_int.s
//===----------------------------------------------------------------------===//

namespace {

// Lanes 0..15 of a, b, c: the cases the random lanes rarely hit (shift and
// field counts of 0, 31, 32 and more, signed limits, v_perm_b32's constant
// selectors, 16-bit limits).
const uint32_t kIntEdge[16][3] = {
    {0, 0, 0},
    {0xffffffff, 0xffffffff, 0xffffffff},
    {0x80000000, 0x7fffffff, 1},
    {0x7fffffff, 0x80000000, 0x80000000},
    {1, 32, 32},
    {0x12345678, 33, 0x0c0d0e0f},
    {0xdeadbeef, 16, 16},
    {0x0000cccc, 0xffff3333, 0x08090a0b},
    {0xffff0000, 0x0000ffff, 31},
    {0x00010000, 28, 8},
    {1, 5, 0x0d0c0b0a},
    {0x40000000, 0xfffffffe, 3},
    {0xffff8000, 0x00008000, 0xffffff00},
    {0xfffe7960, 0x000186a0, 0x10},
    {0x0000ffff, 0x00010000, 0x3f},
    {0x00008000, 0x00007fff, 0x21},
};


std::vector<Row> valuIntRows() {
  // 16-bit VOP1/VOP2 results: on gfx9 the high half of the destination is
  // written with zeros (LLVM: GCNSubtarget::zeroesHigh16BitsOfDest).
  auto u16 = [](int64_t v) { return uint32_t(v) & 0xffff; };
  auto lo16 = [](uint32_t v) { return v & 0xffff; };
  auto f = [](float x) { return bitsOf(x); };
  return {
      {"v_add_u32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(uint64_t(a) + b); }},
      {"v_sub_u32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(int64_t(a) - b); }},
      {"v_subrev_u32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(int64_t(b) - a); }},
      // clamp on an integer op saturates to the result type's range.
      {"v_add_u32 clamp", [](uint32_t a, uint32_t b, uint32_t, int) { return satU32(int64_t(a) + b); }},
      {"v_sub_u32 clamp", [](uint32_t a, uint32_t b, uint32_t, int) { return satU32(int64_t(a) - b); }},
      {"v_subrev_u32 clamp", [](uint32_t a, uint32_t b, uint32_t, int) { return satU32(int64_t(b) - a); }},
      {"v_mul_lo_u32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(uint64_t(a) * b); }},
      {"v_mul_hi_u32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t((uint64_t(a) * b) >> 32); }},
      {"v_mul_hi_i32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(uint64_t(sx(a) * sx(b)) >> 32); }},
      {"v_min_u32", [](uint32_t a, uint32_t b, uint32_t, int) { return a < b ? a : b; }},
      {"v_max_u32", [](uint32_t a, uint32_t b, uint32_t, int) { return a > b ? a : b; }},
      {"v_min_i32", [](uint32_t a, uint32_t b, uint32_t, int) { return sx(a) < sx(b) ? a : b; }},
      {"v_max_i32", [](uint32_t a, uint32_t b, uint32_t, int) { return sx(a) > sx(b) ? a : b; }},
      {"v_min3_u32", [](uint32_t a, uint32_t b, uint32_t c, int) { return std::min({a, b, c}); }},
      {"v_max3_u32", [](uint32_t a, uint32_t b, uint32_t c, int) { return std::max({a, b, c}); }},
      {"v_med3_u32", [](uint32_t a, uint32_t b, uint32_t c, int) { return median3(a, b, c); }},
      {"v_min3_i32", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(std::min({sx(a), sx(b), sx(c)})); }},
      {"v_max3_i32", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(std::max({sx(a), sx(b), sx(c)})); }},
      {"v_med3_i32", [](uint32_t a, uint32_t b, uint32_t c, int) { return median3(sx(a), sx(b), sx(c)); }},
      // Offset S1[4:0], width S2[4:0]; the signed form sign-extends the field
      // of the arithmetically shifted S0 from its top bit; width 0 gives 0.
      {"v_bfe_u32", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(field(a, b & 31, c & 31)); }},
      {"v_bfe_i32", [](uint32_t a, uint32_t b, uint32_t c, int) {
         unsigned w = c & 31;
         return w == 0 ? 0u : uint32_t(sext(uint64_t(sx(a)) >> (b & 31), w));
       }},
      {"v_bfi_b32", [](uint32_t a, uint32_t b, uint32_t c, int) {
         uint32_t r = 0;
         for (unsigned i = 0; i < 32; ++i)
           r |= (bit(a, i) ? bit(b, i) : bit(c, i)) << i;
         return r;
       }},
      {"v_bfm_b32", [](uint32_t a, uint32_t b, uint32_t, int) {
         uint32_t r = 0;
         for (unsigned i = 0; i < (a & 31); ++i)
           if ((b & 31) + i < 32)
             r |= 1u << ((b & 31) + i);
         return r;
       }},
      {"v_alignbit_b32", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(field(wide(b, a), c & 31, 32)); }},
      {"v_alignbyte_b32", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(field(wide(b, a), 8 * (c & 3), 32)); }},
      {"v_bcnt_u32_b32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(popcount(a)) + b; }},
      {"v_ffbh_u32", [](uint32_t a, uint32_t, uint32_t, int) { return firstOneFromMsb(a); }},
      {"v_ffbl_b32", [](uint32_t a, uint32_t, uint32_t, int) { return firstOneFromLsb(a, 32); }},
      {"v_ffbh_i32", [](uint32_t a, uint32_t, uint32_t, int) { return firstOppositeSign(a); }},
      {"v_bfrev_b32", [](uint32_t a, uint32_t, uint32_t, int) { return reverse32(a); }},
      {"v_not_b32", [](uint32_t a, uint32_t, uint32_t, int) { return a ^ 0xffffffffu; }},
      // Shift counts: the low 5 bits of the count operand (src0 of *rev).
      {"v_lshlrev_b32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(field(uint64_t(a) << (b & 31), 0, 32)); }},
      {"v_lshrrev_b32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(field(a, b & 31, 32)); }},
      {"v_ashrrev_i32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(sx(a) / (int64_t(1) << (b & 31)) - (sx(a) < 0 && sx(a) % (int64_t(1) << (b & 31)) ? 1 : 0)); }},
      {"v_lshl_add_u32", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t((uint64_t(a) << (b & 31)) + c); }},
      {"v_add_lshl_u32", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t((uint64_t(a) + b) << (c & 31)); }},
      {"v_lshl_or_b32", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(uint64_t(a) << (b & 31)) | c; }},
      {"v_and_or_b32", [](uint32_t a, uint32_t b, uint32_t c, int) { return (a & b) | c; }},
      {"v_or3_b32", [](uint32_t a, uint32_t b, uint32_t c, int) { return a | b | c; }},
      {"v_add3_u32", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(uint64_t(a) + b + c); }},
      {"v_xad_u32", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(uint64_t(a ^ b) + c); }},
      {"v_mad_u32_u16", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(uint64_t(a & 0xffff) * (b & 0xffff) + c); }},
      {"v_perm_b32", [](uint32_t a, uint32_t b, uint32_t c, int) { return permRef(a, b, c); }},
      {"v_perm_b32 sel&0x0f", [](uint32_t a, uint32_t b, uint32_t c, int) { return permRef(a, b, c & 0x0f0f0f0f); }},
      // Saturating 32 -> 16-bit conversions, S0 to the low half.
      {"v_cvt_pk_u16_u32", [](uint32_t a, uint32_t b, uint32_t, int) {
         return (a > 0xffff ? 0xffffu : a) | (b > 0xffff ? 0xffffu : b) << 16;
       }},
      {"v_cvt_pk_i16_i32", [](uint32_t a, uint32_t b, uint32_t, int) {
         auto s = [](uint32_t v) { return uint32_t(std::clamp<int64_t>(sx(v), -32768, 32767)) & 0xffff; };
         return s(a) | s(b) << 16;
       }},
      {"v_add_u16", [u16](uint32_t a, uint32_t b, uint32_t, int) { return u16((a & 0xffff) + (b & 0xffff)); }},
      {"v_sub_u16", [u16](uint32_t a, uint32_t b, uint32_t, int) { return u16(int64_t(a & 0xffff) - (b & 0xffff)); }},
      {"v_subrev_u16", [u16](uint32_t a, uint32_t b, uint32_t, int) { return u16(int64_t(b & 0xffff) - (a & 0xffff)); }},
      {"v_mul_lo_u16", [u16](uint32_t a, uint32_t b, uint32_t, int) { return u16(int64_t(a & 0xffff) * (b & 0xffff)); }},
      {"v_lshlrev_b16", [u16](uint32_t a, uint32_t b, uint32_t, int) { return u16(int64_t(a & 0xffff) << (b & 15)); }},
      {"v_lshrrev_b16", [lo16](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(field(lo16(a), b & 15, 16)); }},
      {"v_ashrrev_i16", [u16](uint32_t a, uint32_t b, uint32_t, int) { return u16(sext(uint64_t(sx16(a)) >> (b & 15), 16)); }},
      {"v_max_u16", [lo16](uint32_t a, uint32_t b, uint32_t, int) { return std::max(lo16(a), lo16(b)); }},
      {"v_min_u16", [lo16](uint32_t a, uint32_t b, uint32_t, int) { return std::min(lo16(a), lo16(b)); }},
      {"v_max_i16", [u16](uint32_t a, uint32_t b, uint32_t, int) { return u16(std::max(sx16(a), sx16(b))); }},
      {"v_min_i16", [u16](uint32_t a, uint32_t b, uint32_t, int) { return u16(std::min(sx16(a), sx16(b))); }},
      {"v_add_u16 clamp", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(std::min<int64_t>((a & 0xffff) + (b & 0xffff), 0xffff)); }},
      {"v_sub_u16 clamp", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(std::max<int64_t>(int64_t(a & 0xffff) - (b & 0xffff), 0)); }},
      {"v_cvt_f32_ubyte0", [f](uint32_t a, uint32_t, uint32_t, int) { return f(float(field(a, 0, 8))); }},
      {"v_cvt_f32_ubyte1", [f](uint32_t a, uint32_t, uint32_t, int) { return f(float(field(a, 8, 8))); }},
      {"v_cvt_f32_ubyte2", [f](uint32_t a, uint32_t, uint32_t, int) { return f(float(field(a, 16, 8))); }},
      {"v_cvt_f32_ubyte3", [f](uint32_t a, uint32_t, uint32_t, int) { return f(float(field(a, 24, 8))); }},
      // Bits of S0 for the lanes below this one (lanes 0..31, then 32..63).
      {"v_mbcnt_lo_u32_b32", [](uint32_t a, uint32_t b, uint32_t, int l) {
         int n = 0;
         for (int i = 0; i < std::min(l, 32); ++i)
           n += bit(a, i);
         return uint32_t(n) + b;
       }},
      {"v_mbcnt_hi_u32_b32", [](uint32_t a, uint32_t b, uint32_t, int l) {
         int n = 0;
         for (int i = 32; i < l; ++i)
           n += bit(a, i - 32);
         return uint32_t(n) + b;
       }},
      {"v_xnor_b32", [](uint32_t a, uint32_t b, uint32_t, int) { return ~(a ^ b); }},
      // 64-bit shifts of {b, a} by c[5:0].
      {"v_lshlrev_b64 lo", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(field(wide(a, b), 0, 64 - (c & 63)) << (c & 63)); }},
      {"v_lshlrev_b64 hi", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t((field(wide(a, b), 0, 64 - (c & 63)) << (c & 63)) >> 32); }},
      {"v_lshrrev_b64 lo", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(field(wide(a, b), c & 63, 32)); }},
      {"v_lshrrev_b64 hi", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(field(wide(a, b), (c & 63) + 32, 32)); }},
      {"v_ashrrev_i64 lo", [](uint32_t a, uint32_t b, uint32_t c, int) {
         uint64_t v = wide(a, b);
         uint64_t r = field(v, c & 63, 64);
         for (unsigned i = 64 - (c & 63); i < 64; ++i)
           r |= uint64_t(bit(v, 63)) << i;
         return uint32_t(r);
       }},
      {"v_ashrrev_i64 hi", [](uint32_t a, uint32_t b, uint32_t c, int) {
         uint64_t v = wide(a, b);
         uint64_t r = field(v, c & 63, 64);
         for (unsigned i = 64 - (c & 63); i < 64; ++i)
           r |= uint64_t(bit(v, 63)) << i;
         return uint32_t(r >> 32);
       }},
      // {D} = S0 * S1 + {c, b} (u64 / i64).
      {"v_mad_u64_u32 lo", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(uint64_t(a) * b + wide(b, c)); }},
      {"v_mad_u64_u32 hi", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t((uint64_t(a) * b + wide(b, c)) >> 32); }},
      {"v_mad_i64_i32 lo", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(uint64_t(sx(a) * sx(b)) + wide(b, c)); }},
      {"v_mad_i64_i32 hi", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t((uint64_t(sx(a) * sx(b)) + wide(b, c)) >> 32); }},
  };
}

} // namespace

TEST_P(Alu, ValuInt) {
  auto a = random32(), b = random32(), c = random32();
  for (int l = 0; l < 16; ++l) {
    a[l] = kIntEdge[l][0];
    b[l] = kIntEdge[l][1];
    c[l] = kIntEdge[l][2];
  }
  // Lanes 16..31: small field offsets and widths for v_bfe (a random c has
  // width c[4:0] anyway; these make offset + width < 32 common).
  for (int l = 16; l < 32; ++l) {
    b[l] &= 15;
    c[l] &= 15;
  }
  auto rows = valuIntRows();
  ASSERT_EQ(rows.size(), 76u);
  run("valu_int", rows, a, b, c);
}
//===----------------------------------------------------------------------===//
// salu.s
//===----------------------------------------------------------------------===//

namespace {

const uint32_t kSaluEdge[16][3] = {
    {0, 0, 0},
    {0xffffffff, 0xffffffff, 0xffffffff}, // carry/borrow in = c & 1 = 1
    {0x80000000, 1, 0},                   // s_absdiff_i32 wraps in 32 bits
    {0x7fffffff, 0x80000000, 1},          // s_sub_i32 overflows
    {0x80000000, 0x80000000, 1},          // s_add_i32 overflows
    {0x12345678, 0x00100008, 0x00200010}, // fields (offset 8, width 16) ...
    {0xdeadbeef, 0x0018000c, 0x0030001c}, // ... running past the top bit
    {0x0000cccc, 0xffff3333, 63},
    {0xffff3333, 32, 32},                 // 32-bit shifts by 32 use 0
    {1, 0x001f0001, 64},                  // 64-bit shifts by 64 use 0
    {0x80000000, 0xffffffff, 0x003f0000},
    {0, 0x80000000, 0x7f},
    {0x00000080, 0x00008000, 0x12},
    {0x7fff8001, 5, 3},                   // s_addk_i32 0x7fff overflows
    {0x000f0000, 0xf0000000, 0},          // s_wqm/s_quadmask quads
    {0xffffffff, 0, 1},
};

std::vector<Row> saluRows() {
  using W = std::function<uint64_t(uint32_t, uint32_t, uint32_t)>;
  // A 64-bit result's low and high dwords as two rows.
  auto lo = [](W f) { return [f](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(f(a, b, c)); }; };
  auto hi = [](W f) { return [f](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(f(a, b, c) >> 32); }; };
  auto nz = [](W f) { return [f](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(f(a, b, c) != 0); }; };
  auto d32 = [](std::function<uint32_t(uint32_t, uint32_t, uint32_t)> f) {
    return [f](uint32_t a, uint32_t b, uint32_t c, int) { return f(a, b, c); };
  };
  auto scc = [](std::function<bool(uint32_t, uint32_t, uint32_t)> f) {
    return [f](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(f(a, b, c)); };
  };
  auto sovf = [](int64_t exact) { return exact < INT32_MIN || exact > INT32_MAX; };
  // s_bfe_*: offset S1[4:0] (S1[5:0]), width S1[22:16]; signed forms
  // sign-extend the field of the arithmetically shifted S0.
  W bfeU32 = [](uint32_t a, uint32_t b, uint32_t) { return field(a, b & 31, (b >> 16) & 0x7f); };
  W bfeI32 = [](uint32_t a, uint32_t b, uint32_t) -> uint64_t {
    unsigned w = (b >> 16) & 0x7f;
    return w ? uint32_t(sext(uint64_t(sx(a)) >> (b & 31), w)) : 0;
  };
  W bfeU64 = [](uint32_t a, uint32_t b, uint32_t c) { return field(wide(a, b), c & 63, (c >> 16) & 0x7f); };
  W bfeI64 = [](uint32_t a, uint32_t b, uint32_t c) -> uint64_t {
    unsigned w = (c >> 16) & 0x7f, off = c & 63;
    if (!w)
      return 0;
    uint64_t v = wide(a, b), shifted = field(v, off, 64);
    for (unsigned i = 64 - off; i < 64; ++i) // arithmetic shift fill
      shifted |= uint64_t(bit(v, 63)) << i;
    return uint64_t(sext(shifted, w));
  };
  W lshl32 = [](uint32_t a, uint32_t b, uint32_t) { return field(uint64_t(a) << (b & 31), 0, 32); };
  W lshr32 = [](uint32_t a, uint32_t b, uint32_t) { return field(a, b & 31, 32); };
  W ashr32 = [](uint32_t a, uint32_t b, uint32_t) { return uint64_t(uint32_t(sext(field(a, b & 31, 32 - (b & 31)), 32 - (b & 31)))); };
  W lshl64 = [](uint32_t a, uint32_t b, uint32_t c) { return field(wide(a, b), 0, 64 - (c & 63)) << (c & 63); };
  W lshr64 = [](uint32_t a, uint32_t b, uint32_t c) { return field(wide(a, b), c & 63, 64); };
  W ashr64 = [](uint32_t a, uint32_t b, uint32_t c) {
    uint64_t v = wide(a, b), r = field(v, c & 63, 64);
    for (unsigned i = 64 - (c & 63); i < 64; ++i)
      r |= uint64_t(bit(v, 63)) << i;
    return r;
  };
  W brev64 = [](uint32_t a, uint32_t b, uint32_t) { return wide(reverse32(b), reverse32(a)); };
  W bcnt0 = [](uint32_t a, uint32_t, uint32_t) { return uint64_t(32 - popcount(a)); };
  W bcnt1 = [](uint32_t a, uint32_t, uint32_t) { return uint64_t(popcount(a)); };
  W bcnt1w = [](uint32_t a, uint32_t b, uint32_t) { return uint64_t(popcount(wide(a, b))); };
  // D = S0 - S1 in 32 bits, negated if negative (CDNA3: "D.i = S0.i - S1.i;
  // if (D.i < 0) D.i = -D.i"; the GCN3 guide's example: 0x80000000, 1 ->
  // 0x7fffffff).
  W absdiff = [](uint32_t a, uint32_t b, uint32_t) {
    int32_t d = int32_t(a - b);
    return uint64_t(d < 0 ? 0u - uint32_t(d) : uint32_t(d));
  };
  W bfm64 = [](uint32_t a, uint32_t b, uint32_t) {
    uint64_t r = 0;
    for (unsigned i = 0; i < (a & 63); ++i)
      if ((b & 63) + i < 64)
        r |= uint64_t(1) << ((b & 63) + i);
    return r;
  };
  // S_LSHLn_ADD_U32: 64-bit (S0 << n) + S1; SCC when it needs bit 32 or up.
  auto lshlAdd = [](unsigned n) -> W {
    return [n](uint32_t a, uint32_t b, uint32_t) { return (uint64_t(a) << n) + b; };
  };
  W abs32 = [](uint32_t a, uint32_t, uint32_t) { return uint64_t(sx(a) < 0 ? uint32_t(-sx(a)) : a); };
  W not32 = [](uint32_t a, uint32_t, uint32_t) { return uint64_t(~a); };
  W xnor32 = [](uint32_t a, uint32_t b, uint32_t) { return uint64_t(~(a ^ b)); };
  W wqm = [](uint32_t a, uint32_t b, uint32_t) {
    uint64_t v = wide(a, b), r = 0;
    for (unsigned q = 0; q < 16; ++q)
      if (field(v, 4 * q, 4))
        r |= uint64_t(0xf) << (4 * q);
    return r;
  };
  W quadmask = [](uint32_t a, uint32_t b, uint32_t) {
    uint64_t v = wide(a, b), r = 0;
    for (unsigned q = 0; q < 16; ++q)
      if (field(v, 4 * q, 4))
        r |= uint64_t(1) << q;
    return r;
  };
  auto firstZero64 = [](uint64_t v) { return firstOneFromLsb(~v, 64); };
  auto flbit64 = [](uint64_t v) -> uint32_t {
    for (int i = 63; i >= 0; --i)
      if (bit(v, i))
        return uint32_t(63 - i);
    return ~0u;
  };
  return {
      {"s_add_u32", d32([](uint32_t a, uint32_t b, uint32_t) { return a + b; })},
      {"s_add_u32 scc (carry)", scc([](uint32_t a, uint32_t b, uint32_t) { return uint64_t(a) + b > 0xffffffffu; })},
      {"s_sub_u32", d32([](uint32_t a, uint32_t b, uint32_t) { return a - b; })},
      {"s_sub_u32 scc (borrow)", scc([](uint32_t a, uint32_t b, uint32_t) { return b > a; })},
      {"s_add_i32", d32([](uint32_t a, uint32_t b, uint32_t) { return a + b; })},
      {"s_add_i32 scc (overflow)", scc([sovf](uint32_t a, uint32_t b, uint32_t) { return sovf(sx(a) + sx(b)); })},
      {"s_sub_i32", d32([](uint32_t a, uint32_t b, uint32_t) { return a - b; })},
      {"s_sub_i32 scc (overflow)", scc([sovf](uint32_t a, uint32_t b, uint32_t) { return sovf(sx(a) - sx(b)); })},
      {"s_addc_u32", d32([](uint32_t a, uint32_t b, uint32_t c) { return uint32_t(uint64_t(a) + b + (c & 1)); })},
      {"s_addc_u32 scc", scc([](uint32_t a, uint32_t b, uint32_t c) { return uint64_t(a) + b + (c & 1) > 0xffffffffu; })},
      {"s_subb_u32", d32([](uint32_t a, uint32_t b, uint32_t c) { return uint32_t(int64_t(a) - b - (c & 1)); })},
      {"s_subb_u32 scc", scc([](uint32_t a, uint32_t b, uint32_t c) { return int64_t(a) - b - (c & 1) < 0; })},
      {"s_min_i32", d32([](uint32_t a, uint32_t b, uint32_t) { return sx(a) < sx(b) ? a : b; })},
      {"s_min_i32 scc (S0 < S1)", scc([](uint32_t a, uint32_t b, uint32_t) { return sx(a) < sx(b); })},
      {"s_max_i32", d32([](uint32_t a, uint32_t b, uint32_t) { return sx(a) > sx(b) ? a : b; })},
      {"s_max_i32 scc (S0 > S1)", scc([](uint32_t a, uint32_t b, uint32_t) { return sx(a) > sx(b); })},
      {"s_min_u32", d32([](uint32_t a, uint32_t b, uint32_t) { return a < b ? a : b; })},
      {"s_min_u32 scc", scc([](uint32_t a, uint32_t b, uint32_t) { return a < b; })},
      {"s_max_u32", d32([](uint32_t a, uint32_t b, uint32_t) { return a > b ? a : b; })},
      {"s_max_u32 scc", scc([](uint32_t a, uint32_t b, uint32_t) { return a > b; })},
      {"s_cselect_b32", d32([](uint32_t a, uint32_t b, uint32_t c) { return (c & 1) ? a : b; })},
      {"s_bfe_u32", d32([bfeU32](uint32_t a, uint32_t b, uint32_t c) { return uint32_t(bfeU32(a, b & 0x001f001f, c)); })},
      {"s_bfe_u32 scc", nz([bfeU32](uint32_t a, uint32_t b, uint32_t c) { return bfeU32(a, b & 0x001f001f, c); })},
      {"s_bfe_i32", d32([bfeI32](uint32_t a, uint32_t b, uint32_t c) { return uint32_t(bfeI32(a, b & 0x001f001f, c)); })},
      {"s_bfe_i32 scc", nz([bfeI32](uint32_t a, uint32_t b, uint32_t c) { return bfeI32(a, b & 0x001f001f, c); })},
      {"s_bfe_u32 (junk bits)", d32([bfeU32](uint32_t a, uint32_t b, uint32_t c) { return uint32_t(bfeU32(a, b & 0xff9fffff, c)); })},
      {"s_bfe_i32 (junk bits)", d32([bfeI32](uint32_t a, uint32_t b, uint32_t c) { return uint32_t(bfeI32(a, b & 0xff9fffff, c)); })},
      {"s_bfe_u64 lo", lo([bfeU64](uint32_t a, uint32_t b, uint32_t c) { return bfeU64(a, b, c & 0x003f003f); })},
      {"s_bfe_u64 hi", hi([bfeU64](uint32_t a, uint32_t b, uint32_t c) { return bfeU64(a, b, c & 0x003f003f); })},
      {"s_bfe_u64 scc", nz([bfeU64](uint32_t a, uint32_t b, uint32_t c) { return bfeU64(a, b, c & 0x003f003f); })},
      {"s_bfe_i64 lo", lo([bfeI64](uint32_t a, uint32_t b, uint32_t c) { return bfeI64(a, b, c & 0x003f003f); })},
      {"s_bfe_i64 hi", hi([bfeI64](uint32_t a, uint32_t b, uint32_t c) { return bfeI64(a, b, c & 0x003f003f); })},
      {"s_bfe_i64 scc", nz([bfeI64](uint32_t a, uint32_t b, uint32_t c) { return bfeI64(a, b, c & 0x003f003f); })},
      {"s_lshl_b32", lo(lshl32)}, {"s_lshl_b32 scc", nz(lshl32)},
      {"s_lshr_b32", lo(lshr32)}, {"s_lshr_b32 scc", nz(lshr32)},
      {"s_ashr_i32", lo(ashr32)}, {"s_ashr_i32 scc", nz(ashr32)},
      {"s_lshl_b64 lo", lo(lshl64)}, {"s_lshl_b64 hi", hi(lshl64)}, {"s_lshl_b64 scc", nz(lshl64)},
      {"s_lshr_b64 lo", lo(lshr64)}, {"s_lshr_b64 hi", hi(lshr64)}, {"s_lshr_b64 scc", nz(lshr64)},
      {"s_ashr_i64 lo", lo(ashr64)}, {"s_ashr_i64 hi", hi(ashr64)}, {"s_ashr_i64 scc", nz(ashr64)},
      {"s_brev_b32", d32([](uint32_t a, uint32_t, uint32_t) { return reverse32(a); })},
      {"s_brev_b64 lo", lo(brev64)}, {"s_brev_b64 hi", hi(brev64)},
      {"s_ff0_i32_b32", d32([](uint32_t a, uint32_t, uint32_t) { return firstOneFromLsb(~a, 32); })},
      {"s_ff1_i32_b32", d32([](uint32_t a, uint32_t, uint32_t) { return firstOneFromLsb(a, 32); })},
      {"s_flbit_i32_b32", d32([](uint32_t a, uint32_t, uint32_t) { return firstOneFromMsb(a); })},
      {"s_flbit_i32", d32([](uint32_t a, uint32_t, uint32_t) { return firstOppositeSign(a); })},
      {"s_ff0_i32_b64", d32([firstZero64](uint32_t a, uint32_t b, uint32_t) { return firstZero64(wide(a, b)); })},
      {"s_ff1_i32_b64", d32([](uint32_t a, uint32_t b, uint32_t) { return firstOneFromLsb(wide(a, b), 64); })},
      {"s_flbit_i32_b64", d32([flbit64](uint32_t a, uint32_t b, uint32_t) { return flbit64(wide(a, b)); })},
      {"s_bcnt0_i32_b32", lo(bcnt0)}, {"s_bcnt0_i32_b32 scc", nz(bcnt0)},
      {"s_bcnt1_i32_b32", lo(bcnt1)}, {"s_bcnt1_i32_b32 scc", nz(bcnt1)},
      {"s_bcnt1_i32_b64", lo(bcnt1w)}, {"s_bcnt1_i32_b64 scc", nz(bcnt1w)},
      {"s_absdiff_i32", lo(absdiff)}, {"s_absdiff_i32 scc", nz(absdiff)},
      {"s_mul_i32", d32([](uint32_t a, uint32_t b, uint32_t) { return uint32_t(sx(a) * sx(b)); })},
      {"s_mul_hi_u32", d32([](uint32_t a, uint32_t b, uint32_t) { return uint32_t((uint64_t(a) * b) >> 32); })},
      {"s_mul_hi_i32", d32([](uint32_t a, uint32_t b, uint32_t) { return uint32_t(uint64_t(sx(a) * sx(b)) >> 32); })},
      {"s_pack_ll_b32_b16", d32([](uint32_t a, uint32_t b, uint32_t) { return uint32_t(field(a, 0, 16) | field(b, 0, 16) << 16); })},
      {"s_pack_lh_b32_b16", d32([](uint32_t a, uint32_t b, uint32_t) { return uint32_t(field(a, 0, 16) | field(b, 16, 16) << 16); })},
      {"s_pack_hh_b32_b16", d32([](uint32_t a, uint32_t b, uint32_t) { return uint32_t(field(a, 16, 16) | field(b, 16, 16) << 16); })},
      {"s_bfm_b32", d32([](uint32_t a, uint32_t b, uint32_t) {
         uint32_t r = 0;
         for (unsigned i = 0; i < (a & 31); ++i)
           if ((b & 31) + i < 32)
             r |= 1u << ((b & 31) + i);
         return r;
       })},
      {"s_bfm_b64 lo", lo(bfm64)}, {"s_bfm_b64 hi", hi(bfm64)},
      {"s_lshl1_add_u32", lo(lshlAdd(1))}, {"s_lshl1_add_u32 scc", nz([lshlAdd](uint32_t a, uint32_t b, uint32_t c) { return lshlAdd(1)(a, b, c) >> 32; })},
      {"s_lshl2_add_u32", lo(lshlAdd(2))}, {"s_lshl2_add_u32 scc", nz([lshlAdd](uint32_t a, uint32_t b, uint32_t c) { return lshlAdd(2)(a, b, c) >> 32; })},
      {"s_lshl3_add_u32", lo(lshlAdd(3))}, {"s_lshl3_add_u32 scc", nz([lshlAdd](uint32_t a, uint32_t b, uint32_t c) { return lshlAdd(3)(a, b, c) >> 32; })},
      {"s_lshl4_add_u32", lo(lshlAdd(4))}, {"s_lshl4_add_u32 scc", nz([lshlAdd](uint32_t a, uint32_t b, uint32_t c) { return lshlAdd(4)(a, b, c) >> 32; })},
      {"s_abs_i32", lo(abs32)}, {"s_abs_i32 scc", nz(abs32)},
      {"s_sext_i32_i8", d32([](uint32_t a, uint32_t, uint32_t) { return uint32_t(sext(a, 8)); })},
      {"s_sext_i32_i16", d32([](uint32_t a, uint32_t, uint32_t) { return uint32_t(sext(a, 16)); })},
      {"s_not_b32", lo(not32)}, {"s_not_b32 scc", nz(not32)},
      {"s_andn2_b32", d32([](uint32_t a, uint32_t b, uint32_t) { return a & ~b; })},
      {"s_orn2_b32", d32([](uint32_t a, uint32_t b, uint32_t) { return a | ~b; })},
      {"s_nand_b32", d32([](uint32_t a, uint32_t b, uint32_t) { return ~(a & b); })},
      {"s_nor_b32", d32([](uint32_t a, uint32_t b, uint32_t) { return ~(a | b); })},
      {"s_xnor_b32", lo(xnor32)}, {"s_xnor_b32 scc", nz(xnor32)},
      {"s_cmp_lt_i32", scc([](uint32_t a, uint32_t b, uint32_t) { return sx(a) < sx(b); })},
      {"s_cmp_lt_u32", scc([](uint32_t a, uint32_t b, uint32_t) { return a < b; })},
      {"s_bitcmp1_b32", scc([](uint32_t a, uint32_t b, uint32_t) { return bit(a, b & 31) == 1; })},
      {"s_bitcmp0_b64", scc([](uint32_t a, uint32_t b, uint32_t c) { return bit(wide(a, b), c & 63) == 0; })},
      // SOPK: the _i32 compares sign-extend SIMM16, the _u32 ones zero-extend.
      {"s_cmpk_lt_i32 0x8000", scc([](uint32_t a, uint32_t, uint32_t) { return sx(a) < -32768; })},
      {"s_cmpk_lt_u32 0x8000", scc([](uint32_t a, uint32_t, uint32_t) { return a < 0x8000u; })},
      {"s_movk_i32 0x8000", d32([](uint32_t, uint32_t, uint32_t) { return 0xffff8000u; })},
      {"s_addk_i32 0x7fff", d32([](uint32_t a, uint32_t, uint32_t) { return uint32_t(sx(a) + 0x7fff); })},
      {"s_addk_i32 scc (overflow)", scc([sovf](uint32_t a, uint32_t, uint32_t) { return sovf(sx(a) + 0x7fff); })},
      {"s_mulk_i32 0xfff0", d32([](uint32_t a, uint32_t, uint32_t) { return uint32_t(sx(a) * -16); })},
      {"s_bitset1_b32", d32([](uint32_t a, uint32_t b, uint32_t) { return a | 1u << (b & 31); })},
      {"s_bitset0_b32", d32([](uint32_t a, uint32_t b, uint32_t) { return a & ~(1u << (b & 31)); })},
      {"s_wqm_b64 lo", lo(wqm)}, {"s_wqm_b64 hi", hi(wqm)}, {"s_wqm_b64 scc", nz(wqm)},
      {"s_quadmask_b64 lo", lo(quadmask)}, {"s_quadmask_b64 hi", hi(quadmask)},
  };
}

} // namespace

TEST_P(Alu, Salu) {
  auto a = random32(), b = random32(), c = random32();
  for (int l = 0; l < 16; ++l) {
    a[l] = kSaluEdge[l][0];
    b[l] = kSaluEdge[l][1];
    c[l] = kSaluEdge[l][2];
  }
  // Lanes 16..31: sparse quads for s_wqm/s_quadmask, small shift counts.
  for (int l = 16; l < 32; ++l) {
    a[l] &= 0x01010101u << (l & 3);
    b[l] &= 0x10101010u;
    c[l] &= 0x003f003f;
  }
  auto rows = saluRows();
  ASSERT_EQ(rows.size(), 112u);
  run("salu", rows, a, b, c);
}

//===----------------------------------------------------------------------===//
// valu_float.s
//===----------------------------------------------------------------------===//

namespace {

constexpr uint32_t kQNaN = 0x7fc00000, kSNaN = 0x7f800001, kInf = 0x7f800000,
                   kNegInf = 0xff800000, kNegZero = 0x80000000;

const uint32_t kFloatEdge[16][3] = {
    {kQNaN, 0x40000000, 0x3f800000},      // v_med3_f32(NaN, 2, 1)
    {kSNaN, 0x3f800000, 0xbf800000},      // signalling NaN
    {kInf, kNegInf, 0},
    {kNegZero, 0, kNegZero},              // signed zeros
    {0, kInf, kQNaN},                     // v_mul_legacy_f32: 0 * inf
    {0x00000001, 0x807fffff, 0x00400000}, // denormals
    {0x3f000000, 0x40200000, 0x3effffff}, // 0.5, 2.5 (ties), 0.49999997
    {0xbf000000, 0xc0200000, 0x3fc00000}, // -0.5, -2.5, 1.5
    {0x4f800000, 0x4f7fffff, 0xbf800000}, // 2^32, 2^32 - 256
    {0x4f000000, 0xcf000000, 0xcf000001}, // +-2^31, -2^31 - 256
    {0x477fe000, 0x477ff000, 0x477fefff}, // 65504, 65520, just below
    {0x322bcc77, 0x33800000, 0x33000000}, // 1e-8, 2^-24, 2^-25 (f16 limits)
    {0x4b000001, 0x4b7fffff, 0x3effffff}, // 2^23 + 1, 2^24 - 1
    {0xbfc00000, 0x3f7fffff, 0x7149f2ca}, // -1.5, 0.99999994, 1e30
    {0x3f800000, kQNaN, kSNaN},
    {kNegInf, 0, 0xffc00000},
};

bool isSNaN(float x) { return std::isnan(x) && !(bitsOf(x) & 0x400000); }
float quiet(float x) { return floatOf(bitsOf(x) | 0x400000); }

/// V_MIN_F32 / V_MAX_F32 in IEEE mode (CDNA3 pseudocode): a signalling NaN
/// gives a quiet NaN; a quiet NaN gives the other operand; -0 < +0.
float minIeee(float a, float b) {
  if (isSNaN(a)) return quiet(a);
  if (isSNaN(b)) return quiet(b);
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == 0 && b == 0) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
float maxIeee(float a, float b) {
  if (isSNaN(a)) return quiet(a);
  if (isSNaN(b)) return quiet(b);
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == 0 && b == 0) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
/// V_MED3_F32 (CDNA3 pseudocode): with any NaN operand the result is
/// V_MIN3_F32 of the three; else the maximum of the two operands that are
/// not the largest (LLVM folds fmed3(NaN, x, y) to minnum(x, y) the same way).
float med3Ref(float a, float b, float c) {
  auto min3 = [](float x, float y, float z) { return minIeee(minIeee(x, y), z); };
  if (std::isnan(a) || std::isnan(b) || std::isnan(c))
    return min3(a, b, c);
  float m = maxIeee(maxIeee(a, b), c);
  if (m == a) return maxIeee(b, c);
  if (m == b) return maxIeee(a, c);
  return maxIeee(a, b);
}

/// f32 -> f16 rounding toward zero (v_cvt_pkrtz_f16_f32): the
/// round-to-nearest result, stepped one toward zero when it rounded away.
uint16_t toF16Rtz(float x) {
  uint16_t h = toF16(double(x));
  if (std::isnan(x) || std::isinf(x))
    return h;
  if (std::fabs(fromF16(h)) > std::fabs(double(x)))
    --h; // same sign: one less in magnitude (an infinity becomes 65504)
  return h;
}
uint32_t clampToI32(double v) {
  return uint32_t(int32_t(std::clamp(v, -2147483648.0, 2147483647.0)));
}
float fromHalfBits(uint32_t v) { return float(fromF16(uint16_t(v))); }
bool isSNaN16(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) && !(h & 0x200); }
bool isNaN16(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
/// V_MIN_F16 / V_MAX_F16 in IEEE mode, on half bit patterns.
uint32_t minMaxF16(uint32_t ua, uint32_t ub, bool isMax) {
  uint16_t a = ua & 0xffff, b = ub & 0xffff;
  if (isSNaN16(a)) return a | 0x200;
  if (isSNaN16(b)) return b | 0x200;
  if (isNaN16(a)) return b;
  if (isNaN16(b)) return a;
  double x = fromF16(a), y = fromF16(b);
  if (x == 0 && y == 0)
    return (bool(a & 0x8000) == isMax) ? b : a;
  return (isMax ? x > y : x < y) ? a : b;
}

std::vector<Row> valuFloatRows() {
  auto F = [](std::function<float(float, float, float)> f) {
    return [f](uint32_t a, uint32_t b, uint32_t c, int) {
      return bitsOf(f(floatOf(a), floatOf(b), floatOf(c)));
    };
  };
  auto N = Row::F32NaN, H = Row::F16NaN;
  return {
      {"v_add_f32", F([](float a, float b, float) { return a + b; }), N},
      {"v_sub_f32", F([](float a, float b, float) { return a - b; }), N},
      {"v_mul_f32", F([](float a, float b, float) { return a * b; }), N},
      // "DX9 rules": a zero operand gives +0 whatever the other (also inf,
      // NaN); LLVM's fmul_legacy folds the same way.
      {"v_mul_legacy_f32", F([](float a, float b, float) { return (a == 0 || b == 0) ? 0.0f : a * b; }), N},
      {"v_min_f32", F([](float a, float b, float) { return minIeee(a, b); }), N},
      {"v_max_f32", F([](float a, float b, float) { return maxIeee(a, b); }), N},
      {"v_min3_f32", F([](float a, float b, float c) { return minIeee(minIeee(a, b), c); }), N},
      {"v_max3_f32", F([](float a, float b, float c) { return maxIeee(maxIeee(a, b), c); }), N},
      {"v_med3_f32", F([](float a, float b, float c) { return med3Ref(a, b, c); }), N},
      // One rounding of the exact a * b + c (the host's fmaf is exact).
      {"v_fma_f32", F([](float a, float b, float c) { return std::fma(a, b, c); }), N},
      // S0 - floor(S0), at most the largest float below 1; inf -> NaN.
      {"v_fract_f32", F([](float a, float, float) {
         if (std::isnan(a) || std::isinf(a)) return std::numeric_limits<float>::quiet_NaN();
         double f = double(a) - std::floor(double(a));
         return std::min(float(f), 0x1.fffffep-1f);
       }), N},
      // Mantissa in [0.5, 1) with S0's sign and exponent as frexp (denormals
      // normalised, as LLVM folds them); inf and NaN: S0 and 0.
      {"v_frexp_mant_f32", F([](float a, float, float) {
         if (std::isnan(a) || std::isinf(a)) return a;
         int e;
         return float(std::frexp(double(a), &e));
       }), N},
      {"v_frexp_exp_i32_f32", [](uint32_t a, uint32_t, uint32_t, int) {
         float x = floatOf(a);
         if (std::isnan(x) || std::isinf(x)) return 0u;
         int e;
         std::frexp(double(x), &e);
         return uint32_t(e);
       }},
      {"v_ldexp_f32 (small exponent)", [](uint32_t a, uint32_t, uint32_t c, int) {
         return bitsOf(std::ldexp(floatOf(a), int(sext(c, 9))));
       }, N},
      {"v_ldexp_f32 (any exponent)", [](uint32_t a, uint32_t, uint32_t c, int) {
         return bitsOf(std::ldexp(floatOf(a), int32_t(c)));
       }, N},
      {"v_cvt_f32_u32", [](uint32_t, uint32_t, uint32_t c, int) { return bitsOf(float(double(c))); }},
      {"v_cvt_f32_i32", [](uint32_t, uint32_t, uint32_t c, int) { return bitsOf(float(double(int32_t(c)))); }},
      // Float -> int: truncate, saturate, NaN -> 0.
      {"v_cvt_u32_f32", [](uint32_t a, uint32_t, uint32_t, int) {
         float x = floatOf(a);
         if (std::isnan(x)) return 0u;
         double t = std::trunc(double(x));
         return t <= 0 ? 0u : t >= 4294967295.0 ? 0xffffffffu : uint32_t(t);
       }},
      {"v_cvt_i32_f32", [](uint32_t a, uint32_t, uint32_t, int) {
         float x = floatOf(a);
         return std::isnan(x) ? 0u : clampToI32(std::trunc(double(x)));
       }},
      // "D.i = (int)floor(S0.f + 0.5)", the sum rounded as an f32 add.
      {"v_cvt_rpi_i32_f32", [](uint32_t a, uint32_t, uint32_t, int) {
         float x = floatOf(a);
         if (std::isnan(x)) return 0u;
         volatile float s = x + 0.5f;
         return clampToI32(std::floor(double(s)));
       }},
      {"v_cvt_flr_i32_f32", [](uint32_t a, uint32_t, uint32_t, int) {
         float x = floatOf(a);
         return std::isnan(x) ? 0u : clampToI32(std::floor(double(x)));
       }},
      {"v_rndne_f32", F([](float a, float, float) {
         double fl = std::floor(double(a)), d = double(a) - fl;
         if (std::isnan(a) || std::isinf(a)) return a;
         double r = d > 0.5 ? fl + 1 : d < 0.5 ? fl : (std::fmod(fl, 2.0) == 0 ? fl : fl + 1);
         return std::copysign(float(r), a);
       }), N},
      {"v_floor_f32", F([](float a, float, float) { return std::floor(a); }), N},
      {"v_ceil_f32", F([](float a, float, float) { return std::ceil(a); }), N},
      {"v_trunc_f32", F([](float a, float, float) { return std::trunc(a); }), N},
      // f16 results of VOP1/VOP2 forms: the high half is written with 0.
      {"v_cvt_f16_f32", [](uint32_t a, uint32_t, uint32_t, int) { return uint32_t(toF16(double(floatOf(a)))); }, H},
      {"v_cvt_f32_f16", [](uint32_t, uint32_t, uint32_t c, int) { return bitsOf(fromHalfBits(c)); }, N},
      {"v_cvt_pkrtz_f16_f32", [](uint32_t a, uint32_t b, uint32_t, int) {
         return uint32_t(toF16Rtz(floatOf(a))) | uint32_t(toF16Rtz(floatOf(b))) << 16;
       }},
      {"v_pack_b32_f16", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(field(a, 0, 16) | field(b, 0, 16) << 16); }},
      {"v_pack_b32_f16 op_sel:[1,1]", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(field(a, 16, 16) | field(b, 16, 16) << 16); }},
      // clamp: to [0, 1], NaN to 0 (DX10 clamp mode).
      {"v_add_f32 clamp", F([](float a, float b, float) {
         float s = a + b;
         return std::isnan(s) ? 0.0f : s <= 0 ? 0.0f : s >= 1 ? 1.0f : s;
       }), N},
      {"v_mul_f32 mul:2", F([](float a, float b, float) { return float(double(a * b) * 2); }), N},
      {"v_max_f32 |a|, -b", F([](float a, float b, float) { return maxIeee(std::fabs(a), -b); }), N},
      {"v_cvt_u16_f16", [](uint32_t, uint32_t, uint32_t c, int) {
         double x = fromF16(uint16_t(c));
         return std::isnan(x) ? 0u : uint32_t(std::clamp(std::trunc(x), 0.0, 65535.0));
       }},
      {"v_cvt_i16_f16", [](uint32_t, uint32_t, uint32_t c, int) {
         double x = fromF16(uint16_t(c));
         return std::isnan(x) ? 0u : uint32_t(int32_t(std::clamp(std::trunc(x), -32768.0, 32767.0))) & 0xffff;
       }},
      {"v_cvt_f16_u16", [](uint32_t, uint32_t, uint32_t c, int) { return uint32_t(toF16(double(c & 0xffff))); }},
      {"v_cvt_f16_i16", [](uint32_t, uint32_t, uint32_t c, int) { return uint32_t(toF16(double(sx16(c)))); }},
      {"v_max_f16", [](uint32_t, uint32_t, uint32_t c, int) { return minMaxF16(c, c >> 16, true); }, H},
      {"v_min_f16", [](uint32_t, uint32_t, uint32_t c, int) { return minMaxF16(c, c >> 16, false); }, H},
      {"v_add_f16", [](uint32_t, uint32_t, uint32_t c, int) { return uint32_t(toF16(fromF16(uint16_t(c)) + fromF16(uint16_t(c >> 16)))); }, H},
      {"v_mul_f16", [](uint32_t, uint32_t, uint32_t c, int) { return uint32_t(toF16(fromF16(uint16_t(c)) * fromF16(uint16_t(c >> 16)))); }, H},
      {"v_ldexp_f16", [](uint32_t, uint32_t, uint32_t c, int) {
         return uint32_t(toF16(std::ldexp(fromF16(uint16_t(c)), int(sext(c >> 16, 6)))));
       }, H},
  };
}

/// A float with a random sign, mantissa and an exponent in [-40, 40].
uint32_t moderateFloat(std::mt19937_64 &rng) {
  uint32_t r = uint32_t(rng());
  return (r & 0x807fffffu) | uint32_t(127 - 40 + rng() % 81) << 23;
}

} // namespace

TEST_P(Alu, ValuFloat) {
  auto a = random32(), b = random32(), c = random32();
  for (int l = 16; l < 48; ++l) {
    a[l] = moderateFloat(rng);
    b[l] = moderateFloat(rng);
    if (l < 32)
      c[l] = moderateFloat(rng);
  }
  // Lanes 32..47: halves that are moderate f16 values for the f16 rows,
  // and a mix of equal operands for min/max/med3.
  for (int l = 32; l < 48; ++l) {
    c[l] = (uint32_t(rng()) & 0x83ff83ffu) | uint32_t(15 - 6 + rng() % 13) << 10 |
           uint32_t(15 - 6 + rng() % 13) << 26;
    if (l & 1)
      b[l] = a[l];
  }
  for (int l = 0; l < 16; ++l) {
    a[l] = kFloatEdge[l][0];
    b[l] = kFloatEdge[l][1];
    c[l] = kFloatEdge[l][2];
  }
  auto rows = valuFloatRows();
  ASSERT_EQ(rows.size(), 42u);
  run("valu_float", rows, a, b, c);
}

//===----------------------------------------------------------------------===//
// valu_cmp.s
//===----------------------------------------------------------------------===//

namespace {

/// A VOPC float condition by name: the ordered ones are false with a NaN
/// operand, the N* ones their negations (true with a NaN), O and U test
/// orderedness, F and TRU are constant.
bool fcond(const std::string &c, double x, double y) {
  bool un = std::isnan(x) || std::isnan(y);
  if (c == "f") return false;
  if (c == "tru") return true;
  if (c == "o") return !un;
  if (c == "u") return un;
  bool neg = c.size() == 3 && c[0] == 'n';
  std::string base = neg ? c.substr(1) : c;
  bool r;
  if (un)
    r = false;
  else if (base == "lt") r = x < y;
  else if (base == "eq") r = x == y;
  else if (base == "le") r = x <= y;
  else if (base == "gt") r = x > y;
  else if (base == "lg") r = x != y; // ordered and not equal
  else r = x >= y;                   // ge
  return neg ? !r : r;
}

/// V_CMP_CLASS: bit 0 signalling NaN, 1 quiet NaN, 2 -inf, 3 -normal,
/// 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
unsigned classBit(bool sign, bool nan, bool quiet, bool inf, bool zero, bool denorm) {
  if (nan) return quiet ? 1 : 0;
  if (inf) return sign ? 2 : 9;
  if (zero) return sign ? 5 : 6;
  if (denorm) return sign ? 4 : 7;
  return sign ? 3 : 8;
}
unsigned classF32(uint32_t v) {
  uint32_t e = (v >> 23) & 0xff, m = v & 0x7fffff;
  return classBit(v >> 31, e == 0xff && m, m & 0x400000, e == 0xff && !m,
                  !e && !m, !e && m);
}
unsigned classF16(uint32_t v) {
  uint32_t e = (v >> 10) & 0x1f, m = v & 0x3ff;
  return classBit((v >> 15) & 1, e == 0x1f && m, m & 0x200, e == 0x1f && !m,
                  !e && !m, !e && m);
}

std::vector<Row> valuCmpRows() {
  std::vector<Row> rows;
  auto add = [&](const char *name, std::function<uint32_t(uint32_t, uint32_t, uint32_t, int)> f) {
    rows.push_back({name, f});
  };
  static const char *fconds[] = {"f", "lt", "eq", "le", "gt", "lg", "ge", "o",
                                 "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "tru"};
  for (const char *c : fconds) {
    std::string cs = c;
    rows.push_back({"v_cmp_" + cs + "_f32", [cs](uint32_t a, uint32_t b, uint32_t, int) {
                      return uint32_t(fcond(cs, floatOf(a), floatOf(b)));
                    }});
  }
  for (const char *c : {"lt", "eq", "u", "neq", "nlt", "gt"}) {
    std::string cs = c;
    rows.push_back({"v_cmp_" + cs + "_f16", [cs](uint32_t, uint32_t, uint32_t c, int) {
                      return uint32_t(fcond(cs, fromF16(uint16_t(c)), fromF16(uint16_t(c >> 16))));
                    }});
  }
  add("v_cmp_lt_i32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(sx(a) < sx(b)); });
  add("v_cmp_le_i32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(sx(a) <= sx(b)); });
  add("v_cmp_gt_u32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(a > b); });
  add("v_cmp_ne_u32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(a != b); });
  add("v_cmp_ge_i32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(sx(a) >= sx(b)); });
  add("v_cmp_eq_u32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(a == b); });
  add("v_cmp_lt_i16", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(sx16(a) < sx16(b)); });
  add("v_cmp_gt_u16", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t((a & 0xffff) > (b & 0xffff)); });
  add("v_cmp_ge_i16", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(sx16(a) >= sx16(b)); });
  // 64-bit: x = a | b << 32, y = b | c << 32.
  add("v_cmp_lt_i64", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(int64_t(wide(a, b)) < int64_t(wide(b, c))); });
  add("v_cmp_ge_u64", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(wide(a, b) >= wide(b, c)); });
  add("v_cmp_eq_u64", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(wide(a, b) == wide(b, c)); });
  add("v_cmp_gt_i64", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(int64_t(wide(a, b)) > int64_t(wide(b, c))); });
  add("v_cmp_class_f32", [](uint32_t a, uint32_t, uint32_t c, int) { return bit(c & 0x3ff, classF32(a)); });
  add("v_cmp_class_f32 -|a|", [](uint32_t a, uint32_t, uint32_t c, int) { return bit(c & 0x3ff, classF32(a | 0x80000000u)); });
  add("v_cmp_class_f16", [](uint32_t, uint32_t, uint32_t c, int) { return bit((c >> 16) & 0x3ff, classF16(c & 0xffff)); });
  add("v_cmp_lt_f32_e32 (vcc)", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(fcond("lt", floatOf(a), floatOf(b))); });
  add("v_cmp_lt_f32 -a, |b|", [](uint32_t a, uint32_t b, uint32_t, int) {
    return uint32_t(fcond("lt", floatOf(a ^ 0x80000000u), floatOf(b & 0x7fffffffu)));
  });
  // Lanes with EXEC off get 0 in the mask.
  add("v_cmp_lt_u32 (odd lanes off)", [](uint32_t a, uint32_t b, uint32_t, int l) { return uint32_t((l % 2 == 0) && a < b); });
  add("v_cmpx_gt_f32 (exec)", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(fcond("gt", floatOf(a), floatOf(b))); });
  auto carryRows = [&](const char *name, const char *carryName, std::function<int64_t(int64_t, int64_t, int64_t)> f, bool borrow) {
    add(name, [f](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(f(a, b, c & 1)); });
    add(carryName, [f, borrow](uint32_t a, uint32_t b, uint32_t c, int) {
      int64_t v = f(a, b, c & 1);
      return uint32_t(borrow ? v < 0 : v > 0xffffffffll);
    });
  };
  carryRows("v_add_co_u32", "v_add_co_u32 carry", [](int64_t a, int64_t b, int64_t) { return a + b; }, false);
  carryRows("v_sub_co_u32", "v_sub_co_u32 borrow", [](int64_t a, int64_t b, int64_t) { return a - b; }, true);
  carryRows("v_subrev_co_u32", "v_subrev_co_u32 borrow", [](int64_t a, int64_t b, int64_t) { return b - a; }, true);
  carryRows("v_addc_co_u32", "v_addc_co_u32 carry", [](int64_t a, int64_t b, int64_t ci) { return a + b + ci; }, false);
  carryRows("v_subb_co_u32", "v_subb_co_u32 borrow", [](int64_t a, int64_t b, int64_t ci) { return a - b - ci; }, true);
  carryRows("v_subbrev_co_u32", "v_subbrev_co_u32 borrow", [](int64_t a, int64_t b, int64_t ci) { return b - a - ci; }, true);
  carryRows("v_add_co_u32_e32", "v_add_co_u32_e32 carry (vcc)", [](int64_t a, int64_t b, int64_t) { return a + b; }, false);
  carryRows("v_addc_co_u32_e32", "v_addc_co_u32_e32 carry (vcc)", [](int64_t a, int64_t b, int64_t ci) { return a + b + ci; }, false);
  add("v_cndmask_b32", [](uint32_t a, uint32_t b, uint32_t c, int) { return (c & 1) ? b : a; });
  add("v_cndmask_b32 -a, |b|", [](uint32_t a, uint32_t b, uint32_t c, int) { return (c & 1) ? (b & 0x7fffffffu) : (a ^ 0x80000000u); });
  return rows;
}

} // namespace

TEST_P(Alu, ValuCompare) {
  auto a = random32(), b = random32(), c = random32();
  for (int l = 16; l < 48; ++l) {
    a[l] = moderateFloat(rng);
    b[l] = (l & 3) == 0 ? a[l] : moderateFloat(rng); // some equal pairs
  }
  for (int l = 32; l < 48; ++l) // half pairs, some equal
    c[l] = (l & 3) == 1 ? (c[l] & 0xffff) * 0x10001u : c[l];
  for (int l = 0; l < 16; ++l) {
    a[l] = kFloatEdge[l][0];
    b[l] = kFloatEdge[l][1];
    c[l] = kFloatEdge[l][2];
  }
  // f16 specials in c's halves: NaNs, infinities, zeros, denormals.
  const uint32_t halves[8] = {0x7e007c01, 0xfc007c00, 0x80000000, 0x00018001,
                              0x3c003c00, 0x7c017e00, 0x03ff8000, 0xbc003c00};
  for (int l = 48; l < 56; ++l)
    c[l] = halves[l - 48];
  auto rows = valuCmpRows();
  ASSERT_EQ(rows.size(), 60u);
  run("valu_cmp", rows, a, b, c);
}

//===----------------------------------------------------------------------===//
// valu_f64.s
//===----------------------------------------------------------------------===//

namespace {

// Per lane: x = c | a << 32, y = ~c | b << 32 (see valu_f64.s).
const uint32_t kF64Edge[16][3] = {
    {0x7ff80000, 0x40000000, 0},          // x quiet NaN
    {0x7ff00000, 0x7ff00000, 0},          // x +inf, y signalling NaN
    {0xfff00000, 0x3ff00000, 0},          // x -inf
    {0x80000000, 0x00000000, 0},          // x -0, y a denormal
    {0x00000000, 0x80000000, 0xffffffff}, // x a denormal, y -0
    {0x3fe00000, 0x3fe00000, 0},          // x 0.5 (a tie for rndne)
    {0x40040000, 0xc0040000, 0},          // x 2.5
    {0xc0040000, 0x40040000, 0},          // x -2.5
    {0x41e00000, 0x41e00000, 0},          // x 2^31
    {0xc1e00000, 0x00000000, 0x00200000}, // x -2^31 - 1
    {0x41efffff, 0x3ff00000, 0xffe00000}, // x 2^32 - 1
    {0x47efffff, 0x47efffff, 0xf0000000}, // x FLT_MAX + half an ulp
    {0x36a00000, 0x80000000, 0},          // x 2^-149
    {0x36900000, 0x00100000, 0},          // x 2^-150: ties to 0 in f32
    {0x7ff00000, 0xfff00000, 1},          // x signalling NaN
    {0x3ff00000, 0x3ff00000, 0xffffffff}, // x 1 + ulp, y 1
};

bool isSNaN64(double x) { return std::isnan(x) && !(bitsOf(x) & (uint64_t(1) << 51)); }
double minMax64(double x, double y, bool isMax) {
  if (isSNaN64(x)) return doubleOf(bitsOf(x) | uint64_t(1) << 51);
  if (isSNaN64(y)) return doubleOf(bitsOf(y) | uint64_t(1) << 51);
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (x == 0 && y == 0) return (std::signbit(x) == isMax) ? y : x;
  return (isMax ? x > y : x < y) ? x : y;
}
unsigned classF64(uint64_t v) {
  uint64_t e = (v >> 52) & 0x7ff, m = v & ((uint64_t(1) << 52) - 1);
  return classBit(v >> 63, e == 0x7ff && m, (m >> 51) & 1, e == 0x7ff && !m,
                  !e && !m, !e && m);
}

std::vector<Row> valuF64Rows() {
  using D = std::function<double(double, double, uint32_t, uint32_t, uint32_t)>;
  std::vector<Row> rows;
  // An f64 result as two rows (NaNs of any payload accepted).
  auto d = [&](const char *name, D f) {
    auto v = [f](uint32_t a, uint32_t b, uint32_t c) {
      return bitsOf(f(doubleOf(wide(c, a)), doubleOf(wide(~c, b)), a, b, c));
    };
    rows.push_back({name, [v](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(v(a, b, c)); }, Row::F64NaN});
    rows.push_back({name, [v](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(v(a, b, c) >> 32); }});
  };
  auto u = [&](const char *name, std::function<uint64_t(uint64_t, uint64_t, uint32_t, uint32_t, uint32_t)> f, bool pair) {
    auto v = [f](uint32_t a, uint32_t b, uint32_t c) { return f(wide(c, a), wide(~c, b), a, b, c); };
    rows.push_back({name, [v](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(v(a, b, c)); }});
    if (pair)
      rows.push_back({name, [v](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(v(a, b, c) >> 32); }});
  };
  auto rnd = [](double x) {
    if (std::isnan(x) || std::isinf(x)) return x;
    double fl = std::floor(x), f = x - fl;
    double r = f > 0.5 ? fl + 1 : f < 0.5 ? fl : (std::fmod(fl, 2.0) == 0 ? fl : fl + 1);
    return std::copysign(r, x);
  };
  d("v_add_f64", [](double x, double y, uint32_t, uint32_t, uint32_t) { return x + y; });
  d("v_mul_f64", [](double x, double y, uint32_t, uint32_t, uint32_t) { return x * y; });
  d("v_fma_f64 x*y+x", [](double x, double y, uint32_t, uint32_t, uint32_t) { return std::fma(x, y, x); });
  d("v_max_f64", [](double x, double y, uint32_t, uint32_t, uint32_t) { return minMax64(x, y, true); });
  d("v_min_f64", [](double x, double y, uint32_t, uint32_t, uint32_t) { return minMax64(x, y, false); });
  d("v_max_f64 -x, |y|", [](double x, double y, uint32_t, uint32_t, uint32_t) { return minMax64(-x, std::fabs(y), true); });
  d("v_fract_f64", [](double x, double, uint32_t, uint32_t, uint32_t) {
    if (std::isnan(x) || std::isinf(x)) return std::numeric_limits<double>::quiet_NaN();
    return std::min(x - std::floor(x), 0x1.fffffffffffffp-1);
  });
  d("v_frexp_mant_f64", [](double x, double, uint32_t, uint32_t, uint32_t) {
    int e;
    return std::isnan(x) || std::isinf(x) ? x : std::frexp(x, &e);
  });
  u("v_frexp_exp_i32_f64", [](uint64_t x, uint64_t, uint32_t, uint32_t, uint32_t) {
    int e = 0;
    double v = doubleOf(x);
    if (!std::isnan(v) && !std::isinf(v))
      std::frexp(v, &e);
    return uint64_t(uint32_t(e));
  }, false);
  d("v_ldexp_f64", [](double x, double, uint32_t, uint32_t b, uint32_t) { return std::ldexp(x, int(sext(b, 11))); });
  d("v_rndne_f64", [rnd](double x, double, uint32_t, uint32_t, uint32_t) { return rnd(x); });
  d("v_floor_f64", [](double x, double, uint32_t, uint32_t, uint32_t) { return std::floor(x); });
  d("v_ceil_f64", [](double x, double, uint32_t, uint32_t, uint32_t) { return std::ceil(x); });
  d("v_trunc_f64", [](double x, double, uint32_t, uint32_t, uint32_t) { return std::trunc(x); });
  rows.push_back({"v_cvt_f32_f64", [](uint32_t a, uint32_t, uint32_t c, int) {
                    return bitsOf(float(doubleOf(wide(c, a))));
                  }, Row::F32NaN});
  // f32 -> f64 is exact; the modifiers act on the f32 source's sign.
  d("v_cvt_f64_f32", [](double, double, uint32_t a, uint32_t, uint32_t) { return double(floatOf(a)); });
  d("v_cvt_f64_f32 -a", [](double, double, uint32_t a, uint32_t, uint32_t) { return double(floatOf(a ^ 0x80000000u)); });
  d("v_cvt_f64_f32 |a|", [](double, double, uint32_t a, uint32_t, uint32_t) { return double(floatOf(a & 0x7fffffffu)); });
  u("v_cvt_i32_f64", [](uint64_t x, uint64_t, uint32_t, uint32_t, uint32_t) {
    double v = doubleOf(x);
    return uint64_t(std::isnan(v) ? 0u : clampToI32(std::trunc(v)));
  }, false);
  u("v_cvt_u32_f64", [](uint64_t x, uint64_t, uint32_t, uint32_t, uint32_t) {
    double v = doubleOf(x);
    return uint64_t(std::isnan(v) ? 0u : uint32_t(std::clamp(std::trunc(v), 0.0, 4294967295.0)));
  }, false);
  d("v_cvt_f64_i32", [](double, double, uint32_t, uint32_t, uint32_t c) { return double(int32_t(c)); });
  d("v_cvt_f64_u32", [](double, double, uint32_t, uint32_t, uint32_t c) { return double(c); });
  u("v_cmp_class_f64", [](uint64_t x, uint64_t, uint32_t, uint32_t b, uint32_t) { return uint64_t(bit(b & 0x3ff, classF64(x))); }, false);
  u("v_cmp_lt_f64", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return uint64_t(doubleOf(x) < doubleOf(y)); }, false);
  u("v_cmp_neq_f64", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return uint64_t(!(doubleOf(x) == doubleOf(y))); }, false);
  u("v_cmp_eq_u64", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return uint64_t(x == y); }, false);
  u("v_lshl_add_u64 <<3", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return x * 8 + y; }, true);
  u("v_mov_b64", [](uint64_t x, uint64_t, uint32_t, uint32_t, uint32_t) { return x; }, true);
  d("v_add_f64 clamp", [](double x, double y, uint32_t, uint32_t, uint32_t) {
    double s = x + y;
    return std::isnan(s) ? 0.0 : s <= 0 ? 0.0 : s >= 1 ? 1.0 : s;
  });
  return rows;
}

/// A random f64 high dword with an exponent in [-60, 60].
uint32_t moderateF64Hi(std::mt19937_64 &rng) {
  uint32_t r = uint32_t(rng());
  return (r & 0x800fffffu) | uint32_t(1023 - 60 + rng() % 121) << 20;
}

} // namespace

TEST_P(Alu, ValuF64) {
  auto a = random32(), b = random32(), c = random32();
  for (int l = 16; l < 56; ++l) {
    a[l] = moderateF64Hi(rng);
    b[l] = (l & 7) == 0 ? a[l] : moderateF64Hi(rng);
  }
  for (int l = 0; l < 16; ++l) {
    a[l] = kF64Edge[l][0];
    b[l] = kF64Edge[l][1];
    c[l] = kF64Edge[l][2];
  }
  auto rows = valuF64Rows();
  ASSERT_EQ(rows.size(), 50u);
  run("valu_f64", rows, a, b, c);
}

//===----------------------------------------------------------------------===//
// valu_pk.s
//===----------------------------------------------------------------------===//

namespace {

// Lanes 0..15: {a, b, c}, each two 16-bit values (high << 16 | low).
const uint32_t kPkEdge[16][3] = {
    {0x7e003c01, 0x3c003e00, 0x7c008001}, // fma: 1.0009765625 * 1.5 - 2^-24
    {0x8000ffff, 0xffffffff, 0xffffffff}, // u16 / i16 saturation
    {0x7fff7fff, 0x80000001, 0x00010001},
    {0x7c01fe00, 0x3c003c00, 0},          // sNaN (high), -qNaN (low)
    {0x7c00fc00, 0x00007c00, 0x80000000}, // infinities
    {0x80000000, 0x00008000, 0x80008000}, // signed zeros
    {0x00010001, 0x83ff03ff, 0x00010001}, // denormals
    {0x7bff7bff, 0x3c007bff, 0x7bff7bff}, // overflow to inf
    {0xb8003800, 0x38003c00, 0xbc003c00}, // clamp cases
    {0x8001ffff, 0x000f0010, 0x0000ffff}, // shift counts 15, 16
    {0x01000100, 0x01000100, 0xffff0001}, // u16 mad overflow
    {0x3c003c00, 0x3c003c00, 0xbc00bc00}, // exact cancellation
    {0x3c013c01, 0x3e003e00, 0x00018001}, // ties with a tiny addend
    {0x3bff3bff, 0x3c013c01, 0x00090008},
    {0x5bff5bff, 0x5bff5bff, 0xfbff7bff},
    {0x3c000001, 0x7e003c00, 0x7c010000}, // c high: sNaN
};

uint16_t half(uint32_t v, int h) { return uint16_t(v >> (16 * h)); }
double hf(uint32_t v, int h) { return fromF16(half(v, h)); }

/// a * b + c of f16/f32 values rounded once: long double holds the exact
/// product and, for these operand widths, enough of the sum (the larger of
/// the two terms alone is never a rounding tie of the target), then one
/// rounding to f16 by scaling to integer units of the result's ulp.
uint16_t fmaToF16(double a, double b, double c) {
  long double r = fmal(a, b, c);
  if (!std::isfinite(r) || r == 0)
    return toF16(double(r));
  int e = ilogbl(r);
  int ulp = std::max(e - 10, -24);
  long double q = nearbyintl(ldexpl(r, -ulp)); // ties to even
  return toF16(double(ldexpl(q, ulp)));             // exact, or inf
}
uint32_t satU16(int64_t v) { return uint32_t(std::clamp<int64_t>(v, 0, 0xffff)); }
uint32_t satI16(int64_t v) { return uint32_t(std::clamp<int64_t>(v, -32768, 32767)) & 0xffff; }
uint32_t clamp01F16(uint16_t h) {
  double x = fromF16(h);
  return std::isnan(x) || x <= 0 ? 0u : x >= 1 ? 0x3c00u : h;
}

std::vector<Row> valuPkRows(const std::vector<uint32_t> &A) {
  using P = std::function<uint32_t(uint32_t a, uint32_t b, uint32_t c, int h)>;
  std::vector<Row> rows;
  // A packed result: the function gives half h (0 low, 1 high).
  auto pk = [&](const char *name, P f) {
    rows.push_back({name, [f](uint32_t a, uint32_t b, uint32_t c, int) {
                      return (f(a, b, c, 0) & 0xffff) | (f(a, b, c, 1) & 0xffff) << 16;
                    }, Row::PkF16NaN});
  };
  auto pki = [&](const char *name, P f) { // integer data: exact
    pk(name, f);
    rows.back().nan = Row::Exact;
  };
  auto s16 = [](uint32_t v, int h) { return sx16(v >> (16 * h)); };
  pki("v_pk_add_u16", [](uint32_t a, uint32_t b, uint32_t, int h) { return uint32_t(half(a, h) + half(b, h)); });
  pki("v_pk_add_u16 clamp", [](uint32_t a, uint32_t b, uint32_t, int h) { return satU16(int64_t(half(a, h)) + half(b, h)); });
  pki("v_pk_sub_u16", [](uint32_t a, uint32_t b, uint32_t, int h) { return uint32_t(half(a, h) - half(b, h)); });
  pki("v_pk_sub_u16 clamp", [](uint32_t a, uint32_t b, uint32_t, int h) { return satU16(int64_t(half(a, h)) - half(b, h)); });
  pki("v_pk_add_i16", [s16](uint32_t a, uint32_t b, uint32_t, int h) { return uint32_t(s16(a, h) + s16(b, h)); });
  pki("v_pk_add_i16 clamp", [s16](uint32_t a, uint32_t b, uint32_t, int h) { return satI16(s16(a, h) + s16(b, h)); });
  pki("v_pk_sub_i16", [s16](uint32_t a, uint32_t b, uint32_t, int h) { return uint32_t(s16(a, h) - s16(b, h)); });
  pki("v_pk_sub_i16 clamp", [s16](uint32_t a, uint32_t b, uint32_t, int h) { return satI16(s16(a, h) - s16(b, h)); });
  pki("v_pk_mul_lo_u16", [](uint32_t a, uint32_t b, uint32_t, int h) { return uint32_t(uint64_t(half(a, h)) * half(b, h)); });
  pki("v_pk_lshlrev_b16", [](uint32_t a, uint32_t b, uint32_t, int h) { return uint32_t(half(a, h)) << (half(b, h) & 15); });
  pki("v_pk_lshrrev_b16", [](uint32_t a, uint32_t b, uint32_t, int h) { return uint32_t(half(a, h)) >> (half(b, h) & 15); });
  pki("v_pk_ashrrev_i16", [s16](uint32_t a, uint32_t b, uint32_t, int h) { return uint32_t(sext(uint64_t(s16(a, h)) >> (half(b, h) & 15), 16)); });
  pki("v_pk_max_i16", [s16](uint32_t a, uint32_t b, uint32_t, int h) { return uint32_t(std::max(s16(a, h), s16(b, h))); });
  pki("v_pk_min_i16", [s16](uint32_t a, uint32_t b, uint32_t, int h) { return uint32_t(std::min(s16(a, h), s16(b, h))); });
  pki("v_pk_max_u16", [](uint32_t a, uint32_t b, uint32_t, int h) { return uint32_t(std::max(half(a, h), half(b, h))); });
  pki("v_pk_min_u16", [](uint32_t a, uint32_t b, uint32_t, int h) { return uint32_t(std::min(half(a, h), half(b, h))); });
  pki("v_pk_mad_u16", [](uint32_t a, uint32_t b, uint32_t c, int h) { return uint32_t(uint64_t(half(a, h)) * half(b, h) + half(c, h)); });
  pki("v_pk_mad_u16 clamp", [](uint32_t a, uint32_t b, uint32_t c, int h) { return satU16(int64_t(half(a, h)) * half(b, h) + half(c, h)); });
  // op_sel picks the half each source gives the low result, op_sel_hi the
  // one it gives the high result.
  pki("v_pk_add_u16 op_sel:[1,0] op_sel_hi:[0,1]", [](uint32_t a, uint32_t b, uint32_t, int h) {
    return uint32_t(half(a, 1 - h) + half(b, h));
  });
  pk("v_pk_add_f16", [](uint32_t a, uint32_t b, uint32_t, int h) { return uint32_t(fmaToF16(hf(a, h), 1.0, hf(b, h))); });
  pk("v_pk_mul_f16", [](uint32_t a, uint32_t b, uint32_t, int h) { return uint32_t(fmaToF16(hf(a, h), hf(b, h), -0.0)); });
  pk("v_pk_fma_f16", [](uint32_t a, uint32_t b, uint32_t c, int h) { return uint32_t(fmaToF16(hf(a, h), hf(b, h), hf(c, h))); });
  pk("v_pk_max_f16", [](uint32_t a, uint32_t b, uint32_t, int h) { return minMaxF16(half(a, h), half(b, h), true); });
  pk("v_pk_min_f16", [](uint32_t a, uint32_t b, uint32_t, int h) { return minMaxF16(half(a, h), half(b, h), false); });
  pk("v_pk_add_f16 neg_lo:[1,0] neg_hi:[0,1]", [](uint32_t a, uint32_t b, uint32_t, int h) {
    double x = hf(a, h), y = hf(b, h);
    return uint32_t(h ? fmaToF16(x, 1.0, -y) : fmaToF16(-x, 1.0, y));
  });
  pk("v_pk_fma_f16 op_sel:[0,1,1] op_sel_hi:[1,0,1]", [](uint32_t a, uint32_t b, uint32_t c, int h) {
    return uint32_t(fmaToF16(hf(a, h), hf(b, 1 - h), hf(c, 1)));
  });
  pk("v_pk_add_f16 clamp", [](uint32_t a, uint32_t b, uint32_t, int h) { return clamp01F16(fmaToF16(hf(a, h), 1.0, hf(b, h))); });
  // VOP3 v_fma_f16 on gfx9: op_sel[3] picks the destination half; the other
  // half keeps its value (here b, moved into the destination first).
  rows.push_back({"v_fma_f16 (high half kept)", [](uint32_t a, uint32_t b, uint32_t c, int) {
                    return (b & 0xffff0000u) | fmaToF16(hf(a, 0), hf(b, 0), hf(c, 0));
                  }, Row::PkF16NaN});
  rows.push_back({"v_fma_f16 op_sel:[1,1,1,1] (low half kept)", [](uint32_t a, uint32_t b, uint32_t c, int) {
                    return (b & 0xffffu) | uint32_t(fmaToF16(hf(a, 1), hf(b, 1), hf(c, 1))) << 16;
                  }, Row::PkF16NaN});
  // v_fma_mix: op_sel_hi[i] marks an f16 source (op_sel[i] picks its half),
  // else an f32 one; one rounding of the exact result.
  auto f32fma = [](double x, double y, double z) { return bitsOf(float(fmal(x, y, z))); };
  rows.push_back({"v_fma_mix_f32 (f16 lo inputs)", [f32fma](uint32_t a, uint32_t b, uint32_t c, int) {
                    return f32fma(hf(a, 0), hf(b, 0), hf(c, 0));
                  }, Row::F32NaN});
  rows.push_back({"v_fma_mix_f32 (f16 hi, f16 hi, f32)", [f32fma](uint32_t a, uint32_t b, uint32_t c, int) {
                    return f32fma(hf(a, 1), hf(b, 1), floatOf(c));
                  }, Row::F32NaN});
  rows.push_back({"v_fma_mixlo_f16 (f16 inputs, high kept)", [](uint32_t a, uint32_t b, uint32_t c, int) {
                    return (b & 0xffff0000u) | fmaToF16(hf(a, 0), hf(b, 0), hf(c, 0));
                  }, Row::F16NaN});
  // v6, v7, v8 = the low f16 of a, b, c as f32: the same values.
  rows.push_back({"v_fma_mixhi_f16 (f32 inputs, low kept)", [](uint32_t a, uint32_t b, uint32_t c, int) {
                    return (b & 0xffffu) | uint32_t(fmaToF16(hf(a, 0), hf(b, 0), hf(c, 0))) << 16;
                  }, Row::PkF16NaN});
  // D = a.lo * b.lo + a.hi * b.hi + S2 (f32; S2 = v6, a's low f16).
  rows.push_back({"v_dot2_f32_f16", [](uint32_t a, uint32_t b, uint32_t, int) {
                    long double s = (long double)hf(a, 0) * hf(b, 0) + (long double)hf(a, 1) * hf(b, 1) + hf(a, 0);
                    return bitsOf(float(s));
                  }, Row::F32NaN});
  // f32 pairs: x = v[6:7] = {a.lo, b.lo}, y = v[8:9] = {c.lo, a.hi} (as f32).
  auto x0 = [](uint32_t a, uint32_t, uint32_t) { return float(hf(a, 0)); };
  auto x1 = [](uint32_t, uint32_t b, uint32_t) { return float(hf(b, 0)); };
  auto y0 = [](uint32_t, uint32_t, uint32_t c) { return float(hf(c, 0)); };
  auto y1 = [](uint32_t a, uint32_t, uint32_t) { return float(hf(a, 1)); };
  auto f2 = [&](const char *lo, const char *hi, std::function<float(uint32_t, uint32_t, uint32_t, int)> f) {
    rows.push_back({lo, [f](uint32_t a, uint32_t b, uint32_t c, int) { return bitsOf(f(a, b, c, 0)); }, Row::F32NaN});
    rows.push_back({hi, [f](uint32_t a, uint32_t b, uint32_t c, int) { return bitsOf(f(a, b, c, 1)); }, Row::F32NaN});
  };
  f2("v_pk_add_f32 lo", "v_pk_add_f32 hi", [=](uint32_t a, uint32_t b, uint32_t c, int h) {
    return h ? x1(a, b, c) + y1(a, b, c) : x0(a, b, c) + y0(a, b, c);
  });
  f2("v_pk_mul_f32 lo", "v_pk_mul_f32 hi", [=](uint32_t a, uint32_t b, uint32_t c, int h) {
    return h ? x1(a, b, c) * y1(a, b, c) : x0(a, b, c) * y0(a, b, c);
  });
  f2("v_pk_fma_f32 lo", "v_pk_fma_f32 hi", [=](uint32_t a, uint32_t b, uint32_t c, int h) {
    return h ? std::fma(x1(a, b, c), y1(a, b, c), x1(a, b, c)) : std::fma(x0(a, b, c), y0(a, b, c), x0(a, b, c));
  });
  // v_pk_mov_b32 op_sel:[1,0]: low = src0's high dword, high = src1's high
  // dword (op_sel_hi defaults to 1).
  f2("v_pk_mov_b32 op_sel:[1,0] lo", "v_pk_mov_b32 op_sel:[1,0] hi", [=](uint32_t a, uint32_t b, uint32_t c, int h) {
    return h ? y1(a, b, c) : x1(a, b, c);
  });
  f2("v_pk_add_f32 op_sel:[1,0] neg_lo:[0,1] lo", "v_pk_add_f32 op_sel:[1,0] neg_lo:[0,1] hi",
     [=](uint32_t a, uint32_t b, uint32_t c, int h) {
       return h ? x1(a, b, c) + y1(a, b, c) : x1(a, b, c) + -y0(a, b, c);
     });
  // v_pk_fmac_f16: each half of the destination (holding c) becomes
  // a.h * b.h + c.h, rounded once; DPP row_shr:1 takes a from the lane
  // below, and lane 0 of each row keeps c.
  pk("v_pk_fmac_f16_e32 (acc c)", [](uint32_t a, uint32_t b, uint32_t c, int h) { return uint32_t(fmaToF16(hf(a, h), hf(b, h), hf(c, h))); });
  pk("v_pk_fmac_f16_e64 (acc c)", [](uint32_t a, uint32_t b, uint32_t c, int h) { return uint32_t(fmaToF16(hf(a, h), hf(b, h), hf(c, h))); });
  rows.push_back({"v_pk_fmac_f16_dpp row_shr:1 (acc c)", [A](uint32_t, uint32_t b, uint32_t c, int l) {
                    if (l % 16 == 0)
                      return c;
                    uint32_t a = A[l - 1];
                    return uint32_t(fmaToF16(hf(a, 0), hf(b, 0), hf(c, 0))) |
                           uint32_t(fmaToF16(hf(a, 1), hf(b, 1), hf(c, 1))) << 16;
                  }, Row::PkF16NaN});
  // v_pk_mad_i16: the signed product plus c per half; without clamp the
  // low 16 bits, with clamp saturated to [-32768, 32767].
  pki("v_pk_mad_i16", [s16](uint32_t a, uint32_t b, uint32_t c, int h) { return uint32_t(int64_t(s16(a, h)) * s16(b, h) + s16(c, h)); });
  pki("v_pk_mad_i16 clamp", [s16](uint32_t a, uint32_t b, uint32_t c, int h) { return satI16(int64_t(s16(a, h)) * s16(b, h) + s16(c, h)); });
  return rows;
}

/// Two random f16 values with exponents in [-8, 8].
uint32_t moderateHalves(std::mt19937_64 &rng) {
  uint32_t r = uint32_t(rng()) & 0x83ff83ffu;
  return r | uint32_t(15 - 8 + rng() % 17) << 10 | uint32_t(15 - 8 + rng() % 17) << 26;
}

} // namespace

TEST_P(Alu, ValuPacked) {
  auto a = random32(), b = random32(), c = random32();
  for (int l = 16; l < 48; ++l) {
    a[l] = moderateHalves(rng);
    b[l] = moderateHalves(rng);
    c[l] = moderateHalves(rng);
  }
  for (int l = 0; l < 16; ++l) {
    a[l] = kPkEdge[l][0];
    b[l] = kPkEdge[l][1];
    c[l] = kPkEdge[l][2];
  }
  auto rows = valuPkRows(a);
  ASSERT_EQ(rows.size(), 49u);
  run("valu_pk", rows, a, b, c);
}

//===----------------------------------------------------------------------===//
// valu_lanes.s
//===----------------------------------------------------------------------===//

namespace {

/// SDWA source select: byte n (0..3), word n (4, 5) or the dword (6),
/// zero- or (sext) sign-extended.
uint32_t sdwaSel(uint32_t v, unsigned sel, bool signExtend) {
  if (sel == 6)
    return v;
  unsigned width = sel < 4 ? 8 : 16, off = sel < 4 ? 8 * sel : 16 * (sel - 4);
  uint64_t f = field(v, off, width);
  return signExtend ? uint32_t(sext(f, width)) : uint32_t(f);
}
/// SDWA destination: the low bits of r placed in the field; outside it
/// zeros (PAD), the old value (PRESERVE) or, for SEXT, the field's sign
/// above it and zeros below.
enum Unused { Pad, Sext, Preserve };
uint32_t sdwaDst(uint32_t r, uint32_t old, unsigned sel, Unused u) {
  if (sel == 6)
    return r;
  unsigned width = sel < 4 ? 8 : 16, off = sel < 4 ? 8 * sel : 16 * (sel - 4);
  uint32_t out = 0;
  for (unsigned i = 0; i < 32; ++i) {
    uint32_t v;
    if (i >= off && i < off + width)
      v = bit(r, i - off);
    else if (u == Preserve)
      v = bit(old, i);
    else if (u == Sext && i >= off + width)
      v = bit(r, width - 1);
    else
      v = 0;
    out |= v << i;
  }
  return out;
}

/// The DPP source lane of `l`, or -1 out of range (the ISA's DPP controls).
int dppSrc(const std::string &ctl, int n, int l) {
  int row = l / 16 * 16, in = l % 16;
  if (ctl == "row_shr") return in - n >= 0 ? l - n : -1;
  if (ctl == "row_shl") return in + n < 16 ? l + n : -1;
  if (ctl == "row_ror") return row + (in - n + 16) % 16;
  if (ctl == "wave_shl") return l + 1 < 64 ? l + 1 : -1;
  if (ctl == "wave_ror") return (l + 63) % 64;
  if (ctl == "row_mirror") return row + 15 - in;
  if (ctl == "row_half_mirror") return l / 8 * 8 + 7 - l % 8;
  if (ctl == "row_bcast15") return l >= 16 ? row - 1 : -1;
  if (ctl == "row_bcast31") return l >= 32 ? 31 : -1;
  if (ctl == "quad_perm3210") return l / 4 * 4 + 3 - l % 4;
  return -1;
}

} // namespace

TEST_P(Alu, SdwaDpp) {
  auto a = random32(), b = random32(), c = random32();
  // Some f16/f32 lanes with moderate values for the float rows.
  for (int l = 0; l < 32; ++l) {
    a[l] = (l & 1) ? moderateHalves(rng) : moderateFloat(rng);
    b[l] = (l & 1) ? moderateHalves(rng) : moderateFloat(rng);
  }
  const std::vector<uint32_t> A = a, B = b, C = c;
  std::vector<Row> rows;
  auto add = [&](const char *name, Ref f, decltype(Row::nan) nan = Row::Exact) {
    rows.push_back({name, f, nan});
  };
  add("sdwa add sext(a.b1) + b.w1", [](uint32_t a, uint32_t b, uint32_t, int) {
    return sdwaSel(a, 1, true) + sdwaSel(b, 5, false);
  });
  add("sdwa mov byte2 preserve", [](uint32_t a, uint32_t, uint32_t c, int) { return sdwaDst(sdwaSel(a, 0, false), c, 2, Preserve); });
  add("sdwa mov word0 sext", [](uint32_t a, uint32_t, uint32_t c, int) { return sdwaDst(sdwaSel(a, 5, false), c, 4, Sext); });
  add("sdwa mov byte1 pad", [](uint32_t a, uint32_t, uint32_t c, int) { return sdwaDst(a, c, 1, Pad); });
  add("sdwa add_f16 a.hi - b.lo to word1", [](uint32_t a, uint32_t b, uint32_t c, int) {
    return sdwaDst(fmaToF16(fromF16(uint16_t(a >> 16)), 1.0, -fromF16(uint16_t(b))), c, 5, Preserve);
  }, Row::PkF16NaN);
  add("sdwa cmp_lt_u32 bytes", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(sdwaSel(a, 0, false) < sdwaSel(b, 1, false)); });
  // A 16-bit op's result is 16 bits wide before the destination select.
  add("sdwa add_u16 to word1", [](uint32_t a, uint32_t b, uint32_t c, int) {
    return sdwaDst((sdwaSel(a, 3, false) + sdwaSel(b, 4, false)) & 0xffff, c, 5, Pad);
  });
  add("sdwa lshlrev_b32", [](uint32_t a, uint32_t b, uint32_t, int) {
    return uint32_t(field(uint64_t(sdwaSel(a, 5, false)) << (sdwaSel(b, 0, false) & 31), 0, 32));
  });
  add("sdwa add_f32 -a + |b|", [](uint32_t a, uint32_t b, uint32_t, int) {
    return bitsOf(-floatOf(a) + std::fabs(floatOf(b)));
  }, Row::F32NaN);
  add("sdwa cvt_f32_i32 sext byte2", [](uint32_t a, uint32_t, uint32_t, int) { return bitsOf(float(int32_t(sdwaSel(a, 2, true)))); });
  add("sdwa mul_u32_u24 sext byte3", [](uint32_t a, uint32_t b, uint32_t, int) {
    return uint32_t(uint64_t(sdwaSel(a, 4, false) & 0xffffff) * (sdwaSel(b, 3, true) & 0xffffff));
  });
  add("sdwa sub to word1 sext", [](uint32_t a, uint32_t b, uint32_t c, int) { return sdwaDst(a - b, c, 5, Sext); });
  add("sdwa sub to byte1 sext", [](uint32_t a, uint32_t b, uint32_t c, int) { return sdwaDst(a - b, c, 1, Sext); });
  // DPP: lane l's src0 is src0 of lane dppSrc(l); an invalid source lane
  // (out of range, or EXEC off there) gives 0 with bound_ctrl, else the
  // lane is not written. Lanes outside row_mask/bank_mask are not written.
  struct Dpp {
    std::string ctl;
    int n;
    unsigned rowMask, bankMask;
    bool bound;
    uint64_t exec;
  };
  auto dpp = [&](const char *name, Dpp d, std::function<uint32_t(uint32_t src0, int l)> op,
                 decltype(Row::nan) nan = Row::Exact) {
    add(name, [=](uint32_t, uint32_t, uint32_t c, int l) {
      if (!((d.exec >> l) & 1) || !((d.rowMask >> (l / 16)) & 1) || !((d.bankMask >> (l / 4 % 4)) & 1))
        return c;
      int s = dppSrc(d.ctl, d.n, l);
      bool valid = s >= 0 && ((d.exec >> s) & 1);
      if (!valid && !d.bound)
        return c;
      return op(valid ? A[s] : 0u, l);
    }, nan);
  };
  const uint64_t all = ~uint64_t(0);
  auto addB = [&](uint32_t s, int l) { return s + B[l]; };
  auto mov = [](uint32_t s, int) { return s; };
  dpp("dpp add row_shr:3", {"row_shr", 3, 0xf, 0xf, false, all}, addB);
  dpp("dpp add row_shr:3 bound_ctrl", {"row_shr", 3, 0xf, 0xf, true, all}, addB);
  dpp("dpp wave_shl:1", {"wave_shl", 1, 0xf, 0xf, false, all}, mov);
  dpp("dpp row_bcast:15 rows 1,3", {"row_bcast15", 0, 0xa, 0xf, false, all}, mov);
  dpp("dpp row_bcast:31 rows 2,3", {"row_bcast31", 0, 0xc, 0xf, false, all}, mov);
  dpp("dpp wave_ror:1", {"wave_ror", 1, 0xf, 0xf, false, all}, mov);
  dpp("dpp mul_f32 -a, |b| quad_perm:[3,2,1,0]", {"quad_perm3210", 0, 0xf, 0xf, false, all},
      [&](uint32_t s, int l) { return bitsOf(-floatOf(s) * std::fabs(floatOf(B[l]))); }, Row::F32NaN);
  dpp("dpp row_mirror banks 0,2", {"row_mirror", 0, 0xf, 0x5, false, all}, mov);
  dpp("dpp row_half_mirror rows 0,2", {"row_half_mirror", 0, 0x5, 0xf, false, all}, mov);
  dpp("dpp row_ror:4", {"row_ror", 4, 0xf, 0xf, false, all}, mov);
  dpp("dpp row_shl:1 bound_ctrl", {"row_shl", 1, 0xf, 0xf, true, all}, mov);
  dpp("dpp row_shr:1 bound_ctrl, lanes 0..3 off", {"row_shr", 1, 0xf, 0xf, true, all << 4}, mov);
  dpp("dpp row_shr:1, lanes 0..3 off", {"row_shr", 1, 0xf, 0xf, false, all << 4}, mov);
  ASSERT_EQ(rows.size(), 26u);
  run("valu_lanes", rows, a, b, c);
}

//===----------------------------------------------------------------------===//
// valu_gfx950.s
//===----------------------------------------------------------------------===//

namespace {

/// V_BITOP3: result bit i is bit ((s0_i << 2) | (s1_i << 1) | s2_i) of the
/// 8-bit table (LLVM builds the table from src0 = 0xf0, src1 = 0xcc,
/// src2 = 0xaa).
uint32_t bitop3Ref(uint32_t a, uint32_t b, uint32_t c, unsigned table, unsigned bits) {
  uint32_t r = 0;
  for (unsigned i = 0; i < bits; ++i)
    r |= bit(table, bit(a, i) << 2 | bit(b, i) << 1 | bit(c, i)) << i;
  return r;
}

std::vector<Row> valuGfx950Rows(const std::vector<uint32_t> &A) {
  std::vector<Row> rows;
  auto f16 = [](uint32_t v) { return uint32_t(toF16(double(floatOf(v)))); };
  auto bf16 = [](uint32_t v) { return uint32_t(toBf16(double(floatOf(v)))); };
  rows.push_back({"v_cvt_pk_f16_f32", [f16](uint32_t a, uint32_t b, uint32_t, int) { return f16(a) | f16(b) << 16; }, Row::PkF16NaN});
  rows.push_back({"v_cvt_pk_f16_f32 -|a|, b", [f16](uint32_t a, uint32_t b, uint32_t, int) { return f16(a | 0x80000000u) | f16(b) << 16; }, Row::PkF16NaN});
  rows.push_back({"v_cvt_pk_bf16_f32", [bf16](uint32_t a, uint32_t b, uint32_t, int) { return bf16(a) | bf16(b) << 16; }, Row::PkBf16NaN});
  rows.push_back({"v_cvt_f32_bf16", [](uint32_t a, uint32_t, uint32_t, int) { return bitsOf(fromBf16(uint16_t(a))); }, Row::F32NaN});
  for (unsigned t : {0x96u, 0xe8u, 0xcau, 0x01u, 0x80u, 0x6au})
    rows.push_back({"v_bitop3_b32 " + hex(t), [t](uint32_t a, uint32_t b, uint32_t c, int) { return bitop3Ref(a, b, c, t, 32); }});
  // b16: the low halves into the low half, the high half kept (c).
  rows.push_back({"v_bitop3_b16 0xe8", [](uint32_t a, uint32_t b, uint32_t c, int) {
                    return (c & 0xffff0000u) | bitop3Ref(a, b, c, 0xe8, 16);
                  }});
  // op_sel:[1,1,0,1]: src0 and src1 high halves, src2 low, result to the
  // high half; the low half kept.
  rows.push_back({"v_bitop3_b16 0x96 op_sel:[1,1,0,1]", [](uint32_t a, uint32_t b, uint32_t c, int) {
                    return (c & 0xffffu) | bitop3Ref(a >> 16, b >> 16, c, 0x96, 16) << 16;
                  }});
  rows.push_back({"v_dot2_f32_bf16", [](uint32_t a, uint32_t b, uint32_t c, int) {
                    long double s = (long double)fromBf16(uint16_t(a)) * fromBf16(uint16_t(b)) +
                                    (long double)fromBf16(uint16_t(a >> 16)) * fromBf16(uint16_t(b >> 16)) +
                                    floatOf(c);
                    return bitsOf(float(s));
                  }, Row::F32NaN});
  // IEEE 754-2019 maximum/minimum of three: any NaN gives NaN; otherwise
  // the extreme value, with -0 counted below +0.
  auto ext = [](std::initializer_list<double> v, bool isMax) {
    double best = *v.begin();
    for (double x : v) {
      if (std::isnan(x))
        return x;
      bool better = isMax ? (x > best || (x == best && !std::signbit(x)))
                          : (x < best || (x == best && std::signbit(x)));
      if (better)
        best = x;
    }
    for (double x : v)
      if (std::isnan(x))
        return x;
    return best;
  };
  rows.push_back({"v_maximum3_f32", [ext](uint32_t a, uint32_t b, uint32_t c, int) {
                    return bitsOf(float(ext({floatOf(a), floatOf(b), floatOf(c)}, true)));
                  }, Row::F32NaN});
  rows.push_back({"v_minimum3_f32", [ext](uint32_t a, uint32_t b, uint32_t c, int) {
                    return bitsOf(float(ext({floatOf(a), floatOf(b), floatOf(c)}, false)));
                  }, Row::F32NaN});
  auto h = [](uint32_t v, int hi) { return fromF16(uint16_t(v >> (16 * hi))); };
  rows.push_back({"v_pk_maximum3_f16", [ext, h](uint32_t a, uint32_t b, uint32_t c, int) {
                    return uint32_t(toF16(ext({h(a, 0), h(b, 0), h(c, 0)}, true))) |
                           uint32_t(toF16(ext({h(a, 1), h(b, 1), h(c, 1)}, true))) << 16;
                  }, Row::PkF16NaN});
  rows.push_back({"v_pk_minimum3_f16 op_sel:[1,0,1]", [ext, h](uint32_t a, uint32_t b, uint32_t c, int) {
                    return uint32_t(toF16(ext({h(a, 1), h(b, 0), h(c, 1)}, false))) |
                           uint32_t(toF16(ext({h(a, 1), h(b, 1), h(c, 1)}, false))) << 16;
                  }, Row::PkF16NaN});
  // v_dot2c_f32_bf16: D = a.bf[0] * b.bf[0] + a.bf[1] * b.bf[1] + D (the
  // destination holds c), rounded once; DPP row_shr:1 takes a from the lane
  // below, and lane 0 of each row keeps c.
  auto dotBf = [](uint32_t a, uint32_t b, uint32_t c) {
    long double s = (long double)fromBf16(uint16_t(a)) * fromBf16(uint16_t(b)) +
                    (long double)fromBf16(uint16_t(a >> 16)) * fromBf16(uint16_t(b >> 16)) +
                    floatOf(c);
    return bitsOf(float(s));
  };
  rows.push_back({"v_dot2c_f32_bf16_e32 (acc c)", [dotBf](uint32_t a, uint32_t b, uint32_t c, int) { return dotBf(a, b, c); }, Row::F32NaN});
  rows.push_back({"v_dot2c_f32_bf16_e64 (acc c)", [dotBf](uint32_t a, uint32_t b, uint32_t c, int) { return dotBf(a, b, c); }, Row::F32NaN});
  rows.push_back({"v_dot2c_f32_bf16_dpp row_shr:1 (acc c)", [dotBf, A](uint32_t, uint32_t b, uint32_t c, int l) {
                    return l % 16 == 0 ? c : dotBf(A[l - 1], b, c);
                  }, Row::F32NaN});
  return rows;
}

} // namespace

TEST_P(Alu, ValuGfx950) {
  if (!isGfx950())
    GTEST_SKIP() << "v_cvt_pk_f16/bf16_f32, v_cvt_f32_bf16, v_bitop3, v_maximum3 are gfx950 only";
  auto a = random32(), b = random32(), c = random32();
  for (int l = 16; l < 48; ++l) {
    a[l] = moderateFloat(rng);
    b[l] = moderateFloat(rng);
    c[l] = moderateFloat(rng);
  }
  for (int l = 0; l < 16; ++l) {
    a[l] = kFloatEdge[l][0];
    b[l] = kFloatEdge[l][1];
    c[l] = kFloatEdge[l][2];
  }
  // bf16 rounding ties and overflow: 1 + 2^-8 (tie, to even), 1 + 3 * 2^-8
  // (tie, up), the largest float (rounds to inf), an f32 sNaN.
  const uint32_t bfEdge[4] = {0x3f808000, 0x3f818000, 0x7f7fffff, 0x7f800001};
  for (int l = 48; l < 52; ++l)
    a[l] = bfEdge[l - 48];
  // Lanes 52..63: the three operands drawn from {-0, +0, 1, -1} (maximum
  // and minimum order the zeros), as f32 and as both f16 halves.
  const uint32_t zf[4] = {0x80000000u, 0, 0x3f800000u, 0xbf800000u};
  const uint32_t zh[4] = {0x80008000u, 0, 0x3c003c00u, 0xbc00bc00u};
  for (int l = 52; l < 64; ++l) {
    bool halves = l >= 58;
    a[l] = (halves ? zh : zf)[l % 4];
    b[l] = (halves ? zh : zf)[(l / 4) % 4];
    c[l] = (halves ? zh : zf)[(l + 1) % 2];
  }
  auto rows = valuGfx950Rows(a);
  ASSERT_EQ(rows.size(), 20u);
  run("valu_gfx950", rows, a, b, c);
}

//===----------------------------------------------------------------------===//
// salu2.s
//===----------------------------------------------------------------------===//

namespace {

std::vector<Row> salu2Rows() {
  // x = a | b << 32, y = c | ~c << 32 (see salu2.s).
  using W = std::function<uint64_t(uint64_t x, uint64_t y, uint32_t a, uint32_t b, uint32_t c)>;
  std::vector<Row> rows;
  auto lo = [&](std::string name, W f) {
    rows.push_back({name, [f](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(f(wide(a, b), wide(c, ~c), a, b, c)); }});
  };
  auto hi = [&](std::string name, W f) {
    rows.push_back({name, [f](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(f(wide(a, b), wide(c, ~c), a, b, c) >> 32); }});
  };
  auto nz = [&](std::string name, W f) {
    rows.push_back({name, [f](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(f(wide(a, b), wide(c, ~c), a, b, c) != 0); }});
  };
  auto d64 = [&](std::string name, W f, bool scc) {
    lo(name + " lo", f);
    hi(name + " hi", f);
    if (scc)
      nz(name + " scc", f);
  };
  lo("s_cmov_b32 (SCC = c[0])", [](uint64_t, uint64_t, uint32_t a, uint32_t b, uint32_t c) -> uint64_t { return (c & 1) ? b : a; });
  lo("s_cmovk_i32 0x8001 (SCC = c[1])", [](uint64_t, uint64_t, uint32_t a, uint32_t, uint32_t c) -> uint64_t { return bit(c, 1) ? 0xffff8001u : a; });
  d64("s_cmov_b64 (SCC = c[2])", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t c) { return bit(c, 2) ? y : x; }, false);
  d64("s_cselect_b64 (SCC = c[3])", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t c) { return bit(c, 3) ? x : y; }, false);
  d64("s_and_b64", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return x & y; }, true);
  d64("s_or_b64", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return x | y; }, true);
  d64("s_xor_b64", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return x ^ y; }, true);
  d64("s_andn2_b64", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return x & ~y; }, true);
  d64("s_orn2_b64", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return x | ~y; }, true);
  d64("s_nand_b64", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return ~(x & y); }, true);
  d64("s_nor_b64", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return ~(x | y); }, true);
  d64("s_xnor_b64", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return ~(x ^ y); }, true);
  d64("s_not_b64", [](uint64_t x, uint64_t, uint32_t, uint32_t, uint32_t) { return ~x; }, true);
  W bcnt0 = [](uint64_t x, uint64_t, uint32_t, uint32_t, uint32_t) { return uint64_t(64 - popcount(x)); };
  lo("s_bcnt0_i32_b64", bcnt0);
  nz("s_bcnt0_i32_b64 scc", bcnt0);
  d64("s_bitset1_b64", [](uint64_t x, uint64_t, uint32_t, uint32_t, uint32_t c) { return x | uint64_t(1) << (c & 63); }, false);
  d64("s_bitset0_b64", [](uint64_t x, uint64_t, uint32_t, uint32_t, uint32_t c) { return x & ~(uint64_t(1) << (c & 63)); }, false);
  auto scc = [&](std::string name, std::function<bool(uint64_t, uint64_t, uint32_t, uint32_t, uint32_t)> f) {
    rows.push_back({name, [f](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(f(wide(a, b), wide(c, ~c), a, b, c)); }});
  };
  scc("s_bitcmp0_b32", [](uint64_t, uint64_t, uint32_t a, uint32_t b, uint32_t) { return bit(a, b & 31) == 0; });
  scc("s_bitcmp1_b64", [](uint64_t x, uint64_t, uint32_t, uint32_t, uint32_t c) { return bit(x, c & 63) == 1; });
  scc("s_cmp_eq_u64", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return x == y; });
  scc("s_cmp_lg_u64", [](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return x != y; });
  scc("s_cmp_eq_i32", [](uint64_t, uint64_t, uint32_t a, uint32_t b, uint32_t) { return a == b; });
  scc("s_cmp_lg_i32", [](uint64_t, uint64_t, uint32_t a, uint32_t b, uint32_t) { return a != b; });
  scc("s_cmp_gt_i32", [](uint64_t, uint64_t, uint32_t a, uint32_t b, uint32_t) { return sx(a) > sx(b); });
  scc("s_cmp_ge_i32", [](uint64_t, uint64_t, uint32_t a, uint32_t b, uint32_t) { return sx(a) >= sx(b); });
  scc("s_cmp_le_i32", [](uint64_t, uint64_t, uint32_t a, uint32_t b, uint32_t) { return sx(a) <= sx(b); });
  scc("s_cmp_gt_u32", [](uint64_t, uint64_t, uint32_t a, uint32_t b, uint32_t) { return a > b; });
  scc("s_cmp_ge_u32", [](uint64_t, uint64_t, uint32_t a, uint32_t b, uint32_t) { return a >= b; });
  scc("s_cmp_le_u32", [](uint64_t, uint64_t, uint32_t a, uint32_t b, uint32_t) { return a <= b; });
  scc("s_cmpk_eq_i32 0xffff", [](uint64_t, uint64_t, uint32_t a, uint32_t, uint32_t) { return sx(a) == -1; });
  scc("s_cmpk_gt_i32 0x7fff", [](uint64_t, uint64_t, uint32_t a, uint32_t, uint32_t) { return sx(a) > 32767; });
  scc("s_cmpk_le_u32 0xffff", [](uint64_t, uint64_t, uint32_t a, uint32_t, uint32_t) { return a <= 0xffffu; });
  scc("s_cmpk_ge_u32 0x8000", [](uint64_t, uint64_t, uint32_t a, uint32_t, uint32_t) { return a >= 0x8000u; });
  scc("s_cmpk_lg_u32 1", [](uint64_t, uint64_t, uint32_t a, uint32_t, uint32_t) { return a != 1; });
  // EXEC ops with EXEC = x and S0 = y: the saved value (old EXEC, or the new
  // one for *_wrexec), the new EXEC, and SCC = (new EXEC != 0).
  auto exec = [&](std::string name, std::function<uint64_t(uint64_t ex, uint64_t s0)> f, bool wrexec) {
    W nw = [f](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return f(x, y); };
    W saved = [f, wrexec](uint64_t x, uint64_t y, uint32_t, uint32_t, uint32_t) { return wrexec ? f(x, y) : x; };
    lo(name + " saved lo", saved);
    hi(name + " saved hi", saved);
    lo(name + " exec lo", nw);
    hi(name + " exec hi", nw);
    nz(name + " scc", nw);
  };
  exec("s_and_saveexec_b64", [](uint64_t e, uint64_t s0) { return s0 & e; }, false);
  exec("s_andn2_saveexec_b64", [](uint64_t e, uint64_t s0) { return s0 & ~e; }, false);
  exec("s_xnor_saveexec_b64", [](uint64_t e, uint64_t s0) { return ~(s0 ^ e); }, false);
  exec("s_andn1_saveexec_b64", [](uint64_t e, uint64_t s0) { return ~s0 & e; }, false);
  exec("s_andn1_wrexec_b64", [](uint64_t e, uint64_t s0) { return ~s0 & e; }, true);
  exec("s_orn1_saveexec_b64", [](uint64_t e, uint64_t s0) { return ~s0 | e; }, false);
  return rows;
}

} // namespace

TEST_P(Alu, Salu2) {
  auto a = random32(), b = random32(), c = random32();
  for (int l = 0; l < 16; ++l) {
    a[l] = kSaluEdge[l][0];
    b[l] = kSaluEdge[l][1];
    c[l] = kSaluEdge[l][2];
  }
  // Lanes 16..23: equal operands and the SOPK constants.
  const uint32_t eq[8] = {0xffffffff, 0x7fff, 0x8000, 0xffff, 1, 0x10000, 0x7fffffff, 0xffff8000};
  for (int l = 16; l < 24; ++l) {
    a[l] = eq[l - 16];
    b[l] = l & 1 ? a[l] : b[l];
    if (l == 17) // x == y
      c[l] = a[l], b[l] = ~a[l];
  }
  auto rows = salu2Rows();
  ASSERT_EQ(rows.size(), 86u);
  run("salu2", rows, a, b, c);
}

//===----------------------------------------------------------------------===//
// valu_const.s
//===----------------------------------------------------------------------===//

namespace {

std::vector<Row> valuConstRows() {
  std::vector<Row> rows;
  auto add = [&](std::string name, Ref f, decltype(Row::nan) nan = Row::Exact) { rows.push_back({name, f, nan}); };
  auto k = [&](std::string name, uint32_t v) { add(name, [v](uint32_t, uint32_t, uint32_t, int) { return v; }); };
  auto k64 = [&](std::string name, uint64_t v) {
    k(name + " lo", uint32_t(v));
    k(name + " hi", uint32_t(v >> 32));
  };
  auto h = [](uint32_t v) { return fromF16(uint16_t(v)); };
  auto f16r = [](double x) { return uint32_t(toF16(x)); };
  const double inv2pi = 0.15915494309189532; // 1/(2*pi)
  // Inline constants take the operand's type: 1/(2*pi) is 0x3118 as f16,
  // 0x3e22f983 as f32, 0x3fc45f306dc9c882 as f64.
  add("v_add_f16 1.0, a", [=](uint32_t a, uint32_t, uint32_t, int) { return f16r(1.0 + h(a)); }, Row::F16NaN);
  add("v_add_f16 a, -2.0", [=](uint32_t a, uint32_t, uint32_t, int) { return f16r(h(a) - 2.0); }, Row::F16NaN);
  add("v_mul_f16 0x4248, a", [=](uint32_t a, uint32_t, uint32_t, int) { return f16r(3.140625 * h(a)); }, Row::F16NaN);
  add("v_mul_f16 1/(2pi), a", [=](uint32_t a, uint32_t, uint32_t, int) { return f16r(fromF16(0x3118) * h(a)); }, Row::F16NaN);
  add("v_mul_f32 0.5, a", [](uint32_t a, uint32_t, uint32_t, int) { return bitsOf(0.5f * floatOf(a)); }, Row::F32NaN);
  add("v_mul_f32 1/(2pi), a", [](uint32_t a, uint32_t, uint32_t, int) { return bitsOf(floatOf(0x3e22f983) * floatOf(a)); }, Row::F32NaN);
  add("v_add_f32 0x40490fdb, a", [](uint32_t a, uint32_t, uint32_t, int) { return bitsOf(floatOf(0x40490fdb) + floatOf(a)); }, Row::F32NaN);
  add("v_add_f32 a, -4.0", [](uint32_t a, uint32_t, uint32_t, int) { return bitsOf(floatOf(a) - 4.0f); }, Row::F32NaN);
  add("v_add_u16 -1, a", [](uint32_t a, uint32_t, uint32_t, int) { return (a + 0xffff) & 0xffff; });
  add("v_add_u16 0x1234, a", [](uint32_t a, uint32_t, uint32_t, int) { return (a + 0x1234) & 0xffff; });
  // Packed ops see a constant in the low half, 0 in the high half: op_sel_hi
  // 0 replicates it (what LLVM emits), op_sel_hi 1 reads the 0.
  add("v_pk_add_f16 a, 1.0 op_sel_hi:[1,0]", [=](uint32_t a, uint32_t, uint32_t, int) {
    return fmaToF16(h(a), 1.0, 1.0) | uint32_t(fmaToF16(h(a >> 16), 1.0, 1.0)) << 16;
  }, Row::PkF16NaN);
  add("v_pk_add_f16 a, 1.0 (op_sel_hi:[1,1])", [=](uint32_t a, uint32_t, uint32_t, int) {
    return fmaToF16(h(a), 1.0, 1.0) | uint32_t(fmaToF16(h(a >> 16), 1.0, 0.0)) << 16;
  }, Row::PkF16NaN);
  add("v_pk_add_u16 a, 1 op_sel_hi:[1,0]", [](uint32_t a, uint32_t, uint32_t, int) {
    return ((a + 1) & 0xffff) | (((a >> 16) + 1) & 0xffff) << 16;
  });
  add("v_pk_mul_f16 a, 0x4000 op_sel_hi:[1,0]", [=](uint32_t a, uint32_t, uint32_t, int) {
    return fmaToF16(h(a), 2.0, -0.0) | uint32_t(fmaToF16(h(a >> 16), 2.0, -0.0)) << 16;
  }, Row::PkF16NaN);
  add("v_fma_f16 a, 0.5, b", [=](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(fmaToF16(h(a), 0.5, h(b))); }, Row::F16NaN);
  k("v_cvt_f32_f16 0.5", 0x3f000000);
  k("v_cvt_f32_f16 -4.0", 0xc0800000);
  add("v_ldexp_f32 1.0, b", [](uint32_t, uint32_t b, uint32_t, int) { return bitsOf(std::ldexp(1.0f, int32_t(b))); });
  add("v_and_b32 0x3fff, a", [](uint32_t a, uint32_t, uint32_t, int) { return a & 0x3fff; });
  k("v_mov_b32 1/(2pi)", 0x3e22f983);
  k("v_mov_b32 -0.5", 0xbf000000);
  k("v_mov_b32 -16", 0xfffffff0);
  add("v_max_i16 -16, a", [](uint32_t a, uint32_t, uint32_t, int) { return uint32_t(std::max<int64_t>(-16, sx16(a))) & 0xffff; });
  add("v_lshlrev_b16 3, a", [](uint32_t a, uint32_t, uint32_t, int) { return (a << 3) & 0xffff; });
  // f64: x = c | a << 32.
  auto d = [&](std::string name, std::function<double(double)> f) {
    auto v = [f](uint32_t a, uint32_t c) { return bitsOf(f(doubleOf(wide(c, a)))); };
    add(name + " lo", [v](uint32_t a, uint32_t, uint32_t c, int) { return uint32_t(v(a, c)); }, Row::F64NaN);
    add(name + " hi", [v](uint32_t a, uint32_t, uint32_t c, int) { return uint32_t(v(a, c) >> 32); });
  };
  d("v_add_f64 x, 1.0", [](double x) { return x + 1.0; });
  // A 32-bit literal for an f64 operand is its high dword.
  k("v_cvt_f32_f64 3.0 (literal: high dword)", 0x40400000);
  d("v_add_f64 x, s[24:25] = 2.5", [](double x) { return x + 2.5; });
  d("v_mul_f64 x, 1/(2pi)", [=](double x) { return x * inv2pi; });
  d("v_add_f64 -x, -2.0", [](double x) { return -x - 2.0; });
  k64("v_mov_b64 -1", ~uint64_t(0));
  k64("v_mov_b64 0.5", bitsOf(0.5));
  k64("v_lshlrev_b64 1, -1", ~uint64_t(1));
  k("s_mov_b32 1.0", 0x3f800000);
  k64("s_mov_b64 1.0", bitsOf(1.0));
  k64("s_mov_b64 -2", ~uint64_t(1));
  // A 32-bit literal for a 64-bit integer operand is zero-extended (LLVM
  // keeps 0xfffffff0 as a literal, distinct from the inline constant -16).
  k64("s_mov_b64 0x12345678", 0x12345678);
  k64("s_mov_b64 literal 0xfffffff0", 0xfffffff0u);
  k64("s_mov_b64 literal 0x80000000", 0x80000000u);
  k64("v_mov_b64 literal 0x87654321", 0x87654321u);
  k64("s_lshl_b64 0x80000000, 1", uint64_t(0x80000000u) << 1);
  k("v_cvt_f16_f32 1/(2pi) (f32)", toF16(double(floatOf(0x3e22f983))));
  k("v_add_f32 1/(2pi), 0 (e64)", 0x3e22f983);
  return rows;
}

} // namespace

TEST_P(Alu, InlineConstantsAndLiterals) {
  auto a = random32(), b = random32(), c = random32();
  for (int l = 0; l < 48; ++l) {
    a[l] = l < 32 ? moderateHalves(rng) : moderateFloat(rng);
    b[l] = l < 32 ? moderateHalves(rng) : uint32_t(int32_t(rng() % 300) - 150);
  }
  auto rows = valuConstRows();
  ASSERT_EQ(rows.size(), 56u);
  run("valu_const", rows, a, b, c);
}

//===----------------------------------------------------------------------===//
// valu_special.s
//===----------------------------------------------------------------------===//

namespace {

/// The exact result of a transcendental, rounded to the format, or nullopt
/// when rounding would be needed (the hardware is only within an ulp).
template <class T> std::optional<T> exactIn(long double r) {
  if (std::isnan(r) || std::isinf(r) || (long double)T(r) == r)
    return T(r);
  return std::nullopt;
}

enum class Tr { Rcp, Rsq, Sqrt, Log, Exp, Sin, Cos };
/// Special-value rules (CDNA3 ISA): rcp(+-0) = +-inf, rsq(+0) = +inf,
/// rsq(-0) = -inf, sqrt(-0) = -0, log(+-0) = -inf, exp(-inf) = +0; negative
/// inputs to rsq/sqrt/log and infinite ones to sin/cos give NaN.
long double trExact(Tr op, long double x) {
  switch (op) {
  case Tr::Rcp: return 1 / x;
  case Tr::Rsq: return x == 0 ? 1 / x : 1 / sqrtl(x);
  case Tr::Sqrt: return sqrtl(x);
  case Tr::Log: return x == 0 ? -INFINITY : log2l(x);
  case Tr::Exp: return exp2l(x);
  case Tr::Sin:
    return std::isinf(x) || std::isnan(x) ? NAN : x == 0 ? x : NAN;
  case Tr::Cos:
    return std::isinf(x) || std::isnan(x) ? NAN : x == 0 ? 1 : NAN;
  }
  return NAN;
}

/// f32 forms: denormal inputs are flushed to zero (LLVM scales denormal
/// inputs of v_log/v_sqrt/v_rcp for this reason); denormal or inexact
/// results and sin/cos of finite non-zero inputs are not checked.
uint32_t trF32(Tr op, uint32_t a) {
  float x = floatOf(a);
  // sin/cos of a denormal: whether the input is flushed is not settled here
  // (the emulator keeps it and returns a denormal sine).
  if ((op == Tr::Sin || op == Tr::Cos) && std::isfinite(x) &&
      (x != 0 || std::fpclassify(floatOf(a)) == FP_SUBNORMAL))
    return kAny;
  if (std::fpclassify(x) == FP_SUBNORMAL)
    x = std::copysign(0.0f, x);
  auto r = exactIn<float>(trExact(op, x));
  if (!r || std::fpclassify(*r) == FP_SUBNORMAL)
    return kAny;
  return bitsOf(*r);
}
uint32_t trF16(Tr op, uint32_t c) {
  double x = fromF16(uint16_t(c));
  long double r = trExact(op, x);
  uint16_t h = toF16(double(r));
  if (!std::isnan(r) && !std::isinf(r) && (long double)fromF16(h) != r)
    return kAny; // inexact
  if ((h & 0x7c00) == 0 && (h & 0x3ff))
    return kAny; // denormal result
  return h;
}

} // namespace

TEST_P(Alu, TranscendentalSpecialValues) {
  auto a = random32(), b = random32(), c = random32();
  const uint32_t f32s[24] = {0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                             0x7f800001, 0xbf800000, 0x3f800000, 0x40800000,
                             0x3e800000, 0x40000000, 0xc0000000, 0x00000001,
                             0x80400000, 0x7e800000, 0x00800000, 0x41800000,
                             0x3f000000, 0xc2fc0000, 0xc2fe0000, 0x43000000,
                             0x40400000, 0x4b800000, 0x3d800000};
  const uint16_t f16s[24] = {0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xbc00,
                             0x3c00, 0x4400, 0x3400, 0x4000, 0xc000, 0x0001,
                             0x8200, 0x7800, 0x0400, 0x4c00, 0x3800, 0xc900,
                             0x4a00, 0x5000, 0x2c00, 0x0100, 0x4900};
  // f64 x = b | a << 32: specials and powers of two (b = 0).
  const uint32_t f64hi[24] = {0, 0x80000000, 0x7ff00000, 0xfff00000, 0x7ff80000,
                              0x7ff00000, 0xbff00000, 0x3ff00000, 0x40100000,
                              0x3fd00000, 0x40000000, 0xc0000000, 0x00000000,
                              0x80000000, 0x7fd00000, 0x00100000, 0x40300000,
                              0x3fe00000, 0x3f000000, 0x40f00000, 0x41000000,
                              0x3e000000, 0x42000000, 0x3c000000};
  for (int l = 0; l < 24; ++l) {
    a[l] = f32s[l];
    c[l] = f16s[l] | (c[l] & 0xffff0000u);
  }
  std::vector<Row> rows;
  const Tr f32ops[] = {Tr::Rcp, Tr::Rsq, Tr::Sqrt, Tr::Log, Tr::Exp, Tr::Sin, Tr::Cos, Tr::Rcp};
  const char *f32names[] = {"v_rcp_f32", "v_rsq_f32", "v_sqrt_f32", "v_log_f32", "v_exp_f32",
                            "v_sin_f32 (revolutions)", "v_cos_f32 (revolutions)", "v_rcp_iflag_f32"};
  for (int k = 0; k < 8; ++k) {
    Tr op = f32ops[k];
    rows.push_back({f32names[k], [op](uint32_t a, uint32_t, uint32_t, int l) {
                      return l < 24 ? trF32(op, a) : kAny;
                    }, Row::F32NaN});
  }
  const Tr f16ops[] = {Tr::Rcp, Tr::Sqrt, Tr::Rsq, Tr::Log, Tr::Exp};
  const char *f16names[] = {"v_rcp_f16", "v_sqrt_f16", "v_rsq_f16", "v_log_f16", "v_exp_f16"};
  for (int k = 0; k < 5; ++k) {
    Tr op = f16ops[k];
    rows.push_back({f16names[k], [op](uint32_t, uint32_t, uint32_t c, int l) {
                      return l < 24 ? trF16(op, c) : kAny;
                    }, Row::F16NaN});
  }
  // f64: x = b | a << 32 with the table above in a and b = 0 (so the f32
  // specials' lanes become f64 specials; lane 5 is an sNaN with b = 1).
  for (int l = 0; l < 24; ++l) {
    a[l] = f64hi[l];
    b[l] = l == 5 ? 1 : 0;
  }
  // a changed: the f32 rows above read it, so run the f32/f16 rows on the
  // f32 table and the f64 rows on this one, in two launches of the kernel.
  std::vector<uint32_t> a32 = a;
  for (int l = 0; l < 24; ++l)
    a32[l] = f32s[l];
  const Tr f64ops[] = {Tr::Rcp, Tr::Rsq, Tr::Sqrt};
  const char *f64names[] = {"v_rcp_f64", "v_rsq_f64", "v_sqrt_f64"};
  std::vector<Row> rows64(rows.size(), Row{"(f32/f16 row, checked in the other launch)",
                                          [](uint32_t, uint32_t, uint32_t, int) { return kAny; }});
  std::vector<Row> rows32 = rows;
  for (int k = 0; k < 3; ++k) {
    Tr op = f64ops[k];
    auto v = [op](uint32_t a, uint32_t b) -> std::optional<uint64_t> {
      double x = doubleOf(wide(b, a));
      if (std::fpclassify(x) == FP_SUBNORMAL)
        return std::nullopt;
      auto r = exactIn<double>(trExact(op, x));
      if (!r || std::fpclassify(*r) == FP_SUBNORMAL)
        return std::nullopt;
      return bitsOf(*r);
    };
    rows64.push_back({std::string(f64names[k]) + " lo", [v](uint32_t a, uint32_t b, uint32_t, int l) {
                        auto r = l < 24 ? v(a, b) : std::nullopt;
                        return r ? uint32_t(*r) : kAny;
                      }, Row::F64NaN});
    rows64.push_back({std::string(f64names[k]) + " hi", [v](uint32_t a, uint32_t b, uint32_t, int l) {
                        auto r = l < 24 ? v(a, b) : std::nullopt;
                        return r ? uint32_t(*r >> 32) : kAny;
                      }});
    for (int j = 0; j < 2; ++j)
      rows32.push_back({"(f64 row, checked in the other launch)",
                        [](uint32_t, uint32_t, uint32_t, int) { return kAny; }});
  }
  ASSERT_EQ(rows32.size(), 19u);
  run("valu_special", rows32, a32, b, c);
  run("valu_special", rows64, a, b, c);
}

//===----------------------------------------------------------------------===//
// valu_carry_dpp.s
//===----------------------------------------------------------------------===//

TEST_P(Alu, CarryOpsDppSdwa) {
  auto a = random32(), b = random32(), c = random32();
  for (int l = 0; l < 16; ++l) // carries and borrows in the first lanes
    b[l] = ~a[(l + 63) % 64] + (l & 1);
  const std::vector<uint32_t> A = a;
  std::vector<Row> rows;
  // DPP: lane l adds src0 from lane dppSrc(l) (0 when invalid, with
  // bound_ctrl); lanes DPP disables keep the destination (c), and their VCC
  // bit is not checked.
  auto dppCarry = [&](std::string name, int shift, unsigned rowMask, bool bound, bool carryIn) {
    auto enabled = [=](int l) {
      int s = dppSrc("row_shr", shift, l);
      return ((rowMask >> (l / 16)) & 1) && (s >= 0 || bound);
    };
    auto sum = [=](uint32_t b, uint32_t c, int l) {
      int s = dppSrc("row_shr", shift, l);
      return uint64_t(s >= 0 ? A[s] : 0) + b + (carryIn ? (c & 1) : 0);
    };
    rows.push_back({name, [=](uint32_t, uint32_t b, uint32_t c, int l) {
                      return enabled(l) ? uint32_t(sum(b, c, l)) : c;
                    }});
    rows.push_back({name + " vcc", [=](uint32_t, uint32_t b, uint32_t c, int l) {
                      return enabled(l) ? uint32_t(sum(b, c, l) >> 32) : kAny;
                    }});
  };
  dppCarry("v_add_co_u32_dpp row_shr:1", 1, 0xf, false, false);
  dppCarry("v_add_co_u32_dpp row_shr:1 rows 0,2 bound_ctrl", 1, 0x5, true, false);
  dppCarry("v_addc_co_u32_dpp row_shr:2 (carry-in c & 1)", 2, 0xf, false, true);
  // SDWA: the carry is the operation's on the selected sources; the result
  // goes through the destination select.
  rows.push_back({"v_add_co_u32_sdwa to word1 preserve", [](uint32_t a, uint32_t b, uint32_t c, int) {
                    return sdwaDst(sdwaSel(a, 0, false) + b, c, 5, Preserve);
                  }});
  rows.push_back({"v_add_co_u32_sdwa to word1 preserve vcc", [](uint32_t a, uint32_t b, uint32_t, int) {
                    return uint32_t((uint64_t(sdwaSel(a, 0, false)) + b) >> 32);
                  }});
  rows.push_back({"v_sub_co_u32_sdwa to byte0", [](uint32_t a, uint32_t b, uint32_t c, int) {
                    return sdwaDst(sdwaSel(a, 5, false) - sdwaSel(b, 2, false), c, 0, Pad);
                  }});
  rows.push_back({"v_sub_co_u32_sdwa to byte0 vcc", [](uint32_t a, uint32_t b, uint32_t, int) {
                    return uint32_t(sdwaSel(b, 2, false) > sdwaSel(a, 5, false));
                  }});
  ASSERT_EQ(rows.size(), 10u);
  run("valu_carry_dpp", rows, a, b, c);
}

// v_mov_b64_dpp once ran as a plain v_mov_b64 (vop64 ignored DPP), then
// was refused; mov64_dpp.s: row_newbcast:N moves lane N of the lane's 16-lane row, both
// dwords; row_mask/bank_mask leave the other lanes' registers alone.
TEST_P(Alu, Mov64Dpp) {
  auto a = random32(), b = random32(), c = random32();
  auto src = [](int l, int n) { return (l & ~15) + n; };
  std::vector<Row> rows = {
      {"v_mov_b64_dpp row_newbcast:1 lo", [&](uint32_t, uint32_t, uint32_t, int l) { return a[src(l, 1)]; }},
      {"v_mov_b64_dpp row_newbcast:1 hi", [&](uint32_t, uint32_t, uint32_t, int l) { return b[src(l, 1)]; }},
      {"v_mov_b64_dpp row_newbcast:15 masked lo", [&](uint32_t, uint32_t, uint32_t cv, int l) {
         bool written = ((0x6 >> (l / 16)) & 1) && ((0x9 >> ((l / 4) % 4)) & 1);
         return written ? a[src(l, 15)] : cv;
       }},
      {"v_mov_b64_dpp row_newbcast:15 masked hi", [&](uint32_t, uint32_t, uint32_t cv, int l) {
         bool written = ((0x6 >> (l / 16)) & 1) && ((0x9 >> ((l / 4) % 4)) & 1);
         return written ? b[src(l, 15)] : cv;
       }},
  };
  run("mov64_dpp", rows, a, b, c);
}

//===----------------------------------------------------------------------===//
// valu_dot.s
//===----------------------------------------------------------------------===//

namespace {

/// Sum of the products of the `n` equal fields of a and b (each `bits`
/// wide, sign-extended when isSigned), exactly.
int64_t dotRef(uint32_t a, uint32_t b, unsigned bits, bool isSigned) {
  int64_t s = 0;
  for (unsigned i = 0; i < 32 / bits; ++i) {
    uint64_t x = field(a, i * bits, bits), y = field(b, i * bits, bits);
    s += isSigned ? sext(x, bits) * sext(y, bits) : int64_t(x) * int64_t(y);
  }
  return s;
}

} // namespace

TEST_P(Alu, SignedAddAndIntegerDot) {
  auto a = random32(), b = random32(), c = random32();
  for (int l = 0; l < 16; ++l) {
    a[l] = kIntEdge[l][0];
    b[l] = kIntEdge[l][1];
    c[l] = kIntEdge[l][2];
  }
  // Lanes 16..19: dot products at the clamp limits.
  a[16] = 0x80808080, b[16] = 0x80808080, c[16] = 0x7fffffff; // 4 * 2^14 + max
  a[17] = 0xffffffff, b[17] = 0xffffffff, c[17] = 0xffffff00; // u8: 4 * 255^2
  a[18] = 0x80008000, b[18] = 0x7fff7fff, c[18] = 0x80000000; // i16, min
  a[19] = 0x88888888, b[19] = 0x77777777, c[19] = 0x80000000; // i4
  const std::vector<uint32_t> A = a;
  auto s32 = [](int64_t v) { return uint32_t(int32_t(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX))); };
  auto u32 = [](int64_t v) { return uint32_t(std::clamp<int64_t>(v, 0, UINT32_MAX)); };
  std::vector<Row> rows = {
      {"v_add_i32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(sx(a) + sx(b)); }},
      {"v_add_i32 clamp", [=](uint32_t a, uint32_t b, uint32_t, int) { return s32(sx(a) + sx(b)); }},
      {"v_sub_i32 clamp", [=](uint32_t a, uint32_t b, uint32_t, int) { return s32(sx(a) - sx(b)); }},
      {"v_sub_i32", [](uint32_t a, uint32_t b, uint32_t, int) { return uint32_t(sx(a) - sx(b)); }},
      {"v_dot4_i32_i8", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(dotRef(a, b, 8, true) + sx(c)); }},
      {"v_dot4_i32_i8 clamp", [=](uint32_t a, uint32_t b, uint32_t c, int) { return s32(dotRef(a, b, 8, true) + sx(c)); }},
      {"v_dot4_u32_u8", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(dotRef(a, b, 8, false) + c); }},
      {"v_dot4_u32_u8 clamp", [=](uint32_t a, uint32_t b, uint32_t c, int) { return u32(dotRef(a, b, 8, false) + c); }},
      {"v_dot2_i32_i16", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(dotRef(a, b, 16, true) + sx(c)); }},
      {"v_dot2_u32_u16 clamp", [=](uint32_t a, uint32_t b, uint32_t c, int) { return u32(dotRef(a, b, 16, false) + c); }},
      {"v_dot8_i32_i4", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(dotRef(a, b, 4, true) + sx(c)); }},
      {"v_dot8_u32_u4 clamp", [=](uint32_t a, uint32_t b, uint32_t c, int) { return u32(dotRef(a, b, 4, false) + c); }},
      {"v_dot4c_i32_i8 (acc c)", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(dotRef(a, b, 8, true) + sx(c)); }},
      {"v_dot2c_i32_i16 (acc c)", [](uint32_t a, uint32_t b, uint32_t c, int) { return uint32_t(dotRef(a, b, 16, true) + sx(c)); }},
      // DPP: src0 from lane l - 1 of the row; the first lane of each row has
      // no source (no bound_ctrl) and keeps c.
      {"v_dot4c_i32_i8_dpp row_shr:1 (acc c)", [=](uint32_t, uint32_t b, uint32_t c, int l) {
         return l % 16 == 0 ? c : uint32_t(dotRef(A[l - 1], b, 8, true) + sx(c));
       }},
      {"v_fract_f16", [](uint32_t a, uint32_t, uint32_t, int) {
         double x = fromF16(uint16_t(a));
         if (std::isnan(x) || std::isinf(x))
           return uint32_t(0x7e00);
         return uint32_t(toF16(std::min(x - std::floor(x), fromF16(0x3bff))));
       }, Row::F16NaN},
      {"v_fmac_f32_dpp row_shr:1 (acc c)", [=](uint32_t, uint32_t b, uint32_t c, int l) {
         return l % 16 == 0 ? c : bitsOf(std::fma(floatOf(A[l - 1]), floatOf(b), floatOf(c)));
       }, Row::F32NaN},
      // a.lo * b.lo + a.hi * b.hi + c (f16 products, f32 c), rounded once.
      {"v_dot2_f32_f16 neg_lo:[1,0,1] neg_hi:[0,1,0]", [](uint32_t a, uint32_t b, uint32_t c, int) {
         long double s = -(long double)hf(a, 0) * hf(b, 0) + (long double)hf(a, 1) * -hf(b, 1) - floatOf(c);
         return bitsOf(float(s));
       }, Row::F32NaN},
      {"v_dot2c_f32_f16 (acc c)", [](uint32_t a, uint32_t b, uint32_t c, int) {
         long double s = (long double)hf(a, 0) * hf(b, 0) + (long double)hf(a, 1) * hf(b, 1) + floatOf(c);
         return bitsOf(float(s));
       }, Row::F32NaN},
      {"v_dot2c_f32_f16_dpp row_shr:1 (acc c)", [=](uint32_t, uint32_t b, uint32_t c, int l) {
         if (l % 16 == 0)
           return c;
         uint32_t a = A[l - 1];
         long double s = (long double)hf(a, 0) * hf(b, 0) + (long double)hf(a, 1) * hf(b, 1) + floatOf(c);
         return bitsOf(float(s));
       }, Row::F32NaN},
      // The VOP3 encoding has no op_sel: the same halves as e32.
      {"v_dot2c_f32_f16_e64 (acc c)", [](uint32_t a, uint32_t b, uint32_t c, int) {
         long double s = (long double)hf(a, 0) * hf(b, 0) + (long double)hf(a, 1) * hf(b, 1) + floatOf(c);
         return bitsOf(float(s));
       }, Row::F32NaN},
  };
  run("valu_dot", rows, a, b, c);
}

//===----------------------------------------------------------------------===//
// valu_16bit.s
//===----------------------------------------------------------------------===//

namespace {

// Lanes 0..15 of a, b, c: 16-bit limits, f16 specials (NaN, sNaN, zeros,
// infinities, denormals) and the division special cases of
// V_DIV_FIXUP_F16 (S0 quotient, S1 denominator, S2 numerator), quarter
// turns for sin/cos, and f64 exponents around trig_preop's thresholds
// (b is the high dword of the f64 a | b << 32).
const uint32_t k16Edge[16][3] = {
    {0, 0, 0},
    {0x7fff, 0x0001, 0x8000},             // i16 add overflows
    {0x8000, 0x0001, 0x7fff},             // i16 sub overflows
    {0xffff8000, 0x43508000, 0xffff7fff}, // -32768 + -32768; f64 exp 1077
    {0x7e00, 0x3c00, 0x4000},             // qNaN first
    {0x7c01, 0x43603c00, 0xbc00},         // sNaN first; f64 exp 1078
    {0x3c00, 0x0000, 0x8000},             // fixup: 0 / 0
    {0x3c00, 0x7c00, 0xfc00},             // fixup: inf / inf
    {0x1234, 0x7b008000, 0x4200},         // fixup: x / -0; f64 exp 1968
    {0x1234, 0x7c00, 0x4200},             // fixup: x / inf
    {0x3e00, 0x7ff8c000, 0x4200},         // fixup: 3 / -2 (q 1.5); f64 NaN
    {0x3400, 0x7ff00000, 0x1f},           // 0.25 (sin 1); f64 inf
    {0xb400, 0x7aff0000, 0x7fff7c01},     // -0.25 (sin -1); f64 exp 1967
    {0x0001, 0x00010001, 0x03ff},         // f16 denormals
    {0x7c00, 0xfc00fc00, 0xffffffff},     // inf
    {0xfbff, 0x3ff00000, 0x1},            // -65504; f64 1.0 (hi), segment 1
};

/// V_FREXP_EXP of an f16: e with |x| = m * 2^e, 0.5 <= m < 1, found by
/// scaling |x| into [0.5, 1) one factor of 2 at a time.
int frexpExp16(double x) {
  x = std::fabs(x);
  int e = 0;
  while (x >= 1) { x /= 2; ++e; }
  while (x < 0.5) { x *= 2; --e; }
  return e;
}

/// V_DIV_FIXUP_F16's cases in the ISA's order.
uint32_t divFixup16Ref(uint16_t q, uint16_t den, uint16_t num) {
  double d = fromF16(den), n = fromF16(num);
  bool neg = (std::signbit(d) != std::signbit(n));
  if (std::isnan(n)) return num | 0x200;
  if (std::isnan(d)) return den | 0x200;
  if (d == 0 && n == 0) return 0xfe00;
  if (std::isinf(d) && std::isinf(n)) return 0xfe00;
  if (d == 0 || std::isinf(n)) return neg ? 0xfc00 : 0x7c00;
  if (std::isinf(d) || n == 0) return neg ? 0x8000 : 0x0000;
  return (q & 0x7fff) | (neg ? 0x8000 : 0);
}

/// sin(2 pi x) / cos(2 pi x) of an f16 x, rounded to f16. Exact at
/// quarter turns; a zero there other than sin(+-0) = +-0 has a sign the
/// ISA does not give, so that lane is not checked.
uint32_t sinCos16Ref(uint16_t h, bool cosine) {
  double x = fromF16(h);
  if (!std::isfinite(x))
    return 0x7e00;
  if (x == 0)
    return cosine ? 0x3c00 : h;
  long double turns = std::remainder((long double)x, 1.0L); // exact
  long double quarter = turns * 4;
  if (quarter == std::floor(quarter)) {
    long double v = cosine ? std::cos(turns * 2 * 3.14159265358979323846264338327950288L)
                           : std::sin(turns * 2 * 3.14159265358979323846264338327950288L);
    if (std::fabs(v) < 0.5L)
      return kAny;
    return v > 0 ? 0x3c00 : 0xbc00;
  }
  const long double twoPi = 6.28318530717958647692528676655900577L;
  long double v = cosine ? std::cos(twoPi * turns) : std::sin(twoPi * turns);
  return toF16(double(v));
}

/// 2/pi in hexadecimal, the first 1201 bits of its binary fraction
/// (V_TRIG_PREOP_F64's table; digits past bit 1201 are dropped below).
const char *kTwoOverPiHex =
    "A2F9836E4E441529FC2757D1F534DDC0DB6295993C439041FE5163ABDEBBC561"
    "B7246E3A424DD2E006492EEA09D1921CFE1DEB1CB129A73EE88235F52EBB4484"
    "E99C7026B45F7E413991D639835339F49C845F8BBDF9283B1FF897FFDE05980F"
    "EF2F118B5A0A6D1F6D367ECF27CB09B74F463F669E5FEA2D7527BAC7EBE5F17B"
    "3D0739F78A5292EA6BFB5FB11F8D5D0856033046FC7B6BABF0CFBC20";
int twoOverPiBit(int i) { // i = 0 is the 2^-1 bit
  if (i >= 1201)
    return 0;
  char ch = kTwoOverPiHex[i / 4];
  int nib = ch <= '9' ? ch - '0' : ch - 'A' + 10;
  return (nib >> (3 - i % 4)) & 1;
}
uint64_t trigPreopRef(uint64_t x, uint32_t seg) {
  double d = doubleOf(x);
  if (std::isnan(d))
    return x | (uint64_t(1) << 51);
  int e = int(field(x, 52, 11));
  int shift = int(seg % 32) * 53;
  if (e > 1077)
    shift += e - 1077;
  // The 53 bits from bit `shift` on, as an integer, in units of their last
  // bit's place value 2^-(shift + 53).
  uint64_t m = 0;
  for (int i = 0; i < 53; ++i)
    m = 2 * m + uint64_t(twoOverPiBit(shift + i));
  int scale = -(shift + 53);
  if (e >= 1968)
    scale += 128;
  return bitsOf(std::ldexp(double(m), scale));
}

/// f32_to_snorm / f32_to_unorm as 16-bit patterns: the scaled value's
/// integer part, plus one when the rest is above a half or exactly a half
/// with an odd integer part.
uint32_t normRef(float x, bool isSigned) {
  if (std::isnan(x))
    return 0;
  double lo = isSigned ? -1.0 : 0.0;
  double v = (x < lo ? lo : x > 1.0 ? 1.0 : double(x)) * (isSigned ? 32767.0 : 65535.0);
  double i = std::floor(v), rest = v - i;
  if (rest > 0.5 || (rest == 0.5 && std::fmod(i, 2.0) != 0))
    i += 1;
  return uint32_t(int32_t(i)) & 0xffff;
}

std::vector<Row> valu16BitRows() {
  auto lo = [](uint32_t v) { return v & 0xffff; };
  auto keepHi = [](uint32_t r, uint32_t c) { return (r & 0xffff) | (c & 0xffff0000u); };
  auto s16 = [](uint32_t v) { return sx16(v); };
  auto byteOf = [](uint32_t v, int i) { return int((v >> (8 * i)) & 0xff); };
  std::vector<Row> rows = {
      {"v_add_i16", [=](uint32_t a, uint32_t b, uint32_t, int) { return lo(uint32_t(s16(a) + s16(b))); }},
      {"v_add_i16 clamp", [=](uint32_t a, uint32_t b, uint32_t, int) { return satI16(s16(a) + s16(b)); }},
      {"v_sub_i16", [=](uint32_t a, uint32_t b, uint32_t, int) { return lo(uint32_t(s16(a) - s16(b))); }},
      {"v_sub_i16 clamp", [=](uint32_t a, uint32_t b, uint32_t, int) { return satI16(s16(a) - s16(b)); }},
      {"v_mad_u16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return keepHi(uint32_t(uint64_t(lo(a)) * lo(b) + lo(c)), c); }},
      {"v_mad_u16 op_sel", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         uint32_t r = uint32_t(uint64_t(a >> 16) * (b >> 16) + (c >> 16)) & 0xffff;
         return (r << 16) | lo(c); }},
      {"v_mad_legacy_u16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return lo(uint32_t(uint64_t(lo(a)) * lo(b) + lo(c))); }},
      {"v_mad_i16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return keepHi(uint32_t(s16(a) * s16(b) + s16(c)), c); }},
      {"v_mad_legacy_i16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return lo(uint32_t(s16(a) * s16(b) + s16(c))); }},
      {"v_mad_i32_i16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return uint32_t(s16(a) * s16(b) + sx(c)); }},
      {"v_min3_i16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return keepHi(uint32_t(std::min({s16(a), s16(b), s16(c)})), c); }},
      {"v_max3_i16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return keepHi(uint32_t(std::max({s16(a), s16(b), s16(c)})), c); }},
      {"v_med3_i16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return keepHi(median3(s16(a), s16(b), s16(c)), c); }},
      {"v_min3_u16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return keepHi(std::min({lo(a), lo(b), lo(c)}), c); }},
      {"v_max3_u16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return keepHi(std::max({lo(a), lo(b), lo(c)}), c); }},
      {"v_med3_u16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return keepHi(median3(lo(a), lo(b), lo(c)), c); }},
      {"v_med3_i16 op_sel", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return (median3(s16(a >> 16), s16(b >> 16), s16(c >> 16)) << 16) | lo(c); }},
      {"v_min3_f16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return keepHi(minMaxF16(minMaxF16(a, b, false), c, false), c); }, Row::F16NaN},
      {"v_max3_f16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return keepHi(minMaxF16(minMaxF16(a, b, true), c, true), c); }, Row::F16NaN},
      {"v_med3_f16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         // ISA: a NaN operand gives V_MIN3_F16; else the max of the two
         // operands left when the first one equal to V_MAX3_F16 is taken out.
         if (isNaN16(lo(a)) || isNaN16(lo(b)) || isNaN16(lo(c)))
           return keepHi(minMaxF16(minMaxF16(a, b, false), c, false), c);
         double m = fromF16(uint16_t(minMaxF16(minMaxF16(a, b, true), c, true)));
         uint32_t r = m == fromF16(uint16_t(a))   ? minMaxF16(b, c, true)
                      : m == fromF16(uint16_t(b)) ? minMaxF16(a, c, true)
                                                  : minMaxF16(a, b, true);
         return keepHi(r, c); }, Row::F16NaN},
      {"v_div_fixup_f16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return keepHi(divFixup16Ref(uint16_t(a), uint16_t(b), uint16_t(c)), c); }, Row::F16NaN},
      {"v_div_fixup_f16 op_sel:[0,0,0,1]", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return (divFixup16Ref(uint16_t(a), uint16_t(b), uint16_t(c)) << 16) | lo(c); }},
      {"v_div_fixup_legacy_f16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return divFixup16Ref(uint16_t(a), uint16_t(b), uint16_t(c)); }, Row::F16NaN},
      {"v_frexp_mant_f16", [=](uint32_t a, uint32_t, uint32_t, int) -> uint32_t {
         double x = fromF16(uint16_t(a));
         if (std::isnan(x)) return 0x7e00;
         if (std::isinf(x) || x == 0) return lo(a);
         return toF16(std::ldexp(x, -frexpExp16(x))); }, Row::F16NaN},
      {"v_frexp_exp_i16_f16", [=](uint32_t a, uint32_t, uint32_t, int) -> uint32_t {
         double x = fromF16(uint16_t(a));
         if (!std::isfinite(x) || x == 0) return 0;
         return lo(uint32_t(frexpExp16(x))); }},
      {"v_sin_f16", [=](uint32_t a, uint32_t, uint32_t, int) { return sinCos16Ref(uint16_t(a), false); }, Row::F16NaN},
      {"v_cos_f16", [=](uint32_t a, uint32_t, uint32_t, int) { return sinCos16Ref(uint16_t(a), true); }, Row::F16NaN},
      {"v_sad_u8", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         int64_t s = 0;
         for (int i = 0; i < 4; ++i) s += std::abs(byteOf(a, i) - byteOf(b, i));
         return uint32_t(s + c); }},
      {"v_sad_hi_u8", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         int64_t s = 0;
         for (int i = 0; i < 4; ++i) s += std::abs(byteOf(a, i) - byteOf(b, i));
         return uint32_t(s * 65536 + c); }},
      {"v_sad_u16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         int64_t s = std::abs(int64_t(lo(a)) - lo(b)) + std::abs(int64_t(a >> 16) - (b >> 16));
         return uint32_t(s + c); }},
      {"v_sad_u32", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return uint32_t(std::abs(int64_t(a) - int64_t(b)) + c); }},
      {"v_msad_u8", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         int64_t s = 0;
         for (int i = 0; i < 4; ++i)
           if (byteOf(b, i)) s += std::abs(byteOf(a, i) - byteOf(b, i));
         return uint32_t(s + c); }},
      {"v_lerp_u8", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         uint32_t r = 0;
         for (int i = 0; i < 4; ++i)
           r |= uint32_t((byteOf(a, i) + byteOf(b, i) + (byteOf(c, i) & 1)) / 2) << (8 * i);
         return r; }},
      {"v_cvt_pk_u8_f32 trunc", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         double x = std::trunc(double(floatOf(a)));
         uint32_t u = std::isnan(x) || x <= 0 ? 0 : x >= 255 ? 255 : uint32_t(x);
         unsigned sh = 8 * (b % 4);
         return (c & ~(0xffu << sh)) | (u << sh); }},
      {"v_trig_preop_f64 lo", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return uint32_t(trigPreopRef(wide(a, b), c)); }, Row::F64NaN},
      {"v_trig_preop_f64 hi", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return uint32_t(trigPreopRef(wide(a, b), c) >> 32); }},
      // V_CVT_PKNORM_*16_F32: clamp to [-1, 1] ([0, 1]), scale by 32767
      // (65535), round to nearest even (ties unverified; random inputs do
      // not hit them); NaN gives 0. Low half from a, high half from b.
      {"v_cvt_pknorm_i16_f32", [=](uint32_t a, uint32_t b, uint32_t, int) {
         return normRef(floatOf(a), true) | normRef(floatOf(b), true) << 16; }},
      {"v_cvt_pknorm_u16_f32", [=](uint32_t a, uint32_t b, uint32_t, int) {
         return normRef(floatOf(a), false) | normRef(floatOf(b), false) << 16; }},
      // S_FLBIT_I32_I64: as S_FLBIT_I32 on 64 bits (count from the MSB to
      // the first bit unlike the sign), -1 for 0 and -1.
      {"s_flbit_i32_i64", [=](uint32_t a, uint32_t b, uint32_t, int) {
         uint64_t x = wide(a, b);
         for (int i = 62; i >= 0; --i)
           if (bit(x, unsigned(i)) != bit(x, 63))
             return uint32_t(63 - i);
         return ~0u; }},
      {"s_bitreplicate_b64_b32 lo", [=](uint32_t a, uint32_t, uint32_t, int) {
         uint32_t r = 0;
         for (unsigned i = 0; i < 16; ++i)
           r |= bit(a, i) << (2 * i) | bit(a, i) << (2 * i + 1);
         return r; }},
      {"s_bitreplicate_b64_b32 hi", [=](uint32_t a, uint32_t, uint32_t, int) {
         uint32_t r = 0;
         for (unsigned i = 16; i < 32; ++i)
           r |= bit(a, i) << (2 * i - 32) | bit(a, i) << (2 * i - 31);
         return r; }},
  };
  return rows;
}

} // namespace

TEST_P(Alu, Valu16Bit) {
  auto a = random32(), b = random32(), c = random32();
  for (int l = 0; l < 16; ++l) {
    a[l] = k16Edge[l][0];
    b[l] = k16Edge[l][1];
    c[l] = k16Edge[l][2];
  }
  // Lanes 16..39: f16 values of moderate size in both halves (the f16 rows
  // then see ordinary numbers); 40..63 stay random bits.
  for (int l = 16; l < 40; ++l) {
    a[l] = moderateHalves(rng);
    b[l] = moderateHalves(rng);
    c[l] = moderateHalves(rng);
  }
  // Lanes 40..47: f32 values in [-1.5, 1.5] for v_cvt_pknorm.
  std::uniform_real_distribution<float> unit(-1.5f, 1.5f);
  for (int l = 40; l < 48; ++l) {
    a[l] = bitsOf(unit(rng));
    b[l] = bitsOf(unit(rng));
  }
  auto rows = valu16BitRows();
  ASSERT_EQ(rows.size(), 41u);
  run("valu_16bit", rows, a, b, c);
}

//===----------------------------------------------------------------------===//
// cvt_fp8.s
//===----------------------------------------------------------------------===//

namespace {

/// f32 results: omod then clamp (NaN and -0 clamp to +0, the zeros ordered
/// as V_MAX_F32 orders them).
uint32_t f32Result(double v, double scale = 1, bool clamp = false) {
  double x = v * scale;
  if (clamp)
    x = std::isnan(x) || x <= 0 ? 0.0 : x > 1 ? 1.0 : x;
  return bitsOf(float(x));
}

std::vector<Row> cvtFp8Rows(bool ocp, const std::vector<uint32_t> &all) {
  const Fp8Spec fp8 = fp8Spec(ocp), bf8 = bf8Spec(ocp);
  std::vector<Row> rows;
  auto byteOf = [](uint32_t v, int i) { return (v >> (8 * i)) & 0xff; };
  for (const Fp8Spec *s : {&fp8, &bf8})
    for (int i = 0; i < 4; ++i)
      rows.push_back({std::string(s == &fp8 ? "v_cvt_f32_fp8" : "v_cvt_f32_bf8") + " byte " + std::to_string(i),
                      [spec = *s, i, byteOf](uint32_t a, uint32_t, uint32_t, int) { return f32Result(fp8Value(byteOf(a, i), spec)); },
                      Row::F32NaN});
  for (const Fp8Spec *s : {&fp8, &bf8})
    for (int word = 0; word < 2; ++word)
      for (int half = 0; half < 2; ++half)
        rows.push_back({std::string(s == &fp8 ? "v_cvt_pk_f32_fp8" : "v_cvt_pk_f32_bf8") + " word " +
                            std::to_string(word) + (half ? " hi" : " lo"),
                        [spec = *s, word, half, byteOf](uint32_t a, uint32_t, uint32_t, int) {
                          return f32Result(fp8Value(byteOf(a, 2 * word + half), spec));
                        },
                        Row::F32NaN});
  rows.push_back({"v_cvt_f32_bf8_e64 clamp", [=](uint32_t a, uint32_t, uint32_t, int) { return f32Result(fp8Value(a & 0xff, bf8), 1, true); }, Row::F32NaN});
  rows.push_back({"v_cvt_f32_fp8_e64 mul:2", [=](uint32_t a, uint32_t, uint32_t, int) { return f32Result(fp8Value(a & 0xff, fp8), 2); }, Row::F32NaN});
  rows.push_back({"v_cvt_f32_fp8_sdwa mul:4 byte 3", [=](uint32_t a, uint32_t, uint32_t, int) { return f32Result(fp8Value(a >> 24, fp8), 4); }, Row::F32NaN});
  rows.push_back({"v_cvt_pk_f32_bf8_e64 div:2 lo", [=](uint32_t a, uint32_t, uint32_t, int) { return f32Result(fp8Value(a & 0xff, bf8), 0.5); }, Row::F32NaN});
  rows.push_back({"v_cvt_pk_f32_bf8_e64 div:2 hi", [=](uint32_t a, uint32_t, uint32_t, int) { return f32Result(fp8Value((a >> 8) & 0xff, bf8), 0.5); }, Row::F32NaN});
  rows.push_back({"v_cvt_f32_fp8_dpp quad_perm:[1,0,3,2]", [=](uint32_t, uint32_t, uint32_t, int l) { return f32Result(fp8Value(all[l ^ 1] & 0xff, fp8)); }, Row::F32NaN});
  auto neg = [](uint32_t v) { return floatOf(v ^ 0x80000000u); };
  auto abs = [](uint32_t v) { return floatOf(v & 0x7fffffffu); };
  rows.push_back({"v_cvt_pk_fp8_f32 b, c word 0", [=](uint32_t a, uint32_t b, uint32_t c, int) {
                    return (a & 0xffff0000u) | fp8Nearest(floatOf(b), fp8) | fp8Nearest(floatOf(c), fp8) << 8; }});
  rows.push_back({"v_cvt_pk_fp8_f32 -b, |c| word 1", [=](uint32_t a, uint32_t b, uint32_t c, int) {
                    return (a & 0xffffu) | (fp8Nearest(neg(b), fp8) | fp8Nearest(abs(c), fp8) << 8) << 16; }});
  rows.push_back({"v_cvt_pk_bf8_f32 b, c word 0", [=](uint32_t a, uint32_t b, uint32_t c, int) {
                    return (a & 0xffff0000u) | fp8Nearest(floatOf(b), bf8) | fp8Nearest(floatOf(c), bf8) << 8; }});
  rows.push_back({"v_cvt_pk_bf8_f32 c, -b word 1", [=](uint32_t a, uint32_t b, uint32_t c, int) {
                    return (a & 0xffffu) | (fp8Nearest(floatOf(c), bf8) | fp8Nearest(neg(b), bf8) << 8) << 16; }});
  auto random = [](uint32_t a) { return a * 0x9e3779b1u; };
  auto intoByte = [](uint32_t old, uint32_t v, int i) { return (old & ~(0xffu << (8 * i))) | v << (8 * i); };
  rows.push_back({"v_cvt_sr_fp8_f32 b byte 0", [=](uint32_t a, uint32_t b, uint32_t, int) { return intoByte(a, fp8Stochastic(floatOf(b), random(a), fp8), 0); }});
  rows.push_back({"v_cvt_sr_fp8_f32 c byte 1", [=](uint32_t a, uint32_t, uint32_t c, int) { return intoByte(a, fp8Stochastic(floatOf(c), random(a), fp8), 1); }});
  rows.push_back({"v_cvt_sr_bf8_f32 b byte 2", [=](uint32_t a, uint32_t b, uint32_t, int) { return intoByte(a, fp8Stochastic(floatOf(b), random(a), bf8), 2); }});
  rows.push_back({"v_cvt_sr_bf8_f32 -c byte 3", [=](uint32_t a, uint32_t, uint32_t c, int) { return intoByte(a, fp8Stochastic(neg(c), random(a), bf8), 3); }});
  rows.push_back({"v_cvt_sr_fp8_f32 b, 0 byte 0", [=](uint32_t a, uint32_t b, uint32_t, int) { return intoByte(a, fp8Stochastic(floatOf(b), 0, fp8), 0); }});
  rows.push_back({"v_cvt_sr_bf8_f32 c, -1 byte 3", [=](uint32_t a, uint32_t, uint32_t c, int) { return intoByte(a, fp8Stochastic(floatOf(c), ~0u, bf8), 3); }});
  rows.push_back({"v_cvt_sr_fp8_f32 c, ~r byte 2", [=](uint32_t a, uint32_t, uint32_t c, int) { return intoByte(a, fp8Stochastic(floatOf(c), ~random(a), fp8), 2); }});
  // V_CVT_OFF_F32_I4's table (CDNA3 ISA): S0[3:0] indexes 0, 1/16, ...,
  // 7/16, then -8/16, ..., -1/16.
  static const double offTable[16] = {0.0, 0.0625, 0.125, 0.1875, 0.25, 0.3125, 0.375, 0.4375,
                                      -0.5, -0.4375, -0.375, -0.3125, -0.25, -0.1875, -0.125, -0.0625};
  rows.push_back({"v_cvt_off_f32_i4 a", [](uint32_t a, uint32_t, uint32_t, int) { return f32Result(offTable[a & 15]); }});
  rows.push_back({"v_cvt_off_f32_i4_sdwa byte 2", [](uint32_t a, uint32_t, uint32_t, int) { return f32Result(offTable[(a >> 16) & 15]); }});
  rows.push_back({"v_cvt_off_f32_i4_e64 c mul:4", [](uint32_t, uint32_t, uint32_t c, int) { return f32Result(offTable[c & 15], 4); }});
  // DPP of the 64-bit result: row_newbcast:N reads lane N of the lane's row
  // (16 lanes); row_mask/bank_mask leave the other lanes' registers alone.
  for (int half = 0; half < 2; ++half)
    rows.push_back({std::string("v_cvt_pk_f32_fp8_dpp row_newbcast:3") + (half ? " hi" : " lo"),
                    [=](uint32_t, uint32_t, uint32_t, int l) {
                      return f32Result(fp8Value(byteOf(all[(l & ~15) + 3], half), fp8));
                    },
                    Row::F32NaN});
  for (int half = 0; half < 2; ++half)
    rows.push_back({std::string("v_cvt_pk_f32_bf8_dpp row_newbcast:14 row_mask:0x5 bank_mask:0xa") +
                        (half ? " hi" : " lo"),
                    [=](uint32_t, uint32_t, uint32_t c, int l) {
                      bool written = ((0x5 >> (l / 16)) & 1) && ((0xa >> ((l / 4) % 4)) & 1);
                      return written ? f32Result(fp8Value(byteOf(all[(l & ~15) + 14], half), bf8)) : c;
                    },
                    Row::F32NaN});
  return rows;
}

/// f32 inputs for the conversions to 8 bits: zeros, NaNs, infinities, the
/// largest values and the rounding boundaries above them for both chips'
/// formats, ties, and the denormal ranges.
std::vector<float> fp8EdgeInputs() {
  auto p2 = [](int e) { return std::ldexp(1.0f, e); };
  return {0.0f, -0.0f, 1.0f, -1.0f, floatOf(0x7fc00000), floatOf(0xffc00000), floatOf(0x7f800001),
          INFINITY, -INFINITY,
          240.0f, 247.99998f, 248.0f, 256.0f, 448.0f, 464.0f, 464.00003f, 480.0f, -500.0f,
          57344.0f, 61439.996f, 61440.0f, 65536.0f, 1e30f, -1e30f, 3.4028235e38f,
          p2(-10), p2(-11), 1.5f * p2(-11), p2(-9), 3 * p2(-11), -p2(-10),
          p2(-17), p2(-16), p2(-18), 3 * p2(-18), -p2(-17), 1e-40f,
          1.0625f, 1.1875f, 1.125f, 1.375f, -1.0625f, p2(-7), p2(-6), 0.99f * p2(-7),
          15.5f, 17.0f, -0.3f};
}

} // namespace

TEST_P(Alu, Fp8Conversions) {
  // a: all 256 codes, byte i of lane l holding 4l + i; b, c: the edge
  // values (c shifted by 7 lanes), then random floats of magnitudes around
  // both formats' ranges.
  std::vector<uint32_t> a(64), b(64), c(64);
  for (int l = 0; l < 64; ++l)
    a[l] = uint32_t(4 * l) | uint32_t(4 * l + 1) << 8 | uint32_t(4 * l + 2) << 16 | uint32_t(4 * l + 3) << 24;
  auto edge = fp8EdgeInputs();
  std::uniform_real_distribution<float> unit(1.0f, 2.0f);
  for (int l = 0; l < 64; ++l) {
    auto randomFloat = [&] {
      float v = std::ldexp(unit(rng), int(rng() % 44) - 24);
      return bitsOf(rng() & 1 ? -v : v);
    };
    b[l] = l < int(edge.size()) ? bitsOf(edge[l]) : randomFloat();
    c[l] = l < int(edge.size()) ? bitsOf(edge[(l + 7) % edge.size()]) : randomFloat();
  }
  auto rows = cvtFp8Rows(isGfx950(), a);
  ASSERT_EQ(rows.size(), 40u);
  run("cvt_fp8", rows, a, b, c);
}

//===----------------------------------------------------------------------===//
// cvt_scale_gfx950.s
//===----------------------------------------------------------------------===//

namespace {

/// The inputs of cvt_scale_gfx950 (see the .s file), per lane.
struct ScaleInputs {
  std::vector<uint32_t> a, b, c, d, e, hf, hb, s;
};

/// OCP MX's narrow formats (gfx950).
const Fp8Spec kOcpFp8{4, 3, 7, false}, kOcpBf8{5, 2, 15, false}, kMxFp4{2, 1, 1, false, true},
    kMxFp6{2, 3, 1, false, true}, kMxBf6{3, 2, 3, false, true};

/// The scale: 2 to the power of the scale operand's biased exponent minus
/// 127 (the ISA: "using the exponent provided by" the f32 input).
double scaleOf(uint32_t s) { return std::pow(2.0, double(int((s >> 23) & 0xff) - 127)); }

enum class WideKind { F32, F16, Bf16 };
/// A wide value rounded to nearest even into f32, f16 or bf16 bits.
uint32_t toWide(double v, WideKind t) {
  if (t == WideKind::F32)
    return bitsOf(float(v));
  return t == WideKind::F16 ? toF16(v) : toBf16(v);
}
double fromWide(uint32_t bits, WideKind t) {
  return t == WideKind::F16 ? fromF16(uint16_t(bits)) : double(fromBf16(uint16_t(bits)));
}

/// Bits [6i, 6i + 6) of the 192 bits of six dwords (w[0] lowest).
uint32_t fp6Field(const uint32_t *w, unsigned i) {
  uint32_t v = 0;
  for (unsigned b = 0; b < 6; ++b)
    v |= bit(w[(6 * i + b) / 32], (6 * i + b) % 32) << b;
  return v;
}

std::vector<Row> scaledRows(std::shared_ptr<const ScaleInputs> in) {
  std::vector<Row> rows;
  using F = std::function<uint32_t(int l)>;
  auto row = [&](std::string name, F f, decltype(Row::nan) nan = Row::Exact) {
    rows.push_back({name, [f](uint32_t, uint32_t, uint32_t, int l) { return f(l); }, nan});
  };
  auto up = [in](uint32_t code, const Fp8Spec &f, int l, WideKind t) {
    return toWide(fp8Value(code, f) * scaleOf(in->s[l]), t);
  };
  auto byteSel = [](uint32_t v, int i) { return (v >> (8 * i)) & 0xff; };
  auto random = [in](int l) { return in->a[l] * 0x9e3779b1u; };
  const auto F32 = WideKind::F32, F16 = WideKind::F16, Bf16 = WideKind::Bf16;
  row("v_cvt_scalef32_f32_fp8 byte 0", [=](int l) { return up(byteSel(in->a[l], 0), kOcpFp8, l, F32); }, Row::F32NaN);
  row("v_cvt_scalef32_f32_bf8 byte 3", [=](int l) { return up(byteSel(in->a[l], 3), kOcpBf8, l, F32); }, Row::F32NaN);
  row("v_cvt_scalef32_f32_fp8 byte 2", [=](int l) { return up(byteSel(in->a[l], 2), kOcpFp8, l, F32); }, Row::F32NaN);
  row("v_cvt_scalef32_f16_fp8 byte 1 low half", [=](int l) {
    return (in->c[l] & 0xffff0000u) | up(byteSel(in->a[l], 1), kOcpFp8, l, F16); }, Row::PkF16NaN);
  row("v_cvt_scalef32_f16_bf8 byte 2 high half", [=](int l) {
    return (in->c[l] & 0xffffu) | up(byteSel(in->a[l], 2), kOcpBf8, l, F16) << 16; }, Row::PkF16NaN);
  for (int word = 0; word < 2; ++word)
    for (int half = 0; half < 2; ++half)
      row(std::string(word ? "v_cvt_scalef32_pk_f32_bf8 word 1" : "v_cvt_scalef32_pk_f32_fp8 word 0") + (half ? " hi" : " lo"),
          [=](int l) { return up(byteSel(in->a[l], 2 * word + half), word ? kOcpBf8 : kOcpFp8, l, F32); }, Row::F32NaN);
  auto pk16 = [=](std::string name, int word, const Fp8Spec &f, WideKind t) {
    row(name, [=](int l) {
      return up(byteSel(in->a[l], 2 * word), f, l, t) | up(byteSel(in->a[l], 2 * word + 1), f, l, t) << 16;
    }, t == F16 ? Row::PkF16NaN : Row::PkBf16NaN);
  };
  pk16("v_cvt_scalef32_pk_f16_fp8 word 1", 1, kOcpFp8, F16);
  pk16("v_cvt_scalef32_pk_bf16_bf8 word 0", 0, kOcpBf8, Bf16);
  pk16("v_cvt_scalef32_pk_bf16_fp8 word 1", 1, kOcpFp8, Bf16);
  pk16("v_cvt_scalef32_pk_f16_bf8 word 0", 0, kOcpBf8, F16);
  // FP4: the low nibble of the byte is the first value.
  auto nib = [=](int l, int byte, int n) { return (byteSel(in->a[l], byte) >> (4 * n)) & 15; };
  row("v_cvt_scalef32_pk_f32_fp4 byte 3 lo", [=](int l) { return up(nib(l, 3, 0), kMxFp4, l, F32); });
  row("v_cvt_scalef32_pk_f32_fp4 byte 3 hi", [=](int l) { return up(nib(l, 3, 1), kMxFp4, l, F32); });
  row("v_cvt_scalef32_pk_f16_fp4 byte 2", [=](int l) { return up(nib(l, 2, 0), kMxFp4, l, F16) | up(nib(l, 2, 1), kMxFp4, l, F16) << 16; });
  row("v_cvt_scalef32_pk_bf16_fp4 byte 0", [=](int l) { return up(nib(l, 0, 0), kMxFp4, l, Bf16) | up(nib(l, 0, 1), kMxFp4, l, Bf16) << 16; });
  // Down: x divided by the scale, then the nearest value of the format
  // (found by search) or the stochastic choice.
  auto down = [in](double x, const Fp8Spec &f, int l) { return fp8Nearest(x / scaleOf(in->s[l]), f); };
  auto downSr = [in, random](double x, const Fp8Spec &f, int l, int srcMan) {
    return fp8Stochastic(x / scaleOf(in->s[l]), random(l), f, srcMan);
  };
  auto intoWord = [](uint32_t old, uint32_t v, int word) { return word ? (old & 0xffffu) | v << 16 : (old & 0xffff0000u) | v; };
  auto intoByte = [](uint32_t old, uint32_t v, int i) { return (old & ~(0xffu << (8 * i))) | v << (8 * i); };
  auto f = [](uint32_t v) { return double(floatOf(v)); };
  row("v_cvt_scalef32_pk_fp8_f32 b, c word 0", [=](int l) {
    return intoWord(in->c[l], down(f(in->b[l]), kOcpFp8, l) | down(f(in->c[l]), kOcpFp8, l) << 8, 0); });
  row("v_cvt_scalef32_pk_bf8_f32 -b, |c| word 1", [=](int l) {
    return intoWord(in->c[l], down(-f(in->b[l]), kOcpBf8, l) | down(std::fabs(f(in->c[l])), kOcpBf8, l) << 8, 1); });
  auto halves = [](uint32_t v, WideKind t, int i) { return fromWide(i ? v >> 16 : v & 0xffff, t); };
  row("v_cvt_scalef32_pk_fp8_f16 hf word 1", [=](int l) {
    return intoWord(in->c[l], down(halves(in->hf[l], F16, 0), kOcpFp8, l) | down(halves(in->hf[l], F16, 1), kOcpFp8, l) << 8, 1); });
  row("v_cvt_scalef32_pk_bf8_bf16 hb word 0", [=](int l) {
    return intoWord(in->c[l], down(halves(in->hb[l], Bf16, 0), kOcpBf8, l) | down(halves(in->hb[l], Bf16, 1), kOcpBf8, l) << 8, 0); });
  row("v_cvt_scalef32_pk_fp4_f32 d, e byte 3", [=](int l) {
    return intoByte(in->c[l], down(f(in->d[l]), kMxFp4, l) | down(f(in->e[l]), kMxFp4, l) << 4, 3); });
  row("v_cvt_scalef32_pk_fp4_f16 hf byte 1", [=](int l) {
    return intoByte(in->c[l], down(halves(in->hf[l], F16, 0), kMxFp4, l) | down(halves(in->hf[l], F16, 1), kMxFp4, l) << 4, 1); });
  row("v_cvt_scalef32_pk_fp4_bf16 hb byte 0", [=](int l) {
    return intoByte(in->c[l], down(halves(in->hb[l], Bf16, 0), kMxFp4, l) | down(halves(in->hb[l], Bf16, 1), kMxFp4, l) << 4, 0); });
  row("v_cvt_scalef32_sr_fp8_f32 b byte 3", [=](int l) { return intoByte(in->c[l], downSr(f(in->b[l]), kOcpFp8, l, 23), 3); });
  row("v_cvt_scalef32_sr_bf8_f16 hf.lo byte 1", [=](int l) { return intoByte(in->c[l], downSr(halves(in->hf[l], F16, 0), kOcpBf8, l, 10), 1); });
  row("v_cvt_scalef32_sr_fp8_bf16 hb.hi byte 2", [=](int l) { return intoByte(in->c[l], downSr(halves(in->hb[l], Bf16, 1), kOcpFp8, l, 7), 2); });
  row("v_cvt_scalef32_sr_pk_fp4_f32 (d, e) byte 2", [=](int l) {
    return intoByte(in->c[l], downSr(f(in->d[l]), kMxFp4, l, 23) | downSr(f(in->e[l]), kMxFp4, l, 23) << 4, 2); });
  row("v_cvt_scalef32_sr_pk_fp4_f16 hf byte 0", [=](int l) {
    return intoByte(in->c[l], downSr(halves(in->hf[l], F16, 0), kMxFp4, l, 10) | downSr(halves(in->hf[l], F16, 1), kMxFp4, l, 10) << 4, 0); });
  row("v_cvt_scalef32_sr_pk_fp4_bf16 hb byte 3", [=](int l) {
    return intoByte(in->c[l], downSr(halves(in->hb[l], Bf16, 0), kMxFp4, l, 7) | downSr(halves(in->hb[l], Bf16, 1), kMxFp4, l, 7) << 4, 3); });
  // FP6: the six dwords (a, b, c, d, e, hf) hold 32 codes.
  auto six = [in](int l, uint32_t *w) {
    const std::vector<uint32_t> *src[6] = {&in->a, &in->b, &in->c, &in->d, &in->e, &in->hf};
    for (int i = 0; i < 6; ++i)
      w[i] = (*src[i])[l];
  };
  for (unsigned i = 0; i < 32; ++i)
    row("v_cvt_scalef32_pk32_f32_fp6 value " + std::to_string(i), [=](int l) {
      uint32_t w[6];
      six(l, w);
      return up(fp6Field(w, i), kMxFp6, l, F32); });
  for (unsigned i = 0; i < 16; ++i)
    row("v_cvt_scalef32_pk32_bf16_bf6 values " + std::to_string(2 * i) + ", " + std::to_string(2 * i + 1), [=](int l) {
      uint32_t w[6];
      six(l, w);
      return up(fp6Field(w, 2 * i), kMxBf6, l, Bf16) | up(fp6Field(w, 2 * i + 1), kMxBf6, l, Bf16) << 16; });
  // The way back: y_i = 1.3 * (the FP6 values as f32), rounded to f32 (as
  // v_mul_f32 does), and their f16/bf16 pairs.
  auto ys = [=](int l, double *y) {
    uint32_t w[6];
    six(l, w);
    for (unsigned i = 0; i < 32; ++i)
      y[i] = double(floatOf(up(fp6Field(w, i), kMxFp6, l, F32)) * floatOf(0x3fa66666));
  };
  auto pack = [](const uint32_t *codes, unsigned part) {
    uint32_t v = 0;
    for (unsigned bitIndex = 32 * part; bitIndex < 32 * part + 32; ++bitIndex)
      v |= bit(codes[bitIndex / 6], bitIndex % 6) << (bitIndex % 32);
    return v;
  };
  using Down32 = std::function<uint32_t(double y, int l)>;
  auto down32 = [=](std::string name, Down32 conv, WideKind through) {
    for (unsigned part = 0; part < 6; ++part)
      row(name + " dword " + std::to_string(part), [=](int l) {
        double y[32];
        ys(l, y);
        uint32_t codes[32];
        for (unsigned i = 0; i < 32; ++i)
          codes[i] = conv(through == F32 ? y[i] : fromWide(toWide(y[i], through), through), l);
        return pack(codes, part); });
  };
  down32("v_cvt_scalef32_2xpk16_fp6_f32", [=](double y, int l) { return down(y, kMxFp6, l); }, F32);
  down32("v_cvt_scalef32_sr_pk32_bf6_f32", [=](double y, int l) { return downSr(y, kMxBf6, l, 23); }, F32);
  down32("v_cvt_scalef32_pk32_fp6_f16", [=](double y, int l) { return down(y, kMxFp6, l); }, F16);
  down32("v_cvt_scalef32_sr_pk32_bf6_bf16", [=](double y, int l) { return downSr(y, kMxBf6, l, 7); }, Bf16);
  return rows;
}

} // namespace

TEST_P(Alu, ScaledConversions) {
  if (!isGfx950())
    GTEST_SKIP() << "v_cvt_scalef32_* are gfx950 only";
  auto in = std::make_shared<ScaleInputs>();
  in->a.resize(64);
  for (int l = 0; l < 64; ++l)
    in->a[l] = uint32_t(4 * l) | uint32_t(4 * l + 1) << 8 | uint32_t(4 * l + 2) << 16 | uint32_t(4 * l + 3) << 24;
  // b, c: the FP8 edge values (NaN, infinities, the rounding boundaries);
  // d, e: finite values, FP4 ties and saturation in the first lanes; hf, hb:
  // pairs of finite f16 and bf16; s: exponent 127 (scale 1) in lanes 0..23,
  // else 123..131, 0 and 254, with random sign and mantissa bits (which the
  // scale ignores).
  auto edge = fp8EdgeInputs();
  const float fp4Edge[] = {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f, 7.0f, -0.25f, -5.0f, 6.5f, 100.0f,
                           0.0f, -0.0f, 1e-30f, -3.0f, 4.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 6.0f, -6.0f};
  std::uniform_real_distribution<float> unit(1.0f, 2.0f);
  auto randomFloat = [&](int lo, int hi) {
    float v = std::ldexp(unit(rng), lo + int(rng() % unsigned(hi - lo + 1)));
    return rng() & 1 ? -v : v;
  };
  for (int l = 0; l < 64; ++l) {
    in->b.push_back(l < int(edge.size()) ? bitsOf(edge[l]) : bitsOf(randomFloat(-20, 18)));
    in->c.push_back(l < int(edge.size()) ? bitsOf(edge[(l + 7) % edge.size()]) : bitsOf(randomFloat(-20, 18)));
    in->d.push_back(bitsOf(l < 24 ? fp4Edge[l] : randomFloat(-6, 6)));
    in->e.push_back(bitsOf(l < 24 ? fp4Edge[(l + 5) % 24] : randomFloat(-6, 6)));
    in->hf.push_back(uint32_t(toF16(randomFloat(-16, 15))) | uint32_t(toF16(randomFloat(-16, 15))) << 16);
    in->hb.push_back(uint32_t(toBf16(randomFloat(-20, 20))) | uint32_t(toBf16(randomFloat(-20, 20))) << 16);
    int exponent = l < 24 ? 127 : l == 62 ? 0 : l == 63 ? 254 : 123 + (l % 9);
    in->s.push_back((uint32_t(rng()) & 0x807fffffu) | uint32_t(exponent) << 23);
  }
  auto rows = scaledRows(in);
  ASSERT_EQ(rows.size(), 102u);
  auto m = load("cvt_scale_gfx950");
  ASSERT_TRUE(m);
  uint64_t args[8];
  const std::vector<uint32_t> *inputs[8] = {&in->a, &in->b, &in->c, &in->d, &in->e, &in->hf, &in->hb, &in->s};
  for (int i = 0; i < 8; ++i)
    args[i] = upload(*inputs[i]);
  uint64_t dout = alloc(rows.size() * 64 * 4, 0xcd);
  ArgPack pack;
  for (uint64_t a : args)
    pack.add(a);
  pack.add(dout);
  EMU_LAUNCH(*m, "cvt_scale_gfx950", {1, 1, 1}, {64, 1, 1}, pack);
  compareRows("cvt_scale_gfx950", rows, download<uint32_t>(dout, rows.size() * 64), in->a, in->b, in->c);
}

//===----------------------------------------------------------------------===//
// valu_f16mad.s, valu_sr_gfx950.s
//===----------------------------------------------------------------------===//

namespace {

/// `v` rounded once to f16 (to nearest even), from a long double: the
/// significand is scaled to whole units of the f16 grid of v's binade (or of
/// the denormal range) and rounded there, so the exact sums of f16 products
/// the references form are rounded once.
uint16_t toF16Once(long double v) {
  if (std::isnan(v))
    return 0x7e00;
  if (std::isinf(v) || v == 0)
    return toF16(double(v));
  int e;
  std::frexp(v, &e); // |v| in [2^(e-1), 2^e)
  int E = std::max(e - 1, -14);
  long double units = std::nearbyint(std::ldexp(v, 10 - E));
  return toF16(std::ldexp(double(units), E - 10)); // exact, or beyond 65504
}
/// The CDNA3 ISA's f16 multiply-add, S0 * S1 + S2, on f16 bit patterns.
uint32_t madF16Ref(uint32_t a, uint32_t b, uint32_t c) {
  auto h = [](uint32_t v) { return (long double)fromF16(uint16_t(v)); };
  return toF16Once(h(a) * h(b) + h(c));
}
/// V_MAD_F16 flushes f16 denormals to zero of the same sign.
uint32_t flushF16Ref(uint32_t h) {
  h &= 0xffff;
  return (h >> 10 & 0x1f) == 0 ? h & 0x8000 : h;
}

std::vector<Row> valuF16MadRows(const std::vector<uint32_t> &A) {
  using R = Row;
  auto lo = [](uint32_t v) { return v & 0xffff; };
  return {
      {"v_mad_f16", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return (c & 0xffff0000u) |
                flushF16Ref(madF16Ref(flushF16Ref(a), flushF16Ref(b), flushF16Ref(c)));
       }, R::F16NaN},
      {"v_mad_f16 op_sel:[0,0,0,1]", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return lo(c) | flushF16Ref(madF16Ref(flushF16Ref(a), flushF16Ref(b), flushF16Ref(c))) << 16;
       }, R::PkF16NaN},
      {"v_mad_legacy_f16", [=](uint32_t a, uint32_t b, uint32_t c, int) { return madF16Ref(a, b, c); }, R::F16NaN},
      {"v_fma_legacy_f16 -a", [=](uint32_t a, uint32_t b, uint32_t c, int) { return madF16Ref(a ^ 0x8000, b, c); }, R::F16NaN},
      {"v_mac_f16_e32", [=](uint32_t a, uint32_t b, uint32_t c, int) { return madF16Ref(a, b, c); }, R::F16NaN},
      {"v_mac_f16_e64 -a", [=](uint32_t a, uint32_t b, uint32_t c, int) { return madF16Ref(a ^ 0x8000, b, c); }, R::F16NaN},
      // DPP row_shr:1: a from the lane below; lane 0 of each row is
      // disabled (no bound_ctrl) and keeps c.
      {"v_mac_f16_dpp row_shr:1", [=](uint32_t, uint32_t b, uint32_t c, int l) {
         return l % 16 == 0 ? c : madF16Ref(A[l - 1], b, c);
       }, R::F16NaN},
      {"v_madak_f16 a, b, 1.0", [=](uint32_t a, uint32_t b, uint32_t, int) { return madF16Ref(a, b, 0x3c00); }, R::F16NaN},
      {"v_madmk_f16 a, 2.0, b", [=](uint32_t a, uint32_t b, uint32_t, int) { return madF16Ref(a, 0x4000, b); }, R::F16NaN},
      // Byte b[1:0] of a (the destination) takes c as an f32 converted to
      // u8: truncated, saturated to [0, 255], NaN 0 (as v_cvt_pk_u8_f32).
      {"v_cvt_pkaccum_u8_f32", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         double x = std::trunc(double(floatOf(c)));
         uint32_t u = std::isnan(x) || x <= 0 ? 0 : x >= 255 ? 255 : uint32_t(x);
         unsigned sh = 8 * (b % 4);
         return (a & ~(0xffu << sh)) | (u << sh);
       }},
  };
}

/// V_PRNG_B32's LFSR step, bit by bit: shift left, and when the bit shifted
/// out was 1 flip bits 0, 2, 6 and 7 (197 = 0b11000101).
uint32_t prngRef(uint32_t x) {
  uint32_t r = 0;
  for (unsigned i = 1; i < 32; ++i)
    r |= bit(x, i - 1) << i;
  if (bit(x, 31))
    for (unsigned i : {0u, 2u, 6u, 7u})
      r ^= 1u << i;
  return r;
}

/// Stochastic rounding of the f32 `a` to a float with `man` mantissa bits
/// and least normal exponent `emin`, as a value: the part of |a| below the
/// destination's last place, as the `23 - man` bits an f32 mantissa holds
/// there, plus as many top bits of `rnd`, rounds up when it carries.
double srRef(uint32_t a, unsigned man, int emin, uint32_t rnd) {
  double x = floatOf(a);
  if (std::isnan(x) || std::isinf(x) || x == 0)
    return x;
  int e;
  std::frexp(x, &e);
  int E = std::max(e - 1, emin);
  double q = std::ldexp(1.0, E - int(man)); // the grid spacing
  double n = std::fabs(x) / q, whole = std::floor(n);
  unsigned k = 23 - man;
  uint64_t dropped = uint64_t(std::ldexp(n - whole, int(k)));
  if (dropped + (rnd >> (32 - k)) >= (uint64_t(1) << k))
    whole += 1;
  return std::copysign(whole * q, x);
}

std::vector<Row> valuGfx950SrRows(const std::vector<uint32_t> &A) {
  using R = Row;
  auto sat = [](int64_t v, int64_t lo, int64_t hi) { return uint32_t(std::clamp(v, lo, hi)) & 0xff; };
  auto pk = [=](uint32_t a, uint32_t b, uint32_t c, bool isSigned) {
    int64_t lo = isSigned ? -128 : 0, hi = isSigned ? 127 : 255;
    unsigned s = c & 31;
    // Arithmetic shift as a floor division by 2^s.
    int64_t x = (int64_t)std::floor(double(sx(a)) / double(int64_t(1) << s));
    int64_t y = (int64_t)std::floor(double(sx(b)) / double(int64_t(1) << s));
    return sat(x, lo, hi) | sat(y, lo, hi) << 8;
  };
  auto srF16 = [](uint32_t a, uint32_t r) { return uint32_t(toF16(srRef(a, 10, -14, r))); };
  auto srBf16 = [](uint32_t a, uint32_t r) { return uint32_t(toBf16(srRef(a, 7, -126, r))); };
  return {
      {"v_prng_b32_e32 a", [](uint32_t a, uint32_t, uint32_t, int) { return prngRef(a); }},
      {"v_prng_b32_e64 b", [](uint32_t, uint32_t b, uint32_t, int) { return prngRef(b); }},
      {"v_prng_b32_sdwa a.WORD_1 -> WORD_0, preserve", [](uint32_t a, uint32_t, uint32_t c, int) {
         return (c & 0xffff0000u) | (prngRef(a >> 16) & 0xffff);
       }},
      {"v_prng_b32_dpp row_shr:1", [=](uint32_t, uint32_t, uint32_t c, int l) {
         return l % 16 == 0 ? c : prngRef(A[l - 1]);
       }},
      {"v_ashr_pk_i8_i32", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return (c & 0xffff0000u) | pk(a, b, c, true);
       }},
      {"v_ashr_pk_u8_i32 op_sel:[0,0,0,1]", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return (c & 0xffffu) | pk(a, b, c, false) << 16;
       }},
      {"v_ashr_pk_u8_i32", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return (c & 0xffff0000u) | pk(a, b, c, false);
       }},
      {"v_cvt_sr_f16_f32", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return (c & 0xffff0000u) | srF16(a, b);
       }, R::F16NaN},
      {"v_cvt_sr_f16_f32 op_sel:[0,0,1]", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return (c & 0xffffu) | srF16(a, b) << 16;
       }, R::PkF16NaN},
      {"v_cvt_sr_bf16_f32", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return (c & 0xffff0000u) | srBf16(a, b);
       }, R::PkBf16NaN},
      {"v_cvt_sr_bf16_f32 -|a| op_sel:[0,0,1]", [=](uint32_t a, uint32_t b, uint32_t c, int) {
         return (c & 0xffffu) | srBf16(a | 0x80000000u, b) << 16;
       }, R::PkBf16NaN},
      {"v_mfma_ld_scale_b32 alone (c kept)", [](uint32_t, uint32_t, uint32_t c, int) { return c; }},
  };
}

} // namespace

TEST_P(Alu, ValuF16Mad) {
  auto a = random32(), b = random32(), c = random32();
  for (int l = 0; l < 16; ++l) {
    a[l] = k16Edge[l][0];
    b[l] = k16Edge[l][1];
    c[l] = k16Edge[l][2];
  }
  for (int l = 16; l < 40; ++l) {
    a[l] = moderateHalves(rng);
    b[l] = moderateHalves(rng);
    c[l] = moderateHalves(rng);
  }
  // Lanes 40..47: c an f32 in [-20, 300] for v_cvt_pkaccum_u8_f32; lanes
  // 48..51: f16 denormal operands and results (v_mad_f16 flushes them).
  std::uniform_real_distribution<float> byteRange(-20.0f, 300.0f);
  for (int l = 40; l < 48; ++l)
    c[l] = bitsOf(byteRange(rng));
  const uint32_t denorm[4][3] = {{0x0003, 0x3c00, 0x0001}, {0x0200, 0x3800, 0x8000},
                                 {0x0400, 0x3400, 0x0000}, {0x3c00, 0x3c00, 0x83ff}};
  for (int l = 48; l < 52; ++l) {
    a[l] = denorm[l - 48][0];
    b[l] = denorm[l - 48][1];
    c[l] = denorm[l - 48][2];
  }
  auto rows = valuF16MadRows(a);
  ASSERT_EQ(rows.size(), 10u);
  run("valu_f16mad", rows, a, b, c);
}

TEST_P(Alu, ValuGfx950Sr) {
  if (!isGfx950())
    GTEST_SKIP() << "v_prng_b32, v_ashr_pk_*, v_cvt_sr_f16/bf16_f32 are gfx950 only";
  auto a = random32(), b = random32(), c = random32();
  // Lanes 0..15: shifts of 0, 31 and in between on the signed limits;
  // 16..47: f32 values across the f16 range (denormal to beyond 65504),
  // exact f16 values, and the specials.
  for (int l = 0; l < 16; ++l) {
    a[l] = kIntEdge[l][0];
    b[l] = kIntEdge[l][1];
    c[l] = kIntEdge[l][2];
  }
  std::uniform_int_distribution<int> exps(-27, 17);
  std::uniform_real_distribution<float> mant(1.0f, 2.0f);
  for (int l = 16; l < 40; ++l)
    a[l] = bitsOf(std::ldexp(mant(rng), exps(rng)) * (l % 2 ? -1.0f : 1.0f));
  const uint32_t special[8] = {0x3f800000u, 0x477fe000u /* 65504 */, 0x47800000u,
                               0x7f800000u, 0xff800000u, 0x7fc00000u, 0x80000000u,
                               0x33800000u /* 2^-24 */};
  for (int l = 40; l < 48; ++l)
    a[l] = special[l - 40];
  auto rows = valuGfx950SrRows(a);
  ASSERT_EQ(rows.size(), 12u);
  run("valu_sr_gfx950", rows, a, b, c);
}

namespace {

/// V_SAD_U8 / V_MSAD_U8 of the 4-byte window at byte `at` of the 8-byte
/// S0 against S1, plus `acc`, byte by byte.
uint32_t quadSadRef(uint64_t s0, uint32_t s1, unsigned at, uint32_t acc, bool masked) {
  uint32_t sum = acc;
  for (unsigned k = 0; k < 4; ++k) {
    int x = int(field(s0, 8 * (at + k), 8)), ref = int(field(s1, 8 * k, 8));
    if (masked && ref == 0)
      continue;
    sum += uint32_t(x > ref ? x - ref : ref - x);
  }
  return sum;
}

std::vector<Row> valuLegacyRows(const std::vector<uint32_t> &A) {
  using R = Row;
  std::vector<Row> rows;
  for (Tr op : {Tr::Exp, Tr::Log}) {
    std::string name = op == Tr::Exp ? "v_exp_legacy_f32" : "v_log_legacy_f32";
    for (const char *form : {"_e32", "_e64", "_sdwa"})
      rows.push_back({name + form, [op](uint32_t a, uint32_t, uint32_t, int l) {
                        return l < 24 ? trF32(op, a) : kAny;
                      }, R::F32NaN});
    rows.push_back({name + "_dpp quad_perm:[1,0,3,2]", [op, A](uint32_t, uint32_t, uint32_t, int l) {
                      return l < 24 ? trF32(op, A[l ^ 1]) : kAny;
                    }, R::F32NaN});
  }
  // SDWA: src0 a.WORD_1 and src1 b.WORD_0 zero-extended, so the high halves
  // multiply 0 * 0 into c's high half; dst_sel WORD_1 keeps the low half of
  // that packed result and puts it over c's high half.
  rows.push_back({"v_pk_fmac_f16_sdwa", [](uint32_t a, uint32_t b, uint32_t c, int) {
                    return (c & 0xffff) | (madF16Ref(a >> 16, b & 0xffff, c & 0xffff) & 0xffff) << 16;
                  }, R::PkF16NaN});
  // S0 = {a, b}, S1 = c; S2 = {b, c} (four u16) or {a, b, c, a ^ b}.
  auto pk = [](bool masked, bool high) {
    return [=](uint32_t a, uint32_t b, uint32_t c, int) {
      uint64_t s0 = wide(a, b), s2 = wide(b, c);
      uint32_t r = 0;
      for (unsigned i = 0; i < 2; ++i) {
        unsigned e = 2 * high + i;
        r |= (quadSadRef(s0, c, e, uint32_t(field(s2, 16 * e, 16)), masked) & 0xffff) << (16 * i);
      }
      return r;
    };
  };
  rows.push_back({"v_qsad_pk_u16_u8 lo", pk(false, false)});
  rows.push_back({"v_qsad_pk_u16_u8 hi", pk(false, true)});
  rows.push_back({"v_mqsad_pk_u16_u8 lo", pk(true, false)});
  rows.push_back({"v_mqsad_pk_u16_u8 hi", pk(true, true)});
  for (unsigned e = 0; e < 4; ++e)
    rows.push_back({"v_mqsad_u32_u8 dword " + std::to_string(e), [e](uint32_t a, uint32_t b, uint32_t c, int) {
                      uint32_t acc[4] = {a, b, c, a ^ b};
                      return quadSadRef(wide(a, b), c, e, acc[e], true);
                    }});
  return rows;
}

} // namespace

TEST_P(Alu, ValuLegacyAndQuadSad) {
  auto a = random32(), b = random32(), c = random32();
  // Lanes 0..23: the transcendental special values (exact results).
  const uint32_t f32s[24] = {0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                             0x7f800001, 0xbf800000, 0x3f800000, 0x40800000,
                             0x3e800000, 0x40000000, 0xc0000000, 0x00000001,
                             0x80400000, 0x7e800000, 0x00800000, 0x41800000,
                             0x3f000000, 0xc2fc0000, 0xc2fe0000, 0x43000000,
                             0x40400000, 0x4b800000, 0x3d800000};
  for (int l = 0; l < 24; ++l)
    a[l] = f32s[l];
  // Lanes 24..31: reference bytes of 0 in c (the masked SADs skip them).
  for (int l = 24; l < 32; ++l)
    c[l] &= l % 2 ? 0xff00ff00u : 0x00ff00ffu;
  auto rows = valuLegacyRows(a);
  ASSERT_EQ(rows.size(), 17u);
  run("valu_legacy", rows, a, b, c);
}

INSTANTIATE_TEST_SUITE_P(Chips, Alu, ::testing::Values(Chip::gfx942, Chip::gfx950), chipParamName);
