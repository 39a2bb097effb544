//===- RingComm.cpp - Ranks of a ring in one process -----------------------===//
#include "kernels/ring/RingComm.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstring>
#include <numeric>

using namespace llvm;

namespace kcc::ops {

StringRef ringLinkName(RingLink link) {
  switch (link) {
  case RingLink::Heap:
    return "heap";
  case RingLink::Mpi:
    return "mpi";
  case RingLink::Rccl:
    return "rccl";
  }
  return "?";
}

RingCommunicator::~RingCommunicator() = default;

bool RingCommunicator::isLocal(unsigned rank) const {
  return llvm::is_contained(localRanks(), rank);
}

Error RingCommunicator::exchange(unsigned me, unsigned peer, const void *,
                                 void *, size_t) {
  return createStringError(inconvertibleErrorCode(),
                           "ring_attention: ranks " + Twine(me) + " and " +
                               Twine(peer) +
                               " have no point-to-point transport; this "
                               "communicator only reaches peers through the "
                               "symmetric heap");
}

Expected<SymmetricAllocation> RingCommunicator::workspace(uint64_t bytes) {
  if (workspace_ && workspace_->bytes >= bytes)
    return *workspace_;
  // Grow by half again, so that a sequence of growing calls does not leave
  // one dead allocation per call in the bump-allocated heap.
  uint64_t want = std::max<uint64_t>(bytes, workspace_ ? workspace_->bytes * 3 / 2 : 0);
  Expected<SymmetricAllocation> a = heap().allocate(want, 256);
  if (!a)
    return createStringError(inconvertibleErrorCode(),
                             "ring_attention: cannot allocate its " +
                                 Twine(want) +
                                 "-byte workspace in the symmetric heap: " +
                                 toString(a.takeError()));
  // Flags of a fresh allocation must read 0 (below every epoch); HIP
  // memory is not zeroed on allocation.
  std::vector<uint8_t> zeros(256, 0);
  for (unsigned r : localRanks())
    if (Error e = heap().write(r, *a, zeros.data(), zeros.size()))
      return std::move(e);
  if (Error e = barrier())
    return std::move(e);
  workspace_ = *a;
  return *a;
}

namespace {

class LocalRingCommunicator final : public RingCommunicator {
public:
  explicit LocalRingCommunicator(SymmetricHeap &heap) : heap_(heap) {
    ranks_.resize(heap.world());
    std::iota(ranks_.begin(), ranks_.end(), 0u);
  }
  unsigned world() const override { return heap_.world(); }
  ArrayRef<unsigned> localRanks() const override { return ranks_; }
  SymmetricHeap &heap() const override { return heap_; }
  RingLink link(unsigned, unsigned) const override { return RingLink::Heap; }
  Error allGather(const void *mine, size_t bytes, void *all) override {
    // Every rank is local: the blocks are already in rank order.
    std::memcpy(all, mine, bytes * ranks_.size());
    return Error::success();
  }
  Error barrier() override { return Error::success(); }

private:
  SymmetricHeap &heap_;
  std::vector<unsigned> ranks_;
};

} // namespace

Expected<std::unique_ptr<RingCommunicator>>
createLocalRingCommunicator(SymmetricHeap &heap) {
  if (!heap.allLocal())
    return createStringError(
        inconvertibleErrorCode(),
        "ring_attention: a local communicator needs every rank of the heap "
        "in this process; this heap spans processes (use an MPI "
        "communicator)");
  if (heap.world() < 1)
    return createStringError(inconvertibleErrorCode(),
                             "ring_attention: the heap has no rank");
  return std::make_unique<LocalRingCommunicator>(heap);
}

} // namespace kcc::ops
