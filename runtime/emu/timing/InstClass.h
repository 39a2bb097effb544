//===- InstClass.h - What the timing model needs of an instruction -*- C++ -*-//
//
// The emulator's Inst says how to execute an instruction; the timing model
// needs to know which pipe it occupies, for how long, which counters it bumps
// and which vector registers it reads and writes. `classify` derives that
// once per static instruction from the printed mnemonic (the same text for
// every encoding form) and the predecoded operands.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_TIMING_INSTCLASS_H
#define KCC_RUNTIME_EMU_TIMING_INSTCLASS_H

#include "runtime/emu/Wave.h"
#include "runtime/emu/timing/TimingParams.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace kcc::emu::timing {

/// What an instruction is, for timing. The order is the instruction-mix
/// order of reports.
enum class Kind : uint8_t {
  Mfma,
  Valu,
  Trans,     // quarter-rate transcendental
  Permlane,  // v_permlane*_swap
  Lds,       // ds_* reading or writing LDS
  LdsPermute,// ds_bpermute/permute/swizzle: LDS crossbar, no banks
  VmemLoad,
  VmemStore, // stores and atomics
  Smem,
  Salu,
  Branch,
  Waitcnt,
  Barrier,
  Nop,
  Setprio,
  Sleep,
  End,
  Other,     // hints with no cost beyond their issue slot
};
constexpr unsigned kNumKinds = unsigned(Kind::Other) + 1;
llvm::StringRef kindName(Kind k);

/// Issue categories of the GCN front end: one instruction of each per SIMD
/// issue slot ([GCNWP]).
enum class IssueCat : uint8_t { Valu, Salu, Vmem, Lds, Branch, Internal };

/// A register range in the vector file (AGPRs are rows 256+).
struct RowRange {
  uint16_t first = 0, count = 0;
};

/// Static timing facts of one instruction.
struct InstInfo {
  Kind kind = Kind::Other;
  IssueCat cat = IssueCat::Internal;
  std::string mnemonic;
  /// Pipe occupancy in cycles (VALU, trans, MFMA); LDS and memory compute
  /// theirs per dynamic instance.
  unsigned busyCycles = 0;
  unsigned mfmaPasses = 0;
  bool dpp = false;
  bool packedF32 = false;
  /// LDS: bytes per lane per address, addresses per lane (read2/write2: 2),
  /// the element offsets (read2/write2 already scaled) and whether it writes.
  unsigned ldsBytesPerLane = 0;
  unsigned ldsAddrsPerLane = 1;
  int64_t ldsOffset[2] = {0, 0};
  bool ldsWrite = false;
  /// Vector memory: bytes per lane, and whether it also writes LDS (LDS DMA).
  unsigned vmemBytesPerLane = 0;
  bool vmemToLds = false;
  /// s_waitcnt: counts to wait for (-1 = not waited on).
  int waitVm = -1, waitLgkm = -1;
  /// s_nop: wait states; s_setprio: priority; s_sleep: units.
  unsigned imm = 0;
  /// s_cmp_*: compare kind for loop trip-count inference.
  bool isCompare = false;
  /// Vector registers read and written (for the scoreboard).
  llvm::SmallVector<RowRange, 4> reads;
  llvm::SmallVector<RowRange, 2> writes;
  /// MFMA: the accumulator source (src2) range, which chains at pipe rate.
  RowRange srcC;
};

/// Classifies `in`, whose printed text is `text`, for `chip`.
InstInfo classify(Chip chip, const Inst &in, llvm::StringRef text);

} // namespace kcc::emu::timing

#endif // KCC_RUNTIME_EMU_TIMING_INSTCLASS_H
