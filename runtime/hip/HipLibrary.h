//===- HipLibrary.h - The HIP runtime, loaded with dlopen ------*- C++ -*-===//
//
// kcc has no link-time dependency on ROCm: the HIP runtime (libamdhip64) is
// opened at run time and the few entry points the runtime needs are looked
// up by name. The declarations here are the HIP C ABI (stable across ROCm
// 5 and 6): handles are opaque pointers, errors are ints.
//
// Search order: $KCC_HIP_LIBRARY (that file only: an explicit choice is
// never second-guessed), else $ROCM_PATH/lib/libamdhip64.so (ROCM_PATH
// defaults to /opt/rocm), else the dynamic loader's default search path
// (libamdhip64.so, .so.6, .so.5). Every failed attempt is kept for the
// message, so "why is there no GPU" has an answer.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_HIP_HIPLIBRARY_H
#define KCC_RUNTIME_HIP_HIPLIBRARY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace kcc::hip {

using hipError_t = int;
using hipModule_t = void *;
using hipFunction_t = void *;
using hipEvent_t = void *;
using hipStream_t = void *;
using hipDeviceptr_t = void *;

constexpr hipError_t hipSuccess = 0;
constexpr hipError_t hipErrorInvalidDevice = 101;
constexpr hipError_t hipErrorNoDevice = 100;
constexpr int hipMemcpyHostToDevice = 1;
constexpr int hipMemcpyDeviceToHost = 2;
// hipModuleLaunchKernel's `extra` keys (hip_runtime_api.h).
inline void *const HIP_LAUNCH_PARAM_BUFFER_POINTER = reinterpret_cast<void *>(1);
inline void *const HIP_LAUNCH_PARAM_BUFFER_SIZE = reinterpret_cast<void *>(2);
inline void *const HIP_LAUNCH_PARAM_END = reinterpret_cast<void *>(3);

/// The entry points, resolved by name.
struct HipApi {
  hipError_t (*hipInit)(unsigned flags);
  hipError_t (*hipGetDeviceCount)(int *count);
  hipError_t (*hipSetDevice)(int device);
  hipError_t (*hipDeviceGetName)(char *name, int len, int device);
  /// hipGetDevicePropertiesR0600 on ROCm 6 (the struct changed), else
  /// hipGetDeviceProperties; the struct is only scanned (see HipDevice.cpp).
  hipError_t (*hipGetDeviceProperties)(void *props, int device);
  hipError_t (*hipMalloc)(void **ptr, size_t bytes);
  hipError_t (*hipFree)(void *ptr);
  hipError_t (*hipMemcpy)(void *dst, const void *src, size_t bytes, int kind);
  hipError_t (*hipMemset)(void *dst, int value, size_t bytes);
  hipError_t (*hipModuleLoadData)(hipModule_t *module, const void *image);
  hipError_t (*hipModuleUnload)(hipModule_t module);
  hipError_t (*hipModuleGetFunction)(hipFunction_t *function,
                                     hipModule_t module, const char *name);
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t f, unsigned gx,
                                      unsigned gy, unsigned gz, unsigned bx,
                                      unsigned by, unsigned bz,
                                      unsigned sharedBytes, hipStream_t stream,
                                      void **kernelParams, void **extra);
  hipError_t (*hipEventCreate)(hipEvent_t *event);
  hipError_t (*hipEventDestroy)(hipEvent_t event);
  hipError_t (*hipEventRecord)(hipEvent_t event, hipStream_t stream);
  hipError_t (*hipEventSynchronize)(hipEvent_t event);
  hipError_t (*hipEventElapsedTime)(float *ms, hipEvent_t start,
                                    hipEvent_t stop);
  hipError_t (*hipDeviceSynchronize)();
  const char *(*hipGetErrorString)(hipError_t error);
  const char *(*hipGetErrorName)(hipError_t error);
};

class HipLibrary {
public:
  /// Opens the library (search order above) and resolves every entry
  /// point. The error lists each path tried and why it failed.
  static llvm::Expected<std::shared_ptr<HipLibrary>> load();
  /// The paths load() tries, in order, for the current environment.
  static std::vector<std::string> searchPaths();

  const HipApi &api() const { return api_; }
  /// The file that was opened, as given to dlopen.
  llvm::StringRef path() const { return path_; }

  /// "hipErrorNoDevice (no ROCm-capable device is detected)".
  std::string describe(hipError_t error) const;
  /// Success, or an error "<call> failed: <describe(error)>".
  llvm::Error check(hipError_t error, llvm::StringRef call) const;

  /// hipInit + hipGetDeviceCount. No GPU is 0, not an error: Debian's HIP
  /// 5.2 on a machine without one answers hipInit with hipErrorInvalidDevice
  /// and hipGetDeviceCount with hipErrorNoDevice.
  llvm::Expected<int> deviceCount() const;

private:
  HipLibrary() = default;
  void *handle_ = nullptr; // never dlclose'd: HSA's threads outlive main()
  std::string path_;
  HipApi api_{};
};

} // namespace kcc::hip

#endif // KCC_RUNTIME_HIP_HIPLIBRARY_H
