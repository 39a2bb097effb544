//===- OpcodeCensus.cpp - Every opcode of a chip, and whether it runs -----===//
//
// Which opcodes does LLVM's disassembler decode for a chip? Its decoder
// tables answer that, but they are not public. So the census asks the MC
// layer the other way round: every real (encodable) opcode of the AMDGPU
// target, of every generation, is encoded with placeholder operands (the
// first register of each operand's class, immediates 0), and the bytes are
// decoded with the chip's disassembler. The opcodes that come back are the
// chip's: an opcode of another generation decodes to the chip's opcode with
// that encoding, or not at all. Each decoded instruction then goes through
// the emulator's own Decoder, which says whether a handler runs it.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/OpcodeCensus.h"
#include "runtime/emu/Decoder.h"
#include "target/McDisassembler.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <map>

using namespace llvm;

namespace kcc::emu {

bool isGraphicsOnlyOpcode(StringRef opcode) {
  // Image and sampler instructions, exports, parameter interpolation, and
  // the GDS/GWS ordered operations: none reaches a compute kernel's data.
  // Also the graphics helpers among the ALU and program-control opcodes
  // (CDNA3 ISA): v_cube{id,sc,tc,ma}_f32 compute a cube-map face and its
  // coordinates for texture sampling, v_screen_partition_4se_b32 maps a
  // screen tile to one of four shader engines for primitive distribution,
  // and s_endpgm_ordered_ps_done ends a pixel shader's ordered (POPS)
  // section.
  static const char *const prefixes[] = {
      "image_",  "exp",    "v_interp_",          "ds_gws_",
      "ds_ordered_count", "v_cube", "v_screen_partition_", "s_endpgm_ordered_ps_done"};
  for (const char *p : prefixes)
    if (opcode.starts_with(p))
      return true;
  // GDS forms of DS instructions (the gds bit selects the global data share).
  return opcode.starts_with("ds_") && opcode.contains("_gds");
}

/// LLVM's opcode name without its subtarget tokens, in lower case:
/// "V_ADD_F32_e64_vi" -> "v_add_f32_e64",
/// "V_MFMA_F32_16X16X128_F8F6F4_f4_f4_gfx940_acd" -> "v_mfma_..._f4_f4_acd".
static std::string censusName(StringRef mcName) {
  SmallVector<StringRef, 12> tokens, kept;
  mcName.split(tokens, '_');
  for (StringRef t : tokens)
    if (!(t.starts_with("gfx") || t == "vi" || t == "si" || t == "ci"))
      kept.push_back(t);
  return StringRef(join(kept, "_")).lower();
}

Expected<std::vector<CensusEntry>> opcodeCensus(Chip chip) {
  auto mc = McDisassembler::create(chip);
  if (!mc)
    return mc.takeError();
  auto decoder = Decoder::get(chip);
  if (!decoder)
    return decoder.takeError();
  Triple triple("amdgcn-amd-amdhsa");
  std::string lookupError;
  const Target *target = TargetRegistry::lookupTarget(triple, lookupError);
  std::unique_ptr<MCCodeEmitter> emitter(
      target ? target->createMCCodeEmitter(*(*mc)->instrInfo, *(*mc)->context) : nullptr);
  if (!emitter)
    return createStringError(inconvertibleErrorCode(),
                             "LLVM has no AMDGPU code emitter: " + lookupError);
  const MCInstrInfo &mii = *(*mc)->instrInfo;
  const MCRegisterInfo &mri = *(*mc)->regInfo;
  const MCSubtargetInfo &sti = *(*mc)->subtarget;
  unsigned hwMode = sti.getHwMode(MCSubtargetInfo::HwMode_RegInfo);

  // An instance of `op` with the first register of each operand's class and
  // immediates 0, or (with `seed`) small pseudo-random immediates.
  auto placeholderInstruction = [&](unsigned op, uint64_t *seed, MCInst &inst) {
    const MCInstrDesc &desc = mii.get(op);
    inst.setOpcode(op);
    for (unsigned i = 0, n = desc.getNumOperands(); i < n; ++i) {
      const MCOperandInfo &info = desc.operands()[i];
      int tied = desc.getOperandConstraint(i, MCOI::TIED_TO);
      if (tied >= 0 && unsigned(tied) < i) {
        inst.addOperand(inst.getOperand(unsigned(tied)));
        continue;
      }
      if (info.RegClass < 0) {
        int64_t value = 0;
        if (seed) {
          *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
          value = int64_t((*seed >> 33) & 7);
        }
        inst.addOperand(MCOperand::createImm(value));
        continue;
      }
      int16_t rc = mii.getOpRegClassID(info, hwMode);
      if (rc < 0 || unsigned(rc) >= mri.getNumRegClasses() ||
          mri.getRegClass(unsigned(rc)).getNumRegs() == 0)
        return false;
      inst.addOperand(MCOperand::createReg(mri.getRegClass(unsigned(rc)).getRegister(0)));
    }
    return true;
  };

  std::map<std::string, CensusEntry> found;
  for (unsigned op = 0, e = mii.getNumOpcodes(); op < e; ++op) {
    const MCInstrDesc &desc = mii.get(op);
    if (desc.isPseudo() || desc.getSize() == 0)
      continue;
    // Real opcodes carry their encoding in a lower-case suffix ("_vi",
    // "_gfx940"); names without one are pseudos the emitter cannot encode.
    StringRef name = mii.getName(op);
    if (!any_of(name.rsplit('_').second, [](char c) { return c >= 'a' && c <= 'z'; }))
      continue;
    // Placeholder immediates of 0 decode back to the opcode itself for
    // almost every instruction; the few whose opcode a field selects (the
    // f8f6f4 MFMAs' operand formats in cbsz/blgp) get more tries with small
    // values from a fixed-seed generator, so the census is the same each run.
    uint64_t seed = 0x9e3779b97f4a7c15ull ^ op;
    for (unsigned attempt = 0; attempt < 48; ++attempt) {
      MCInst inst;
      if (!placeholderInstruction(op, attempt ? &seed : nullptr, inst))
        break;
      SmallString<32> bytes;
      SmallVector<MCFixup, 2> fixups;
      emitter->encodeInstruction(inst, bytes, fixups, sti);
      if (bytes.empty())
        break;
      bytes.append(16, '\0'); // room for a literal the decoder may expect
      ArrayRef<uint8_t> code(reinterpret_cast<const uint8_t *>(bytes.data()),
                             bytes.size());
      MCInst decoded;
      uint64_t size = 0;
      if ((*mc)->decoder->getInstruction(decoded, size, code, 0, nulls()) !=
              MCDisassembler::Success ||
          size == 0)
        continue;
      std::string opcode = censusName(mii.getName(decoded.getOpcode()));
      if (!found.count(opcode)) {
        Inst in;
        std::string text;
        (*decoder)->decode(code, 0, in, text);
        CensusEntry entry;
        entry.opcode = opcode;
        entry.example = text;
        entry.status = isGraphicsOnlyOpcode(opcode) ? OpcodeStatus::GraphicsOnly
                       : Decoder::implements(in)    ? OpcodeStatus::Implemented
                                                    : OpcodeStatus::Missing;
        found.emplace(opcode, std::move(entry));
      }
      if (decoded.getOpcode() == op)
        break;
    }
  }
  std::vector<CensusEntry> out;
  for (auto &[name, entry] : found)
    out.push_back(std::move(entry));
  return out;
}

} // namespace kcc::emu
