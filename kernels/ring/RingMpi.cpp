//===- RingMpi.cpp - A ring of processes over MPI and shared memory --------===//
#include "kernels/ring/RingMpi.h"
#include "target/Error.h"
#include "runtime/Runtime.h"
#include "runtime/SymmetricHeap.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <mpi.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

using namespace llvm;

namespace kcc::ops {

/// What this file's errors name first.
constexpr llvm::StringLiteral kComponent = "ring_attention";
namespace {

Error mpiError(int code, StringRef what) {
  if (code == MPI_SUCCESS)
    return Error::success();
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, text, &len);
  return makeError(kComponent, what + " failed: " + StringRef(text, size_t(len)));
}

/// Parses "0-1,2-3" into pairs; malformed entries are an error.
Error parsePairs(StringRef text, std::vector<std::pair<unsigned, unsigned>> &out) {
  SmallVector<StringRef> items;
  text.split(items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    auto [a, b] = item.trim().split('-');
    unsigned x, y;
    if (a.getAsInteger(10, x) || b.getAsInteger(10, y))
      return makeError(kComponent, "KCC_RING_MPI_PAIRS entry '" + item +
                   "' is not a pair of ranks like 0-1");
    out.push_back({x, y});
  }
  return Error::success();
}

class MpiRingCommunicator final : public RingCommunicator {
public:
  ~MpiRingCommunicator() override {
    heap_.reset(); // unmaps from the emulator before the memory goes
    if (shared_)
      munmap(shared_, sharedBytes_);
    // After MPI_Finalize, MPI has released every communicator already and
    // calling MPI_Comm_free aborts the process (Open MPI); a program whose
    // std::unique_ptr outlives its MPI_Finalize call must not crash at exit.
    // MPI_Finalized is one of the calls allowed at any time.
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (node_ != MPI_COMM_NULL && !finalized)
      MPI_Comm_free(&node_);
  }

  unsigned world() const override { return world_; }
  ArrayRef<unsigned> localRanks() const override { return mine_; }
  SymmetricHeap &heap() const override { return *heap_; }
  RingLink link(unsigned a, unsigned b) const override {
    for (auto [x, y] : forced_)
      if ((x == a && y == b) || (x == b && y == a))
        return RingLink::Mpi;
    if (nodeOf_[a] == nodeOf_[b])
      return RingLink::Heap;
    return crossNode_;
  }
  Error allGather(const void *mine, size_t bytes, void *all) override {
    if (bytes > size_t(INT_MAX))
      return makeError(kComponent, "all-gather of " + Twine(bytes) + " bytes exceeds MPI's int count");
    return mpiError(MPI_Allgather(mine, int(bytes), MPI_BYTE, all, int(bytes),
                                  MPI_BYTE, MPI_COMM_WORLD),
                    "MPI_Allgather");
  }
  Error barrier() override { return mpiError(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }
  Error exchange(unsigned me, unsigned peer, const void *send, void *recv,
                 size_t bytes) override {
    if (link(me, peer) == RingLink::Rccl)
      return makeError(kComponent, "ranks " + Twine(me) + " and " + Twine(peer) +
                   " are linked by RCCL, which moves GPU memory; this build's "
                   "devices are emulated");
    if (bytes > size_t(INT_MAX))
      return makeError(kComponent, "a chunk of " + Twine(bytes) + " bytes exceeds MPI's int count");
    // One tag per direction-free pair and call: both sides post the same.
    return mpiError(MPI_Sendrecv(send, int(bytes), MPI_BYTE, int(peer), 77, recv,
                                 int(bytes), MPI_BYTE, int(peer), 77, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE),
                    "MPI_Sendrecv between ranks " + std::to_string(me) + " and " +
                        std::to_string(peer));
  }

  Error init(Runtime &runtime, const MpiRingOptions &options) {
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited)
      return makeError(kComponent, "MPI is not initialised; call MPI_Init before creating an MPI "
                   "ring communicator");
    int rank = 0, world = 0;
    if (Error e = mpiError(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank"))
      return e;
    if (Error e = mpiError(MPI_Comm_size(MPI_COMM_WORLD, &world), "MPI_Comm_size"))
      return e;
    world_ = unsigned(world);
    mine_ = {unsigned(rank)};
    forced_ = options.forceMpi;
    if (const char *env = std::getenv("KCC_RING_MPI_PAIRS"))
      if (Error e = parsePairs(env, forced_))
        return e;
    for (auto [a, b] : forced_)
      if (a >= world_ || b >= world_ || a == b)
        return makeError(kComponent, "forced MPI pair " + Twine(a) + "-" + Twine(b) +
                     " is not a pair of distinct ranks of a world of " + Twine(world_));

    // Nodes: the processes that can share memory.
    if (Error e = mpiError(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
                                               MPI_INFO_NULL, &node_),
                           "MPI_Comm_split_type"))
      return e;
    int nodeRank = 0;
    MPI_Comm_rank(node_, &nodeRank);
    int leader = rank;
    MPI_Bcast(&leader, 1, MPI_INT, 0, node_);
    std::vector<int> leaders(world_);
    if (Error e = mpiError(MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT,
                                         MPI_COMM_WORLD),
                           "MPI_Allgather"))
      return e;
    nodeOf_.assign(leaders.begin(), leaders.end());

    std::string why;
    bool rccl = rcclAvailable(&why);
    switch (options.crossNode) {
    case RingCrossNode::Mpi:
      crossNode_ = RingLink::Mpi;
      break;
    case RingCrossNode::Rccl:
      if (!rccl)
        return makeError(kComponent, "RCCL was asked for across nodes but cannot be loaded (" + why +
                     "); ROCm's librccl.so is needed, or use MPI");
      crossNode_ = RingLink::Rccl;
      break;
    case RingCrossNode::Auto:
      // RCCL moves GPU memory; emulated devices' chunks go through MPI.
      crossNode_ = RingLink::Mpi;
      break;
    }

    Expected<std::vector<Device *>> devs = runtime.emulatedDevices(options.chip, 1);
    if (!devs)
      return devs.takeError();

    // The node's heaps: one shared segment of world * heap bytes (rank r's
    // part at r * heap bytes), made by the node's first process.
    sharedBytes_ = size_t(world_) * options.heapBytesPerRank;
    char name[64] = {};
    if (nodeRank == 0)
      std::snprintf(name, sizeof(name), "/kcc-ring-%d-%d", int(getpid()), rank);
    MPI_Bcast(name, sizeof(name), MPI_CHAR, 0, node_);
    int fd = -1, err = 0;
    if (nodeRank == 0) {
      fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
      if (fd < 0 || ftruncate(fd, off_t(sharedBytes_)) != 0)
        err = errno ? errno : EIO;
    }
    MPI_Bcast(&err, 1, MPI_INT, 0, node_);
    if (err)
      return makeError(kComponent, "cannot create the shared heap '" + StringRef(name) +
                   "': " + std::strerror(err));
    if (nodeRank != 0) {
      fd = shm_open(name, O_RDWR, 0600);
      if (fd < 0)
        err = errno;
    }
    int anyErr = 0;
    MPI_Allreduce(&err, &anyErr, 1, MPI_INT, MPI_MAX, node_);
    if (anyErr)
      return makeError(kComponent, "cannot open the shared heap '" + StringRef(name) +
                   "' on every process of the node: " + std::strerror(anyErr));
    void *p = mmap(nullptr, sharedBytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
      err = errno;
    MPI_Allreduce(&err, &anyErr, 1, MPI_INT, MPI_MAX, node_);
    // Every process has it mapped (or failed): the name can go.
    if (nodeRank == 0)
      shm_unlink(name);
    if (anyErr) {
      if (p != MAP_FAILED)
        munmap(p, sharedBytes_);
      return makeError(kComponent, "cannot map the shared heap on every process of the node: " +
                   Twine(std::strerror(anyErr)));
    }
    shared_ = p;
    Expected<std::unique_ptr<SymmetricHeap>> heap = SymmetricHeap::createEmulatedRank(
        *(*devs)[0], unsigned(rank), world_, options.heapBytesPerRank, shared_);
    if (!heap)
      return heap.takeError();
    heap_ = std::move(*heap);
    return barrier();
  }

private:
  unsigned world_ = 0;
  std::vector<unsigned> mine_;
  std::vector<int> nodeOf_;
  std::vector<std::pair<unsigned, unsigned>> forced_;
  RingLink crossNode_ = RingLink::Mpi;
  MPI_Comm node_ = MPI_COMM_NULL;
  void *shared_ = nullptr;
  size_t sharedBytes_ = 0;
  std::unique_ptr<SymmetricHeap> heap_;
};

} // namespace

bool rcclAvailable(std::string *why) {
  // ROCm installs librccl.so in $ROCM_PATH/lib (default /opt/rocm/lib);
  // the plain name also finds it through the loader's path.
  std::string rocm = std::getenv("ROCM_PATH") ? std::getenv("ROCM_PATH") : "/opt/rocm";
  std::string tried;
  for (std::string lib : {rocm + "/lib/librccl.so", std::string("librccl.so")}) {
    if (void *h = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      // Only probing: the exchange itself is MPI unless devices are GPUs.
      dlclose(h);
      return true;
    }
    const char *e = dlerror();
    tried += (tried.empty() ? "" : "; ") + std::string(e ? e : lib + ": not found");
  }
  if (why)
    *why = tried;
  return false;
}

Expected<std::unique_ptr<RingCommunicator>>
createMpiRingCommunicator(Runtime &runtime, const MpiRingOptions &options) {
  auto comm = std::make_unique<MpiRingCommunicator>();
  if (Error e = comm->init(runtime, options))
    return std::move(e);
  return std::unique_ptr<RingCommunicator>(std::move(comm));
}

} // namespace kcc::ops
