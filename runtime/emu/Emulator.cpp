//===- Emulator.cpp - Context, devices, modules and launches --------------===//
//
// A launch follows what the HIP runtime does for hipModuleLaunchKernel: the
// kernarg segment is the user's explicit arguments followed by the hidden
// arguments of the code object v5 metadata (block counts, group sizes,
// remainders, grid dims, dynamic LDS size, ...), and the AQL dispatch packet
// carries the grid in work-items.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Emulator.h"
#include "target/Error.h"
#include "target/CodeObject.h"
#include "target/Occupancy.h"
#include "runtime/emu/Decoder.h"
#include "runtime/emu/Memory.h"
#include "runtime/emu/Observer.h"
#include "runtime/emu/Ops.h"
#include "runtime/emu/Scheduler.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"

#include <thread>

using namespace llvm;
namespace kcc::emu {

Module::~Module() = default;
Observer::~Observer() = default;

uint64_t defaultBudget(uint64_t waves) {
  const uint64_t perWave = uint64_t(1) << 26, floor = uint64_t(1) << 28;
  if (waves > (~uint64_t(0) / perWave))
    return ~uint64_t(0);
  return std::max(floor, waves * perWave);
}
Expected<unsigned> hostThreads(uint32_t requested) {
  if (requested)
    return requested;
  if (const char *env = std::getenv("KCC_EMU_THREADS")) {
    StringRef v = StringRef(env).trim();
    unsigned n = 0;
    if (v.getAsInteger(10, n) || n < 1 || n > 1024)
      return makeError("KCC_EMU_THREADS='" + StringRef(env) +
                       "' is not understood; use a number of host threads "
                       "from 1 to 1024 (1: one thread, as before), or unset it "
                       "for every hardware thread");
    return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

Device::~Device() = default;
Context::~Context() = default;

const OpTable &OpTable::get() {
  static const OpTable table = [] {
    OpTable t;
    registerSaluOps(t);
    registerControlOps(t);
    registerGprIndexOps(t);
    registerScalarMemoryOps(t);
    registerValuIntegerOps(t);
    registerValuFloatOps(t);
    registerValuTranscendentalOps(t);
    registerValuConvertOps(t);
    registerValuFp8Ops(t);
    registerValuScaleCvtOps(t);
    registerValuCompareOps(t);
    registerValu16Ops(t);
    registerValuPackedOps(t);
    registerCrossLaneOps(t);
    registerMfmaOps(t);
    registerMfmaF8f6f4Ops(t);
    registerSmfmacOps(t);
    registerLdsOps(t);
    registerVectorMemoryOps(t);
    return t;
  }();
  return table;
}

namespace {

class DeviceImpl;

class ModuleImpl final : public Module {
public:
  ModuleImpl(CodeObject co, DeviceImpl &device, uint64_t base)
      : co(std::move(co)), device(device), base(base) {}
  std::vector<std::string> kernelNames() const override {
    std::vector<std::string> names;
    for (const KernelInfo &k : co.kernels())
      names.push_back(k.name);
    return names;
  }
  CodeObject co;
  DeviceImpl &device;
  uint64_t base;
  std::unique_ptr<Program> program;
};

class ContextImpl;

class DeviceImpl final : public Device {
public:
  DeviceImpl(ContextImpl &ctx, unsigned index, Chip chip)
      : ctx(ctx), index(index), chip_(chip) {}
  Chip chip() const override { return chip_; }
  Expected<uint64_t> allocate(uint64_t bytes) override;
  Error free(uint64_t address) override;
  Error copyToDevice(uint64_t dst, const void *src, uint64_t bytes) override;
  Error copyFromDevice(void *dst, uint64_t src, uint64_t bytes) override;
  Error memset(uint64_t dst, uint8_t value, uint64_t bytes) override;
  Error mapExternal(uint64_t address, void *host, uint64_t bytes) override {
    return memory().mapExternal(address, static_cast<uint8_t *>(host), bytes);
  }
  Error unmapExternal(uint64_t address) override {
    return memory().unmapExternal(address);
  }
  Expected<std::shared_ptr<Module>> loadModule(ArrayRef<uint8_t> codeObject) override;
  Expected<LaunchStats> launch(Module &module, StringRef kernel,
                               const LaunchOptions &options,
                               ArrayRef<uint8_t> args) override;

  /// Prepares a launch: kernarg segment, dispatch packet, occupancy.
  Expected<std::unique_ptr<LaunchPlan>> plan(Module &module, StringRef kernel,
                                             const LaunchOptions &options,
                                             ArrayRef<uint8_t> args);
  void release(LaunchPlan &plan);

  Memory &memory();
  ContextImpl &ctx;
  unsigned index;
  Chip chip_;
  std::vector<std::shared_ptr<ModuleImpl>> modules;
};

class ContextImpl final : public Context {
public:
  Expected<Device *> addDevice(Chip chip) override {
    if (devices.size() >= 200)
      return makeError("too many emulated devices");
    devices.push_back(std::make_unique<DeviceImpl>(*this, unsigned(devices.size()), chip));
    return devices.back().get();
  }
  size_t deviceCount() const override { return devices.size(); }
  Device &device(size_t index) override { return *devices[index]; }
  Expected<std::vector<LaunchStats>>
  launchConcurrent(ArrayRef<LaunchRequest> requests) override;

  Memory memory;
  std::vector<std::unique_ptr<DeviceImpl>> devices;
};

Memory &DeviceImpl::memory() { return ctx.memory; }

Expected<uint64_t> DeviceImpl::allocate(uint64_t bytes) {
  return memory().allocate(index, bytes);
}
Error DeviceImpl::free(uint64_t address) { return memory().free(address); }

Error DeviceImpl::copyToDevice(uint64_t dst, const void *src, uint64_t bytes) {
  if (!bytes)
    return Error::success();
  uint8_t *p = memory().translate(dst, bytes);
  if (!p)
    return makeError("copy to device: [0x" + utohexstr(dst) + ", +" + Twine(bytes) +
               ") is not inside one allocation");
  std::memcpy(p, src, bytes);
  return Error::success();
}
Error DeviceImpl::copyFromDevice(void *dst, uint64_t src, uint64_t bytes) {
  if (!bytes)
    return Error::success();
  uint8_t *p = memory().translate(src, bytes);
  if (!p)
    return makeError("copy from device: [0x" + utohexstr(src) + ", +" + Twine(bytes) +
               ") is not inside one allocation");
  std::memcpy(dst, p, bytes);
  return Error::success();
}
Error DeviceImpl::memset(uint64_t dst, uint8_t value, uint64_t bytes) {
  if (!bytes)
    return Error::success();
  uint8_t *p = memory().translate(dst, bytes);
  if (!p)
    return makeError("memset: [0x" + utohexstr(dst) + ", +" + Twine(bytes) +
               ") is not inside one allocation");
  std::memset(p, value, bytes);
  return Error::success();
}

Expected<std::shared_ptr<Module>> DeviceImpl::loadModule(ArrayRef<uint8_t> bytes) {
  auto co = CodeObject::parse(bytes);
  if (!co)
    return co.takeError();
  if (!co->chip())
    return makeError("code object is for " + co->machineName() +
               ", which the emulator does not support (" + supportedChipList() + ")");
  if (*co->chip() != chip_)
    return makeError("code object is for " + co->machineName() + " but the device is emu:" +
               getChipInfo(chip_).name);
  auto decoder = Decoder::get(chip_);
  if (!decoder)
    return decoder.takeError();
  uint64_t size = co->imageSize();
  auto base = allocate(size ? size : 4);
  if (!base)
    return base.takeError();
  auto image = co->buildImage(*base);
  if (!image)
    return image.takeError();
  if (Error e = copyToDevice(*base, image->data(), image->size()))
    return std::move(e);
  std::vector<std::pair<uint64_t, uint64_t>> code;
  for (const LoadSegment &s : co->segments())
    if (s.executable)
      code.push_back({s.vaddr, s.vaddr + s.fileSize});
  auto m = std::make_shared<ModuleImpl>(std::move(*co), *this, *base);
  m->program = std::make_unique<Program>(**decoder, *base, memory().translate(*base, size),
                                         size, std::move(code));
  modules.push_back(m);
  return std::static_pointer_cast<Module>(m);
}

/// Fills the hidden arguments the HIP runtime fills for a v5 code object.
void fillHidden(const KernelInfo &k, const LaunchOptions &o, uint8_t *kernarg) {
  using namespace support::endian;
  uint32_t grid[3] = {o.grid.x, o.grid.y, o.grid.z};
  uint32_t block[3] = {o.block.x, o.block.y, o.block.z};
  uint16_t dims = o.grid.z > 1 || o.block.z > 1 ? 3 : o.grid.y > 1 || o.block.y > 1 ? 2 : 1;
  for (const KernelArg &a : k.args) {
    uint8_t *p = kernarg + a.offset;
    auto put = [&](uint64_t v) {
      if (a.size == 2) write16le(p, uint16_t(v));
      else if (a.size == 4) write32le(p, uint32_t(v));
      else if (a.size == 8) write64le(p, v);
    };
    switch (a.kind) {
    case ArgKind::HiddenBlockCountX: put(grid[0]); break;
    case ArgKind::HiddenBlockCountY: put(grid[1]); break;
    case ArgKind::HiddenBlockCountZ: put(grid[2]); break;
    case ArgKind::HiddenGroupSizeX: put(block[0]); break;
    case ArgKind::HiddenGroupSizeY: put(block[1]); break;
    case ArgKind::HiddenGroupSizeZ: put(block[2]); break;
    // The grid is a whole number of workgroups: no partial last group.
    case ArgKind::HiddenRemainderX: case ArgKind::HiddenRemainderY:
    case ArgKind::HiddenRemainderZ: put(0); break;
    case ArgKind::HiddenGlobalOffsetX: case ArgKind::HiddenGlobalOffsetY:
    case ArgKind::HiddenGlobalOffsetZ: put(0); break;
    case ArgKind::HiddenGridDims: put(dims); break;
    case ArgKind::HiddenDynamicLdsSize: put(o.dynamicLdsBytes); break;
    case ArgKind::HiddenSharedBase: put(kSharedAperture); break;
    case ArgKind::HiddenPrivateBase: put(kPrivateAperture); break;
    // Not an OpenCL enqueue or multi-grid launch: HIP passes 0.
    case ArgKind::HiddenMultigridSyncArg: case ArgKind::HiddenDefaultQueue:
    case ArgKind::HiddenCompletionAction: put(0); break;
    // Pointers to device objects are filled by the caller (plan), which
    // allocates them; printf and hostcall need a host service the
    // emulator does not run, so they stay null as for a kernel without it.
    default: break;
    }
  }
}

Expected<std::unique_ptr<LaunchPlan>> DeviceImpl::plan(Module &moduleBase, StringRef kernel,
                                                       const LaunchOptions &o,
                                                       ArrayRef<uint8_t> args) {
  auto &module = static_cast<ModuleImpl &>(moduleBase);
  if (&module.device != this)
    return makeError("module was loaded on another device");
  const KernelInfo *k = module.co.findKernel(kernel);
  if (!k)
    return makeError("no kernel '" + kernel + "' in the code object; it has: " +
               module.co.kernelNameList());
  if (o.grid.x == 0 || o.grid.y == 0 || o.grid.z == 0 || o.block.x == 0 ||
      o.block.y == 0 || o.block.z == 0)
    return makeError("launch of '" + kernel + "' with an empty grid or block");
  uint64_t items = uint64_t(o.block.x) * o.block.y * o.block.z;
  if (items > k->maxFlatWorkgroupSize || items > 1024)
    return makeError("block of " + Twine(items) + " work-items exceeds kernel '" + kernel +
               "''s .max_flat_workgroup_size " + Twine(k->maxFlatWorkgroupSize));
  if (o.block.x > 1023 || o.block.y > 1023 || o.block.z > 1023)
    return makeError("block dimensions above 1023 do not fit the packed work-item ids");
  uint32_t explicitSize = k->explicitArgsSize();
  if (args.size() < explicitSize || args.size() > k->kernargSegmentSize)
    return makeError("kernel '" + kernel + "' takes " + Twine(explicitSize) +
               " bytes of explicit arguments, got " + Twine(args.size()));
  if (k->wavefrontSize != 64)
    return makeError("kernel '" + kernel + "' is wave32; the emulator runs wave64");
  const ChipInfo &chip = getChipInfo(chip_);
  uint64_t lds = uint64_t(k->groupSegmentFixedSize) + o.dynamicLdsBytes;
  if (lds > uint64_t(chip.ldsBytesPerWorkgroup))
    return makeError("kernel '" + kernel + "' needs " + Twine(lds) + " bytes of LDS; " +
               chip.name + " has " + Twine(chip.ldsBytesPerWorkgroup) + " per workgroup");
  if (k->descriptor.usesDynamicStack)
    return makeError("kernel '" + kernel + "' uses a dynamic stack, which the emulator "
               "does not size");

  auto p = std::make_unique<LaunchPlan>();
  p->options = o;
  // KCC_EMU_CHECK=1 (or =uninit) checks every launch of the process, so a
  // test suite runs under check mode without code changes.
  if (const char *env = std::getenv("KCC_EMU_CHECK")) {
    StringRef v(env);
    if (v == "1" || v == "uninit") {
      p->options.check.enabled = true;
      p->options.check.uninit |= v == "uninit";
    } else if (!v.empty() && v != "0") {
      // A value kcc does not understand would otherwise leave check mode
      // off while the user believes it is on.
      return makeError("KCC_EMU_CHECK='" + v +
                       "' is not understood; use 1 (check mode), uninit "
                       "(also uninitialised LDS reads) or 0 (off)");
    }
  }
  auto threads = hostThreads(o.threads);
  if (!threads)
    return threads.takeError();
  p->options.threads = *threads;
  Dispatch &d = p->dispatch;
  d.chip = chip_;
  d.memory = &memory();
  d.program = module.program.get();
  d.kernel = k;
  d.kernelName = k->name;
  {
    std::vector<const KernelArg *> explicitArgs = k->explicitArgs();
    for (unsigned i = 0; i < explicitArgs.size(); ++i) {
      const KernelArg &a = *explicitArgs[i];
      if (a.kind != ArgKind::GlobalBuffer || a.size != 8 ||
          a.offset + 8 > args.size())
        continue;
      d.bufferArgs.push_back(
          {i, a.name, support::endian::read64le(args.data() + a.offset)});
    }
  }
  d.grid[0] = o.grid.x; d.grid[1] = o.grid.y; d.grid[2] = o.grid.z;
  d.block[0] = o.block.x; d.block[1] = o.block.y; d.block[2] = o.block.z;
  d.ldsBytes = uint32_t(lds);
  d.observer = o.observer;
  d.privateBytesPerLane = k->privateSegmentFixedSize;
  p->entryPc = module.base + k->entryAddress;
  p->wavesPerGroup = uint32_t((items + 63) / 64);

  // Kernarg segment and dispatch packet in device memory.
  // Padded like the HIP runtime's kernarg pool: compilers load the segment
  // with wide s_load_dwordx8/x16 that may run past its last argument.
  uint32_t kernargBytes = ((k->kernargSegmentSize + 63) & ~63u) + 256;
  auto kernarg = allocate(kernargBytes);
  if (!kernarg)
    return kernarg.takeError();
  d.kernargAddress = *kernarg;
  uint8_t *kp = memory().translate(*kernarg, kernargBytes);
  std::memcpy(kp, args.data(), args.size());
  fillHidden(*k, o, kp);
  // The queue object and device heap HIP points hidden_queue_ptr and
  // hidden_heap_v1 at: zeroed device memory (a fresh heap is all zeros,
  // which the device-libs allocator reads as empty).
  for (const KernelArg &a : k->args) {
    uint64_t bytes = a.kind == ArgKind::HiddenQueuePtr  ? 256
                     : a.kind == ArgKind::HiddenHeapV1 ? (4ull << 20)
                                                       : 0;
    if (!bytes || a.size != 8)
      continue;
    auto obj = allocate(bytes);
    if (!obj)
      return obj.takeError();
    p->ownedAllocations.push_back(*obj);
    support::endian::write64le(kp + a.offset, *obj);
  }
  auto packet = allocate(64);
  if (!packet)
    return packet.takeError();
  d.packetAddress = *packet;
  {
    using namespace support::endian;
    uint8_t *pk = memory().translate(*packet, 64);
    uint16_t dims = o.grid.z > 1 || o.block.z > 1 ? 3 : o.grid.y > 1 || o.block.y > 1 ? 2 : 1;
    write16le(pk + 0, 2 /*HSA_PACKET_TYPE_KERNEL_DISPATCH*/);
    write16le(pk + 2, dims);
    write16le(pk + 4, uint16_t(o.block.x));
    write16le(pk + 6, uint16_t(o.block.y));
    write16le(pk + 8, uint16_t(o.block.z));
    write32le(pk + 12, o.grid.x * o.block.x);
    write32le(pk + 16, o.grid.y * o.block.y);
    write32le(pk + 20, o.grid.z * o.block.z);
    write32le(pk + 24, k->privateSegmentFixedSize);
    write32le(pk + 28, uint32_t(lds));
    write64le(pk + 32, module.base + k->descriptorAddress);
    write64le(pk + 40, *kernarg);
  }

  // The workgroups one CU holds at once run interleaved, as on hardware.
  KernelResources res = kernelResources(*k, chip_, p->wavesPerGroup * 64,
                                       o.dynamicLdsBytes);
  Occupancy occ = computeOccupancy(chip_, res);
  if (occ.workgroupsPerCu == 0)
    return makeError("a workgroup of " + Twine(p->wavesPerGroup) + " waves with " +
               Twine(res.registers) + " registers each does not fit on one CU");
  uint32_t groupsPerCu = occ.workgroupsPerCu;
  p->maxResidentGroups = std::max<uint32_t>(1, o.computeUnits) * groupsPerCu;
  return std::move(p);
}

void DeviceImpl::release(LaunchPlan &p) {
  consumeError(free(p.dispatch.kernargAddress));
  consumeError(free(p.dispatch.packetAddress));
  for (uint64_t a : p.ownedAllocations)
    consumeError(free(a));
}

Expected<LaunchStats> DeviceImpl::launch(Module &module, StringRef kernel,
                                         const LaunchOptions &options,
                                         ArrayRef<uint8_t> args) {
  auto p = plan(module, kernel, options, args);
  if (!p)
    return p.takeError();
  std::vector<LaunchPlan *> plans{p->get()};
  Error e = runLaunches(plans);
  release(**p);
  if (e)
    return std::move(e);
  return (*p)->stats;
}

Expected<std::vector<LaunchStats>>
ContextImpl::launchConcurrent(ArrayRef<LaunchRequest> requests) {
  std::vector<std::unique_ptr<LaunchPlan>> owned;
  std::vector<LaunchPlan *> plans;
  std::vector<DeviceImpl *> devs;
  for (const LaunchRequest &r : requests) {
    auto *dev = static_cast<DeviceImpl *>(r.device);
    if (!dev || !r.module)
      return makeError("launch request without a device or module");
    bool ours = false;
    for (auto &d : devices)
      ours |= d.get() == dev;
    if (!ours)
      return makeError("launch request names a device of another context");
    auto p = dev->plan(*r.module, r.kernel, r.options, r.args);
    if (!p) {
      for (size_t i = 0; i < owned.size(); ++i)
        devs[i]->release(*owned[i]);
      return p.takeError();
    }
    plans.push_back(p->get());
    devs.push_back(dev);
    owned.push_back(std::move(*p));
  }
  Error e = runLaunches(plans);
  for (size_t i = 0; i < owned.size(); ++i)
    devs[i]->release(*owned[i]);
  if (e)
    return std::move(e);
  std::vector<LaunchStats> stats;
  for (auto &p : owned)
    stats.push_back(p->stats);
  return stats;
}

} // namespace

std::unique_ptr<Context> Context::create() {
  return std::make_unique<ContextImpl>();
}

} // namespace kcc::emu
