//===- TimingCommand.h - `kcc run --timing` options and output -*- C++ -*-===//
//
//   kcc run ... --timing [--timing-cus N] [--steady-state[=K]] [--trip-count N]
//       [--flops F] [--dram-bytes B] [--timeline OUT.svg]
//       [--timeline-iterations N] [--timeline-window A:B] [--bank-conflicts]
//       [--blame] [--timing-constants] [--timing-trace-cap N]
//
// Any of the options turns timing on. The launch then runs with the timing
// model's trace recorder (runtime/emu/timing/Timing.h) and the estimate is
// printed after the emulator's own line; with --blame (or --timeline) it
// ends with where the hot loops' waves wait (runtime/emu/timing/Blame.h).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TOOLS_KCC_TIMINGCOMMAND_H
#define KCC_TOOLS_KCC_TIMINGCOMMAND_H

#include "runtime/Device.h"
#include "runtime/emu/Emulator.h"
#include "runtime/emu/timing/Timeline.h"
#include "runtime/emu/timing/Timing.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace kcc {

class TimingCommand {
public:
  static constexpr const char *kUsage =
      "[--timing [--timing-cus N] [--steady-state[=K] | --first-round] [--trip-count N] "
      "[--flops F] [--dram-bytes B] [--timeline OUT.svg] "
      "[--timeline-iterations N] [--timeline-window A:B] [--bank-conflicts] [--blame] "
      "[--timing-constants] [--timing-trace-cap N]]";

  /// Whether `arg` is one of the timing options.
  bool handles(llvm::StringRef arg) const;
  /// Parses the option at args[i] (advancing i past a separate value).
  llvm::Error parse(llvm::ArrayRef<llvm::StringRef> args, size_t &i);
  bool enabled() const { return on; }
  /// Only part of the launch runs (steady state, or the first round): no
  /// output to write or compare.
  bool partialRun() const {
    return options.steadyStateIterations != 0 || options.firstRoundOnly;
  }
  const emu::timing::TimingOptions &timingOptions() const { return options; }
  /// The same options with the timeline (if asked for) written to
  /// OUT.PART.svg instead of OUT.svg: for an op that times several kernels.
  TimingCommand forPart(llvm::StringRef part) const;

  /// Prints `report` as `--timing` does (constants, bank conflicts and the
  /// timeline when asked for).
  llvm::Error print(const emu::timing::TimingReport &report, Chip chip) const;

  /// Runs the launch on `device` (emulated) with the timing model attached
  /// through Device::instrument() on top of `base`, prints the report (and
  /// writes the timeline); returns the launch's result.
  llvm::Expected<LaunchResult>
  launch(Device &device, LoadedCode &code, const KernelInfo &kernel,
         const LaunchConfig &config, llvm::ArrayRef<uint8_t> kernarg,
         const Device::EmulatorInstrumentation &base = {});

private:
  bool on = false;
  bool bankConflicts = false;
  bool constants = false;
  std::string timelinePath;
  emu::timing::TimingOptions options;
  emu::timing::TimelineOptions timeline;
};

} // namespace kcc

#endif // KCC_TOOLS_KCC_TIMINGCOMMAND_H
