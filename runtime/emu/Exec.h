//===- Exec.h - Operand access shared by the instruction families -*- C++ -*-===//
//
// Reading scalar operands (registers, constants, the special sources),
// fetching a vector source as 64 lane values, and writing results under the
// EXEC mask. Kept inline: these run for every instruction.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_EXEC_H
#define KCC_RUNTIME_EMU_EXEC_H

#include "target/Float16.h"
#include "runtime/emu/Memory.h"
#include "runtime/emu/Observer.h"
#include "runtime/emu/Wave.h"

#include <cmath>
#include <cstring>

namespace kcc::emu {

inline uint32_t readScalar32(const Wave &w, const Opnd &o) {
  switch (o.kind) {
  case OpndKind::Sgpr:
    return o.reg == kSgprNull ? 0 : w.s[o.reg];
  case OpndKind::Imm:
    return uint32_t(o.imm);
  case OpndKind::Scc:
    return w.scc;
  case OpndKind::Vccz:
    return w.vcc() == 0;
  case OpndKind::Execz:
    return w.exec() == 0;
  case OpndKind::SharedBase:
    return uint32_t(kSharedAperture >> 32);
  case OpndKind::SharedLimit:
    return uint32_t((kSharedAperture + kApertureSize - 1) >> 32);
  case OpndKind::PrivateBase:
    return uint32_t(kPrivateAperture >> 32);
  case OpndKind::PrivateLimit:
    return uint32_t((kPrivateAperture + kApertureSize - 1) >> 32);
  default:
    return 0;
  }
}

inline uint64_t readScalar64(const Wave &w, const Opnd &o) {
  switch (o.kind) {
  case OpndKind::Sgpr:
    return o.reg == kSgprNull ? 0 : w.sgpr64(o.reg);
  case OpndKind::Imm:
    return o.imm;
  case OpndKind::SharedBase:
    return kSharedAperture;
  case OpndKind::SharedLimit:
    return kSharedAperture + kApertureSize - 1;
  case OpndKind::PrivateBase:
    return kPrivateAperture;
  case OpndKind::PrivateLimit:
    return kPrivateAperture + kApertureSize - 1;
  default:
    return readScalar32(w, o);
  }
}

inline void writeScalar32(Wave &w, const Opnd &o, uint32_t x) {
  if (o.kind != OpndKind::Sgpr || o.reg == kSgprNull)
    return;
  w.s[o.reg] = x;
}
inline void writeScalar64(Wave &w, const Opnd &o, uint64_t x) {
  if (o.kind != OpndKind::Sgpr || o.reg == kSgprNull)
    return;
  w.setSgpr64(o.reg, x);
}

/// 64 values of dword `part` of operand `o`: a register row, or `buf` filled
/// with the uniform value of a scalar operand.
inline const uint32_t *lanes(Wave &w, const Opnd &o, uint32_t *buf,
                             unsigned part = 0) {
  if (o.kind == OpndKind::Vgpr)
    return w.row(o.reg + part);
  uint32_t x;
  if (o.kind == OpndKind::Sgpr)
    x = o.reg == kSgprNull ? 0 : w.s[o.reg + part];
  else if (part == 0)
    x = readScalar32(w, o);
  else
    x = uint32_t(readScalar64(w, o) >> 32);
  for (int l = 0; l < kLanes; ++l)
    buf[l] = x;
  return buf;
}

/// dst[l] = val[l] for the lanes of `mask`.
inline void writeMasked(uint32_t *dst, const uint32_t *val, uint64_t mask) {
  if (mask == ~0ull) {
    std::memcpy(dst, val, kLanes * 4);
    return;
  }
  for (int l = 0; l < kLanes; ++l)
    dst[l] = ((mask >> l) & 1) ? val[l] : dst[l];
}

template <class To, class From> inline To bitCast(From f) {
  static_assert(sizeof(To) == sizeof(From), "bit cast between sizes");
  To t;
  std::memcpy(&t, &f, sizeof(To));
  return t;
}
// Floating-point bit casts.
inline float asF(uint32_t x) { return bitCast<float>(x); }
inline uint32_t asU(float x) { return bitCast<uint32_t>(x); }
inline double asD(uint64_t x) { return bitCast<double>(x); }
inline uint64_t asU64(double x) { return bitCast<uint64_t>(x); }

// 16-bit float conversions: target/Float16.h (f16ToFloat, floatToF16,
// bf16ToFloat, floatToBf16), shared with the runtime and the tools.

/// Format a fault message with the lane and address.
std::string hex(uint64_t x);

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_EXEC_H
