//===- ValuScaleCvt.cpp - gfx950's scaled FP8/BF8/FP4/FP6 conversions -----===//
//
// CDNA4's v_cvt_scalef32_* (VOP3): OCP MX conversions between f32/f16/bf16
// and FP8 (e4m3fn), BF8 (e5m2), FP4 (e2m1), FP6 (e2m3) and BF6 (e3m2), with a
// scale. The ISA: "convert ..., then scale the values using the exponent
// provided by the single-precision float input" (up-conversions), "scale ...
// using the exponent provided by the ... input, then convert" (down). So the
// scale is 2^(E - 127) for the scale operand's biased exponent E (its sign
// and mantissa do not take part); an up-conversion multiplies by it, a
// down-conversion divides. Both are exact in double, so each result is one
// rounding, to nearest even (or stochastic for the _sr forms, MiniFloat.h).
// E = 255 (an E8M0 NaN scale) is refused: what it does is not documented.
//
// Beyond the largest finite value FP8 gives NaN and BF8 infinity, as the
// unscaled conversions do with MODE.FP16_OVFL clear (ValuFp8.cpp; a kernel
// setting it is refused here too); FP4/FP6 have neither and saturate.
// A NaN input to FP4/FP6 is refused (AMD's host model of these conversions
// and its emulator disagree on the result). Stochastic conversions of several
// values use the same random word for each, as AMD's host model does.
//
// Operands, as LLVM's disassembler gives them: op_sel[1:0] (the source byte
// of FP8/FP4 up-conversions) are the op_sel bits of src0 and src1, op_sel[0]
// alone the source word of packed FP8; op_sel[3] (destination word or half,
// high bit of a destination byte) is src0's destination op_sel and op_sel[2]
// (low bit of the destination byte) the op_sel bit of the third source slot.
// Writes of part of a register keep the rest.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/MiniFloat.h"
#include "runtime/emu/Valu.h"

#include <vector>

namespace kcc::emu {
namespace {

using namespace valu;

/// The wide side of a conversion.
enum class WideType : uint8_t { F32, F16, Bf16 };

constexpr MiniFloat kF32Format{8, 23, 127, MiniFloat::Ieee};
constexpr MiniFloat kF16Format{5, 10, 15, MiniFloat::Ieee};
constexpr MiniFloat kBf16Format{8, 7, 127, MiniFloat::Ieee};

const MiniFloat &wideFormat(WideType t) {
  return t == WideType::F32 ? kF32Format : t == WideType::F16 ? kF16Format : kBf16Format;
}
/// A wide value as the f32 that holds it exactly.
uint32_t wideBits(uint32_t bits, WideType t) {
  if (t == WideType::F32)
    return bits;
  return t == WideType::F16 ? asU(f16ToFloat(uint16_t(bits))) : (bits & 0xffff) << 16;
}

/// What an opcode converts: the narrow format and the wide type.
struct ScaleOp {
  const MiniFloat *narrow;
  WideType wide;
};

bool opSel0(const Inst &in, unsigned i) { return i < in.nsrc && (in.src[i].mods & kModOpSel0); }
bool opSel3(const Inst &in) { return in.src[0].mods & kModOpSel1; }

/// Per-lane scale exponents (E - 127) of source `i`; false (after faulting)
/// when an active lane's scale is an E8M0 NaN.
bool scaleExponents(Wave &w, const Inst &in, unsigned i, int *k) {
  alignas(64) uint32_t buf[kLanes];
  const uint32_t *s = lanes(w, in.src[i], buf);
  uint64_t exec = w.exec();
  for (int l = 0; l < kLanes; ++l) {
    int e = int((s[l] >> 23) & 0xff);
    if (e == 255 && ((exec >> l) & 1)) {
      w.fault("scaled conversion with a NaN scale (exponent 255) is not modelled");
      return false;
    }
    k[l] = e - 127;
  }
  return true;
}

/// code * 2^k, rounded to the wide type (bits).
uint32_t up(uint32_t code, const MiniFloat &f, int k, WideType t) {
  return encodeMiniFloat(std::ldexp(double(decodeMiniFloat(code, f)), k), wideFormat(t),
                         MiniRounding());
}

/// x (f32 bits) / 2^k rounded to the narrow format; `refused` is set for a
/// NaN going to a format without NaN.
uint32_t down(uint32_t x, const MiniFloat &f, int k, const MiniRounding &r, bool &refused) {
  if ((x & 0x7fffffffu) > 0x7f800000u && f.kind == MiniFloat::Finite)
    refused = true;
  return encodeMiniFloatF32(x, k, f, r);
}

bool refuse(Wave &w, bool refused) {
  if (refused)
    w.fault("scaled conversion of a NaN to FP4/FP6 is not modelled");
  return refused;
}

/// A packed 16-bit source must not carry neg/abs (not modelled).
bool refuse16BitMods(Wave &w, const Inst &in, unsigned i) {
  if (in.src[i].mods & (kModNeg | kModAbs)) {
    w.fault("neg/abs on a packed 16-bit source of a scaled conversion is not modelled");
    return true;
  }
  return false;
}

/// Source `i` as 64 raw dwords (part `part` of a register tuple).
const uint32_t *raw(Wave &w, const Inst &in, unsigned i, uint32_t *buf, unsigned part = 0) {
  return lanes(w, in.src[i], buf, part);
}

void writeLanes(Wave &w, unsigned reg, const uint32_t *r) {
  writeMasked(w.row(reg), r, w.exec());
}

/// v_cvt_scalef32_f32_fp8/bf8: byte op_sel[1:0] of src0 to f32; scale src1.
void upByte(Wave &w, const Inst &in) {
  const ScaleOp &op = *static_cast<const ScaleOp *>(in.aux);
  int k[kLanes];
  if (!scaleExponents(w, in, 1, k))
    return;
  alignas(64) uint32_t b0[kLanes], r[kLanes];
  const uint32_t *a = raw(w, in, 0, b0);
  unsigned shift = 8 * ((opSel0(in, 0) ? 1 : 0) | (opSel0(in, 1) ? 2 : 0));
  for (int l = 0; l < kLanes; ++l)
    r[l] = up((a[l] >> shift) & 0xff, *op.narrow, k[l], WideType::F32);
  writeLanes(w, in.dst[0].reg, r);
}

/// v_cvt_scalef32_f16_fp8/bf8: the same into half op_sel[3] of vdst.
void upByteToHalf(Wave &w, const Inst &in) {
  const ScaleOp &op = *static_cast<const ScaleOp *>(in.aux);
  int k[kLanes];
  if (!scaleExponents(w, in, 1, k))
    return;
  alignas(64) uint32_t b0[kLanes], r[kLanes];
  const uint32_t *a = raw(w, in, 0, b0);
  const uint32_t *old = w.row(in.dst[0].reg);
  unsigned shift = 8 * ((opSel0(in, 0) ? 1 : 0) | (opSel0(in, 1) ? 2 : 0));
  bool hi = opSel3(in);
  for (int l = 0; l < kLanes; ++l) {
    uint32_t h = up((a[l] >> shift) & 0xff, *op.narrow, k[l], op.wide);
    r[l] = hi ? (old[l] & 0xffffu) | h << 16 : (old[l] & 0xffff0000u) | h;
  }
  writeLanes(w, in.dst[0].reg, r);
}

/// Writes two wide results per lane: an f32 pair to vdst and vdst+1, or
/// packed 16-bit halves to vdst.
void writePair(Wave &w, const Inst &in, WideType t, const uint32_t *lo, const uint32_t *hi) {
  if (t == WideType::F32) {
    writeLanes(w, in.dst[0].reg, lo);
    writeLanes(w, in.dst[0].reg + 1, hi);
    return;
  }
  alignas(64) uint32_t r[kLanes];
  for (int l = 0; l < kLanes; ++l)
    r[l] = (lo[l] & 0xffff) | hi[l] << 16;
  writeLanes(w, in.dst[0].reg, r);
}

/// v_cvt_scalef32_pk_{f32,f16,bf16}_{fp8,bf8}: the two bytes of word
/// op_sel[0]; v_cvt_scalef32_pk_{f32,f16,bf16}_fp4: the two nibbles of byte
/// op_sel[1:0]. Scale src1.
template <unsigned Bits> void upPair(Wave &w, const Inst &in) {
  const ScaleOp &op = *static_cast<const ScaleOp *>(in.aux);
  int k[kLanes];
  if (!scaleExponents(w, in, 1, k))
    return;
  alignas(64) uint32_t b0[kLanes], lo[kLanes], hi[kLanes];
  const uint32_t *a = raw(w, in, 0, b0);
  unsigned shift = Bits == 8 ? (opSel0(in, 0) ? 16 : 0)
                             : 8 * ((opSel0(in, 0) ? 1 : 0) | (opSel0(in, 1) ? 2 : 0));
  uint32_t mask = (1u << Bits) - 1;
  for (int l = 0; l < kLanes; ++l) {
    uint32_t v = a[l] >> shift;
    lo[l] = up(v & mask, *op.narrow, k[l], op.wide);
    hi[l] = up((v >> Bits) & mask, *op.narrow, k[l], op.wide);
  }
  writePair(w, in, op.wide, lo, hi);
}

/// The two wide inputs of a packed down-conversion, as f32 bits: two f32
/// operands (neg/abs apply) or the halves of one register.
bool pairInputs(Wave &w, const Inst &in, WideType t, uint32_t *x, uint32_t *y) {
  alignas(64) uint32_t b0[kLanes], b1[kLanes];
  if (t == WideType::F32) {
    const uint32_t *a = fetchSrc(w, in, 0, Ty::F32, b0);
    const uint32_t *b = fetchSrc(w, in, 1, Ty::F32, b1);
    std::memcpy(x, a, kLanes * 4);
    std::memcpy(y, b, kLanes * 4);
    return true;
  }
  if (refuse16BitMods(w, in, 0))
    return false;
  const uint32_t *a = raw(w, in, 0, b0);
  for (int l = 0; l < kLanes; ++l) {
    x[l] = wideBits(a[l] & 0xffff, t);
    y[l] = wideBits(a[l] >> 16, t);
  }
  return true;
}

/// v_cvt_scalef32_pk_{fp8,bf8}_{f32,f16,bf16}: into word op_sel[3];
/// v_cvt_scalef32_pk_fp4_{f32,f16,bf16}: into byte op_sel[3:2]. The scale
/// follows the inputs (src2 after two f32, else src1).
template <unsigned Bits> void downPair(Wave &w, const Inst &in) {
  if (refuseFp16Overflow(w))
    return;
  const ScaleOp &op = *static_cast<const ScaleOp *>(in.aux);
  uint32_t x[kLanes], y[kLanes];
  int k[kLanes];
  if (!pairInputs(w, in, op.wide, x, y) ||
      !scaleExponents(w, in, op.wide == WideType::F32 ? 2 : 1, k))
    return;
  unsigned shift = Bits == 8 ? (opSel3(in) ? 16 : 0)
                             : 8 * ((opSel3(in) ? 2 : 0) | (opSel0(in, 2) ? 1 : 0));
  uint32_t field = Bits == 8 ? 0xffffu : 0xffu;
  alignas(64) uint32_t r[kLanes];
  const uint32_t *old = w.row(in.dst[0].reg);
  bool refused = false;
  uint64_t exec = w.exec();
  MiniRounding nearest;
  for (int l = 0; l < kLanes; ++l) {
    bool live = (exec >> l) & 1;
    bool ignored = false;
    uint32_t v = down(x[l], *op.narrow, k[l], nearest, live ? refused : ignored) |
                 down(y[l], *op.narrow, k[l], nearest, live ? refused : ignored) << Bits;
    r[l] = (old[l] & ~(field << shift)) | v << shift;
  }
  if (!refuse(w, refused))
    writeLanes(w, in.dst[0].reg, r);
}

/// v_cvt_scalef32_sr_{fp8,bf8}_{f32,f16,bf16}: src0 (an f32, or the f16/bf16
/// in half op_sel[0]) with the random word src1 and scale src2 into byte
/// op_sel[3:2]; v_cvt_scalef32_sr_pk_fp4_{f32,f16,bf16}: two values (an f32
/// register pair, or both halves) into byte op_sel[3:2].
template <bool Pair> void srDown(Wave &w, const Inst &in) {
  if (refuseFp16Overflow(w))
    return;
  const ScaleOp &op = *static_cast<const ScaleOp *>(in.aux);
  int k[kLanes];
  if (!scaleExponents(w, in, 2, k))
    return;
  bool f32 = op.wide == WideType::F32;
  if ((Pair || !f32) && refuse16BitMods(w, in, 0))
    return;
  alignas(64) uint32_t b0[kLanes], b1[kLanes], b2[kLanes], r[kLanes];
  const uint32_t *a = !Pair && f32 ? fetchSrc(w, in, 0, Ty::F32, b0) : raw(w, in, 0, b0);
  const uint32_t *a1 = Pair && f32 ? raw(w, in, 0, b2, 1) : a;
  const uint32_t *random = raw(w, in, 1, b1);
  const uint32_t *old = w.row(in.dst[0].reg);
  unsigned shift = 8 * ((opSel3(in) ? 2 : 0) | (opSel0(in, 2) ? 1 : 0));
  bool hiHalf = !Pair && !f32 && opSel0(in, 0);
  MiniRounding sr;
  sr.stochastic = true;
  sr.srcManBits = wideFormat(op.wide).manBits;
  bool refused = false;
  uint64_t exec = w.exec();
  for (int l = 0; l < kLanes; ++l) {
    bool live = (exec >> l) & 1, ignored = false;
    bool &bad = live ? refused : ignored;
    sr.random = random[l];
    uint32_t v;
    if (!Pair) {
      uint32_t x = f32 ? a[l] : wideBits(hiHalf ? a[l] >> 16 : a[l] & 0xffff, op.wide);
      v = down(x, *op.narrow, k[l], sr, bad);
    } else {
      uint32_t x = f32 ? a[l] : wideBits(a[l] & 0xffff, op.wide);
      uint32_t y = f32 ? a1[l] : wideBits(a[l] >> 16, op.wide);
      v = down(x, *op.narrow, k[l], sr, bad) | down(y, *op.narrow, k[l], sr, bad) << 4;
    }
    r[l] = (old[l] & ~(0xffu << shift)) | v << shift;
  }
  if (!refuse(w, refused))
    writeLanes(w, in.dst[0].reg, r);
}

//===----------------------------------------------------------------------===//
// 32 values of FP6/BF6: 192 bits in six registers, value i in bits
// [6i, 6i + 6) (crossing register boundaries).
//===----------------------------------------------------------------------===//

uint32_t getFp6(const uint32_t *words, unsigned i) {
  uint64_t pair = words[(6 * i) / 32] | (uint64_t((6 * i) / 32 + 1 < 6 ? words[(6 * i) / 32 + 1] : 0) << 32);
  return uint32_t(pair >> ((6 * i) % 32)) & 63;
}
void putFp6(uint32_t *words, unsigned i, uint32_t v) {
  unsigned bit = 6 * i;
  for (unsigned b = 0; b < 6; ++b, ++bit)
    words[bit / 32] |= ((v >> b) & 1u) << (bit % 32);
}

/// All dwords of a register-tuple source, per lane: out[part * 64 + lane].
bool tuple(Wave &w, const Opnd &o, unsigned parts, std::vector<uint32_t> &out) {
  if (o.kind != OpndKind::Vgpr || o.width < parts) {
    w.fault("a scaled FP6 conversion's wide operand must be a VGPR tuple");
    return false;
  }
  out.resize(size_t(parts) * kLanes);
  for (unsigned p = 0; p < parts; ++p)
    std::memcpy(&out[size_t(p) * kLanes], w.row(o.reg + p), kLanes * 4);
  return true;
}

void writeTuple(Wave &w, unsigned reg, unsigned parts, const std::vector<uint32_t> &v) {
  for (unsigned p = 0; p < parts; ++p)
    writeLanes(w, reg + p, &v[size_t(p) * kLanes]);
}

/// v_cvt_scalef32_pk32_{f32,f16,bf16}_{fp6,bf6}: six registers to 32 values
/// (32 f32 registers, or 16 of packed halves); scale src1.
void up32(Wave &w, const Inst &in) {
  const ScaleOp &op = *static_cast<const ScaleOp *>(in.aux);
  int k[kLanes];
  std::vector<uint32_t> src;
  if (!scaleExponents(w, in, 1, k) || !tuple(w, in.src[0], 6, src))
    return;
  bool f32 = op.wide == WideType::F32;
  unsigned parts = f32 ? 32 : 16;
  std::vector<uint32_t> out(size_t(parts) * kLanes, 0);
  for (int l = 0; l < kLanes; ++l) {
    uint32_t words[6];
    for (unsigned p = 0; p < 6; ++p)
      words[p] = src[size_t(p) * kLanes + l];
    for (unsigned i = 0; i < 32; ++i) {
      uint32_t v = up(getFp6(words, i), *op.narrow, k[l], op.wide);
      if (f32)
        out[size_t(i) * kLanes + l] = v;
      else
        out[size_t(i / 2) * kLanes + l] |= (v & 0xffff) << (16 * (i & 1));
    }
  }
  writeTuple(w, in.dst[0].reg, parts, out);
}

/// v_cvt_scalef32_pk32_{fp6,bf6}_{f16,bf16} (16 registers of halves, scale
/// src1), v_cvt_scalef32_2xpk16_{fp6,bf6}_f32 (16 f32 in src0, 16 in src1,
/// scale src2) and v_cvt_scalef32_sr_pk32_{fp6,bf6}_{f32,f16,bf16} (src0 32
/// f32 or 16 registers of halves, random word src1, scale src2): 32 values to
/// six registers.
template <bool Stochastic> void down32(Wave &w, const Inst &in) {
  if (refuseFp16Overflow(w))
    return;
  const ScaleOp &op = *static_cast<const ScaleOp *>(in.aux);
  bool f32 = op.wide == WideType::F32;
  bool twoSources = f32 && !Stochastic; // 2xpk16
  unsigned scaleIndex = Stochastic || twoSources ? 2 : 1;
  int k[kLanes];
  std::vector<uint32_t> s0, s1;
  unsigned parts0 = f32 && Stochastic ? 32 : 16;
  if (!scaleExponents(w, in, scaleIndex, k) || !tuple(w, in.src[0], parts0, s0) ||
      (twoSources && !tuple(w, in.src[1], 16, s1)))
    return;
  alignas(64) uint32_t b1[kLanes];
  const uint32_t *random = Stochastic ? raw(w, in, 1, b1) : nullptr;
  MiniRounding r;
  r.stochastic = Stochastic;
  r.srcManBits = wideFormat(op.wide).manBits;
  std::vector<uint32_t> out(6 * kLanes, 0);
  bool refused = false;
  uint64_t exec = w.exec();
  for (int l = 0; l < kLanes; ++l) {
    bool live = (exec >> l) & 1, ignored = false;
    if (random)
      r.random = random[l];
    uint32_t words[6] = {};
    for (unsigned i = 0; i < 32; ++i) {
      uint32_t x;
      if (f32)
        x = twoSources && i >= 16 ? s1[size_t(i - 16) * kLanes + l] : s0[size_t(i) * kLanes + l];
      else
        x = wideBits(s0[size_t(i / 2) * kLanes + l] >> (16 * (i & 1)) & 0xffff, op.wide);
      putFp6(words, i, down(x, *op.narrow, k[l], r, live ? refused : ignored));
    }
    for (unsigned p = 0; p < 6; ++p)
      out[size_t(p) * kLanes + l] = words[p];
  }
  if (!refuse(w, refused))
    writeTuple(w, in.dst[0].reg, 6, out);
}

} // namespace

void registerValuScaleCvtOps(OpTable &t) {
  const Layout P = Layout::Plain;
  static const ScaleOp ops[] = {
#define X(NARROW, WIDE) {&NARROW, WideType::WIDE}
      X(kFp8Ocp, F32), X(kBf8Ocp, F32), X(kFp8Ocp, F16), X(kBf8Ocp, F16),
      X(kFp8Ocp, Bf16), X(kBf8Ocp, Bf16), X(kFp4E2m1, F32), X(kFp4E2m1, F16),
      X(kFp4E2m1, Bf16), X(kFp6E2m3, F32), X(kBf6E3m2, F32), X(kFp6E2m3, F16),
      X(kBf6E3m2, F16), X(kFp6E2m3, Bf16), X(kBf6E3m2, Bf16),
#undef X
  };
  enum { Fp8F32, Bf8F32, Fp8F16, Bf8F16, Fp8Bf16, Bf8Bf16, Fp4F32, Fp4F16, Fp4Bf16,
         Fp6F32, Bf6F32, Fp6F16, Bf6F16, Fp6Bf16, Bf6Bf16 };
  struct {
    const char *name;
    Handler fn;
    int op;
  } table[] = {
      {"V_CVT_SCALEF32_F32_FP8", upByte, Fp8F32},
      {"V_CVT_SCALEF32_F32_BF8", upByte, Bf8F32},
      {"V_CVT_SCALEF32_F16_FP8", upByteToHalf, Fp8F16},
      {"V_CVT_SCALEF32_F16_BF8", upByteToHalf, Bf8F16},
      {"V_CVT_SCALEF32_PK_F32_FP8", upPair<8>, Fp8F32},
      {"V_CVT_SCALEF32_PK_F32_BF8", upPair<8>, Bf8F32},
      {"V_CVT_SCALEF32_PK_F16_FP8", upPair<8>, Fp8F16},
      {"V_CVT_SCALEF32_PK_F16_BF8", upPair<8>, Bf8F16},
      {"V_CVT_SCALEF32_PK_BF16_FP8", upPair<8>, Fp8Bf16},
      {"V_CVT_SCALEF32_PK_BF16_BF8", upPair<8>, Bf8Bf16},
      {"V_CVT_SCALEF32_PK_F32_FP4", upPair<4>, Fp4F32},
      {"V_CVT_SCALEF32_PK_F16_FP4", upPair<4>, Fp4F16},
      {"V_CVT_SCALEF32_PK_BF16_FP4", upPair<4>, Fp4Bf16},
      {"V_CVT_SCALEF32_PK_FP8_F32", downPair<8>, Fp8F32},
      {"V_CVT_SCALEF32_PK_BF8_F32", downPair<8>, Bf8F32},
      {"V_CVT_SCALEF32_PK_FP8_F16", downPair<8>, Fp8F16},
      {"V_CVT_SCALEF32_PK_BF8_F16", downPair<8>, Bf8F16},
      {"V_CVT_SCALEF32_PK_FP8_BF16", downPair<8>, Fp8Bf16},
      {"V_CVT_SCALEF32_PK_BF8_BF16", downPair<8>, Bf8Bf16},
      {"V_CVT_SCALEF32_PK_FP4_F32", downPair<4>, Fp4F32},
      {"V_CVT_SCALEF32_PK_FP4_F16", downPair<4>, Fp4F16},
      {"V_CVT_SCALEF32_PK_FP4_BF16", downPair<4>, Fp4Bf16},
      {"V_CVT_SCALEF32_SR_FP8_F32", srDown<false>, Fp8F32},
      {"V_CVT_SCALEF32_SR_BF8_F32", srDown<false>, Bf8F32},
      {"V_CVT_SCALEF32_SR_FP8_F16", srDown<false>, Fp8F16},
      {"V_CVT_SCALEF32_SR_BF8_F16", srDown<false>, Bf8F16},
      {"V_CVT_SCALEF32_SR_FP8_BF16", srDown<false>, Fp8Bf16},
      {"V_CVT_SCALEF32_SR_BF8_BF16", srDown<false>, Bf8Bf16},
      {"V_CVT_SCALEF32_SR_PK_FP4_F32", srDown<true>, Fp4F32},
      {"V_CVT_SCALEF32_SR_PK_FP4_F16", srDown<true>, Fp4F16},
      {"V_CVT_SCALEF32_SR_PK_FP4_BF16", srDown<true>, Fp4Bf16},
      {"V_CVT_SCALEF32_PK32_F32_FP6", up32, Fp6F32},
      {"V_CVT_SCALEF32_PK32_F32_BF6", up32, Bf6F32},
      {"V_CVT_SCALEF32_PK32_F16_FP6", up32, Fp6F16},
      {"V_CVT_SCALEF32_PK32_F16_BF6", up32, Bf6F16},
      {"V_CVT_SCALEF32_PK32_BF16_FP6", up32, Fp6Bf16},
      {"V_CVT_SCALEF32_PK32_BF16_BF6", up32, Bf6Bf16},
      {"V_CVT_SCALEF32_PK32_FP6_F16", down32<false>, Fp6F16},
      {"V_CVT_SCALEF32_PK32_BF6_F16", down32<false>, Bf6F16},
      {"V_CVT_SCALEF32_PK32_FP6_BF16", down32<false>, Fp6Bf16},
      {"V_CVT_SCALEF32_PK32_BF6_BF16", down32<false>, Bf6Bf16},
      {"V_CVT_SCALEF32_2XPK16_FP6_F32", down32<false>, Fp6F32},
      {"V_CVT_SCALEF32_2XPK16_BF6_F32", down32<false>, Bf6F32},
      {"V_CVT_SCALEF32_SR_PK32_FP6_F32", down32<true>, Fp6F32},
      {"V_CVT_SCALEF32_SR_PK32_BF6_F32", down32<true>, Bf6F32},
      {"V_CVT_SCALEF32_SR_PK32_FP6_F16", down32<true>, Fp6F16},
      {"V_CVT_SCALEF32_SR_PK32_BF6_F16", down32<true>, Bf6F16},
      {"V_CVT_SCALEF32_SR_PK32_FP6_BF16", down32<true>, Fp6Bf16},
      {"V_CVT_SCALEF32_SR_PK32_BF6_BF16", down32<true>, Bf6Bf16},
  };
  for (const auto &e : table)
    t.add(e.name, e.fn, P, 0, &ops[e.op]);
}

} // namespace kcc::emu
