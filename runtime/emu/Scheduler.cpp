//===- Scheduler.cpp - Running the waves of one or more launches ----------===//
//
// Initial wave state follows AMDGPUUsage "Initial Kernel Execution State":
// user SGPRs in the order private segment buffer (4), dispatch ptr (2),
// queue ptr (2), kernarg segment ptr (2), dispatch id (2), flat scratch init
// (2), private segment size (1), then preloaded kernarg dwords; then the
// system SGPRs workgroup id x/y/z, workgroup info, private segment wave
// offset, each if enabled. On gfx90a+ the work-item ids are packed into v0.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Scheduler.h"
#include "runtime/emu/Ops.h"
#include "target/CodeObject.h"
#include "runtime/emu/CheckMode.h"
#include "runtime/emu/Decoder.h"
#include "runtime/emu/Memory.h"
#include "runtime/emu/Observer.h"
#include "runtime/emu/Progress.h"
#include "runtime/emu/WorkerPool.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/ADT/StringExtras.h"

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

using namespace llvm;
namespace kcc::emu {

namespace {

struct Resident {
  LaunchPlan *plan;
  std::unique_ptr<Workgroup> wg;
};

std::string where(const LaunchPlan &p, const Workgroup &wg, const Wave &w) {
  return "kernel " + p.dispatch.kernelName + ", workgroup (" +
         std::to_string(wg.id[0]) + "," + std::to_string(wg.id[1]) + "," +
         std::to_string(wg.id[2]) + ") wave " + std::to_string(w.waveInGroup);
}

/// "; argument 2 'c': store of 4 bytes at offset 28672, buffer is 28000
/// bytes": the pointer argument whose buffer an access at `address` ran
/// past (the nearest one at or below it), or "" when none is.
std::string nameBuffer(const LaunchPlan &p, uint64_t address,
                       const std::string &access) {
  const Dispatch::BufferArg *best = nullptr;
  for (const Dispatch::BufferArg &a : p.dispatch.bufferArgs)
    if (a.address && a.address <= address &&
        (!best || a.address > best->address))
      best = &a;
  if (!best)
    return "";
  uint64_t size = p.dispatch.memory->sizeOfBlockAtOrBelow(best->address);
  std::string out = "; argument " + std::to_string(best->index);
  if (!best->name.empty())
    out += " '" + best->name + "'";
  out += ": " + access + " at offset " + std::to_string(address - best->address);
  if (size)
    out += ", buffer is " + std::to_string(size) + " bytes";
  return out;
}

std::string instAt(LaunchPlan &p, uint64_t pc) {
  std::string err;
  const Inst *in = p.dispatch.program->fetch(pc, err);
  uint64_t off = pc - p.dispatch.program->imageBase();
  if (!in)
    return "0x" + utohexstr(off);
  return "0x" + utohexstr(off) + " '" + p.dispatch.program->text(*in) + "'";
}

/// Appends a line for workgroup `wg`'s waves that have not ended to `out`,
/// for the report of a stopped launch: at most 16 lines in all (`listed`
/// counts them), then "...". False once the list is full.
bool listWaves(std::string &out, unsigned &listed, LaunchPlan &p, const Workgroup &wg) {
  for (auto &wp : wg.waves) {
    if (wp->state == WaveState::Ended)
      continue;
    if (listed++ == 16) {
      out += "\n  ...";
      return false;
    }
    out += "\n  " + where(p, wg, *wp) +
           (wp->state == WaveState::Barrier ? " at barrier, next " : " at ") +
           instAt(p, wp->pc);
  }
  return true;
}

/// The head of the report of a launch stopped by its instruction budget
/// (`overBudget`) or its time limit, after `executed` wave instructions;
/// the waiting waves follow.
std::string stoppedMessage(StringRef kernel, bool overBudget, uint64_t executed,
                           double timeout) {
  std::string msg = "kernel '" + kernel.str() + "'";
  if (overBudget)
    msg += " stopped after " + std::to_string(executed) +
           " wave instructions, its budget (raise it with "
           "--max-wave-instructions N, or LaunchOptions::"
           "maxWaveInstructions; the default is 2^26 per wave of the "
           "launch, at least 2^28)";
  else
    msg += " stopped after " + formatv("{0:F1}", timeout).str() +
           " seconds, its time limit (--timeout SECONDS, or "
           "LaunchOptions::timeoutSeconds), having run " +
           std::to_string(executed) + " wave instructions";
  return msg + "; waves still running:";
}

/// The head of the report of a launch that cannot go on: no wave made
/// progress in `stalled` wave instructions (`anyRan`), or no wave can run.
std::string deadlockMessage(bool anyRan, uint64_t stalled) {
  return anyRan ? "deadlock: no progress in " + std::to_string(stalled) +
                      " wave instructions (no memory write, barrier release "
                      "or wave end; waves spin on a condition nothing will "
                      "change; a longer wait is LaunchOptions::"
                      "watchdogInstructions, --watchdog N in kcc run); waiting waves:"
                : "deadlock: no wave can run; waiting waves:";
}

/// The report of a wave that faulted after issuing `last` (null when it
/// faulted fetching).
std::string faultMessage(LaunchPlan &p, const Workgroup &wg, const Wave &w,
                         const Inst *last) {
  std::string text = last ? instAt(p, last->pc) : instAt(p, w.pc);
  if (w.error == "unsupported instruction")
    return "unsupported instruction " + text + " in kernel " +
           p.dispatch.kernelName;
  std::string culprit;
  if (w.faultKind == FaultKind::BadAddress && !w.faultAccess.empty())
    culprit = nameBuffer(p, w.faultAddress, w.faultAccess);
  return where(p, wg, w) + " at " + text + ": " + w.error + culprit;
}

/// Creates workgroup `index` of `plan` with its waves initialised.
std::unique_ptr<Workgroup> makeWorkgroup(LaunchPlan &plan, uint32_t launch,
                                         uint64_t index, uint32_t &nextUid,
                                         std::vector<std::unique_ptr<Wave>> &pool,
                                         std::vector<MemRecord> *memLog) {
  Dispatch &d = plan.dispatch;
  const KernelDescriptor &kd = d.kernel->descriptor;
  auto wg = std::make_unique<Workgroup>();
  wg->dispatch = &d;
  wg->index = index;
  wg->launch = launch;
  wg->id[0] = uint32_t(index % d.grid[0]);
  wg->id[1] = uint32_t((index / d.grid[0]) % d.grid[1]);
  wg->id[2] = uint32_t(index / (uint64_t(d.grid[0]) * d.grid[1]));
  wg->lds.assign(d.ldsBytes, 0);
  uint32_t items = d.block[0] * d.block[1] * d.block[2];
  for (uint32_t wi = 0; wi < plan.wavesPerGroup; ++wi) {
    std::unique_ptr<Wave> w;
    if (!pool.empty()) {
      w = std::move(pool.back());
      pool.pop_back();
    } else {
      w = std::make_unique<Wave>();
      w->vstorage.resize(size_t(kNumVectorRows) * kLanes);
      w->v = w->vstorage.data();
    }
    std::memset(w->s, 0, sizeof(w->s));
    // Zero the registers the kernel can name (its VGPRs and AGPRs), not the
    // whole 128 KiB file: workgroups start often.
    {
      uint32_t vgprs = std::min<uint32_t>(std::max<uint32_t>(d.kernel->vgprCount, 1), 256);
      uint32_t agprs = std::min<uint32_t>(d.kernel->agprCount, 256);
      std::memset(w->row(0), 0, size_t(vgprs) * kLanes * 4);
      if (agprs)
        std::memset(w->row(kAgprBase), 0, size_t(agprs) * kLanes * 4);
    }
    w->scc = false;
    w->state = WaveState::Running;
    w->yield = false;
    w->wg = wg.get();
    w->dispatch = &d;
    w->waveInGroup = wi;
    w->instructions = 0;
    w->priority = 0;
    w->error.clear();
    w->faultKind = FaultKind::Other;
    w->uid = nextUid++;
    w->memLog = memLog;
    w->pc = plan.entryPc;
    w->scratch.assign(size_t(d.privateBytesPerLane) * kLanes, 0);
    // EXEC: the work-items this wave holds.
    uint32_t first = wi * kLanes;
    uint32_t count = std::min<uint32_t>(kLanes, items - first);
    w->setExec(count == 64 ? ~0ull : ((1ull << count) - 1));
    // SGPRs.
    unsigned s = 0;
    if (kd.enableSgprPrivateSegmentBuffer) {
      // No scratch resource: gfx940+ uses architected flat scratch.
      s += 4;
    }
    if (kd.enableSgprDispatchPtr) {
      w->setSgpr64(s, d.packetAddress);
      s += 2;
    }
    if (kd.enableSgprQueuePtr)
      s += 2;
    if (kd.enableSgprKernargSegmentPtr) {
      w->setSgpr64(s, d.kernargAddress);
      s += 2;
    }
    if (kd.enableSgprDispatchId)
      s += 2;
    if (kd.enableSgprFlatScratchInit)
      s += 2;
    if (kd.enableSgprPrivateSegmentSize)
      w->s[s++] = d.privateBytesPerLane;
    // Preloaded kernel arguments follow the other user SGPRs.
    if (kd.kernargPreloadLength) {
      uint8_t *k = d.memory->translate(d.kernargAddress, d.kernel->kernargSegmentSize);
      for (unsigned i = 0; i < kd.kernargPreloadLength && k; ++i) {
        uint64_t off = (kd.kernargPreloadOffset + i) * 4ull;
        if (off + 4 <= d.kernel->kernargSegmentSize)
          std::memcpy(&w->s[s + i], k + off, 4);
      }
    }
    s = kd.userSgprCount;
    if (kd.enableSgprWorkgroupIdX)
      w->s[s++] = wg->id[0];
    if (kd.enableSgprWorkgroupIdY)
      w->s[s++] = wg->id[1];
    if (kd.enableSgprWorkgroupIdZ)
      w->s[s++] = wg->id[2];
    if (kd.enableSgprWorkgroupInfo)
      w->s[s++] = 0;
    if (kd.enablePrivateSegment)
      w->s[s++] = 0; // private segment wave byte offset
    // v0: packed work-item ids.
    uint32_t *v0 = w->row(0);
    for (int l = 0; l < kLanes; ++l) {
      uint32_t id = first + l;
      if (id >= items)
        break;
      uint32_t x = id % d.block[0], y = (id / d.block[0]) % d.block[1],
               z = id / (d.block[0] * d.block[1]);
      v0[l] = x | (y << 10) | (z << 20);
    }
    wg->waves.push_back(std::move(w));
  }
  return wg;
}

/// Every launch on the calling thread, the resident workgroups in turn.
Error runSerial(std::vector<LaunchPlan *> &plans) {
  auto start = std::chrono::steady_clock::now();
  std::vector<Resident> resident;
  std::vector<uint64_t> nextGroup(plans.size(), 0), residentCount(plans.size(), 0);
  std::vector<std::unique_ptr<Wave>> pool;
  uint64_t progress = 0, clock = 0;
  uint32_t nextUid = 0;
  // One log serves every wave: waves run one at a time.
  std::vector<MemRecord> memLog;
  memLog.reserve(4 * kLanes * 4);
  for (LaunchPlan *p : plans) {
    p->dispatch.progress = &progress;
    p->dispatch.clock = &clock;
    p->stats = LaunchStats();
  }
  uint64_t lastProgress = 0, sinceProgress = 0;
  uint64_t watchdog = ~0ull;
  for (LaunchPlan *p : plans)
    watchdog = std::min(watchdog, p->options.watchdogInstructions);
  // The total budget and the time limit: every launch ends, even one whose
  // waves keep writing memory (and so keep the watchdog quiet) forever.
  uint64_t budget = 0, executed = 0;
  double timeout = 0;
  for (LaunchPlan *p : plans) {
    uint64_t groups = uint64_t(p->dispatch.grid[0]) * p->dispatch.grid[1] *
                      p->dispatch.grid[2];
    uint64_t mine = p->options.maxWaveInstructions
                        ? p->options.maxWaveInstructions
                        : defaultBudget(groups * p->wavesPerGroup);
    budget = budget + mine < budget ? ~0ull : budget + mine;
    if (p->options.timeoutSeconds > 0)
      timeout = timeout > 0 ? std::min(timeout, p->options.timeoutSeconds)
                            : p->options.timeoutSeconds;
  }
  uint64_t nextClockCheck = uint64_t(1) << 20;
  // Progress on a terminal (Progress.h): workgroups retired of all launched.
  uint64_t allGroups = 0, retired = 0;
  for (LaunchPlan *p : plans) {
    uint64_t groups = uint64_t(p->dispatch.grid[0]) * p->dispatch.grid[1] * p->dispatch.grid[2];
    allGroups += p->options.workgroupLimit ? std::min(groups, p->options.workgroupLimit) : groups;
  }
  ProgressMeter meter(plans.empty() ? std::string("launch")
                                    : "kernel " + plans.front()->dispatch.kernelName,
                      allGroups);
  uint64_t nextMeterCheck = uint64_t(1) << 16;
  // The waves that have not ended, one a line (at most 16), for the reports
  // of a launch that is stopped.
  auto listWaves = [&]() {
    std::string out;
    unsigned listed = 0;
    for (auto &res : resident)
      if (!emu::listWaves(out, listed, *res.plan, *res.wg))
        break;
    return out;
  };
  std::string error;

  // Check mode: one checker watches every launch of the run, beside any
  // tool the caller attached.
  std::unique_ptr<Checker> checker;
  std::vector<std::unique_ptr<ObserverPair>> pairs;
  uint64_t rng = 0;
  for (LaunchPlan *p : plans)
    if (p->options.check.enabled) {
      if (!checker)
        checker = Checker::create(plans);
      rng ^= p->options.check.seed * 0x9e3779b97f4a7c15ull + 1;
    }
  if (checker)
    for (LaunchPlan *p : plans) {
      if (Observer *user = p->dispatch.observer) {
        pairs.push_back(std::make_unique<ObserverPair>(*user, *checker));
        p->dispatch.observer = pairs.back().get();
      } else {
        p->dispatch.observer = checker.get();
      }
    }
  auto checkResult = [&](Error e) -> Error {
    if (!checker)
      return e;
    std::vector<Finding> findings = checker->takeFindings();
    if (findings.empty())
      return e;
    Error found = make_error<CheckError>(std::move(findings));
    return e ? joinErrors(std::move(found), std::move(e)) : std::move(found);
  };

  while (true) {
    // Admit workgroups.
    for (size_t i = 0; i < plans.size(); ++i) {
      LaunchPlan &p = *plans[i];
      uint64_t total = uint64_t(p.dispatch.grid[0]) * p.dispatch.grid[1] * p.dispatch.grid[2];
      if (p.options.workgroupLimit)
        total = std::min(total, p.options.workgroupLimit);
      while (residentCount[i] < p.maxResidentGroups && nextGroup[i] < total) {
        Observer *obs = p.dispatch.observer;
        resident.push_back({&p, makeWorkgroup(p, uint32_t(i), nextGroup[i]++, nextUid,
                                              pool, obs ? &memLog : nullptr)});
        if (obs)
          obs->workgroupBegin(*resident.back().wg);
        ++residentCount[i];
        ++p.stats.workgroups;
      }
    }
    if (resident.empty())
      break;

    bool anyRan = false;
    for (size_t r = 0; r < resident.size(); ++r) {
      LaunchPlan &p = *resident[r].plan;
      Workgroup &wg = *resident[r].wg;
      Program &prog = *p.dispatch.program;
      uint32_t slice = p.options.sliceInstructions ? p.options.sliceInstructions : 64;
      if (checker) {
        // Seeded slice lengths: reproducible, and another seed gives
        // another interleaving of the waves.
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        slice = 1 + uint32_t(rng % (2 * uint64_t(slice)));
      }
      for (auto &wp : wg.waves) {
        Wave &w = *wp;
        if (w.state != WaveState::Running)
          continue;
        anyRan = true;
        w.yield = false;
        uint32_t n = 0;
        const Inst *last = nullptr;
        // The instruction at the wave's pc, or in VGPR index mode a copy with
        // its operands moved (GprIndex.cpp), kept in `indexed`; null when the
        // wave faulted. `indexed` lives outside the loops: an Inst is large
        // to build on every instruction when index mode is almost never on.
        Inst indexed;
        auto next = [&]() -> const Inst * {
          const Inst *in = prog.fetch(w.pc, error);
          // VSKIP (s_setvskip) passes over vector instructions without
          // issuing them: they neither run nor count in the memory counters.
          while (in && w.vskip && (in->form & kFormVskip)) {
            w.pc += in->size;
            in = prog.fetch(w.pc, error);
          }
          if (!in) {
            w.fault(error);
            return nullptr;
          }
          last = in;
          if (w.gprIndexMode && (in->form & kFormValu)) {
            if (!indexVgprOperands(w, *in, indexed))
              return nullptr;
            return &indexed;
          }
          return in;
        };
        if (Observer *obs = p.dispatch.observer) {
          // The observed loop: tools see each instruction before and after
          // it runs, with the memory it touched.
          while (n < slice) {
            const Inst *in = next();
            if (!in)
              break;
            obs->beforeIssue(w, *in);
            memLog.clear();
            w.pc += in->size;
            in->exec(w, *in);
            ++n;
            obs->afterIssue(w, *in, memLog);
            if (w.state == WaveState::Barrier)
              obs->barrierArrive(w, *in);
            else if (w.state == WaveState::Ended)
              obs->waveEnd(w);
            if (w.yield)
              break;
          }
        } else {
          while (n < slice) {
            const Inst *in = next();
            if (!in)
              break;
            w.pc += in->size;
            in->exec(w, *in);
            ++n;
            if (w.yield)
              break;
          }
        }
        w.instructions += n;
        p.stats.waveInstructions += n;
        sinceProgress += n;
        executed += n;
        if (p.dispatch.observer && p.dispatch.observer->stopRequested()) {
          double seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - start).count();
          for (LaunchPlan *q : plans) {
            q->stats.stoppedEarly = true;
            q->stats.seconds = seconds;
          }
          return Error::success();
        }
        if (w.state == WaveState::Faulted) {
          if (checker && w.faultKind == FaultKind::BadAddress && last) {
            checker->addBadAddress(w, last->pc);
            return checkResult(Error::success());
          }
          return checkResult(createStringError(inconvertibleErrorCode(), "%s",
                                               faultMessage(p, wg, w, last).c_str()));
        }
        if (w.state == WaveState::Ended) {
          ++wg.ended;
          ++progress;
        } else if (w.state == WaveState::Barrier) {
          ++wg.atBarrier;
        }
      }
      // Barrier release: all waves that have not ended are waiting.
      if (wg.atBarrier && wg.atBarrier + wg.ended == wg.waves.size()) {
        for (auto &wp : wg.waves)
          if (wp->state == WaveState::Barrier)
            wp->state = WaveState::Running;
        wg.atBarrier = 0;
        ++progress;
        if (Observer *obs = p.dispatch.observer)
          obs->barrierRelease(wg);
      }
    }

    // Retire finished workgroups.
    for (size_t r = 0; r < resident.size();) {
      Workgroup &wg = *resident[r].wg;
      if (wg.ended == wg.waves.size()) {
        size_t planIndex = 0;
        for (size_t i = 0; i < plans.size(); ++i)
          if (plans[i] == resident[r].plan)
            planIndex = i;
        --residentCount[planIndex];
        if (Observer *obs = resident[r].plan->dispatch.observer)
          obs->workgroupEnd(wg);
        for (auto &wp : wg.waves)
          pool.push_back(std::move(wp));
        resident.erase(resident.begin() + r);
        ++retired;
      } else {
        ++r;
      }
    }

    if (progress != lastProgress) {
      lastProgress = progress;
      sinceProgress = 0;
    }
    if (meter.enabled() && executed >= nextMeterCheck) {
      nextMeterCheck = executed + (uint64_t(1) << 16);
      meter.update(retired, executed);
    }
    bool overBudget = executed > budget;
    bool overTime = false;
    if (timeout > 0 && executed >= nextClockCheck) {
      nextClockCheck = executed + (uint64_t(1) << 20);
      overTime = std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - start).count() > timeout;
    }
    if (overBudget || overTime) {
      std::string msg =
          stoppedMessage(plans.front()->dispatch.kernelName, overBudget, executed, timeout) +
          listWaves();
      return checkResult(createStringError(inconvertibleErrorCode(), "%s",
                                           msg.c_str()));
    }
    if (!anyRan || sinceProgress > watchdog) {
      std::string msg = deadlockMessage(anyRan, sinceProgress) + listWaves();
      if (checker) {
        std::vector<Wave *> waiting;
        for (auto &res : resident)
          for (auto &wp : res.wg->waves)
            if (wp->state != WaveState::Ended)
              waiting.push_back(wp.get());
        checker->addDeadlock(anyRan ? "deadlock: no progress; waves spin on a "
                                      "condition nothing will change; waiting waves:"
                                    : "deadlock: no wave can run; waiting waves:",
                             waiting);
        return checkResult(Error::success());
      }
      return createStringError(inconvertibleErrorCode(), "%s", msg.c_str());
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (LaunchPlan *p : plans)
    p->stats.seconds = seconds;
  return checkResult(Error::success());
}

//===----------------------------------------------------------------------===//
// Several host threads
//===----------------------------------------------------------------------===//

/// A place for one resident workgroup; a thread runs it while it holds the
/// lock, so the workgroup's waves and LDS belong to one thread at a time.
/// On its own cache line: neighbouring slots belong to different threads.
struct alignas(64) Slot {
  std::mutex lock;
  LaunchPlan *plan = nullptr;
  uint32_t planIndex = 0;
  std::unique_ptr<Workgroup> wg;
  /// The s_memtime count the workgroup last saw: a thread that takes the
  /// workgroup over starts its own count no lower, so that time never runs
  /// backwards for a wave.
  uint64_t clock = 0;
};

/// One mutex on its own cache line per thread: a store takes its thread's
/// own (uncontended), an atomic takes all of them, in order.
struct alignas(64) WriteLock {
  std::mutex m;
};

/// What one host thread keeps to itself while it runs workgroups (on cache
/// lines of its own: handlers bump its counters on every store).
struct alignas(64) Worker {
  unsigned id = 0;
  /// A copy of each launch's Dispatch whose progress and clock counters are
  /// this thread's: handlers bump them without atomics.
  std::vector<Dispatch> dispatches;
  uint64_t progress = 0, clock = 0;
  std::vector<uint64_t> instructions; // per launch
  std::vector<std::unique_ptr<Wave>> pool;
  std::string fetchError;
  /// Wave instructions run, and whether anything progressed, since this
  /// thread last added them to the shared counters.
  uint64_t unpublished = 0;
  bool progressed = false;
  /// Passes over its own slots so far (read by the other threads, to tell
  /// whether this one is held up, and by their watchdog).
  std::atomic<uint64_t> sweeps{0};
};

/// Why the threads stopped before every workgroup ended.
enum class Stop : uint8_t { None, Fault, Budget, Time, Watchdog, NoWave };

class ParallelRun {
public:
  ParallelRun(std::vector<LaunchPlan *> &plans, unsigned threads)
      : plans(plans), start(std::chrono::steady_clock::now()) {
    size_t n = plans.size();
    totals.resize(n);
    nextGroup.assign(n, 0);
    residentCount.assign(n, 0);
    size_t slotCount = 0;
    for (size_t i = 0; i < n; ++i) {
      LaunchPlan &p = *plans[i];
      p.stats = LaunchStats();
      uint64_t groups = uint64_t(p.dispatch.grid[0]) * p.dispatch.grid[1] *
                        p.dispatch.grid[2];
      totals[i] = p.options.workgroupLimit
                      ? std::min(groups, p.options.workgroupLimit)
                      : groups;
      allGroups += totals[i];
      slotCount += std::min<uint64_t>(p.maxResidentGroups, totals[i]);
      watchdog = std::min(watchdog, p.options.watchdogInstructions);
      uint64_t mine = p.options.maxWaveInstructions
                          ? p.options.maxWaveInstructions
                          : defaultBudget(groups * p.wavesPerGroup);
      budget = budget + mine < budget ? ~0ull : budget + mine;
      if (p.options.timeoutSeconds > 0)
        timeout = timeout > 0 ? std::min(timeout, p.options.timeoutSeconds)
                              : p.options.timeoutSeconds;
    }
    slotCount = std::max<size_t>(slotCount, 1);
    slots.reset(new Slot[slotCount]);
    numSlots = slotCount;
    // More threads than resident workgroups would only wait.
    numWorkers = unsigned(std::min<size_t>(threads, slotCount));
    writeLocks.reset(new WriteLock[numWorkers]);
    workers.reset(new Worker[numWorkers]);
    for (unsigned t = 0; t < numWorkers; ++t) {
      Worker &w = workers[t];
      w.id = t;
      w.instructions.assign(n, 0);
      for (LaunchPlan *p : plans) {
        w.dispatches.push_back(p->dispatch);
        w.dispatches.back().progress = &w.progress;
        w.dispatches.back().clock = &w.clock;
      }
    }
  }

  unsigned threadCount() const { return numWorkers; }

  Error run() {
    ProgressMeter meter("kernel " + plans.front()->dispatch.kernelName,
                        allGroups, numWorkers);
    std::vector<std::function<void()>> others;
    for (unsigned t = 1; t < numWorkers; ++t)
      others.push_back([this, t] { work(workers[t], nullptr); });
    runOnPool(std::move(others), [&] { work(workers[0], &meter); });

    double seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start).count();
    for (size_t i = 0; i < plans.size(); ++i) {
      plans[i]->stats.seconds = seconds;
      for (unsigned t = 0; t < numWorkers; ++t)
        plans[i]->stats.waveInstructions += workers[t].instructions[i];
    }
    switch (stopReason) {
    case Stop::None:
      return Error::success();
    case Stop::Fault:
      return createStringError(inconvertibleErrorCode(), "%s",
                               faultText.c_str());
    case Stop::Budget:
    case Stop::Time: {
      std::string msg = stoppedMessage(plans.front()->dispatch.kernelName,
                                       stopReason == Stop::Budget, executed.load(), timeout) +
                        listWaves();
      return createStringError(inconvertibleErrorCode(), "%s", msg.c_str());
    }
    case Stop::Watchdog:
    case Stop::NoWave: {
      std::string msg = deadlockMessage(stopReason == Stop::Watchdog,
                                        executed.load() - progressMark.load()) +
                        listWaves();
      return createStringError(inconvertibleErrorCode(), "%s", msg.c_str());
    }
    }
    return Error::success();
  }

private:
  /// One thread's loop: a slice for each workgroup in its own slots (slot k
  /// belongs to thread k % threads), so that a workgroup stays in one core's
  /// caches. Every fourth pass, and whenever none of its own could run, it
  /// also visits the slots of threads that have not finished a pass since
  /// it last looked - a thread the host holds up, or one not started yet,
  /// must not hold back the workgroups in its slots, which others may wait
  /// for - and, when idle, every slot: the last workgroups of a grid then
  /// run on every thread.
  void work(Worker &me, ProgressMeter *meter) {
    uint64_t nextMeterCheck = uint64_t(1) << 16;
    uint64_t nextClockCheck = uint64_t(1) << 20;
    std::vector<uint64_t> seen(numWorkers, ~0ull);
    unsigned sinceOthers = 0;
    // The other threads' pass counts when this thread first saw the
    // watchdog's limit passed (see below).
    std::vector<uint64_t> sweepsAtLimit;
    while (!stopping.load(std::memory_order_relaxed) &&
           retired.load(std::memory_order_acquire) < allGroups) {
      bool ran = false, busy = false;
      for (size_t k = me.id; k < numSlots; k += numWorkers)
        ran |= visit(me, slots[k], busy);
      bool idle = !ran;
      if (idle || ++sinceOthers == 4) {
        sinceOthers = 0;
        for (unsigned t = 0; t < numWorkers; ++t) {
          if (t == me.id)
            continue;
          uint64_t passes = workers[t].sweeps.load(std::memory_order_relaxed);
          bool stalled = passes == seen[t];
          seen[t] = passes;
          if (!idle && !stalled)
            continue;
          for (size_t k = t; k < numSlots; k += numWorkers)
            ran |= visit(me, slots[k], busy);
        }
      }
      me.sweeps.fetch_add(1, std::memory_order_relaxed);
      // The shared counters once a pass, not once a slice: every thread
      // writing them on every slice kept their cache line moving between
      // cores.
      uint64_t done =
          executed.fetch_add(me.unpublished, std::memory_order_relaxed) +
          me.unpublished;
      me.unpublished = 0;
      if (me.progressed)
        progressMark.store(done, std::memory_order_relaxed);
      me.progressed = false;
      if (done > budget)
        halt(Stop::Budget);
      // No progress for the watchdog's count of instructions is a deadlock
      // only once every thread has made two passes since: a thread held up
      // by the host in the middle of a slice may be the one about to
      // release the others.
      if (done - progressMark.load(std::memory_order_relaxed) > watchdog) {
        if (sweepsAtLimit.empty()) {
          for (unsigned t = 0; t < numWorkers; ++t)
            sweepsAtLimit.push_back(
                workers[t].sweeps.load(std::memory_order_relaxed));
        } else {
          bool allSwept = true;
          for (unsigned t = 0; t < numWorkers; ++t)
            allSwept &= workers[t].sweeps.load(std::memory_order_relaxed) >
                        sweepsAtLimit[t] + 1;
          if (allSwept)
            halt(Stop::Watchdog);
        }
      } else {
        sweepsAtLimit.clear();
      }
      if (timeout > 0 && done >= nextClockCheck) {
        nextClockCheck = done + (uint64_t(1) << 20);
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                          start).count() > timeout)
          halt(Stop::Time);
      }
      if (meter && meter->enabled() && done >= nextMeterCheck) {
        nextMeterCheck = done + (uint64_t(1) << 16);
        meter->update(retired.load(), done);
      }
      if (!ran) {
        // Every slot was this thread's to look at (an idle pass visits
        // them all) and none could run: no other thread can change that
        // (barriers release inside a slice).
        if (!busy && retired.load() < allGroups && !stopping.load())
          halt(Stop::NoWave);
        std::this_thread::yield();
      }
    }
  }

  void halt(Stop why, std::string text = "") {
    std::lock_guard<std::mutex> guard(stopLock);
    if (stopReason != Stop::None)
      return;
    stopReason = why;
    faultText = std::move(text);
    stopping.store(true);
  }

  /// Admits the next workgroup in dispatch order into `slot` (held by the
  /// caller); false when every launch is at its residency bound or has
  /// started all its workgroups.
  bool admit(Worker &me, Slot &slot) {
    size_t i = 0;
    uint64_t index = 0;
    uint32_t uid = 0;
    {
      std::lock_guard<std::mutex> guard(admitLock);
      for (i = 0; i < plans.size(); ++i)
        if (residentCount[i] < plans[i]->maxResidentGroups &&
            nextGroup[i] < totals[i])
          break;
      if (i == plans.size())
        return false;
      index = nextGroup[i]++;
      ++residentCount[i];
      ++plans[i]->stats.workgroups;
      uid = nextUid;
      nextUid += plans[i]->wavesPerGroup;
    }
    slot.plan = plans[i];
    slot.planIndex = uint32_t(i);
    slot.wg = makeWorkgroup(*plans[i], uint32_t(i), index, uid, me.pool, nullptr);
    slot.clock = 0;
    return true;
  }

  /// Runs a slice of the workgroup in `slot` if the slot is free; true when
  /// a wave ran.
  bool visit(Worker &me, Slot &slot, bool &busy) {
    std::unique_lock<std::mutex> held(slot.lock, std::try_to_lock);
    if (!held) {
      busy = true;
      return false;
    }
    if (stopping.load(std::memory_order_relaxed))
      return false;
    if (!slot.wg && !admit(me, slot))
      return false;
    LaunchPlan &p = *slot.plan;
    Workgroup &wg = *slot.wg;
    Dispatch &d = me.dispatches[slot.planIndex];
    Program &prog = *p.dispatch.program;
    me.clock = std::max(me.clock, slot.clock);
    uint64_t progressBefore = me.progress;
    uint32_t slice = p.options.sliceInstructions ? p.options.sliceInstructions : 64;
    uint64_t ranHere = 0;
    bool ran = false;
    wg.dispatch = &d;
    for (auto &wp : wg.waves) {
      Wave &w = *wp;
      w.dispatch = &d;
      if (w.state != WaveState::Running)
        continue;
      ran = true;
      w.yield = false;
      uint32_t n = 0;
      const Inst *last = nullptr;
      Inst indexed;
      while (n < slice) {
        const Inst *in = prog.fetch(w.pc, me.fetchError);
        if (!in) {
          w.fault(me.fetchError);
          break;
        }
        last = in;
        if (w.gprIndexMode && (in->form & kFormValu)) {
          if (!indexVgprOperands(w, *in, indexed))
            break;
          in = &indexed;
        }
        w.pc += in->size;
        if (in->form & kFormDeviceWrite)
          execWrite(me, w, *in);
        else
          in->exec(w, *in);
        ++n;
        if (w.yield)
          break;
      }
      w.instructions += n;
      me.instructions[slot.planIndex] += n;
      ranHere += n;
      if (w.state == WaveState::Faulted) {
        me.unpublished += ranHere;
        halt(Stop::Fault, faultMessage(p, wg, w, last));
        return true;
      }
      if (w.state == WaveState::Ended) {
        ++wg.ended;
        ++me.progress;
      } else if (w.state == WaveState::Barrier) {
        ++wg.atBarrier;
      }
    }
    if (wg.atBarrier && wg.atBarrier + wg.ended == wg.waves.size()) {
      for (auto &wp : wg.waves)
        if (wp->state == WaveState::Barrier)
          wp->state = WaveState::Running;
      wg.atBarrier = 0;
      ++me.progress;
    }
    slot.clock = me.clock;
    me.unpublished += ranHere;
    me.progressed |= me.progress != progressBefore;
    if (wg.ended == wg.waves.size()) {
      for (auto &wp : wg.waves)
        me.pool.push_back(std::move(wp));
      slot.wg.reset();
      {
        std::lock_guard<std::mutex> guard(admitLock);
        --residentCount[slot.planIndex];
      }
      retired.fetch_add(1, std::memory_order_release);
    }
    return ran;
  }

  /// A store runs under its thread's write lock, an atomic under all of
  /// them: no write of another thread lands between an atomic's read and
  /// its write.
  void execWrite(Worker &me, Wave &w, const Inst &in) {
    if (!(in.form & kFormDeviceRmw)) {
      std::lock_guard<std::mutex> guard(writeLocks[me.id].m);
      in.exec(w, in);
      return;
    }
    for (unsigned t = 0; t < numWorkers; ++t)
      writeLocks[t].m.lock();
    in.exec(w, in);
    for (unsigned t = numWorkers; t-- > 0;)
      writeLocks[t].m.unlock();
  }

  /// The waves that have not ended (at most 16), for the report of a stopped
  /// launch; called once every thread has stopped.
  std::string listWaves() {
    std::string out;
    unsigned listed = 0;
    for (size_t k = 0; k < numSlots; ++k) {
      Slot &slot = slots[k];
      if (slot.wg && !emu::listWaves(out, listed, *slot.plan, *slot.wg))
        break;
    }
    return out;
  }

  std::vector<LaunchPlan *> &plans;
  std::chrono::steady_clock::time_point start;
  std::vector<uint64_t> totals, nextGroup, residentCount; // per launch
  uint64_t allGroups = 0;
  uint64_t watchdog = ~0ull, budget = 0;
  double timeout = 0;
  std::unique_ptr<Slot[]> slots;
  size_t numSlots = 0;
  unsigned numWorkers = 1;
  std::unique_ptr<WriteLock[]> writeLocks;
  std::unique_ptr<Worker[]> workers;
  std::mutex admitLock; // nextGroup, residentCount, nextUid, stats.workgroups
  uint32_t nextUid = 0;
  std::atomic<uint64_t> executed{0}, progressMark{0}, retired{0};
  std::atomic<bool> stopping{false};
  std::mutex stopLock; // stopReason, faultText
  Stop stopReason = Stop::None;
  std::string faultText;
};

Error runParallel(std::vector<LaunchPlan *> &plans, unsigned threads) {
  ParallelRun run(plans, threads);
  // One resident workgroup at a time: nothing to share out.
  if (run.threadCount() == 1)
    return runSerial(plans);
  return run.run();
}

} // namespace

Error runLaunches(std::vector<LaunchPlan *> &plans) {
  unsigned threads = ~0u;
  bool observed = false;
  for (LaunchPlan *p : plans) {
    threads = std::min(threads, std::max(1u, p->options.threads));
    observed |= p->dispatch.observer || p->options.check.enabled;
  }
  if (plans.empty() || threads <= 1 || observed)
    return runSerial(plans);
  return runParallel(plans, threads);
}

} // namespace kcc::emu
