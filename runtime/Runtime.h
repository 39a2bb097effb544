//===- Runtime.h - Entry point: devices of this process --------*- C++ -*-===//
//
// A Runtime finds the devices kernels can run on. Real GPUs come from the HIP
// runtime when it loads and reports AMD GPUs of a supported chip; otherwise
// (and whenever asked for "emu:<chip>") the CPU emulator provides gfx942 and
// gfx950 devices. Having no GPU is ordinary: hipStatus() says why HIP is not
// used, and the default device is then the emulator.
//
// Device names ("specs"): "hip:N" for HIP device N, "emu:gfx942",
// "emu:gfx950". $KCC_DEVICE picks the default device by spec.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_RUNTIME_H
#define KCC_RUNTIME_RUNTIME_H

#include "target/Target.h"
#include "runtime/Device.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kcc {

namespace emu {
class Context;
}
namespace hip {
class HipLibrary;
}

struct RuntimeOptions {
  /// The default device's spec; empty: $KCC_DEVICE, else the first GPU,
  /// else emu:<emulatedChip>.
  std::string defaultDevice;
  /// The chip the default emulated device has when there is no GPU.
  Chip emulatedChip = Chip::gfx950;
  /// false: do not even try to load HIP (emulated devices only).
  bool useHip = true;
};

class Runtime {
public:
  static llvm::Expected<std::unique_ptr<Runtime>> create(RuntimeOptions options = {});
  /// The process's runtime (default options), created on first use and
  /// never destroyed, so that the devices it hands out stay valid however
  /// late they are used: what the Python and C bindings open devices from.
  /// Every call after a failed creation returns its error again.
  static llvm::Expected<Runtime &> shared();
  ~Runtime();

  /// The devices of this process: the HIP GPUs, or, without any, one
  /// emulated device per supported chip.
  std::vector<Device *> devices();
  /// The device named by the options, $KCC_DEVICE, or the first of devices().
  llvm::Expected<Device &> defaultDevice();
  /// The device with this spec ("hip:0", "emu:gfx950"); emulated devices are
  /// created on first use. Errors say what specs exist.
  llvm::Expected<Device &> device(llvm::StringRef spec);
  /// The first `count` emulated devices of `chip` ("emu:gfx942",
  /// "emu:gfx942.1", ...), created on first use in the one emulator context
  /// that all emulated devices share: several emulated GPUs of one process,
  /// with one address space, as a symmetric heap across ranks needs.
  llvm::Expected<std::vector<Device *>> emulatedDevices(Chip chip,
                                                        unsigned count);
  /// Why HIP devices are or are not used: "3 AMD GPUs via /opt/rocm/lib/
  /// libamdhip64.so", "no AMD GPU found (HIP runtime libamdhip64.so: ...)",
  /// "HIP runtime not found: ...", "HIP disabled".
  llvm::StringRef hipStatus() const { return hipStatus_; }
  /// True when at least one GPU was found.
  bool hasGpu() const { return !hipDevices_.empty(); }

private:
  explicit Runtime(RuntimeOptions options);
  void probeHip();
  llvm::Expected<Device &> emulated(Chip chip, unsigned ordinal = 0);

  RuntimeOptions options_;
  std::string hipStatus_;
  std::shared_ptr<hip::HipLibrary> hipLibrary_;
  std::vector<std::unique_ptr<Device>> hipDevices_;
  std::mutex emuMutex_;
  std::unique_ptr<emu::Context> emuContext_;
  std::vector<std::unique_ptr<Device>> emuDevices_; // per chip, lazily
};

} // namespace kcc

#endif // KCC_RUNTIME_RUNTIME_H
