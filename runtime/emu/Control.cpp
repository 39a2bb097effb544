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

#include "llvm/ADT/bit.h"

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

/// S_CALL_B64 (SOPK): the address of the next instruction to sdst, then a
/// jump to the simm16 target, as s_branch computes it.
void call(Wave &w, const Inst &in) {
  writeScalar64(w, in.dst[0], in.pc + in.size);
  w.pc = target(in);
}

/// S_CBRANCH_CDBGSYS/CDBGUSER/_OR_USER/_AND_USER branch on WAVE_STATUS's
/// COND_DBG_SYS and COND_DBG_USER bits, which a debugger sets; with none
/// attached (the emulator has none) both are 0 and the branches fall
/// through. The _AND_ form needs both; the others need one.
void cbranchDebug(Wave &, const Inst &) {}

/// The branch stack of S_CBRANCH_G_FORK / S_CBRANCH_I_FORK / S_CBRANCH_JOIN
/// (CDNA3 ISA, SOP2/SOPK/SOP1): entry CSP occupies SGPRs 4*CSP .. 4*CSP+3,
/// {target PC, EXEC} with EXEC in the low pair. MODE.CSP is 3 bits.
void fork(Wave &w, uint64_t mask, uint64_t to, uint64_t next) {
  uint64_t exec = w.exec(), pass = mask & exec, fail = ~mask & exec;
  if (pass == exec) {
    w.pc = to;
    return;
  }
  if (fail == exec)
    return; // w.pc already holds the next instruction
  unsigned base = unsigned(w.csp) * 4;
  if (llvm::popcount(fail) < llvm::popcount(pass)) {
    // Run the failing lanes first; the passing ones wait on the stack.
    w.setExec(fail);
    w.setSgpr64(base, pass);
    w.setSgpr64(base + 2, to);
  } else {
    w.setExec(pass);
    w.setSgpr64(base, fail);
    w.setSgpr64(base + 2, next);
    w.pc = to;
  }
  w.csp = (w.csp + 1) & 7;
}
void gFork(Wave &w, const Inst &in) {
  fork(w, readScalar64(w, in.src[0]), readScalar64(w, in.src[1]), in.pc + in.size);
}
void iFork(Wave &w, const Inst &in) {
  fork(w, readScalar64(w, in.src[0]), target(in), in.pc + in.size);
}
void join(Wave &w, const Inst &in) {
  // S0 is the CSP saved before the fork: equal means both paths are done.
  if (w.csp == (readScalar32(w, in.src[0]) & 7))
    return;
  w.csp = (w.csp - 1) & 7;
  unsigned base = unsigned(w.csp) * 4;
  w.setExec(w.sgpr64(base));
  w.pc = w.sgpr64(base + 2);
}

/// S_RFE_B64 clears WAVE_STATUS.PRIV and jumps to S0; S_RFE_RESTORE_B64
/// also sets the instruction fetch's ATC mode from S1[0]. A compute wave
/// runs with PRIV already 0 and the emulator has one address space, so
/// what remains of both is the jump.
void rfe(Wave &w, const Inst &in) { w.pc = readScalar64(w, in.src[0]); }

/// S_SETKILL: "kill this wave if the least significant bit of the
/// immediate is 1" (the host's kill-wave command, for debugging it). The
/// wave ends where it is, as a killed wave does; other waves go on.
void setkill(Wave &w, const Inst &in) {
  if (branchImm(in) & 1) {
    w.state = WaveState::Ended;
    w.yield = true;
  }
}

/// S_SENDMSG (CDNA3 ISA, "Send Message"): SIMM16[3:0] is the message. An
/// interrupt (1) goes to the host's interrupt handler with M0 as payload and
/// changes nothing in the wave; no handler is attached to the emulator. The
/// others need what a compute launch on the emulator does not have: the
/// context-save trap handler (4, save wave), the dispatcher (5, stall wave
/// generation; 6, halt the VMID's waves, which only the host resumes), the
/// queue's doorbell (10, returned in EXEC), and the graphics pipeline (the
/// GS, ordered-PS and allocation messages). Those stop the wave saying so.
bool sendMessage(Wave &w, const Inst &in, const char *mnemonic) {
  unsigned msg = unsigned(branchImm(in)) & 0xf;
  if (msg == 1)
    return true;
  const char *what = msg == 4    ? "save wave (a context-switch trap handler)"
                     : msg == 5  ? "stall wave generation (the dispatcher)"
                     : msg == 6  ? "halt waves (only the host resumes them)"
                     : msg == 10 ? "get doorbell (the queue's doorbell)"
                                 : "a graphics-pipeline message";
  w.fault(std::string(mnemonic) + " message " + std::to_string(msg) + ", " + what +
          ", is not modelled; only the interrupt message (1) is");
  return false;
}
void sendmsg(Wave &w, const Inst &in) { sendMessage(w, in, "s_sendmsg"); }
/// S_SENDMSGHALT sends the message and halts the wave, which only a
/// debugger or the host resumes (S_SETHALT 0 from outside): with neither,
/// the launch would never finish, so the wave stops with that said.
void sendmsghalt(Wave &w, const Inst &in) {
  if (sendMessage(w, in, "s_sendmsghalt"))
    w.fault("s_sendmsghalt halted the wave; nothing resumes a halted wave "
            "without a debugger or the host");
}

/// S_SETHALT: "set HALT bit to value of SIMM16[0]" (the flag is ignored
/// only inside a trap handler, which a compute wave here never is).
/// Clearing it is nothing to a running wave; setting it halts the wave as
/// s_sendmsghalt does, and it stops with that said.
void sethalt(Wave &w, const Inst &in) {
  if (branchImm(in) & 1)
    w.fault("s_sethalt 1 halted the wave; nothing resumes a halted wave "
            "without a debugger or the host");
}

/// S_SETVSKIP (SOPC): VSKIP = S0[S1[4:0]].
void setvskip(Wave &w, const Inst &in) {
  uint32_t s0 = readScalar32(w, in.src[0]), s1 = readScalar32(w, in.src[1]);
  w.vskip = (s0 >> (s1 & 31)) & 1;
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
  t.add("S_CALL_B64", call);
  for (const char *name : {"S_CBRANCH_CDBGSYS", "S_CBRANCH_CDBGUSER",
                           "S_CBRANCH_CDBGSYS_OR_USER", "S_CBRANCH_CDBGSYS_AND_USER"})
    t.add(name, cbranchDebug);
  t.add("S_CBRANCH_G_FORK", gFork);
  t.add("S_CBRANCH_I_FORK", iFork);
  t.add("S_CBRANCH_JOIN", join);
  t.add("S_RFE_B64", rfe);
  t.add("S_RFE_RESTORE_B64", rfe);
  t.add("S_SETKILL", setkill);
  t.add("S_SENDMSG", sendmsg);
  t.add("S_SENDMSGHALT", sendmsghalt);
  t.add("S_SETVSKIP", setvskip);
  t.add("S_SETHALT", sethalt);
  // Ordering and hints with nothing to do when memory completes in order.
  // The scalar cache write-back and invalidate (and their _vol forms, which
  // act on lines marked volatile only) have nothing to do because scalar
  // stores write memory at once and scalar loads read it (ScalarMemory.cpp).
  for (const char *name :
       {"S_WAITCNT", "S_NOP", "S_ICACHE_INV", "S_DCACHE_WB",
        "S_DCACHE_INV", "S_DCACHE_WB_VOL", "S_DCACHE_INV_VOL", "S_INCPERFLEVEL", "S_DECPERFLEVEL", "S_TTRACEDATA",
        "S_CODE_END", "S_WAKEUP", "BUFFER_WBL2", "BUFFER_INV",
        "BUFFER_WBINVL1", "BUFFER_WBINVL1_VOL",
        // S_DCACHE_DISCARD(_X2) drops dirty scalar cache lines without writing
        // them back; scalar stores write memory at once here (the order in
        // which the line was written back before the discard), so there is
        // nothing left to drop.
        "S_DCACHE_DISCARD", "S_DCACHE_DISCARD_X2",
        // V_CLREXCP clears the wave's float exception flags (TRAPSTS.EXCP),
        // which the emulator does not record: no instruction reads them
        // without a trap handler.
        "V_CLREXCP",
        // V_MFMA_LD_SCALE_B32 (gfx950) loads the block scales of the scaled
        // MFMA that follows it; the disassembler reads that pair as one
        // 16-byte v_mfma_scale_* (Mfma*.cpp), so it decodes alone only
        // when no MFMA follows, and its scales reach no instruction.
        "V_MFMA_LD_SCALE_B32",
        // A VALU slot that does nothing: hand-written code pads hazards with it.
        "V_NOP"})
    t.add(name, nop);
}

} // namespace kcc::emu
