//===- Bindings.h - What the binding files of the _kcc module share -*- C++ -*-===//
//
// The Python package's C++ half (_kcc) is a thin layer over the runtime and
// the ops: each file binds one part (devices, tensors on devices, kernels,
// ops) and they share the process's Runtime and the one way an llvm::Error
// becomes a Python exception. Argument mistakes are ValueError/TypeError
// (raised before anything runs); compile failures kcc.CompileError; what a
// device reports kcc.LaunchError; both derive from kcc.Error (RuntimeError).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_PYTHON_BINDINGS_BINDINGS_H
#define KCC_PYTHON_BINDINGS_BINDINGS_H

#include "runtime/Launch.h"

#include "llvm/Support/Error.h"

#include <pybind11/pybind11.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kcc {
class Device;
class Runtime;

namespace python {
namespace py = pybind11;

/// C++ faces of kcc's Python exceptions (registered in Errors.cpp).
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct CompileError : Error {
  using Error::Error;
};
struct LaunchError : Error {
  using Error::Error;
};

/// Which Python exception an llvm::Error becomes.
enum class ErrorKind { Value, Type, Compile, Launch, General };

/// Throws `error` as the exception of `kind`, its message unchanged.
[[noreturn]] void raise(llvm::Error error, ErrorKind kind);
/// The value of `expected`, or raise(its error, kind).
template <typename T> T take(llvm::Expected<T> expected, ErrorKind kind) {
  if (!expected)
    raise(expected.takeError(), kind);
  return std::move(*expected);
}
template <typename T> T &take(llvm::Expected<T &> expected, ErrorKind kind) {
  if (!expected)
    raise(expected.takeError(), kind);
  return *expected;
}
inline void check(llvm::Error error, ErrorKind kind) {
  if (error)
    raise(std::move(error), kind);
}

/// The process's Runtime, created on first use and never destroyed (ops may
/// run while the interpreter shuts down).
Runtime &runtime();
/// The device `where` names: None (the default device), a spec string
/// ("emu:gfx942", "hip:0") or a Device object.
Device &resolveDevice(py::handle where);
/// The device host (CPU) arrays run on when the caller names none: the
/// default device when it is emulated or $KCC_DEVICE names one, else the
/// emulated gfx950.
Device &defaultDeviceForHostData();

/// What a launch reported, as Python sees it (kcc.LaunchInfo).
struct LaunchInfo {
  std::optional<double> deviceMilliseconds;
  std::optional<uint64_t> waveInstructions;
  uint64_t workgroups = 0;
  /// Host wall times: of the device's launch call; of the C++ op or
  /// Kernel::launch call (what the same call costs a C++ caller); and of the
  /// whole binding call (with reading the arrays and copying host data).
  double hostSeconds = 0, opSeconds = 0, callSeconds = 0;
  std::string device;
  std::string path; // the op's kernel variant, "" for Kernel.launch
  std::vector<std::string> params;
  Dim3 grid, block;
};
LaunchInfo launchInfo(const LaunchResult &result, const Device &device);

void bindErrors(py::module_ &m);
void bindDevices(py::module_ &m);
void bindKernels(py::module_ &m);
void bindOps(py::module_ &m);

} // namespace python
} // namespace kcc

#endif // KCC_PYTHON_BINDINGS_BINDINGS_H
