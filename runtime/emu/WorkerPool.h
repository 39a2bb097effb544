//===- WorkerPool.h - Host threads kept between launches ---------*- C++ -*-===//
//
// A launch that runs its workgroups on several host threads would otherwise
// start and join its threads on every launch, tens of microseconds each: a
// test suite of thousands of small launches on a host with many cores would
// pay that on every one. The pool keeps its threads between launches, and
// starts another whenever a launch asks for more than are idle, so that
// every task of a launch runs at once (the scheduler's threads wait on each
// other's workgroups; a task left queued behind another launch's would hold
// its launch back). A process forked from one with a pool starts afresh.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_WORKERPOOL_H
#define KCC_RUNTIME_EMU_WORKERPOOL_H

#include <functional>
#include <vector>

namespace kcc::emu {

/// Runs `tasks` on pool threads, each on its own, and `here` on the calling
/// thread at the same time; returns once all have returned.
void runOnPool(std::vector<std::function<void()>> tasks,
               const std::function<void()> &here);

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_WORKERPOOL_H
