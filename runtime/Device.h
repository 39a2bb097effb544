//===- Device.h - A device kernels run on: HIP GPU or emulator -*- C++ -*-===//
//
// The interface both device kinds implement (runtime/hip/HipDevice.h,
// runtime/EmuDevice.h). Users normally reach it through Buffer, Module and
// Kernel; the raw calls here take device addresses as 64-bit integers so
// that one signature fits a GPU's virtual addresses and the emulator's.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_DEVICE_H
#define KCC_RUNTIME_DEVICE_H

#include "target/Target.h"
#include "runtime/Launch.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace kcc {

class CodeObject;
struct KernelInfo;
class ModuleState;

enum class DeviceKind { Hip, Emu };

/// A code object loaded on one device (hipModule_t, or the emulator's
/// module). Owned through shared_ptr by the Modules that use it.
class LoadedCode {
public:
  virtual ~LoadedCode();
};

class Device {
public:
  virtual ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  virtual DeviceKind kind() const = 0;
  virtual Chip chip() const = 0;
  /// The name KCC_DEVICE and --device use: "hip:0", "emu:gfx950".
  virtual std::string spec() const = 0;
  /// For people: "AMD Instinct MI300X (gfx942:sramecc+:xnack-)".
  virtual std::string description() const = 0;

  virtual llvm::Expected<uint64_t> allocate(uint64_t bytes) = 0;
  virtual llvm::Error free(uint64_t address) = 0;
  virtual llvm::Error copyToDevice(uint64_t dst, const void *src,
                                   uint64_t bytes) = 0;
  virtual llvm::Error copyFromDevice(void *dst, uint64_t src,
                                     uint64_t bytes) = 0;
  virtual llvm::Error memset(uint64_t dst, uint8_t value, uint64_t bytes) = 0;
  /// Waits for everything issued to the device.
  virtual llvm::Error synchronize() = 0;

  /// Loads a parsed code object (already checked to be for chip()).
  virtual llvm::Expected<std::shared_ptr<LoadedCode>>
  loadCode(const CodeObject &codeObject) = 0;
  /// Runs `kernel` and waits for it. `kernarg` holds the explicit arguments
  /// laid out as the metadata says; hidden ones are the device's business.
  virtual llvm::Expected<LaunchResult>
  launch(LoadedCode &code, const KernelInfo &kernel,
         const LaunchConfig &config, llvm::ArrayRef<uint8_t> kernarg) = 0;

protected:
  Device() = default;
  /// Drops the modules loaded through Module::compile. Implementations call
  /// it first in their destructors, while they can still unload code.
  void releaseModules();

private:
  friend class Module;
  /// Modules already loaded here, by JIT cache key: a kernel compiled once
  /// is also loaded once per device (hipModuleLoadData is not free).
  std::mutex moduleMutex_;
  std::map<std::string, std::shared_ptr<ModuleState>> modules_;
};

} // namespace kcc

#endif // KCC_RUNTIME_DEVICE_H
