//===- Scheduler.h - Running the waves of one or more launches -*- C++ -*-===//
//
// Resident workgroups (as many as the device's CUs hold at the kernel's
// occupancy) run interleaved, each wave a slice of instructions at a time,
// so workgroups that wait on each other progress as on hardware. Barriers
// release when every wave of the workgroup that has not ended arrives.
// Further workgroups start as resident ones finish. Launches of several
// devices can share one scheduler run.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_SCHEDULER_H
#define KCC_RUNTIME_EMU_SCHEDULER_H

#include "runtime/emu/Emulator.h"
#include "runtime/emu/Wave.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace kcc::emu {

/// Everything the scheduler needs about one launch, prepared by the device.
struct LaunchPlan {
  Dispatch dispatch;           // memory, program, kernel, geometry, kernarg
  uint64_t entryPc = 0;        // device address of the first instruction
  uint32_t wavesPerGroup = 1;
  uint32_t maxResidentGroups = 1;
  LaunchOptions options;
  LaunchStats stats;
  /// Device memory the launch owns besides kernarg and packet (the queue
  /// object and heap that hidden arguments point to); freed with the plan.
  std::vector<uint64_t> ownedAllocations;
};

/// Runs all plans to completion, interleaved. On a fault or a hang, the
/// error names the kernel, workgroup, wave, address and instruction.
llvm::Error runLaunches(std::vector<LaunchPlan *> &plans);

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_SCHEDULER_H
