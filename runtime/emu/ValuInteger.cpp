//===- ValuInteger.cpp - VALU integer and bit operations ------------------===//
//
// The 32-bit (and 64-bit shift and multiply-add) integer and bitwise
// operations of the vector ALU: moves, logic, shifts, add/sub with carries and
// saturation, 24- and 32-bit multiplies, min/max/med3, bit-field ops, byte
// permutes, sums of absolute differences, v_cndmask, v_mbcnt, v_swap and
// gfx950's v_bitop3.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Valu.h"

namespace kcc::emu {
namespace {

using namespace valu;

//===----------------------------------------------------------------------===//
// Saturating and restricted forms
//===----------------------------------------------------------------------===//

/// v_add_i32 / v_sub_i32 (gfx9 VOP3): signed; with clamp the result
/// saturates to the int32 range (LLVM selects "v_add_i32 ... clamp" for
/// llvm.sadd.sat.i32), without it the sum wraps like v_add_u32.
template <class Op, SatOp K> void vopSatI32(Wave &w, const Inst &in) {
  if (!in.clamp || in.omod) {
    vop<Op>(w, in);
    return;
  }
  uint64_t mask = dppWriteMask(w, in, w.exec()); // SDWA and DPP as vopSatU
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::B32, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::B32, b1);
  for (int l = 0; l < kLanes; ++l) {
    int64_t x = int32_t(a[l]), y = int32_t(b[l]);
    int64_t v = K == SatAdd ? x + y : K == SatSub ? x - y : y - x;
    r[l] = uint32_t(int32_t(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)));
  }
  writeSat(w, in, r, Ty::B32, mask);
}

/// v_alignbit_b32 / v_alignbyte_b32: gfx9 MC gives them op_sel operands
/// (V_*_opsel_gfx9). Without op_sel they are the plain 32-bit ops; what the
/// op_sel bits would select is not modelled, so they are refused, not
/// ignored.
template <class Op> void vopNoOpsel(Wave &w, const Inst &in) {
  for (unsigned i = 0; i < in.nsrc; ++i)
    if (in.src[i].mods & (kModOpSel0 | kModOpSel1)) {
      w.fault("op_sel on v_alignbit_b32/v_alignbyte_b32 is not modelled");
      return;
    }
  vop<Op>(w, in);
}

//===----------------------------------------------------------------------===//
// 32-bit operations
//===----------------------------------------------------------------------===//

B32_1(MovB32, a)
B32_1(NotB32, ~a)
B32_1(BfrevB32, llvm::reverseBits(a))
B32_1(FfbhU32, a ? uint32_t(llvm::countl_zero(a)) : ~0u)
B32_1(FfblB32, a ? uint32_t(llvm::countr_zero(a)) : ~0u)
// The index, from the MSB, of the first bit that differs from the sign bit
// (as S_FLBIT_I32): 0x0000cccc -> 16, 1 -> 31. LLVM's i64 -> f32 lowering
// shifts by v_ffbh_i32(hi) - 1 to keep one sign bit.
B32_1(FfbhI32, (a == 0 || a == ~0u) ? ~0u
                   : uint32_t(llvm::countl_zero(int32_t(a) < 0 ? ~a : a)))
B32_2(AndB32, a & b)
B32_2(OrB32, a | b)
B32_2(XorB32, a ^ b)
B32_2(XnorB32, ~(a ^ b))
B32_2(LshlrevB32, b << (a & 31))
B32_2(LshrrevB32, b >> (a & 31))
B32_2(AshrrevI32, uint32_t(int32_t(b) >> (a & 31)))
B32_2(AddU32, a + b)
B32_2(SubU32, a - b)
B32_2(SubrevU32, b - a)
B32_2(MulLoU32, a * b)
B32_2(MulHiU32, uint32_t((uint64_t(a) * b) >> 32))
B32_2(MulHiI32, uint32_t(uint64_t(int64_t(int32_t(a)) * int32_t(b)) >> 32))
B32_2(MulU32U24, (a & 0xffffff) * (b & 0xffffff))
B32_2(MulHiU32U24, uint32_t((uint64_t(a & 0xffffff) * (b & 0xffffff)) >> 32))
B32_2(MulI32I24, uint32_t(int32_t(a << 8) >> 8) * uint32_t(int32_t(b << 8) >> 8))
B32_2(MulHiI32I24, uint32_t(uint64_t(int64_t(int32_t(a << 8) >> 8) *
                                     int64_t(int32_t(b << 8) >> 8)) >> 32))
B32_3(MadU32U24, (a & 0xffffff) * (b & 0xffffff) + c)
B32_3(MadI32I24, uint32_t(int32_t(a << 8) >> 8) * uint32_t(int32_t(b << 8) >> 8) + c)
B32_2(MinU32, std::min(a, b))
B32_2(MaxU32, std::max(a, b))
B32_2(MinI32, uint32_t(std::min(int32_t(a), int32_t(b))))
B32_2(MaxI32, uint32_t(std::max(int32_t(a), int32_t(b))))
B32_3(Min3U32, std::min(std::min(a, b), c))
B32_3(Max3U32, std::max(std::max(a, b), c))
B32_3(Med3U32, std::max(std::min(a, b), std::min(std::max(a, b), c)))
B32_3(Min3I32, uint32_t(std::min(std::min(int32_t(a), int32_t(b)), int32_t(c))))
B32_3(Max3I32, uint32_t(std::max(std::max(int32_t(a), int32_t(b)), int32_t(c))))
B32_3(Med3I32, uint32_t(std::max(std::min(int32_t(a), int32_t(b)),
                                 std::min(std::max(int32_t(a), int32_t(b)), int32_t(c)))))
B32_3(BfeU32, (c & 31) == 0 ? 0 : (a >> (b & 31)) & ((c & 31) == 32 ? ~0u : (1u << (c & 31)) - 1))
B32_3(BfeI32, (c & 31) == 0 ? 0 : ((b & 31) + (c & 31) >= 32
          ? uint32_t(int32_t(a) >> (b & 31))
          : uint32_t(int32_t(a << (32 - (b & 31) - (c & 31))) >> (32 - (c & 31)))))
B32_3(BfiB32, (a & b) | (~a & c))
B32_2(BfmB32, ((1u << (a & 31)) - 1) << (b & 31))
B32_3(AlignbitB32, uint32_t(((uint64_t(a) << 32) | b) >> (c & 31)))
B32_3(AlignbyteB32, uint32_t(((uint64_t(a) << 32) | b) >> (8 * (c & 3))))
B32_2(BcntU32B32, uint32_t(llvm::popcount(a)) + b)
B32_3(LshlAddU32, (a << (b & 31)) + c)
B32_3(AddLshlU32, (a + b) << (c & 31))
B32_3(LshlOrB32, (a << (b & 31)) | c)
B32_3(AndOrB32, (a & b) | c)
B32_3(Or3B32, a | b | c)
B32_3(Xor3B32, a ^ b ^ c)
B32_3(Add3U32, a + b + c)
B32_3(XadU32, (a ^ b) + c)
B32_3(MadU32U16, (a & 0xffff) * (b & 0xffff) + c)

uint32_t permByte(uint64_t src, unsigned sel) {
  if (sel < 8) return (src >> (8 * sel)) & 0xff;
  switch (sel) {
  case 8: return (src >> 15 & 1) ? 0xff : 0;
  case 9: return (src >> 31 & 1) ? 0xff : 0;
  case 10: return (src >> 47 & 1) ? 0xff : 0;
  case 11: return (src >> 63 & 1) ? 0xff : 0;
  case 12: return 0;
  default: return 0xff;
  }
}
B32_3(PermB32, permByte((uint64_t(a) << 32) | b, c & 0xff) |
                   (permByte((uint64_t(a) << 32) | b, (c >> 8) & 0xff) << 8) |
                   (permByte((uint64_t(a) << 32) | b, (c >> 16) & 0xff) << 16) |
                   (permByte((uint64_t(a) << 32) | b, c >> 24) << 24))

/// Byte sums of absolute differences and the byte lerp (CDNA3 ISA VOP3A):
/// V_SAD_U8 = sum |S0.u8[i] - S1.u8[i]| + S2, V_SAD_HI_U8 the sum shifted
/// left 16, V_SAD_U16 over the two halves, V_SAD_U32 = |S0 - S1| + S2,
/// V_MSAD_U8 skips the bytes where the reference S1.u8[i] is 0. All wrap
/// at 32 bits (clamp is refused by vop like other integer clamps).
uint32_t sadBytes(uint32_t a, uint32_t b, bool masked) {
  uint32_t s = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (a >> i) & 0xff, y = (b >> i) & 0xff;
    if (!masked || y != 0)
      s += uint32_t(std::abs(x - y));
  }
  return s;
}
B32_3(SadU8, sadBytes(a, b, false) + c)
B32_3(SadHiU8, (sadBytes(a, b, false) << 16) + c)
B32_3(MsadU8, sadBytes(a, b, true) + c)
B32_3(SadU16, uint32_t(std::abs(int(a & 0xffff) - int(b & 0xffff)) +
                       std::abs(int(a >> 16) - int(b >> 16))) + c)
B32_3(SadU32, (a > b ? a - b : b - a) + c)
/// V_LERP_U8: per byte (S0.u8 + S1.u8 + (S2.u8 & 1)) >> 1, the rounding
/// bit taken from bit 0 of S2's byte.
uint32_t lerpU8(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t r = 0;
  for (int i = 0; i < 32; i += 8)
    r |= (((a >> i & 0xff) + (b >> i & 0xff) + (c >> i & 1)) >> 1) << i;
  return r;
}
B32_3(LerpU8, lerpU8(a, b, c))

//===----------------------------------------------------------------------===//
// Ops with a lane mask result or input
//===----------------------------------------------------------------------===//

void cndmask(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  uint64_t mask = dppWriteMask(w, in, exec);
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::F32, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::F32, b1);
  uint64_t sel = in.nsrc >= 3 ? readScalar64(w, in.src[2]) : w.vcc();
  for (int l = 0; l < kLanes; ++l)
    r[l] = ((sel >> l) & 1) ? b[l] : a[l];
  if (in.form & kFormSdwa)
    writeResult(w, in, r, Ty::B32, mask);
  else
    writeMasked(w.row(in.dst[0].reg), r, mask);
}

enum CarryOp : uint16_t { AddCo, SubCo, SubrevCo, Addc, Subb, Subbrev };
void carryOp(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, Ty::B32, b0);
  const uint32_t *b = fetchSrc(w, in, 1, Ty::B32, b1);
  bool hasCarryIn = in.op >= Addc;
  uint64_t cin = 0;
  if (hasCarryIn)
    cin = in.nsrc >= 3 ? readScalar64(w, in.src[2]) : w.vcc();
  uint64_t cout = 0;
  for (int l = 0; l < kLanes; ++l) {
    uint64_t x = a[l], y = b[l], ci = (cin >> l) & 1, res;
    bool c;
    switch (CarryOp(in.op)) {
    case AddCo: res = x + y; c = res >> 32; break;
    case SubCo: res = x - y; c = y > x; break;
    case SubrevCo: res = y - x; c = x > y; break;
    case Addc: res = x + y + ci; c = res >> 32; break;
    case Subb: res = x - y - ci; c = y + ci > x; break;
    default: res = y - x - ci; c = x + ci > y; break;
    }
    r[l] = uint32_t(res);
    cout |= uint64_t(c) << l;
  }
  if (in.clamp) {
    w.fault("clamp on a carry-out integer operation is not modelled");
    return;
  }
  // DPP forms (v_add_co_u32_dpp ..., which LLVM's DPP combine produces)
  // leave lanes their row/bank mask or an invalid source without bound_ctrl
  // disables unwritten, and SDWA forms write through dst_sel/dst_unused;
  // both were written as plain e32 results.
  uint64_t mask = dppWriteMask(w, in, exec);
  if (in.form & kFormSdwa)
    writeResult(w, in, r, Ty::B32, mask);
  else
    writeMasked(w.row(in.dst[0].reg), r, mask);
  writeMask(w, maskDst(in, 1), cout & mask);
}

//===----------------------------------------------------------------------===//
// Lane and bit operations
//===----------------------------------------------------------------------===//

/// gfx950 v_bitop3_b32/b16: a bitwise function of three sources given by an
/// 8-entry truth table indexed by (src0 bit << 2 | src1 bit << 1 | src2 bit),
/// the convention under which LLVM builds the table from 0xf0/0xcc/0xaa.
inline uint32_t bitop3(uint32_t a, uint32_t b, uint32_t c, unsigned table) {
  uint32_t r = 0;
  for (unsigned i = 0; i < 8; ++i)
    if ((table >> i) & 1)
      r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
  return r;
}
void bitop3Op(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  alignas(64) uint32_t b[3][kLanes], r[kLanes];
  const uint32_t *s[3];
  for (unsigned i = 0; i < 3; ++i)
    s[i] = lanes(w, in.src[i], b[i]);
  unsigned table = in.nctrl ? unsigned(in.ctrl[0]) & 0xff : 0;
  if (in.op == 32) {
    for (int l = 0; l < kLanes; ++l)
      r[l] = bitop3(s[0][l], s[1][l], s[2][l], table);
  } else {
    // b16: op_sel picks each source's half and the destination half; the
    // other destination half is preserved.
    const uint32_t *old = w.row(in.dst[0].reg);
    bool hiDst = in.src[0].mods & kModOpSel1;
    for (int l = 0; l < kLanes; ++l) {
      uint32_t x[3];
      for (unsigned i = 0; i < 3; ++i)
        x[i] = (in.src[i].mods & kModOpSel0) ? s[i][l] >> 16 : s[i][l];
      uint32_t y = bitop3(x[0], x[1], x[2], table) & 0xffff;
      r[l] = hiDst ? (old[l] & 0xffff) | (y << 16) : (old[l] & 0xffff0000u) | y;
    }
  }
  writeMasked(w.row(in.dst[0].reg), r, exec);
}

void mbcnt(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  alignas(64) uint32_t b0[kLanes], b1[kLanes], r[kLanes];
  const uint32_t *a = lanes(w, in.src[0], b0);
  const uint32_t *b = lanes(w, in.src[1], b1);
  bool hi = in.op == 1;
  for (int l = 0; l < kLanes; ++l) {
    uint64_t below = l == 0 ? 0 : (~0ull >> (64 - l));
    uint32_t part = hi ? uint32_t(below >> 32) : uint32_t(below);
    r[l] = uint32_t(llvm::popcount(a[l] & part)) + b[l];
  }
  writeMasked(w.row(in.dst[0].reg), r, exec);
}

void swap(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  uint32_t *x = w.row(in.dst[0].reg), *y = w.row(in.dst[1].reg);
  for (int l = 0; l < kLanes; ++l)
    if ((exec >> l) & 1)
      std::swap(x[l], y[l]);
}

//===----------------------------------------------------------------------===//
// 64-bit operations
//===----------------------------------------------------------------------===//

OP64(LshlrevB64, 2, 1, 2, 2, false, return b << (a & 63);)
OP64(LshrrevB64, 2, 1, 2, 2, false, return b >> (a & 63);)
OP64(AshrrevI64, 2, 1, 2, 2, false, return uint64_t(int64_t(b) >> (a & 63));)
OP64(LshlAddU64, 3, 2, 1, 2, false, return (a << (b & 7)) + c;)
OP64(MovB64, 1, 2, 2, 2, false, return a;)

/// v_mad_u64_u32 / v_mad_i64_i32: 64-bit multiply-add with a carry-out mask.
template <bool Signed> void madWide(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  Wide a, b, c, r;
  fetch64(w, in, 0, false, false, a);
  fetch64(w, in, 1, false, false, b);
  fetch64(w, in, 2, true, false, c);
  uint64_t carry = 0;
  for (int l = 0; l < kLanes; ++l) {
    if (Signed) {
      __int128 p = __int128(int64_t(int32_t(uint32_t(a.v[l])))) *
                       int64_t(int32_t(uint32_t(b.v[l]))) +
                   __int128(int64_t(c.v[l]));
      r.v[l] = uint64_t(p);
      carry |= uint64_t(p != __int128(int64_t(r.v[l]))) << l;
    } else {
      unsigned __int128 p = (unsigned __int128)(a.v[l] & 0xffffffff) *
                                (b.v[l] & 0xffffffff) +
                            c.v[l];
      r.v[l] = uint64_t(p);
      carry |= uint64_t(p >> 64) << l;
    }
  }
  write64(w, in.dst[0], r, exec);
  if (in.ndst >= 2)
    writeScalar64(w, in.dst[1], carry & exec);
}

/// V_QSAD_PK_U16_U8, V_MQSAD_PK_U16_U8, V_MQSAD_U32_U8 (CDNA3 ISA, VOP3A):
/// four V_SAD_U8 (or V_MSAD_U8, which skips reference bytes of 0) of the
/// 4-byte windows S0[8i+31 : 8i] of the 8-byte S0 against the 4 bytes of
/// S1, each added to entry i of S2; the results are truncated to 16 bits and
/// packed into 64 (the _pk forms, S2 four u16) or kept as four dwords (S2
/// four u32).
enum QuadSad { QsadPk, MqsadPk, MqsadU32 };
template <QuadSad K> void quadSad(Wave &w, const Inst &in) {
  if (in.clamp) {
    w.fault("clamp on an integer VALU operation is not modelled");
    return;
  }
  uint64_t exec = w.exec();
  Wide s0;
  fetch64(w, in, 0, true, false, s0);
  alignas(64) uint32_t b1[kLanes], b2[4][kLanes];
  const uint32_t *s1 = lanes(w, in.src[1], b1);
  const unsigned parts = K == MqsadU32 ? 4 : 2;
  const uint32_t *s2[4];
  for (unsigned p = 0; p < parts; ++p)
    s2[p] = lanes(w, in.src[2], b2[p], p);
  bool masked = K != QsadPk;
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    uint32_t r[4];
    for (unsigned i = 0; i < 4; ++i) {
      uint32_t acc = K == MqsadU32 ? s2[i][l] : (s2[i / 2][l] >> (16 * (i % 2))) & 0xffff;
      r[i] = sadBytes(uint32_t(s0.v[l] >> (8 * i)), s1[l], masked) + acc;
    }
    if (K == MqsadU32) {
      for (unsigned i = 0; i < 4; ++i)
        w.row(in.dst[0].reg + i)[l] = r[i];
    } else {
      w.row(in.dst[0].reg)[l] = (r[0] & 0xffff) | r[1] << 16;
      w.row(in.dst[0].reg + 1)[l] = (r[2] & 0xffff) | r[3] << 16;
    }
  }
}

} // namespace

/// V_PRNG_B32 (CDNA4, VOP1): one step of a 32-bit LFSR,
/// D = (S0 << 1) ^ (S0[31] ? 197 : 0).
B32_1(PrngB32, (a << 1) ^ ((a >> 31) ? 197u : 0u))

/// V_ASHR_PK_I8_I32 / V_ASHR_PK_U8_I32 (CDNA4, VOP3): S0 and S1 shifted
/// right arithmetically by S2[4:0], each saturated to i8 or u8, packed into
/// the low 16 bits of D (the high half with op_sel[3]); the other half of
/// D is kept.
template <bool Signed> uint32_t sat8(int32_t v) {
  int32_t lo = Signed ? -128 : 0, hi = Signed ? 127 : 255;
  return uint32_t(std::clamp(v, lo, hi)) & 0xff;
}
template <bool Signed> struct AshrPk8 {
  static constexpr Ty ty = Ty::B32, ty1 = Ty::B32, dty = Ty::U16;
  static constexpr int n = 3;
  static constexpr bool opselDst = true;
  static uint32_t f(uint32_t a, uint32_t b, uint32_t c) {
    unsigned sh = c & 31;
    return sat8<Signed>(int32_t(a) >> sh) | sat8<Signed>(int32_t(b) >> sh) << 8;
  }
};

void registerValuIntegerOps(OpTable &t) {
  const Layout V = Layout::Vop;
#define REG(NAME, OP) t.add(NAME, vop<OP>, V);
  REG("V_PRNG_B32", PrngB32)
  REG("V_ASHR_PK_I8_I32", AshrPk8<true>) REG("V_ASHR_PK_U8_I32", AshrPk8<false>)
  REG("V_MOV_B32", MovB32) REG("V_ACCVGPR_READ_B32", MovB32)
  REG("V_ACCVGPR_WRITE_B32", MovB32) REG("V_ACCVGPR_MOV_B32", MovB32)
  REG("V_NOT_B32", NotB32) REG("V_BFREV_B32", BfrevB32)
  REG("V_FFBH_U32", FfbhU32) REG("V_FFBL_B32", FfblB32) REG("V_FFBH_I32", FfbhI32)
  REG("V_AND_B32", AndB32) REG("V_OR_B32", OrB32) REG("V_XOR_B32", XorB32)
  REG("V_XNOR_B32", XnorB32)
  REG("V_LSHLREV_B32", LshlrevB32) REG("V_LSHRREV_B32", LshrrevB32)
  REG("V_ASHRREV_I32", AshrrevI32)
  t.add("V_ADD_U32", vopSatU<AddU32, SatAdd, 32>, V);
  t.add("V_SUB_U32", vopSatU<SubU32, SatSub, 32>, V);
  t.add("V_ADD_I32", vopSatI32<AddU32, SatAdd>, V);
  t.add("V_SUB_I32", vopSatI32<SubU32, SatSub>, V);
  t.add("V_SUBREV_U32", vopSatU<SubrevU32, SatSubrev, 32>, V);
  REG("V_MUL_LO_U32", MulLoU32) REG("V_MUL_HI_U32", MulHiU32) REG("V_MUL_HI_I32", MulHiI32)
  REG("V_MUL_U32_U24", MulU32U24) REG("V_MUL_HI_U32_U24", MulHiU32U24)
  REG("V_MUL_I32_I24", MulI32I24) REG("V_MUL_HI_I32_I24", MulHiI32I24)
  REG("V_MAD_U32_U24", MadU32U24) REG("V_MAD_I32_I24", MadI32I24)
  REG("V_MIN_U32", MinU32) REG("V_MAX_U32", MaxU32) REG("V_MIN_I32", MinI32)
  REG("V_MAX_I32", MaxI32) REG("V_MIN3_U32", Min3U32) REG("V_MAX3_U32", Max3U32)
  REG("V_MED3_U32", Med3U32) REG("V_MIN3_I32", Min3I32) REG("V_MAX3_I32", Max3I32)
  REG("V_MED3_I32", Med3I32)
  REG("V_BFE_U32", BfeU32) REG("V_BFE_I32", BfeI32) REG("V_BFI_B32", BfiB32)
  REG("V_BFM_B32", BfmB32)
  t.add("V_ALIGNBIT_B32", vopNoOpsel<AlignbitB32>, V);
  t.add("V_ALIGNBYTE_B32", vopNoOpsel<AlignbyteB32>, V);
  REG("V_BCNT_U32_B32", BcntU32B32)
  REG("V_LSHL_ADD_U32", LshlAddU32) REG("V_ADD_LSHL_U32", AddLshlU32)
  REG("V_LSHL_OR_B32", LshlOrB32) REG("V_AND_OR_B32", AndOrB32)
  REG("V_OR3_B32", Or3B32) REG("V_XOR3_B32", Xor3B32) REG("V_ADD3_U32", Add3U32)
  REG("V_XAD_U32", XadU32) REG("V_MAD_U32_U16", MadU32U16) REG("V_PERM_B32", PermB32)
  REG("V_SAD_U8", SadU8) REG("V_SAD_HI_U8", SadHiU8) REG("V_SAD_U16", SadU16)
  REG("V_SAD_U32", SadU32) REG("V_MSAD_U8", MsadU8) REG("V_LERP_U8", LerpU8)
#undef REG
  t.add("V_CNDMASK_B32", cndmask, V);
  t.add("V_ADD_CO_U32", carryOp, V, AddCo);
  t.add("V_SUB_CO_U32", carryOp, V, SubCo);
  t.add("V_SUBREV_CO_U32", carryOp, V, SubrevCo);
  t.add("V_ADDC_CO_U32", carryOp, V, Addc);
  t.add("V_SUBB_CO_U32", carryOp, V, Subb);
  t.add("V_SUBBREV_CO_U32", carryOp, V, Subbrev);
  t.add("V_MBCNT_LO_U32_B32", mbcnt, V, 0);
  t.add("V_MBCNT_HI_U32_B32", mbcnt, V, 1);
  t.add("V_SWAP_B32", swap, V);
  t.add("V_BITOP3_B32", bitop3Op, Layout::Plain, 32);
  t.add("V_BITOP3_B16", bitop3Op, Layout::Plain, 16);

#define REG64(NAME, OP) t.add(NAME, vop64<OP>, V);
  REG64("V_LSHLREV_B64", LshlrevB64) REG64("V_LSHRREV_B64", LshrrevB64)
  REG64("V_ASHRREV_I64", AshrrevI64) REG64("V_LSHL_ADD_U64", LshlAddU64)
  REG64("V_MOV_B64", MovB64)
#undef REG64
  t.add("V_MAD_U64_U32", madWide<false>, V);
  t.add("V_QSAD_PK_U16_U8", quadSad<QsadPk>, V);
  t.add("V_MQSAD_PK_U16_U8", quadSad<MqsadPk>, V);
  t.add("V_MQSAD_U32_U8", quadSad<MqsadU32>, V);
  t.add("V_MAD_I64_I32", madWide<true>, V);
}

} // namespace kcc::emu
