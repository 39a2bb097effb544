//===- Emulator.h - CPU emulator of gfx942/gfx950 code objects -*- C++ -*-===//
//
// The public face of runtime/emu: load a code object, allocate device memory,
// launch a kernel with HIP's geometry (grid in workgroups, block in
// work-items) and argument bytes, read memory back. Every error is an
// llvm::Error with a message a kernel engineer can act on.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_EMULATOR_H
#define KCC_RUNTIME_EMU_EMULATOR_H

#include "target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kcc::emu {

class Observer;

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

/// Check mode (runtime/emu/Check.h): the launch watches for kernel bugs
/// and fails with a CheckError listing them. KCC_EMU_CHECK=1 (or
/// `uninit`) in the environment turns it on for every launch.
struct CheckOptions {
  bool enabled = false;
  /// Also report LDS bytes read before any write: off by default because
  /// compilers legitimately read undefined padding and mask it.
  bool uninit = false;
  /// Seeds the interleaving of waves (slice lengths), so that a run is
  /// reproducible and another seed tries another interleaving.
  uint64_t seed = 1;
};

/// Options of one launch.
struct LaunchOptions {
  Dim3 grid;                 // workgroups per dimension (hipModuleLaunchKernel)
  Dim3 block;                // work-items per workgroup
  uint32_t dynamicLdsBytes = 0;
  /// Compute units of the emulated device: with the occupancy of the kernel
  /// this bounds how many workgroups are resident (interleaved) at once.
  uint32_t computeUnits = 8;
  /// Instructions issued (summed over waves) without any memory being
  /// modified, a barrier released or a wave ending, after which the launch
  /// is reported as hung (waves spinning on a flag nobody will set).
  uint64_t watchdogInstructions = uint64_t(1) << 26;
  /// The most wave instructions (summed over waves) the launch may run
  /// before it is stopped, progress or not: a loop that stores on every
  /// iteration never trips the watchdog above. 0: a generous default from
  /// the launch's size, 2^26 per wave and at least 2^28 (defaultBudget()).
  uint64_t maxWaveInstructions = 0;
  /// Host seconds the launch may run (0: no limit).
  double timeoutSeconds = 0;
  /// Wave instructions a wave runs before the next wave gets its turn.
  uint32_t sliceInstructions = 64;
  /// A tool that sees every instruction (runtime/emu/Observer.h), e.g. a
  /// timing model; not owned. Check mode adds its own observer beside it.
  Observer *observer = nullptr;
  /// Run only the first N workgroups in dispatch order (0: all), e.g. one
  /// CU's worth for a timing estimate.
  uint64_t workgroupLimit = 0;
  /// Host threads that run the resident workgroups side by side (0:
  /// KCC_EMU_THREADS from the environment, else every hardware thread; 1:
  /// all on the calling thread). A launch that an observer watches (check
  /// mode, a timing model, a LaunchTrace) runs on one thread: see
  /// Scheduler.h for why, and for what may differ between thread counts.
  uint32_t threads = 0;
  CheckOptions check;
};

/// The host threads a launch asking for `requested` runs on: `requested`
/// when not 0, else KCC_EMU_THREADS (a whole number from 1 to 1024), else
/// every hardware thread. A KCC_EMU_THREADS that is not such a number is an
/// error, not a silent default.
llvm::Expected<unsigned> hostThreads(uint32_t requested);

/// The wave-instruction budget of a launch of `waves` waves when
/// LaunchOptions::maxWaveInstructions is 0.
uint64_t defaultBudget(uint64_t waves);

/// What one launch did.
struct LaunchStats {
  uint64_t waveInstructions = 0; // instructions issued, summed over waves
  uint64_t workgroups = 0;
  double seconds = 0;            // host wall time of the emulation
  bool stoppedEarly = false;     // an observer asked to stop (not an error)
};

class Device;

/// A loaded code object: its kernels, their argument layout, descriptors.
class Module {
public:
  virtual ~Module();
  virtual std::vector<std::string> kernelNames() const = 0;
};

/// One emulated GPU of a given chip with its own global memory. Devices made
/// by the same Context can read and write each other's memory (multi-GPU).
class Device {
public:
  virtual ~Device();
  virtual Chip chip() const = 0;

  /// Device memory: addresses are 64-bit device virtual addresses, unique
  /// across all devices of a Context.
  virtual llvm::Expected<uint64_t> allocate(uint64_t bytes) = 0;
  virtual llvm::Error free(uint64_t address) = 0;
  virtual llvm::Error copyToDevice(uint64_t dst, const void *src,
                                   uint64_t bytes) = 0;
  virtual llvm::Error copyFromDevice(void *dst, uint64_t src,
                                     uint64_t bytes) = 0;
  virtual llvm::Error memset(uint64_t dst, uint8_t value, uint64_t bytes) = 0;

  /// Device memory backed by host memory owned elsewhere - typically a POSIX
  /// shared-memory mapping that other processes map as well: `bytes` at
  /// `host` become addressable at `address` (256-byte aligned, overlapping
  /// no allocation or mapping of the Context). When every process maps the
  /// same shared memory at the same address, emulated devices of different
  /// processes share it as GPUs share peer-mapped (IPC) memory; addresses at
  /// or above kExternalMappingBase are never used by allocate(). free()
  /// refuses a mapping; unmapExternal() removes it (not the memory).
  static constexpr uint64_t kExternalMappingBase = uint64_t(240) << 40;
  virtual llvm::Error mapExternal(uint64_t address, void *host,
                                  uint64_t bytes) = 0;
  virtual llvm::Error unmapExternal(uint64_t address) = 0;

  /// Loads an ELF code object (v5; v4 accepted).
  virtual llvm::Expected<std::shared_ptr<Module>>
  loadModule(llvm::ArrayRef<uint8_t> codeObject) = 0;

  /// Runs `kernel` to completion. `args` are the explicit kernel argument
  /// bytes laid out as the code object's metadata says; hidden arguments are
  /// filled here as the HIP runtime fills them.
  virtual llvm::Expected<LaunchStats>
  launch(Module &module, llvm::StringRef kernel, const LaunchOptions &options,
         llvm::ArrayRef<uint8_t> args) = 0;
};

/// One kernel launch of a concurrent multi-device launch.
struct LaunchRequest {
  Device *device = nullptr;
  Module *module = nullptr;
  std::string kernel;
  LaunchOptions options;
  std::vector<uint8_t> args;
};

/// Owns emulated devices that share one address space.
class Context {
public:
  virtual ~Context();
  static std::unique_ptr<Context> create();
  virtual llvm::Expected<Device *> addDevice(Chip chip) = 0;
  virtual size_t deviceCount() const = 0;
  virtual Device &device(size_t index) = 0;

  /// Runs several launches (typically one per device of a multi-GPU kernel)
  /// at the same time: the resident workgroups of all of them interleave,
  /// so kernels that wait on flags set by kernels on other devices progress.
  /// Returns one LaunchStats per request, in order.
  virtual llvm::Expected<std::vector<LaunchStats>>
  launchConcurrent(llvm::ArrayRef<LaunchRequest> requests) = 0;
};

/// One instruction of a kernel as the emulator decodes it.
struct DecodedInstruction {
  uint64_t offset = 0;      // address in the code object as linked
  std::string text;         // disassembly
  std::string mnemonic;     // "v_mfma_f32_32x32x8_bf16"
  bool decodable = true;    // LLVM's disassembler accepts the bytes
  bool implemented = true;  // the emulator executes it on this chip
};

/// The instructions of `kernel` that its entry can reach (following
/// branches; s_setpc/s_swappc targets are not followed), in address order.
/// What `kcc emu-coverage` reports, and how tests find the address of an
/// instruction.
llvm::Expected<std::vector<DecodedInstruction>>
disassembleKernel(llvm::ArrayRef<uint8_t> codeObject, llvm::StringRef kernel,
                  Chip chip);

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_EMULATOR_H
