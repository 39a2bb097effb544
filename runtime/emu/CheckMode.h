//===- CheckMode.h - The check-mode observer (internal) --------*- C++ -*-===//
//
// The scheduler creates one Checker per run when any launch asks for check
// mode; it watches every wave of every launch of the run, so races between
// emulated devices are seen too. The public face is Check.h.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_CHECKMODE_H
#define KCC_RUNTIME_EMU_CHECKMODE_H

#include "runtime/emu/Check.h"
#include "runtime/emu/Observer.h"

#include <memory>
#include <string>
#include <vector>

namespace kcc::emu {

struct LaunchPlan;

class Checker : public Observer {
public:
  static std::unique_ptr<Checker> create(const std::vector<LaunchPlan *> &plans);
  ~Checker() override;

  /// A wave faulted on a bad address at `pc`: recorded as a finding.
  virtual void addBadAddress(Wave &w, uint64_t pc) = 0;
  /// The run cannot progress: one finding listing every waiting wave.
  virtual void addDeadlock(const std::string &reason,
                           const std::vector<Wave *> &waiting) = 0;
  virtual std::vector<Finding> takeFindings() = 0;
};

/// Calls two observers in turn (a user's tool first, then check mode).
class ObserverPair : public Observer {
public:
  ObserverPair(Observer &first, Observer &second) : a(first), b(second) {}
  void workgroupBegin(Workgroup &g) override { a.workgroupBegin(g); b.workgroupBegin(g); }
  void workgroupEnd(Workgroup &g) override { a.workgroupEnd(g); b.workgroupEnd(g); }
  void beforeIssue(Wave &w, const Inst &in) override {
    a.beforeIssue(w, in);
    b.beforeIssue(w, in);
  }
  void afterIssue(Wave &w, const Inst &in, llvm::ArrayRef<MemRecord> m) override {
    a.afterIssue(w, in, m);
    b.afterIssue(w, in, m);
  }
  void barrierArrive(Wave &w, const Inst &in) override {
    a.barrierArrive(w, in);
    b.barrierArrive(w, in);
  }
  void barrierRelease(Workgroup &g) override { a.barrierRelease(g); b.barrierRelease(g); }
  void waveEnd(Wave &w) override { a.waveEnd(w); b.waveEnd(w); }
  bool stopRequested() override { return a.stopRequested() || b.stopRequested(); }

private:
  Observer &a, &b;
};

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_CHECKMODE_H
