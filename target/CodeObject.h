//===- CodeObject.h - Reader of AMDGPU HSA code objects --------*- C++ -*-===//
//
// Reads an AMDGPU ELF code object (v5; v4 accepted) as the ROCm loader does:
// the target (e_flags machine), the AMDGPU metadata note (NT_AMDGPU_METADATA,
// msgpack) with every kernel's arguments, segment sizes and register counts,
// and each kernel's 64-byte descriptor (`<kernel>.kd`). Used by the emulator
// to set up waves and by `kcc --stats` to report resource usage.
//
// Malformed input (truncated ELF, missing note, unknown machine, a descriptor
// outside the file) is an llvm::Error naming what is wrong; nothing here
// asserts on the bytes it is given.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TARGET_CODEOBJECT_H
#define KCC_TARGET_CODEOBJECT_H

#include "target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kcc {

/// `.value_kind` of a kernel argument (AMDGPUUsage, code object v5 metadata).
enum class ArgKind {
  ByValue,
  GlobalBuffer,
  DynamicSharedPointer,
  Sampler,
  Image,
  Pipe,
  Queue,
  HiddenGlobalOffsetX,
  HiddenGlobalOffsetY,
  HiddenGlobalOffsetZ,
  HiddenNone,
  HiddenPrintfBuffer,
  HiddenHostcallBuffer,
  HiddenDefaultQueue,
  HiddenCompletionAction,
  HiddenMultigridSyncArg,
  HiddenBlockCountX,
  HiddenBlockCountY,
  HiddenBlockCountZ,
  HiddenGroupSizeX,
  HiddenGroupSizeY,
  HiddenGroupSizeZ,
  HiddenRemainderX,
  HiddenRemainderY,
  HiddenRemainderZ,
  HiddenGridDims,
  HiddenHeapV1,
  HiddenDynamicLdsSize,
  HiddenPrivateBase,
  HiddenSharedBase,
  HiddenQueuePtr,
  Unknown, // a value kind this reader does not know; `valueKind` has the text
};

/// True for every `hidden_*` kind: arguments the runtime fills, not the user.
bool isHiddenArg(ArgKind kind);

/// One entry of a kernel's `.args`.
struct KernelArg {
  std::string name;         // `.name` (may be empty)
  std::string typeName;     // `.type_name`, the source type ("float*")
  std::string valueKind;    // `.value_kind` as written
  ArgKind kind = ArgKind::Unknown;
  uint32_t offset = 0;      // `.offset` in the kernarg segment
  uint32_t size = 0;        // `.size` in bytes
  /// `.address_space` for pointers: "global", "constant", "local", ...
  std::optional<std::string> addressSpace;
  std::optional<std::string> accessQualifier; // `.access` / `.actual_access`
  bool isConst = false, isRestrict = false, isVolatile = false;

  bool isHidden() const { return isHiddenArg(kind); }
  /// A pointer the user passes (global buffer or a by-value pointer).
  bool isPointer() const {
    return kind == ArgKind::GlobalBuffer ||
           kind == ArgKind::DynamicSharedPointer;
  }
};

/// The 64-byte kernel descriptor (llvm/Support/AMDHSAKernelDescriptor.h),
/// raw words plus the fields the loader and the emulator act on.
struct KernelDescriptor {
  uint32_t groupSegmentFixedSize = 0;
  uint32_t privateSegmentFixedSize = 0;
  uint32_t kernargSize = 0;
  int64_t kernelCodeEntryByteOffset = 0; // relative to the descriptor
  uint32_t computePgmRsrc1 = 0, computePgmRsrc2 = 0, computePgmRsrc3 = 0;
  uint16_t kernelCodeProperties = 0;
  uint16_t kernargPreload = 0;

  // compute_pgm_rsrc1.
  uint32_t granulatedWorkitemVgprCount = 0;
  uint32_t granulatedWavefrontSgprCount = 0;
  uint32_t floatRoundMode32 = 0, floatRoundMode1664 = 0;
  uint32_t floatDenormMode32 = 0, floatDenormMode1664 = 0;
  bool ieeeMode = false, dx10Clamp = false;
  // compute_pgm_rsrc2.
  bool enablePrivateSegment = false;
  uint32_t userSgprCount = 0;
  bool enableTrapHandler = false;
  bool enableSgprWorkgroupIdX = false, enableSgprWorkgroupIdY = false,
       enableSgprWorkgroupIdZ = false;
  bool enableSgprWorkgroupInfo = false;
  /// 0: only X, 1: X and Y, 2: X, Y and Z work-item ids.
  uint32_t enableVgprWorkitemId = 0;
  // compute_pgm_rsrc3 (gfx90a+).
  /// First AGPR's index in the unified register file: (field + 1) * 4.
  uint32_t accumOffset = 0;
  bool tgSplit = false;
  // kernel_code_properties: user SGPRs in this order (AMDGPUUsage "Initial
  // Kernel Execution State").
  bool enableSgprPrivateSegmentBuffer = false; // 4 SGPRs
  bool enableSgprDispatchPtr = false;          // 2
  bool enableSgprQueuePtr = false;             // 2
  bool enableSgprKernargSegmentPtr = false;    // 2
  bool enableSgprDispatchId = false;           // 2
  bool enableSgprFlatScratchInit = false;      // 2
  bool enableSgprPrivateSegmentSize = false;   // 1
  bool usesDynamicStack = false;
  // kernarg_preload (gfx940+): kernarg dwords preloaded into user SGPRs.
  uint32_t kernargPreloadLength = 0, kernargPreloadOffset = 0;
  /// On gfx90a and later the work-item ids arrive packed in v0 (x in bits
  /// 0-9, y in 10-19, z in 20-29) instead of v0, v1, v2.
  bool packedWorkitemIds = false;
};

/// One kernel of a code object: metadata and descriptor together.
struct KernelInfo {
  std::string name;   // `.name`
  std::string symbol; // `.symbol`, the descriptor symbol ("name.kd")
  std::vector<KernelArg> args;
  uint32_t groupSegmentFixedSize = 0;
  uint32_t privateSegmentFixedSize = 0;
  uint32_t kernargSegmentSize = 0;
  uint32_t kernargSegmentAlign = 0;
  uint32_t wavefrontSize = 64;
  uint32_t sgprCount = 0, vgprCount = 0, agprCount = 0;
  uint32_t sgprSpillCount = 0, vgprSpillCount = 0;
  uint32_t maxFlatWorkgroupSize = 0;
  /// `.reqd_workgroup_size` (x, y, z), when the kernel requires one: a
  /// launch with any other block is wrong, whatever its total.
  std::optional<std::array<uint32_t, 3>> reqdWorkgroupSize;
  bool usesDynamicStack = false;
  /// `.uniform_work_group_size`, when present.
  std::optional<bool> uniformWorkGroupSize;
  /// What the metadata says that the loader does not follow, and what was
  /// done instead (an argument outside the kernarg segment, left out, as
  /// the HIP loader never passes it): the kernel still loads and runs.
  std::vector<std::string> warnings;

  KernelDescriptor descriptor;
  /// Virtual address (in the code object's own address space, as linked) of
  /// the descriptor and of the first instruction.
  uint64_t descriptorAddress = 0;
  uint64_t entryAddress = 0;

  /// Explicit (non-hidden) arguments in order.
  std::vector<const KernelArg *> explicitArgs() const;
  /// Bytes of kernarg segment the user's explicit arguments span.
  uint32_t explicitArgsSize() const;
};

/// One PT_LOAD segment of the code object.
struct LoadSegment {
  uint64_t vaddr = 0;
  uint64_t memSize = 0;
  uint64_t fileOffset = 0, fileSize = 0;
  bool executable = false;
};

/// A parsed code object. Owns a copy of the bytes, so it outlives the input.
class CodeObject {
public:
  /// Parses `bytes`. Errors name the problem ("code object is truncated",
  /// "no NT_AMDGPU_METADATA note", "unsupported machine gfx90a").
  static llvm::Expected<CodeObject> parse(llvm::ArrayRef<uint8_t> bytes);
  /// Reads and parses a file.
  static llvm::Expected<CodeObject> readFile(llvm::StringRef path);

  /// The chip of e_flags; std::nullopt when it is an AMDGPU machine kcc does
  /// not support (then `machineName()` still says which).
  std::optional<Chip> chip() const { return chip_; }
  llvm::StringRef machineName() const { return machineName_; }
  /// `amdhsa.target`, e.g. "amdgcn-amd-amdhsa--gfx942".
  llvm::StringRef targetTriple() const { return target_; }
  /// Code object version: 4 or 5 (6 is read the same way).
  unsigned version() const { return version_; }
  bool xnackOn() const { return xnackOn_; }
  bool sramEccOn() const { return sramEccOn_; }

  llvm::ArrayRef<KernelInfo> kernels() const { return kernels_; }
  const KernelInfo *findKernel(llvm::StringRef name) const;
  /// "a, b, c": for "unknown kernel" diagnostics.
  std::string kernelNameList() const;

  /// The file as given.
  llvm::ArrayRef<uint8_t> bytes() const { return bytes_; }
  llvm::ArrayRef<LoadSegment> segments() const { return segments_; }
  /// Size of the image when all PT_LOAD segments are placed at their vaddr
  /// from 0: what a loader allocates.
  uint64_t imageSize() const;
  /// The loaded image (segments copied to their vaddr, bss zeroed) with the
  /// dynamic relocations (R_AMDGPU_RELATIVE64, R_AMDGPU_ABS64 to defined
  /// symbols) applied for a load at `base`.
  llvm::Expected<std::vector<uint8_t>> buildImage(uint64_t base) const;

  /// A function or kernel symbol covering `vaddr`, for diagnostics.
  llvm::StringRef symbolAt(uint64_t vaddr) const;

private:
  struct Reloc {
    uint64_t offset;
    uint32_t type;
    uint64_t symbolValue;
    int64_t addend;
  };
  struct FuncSymbol {
    uint64_t address, size;
    std::string name;
  };

  std::vector<uint8_t> bytes_;
  std::optional<Chip> chip_;
  std::string machineName_;
  std::string target_;
  unsigned version_ = 0;
  bool xnackOn_ = false, sramEccOn_ = false;
  std::vector<KernelInfo> kernels_;
  std::vector<LoadSegment> segments_;
  std::vector<Reloc> relocs_;
  std::vector<FuncSymbol> functions_;
};

/// Decodes the descriptor fields from 64 raw bytes for `chip`'s rules.
KernelDescriptor decodeKernelDescriptor(const uint8_t bytes[64], Chip chip);

/// The metadata's name of an argument kind ("global_buffer").
llvm::StringRef argKindName(ArgKind kind);

} // namespace kcc

#endif // KCC_TARGET_CODEOBJECT_H
