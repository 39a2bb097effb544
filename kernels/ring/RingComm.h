//===- RingComm.h - The ranks of a ring and how chunks move between them -*- C++ -*-===//
//
// ring_attention is collective: every rank takes part, and this process
// drives some of them (all of them when every device is in this process, one
// when each process owns one device under mpirun). A RingCommunicator says
// which, gives the symmetric heap the ranks publish their K/V chunks in, and
// chooses per pair of ranks how a chunk travels:
//  * Heap: the reader's kernels read the owner's heap directly (peer access:
//    devices of one process, or processes of one node whose heaps are
//    mapped into each other, the inter-process path of real GPUs);
//  * Mpi: the owners exchange the chunk with MPI point-to-point (across
//    nodes; RingMpi.h);
//  * Rccl: the same exchange through RCCL (librccl.so by dlopen, where ROCm
//    is present).
// It also carries the small amount of host-side agreement a collective needs
// (an all-gather of shape descriptors, a barrier) and the epoch counter that
// the per-chunk flags use: flags only grow (`ge` waits), so they are never
// reset between calls.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_KERNELS_RING_RINGCOMM_H
#define KCC_KERNELS_RING_RINGCOMM_H

#include "runtime/SymmetricHeap.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace kcc::ops {

enum class RingLink { Heap, Mpi, Rccl };
/// "heap", "mpi", "rccl".
llvm::StringRef ringLinkName(RingLink link);

class RingCommunicator {
public:
  virtual ~RingCommunicator();

  virtual unsigned world() const = 0;
  /// The ranks this process drives, ascending.
  virtual llvm::ArrayRef<unsigned> localRanks() const = 0;
  bool isLocal(unsigned rank) const;
  /// The heap every rank publishes its chunks in (rank r's part on rank r's
  /// device).
  virtual SymmetricHeap &heap() const = 0;
  /// The device of a local rank.
  Device &device(unsigned rank) const { return heap().device(rank); }
  /// How chunks travel between ranks a and b (symmetric).
  virtual RingLink link(unsigned a, unsigned b) const = 0;

  /// Every rank contributes `bytes` (`mine` holds one block per local rank,
  /// in localRanks() order); `all` receives world() blocks in rank order.
  virtual llvm::Error allGather(const void *mine, size_t bytes, void *all) = 0;
  /// Returns when every rank has reached it.
  virtual llvm::Error barrier() = 0;
  /// For links other than Heap: local rank `me` sends `bytes` at `send` to
  /// `peer` and receives as many from it into `recv`; both call it at the
  /// same step of the schedule.
  virtual llvm::Error exchange(unsigned me, unsigned peer, const void *send,
                               void *recv, size_t bytes);

  /// The flag value of the next collective call (1, 2, ...).
  uint32_t nextEpoch() { return ++epoch_; }
  /// A heap allocation of at least `bytes` on every rank, reused by later
  /// calls (the heap is a bump allocator); its first 256 bytes are flag
  /// words, zeroed when it is made. Collective.
  llvm::Expected<SymmetricAllocation> workspace(uint64_t bytes);

protected:
  RingCommunicator() = default;

private:
  uint32_t epoch_ = 0;
  std::optional<SymmetricAllocation> workspace_;
};

/// Every rank of `heap` in this process (heap.allLocal()); all links Heap.
llvm::Expected<std::unique_ptr<RingCommunicator>>
createLocalRingCommunicator(SymmetricHeap &heap);

} // namespace kcc::ops

#endif // KCC_KERNELS_RING_RINGCOMM_H
