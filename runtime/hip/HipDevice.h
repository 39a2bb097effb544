//===- HipDevice.h - A real AMD GPU through the HIP runtime ----*- C++ -*-===//
//
// One HIP device (an index of hipGetDeviceCount). Every call first makes it
// the calling thread's current device, because HIP keeps the current device
// per thread and a Runtime may be used from several.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_HIP_HIPDEVICE_H
#define KCC_RUNTIME_HIP_HIPDEVICE_H

#include "runtime/Device.h"
#include "runtime/hip/HipLibrary.h"

#include <memory>
#include <string>

namespace kcc {

class HipDevice final : public Device {
public:
  /// What enumeration learns of a device before it is used.
  struct Properties {
    int index = 0;
    std::string name;     // "AMD Instinct MI300X"
    std::string gcnArch;  // "gfx942:sramecc+:xnack-"
    std::string archBase; // "gfx942"
  };
  /// Queries device `index`.
  static llvm::Expected<Properties>
  query(const std::shared_ptr<hip::HipLibrary> &library, int index);

  HipDevice(std::shared_ptr<hip::HipLibrary> library, Properties properties,
            Chip chip);
  ~HipDevice() override;

  DeviceKind kind() const override { return DeviceKind::Hip; }
  Chip chip() const override { return chip_; }
  std::string spec() const override;
  std::string description() const override;

  llvm::Expected<uint64_t> allocate(uint64_t bytes) override;
  llvm::Error free(uint64_t address) override;
  llvm::Error copyToDevice(uint64_t dst, const void *src,
                           uint64_t bytes) override;
  llvm::Error copyFromDevice(void *dst, uint64_t src, uint64_t bytes) override;
  llvm::Error memset(uint64_t dst, uint8_t value, uint64_t bytes) override;
  llvm::Error synchronize() override;

  llvm::Expected<std::shared_ptr<LoadedCode>>
  loadCode(const CodeObject &codeObject) override;
  /// Launches on the null stream between two events and waits for the
  /// second: deviceMilliseconds is the kernel's time on the GPU.
  llvm::Expected<LaunchResult> launch(LoadedCode &code,
                                      const KernelInfo &kernel,
                                      const LaunchConfig &config,
                                      llvm::ArrayRef<uint8_t> kernarg) override;

private:
  llvm::Error select() const;

  std::shared_ptr<hip::HipLibrary> lib_;
  Properties props_;
  Chip chip_;
};

} // namespace kcc

#endif // KCC_RUNTIME_HIP_HIPDEVICE_H
