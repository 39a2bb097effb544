//===- Progress.cpp - A launch's progress on a terminal -------------------===//
#include "runtime/emu/Progress.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <unistd.h>

namespace kcc::emu {

ProgressMeter::ProgressMeter(std::string what, uint64_t total, unsigned threads)
    : what_(std::move(what)), total_(total), threads_(threads) {
  const char *off = std::getenv("KCC_EMU_PROGRESS");
  enabled_ = isatty(STDERR_FILENO) && !(off && std::string(off) == "0");
  if (const char *after = std::getenv("KCC_EMU_PROGRESS_AFTER")) {
    char *end = nullptr;
    double s = std::strtod(after, &end);
    if (end != after && *end == '\0' && s >= 0)
      after_ = s;
  }
  start_ = last_ = std::chrono::steady_clock::now();
}

ProgressMeter::~ProgressMeter() {
  if (shown_) {
    llvm::errs() << "\r\033[K"; // the launch's own report follows
    llvm::errs().flush();
  }
}

void ProgressMeter::update(uint64_t done, uint64_t executed) {
  if (!enabled_)
    return;
  auto now = std::chrono::steady_clock::now();
  double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < after_ || (shown_ && std::chrono::duration<double>(now - last_).count() < 0.5))
    return;
  last_ = now;
  shown_ = true;
  double rate = elapsed > 0 ? double(executed) / elapsed : 0;
  llvm::errs() << "\r\033[Kkcc emu: " << what_ << ": " << done << " of " << total_
               << " workgroups, " << llvm::format("%.1f", rate / 1e6)
               << " M wave-instructions/s";
  if (threads_ > 1)
    llvm::errs() << " on " << threads_ << " threads";
  if (done > 0 && done < total_)
    llvm::errs() << ", about " << llvm::format("%.0f", elapsed / double(done) * double(total_ - done))
                 << " s left";
  llvm::errs().flush();
}

} // namespace kcc::emu
