//===- LdsBanks.h - LDS bank-conflict cycles of one access -----*- C++ -*-===//
//
// The LDS serves one dword per bank per cycle (32 banks on gfx942, 64 on
// gfx950). A wave's access is processed in phases of as many lanes as fill
// all banks once (banks * 4 / bytes-per-lane lanes: 32 lanes of b32, 16 of
// b64, 8 of b128 on gfx942); a phase takes as many cycles as the most
// distinct dwords any one bank must deliver (lanes reading the same dword
// are served by one broadcast). Conflict degree = cycles / conflict-free
// cycles. ds_read_b64_tr_b16 is an 8-byte-per-lane read for this purpose:
// the transposition happens after the banks.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_TIMING_LDSBANKS_H
#define KCC_RUNTIME_EMU_TIMING_LDSBANKS_H

#include <cstdint>

namespace kcc::emu::timing {

struct LdsAccessCost {
  unsigned cycles = 0;     // with conflicts
  unsigned idealCycles = 0;// the same bytes with no conflict
};

/// Cost of one address per active lane: `addr[l]` for the lanes of `exec`,
/// each touching `bytesPerLane` consecutive bytes.
LdsAccessCost ldsAccessCost(const uint32_t *addr, uint64_t exec,
                            unsigned bytesPerLane, unsigned banks);

} // namespace kcc::emu::timing

#endif // KCC_RUNTIME_EMU_TIMING_LDSBANKS_H
