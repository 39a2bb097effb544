//===- Runtime.cpp - Entry point: devices of this process -----------------===//
#include "runtime/Runtime.h"
#include "target/Error.h"
#include "runtime/EmuDevice.h"
#include "runtime/emu/Emulator.h"
#include "runtime/hip/HipDevice.h"
#include "runtime/hip/HipLibrary.h"

#include "llvm/Support/Process.h"

using namespace llvm;

namespace kcc {


Runtime::Runtime(RuntimeOptions options) : options_(std::move(options)) {}

Runtime::~Runtime() {
  // Emulated devices before their context, HIP devices before the library.
  emuDevices_.clear();
  emuContext_.reset();
  hipDevices_.clear();
}

Expected<Runtime &> Runtime::shared() {
  static std::once_flag once;
  static Runtime *instance = nullptr; // never deleted: see the header
  static std::string failure;
  std::call_once(once, [] {
    Expected<std::unique_ptr<Runtime>> created = create();
    if (created)
      instance = created->release();
    else
      failure = toString(created.takeError());
  });
  if (!instance)
    return makeError("cannot start the kcc runtime: " + failure);
  return *instance;
}

Expected<std::unique_ptr<Runtime>> Runtime::create(RuntimeOptions options) {
  std::unique_ptr<Runtime> rt(new Runtime(std::move(options)));
  if (rt->options_.defaultDevice.empty())
    if (std::optional<std::string> env = sys::Process::GetEnv("KCC_DEVICE"))
      rt->options_.defaultDevice = *env;
  // Asking for an emulated device by name means no GPU is wanted: do not
  // load HIP (it takes time and, with a GPU, resources) for nothing.
  if (StringRef(rt->options_.defaultDevice).starts_with("emu:") ||
      !rt->options_.useHip)
    rt->hipStatus_ = "HIP not used (an emulated device was asked for)";
  else
    rt->probeHip();
  if (!rt->options_.defaultDevice.empty()) {
    Expected<Device &> d = rt->device(rt->options_.defaultDevice);
    if (!d)
      return makeError("default device: " + toString(d.takeError()));
  }
  return rt;
}

void Runtime::probeHip() {
  Expected<std::shared_ptr<hip::HipLibrary>> lib = hip::HipLibrary::load();
  if (!lib) {
    hipStatus_ = "HIP runtime not found: " + toString(lib.takeError());
    return;
  }
  hipLibrary_ = *lib;
  std::string from = " (HIP runtime " + hipLibrary_->path().str() + ")";
  Expected<int> count = hipLibrary_->deviceCount();
  if (!count) {
    hipStatus_ = "no AMD GPU usable: " + toString(count.takeError()) + from;
    return;
  }
  if (*count == 0) {
    hipStatus_ = "no AMD GPU found" + from;
    return;
  }
  std::string skipped;
  for (int i = 0; i < *count; ++i) {
    Expected<HipDevice::Properties> p = HipDevice::query(hipLibrary_, i);
    if (!p) {
      skipped += "; hip:" + std::to_string(i) + ": " + toString(p.takeError());
      continue;
    }
    std::optional<Chip> chip = parseChip(p->archBase);
    if (!chip) {
      skipped += "; hip:" + std::to_string(i) + " is " + p->archBase +
                 ", which kcc does not support (" + supportedChipList().str() + ")";
      continue;
    }
    hipDevices_.push_back(
        std::make_unique<HipDevice>(hipLibrary_, std::move(*p), *chip));
  }
  if (hipDevices_.empty())
    hipStatus_ = "no supported AMD GPU found" + from + skipped;
  else
    hipStatus_ = std::to_string(hipDevices_.size()) + " AMD GPU" +
                 (hipDevices_.size() == 1 ? "" : "s") + from + skipped;
}

Expected<Device &> Runtime::emulated(Chip chip, unsigned ordinal) {
  std::lock_guard<std::mutex> lock(emuMutex_);
  unsigned have = 0;
  for (auto &d : emuDevices_)
    if (d->chip() == chip && have++ == ordinal)
      return *d;
  if (!emuContext_)
    emuContext_ = emu::Context::create();
  // Devices of a chip are numbered in creation order: make the missing ones.
  for (; have <= ordinal; ++have) {
    Expected<emu::Device *> d = emuContext_->addDevice(chip);
    if (!d)
      return d.takeError();
    emuDevices_.push_back(std::make_unique<EmuDevice>(*emuContext_, **d, have));
  }
  return *emuDevices_.back();
}

Expected<std::vector<Device *>> Runtime::emulatedDevices(Chip chip,
                                                         unsigned count) {
  std::vector<Device *> out;
  for (unsigned i = 0; i < count; ++i) {
    Expected<Device &> d = emulated(chip, i);
    if (!d)
      return d.takeError();
    out.push_back(&*d);
  }
  return out;
}

std::vector<Device *> Runtime::devices() {
  std::vector<Device *> out;
  for (auto &d : hipDevices_)
    out.push_back(d.get());
  if (!out.empty())
    return out;
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    Expected<Device &> d = emulated(chip);
    if (d)
      out.push_back(&*d);
    else
      consumeError(d.takeError()); // the emulator supports every Chip
  }
  return out;
}

Expected<Device &> Runtime::defaultDevice() {
  if (!options_.defaultDevice.empty())
    return device(options_.defaultDevice);
  if (!hipDevices_.empty())
    return *hipDevices_.front();
  return emulated(options_.emulatedChip);
}

Expected<Device &> Runtime::device(StringRef spec) {
  auto [kind, rest] = spec.split(':');
  if (kind == "emu") {
    // "emu:gfx942.2" is the third emulated gfx942 of this process.
    auto [chipName, ordinalText] = rest.split('.');
    unsigned ordinal = 0;
    if (!ordinalText.empty() && ordinalText.getAsInteger(10, ordinal))
      return makeError("bad device '" + spec +
                   "': expected emu:CHIP or emu:CHIP.N with N a number");
    std::optional<Chip> chip = parseChip(chipName);
    if (!chip)
      return makeError("unknown chip '" + chipName + "' in device '" + spec +
                   "'; emulated devices: emu:gfx942, emu:gfx950");
    return emulated(*chip, ordinal);
  }
  if (kind == "hip") {
    unsigned index;
    if (rest.getAsInteger(10, index))
      return makeError("bad device '" + spec + "': expected hip:N with N a number");
    if (hipDevices_.empty())
      return makeError("device '" + spec + "' is not available: " + hipStatus_);
    for (auto &d : hipDevices_)
      if (d->spec() == spec)
        return *d;
    return makeError("device '" + spec + "' does not exist; " + hipStatus_);
  }
  return makeError("unknown device '" + spec +
               "'; use hip:N (a GPU) or emu:gfx942 / emu:gfx950 (the emulator)");
}

} // namespace kcc
