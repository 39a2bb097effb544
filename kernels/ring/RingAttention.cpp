//===- RingAttention.cpp - kcc::ops::ring_attention ------------------------===//
//
// Per call: agree on shapes (all-gather of a descriptor per rank), publish
// every local rank's K/V into its heap workspace and release its chunk flag,
// then walk the bidirectional schedule. At step t each rank has the chunks of
// step t in staging slot t % 2 (step 0: its own, read in place) and fetches
// step t + 1's into the other slot before computing: the fetch never touches
// the slot being read (double buffering). Partial results go through
// ring_merge in f32; the last merge of each query chunk writes O (and LSE).
//
//===----------------------------------------------------------------------===//
#include "kernels/ring/RingAttention.h"
#include "target/Error.h"
#include "kernels/EmbeddedKernels.h"
#include "runtime/Buffer.h"
#include "target/CodeObject.h"
#include "target/Occupancy.h"
#include "runtime/Jit.h"
#include "runtime/Kernel.h"
#include "runtime/Module.h"
#include "runtime/SymmetricHeap.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_map>

using namespace llvm;

namespace kcc::ops {

/// What this file's errors name first.
constexpr llvm::StringLiteral kComponent = "ring_attention";
namespace {

/// The view of tokens [start, start + len) of `t`, with its strides made
/// explicit (the packed defaults depend on seq, which changes).
AttentionTensorRef tokens(const AttentionTensorRef &t, int64_t start, int64_t len) {
  AttentionTensorRef r = t;
  r.batchStride = t.batchStrideOrPacked();
  r.tokenStride = t.tokenStrideOrPacked();
  r.headStride = t.headStrideOrPacked();
  r.offset = t.offset + start * r.tokenStride;
  r.seq = len;
  return r;
}

/// What every rank tells every other before anything moves: its shapes and
/// options, or why its operands are invalid.
struct Descriptor {
  int32_t status = 0; // 0: valid
  int32_t dtype = 0;
  int64_t batch = 0, seq = 0, heads = 0, kvHeads = 0, headDim = 0;
  int32_t causal = 0, sharding = 0, hasLse = 0, stepKernel = 0;
  char message[384] = {};
};

std::string shapeText(const Descriptor &d) {
  return "B=" + std::to_string(d.batch) + " S=" + std::to_string(d.seq) +
         " H=" + std::to_string(d.heads) + " H_kv=" + std::to_string(d.kvHeads) +
         " D=" + std::to_string(d.headDim) + " " +
         dtypeName(DType(d.dtype)).str();
}

std::string optionText(const Descriptor &d) {
  return std::string(d.causal ? "causal" : "non-causal") + ", " +
         ringShardingName(RingSharding(d.sharding)).str() + ", " +
         (d.hasLse ? "with" : "without") + " LSE, " +
         ringStepKernelName(RingStepKernel(d.stepKernel)).str() + " steps";
}

uint64_t kernelInstructions(const LaunchResult &r) {
  return r.waveInstructions.value_or(0);
}

/// One local rank's buffers for a call.
struct RankState {
  unsigned rank = 0;
  const RingRankOperands *ops = nullptr;
  std::vector<RingChunk> chunks;
  std::optional<Buffer> staging, acc, runLse, partO, partLse;
  /// Per query chunk: the number of merges still to come.
  std::vector<unsigned> mergesLeft;
};

/// Workgroups of 4 waves of `k` resident on one CU at once
/// (target/Occupancy.h): the persistent launch holds that many per CU.
unsigned persistentGroupsPerCu(const KernelInfo &k, Chip chip) {
  Occupancy occ = computeOccupancy(chip, kernelResources(k, chip, 256));
  return std::max(occ.workgroupsPerCu, 1u);
}

/// Splits the persistent launch's instructions by step. Each wave is
/// followed through the flags it touches: a worker is in step t from its
/// first poll of a step-t ready flag (step 0 before any), and back in step
/// 0 after releasing its last step (its next item); a fetcher is in step 1
/// until it releases step 1's ready flag, then in step 2, and so on.
class StepSplitter : public LaunchTrace {
public:
  struct Launch {
    uint64_t flags = 0; // device address of the launch's flag words
    unsigned fetchers = 0, workers = 0, world = 1;
    std::vector<uint64_t> compute, fetch; // per step
  };
  std::vector<Launch> launches; // in launch order (the ranks)

  void instruction(const TracedInstruction &w,
                   ArrayRef<TracedAccess> global) override {
    if (w.launch >= launches.size())
      return;
    Launch &l = launches[w.launch];
    bool fetcher = w.workgroup < l.fetchers;
    auto [it, fresh] = step_.try_emplace(w.wave, fetcher ? 1u : 0u);
    unsigned &step = it->second;
    unsigned at = std::min(step, l.world - 1);
    (fetcher ? l.fetch : l.compute)[at] += 1;
    uint64_t readyBase = uint64_t(l.workers) * l.world;
    for (const TracedAccess &m : global) {
      if (m.address < l.flags)
        continue;
      uint64_t word = (m.address - l.flags) / 4;
      if (word >= readyBase + uint64_t(l.world) * l.fetchers)
        continue;
      bool write = m.write;
      if (word >= readyBase) {
        unsigned t = unsigned((word - readyBase) / l.fetchers);
        if (fetcher && write)
          step = t + 1;
        else if (!fetcher && !write)
          step = t;
      } else if (!fetcher && write && word % l.world == l.world - 1) {
        step = 0;
      }
    }
  }

private:
  std::unordered_map<uint32_t, unsigned> step_;
};

} // namespace

StringRef ringShardingName(RingSharding sharding) {
  return sharding == RingSharding::ZigZag ? "zigzag" : "contiguous";
}

StringRef ringStepKernelName(RingStepKernel kernel) {
  return kernel == RingStepKernel::Persistent ? "persistent" : "attention+merge";
}

std::vector<RingChunk> ringChunks(RingSharding sharding, unsigned world,
                                  unsigned rank, int64_t seqPerRank) {
  if (sharding == RingSharding::Contiguous)
    return {RingChunk{int64_t(rank) * seqPerRank, 0, seqPerRank, rank}};
  int64_t a = (seqPerRank + 1) / 2, b = seqPerRank - a;
  unsigned second = 2 * world - 1 - rank;
  return {RingChunk{int64_t(rank) * a, 0, a, rank},
          RingChunk{int64_t(world) * a + int64_t(second - world) * b, a, b, second}};
}

std::vector<unsigned> ringSources(unsigned world, unsigned rank, unsigned step) {
  if (step == 0)
    return {rank};
  std::vector<unsigned> s;
  if (rank >= step)
    s.push_back(rank - step);
  if (rank + step < world)
    s.push_back(rank + step);
  return s;
}

Error checkRingRank(const RingCommunicator &comm, unsigned rank,
                    const RingRankOperands &o, const RingAttentionOptions &options) {
  auto fail = [&](const Twine &m) { return makeError(kComponent, "rank " + Twine(rank) + ": " + m); };
  if (!comm.isLocal(rank))
    return fail("is not a rank of this process");
  for (auto [name, t] : {std::pair<const char *, const AttentionTensorRef *>{"Q", &o.q},
                         {"K", &o.k}, {"V", &o.v}, {"O", &o.o}}) {
    if (!t->buffer)
      return fail(Twine(name) + " has no buffer");
    if (&t->buffer->device() != &comm.device(rank))
      return fail(Twine(name) + " is on " + t->buffer->device().spec() +
                  " but the rank's device in the heap is " +
                  comm.device(rank).spec());
  }
  if (o.lse && !o.lse->buffer)
    return fail("LSE has no buffer");
  if (o.lse && &o.lse->buffer->device() != &comm.device(rank))
    return fail("LSE is on " + o.lse->buffer->device().spec() +
                " but the rank's device in the heap is " + comm.device(rank).spec());
  if (o.q.seq < 1)
    return fail("Q has " + Twine(o.q.seq) + " tokens; every rank needs at least 1");
  if (o.k.seq != o.q.seq)
    return fail("Q has " + Twine(o.q.seq) + " tokens but K and V have " +
                Twine(o.k.seq) +
                "; a rank holds the same tokens of Q, K and V");
  AttentionOptions ao;
  ao.causal = options.causal;
  ao.scale = options.scale;
  ao.lse = o.lse;
  if (Error e = checkAttention(o.q, o.k, o.v, o.o, ao))
    return fail(toString(std::move(e)));
  if (options.scale && !(std::isfinite(*options.scale) && *options.scale > 0))
    return fail("the scale must be positive and finite");
  return Error::success();
}

Expected<RingAttentionResult> ring_attention(RingCommunicator &comm,
                                             ArrayRef<RingRankOperands> local,
                                             const RingAttentionOptions &options) {
  ArrayRef<unsigned> mine = comm.localRanks();
  unsigned world = comm.world();
  if (local.size() != mine.size())
    return makeError(kComponent, "this process drives " + Twine(mine.size()) +
                 " rank(s) of the communicator but got operands for " +
                 Twine(local.size()));

  // 1. Agreement: every rank's descriptor on every rank, so that every rank
  // reports the same error (and none waits for a chunk that never comes).
  std::vector<Descriptor> descs(mine.size()), all(world);
  for (size_t i = 0; i < mine.size(); ++i) {
    Descriptor &d = descs[i];
    const RingRankOperands &o = local[i];
    d.dtype = int32_t(o.q.dtype);
    d.batch = o.q.batch, d.seq = o.q.seq, d.heads = o.q.heads;
    d.kvHeads = o.k.heads, d.headDim = o.q.headDim;
    d.causal = options.causal, d.sharding = int32_t(options.sharding);
    d.stepKernel = int32_t(options.stepKernel);
    d.hasLse = o.lse.has_value();
    if (Error e = checkRingRank(comm, mine[i], o, options)) {
      d.status = 1;
      std::string m = toString(std::move(e));
      std::strncpy(d.message, m.c_str(), sizeof(d.message) - 1);
    }
  }
  if (Error e = comm.allGather(descs.data(), sizeof(Descriptor), all.data()))
    return std::move(e);
  for (unsigned r = 0; r < world; ++r)
    if (all[r].status)
      return makeError(kComponent, "rank " + Twine(r) + " cannot take part, so no rank runs: " +
                   StringRef(all[r].message).drop_front(
                       StringRef(all[r].message).starts_with("ring_attention: ") ? 16 : 0));
  for (unsigned r = 1; r < world; ++r) {
    const Descriptor &a = all[0], &b = all[r];
    if (a.dtype != b.dtype || a.batch != b.batch || a.seq != b.seq ||
        a.heads != b.heads || a.kvHeads != b.kvHeads || a.headDim != b.headDim)
      return makeError(kComponent, "rank " + Twine(r) + " has " + shapeText(b) + " but rank 0 has " +
                   shapeText(a) + "; every rank must pass the same shapes and dtype");
    if (a.causal != b.causal || a.sharding != b.sharding || a.hasLse != b.hasLse ||
        a.stepKernel != b.stepKernel)
      return makeError(kComponent, "rank " + Twine(r) + " runs " + optionText(b) + " but rank 0 runs " +
                   optionText(a) + "; every rank must pass the same options");
  }

  const Descriptor &shape = all[0];
  DType dtype = DType(shape.dtype);
  int64_t B = shape.batch, S = shape.seq, H = shape.heads, Hkv = shape.kvHeads,
          D = shape.headDim;
  int64_t es = dtypeSize(dtype);
  int64_t nkv = B * S * Hkv * D; // elements of one packed K (or V) shard
  if (uint64_t(2 * nkv) * es > UINT32_MAX)
    return makeError(kComponent, "a rank's K and V shard spans " + Twine(2 * nkv * es) +
                 " bytes; the fetch kernel reaches at most 4294967295");
  Jit &jit = options.jit ? *options.jit : Jit::shared();
  double scale = options.scale.value_or(1.0 / std::sqrt(double(D)));

  // 2. Workspace: flags (256 bytes), then the packed K and V shard.
  const uint64_t kvOffset = 256;
  Expected<SymmetricAllocation> ws = comm.workspace(kvOffset + uint64_t(2 * nkv * es));
  if (!ws)
    return ws.takeError();
  SymmetricHeap &heap = comm.heap();
  uint32_t epoch = comm.nextEpoch();

  std::vector<std::string> dtypeParams = {"DTYPE=" + dtypeName(dtype).str(),
                                          "D=" + std::to_string(D)};
  auto kernelOn = [&](Device &dev, StringRef file, StringRef name,
                      std::vector<std::string> params) -> Expected<Kernel> {
    Expected<Module> m = compileEmbeddedKernel(dev, jit, file, params);
    if (!m)
      return makeError(kComponent, "cannot compile " + file + ": " + toString(m.takeError()));
    return m->kernel(name);
  };

  // Every pair, not only this process's: a rank that went ahead would wait
  // forever for the chunks of one that stopped here.
  bool persistent = options.stepKernel == RingStepKernel::Persistent;
  if (persistent)
    for (unsigned r = 0; r < world; ++r)
      for (unsigned p = r + 1; p < world; ++p)
        if (comm.link(r, p) != RingLink::Heap)
          return makeError(kComponent, "the persistent step kernel reads chunks over the symmetric "
                       "heap, but ranks " + Twine(r) + " and " + Twine(p) + " are linked by " +
                       ringLinkName(comm.link(r, p)) +
                       "; use RingStepKernel::AttentionMerge across nodes");

  RingAttentionResult result;
  result.world = world;
  result.stepKernel = options.stepKernel;
  // Named before anything runs, so that even a rank whose pairs are all
  // skipped reports what its steps would have run.
  if (persistent) {
    result.path = ringStepKernelName(RingStepKernel::Persistent).str();
  } else {
    Chip chip = mine.empty() ? Chip::gfx942 : comm.device(mine[0]).chip();
    result.attentionKernelPath = attentionPath(chip, D);
    result.path = (ringStepKernelName(RingStepKernel::AttentionMerge) + " (" +
                   attentionPathName(*result.attentionKernelPath) + ")")
                      .str();
  }
  std::vector<RankState> ranks(mine.size());
  for (size_t i = 0; i < mine.size(); ++i) {
    RankState &st = ranks[i];
    st.rank = mine[i];
    st.ops = &local[i];
    st.chunks = ringChunks(options.sharding, world, st.rank, S);
    Device &dev = comm.device(st.rank);
    int64_t maxChunk = st.chunks[0].length;
    auto alloc = [&](std::optional<Buffer> &b, uint64_t bytes) -> Error {
      Expected<Buffer> nb = Buffer::allocate(dev, std::max<uint64_t>(bytes, 4));
      if (!nb)
        return nb.takeError();
      b.emplace(std::move(*nb));
      return Error::success();
    };
    // The persistent kernel sizes its own staging once its grid is known;
    // it keeps the running state in registers.
    if (!persistent) {
      // Staging: 2 slots x 2 sides (left, right neighbour) x (K, V).
      if (Error e = alloc(st.staging, uint64_t(8 * nkv * es)))
        return std::move(e);
      if (Error e = alloc(st.acc, uint64_t(B * S * H * D * 4)))
        return std::move(e);
      if (Error e = alloc(st.runLse, uint64_t(B * H * S * 4)))
        return std::move(e);
      if (Error e = alloc(st.partO, uint64_t(B * maxChunk * H * D * es)))
        return std::move(e);
      if (Error e = alloc(st.partLse, uint64_t(B * H * maxChunk * 4)))
        return std::move(e);
      // The running state starts empty: O = 0 (weight 0 must not meet a
      // NaN) and LSE = -inf.
      if (Error e = st.acc->fill(0))
        return std::move(e);
      std::vector<float> ninf(size_t(B * H * S), -std::numeric_limits<float>::infinity());
      if (Error e = st.runLse->write(ninf.data(), ninf.size() * 4))
        return std::move(e);
    }

    // Publish: K and V packed into the heap, then the chunk flag released.
    Expected<Kernel> pack = kernelOn(dev, "ring_copy", "ring_pack", dtypeParams);
    if (!pack)
      return pack.takeError();
    Expected<Kernel> signal = kernelOn(dev, "ring_copy", "ring_signal", dtypeParams);
    if (!signal)
      return signal.takeError();
    for (int which = 0; which < 2; ++which) {
      const AttentionTensorRef &t = which ? st.ops->v : st.ops->k;
      uint64_t src = t.buffer->address() + uint64_t(t.offset * es);
      uint64_t dst = heap.address(st.rank, *ws, kvOffset + uint64_t(which * nkv * es));
      LaunchConfig cfg;
      cfg.grid = Dim3(uint32_t((S + 63) / 64), uint32_t(Hkv), uint32_t(B));
      cfg.block = Dim3(256);
      Expected<LaunchResult> r = pack->launch(
          cfg, {DevicePointer{src}, DevicePointer{dst}, int32_t(S),
                int32_t(t.batchStrideOrPacked()), int32_t(t.tokenStrideOrPacked()),
                int32_t(t.headStrideOrPacked()), int32_t(S * Hkv * D),
                int32_t(Hkv * D), int32_t(D)});
      if (!r)
        return r.takeError();
    }
    Expected<LaunchResult> r = signal->launch(
        Dim3(1), Dim3(64),
        {heap.pointer(st.rank, *ws), int32_t(0), int32_t(epoch)});
    if (!r)
      return r.takeError();
  }
  // Processes that own other ranks publish at the same time; a fetch would
  // wait for their flags anyway, but waiting here keeps the emulator's
  // hang watchdog away from a peer that is still compiling its kernels.
  if (Error e = comm.barrier())
    return std::move(e);

  // How many merges each query chunk gets, so that the last one writes O.
  auto pairKind = [&](const RingChunk &q, const RingChunk &k) {
    // 0: skip (above the diagonal), 1: full, 2: causal (the diagonal chunk).
    if (q.length == 0 || k.length == 0)
      return 0;
    if (!options.causal)
      return 1;
    if (k.index == q.index)
      return 2;
    return k.index < q.index ? 1 : 0;
  };
  for (RankState &st : ranks) {
    st.mergesLeft.assign(st.chunks.size(), 0);
    for (unsigned t = 0; t < world; ++t)
      for (unsigned src : ringSources(world, st.rank, t))
        for (const RingChunk &kc : ringChunks(options.sharding, world, src, S))
          for (size_t qi = 0; qi < st.chunks.size(); ++qi)
            if (pairKind(st.chunks[qi], kc))
              ++st.mergesLeft[qi];
  }

  // Records: rank-major, one per (local rank, step).
  result.steps.resize(ranks.size() * world);
  auto record = [&](size_t i, unsigned t) -> RingStepRecord & {
    RingStepRecord &r = result.steps[i * world + t];
    r.rank = ranks[i].rank;
    r.step = t;
    return r;
  };

  // The persistent form: one launch per rank (see ring_attn_persistent.mlir).
  auto runPersistent = [&]() -> Error {
    std::vector<std::string> params = dtypeParams;
    params.push_back(std::string("CAUSAL=") + (options.causal ? "1" : "0"));
    params.push_back(std::string("LSE_OUT=") + (shape.hasLse ? "1" : "0"));
    // Each wave's V tile goes through its LDS stage: read back transposed
    // where the transposing LDS read exists (gfx950), else stored as V^T.
    bool vtr = getChipInfo(comm.device(ranks[0].rank).chip()).hasTransposingLdsRead;
    params.push_back(std::string("V_TR=") + (vtr ? "1" : "0"));
    // Double-buffered key tiles (one barrier per tile) on gfx950; one
    // buffer on gfx942, where two padded ones would leave room in its
    // 64 KiB of LDS for a single workgroup per CU.
    int stages = vtr ? 2 : 1;
    params.push_back("STAGES=" + std::to_string(stages));
    params.push_back("KR=" + std::to_string(32 * stages));
    params.push_back("VR=" + std::to_string(vtr ? 32 * stages : D));
    params.push_back("VC=" + std::to_string(vtr ? D : 32 * stages));
    // Row padding of the K and V stages, by the timing model's bank-conflict
    // report (ring_bench --step-kernels with RING_BENCH_REPORT=1): gfx950
    // 8 / 0 elements, gfx942 4 / 4 (unpadded, gfx942's V^T reads of 64-byte
    // rows conflict and its LDS pipe is the bottleneck).
    params.push_back(std::string("KPAD=") + (vtr ? "8" : "4"));
    params.push_back(std::string("VPAD=") + (vtr ? "0" : "4"));
    std::vector<Kernel> kernels;
    kernels.reserve(ranks.size());
    for (RankState &st : ranks) {
      Expected<Kernel> k = kernelOn(comm.device(st.rank), "ring_attn_persistent",
                                    "ring_attn_persistent", params);
      if (!k)
        return k.takeError();
      kernels.push_back(*k);
    }
    // Every workgroup resident at once: a worker spins on a fetcher's flag
    // and a fetcher on the workers' (slot free), so none may wait for a
    // slot that a spinning one holds. Every rank computes the same grid.
    Device &dev0 = comm.device(ranks[0].rank);
    unsigned resident = heap.computeUnits(ranks[0].rank) *
                        persistentGroupsPerCu(kernels[0].info(), dev0.chip());
    if (resident < 2)
      return makeError(kComponent, "only " + Twine(resident) + " workgroup of the persistent kernel fits "
                   "on the device at once; it needs a fetcher and a worker resident");
    int64_t items = B * H * ((S + 127) / 128);
    unsigned fetchers = unsigned(std::clamp<int64_t>(resident / 8, 1, 4));
    unsigned workers = unsigned(std::min<int64_t>(items, resident - fetchers));
    // Two slots when every worker owns one item for the whole walk; else
    // one slot per step, so that a worker going back to step 1 for its next
    // item still finds it (fetchers then never wait for a free slot).
    unsigned steps = world > 1 ? world - 1 : 1;
    unsigned slots = int64_t(workers) == items ? std::min(2u, steps) : steps;
    result.fetchers = fetchers, result.workers = workers, result.slots = slots;

    uint64_t flagWords = uint64_t(workers) * world + uint64_t(world) * fetchers;
    // Launch arguments point at these buffers: no reallocation after.
    std::vector<Buffer> staging, flags;
    staging.reserve(ranks.size());
    flags.reserve(ranks.size());
    StepSplitter splitter;
    std::vector<RankLaunch> launches;
    for (size_t i = 0; i < ranks.size(); ++i) {
      RankState &st = ranks[i];
      Device &dev = comm.device(st.rank);
      Expected<Buffer> sb =
          Buffer::allocate(dev, std::max<uint64_t>(4, uint64_t(slots) * 4 * nkv * es));
      if (!sb)
        return sb.takeError();
      Expected<Buffer> fb = Buffer::allocate(dev, flagWords * 4);
      if (!fb)
        return fb.takeError();
      if (Error e = fb->fill(0))
        return e;
      staging.push_back(std::move(*sb));
      flags.push_back(std::move(*fb));
      const RingRankOperands &o = *st.ops;
      uint64_t qAddr = o.q.buffer->address() + uint64_t(o.q.offset * es);
      uint64_t oAddr = o.o.buffer->address() + uint64_t(o.o.offset * es);
      uint64_t lAddr = o.lse ? o.lse->buffer->address() : flags.back().address();
      RankLaunch l;
      l.kernel = &kernels[i];
      l.config.grid = Dim3(fetchers + workers);
      l.config.block = Dim3(256);
      l.args = {DevicePointer{qAddr}, DevicePointer{oAddr}, DevicePointer{lAddr},
                DevicePointer{heap.address(st.rank, *ws, kvOffset)}, staging.back(),
                flags.back(), heap.basesTable(st.rank), heap.pointer(st.rank, *ws),
                int32_t(st.rank), int32_t(world), int32_t(epoch),
                int32_t(options.sharding == RingSharding::ZigZag), int32_t(B),
                int32_t(S), int32_t(H), int32_t(Hkv),
                int32_t(o.q.batchStrideOrPacked()), int32_t(o.q.tokenStrideOrPacked()),
                int32_t(o.q.headStrideOrPacked()), int32_t(o.o.batchStrideOrPacked()),
                int32_t(o.o.tokenStrideOrPacked()), int32_t(o.o.headStrideOrPacked()),
                int32_t(fetchers), int32_t(slots), float(scale * M_LOG2E)};
      launches.push_back(std::move(l));
      StepSplitter::Launch sl;
      sl.flags = flags.back().address();
      sl.fetchers = fetchers, sl.workers = workers, sl.world = world;
      sl.compute.assign(world, 0);
      sl.fetch.assign(world, 0);
      splitter.launches.push_back(std::move(sl));
    }

    std::vector<uint64_t> total(ranks.size(), 0);
    bool emulated = dev0.kind() == DeviceKind::Emu;
    if (heap.allLocal()) {
      RankLaunchOptions lo;
      if (emulated)
        lo.trace = &splitter;
      Expected<std::vector<LaunchResult>> rs = heap.launchAll(launches, lo);
      if (!rs)
        return makeError(kComponent, "persistent step kernel: " + toString(rs.takeError()));
      for (size_t i = 0; i < rs->size(); ++i)
        total[i] = kernelInstructions((*rs)[i]);
    } else {
      // A rank of a heap across processes: the peers' kernels run in their
      // own processes; this one only waits on flags its peers released
      // before the barrier above, and on its own workgroups.
      for (size_t i = 0; i < launches.size(); ++i) {
        Expected<LaunchResult> r = kernels[i].launch(launches[i].config, launches[i].args);
        if (!r)
          return makeError(kComponent, "persistent step kernel: " + toString(r.takeError()));
        total[i] = kernelInstructions(*r);
      }
    }

    // Records: the schedule and pairs as the other form counts them, and
    // the instructions split by step (emulated devices in one process).
    bool split = emulated && heap.allLocal();
    for (size_t i = 0; i < ranks.size(); ++i) {
      RankState &st = ranks[i];
      for (unsigned t = 0; t < world; ++t) {
        RingStepRecord &rec = record(i, t);
        for (unsigned src : ringSources(world, st.rank, t)) {
          rec.sources.push_back(src);
          if (t > 0) {
            rec.bytesIn += uint64_t(2 * nkv * es);
            rec.links.push_back(comm.link(st.rank, src));
          }
          for (const RingChunk &kc : ringChunks(options.sharding, world, src, S))
            for (const RingChunk &qc : st.chunks) {
              if (pairKind(qc, kc))
                ++rec.attentionCalls;
              else if (qc.length && kc.length)
                ++rec.skippedPairs;
            }
        }
        if (split) {
          rec.attentionInstructions = splitter.launches[i].compute[t];
          rec.fetchInstructions = splitter.launches[i].fetch[t];
        } else if (t == 0) {
          rec.attentionInstructions = total[i];
        }
      }
    }
    return Error::success();
  };

  if (persistent) {
    if (Error e = runPersistent())
      return std::move(e);
    if (Error e = comm.barrier())
      return std::move(e);
    return result;
  }

  auto stagingOffset = [&](unsigned step, unsigned side) -> int64_t {
    return int64_t((step % 2) * 2 + side) * 2 * nkv; // elements
  };

  // Fetch of step t's chunks into slot t % 2 for every local rank.
  auto fetch = [&](unsigned t, std::vector<RingStepRecord *> &records) -> Error {
    std::vector<RankLaunch> launches;
    std::vector<Kernel> kernels;
    kernels.reserve(ranks.size());
    for (RankState &st : ranks) {
      Device &dev = comm.device(st.rank);
      Expected<Kernel> k = kernelOn(dev, "ring_copy", "ring_fetch", dtypeParams);
      if (!k)
        return k.takeError();
      kernels.push_back(*k);
    }
    for (size_t i = 0; i < ranks.size(); ++i) {
      RankState &st = ranks[i];
      RingStepRecord &rec = *records[i];
      std::vector<unsigned> srcs = ringSources(world, st.rank, t);
      int64_t rows[2] = {0, 0};
      unsigned srank[2] = {st.rank, st.rank};
      for (unsigned src : srcs) {
        unsigned side = src < st.rank ? 0 : 1;
        RingLink link = comm.link(st.rank, src);
        rec.links.push_back(link);
        rec.bytesIn += uint64_t(2 * nkv * es);
        uint64_t dst = st.staging->address() + uint64_t(stagingOffset(t, side) * es);
        if (link == RingLink::Heap) {
          rows[side] = 2 * nkv / D;
          srank[side] = src;
          continue;
        }
        // Across nodes: the owners swap chunks through the transport (both
        // call this at step |i - j|), then the chunk goes to the slot.
        std::vector<uint8_t> send(size_t(2 * nkv * es)), recv(send.size());
        if (Error e = heap.read(st.rank, *ws, send.data(), send.size(), kvOffset))
          return e;
        if (Error e = comm.exchange(st.rank, src, send.data(), recv.data(), recv.size()))
          return e;
        if (Error e = comm.device(st.rank).copyToDevice(dst, recv.data(), recv.size()))
          return e;
      }
      LaunchConfig cfg;
      cfg.grid = Dim3(uint32_t(std::max<int64_t>(1, (std::max(rows[0], rows[1]) + 63) / 64)), 2);
      cfg.block = Dim3(256);
      RankLaunch l;
      l.kernel = &kernels[i];
      l.config = cfg;
      l.args = {heap.basesTable(st.rank), int32_t(st.rank), heap.pointer(st.rank, *ws),
                int32_t(epoch),
                DevicePointer{heap.address(st.rank, *ws, kvOffset)},
                DevicePointer{st.staging->address() + uint64_t(stagingOffset(t, 0) * es)},
                int32_t(srank[0]), int32_t(rows[0]),
                DevicePointer{heap.address(st.rank, *ws, kvOffset)},
                DevicePointer{st.staging->address() + uint64_t(stagingOffset(t, 1) * es)},
                int32_t(srank[1]), int32_t(rows[1])};
      launches.push_back(std::move(l));
    }
    if (heap.allLocal()) {
      // All ranks at once: their fetches interleave as on hardware.
      Expected<std::vector<LaunchResult>> rs = heap.launchAll(launches);
      if (!rs)
        return rs.takeError();
      for (size_t i = 0; i < rs->size(); ++i)
        records[i]->fetchInstructions += kernelInstructions((*rs)[i]);
      return Error::success();
    }
    for (size_t i = 0; i < launches.size(); ++i) {
      Expected<LaunchResult> r = kernels[i].launch(launches[i].config, launches[i].args);
      if (!r)
        return r.takeError();
      records[i]->fetchInstructions += kernelInstructions(*r);
    }
    return Error::success();
  };

  for (unsigned t = 0; t < world; ++t) {
    // Double buffering: step t + 1's chunks move into the other slot before
    // step t's attention starts.
    if (t + 1 < world) {
      std::vector<RingStepRecord *> recs;
      for (size_t i = 0; i < ranks.size(); ++i)
        recs.push_back(&record(i, t + 1));
      if (Error e = fetch(t + 1, recs))
        return std::move(e);
    }
    for (size_t i = 0; i < ranks.size(); ++i) {
      RankState &st = ranks[i];
      RingStepRecord &rec = record(i, t);
      Device &dev = comm.device(st.rank);
      const RingRankOperands &o = *st.ops;
      for (unsigned src : ringSources(world, st.rank, t)) {
        rec.sources.push_back(src);
        // K/V of this source: in place at step 0, else the staging slot.
        AttentionTensorRef k = o.k, v = o.v;
        if (t > 0) {
          unsigned side = src < st.rank ? 0 : 1;
          int64_t off = stagingOffset(t, side);
          k = AttentionTensorRef(*st.staging, dtype, B, S, Hkv, D).withOffset(off);
          v = AttentionTensorRef(*st.staging, dtype, B, S, Hkv, D).withOffset(off + nkv);
        }
        for (const RingChunk &kc : ringChunks(options.sharding, world, src, S)) {
          for (size_t qi = 0; qi < st.chunks.size(); ++qi) {
            const RingChunk &qc = st.chunks[qi];
            int kind = pairKind(qc, kc);
            if (!kind) {
              if (qc.length && kc.length)
                ++rec.skippedPairs;
              continue;
            }
            AttentionOptions ao;
            ao.causal = kind == 2;
            ao.scale = scale;
            ao.jit = &jit;
            ao.lse = VectorRef(*st.partLse, DType::f32, B * H * qc.length);
            AttentionTensorRef po(*st.partO, dtype, B, qc.length, H, D);
            Expected<AttentionResult> ar =
                attention_forward(tokens(o.q, qc.localStart, qc.length),
                                  tokens(k, kc.localStart, kc.length),
                                  tokens(v, kc.localStart, kc.length), po, ao);
            if (!ar)
              return makeError(kComponent, "rank " + Twine(st.rank) + ", step " + Twine(t) + ": " +
                           toString(ar.takeError()));
            // attention_forward() chose its path for this rank's chip; ranks
            // of one process may be on different chips.
            if (ar->path != *result.attentionKernelPath) {
              result.attentionKernelPath = ar->path;
              result.path = (ringStepKernelName(RingStepKernel::AttentionMerge) + " (" +
                             attentionPathName(ar->path) + ")")
                                .str();
            }
            ++rec.attentionCalls;
            rec.attentionInstructions += kernelInstructions(ar->launch);

            bool final = --st.mergesLeft[qi] == 0;
            std::vector<std::string> mp = dtypeParams;
            mp.push_back(std::string("FINAL=") + (final ? "1" : "0"));
            mp.push_back(std::string("LSE_OUT=") + (o.lse ? "1" : "0"));
            Expected<Kernel> merge = kernelOn(dev, "ring_merge", "ring_merge", mp);
            if (!merge)
              return merge.takeError();
            int64_t L = qc.length, t0 = qc.localStart;
            AttentionTensorRef out = tokens(o.o, t0, L);
            uint64_t outAddr = out.buffer->address() + uint64_t(out.offset * es);
            uint64_t lseAddr = o.lse ? o.lse->buffer->address() + uint64_t(t0 * 4)
                                     : st.runLse->address();
            LaunchConfig cfg;
            cfg.grid = Dim3(uint32_t((L + 63) / 64), uint32_t(H), uint32_t(B));
            cfg.block = Dim3(256);
            Expected<LaunchResult> mr = merge->launch(
                cfg,
                {DevicePointer{st.acc->address() + uint64_t(t0 * H * D * 4)},
                 DevicePointer{st.runLse->address() + uint64_t(t0 * 4)},
                 *st.partO, *st.partLse, DevicePointer{outAddr}, DevicePointer{lseAddr},
                 int32_t(L), int32_t(S * H * D), int32_t(H * D), int32_t(D),
                 int32_t(H * S), int32_t(S), int32_t(L * H * D), int32_t(H * D),
                 int32_t(D), int32_t(H * L), int32_t(L), int32_t(out.batchStride),
                 int32_t(out.tokenStride), int32_t(out.headStride), int32_t(H * S),
                 int32_t(S)});
            if (!mr)
              return makeError(kComponent, "rank " + Twine(st.rank) + ", step " + Twine(t) +
                           ": merge: " + toString(mr.takeError()));
            rec.mergeInstructions += kernelInstructions(*mr);
          }
        }
      }
    }
  }
  // No rank may republish (the next call) while a peer still reads its
  // chunk: in one process every fetch has finished here; across processes
  // wait for all of them.
  if (Error e = comm.barrier())
    return std::move(e);
  return result;
}

} // namespace kcc::ops
