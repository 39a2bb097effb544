//===- ValuPacked.cpp - VALU packed math and dot products -----------------===//
//
// The VOP3P operations of the vector ALU: two 16-bit halves per register
// (v_pk_*_f16/u16/i16), two f32 in a register pair (v_pk_fma/mul/add_f32,
// v_pk_mov_b32), the mixed-precision v_fma_mix*, and the float and integer dot
// products (v_dot2*, v_dot4*, v_dot8*).
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Valu.h"

namespace kcc::emu {
namespace {

using namespace valu;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// IEEE 754-2019 maximum/minimum of f16 bit patterns (gfx950's
/// V_PK_MAXIMUM3_F16, V_PK_MINIMUM3_F16; see maximumF32 in ValuFloat.cpp): a NaN
/// operand gives a quiet NaN, and -0 orders below +0. The 3-operand form is
/// the 2-operand op applied twice.
uint16_t maximumF16(uint16_t a, uint16_t b, bool isMax) {
  auto nan = [](uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); };
  if (nan(a)) return a | 0x200;
  if (nan(b)) return b | 0x200;
  float x = f16ToFloat(a), y = f16ToFloat(b);
  if (x == y)
    return isMax ? (std::signbit(x) ? b : a) : (std::signbit(x) ? a : b);
  return (isMax ? x > y : x < y) ? a : b;
}
uint16_t maximum3F16(uint16_t a, uint16_t b, uint16_t c, bool isMax) {
  return maximumF16(maximumF16(a, b, isMax), c, isMax);
}

//===----------------------------------------------------------------------===//
// Packed math (VOP3P)
//===----------------------------------------------------------------------===//

/// Half `hi` of packed source `i` with op_sel/op_sel_hi and neg_lo/neg_hi.
inline uint16_t pkHalf(const Inst &in, unsigned i, uint32_t x, bool hi) {
  bool sel = hi ? (in.opSelHi >> i) & 1 : (in.opSel >> i) & 1;
  uint16_t h = uint16_t(sel ? x >> 16 : x);
  return h;
}
inline bool pkNeg(const Inst &in, unsigned i, bool hi) {
  return hi ? (in.negHi >> i) & 1 : (in.negLo >> i) & 1;
}

enum PkOp : uint16_t { PkAddF16, PkMulF16, PkFmaF16, PkMaxF16, PkMinF16,
                       PkMaximum3F16, PkMinimum3F16, // float ops end here
                       PkAddU16, PkSubU16, PkMulLoU16, PkLshlrevB16,
                       PkLshrrevB16, PkAshrrevI16, PkMaxU16, PkMinU16,
                       PkMaxI16, PkMinI16, PkAddI16, PkSubI16, PkMadU16, PkMadI16 };

void pk16(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  alignas(64) uint32_t b0[kLanes], b1[kLanes], b2[kLanes], r[kLanes];
  const uint32_t *s[3] = {lanes(w, in.src[0], b0),
                          in.nsrc > 1 ? lanes(w, in.src[1], b1) : b0,
                          in.nsrc > 2 ? lanes(w, in.src[2], b2) : b0};
  bool isFloat = in.op <= PkMinimum3F16;
  for (int l = 0; l < kLanes; ++l) {
    uint32_t out = 0;
    for (int h = 0; h < 2; ++h) {
      uint16_t x[3] = {0, 0, 0};
      for (unsigned i = 0; i < in.nsrc && i < 3; ++i) {
        x[i] = pkHalf(in, i, s[i][l], h);
        if (isFloat && pkNeg(in, i, h))
          x[i] ^= 0x8000;
      }
      uint32_t y = 0;
      float fa = isFloat ? f16ToFloat(x[0]) : 0, fb = isFloat ? f16ToFloat(x[1]) : 0;
      switch (PkOp(in.op)) {
      case PkAddF16: y = floatToF16(fa + fb); break;
      case PkMulF16: y = floatToF16(fa * fb); break;
      case PkFmaF16:
        y = fmaToHalf(fa, fb, f16ToFloat(x[2]));
        break;
      case PkMaxF16: y = minMaxF16(x[0], x[1], true); break;
      case PkMinF16: y = minMaxF16(x[0], x[1], false); break;
      case PkMaximum3F16: y = maximum3F16(x[0], x[1], x[2], true); break;
      case PkMinimum3F16: y = maximum3F16(x[0], x[1], x[2], false); break;
      case PkAddU16: case PkAddI16: y = x[0] + x[1]; break;
      case PkSubU16: case PkSubI16: y = x[0] - x[1]; break;
      case PkMulLoU16: y = uint32_t(x[0]) * x[1]; break;
      // In uint32_t: uint16_t operands promote to int, whose product can
      // overflow; the low 16 bits are the same for signed and unsigned.
      case PkMadU16: case PkMadI16: y = uint32_t(x[0]) * x[1] + x[2]; break;
      case PkLshlrevB16: y = x[1] << (x[0] & 15); break;
      case PkLshrrevB16: y = x[1] >> (x[0] & 15); break;
      case PkAshrrevI16: y = uint16_t(int16_t(x[1]) >> (x[0] & 15)); break;
      case PkMaxU16: y = std::max(x[0], x[1]); break;
      case PkMinU16: y = std::min(x[0], x[1]); break;
      case PkMaxI16: y = uint16_t(std::max(int16_t(x[0]), int16_t(x[1]))); break;
      case PkMinI16: y = uint16_t(std::min(int16_t(x[0]), int16_t(x[1]))); break;
      }
      if (in.clamp && isFloat) {
        float f = f16ToFloat(uint16_t(y));
        y = floatToF16(std::isnan(f) ? 0.0f : std::fmin(std::fmax(f, 0.0f), 1.0f));
      }
      // Integer clamp saturates the exact result to the element type (LLVM
      // selects v_pk_add_u16 clamp for uadd.sat on v2i16, and so on); it
      // was ignored, leaving the wrapped value.
      if (in.clamp && !isFloat) {
        int64_t u0 = x[0], u1 = in.nsrc > 1 ? x[1] : 0, u2 = in.nsrc > 2 ? x[2] : 0;
        int64_t s0 = int16_t(x[0]), s1 = in.nsrc > 1 ? int16_t(x[1]) : 0;
        switch (PkOp(in.op)) {
        case PkAddU16: y = uint32_t(std::clamp<int64_t>(u0 + u1, 0, 0xffff)); break;
        case PkSubU16: y = uint32_t(std::clamp<int64_t>(u0 - u1, 0, 0xffff)); break;
        case PkMadU16: y = uint32_t(std::clamp<int64_t>(u0 * u1 + u2, 0, 0xffff)); break;
        case PkMadI16: y = uint32_t(std::clamp<int64_t>(s0 * s1 + int16_t(x[2]), -32768, 32767)); break;
        case PkAddI16: y = uint32_t(std::clamp<int64_t>(s0 + s1, -32768, 32767)); break;
        case PkSubI16: y = uint32_t(std::clamp<int64_t>(s0 - s1, -32768, 32767)); break;
        default:
          w.fault("clamp on this packed integer operation is not modelled");
          return;
        }
      }
      out |= (y & 0xffff) << (16 * h);
    }
    r[l] = out;
  }
  writeMasked(w.row(in.dst[0].reg), r, exec);
}

/// v_pk_fmac_f16 (VOP2: e32, e64, DPP): D.f16[h] = fma(S0.f16[h], S1.f16[h],
/// D.f16[h]) for both halves, one rounding each (the CDNA3/CDNA4 guides:
/// "accumulate ... using fused multiply add"). DPP moves src0 as a whole
/// dword. An inline constant is the value LLVM's disassembler gives the
/// operand (LLVM notes that before gfx11 it is the f16 in the low half and 0
/// in the high half; no test covers constants yet). The e64 encoding's
/// neg/abs/clamp/omod are refused: the guides
/// do not say how a 32-bit VOP3 modifier applies to a packed pair. SDWA
/// works on the packed dwords as on any 32-bit operand (CDNA3 ISA, "SDWA"):
/// src0_sel/src1_sel pick the byte or word of each source, zero-extended
/// (sext is an integer modifier and is refused with neg/abs), into the
/// dword whose two halves are multiplied, and dst_sel/dst_unused place the
/// packed result; the accumulator is the whole destination register.
void pkFmacF16(Wave &w, const Inst &in) {
  if (in.clamp || in.omod ||
      ((in.src[0].mods | in.src[1].mods | in.src[2].mods) & (kModNeg | kModAbs | kModSext))) {
    w.fault("neg, abs, sext, clamp or omod on v_pk_fmac_f16 is not modelled");
    return;
  }
  uint64_t mask = dppWriteMask(w, in, w.exec());
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::B32, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::B32, b1);
  const uint32_t *d = w.row(in.dst[0].reg);
  for (int l = 0; l < kLanes; ++l) {
    uint32_t out = 0;
    for (int h = 0; h < 2; ++h) {
      float x = f16ToFloat(uint16_t(a[l] >> (16 * h)));
      float y = f16ToFloat(uint16_t(b[l] >> (16 * h)));
      float z = f16ToFloat(uint16_t(d[l] >> (16 * h)));
      out |= uint32_t(fmaToHalf(x, y, z)) << (16 * h);
    }
    r[l] = out;
  }
  if (in.form & kFormSdwa)
    writeResult(w, in, r, Ty::B32, mask);
  else
    writeMasked(w.row(in.dst[0].reg), r, mask);
}

/// v_pk_{fma,mul,add}_f32 and v_pk_mov_b32: each source is a 64-bit pair;
/// op_sel picks which dword feeds the low result, op_sel_hi the high one.
enum PkF32Op : uint16_t { PkFmaF32, PkMulF32, PkAddF32, PkMovB32 };
void pkF32(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  alignas(64) uint32_t lo[3][kLanes], hi[3][kLanes], r[2][kLanes];
  static const uint32_t zero[kLanes] = {};
  const uint32_t *sl[3] = {zero, zero, zero}, *sh[3] = {zero, zero, zero};
  for (unsigned i = 0; i < in.nsrc && i < 3; ++i) {
    sl[i] = lanes(w, in.src[i], lo[i], 0);
    // A 32-bit constant's second dword is zero (LLVM selects op_sel_hi:0
    // for constants so that both halves read the value).
    sh[i] = lanes(w, in.src[i], hi[i], 1);
  }
  for (int h = 0; h < 2; ++h) {
    const uint32_t *x[3];
    uint32_t neg[3];
    for (unsigned i = 0; i < 3; ++i) {
      bool sel = h ? (in.opSelHi >> i) & 1 : (in.opSel >> i) & 1;
      x[i] = sel ? sh[i] : sl[i];
      neg[i] = i < in.nsrc && pkNeg(in, i, h) && in.op != PkMovB32 ? 0x80000000u : 0;
    }
    uint32_t *out = r[h];
    switch (PkF32Op(in.op)) {
    case PkFmaF32:
      fmaLanes(x[0], x[1], x[2], out, neg[0], neg[1], neg[2]);
      break;
    case PkMulF32:
      for (int l = 0; l < kLanes; ++l)
        out[l] = asU(asF(x[0][l] ^ neg[0]) * asF(x[1][l] ^ neg[1]));
      break;
    case PkAddF32:
      for (int l = 0; l < kLanes; ++l)
        out[l] = asU(asF(x[0][l] ^ neg[0]) + asF(x[1][l] ^ neg[1]));
      break;
    case PkMovB32:
      // v_pk_mov_b32: the low result takes src0's selected dword, the high
      // result src1's.
      std::memcpy(out, x[h], sizeof(r[h]));
      break;
    }
    if (in.clamp && in.op != PkMovB32)
      for (int l = 0; l < kLanes; ++l) {
        float y = asF(out[l]);
        out[l] = asU(std::isnan(y) ? 0.0f : std::fmin(std::fmax(y, 0.0f), 1.0f));
      }
  }
  writeMasked(w.row(in.dst[0].reg), r[0], exec);
  writeMasked(w.row(in.dst[0].reg + 1), r[1], exec);
}

/// v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16: op_sel_hi[i] says
/// whether source i is f16 (then op_sel[i] picks its half) or f32.
void fmaMix(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  alignas(64) uint32_t b[3][kLanes], r[kLanes];
  const uint32_t *s[3];
  for (unsigned i = 0; i < 3; ++i)
    s[i] = lanes(w, in.src[i], b[i]);
  const uint32_t *old = w.row(in.dst[0].reg);
  for (int l = 0; l < kLanes; ++l) {
    float x[3];
    for (unsigned i = 0; i < 3; ++i) {
      uint8_t m = in.src[i].mods;
      if ((in.opSelHi >> i) & 1) {
        uint16_t h = uint16_t(((in.opSel >> i) & 1) ? s[i][l] >> 16 : s[i][l]);
        x[i] = f16ToFloat(h);
      } else {
        x[i] = asF(s[i][l]);
      }
      if (m & kModAbs) x[i] = std::fabs(x[i]);
      if (m & kModNeg) x[i] = -x[i];
    }
    float y = std::fma(x[0], x[1], x[2]);
    // The f16 forms round the exact result once (not through the f32 fma).
    uint16_t yh = fmaToHalf(x[0], x[1], x[2]);
    if (in.clamp) {
      y = std::isnan(y) ? 0.0f : std::fmin(std::fmax(y, 0.0f), 1.0f);
      yh = floatToF16(y == 0.0f || y == 1.0f ? y : f16ToFloat(yh));
    }
    if (in.op == 0)
      r[l] = asU(y);
    else if (in.op == 1)
      r[l] = (old[l] & 0xffff0000u) | yh;
    else
      r[l] = (old[l] & 0xffffu) | (uint32_t(yh) << 16);
  }
  writeMasked(w.row(in.dst[0].reg), r, exec);
}

//===----------------------------------------------------------------------===//
// Dot products
//===----------------------------------------------------------------------===//

/// v_dot2_f32_f16 / v_dot2_f32_bf16 (VOP3P) and the accumulating VOP2
/// v_dot2c_f32_f16 / v_dot2c_f32_bf16 (e32, e64, DPP). Op id: bit 0 bf16
/// elements, bit 1 the VOP2 form.
void dot2F32(Wave &w, const Inst &in) {
  // DPP (v_dot2c_f32_f16_dpp) moves src0 and masks the write; neg_lo/neg_hi
  // negate the low/high products' factors and neg_lo of src2 the addend.
  // Both were ignored.
  uint64_t exec = dppWriteMask(w, in, w.exec());
  alignas(64) uint32_t b[3][kLanes], r[kLanes];
  const uint32_t *s0 = fetchSrc(w, in, 0, Ty::B32, b[0]), *s1 = lanes(w, in.src[1], b[1]);
  const uint32_t *s2 = in.nsrc >= 3 ? lanes(w, in.src[2], b[2]) : w.row(in.dst[0].reg);
  bool bf = in.op & 1, vop2 = in.op & 2;
  if (in.form & kFormSdwa) {
    w.fault("SDWA on v_dot2 is not modelled");
    return;
  }
  // The VOP3 (e64) encoding of v_dot2c has neg/abs bits but no op_sel: the
  // guides do not say how a 32-bit float modifier applies to a packed pair,
  // so refuse it rather than guess. Without op_sel each product takes its
  // own halves (the e64 form had read op_sel_hi as 0: both products from
  // the low halves).
  if (vop2 && (in.clamp || in.omod ||
               ((in.src[0].mods | in.src[1].mods | in.src[2].mods) & (kModNeg | kModAbs)))) {
    w.fault("neg, abs, clamp or omod on v_dot2c is not modelled");
    return;
  }
  for (int l = 0; l < kLanes; ++l) {
    double acc = (in.negLo & 4) ? -double(asF(s2[l])) : double(asF(s2[l]));
    for (int h = 0; h < 2; ++h) {
      uint16_t x = uint16_t(((in.opSel >> 0 & 1) && !h) || ((in.opSelHi & 1) && h) ? s0[l] >> 16 : s0[l]);
      uint16_t y = uint16_t(((in.opSel >> 1 & 1) && !h) || ((in.opSelHi >> 1 & 1) && h) ? s1[l] >> 16 : s1[l]);
      if (vop2) { // VOP2 v_dot2c: no op_sel
        x = uint16_t(s0[l] >> (16 * h));
        y = uint16_t(s1[l] >> (16 * h));
      }
      float fx = bf ? bf16ToFloat(x) : f16ToFloat(x);
      float fy = bf ? bf16ToFloat(y) : f16ToFloat(y);
      unsigned neg = h ? in.negHi : in.negLo;
      if (neg & 1)
        fx = -fx;
      if (neg & 2)
        fy = -fy;
      acc += double(fx) * double(fy);
    }
    r[l] = asU(float(acc));
  }
  writeMasked(w.row(in.dst[0].reg), r, exec);
}

/// Integer dot products (v_dot4_i32_i8, v_dot4_u32_u8, v_dot2_i32_i16,
/// v_dot2_u32_u16, v_dot8_i32_i4, v_dot8_u32_u4 and the VOP2 "c" forms
/// that accumulate into the destination): the exact sum of the element
/// products plus S2; clamp saturates it to the 32-bit (un)signed range,
/// else it wraps. Op id: element bits (4, 8, 16) | signed << 8.
int64_t dotInt(uint32_t a, uint32_t b, unsigned bits, bool isSigned) {
  int64_t sum = 0;
  for (unsigned i = 0; i < 32; i += bits) {
    int64_t x = (a >> i) & ((1u << bits) - 1), y = (b >> i) & ((1u << bits) - 1);
    if (isSigned) {
      x -= (x >> (bits - 1)) << bits;
      y -= (y >> (bits - 1)) << bits;
    }
    sum += x * y;
  }
  return sum;
}
void dotIntOp(Wave &w, const Inst &in) {
  unsigned bits = in.op & 0xff;
  bool isSigned = in.op >> 8;
  if (in.opSel || in.negLo || in.negHi || (in.form & kFormSdwa)) {
    w.fault("op_sel, neg or SDWA on an integer dot product is not modelled");
    return;
  }
  uint64_t mask = dppWriteMask(w, in, w.exec());
  alignas(64) uint32_t b0[kLanes], b1[kLanes], b2[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::B32, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::B32, b1);
  const uint32_t *c = in.nsrc >= 3 ? fetchSrc(w, in, 2, Ty::B32, b2) : w.row(in.dst[0].reg);
  for (int l = 0; l < kLanes; ++l) {
    int64_t v = dotInt(a[l], b[l], bits, isSigned) +
                (isSigned ? int64_t(int32_t(c[l])) : int64_t(c[l]));
    if (in.clamp)
      v = isSigned ? std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)
                   : std::clamp<int64_t>(v, 0, UINT32_MAX);
    r[l] = uint32_t(v);
  }
  writeMasked(w.row(in.dst[0].reg), r, mask);
}

} // namespace

void registerValuPackedOps(OpTable &t) {
  const Layout V = Layout::Vop;
  const Layout P = Layout::Vop3p;
  struct {
    const char *name;
    PkOp op;
  } pks[] = {{"V_PK_ADD_F16", PkAddF16}, {"V_PK_MUL_F16", PkMulF16},
             {"V_PK_FMA_F16", PkFmaF16}, {"V_PK_MAX_F16", PkMaxF16},
             {"V_PK_MIN_F16", PkMinF16}, {"V_PK_MAXIMUM3_F16", PkMaximum3F16},
             {"V_PK_MINIMUM3_F16", PkMinimum3F16}, {"V_PK_ADD_U16", PkAddU16},
             {"V_PK_SUB_U16", PkSubU16}, {"V_PK_MUL_LO_U16", PkMulLoU16},
             {"V_PK_LSHLREV_B16", PkLshlrevB16}, {"V_PK_LSHRREV_B16", PkLshrrevB16},
             {"V_PK_ASHRREV_I16", PkAshrrevI16}, {"V_PK_MAX_U16", PkMaxU16},
             {"V_PK_MIN_U16", PkMinU16}, {"V_PK_MAX_I16", PkMaxI16},
             {"V_PK_MIN_I16", PkMinI16}, {"V_PK_ADD_I16", PkAddI16},
             {"V_PK_SUB_I16", PkSubI16}, {"V_PK_MAD_U16", PkMadU16},
             {"V_PK_MAD_I16", PkMadI16}};
  for (auto &e : pks)
    t.add(e.name, pk16, P, e.op);
  t.add("V_PK_FMAC_F16", pkFmacF16, V, 0);
  t.add("V_PK_FMA_F32", pkF32, P, PkFmaF32);
  t.add("V_PK_MUL_F32", pkF32, P, PkMulF32);
  t.add("V_PK_ADD_F32", pkF32, P, PkAddF32);
  t.add("V_PK_MOV_B32", pkF32, P, PkMovB32);
  t.add("V_FMA_MIX_F32", fmaMix, P, 0);
  t.add("V_FMA_MIXLO_F16", fmaMix, P, 1);
  t.add("V_FMA_MIXHI_F16", fmaMix, P, 2);
  t.add("V_DOT2_F32_F16", dot2F32, P, 0);
  t.add("V_DOT2_F32_BF16", dot2F32, P, 1);
  t.add("V_DOT2C_F32_F16", dot2F32, V, 2);
  t.add("V_DOT2C_F32_BF16", dot2F32, V, 3);
  t.add("V_DOT4_I32_I8", dotIntOp, P, 8 | 1 << 8);
  t.add("V_DOT4_U32_U8", dotIntOp, P, 8);
  t.add("V_DOT2_I32_I16", dotIntOp, P, 16 | 1 << 8);
  t.add("V_DOT2_U32_U16", dotIntOp, P, 16);
  t.add("V_DOT8_I32_I4", dotIntOp, P, 4 | 1 << 8);
  t.add("V_DOT8_U32_U4", dotIntOp, P, 4);
  t.add("V_DOT4C_I32_I8", dotIntOp, V, 8 | 1 << 8);
  t.add("V_DOT2C_I32_I16", dotIntOp, V, 16 | 1 << 8);
  t.add("V_DOT8C_I32_I4", dotIntOp, V, 4 | 1 << 8);
}

} // namespace kcc::emu
