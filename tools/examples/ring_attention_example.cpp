//===- ring_attention_example.cpp - ring attention over 4 emulated ranks ---===//
//
// Shards a causal attention problem (1 x 4*96 tokens, 4 heads over 2 K/V
// heads, D = 64, bf16) zig-zag over 4 emulated gfx942 ranks, runs
// kcc::ops::ring_attention, and compares every rank's output with float64
// attention over the whole sequence. Prints the schedule and the error;
// exits non-zero beyond the attention op's tolerance.
//
//   kcc-ring-attention-example [--world N] [--seq S] [--contiguous] [--no-causal]
//                              [--persistent]
//
//===----------------------------------------------------------------------===//
#include "target/Float16.h"
#include "kernels/ring/RingAttention.h"
#include "runtime/Buffer.h"
#include "runtime/Runtime.h"
#include "runtime/SymmetricHeap.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace kcc;
using namespace kcc::ops;

static int fail(llvm::Error e) {
  llvm::errs() << "kcc-ring-attention-example: " << llvm::toString(std::move(e)) << "\n";
  return 1;
}

int main(int argc, char **argv) {
  unsigned world = 4;
  int S = 96, B = 1, H = 4, Hkv = 2, D = 64;
  bool causal = true;
  RingSharding sharding = RingSharding::ZigZag;
  RingStepKernel stepKernel = RingStepKernel::AttentionMerge;
  auto usage = [&](std::FILE *to) {
    std::fprintf(to,
                 "usage: %s [--world N] [--seq S] [--contiguous] [--no-causal] "
                 "[--persistent]\n"
                 "  ring attention (kcc::ops::ring_attention) over N emulated gfx942 ranks\n"
                 "  (default 4) holding S tokens each (default 96), sharded zig-zag or\n"
                 "  contiguously (--contiguous), causal unless --no-causal, checked against\n"
                 "  attention over the whole sequence.\n",
                 argv[0]);
  };
  // A positive count, or nothing.
  auto count = [](const char *text) -> std::optional<int> {
    int v = 0;
    if (llvm::StringRef(text).getAsInteger(10, v) || v <= 0)
      return std::nullopt;
    return v;
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      usage(stdout);
      return 0;
    }
    if ((a == "--world" || a == "--seq") && i + 1 < argc) {
      std::optional<int> v = count(argv[++i]);
      if (!v) {
        std::fprintf(stderr, "%s: %s takes a positive number; got '%s'\n", argv[0],
                     a.c_str(), argv[i]);
        usage(stderr);
        return 2;
      }
      if (a == "--world")
        world = unsigned(*v);
      else
        S = *v;
    } else if (a == "--contiguous")
      sharding = RingSharding::Contiguous;
    else if (a == "--no-causal")
      causal = false;
    else if (a == "--persistent")
      stepKernel = RingStepKernel::Persistent;
    else {
      std::fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], a.c_str());
      usage(stderr);
      return 2;
    }
  }

  RuntimeOptions ro;
  ro.useHip = false;
  auto rt = Runtime::create(ro);
  if (!rt)
    return fail(rt.takeError());
  auto devices = (*rt)->emulatedDevices(Chip::gfx942, world);
  if (!devices)
    return fail(devices.takeError());
  auto heap = SymmetricHeap::create(**rt, *devices, 16ull << 20);
  if (!heap)
    return fail(heap.takeError());
  auto comm = createLocalRingCommunicator(**heap);
  if (!comm)
    return fail(comm.takeError());

  int64_t N = int64_t(world) * S;
  std::mt19937 rng(42);
  std::normal_distribution<float> randn(0.f, 1.f);
  std::vector<uint16_t> q(size_t(B * N * H * D)), k(size_t(B * N * Hkv * D)), v(k.size());
  for (auto *t : {&q, &k, &v})
    for (auto &x : *t)
      x = floatToBf16(randn(rng));

  std::vector<Buffer> bufs;
  bufs.reserve(world * 5);
  std::vector<RingRankOperands> ops(world);
  std::vector<std::vector<int64_t>> globalOf(world);
  for (unsigned r = 0; r < world; ++r) {
    for (const RingChunk &c : ringChunks(sharding, world, r, S))
      for (int64_t i = 0; i < c.length; ++i)
        globalOf[r].push_back(c.globalStart + i);
    auto shard = [&](const std::vector<uint16_t> &src, int heads) {
      std::vector<uint16_t> out(size_t(B * S * heads * D));
      for (int b = 0; b < B; ++b)
        for (int t = 0; t < S; ++t)
          std::memcpy(&out[(size_t(b) * S + t) * heads * D],
                      &src[(size_t(b) * N + globalOf[r][t]) * heads * D],
                      size_t(heads) * D * 2);
      return out;
    };
    Device &dev = *(*devices)[r];
    for (auto h : {shard(q, H), shard(k, Hkv), shard(v, Hkv),
                   std::vector<uint16_t>(size_t(B * S * H * D))}) {
      auto b = Buffer::fromHost(dev, h);
      if (!b)
        return fail(b.takeError());
      bufs.push_back(std::move(*b));
    }
    auto l = Buffer::allocate(dev, uint64_t(B) * H * S * 4);
    if (!l)
      return fail(l.takeError());
    bufs.push_back(std::move(*l));
    ops[r].q = AttentionTensorRef(bufs[r * 5], DType::bf16, B, S, H, D);
    ops[r].k = AttentionTensorRef(bufs[r * 5 + 1], DType::bf16, B, S, Hkv, D);
    ops[r].v = AttentionTensorRef(bufs[r * 5 + 2], DType::bf16, B, S, Hkv, D);
    ops[r].o = AttentionTensorRef(bufs[r * 5 + 3], DType::bf16, B, S, H, D);
    ops[r].lse = VectorRef(bufs[r * 5 + 4], DType::f32, int64_t(B) * H * S);
  }

  RingAttentionOptions options;
  options.causal = causal;
  options.sharding = sharding;
  options.stepKernel = stepKernel;
  auto res = ring_attention(**comm, ops, options);
  if (!res)
    return fail(res.takeError());

  std::printf("ring attention: %u emulated gfx942 ranks, %d tokens each (%lld total), "
              "H=%d H_kv=%d D=%d bf16, %s, %s sharding, step kernel %s",
              world, S, (long long)N, H, Hkv, D, causal ? "causal" : "non-causal",
              ringShardingName(sharding).str().c_str(),
              ringStepKernelName(stepKernel).str().c_str());
  if (stepKernel == RingStepKernel::Persistent)
    std::printf(" (%u fetcher + %u worker workgroups per rank, %u staging slots)\n",
                res->fetchers, res->workers, res->slots);
  else
    std::printf(", attention path %s\n",
                attentionPathName(*res->attentionKernelPath).str().c_str());
  for (const RingStepRecord &s : res->steps) {
    std::string src;
    for (unsigned x : s.sources)
      src += (src.empty() ? "" : ",") + std::to_string(x);
    std::printf("  rank %u step %u: chunks of rank(s) [%s], %u attention call(s), %u "
                "skipped, %llu attention + %llu merge + %llu fetch wave instructions\n",
                s.rank, s.step, src.c_str(), s.attentionCalls, s.skippedPairs,
                (unsigned long long)s.attentionInstructions,
                (unsigned long long)s.mergeInstructions,
                (unsigned long long)s.fetchInstructions);
  }

  // float64 reference over the gathered sequence.
  std::vector<double> qd(q.size()), kd(k.size()), vd(v.size()), oRef, lRef;
  for (size_t i = 0; i < q.size(); ++i) qd[i] = bf16ToFloat(q[i]);
  for (size_t i = 0; i < k.size(); ++i) kd[i] = bf16ToFloat(k[i]), vd[i] = bf16ToFloat(v[i]);
  AttentionShape shape;
  shape.batch = B, shape.seqQ = N, shape.seqKv = N, shape.heads = H, shape.kvHeads = Hkv,
  shape.headDim = D;
  attentionReference(shape, qd, kd, vd, causal, 1.0 / std::sqrt(double(D)), oRef, lRef);
  double worst = 0, worstRel = 0, worstLse = 0;
  for (unsigned r = 0; r < world; ++r) {
    auto o = bufs[r * 5 + 3].toHost<uint16_t>();
    auto l = bufs[r * 5 + 4].toHost<float>();
    if (!o)
      return fail(o.takeError());
    if (!l)
      return fail(l.takeError());
    for (int b = 0; b < B; ++b)
      for (int t = 0; t < S; ++t)
        for (int h = 0; h < H; ++h) {
          int64_t g = globalOf[r][t];
          for (int e = 0; e < D; ++e) {
            double ref = oRef[((size_t(b) * N + g) * H + h) * D + e];
            double err = std::fabs(bf16ToFloat((*o)[((size_t(b) * S + t) * H + h) * D + e]) - ref);
            worst = std::max(worst, err);
            worstRel = std::max(worstRel, err / std::max(1.0, std::fabs(ref)));
          }
          worstLse = std::max(worstLse, std::fabs((*l)[(size_t(b) * H + h) * S + t] -
                                                  lRef[(size_t(b) * H + h) * N + g]));
        }
  }
  bool ok = worstRel <= 8e-3 && worstLse <= 1e-3;
  std::printf("max |O - ref| = %.3g (relative beyond 1: %.3g, tolerance 8e-3), max |LSE - "
              "ref| = %.3g (tolerance 1e-3): %s\n",
              worst, worstRel, worstLse, ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
