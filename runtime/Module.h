//===- Module.h - A code object loaded on a device -------------*- C++ -*-===//
//
// A Module is a cheap, shareable handle: the parsed code object (metadata
// for argument checks) plus the device's loaded copy. It comes from code
// object bytes, or from a kernel of kernels/ (or any tile-dialect source)
// with parameters through the JIT, whose cache key also names the loaded
// copy on the device, so compiling the same kernel again loads nothing.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_MODULE_H
#define KCC_RUNTIME_MODULE_H

#include "runtime/Kernel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace kcc {

class CodeObject;
struct CompiledKernel;
class Device;
class Jit;
class LoadedCode;

/// Shared state behind Module and Kernel handles.
class ModuleState {
public:
  ModuleState(Device &device, std::unique_ptr<CodeObject> codeObject,
              std::shared_ptr<LoadedCode> loaded, std::string cacheKey);
  ~ModuleState();
  Device &device;
  std::unique_ptr<CodeObject> codeObject;
  std::shared_ptr<LoadedCode> loaded;
  std::string cacheKey; // empty for modules loaded from bytes
};

class Module {
public:
  /// Loads code object bytes. Fails if they are not a code object or are
  /// compiled for another chip than the device's.
  static llvm::Expected<Module> load(Device &device,
                                     llvm::ArrayRef<uint8_t> codeObject);
  /// Compiles (or finds in the JIT's caches) a kernel of kernels/ by name
  /// ("gemm"), or tile-dialect source text, with NAME=VALUE parameters, for
  /// the device's chip, and loads it (once per device and cache key).
  /// Defined in the JIT library (KCCJit; kcc::jit when installed): the
  /// runtime core loads code objects without the compiler.
  static llvm::Expected<Module> compile(Device &device, Jit &jit,
                                        llvm::StringRef kernelOrSource,
                                        llvm::ArrayRef<std::string> params);
  /// What compile() loads once the JIT has answered: `compiled`'s code
  /// object, loaded once per device and cache key (for callers that keep
  /// the JIT's answer: where the code came from, its key). JIT library too.
  static llvm::Expected<Module> load(Device &device,
                                     const CompiledKernel &compiled);

  Device &device() const { return state_->device; }
  const CodeObject &codeObject() const { return *state_->codeObject; }
  std::vector<std::string> kernelNames() const;
  /// The kernel `name`; the error lists the kernels there are.
  llvm::Expected<Kernel> kernel(llvm::StringRef name) const;

private:
  explicit Module(std::shared_ptr<ModuleState> state)
      : state_(std::move(state)) {}
  static llvm::Expected<std::shared_ptr<ModuleState>>
  loadState(Device &device, llvm::ArrayRef<uint8_t> bytes,
            std::string cacheKey);

  std::shared_ptr<ModuleState> state_;
};

} // namespace kcc

#endif // KCC_RUNTIME_MODULE_H
