//===- LaunchTiming.cpp - The timing model on an op's launch --------------===//
#include "runtime/LaunchTiming.h"
#include "runtime/Device.h"
#include "runtime/Kernel.h"
#include "runtime/Module.h"
#include "target/Error.h"

using namespace llvm;

namespace kcc {

LaunchTiming::LaunchTiming(Device &device, const emu::timing::TimingOptions &options,
                           std::optional<CheckRequest> check)
    : device_(device), check_(check), timer_(device.chip(), options) {}

Expected<std::unique_ptr<LaunchTiming>>
LaunchTiming::attach(Device &device, const emu::timing::TimingOptions &options,
                     std::optional<CheckRequest> check) {
  if (device.kind() != DeviceKind::Emu)
    return makeError("--timing needs an emulated device (emu:gfx942 or emu:gfx950), not " +
                     device.spec());
  if (Error e = emu::timing::checkTimingOptions(options))
    return std::move(e);
  std::unique_ptr<LaunchTiming> t(new LaunchTiming(device, options, check));
  Device::EmulatorInstrumentation in;
  in.observer = &t->timer_;
  in.computeUnits = 1;
  in.check = check;
  if (Error e = device.instrument(in))
    return std::move(e);
  return std::move(t);
}

Expected<emu::timing::TimingReport>
LaunchTiming::time(Device &device, ArrayRef<uint8_t> codeObject, StringRef name,
                   const LaunchConfig &config, ArrayRef<uint8_t> kernarg,
                   const emu::timing::TimingOptions &options) {
  Expected<Module> module = Module::load(device, codeObject);
  if (!module)
    return module.takeError();
  Expected<Kernel> kernel = module->kernel(name);
  if (!kernel)
    return kernel.takeError();
  if (Error e = kernel->checkConfig(config))
    return std::move(e);
  auto timing = attach(device, options);
  if (!timing)
    return timing.takeError();
  auto launched =
      device.launch(kernel->loadedCode(), kernel->info(), config, kernarg);
  if (!launched)
    return launched.takeError();
  return (*timing)->report(*launched);
}

LaunchTiming::~LaunchTiming() {
  if (attached_) {
    Device::EmulatorInstrumentation in;
    in.check = check_;
    consumeError(device_.instrument(in));
  }
}

Expected<emu::timing::TimingReport> LaunchTiming::report(const LaunchResult &launch) {
  attached_ = false;
  Device::EmulatorInstrumentation in;
  in.check = check_;
  if (Error e = device_.instrument(in))
    return std::move(e);
  emu::LaunchStats stats;
  stats.waveInstructions = launch.waveInstructions.value_or(0);
  stats.workgroups = launch.workgroups;
  return timer_.report(stats);
}

} // namespace kcc
