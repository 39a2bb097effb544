//===- EmuDevice.cpp - The emulator as a runtime Device -------------------===//
#include "runtime/EmuDevice.h"
#include "target/CodeObject.h"
#include "runtime/emu/Emulator.h"

using namespace llvm;

namespace kcc {
namespace {

class EmuLoadedCode final : public LoadedCode {
public:
  explicit EmuLoadedCode(std::shared_ptr<emu::Module> module)
      : module(std::move(module)) {}
  std::shared_ptr<emu::Module> module;
};

} // namespace

EmuDevice::EmuDevice(emu::Device &device, unsigned ordinal)
    : device_(device), ordinal_(ordinal) {}

emu::Module &EmuDevice::emulatedModule(LoadedCode &code) {
  return *static_cast<EmuLoadedCode &>(code).module;
}
EmuDevice::~EmuDevice() { releaseModules(); }

Chip EmuDevice::chip() const { return device_.chip(); }

std::string EmuDevice::spec() const {
  std::string s = ("emu:" + getChipInfo(chip()).name).str();
  return ordinal_ ? s + "." + std::to_string(ordinal_) : s;
}

std::string EmuDevice::description() const {
  const ChipInfo &c = getChipInfo(chip());
  return ("emulated " + c.name + " (" + c.marketing + ", CPU emulator)").str();
}

Expected<uint64_t> EmuDevice::allocate(uint64_t bytes) {
  return device_.allocate(bytes);
}
Error EmuDevice::free(uint64_t address) { return device_.free(address); }
Error EmuDevice::copyToDevice(uint64_t dst, const void *src, uint64_t bytes) {
  return device_.copyToDevice(dst, src, bytes);
}
Error EmuDevice::copyFromDevice(void *dst, uint64_t src, uint64_t bytes) {
  return device_.copyFromDevice(dst, src, bytes);
}
Error EmuDevice::memset(uint64_t dst, uint8_t value, uint64_t bytes) {
  return device_.memset(dst, value, bytes);
}

Expected<std::shared_ptr<LoadedCode>>
EmuDevice::loadCode(const CodeObject &codeObject) {
  Expected<std::shared_ptr<emu::Module>> m = device_.loadModule(codeObject.bytes());
  if (!m)
    return m.takeError();
  return std::make_shared<EmuLoadedCode>(std::move(*m));
}

Expected<LaunchResult> EmuDevice::launch(LoadedCode &code,
                                         const KernelInfo &kernel,
                                         const LaunchConfig &config,
                                         ArrayRef<uint8_t> kernarg) {
  emu::LaunchOptions options;
  options.grid = {config.grid.x, config.grid.y, config.grid.z};
  options.block = {config.block.x, config.block.y, config.block.z};
  options.dynamicLdsBytes = config.dynamicLdsBytes;
  auto &loaded = static_cast<EmuLoadedCode &>(code);
  Expected<emu::LaunchStats> stats =
      device_.launch(*loaded.module, kernel.name, options, kernarg);
  if (!stats)
    return stats.takeError();
  LaunchResult r;
  r.waveInstructions = stats->waveInstructions;
  r.workgroups = stats->workgroups;
  return r;
}

} // namespace kcc
