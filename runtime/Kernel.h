//===- Kernel.h - One kernel of a loaded module, ready to launch -*- C++ -*-===//
//
// Launching checks every argument against the code object's metadata before
// anything runs on the device: the count of explicit arguments, pointer or
// value, the size of each value, the alignment of its slot, the device of
// each buffer, and the launch geometry against the kernel's limits. A
// mismatch is an llvm::Error naming the argument ("argument 4 ('M') of
// kernel 'gemm' is a 4-byte value; got i64 (8 bytes)").
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_KERNEL_H
#define KCC_RUNTIME_KERNEL_H

#include "runtime/KernelArg.h"
#include "runtime/Launch.h"
#include "target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace kcc {

class Device;
class LoadedCode;
class ModuleState;
struct KernelInfo;

/// The launch geometry of `config` against `kernel`'s metadata on `chip`:
/// no zero dimension, the block its .reqd_workgroup_size requires and within
/// .max_flat_workgroup_size, at most 2^32 work-items a dimension (the
/// dispatch packet's limit), LDS within the chip's. Every path to a launch
/// (Kernel::launch, `kcc run` on a raw code object) checks it.
llvm::Error checkLaunchGeometry(const KernelInfo &kernel, Chip chip,
                                const LaunchConfig &config);

class Kernel {
public:
  llvm::StringRef name() const;
  /// The metadata: arguments, register counts, LDS, ...
  const KernelInfo &info() const { return *info_; }
  Device &device() const;
  /// The device's copy of the code (for launches the device interface does
  /// not cover, such as one kernel on several emulated devices at once).
  LoadedCode &loadedCode() const;

  /// Checks `args` (see above) and lays them out as the kernarg segment's
  /// explicit part.
  llvm::Expected<std::vector<uint8_t>>
  packArguments(llvm::ArrayRef<KernelArgValue> args) const;
  /// Checks the geometry against the kernel's metadata.
  llvm::Error checkConfig(const LaunchConfig &config) const;

  /// Checks and runs; returns when the kernel has finished.
  llvm::Expected<LaunchResult> launch(const LaunchConfig &config,
                                      llvm::ArrayRef<KernelArgValue> args) const;
  llvm::Expected<LaunchResult>
  launch(Dim3 grid, Dim3 block,
         std::initializer_list<KernelArgValue> args) const {
    LaunchConfig config;
    config.grid = grid;
    config.block = block;
    return launch(config, llvm::ArrayRef<KernelArgValue>(args.begin(),
                                                         args.size()));
  }

private:
  friend class Module;
  Kernel(std::shared_ptr<const ModuleState> module, const KernelInfo *info)
      : module_(std::move(module)), info_(info) {}

  std::shared_ptr<const ModuleState> module_; // keeps the code loaded
  const KernelInfo *info_;
};

} // namespace kcc

#endif // KCC_RUNTIME_KERNEL_H
