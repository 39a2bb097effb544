//===- SymmetricHeap.cpp - One heap per rank, same offsets everywhere -----===//
#include "runtime/SymmetricHeap.h"
#include "target/Error.h"
#include "target/CodeObject.h"
#include "runtime/Runtime.h"
#include "runtime/hip/HipLibrary.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <chrono>
#include <cstring>
#include <dlfcn.h>
#include <thread>

using namespace llvm;

namespace kcc {

/// What this file's errors name first.
constexpr llvm::StringLiteral kComponent = "symmetric heap";
namespace {

//===----------------------------------------------------------------------===//
// HIP peer access and IPC
//===----------------------------------------------------------------------===//

/// The HIP entry points the heap needs beyond those of HipLibrary. They come
/// from the libamdhip64 the Runtime already loaded (dlopen RTLD_NOLOAD of
/// the same search path), so the heap never loads a second HIP runtime.
struct HipPeerApi {
  using hipError_t = int;
  struct IpcMemHandle {
    char reserved[64];
  };
  hipError_t (*hipSetDevice)(int);
  hipError_t (*hipDeviceCanAccessPeer)(int *, int, int);
  hipError_t (*hipDeviceEnablePeerAccess)(int, unsigned);
  hipError_t (*hipIpcGetMemHandle)(IpcMemHandle *, void *);
  hipError_t (*hipIpcOpenMemHandle)(void **, IpcMemHandle, unsigned);
  hipError_t (*hipIpcCloseMemHandle)(void *);
  hipError_t (*hipGetLastError)();
  const char *(*hipGetErrorString)(hipError_t);
  // hip_runtime_api.h values.
  static constexpr hipError_t kPeerAccessAlreadyEnabled = 704;
  static constexpr unsigned kIpcMemLazyEnablePeerAccess = 1;

  Error check(hipError_t e, const Twine &call) const {
    if (e == 0)
      return Error::success();
    return makeError(kComponent, call + " failed: " + hipGetErrorString(e) + " (" + Twine(e) + ")");
  }

  static Expected<const HipPeerApi &> get() {
    static HipPeerApi api;
    static std::string failure = [] {
      void *handle = nullptr;
      for (const std::string &path : hip::HipLibrary::searchPaths())
        if ((handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD)))
          break;
      if (!handle)
        return std::string("the HIP runtime is not loaded (a Runtime with "
                           "HIP devices loads it)");
      std::string missing;
      auto resolve = [&](auto &fn, const char *name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, name));
        if (!fn)
          missing += std::string(missing.empty() ? "" : ", ") + name;
      };
      resolve(api.hipSetDevice, "hipSetDevice");
      resolve(api.hipDeviceCanAccessPeer, "hipDeviceCanAccessPeer");
      resolve(api.hipDeviceEnablePeerAccess, "hipDeviceEnablePeerAccess");
      resolve(api.hipIpcGetMemHandle, "hipIpcGetMemHandle");
      resolve(api.hipIpcOpenMemHandle, "hipIpcOpenMemHandle");
      resolve(api.hipIpcCloseMemHandle, "hipIpcCloseMemHandle");
      resolve(api.hipGetLastError, "hipGetLastError");
      resolve(api.hipGetErrorString, "hipGetErrorString");
      return missing.empty() ? std::string()
                             : "the HIP runtime lacks " + missing;
    }();
    if (!failure.empty())
      return makeError(kComponent, failure);
    return api;
  }
};

/// The HIP device index of a "hip:N" device.
Expected<int> hipIndex(const Device &d) {
  int index;
  if (d.kind() != DeviceKind::Hip ||
      StringRef(d.spec()).drop_front(4).getAsInteger(10, index))
    return makeError(kComponent, d.spec() + " is not a HIP device");
  return index;
}

} // namespace

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<SymmetricHeap>>
SymmetricHeap::create(Runtime &runtime, ArrayRef<Device *> devices,
                      uint64_t bytesPerRank) {
  if (devices.empty())
    return makeError(kComponent, "no devices; a heap needs at least one rank");
  if (bytesPerRank == 0)
    return makeError(kComponent, "a heap of 0 bytes per rank holds nothing");
  for (size_t i = 0; i < devices.size(); ++i) {
    if (!devices[i])
      return makeError(kComponent, "rank " + Twine(i) + " has no device");
    if (devices[i]->kind() != devices[0]->kind() ||
        devices[i]->chip() != devices[0]->chip())
      return makeError(kComponent, "rank " + Twine(i) + " is " + devices[i]->spec() +
                   " but rank 0 is " + devices[0]->spec() +
                   "; all ranks must be devices of one kind and chip");
    for (size_t j = 0; j < i; ++j)
      if (devices[j] == devices[i])
        return makeError(kComponent, "ranks " + Twine(j) + " and " + Twine(i) +
                     " are both " + devices[i]->spec() +
                     "; each rank needs its own device");
  }
  std::unique_ptr<SymmetricHeap> heap(new SymmetricHeap());
  heap->bytes_ = bytesPerRank;
  heap->ranks_.resize(devices.size());
  for (size_t r = 0; r < devices.size(); ++r) {
    Rank &rank = heap->ranks_[r];
    rank.device = devices[r];
    Expected<uint64_t> base = devices[r]->allocate(bytesPerRank);
    if (!base)
      return makeError(kComponent, "cannot allocate " + Twine(bytesPerRank) + " bytes on " +
                   devices[r]->spec() + " (rank " + Twine(r) +
                   "): " + toString(base.takeError()));
    rank.base = *base;
    rank.owned = true;
    // A fresh heap reads as zero on every backend: flags start unset.
    if (Error e = devices[r]->memset(*base, 0, bytesPerRank))
      return std::move(e);
  }
  if (devices[0]->kind() == DeviceKind::Hip && devices.size() > 1) {
    // One process, one virtual address space: once device i may access
    // device j's memory, j's heap address is valid in i's kernels.
    Expected<const HipPeerApi &> api = HipPeerApi::get();
    if (!api)
      return api.takeError();
    for (size_t i = 0; i < devices.size(); ++i) {
      Expected<int> di = hipIndex(*devices[i]);
      if (!di)
        return di.takeError();
      if (Error e = api->check(api->hipSetDevice(*di), "hipSetDevice"))
        return std::move(e);
      for (size_t j = 0; j < devices.size(); ++j) {
        if (i == j)
          continue;
        Expected<int> dj = hipIndex(*devices[j]);
        if (!dj)
          return dj.takeError();
        int can = 0;
        if (Error e = api->check(api->hipDeviceCanAccessPeer(&can, *di, *dj),
                                 "hipDeviceCanAccessPeer"))
          return std::move(e);
        if (!can)
          return makeError(kComponent, devices[i]->spec() + " cannot access the memory of " +
                       devices[j]->spec() +
                       " (hipDeviceCanAccessPeer); the GPUs need a peer link "
                       "(xGMI) for a symmetric heap in one process");
        int rc = api->hipDeviceEnablePeerAccess(*dj, 0);
        if (rc == HipPeerApi::kPeerAccessAlreadyEnabled)
          (void)api->hipGetLastError(); // not an error: clear the sticky code
        else if (Error e = api->check(rc, "hipDeviceEnablePeerAccess(" +
                                              Twine(*dj) + ") on device " +
                                              Twine(*di)))
          return std::move(e);
      }
    }
  }
  if (Error e = heap->writeTables())
    return std::move(e);
  return std::move(heap);
}

Expected<std::unique_ptr<SymmetricHeap>>
SymmetricHeap::createRank(Device &device, unsigned rank, unsigned world,
                          uint64_t bytesPerRank) {
  if (device.kind() != DeviceKind::Hip)
    return makeError(kComponent, "a heap across processes needs HIP devices; " + device.spec() +
                 " is emulated (emulated ranks live in one process: use "
                 "create() with Runtime::emulatedDevices)");
  if (world == 0 || rank >= world)
    return makeError(kComponent, "rank " + Twine(rank) + " is not a rank of a world of " +
                 Twine(world));
  if (bytesPerRank == 0)
    return makeError(kComponent, "a heap of 0 bytes per rank holds nothing");
  std::unique_ptr<SymmetricHeap> heap(new SymmetricHeap());
  heap->bytes_ = bytesPerRank;
  heap->multiProcessRank_ = int(rank);
  heap->ranks_.resize(world);
  Rank &me = heap->ranks_[rank];
  me.device = &device;
  Expected<uint64_t> base = device.allocate(bytesPerRank);
  if (!base)
    return base.takeError();
  me.base = *base;
  me.owned = true;
  if (Error e = device.memset(*base, 0, bytesPerRank))
    return std::move(e);
  return std::move(heap);
}

Expected<std::unique_ptr<SymmetricHeap>>
SymmetricHeap::createEmulatedRank(Device &device, unsigned rank, unsigned world,
                                  uint64_t bytesPerRank, void *sharedMemory) {
  if (device.kind() != DeviceKind::Emu)
    return makeError(kComponent, "createEmulatedRank needs an emulated device; " + device.spec() +
                 " is a GPU (use createRank and IPC handles)");
  if (world == 0 || rank >= world)
    return makeError(kComponent, "rank " + Twine(rank) + " is not a rank of a world of " +
                 Twine(world));
  if (bytesPerRank == 0)
    return makeError(kComponent, "a heap of 0 bytes per rank holds nothing");
  if (!sharedMemory)
    return makeError(kComponent, "createEmulatedRank needs the shared memory of every rank's heap");
  std::unique_ptr<SymmetricHeap> heap(new SymmetricHeap());
  heap->bytes_ = bytesPerRank;
  heap->multiProcessRank_ = int(rank);
  heap->ranks_.resize(world);
  heap->mappingDevice_ = &device;
  // Each rank's heap at the same device address in every process.
  for (unsigned r = 0; r < world; ++r) {
    Rank &rk = heap->ranks_[r];
    Expected<uint64_t> base = device.mapSharedHostMemory(
        r, bytesPerRank, static_cast<uint8_t *>(sharedMemory) + r * bytesPerRank,
        bytesPerRank);
    if (!base)
      return base.takeError();
    rk.base = *base;
    rk.emuMapped = true;
  }
  heap->ranks_[rank].device = &device;
  if (Error e = heap->writeTables())
    return std::move(e);
  return std::move(heap);
}

Expected<IpcHandle> SymmetricHeap::ipcHandle() const {
  if (allLocal())
    return makeError(kComponent, "ipcHandle() is for heaps across processes (createRank)");
  const Rank &me = ranks_[multiProcessRank_];
  Expected<const HipPeerApi &> api = HipPeerApi::get();
  if (!api)
    return api.takeError();
  Expected<int> index = hipIndex(*me.device);
  if (!index)
    return index.takeError();
  if (Error e = api->check(api->hipSetDevice(*index), "hipSetDevice"))
    return std::move(e);
  HipPeerApi::IpcMemHandle h;
  // The heap is one hipMalloc allocation, as hipIpcGetMemHandle requires.
  if (Error e = api->check(api->hipIpcGetMemHandle(&h, reinterpret_cast<void *>(me.base)),
                           "hipIpcGetMemHandle"))
    return std::move(e);
  IpcHandle out;
  std::memcpy(out.data(), h.reserved, out.size());
  return out;
}

Error SymmetricHeap::openPeers(ArrayRef<IpcHandle> handles) {
  if (allLocal())
    return makeError(kComponent, "openPeers() is for heaps across processes (createRank)");
  if (handles.size() != ranks_.size())
    return makeError(kComponent, "openPeers got " + Twine(handles.size()) +
                 " handles for a world of " + Twine(ranks_.size()));
  Expected<const HipPeerApi &> api = HipPeerApi::get();
  if (!api)
    return api.takeError();
  Rank &me = ranks_[multiProcessRank_];
  Expected<int> index = hipIndex(*me.device);
  if (!index)
    return index.takeError();
  if (Error e = api->check(api->hipSetDevice(*index), "hipSetDevice"))
    return e;
  for (size_t r = 0; r < ranks_.size(); ++r) {
    if (int(r) == multiProcessRank_ || ranks_[r].ipcOpened)
      continue;
    HipPeerApi::IpcMemHandle h;
    std::memcpy(h.reserved, handles[r].data(), sizeof(h.reserved));
    void *ptr = nullptr;
    if (Error e = api->check(api->hipIpcOpenMemHandle(
                                 &ptr, h, HipPeerApi::kIpcMemLazyEnablePeerAccess),
                             "hipIpcOpenMemHandle of rank " + Twine(r)))
      return e;
    ranks_[r].base = reinterpret_cast<uint64_t>(ptr);
    ranks_[r].ipcOpened = true;
  }
  return writeTables();
}

SymmetricHeap::~SymmetricHeap() {
  for (Rank &r : ranks_) {
    r.table.reset();
    if (r.owned)
      consumeError(r.device->free(r.base));
    if (r.emuMapped)
      consumeError(mappingDevice_->unmapSharedHostMemory(r.base));
    if (r.ipcOpened) {
      if (Expected<const HipPeerApi &> api = HipPeerApi::get())
        (void)api->hipIpcCloseMemHandle(reinterpret_cast<void *>(r.base));
      else
        consumeError(api.takeError());
    }
  }
}

Error SymmetricHeap::writeTables() {
  std::vector<int64_t> bases;
  for (const Rank &r : ranks_)
    bases.push_back(int64_t(r.base));
  for (Rank &r : ranks_) {
    if (!r.device)
      continue;
    Expected<Buffer> table = Buffer::fromHost(*r.device, bases);
    if (!table)
      return table.takeError();
    r.table.emplace(std::move(*table));
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Access
//===----------------------------------------------------------------------===//

Device &SymmetricHeap::device(unsigned rank) const {
  assert(rank < ranks_.size() && ranks_[rank].device &&
         "rank of another process");
  return *ranks_[rank].device;
}

const Buffer &SymmetricHeap::basesTable(unsigned rank) const {
  assert(rank < ranks_.size() && ranks_[rank].table && "no table on this rank");
  return *ranks_[rank].table;
}

Expected<SymmetricAllocation> SymmetricHeap::allocate(uint64_t bytes,
                                                      uint64_t alignment) {
  if (!alignment || (alignment & (alignment - 1)))
    return makeError(kComponent, "alignment " + Twine(alignment) + " is not a power of two");
  uint64_t offset = (used_ + alignment - 1) & ~(alignment - 1);
  if (offset > bytes_ || bytes > bytes_ - offset)
    return makeError(kComponent, "cannot allocate " + Twine(bytes) + " bytes: " +
                 Twine(used_) + " of " + Twine(bytes_) +
                 " bytes per rank are in use");
  used_ = offset + bytes;
  return SymmetricAllocation{offset, bytes};
}

Error SymmetricHeap::checkRange(unsigned rank, const SymmetricAllocation &a,
                                uint64_t bytes, uint64_t offset) const {
  if (rank >= ranks_.size() || !ranks_[rank].device)
    return makeError(kComponent, "rank " + Twine(rank) + " is not a rank of this process");
  if (offset > a.bytes || bytes > a.bytes - offset)
    return makeError(kComponent, "range [" + Twine(offset) + ", +" + Twine(bytes) +
                 ") is outside the allocation of " + Twine(a.bytes) + " bytes");
  return Error::success();
}

Error SymmetricHeap::write(unsigned rank, const SymmetricAllocation &a,
                           const void *src, uint64_t bytes, uint64_t offset) {
  if (Error e = checkRange(rank, a, bytes, offset))
    return e;
  return ranks_[rank].device->copyToDevice(address(rank, a, offset), src, bytes);
}

Error SymmetricHeap::read(unsigned rank, const SymmetricAllocation &a,
                          void *dst, uint64_t bytes, uint64_t offset) const {
  if (Error e = checkRange(rank, a, bytes, offset))
    return e;
  return ranks_[rank].device->copyFromDevice(dst, address(rank, a, offset), bytes);
}

Error SymmetricHeap::fill(const SymmetricAllocation &a, uint8_t value) {
  for (size_t r = 0; r < ranks_.size(); ++r)
    if (ranks_[r].device)
      if (Error e = ranks_[r].device->memset(address(r, a), value, a.bytes))
        return e;
  return Error::success();
}

unsigned SymmetricHeap::computeUnits(unsigned rank) const {
  return device(rank).computeUnits();
}

//===----------------------------------------------------------------------===//
// Launch on all ranks
//===----------------------------------------------------------------------===//

Expected<std::vector<LaunchResult>>
SymmetricHeap::launchAll(ArrayRef<RankLaunch> launches,
                         const RankLaunchOptions &options) const {
  if (!allLocal())
    return makeError(kComponent, "launchAll needs every rank in this process; a rank of a "
                 "heap across processes launches its own kernel");
  if (launches.size() != ranks_.size())
    return makeError(kComponent, "launchAll got " + Twine(launches.size()) +
                 " launches for " + Twine(ranks_.size()) + " ranks");
  std::vector<Device::GroupMember> members;
  for (size_t r = 0; r < launches.size(); ++r) {
    const RankLaunch &l = launches[r];
    if (!l.kernel)
      return makeError(kComponent, "rank " + Twine(r) + " has no kernel");
    if (&l.kernel->device() != ranks_[r].device)
      return makeError(kComponent, "rank " + Twine(r) + "'s kernel is loaded on " +
                   l.kernel->device().spec() + ", not on the rank's " +
                   ranks_[r].device->spec());
    if (Error e = l.kernel->checkConfig(l.config))
      return std::move(e);
    Expected<std::vector<uint8_t>> k = l.kernel->packArguments(l.args);
    if (!k)
      return k.takeError();
    Device::GroupMember m;
    m.device = ranks_[r].device;
    m.code = &l.kernel->loadedCode();
    m.kernel = &l.kernel->info();
    m.config = l.config;
    m.config.check.enabled = m.config.check.enabled || options.check;
    if (options.check)
      m.config.check.seed = options.checkSeed;
    m.kernarg = std::move(*k);
    members.push_back(std::move(m));
  }

  auto start = std::chrono::steady_clock::now();
  Expected<std::vector<LaunchResult>> group =
      ranks_[0].device->launchGroup(members, options.trace);
  if (!group)
    return group.takeError();
  std::vector<LaunchResult> results = std::move(*group);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start).count();
  for (LaunchResult &r : results)
    r.hostSeconds = seconds;
  return results;
}

} // namespace kcc
