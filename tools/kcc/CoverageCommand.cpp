//===- CoverageCommand.cpp - `kcc emu-coverage`: can the emulator run it? -===//
//
//   kcc emu-coverage FILE.hsaco [--mcpu=gfx942|gfx950]
//   kcc emu-coverage --isa gfx942|gfx950 [--missing]
//
// With a code object: disassembles every kernel with the emulator's decoder
// (the instructions each kernel's entry can reach) and lists each opcode
// with its count and whether the emulator implements it for the chip, so a
// user knows before running whether a code object from any compiler can be
// emulated. Exits 1 when an opcode is missing or undecodable.
//
// With --isa: lists every opcode LLVM's disassembler decodes for the chip
// (see runtime/emu/OpcodeCensus.h) as implemented, graphics-only or missing,
// and ends with "N of M compute opcodes implemented". Exits 1 when a compute
// opcode is missing.
//
//===----------------------------------------------------------------------===//
#include "tools/kcc/RunCommand.h"
#include "target/CodeObject.h"
#include "runtime/emu/Emulator.h"
#include "runtime/emu/OpcodeCensus.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;
namespace kcc {

static int coverageFail(const Twine &message) {
  errs() << "kcc emu-coverage: error: " << message << "\n";
  return 1;
}

static const char *const coverageUsage =
    "usage: kcc emu-coverage FILE.hsaco [--mcpu=gfx942|gfx950]\n"
    "       kcc emu-coverage --isa gfx942|gfx950 [--missing]\n"
    "\n"
    "With a code object: each kernel's opcodes, their counts, and whether the\n"
    "emulator runs them on the chip (the code object's own, or --mcpu).\n"
    "With --isa: every opcode LLVM's disassembler decodes for the chip, as\n"
    "implemented, graphics-only (refused by design) or MISSING, and a last line\n"
    "'N of M compute opcodes implemented'; --missing lists only the missing.\n"
    "Exits 1 when an opcode is missing.\n";

/// `kcc emu-coverage --isa CHIP`: the census of the chip's whole ISA.
static int isaCensus(StringRef chipName, bool onlyMissing) {
  std::optional<Chip> chip = parseChip(chipName);
  if (!chip)
    return coverageFail("unknown chip '" + chipName + "'; supported: " +
                        supportedChipList());
  auto census = emu::opcodeCensus(*chip);
  if (!census)
    return coverageFail(toString(census.takeError()));
  unsigned compute = 0, implemented = 0, graphics = 0;
  for (const emu::CensusEntry &e : *census) {
    const char *status = "MISSING";
    switch (e.status) {
    case emu::OpcodeStatus::Implemented:
      status = "ok";
      ++implemented;
      ++compute;
      break;
    case emu::OpcodeStatus::GraphicsOnly:
      status = "graphics-only";
      ++graphics;
      break;
    case emu::OpcodeStatus::Missing:
      ++compute;
      break;
    }
    if (onlyMissing && e.status != emu::OpcodeStatus::Missing)
      continue;
    outs() << "  " << left_justify(e.opcode, 44) << " " << left_justify(status, 14);
    if (e.status == emu::OpcodeStatus::Missing)
      outs() << "  (" << e.example << ")";
    outs() << "\n";
  }
  outs() << getChipInfo(*chip).name << ": " << census->size() << " opcodes, "
         << graphics << " graphics-only; " << implemented << " of " << compute
         << " compute opcodes implemented\n";
  return implemented == compute ? 0 : 1;
}

int emuCoverageCommand(ArrayRef<const char *> argv) {
  std::string path, mcpu, isa;
  bool onlyMissing = false;
  for (size_t i = 0; i < argv.size(); ++i) {
    StringRef a = argv[i];
    if (a == "-h" || a == "--help") {
      outs() << coverageUsage;
      return 0;
    }
    if (a.consume_front("--mcpu="))
      mcpu = a.str();
    else if (a.consume_front("--isa="))
      isa = a.str();
    else if (a == "--isa") {
      if (i + 1 == argv.size())
        return coverageFail("--isa needs a chip: gfx942 or gfx950");
      isa = argv[++i];
    } else if (a == "--missing")
      onlyMissing = true;
    else if (a.starts_with("-"))
      return coverageFail("unknown option '" + a + "'");
    else if (path.empty())
      path = a.str();
    else
      return coverageFail("one code object at a time");
  }
  if (!isa.empty()) {
    if (!path.empty() || !mcpu.empty())
      return coverageFail("--isa takes no code object and no --mcpu");
    return isaCensus(isa, onlyMissing);
  }
  if (onlyMissing)
    return coverageFail("--missing goes with --isa");
  if (path.empty())
    return coverageFail("no code object given");
  auto file = MemoryBuffer::getFile(path, false, false);
  if (!file)
    return coverageFail("cannot read '" + path + "': " + file.getError().message());
  ArrayRef<uint8_t> bytes(reinterpret_cast<const uint8_t *>((*file)->getBufferStart()),
                          (*file)->getBufferSize());
  auto co = CodeObject::parse(bytes);
  if (!co)
    return coverageFail(path + ": " + toString(co.takeError()));
  for (const KernelInfo &k : co->kernels())
    for (const std::string &w : k.warnings)
      errs() << "kcc emu-coverage: warning: " << w << "\n";
  // The chip: --mcpu, else the code object's own.
  std::optional<Chip> chip;
  if (!mcpu.empty()) {
    chip = parseChip(mcpu);
    if (!chip)
      return coverageFail("unknown chip '" + mcpu + "'; supported: " + supportedChipList());
  } else {
    chip = co->chip();
    if (!chip)
      return coverageFail(path + " is for " + co->machineName() +
                          ", which the emulator does not support; give --mcpu");
  }

  struct Entry {
    uint64_t count = 0;
    bool implemented = true, decodable = true;
    std::string example;
  };
  bool complete = true;
  for (const KernelInfo &k : co->kernels()) {
    auto insts = emu::disassembleKernel(bytes, k.name, *chip);
    if (!insts)
      return coverageFail(toString(insts.takeError()));
    std::map<std::string, Entry> ops;
    for (const emu::DecodedInstruction &d : *insts) {
      Entry &e = ops[d.decodable ? d.mnemonic : "<undecodable>"];
      ++e.count;
      e.implemented &= d.implemented;
      e.decodable &= d.decodable;
      if (e.example.empty())
        e.example = d.text;
    }
    unsigned missing = 0;
    for (auto &[name, e] : ops)
      missing += !e.implemented;
    outs() << "kernel " << k.name << " (" << getChipInfo(*chip).name << "): "
           << insts->size() << " instructions, " << ops.size() << " opcodes, "
           << missing << " missing\n";
    for (auto &[name, e] : ops) {
      outs() << "  " << left_justify(name, 36) << format_decimal(e.count, 6) << "  "
             << (e.implemented ? "ok" : e.decodable ? "MISSING" : "UNDECODABLE");
      if (!e.implemented)
        outs() << "  (" << e.example << ")";
      outs() << "\n";
    }
    complete &= missing == 0;
  }
  if (!complete) {
    errs() << "kcc emu-coverage: " << path << " uses instructions the emulator does not "
           << "implement for " << getChipInfo(*chip).name << "\n";
    return 1;
  }
  return 0;
}

} // namespace kcc
