//===- Module.cpp - A code object loaded on a device ----------------------===//
#include "runtime/Module.h"
#include "target/CodeObject.h"
#include "runtime/Device.h"

using namespace llvm;

namespace kcc {

ModuleState::ModuleState(Device &device, std::unique_ptr<CodeObject> codeObject,
                         std::shared_ptr<LoadedCode> loaded, std::string cacheKey)
    : device(device), codeObject(std::move(codeObject)),
      loaded(std::move(loaded)), cacheKey(std::move(cacheKey)) {}

ModuleState::~ModuleState() = default;

Expected<std::shared_ptr<ModuleState>>
Module::loadState(Device &device, ArrayRef<uint8_t> bytes, std::string key) {
  Expected<CodeObject> co = CodeObject::parse(bytes);
  if (!co)
    return createStringError(inconvertibleErrorCode(),
                             "not a loadable code object: " +
                                 toString(co.takeError()));
  if (!co->chip() || *co->chip() != device.chip())
    return createStringError(inconvertibleErrorCode(),
                             "code object is compiled for " + co->machineName() +
                                 "; device " + device.spec() + " is " +
                                 getChipInfo(device.chip()).name);
  auto owned = std::make_unique<CodeObject>(std::move(*co));
  Expected<std::shared_ptr<LoadedCode>> loaded = device.loadCode(*owned);
  if (!loaded)
    return createStringError(inconvertibleErrorCode(),
                             "cannot load the code object on " + device.spec() +
                                 ": " + toString(loaded.takeError()));
  return std::make_shared<ModuleState>(device, std::move(owned),
                                       std::move(*loaded), std::move(key));
}

Expected<Module> Module::load(Device &device, ArrayRef<uint8_t> codeObject) {
  auto state = loadState(device, codeObject, "");
  if (!state)
    return state.takeError();
  return Module(std::move(*state));
}

std::vector<std::string> Module::kernelNames() const {
  std::vector<std::string> names;
  for (const KernelInfo &k : state_->codeObject->kernels())
    names.push_back(k.name);
  return names;
}

Expected<Kernel> Module::kernel(StringRef name) const {
  const KernelInfo *info = state_->codeObject->findKernel(name);
  if (!info)
    return createStringError(inconvertibleErrorCode(),
                             "no kernel '" + name + "' in the module; it has: " +
                                 state_->codeObject->kernelNameList());
  return Kernel(state_, info);
}

} // namespace kcc
