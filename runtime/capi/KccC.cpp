//===- KccC.cpp - kcc_c.h: the C ABI over the runtime ---------------------===//
//
// Each entry point catches every failure into the thread's last-error
// string: nothing C++ (exceptions are off anyway, llvm::Error is not C)
// crosses the ABI. Devices come from Runtime::shared(), never destroyed, so a
// kcc_device pointer stays valid.
//
//===----------------------------------------------------------------------===//
#include "runtime/capi/kcc_c.h"

#include "runtime/Device.h"
#include "runtime/KernelArg.h"
#include "runtime/Module.h"
#include "runtime/Runtime.h"
#include "target/Error.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

using namespace kcc;

struct kcc_module {
  Module module;
};

namespace {

thread_local std::string lastError;

int failed(llvm::Error error) {
  lastError = llvm::toString(std::move(error));
  return -1;
}

int failed(const std::string &message) {
  lastError = message;
  return -1;
}

int succeeded() {
  lastError.clear();
  return 0;
}

Device &deviceOf(kcc_device *device) { return *reinterpret_cast<Device *>(device); }
const Device &deviceOf(const kcc_device *device) {
  return *reinterpret_cast<const Device *>(device);
}

/// A string the caller may keep: one per device, as long as the process.
const char *keptString(const Device &device, std::string value, int which) {
  static std::mutex mutex;
  static std::map<std::pair<const Device *, int>, std::string> strings;
  std::lock_guard<std::mutex> lock(mutex);
  std::string &s = strings[{&device, which}];
  s = std::move(value);
  return s.c_str();
}

} // namespace

extern "C" {

const char *kcc_last_error(void) { return lastError.c_str(); }

int kcc_device_open(const char *spec, kcc_device **device) {
  if (!device)
    return failed("kcc_device_open: no place to store the device");
  llvm::Expected<Runtime &> rt = Runtime::shared();
  if (!rt)
    return failed(rt.takeError());
  llvm::Expected<Device &> d = (!spec || !*spec) ? rt->defaultDevice()
                                                 : rt->device(spec);
  if (!d)
    return failed(d.takeError());
  *device = reinterpret_cast<kcc_device *>(&*d);
  return succeeded();
}

const char *kcc_device_spec(const kcc_device *device) {
  return device ? keptString(deviceOf(device), deviceOf(device).spec(), 0) : "";
}

const char *kcc_device_chip(const kcc_device *device) {
  return device ? getChipInfo(deviceOf(device).chip()).name.data() : "";
}

int kcc_malloc(kcc_device *device, size_t bytes, kcc_devptr *address) {
  if (!device || !address)
    return failed("kcc_malloc: no device or no place for the address");
  llvm::Expected<uint64_t> a = deviceOf(device).allocate(bytes ? bytes : 1);
  if (!a)
    return failed(a.takeError());
  *address = *a;
  return succeeded();
}

int kcc_free(kcc_device *device, kcc_devptr address) {
  if (!device)
    return failed("kcc_free: no device");
  if (llvm::Error e = deviceOf(device).free(address))
    return failed(std::move(e));
  return succeeded();
}

int kcc_memcpy_to_device(kcc_device *device, kcc_devptr dst, const void *src,
                         size_t bytes) {
  if (!device || (!src && bytes))
    return failed("kcc_memcpy_to_device: no device or no source");
  if (llvm::Error e = deviceOf(device).copyToDevice(dst, src, bytes))
    return failed(std::move(e));
  return succeeded();
}

int kcc_memcpy_to_host(kcc_device *device, void *dst, kcc_devptr src,
                       size_t bytes) {
  if (!device || (!dst && bytes))
    return failed("kcc_memcpy_to_host: no device or no destination");
  if (llvm::Error e = deviceOf(device).copyFromDevice(dst, src, bytes))
    return failed(std::move(e));
  return succeeded();
}

int kcc_synchronize(kcc_device *device) {
  if (!device)
    return failed("kcc_synchronize: no device");
  if (llvm::Error e = deviceOf(device).synchronize())
    return failed(std::move(e));
  return succeeded();
}

int kcc_module_load(kcc_device *device, const void *code_object, size_t bytes,
                    kcc_module **module) {
  if (!device || !code_object || !module)
    return failed("kcc_module_load: no device, code object or place for the "
                  "module");
  llvm::Expected<Module> m = Module::load(
      deviceOf(device),
      llvm::ArrayRef<uint8_t>(static_cast<const uint8_t *>(code_object), bytes));
  if (!m)
    return failed(m.takeError());
  *module = new kcc_module{std::move(*m)};
  return succeeded();
}

int kcc_module_load_cached(kcc_device *device, const void *code_object,
                           size_t bytes, kcc_module **module) {
  static std::mutex mutex;
  static std::map<std::pair<kcc_device *, const void *>, kcc_module *> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = loaded.find({device, code_object});
  if (it != loaded.end()) {
    *module = it->second;
    return succeeded();
  }
  if (kcc_module_load(device, code_object, bytes, module))
    return -1;
  loaded[{device, code_object}] = *module;
  return succeeded();
}

void kcc_module_unload(kcc_module *module) { delete module; }

int kcc_launch(kcc_module *module, const char *kernel, kcc_stream stream,
               kcc_dim3 grid, kcc_dim3 block, const kcc_arg *args,
               size_t arg_count) {
  if (!module || !kernel || (!args && arg_count))
    return failed("kcc_launch: no module, kernel name or arguments");
  llvm::Expected<Kernel> k = module->module.kernel(kernel);
  if (!k)
    return failed(k.takeError());
  std::vector<KernelArgValue> values;
  values.reserve(arg_count);
  for (size_t i = 0; i < arg_count; ++i) {
    const kcc_arg &a = args[i];
    switch (a.kind) {
    case KCC_ARG_POINTER:
      values.emplace_back(DevicePointer{a.value.pointer});
      break;
    case KCC_ARG_I32:
      values.emplace_back(a.value.i32);
      break;
    case KCC_ARG_U32:
      values.emplace_back(a.value.u32);
      break;
    case KCC_ARG_I64:
      values.emplace_back(a.value.i64);
      break;
    case KCC_ARG_U64:
      values.emplace_back(a.value.u64);
      break;
    case KCC_ARG_F32:
      values.emplace_back(a.value.f32);
      break;
    case KCC_ARG_F64:
      values.emplace_back(a.value.f64);
      break;
    default:
      return failed("kcc_launch: argument " + std::to_string(i) +
                    " has an unknown kind " + std::to_string(int(a.kind)));
    }
  }
  LaunchConfig config;
  config.grid = Dim3(grid.x, grid.y, grid.z);
  config.block = Dim3(block.x, block.y, block.z);
  config.stream = stream;
  llvm::Expected<LaunchResult> r = k->launch(config, values);
  if (!r)
    return failed(r.takeError());
  return succeeded();
}

} // extern "C"
