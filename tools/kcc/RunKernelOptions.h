//===- RunKernelOptions.h - What `kcc run NAME`'s runners share -*- C++ -*-===//
//
// The options of `kcc run NAME` (see RunKernel.h), parsed once by the
// dispatcher and handed to the runner of the named kernel (RunGemm.cpp,
// RunAttention.cpp), with the helpers every runner uses to read them and to
// report errors.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TOOLS_KCC_RUNKERNELOPTIONS_H
#define KCC_TOOLS_KCC_RUNKERNELOPTIONS_H

#include "target/ParamBinding.h"
#include "target/Error.h"
#include "runtime/LaunchTiming.h"
#include "runtime/Npy.h"
#include "tools/kcc/TimingCommand.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kcc {
class Device;
class Runtime;
}

namespace kcc::runkernel {

/// The options of `kcc run NAME`, as given on the command line.
struct Options {
  std::string kernel, device;
  std::vector<ParamBinding> defines; // -D, parsed as they are read
  /// -D KERNEL.NAME=VALUE: a parameter of one kernel of a multi-kernel op
  /// (attention_backward's dkdv and dq), in the order given.
  std::vector<std::pair<std::string, ParamBinding>> scopedDefines;
  llvm::StringMap<int64_t> shape;
  uint64_t seed = 1;
  llvm::StringMap<std::string> inputs;
  /// --descale q=X,k=Y,v=Z: FP8 attention's descale factors.
  llvm::StringMap<double> descale;
  std::string outputs, reference;
  std::optional<double> atol, rtol, scale;
  bool verify = false, causal = false, check = false;
  /// --timing and its options (tools/kcc/TimingCommand.h).
  TimingCommand timing;
};

/// While alive, times the op's kernel launch on `device` with the timing
/// model (runtime/LaunchTiming.h); print() writes the report as --timing's
/// options ask.
class OpTiming {
public:
  /// Nothing when --timing was not given.
  static llvm::Expected<std::unique_ptr<OpTiming>>
  start(Device &device, const Options &o, double flops);
  /// Detaches and prints the estimate of `launch`; call after the op returned.
  llvm::Error print(const LaunchResult &launch);
  /// The same, returning the estimated kernel time in seconds (for an op
  /// whose launches are timed one by one and summed).
  llvm::Expected<double> printSeconds(const LaunchResult &launch);

private:
  OpTiming(std::unique_ptr<LaunchTiming> timing, const Options &o, Chip chip)
      : timing_(std::move(timing)), o_(o), chip_(chip) {}
  std::unique_ptr<LaunchTiming> timing_;
  const Options &o_;
  Chip chip_;
};

/// Parses `args` (NAME and the options after it) into `o`. Returns
/// the exit code when the command ends here (0 after --help, 1 after an
/// error, which it prints), std::nullopt when a runner should run.
std::optional<int> parseOptions(llvm::ArrayRef<llvm::StringRef> args, Options &o);

/// The value of -D NAME=... (the last one) as written back ("bf16", "1"),
/// if given.
std::optional<std::string> define(const Options &o, llvm::StringRef name);

/// The value of -D NAME=0|1 (true and false read as 1 and 0), `dflt` when
/// not given; any other value is an error naming it, not a silent "no".
llvm::Expected<bool> defineFlag(const Options &o, llvm::StringRef name, bool dflt);

/// Every -D but those named in `own` (which the runner reads itself), as
/// NAME=VALUE: the tuning parameters the op passes on to the kernel.
std::vector<std::string> tuningDefines(const Options &o,
                                       llvm::ArrayRef<llvm::StringRef> own);

/// The .npy file --inputs gives for `name`, read (errors name the file);
/// std::nullopt when --inputs does not give it.
llvm::Expected<std::optional<NpyArray>> readInput(const Options &o,
                                                  llvm::StringRef name);

/// The device --device (or the runtime's default) names, with --check turned
/// on for every launch the op makes (Device::instrument; a GPU refuses it
/// with a message naming itself).
llvm::Expected<Device &> openDevice(Runtime &runtime, const Options &o);

/// Prints "kcc run: error: MESSAGE" and returns the exit code 1.
int fail(const llvm::Twine &message);

/// The runners, one per named kernel: each returns the exit code, 0 on
/// success, 1 on errors or a failed comparison.
int runGemm(const Options &o);
/// `kcc run gemm -D DTYPE=fp8|i8` (RunQuantGemm.cpp).
int runQuantGemm(const Options &o);
int runAttention(const Options &o);
/// `kcc run attention_backward` (RunAttentionBackward.cpp).
int runAttentionBackward(const Options &o);

} // namespace kcc::runkernel

#endif // KCC_TOOLS_KCC_RUNKERNELOPTIONS_H
