//===- Kernel.cpp - One kernel of a loaded module, ready to launch --------===//
#include "runtime/Kernel.h"
#include "target/Error.h"
#include "runtime/Buffer.h"
#include "target/CodeObject.h"
#include "runtime/Device.h"
#include "runtime/Module.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace llvm;

namespace kcc {

StringRef Kernel::name() const { return info_->name; }
Device &Kernel::device() const { return module_->device; }
LoadedCode &Kernel::loadedCode() const { return *module_->loaded; }


Expected<std::vector<uint8_t>>
Kernel::packArguments(ArrayRef<KernelArgValue> args) const {
  std::vector<const KernelArg *> slots = info_->explicitArgs();
  if (slots.size() != args.size())
    return makeError("kernel '" + name() + "' takes " + Twine(slots.size()) +
                 " arguments; got " + Twine(args.size()));
  std::vector<uint8_t> kernarg(info_->explicitArgsSize(), 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg &slot = *slots[i];
    const KernelArgValue &v = args[i];
    std::string what = "argument " + std::to_string(i) +
                       (slot.name.empty() ? "" : " ('" + slot.name + "')") +
                       " of kernel '" + name().str() + "'";
    bool slotIsPointer = slot.kind == ArgKind::GlobalBuffer;
    if (slot.kind != ArgKind::GlobalBuffer && slot.kind != ArgKind::ByValue)
      return makeError(what + " has value kind '" + slot.valueKind +
                   "', which the runtime cannot pass");
    if (slotIsPointer && !v.isPointer())
      return makeError(what + " is a pointer" +
                   (slot.typeName.empty() ? "" : " (" + slot.typeName + ")") +
                   "; got a value of type " + v.typeName());
    if (!slotIsPointer && v.isPointer())
      return makeError(what + " is a " + Twine(slot.size) + "-byte value" +
                   (slot.typeName.empty() ? "" : " (" + slot.typeName + ")") +
                   "; got a " + v.typeName());
    if (slot.size != v.size())
      return makeError(what + " is " + Twine(slot.size) + " bytes; got " +
                   v.typeName() + " (" + Twine(v.size()) + " bytes)");
    // The metadata gives the slot's offset; the value's natural alignment
    // must hold there, as the compiler's loads from the segment assume.
    unsigned align = v.size();
    if (slot.offset % align)
      return makeError(what + " sits at kernarg offset " + Twine(slot.offset) +
                   ", not aligned to its " + Twine(align) +
                   "-byte size (malformed metadata)");
    if (uint64_t(slot.offset) + slot.size > kernarg.size())
      return makeError(what + " lies outside the " + Twine(kernarg.size()) +
                   "-byte explicit argument area (malformed metadata)");
    if (const Buffer *b = v.buffer()) {
      if (!b->address())
        return makeError(what + " is an empty (moved-from or released) buffer");
      if (&b->device() != &device())
        return makeError(what + " is a buffer on " + b->device().spec() +
                     "; the kernel is loaded on " + device().spec());
    }
    uint64_t bits = v.bits();
    std::memcpy(kernarg.data() + slot.offset, &bits, slot.size);
  }
  return kernarg;
}

Error checkLaunchGeometry(const KernelInfo &kernel, Chip chip,
                          const LaunchConfig &c) {
  auto dim = [](const Dim3 &d) {
    return formatv("({0}, {1}, {2})", d.x, d.y, d.z).str();
  };
  const std::string &name = kernel.name;
  if (!c.grid.x || !c.grid.y || !c.grid.z)
    return makeError("kernel '" + name + "': grid " + dim(c.grid) +
                     " has a zero dimension");
  if (!c.block.x || !c.block.y || !c.block.z)
    return makeError("kernel '" + name + "': block " + dim(c.block) +
                     " has a zero dimension");
  // A kernel compiled for one block shape indexes its work-items by it: any
  // other block runs without a fault and computes the wrong thing.
  if (const auto &reqd = kernel.reqdWorkgroupSize)
    if (c.block.x != (*reqd)[0] || c.block.y != (*reqd)[1] ||
        c.block.z != (*reqd)[2])
      return makeError("kernel '" + name + "' requires a block of " +
                       dim(Dim3((*reqd)[0], (*reqd)[1], (*reqd)[2])) +
                       " work-items (its .reqd_workgroup_size); got " +
                       dim(c.block));
  uint32_t limit = kernel.maxFlatWorkgroupSize ? kernel.maxFlatWorkgroupSize : 1024;
  if (c.block.count() > limit)
    return makeError("kernel '" + name + "': block " + dim(c.block) + " has " +
                     Twine(c.block.count()) + " work-items; the kernel allows " +
                     Twine(limit));
  // The dispatch packet's grid size is in work-items, 32 bits a dimension.
  if (uint64_t(c.grid.x) * c.block.x > UINT32_MAX ||
      uint64_t(c.grid.y) * c.block.y > UINT32_MAX ||
      uint64_t(c.grid.z) * c.block.z > UINT32_MAX)
    return makeError("kernel '" + name + "': grid " + dim(c.grid) + " x block " +
                     dim(c.block) + " exceeds 2^32 work-items in a dimension");
  uint64_t lds = uint64_t(kernel.groupSegmentFixedSize) + c.dynamicLdsBytes;
  uint64_t ldsLimit = getChipInfo(chip).ldsBytesPerWorkgroup;
  if (lds > ldsLimit)
    return makeError("kernel '" + name + "' needs " + Twine(lds) +
                     " bytes of LDS; " + getChipInfo(chip).name +
                     " gives a workgroup " + Twine(ldsLimit));
  return Error::success();
}

Error Kernel::checkConfig(const LaunchConfig &c) const {
  return checkLaunchGeometry(*info_, device().chip(), c);
}

Expected<LaunchResult> Kernel::launch(const LaunchConfig &config,
                                      ArrayRef<KernelArgValue> args) const {
  if (Error e = checkConfig(config))
    return std::move(e);
  Expected<std::vector<uint8_t>> kernarg = packArguments(args);
  if (!kernarg)
    return kernarg.takeError();
  Expected<LaunchResult> r =
      device().launch(*module_->loaded, *info_, config, *kernarg);
  if (!r)
    return createStringError(inconvertibleErrorCode(),
                             "launch of kernel '" + name() + "' on " +
                                 device().spec() + " failed: " +
                                 toString(r.takeError()));
  return r;
}

} // namespace kcc
