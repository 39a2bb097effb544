//===- Launch.h - Launch geometry and what a launch reports ----*- C++ -*-===//
//
// Geometry follows HIP (hipModuleLaunchKernel): `grid` counts workgroups per
// dimension, `block` counts work-items per workgroup. Both device kinds take
// it in this form; the emulator converts to the dispatch packet's grid size
// in work-items as the HIP runtime does.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_LAUNCH_H
#define KCC_RUNTIME_LAUNCH_H

#include <cstdint>
#include <optional>

namespace kcc {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  Dim3() = default;
  Dim3(uint32_t x, uint32_t y = 1, uint32_t z = 1) : x(x), y(y), z(z) {}
  uint64_t count() const { return uint64_t(x) * y * z; }
};

class LaunchTrace;

/// Check mode: the emulator reports what hardware would not (reads of
/// registers whose load was not waited for, LDS races, out-of-bounds
/// accesses, ...) and fails the launch when it finds any.
struct CheckRequest {
  bool enabled = false;
  uint64_t seed = 1; // the interleaving of waves; a failure reproduces from it
  /// Also report LDS bytes read before any write (`--check=uninit`).
  bool uninitialisedLds = false;
};

struct LaunchConfig {
  Dim3 grid;  // workgroups
  Dim3 block; // work-items per workgroup
  uint32_t dynamicLdsBytes = 0;
  /// Emulated devices only; a GPU refuses a launch that asks for them.
  CheckRequest check;
  LaunchTrace *trace = nullptr; // not owned (runtime/LaunchTrace.h)
  /// HIP devices: the hipStream_t to launch on (0: the null stream), so that
  /// a launch is ordered after the caller's work on its stream (PyTorch's
  /// current stream). The launch still waits for its kernel. The emulator
  /// has one queue and ignores it.
  uint64_t stream = 0;
};

/// What one launch reports. A HIP device measures the kernel with events; the
/// emulator counts what it executed (its wall time says nothing of a GPU's).
struct LaunchResult {
  /// Kernel time between two HIP events (HIP devices only).
  std::optional<double> deviceMilliseconds;
  /// Instructions issued, summed over waves (emulated devices only).
  std::optional<uint64_t> waveInstructions;
  uint64_t workgroups = 0;
  /// Host wall time of the launch, including the wait for completion (the
  /// emulator: the time it took to emulate the kernel). Every device fills it.
  double hostSeconds = 0;
};

} // namespace kcc

#endif // KCC_RUNTIME_LAUNCH_H
