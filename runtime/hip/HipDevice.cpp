//===- HipDevice.cpp - A real AMD GPU through the HIP runtime -------------===//
#include "runtime/hip/HipDevice.h"
#include "target/CodeObject.h"

#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstring>
#include <vector>

using namespace llvm;

namespace kcc {
namespace {

using namespace kcc::hip;

/// A module loaded with hipModuleLoadData. It keeps the library alive and
/// unloads on the right device, even after the HipDevice object is gone.
class HipLoadedCode final : public LoadedCode {
public:
  HipLoadedCode(std::shared_ptr<HipLibrary> lib, int device, hipModule_t module)
      : lib(std::move(lib)), device(device), module(module) {}
  ~HipLoadedCode() override {
    // Unloading at teardown can only fail if the device is already gone;
    // there is nobody to tell.
    if (lib->api().hipSetDevice(device) == hipSuccess)
      (void)lib->api().hipModuleUnload(module);
  }
  std::shared_ptr<HipLibrary> lib;
  int device;
  hipModule_t module;
  std::mutex mutex;
  std::map<std::string, hipFunction_t> functions;
};

/// The gcnArchName of hipDeviceProp_t, found without knowing the struct's
/// layout: its offset differs between ROCm 5 and 6 (and between the R0000
/// and R0600 entry points), and a wrong offset would read garbage. The only
/// NUL-terminated string in the struct that starts with "gfx" is that name.
std::string findGcnArchName(const std::vector<char> &props) {
  for (size_t i = 0; i + 4 < props.size(); ++i) {
    if (std::memcmp(&props[i], "gfx", 3) != 0 || (i && props[i - 1] != 0))
      continue;
    size_t end = i;
    while (end < props.size() && props[end] && end - i < 256)
      ++end;
    if (end < props.size() && !props[end] && end - i >= 4)
      return std::string(&props[i], end - i);
  }
  return "";
}

} // namespace

Expected<HipDevice::Properties>
HipDevice::query(const std::shared_ptr<HipLibrary> &lib, int index) {
  const HipApi &api = lib->api();
  Properties p;
  p.index = index;
  if (Error e = lib->check(api.hipSetDevice(index), "hipSetDevice"))
    return std::move(e);
  char name[256] = {0};
  if (Error e = lib->check(api.hipDeviceGetName(name, sizeof(name) - 1, index),
                           "hipDeviceGetName"))
    return std::move(e);
  p.name = name;
  // Far larger than any version of hipDeviceProp_t (about 1.5 KiB in ROCm 6).
  std::vector<char> props(16384, 0);
  if (Error e = lib->check(api.hipGetDeviceProperties(props.data(), index),
                           "hipGetDeviceProperties"))
    return std::move(e);
  p.gcnArch = findGcnArchName(props);
  if (p.gcnArch.empty())
    return createStringError(inconvertibleErrorCode(),
                             "HIP device " + Twine(index) + " (" + p.name +
                                 ") reports no gcnArchName");
  p.archBase = StringRef(p.gcnArch).split(':').first.str();
  return p;
}

HipDevice::HipDevice(std::shared_ptr<HipLibrary> library, Properties properties,
                     Chip chip)
    : lib_(std::move(library)), props_(std::move(properties)), chip_(chip) {}

HipDevice::~HipDevice() { releaseModules(); }

std::string HipDevice::spec() const { return "hip:" + std::to_string(props_.index); }

std::string HipDevice::description() const {
  return props_.name + " (" + props_.gcnArch + ")";
}

Error HipDevice::select() const {
  return lib_->check(lib_->api().hipSetDevice(props_.index), "hipSetDevice");
}

static void *ptr(uint64_t address) { return reinterpret_cast<void *>(address); }

Expected<uint64_t> HipDevice::allocate(uint64_t bytes) {
  if (Error e = select())
    return std::move(e);
  void *p = nullptr;
  if (Error e = lib_->check(lib_->api().hipMalloc(&p, bytes), "hipMalloc"))
    return std::move(e);
  return reinterpret_cast<uint64_t>(p);
}

Error HipDevice::free(uint64_t address) {
  if (Error e = select())
    return e;
  return lib_->check(lib_->api().hipFree(ptr(address)), "hipFree");
}

Error HipDevice::copyToDevice(uint64_t dst, const void *src, uint64_t bytes) {
  if (Error e = select())
    return e;
  return lib_->check(
      lib_->api().hipMemcpy(ptr(dst), src, bytes, hipMemcpyHostToDevice),
      "hipMemcpy (host to device)");
}

Error HipDevice::copyFromDevice(void *dst, uint64_t src, uint64_t bytes) {
  if (Error e = select())
    return e;
  return lib_->check(
      lib_->api().hipMemcpy(dst, ptr(src), bytes, hipMemcpyDeviceToHost),
      "hipMemcpy (device to host)");
}

Error HipDevice::memset(uint64_t dst, uint8_t value, uint64_t bytes) {
  if (Error e = select())
    return e;
  return lib_->check(lib_->api().hipMemset(ptr(dst), value, bytes), "hipMemset");
}

Error HipDevice::synchronize() {
  if (Error e = select())
    return e;
  return lib_->check(lib_->api().hipDeviceSynchronize(), "hipDeviceSynchronize");
}

Expected<std::shared_ptr<LoadedCode>>
HipDevice::loadCode(const CodeObject &codeObject) {
  if (Error e = select())
    return std::move(e);
  hipModule_t module = nullptr;
  if (Error e = lib_->check(
          lib_->api().hipModuleLoadData(&module, codeObject.bytes().data()),
          "hipModuleLoadData"))
    return std::move(e);
  return std::make_shared<HipLoadedCode>(lib_, props_.index, module);
}

Expected<LaunchResult> HipDevice::launch(LoadedCode &code,
                                         const KernelInfo &kernel,
                                         const LaunchConfig &c,
                                         ArrayRef<uint8_t> kernarg) {
  // A GPU cannot stop at each instruction: what only the emulator sees is
  // refused here rather than silently skipped.
  if (c.check.enabled || c.trace)
    return createStringError(
        inconvertibleErrorCode(),
        Twine(c.check.enabled ? "check mode" : "an instruction trace") +
            " is not supported on " + spec() +
            " (emulated devices only: emu:gfx942, emu:gfx950)");
  const HipApi &api = lib_->api();
  auto &loaded = static_cast<HipLoadedCode &>(code);
  if (Error e = select())
    return std::move(e);
  hipFunction_t function = nullptr;
  {
    std::lock_guard<std::mutex> lock(loaded.mutex);
    auto it = loaded.functions.find(kernel.name);
    if (it != loaded.functions.end()) {
      function = it->second;
    } else {
      if (Error e = lib_->check(api.hipModuleGetFunction(&function, loaded.module,
                                                         kernel.name.c_str()),
                                "hipModuleGetFunction('" + kernel.name + "')"))
        return std::move(e);
      loaded.functions.emplace(kernel.name, function);
    }
  }
  // The explicit arguments as one blob (HIP_LAUNCH_PARAM_BUFFER_POINTER):
  // HIP appends the hidden arguments itself. A copy, because HIP wants a
  // mutable pointer and an empty kernarg still needs a valid address.
  std::vector<uint8_t> blob(kernarg.begin(), kernarg.end());
  if (blob.empty())
    blob.push_back(0);
  size_t blobSize = kernarg.size();
  void *extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, blob.data(),
                   HIP_LAUNCH_PARAM_BUFFER_SIZE, &blobSize, HIP_LAUNCH_PARAM_END};

  hipEvent_t start = nullptr, stop = nullptr;
  if (Error e = lib_->check(api.hipEventCreate(&start), "hipEventCreate"))
    return std::move(e);
  if (Error e = lib_->check(api.hipEventCreate(&stop), "hipEventCreate")) {
    api.hipEventDestroy(start);
    return std::move(e);
  }
  auto destroy = [&] {
    api.hipEventDestroy(start);
    api.hipEventDestroy(stop);
  };
  auto stream = reinterpret_cast<hipStream_t>(uintptr_t(c.stream));
  auto hostStart = std::chrono::steady_clock::now();
  Error err = lib_->check(api.hipEventRecord(start, stream), "hipEventRecord");
  if (!err)
    err = lib_->check(api.hipModuleLaunchKernel(
                          function, c.grid.x, c.grid.y, c.grid.z, c.block.x,
                          c.block.y, c.block.z, c.dynamicLdsBytes, stream,
                          nullptr, extra),
                      "hipModuleLaunchKernel");
  if (!err)
    err = lib_->check(api.hipEventRecord(stop, stream), "hipEventRecord");
  if (!err)
    err = lib_->check(api.hipEventSynchronize(stop), "hipEventSynchronize");
  double hostSeconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - hostStart)
                           .count();
  float ms = 0;
  if (!err)
    err = lib_->check(api.hipEventElapsedTime(&ms, start, stop),
                      "hipEventElapsedTime");
  destroy();
  if (err)
    return std::move(err);
  LaunchResult r;
  r.deviceMilliseconds = ms;
  r.workgroups = c.grid.count();
  r.hostSeconds = hostSeconds;
  return r;
}

} // namespace kcc
