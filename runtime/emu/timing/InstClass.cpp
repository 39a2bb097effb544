//===- InstClass.cpp - What the timing model needs of an instruction ------===//
//
// Classification keys on the printed mnemonic, not on the emulator's handler:
// the timing of an instruction follows its name (shape, data type, rate
// class) while the handler is shared by many of them. What a name says (an
// MFMA's passes, the transcendental unit) is target/'s (Isa.h), the rules
// the compiler's --stats count by too. Register ranges come
// from the predecoded operands, so AGPR and VGPR forms of an MFMA are alike.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/timing/InstClass.h"
#include "runtime/emu/Observer.h"
#include "target/Isa.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;
namespace kcc::emu::timing {

StringRef kindName(Kind k) {
  switch (k) {
  case Kind::Mfma: return "mfma";
  case Kind::Valu: return "valu";
  case Kind::Trans: return "trans";
  case Kind::Permlane: return "permlane";
  case Kind::Lds: return "lds";
  case Kind::LdsPermute: return "lds_permute";
  case Kind::VmemLoad: return "vmem_load";
  case Kind::VmemStore: return "vmem_store";
  case Kind::Smem: return "smem";
  case Kind::Salu: return "salu";
  case Kind::Branch: return "branch";
  case Kind::Waitcnt: return "waitcnt";
  case Kind::Barrier: return "barrier";
  case Kind::Nop: return "nop";
  case Kind::Setprio: return "setprio";
  case Kind::Sleep: return "sleep";
  case Kind::End: return "end";
  case Kind::Other: return "other";
  }
  return "other";
}

namespace {

/// The SOPP immediate, wherever the decoder put it.
uint32_t soppImm(const Inst &in) {
  if (in.nctrl)
    return uint32_t(in.ctrl[0]);
  if (in.nsrc && in.src[0].kind == OpndKind::Imm)
    return uint32_t(in.src[0].imm);
  return 0;
}

/// Bytes per lane from a memory mnemonic's data-size token.
unsigned memBytes(StringRef m) {
  struct Sz { const char *tok; unsigned bytes; };
  // Longest tokens first: "dwordx4" before "dword", "b128" before "b16".
  static const Sz sizes[] = {
      {"dwordx4", 16}, {"dwordx3", 12}, {"dwordx2", 8}, {"dword", 4},
      {"b128", 16},    {"b96", 12},     {"b64", 8},     {"b32", 4},
      {"u16", 2},      {"i16", 2},      {"b16", 2},     {"short", 2},
      {"ushort", 2},   {"sshort", 2},   {"u8", 1},      {"i8", 1},
      {"b8", 1},       {"ubyte", 1},    {"sbyte", 1},   {"byte", 1},
      {"f32", 4},      {"f64", 8},      {"x2", 8},
  };
  SmallVector<StringRef, 6> parts;
  m.split(parts, '_');
  for (const Sz &s : sizes)
    for (StringRef p : parts)
      if (p == s.tok)
        return s.bytes;
  // Atomics name the type only in their operation (e.g. _add_u32 handled
  // above); default to a dword.
  return 4;
}

void addRange(SmallVectorImpl<RowRange> &out, const Opnd &o) {
  if (o.kind != OpndKind::Vgpr || !o.width)
    return;
  out.push_back({o.reg, o.width});
}

} // namespace

InstInfo classify(Chip chip, const Inst &in, StringRef text) {
  const TimingParams &p = getTimingParams(chip);
  InstInfo info;
  StringRef m = text.ltrim().split(' ').first.split('\t').first;
  info.mnemonic = m.str();
  // Strip encoding suffixes the printer keeps: the timing is the same.
  StringRef base = m;
  for (StringRef suffix : {"_e32", "_e64", "_sdwa", "_dpp"})
    if (base.consume_back(suffix))
      break;
  info.dpp = (in.form & (kFormDpp | kFormDpp8)) != 0 || m.ends_with("_dpp");

  auto vectorOperands = [&] {
    for (unsigned i = 0; i < in.nsrc; ++i)
      addRange(info.reads, in.src[i]);
    for (unsigned i = 0; i < in.ndst && i < 2; ++i)
      addRange(info.writes, in.dst[i]);
  };

  // gfx950's f8f6f4 MFMAs take the operand formats from cbsz/blgp; an FP8
  // operand is the one 8 VGPRs wide (32 values of 8 bits; FP6 takes 6, FP4
  // 4), and doubles the passes (target/Isa.h).
  bool fp8Operand =
      in.nsrc >= 2 && (in.src[0].width == 8 || in.src[1].width == 8);
  if (unsigned passes = mfmaPasses(chip, base, fp8Operand)) {
    info.kind = Kind::Mfma;
    info.cat = IssueCat::Valu;
    info.mfmaPasses = passes;
    info.busyCycles = passes * p.mfmaCyclesPerPass;
    // A, B (and the sparse index, the scaled forms' two scale VGPRs) are
    // ordinary reads; C chains at pipe rate.
    for (unsigned i = 0; i < in.nsrc; ++i) {
      if (i == 2 && base.starts_with("v_mfma_")) {
        if (in.src[2].kind == OpndKind::Vgpr)
          info.srcC = {in.src[2].reg, in.src[2].width};
        continue;
      }
      addRange(info.reads, in.src[i]);
    }
    for (unsigned i = 0; i < in.ndst && i < 2; ++i)
      addRange(info.writes, in.dst[i]);
    return info;
  }
  if (base.starts_with("v_permlane")) {
    info.kind = Kind::Permlane;
    info.cat = IssueCat::Valu;
    info.busyCycles = p.permlaneCycles;
    vectorOperands();
    return info;
  }
  if (base.starts_with("v_")) {
    info.cat = IssueCat::Valu;
    if (isTranscendental(base)) {
      info.kind = Kind::Trans;
      info.busyCycles = p.transCycles;
    } else {
      info.kind = Kind::Valu;
      // Packed f32 runs two f32 lanes per lane at full rate ([DS300] FP32
      // vector peak is twice the unpacked rate); f64 is full rate on gfx940+
      // ([SISched] SIDPGFX940FullSpeedModel WriteDouble 1).
      info.packedF32 = base.starts_with("v_pk_") && base.ends_with("_f32");
      info.busyCycles = p.valuCycles;
    }
    vectorOperands();
    return info;
  }
  if (base.starts_with("ds_")) {
    info.cat = IssueCat::Lds;
    if (base.starts_with("ds_bpermute") || base.starts_with("ds_permute") ||
        base.starts_with("ds_swizzle")) {
      info.kind = Kind::LdsPermute;
      info.ldsBytesPerLane = 4;
      vectorOperands();
      return info;
    }
    info.kind = Kind::Lds;
    bool two = base.starts_with("ds_read2") || base.starts_with("ds_write2");
    info.ldsWrite = !base.starts_with("ds_read");
    info.ldsBytesPerLane = base.contains("_tr_b16") ? 8 : memBytes(base);
    if (two) {
      info.ldsAddrsPerLane = 2;
      unsigned scale = info.ldsBytesPerLane * (base.contains("st64") ? 64 : 1);
      info.ldsOffset[0] = (in.nctrl > 0 ? in.ctrl[0] : 0) * int64_t(scale);
      info.ldsOffset[1] = (in.nctrl > 1 ? in.ctrl[1] : 0) * int64_t(scale);
    } else {
      info.ldsOffset[0] = in.nctrl ? in.ctrl[0] : 0;
    }
    vectorOperands();
    return info;
  }
  if (base.starts_with("buffer_") || base.starts_with("global_") ||
      base.starts_with("flat_") || base.starts_with("scratch_")) {
    info.cat = IssueCat::Vmem;
    bool load = base.contains("_load");
    bool atomicRtn = base.contains("atomic") && (in.form & kFormRtn);
    info.kind = load || atomicRtn ? Kind::VmemLoad : Kind::VmemStore;
    if (base == "buffer_wbl2" || base == "buffer_inv" || base.starts_with("buffer_wbinv"))
      info.kind = Kind::VmemStore; // counts on vmcnt, moves no data here
    else
      info.vmemBytesPerLane = memBytes(base);
    info.vmemToLds = (in.form & kFormLds) != 0;
    vectorOperands();
    return info;
  }
  if (base.starts_with("s_load") || base.starts_with("s_buffer_load") ||
      base.starts_with("s_store") || base.starts_with("s_buffer_store") ||
      base.starts_with("s_atomic") || base.starts_with("s_buffer_atomic") ||
      base.starts_with("s_memtime") || base.starts_with("s_memrealtime") ||
      base.starts_with("s_dcache") || base.starts_with("s_atc_probe") ||
      base.starts_with("s_scratch_")) {
    info.kind = Kind::Smem;
    info.cat = IssueCat::Lds; // SMEM shares the LGKM issue path
    return info;
  }
  if (base == "s_waitcnt") {
    info.kind = Kind::Waitcnt;
    info.cat = IssueCat::Internal;
    WaitCounts counts = decodeWaitcnt(in);
    info.waitVm = int(counts.vmcnt);
    info.waitLgkm = int(counts.lgkmcnt);
    return info;
  }
  if (base.starts_with("s_waitcnt_")) {
    // SOPK forms with an SGPR: only the immediate part is known statically;
    // treat as "wait for everything" of that counter, the conservative case.
    info.kind = Kind::Waitcnt;
    info.cat = IssueCat::Internal;
    if (base.contains("vmcnt"))
      info.waitVm = 0;
    else if (base.contains("lgkmcnt"))
      info.waitLgkm = 0;
    return info;
  }
  if (base == "s_barrier") {
    info.kind = Kind::Barrier;
    info.cat = IssueCat::Internal;
    return info;
  }
  if (base == "s_nop") {
    info.kind = Kind::Nop;
    info.cat = IssueCat::Internal;
    info.imm = (soppImm(in) & 0xf) + 1; // wait states
    return info;
  }
  if (base == "s_setprio") {
    info.kind = Kind::Setprio;
    info.cat = IssueCat::Internal;
    info.imm = soppImm(in) & 3;
    return info;
  }
  if (base == "s_sleep") {
    info.kind = Kind::Sleep;
    info.cat = IssueCat::Internal;
    info.imm = soppImm(in) & 0x7f;
    return info;
  }
  if (base.starts_with("s_endpgm")) {
    info.kind = Kind::End;
    info.cat = IssueCat::Internal;
    return info;
  }
  if (base.starts_with("s_branch") || base.starts_with("s_cbranch") ||
      base.starts_with("s_setpc") || base.starts_with("s_swappc") ||
      base.starts_with("s_call")) {
    info.kind = Kind::Branch;
    info.cat = IssueCat::Branch;
    return info;
  }
  if (base.starts_with("s_")) {
    info.kind = Kind::Salu;
    info.cat = IssueCat::Salu;
    info.isCompare = base.starts_with("s_cmp_");
    return info;
  }
  return info;
}

} // namespace kcc::emu::timing
