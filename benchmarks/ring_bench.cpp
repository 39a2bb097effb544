//===- ring_bench.cpp - Ring attention: compute vs transfer per step -------===//
//
// For a sequence-parallel attention layer (per rank: B=1, H=64 query heads,
// H_kv=8, D=128, bf16) this prints, per step of the bidirectional ring
// schedule, the compute time of the step (fmha_fwd on the chunks that
// arrived, plus ring_merge per partial) from the emulator's timing model, the
// transfer time of the chunks fetched meanwhile for the next step (bytes /
// link bandwidth), and how much of the transfer the compute hides. Then the
// sequence length per rank above which every transfer is hidden, for
//   * 8 ranks on one node (every pair over one xGMI link, --xgmi GB/s), and
//   * 16 ranks over two nodes (pairs across nodes over the NIC, --nic GB/s
//     per GPU; pairs within a node over xGMI),
// non-causal and causal (zig-zag sharding: every step does the same causal
// work on every rank).
//
// Kernel times come from the timing model (steady state of the key loop,
// extrapolated to the trip count; the whole device's CUs and occupancy). The
// step structure is the one kcc::ops::ring_attention runs: a step's fetch
// overlaps the previous step's attention (double buffering), so step t
// costs max(compute(t), transfer(t + 1)).
//
//   ring_bench [--chip gfx950|gfx942] [--xgmi GB/s] [--nic GB/s]
//              [--seq S[,S...]] [--heads H] [--kv-heads H]
//   ring_bench --step-kernels [--chip C]
//
// --step-kernels compares the two forms of a step (RingStepKernel) instead:
// kcc::ops::ring_attention runs on 4 emulated ranks (per rank B=1, S=256,
// H=8, H_kv=2, D=128, bf16), non-causal contiguous and causal zig-zag, with
// AttentionMerge and with Persistent, and prints rank 1's wave instructions
// per step from the call's records (attention, merge, fetch) and the totals
// over all ranks. Then the timing model's time for one full chunk pair of
// L x L tokens (the layer above: H=64, H_kv=8), fmha_fwd with LSE plus one
// ring_merge against the persistent kernel on a world of one rank (no
// fetcher, nothing to wait for: the timing model replays one launch on one
// CU and cannot follow flags released by concurrent launches);
// RING_BENCH_REPORT=1 prints the persistent kernel's full timing report.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline.h"
#include "kernels/EmbeddedKernels.h"
#include "kernels/attention/AttentionOp.h"
#include "kernels/ring/RingAttention.h"
#include "target/CodeObject.h"
#include "runtime/LaunchTiming.h"
#include "runtime/Buffer.h"
#include "runtime/Runtime.h"
#include "runtime/SymmetricHeap.h"
#include "runtime/emu/timing/Timing.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace llvm;
using namespace kcc;
using namespace kcc::ops;

namespace {

struct Config {
  Chip chip = Chip::gfx950;
  double xgmiGBs = 64;  // one MI300X/MI355X xGMI link, per direction
  double nicGBs = 50;   // 400 Gb/s NIC per GPU
  int heads = 64, kvHeads = 8, D = 128;
  std::vector<int> seqs = {512, 1024, 2048, 4096, 8192};
};

/// Compiles `kernel` of the embedded file with `params` for the chip.
Expected<std::vector<uint8_t>> compile(const Config &c, StringRef file,
                                       const std::vector<std::string> &params) {
  std::optional<EmbeddedKernel> k = findEmbeddedKernel(file);
  if (!k)
    return createStringError(inconvertibleErrorCode(), "no embedded kernel %s",
                             file.str().c_str());
  CompileOptions co;
  co.chip = c.chip;
  auto bindings = parseParamBindings(params);
  if (!bindings)
    return bindings.takeError();
  co.params = std::move(*bindings);
  std::string diags;
  raw_string_ostream ds(diags);
  auto h = compileKernelSource(k->source, k->path, co, Stage::Hsaco, ds);
  if (!h)
    return createStringError(inconvertibleErrorCode(), "%s: %s\n%s", file.str().c_str(),
                             toString(h.takeError()).c_str(), diags.c_str());
  return std::vector<uint8_t>(h->begin(), h->end());
}

/// Lays out explicit arguments: 8-byte pointers, then 4-byte ints / floats.
std::vector<uint8_t> pack(const KernelInfo &k, const std::vector<uint64_t> &ptrs,
                          const std::vector<int32_t> &ints, std::optional<float> f) {
  std::vector<uint8_t> a(k.explicitArgsSize(), 0);
  auto slots = k.explicitArgs();
  size_t i = 0;
  for (uint64_t p : ptrs)
    std::memcpy(&a[slots[i++]->offset], &p, 8);
  for (int32_t v : ints)
    std::memcpy(&a[slots[i++]->offset], &v, 4);
  if (f)
    std::memcpy(&a[slots[i++]->offset], &*f, 4);
  return a;
}

struct Timer {
  const Config &c;
  Device *dev = nullptr;
  std::map<std::string, double> cache;

  explicit Timer(const Config &c) : c(c) {
    auto runtime = Runtime::shared();
    if (!runtime) {
      consumeError(runtime.takeError());
      return;
    }
    auto d = runtime->device("emu:" + getChipInfo(c.chip).name.str());
    if (d)
      dev = &*d;
    else
      consumeError(d.takeError());
  }

  Expected<uint64_t> buffer(uint64_t bytes) { return dev->allocate(std::max<uint64_t>(bytes, 4)); }

  /// Seconds of fmha_fwd with LSE on Sq queries and Skv keys.
  Expected<double> attention(int64_t Sq, int64_t Skv, bool causal) {
    std::string key = "a" + std::to_string(Sq) + "_" + std::to_string(Skv) + (causal ? "c" : "");
    if (cache.count(key))
      return cache[key];
    auto params = attentionParams(c.chip, DType::bf16, c.D, causal, true);
    auto h = compile(c, "fmha_fwd", params);
    if (!h)
      return h.takeError();
    auto co = CodeObject::parse(*h);
    if (!co)
      return co.takeError();
    const KernelInfo *k = co->findKernel("fmha_fwd");
    int64_t H = c.heads, Hkv = c.kvHeads, D = c.D;
    auto q = buffer(uint64_t(Sq * H * D * 2)), kk = buffer(uint64_t(Skv * Hkv * D * 2)),
         v = buffer(uint64_t(Skv * Hkv * D * 2)), o = buffer(uint64_t(Sq * H * D * 2)),
         l = buffer(uint64_t(H * Sq * 4));
    for (auto *e : {&q, &kk, &v, &o, &l})
      if (!*e)
        return e->takeError();
    int32_t qs = int32_t(H * D), ks = int32_t(Hkv * D);
    auto args = pack(*k, {*q, *kk, *v, *o, *l},
                     {int32_t(Sq), int32_t(Skv), int32_t(H), int32_t(Hkv), int32_t(Sq) * qs, qs,
                      int32_t(D), int32_t(Skv) * ks, ks, int32_t(D), int32_t(Skv) * ks, ks,
                      int32_t(D), int32_t(Sq) * qs, qs, int32_t(D)},
                     float(1.0 / std::sqrt(double(D)) * 1.4426950408889634));
    int waves = attentionPath(c.chip, D) == AttentionPath::Gfx950Fast ? 8 : 4;
    LaunchConfig lo;
    lo.grid = {uint32_t((Sq + 32 * waves - 1) / (32 * waves)), uint32_t(H), 1};
    lo.block = {uint32_t(64 * waves), 1, 1};
    emu::timing::TimingOptions to;
    to.steadyStateIterations = 8;
    to.dramBytes = double((Sq * H * D * 2) * 2 + Skv * Hkv * D * 2 * 2 + H * Sq * 4);
    auto r = LaunchTiming::time(*dev, *h, "fmha_fwd", lo, args, to);
    for (uint64_t p : {*q, *kk, *v, *o, *l})
      consumeError(dev->free(p));
    if (!r)
      return r.takeError();
    return cache[key] = r->kernelSeconds;
  }

  /// Seconds of the persistent step kernel folding one chunk of L keys into
  /// L queries (the work of one chunk pair, then O and the LSE written):
  /// the kernel on a world of one rank with no fetcher workgroup (nothing
  /// to fetch), one worker per 128 queries of a head (as the persistent grid
  /// deals them), traced to the end.
  Expected<double> persistent(int64_t L, bool causal) {
    std::string key = "p" + std::to_string(L) + (causal ? "c" : "");
    if (cache.count(key))
      return cache[key];
    // The V staging, buffering and LDS padding ring_attention picks for the
    // chip.
    bool vtr = getChipInfo(c.chip).hasTransposingLdsRead;
    auto h = compile(c, "ring_attn_persistent",
                     {"DTYPE=bf16", "D=" + std::to_string(c.D),
                      std::string("CAUSAL=") + (causal ? "1" : "0"), "LSE_OUT=1",
                      std::string("V_TR=") + (vtr ? "1" : "0"),
                      std::string("STAGES=") + (vtr ? "2" : "1"),
                      std::string("KR=") + (vtr ? "64" : "32"),
                      "VR=" + std::to_string(vtr ? 64 : c.D),
                      "VC=" + std::to_string(vtr ? c.D : 32),
                      std::string("KPAD=") + (vtr ? "8" : "4"),
                      std::string("VPAD=") + (vtr ? "0" : "4")});
    if (!h)
      return h.takeError();
    auto co = CodeObject::parse(*h);
    if (!co)
      return co.takeError();
    const KernelInfo *k = co->findKernel("ring_attn_persistent");
    int64_t H = c.heads, Hkv = c.kvHeads, D = c.D;
    auto q = buffer(uint64_t(L * H * D * 2)), kv = buffer(uint64_t(2 * L * Hkv * D * 2)),
         o = buffer(uint64_t(L * H * D * 2)), l = buffer(uint64_t(H * L * 4)),
         flags = buffer(64), bases = buffer(8);
    for (auto *e : {&q, &kv, &o, &l, &flags, &bases})
      if (!*e)
        return e->takeError();
    int32_t qs = int32_t(H * D);
    auto args = pack(*k, {*q, *o, *l, *kv, *kv, *flags, *bases, *flags},
                     {0, 1, 1, 0, 1, int32_t(L), int32_t(H), int32_t(Hkv), int32_t(L) * qs, qs,
                      int32_t(D), int32_t(L) * qs, qs, int32_t(D), 0, 1},
                     float(1.0 / std::sqrt(double(D)) * 1.4426950408889634));
    LaunchConfig lo;
    // No fetcher (nothing to fetch): the traced CU's workgroups are workers.
    lo.grid = {uint32_t(H * ((L + 127) / 128)), 1, 1};
    lo.block = {256, 1, 1};
    emu::timing::TimingOptions to;
    to.dramBytes = double((L * H * D * 2) * 2 + 2 * L * Hkv * D * 2 + H * L * 4);
    auto r = LaunchTiming::time(*dev, *h, "ring_attn_persistent", lo, args, to);
    // RING_BENCH_REPORT=1: the timing model's full report (hot loop, mix).
    if (r && getenv("RING_BENCH_REPORT"))
      emu::timing::printReport(*r, outs());
    for (uint64_t p : {*q, *kv, *o, *l, *flags, *bases})
      consumeError(dev->free(p));
    if (!r)
      return r.takeError();
    return cache[key] = r->kernelSeconds;
  }

  /// Seconds of one ring_merge over Sq tokens (memory bound).
  Expected<double> merge(int64_t Sq) {
    std::string key = "m" + std::to_string(Sq);
    if (cache.count(key))
      return cache[key];
    auto h = compile(c, "ring_merge", {"DTYPE=bf16", "D=" + std::to_string(c.D), "FINAL=0"});
    if (!h)
      return h.takeError();
    auto co = CodeObject::parse(*h);
    if (!co)
      return co.takeError();
    const KernelInfo *k = co->findKernel("ring_merge");
    int64_t H = c.heads, D = c.D;
    auto acc = buffer(uint64_t(Sq * H * D * 4)), lse = buffer(uint64_t(H * Sq * 4)),
         po = buffer(uint64_t(Sq * H * D * 2)), pl = buffer(uint64_t(H * Sq * 4));
    for (auto *e : {&acc, &lse, &po, &pl})
      if (!*e)
        return e->takeError();
    int32_t S = int32_t(Sq);
    auto args = pack(*k, {*acc, *lse, *po, *pl, *po, *pl},
                     {S, int32_t(S * H * D), int32_t(H * D), int32_t(D), int32_t(H * S), S,
                      int32_t(S * H * D), int32_t(H * D), int32_t(D), int32_t(H * S), S,
                      int32_t(S * H * D), int32_t(H * D), int32_t(D), int32_t(H * S), S},
                     std::nullopt);
    LaunchConfig lo;
    lo.grid = {uint32_t((Sq + 63) / 64), uint32_t(H), 1};
    lo.block = {256, 1, 1};
    emu::timing::TimingOptions to;
    // Read O and LSE (f32) and the partial, write O and LSE back.
    to.dramBytes = double(Sq * H * D * (4 + 2 + 4) + H * Sq * 4 * 3);
    auto r = LaunchTiming::time(*dev, *h, "ring_merge", lo, args, to);
    for (uint64_t p : {*acc, *lse, *po, *pl})
      consumeError(dev->free(p));
    if (!r)
      return r.takeError();
    return cache[key] = r->kernelSeconds;
  }
};

struct StepRow {
  unsigned step;
  double compute, transfer; // transfer: of the chunks needed at `step`
};

/// The schedule of rank `rank` with `world` ranks of `perNode` per node.
Expected<std::vector<StepRow>> schedule(Timer &t, const Config &c, unsigned world,
                                        unsigned perNode, unsigned rank, int64_t S,
                                        bool causal) {
  RingSharding sh = causal ? RingSharding::ZigZag : RingSharding::Contiguous;
  std::vector<RingChunk> mine = ringChunks(sh, world, rank, S);
  std::vector<StepRow> rows;
  double chunkBytes = double(2 * S * c.kvHeads * c.D * 2); // K and V, bf16
  for (unsigned step = 0; step < world; ++step) {
    StepRow row{step, 0, 0};
    for (unsigned src : ringSources(world, rank, step)) {
      for (const RingChunk &kc : ringChunks(sh, world, src, S))
        for (const RingChunk &qc : mine) {
          if (!qc.length || !kc.length || (causal && kc.index > qc.index))
            continue;
          bool diag = causal && kc.index == qc.index;
          auto a = t.attention(qc.length, kc.length, diag);
          if (!a)
            return a.takeError();
          auto m = t.merge(qc.length);
          if (!m)
            return m.takeError();
          row.compute += *a + *m;
        }
      if (step > 0) {
        // Both neighbours' chunks arrive over different links at once.
        bool sameNode = src / perNode == rank / perNode;
        double bw = (sameNode ? c.xgmiGBs : c.nicGBs) * 1e9;
        row.transfer = std::max(row.transfer, chunkBytes / bw);
      }
    }
    rows.push_back(row);
  }
  return rows;
}

/// --step-kernels: both step forms through kcc::ops::ring_attention on
/// emulated ranks; returns the process exit code.
int compareStepKernels(const Config &cfg) {
  Chip chip = cfg.chip;
  const unsigned world = 4;
  const int64_t B = 1, S = 256, H = 8, Hkv = 2, D = 128;
  std::printf("ring attention step kernels on %u x emulated %s: per rank B=%lld S=%lld H=%lld "
              "H_kv=%lld D=%lld bf16; wave instructions from ring_attention's records\n",
              world, getChipInfo(chip).name.str().c_str(), (long long)B, (long long)S,
              (long long)H, (long long)Hkv, (long long)D);
  RuntimeOptions ro;
  ro.useHip = false;
  auto rt = Runtime::create(ro);
  if (!rt) {
    std::fprintf(stderr, "ring_bench: %s\n", toString(rt.takeError()).c_str());
    return 1;
  }
  auto devices = (*rt)->emulatedDevices(chip, world);
  if (!devices) {
    std::fprintf(stderr, "ring_bench: %s\n", toString(devices.takeError()).c_str());
    return 1;
  }
  auto heap = SymmetricHeap::create(**rt, *devices, 64ull << 20);
  if (!heap) {
    std::fprintf(stderr, "ring_bench: %s\n", toString(heap.takeError()).c_str());
    return 1;
  }
  auto comm = createLocalRingCommunicator(**heap);
  if (!comm) {
    std::fprintf(stderr, "ring_bench: %s\n", toString(comm.takeError()).c_str());
    return 1;
  }
  // Random bf16 operands (values do not change the instruction counts of
  // either form: no data-dependent branches but the lazy rescale).
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> exp(0x3e00, 0x3f80);
  std::vector<Buffer> bufs;
  bufs.reserve(world * 5);
  std::vector<RingRankOperands> ops(world);
  for (unsigned r = 0; r < world; ++r) {
    Device &dev = *(*devices)[r];
    auto put = [&](int64_t heads) -> Buffer * {
      std::vector<uint16_t> h(size_t(B * S * heads * D));
      for (auto &x : h)
        x = uint16_t(exp(rng) | (rng() & 0x8000));
      auto b = Buffer::fromHost(dev, h);
      if (!b) {
        consumeError(b.takeError());
        return nullptr;
      }
      bufs.push_back(std::move(*b));
      return &bufs.back();
    };
    Buffer *q = put(H), *k = put(Hkv), *v = put(Hkv), *o = put(H);
    auto l = Buffer::allocate(dev, uint64_t(B * H * S * 4));
    if (!q || !k || !v || !o || !l) {
      std::fprintf(stderr, "ring_bench: cannot allocate the operands\n");
      return 1;
    }
    bufs.push_back(std::move(*l));
    ops[r].q = AttentionTensorRef(*q, DType::bf16, B, S, H, D);
    ops[r].k = AttentionTensorRef(*k, DType::bf16, B, S, Hkv, D);
    ops[r].v = AttentionTensorRef(*v, DType::bf16, B, S, Hkv, D);
    ops[r].o = AttentionTensorRef(*o, DType::bf16, B, S, H, D);
    ops[r].lse = VectorRef(bufs.back(), DType::f32, B * H * S);
  }
  for (bool causal : {false, true}) {
    std::printf("\n== %s ==\n", causal ? "causal (zig-zag)" : "non-causal (contiguous)");
    uint64_t totals[2] = {0, 0};
    for (RingStepKernel kernel : {RingStepKernel::AttentionMerge, RingStepKernel::Persistent}) {
      RingAttentionOptions opt;
      opt.causal = causal;
      opt.sharding = causal ? RingSharding::ZigZag : RingSharding::Contiguous;
      opt.stepKernel = kernel;
      auto res = ring_attention(**comm, ops, opt);
      if (!res) {
        std::fprintf(stderr, "ring_bench: %s\n", toString(res.takeError()).c_str());
        return 1;
      }
      std::printf("%s", ringStepKernelName(kernel).str().c_str());
      if (kernel == RingStepKernel::Persistent)
        std::printf(" (grid %u fetchers + %u workers, %u staging slots)", res->fetchers,
                    res->workers, res->slots);
      std::printf("\n  rank 1: step  pairs  attention  merge      fetch      step total\n");
      uint64_t all = 0;
      for (const RingStepRecord &s : res->steps) {
        uint64_t step = s.attentionInstructions + s.mergeInstructions + s.fetchInstructions;
        all += step;
        if (s.rank == 1)
          std::printf("          %4u  %5u  %9llu  %9llu  %9llu  %10llu\n", s.step,
                      s.attentionCalls, (unsigned long long)s.attentionInstructions,
                      (unsigned long long)s.mergeInstructions,
                      (unsigned long long)s.fetchInstructions, (unsigned long long)step);
      }
      std::printf("  all ranks, all steps: %llu wave instructions\n", (unsigned long long)all);
      totals[kernel == RingStepKernel::Persistent] = all;
    }
    std::printf("  persistent / attention+merge: %.2f\n",
                double(totals[1]) / double(std::max<uint64_t>(totals[0], 1)));
  }

  // Time of one full chunk pair (below the diagonal) on the timing model,
  // for the ring_bench layer (B=1, H, H_kv, D of the configuration). Causal
  // diagonal pairs are left out: the model replays the first CU's
  // workgroups, which hold the first query blocks, the cheapest of a causal
  // launch, and would flatter either kernel by a different amount.
  Timer t(cfg);
  if (!t.dev) {
    std::fprintf(stderr, "ring_bench: no emulated device\n");
    return 1;
  }
  std::printf("\ntiming model, one chunk pair of L queries x L keys, non-causal (B=1 H=%d "
              "H_kv=%d D=%d bf16, whole %s):\n     L  fmha_fwd+LSE us  ring_merge us  "
              "sum us  persistent us  persistent / sum\n",
              cfg.heads, cfg.kvHeads, cfg.D, getChipInfo(chip).name.str().c_str());
  for (int64_t L : {512, 1024, 2048}) {
    double a = 0, m = 0, p = 0;
    for (auto [out, f] : {std::pair<double *, std::function<Expected<double>()>>{
                              &a, [&] { return t.attention(L, L, false); }},
                          {&m, [&] { return t.merge(L); }},
                          {&p, [&] { return t.persistent(L, false); }}}) {
      Expected<double> x = f();
      if (!x) {
        std::fprintf(stderr, "ring_bench: %s\n", toString(x.takeError()).c_str());
        return 1;
      }
      *out = *x;
    }
    std::printf("  %5lld  %15.1f  %13.1f  %6.1f  %13.1f  %16.2f\n", (long long)L, a * 1e6,
                m * 1e6, (a + m) * 1e6, p * 1e6, p / (a + m));
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Config c;
  bool stepKernels = false;
  auto usage = [](std::FILE *to) {
    std::fprintf(to, "usage: ring_bench [--chip gfx950|gfx942] [--xgmi GB/s] [--nic GB/s] "
                     "[--seq S,...] [--heads H] [--kv-heads H]\n"
                     "       ring_bench --step-kernels [--chip gfx950|gfx942]\n");
  };
  auto bad = [&](const std::string &what) {
    std::fprintf(stderr, "ring_bench: %s\n", what.c_str());
    usage(stderr);
    return 2;
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      usage(stdout);
      return 0;
    }
    if (a == "--step-kernels") {
      stepKernels = true;
      continue;
    }
    bool takesValue = a == "--chip" || a == "--xgmi" || a == "--nic" || a == "--heads" ||
                      a == "--kv-heads" || a == "--seq";
    if (!takesValue)
      return bad("unexpected argument '" + a + "'");
    if (i + 1 == argc)
      return bad(a + " needs a value");
    StringRef v = argv[++i];
    int n = 0;
    double x = 0;
    auto positive = [&] { return !v.getAsInteger(10, n) && n > 0; };
    auto rate = [&] { return !v.getAsDouble(x) && x > 0; };
    if (a == "--chip") {
      std::optional<Chip> chip = parseChip(v);
      if (!chip)
        return bad("unknown chip '" + v.str() + "'");
      c.chip = *chip;
    } else if (a == "--xgmi" || a == "--nic") {
      if (!rate())
        return bad(a + " takes a positive GB/s; got '" + v.str() + "'");
      (a == "--xgmi" ? c.xgmiGBs : c.nicGBs) = x;
    } else if (a == "--heads" || a == "--kv-heads") {
      if (!positive())
        return bad(a + " takes a positive number; got '" + v.str() + "'");
      (a == "--heads" ? c.heads : c.kvHeads) = n;
    } else if (a == "--seq") {
      c.seqs.clear();
      SmallVector<StringRef> parts;
      v.split(parts, ',');
      for (StringRef s : parts) {
        if (s.trim().getAsInteger(10, n) || n <= 0)
          return bad("--seq takes positive lengths separated by commas; got '" + v.str() + "'");
        c.seqs.push_back(n);
      }
    }
  }
  if (stepKernels)
    return compareStepKernels(c);
  Timer t(c);
  if (!t.dev) {
    std::fprintf(stderr, "ring_bench: no emulated device\n");
    return 1;
  }
  std::printf("ring attention, per rank B=1 H=%d H_kv=%d D=%d bf16 on %s; xGMI %.0f GB/s per "
              "pair and direction, NIC %.0f GB/s per GPU\n",
              c.heads, c.kvHeads, c.D, getChipInfo(c.chip).name.str().c_str(), c.xgmiGBs,
              c.nicGBs);

  struct Setup {
    const char *name;
    unsigned world, perNode;
  };
  for (Setup su : {Setup{"8 ranks, one node", 8, 8}, Setup{"16 ranks, two nodes", 16, 8}}) {
    for (bool causal : {false, true}) {
      std::printf("\n== %s, %s ==\n", su.name,
                  causal ? "causal (zig-zag)" : "non-causal (contiguous)");
      // Slack (compute - transfer of the next step, smallest over steps and
      // ranks) per sequence length: not monotonic at small S, where the grid
      // does not fill the device and attention time stops shrinking.
      std::vector<std::pair<int, double>> slacks;
      for (int S : c.seqs) {
        // The rank with the most exposed transfer decides: the middle rank
        // (two chunks per step) and, over two nodes, a rank at the node edge.
        double worstExposed = 0, total = 0, computeSum = 0, transferSum = 0, hidden = 0;
        double minSlack = 1e30;
        std::vector<StepRow> shown;
        for (unsigned rank = 0; rank < su.world; ++rank) {
          auto rows = schedule(t, c, su.world, su.perNode, rank, S, causal);
          if (!rows) {
            std::fprintf(stderr, "ring_bench: %s\n", toString(rows.takeError()).c_str());
            return 1;
          }
          double rt = 0, exposed = 0, cs = 0, ts = 0, hid = 0;
          for (size_t s = 0; s < rows->size(); ++s) {
            double next = s + 1 < rows->size() ? (*rows)[s + 1].transfer : 0;
            rt += std::max((*rows)[s].compute, next);
            exposed += std::max(0.0, next - (*rows)[s].compute);
            cs += (*rows)[s].compute;
            ts += next;
            hid += std::min(next, (*rows)[s].compute);
            if (next > 0) // steps that fetch nothing have nothing to hide
              minSlack = std::min(minSlack, (*rows)[s].compute - next);
          }
          rt += rows->front().transfer; // nothing to overlap step 0's arrival with
          if (rank == su.world / 2)
            shown = *rows;
          if (exposed >= worstExposed) {
            worstExposed = exposed;
            total = rt, computeSum = cs, transferSum = ts, hidden = hid;
          }
        }
        std::printf("S per rank %d (sequence %d):\n", S, S * int(su.world));
        std::printf("  rank %u: step  compute us  transfer-next us  hidden\n", su.world / 2);
        for (size_t s = 0; s < shown.size(); ++s) {
          double next = s + 1 < shown.size() ? shown[s + 1].transfer : 0;
          std::printf("           %4zu  %10.1f  %16.1f  %5.0f%%\n", s, shown[s].compute * 1e6,
                      next * 1e6,
                      next > 0 ? 100.0 * std::min(1.0, shown[s].compute / next) : 100.0);
        }
        std::printf("  worst rank: %.1f us total, compute %.1f us, transfer %.1f us, overlap "
                    "%.0f%% of transfer hidden, %.1f us exposed\n",
                    total * 1e6, computeSum * 1e6, transferSum * 1e6,
                    transferSum > 0 ? 100.0 * hidden / transferSum : 100.0, worstExposed * 1e6);
        slacks.push_back({S, minSlack});
      }
      // Hidden from the point after the last exposed length, by linear
      // interpolation of the slack between it and the next one.
      std::optional<int> hiddenFrom;
      size_t last = slacks.size();
      for (size_t i = 0; i < slacks.size(); ++i)
        if (slacks[i].second < 0)
          last = i;
      if (last == slacks.size())
        hiddenFrom = slacks.front().first;
      else if (last + 1 < slacks.size()) {
        auto [s0, d0] = slacks[last];
        auto [s1, d1] = slacks[last + 1];
        hiddenFrom = int(std::ceil(s0 + (s1 - s0) * (-d0) / (d1 - d0)));
      }
      if (hiddenFrom)
        std::printf("  => transfer fully hidden from about S = %d tokens per rank (and at every "
                    "larger length measured)\n",
                    *hiddenFrom);
      else
        std::printf("  => transfer not fully hidden up to S = %d tokens per rank\n",
                    c.seqs.back());
    }
  }
  return 0;
}
