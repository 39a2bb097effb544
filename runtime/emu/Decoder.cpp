//===- Decoder.cpp - Predecoding of gfx942/gfx950 machine code ------------===//
//
// The AMDGPU-internal opcode and operand-name enums are not installed with
// LLVM, so the mapping works from what MC exposes: the opcode's name, the
// register names, and MCInstrDesc's operand table. The operand order of AMDGPU
// MC instructions is: defs, then for each source an optional modifier
// immediate (an operand without a register class) directly before it, then
// the control immediates (clamp, omod, offsets, cache policy, DPP/SDWA
// controls, MFMA cbsz/abid/blgp).
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Decoder.h"
#include "target/McDisassembler.h"
#include "target/CodeObject.h"
#include "runtime/emu/Emulator.h"
#include "runtime/emu/Ops.h"
#include "runtime/emu/OpcodeCensus.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <map>
#include <mutex>

using namespace llvm;
namespace kcc::emu {

struct Decoder::Impl {
  Chip chip;
  std::unique_ptr<McDisassembler> mc; // target/McDisassembler.h
  // Shorthands into `mc`.
  MCRegisterInfo *mri = nullptr;
  MCSubtargetInfo *sti = nullptr;
  MCInstrInfo *mii = nullptr;
  MCDisassembler *dis = nullptr;
  MCInstPrinter *printer = nullptr;
  // Register number -> operand template, filled on first sight. Guarded by
  // `lock`: Programs of several devices may decode concurrently.
  mutable DenseMap<unsigned, Opnd> regs;
  mutable std::mutex lock;
  /// MCOperandInfo::OperandType of source-modifier operands (AMDGPU's
  /// OPERAND_INPUT_MODS, not installed): learnt from V_ADD_F32_e64, whose
  /// operand 1 is src0_modifiers.
  int modsOperandType = -1;

  Opnd mapRegister(unsigned reg) const;
};

static void faultUndecodable(Wave &w, const Inst &in) {
  w.fault("cannot decode the instruction bytes");
}
static void faultUnsupported(Wave &w, const Inst &in) {
  w.fault("unsupported instruction");
}
static void faultGraphicsOnly(Wave &w, const Inst &in) {
  w.fault("graphics-only instruction (images, exports, interpolation, GDS/GWS, "
          "cube maps, screen partitions, pixel-shader ordering): not part of "
          "the compute ISA the emulator runs");
}

/// Parses an MC register name ("VGPR4_VGPR5", "SGPR_NULL", "M0_gfxpre11")
/// into an operand template.
Opnd Decoder::Impl::mapRegister(unsigned reg) const {
  Opnd o;
  StringRef name = mri->getName(reg);
  SmallVector<StringRef, 16> tokens;
  name.split(tokens, '_');
  // Lower-case tokens are subtarget suffixes ("gfxpre11", "vi", "gfx9plus").
  SmallVector<StringRef, 16> upper;
  for (StringRef t : tokens)
    if (!llvm::any_of(t, [](char c) { return c >= 'a' && c <= 'z'; }))
      upper.push_back(t);
  auto tuple = [&](StringRef prefix, OpndKind kind, unsigned base) -> bool {
    if (upper.empty() || !upper[0].starts_with(prefix))
      return false;
    unsigned first;
    if (upper[0].drop_front(prefix.size()).getAsInteger(10, first))
      return false;
    o.kind = kind;
    o.reg = uint16_t(base + first);
    o.width = uint8_t(upper.size());
    return true;
  };
  if (tuple("VGPR", OpndKind::Vgpr, 0) || tuple("AGPR", OpndKind::Vgpr, kAgprBase) ||
      tuple("TTMP", OpndKind::Sgpr, 108))
    return o;
  if (!upper.empty() && upper[0].starts_with("SGPR") && upper[0] != "SGPR" &&
      tuple("SGPR", OpndKind::Sgpr, 0))
    return o;
  std::string joined = llvm::join(upper, "_");
  struct Special {
    const char *name;
    OpndKind kind;
    unsigned reg, width;
  } specials[] = {
      {"VCC", OpndKind::Sgpr, kSgprVcc, 2},
      {"VCC_LO", OpndKind::Sgpr, kSgprVcc, 1},
      {"VCC_HI", OpndKind::Sgpr, kSgprVcc + 1, 1},
      {"EXEC", OpndKind::Sgpr, kSgprExec, 2},
      {"EXEC_LO", OpndKind::Sgpr, kSgprExec, 1},
      {"EXEC_HI", OpndKind::Sgpr, kSgprExec + 1, 1},
      {"M0", OpndKind::Sgpr, kSgprM0, 1},
      {"FLAT_SCR", OpndKind::Sgpr, kSgprFlatScratch, 2},
      {"FLAT_SCR_LO", OpndKind::Sgpr, kSgprFlatScratch, 1},
      {"FLAT_SCR_HI", OpndKind::Sgpr, kSgprFlatScratch + 1, 1},
      {"XNACK_MASK", OpndKind::Sgpr, 104, 2},
      {"XNACK_MASK_LO", OpndKind::Sgpr, 104, 1},
      {"XNACK_MASK_HI", OpndKind::Sgpr, 105, 1},
      {"SGPR_NULL", OpndKind::Sgpr, kSgprNull, 1},
      {"SGPR_NULL64", OpndKind::Sgpr, kSgprNull, 2},
      {"SRC_SCC", OpndKind::Scc, 0, 1},
      {"SCC", OpndKind::Scc, 0, 1},
      {"SRC_VCCZ", OpndKind::Vccz, 0, 1},
      {"SRC_EXECZ", OpndKind::Execz, 0, 1},
      {"SRC_SHARED_BASE", OpndKind::SharedBase, 0, 2},
      {"SRC_SHARED_BASE_LO", OpndKind::SharedBase, 0, 1},
      {"SRC_SHARED_LIMIT", OpndKind::SharedLimit, 0, 2},
      {"SRC_SHARED_LIMIT_LO", OpndKind::SharedLimit, 0, 1},
      {"SRC_PRIVATE_BASE", OpndKind::PrivateBase, 0, 2},
      {"SRC_PRIVATE_BASE_LO", OpndKind::PrivateBase, 0, 1},
      {"SRC_PRIVATE_LIMIT", OpndKind::PrivateLimit, 0, 2},
      {"SRC_PRIVATE_LIMIT_LO", OpndKind::PrivateLimit, 0, 1},
  };
  for (const Special &s : specials)
    if (joined == s.name) {
      o.kind = s.kind;
      o.reg = uint16_t(s.reg);
      o.width = uint8_t(s.width);
      return o;
    }
  o.kind = OpndKind::None; // unknown register: the instruction is unsupported
  return o;
}

/// Strips encoding and subtarget suffix tokens from an MC opcode name,
/// collecting the encoding ones as form flags.
static std::string normaliseName(StringRef name, uint32_t &form) {
  SmallVector<StringRef, 12> tokens;
  name.split(tokens, '_');
  struct Suffix {
    const char *token;
    uint32_t flag;
  } suffixes[] = {
      {"e32", kFormE32},       {"e64", kFormE64},
      {"sdwa", kFormSdwa},     {"dpp", kFormDpp},
      {"dpp8", kFormDpp8},     {"OFFEN", kFormOffen},
      {"IDXEN", kFormIdxen},   {"BOTHEN", kFormBothen},
      {"OFFSET", kFormOffsetOnly}, {"ADDR64", kFormAddr64},
      {"LDS", kFormLds},       {"SADDR", kFormSaddr},
      {"IMM", kFormSmemImm},   {"SGPR", kFormSmemSgpr},
      {"RTN", kFormRtn},       {"acd", kFormAccCd},
      {"vcd", kFormVgprCd},    {"vgprcd", kFormVgprCd},
      {"VE", kFormVe},         {"SVS", kFormSvs},
      {"mac", 0},              {"ST", 0},
      // DS and FLAT results returned to AGPRs (the register operand says
      // so), and SMEM's alternative encoding of the same instruction.
      {"agpr", 0},             {"alt", 0},
  };
  while (tokens.size() > 1) {
    StringRef t = tokens.back();
    bool known = false;
    if (t.starts_with("gfx") || t == "vi" || t == "si" || t == "ci" ||
        t == "gfx6" || t == "gfx7") {
      known = true;
    } else if (t == "opsel" && (name.starts_with("V_ALIGNBIT_B32_") ||
                                name.starts_with("V_ALIGNBYTE_B32_"))) {
      // gfx9's v_alignbit_b32/v_alignbyte_b32 are V_*_opsel_gfx9 in MC (they
      // accept op_sel); their handler refuses op_sel bits it does not model.
      known = true;
    } else {
      for (const Suffix &s : suffixes)
        if (t == s.token) {
          form |= s.flag;
          known = true;
          break;
        }
    }
    if (!known)
      break;
    tokens.pop_back();
  }
  return llvm::join(tokens, "_");
}

/// The counters and ordering role of an instruction (see MemClassFlags),
/// from its normalised name: every family of one memory path shares a
/// prefix.
static uint8_t memClassOf(StringRef name, uint32_t form) {
  if (name == "S_WAITCNT")
    return kMemClassWaitcnt;
  if (name == "S_BARRIER")
    return kMemClassBarrier;
  if (name == "BUFFER_WBL2")
    return kMemClassVm | kMemClassWbl2;
  if (name == "BUFFER_INV" || name.starts_with("BUFFER_WBINVL1"))
    return kMemClassInv;
  if (name.starts_with("BUFFER_") || name.starts_with("TBUFFER_"))
    return kMemClassVm | ((form & kFormLds) ? kMemClassLdsDma : 0);
  // global_load_lds_* and scratch_load_lds_* are LDS DMA like buffer_load
  // ... lds; "LDS" is part of their name, not an encoding suffix.
  if (name.starts_with("GLOBAL_LOAD_LDS_") || name.starts_with("SCRATCH_LOAD_LDS_"))
    return kMemClassVm | kMemClassLdsDma;
  if (name.starts_with("GLOBAL_") || name.starts_with("SCRATCH_"))
    return kMemClassVm;
  // FLAT may reach LDS or memory: it counts in both counters.
  if (name.starts_with("FLAT_"))
    return kMemClassVm | kMemClassLgkm;
  if (name.starts_with("DS_"))
    return kMemClassLgkm;
  if (name.starts_with("S_LOAD_") || name.starts_with("S_BUFFER_LOAD_") ||
      name.starts_with("S_SCRATCH_") || name.starts_with("S_STORE_") ||
      name.starts_with("S_BUFFER_STORE_") || name.starts_with("S_ATOMIC_") ||
      name.starts_with("S_BUFFER_ATOMIC_") || name == "S_MEMTIME" ||
      name == "S_MEMREALTIME" || name.starts_with("S_DCACHE_WB") ||
      name.starts_with("S_DCACHE_INV"))
    return kMemClassSmem;
  return 0;
}

Expected<const Decoder *> Decoder::get(Chip chip) {
  static std::mutex initLock;
  static std::unique_ptr<Decoder> decoders[2];
  std::lock_guard<std::mutex> guard(initLock);
  unsigned slot = chip == Chip::gfx942 ? 0 : 1;
  if (decoders[slot])
    return decoders[slot].get();
  Expected<std::unique_ptr<McDisassembler>> mc = McDisassembler::create(chip);
  if (!mc)
    return mc.takeError();
  auto impl = std::make_unique<Impl>();
  impl->chip = chip;
  impl->mc = std::move(*mc);
  impl->mri = impl->mc->regInfo.get();
  impl->sti = impl->mc->subtarget.get();
  impl->mii = impl->mc->instrInfo.get();
  impl->dis = impl->mc->decoder.get();
  impl->printer = impl->mc->printer.get();
  for (unsigned op = 0, e = impl->mii->getNumOpcodes(); op < e; ++op)
    if (impl->mii->getName(op) == "V_ADD_F32_e64_vi") {
      const MCInstrDesc &d = impl->mii->get(op);
      if (d.getNumOperands() > 1)
        impl->modsOperandType = d.operands()[1].OperandType;
      break;
    }
  if (impl->modsOperandType < 0)
    return createStringError(inconvertibleErrorCode(),
                             "cannot identify source-modifier operands in this "
                             "LLVM's AMDGPU instruction tables");
  decoders[slot].reset(new Decoder(std::move(impl)));
  return decoders[slot].get();
}

Decoder::Decoder(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Decoder::~Decoder() = default;

bool Decoder::implements(const Inst &in) {
  return in.exec && in.exec != faultUndecodable && in.exec != faultUnsupported &&
         in.exec != faultGraphicsOnly;
}

void Decoder::decode(ArrayRef<uint8_t> bytes, uint64_t address, Inst &out,
                     std::string &text) const {
  std::lock_guard<std::mutex> guard(impl->lock);
  MCInst mc;
  uint64_t size = 0;
  out = Inst();
  out.pc = address;
  auto status = impl->dis->getInstruction(mc, size, bytes, address, nulls());
  if (status != MCDisassembler::Success || size == 0) {
    uint32_t word = 0;
    for (unsigned i = 0; i < 4 && i < bytes.size(); ++i)
      word |= uint32_t(bytes[i]) << (8 * i);
    text = "<undecodable 0x" + utohexstr(word) + ">";
    out.exec = faultUndecodable;
    out.size = 4;
    return;
  }
  out.size = uint32_t(size);
  {
    raw_string_ostream os(text);
    impl->printer->printInst(&mc, address, "", *impl->sti, os);
  }
  StringRef trimmed = StringRef(text).trim();
  text = trimmed.str();

  const MCInstrDesc &desc = impl->mii->get(mc.getOpcode());
  std::string name = normaliseName(impl->mii->getName(mc.getOpcode()), out.form);
  const OpInfo *info = OpTable::get().find(name);
  if (!info || (out.form & info->refusedForms)) {
    out.exec = isGraphicsOnlyOpcode(StringRef(name).lower()) ? faultGraphicsOnly
                                                             : faultUnsupported;
    return;
  }
  out.exec = info->fn;
  out.op = info->op;
  out.aux = info->aux;
  out.memClass = memClassOf(name, out.form);
  if (StringRef(name).starts_with("V_") && !out.memClass)
    out.form |= kFormValu;
  // S_SETVSKIP (CDNA3 ISA, SOPC): "no VOP*/M*BUF/MIMG/DS/FLAT instructions
  // are issued" while VSKIP is set.
  for (const char *prefix : {"V_", "BUFFER_", "TBUFFER_", "DS_", "FLAT_", "GLOBAL_", "SCRATCH_"})
    if (StringRef(name).starts_with(prefix))
      out.form |= kFormVskip;
  if ((out.memClass & (kMemClassVm | kMemClassSmem)) &&
      !(out.memClass & kMemClassLdsDma) && desc.mayStore())
    out.form |= kFormDeviceWrite | (desc.mayLoad() ? uint32_t(kFormDeviceRmw) : 0u);

  unsigned numDefs = desc.getNumDefs();
  unsigned n = mc.getNumOperands();
  auto hasRegClass = [&](unsigned i) {
    return i < desc.getNumOperands() && desc.operands()[i].RegClass >= 0;
  };
  uint8_t pendingMods = 0;
  bool havePendingMods = false;
  bool ok = true;
  int firstSrcIndex = -1; // MC operand index of src[0]
  for (unsigned i = 0; i < n; ++i) {
    const MCOperand &mo = mc.getOperand(i);
    Opnd o;
    bool isOperand = mo.isReg() || hasRegClass(i);
    if (mo.isReg()) {
      auto it = impl->regs.find(mo.getReg());
      if (it == impl->regs.end())
        it = impl->regs.try_emplace(mo.getReg(), impl->mapRegister(mo.getReg()))
                 .first;
      o = it->second;
      if (o.kind == OpndKind::None && mo.getReg() != 0)
        ok = false;
    } else if (mo.isImm()) {
      if (!isOperand) {
        // A source modifier (it precedes its source); else a control.
        // A modifier that no source follows is kept as a control, in
        // operand order: the scaled MFMAs' op_sel of their two scale VGPRs
        // comes after both registers.
        bool sourceFollows = i + 1 < n && (mc.getOperand(i + 1).isReg() ||
                                           hasRegClass(i + 1));
        if (i >= numDefs && i < desc.getNumOperands() && sourceFollows &&
            desc.operands()[i].OperandType == impl->modsOperandType) {
          pendingMods = uint8_t(mo.getImm());
          havePendingMods = true;
          continue;
        }
        if (out.nctrl < 8)
          out.ctrl[out.nctrl++] = mo.getImm();
        else
          ok = false;
        continue;
      }
      o.kind = OpndKind::Imm;
      o.width = 2;
      o.imm = uint64_t(mo.getImm());
    } else if (mo.isExpr()) {
      // Literals the printer must mark (lit(...)) come as target
      // expressions wrapping a constant.
      int64_t value;
      if (!mo.getExpr()->evaluateAsAbsolute(value)) {
        ok = false;
        continue;
      }
      if (!isOperand) {
        if (out.nctrl < 8)
          out.ctrl[out.nctrl++] = value;
        else
          ok = false;
        continue;
      }
      o.kind = OpndKind::Imm;
      o.width = 2;
      o.imm = uint64_t(value);
    } else {
      ok = false;
      continue;
    }
    if (i < numDefs) {
      if (out.ndst < 2)
        out.dst[out.ndst++] = o;
      else
        ok = false;
    } else {
      o.mods = havePendingMods ? pendingMods : 0;
      havePendingMods = false;
      if (out.nsrc == 0)
        firstSrcIndex = int(i);
      if (out.nsrc < 5)
        out.src[out.nsrc++] = o;
      else
        ok = false;
    }
  }
  if (!ok) {
    out.exec = faultUnsupported;
    return;
  }
  // The cache policy is the last control immediate of FLAT/GLOBAL/SCRATCH,
  // SMEM and the cache maintenance ops, and is followed by swz for MUBUF.
  if (out.memClass & (kMemClassVm | kMemClassSmem | kMemClassInv) && out.nctrl) {
    bool mubuf = (StringRef(name).starts_with("BUFFER_") ||
                  StringRef(name).starts_with("TBUFFER_")) && out.nctrl >= 3;
    out.cpol = uint8_t(out.ctrl[out.nctrl - (mubuf ? 2 : 1)]);
  }

  if (info->layout == Layout::Vop) {
    if (out.form & kFormDpp) {
      // src[0] is the tied "old" value; drop it (the destination keeps its
      // value in lanes DPP disables). Accumulating ops (v_fmac_f32_dpp,
      // v_dot4c_i32_i8_dpp, ...) have no "old": their tied operand is the
      // accumulator after src1, and src[0] is src0, which must stay.
      bool firstIsOld =
          firstSrcIndex >= 0 &&
          desc.getOperandConstraint(unsigned(firstSrcIndex), MCOI::TIED_TO) == 0;
      if (firstIsOld) {
        for (unsigned i = 1; i < out.nsrc; ++i)
          out.src[i - 1] = out.src[i];
        if (out.nsrc)
          --out.nsrc;
      }
      if (out.nctrl >= 4) {
        out.dppCtrl = uint16_t(out.ctrl[out.nctrl - 4]);
        out.rowMask = uint8_t(out.ctrl[out.nctrl - 3]);
        out.bankMask = uint8_t(out.ctrl[out.nctrl - 2]);
        out.boundCtrl = out.ctrl[out.nctrl - 1] != 0;
      }
    } else if (out.form & kFormSdwa) {
      unsigned vsrcs = out.nsrc > 2 ? 2 : out.nsrc;
      int k = out.nctrl;
      if (vsrcs >= 2 && k > 0)
        out.src1Sel = uint8_t(out.ctrl[--k]);
      if (vsrcs >= 1 && k > 0)
        out.src0Sel = uint8_t(out.ctrl[--k]);
      if (out.ndst && out.dst[0].kind == OpndKind::Vgpr && k >= 2) {
        out.dstUnused = uint8_t(out.ctrl[--k]);
        out.dstSel = uint8_t(out.ctrl[--k]);
      }
      if (k >= 1)
        out.clamp = out.ctrl[0] != 0;
      if (k >= 2)
        out.omod = uint8_t(out.ctrl[1]);
    } else {
      if (out.nctrl >= 1)
        out.clamp = out.ctrl[0] != 0;
      if (out.nctrl >= 2)
        out.omod = uint8_t(out.ctrl[1]);
    }
  } else if (info->layout == Layout::Vop3p) {
    if (out.nctrl >= 1)
      out.clamp = out.ctrl[0] != 0;
    for (unsigned i = 0; i < out.nsrc; ++i) {
      uint8_t m = out.src[i].mods;
      out.opSel |= (m & kModOpSel0) ? 1u << i : 0;
      out.opSelHi |= (m & kModOpSel1) ? 1u << i : 0;
      out.negLo |= (m & kModNeg) ? 1u << i : 0;
      out.negHi |= (m & kModAbs) ? 1u << i : 0;
    }
  }
}

Expected<std::vector<DecodedInstruction>>
disassembleKernel(ArrayRef<uint8_t> codeObject, StringRef kernel, Chip chip) {
  auto co = CodeObject::parse(codeObject);
  if (!co)
    return co.takeError();
  const KernelInfo *k = co->findKernel(kernel);
  if (!k)
    return createStringError(inconvertibleErrorCode(),
                             "no kernel '%s' in the code object; it has: %s",
                             kernel.str().c_str(), co->kernelNameList().c_str());
  auto decoder = Decoder::get(chip);
  if (!decoder)
    return decoder.takeError();
  auto image = co->buildImage(0);
  if (!image)
    return image.takeError();
  std::vector<std::pair<uint64_t, uint64_t>> code;
  for (const LoadSegment &seg : co->segments())
    if (seg.executable)
      code.push_back({seg.vaddr, seg.vaddr + seg.fileSize});
  auto inCode = [&](uint64_t a) {
    for (auto &r : code)
      if (a >= r.first && a + 4 <= r.second && a + 4 <= image->size())
        return true;
    return false;
  };
  // Reachability from the entry, so that padding and data after the code
  // are not mistaken for instructions.
  std::map<uint64_t, DecodedInstruction> seen;
  std::vector<uint64_t> work{k->entryAddress};
  while (!work.empty()) {
    uint64_t pc = work.back();
    work.pop_back();
    while (inCode(pc) && !seen.count(pc)) {
      Inst in;
      std::string text;
      uint64_t avail = std::min<uint64_t>(16, image->size() - pc);
      (*decoder)->decode(ArrayRef<uint8_t>(image->data() + pc, avail), pc, in, text);
      DecodedInstruction d;
      d.offset = pc;
      d.text = text;
      d.mnemonic = StringRef(text).split(' ').first.str();
      d.decodable = in.exec != faultUndecodable;
      d.implemented = Decoder::implements(in);
      seen[pc] = d;
      StringRef m = d.mnemonic;
      int64_t imm = in.nctrl ? int16_t(in.ctrl[0])
                             : (in.nsrc && in.src[0].kind == OpndKind::Imm
                                    ? int16_t(in.src[0].imm) : 0);
      uint64_t target = pc + 4 + uint64_t(imm * 4);
      if (m == "s_branch") {
        pc = target;
        continue;
      }
      // Conditional branches, and s_call_b64's subroutine (it returns with
      // s_setpc_b64, which ends the walk, so the code after the call is
      // followed too). s_cbranch_g_fork's target is in SGPRs and
      // s_cbranch_join's comes from the branch stack: neither is known here.
      if ((m.starts_with("s_cbranch_") && m != "s_cbranch_g_fork" && m != "s_cbranch_join") ||
          m == "s_call_b64")
        work.push_back(target);
      if (m.starts_with("s_endpgm") || m == "s_setpc_b64" || m == "s_code_end" ||
          !d.decodable)
        break;
      pc += in.size;
    }
  }
  std::vector<DecodedInstruction> out;
  for (auto &[pc, d] : seen)
    out.push_back(std::move(d));
  return out;
}

const Inst *Program::fetchSlow(uint64_t pc, std::string &error) {
  uint64_t off = pc - base;
  bool inCode = false;
  for (auto &r : codeRanges)
    if (off >= r.first && off + 4 <= r.second)
      inCode = true;
  if (!inCode || (off & 3)) {
    error = "program counter 0x" + utohexstr(pc) +
            " is outside the code object's code";
    return nullptr;
  }
  std::lock_guard<std::mutex> guard(lock);
  // Another thread may have decoded it while this one waited.
  if (const Inst *known = index[off >> 2].load(std::memory_order_acquire))
    return known;
  Inst in;
  std::string text;
  uint64_t avail = std::min<uint64_t>(16, size - off);
  decoder.decode(ArrayRef<uint8_t>(image + off, avail), pc, in, text);
  in.textIndex = uint32_t(texts.size());
  texts.push_back(std::move(text));
  insts.push_back(in);
  index[off >> 2].store(&insts.back(), std::memory_order_release);
  return &insts.back();
}

} // namespace kcc::emu
