//===- GprIndex.cpp - Register indexing: VGPR index mode, s_movrel* -------===//
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
// The scalar side is s_movrels (sdst = s[ssrc + M0]) and s_movreld
// (s[sdst + M0] = ssrc), of one SGPR or an aligned pair; an index that
// reaches past s101 stops the run too.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Exec.h"
#include "runtime/emu/Ops.h"

#include <optional>

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

/// The SGPR `o` names moved M0 registers on, or nothing (the wave faulted)
/// when that is not an SGPR or reaches past s101.
std::optional<unsigned> relativeSgpr(Wave &w, const Opnd &o, const char *what) {
  constexpr unsigned kLastSgpr = 101;
  unsigned width = std::max<unsigned>(o.width, 1);
  uint64_t reg = uint64_t(o.reg) + m0(w);
  if (o.kind != OpndKind::Sgpr || o.reg > kLastSgpr || reg + width - 1 > kLastSgpr) {
    w.fault(std::string(what) + ": s" + std::to_string(o.reg) + " + M0 " +
            std::to_string(m0(w)) + " is past s" + std::to_string(kLastSgpr));
    return std::nullopt;
  }
  return unsigned(reg);
}

void movrels(Wave &w, const Inst &in) {
  std::optional<unsigned> from = relativeSgpr(w, in.src[0], "s_movrels");
  if (!from)
    return;
  for (unsigned i = 0; i < std::max<unsigned>(in.dst[0].width, 1); ++i)
    w.s[in.dst[0].reg + i] = w.s[*from + i];
}

void movreld(Wave &w, const Inst &in) {
  // MC lists the destination as a source: it is an address, read, not a
  // register the instruction defines.
  const Opnd &target = in.ndst ? in.dst[0] : in.src[0];
  const Opnd &source = in.ndst ? in.src[0] : in.src[1];
  std::optional<unsigned> to = relativeSgpr(w, target, "s_movreld");
  if (!to)
    return;
  unsigned width = std::max<unsigned>(target.width, 1);
  uint64_t value = width == 2 ? readScalar64(w, source) : readScalar32(w, source);
  for (unsigned i = 0; i < width; ++i)
    w.s[*to + i] = uint32_t(value >> (32 * i));
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
  for (const char *name : {"S_MOVRELS_B32", "S_MOVRELS_B64"})
    t.add(name, movrels);
  for (const char *name : {"S_MOVRELD_B32", "S_MOVRELD_B64"})
    t.add(name, movreld);
}

} // namespace kcc::emu
