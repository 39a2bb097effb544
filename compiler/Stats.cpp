//===- Stats.cpp - Per-kernel resource and instruction statistics ---------===//
//
// Metadata and kernel descriptors come from target/CodeObject.h, the reader
// the loader and the emulator use, so `--stats` reports what they will act on.
// Only the kernel's code size comes from the ELF symbol table here, since the
// metadata does not record it.
//
//===----------------------------------------------------------------------===//
#include "compiler/Stats.h"

#include "compiler/CodeGen.h"
#include "target/CodeObject.h"
#include "target/Isa.h"
#include "target/McDisassembler.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace kcc {

//===----------------------------------------------------------------------===//
// Instruction classes
//===----------------------------------------------------------------------===//

StringRef instrClassName(InstrClass cls) {
  switch (cls) {
  case InstrClass::Mfma:
    return "mfma";
  case InstrClass::Valu:
    return "valu";
  case InstrClass::Transcendental:
    return "transcendental";
  case InstrClass::Salu:
    return "salu";
  case InstrClass::Smem:
    return "smem";
  case InstrClass::Vmem:
    return "vmem";
  case InstrClass::Lds:
    return "lds";
  case InstrClass::Waitcnt:
    return "waitcnt";
  case InstrClass::Barrier:
    return "barrier";
  case InstrClass::Branch:
    return "branch";
  case InstrClass::Other:
    return "other";
  }
  return "other";
}

static bool startsWithAny(StringRef s, ArrayRef<StringRef> prefixes) {
  return any_of(prefixes, [&](StringRef p) { return s.starts_with(p); });
}

InstrClass classifyMnemonic(StringRef mnemonic) {
  StringRef m = mnemonic.trim();
  if (m.starts_with("v_")) {
    // target/'s rules (Isa.h), which the timing model keys on too. They
    // leave v_mfma_ld_scale_b32, which only loads the scales of the scaled
    // MFMA that follows it, on the VALU.
    if (isMfma(m))
      return InstrClass::Mfma;
    if (isTranscendental(m))
      return InstrClass::Transcendental;
    return InstrClass::Valu;
  }
  if (m.starts_with("ds_"))
    return InstrClass::Lds;
  if (startsWithAny(m, {"buffer_", "tbuffer_", "global_", "flat_", "scratch_"}))
    return InstrClass::Vmem;
  if (m.starts_with("s_")) {
    if (startsWithAny(m, {"s_load_", "s_store_", "s_buffer_load",
                          "s_buffer_store", "s_buffer_atomic", "s_atomic_",
                          "s_scratch_", "s_dcache_", "s_memtime",
                          "s_memrealtime", "s_atc_probe"}))
      return InstrClass::Smem;
    if (m.starts_with("s_waitcnt"))
      return InstrClass::Waitcnt;
    if (m.starts_with("s_barrier"))
      return InstrClass::Barrier;
    if (startsWithAny(m, {"s_branch", "s_cbranch_", "s_setpc_", "s_swappc_",
                          "s_call_"}))
      return InstrClass::Branch;
    // Program control and scheduling hints: they occupy issue slots but do
    // no scalar arithmetic.
    if (startsWithAny(m, {"s_nop", "s_endpgm", "s_setprio", "s_sleep",
                          "s_sendmsg", "s_trap", "s_icache_inv", "s_code_end",
                          "s_sethalt", "s_ttracedata", "s_set_gpr_idx",
                          "s_setkill", "s_incperflevel", "s_decperflevel"}))
      return InstrClass::Other;
    return InstrClass::Salu;
  }
  return InstrClass::Other;
}

unsigned InstructionCounts::total() const {
  unsigned sum = 0;
  for (unsigned n : byClass)
    sum += n;
  return sum;
}

//===----------------------------------------------------------------------===//
// Disassembly
//===----------------------------------------------------------------------===//

Expected<InstructionCounts> countInstructions(Chip chip, ArrayRef<uint8_t> code,
                                              uint64_t address) {
  Expected<std::unique_ptr<McDisassembler>> d = McDisassembler::create(chip);
  if (!d)
    return d.takeError();

  InstructionCounts counts;
  std::string text;
  uint64_t offset = 0;
  while (offset < code.size()) {
    MCInst inst;
    uint64_t size = 0;
    MCDisassembler::DecodeStatus status = (*d)->decoder->getInstruction(
        inst, size, code.slice(offset), address + offset, nulls());
    if (status == MCDisassembler::Fail || size == 0)
      return createStringError(
          inconvertibleErrorCode(),
          "cannot decode the %s instruction at address 0x%llx (bytes %s)",
          getChipInfo(chip).name.str().c_str(),
          (unsigned long long)(address + offset),
          toHex(code.slice(offset, std::min<uint64_t>(8, code.size() - offset)))
              .c_str());
    // The printed form names the instruction the way the ISA documents and
    // LLVM's assembler do; its first word is the mnemonic.
    text.clear();
    raw_string_ostream os(text);
    (*d)->printer->printInst(&inst, address + offset, /*Annot=*/"", *(*d)->subtarget,
                          os);
    StringRef mnemonic = StringRef(text).ltrim().split(' ').first;
    ++counts.byClass[unsigned(classifyMnemonic(mnemonic))];
    ++counts.byMnemonic[mnemonic.str()];
    offset += size;
  }
  return std::move(counts);
}

//===----------------------------------------------------------------------===//
// Code objects
//===----------------------------------------------------------------------===//

namespace {
struct CodeRange {
  uint64_t address = 0;
  ArrayRef<uint8_t> bytes;
};
} // namespace

/// The bytes of the function that starts at `entry`: its size from the symbol
/// table (the metadata does not record it), its bytes from the executable
/// load segment that holds it.
static Expected<CodeRange> findKernelCode(const CodeObject &object,
                                          const KernelInfo &kernel) {
  ArrayRef<uint8_t> bytes = object.bytes();
  StringRef data(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  Expected<object::ELF64LEFile> file = object::ELF64LEFile::create(data);
  if (!file)
    return file.takeError();
  Expected<object::ELF64LEFile::Elf_Shdr_Range> sections = file->sections();
  if (!sections)
    return sections.takeError();

  std::optional<uint64_t> size;
  for (const object::ELF64LE::Shdr &section : *sections) {
    if (section.sh_type != ELF::SHT_SYMTAB &&
        section.sh_type != ELF::SHT_DYNSYM)
      continue;
    Expected<object::ELF64LEFile::Elf_Sym_Range> symbols =
        file->symbols(&section);
    if (!symbols)
      return symbols.takeError();
    for (const object::ELF64LE::Sym &symbol : *symbols)
      if (symbol.getType() == ELF::STT_FUNC &&
          symbol.st_value == kernel.entryAddress && symbol.st_size != 0)
        size = symbol.st_size;
    if (size)
      break;
  }
  if (!size)
    return createStringError(inconvertibleErrorCode(),
                             "kernel '%s': no function symbol at its entry "
                             "0x%llx gives the size of its code",
                             kernel.name.c_str(),
                             (unsigned long long)kernel.entryAddress);

  for (const LoadSegment &segment : object.segments()) {
    if (!segment.executable || kernel.entryAddress < segment.vaddr ||
        kernel.entryAddress + *size > segment.vaddr + segment.fileSize)
      continue;
    uint64_t offset = segment.fileOffset + (kernel.entryAddress - segment.vaddr);
    if (offset + *size > bytes.size())
      break;
    return CodeRange{kernel.entryAddress, bytes.slice(offset, *size)};
  }
  return createStringError(inconvertibleErrorCode(),
                           "kernel '%s': its code (0x%llx, %llu bytes) lies "
                           "outside every executable segment of the file",
                           kernel.name.c_str(),
                           (unsigned long long)kernel.entryAddress,
                           (unsigned long long)*size);
}

Expected<std::vector<KernelStats>> computeStats(ArrayRef<uint8_t> codeObject) {
  Expected<CodeObject> object = CodeObject::parse(codeObject);
  if (!object)
    return object.takeError();
  if (!object->chip())
    return createStringError(inconvertibleErrorCode(),
                             "the code object is for %s; kcc supports %s",
                             object->machineName().str().c_str(),
                             supportedChipList().str().c_str());
  Chip chip = *object->chip();
  const ChipInfo &info = getChipInfo(chip);

  std::vector<KernelStats> result;
  for (const KernelInfo &kernel : object->kernels()) {
    KernelStats stats;
    stats.name = kernel.name;
    stats.chip = chip;
    // On gfx90a and later `.vgpr_count` counts the whole unified file a wave
    // uses: arch VGPRs rounded up to 4 (the accum_offset), then the AGPRs.
    stats.agprs = kernel.agprCount;
    stats.vgprs = kernel.agprCount != 0 && kernel.vgprCount >= kernel.agprCount
                      ? kernel.vgprCount - kernel.agprCount
                      : kernel.vgprCount;
    // What the hardware allocates is the descriptor's granulated count.
    stats.allocatedVgprs =
        (kernel.descriptor.granulatedWorkitemVgprCount + 1) *
        info.vgprAllocGranule;
    stats.sgprs = kernel.sgprCount;
    stats.vgprSpills = kernel.vgprSpillCount;
    stats.sgprSpills = kernel.sgprSpillCount;
    stats.scratchBytes = kernel.privateSegmentFixedSize;
    stats.ldsBytes = kernel.groupSegmentFixedSize;
    stats.usesDynamicStack = kernel.usesDynamicStack;
    // LLVM's default bound when a kernel states none.
    stats.workgroupSize =
        kernel.maxFlatWorkgroupSize ? kernel.maxFlatWorkgroupSize : 1024;
    stats.occupancy = computeOccupancy(
        chip, kernelResources(kernel, chip, stats.workgroupSize));

    Expected<CodeRange> code = findKernelCode(*object, kernel);
    if (!code)
      return code.takeError();
    stats.codeBytes = code->bytes.size();
    Expected<InstructionCounts> counts =
        countInstructions(chip, code->bytes, code->address);
    if (!counts)
      return createStringError(inconvertibleErrorCode(), "kernel '%s': %s",
                               kernel.name.c_str(),
                               toString(counts.takeError()).c_str());
    stats.instructions = std::move(*counts);
    result.push_back(std::move(stats));
  }
  return std::move(result);
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

static const InstrClass kAllClasses[] = {
    InstrClass::Mfma,    InstrClass::Valu,    InstrClass::Transcendental,
    InstrClass::Salu,    InstrClass::Smem,    InstrClass::Vmem,
    InstrClass::Lds,     InstrClass::Waitcnt, InstrClass::Barrier,
    InstrClass::Branch,  InstrClass::Other};

void printStatsTable(raw_ostream &os, ArrayRef<KernelStats> stats) {
  for (const KernelStats &k : stats) {
    const ChipInfo &info = getChipInfo(k.chip);
    os << "kernel " << k.name << " (" << info.name << ")\n";
    os << "  registers     " << k.vgprs << " VGPRs, " << k.agprs << " AGPRs ("
       << k.allocatedVgprs << " of " << info.vgprsPerSimdLane
       << " allocated), " << k.sgprs << " SGPRs\n";
    os << "  spills        " << k.vgprSpills << " VGPR, " << k.sgprSpills
       << " SGPR\n";
    os << "  scratch       " << k.scratchBytes << " bytes per work-item"
       << (k.usesDynamicStack ? " + dynamic stack" : "") << "\n";
    os << "  LDS           " << k.ldsBytes << " bytes per workgroup (of "
       << info.ldsBytesPerCU << " per CU)\n";
    os << "  occupancy     " << k.occupancy.wavesPerSimd << " of "
       << info.maxWavesPerSimd << " waves per SIMD, limited by "
       << occupancyLimitName(k.occupancy.limitedBy) << " (workgroup size "
       << k.workgroupSize << ")\n";
    os << "  code          " << k.codeBytes << " bytes, "
       << k.instructions.total() << " instructions\n";
    for (InstrClass cls : kAllClasses)
      os << "    " << left_justify(instrClassName(cls), 16)
         << format_decimal(k.instructions[cls], 7) << "\n";
  }
}

void printStatsJSON(raw_ostream &os, ArrayRef<KernelStats> stats) {
  json::OStream j(os, /*IndentSize=*/2);
  j.object([&] {
    j.attributeArray("kernels", [&] {
      for (const KernelStats &k : stats) {
        j.object([&] {
          j.attribute("name", k.name);
          j.attribute("chip", getChipInfo(k.chip).name);
          j.attribute("vgprs", k.vgprs);
          j.attribute("agprs", k.agprs);
          j.attribute("allocated_vgprs", k.allocatedVgprs);
          j.attribute("sgprs", k.sgprs);
          j.attribute("vgpr_spills", k.vgprSpills);
          j.attribute("sgpr_spills", k.sgprSpills);
          j.attribute("scratch_bytes", k.scratchBytes);
          j.attribute("dynamic_stack", k.usesDynamicStack);
          j.attribute("lds_bytes", k.ldsBytes);
          j.attribute("workgroup_size", k.workgroupSize);
          j.attribute("waves_per_simd", k.occupancy.wavesPerSimd);
          j.attribute("occupancy_limit",
                      occupancyLimitName(k.occupancy.limitedBy));
          j.attribute("code_bytes", k.codeBytes);
          j.attributeObject("instructions", [&] {
            j.attribute("total", k.instructions.total());
            for (InstrClass cls : kAllClasses)
              j.attribute(instrClassName(cls), k.instructions[cls]);
          });
          j.attributeObject("mnemonics", [&] {
            for (const auto &[mnemonic, count] : k.instructions.byMnemonic)
              j.attribute(mnemonic, count);
          });
        });
      }
    });
  });
  os << "\n";
}

} // namespace kcc
