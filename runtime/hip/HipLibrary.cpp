//===- HipLibrary.cpp - The HIP runtime, loaded with dlopen ---------------===//
#include "runtime/hip/HipLibrary.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

using namespace llvm;

namespace kcc::hip {

std::vector<std::string> HipLibrary::searchPaths() {
  std::optional<std::string> explicitPath = sys::Process::GetEnv("KCC_HIP_LIBRARY");
  if (explicitPath && !explicitPath->empty())
    return {*explicitPath};
  std::string rocm = "/opt/rocm";
  if (std::optional<std::string> env = sys::Process::GetEnv("ROCM_PATH"))
    if (!env->empty())
      rocm = *env;
  return {rocm + "/lib/libamdhip64.so", "libamdhip64.so", "libamdhip64.so.6",
          "libamdhip64.so.5"};
}

Expected<std::shared_ptr<HipLibrary>> HipLibrary::load() {
  std::string tried;
  void *handle = nullptr;
  std::string path;
  for (const std::string &candidate : searchPaths()) {
    // RTLD_LOCAL: HIP's symbols must not resolve anything of ours (or of
    // libLLVM, which ROCm's comgr also links in its own version).
    handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle) {
      path = candidate;
      break;
    }
    const char *why = dlerror();
    tried += "\n  " + candidate + ": " + (why ? why : "not found");
  }
  if (!handle)
    return createStringError(inconvertibleErrorCode(),
                             "cannot load the HIP runtime (libamdhip64); tried:" +
                                 tried);
  std::shared_ptr<HipLibrary> lib(new HipLibrary());
  lib->handle_ = handle;
  lib->path_ = path;
  std::string missing;
  auto resolve = [&](auto &fn, const char *name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, name));
    if (!fn)
      missing += std::string(missing.empty() ? "" : ", ") + name;
  };
  HipApi &a = lib->api_;
  resolve(a.hipInit, "hipInit");
  resolve(a.hipGetDeviceCount, "hipGetDeviceCount");
  resolve(a.hipSetDevice, "hipSetDevice");
  resolve(a.hipDeviceGetName, "hipDeviceGetName");
  // ROCm 6 renamed the entry point whose struct grew; the old name there
  // still exists with the old layout, either is fine for a scan.
  a.hipGetDeviceProperties = reinterpret_cast<decltype(a.hipGetDeviceProperties)>(
      dlsym(handle, "hipGetDevicePropertiesR0600"));
  if (!a.hipGetDeviceProperties)
    resolve(a.hipGetDeviceProperties, "hipGetDeviceProperties");
  resolve(a.hipMalloc, "hipMalloc");
  resolve(a.hipFree, "hipFree");
  resolve(a.hipMemcpy, "hipMemcpy");
  resolve(a.hipMemset, "hipMemset");
  resolve(a.hipModuleLoadData, "hipModuleLoadData");
  resolve(a.hipModuleUnload, "hipModuleUnload");
  resolve(a.hipModuleGetFunction, "hipModuleGetFunction");
  resolve(a.hipModuleLaunchKernel, "hipModuleLaunchKernel");
  resolve(a.hipEventCreate, "hipEventCreate");
  resolve(a.hipEventDestroy, "hipEventDestroy");
  resolve(a.hipEventRecord, "hipEventRecord");
  resolve(a.hipEventSynchronize, "hipEventSynchronize");
  resolve(a.hipEventElapsedTime, "hipEventElapsedTime");
  resolve(a.hipDeviceSynchronize, "hipDeviceSynchronize");
  resolve(a.hipGetErrorString, "hipGetErrorString");
  resolve(a.hipGetErrorName, "hipGetErrorName");
  if (!missing.empty())
    return createStringError(inconvertibleErrorCode(),
                             "the HIP runtime " + path +
                                 " lacks entry points kcc needs: " + missing);
  return lib;
}

std::string HipLibrary::describe(hipError_t error) const {
  std::string out = api_.hipGetErrorName(error);
  const char *text = api_.hipGetErrorString(error);
  if (text && out != text)
    out += std::string(" (") + text + ")";
  return out;
}

Error HipLibrary::check(hipError_t error, StringRef call) const {
  if (error == hipSuccess)
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           call + " failed: " + describe(error));
}

Expected<int> HipLibrary::deviceCount() const {
  hipError_t init = api_.hipInit(0);
  int count = 0;
  hipError_t e = api_.hipGetDeviceCount(&count);
  if (e == hipErrorNoDevice || (e == hipSuccess && count == 0))
    return 0;
  if (e != hipSuccess)
    return createStringError(
        inconvertibleErrorCode(),
        "hipGetDeviceCount failed: " + describe(e) +
            (init != hipSuccess ? "; hipInit: " + describe(init) : ""));
  return count;
}

} // namespace kcc::hip
