//===- LaunchTiming.h - The timing model on an op's launch ------*- C++ -*-===//
//
// Times whatever launch an op makes on an emulated device: attach() sets
// the device up so that one CU's worth of workgroups is resident (the ones
// the model replays) with an emu::timing::LaunchTimer watching; the op runs
// as it would anywhere; report() detaches and returns the estimate. Used by
// `kcc run gemm|attention --timing` and the side-by-side benchmarks, so a
// figure means the same wherever it is printed.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_LAUNCHTIMING_H
#define KCC_RUNTIME_LAUNCHTIMING_H

#include "runtime/Launch.h"
#include "runtime/emu/timing/Timing.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

#include <memory>
#include <optional>

namespace kcc {
class Device;

class LaunchTiming {
public:
  /// An error on a device that is not emulated. `check` keeps check mode on
  /// for the timed launch.
  static llvm::Expected<std::unique_ptr<LaunchTiming>>
  attach(Device &device, const emu::timing::TimingOptions &options,
         std::optional<CheckRequest> check = std::nullopt);
  /// Loads `codeObject` on `device` and times one launch of its kernel
  /// `kernel` with an explicit kernarg segment the caller laid out from the
  /// metadata (attach, launch, report): for the benchmarks that drive a
  /// kernel without its op.
  static llvm::Expected<emu::timing::TimingReport>
  time(Device &device, llvm::ArrayRef<uint8_t> codeObject, llvm::StringRef kernel,
       const LaunchConfig &config, llvm::ArrayRef<uint8_t> kernarg,
       const emu::timing::TimingOptions &options);

  /// Detaches if report() was not called.
  ~LaunchTiming();

  /// Detaches (check mode stays on if it was asked for) and estimates the
  /// launch the op made.
  llvm::Expected<emu::timing::TimingReport> report(const LaunchResult &launch);

private:
  LaunchTiming(Device &device, const emu::timing::TimingOptions &options,
               std::optional<CheckRequest> check);
  Device &device_;
  std::optional<CheckRequest> check_;
  emu::timing::LaunchTimer timer_;
  bool attached_ = true;
};

} // namespace kcc

#endif // KCC_RUNTIME_LAUNCHTIMING_H
