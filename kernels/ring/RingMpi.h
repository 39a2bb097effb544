//===- RingMpi.h - A ring of processes: MPI, shared-memory heap, RCCL -*- C++ -*-===//
//
// One rank per process under mpirun (Open MPI), each process owning its
// device. Ranks on the same node share a symmetric heap in POSIX shared
// memory, mapped into every process's emulator at the same address
// (SymmetricHeap::createEmulatedRank: the emulator's model of HIP IPC), so
// chunks between them move by peer reads released by flags, exactly as in
// one process. Ranks on different nodes - or pairs forced onto the
// point-to-point path for testing - exchange chunks with MPI_Sendrecv, or
// with RCCL where ROCm is present (librccl.so loaded by dlopen). One
// function, link(a, b), chooses per pair; ring_attention follows it.
//
// Built only when CMake finds MPI (KCC_HAVE_MPI).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_KERNELS_RING_RINGMPI_H
#define KCC_KERNELS_RING_RINGMPI_H

#include "target/Target.h"
#include "kernels/ring/RingComm.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kcc {
class Runtime;
namespace ops {

/// How pairs of ranks on different nodes exchange chunks.
enum class RingCrossNode {
  /// RCCL when librccl.so loads and the devices are GPUs, else MPI.
  Auto,
  Mpi,
  /// RCCL or an error saying why it cannot be used.
  Rccl,
};

struct MpiRingOptions {
  /// The chip of this process's emulated device (when no GPU is used).
  Chip chip = Chip::gfx942;
  uint64_t heapBytesPerRank = 64ull << 20;
  /// Pairs of ranks that use MPI point-to-point even on one node, to run the
  /// cross-node path on one machine; $KCC_RING_MPI_PAIRS ("0-1,2-3") adds
  /// to them.
  std::vector<std::pair<unsigned, unsigned>> forceMpi;
  RingCrossNode crossNode = RingCrossNode::Auto;
};

/// Whether RCCL can be loaded here; the message says which library was
/// tried and why it failed ("librccl.so: cannot open shared object file").
bool rcclAvailable(std::string *why = nullptr);

/// This process's rank of MPI_COMM_WORLD as a ring rank (MPI must be
/// initialised). Collective over MPI_COMM_WORLD. The communicator may be
/// destroyed before or after MPI_Finalize: after it, its MPI resources are
/// already gone with MPI and only its memory is released (the shared heap,
/// the device mapping), so a std::unique_ptr that outlives main's
/// MPI_Finalize call is fine. Every ring_attention call must still come
/// before MPI_Finalize.
llvm::Expected<std::unique_ptr<RingCommunicator>>
createMpiRingCommunicator(Runtime &runtime, const MpiRingOptions &options = {});

} // namespace ops
} // namespace kcc

#endif // KCC_KERNELS_RING_RINGMPI_H
