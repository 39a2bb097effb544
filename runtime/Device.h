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
#include <optional>
#include <string>
#include <vector>

namespace kcc {

namespace emu {
class Observer;
}

class CodeObject;
class Device;
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

  /// One launch of a group that runs at once on several devices.
  struct GroupMember {
    Device *device = nullptr;
    LoadedCode *code = nullptr;
    const KernelInfo *kernel = nullptr;
    LaunchConfig config;
    std::vector<uint8_t> kernarg;
  };
  /// Runs every member's kernel at the same time, each on its device (all
  /// of this device's kind), and waits for all: kernels that wait on each
  /// other's flags (all-gather + GEMM, the ring's step kernel) need that.
  /// The base implementation gives each member a thread that launches and
  /// waits, which is what GPUs need; the emulator interleaves the members'
  /// workgroups in one scheduler. `trace`, when given, sees every member.
  virtual llvm::Expected<std::vector<LaunchResult>>
  launchGroup(llvm::MutableArrayRef<GroupMember> members, LaunchTrace *trace);

  /// Compute units a persistent kernel should size its grid for: the chip's
  /// on a GPU, the emulated device's (fewer: its workgroups run on the host).
  virtual unsigned computeUnits() const;

  /// What an emulated device applies to every later launch: tools that watch
  /// the emulator run a kernel (the timing model, check mode of the CLI)
  /// reach it here, through the same ops and launches a GPU would run.
  struct EmulatorInstrumentation {
    /// Check mode for launches that do not ask for it themselves.
    std::optional<CheckRequest> check;
    /// Sees every instruction (runtime/emu/Observer.h); not owned.
    emu::Observer *observer = nullptr;
    /// Runs only the first N workgroups of each launch (0: all).
    uint64_t workgroupLimit = 0;
    /// CUs whose resident workgroups run interleaved (0: the device's).
    unsigned computeUnits = 0;
    /// Every launch ends: at most this many wave instructions (0: the
    /// emulator's default from the launch's size), at most this many host
    /// seconds (0: no limit), and a deadlock reported after this many wave
    /// instructions without progress (0: the emulator's default).
    uint64_t maxWaveInstructions = 0;
    double timeoutSeconds = 0;
    uint64_t watchdogInstructions = 0;
  };
  /// Replaces the instrumentation of later launches; an error on a GPU,
  /// which cannot be watched this way.
  virtual llvm::Error instrument(const EmulatorInstrumentation &what);

  /// Makes `bytes` of host memory that other processes share visible at a
  /// device address that is the same in every process mapping the same
  /// `slot` (a heap across processes on emulated devices). GPUs share memory
  /// through IPC handles instead: an error there.
  virtual llvm::Expected<uint64_t> mapSharedHostMemory(unsigned slot,
                                                       uint64_t slotBytes,
                                                       void *host,
                                                       uint64_t bytes);
  virtual llvm::Error unmapSharedHostMemory(uint64_t address);

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
