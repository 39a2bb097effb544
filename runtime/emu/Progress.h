//===- Progress.h - A launch's progress on a terminal ------------*- C++ -*-===//
//
// An emulated launch can run for minutes. When standard error is a terminal
// and a launch has run longer than a few seconds, its progress is shown on
// one line that is rewritten in place: workgroups done of the total, wave
// instructions per second (of all host threads running the launch, whose
// count is shown when it is more than one) and the time left at that rate. Nothing is shown
// when standard error is not a terminal (a log, a pipe, CI), and the line
// is cleared when the launch ends.
//
//   KCC_EMU_PROGRESS=0          never show it
//   KCC_EMU_PROGRESS_AFTER=S    show it after S seconds (default 3)
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_PROGRESS_H
#define KCC_RUNTIME_EMU_PROGRESS_H

#include <chrono>
#include <cstdint>
#include <string>

namespace kcc::emu {

class ProgressMeter {
public:
  /// `what` names the launch ("kernel gemm"); `total` counts its workgroups,
  /// which `threads` host threads run.
  ProgressMeter(std::string what, uint64_t total, unsigned threads = 1);
  ~ProgressMeter();
  ProgressMeter(const ProgressMeter &) = delete;
  ProgressMeter &operator=(const ProgressMeter &) = delete;

  bool enabled() const { return enabled_; }
  /// Shows `done` of the total after `executed` wave instructions, at most
  /// twice a second and only once the delay has passed.
  void update(uint64_t done, uint64_t executed);

private:
  std::string what_;
  uint64_t total_;
  unsigned threads_;
  bool enabled_ = false, shown_ = false;
  double after_ = 3.0;
  std::chrono::steady_clock::time_point start_, last_;
};

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_PROGRESS_H
