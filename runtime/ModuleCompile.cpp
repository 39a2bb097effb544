//===- ModuleCompile.cpp - Module::compile, the JIT's way to a Module -----===//
//
// Part of the JIT library (KCCJit, installed as kcc::jit), not of the
// runtime core: a program that only loads code objects links the runtime
// without the compiler, and Module::compile (with the load of a JIT answer
// it ends in) is the one Module call that needs it.
//
//===----------------------------------------------------------------------===//
#include "runtime/Device.h"
#include "runtime/Jit.h"
#include "runtime/Module.h"

using namespace llvm;

namespace kcc {

Expected<Module> Module::compile(Device &device, Jit &jit,
                                 StringRef kernelOrSource,
                                 ArrayRef<std::string> params) {
  Expected<CompiledKernel> compiled =
      jit.compile(kernelOrSource, params, device.chip());
  if (!compiled)
    return compiled.takeError();
  return load(device, *compiled);
}

Expected<Module> Module::load(Device &device, const CompiledKernel &compiled) {
  // The lock is held while loading so that two threads do not both load the
  // same module; loading is fast next to compiling, which happened before.
  std::lock_guard<std::mutex> lock(device.moduleMutex_);
  auto it = device.modules_.find(compiled.key);
  if (it != device.modules_.end())
    return Module(it->second);
  auto state = loadState(device, *compiled.codeObject, compiled.key);
  if (!state)
    return state.takeError();
  device.modules_.emplace(compiled.key, *state);
  return Module(std::move(*state));
}

} // namespace kcc
