//===- Memory.cpp - Device memory of emulated GPUs ------------------------===//
#include "runtime/emu/Memory.h"

#include "llvm/Support/Format.h"

#include <cstring>

using namespace llvm;
namespace kcc::emu {

Expected<uint64_t> Memory::allocate(unsigned device, uint64_t bytes) {
  if (bytes == 0)
    bytes = 1;
  if (bytes > (1ull << 36))
    return createStringError(inconvertibleErrorCode(),
                             "allocation of %llu bytes exceeds the emulator's "
                             "64 GiB per-buffer limit",
                             (unsigned long long)bytes);
  uint64_t &next = nextFree.try_emplace(device, deviceBase(device) + 4096)
                       .first->second;
  uint64_t address = next;
  uint64_t span = (bytes + 255) & ~uint64_t(255);
  if (address + span > deviceBase(device) + kDeviceWindow)
    return createStringError(inconvertibleErrorCode(),
                             "device %u is out of emulated address space",
                             device);
  // Guard gap of one 4 KiB page between buffers.
  next = ((address + span + 4095) & ~uint64_t(4095)) + 4096;
  std::unique_ptr<uint8_t[]> data(new (std::nothrow) uint8_t[bytes]);
  if (!data)
    return createStringError(inconvertibleErrorCode(),
                             "host is out of memory allocating %llu bytes of "
                             "emulated device memory",
                             (unsigned long long)bytes);
  std::memset(data.get(), 0, bytes);
  blocks[address] = Block{bytes, std::move(data)};
  return address;
}

Error Memory::free(uint64_t address) {
  auto it = blocks.find(address);
  if (it == blocks.end())
    return createStringError(inconvertibleErrorCode(),
                             "free of 0x%llx, which is not the start of an "
                             "allocation",
                             (unsigned long long)address);
  if (lastBase == address) {
    lastBase = lastSize = 0;
    lastData = nullptr;
  }
  blocks.erase(it);
  return Error::success();
}

uint8_t *Memory::translateSlow(uint64_t address, uint64_t bytes) {
  auto it = blocks.upper_bound(address);
  if (it == blocks.begin())
    return nullptr;
  --it;
  uint64_t off = address - it->first;
  if (off >= it->second.size || bytes > it->second.size - off)
    return nullptr;
  lastBase = it->first;
  lastSize = it->second.size;
  lastData = it->second.data.get();
  return lastData + off;
}

} // namespace kcc::emu
