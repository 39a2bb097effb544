//===- Memory.h - Device memory of emulated GPUs ---------------*- C++ -*-===//
//
// One address space shared by every device of a Context: each device owns a
// window of addresses (device d at (d + 1) << 40), so an address names both
// the device and the byte, and a kernel on one device can reach another
// device's memory by address, as peer-mapped memory behaves on hardware.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_MEMORY_H
#define KCC_RUNTIME_EMU_MEMORY_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <iterator>
#include <map>
#include <memory>

namespace kcc::emu {

class Memory {
public:
  static constexpr uint64_t kDeviceWindow = 1ull << 40;
  static uint64_t deviceBase(unsigned device) {
    return (uint64_t(device) + 1) * kDeviceWindow;
  }

  /// Allocates `bytes` (zeroed) in `device`'s window, 256-byte aligned as
  /// hipMalloc is, with a guard gap so that running off the end of one
  /// buffer does not land in the next.
  llvm::Expected<uint64_t> allocate(unsigned device, uint64_t bytes);
  llvm::Error free(uint64_t address);

  /// Makes `bytes` of host memory owned elsewhere (a shared-memory mapping
  /// other processes map too) addressable at `address`: 256-byte aligned,
  /// overlapping no allocation or mapping. free() refuses it; unmapExternal()
  /// removes it (the memory itself stays with its owner).
  llvm::Error mapExternal(uint64_t address, uint8_t *host, uint64_t bytes);
  llvm::Error unmapExternal(uint64_t address);

  /// Host pointer to [address, address + bytes) when it lies inside one
  /// allocation, else nullptr. Each host thread caches its last hit
  /// (accesses cluster); host threads running workgroups side by side
  /// translate at once, and a shared cache would be torn between them.
  uint8_t *translate(uint64_t address, uint64_t bytes) {
    LastHit &h = lastHit;
    if (h.epoch == epoch && address - h.base < h.size &&
        bytes <= h.size - (address - h.base))
      return h.data + (address - h.base);
    return translateSlow(address, bytes);
  }

  /// The size of the allocation or mapping that starts at or before
  /// `address` and is nearest to it (0 when none does): for diagnostics that
  /// say how far past a buffer an access went.
  uint64_t sizeOfBlockAtOrBelow(uint64_t address) const {
    auto it = blocks.upper_bound(address);
    return it == blocks.begin() ? 0 : std::prev(it)->second.size;
  }

  /// Which device owns `address` (by window), for diagnostics.
  static unsigned deviceOf(uint64_t address) {
    return unsigned(address / kDeviceWindow) - 1;
  }

private:
  uint8_t *translateSlow(uint64_t address, uint64_t bytes);

  struct Block {
    uint64_t size;
    std::unique_ptr<uint8_t[]> data; // owned memory, or
    uint8_t *external = nullptr;     // memory mapped by mapExternal
    uint8_t *ptr() const { return external ? external : data.get(); }
  };
  /// True when [address, address + bytes) meets an allocation or mapping.
  bool overlaps(uint64_t address, uint64_t bytes) const;
  std::map<uint64_t, Block> blocks;
  std::map<unsigned, uint64_t> nextFree;
  /// Names this Memory and the state of its blocks: unique across every
  /// Memory of the process and renewed whenever a block goes, so that a
  /// thread's cached hit can never point into freed memory or another
  /// Memory.
  uint64_t epoch = newEpoch();
  static uint64_t newEpoch();
  struct LastHit {
    uint64_t epoch = 0, base = 0, size = 0;
    uint8_t *data = nullptr;
  };
  static thread_local LastHit lastHit;
};

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_MEMORY_H
