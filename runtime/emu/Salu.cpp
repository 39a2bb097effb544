//===- Salu.cpp - Scalar ALU: SOP1, SOP2, SOPK, SOPC ----------------------===//
//
// Semantics and SCC rules from the CDNA3 ISA guide, chapter "Scalar ALU
// Operations". Notable: S_MIN/S_MAX set SCC only when S0 was strictly chosen
// (equal operands give SCC = 0); logical and shift ops set SCC = (D != 0);
// S_ADD_I32/S_SUB_I32 set SCC on signed overflow, the _U32 forms on carry.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Exec.h"
#include "runtime/emu/Ops.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

namespace kcc::emu {
namespace {

enum Sop2 : uint16_t {
  AddU32, SubU32, AddI32, SubI32, AddcU32, SubbU32, MinI32, MinU32, MaxI32,
  MaxU32, CselectB32, And32, Or32, Xor32, Andn2_32, Orn2_32, Nand32, Nor32,
  Xnor32, Lshl32, Lshr32, Ashr32, Bfm32, MulI32, BfeU32, BfeI32, AbsdiffI32,
  MulHiU32, MulHiI32, Lshl1Add, Lshl2Add, Lshl3Add, Lshl4Add, PackLL, PackLH,
  PackHH,
  // 64-bit results.
  CselectB64, And64, Or64, Xor64, Andn2_64, Orn2_64, Nand64, Nor64, Xnor64,
  Lshl64, Lshr64, Ashr64, Bfm64, BfeU64, BfeI64,
};

void sop2(Wave &w, const Inst &in) {
  uint32_t a = readScalar32(w, in.src[0]), b = readScalar32(w, in.src[1]);
  uint32_t d = 0;
  bool scc = w.scc;
  switch (Sop2(in.op)) {
  case AddU32: {
    uint64_t r = uint64_t(a) + b;
    d = uint32_t(r);
    scc = r >> 32;
    break;
  }
  case SubU32:
    d = a - b;
    scc = b > a;
    break;
  case AddcU32: {
    uint64_t r = uint64_t(a) + b + w.scc;
    d = uint32_t(r);
    scc = r >> 32;
    break;
  }
  case SubbU32: {
    uint64_t r = uint64_t(a) - b - w.scc;
    d = uint32_t(r);
    scc = uint64_t(b) + w.scc > a;
    break;
  }
  case AddI32:
    d = a + b;
    scc = ((a ^ d) & (b ^ d)) >> 31;
    break;
  case SubI32:
    d = a - b;
    scc = ((a ^ b) & (a ^ d)) >> 31;
    break;
  case MinI32:
    scc = int32_t(a) < int32_t(b);
    d = scc ? a : b;
    break;
  case MinU32:
    scc = a < b;
    d = scc ? a : b;
    break;
  case MaxI32:
    scc = int32_t(a) > int32_t(b);
    d = scc ? a : b;
    break;
  case MaxU32:
    scc = a > b;
    d = scc ? a : b;
    break;
  case CselectB32:
    d = w.scc ? a : b;
    break;
  case And32: d = a & b; scc = d; break;
  case Or32: d = a | b; scc = d; break;
  case Xor32: d = a ^ b; scc = d; break;
  case Andn2_32: d = a & ~b; scc = d; break;
  case Orn2_32: d = a | ~b; scc = d; break;
  case Nand32: d = ~(a & b); scc = d; break;
  case Nor32: d = ~(a | b); scc = d; break;
  case Xnor32: d = ~(a ^ b); scc = d; break;
  case Lshl32: d = a << (b & 31); scc = d; break;
  case Lshr32: d = a >> (b & 31); scc = d; break;
  case Ashr32: d = uint32_t(int32_t(a) >> (b & 31)); scc = d; break;
  case Bfm32: d = ((1u << (a & 31)) - 1) << (b & 31);
    if ((a & 31) == 0) d = 0;
    break;
  case MulI32: d = a * b; break;
  case MulHiU32: d = uint32_t((uint64_t(a) * b) >> 32); break;
  case MulHiI32: d = uint32_t(uint64_t(int64_t(int32_t(a)) * int32_t(b)) >> 32); break;
  case BfeU32: {
    unsigned off = b & 31, width = (b >> 16) & 0x7f;
    d = width == 0 ? 0 : (a >> off) & (width >= 32 ? ~0u : (1u << width) - 1);
    scc = d;
    break;
  }
  case BfeI32: {
    unsigned off = b & 31, width = (b >> 16) & 0x7f;
    if (width == 0) d = 0;
    else if (off + width >= 32) d = uint32_t(int32_t(a) >> off);
    else d = uint32_t(int32_t(a << (32 - off - width)) >> (32 - width));
    scc = d;
    break;
  }
  case AbsdiffI32: {
    // "D.i = S0.i - S1.i; if (D.i < 0) D.i = -D.i": the difference wraps in
    // 32 bits before the sign test (the GCN3 guide's example: 0x80000000,
    // 1 -> 0x7fffffff), it is not the exact |S0 - S1|.
    uint32_t diff = a - b;
    d = int32_t(diff) < 0 ? 0u - diff : diff;
    scc = d;
    break;
  }
  case Lshl1Add: case Lshl2Add: case Lshl3Add: case Lshl4Add: {
    unsigned sh = in.op - Lshl1Add + 1;
    uint64_t r = (uint64_t(a) << sh) + b;
    d = uint32_t(r);
    scc = r >> 32;
    break;
  }
  case PackLL: d = (a & 0xffff) | (b << 16); break;
  case PackLH: d = (a & 0xffff) | (b & 0xffff0000u); break;
  case PackHH: d = (a >> 16) | (b & 0xffff0000u); break;
  default: break;
  }
  writeScalar32(w, in.dst[0], d);
  w.scc = scc;
}

void sop2_64(Wave &w, const Inst &in) {
  uint64_t a = readScalar64(w, in.src[0]), b = readScalar64(w, in.src[1]);
  uint32_t b32 = readScalar32(w, in.src[1]);
  uint64_t d = 0;
  bool scc = w.scc;
  switch (Sop2(in.op)) {
  case CselectB64: d = w.scc ? a : b; break;
  case And64: d = a & b; scc = d; break;
  case Or64: d = a | b; scc = d; break;
  case Xor64: d = a ^ b; scc = d; break;
  case Andn2_64: d = a & ~b; scc = d; break;
  case Orn2_64: d = a | ~b; scc = d; break;
  case Nand64: d = ~(a & b); scc = d; break;
  case Nor64: d = ~(a | b); scc = d; break;
  case Xnor64: d = ~(a ^ b); scc = d; break;
  case Lshl64: d = a << (b32 & 63); scc = d; break;
  case Lshr64: d = a >> (b32 & 63); scc = d; break;
  case Ashr64: d = uint64_t(int64_t(a) >> (b32 & 63)); scc = d; break;
  case Bfm64: {
    uint32_t a32 = readScalar32(w, in.src[0]);
    unsigned width = a32 & 63;
    d = (width == 0 ? 0 : (width == 64 ? ~0ull : (1ull << width) - 1)) << (b32 & 63);
    break;
  }
  case BfeU64: {
    unsigned off = b32 & 63, width = (b32 >> 16) & 0x7f;
    d = width == 0 ? 0 : (a >> off) & (width >= 64 ? ~0ull : (1ull << width) - 1);
    scc = d;
    break;
  }
  case BfeI64: {
    unsigned off = b32 & 63, width = (b32 >> 16) & 0x7f;
    if (width == 0) d = 0;
    else if (off + width >= 64) d = uint64_t(int64_t(a) >> off);
    else d = uint64_t(int64_t(a << (64 - off - width)) >> (64 - width));
    scc = d;
    break;
  }
  default: break;
  }
  writeScalar64(w, in.dst[0], d);
  w.scc = scc;
}

enum Sop1 : uint16_t {
  Mov32, Cmov32, Not32, Brev32, Bcnt0_32, Bcnt1_32, Ff0_32, Ff1_32, Flbit32,
  FlbitI32, SextI8, SextI16, Bitset0_32, Bitset1_32, AbsI32, Wqm32, Quadmask32,
  Mov64, Cmov64,
  Not64, Brev64, Bcnt1_64, Ff1_64, Flbit64, Wqm64, Quadmask64, Bitset0_64,
  Bitset1_64, Bcnt0_64, Ff0_64, FlbitI64, Bitreplicate,
  // saveexec family: D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0.
  AndSaveexec, OrSaveexec, XorSaveexec, Andn2Saveexec, Orn2Saveexec,
  NandSaveexec, NorSaveexec, XnorSaveexec, Andn1Saveexec, Orn1Saveexec,
  Andn1Wrexec, Andn2Wrexec,
};

void sop1(Wave &w, const Inst &in) {
  uint32_t a = readScalar32(w, in.src[0]);
  uint32_t d = 0;
  bool scc = w.scc;
  switch (Sop1(in.op)) {
  case Mov32: d = a; break;
  case Cmov32:
    if (!w.scc)
      return;
    d = a;
    break;
  case Not32: d = ~a; scc = d; break;
  // Whole quad mode and quad mask of a 32-bit mask: a nibble with any bit
  // set becomes 0xf (WQM) or one bit of the result (QUADMASK).
  case Wqm32:
    for (int q = 0; q < 8; ++q)
      if ((a >> (4 * q)) & 0xf)
        d |= 0xfu << (4 * q);
    scc = d;
    break;
  case Quadmask32:
    for (int q = 0; q < 8; ++q)
      if ((a >> (4 * q)) & 0xf)
        d |= 1u << q;
    scc = d;
    break;
  case Brev32: d = llvm::reverseBits(a); break;
  case Bcnt0_32: d = 32 - llvm::popcount(a); scc = d; break;
  case Bcnt1_32: d = llvm::popcount(a); scc = d; break;
  case Ff0_32: d = ~a ? llvm::countr_zero(~a) : ~0u; break;
  case Ff1_32: d = a ? llvm::countr_zero(a) : ~0u; break;
  case Flbit32: d = a ? llvm::countl_zero(a) : ~0u; break;
  case FlbitI32: {
    // Leading bits equal to the sign bit.
    uint32_t x = int32_t(a) < 0 ? ~a : a;
    d = (a == 0 || a == ~0u) ? ~0u : llvm::countl_zero(x);
    break;
  }
  case SextI8: d = uint32_t(int32_t(int8_t(a))); break;
  case SextI16: d = uint32_t(int32_t(int16_t(a))); break;
  case Bitset0_32: d = w.s[in.dst[0].reg] & ~(1u << (a & 31)); break;
  case Bitset1_32: d = w.s[in.dst[0].reg] | (1u << (a & 31)); break;
  case AbsI32: d = int32_t(a) < 0 ? -a : a; scc = d; break;
  default: break;
  }
  writeScalar32(w, in.dst[0], d);
  w.scc = scc;
}

void sop1_64(Wave &w, const Inst &in) {
  uint64_t a = readScalar64(w, in.src[0]);
  uint64_t d = 0;
  bool scc = w.scc;
  uint64_t exec = w.exec();
  bool toExec = false;
  switch (Sop1(in.op)) {
  case Mov64: d = a; break;
  case Cmov64:
    if (!w.scc)
      return;
    d = a;
    break;
  case Not64: d = ~a; scc = d; break;
  case Brev64: d = llvm::reverseBits(a); break;
  case Bcnt0_64: d = 64 - llvm::popcount(a); scc = d;
    writeScalar32(w, in.dst[0], uint32_t(d)); w.scc = scc; return;
  case Bcnt1_64: d = llvm::popcount(a); scc = d;
    writeScalar32(w, in.dst[0], uint32_t(d)); w.scc = scc; return;
  case Ff0_64: writeScalar32(w, in.dst[0], ~a ? llvm::countr_zero(~a) : ~0u); return;
  case Ff1_64: writeScalar32(w, in.dst[0], a ? llvm::countr_zero(a) : ~0u); return;
  case Flbit64: writeScalar32(w, in.dst[0], a ? llvm::countl_zero(a) : ~0u); return;
  // S_FLBIT_I32_I64: as S_FLBIT_I32 over 64 bits, the index from the MSB of
  // the first bit that differs from the sign bit; -1 for 0 and -1.
  case FlbitI64:
    writeScalar32(w, in.dst[0], (a == 0 || a == ~0ull)
                                    ? ~0u
                                    : uint32_t(llvm::countl_zero(int64_t(a) < 0 ? ~a : a)));
    return;
  // S_BITREPLICATE_B64_B32: bit i of S0.u32 becomes bits 2i and 2i + 1.
  case Bitreplicate:
    d = 0;
    for (unsigned i = 0; i < 32; ++i)
      d |= ((a >> i) & 1) * (3ull << (2 * i));
    break;
  case Bitset0_64: {
    uint32_t bit = uint32_t(a) & 63;
    writeScalar64(w, in.dst[0], w.sgpr64(in.dst[0].reg) & ~(1ull << bit));
    return;
  }
  case Bitset1_64: {
    uint32_t bit = uint32_t(a) & 63;
    writeScalar64(w, in.dst[0], w.sgpr64(in.dst[0].reg) | (1ull << bit));
    return;
  }
  case Wqm64: {
    d = 0;
    for (int q = 0; q < 16; ++q)
      if ((a >> (4 * q)) & 0xf)
        d |= 0xfull << (4 * q);
    scc = d;
    break;
  }
  case Quadmask64: {
    d = 0;
    for (int q = 0; q < 16; ++q)
      if ((a >> (4 * q)) & 0xf)
        d |= 1ull << q;
    scc = d;
    break;
  }
  case AndSaveexec: d = exec; exec = a & exec; toExec = true; break;
  case OrSaveexec: d = exec; exec = a | exec; toExec = true; break;
  case XorSaveexec: d = exec; exec = a ^ exec; toExec = true; break;
  case Andn2Saveexec: d = exec; exec = a & ~exec; toExec = true; break;
  case Orn2Saveexec: d = exec; exec = a | ~exec; toExec = true; break;
  case NandSaveexec: d = exec; exec = ~(a & exec); toExec = true; break;
  case NorSaveexec: d = exec; exec = ~(a | exec); toExec = true; break;
  case XnorSaveexec: d = exec; exec = ~(a ^ exec); toExec = true; break;
  case Andn1Saveexec: d = exec; exec = ~a & exec; toExec = true; break;
  case Orn1Saveexec: d = exec; exec = ~a | exec; toExec = true; break;
  case Andn1Wrexec: exec = ~a & exec; d = exec; toExec = true; break;
  case Andn2Wrexec: exec = a & ~exec; d = exec; toExec = true; break;
  default: break;
  }
  if (toExec) {
    // The saved value is written before EXEC changes; if the destination is
    // EXEC itself the new EXEC wins, as the ISA orders the writes.
    writeScalar64(w, in.dst[0], d);
    w.setExec(exec);
    w.scc = exec != 0;
    return;
  }
  writeScalar64(w, in.dst[0], d);
  w.scc = scc;
}

enum Sopc : uint16_t {
  EqI32, LgI32, GtI32, GeI32, LtI32, LeI32, EqU32, LgU32, GtU32, GeU32, LtU32,
  LeU32, Bitcmp0_32, Bitcmp1_32, Bitcmp0_64, Bitcmp1_64, EqU64, LgU64,
};

void sopc(Wave &w, const Inst &in) {
  uint32_t a = readScalar32(w, in.src[0]), b = readScalar32(w, in.src[1]);
  bool r = false;
  switch (Sopc(in.op)) {
  case EqI32: case EqU32: r = a == b; break;
  case LgI32: case LgU32: r = a != b; break;
  case GtI32: r = int32_t(a) > int32_t(b); break;
  case GeI32: r = int32_t(a) >= int32_t(b); break;
  case LtI32: r = int32_t(a) < int32_t(b); break;
  case LeI32: r = int32_t(a) <= int32_t(b); break;
  case GtU32: r = a > b; break;
  case GeU32: r = a >= b; break;
  case LtU32: r = a < b; break;
  case LeU32: r = a <= b; break;
  case Bitcmp0_32: r = !((a >> (b & 31)) & 1); break;
  case Bitcmp1_32: r = (a >> (b & 31)) & 1; break;
  case Bitcmp0_64: r = !((readScalar64(w, in.src[0]) >> (b & 63)) & 1); break;
  case Bitcmp1_64: r = (readScalar64(w, in.src[0]) >> (b & 63)) & 1; break;
  case EqU64: r = readScalar64(w, in.src[0]) == readScalar64(w, in.src[1]); break;
  case LgU64: r = readScalar64(w, in.src[0]) != readScalar64(w, in.src[1]); break;
  }
  w.scc = r;
}

// SOPK: the 16-bit immediate is the last source (or control) operand.
int64_t simm16(const Inst &in) {
  for (int i = in.nsrc - 1; i >= 0; --i)
    if (in.src[i].kind == OpndKind::Imm)
      return int16_t(in.src[i].imm);
  return in.nctrl ? int16_t(in.ctrl[0]) : 0;
}

enum Sopk : uint16_t {
  Movk, Cmovk, Addk, Mulk, CmpkEqI, CmpkLgI, CmpkGtI, CmpkGeI, CmpkLtI,
  CmpkLeI, CmpkEqU, CmpkLgU, CmpkGtU, CmpkGeU, CmpkLtU, CmpkLeU,
};

void sopk(Wave &w, const Inst &in) {
  int32_t k = int32_t(simm16(in));
  uint32_t ku = uint32_t(k) & 0xffff;
  switch (Sopk(in.op)) {
  case Movk: writeScalar32(w, in.dst[0], uint32_t(k)); return;
  case Cmovk:
    if (w.scc)
      writeScalar32(w, in.dst[0], uint32_t(k));
    return;
  case Addk: {
    uint32_t a = w.s[in.dst[0].reg], d = a + uint32_t(k);
    w.scc = ((a ^ d) & (uint32_t(k) ^ d)) >> 31;
    writeScalar32(w, in.dst[0], d);
    return;
  }
  case Mulk:
    writeScalar32(w, in.dst[0], w.s[in.dst[0].reg] * uint32_t(k));
    return;
  default: break;
  }
  // s_cmpk_*: src[0] is the SGPR compared.
  uint32_t a = readScalar32(w, in.src[0]);
  int32_t ai = int32_t(a);
  bool r = false;
  switch (Sopk(in.op)) {
  case CmpkEqI: r = ai == k; break;
  case CmpkLgI: r = ai != k; break;
  case CmpkGtI: r = ai > k; break;
  case CmpkGeI: r = ai >= k; break;
  case CmpkLtI: r = ai < k; break;
  case CmpkLeI: r = ai <= k; break;
  case CmpkEqU: r = a == ku; break;
  case CmpkLgU: r = a != ku; break;
  case CmpkGtU: r = a > ku; break;
  case CmpkGeU: r = a >= ku; break;
  case CmpkLtU: r = a < ku; break;
  case CmpkLeU: r = a <= ku; break;
  default: break;
  }
  w.scc = r;
}

// s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32. hwreg(id, offset, size)
// is packed as id[5:0], offset[10:6], size-1[15:11].
constexpr unsigned kHwRegMode = 1, kHwRegHwId = 4, kHwRegGprAlloc = 5,
                   kHwRegLdsAlloc = 6;

uint32_t hwRegValue(Wave &w, unsigned id, bool &known) {
  known = true;
  switch (id) {
  case kHwRegMode:
    // Round to nearest even, denormals enabled for all widths (the mode the
    // descriptors of HIP and kcc kernels request, and the only one modelled),
    // bit 27, VGPR index mode (GprIndex.cpp), and bits 31:29, CSP, the
    // branch stack of s_cbranch_*_fork/join (Control.cpp).
    return 0xf0 | (w.gprIndexMode ? 1u << 27 : 0) | uint32_t(w.csp) << 29;
  case kHwRegHwId:
    // wave_id[3:0], simd_id[5:4], cu_id[11:8]: a stable identity per wave.
    return (w.waveInGroup & 0xf) | ((w.waveInGroup >> 4 & 3) << 4);
  default:
    known = false;
    return 0;
  }
}

void getreg(Wave &w, const Inst &in) {
  uint32_t simm = uint32_t(simm16(in)) & 0xffff;
  unsigned id = simm & 0x3f, offset = (simm >> 6) & 0x1f,
           size = ((simm >> 11) & 0x1f) + 1;
  bool known;
  uint32_t value = hwRegValue(w, id, known);
  if (!known) {
    w.fault("s_getreg of hardware register " + std::to_string(id) +
            " is not modelled");
    return;
  }
  uint32_t mask = size >= 32 ? ~0u : (1u << size) - 1;
  writeScalar32(w, in.dst[0], (value >> offset) & mask);
}

void setreg(Wave &w, const Inst &in) {
  // s_setreg_b32: (sN, hwreg); s_setreg_imm32_b32: (imm32, hwreg). The hwreg
  // field is always the last control immediate.
  if (in.nctrl == 0) {
    w.fault("s_setreg without a hwreg field");
    return;
  }
  uint32_t simm = uint32_t(in.ctrl[in.nctrl - 1]);
  uint32_t value = in.nsrc ? readScalar32(w, in.src[0])
                           : uint32_t(in.nctrl >= 2 ? in.ctrl[0] : 0);
  unsigned id = simm & 0x3f, offset = (simm >> 6) & 0x1f,
           size = ((simm >> 11) & 0x1f) + 1;
  uint32_t mask = (size >= 32 ? ~0u : (1u << size) - 1) << offset;
  if (id != kHwRegMode) {
    w.fault("s_setreg of hardware register " + std::to_string(id) +
            " is not modelled");
    return;
  }
  bool known;
  uint32_t mode = hwRegValue(w, kHwRegMode, known);
  uint32_t updated = (mode & ~mask) | ((value << offset) & mask);
  w.gprIndexMode = updated >> 27 & 1;
  w.csp = uint8_t(updated >> 29);
  if ((updated & 0xff) != 0xf0)
    w.fault("s_setreg changes the float rounding or denormal mode; only "
            "round-to-nearest with denormals enabled is modelled");
  // MODE.FP16_OVFL (bit 23) makes conversions to f16 and to FP8/BF8
  // saturate (ValuFp8.cpp); neither is modelled.
  else if (updated & (1u << 23))
    w.fault("s_setreg sets MODE.FP16_OVFL; only overflow to infinity/NaN is "
            "modelled");
}

} // namespace

void registerSaluOps(OpTable &t) {
  struct {
    const char *name;
    Sop2 op;
  } sop2s[] = {
      {"S_ADD_U32", AddU32}, {"S_SUB_U32", SubU32}, {"S_ADD_I32", AddI32},
      {"S_SUB_I32", SubI32}, {"S_ADDC_U32", AddcU32}, {"S_SUBB_U32", SubbU32},
      {"S_MIN_I32", MinI32}, {"S_MIN_U32", MinU32}, {"S_MAX_I32", MaxI32},
      {"S_MAX_U32", MaxU32}, {"S_CSELECT_B32", CselectB32},
      {"S_AND_B32", And32}, {"S_OR_B32", Or32}, {"S_XOR_B32", Xor32},
      {"S_ANDN2_B32", Andn2_32}, {"S_ORN2_B32", Orn2_32},
      {"S_NAND_B32", Nand32}, {"S_NOR_B32", Nor32}, {"S_XNOR_B32", Xnor32},
      {"S_LSHL_B32", Lshl32}, {"S_LSHR_B32", Lshr32}, {"S_ASHR_I32", Ashr32},
      {"S_BFM_B32", Bfm32}, {"S_MUL_I32", MulI32}, {"S_BFE_U32", BfeU32},
      {"S_BFE_I32", BfeI32}, {"S_ABSDIFF_I32", AbsdiffI32},
      {"S_MUL_HI_U32", MulHiU32}, {"S_MUL_HI_I32", MulHiI32},
      {"S_LSHL1_ADD_U32", Lshl1Add}, {"S_LSHL2_ADD_U32", Lshl2Add},
      {"S_LSHL3_ADD_U32", Lshl3Add}, {"S_LSHL4_ADD_U32", Lshl4Add},
      {"S_PACK_LL_B32_B16", PackLL}, {"S_PACK_LH_B32_B16", PackLH},
      {"S_PACK_HH_B32_B16", PackHH},
  };
  for (auto &e : sop2s)
    t.add(e.name, sop2, Layout::Plain, e.op);
  struct {
    const char *name;
    Sop2 op;
  } sop2_64s[] = {
      {"S_CSELECT_B64", CselectB64}, {"S_AND_B64", And64}, {"S_OR_B64", Or64},
      {"S_XOR_B64", Xor64}, {"S_ANDN2_B64", Andn2_64}, {"S_ORN2_B64", Orn2_64},
      {"S_NAND_B64", Nand64}, {"S_NOR_B64", Nor64}, {"S_XNOR_B64", Xnor64},
      {"S_LSHL_B64", Lshl64}, {"S_LSHR_B64", Lshr64}, {"S_ASHR_I64", Ashr64},
      {"S_BFM_B64", Bfm64}, {"S_BFE_U64", BfeU64}, {"S_BFE_I64", BfeI64},
  };
  for (auto &e : sop2_64s)
    t.add(e.name, sop2_64, Layout::Plain, e.op);
  struct {
    const char *name;
    Sop1 op;
    bool wide;
  } sop1s[] = {
      {"S_MOV_B32", Mov32, false}, {"S_CMOV_B32", Cmov32, false},
      {"S_NOT_B32", Not32, false}, {"S_BREV_B32", Brev32, false},
      {"S_BCNT0_I32_B32", Bcnt0_32, false}, {"S_BCNT1_I32_B32", Bcnt1_32, false},
      {"S_FF0_I32_B32", Ff0_32, false}, {"S_FF1_I32_B32", Ff1_32, false},
      {"S_FLBIT_I32_B32", Flbit32, false}, {"S_FLBIT_I32", FlbitI32, false},
      {"S_SEXT_I32_I8", SextI8, false}, {"S_SEXT_I32_I16", SextI16, false},
      {"S_BITSET0_B32", Bitset0_32, false}, {"S_BITSET1_B32", Bitset1_32, false},
      {"S_ABS_I32", AbsI32, false},
      {"S_WQM_B32", Wqm32, false}, {"S_QUADMASK_B32", Quadmask32, false},
      {"S_MOV_B64", Mov64, true}, {"S_CMOV_B64", Cmov64, true},
      {"S_NOT_B64", Not64, true}, {"S_BREV_B64", Brev64, true},
      {"S_BCNT0_I32_B64", Bcnt0_64, true}, {"S_BCNT1_I32_B64", Bcnt1_64, true},
      {"S_FF0_I32_B64", Ff0_64, true}, {"S_FF1_I32_B64", Ff1_64, true},
      {"S_FLBIT_I32_B64", Flbit64, true}, {"S_WQM_B64", Wqm64, true},
      {"S_FLBIT_I32_I64", FlbitI64, true},
      {"S_BITREPLICATE_B64_B32", Bitreplicate, true},
      {"S_QUADMASK_B64", Quadmask64, true},
      {"S_BITSET0_B64", Bitset0_64, true}, {"S_BITSET1_B64", Bitset1_64, true},
      {"S_AND_SAVEEXEC_B64", AndSaveexec, true},
      {"S_OR_SAVEEXEC_B64", OrSaveexec, true},
      {"S_XOR_SAVEEXEC_B64", XorSaveexec, true},
      {"S_ANDN2_SAVEEXEC_B64", Andn2Saveexec, true},
      {"S_ORN2_SAVEEXEC_B64", Orn2Saveexec, true},
      {"S_NAND_SAVEEXEC_B64", NandSaveexec, true},
      {"S_NOR_SAVEEXEC_B64", NorSaveexec, true},
      {"S_XNOR_SAVEEXEC_B64", XnorSaveexec, true},
      {"S_ANDN1_SAVEEXEC_B64", Andn1Saveexec, true},
      {"S_ORN1_SAVEEXEC_B64", Orn1Saveexec, true},
      {"S_ANDN1_WREXEC_B64", Andn1Wrexec, true},
      {"S_ANDN2_WREXEC_B64", Andn2Wrexec, true},
  };
  for (auto &e : sop1s)
    t.add(e.name, e.wide ? sop1_64 : sop1, Layout::Plain, e.op);
  struct {
    const char *name;
    Sopc op;
  } sopcs[] = {
      {"S_CMP_EQ_I32", EqI32}, {"S_CMP_LG_I32", LgI32}, {"S_CMP_GT_I32", GtI32},
      {"S_CMP_GE_I32", GeI32}, {"S_CMP_LT_I32", LtI32}, {"S_CMP_LE_I32", LeI32},
      {"S_CMP_EQ_U32", EqU32}, {"S_CMP_LG_U32", LgU32}, {"S_CMP_GT_U32", GtU32},
      {"S_CMP_GE_U32", GeU32}, {"S_CMP_LT_U32", LtU32}, {"S_CMP_LE_U32", LeU32},
      {"S_BITCMP0_B32", Bitcmp0_32}, {"S_BITCMP1_B32", Bitcmp1_32},
      {"S_BITCMP0_B64", Bitcmp0_64}, {"S_BITCMP1_B64", Bitcmp1_64},
      {"S_CMP_EQ_U64", EqU64}, {"S_CMP_LG_U64", LgU64},
  };
  for (auto &e : sopcs)
    t.add(e.name, sopc, Layout::Plain, e.op);
  struct {
    const char *name;
    Sopk op;
  } sopks[] = {
      {"S_MOVK_I32", Movk}, {"S_CMOVK_I32", Cmovk}, {"S_ADDK_I32", Addk},
      {"S_MULK_I32", Mulk}, {"S_CMPK_EQ_I32", CmpkEqI},
      {"S_CMPK_LG_I32", CmpkLgI}, {"S_CMPK_GT_I32", CmpkGtI},
      {"S_CMPK_GE_I32", CmpkGeI}, {"S_CMPK_LT_I32", CmpkLtI},
      {"S_CMPK_LE_I32", CmpkLeI}, {"S_CMPK_EQ_U32", CmpkEqU},
      {"S_CMPK_LG_U32", CmpkLgU}, {"S_CMPK_GT_U32", CmpkGtU},
      {"S_CMPK_GE_U32", CmpkGeU}, {"S_CMPK_LT_U32", CmpkLtU},
      {"S_CMPK_LE_U32", CmpkLeU},
  };
  for (auto &e : sopks)
    t.add(e.name, sopk, Layout::Plain, e.op);
  t.add("S_GETREG_B32", getreg);
  t.add("S_SETREG_B32", setreg);
  t.add("S_SETREG_IMM32_B32", setreg);
}

} // namespace kcc::emu
