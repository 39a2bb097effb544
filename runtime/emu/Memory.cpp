//===- Memory.cpp - Device memory of emulated GPUs ------------------------===//
#include "runtime/emu/Memory.h"

#include "llvm/Support/Format.h"

#include <atomic>
#include <cstring>

using namespace llvm;
namespace kcc::emu {

thread_local Memory::LastHit Memory::lastHit;

uint64_t Memory::newEpoch() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

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
  // External mappings may sit anywhere (a shared heap at a fixed address):
  // never hand out memory over one.
  if (overlaps(address, span))
    return createStringError(inconvertibleErrorCode(),
                             "device %u: allocation of %llu bytes at 0x%llx "
                             "would overlap a mapped external region",
                             device, (unsigned long long)bytes,
                             (unsigned long long)address);
  // Guard gap of one 4 KiB page between buffers.
  next = ((address + span + 4095) & ~uint64_t(4095)) + 4096;
  std::unique_ptr<uint8_t[]> data(new (std::nothrow) uint8_t[bytes]);
  if (!data)
    return createStringError(inconvertibleErrorCode(),
                             "host is out of memory allocating %llu bytes of "
                             "emulated device memory",
                             (unsigned long long)bytes);
  std::memset(data.get(), 0, bytes);
  blocks[address] = Block{bytes, std::move(data), nullptr};
  return address;
}

Error Memory::free(uint64_t address) {
  auto it = blocks.find(address);
  if (it == blocks.end())
    return createStringError(inconvertibleErrorCode(),
                             "free of 0x%llx, which is not the start of an "
                             "allocation",
                             (unsigned long long)address);
  if (it->second.external)
    return createStringError(inconvertibleErrorCode(),
                             "free of 0x%llx, which is mapped external memory "
                             "(unmap it instead)",
                             (unsigned long long)address);
  epoch = newEpoch();
  blocks.erase(it);
  return Error::success();
}

bool Memory::overlaps(uint64_t address, uint64_t bytes) const {
  auto it = blocks.lower_bound(address + bytes);
  if (it == blocks.begin())
    return false;
  --it; // the last block starting before the end of the range
  return it->first + it->second.size > address;
}

Error Memory::mapExternal(uint64_t address, uint8_t *host, uint64_t bytes) {
  if (!host || bytes == 0)
    return createStringError(inconvertibleErrorCode(),
                             "mapping external memory needs a host pointer "
                             "and a non-zero size");
  if (address % 256 || address < kDeviceWindow)
    return createStringError(inconvertibleErrorCode(),
                             "external mapping at 0x%llx: the address must be "
                             "256-byte aligned and inside a device window",
                             (unsigned long long)address);
  if (overlaps(address, bytes))
    return createStringError(inconvertibleErrorCode(),
                             "external mapping [0x%llx, +%llu) overlaps an "
                             "allocation or another mapping",
                             (unsigned long long)address,
                             (unsigned long long)bytes);
  blocks[address] = Block{bytes, nullptr, host};
  return Error::success();
}

Error Memory::unmapExternal(uint64_t address) {
  auto it = blocks.find(address);
  if (it == blocks.end() || !it->second.external)
    return createStringError(inconvertibleErrorCode(),
                             "unmap of 0x%llx, which is not the start of an "
                             "external mapping",
                             (unsigned long long)address);
  epoch = newEpoch();
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
  lastHit = {epoch, it->first, it->second.size, it->second.ptr()};
  return lastHit.data + off;
}

} // namespace kcc::emu
