//===- GprIndex.cpp - VGPR index mode (s_set_gpr_idx_*) -------------------===//
//
// GFX9's VGPR index mode: s_set_gpr_idx_on sets M0[7:0] to an index and
// M0[15:12] to a mask of the operands it applies to (bit 0 src0, 1 src1,
// 2 src2, 3 vdst) and turns the mode on (MODE bit 27); while it is on,
// every VALU instruction reads and writes those operands, when they are
// VGPRs, that many registers further on. s_set_gpr_idx_idx and
// s_set_gpr_idx_mode change the index and the mask, s_set_gpr_idx_off turns
// the mode off. LLVM emits it for a uniform dynamic index into a private
// array that lives in registers (clang's default on gfx942 and gfx950):
//
//   s_set_gpr_idx_on s2, gpr_idx(SRC0)
//   v_mov_b32_e32 v1, v2                  ; v1 = v[2 + s2]
//   s_set_gpr_idx_off
//
// An indexed operand past v255 stops the run: which register the hardware
// substitutes is not documented.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Exec.h"
#include "runtime/emu/Ops.h"

namespace kcc::emu {

namespace {

uint32_t &m0(Wave &w) { return w.s[kSgprM0]; }

/// The mask operand: the last control immediate (SIMM4 of
/// s_set_gpr_idx_on, SIMM16 of s_set_gpr_idx_mode).
unsigned maskOf(const Inst &in) {
  return in.nctrl ? unsigned(in.ctrl[in.nctrl - 1]) & 0xf : 0;
}

void setOn(Wave &w, const Inst &in) {
  uint32_t index = in.nsrc ? readScalar32(w, in.src[0]) & 0xff : 0;
  m0(w) = (m0(w) & ~0xf0ffu) | index | (maskOf(in) << 12);
  w.gprIndexMode = true;
}

void setOff(Wave &w, const Inst &) { w.gprIndexMode = false; }

void setIdx(Wave &w, const Inst &in) {
  uint32_t index = in.nsrc ? readScalar32(w, in.src[0]) & 0xff : 0;
  m0(w) = (m0(w) & ~0xffu) | index;
}

void setMode(Wave &w, const Inst &in) {
  m0(w) = (m0(w) & ~0xf000u) | (maskOf(in) << 12);
}

} // namespace

bool indexVgprOperands(Wave &w, const Inst &in, Inst &out) {
  uint32_t index = m0(w) & 0xff, mask = (m0(w) >> 12) & 0xf;
  out = in;
  auto shift = [&](Opnd &o, const char *role) {
    if (o.kind != OpndKind::Vgpr)
      return true;
    unsigned reg = unsigned(o.reg) + index;
    if (reg + std::max<unsigned>(o.width, 1) > kAgprBase) {
      w.fault(std::string("VGPR index mode: ") + role + " v" + std::to_string(o.reg) +
              " + M0 index " + std::to_string(index) + " is past v255");
      return false;
    }
    o.reg = uint16_t(reg);
    return true;
  };
  static const char *const srcRole[3] = {"src0", "src1", "src2"};
  for (unsigned i = 0; i < 3 && i < in.nsrc; ++i)
    if ((mask >> i & 1) && !shift(out.src[i], srcRole[i]))
      return false;
  if ((mask >> 3 & 1) && in.ndst && !shift(out.dst[0], "vdst"))
    return false;
  return true;
}

void registerGprIndexOps(OpTable &t) {
  t.add("S_SET_GPR_IDX_ON", setOn);
  t.add("S_SET_GPR_IDX_OFF", setOff);
  t.add("S_SET_GPR_IDX_IDX", setIdx);
  t.add("S_SET_GPR_IDX_MODE", setMode);
}

} // namespace kcc::emu
