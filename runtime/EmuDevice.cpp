//===- EmuDevice.cpp - The emulator as a runtime Device -------------------===//
#include "runtime/EmuDevice.h"
#include "target/CodeObject.h"
#include "runtime/LaunchTrace.h"
#include "runtime/emu/Emulator.h"
#include "runtime/emu/Observer.h"

#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace kcc {
namespace {

class EmuLoadedCode final : public LoadedCode {
public:
  explicit EmuLoadedCode(std::shared_ptr<emu::Module> module)
      : module(std::move(module)) {}
  std::shared_ptr<emu::Module> module;
};

/// Hands the emulator's per-instruction events to a device-neutral trace.
class TraceObserver final : public emu::Observer {
public:
  explicit TraceObserver(LaunchTrace &trace) : trace_(trace) {}
  void afterIssue(emu::Wave &w, const emu::Inst &in,
                  ArrayRef<emu::MemRecord> mem) override {
    accesses_.clear();
    for (const emu::MemRecord &m : mem)
      if (m.space == emu::MemSpace::Global)
        accesses_.push_back({m.addr, m.kind != emu::kMemRead});
    trace_.instruction({w.wg->launch, w.wg->index, w.uid, in.pc}, accesses_);
  }

private:
  LaunchTrace &trace_;
  std::vector<TracedAccess> accesses_;
};

} // namespace

LaunchTrace::~LaunchTrace() = default;

EmuDevice::EmuDevice(emu::Context &context, emu::Device &device,
                     unsigned ordinal)
    : context_(context), device_(device), ordinal_(ordinal) {}
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

/// The emulator's options for `config` on a device instrumented with `in`.
static emu::LaunchOptions
emulatorOptions(const LaunchConfig &config,
                const Device::EmulatorInstrumentation &in) {
  emu::LaunchOptions options;
  options.grid = {config.grid.x, config.grid.y, config.grid.z};
  options.block = {config.block.x, config.block.y, config.block.z};
  options.dynamicLdsBytes = config.dynamicLdsBytes;
  CheckRequest check = config.check.enabled ? config.check
                                            : in.check.value_or(CheckRequest{});
  options.check.enabled = check.enabled;
  options.check.uninit = check.uninitialisedLds;
  options.check.seed = check.seed;
  options.observer = in.observer;
  options.workgroupLimit = in.workgroupLimit;
  if (in.computeUnits)
    options.computeUnits = in.computeUnits;
  options.maxWaveInstructions = in.maxWaveInstructions;
  options.timeoutSeconds = in.timeoutSeconds;
  if (in.watchdogInstructions)
    options.watchdogInstructions = in.watchdogInstructions;
  return options;
}

Expected<LaunchResult> EmuDevice::launch(LoadedCode &code,
                                         const KernelInfo &kernel,
                                         const LaunchConfig &config,
                                         ArrayRef<uint8_t> kernarg) {
  emu::LaunchOptions options = emulatorOptions(config, instrumentation_);
  std::optional<TraceObserver> observer;
  if (config.trace) {
    if (options.observer)
      return createStringError(inconvertibleErrorCode(),
                               "a launch with an instruction trace on " + spec() +
                                   ", which already has an observer");
    options.observer = &observer.emplace(*config.trace);
  }
  auto &loaded = static_cast<EmuLoadedCode &>(code);
  Expected<emu::LaunchStats> stats =
      device_.launch(*loaded.module, kernel.name, options, kernarg);
  if (!stats)
    return stats.takeError();
  LaunchResult r;
  r.waveInstructions = stats->waveInstructions;
  r.workgroups = stats->workgroups;
  r.hostSeconds = stats->seconds;
  return r;
}

Expected<std::vector<LaunchResult>>
EmuDevice::launchGroup(MutableArrayRef<GroupMember> members,
                       LaunchTrace *trace) {
  std::optional<TraceObserver> observer;
  if (trace)
    observer.emplace(*trace);
  std::vector<emu::LaunchRequest> requests;
  for (GroupMember &m : members) {
    auto *dev = dynamic_cast<EmuDevice *>(m.device);
    if (!dev || &dev->context_ != &context_)
      return createStringError(inconvertibleErrorCode(),
                               "a group launch with " + spec() + " needs " +
                                   "emulated devices of the same runtime; " +
                                   m.device->spec() + " is not one");
    emu::LaunchRequest q;
    q.device = &dev->device_;
    q.module = static_cast<EmuLoadedCode &>(*m.code).module.get();
    q.kernel = m.kernel->name;
    q.options = emulatorOptions(m.config, dev->instrumentation_);
    if (observer)
      q.options.observer = &*observer;
    q.args = std::move(m.kernarg);
    requests.push_back(std::move(q));
  }
  Expected<std::vector<emu::LaunchStats>> stats =
      context_.launchConcurrent(requests);
  if (!stats)
    return stats.takeError();
  std::vector<LaunchResult> results(members.size());
  for (size_t r = 0; r < results.size(); ++r) {
    results[r].waveInstructions = (*stats)[r].waveInstructions;
    results[r].workgroups = (*stats)[r].workgroups;
    results[r].hostSeconds = (*stats)[r].seconds;
  }
  return results;
}

unsigned EmuDevice::computeUnits() const {
  // The emulator's default: a persistent grid sized for 304 CUs would take
  // minutes on a host's cores and prove nothing more.
  return emu::LaunchOptions().computeUnits;
}

Error EmuDevice::instrument(const EmulatorInstrumentation &what) {
  instrumentation_ = what;
  return Error::success();
}

Expected<uint64_t> EmuDevice::mapSharedHostMemory(unsigned slot,
                                                  uint64_t slotBytes,
                                                  void *host, uint64_t bytes) {
  // The same address in every process: a fixed region allocate() never uses.
  uint64_t stride = (slotBytes + 0xffff) & ~uint64_t(0xffff);
  uint64_t address = emu::Device::kExternalMappingBase + slot * stride;
  if (Error e = device_.mapExternal(address, host, bytes))
    return std::move(e);
  return address;
}

Error EmuDevice::unmapSharedHostMemory(uint64_t address) {
  return device_.unmapExternal(address);
}

} // namespace kcc
