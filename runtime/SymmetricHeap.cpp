//===- SymmetricHeap.cpp - One heap per rank, same offsets everywhere -----===//
#include "runtime/SymmetricHeap.h"
#include "target/CodeObject.h"
#include "runtime/EmuDevice.h"
#include "runtime/Runtime.h"
#include "runtime/hip/HipLibrary.h"
#include "runtime/emu/Emulator.h"
#include "runtime/emu/Observer.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <chrono>
#include <cstring>
#include <dlfcn.h>
#include <thread>

using namespace llvm;

namespace kcc {
namespace {

Error error(const Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           "symmetric heap: " + message);
}

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
    return error(call + " failed: " + hipGetErrorString(e) + " (" + Twine(e) + ")");
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
      return error(failure);
    return api;
  }
};

/// The HIP device index of a "hip:N" device.
Expected<int> hipIndex(const Device &d) {
  int index;
  if (d.kind() != DeviceKind::Hip ||
      StringRef(d.spec()).drop_front(4).getAsInteger(10, index))
    return error(d.spec() + " is not a HIP device");
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
    return error("no devices; a heap needs at least one rank");
  if (bytesPerRank == 0)
    return error("a heap of 0 bytes per rank holds nothing");
  for (size_t i = 0; i < devices.size(); ++i) {
    if (!devices[i])
      return error("rank " + Twine(i) + " has no device");
    if (devices[i]->kind() != devices[0]->kind() ||
        devices[i]->chip() != devices[0]->chip())
      return error("rank " + Twine(i) + " is " + devices[i]->spec() +
                   " but rank 0 is " + devices[0]->spec() +
                   "; all ranks must be devices of one kind and chip");
    for (size_t j = 0; j < i; ++j)
      if (devices[j] == devices[i])
        return error("ranks " + Twine(j) + " and " + Twine(i) +
                     " are both " + devices[i]->spec() +
                     "; each rank needs its own device");
  }
  std::unique_ptr<SymmetricHeap> heap(new SymmetricHeap());
  heap->bytes_ = bytesPerRank;
  heap->ranks_.resize(devices.size());
  // Emulated devices of one Runtime share its emulator context: one address
  // space, and the context that launches on several of them at once.
  heap->emuContext_ = runtime.emulatorContext();
  if (devices[0]->kind() == DeviceKind::Emu && !heap->emuContext_)
    return error("the emulated devices do not belong to the runtime given");
  for (size_t r = 0; r < devices.size(); ++r) {
    Rank &rank = heap->ranks_[r];
    rank.device = devices[r];
    Expected<uint64_t> base = devices[r]->allocate(bytesPerRank);
    if (!base)
      return error("cannot allocate " + Twine(bytesPerRank) + " bytes on " +
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
          return error(devices[i]->spec() + " cannot access the memory of " +
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
    return error("a heap across processes needs HIP devices; " + device.spec() +
                 " is emulated (emulated ranks live in one process: use "
                 "create() with Runtime::emulatedDevices)");
  if (world == 0 || rank >= world)
    return error("rank " + Twine(rank) + " is not a rank of a world of " +
                 Twine(world));
  if (bytesPerRank == 0)
    return error("a heap of 0 bytes per rank holds nothing");
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
    return error("createEmulatedRank needs an emulated device; " + device.spec() +
                 " is a GPU (use createRank and IPC handles)");
  if (world == 0 || rank >= world)
    return error("rank " + Twine(rank) + " is not a rank of a world of " +
                 Twine(world));
  if (bytesPerRank == 0)
    return error("a heap of 0 bytes per rank holds nothing");
  if (!sharedMemory)
    return error("createEmulatedRank needs the shared memory of every rank's heap");
  std::unique_ptr<SymmetricHeap> heap(new SymmetricHeap());
  heap->bytes_ = bytesPerRank;
  heap->multiProcessRank_ = int(rank);
  heap->ranks_.resize(world);
  heap->mappingDevice_ = &device;
  emu::Device &emu = static_cast<EmuDevice &>(device).emulated();
  // The same address in every process: a fixed region allocate() never uses.
  uint64_t stride = (bytesPerRank + 0xffff) & ~uint64_t(0xffff);
  for (unsigned r = 0; r < world; ++r) {
    Rank &rk = heap->ranks_[r];
    rk.base = emu::Device::kExternalMappingBase + r * stride;
    if (Error e = emu.mapExternal(rk.base,
                                  static_cast<uint8_t *>(sharedMemory) + r * bytesPerRank,
                                  bytesPerRank))
      return std::move(e);
    rk.emuMapped = true;
  }
  heap->ranks_[rank].device = &device;
  if (Error e = heap->writeTables())
    return std::move(e);
  return std::move(heap);
}

Expected<IpcHandle> SymmetricHeap::ipcHandle() const {
  if (allLocal())
    return error("ipcHandle() is for heaps across processes (createRank)");
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
    return error("openPeers() is for heaps across processes (createRank)");
  if (handles.size() != ranks_.size())
    return error("openPeers got " + Twine(handles.size()) +
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
      consumeError(static_cast<EmuDevice &>(*mappingDevice_).emulated().unmapExternal(r.base));
    if (r.ipcOpened)
      if (Expected<const HipPeerApi &> api = HipPeerApi::get())
        (void)api->hipIpcCloseMemHandle(reinterpret_cast<void *>(r.base));
      else
        consumeError(api.takeError());
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
    return error("alignment " + Twine(alignment) + " is not a power of two");
  uint64_t offset = (used_ + alignment - 1) & ~(alignment - 1);
  if (offset > bytes_ || bytes > bytes_ - offset)
    return error("cannot allocate " + Twine(bytes) + " bytes: " +
                 Twine(used_) + " of " + Twine(bytes_) +
                 " bytes per rank are in use");
  used_ = offset + bytes;
  return SymmetricAllocation{offset, bytes};
}

Error SymmetricHeap::checkRange(unsigned rank, const SymmetricAllocation &a,
                                uint64_t bytes, uint64_t offset) const {
  if (rank >= ranks_.size() || !ranks_[rank].device)
    return error("rank " + Twine(rank) + " is not a rank of this process");
  if (offset > a.bytes || bytes > a.bytes - offset)
    return error("range [" + Twine(offset) + ", +" + Twine(bytes) +
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
  const Device &d = device(rank);
  if (d.kind() == DeviceKind::Emu)
    return emu::LaunchOptions().computeUnits;
  return unsigned(getChipInfo(d.chip()).computeUnits);
}

//===----------------------------------------------------------------------===//
// Launch on all ranks
//===----------------------------------------------------------------------===//

LaunchTrace::~LaunchTrace() = default;

namespace {
/// Hands the emulator's per-instruction events to a device-neutral trace.
class TraceObserver final : public emu::Observer {
public:
  explicit TraceObserver(LaunchTrace &trace) : trace_(trace) {}
  void afterIssue(emu::Wave &w, const emu::Inst &in,
                  ArrayRef<emu::MemRecord> mem) override {
    accesses_.clear();
    for (const emu::MemRecord &m : mem)
      if (m.space == emu::MemSpace::Global)
        accesses_.push_back({m.addr, m.kind != emu::kMemRead});
    trace_.instruction({w.wg->launch, w.wg->index, w.uid, in.pc}, accesses_);
  }

private:
  LaunchTrace &trace_;
  std::vector<TracedAccess> accesses_;
};
} // namespace

Expected<std::vector<LaunchResult>>
SymmetricHeap::launchAll(ArrayRef<RankLaunch> launches,
                         const RankLaunchOptions &options) const {
  if (!allLocal())
    return error("launchAll needs every rank in this process; a rank of a "
                 "heap across processes launches its own kernel");
  if (launches.size() != ranks_.size())
    return error("launchAll got " + Twine(launches.size()) +
                 " launches for " + Twine(ranks_.size()) + " ranks");
  std::vector<std::vector<uint8_t>> kernargs;
  for (size_t r = 0; r < launches.size(); ++r) {
    const RankLaunch &l = launches[r];
    if (!l.kernel)
      return error("rank " + Twine(r) + " has no kernel");
    if (&l.kernel->device() != ranks_[r].device)
      return error("rank " + Twine(r) + "'s kernel is loaded on " +
                   l.kernel->device().spec() + ", not on the rank's " +
                   ranks_[r].device->spec());
    if (Error e = l.kernel->checkConfig(l.config))
      return std::move(e);
    Expected<std::vector<uint8_t>> k = l.kernel->packArguments(l.args);
    if (!k)
      return k.takeError();
    kernargs.push_back(std::move(*k));
  }

  std::vector<LaunchResult> results(launches.size());
  auto start = std::chrono::steady_clock::now();
  if (options.trace && ranks_[0].device->kind() != DeviceKind::Emu)
    return error("an instruction trace needs emulated devices; " +
                 ranks_[0].device->spec() + " cannot watch single instructions");
  if (ranks_[0].device->kind() == DeviceKind::Emu) {
    std::optional<TraceObserver> observer;
    if (options.trace)
      observer.emplace(*options.trace);
    std::vector<emu::LaunchRequest> requests;
    for (size_t r = 0; r < launches.size(); ++r) {
      const RankLaunch &l = launches[r];
      auto &dev = static_cast<EmuDevice &>(*ranks_[r].device);
      emu::LaunchRequest q;
      q.device = &dev.emulated();
      q.module = &EmuDevice::emulatedModule(l.kernel->loadedCode());
      q.kernel = l.kernel->name().str();
      q.options.grid = {l.config.grid.x, l.config.grid.y, l.config.grid.z};
      q.options.block = {l.config.block.x, l.config.block.y, l.config.block.z};
      q.options.dynamicLdsBytes = l.config.dynamicLdsBytes;
      q.options.check.enabled = options.check;
      q.options.check.seed = options.checkSeed;
      q.options.observer = observer ? &*observer : nullptr;
      q.args = std::move(kernargs[r]);
      requests.push_back(std::move(q));
    }
    Expected<std::vector<emu::LaunchStats>> stats =
        emuContext_->launchConcurrent(requests);
    if (!stats)
      return stats.takeError();
    for (size_t r = 0; r < results.size(); ++r) {
      results[r].waveInstructions = (*stats)[r].waveInstructions;
      results[r].workgroups = (*stats)[r].workgroups;
    }
  } else {
    // HIP: Device::launch waits for its kernel, so each rank gets a thread;
    // the kernels then run at the same time on their GPUs.
    std::vector<std::optional<Expected<LaunchResult>>> out(launches.size());
    std::vector<std::thread> threads;
    for (size_t r = 0; r < launches.size(); ++r)
      threads.emplace_back([&, r] {
        out[r].emplace(ranks_[r].device->launch(launches[r].kernel->loadedCode(),
                                                launches[r].kernel->info(),
                                                launches[r].config, kernargs[r]));
      });
    for (std::thread &t : threads)
      t.join();
    Error all = Error::success();
    for (size_t r = 0; r < out.size(); ++r) {
      if (*out[r])
        results[r] = std::move(**out[r]);
      else
        all = joinErrors(std::move(all),
                         error("rank " + Twine(r) + ": " + toString(out[r]->takeError())));
    }
    if (all)
      return std::move(all);
  }
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start).count();
  for (LaunchResult &r : results)
    r.hostSeconds = seconds;
  return results;
}

} // namespace kcc
