//===- Stats.h - Per-kernel resource and instruction statistics -*- C++ -*-===//
//
// What `kcc --stats` reports for each kernel of a linked code object: the
// registers and memory it holds (from the AMDGPU metadata and the kernel
// descriptor), the occupancy those allow, and how many instructions of each
// class its code has (from disassembling the kernel's bytes with LLVM's MC
// disassembler). Kernel engineers compare these numbers against hand-written
// kernels, so the classes follow the hardware's issue ports, not LLVM's
// instruction formats.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_COMPILER_STATS_H
#define KCC_COMPILER_STATS_H

#include "target/Occupancy.h"
#include "target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kcc {

/// The class of one instruction, decided by its mnemonic.
enum class InstrClass {
  Mfma,           // v_mfma_*, v_smfmac_*: the matrix cores
  Valu,           // every other v_* instruction
  Transcendental, // v_exp/log/rcp/rsq/sqrt/sin/cos_*: the quarter-rate unit
  Salu,           // s_* scalar ALU work
  Smem,           // s_load/s_store/s_buffer_*/s_dcache_*/s_memtime: scalar
                  // memory, waited on with lgkmcnt
  Vmem,           // buffer_*, tbuffer_*, global_*, flat_*, scratch_*
  Lds,            // ds_*
  Waitcnt,        // s_waitcnt*
  Barrier,        // s_barrier
  Branch,         // s_branch, s_cbranch_*, s_setpc/swappc/call
  Other,          // s_nop, s_endpgm, s_setprio, s_sendmsg, ... and the rest
};
constexpr unsigned kNumInstrClasses = unsigned(InstrClass::Other) + 1;

/// Lower-case name of `cls` ("mfma", "transcendental"), as in the JSON.
llvm::StringRef instrClassName(InstrClass cls);

/// Classifies an instruction by its mnemonic as LLVM prints it
/// ("v_mfma_f32_32x32x8_bf16", "v_add_f32_e32").
InstrClass classifyMnemonic(llvm::StringRef mnemonic);

/// Instruction counts of one piece of code.
struct InstructionCounts {
  unsigned byClass[kNumInstrClasses] = {};
  /// Every mnemonic seen and how often, for finer questions than the classes
  /// answer ("how many v_mfma_f32_32x32x16_bf16").
  std::map<std::string, unsigned> byMnemonic;

  unsigned operator[](InstrClass cls) const { return byClass[unsigned(cls)]; }
  unsigned total() const;
};

/// Disassembles `code`, the instructions of one kernel loaded at `address`,
/// for `chip` and counts them. An undecodable word is an error naming its
/// address: statistics over code that was not understood would mislead.
llvm::Expected<InstructionCounts>
countInstructions(Chip chip, llvm::ArrayRef<uint8_t> code,
                  uint64_t address = 0);

/// Everything reported for one kernel.
struct KernelStats {
  std::string name;
  Chip chip = Chip::gfx942;
  /// Architectural VGPRs, AGPRs, and the unified file's allocation (arch
  /// VGPRs rounded up to accum_offset, plus AGPRs, rounded to the granule).
  unsigned vgprs = 0, agprs = 0, allocatedVgprs = 0;
  unsigned sgprs = 0;
  unsigned vgprSpills = 0, sgprSpills = 0;
  uint64_t scratchBytes = 0; // private segment per work-item
  uint64_t ldsBytes = 0;     // group segment per workgroup (static part)
  bool usesDynamicStack = false;
  unsigned workgroupSize = 0; // the largest flat workgroup size it allows
  Occupancy occupancy;
  uint64_t codeBytes = 0;
  InstructionCounts instructions;
};

/// Statistics of every kernel in a linked code object (the output of
/// linkCodeObject), in the order of its metadata. Instructions are those
/// between the kernel's symbol and its end; calls into other functions are
/// not followed (kcc inlines everything into its kernels).
llvm::Expected<std::vector<KernelStats>>
computeStats(llvm::ArrayRef<uint8_t> codeObject);

/// One block per kernel, aligned for a terminal.
void printStatsTable(llvm::raw_ostream &os, llvm::ArrayRef<KernelStats> stats);

/// {"kernels": [{"name": ..., "vgprs": ..., "instructions": {...}}]}.
void printStatsJSON(llvm::raw_ostream &os, llvm::ArrayRef<KernelStats> stats);

} // namespace kcc

#endif // KCC_COMPILER_STATS_H
