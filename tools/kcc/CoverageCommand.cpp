//===- CoverageCommand.cpp - `kcc emu-coverage`: can the emulator run it? -===//
//
//   kcc emu-coverage FILE.hsaco [--mcpu=gfx942|gfx950]
//
// Disassembles every kernel of a code object with the emulator's decoder
// (the instructions each kernel's entry can reach) and lists each opcode
// with its count and whether the emulator implements it for the chip, so a
// user knows before running whether a code object from any compiler can be
// emulated. Exits 1 when an opcode is missing or undecodable.
//
//===----------------------------------------------------------------------===//
#include "tools/kcc/RunCommand.h"
#include "target/CodeObject.h"
#include "runtime/emu/Emulator.h"

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

int emuCoverageCommand(ArrayRef<const char *> argv) {
  std::string path, mcpu;
  for (StringRef a : argv) {
    if (a == "-h" || a == "--help") {
      outs() << "usage: kcc emu-coverage FILE.hsaco [--mcpu=gfx942|gfx950]\n";
      return 0;
    }
    if (a.consume_front("--mcpu="))
      mcpu = a.str();
    else if (a.starts_with("-"))
      return coverageFail("unknown option '" + a + "'");
    else if (path.empty())
      path = a.str();
    else
      return coverageFail("one code object at a time");
  }
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
