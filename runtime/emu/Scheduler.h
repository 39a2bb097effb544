//===- Scheduler.h - Running the waves of one or more launches -*- C++ -*-===//
//
// Resident workgroups (as many as the device's CUs hold at the kernel's
// occupancy) run interleaved, each wave a slice of instructions at a time,
// so workgroups that wait on each other progress as on hardware. Barriers
// release when every wave of the workgroup that has not ended arrives.
// Further workgroups start as resident ones finish. Launches of several
// devices can share one scheduler run.
//
// Host threads (LaunchOptions::threads, KCC_EMU_THREADS). The resident
// workgroups are shared out among the threads; each thread gives its own a
// slice in turn and takes others' when its own are done, so every resident
// workgroup keeps progressing and a workgroup that spins on another's flag
// still sees it set. Workgroups are admitted in dispatch order against the
// same residency bound as on one thread. An atomic runs alone against every
// other device-memory write (kFormDeviceWrite), so it stays indivisible.
// Outputs are therefore the same as on one thread for every kernel whose
// outputs do not depend on the order in which workgroups run, i.e. on
// hardware: what follows the host's interleaving instead is the count of a
// spin loop's turns, s_memtime readings, the old values atomics return and
// the rounding of float atomic sums across workgroups (one thread keeps its
// fixed order). A launch that an observer watches (check mode, timing, a
// LaunchTrace) runs on one thread: observers see one instruction at a time
// in one order, check mode's interleaving must follow its seed to be
// reproducible, and a trace is that order.
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
