//===- ValuFp8.cpp - Conversions between f32 and FP8/BF8 ------------------===//
//
// gfx940+'s 8-bit float conversions (CDNA3 ISA, "VOP1" and "VOP3A"; CDNA4
// for gfx950). The formats are the chip's: FNUZ on gfx942, OCP on gfx950
// (MiniFloat.h).
//
//   v_cvt_f32_fp8/bf8       one byte to f32: byte 0, or the byte SDWA's
//                           src0_sel picks. clamp/omod apply to the f32.
//   v_cvt_pk_f32_fp8/bf8    the two bytes of a word (word 0, or SDWA's
//                           WORD_1) to an f32 pair.
//   v_cvt_pk_fp8/bf8_f32    two f32 (neg/abs apply) rounded to nearest even
//                           into a word of vdst: word 0, or word 1 with
//                           op_sel[3]; the other word is kept.
//   v_cvt_sr_fp8/bf8_f32    one f32 stochastically rounded with the random
//                           bits of src1 into byte op_sel[3:2] of vdst; the
//                           other bytes are kept.
//   v_cvt_off_f32_i4        the signed 4-bit integer in bits [3:0] of the
//                           source, divided by 16.
//
// Beyond the largest finite value the conversions to 8 bits do not saturate
// while MODE.FP16_OVFL is 0 (the default, and the only state modelled: the
// handlers refuse a kernel whose descriptor sets it, and s_setreg refuses to
// set it): FNUZ gives 0x80 (NaN), OCP e4m3 its NaN, OCP e5m2 infinity, as
// the IEEE rounding of a value with unbounded exponent would overflow.
// Infinite inputs convert the same way and NaN gives a NaN. Nothing here
// has been compared with hardware, and the sources disagree: AMD's emulator
// (rocjitsu) makes saturation depend on FP16_OVFL as here, AMD's host model
// of the OCP conversions (HIP's amd_hip_ocp_host.hpp) saturates BF8 to 0x7b.
// Which bits of src1 stochastic rounding adds follows that host model
// (MiniFloat.h).
//
// The SDWA forms of the four conversions from 8 bits have no dst_sel (LLVM's
// "NoDstSel" SDWA): their control immediates are clamp, omod, src0_sel, which
// the decoder's generic SDWA reading would take for dst_sel/dst_unused. The
// DPP form of the packed ones is a 64-bit result's DPP (dpp64Lanes).
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/MiniFloat.h"
#include "runtime/emu/Valu.h"
#include "target/CodeObject.h"

namespace kcc::emu {
namespace {

using namespace valu;

const MiniFloat &fp8Format(const Wave &w, bool bf8) {
  if (w.dispatch->chip == Chip::gfx950)
    return bf8 ? kBf8Ocp : kFp8Ocp;
  return bf8 ? kBf8Fnuz : kFp8Fnuz;
}

} // namespace

bool valu::refuseFp16Overflow(Wave &w) {
  const KernelInfo *k = w.dispatch->kernel;
  if (k && (k->descriptor.computePgmRsrc1 >> 26 & 1)) {
    w.fault("FP8 conversion with MODE.FP16_OVFL set (saturating) is not modelled");
    return true;
  }
  return false;
}

namespace {

/// The instruction with the fields of a NoDstSel SDWA form read right.
Inst sdwaNoDstSel(const Inst &in) {
  Inst fixed = in;
  fixed.dstSel = 6;
  fixed.dstUnused = 0;
  fixed.clamp = in.nctrl >= 1 && in.ctrl[0] != 0;
  fixed.omod = in.nctrl >= 2 ? uint8_t(in.ctrl[1]) : 0;
  return fixed;
}

/// The instruction as the handlers read it: an SDWA form through
/// sdwaNoDstSel (kept in `storage`), any other as it is.
const Inst &readable(const Inst &original, Inst &storage) {
  if (!(original.form & kFormSdwa))
    return original;
  storage = sdwaNoDstSel(original);
  return storage;
}

/// omod then clamp on an f32 result (as writeResult does for one register).
float outputModifiers(float x, const Inst &in) {
  static const float scale[4] = {1.0f, 2.0f, 4.0f, 0.5f};
  x *= scale[in.omod & 3];
  if (in.clamp)
    x = std::isnan(x) ? 0.0f : std::fmin(std::fmax(x, 0.0f), 1.0f);
  return x;
}

template <bool Bf8> void cvtF32F8(Wave &w, const Inst &original) {
  Inst storage;
  const Inst &in = readable(original, storage);
  const MiniFloat &f = fp8Format(w, Bf8);
  uint64_t mask = dppWriteMask(w, in, w.exec());
  alignas(64) uint32_t b0[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::B32, b0);
  for (int l = 0; l < kLanes; ++l)
    r[l] = asU(decodeMiniFloat(a[l] & 0xff, f));
  writeResult(w, in, r, Ty::F32, mask);
}

template <bool Bf8> void cvtPkF32F8(Wave &w, const Inst &original) {
  Inst storage;
  const Inst &in = readable(original, storage);
  const MiniFloat &f = fp8Format(w, Bf8);
  uint64_t exec = w.exec();
  alignas(64) uint32_t b0[kLanes];
  const uint32_t *a;
  if (in.form & kFormDpp) {
    // A 64-bit result's DPP: row_newbcast only (dpp64Lanes).
    int src[kLanes];
    if (!dpp64Lanes(w, in, src, exec))
      return;
    alignas(64) uint32_t raw[kLanes];
    const uint32_t *p = lanes(w, in.src[0], raw);
    for (int l = 0; l < kLanes; ++l)
      b0[l] = src[l] >= 0 ? p[src[l]] : 0;
    a = b0;
  } else {
    a = fetchSrc(w, in, 0, Ty::B32, b0);
  }
  uint32_t *lo = w.row(in.dst[0].reg), *hi = w.row(in.dst[0].reg + 1);
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    float x = decodeMiniFloat(a[l] & 0xff, f), y = decodeMiniFloat((a[l] >> 8) & 0xff, f);
    lo[l] = asU(outputModifiers(x, in));
    hi[l] = asU(outputModifiers(y, in));
  }
}

template <bool Bf8> void cvtPkF8F32(Wave &w, const Inst &in) {
  if (refuseFp16Overflow(w))
    return;
  const MiniFloat &f = fp8Format(w, Bf8);
  MiniRounding nearest;
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::F32, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::F32, b1);
  const uint32_t *old = w.row(in.dst[0].reg);
  bool highWord = in.src[0].mods & kModOpSel1; // op_sel[3]
  for (int l = 0; l < kLanes; ++l) {
    uint32_t v = encodeMiniFloatF32(a[l], 0, f, nearest) |
                 encodeMiniFloatF32(b[l], 0, f, nearest) << 8;
    r[l] = highWord ? (old[l] & 0xffffu) | v << 16 : (old[l] & 0xffff0000u) | v;
  }
  writeMasked(w.row(in.dst[0].reg), r, w.exec());
}

template <bool Bf8> void cvtSrF8F32(Wave &w, const Inst &in) {
  if (refuseFp16Overflow(w))
    return;
  const MiniFloat &f = fp8Format(w, Bf8);
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::F32, b0);
  const uint32_t *random = fetchSrc(w, in, 1, Ty::B32, b1);
  const uint32_t *old = w.row(in.dst[0].reg);
  // The byte is op_sel[3:2]. LLVM's disassembler puts op_sel[3] into src0's
  // modifiers (as the destination select) and op_sel[2] into the modifiers
  // of the third source slot, which holds the tied old vdst.
  unsigned shift = ((in.src[0].mods & kModOpSel1) ? 16 : 0) +
                   (in.nsrc > 2 && (in.src[2].mods & kModOpSel0) ? 8 : 0);
  MiniRounding sr;
  sr.stochastic = true;
  for (int l = 0; l < kLanes; ++l) {
    sr.random = random[l];
    uint32_t v = encodeMiniFloatF32(a[l], 0, f, sr);
    r[l] = (old[l] & ~(0xffu << shift)) | v << shift;
  }
  writeMasked(w.row(in.dst[0].reg), r, w.exec());
}

/// V_CVT_SR_F16_F32 / V_CVT_SR_BF16_F32 (CDNA4, VOP3A): one f32 rounded
/// stochastically with the random bits of src1 into the low half of vdst,
/// or the high half with op_sel[3]; the other half is kept. The guide names
/// the rounding (f32_to_f16_SR, f32_to_bf16_SR) without defining it; it is
/// modelled as the FP8/BF8 forms' (whose pseudocode adds the top bits of
/// S1 to the part of the mantissa below the destination's last bit): the
/// 13 (f16) or 16 (bf16) bits the conversion drops are added to the top as
/// many bits of src1 and a carry rounds up (MiniRounding). Beyond the
/// largest finite value both give infinity, a NaN gives a quiet NaN of its
/// sign, as the formats' round-to-nearest conversions do.
constexpr MiniFloat kF16Ieee{5, 10, 15, MiniFloat::Ieee};
constexpr MiniFloat kBf16Ieee{8, 7, 127, MiniFloat::Ieee};
template <bool Bf16> void cvtSr16F32(Wave &w, const Inst &in) {
  if (!Bf16 && refuseFp16Overflow(w))
    return;
  const MiniFloat &f = Bf16 ? kBf16Ieee : kF16Ieee;
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::F32, b0);
  const uint32_t *random = fetchSrc(w, in, 1, Ty::B32, b1);
  const uint32_t *old = w.row(in.dst[0].reg);
  bool highHalf = in.src[0].mods & kModOpSel1; // op_sel[3]
  MiniRounding sr;
  sr.stochastic = true;
  for (int l = 0; l < kLanes; ++l) {
    sr.random = random[l];
    uint32_t v = encodeMiniFloatF32(a[l], 0, f, sr);
    r[l] = highHalf ? (old[l] & 0xffffu) | v << 16 : (old[l] & 0xffff0000u) | v;
  }
  writeMasked(w.row(in.dst[0].reg), r, w.exec());
}

/// V_CVT_OFF_F32_I4: the ISA's table of 16 offsets is sext(S0[3:0]) / 16,
/// from -0.5 (0x8) to 0.4375 (0x7).
VOP_OP(CvtOffF32I4, B32, B32, F32, 1,
       return asU(float(int32_t(ua << 28) >> 28) * 0.0625f);)

} // namespace

void registerValuFp8Ops(OpTable &t) {
  const Layout V = Layout::Vop, P = Layout::Plain;
  t.add("V_CVT_F32_FP8", cvtF32F8<false>, V);
  t.add("V_CVT_F32_BF8", cvtF32F8<true>, V);
  t.add("V_CVT_PK_F32_FP8", cvtPkF32F8<false>, V);
  t.add("V_CVT_PK_F32_BF8", cvtPkF32F8<true>, V);
  // VOP3 only; their last control immediate is op_sel, not clamp.
  t.add("V_CVT_PK_FP8_F32", cvtPkF8F32<false>, P);
  t.add("V_CVT_PK_BF8_F32", cvtPkF8F32<true>, P);
  t.add("V_CVT_SR_FP8_F32", cvtSrF8F32<false>, P);
  t.add("V_CVT_SR_BF8_F32", cvtSrF8F32<true>, P);
  t.add("V_CVT_SR_F16_F32", cvtSr16F32<false>, P);
  t.add("V_CVT_SR_BF16_F32", cvtSr16F32<true>, P);
  t.add("V_CVT_OFF_F32_I4", vop<CvtOffF32I4>, V);
}

} // namespace kcc::emu
