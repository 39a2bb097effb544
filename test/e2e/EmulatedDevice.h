//===- EmulatedDevice.h - The e2e tests' door to an emulated GPU -*- C++ -*-===//
//
// The end-to-end tests run kcc's code objects through the runtime's Device
// interface, the one door the kernel ops, the CLI and the Python package use
// too, so a test exercises the path a launch takes on a GPU: code loaded as a
// Module, the geometry checked against the kernel's metadata, the kernarg
// laid out by slot. Only the emulator's own tests (test/emu) reach inside it.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TEST_E2E_EMULATEDDEVICE_H
#define KCC_TEST_E2E_EMULATEDDEVICE_H

#include "runtime/Module.h"
#include "runtime/Runtime.h"
#include "target/CodeObject.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>

namespace kcc::e2e {

/// An emulated device of one chip, with the runtime that owns it.
class EmulatedDevice {
public:
  static llvm::Expected<EmulatedDevice> open(Chip chip) {
    RuntimeOptions options;
    options.useHip = false; // these tests are about the emulator's results
    auto runtime = Runtime::create(options);
    if (!runtime)
      return runtime.takeError();
    auto device = (*runtime)->device("emu:" + getChipInfo(chip).name.str());
    if (!device)
      return device.takeError();
    return EmulatedDevice(std::move(*runtime), &*device);
  }

  Device &operator*() const { return *device_; }
  Device *operator->() const { return device_; }

  /// Loads `codeObject` and runs its kernel `name` with an explicit kernarg
  /// segment (`kernarg`, laid out by the test from the metadata's offsets).
  llvm::Expected<LaunchResult> launch(llvm::ArrayRef<uint8_t> codeObject,
                                      llvm::StringRef name,
                                      const LaunchConfig &config,
                                      llvm::ArrayRef<uint8_t> kernarg) const {
    auto module = Module::load(*device_, codeObject);
    if (!module)
      return module.takeError();
    auto kernel = module->kernel(name);
    if (!kernel)
      return kernel.takeError();
    if (llvm::Error e = kernel->checkConfig(config))
      return std::move(e);
    return device_->launch(kernel->loadedCode(), kernel->info(), config,
                           kernarg);
  }

private:
  EmulatedDevice(std::unique_ptr<Runtime> runtime, Device *device)
      : runtime_(std::move(runtime)), device_(device) {}

  std::unique_ptr<Runtime> runtime_;
  Device *device_;
};

} // namespace kcc::e2e

#endif // KCC_TEST_E2E_EMULATEDDEVICE_H
