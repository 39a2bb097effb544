//===- Device.cpp - A device kernels run on -------------------------------===//
#include "runtime/Device.h"
#include "runtime/Module.h"
#include "target/CodeObject.h"

#include "llvm/ADT/Twine.h"

#include <optional>
#include <thread>

using namespace llvm;

namespace kcc {

LoadedCode::~LoadedCode() = default;
Device::~Device() = default;

void Device::releaseModules() {
  std::lock_guard<std::mutex> lock(moduleMutex_);
  modules_.clear();
}

static Error unsupported(const Device &d, const Twine &what) {
  return createStringError(inconvertibleErrorCode(),
                           what + " is not supported on " + d.spec() +
                               " (emulated devices only: emu:gfx942, emu:gfx950)");
}

Expected<std::vector<LaunchResult>>
Device::launchGroup(MutableArrayRef<GroupMember> members, LaunchTrace *trace) {
  if (trace)
    return unsupported(*this, "an instruction trace");
  // Device::launch waits for its kernel, so each member gets a thread; the
  // kernels then run at the same time on their devices.
  std::vector<std::optional<Expected<LaunchResult>>> out(members.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < members.size(); ++i)
    threads.emplace_back([&, i] {
      GroupMember &m = members[i];
      out[i].emplace(m.device->launch(*m.code, *m.kernel, m.config, m.kernarg));
    });
  for (std::thread &t : threads)
    t.join();
  std::vector<LaunchResult> results(members.size());
  Error all = Error::success();
  for (size_t i = 0; i < out.size(); ++i) {
    if (*out[i])
      results[i] = std::move(**out[i]);
    else
      all = joinErrors(std::move(all),
                       createStringError(inconvertibleErrorCode(),
                                         "launch " + Twine(i) + " on " +
                                             members[i].device->spec() + ": " +
                                             toString(out[i]->takeError())));
  }
  if (all)
    return std::move(all);
  return results;
}

unsigned Device::computeUnits() const {
  return unsigned(getChipInfo(chip()).computeUnits);
}

Error Device::instrument(const EmulatorInstrumentation &what) {
  if (what.check || what.observer || what.workgroupLimit || what.computeUnits ||
      what.maxWaveInstructions || what.timeoutSeconds > 0 ||
      what.watchdogInstructions)
    return unsupported(*this, what.check ? "check mode" : "emulator instrumentation");
  return Error::success();
}

Expected<uint64_t> Device::mapSharedHostMemory(unsigned, uint64_t, void *,
                                               uint64_t) {
  return unsupported(*this, "mapping shared host memory (GPUs share memory "
                            "through IPC handles)");
}

Error Device::unmapSharedHostMemory(uint64_t) {
  return unsupported(*this, "mapping shared host memory");
}

} // namespace kcc
