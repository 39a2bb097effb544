//===- Device.cpp - A device kernels run on -------------------------------===//
#include "runtime/Device.h"
#include "runtime/Module.h"

namespace kcc {

LoadedCode::~LoadedCode() = default;
Device::~Device() = default;

void Device::releaseModules() {
  std::lock_guard<std::mutex> lock(moduleMutex_);
  modules_.clear();
}

} // namespace kcc
