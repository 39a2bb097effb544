//===- CheckMode.cpp - Sanitizer of emulated kernels ----------------------===//
//
// Check mode follows the GFX942 memory model of LLVM's AMDGPUUsage as the
// machine code expresses it, not the source-level atomics:
//
// * Completion. A memory instruction is outstanding until an s_waitcnt
//   proves it complete, which is the latest the hardware allows: vmcnt
//   retires VMEM ops (loads, stores, atomics, LDS DMA, buffer_wbl2) in issue
//   order; lgkmcnt retires LDS ops in order, but SMEM (and FLAT that reached
//   LDS) only at lgkmcnt(0), since they return out of order. Counter limits
//   (63 vm, 15 lgkm) retire the oldest op, as issue would stall there. A
//   read or overwrite of a register an outstanding op writes, or a read of
//   LDS bytes the wave's own outstanding LDS DMA writes, is an unwaited
//   result.
// * Happens-before. Each wave has an epoch that advances with every memory
//   instruction, and a vector clock of what it knows of other waves, with
//   two entries per wave: its LDS accesses and its global accesses, because
//   they become ordered under different rules. An access (wave u, epoch e)
//   is ordered before wave v's access when u == v or e <= clock_v[u, space].
//   At workgroup scope (s_barrier, or a release/acquire pair inside one
//   workgroup) a wave publishes its LDS accesses up to just before its
//   oldest outstanding LDS op: an LDS access that has not completed by then
//   is not ordered. LDS DMA is the exception: its write lands in LDS at
//   some point before the vmcnt that retires it, so its shadow entry is in
//   flight (ordered with nothing) from issue to completion, and then takes
//   a fresh epoch, which only later barriers publish. An outstanding DMA
//   therefore does not hold back the publication of the wave's other LDS
//   accesses: a kernel that keeps the next tile's DMA in flight across its
//   barriers (vmcnt(N) before s_barrier, as AMD's hand-written GEMMs do)
//   still orders the reads it completed before them. Global accesses are
//   published as issued: the waves of a workgroup share a CU whose vector
//   memory path keeps their order, which is why LLVM's GFX942
//   workgroup-scope fences wait only for lgkmcnt (AMDGPUUsage, not
//   threadgroup-split mode). A release is a store or atomic with sc0/sc1
//   set (an atomic RMW always); at agent (system) scope it publishes global
//   accesses that completed and preceded a completed buffer_wbl2 sc1 (sc0
//   sc1). An acquire is such a load or atomic: at workgroup scope it takes
//   effect at once, at agent (system) scope at the following buffer_inv sc1
//   (sc0 sc1) once the load was waited for.
// * Races. Shadow memory keeps, per 4-byte granule of LDS (per workgroup)
//   and of device memory (shared by all devices), the last write and up to
//   two unordered reads, with byte masks, so sub-dword accesses of disjoint
//   bytes never conflict. Two synchronising accesses (atomics, sc-marked
//   loads and stores) do not race; a plain store to a flag that another
//   wave reads with acquire loads does: that is how a flag reset while a
//   peer still spins shows.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/CheckMode.h"
#include "target/CodeObject.h"
#include "runtime/emu/Decoder.h"
#include "runtime/emu/Scheduler.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <tuple>
#include <type_traits>
#include <unordered_map>

using namespace llvm;
namespace kcc::emu {

char CheckError::ID = 0;

StringRef findingClassName(FindingClass c) {
  switch (c) {
  case FindingClass::UnwaitedResult: return "unwaited-result";
  case FindingClass::Race: return "race";
  case FindingClass::BarrierMisuse: return "barrier";
  case FindingClass::BadAddress: return "bad-address";
  case FindingClass::Uninit: return "uninit";
  }
  return "?";
}

static std::string siteText(const FindingSite &s) {
  std::string t = "0x" + utohexstr(s.pc) + " '" + s.inst + "' (workgroup (" +
                  std::to_string(s.workgroup[0]) + "," +
                  std::to_string(s.workgroup[1]) + "," +
                  std::to_string(s.workgroup[2]) + ") wave " +
                  std::to_string(s.wave);
  if (s.lane >= 0)
    t += " lane " + std::to_string(s.lane);
  return t + ")";
}

std::string Finding::message() const {
  std::string m = "[" + findingClassName(kind).str() + "] kernel " + kernel +
                  ": ";
  if (!what.empty())
    m += what + ": ";
  if (!site.access.empty())
    m += site.access + " ";
  m += "at " + siteText(site);
  if (other.valid) {
    m += "\n    other: ";
    if (!other.access.empty())
      m += other.access + " ";
    m += "at " + siteText(other);
  }
  if (!detail.empty())
    m += "\n    " + detail;
  if (occurrences > 1)
    m += " (" + std::to_string(occurrences) + " lanes, bytes or registers)";
  return m;
}

void CheckError::log(raw_ostream &os) const {
  os << "check mode found " << findings.size() << " problem"
     << (findings.size() == 1 ? "" : "s") << ":";
  for (const Finding &f : findings)
    os << "\n  " << f.message();
}

Checker::~Checker() = default;

namespace {

/// A sparse vector clock: (wave uid, epoch) sorted by uid. Waves learn of
/// few others (their workgroup, the releasers they acquired from), so this
/// stays small even for grids of thousands of waves.
struct VClock {
  std::vector<std::pair<uint32_t, uint32_t>> e;
  uint32_t get(uint32_t u) const {
    auto it = std::lower_bound(e.begin(), e.end(), std::make_pair(u, 0u));
    return it != e.end() && it->first == u ? it->second : 0;
  }
  void raise(uint32_t u, uint32_t v) {
    auto it = std::lower_bound(e.begin(), e.end(), std::make_pair(u, 0u));
    if (it != e.end() && it->first == u)
      it->second = std::max(it->second, v);
    else
      e.insert(it, {u, v});
  }
  void join(const VClock &o) {
    if (o.e.empty())
      return;
    std::vector<std::pair<uint32_t, uint32_t>> out;
    out.reserve(e.size() + o.e.size());
    size_t i = 0, j = 0;
    while (i < e.size() || j < o.e.size()) {
      if (j == o.e.size() || (i < e.size() && e[i].first < o.e[j].first))
        out.push_back(e[i++]);
      else if (i == e.size() || o.e[j].first < e[i].first)
        out.push_back(o.e[j++]);
      else {
        out.push_back({e[i].first, std::max(e[i].second, o.e[j].second)});
        ++i, ++j;
      }
    }
    e.swap(out);
  }
};

enum AccFlags : uint8_t {
  kAccValid = 1,
  kAccSync = 2,   // atomic or sc-marked: synchronising
  kAccDma = 4,    // written by buffer_load ... lds
  kAccWrite = 8,
  kAccAtomic = 16,
};

/// The epoch of an LDS DMA write still in flight: ordered before nothing.
constexpr uint32_t kInFlight = ~0u;

/// One access in shadow memory (16 bytes). Trivial, so that shadow is
/// cleared with memset (all zeros: no access), not field by field: clearing
/// it was a third of the time check mode spent on a memory-bound kernel.
struct Acc {
  uint32_t uid, epoch, pc;
  uint8_t lane, mask, flags;
  uint8_t written; // (write slot only) bytes of the granule ever written
};
/// Shadow of one 4-byte granule.
struct Cell {
  Acc w, r[2];
};
static_assert(std::is_trivial_v<Cell>, "shadow is cleared with memset");

/// Release clocks of a synchronisation location (a flag).
struct SyncVar {
  VClock agent, system, wg;
  uint64_t wgKey = ~0ull; // workgroup whose release `wg` holds
};

enum class Queue : uint8_t { Vm, Lds, Smem, Flat };

struct PendingOp {
  uint32_t epoch = 0;
  Queue queue = Queue::Vm;
  bool vmDone = false, lgkmDone = false, touchedLds = false, wbl2 = false;
  bool ldsEffect = false; // writes or reads LDS (DS ops, LDS DMA, FLAT to LDS)
  // An LDS DMA: the shadow granules its write holds in flight (kInFlight),
  // given a fresh epoch when it completes.
  bool ldsDma = false;
  uint32_t dmaPc = 0;
  std::vector<Cell> *dmaCells = nullptr;
  std::vector<uint32_t> dmaGranules;
  uint8_t wbl2Cpol = 0;
  uint64_t pc = 0; // device address
  // Registers it writes: (first index, count) in the checker's numbering.
  uint16_t regFirst[2] = {0, 0}, regCount[2] = {0, 0};
  // Acquire: the clocks of the locations it read, applied on completion.
  std::unique_ptr<SyncVar> acquire;
};

/// Register numbering of the pending table: SGPR slots, then vector rows.
constexpr unsigned kRegTable = kNumSgprSlots + kNumVectorRows;

struct WaveCk {
  uint32_t uid = 0;
  uint32_t epoch = 0;
  VClock vc;
  std::vector<PendingOp> pending; // issue order
  uint32_t regPending[kRegTable] = {};
  uint32_t agentWbl2Done = 0, systemWbl2Done = 0; // epochs of completed wbl2
  VClock acqAgent, acqSystem; // acquired, awaiting buffer_inv
  uint32_t barriers = 0;
  uint64_t lastBarrierPc = 0, lastPc = 0;
  bool atBarrier = false, ended = false;
  uint32_t publishedLds = 0, publishedGlobal = 0;
};

/// Clock entries: each wave is two "threads", its LDS and global accesses.
inline uint32_t vid(uint32_t uid, bool lds) { return uid * 2 + (lds ? 1 : 0); }

/// Identity of a wave for reports, kept after its state is freed.
struct WaveInfo {
  uint32_t launch = 0;
  uint32_t wg[3] = {0, 0, 0};
  uint32_t waveInGroup = 0;
};

/// Shadow of one 4 KiB page of device memory: a Cell per 4-byte granule.
struct ShadowPage {
  static constexpr size_t kCells = (size_t(1) << 12) / 4;
  Cell cells[kCells];
};

/// Shadow pages kept for the next checker of the process instead of going
/// back to the system: a memory-bound kernel has shadow for every byte it
/// moves, 12 bytes per byte, and the allocator handed those pages back after
/// each launch, so that every launch faulted them in again. A page is
/// cleared when it is taken, i.e. at the first access to its 4 KiB, so that
/// its cells are still in the cache when they are used (clearing blocks of
/// it on first touch instead measured slower). Up to kKeep pages (192 MiB)
/// are kept.
class ShadowPagePool {
public:
  static constexpr size_t kKeep = 4096;

  static ShadowPagePool &get() {
    static ShadowPagePool pool;
    return pool;
  }
  /// A page of empty cells (all zeros: no access).
  std::unique_ptr<ShadowPage> take() {
    std::unique_ptr<ShadowPage> page;
    {
      std::lock_guard<std::mutex> guard(lock);
      if (!free.empty()) {
        page = std::move(free.back());
        free.pop_back();
      }
    }
    if (!page)
      page.reset(new ShadowPage);
    std::memset(page->cells, 0, sizeof(page->cells));
    return page;
  }
  void give(std::unique_ptr<ShadowPage> page) {
    std::lock_guard<std::mutex> guard(lock);
    if (free.size() < kKeep)
      free.push_back(std::move(page));
  }

private:
  std::mutex lock;
  std::vector<std::unique_ptr<ShadowPage>> free;
};

struct LdsShadow {
  std::vector<Cell> cells;
  DenseMap<uint32_t, std::unique_ptr<SyncVar>> sync;
};

class CheckerImpl final : public Checker {
public:
  explicit CheckerImpl(const std::vector<LaunchPlan *> &plans) : plans(plans) {
    for (LaunchPlan *p : plans)
      uninit |= p->options.check.uninit;
  }
  ~CheckerImpl() override {
    for (auto &[page, cells] : global)
      ShadowPagePool::get().give(std::move(cells));
  }

  void workgroupBegin(Workgroup &g) override {
    for (auto &wp : g.waves) {
      Wave &w = *wp;
      if (waves.size() <= w.uid) {
        waves.resize(w.uid + 1);
        info.resize(w.uid + 1);
      }
      waves[w.uid] = std::make_unique<WaveCk>();
      waves[w.uid]->uid = w.uid;
      info[w.uid] = {g.launch, {g.id[0], g.id[1], g.id[2]}, w.waveInGroup};
    }
    auto &sh = lds[&g];
    sh = std::make_unique<LdsShadow>();
    sh->cells.resize((g.lds.size() + 3) / 4); // zeros: no access yet
  }

  void workgroupEnd(Workgroup &g) override {
    // Waves that reached different numbers of barriers: unless already
    // reported as a wave ending while others waited.
    if (!endedWhileWaiting.count(&g)) {
      WaveCk *most = nullptr, *least = nullptr;
      Wave *mostW = nullptr, *leastW = nullptr;
      for (auto &wp : g.waves) {
        WaveCk *c = waves[wp->uid].get();
        if (!most || c->barriers > most->barriers)
          most = c, mostW = wp.get();
        if (!least || c->barriers < least->barriers)
          least = c, leastW = wp.get();
      }
      if (most && most->barriers != least->barriers) {
        Finding f = base(FindingClass::BarrierMisuse, *mostW, most->lastBarrierPc, -1);
        f.site.access = "barrier " + std::to_string(most->barriers);
        f.other = site(*leastW, least->lastPc, -1);
        f.other.access = "end after " + std::to_string(least->barriers) + " barriers";
        f.detail = "waves of the workgroup reached different numbers of "
                   "barriers (" + std::to_string(most->barriers) + " and " +
                   std::to_string(least->barriers) + ")";
        report(std::move(f), most->lastBarrierPc, least->lastPc);
      }
    }
    endedWhileWaiting.erase(&g);
    for (auto &wp : g.waves)
      waves[wp->uid].reset();
    lds.erase(&g);
  }

  void beforeIssue(Wave &w, const Inst &in) override {
    WaveCk &c = *waves[w.uid];
    c.lastPc = in.pc;
    if (in.memClass & kMemClassWaitcnt) {
      WaitCounts wc = decodeWaitcnt(in);
      wait(c, wc.vmcnt, wc.lgkmcnt);
      return;
    }
    if (c.pending.empty())
      return;
    for (unsigned i = 0; i < in.nsrc; ++i)
      checkReg(w, c, in, in.src[i], false);
    for (unsigned i = 0; i < in.ndst; ++i)
      checkReg(w, c, in, in.dst[i], true);
  }

  void afterIssue(Wave &w, const Inst &in, ArrayRef<MemRecord> mem) override {
    uint8_t mc = in.memClass;
    if (!(mc & (kMemClassVm | kMemClassLgkm | kMemClassSmem | kMemClassInv)))
      return;
    if (w.state == WaveState::Faulted)
      return;
    WaveCk &c = *waves[w.uid];
    if (mc & kMemClassInv) {
      // The acquire half of agent/system-scope sequences: what completed
      // sync loads brought in becomes known now.
      if (in.cpol & kCpolSc1) {
        c.vc.join(c.acqAgent);
        c.acqAgent.e.clear();
        if (in.cpol & kCpolSc0) {
          c.vc.join(c.acqSystem);
          c.acqSystem.e.clear();
        }
      }
      return;
    }
    uint32_t e = ++c.epoch;
    PendingOp op;
    op.epoch = e;
    op.pc = in.pc;
    op.queue = (mc & kMemClassVm) && (mc & kMemClassLgkm) ? Queue::Flat
               : (mc & kMemClassVm)                       ? Queue::Vm
               : (mc & kMemClassLgkm)                     ? Queue::Lds
                                                          : Queue::Smem;
    op.wbl2 = mc & kMemClassWbl2;
    op.wbl2Cpol = in.cpol;
    // Destination registers.
    unsigned nreg = 0;
    auto addRegs = [&](const Opnd &o) {
      unsigned first, count = std::max<unsigned>(o.width, 1);
      if (o.kind == OpndKind::Sgpr) {
        if (o.reg == kSgprNull || o.reg >= kNumSgprSlots)
          return;
        first = o.reg;
      } else if (o.kind == OpndKind::Vgpr) {
        first = kNumSgprSlots + o.reg;
      } else {
        return;
      }
      if (nreg == 2)
        return;
      count = std::min(count, kRegTable - first);
      op.regFirst[nreg] = uint16_t(first);
      op.regCount[nreg] = uint16_t(count);
      ++nreg;
      for (unsigned r = first; r < first + count; ++r)
        c.regPending[r] = e;
    };
    for (unsigned i = 0; i < in.ndst; ++i)
      addRegs(in.dst[i]);
    if (in.ndst == 0 && (in.form & kFormRtn))
      for (unsigned i = 0; i < in.nsrc; ++i)
        if (in.src[i].kind == OpndKind::Vgpr) {
          addRegs(in.src[i]); // MUBUF atomics return into vdata
          break;
        }
    bool sync = isSync(in, mem);
    for (const MemRecord &m : mem)
      if (m.space == MemSpace::Lds)
        op.touchedLds = true;
    op.ldsEffect = op.queue == Queue::Lds || op.touchedLds;
    bool dma = mc & kMemClassLdsDma;
    const LaunchPlan &plan = *plans[w.wg->launch];
    uint32_t pcOff = uint32_t(in.pc - plan.dispatch.program->imageBase());
    op.ldsDma = dma && op.touchedLds;
    op.dmaPc = pcOff;
    c.pending.push_back(std::move(op));
    limitOutstanding(c);

    if (mem.empty())
      return;
    // Release before the accesses: a flag store publishes what preceded it.
    bool releases = false, acquires = false;
    if (sync)
      for (const MemRecord &m : mem) {
        releases |= m.kind != kMemRead;
        acquires |= m.kind != kMemWrite;
      }
    SyncVar *acq = nullptr;
    if (acquires) {
      c.pending.back().acquire = std::make_unique<SyncVar>();
      acq = c.pending.back().acquire.get();
    }
    uint64_t lastSyncKey = ~0ull;
    for (const MemRecord &m : mem) {
      if (m.space == MemSpace::Scratch)
        continue;
      bool isLds = m.space == MemSpace::Lds;
      if (sync && (m.space == MemSpace::Global || isLds)) {
        uint64_t key = (m.addr & ~3ull) | (isLds ? 1ull << 63 : 0);
        if (key != lastSyncKey) {
          lastSyncKey = key;
          if (m.kind != kMemRead)
            release(w, c, e, isLds, m.addr, in.cpol);
          if (acq && m.kind != kMemWrite)
            gatherAcquire(w, isLds, m.addr, *acq);
        }
      }
      accessRange(w, c, in, pcOff, m, e, sync, dma && isLds);
    }
    (void)releases;
  }

  void barrierArrive(Wave &w, const Inst &in) override {
    WaveCk &c = *waves[w.uid];
    ++c.barriers;
    c.lastBarrierPc = in.pc;
    c.atBarrier = true;
    c.publishedLds = completedEpoch(c, 0, true);
    c.publishedGlobal = c.epoch;
  }

  void barrierRelease(Workgroup &g) override {
    VClock all;
    for (auto &wp : g.waves) {
      WaveCk &c = *waves[wp->uid];
      if (!c.atBarrier)
        continue;
      all.join(c.vc);
      all.raise(vid(c.uid, true), c.publishedLds);
      all.raise(vid(c.uid, false), c.publishedGlobal);
    }
    for (auto &wp : g.waves) {
      WaveCk &c = *waves[wp->uid];
      if (!c.atBarrier)
        continue;
      c.vc.join(all);
      c.atBarrier = false;
    }
  }

  void waveEnd(Wave &w) override {
    WaveCk &c = *waves[w.uid];
    c.ended = true;
    for (auto &wp : w.wg->waves) {
      WaveCk &o = *waves[wp->uid];
      if (&o == &c || !o.atBarrier)
        continue;
      // Reported at the barrier, as a count mismatch found at the end of
      // the workgroup is: the same bug gives the same site in any
      // interleaving.
      endedWhileWaiting.insert(w.wg);
      Finding f = base(FindingClass::BarrierMisuse, *wp, o.lastBarrierPc, -1);
      f.site.access = "barrier " + std::to_string(o.barriers);
      f.other = site(w, c.lastPc, -1);
      f.other.access = "end after " + std::to_string(c.barriers) + " barriers";
      f.detail = "a wave ended while another waits at a barrier: the waves "
                 "reach different numbers of barriers";
      report(std::move(f), o.lastBarrierPc, c.lastPc);
      break;
    }
  }

  void addBadAddress(Wave &w, uint64_t pc) override {
    Finding f = base(FindingClass::BadAddress, w, pc, laneOf(w.error));
    f.detail = w.error;
    report(std::move(f), pc, 0);
  }

  void addDeadlock(const std::string &reason,
                   const std::vector<Wave *> &waiting) override {
    if (waiting.empty())
      return;
    Wave &w0 = *waiting.front();
    Finding f = base(FindingClass::BarrierMisuse, w0, w0.pc, -1);
    f.site.access = w0.state == WaveState::Barrier ? "waits at barrier" : "spins";
    f.detail = reason;
    for (Wave *w : waiting) {
      const LaunchPlan &p = *plans[w->wg->launch];
      std::string err;
      const Inst *in = p.dispatch.program->fetch(w->pc, err);
      f.detail += "\n      workgroup (" + std::to_string(w->wg->id[0]) + "," +
                  std::to_string(w->wg->id[1]) + "," +
                  std::to_string(w->wg->id[2]) + ") wave " +
                  std::to_string(w->waveInGroup) +
                  (w->state == WaveState::Barrier ? " at barrier, next " : " at ") +
                  "0x" + utohexstr(w->pc - p.dispatch.program->imageBase()) +
                  (in ? " '" + p.dispatch.program->text(*in) + "'" : "");
    }
    report(std::move(f), w0.pc, ~0ull);
  }

  std::vector<Finding> takeFindings() override { return std::move(findings); }

private:
  // --- Reports --------------------------------------------------------------

  static int laneOf(const std::string &msg) {
    size_t at = msg.find("(lane ");
    if (at == std::string::npos)
      return -1;
    return std::atoi(msg.c_str() + at + 6);
  }

  FindingSite site(Wave &w, uint64_t pc, int lane) {
    FindingSite s;
    s.valid = true;
    Program &prog = *plans[w.wg->launch]->dispatch.program;
    s.pc = pc - prog.imageBase();
    std::string err;
    if (const Inst *in = prog.fetch(pc, err))
      s.inst = prog.text(*in);
    s.workgroup[0] = w.wg->id[0];
    s.workgroup[1] = w.wg->id[1];
    s.workgroup[2] = w.wg->id[2];
    s.wave = w.waveInGroup;
    s.lane = lane;
    return s;
  }

  /// A site from shadow memory: the wave may have ended long ago.
  FindingSite siteOf(const Acc &a) {
    FindingSite s;
    s.valid = true;
    const WaveInfo &wi = info[a.uid / 2];
    Program &prog = *plans[wi.launch]->dispatch.program;
    s.pc = a.pc;
    std::string err;
    if (const Inst *in = prog.fetch(prog.imageBase() + a.pc, err))
      s.inst = prog.text(*in);
    std::copy(wi.wg, wi.wg + 3, s.workgroup);
    s.wave = wi.waveInGroup;
    s.lane = a.lane;
    s.access = accessName(a.flags);
    return s;
  }

  static std::string accessName(uint8_t flags) {
    if (flags & kAccDma)
      return "LDS DMA write";
    if (flags & kAccAtomic)
      return "atomic";
    std::string s = (flags & kAccWrite) ? "write" : "read";
    return (flags & kAccSync) ? "synchronising " + s : s;
  }

  Finding base(FindingClass k, Wave &w, uint64_t pc, int lane) {
    Finding f;
    f.kind = k;
    f.kernel = plans[w.wg->launch]->dispatch.kernelName;
    f.site = site(w, pc, lane);
    return f;
  }

  /// Each finding once, by class and both program counters: the other
  /// lanes, bytes and registers of the same pair of instructions are the
  /// same bug and only count.
  void report(Finding f, uint64_t pcA, uint64_t pcB) {
    auto key = std::make_tuple(uint8_t(f.kind), pcA, pcB);
    auto it = seen.find(key);
    if (it != seen.end()) {
      ++findings[it->second].occurrences;
      return;
    }
    if (findings.size() >= 200)
      return;
    seen[key] = findings.size();
    findings.push_back(std::move(f));
  }

  // --- Completion (s_waitcnt) ----------------------------------------------

  /// The newest epoch up to which this wave's LDS (or global) ops have all
  /// completed, not counting the op of epoch `exclude`, nor LDS DMA (whose
  /// write stays in flight until it completes, see the file comment).
  static uint32_t completedEpoch(const WaveCk &c, uint32_t exclude, bool lds) {
    for (const PendingOp &op : c.pending)
      if (op.epoch != exclude && op.ldsEffect == lds && !(lds && op.ldsDma))
        return op.epoch - 1;
    return exclude ? exclude - 1 : c.epoch;
  }

  void complete(WaveCk &c, PendingOp &op) {
    if (op.ldsDma && op.dmaCells) {
      // The write has landed: from now on it is an access like any other,
      // ordered by the barriers that follow.
      uint32_t landed = ++c.epoch;
      for (uint32_t g : op.dmaGranules) {
        Acc &wr = (*op.dmaCells)[g].w;
        if (wr.epoch == kInFlight && wr.uid == vid(c.uid, true) && wr.pc == op.dmaPc)
          wr.epoch = landed;
      }
    }
    for (unsigned k = 0; k < 2; ++k)
      for (unsigned r = op.regFirst[k]; r < op.regFirst[k] + op.regCount[k]; ++r)
        if (c.regPending[r] == op.epoch)
          c.regPending[r] = 0;
    if (op.wbl2) {
      if (op.wbl2Cpol & kCpolSc1)
        c.agentWbl2Done = std::max(c.agentWbl2Done, op.epoch);
      if ((op.wbl2Cpol & (kCpolSc0 | kCpolSc1)) == (kCpolSc0 | kCpolSc1))
        c.systemWbl2Done = std::max(c.systemWbl2Done, op.epoch);
    }
    if (op.acquire) {
      c.vc.join(op.acquire->wg);
      c.acqAgent.join(op.acquire->agent);
      c.acqSystem.join(op.acquire->system);
    }
  }

  void sweep(WaveCk &c) {
    size_t out = 0;
    for (size_t i = 0; i < c.pending.size(); ++i) {
      PendingOp &op = c.pending[i];
      bool done = op.queue == Queue::Vm     ? op.vmDone
                  : op.queue == Queue::Flat ? op.vmDone && (!op.touchedLds || op.lgkmDone)
                                            : op.lgkmDone;
      if (done) {
        complete(c, op);
        continue;
      }
      if (out != i)
        c.pending[out] = std::move(op);
      ++out;
    }
    c.pending.resize(out);
  }

  void wait(WaveCk &c, unsigned vmcnt, unsigned lgkmcnt) {
    if (c.pending.empty())
      return;
    if (vmcnt < 63) {
      unsigned newer = 0;
      for (size_t i = c.pending.size(); i-- > 0;) {
        PendingOp &op = c.pending[i];
        if (op.queue != Queue::Vm && op.queue != Queue::Flat)
          continue;
        if (newer >= vmcnt)
          op.vmDone = true;
        ++newer;
      }
    }
    if (lgkmcnt < 15) {
      unsigned newerLds = 0;
      for (size_t i = c.pending.size(); i-- > 0;) {
        PendingOp &op = c.pending[i];
        if (op.queue == Queue::Lds) {
          if (newerLds >= lgkmcnt)
            op.lgkmDone = true;
          ++newerLds;
        } else if (op.queue == Queue::Smem || op.queue == Queue::Flat) {
          // Out of order: only lgkmcnt(0) proves them complete.
          if (lgkmcnt == 0)
            op.lgkmDone = true;
        }
      }
    }
    sweep(c);
  }

  /// Issue stalls when a counter is full, so the oldest op of that counter
  /// has completed by then.
  void limitOutstanding(WaveCk &c) {
    unsigned vm = 0, lgkm = 0;
    for (const PendingOp &op : c.pending) {
      vm += op.queue == Queue::Vm || op.queue == Queue::Flat;
      lgkm += op.queue != Queue::Vm;
    }
    bool changed = false;
    if (vm > 63)
      for (PendingOp &op : c.pending)
        if ((op.queue == Queue::Vm || op.queue == Queue::Flat) && !op.vmDone) {
          op.vmDone = true;
          changed = true;
          break;
        }
    if (lgkm > 15)
      for (PendingOp &op : c.pending)
        if (op.queue != Queue::Vm && !op.lgkmDone) {
          op.lgkmDone = true;
          changed = true;
          break;
        }
    if (changed)
      sweep(c);
  }

  static const char *queueName(Queue q) {
    switch (q) {
    case Queue::Vm: return "vmcnt";
    case Queue::Lds: return "lgkmcnt";
    case Queue::Smem: return "lgkmcnt(0) (scalar loads return out of order)";
    case Queue::Flat: return "vmcnt and lgkmcnt";
    }
    return "";
  }

  static std::string regName(unsigned idx) {
    if (idx < kNumSgprSlots) {
      if (idx == kSgprVcc || idx == kSgprVcc + 1) return idx == kSgprVcc ? "vcc_lo" : "vcc_hi";
      if (idx == kSgprExec || idx == kSgprExec + 1) return idx == kSgprExec ? "exec_lo" : "exec_hi";
      if (idx == kSgprM0) return "m0";
      return "s" + std::to_string(idx);
    }
    unsigned row = idx - kNumSgprSlots;
    return row >= kAgprBase ? "a" + std::to_string(row - kAgprBase)
                            : "v" + std::to_string(row);
  }

  void checkReg(Wave &w, WaveCk &c, const Inst &in, const Opnd &o, bool write) {
    unsigned first;
    if (o.kind == OpndKind::Sgpr) {
      if (o.reg == kSgprNull || o.reg >= kNumSgprSlots)
        return;
      first = o.reg;
    } else if (o.kind == OpndKind::Vgpr) {
      first = kNumSgprSlots + o.reg;
    } else {
      return;
    }
    unsigned count = std::min<unsigned>(std::max<unsigned>(o.width, 1), kRegTable - first);
    for (unsigned r = first; r < first + count; ++r) {
      uint32_t e = c.regPending[r];
      if (!e)
        continue;
      PendingOp *op = nullptr;
      for (PendingOp &p : c.pending)
        if (p.epoch == e)
          op = &p;
      if (!op) {
        c.regPending[r] = 0;
        continue;
      }
      if (write) {
        // A later op of the same in-order queue lands after it: no hazard.
        uint8_t mc = in.memClass;
        if ((op->queue == Queue::Vm && (mc & kMemClassVm) && !(mc & kMemClassLgkm)) ||
            (op->queue == Queue::Lds && (mc & kMemClassLgkm) && !(mc & kMemClassVm)))
          continue;
      }
      Finding f = base(FindingClass::UnwaitedResult, w, in.pc, -1);
      f.what = regName(r);
      f.site.access = write ? "overwrite" : "read";
      f.other = site(w, op->pc, -1);
      f.other.access = "load into it, still outstanding";
      f.detail = std::string(write ? "the register is overwritten" : "the register is read") +
                 " before an s_waitcnt " + queueName(op->queue) +
                 " covers the memory operation that writes it";
      report(std::move(f), in.pc, op->pc);
      // Complete it now so one missing wait is one finding.
      if (op->queue == Queue::Vm || op->queue == Queue::Flat)
        op->vmDone = true;
      op->lgkmDone = true;
      op->touchedLds = false;
      sweep(c);
      return;
    }
  }

  // --- Synchronisation ------------------------------------------------------

  /// Atomics, and loads/stores with sc0/sc1 (atomic or volatile at
  /// workgroup scope or wider), synchronise; plain accesses do not.
  static bool isSync(const Inst &in, ArrayRef<MemRecord> mem) {
    for (const MemRecord &m : mem)
      if (m.kind == kMemAtomic)
        return true;
    if (in.memClass & kMemClassLdsDma)
      return false;
    if (in.memClass & (kMemClassVm | kMemClassSmem))
      return (in.cpol & (kCpolSc0 | kCpolSc1)) != 0;
    return false;
  }

  static uint64_t wgKey(const Workgroup &g) {
    return (uint64_t(g.launch) << 48) | g.index;
  }

  SyncVar &syncVar(Wave &w, bool isLds, uint64_t addr) {
    if (isLds) {
      auto &p = lds[w.wg]->sync[uint32_t(addr & ~3ull)];
      if (!p)
        p = std::make_unique<SyncVar>();
      return *p;
    }
    auto &p = globalSync[addr & ~3ull];
    if (!p)
      p = std::make_unique<SyncVar>();
    return *p;
  }
  SyncVar *findSync(Wave &w, bool isLds, uint64_t addr) {
    if (isLds) {
      auto &m = lds[w.wg]->sync;
      auto it = m.find(uint32_t(addr & ~3ull));
      return it == m.end() ? nullptr : it->second.get();
    }
    auto it = globalSync.find(addr & ~3ull);
    return it == globalSync.end() ? nullptr : it->second.get();
  }

  void release(Wave &w, WaveCk &c, uint32_t e, bool isLds, uint64_t addr, uint8_t cpol) {
    SyncVar &sv = syncVar(w, isLds, addr);
    // Workgroup scope: completed LDS ops, issued global ops.
    uint64_t key = wgKey(*w.wg);
    if (sv.wgKey != key) {
      sv.wg.e.clear();
      sv.wgKey = key;
    }
    sv.wg.join(c.vc);
    sv.wg.raise(vid(c.uid, true), completedEpoch(c, e, true));
    sv.wg.raise(vid(c.uid, false), e - 1);
    if (isLds)
      return;
    // Agent and system scope: global ops that completed and were written
    // back by a completed buffer_wbl2.
    uint32_t done = completedEpoch(c, e, false);
    if (c.agentWbl2Done) {
      sv.agent.join(c.vc);
      sv.agent.raise(vid(c.uid, false), std::min(done, c.agentWbl2Done - 1));
    }
    if (c.systemWbl2Done) {
      uint32_t sys = std::min(done, c.systemWbl2Done - 1);
      sv.system.join(c.vc);
      sv.system.raise(vid(c.uid, false), sys);
      sv.agent.raise(vid(c.uid, false), sys);
    }
    (void)cpol;
  }

  void gatherAcquire(Wave &w, bool isLds, uint64_t addr, SyncVar &into) {
    SyncVar *sv = findSync(w, isLds, addr);
    if (!sv)
      return;
    // Workgroup scope takes effect at once (see the file comment).
    if (sv->wgKey == wgKey(*w.wg))
      waves[w.uid]->vc.join(sv->wg);
    into.agent.join(sv->agent);
    into.system.join(sv->system);
  }

  // --- Shadow memory --------------------------------------------------------

  static constexpr unsigned kPageBits = 12;
  Cell *globalCells(uint64_t granuleAddr) {
    uint64_t page = granuleAddr >> kPageBits;
    size_t i = (granuleAddr & ((1u << kPageBits) - 1)) >> 2;
    if (page == lastPage)
      return &lastShadow->cells[i];
    auto &p = global[page];
    if (!p)
      p = ShadowPagePool::get().take();
    lastPage = page;
    lastShadow = p.get();
    return &lastShadow->cells[i];
  }

  bool hb(const Acc &a, const WaveCk &c) const {
    return a.uid / 2 == c.uid || a.epoch <= c.vc.get(a.uid);
  }

  void accessRange(Wave &w, WaveCk &c, const Inst &in, uint32_t pcOff,
                   const MemRecord &m, uint32_t e, bool sync, bool dma) {
    bool isLds = m.space == MemSpace::Lds;
    uint64_t end = m.addr + m.bytes;
    std::vector<Cell> *ldsCells = isLds ? &lds[w.wg]->cells : nullptr;
    for (uint64_t g = m.addr & ~3ull; g < end; g += 4) {
      // The bytes of the granule the access covers, [lo, hi).
      unsigned lo = g < m.addr ? unsigned(m.addr - g) : 0;
      unsigned hi = g + 4 > end ? unsigned(end - g) : 4;
      uint8_t mask = uint8_t(((1u << hi) - 1) & ~((1u << lo) - 1));
      Cell *cell;
      if (isLds) {
        if ((g >> 2) >= ldsCells->size())
          continue;
        cell = &(*ldsCells)[g >> 2];
      } else {
        cell = globalCells(g);
      }
      Acc cur{};
      cur.uid = vid(c.uid, isLds);
      cur.epoch = e;
      cur.pc = pcOff;
      cur.lane = m.lane;
      cur.mask = mask;
      cur.flags = uint8_t(kAccValid | (sync ? kAccSync : 0) | (dma ? kAccDma : 0) |
                          (m.kind != kMemRead ? kAccWrite : 0) |
                          (m.kind == kMemAtomic ? kAccAtomic : 0));
      bool inFlight = dma && isLds && m.kind != kMemRead && !c.pending.empty() &&
                      c.pending.back().epoch == e;
      if (inFlight)
        cur.epoch = kInFlight;
      checkCell(w, c, in, *cell, cur, g, isLds);
      if (inFlight) {
        PendingOp &op = c.pending.back();
        op.dmaCells = &lds[w.wg]->cells;
        op.dmaGranules.push_back(uint32_t(g >> 2));
      }
    }
  }

  std::string where(uint64_t g, uint8_t mask, bool isLds) {
    unsigned lo = 0;
    while (lo < 4 && !((mask >> lo) & 1))
      ++lo;
    unsigned n = 0;
    for (unsigned b = lo; b < 4 && ((mask >> b) & 1); ++b)
      ++n;
    return std::string(isLds ? "LDS" : "global") + " [0x" + utohexstr(g + lo) +
           ", +" + std::to_string(n) + ")";
  }

  void conflict(Wave &w, const Inst &in, const Acc &cur, const Acc &prev,
                uint64_t g, bool isLds) {
    Finding f = base(FindingClass::Race, w, in.pc, cur.lane);
    f.site.access = accessName(cur.flags);
    f.other = siteOf(prev);
    f.what = where(g, cur.mask & prev.mask, isLds);
    f.detail = isLds ? "not ordered by happens-before: no s_barrier between them "
                       "after the first access completed (s_waitcnt)"
                     : "not ordered by happens-before: no barrier, or no release "
                       "(s_waitcnt + buffer_wbl2 + atomic) / acquire (atomic + "
                       "s_waitcnt + buffer_inv) pair between them";
    report(std::move(f), in.pc, uint64_t(prev.pc) | (uint64_t(isLds) << 40));
  }

  void checkCell(Wave &w, WaveCk &c, const Inst &in, Cell &cell, const Acc &cur,
                 uint64_t g, bool isLds) {
    bool curWrite = cur.flags & kAccWrite;
    bool curSync = cur.flags & kAccSync;
    auto races = [&](const Acc &prev) {
      return (prev.flags & kAccValid) && (prev.mask & cur.mask) &&
             !(curSync && (prev.flags & kAccSync)) && !hb(prev, c);
    };
    Acc &wr = cell.w;
    if (!curWrite) {
      if ((wr.flags & kAccValid) && (wr.mask & cur.mask) && wr.uid / 2 == c.uid &&
          (wr.flags & kAccDma) && wr.epoch == kInFlight) {
        // The wave's own LDS DMA into these bytes has not been waited for.
        Finding f = base(FindingClass::UnwaitedResult, w, in.pc, cur.lane);
        f.site.access = "read";
        f.other = siteOf(wr);
        f.other.access = "LDS DMA write, still outstanding";
        f.what = where(g, cur.mask & wr.mask, true);
        f.detail = "LDS bytes are read before an s_waitcnt vmcnt covers the "
                   "buffer_load ... lds that writes them";
        report(std::move(f), in.pc, wr.pc);
      } else if (races(wr)) {
        conflict(w, in, cur, wr, g, isLds);
      }
      if (uninit && isLds && (wr.written & cur.mask) != cur.mask) {
        Finding f = base(FindingClass::Uninit, w, in.pc, cur.lane);
        f.site.access = "read";
        f.what = where(g, cur.mask & ~wr.written, true);
        f.detail = "LDS bytes are read before anything wrote them";
        report(std::move(f), in.pc, 0);
      }
      // Keep up to two reads that are not ordered with each other.
      Acc *slot = nullptr;
      for (Acc &r : cell.r)
        if ((r.flags & kAccValid) && r.uid == cur.uid)
          slot = &r;
      if (!slot)
        for (Acc &r : cell.r)
          if (!(r.flags & kAccValid) || hb(r, c)) {
            slot = &r;
            break;
          }
      if (!slot)
        slot = &cell.r[1];
      if (slot->uid == cur.uid && (slot->flags & kAccValid))
        slot->mask |= cur.mask, slot->epoch = cur.epoch, slot->pc = cur.pc,
            slot->lane = cur.lane, slot->flags = cur.flags;
      else
        *slot = cur;
      return;
    }
    if (races(wr))
      conflict(w, in, cur, wr, g, isLds);
    for (Acc &r : cell.r)
      if (races(r))
        conflict(w, in, cur, r, g, isLds);
    uint8_t written = wr.written | cur.mask;
    wr = cur;
    wr.written = written;
    // Reads ordered before this write (or just reported) need no checks
    // against later writes; an atomic's read half is covered by its write.
    for (Acc &r : cell.r)
      r.flags = 0;
  }

  const std::vector<LaunchPlan *> &plans;
  bool uninit = false;
  std::vector<std::unique_ptr<WaveCk>> waves;
  std::vector<WaveInfo> info;
  std::unordered_map<const Workgroup *, std::unique_ptr<LdsShadow>> lds;
  std::unordered_map<uint64_t, std::unique_ptr<ShadowPage>> global;
  uint64_t lastPage = ~0ull;
  ShadowPage *lastShadow = nullptr;
  std::unordered_map<uint64_t, std::unique_ptr<SyncVar>> globalSync;
  std::set<const Workgroup *> endedWhileWaiting;
  std::map<std::tuple<uint8_t, uint64_t, uint64_t>, size_t> seen;
  std::vector<Finding> findings;
};

} // namespace

std::unique_ptr<Checker> Checker::create(const std::vector<LaunchPlan *> &plans) {
  return std::make_unique<CheckerImpl>(plans);
}

} // namespace kcc::emu
