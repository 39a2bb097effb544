//===- CodeObject.cpp - Reader of AMDGPU HSA code objects -----------------===//
//
// Layout facts come from LLVM's AMDGPUUsage ("Code Object V5 Metadata",
// "Kernel Descriptor", "Initial Kernel Execution State") and
// llvm/Support/AMDHSAKernelDescriptor.h.
//
//===----------------------------------------------------------------------===//
#include "target/CodeObject.h"
#include "target/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/BinaryFormat/MsgPackReader.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/AMDHSAKernelDescriptor.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace llvm;
namespace kcc {

namespace {
using ELFT = object::ELF64LE;


struct KindName {
  ArgKind kind;
  const char *name;
};
const KindName kKindNames[] = {
    {ArgKind::ByValue, "by_value"},
    {ArgKind::GlobalBuffer, "global_buffer"},
    {ArgKind::DynamicSharedPointer, "dynamic_shared_pointer"},
    {ArgKind::Sampler, "sampler"},
    {ArgKind::Image, "image"},
    {ArgKind::Pipe, "pipe"},
    {ArgKind::Queue, "queue"},
    {ArgKind::HiddenGlobalOffsetX, "hidden_global_offset_x"},
    {ArgKind::HiddenGlobalOffsetY, "hidden_global_offset_y"},
    {ArgKind::HiddenGlobalOffsetZ, "hidden_global_offset_z"},
    {ArgKind::HiddenNone, "hidden_none"},
    {ArgKind::HiddenPrintfBuffer, "hidden_printf_buffer"},
    {ArgKind::HiddenHostcallBuffer, "hidden_hostcall_buffer"},
    {ArgKind::HiddenDefaultQueue, "hidden_default_queue"},
    {ArgKind::HiddenCompletionAction, "hidden_completion_action"},
    {ArgKind::HiddenMultigridSyncArg, "hidden_multigrid_sync_arg"},
    {ArgKind::HiddenBlockCountX, "hidden_block_count_x"},
    {ArgKind::HiddenBlockCountY, "hidden_block_count_y"},
    {ArgKind::HiddenBlockCountZ, "hidden_block_count_z"},
    {ArgKind::HiddenGroupSizeX, "hidden_group_size_x"},
    {ArgKind::HiddenGroupSizeY, "hidden_group_size_y"},
    {ArgKind::HiddenGroupSizeZ, "hidden_group_size_z"},
    {ArgKind::HiddenRemainderX, "hidden_remainder_x"},
    {ArgKind::HiddenRemainderY, "hidden_remainder_y"},
    {ArgKind::HiddenRemainderZ, "hidden_remainder_z"},
    {ArgKind::HiddenGridDims, "hidden_grid_dims"},
    {ArgKind::HiddenHeapV1, "hidden_heap_v1"},
    {ArgKind::HiddenDynamicLdsSize, "hidden_dynamic_lds_size"},
    {ArgKind::HiddenPrivateBase, "hidden_private_base"},
    {ArgKind::HiddenSharedBase, "hidden_shared_base"},
    {ArgKind::HiddenQueuePtr, "hidden_queue_ptr"},
};

ArgKind parseArgKind(StringRef name) {
  for (const KindName &k : kKindNames)
    if (name == k.name)
      return k.kind;
  return ArgKind::Unknown;
}

/// msgpack::Document trusts the shape of its input where a damaged file can
/// break it (a map keyed by a map or an array reaches llvm_unreachable when
/// the keys are compared). The note is first walked with the plain reader:
/// one root, complete containers nested at most 64 deep, and map keys that
/// are scalars.
Error checkMetadataShape(StringRef blob) {
  struct Open {
    uint64_t left;  // elements (arrays) or pairs (maps) still to come
    bool isMap;
    bool keyNext;
  };
  SmallVector<Open> open;
  msgpack::Reader reader(blob);
  msgpack::Object obj;
  bool rootSeen = false;
  while (true) {
    Expected<bool> got = reader.read(obj);
    if (!got)
      return makeError("the AMDGPU metadata note is not valid msgpack: " +
                       toString(got.takeError()));
    if (!*got)
      break;
    if (open.empty()) {
      if (rootSeen)
        return makeError("the AMDGPU metadata note has data after its root");
      rootSeen = true;
    } else {
      Open &parent = open.back();
      if (parent.isMap && parent.keyNext) {
        switch (obj.Kind) {
        case msgpack::Type::Int: case msgpack::Type::UInt: case msgpack::Type::Nil:
        case msgpack::Type::Boolean: case msgpack::Type::Float:
        case msgpack::Type::String: case msgpack::Type::Binary:
          break;
        default:
          return makeError("the AMDGPU metadata note has a map key that is "
                           "not a scalar");
        }
        parent.keyNext = false;
      } else {
        parent.keyNext = parent.isMap;
        --parent.left;
      }
    }
    if (obj.Kind == msgpack::Type::Map || obj.Kind == msgpack::Type::Array) {
      if (open.size() >= 64)
        return makeError("the AMDGPU metadata note nests deeper than 64");
      bool isMap = obj.Kind == msgpack::Type::Map;
      open.push_back({obj.Length, isMap, isMap});
    }
    // Close the containers this element completed (a container counts in
    // its parent when its header is read).
    while (!open.empty() && open.back().left == 0)
      open.pop_back();
  }
  if (!rootSeen || !open.empty())
    return makeError("the AMDGPU metadata note is truncated");
  return Error::success();
}

/// Typed accessors on a msgpack map that report kind mismatches instead of
/// asserting (msgpack::DocNode's getters assert on the wrong kind).
class MapReader {
public:
  MapReader(msgpack::MapDocNode &map, std::string where)
      : map(map), where(std::move(where)) {}

  msgpack::DocNode *find(StringRef key) {
    auto it = map.find(key);
    return it == map.end() ? nullptr : &it->second;
  }

  Error readUInt(StringRef key, uint32_t &out, bool required = false) {
    msgpack::DocNode *node = find(key);
    if (!node)
      return required ? makeError(where + ": missing '" + key + "'")
                      : Error::success();
    if (node->getKind() == msgpack::Type::UInt) {
      uint64_t v = node->getUInt();
      if (v > UINT32_MAX)
        return makeError(where + ": '" + key + "' is out of range");
      out = static_cast<uint32_t>(v);
      return Error::success();
    }
    if (node->getKind() == msgpack::Type::Int && node->getInt() >= 0 &&
        node->getInt() <= INT32_MAX) {
      out = static_cast<uint32_t>(node->getInt());
      return Error::success();
    }
    return makeError(where + ": '" + key + "' is not an unsigned integer");
  }

  Error readString(StringRef key, std::string &out, bool required = false) {
    msgpack::DocNode *node = find(key);
    if (!node)
      return required ? makeError(where + ": missing '" + key + "'")
                      : Error::success();
    if (!node->isString())
      return makeError(where + ": '" + key + "' is not a string");
    out = node->getString().str();
    return Error::success();
  }

  Error readBool(StringRef key, bool &out) {
    msgpack::DocNode *node = find(key);
    if (!node)
      return Error::success();
    if (node->getKind() != msgpack::Type::Boolean)
      return makeError(where + ": '" + key + "' is not a boolean");
    out = node->getBool();
    return Error::success();
  }

private:
  msgpack::MapDocNode &map;
  std::string where;
};

Error parseArg(msgpack::DocNode &node, const std::string &where,
               KernelArg &arg) {
  if (!node.isMap())
    return makeError(where + " is not a map");
  MapReader r(node.getMap(), where);
  if (Error e = r.readString(".name", arg.name))
    return e;
  if (Error e = r.readString(".type_name", arg.typeName))
    return e;
  if (Error e = r.readString(".value_kind", arg.valueKind, true))
    return e;
  arg.kind = parseArgKind(arg.valueKind);
  if (Error e = r.readUInt(".offset", arg.offset, true))
    return e;
  if (Error e = r.readUInt(".size", arg.size, true))
    return e;
  std::string s;
  if (r.find(".address_space")) {
    if (Error e = r.readString(".address_space", s))
      return e;
    arg.addressSpace = s;
  }
  const char *accessKey = r.find(".actual_access") ? ".actual_access"
                          : r.find(".access")      ? ".access"
                                                   : nullptr;
  if (accessKey) {
    if (Error e = r.readString(accessKey, s))
      return e;
    arg.accessQualifier = s;
  }
  if (Error e = r.readBool(".is_const", arg.isConst))
    return e;
  if (Error e = r.readBool(".is_restrict", arg.isRestrict))
    return e;
  return r.readBool(".is_volatile", arg.isVolatile);
}

Error parseKernel(msgpack::DocNode &node, size_t index, KernelInfo &k) {
  std::string where = "amdhsa.kernels[" + std::to_string(index) + "]";
  if (!node.isMap())
    return makeError(where + " is not a map");
  MapReader r(node.getMap(), where);
  if (Error e = r.readString(".name", k.name, true))
    return e;
  where = "kernel '" + k.name + "'";
  MapReader rk(node.getMap(), where);
  if (Error e = rk.readString(".symbol", k.symbol, true))
    return e;
  struct {
    const char *key;
    uint32_t *out;
    bool required;
  } fields[] = {
      {".group_segment_fixed_size", &k.groupSegmentFixedSize, true},
      {".private_segment_fixed_size", &k.privateSegmentFixedSize, true},
      {".kernarg_segment_size", &k.kernargSegmentSize, true},
      {".kernarg_segment_align", &k.kernargSegmentAlign, true},
      {".wavefront_size", &k.wavefrontSize, true},
      {".sgpr_count", &k.sgprCount, true},
      {".vgpr_count", &k.vgprCount, true},
      {".agpr_count", &k.agprCount, false},
      {".sgpr_spill_count", &k.sgprSpillCount, false},
      {".vgpr_spill_count", &k.vgprSpillCount, false},
      {".max_flat_workgroup_size", &k.maxFlatWorkgroupSize, true},
  };
  for (auto &f : fields)
    if (Error e = rk.readUInt(f.key, *f.out, f.required))
      return e;
  if (Error e = rk.readBool(".uses_dynamic_stack", k.usesDynamicStack))
    return e;
  if (msgpack::DocNode *reqd = rk.find(".reqd_workgroup_size")) {
    if (!reqd->isArray() || reqd->getArray().size() != 3)
      return makeError(where + ": '.reqd_workgroup_size' is not 3 integers");
    std::array<uint32_t, 3> size{};
    for (size_t d = 0; d < 3; ++d) {
      msgpack::DocNode &v = reqd->getArray()[d];
      if (v.getKind() == msgpack::Type::UInt && v.getUInt() > 0 &&
          v.getUInt() <= 1024)
        size[d] = uint32_t(v.getUInt());
      else if (v.getKind() == msgpack::Type::Int && v.getInt() > 0 &&
               v.getInt() <= 1024)
        size[d] = uint32_t(v.getInt());
      else
        return makeError(where + ": '.reqd_workgroup_size' holds a value "
                                 "outside 1..1024");
    }
    k.reqdWorkgroupSize = size;
  }
  if (rk.find(".uniform_work_group_size")) {
    uint32_t v = 0;
    if (Error e = rk.readUInt(".uniform_work_group_size", v))
      return e;
    k.uniformWorkGroupSize = v != 0;
  }
  if (msgpack::DocNode *args = rk.find(".args")) {
    if (!args->isArray())
      return makeError(where + ": '.args' is not an array");
    size_t i = 0;
    for (msgpack::DocNode &a : args->getArray()) {
      KernelArg arg;
      if (Error e = parseArg(a, where + " argument " + std::to_string(i), arg))
        return e;
      // The HIP loader passes the kernarg segment's bytes and nothing past
      // them, so an argument the metadata places beyond them can never hold
      // a value: AMD's own code objects carry such entries. Left out, with
      // a warning naming it, rather than refusing a kernel that runs.
      if (uint64_t(arg.offset) + arg.size > k.kernargSegmentSize) {
        k.warnings.push_back(where + " argument " + std::to_string(i) +
                             (arg.name.empty() ? "" : " ('" + arg.name + "')") + " at offset " +
                             std::to_string(arg.offset) + ", " + std::to_string(arg.size) +
                             " bytes, lies outside the kernarg segment of " +
                             std::to_string(k.kernargSegmentSize) +
                             " bytes: left out, as the loader never passes it");
        ++i;
        continue;
      }
      k.args.push_back(std::move(arg));
      ++i;
    }
  }
  return Error::success();
}

} // namespace

bool isHiddenArg(ArgKind kind) {
  return kind >= ArgKind::HiddenGlobalOffsetX && kind <= ArgKind::HiddenQueuePtr;
}

StringRef argKindName(ArgKind kind) {
  for (const KindName &k : kKindNames)
    if (k.kind == kind)
      return k.name;
  return "unknown";
}

std::vector<const KernelArg *> KernelInfo::explicitArgs() const {
  std::vector<const KernelArg *> out;
  for (const KernelArg &a : args)
    if (!a.isHidden())
      out.push_back(&a);
  return out;
}

uint32_t KernelInfo::explicitArgsSize() const {
  uint32_t end = 0;
  for (const KernelArg &a : args)
    if (!a.isHidden())
      end = std::max(end, a.offset + a.size);
  return end;
}

KernelDescriptor decodeKernelDescriptor(const uint8_t bytes[64], Chip chip) {
  using namespace llvm::support::endian;
  using namespace llvm::amdhsa;
  KernelDescriptor d;
  d.groupSegmentFixedSize = read32le(bytes + GROUP_SEGMENT_FIXED_SIZE_OFFSET);
  d.privateSegmentFixedSize =
      read32le(bytes + PRIVATE_SEGMENT_FIXED_SIZE_OFFSET);
  d.kernargSize = read32le(bytes + KERNARG_SIZE_OFFSET);
  d.kernelCodeEntryByteOffset =
      static_cast<int64_t>(read64le(bytes + KERNEL_CODE_ENTRY_BYTE_OFFSET_OFFSET));
  d.computePgmRsrc3 = read32le(bytes + COMPUTE_PGM_RSRC3_OFFSET);
  d.computePgmRsrc1 = read32le(bytes + COMPUTE_PGM_RSRC1_OFFSET);
  d.computePgmRsrc2 = read32le(bytes + COMPUTE_PGM_RSRC2_OFFSET);
  d.kernelCodeProperties = read16le(bytes + KERNEL_CODE_PROPERTIES_OFFSET);
  d.kernargPreload = read16le(bytes + KERNARG_PRELOAD_OFFSET);

  // The fields by LLVM's own masks (AMDHSAKernelDescriptor.h), so that the
  // layout is spelled once, where the assembler that writes it spells it.
  uint32_t r1 = d.computePgmRsrc1, r2 = d.computePgmRsrc2,
           r3 = d.computePgmRsrc3, p = d.kernelCodeProperties,
           pre = d.kernargPreload;
#define GET(word, mask) AMDHSA_BITS_GET(word, mask)
  d.granulatedWorkitemVgprCount =
      GET(r1, COMPUTE_PGM_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT);
  d.granulatedWavefrontSgprCount =
      GET(r1, COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT);
  d.floatRoundMode32 = GET(r1, COMPUTE_PGM_RSRC1_FLOAT_ROUND_MODE_32);
  d.floatRoundMode1664 = GET(r1, COMPUTE_PGM_RSRC1_FLOAT_ROUND_MODE_16_64);
  d.floatDenormMode32 = GET(r1, COMPUTE_PGM_RSRC1_FLOAT_DENORM_MODE_32);
  d.floatDenormMode1664 = GET(r1, COMPUTE_PGM_RSRC1_FLOAT_DENORM_MODE_16_64);
  d.dx10Clamp = GET(r1, COMPUTE_PGM_RSRC1_GFX6_GFX11_ENABLE_DX10_CLAMP);
  d.ieeeMode = GET(r1, COMPUTE_PGM_RSRC1_GFX6_GFX11_ENABLE_IEEE_MODE);

  d.enablePrivateSegment = GET(r2, COMPUTE_PGM_RSRC2_ENABLE_PRIVATE_SEGMENT);
  d.userSgprCount = GET(r2, COMPUTE_PGM_RSRC2_GFX6_GFX120_USER_SGPR_COUNT);
  d.enableTrapHandler = GET(r2, COMPUTE_PGM_RSRC2_GFX6_GFX11_ENABLE_TRAP_HANDLER);
  d.enableSgprWorkgroupIdX = GET(r2, COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X);
  d.enableSgprWorkgroupIdY = GET(r2, COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Y);
  d.enableSgprWorkgroupIdZ = GET(r2, COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Z);
  d.enableSgprWorkgroupInfo = GET(r2, COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_INFO);
  d.enableVgprWorkitemId = GET(r2, COMPUTE_PGM_RSRC2_ENABLE_VGPR_WORKITEM_ID);

  // Both supported chips are gfx90a-class: rsrc3 holds ACCUM_OFFSET (in
  // units of 4 registers, minus one) and work-item ids are packed into v0.
  (void)chip;
  d.accumOffset = (GET(r3, COMPUTE_PGM_RSRC3_GFX90A_ACCUM_OFFSET) + 1) * 4;
  d.tgSplit = GET(r3, COMPUTE_PGM_RSRC3_GFX90A_TG_SPLIT);
  d.packedWorkitemIds = true;

  d.enableSgprPrivateSegmentBuffer =
      GET(p, KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER);
  d.enableSgprDispatchPtr = GET(p, KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_PTR);
  d.enableSgprQueuePtr = GET(p, KERNEL_CODE_PROPERTY_ENABLE_SGPR_QUEUE_PTR);
  d.enableSgprKernargSegmentPtr =
      GET(p, KERNEL_CODE_PROPERTY_ENABLE_SGPR_KERNARG_SEGMENT_PTR);
  d.enableSgprDispatchId = GET(p, KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_ID);
  d.enableSgprFlatScratchInit =
      GET(p, KERNEL_CODE_PROPERTY_ENABLE_SGPR_FLAT_SCRATCH_INIT);
  d.enableSgprPrivateSegmentSize =
      GET(p, KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE);
  d.usesDynamicStack = GET(p, KERNEL_CODE_PROPERTY_USES_DYNAMIC_STACK);

  d.kernargPreloadLength = GET(pre, KERNARG_PRELOAD_SPEC_LENGTH);
  d.kernargPreloadOffset = GET(pre, KERNARG_PRELOAD_SPEC_OFFSET);
#undef GET
  return d;
}

Expected<CodeObject> CodeObject::readFile(StringRef path) {
  auto buf = MemoryBuffer::getFile(path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!buf)
    return makeError("cannot read code object '" + path +
                     "': " + buf.getError().message());
  ArrayRef<uint8_t> bytes(
      reinterpret_cast<const uint8_t *>((*buf)->getBufferStart()),
      (*buf)->getBufferSize());
  auto co = parse(bytes);
  if (!co)
    return makeError(path + ": " + toString(co.takeError()));
  return co;
}

Expected<CodeObject> CodeObject::parse(ArrayRef<uint8_t> input) {
  CodeObject co;
  co.bytes_.assign(input.begin(), input.end());
  StringRef data(reinterpret_cast<const char *>(co.bytes_.data()),
                 co.bytes_.size());
  if (data.size() < 16 || !data.starts_with("\x7f"
                                            "ELF"))
    return makeError("not an ELF file");
  if (static_cast<uint8_t>(data[ELF::EI_CLASS]) != ELF::ELFCLASS64 ||
      static_cast<uint8_t>(data[ELF::EI_DATA]) != ELF::ELFDATA2LSB)
    return makeError("not a 64-bit little-endian ELF file (an AMDGPU code "
                     "object is ELF64 LE)");
  auto fileOr = object::ELFFile<ELFT>::create(data);
  if (!fileOr)
    return makeError("malformed ELF: " + toString(fileOr.takeError()));
  const object::ELFFile<ELFT> &elf = *fileOr;
  const auto &hdr = elf.getHeader();
  if (hdr.e_machine != ELF::EM_AMDGPU)
    return makeError("ELF machine is " + Twine(hdr.e_machine) +
                     ", not EM_AMDGPU (224): not an AMDGPU code object");
  if (hdr.e_ident[ELF::EI_OSABI] != ELF::ELFOSABI_AMDGPU_HSA)
    return makeError("ELF OS ABI is not AMDGPU HSA: not an HSA code object");
  switch (hdr.e_ident[ELF::EI_ABIVERSION]) {
  case ELF::ELFABIVERSION_AMDGPU_HSA_V4:
    co.version_ = 4;
    break;
  case ELF::ELFABIVERSION_AMDGPU_HSA_V5:
    co.version_ = 5;
    break;
  case ELF::ELFABIVERSION_AMDGPU_HSA_V6:
    co.version_ = 6;
    break;
  default:
    return makeError("code object ABI version " +
                     Twine(unsigned(hdr.e_ident[ELF::EI_ABIVERSION])) +
                     " is not supported (v4, v5 and v6 are)");
  }
  unsigned mach = hdr.e_flags & ELF::EF_AMDGPU_MACH;
  if (mach == ELF::EF_AMDGPU_MACH_AMDGCN_GFX942) {
    co.chip_ = Chip::gfx942;
    co.machineName_ = "gfx942";
  } else if (mach == ELF::EF_AMDGPU_MACH_AMDGCN_GFX950) {
    co.chip_ = Chip::gfx950;
    co.machineName_ = "gfx950";
  } else {
    co.machineName_ = "AMDGPU machine 0x" + utohexstr(mach);
  }
  co.xnackOn_ = (hdr.e_flags & ELF::EF_AMDGPU_FEATURE_XNACK_V4) ==
                ELF::EF_AMDGPU_FEATURE_XNACK_ON_V4;
  co.sramEccOn_ = (hdr.e_flags & ELF::EF_AMDGPU_FEATURE_SRAMECC_V4) ==
                  ELF::EF_AMDGPU_FEATURE_SRAMECC_ON_V4;

  // Segments and the metadata note (in a PT_NOTE segment for linked code
  // objects; relocatable objects only have the SHT_NOTE section).
  auto phdrs = elf.program_headers();
  if (!phdrs)
    return makeError("malformed ELF program headers: " +
                     toString(phdrs.takeError()));
  std::optional<std::string> metadata;
  auto scanNotes = [&](auto range) {
    for (const auto &note : range) {
      if (note.getName() == "AMDGPU" &&
          note.getType() == ELF::NT_AMDGPU_METADATA)
        metadata = note.getDescAsStringRef(4).str();
    }
  };
  for (const auto &ph : *phdrs) {
    if (uint64_t(ph.p_offset) + ph.p_filesz > data.size())
      return makeError("code object is truncated: a segment extends past the "
                       "end of the file");
    if (ph.p_type == ELF::PT_LOAD) {
      if (ph.p_filesz > ph.p_memsz)
        return makeError("malformed ELF: PT_LOAD file size exceeds memory size");
      co.segments_.push_back({ph.p_vaddr, ph.p_memsz, ph.p_offset, ph.p_filesz,
                              (ph.p_flags & ELF::PF_X) != 0});
    } else if (ph.p_type == ELF::PT_NOTE && !metadata) {
      Error err = Error::success();
      scanNotes(elf.notes(ph, err));
      if (err)
        return makeError("malformed note segment: " + toString(std::move(err)));
    }
  }
  auto sections = elf.sections();
  if (!sections)
    return makeError("malformed ELF section headers: " +
                     toString(sections.takeError()));
  if (!metadata) {
    for (const auto &sh : *sections) {
      if (sh.sh_type != ELF::SHT_NOTE)
        continue;
      Error err = Error::success();
      scanNotes(elf.notes(sh, err));
      if (err)
        return makeError("malformed note section: " + toString(std::move(err)));
      if (metadata)
        break;
    }
  }
  if (!metadata)
    return makeError("no NT_AMDGPU_METADATA note: the file has no AMDGPU "
                     "kernel metadata (was it linked as a code object v4+?)");

  if (Error e = checkMetadataShape(*metadata))
    return std::move(e);
  msgpack::Document doc;
  if (!doc.readFromBlob(*metadata, /*Multi=*/false))
    return makeError("the AMDGPU metadata note is not valid msgpack");
  if (!doc.getRoot().isMap())
    return makeError("the AMDGPU metadata is not a msgpack map");
  MapReader root(doc.getRoot().getMap(), "AMDGPU metadata");
  if (Error e = root.readString("amdhsa.target", co.target_))
    return std::move(e);
  msgpack::DocNode *kernels = root.find("amdhsa.kernels");
  if (!kernels || !kernels->isArray())
    return makeError("AMDGPU metadata has no 'amdhsa.kernels' array");
  size_t index = 0;
  for (msgpack::DocNode &kn : kernels->getArray()) {
    KernelInfo k;
    if (Error e = parseKernel(kn, index++, k))
      return std::move(e);
    co.kernels_.push_back(std::move(k));
  }

  // Symbols: descriptors by name, functions for diagnostics.
  auto readAt = [&](uint64_t vaddr, uint64_t size) -> const uint8_t * {
    for (const LoadSegment &s : co.segments_)
      if (vaddr >= s.vaddr && vaddr - s.vaddr + size <= s.fileSize)
        return co.bytes_.data() + s.fileOffset + (vaddr - s.vaddr);
    return nullptr;
  };
  StringMap<uint64_t> symbolValues;
  for (const auto &sh : *sections) {
    if (sh.sh_type != ELF::SHT_SYMTAB && sh.sh_type != ELF::SHT_DYNSYM)
      continue;
    auto syms = elf.symbols(&sh);
    if (!syms)
      return makeError("malformed symbol table: " +
                       toString(syms.takeError()));
    auto strtab = elf.getStringTableForSymtab(sh, *sections);
    if (!strtab)
      return makeError("malformed symbol string table: " +
                       toString(strtab.takeError()));
    for (const auto &sym : *syms) {
      auto name = sym.getName(*strtab);
      if (!name) {
        consumeError(name.takeError());
        continue;
      }
      if (name->empty() || sym.st_shndx == ELF::SHN_UNDEF)
        continue;
      symbolValues[*name] = sym.st_value;
      if (sym.getType() == ELF::STT_FUNC || sym.getType() == ELF::STT_AMDGPU_HSA_KERNEL) {
        bool seen = llvm::any_of(co.functions_, [&](const FuncSymbol &f) {
          return f.name == *name;
        });
        if (!seen)
          co.functions_.push_back({sym.st_value, sym.st_size, name->str()});
      }
    }
  }
  for (KernelInfo &k : co.kernels_) {
    auto it = symbolValues.find(k.symbol);
    if (it == symbolValues.end())
      return makeError("kernel '" + k.name + "': descriptor symbol '" +
                       k.symbol + "' is not defined in the code object");
    const uint8_t *kd = readAt(it->second, 64);
    if (!kd)
      return makeError("kernel '" + k.name + "': descriptor '" + k.symbol +
                       "' lies outside the file's loaded segments");
    k.descriptorAddress = it->second;
    k.descriptor = decodeKernelDescriptor(kd, co.chip_.value_or(Chip::gfx942));
    k.entryAddress = k.descriptorAddress + k.descriptor.kernelCodeEntryByteOffset;
    bool inCode = llvm::any_of(co.segments_, [&](const LoadSegment &s) {
      return s.executable && k.entryAddress >= s.vaddr &&
             k.entryAddress + 4 <= s.vaddr + s.fileSize;
    });
    if (!inCode)
      return makeError("kernel '" + k.name +
                       "': entry point lies outside the executable segment");
  }

  // Dynamic relocations (data that holds addresses of the image itself).
  for (const auto &sh : *sections) {
    if (sh.sh_type != ELF::SHT_RELA || !(sh.sh_flags & ELF::SHF_ALLOC))
      continue;
    auto relas = elf.relas(sh);
    if (!relas)
      return makeError("malformed relocation section: " +
                       toString(relas.takeError()));
    const object::ELFFile<ELFT>::Elf_Shdr *symtab = nullptr;
    if (sh.sh_link < sections->size())
      symtab = &(*sections)[sh.sh_link];
    for (const auto &r : *relas) {
      uint32_t type = r.getType(false);
      uint64_t symValue = 0;
      uint32_t symIndex = r.getSymbol(false);
      if (symIndex && symtab) {
        auto sym = elf.getSymbol(symtab, symIndex);
        if (!sym)
          return makeError("malformed relocation symbol: " +
                           toString(sym.takeError()));
        if ((*sym)->st_shndx == ELF::SHN_UNDEF)
          return makeError("code object has an undefined dynamic symbol: "
                           "link it with all its dependencies");
        symValue = (*sym)->st_value;
      }
      if (type != ELF::R_AMDGPU_RELATIVE64 && type != ELF::R_AMDGPU_ABS64 &&
          type != ELF::R_AMDGPU_NONE)
        return makeError("unsupported dynamic relocation type " + Twine(type));
      co.relocs_.push_back({r.r_offset, type, symValue, r.r_addend});
    }
  }
  return co;
}

const KernelInfo *CodeObject::findKernel(StringRef name) const {
  for (const KernelInfo &k : kernels_)
    if (k.name == name)
      return &k;
  return nullptr;
}

std::string CodeObject::kernelNameList() const {
  std::string out;
  for (const KernelInfo &k : kernels_) {
    if (!out.empty())
      out += ", ";
    out += k.name;
  }
  return out;
}

uint64_t CodeObject::imageSize() const {
  uint64_t end = 0;
  for (const LoadSegment &s : segments_)
    end = std::max(end, s.vaddr + s.memSize);
  return end;
}

Expected<std::vector<uint8_t>> CodeObject::buildImage(uint64_t base) const {
  uint64_t size = imageSize();
  if (size > (uint64_t(1) << 32))
    return makeError("code object image is larger than 4 GiB");
  std::vector<uint8_t> image(size, 0);
  for (const LoadSegment &s : segments_)
    std::memcpy(image.data() + s.vaddr, bytes_.data() + s.fileOffset,
                s.fileSize);
  for (const Reloc &r : relocs_) {
    if (r.type == ELF::R_AMDGPU_NONE)
      continue;
    if (r.offset + 8 > size)
      return makeError("dynamic relocation outside the loaded image");
    uint64_t value = r.type == ELF::R_AMDGPU_RELATIVE64
                         ? base + r.addend
                         : base + r.symbolValue + r.addend;
    support::endian::write64le(image.data() + r.offset, value);
  }
  return image;
}

StringRef CodeObject::symbolAt(uint64_t vaddr) const {
  for (const FuncSymbol &f : functions_)
    if (vaddr >= f.address && vaddr < f.address + std::max<uint64_t>(f.size, 1))
      return f.name;
  return "";
}

} // namespace kcc
