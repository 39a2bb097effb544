//===- EmuDevice.h - The emulator as a runtime Device ----------*- C++ -*-===//
//
// Adapts one device of runtime/emu (the CPU emulator) to the Device
// interface. All emulated devices of one Runtime share one emu::Context, so
// they share an address space as the multi-GPU kernels expect.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMUDEVICE_H
#define KCC_RUNTIME_EMUDEVICE_H

#include "runtime/Device.h"

#include <optional>

namespace kcc {
namespace emu {
class Context;
class Device;
class Module;
}

class EmuDevice final : public Device {
public:
  /// `device` belongs to `context`, which outlives this object; `ordinal`
  /// numbers the emulated devices of one chip ("emu:gfx942.1").
  EmuDevice(emu::Context &context, emu::Device &device, unsigned ordinal = 0);
  ~EmuDevice() override;

  DeviceKind kind() const override { return DeviceKind::Emu; }
  Chip chip() const override;
  std::string spec() const override;
  std::string description() const override;

  llvm::Expected<uint64_t> allocate(uint64_t bytes) override;
  llvm::Error free(uint64_t address) override;
  llvm::Error copyToDevice(uint64_t dst, const void *src,
                           uint64_t bytes) override;
  llvm::Error copyFromDevice(void *dst, uint64_t src, uint64_t bytes) override;
  llvm::Error memset(uint64_t dst, uint8_t value, uint64_t bytes) override;
  /// Launches run to completion, so there is never anything to wait for.
  llvm::Error synchronize() override { return llvm::Error::success(); }

  llvm::Expected<std::shared_ptr<LoadedCode>>
  loadCode(const CodeObject &codeObject) override;
  llvm::Expected<LaunchResult> launch(LoadedCode &code,
                                      const KernelInfo &kernel,
                                      const LaunchConfig &config,
                                      llvm::ArrayRef<uint8_t> kernarg) override;

  llvm::Expected<std::vector<LaunchResult>>
  launchGroup(llvm::MutableArrayRef<GroupMember> members,
              LaunchTrace *trace) override;
  unsigned computeUnits() const override;
  llvm::Error instrument(const EmulatorInstrumentation &what) override;
  llvm::Expected<uint64_t> mapSharedHostMemory(unsigned slot,
                                               uint64_t slotBytes, void *host,
                                               uint64_t bytes) override;
  llvm::Error unmapSharedHostMemory(uint64_t address) override;

private:
  emu::Context &context_;
  emu::Device &device_;
  unsigned ordinal_;
  EmulatorInstrumentation instrumentation_;
};

} // namespace kcc

#endif // KCC_RUNTIME_EMUDEVICE_H
