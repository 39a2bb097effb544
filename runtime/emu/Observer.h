//===- Observer.h - Per-instruction hooks into the wave executor -*- C++ -*-===//
//
// The executor runs every instruction of every wave; tools that want to see
// that stream (check mode's sanitizer, a timing model) implement `Observer`
// and are attached to a launch. With no observer the scheduler takes its
// plain loop, so emulation without tools pays one branch per slice.
//
// Call order for one instruction of a wave:
//   beforeIssue(w, in)        registers still hold the instruction's inputs;
//   in.exec(w, in)            the handler; memory it touches is logged;
//   afterIssue(w, in, mem)    every lane-access of the instruction, in lane
//                             order (a buffer_load ... lds logs a global read
//                             and an LDS write per lane and dword).
// Then, as they happen: barrierArrive (the wave executed s_barrier),
// barrierRelease (all waves that have not ended arrived), waveEnd.
// s_waitcnt needs no callback of its own: `decodeWaitcnt(in)` gives the
// counts from the Inst passed to beforeIssue/afterIssue.
//
// Observers run on the thread that runs the wave; the scheduler runs one
// wave at a time per launch group, so an observer needs no locking.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_OBSERVER_H
#define KCC_RUNTIME_EMU_OBSERVER_H

#include "runtime/emu/Wave.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace kcc::emu {

enum class MemSpace : uint8_t {
  Global,  // device memory: addr is a device virtual address
  Lds,     // addr is a byte offset in the workgroup's LDS
  Scratch, // addr is a byte offset in the lane's private segment
  Scalar,  // SMEM read of device memory (lane is 0)
};

enum MemAccessKind : uint8_t {
  kMemRead = 1,
  kMemWrite = 2,
  kMemAtomic = 3, // read-modify-write
};

/// One lane's access of one instruction.
struct MemRecord {
  uint64_t addr;
  uint16_t bytes;
  uint8_t lane;
  uint8_t kind;  // MemAccessKind
  MemSpace space;
};

/// The counter kinds of gfx9 `s_waitcnt` (CDNA3 ISA, "Data Dependency
/// Resolution").
struct WaitCounts {
  unsigned vmcnt = 63, expcnt = 7, lgkmcnt = 15;
};

/// Decodes s_waitcnt's simm16: vmcnt = [3:0] | [15:14] << 4,
/// expcnt = [6:4], lgkmcnt = [11:8]. Only meaningful for S_WAITCNT
/// (`in.memClass & kMemClassWaitcnt`).
inline WaitCounts decodeWaitcnt(const Inst &in) {
  uint64_t imm = in.nctrl ? uint64_t(in.ctrl[0])
                          : (in.nsrc ? in.src[0].imm : 0xffff);
  WaitCounts c;
  c.vmcnt = unsigned((imm & 0xf) | ((imm >> 14) & 3) << 4);
  c.expcnt = unsigned((imm >> 4) & 7);
  c.lgkmcnt = unsigned((imm >> 8) & 0xf);
  return c;
}

/// Appends one lane access to the wave's log when an observer watches.
inline void logMem(Wave &w, MemSpace space, uint8_t kind, int lane,
                   uint64_t addr, unsigned bytes) {
  if (w.memLog)
    w.memLog->push_back(
        MemRecord{addr, uint16_t(bytes), uint8_t(lane), kind, space});
}

class Observer {
public:
  virtual ~Observer();
  /// A workgroup became resident; its waves are initialised.
  virtual void workgroupBegin(Workgroup &) {}
  /// Every wave of the workgroup ended; called before its waves are reused.
  virtual void workgroupEnd(Workgroup &) {}
  virtual void beforeIssue(Wave &, const Inst &) {}
  virtual void afterIssue(Wave &, const Inst &, llvm::ArrayRef<MemRecord>) {}
  virtual void barrierArrive(Wave &, const Inst &) {}
  virtual void barrierRelease(Workgroup &) {}
  virtual void waveEnd(Wave &) {}
  /// Polled after every wave slice: true ends the launch successfully with
  /// LaunchStats::stoppedEarly (a timing model that has seen enough).
  virtual bool stopRequested() { return false; }
};

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_OBSERVER_H
