//===- Ops.h - Registry of implemented instructions ------------*- C++ -*-===//
//
// Every instruction family registers its handlers under the normalised MC
// opcode name (encoding and subtarget suffixes removed: "V_ADD_F32_e64_vi"
// and "V_ADD_F32_sdwa_gfx9" are both "V_ADD_F32"; the encoding survives as
// Inst::form). A name that is not registered decodes to a handler that stops
// the wave with "unsupported instruction".
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_OPS_H
#define KCC_RUNTIME_EMU_OPS_H

#include "runtime/emu/Wave.h"

#include "llvm/ADT/StringMap.h"

namespace kcc::emu {

/// How the decoder interprets the control immediates of an instruction.
enum class Layout : uint8_t {
  Plain,  // keep ctrl[] as is; the handler reads it
  Vop,    // VOP1/2/3/C: clamp, omod, DPP and SDWA controls
  Vop3p,  // packed math: clamp, op_sel, op_sel_hi, neg_lo, neg_hi
};

struct OpInfo {
  Handler fn = nullptr;
  uint16_t op = 0;
  const void *aux = nullptr;
  Layout layout = Layout::Plain;
  /// Encoding forms (FormFlags) the handler does not model: an instruction
  /// in one of them decodes as unsupported, so that the census lists it as
  /// missing instead of counting the whole opcode name as implemented.
  uint32_t refusedForms = 0;
};

class OpTable {
public:
  void add(llvm::StringRef name, Handler fn, Layout layout = Layout::Plain,
           uint16_t op = 0, const void *aux = nullptr) {
    table[name] = OpInfo{fn, op, aux, layout};
  }
  /// Marks `forms` of an added instruction as not modelled.
  void refuseForms(llvm::StringRef name, uint32_t forms) {
    table[name].refusedForms |= forms;
  }
  const OpInfo *find(llvm::StringRef name) const {
    auto it = table.find(name);
    return it == table.end() ? nullptr : &it->second;
  }
  /// The table of all families, built once.
  static const OpTable &get();

private:
  llvm::StringMap<OpInfo> table;
};

void registerSaluOps(OpTable &t);
void registerControlOps(OpTable &t);
void registerGprIndexOps(OpTable &t); // VGPR index mode, s_movrels/s_movreld
/// In VGPR index mode (Wave::gprIndexMode), `in` with the operands M0's mask
/// names moved M0[7:0] registers on, in `out`; false (the wave faulted) when
/// one would pass v255.
bool indexVgprOperands(Wave &w, const Inst &in, Inst &out);
void registerScalarMemoryOps(OpTable &t);
// The vector ALU, one family per file (Valu<Family>.cpp, sharing Valu.h).
void registerValuIntegerOps(OpTable &t);
void registerValuFloatOps(OpTable &t);
void registerValuTranscendentalOps(OpTable &t);
void registerValuConvertOps(OpTable &t);
void registerValuFp8Ops(OpTable &t);
void registerValuScaleCvtOps(OpTable &t);
void registerValuCompareOps(OpTable &t);
void registerValu16Ops(OpTable &t);
void registerValuPackedOps(OpTable &t);
void registerCrossLaneOps(OpTable &t);
void registerMfmaOps(OpTable &t);
void registerMfmaF8f6f4Ops(OpTable &t);
void registerSmfmacOps(OpTable &t);
void registerLdsOps(OpTable &t);
/// The new value of a 32- or 64-bit atomic (Lds.cpp's AtomicOp numbering),
/// for LDS, vector-memory and scalar atomics alike.
uint64_t atomicApply(unsigned op, uint64_t old, uint64_t src, uint64_t cmp, bool wide);
void registerVectorMemoryOps(OpTable &t);

/// The target of a SOPP branch (s_branch, s_cbranch_*): the next
/// instruction plus 4 * simm16, taken or not.
uint64_t branchTarget(const Inst &in);

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_OPS_H
