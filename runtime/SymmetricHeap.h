//===- SymmetricHeap.h - One heap per rank, same offsets everywhere -*- C++ -*-===//
//
// Multi-GPU kernels address a peer's memory by offset: every rank (device)
// has a heap of the same size, and an allocation lives at the same offset in
// every rank's heap. A kernel turns its local pointer into rank p's with the
// table of heap base addresses (`tile.peer_ptr %ptr, %bases, %me, %p`: ptr -
// bases[me] + bases[p]); the heap puts that table (one i64 per rank) on every
// device, in device memory, for kernels to take as an argument.
//
// Where the ranks live:
//  * emulated devices of one process (Runtime::emulatedDevices): they share
//    the emulator's address space, so every heap is directly addressable
//    from every device and the table holds the heaps' own addresses;
//  * HIP devices of one process: the heaps are hipMalloc'd on each device and
//    every device is given access to every other (hipDeviceEnablePeerAccess),
//    so again the table holds the heaps' own addresses (one virtual address
//    space per process);
//  * HIP devices in several processes (one rank each): each process creates
//    its rank with createRank(), exports its heap with ipcHandle()
//    (hipIpcGetMemHandle), sends the 64-byte handle to every other rank by
//    whatever bootstrap it has (MPI_Allgather of 64 bytes, a file, a socket
//    - the heap does not care), and gives the handles of all ranks to
//    openPeers() (hipIpcOpenMemHandle), which maps the peers' heaps into this
//    process and writes the table. Peer mappings are at this process's
//    addresses, which differ per process: the table is per rank.
//
// Launching one kernel on all ranks at once (launchAll) goes through the
// emulator's launchConcurrent for emulated devices - their waves interleave,
// as kernels that wait on each other need - and through one host thread per
// device for HIP devices of one process.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_SYMMETRICHEAP_H
#define KCC_RUNTIME_SYMMETRICHEAP_H

#include "runtime/LaunchTrace.h"
#include "runtime/Buffer.h"
#include "runtime/Kernel.h"
#include "runtime/Launch.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace kcc {

class Runtime;

/// An allocation of a symmetric heap: the same offset and size on every rank.
struct SymmetricAllocation {
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

/// hipIpcMemHandle_t: 64 opaque bytes that name a device allocation to
/// another process.
using IpcHandle = std::array<uint8_t, 64>;

/// Options of a launch on all ranks.
struct RankLaunchOptions {
  /// Emulated devices: run under check mode (races, unwaited results, ...);
  /// a launch with findings fails with the emulator's CheckError.
  bool check = false;
  uint64_t checkSeed = 1;
  /// Sees every instruction of every rank (not owned). Emulated devices
  /// only: a launch on GPUs with a trace is refused.
  LaunchTrace *trace = nullptr;
};

/// One rank's launch of launchAll().
struct RankLaunch {
  const Kernel *kernel = nullptr; // loaded on the rank's device
  LaunchConfig config;
  std::vector<KernelArgValue> args;
};

class SymmetricHeap {
public:
  /// A heap of `bytesPerRank` on each device of this process (all emulated,
  /// or all HIP; all of one chip), devices of `runtime`. Rank r is
  /// devices[r]. The runtime must outlive the heap.
  static llvm::Expected<std::unique_ptr<SymmetricHeap>>
  create(Runtime &runtime, llvm::ArrayRef<Device *> devices,
         uint64_t bytesPerRank);

  /// Rank `rank` of `world`, this process's share of a heap spread over
  /// processes (HIP only): allocates the local heap; the table is written by
  /// openPeers().
  static llvm::Expected<std::unique_ptr<SymmetricHeap>>
  createRank(Device &device, unsigned rank, unsigned world,
             uint64_t bytesPerRank);
  /// Rank `rank` of `world` on an emulated device, one rank per process of
  /// one machine - the emulator's model of the inter-process path (HIP IPC)
  /// of real GPUs. `sharedMemory` is host memory every process maps (POSIX
  /// shared memory of world * bytesPerRank bytes, zeroed by its creator;
  /// rank r's heap is the r-th part). Each process maps every part into its
  /// emulator at the same address (Device::mapSharedHostMemory with slot r:
  /// bytesPerRank rounded to 64 KiB), so the base table is the same in every
  /// process and kernels reach peers' heaps as on GPUs. The shared memory
  /// must outlive the heap.
  static llvm::Expected<std::unique_ptr<SymmetricHeap>>
  createEmulatedRank(Device &device, unsigned rank, unsigned world,
                     uint64_t bytesPerRank, void *sharedMemory);
  /// The handle other processes open this rank's heap with.
  llvm::Expected<IpcHandle> ipcHandle() const;
  /// Maps every other rank's heap (handles[r] from rank r's ipcHandle();
  /// this rank's own entry is ignored) and writes the base table.
  llvm::Error openPeers(llvm::ArrayRef<IpcHandle> handles);

  ~SymmetricHeap();
  SymmetricHeap(const SymmetricHeap &) = delete;
  SymmetricHeap &operator=(const SymmetricHeap &) = delete;

  unsigned world() const { return unsigned(ranks_.size()); }
  /// True when every rank's device belongs to this process.
  bool allLocal() const { return multiProcessRank_ < 0; }
  /// True when `rank`'s device belongs to this process.
  bool isLocal(unsigned rank) const {
    return rank < ranks_.size() && ranks_[rank].device;
  }
  /// The first rank of this process.
  unsigned firstLocalRank() const {
    return multiProcessRank_ < 0 ? 0 : unsigned(multiProcessRank_);
  }
  /// The device of `rank` (a rank of this process).
  Device &device(unsigned rank) const;
  uint64_t bytesPerRank() const { return bytes_; }
  /// The heap's base address on `rank`, as this process addresses it.
  uint64_t base(unsigned rank) const { return ranks_[rank].base; }
  /// The device buffer of `world` i64 heap bases on `rank`'s device, for
  /// kernels (the `bases` of tile.peer_ptr).
  const Buffer &basesTable(unsigned rank) const;

  /// Reserves `bytes` (aligned to `alignment`, a power of two) at the same
  /// offset on every rank. Allocations live as long as the heap (a bump
  /// allocator: multi-GPU workspaces are made once and reused).
  llvm::Expected<SymmetricAllocation> allocate(uint64_t bytes,
                                               uint64_t alignment = 256);
  uint64_t bytesUsed() const { return used_; }
  /// The address of `a` (plus `offset`) on `rank`.
  uint64_t address(unsigned rank, const SymmetricAllocation &a,
                   uint64_t offset = 0) const {
    return ranks_[rank].base + a.offset + offset;
  }
  DevicePointer pointer(unsigned rank, const SymmetricAllocation &a) const {
    return DevicePointer{address(rank, a)};
  }

  /// Host <-> device copies into one rank's part of an allocation.
  llvm::Error write(unsigned rank, const SymmetricAllocation &a,
                    const void *src, uint64_t bytes, uint64_t offset = 0);
  llvm::Error read(unsigned rank, const SymmetricAllocation &a, void *dst,
                   uint64_t bytes, uint64_t offset = 0) const;
  llvm::Error fill(const SymmetricAllocation &a, uint8_t value);

  /// Runs launches[r] on rank r's device, all at the same time, and waits for
  /// all of them. Each kernel's arguments and geometry are checked first.
  /// Emulated: one concurrent launch of the emulator (a check-mode finding
  /// comes back as the emulator's CheckError, unwrapped); HIP: one thread per
  /// device.
  llvm::Expected<std::vector<LaunchResult>>
  launchAll(llvm::ArrayRef<RankLaunch> launches,
            const RankLaunchOptions &options = {}) const;

  /// Compute units a launch on `rank` may occupy: the emulator's residency
  /// (Device::computeUnits(): the emulated device's, or the chip's on a GPU).
  /// Persistent kernels size their grid from this and their occupancy.
  unsigned computeUnits(unsigned rank) const;

private:
  struct Rank {
    Device *device = nullptr; // nullptr: a rank of another process
    uint64_t base = 0;        // as this process addresses it
    bool owned = false;       // allocated here (freed by the destructor)
    bool ipcOpened = false;   // mapped by hipIpcOpenMemHandle
    bool emuMapped = false;   // mapped into the emulator (createEmulatedRank)
    std::optional<Buffer> table;
  };
  SymmetricHeap() = default;
  llvm::Error writeTables();
  llvm::Error checkRange(unsigned rank, const SymmetricAllocation &a,
                         uint64_t bytes, uint64_t offset) const;

  std::vector<Rank> ranks_;
  Device *mappingDevice_ = nullptr; // createEmulatedRank: the emulator it mapped into
  uint64_t bytes_ = 0;
  uint64_t used_ = 0;
  int multiProcessRank_ = -1; // this process's rank, or -1: all local
};

} // namespace kcc

#endif // KCC_RUNTIME_SYMMETRICHEAP_H
