//===- Control.cpp - Program control: SOPP, s_setpc family, barriers ------===//
//
// Memory operations complete in program order in the emulator, so the
// counter waits (s_waitcnt) and cache maintenance (buffer_wbl2, buffer_inv)
// have nothing to wait for; scheduling hints (s_setprio, s_nop, s_sleep)
// only influence interleaving.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Exec.h"
#include "runtime/emu/Ops.h"

namespace kcc::emu {

static int64_t branchImm(const Inst &in) {
  if (in.nctrl)
    return int16_t(in.ctrl[0]);
  if (in.nsrc && in.src[0].kind == OpndKind::Imm)
    return int16_t(in.src[0].imm);
  return 0;
}

uint64_t branchTarget(const Inst &in) { return in.pc + 4 + branchImm(in) * 4; }

namespace {
uint64_t target(const Inst &in) { return branchTarget(in); }

void endpgm(Wave &w, const Inst &) {
  w.state = WaveState::Ended;
  w.yield = true;
}
void nop(Wave &, const Inst &) {}
void branch(Wave &w, const Inst &in) { w.pc = target(in); }

enum Cond : uint16_t { Scc0, Scc1, Vccz, Vccnz, Execz, Execnz };
void cbranch(Wave &w, const Inst &in) {
  bool take = false;
  switch (Cond(in.op)) {
  case Scc0: take = !w.scc; break;
  case Scc1: take = w.scc; break;
  case Vccz: take = w.vcc() == 0; break;
  case Vccnz: take = w.vcc() != 0; break;
  case Execz: take = w.exec() == 0; break;
  case Execnz: take = w.exec() != 0; break;
  }
  if (take)
    w.pc = target(in);
}

void setpc(Wave &w, const Inst &in) { w.pc = readScalar64(w, in.src[0]); }
void getpc(Wave &w, const Inst &in) {
  // The address of the next instruction.
  writeScalar64(w, in.dst[0], in.pc + in.size);
}
void swappc(Wave &w, const Inst &in) {
  uint64_t to = readScalar64(w, in.src[0]);
  writeScalar64(w, in.dst[0], in.pc + in.size);
  w.pc = to;
}

void barrier(Wave &w, const Inst &) {
  w.state = WaveState::Barrier;
  w.yield = true;
}
void setprio(Wave &w, const Inst &in) {
  w.priority = int(branchImm(in) & 3);
}
void sleep(Wave &w, const Inst &) { w.yield = true; }
void trap(Wave &w, const Inst &in) {
  w.fault("s_trap " + std::to_string(branchImm(in) & 0xff) +
          " (a trap handler is not modelled)");
}

} // namespace

void registerControlOps(OpTable &t) {
  t.add("S_ENDPGM", endpgm);
  t.add("S_ENDPGM_SAVED", endpgm);
  t.add("S_BRANCH", branch);
  t.add("S_CBRANCH_SCC0", cbranch, Layout::Plain, Scc0);
  t.add("S_CBRANCH_SCC1", cbranch, Layout::Plain, Scc1);
  t.add("S_CBRANCH_VCCZ", cbranch, Layout::Plain, Vccz);
  t.add("S_CBRANCH_VCCNZ", cbranch, Layout::Plain, Vccnz);
  t.add("S_CBRANCH_EXECZ", cbranch, Layout::Plain, Execz);
  t.add("S_CBRANCH_EXECNZ", cbranch, Layout::Plain, Execnz);
  t.add("S_SETPC_B64", setpc);
  t.add("S_GETPC_B64", getpc);
  t.add("S_SWAPPC_B64", swappc);
  t.add("S_BARRIER", barrier);
  t.add("S_SETPRIO", setprio);
  t.add("S_SLEEP", sleep);
  t.add("S_TRAP", trap);
  // Ordering and hints with nothing to do when memory completes in order.
  // The scalar cache write-back and invalidate (and their _vol forms, which
  // act on lines marked volatile only) have nothing to do because scalar
  // stores write memory at once and scalar loads read it (ScalarMemory.cpp).
  for (const char *name :
       {"S_WAITCNT", "S_NOP", "S_SETHALT", "S_ICACHE_INV", "S_DCACHE_WB",
        "S_DCACHE_INV", "S_DCACHE_WB_VOL", "S_DCACHE_INV_VOL", "S_INCPERFLEVEL", "S_DECPERFLEVEL", "S_TTRACEDATA",
        "S_CODE_END", "S_WAKEUP", "BUFFER_WBL2", "BUFFER_INV",
        "BUFFER_WBINVL1", "BUFFER_WBINVL1_VOL",
        // A VALU slot that does nothing: hand-written code pads hazards with it.
        "V_NOP"})
    t.add(name, nop);
}

} // namespace kcc::emu
