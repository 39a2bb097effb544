//===- RingAttentionTest.cpp - ring_attention on emulated ranks ------------===//
//
// kcc::ops::ring_attention over 2, 3, 4 and 8 emulated ranks of one process
// (a symmetric heap over the emulator's shared address space), compared with
// float64 attention over the gathered sequence: every rank's O and LSE
// against the rows of the reference at the rank's global token positions.
// Tolerances are the attention op's: |O - ref| <= 8e-3 (bf16) / 2e-3 (f16)
// for outputs of order 1, the same relative error beyond; |LSE - ref| <=
// 1e-3.
//
// The full cross product (ranks x causal x sharding x GQA/MQA x S x D x
// dtype x chip) is far too slow for an emulator on 2 cores; the cases below
// cover every value of every axis at least once, each sharding with and
// without causal masking, and the corner S = 1 (zig-zag with an empty second
// chunk) on 4 and 8 ranks.
//
//===----------------------------------------------------------------------===//
#include "kernels/ring/RingAttention.h"
#include "runtime/Buffer.h"
#include "runtime/Runtime.h"
#include "runtime/SymmetricHeap.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace kcc;
using namespace kcc::ops;
using llvm::toString;

uint16_t toBf16(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  b += 0x7fff + ((b >> 16) & 1);
  return uint16_t(b >> 16);
}
float fromBf16(uint16_t h) {
  uint32_t b = uint32_t(h) << 16;
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}
uint16_t toF16(float x) {
  _Float16 h = _Float16(x);
  uint16_t r;
  std::memcpy(&r, &h, 2);
  return r;
}
float fromF16(uint16_t h) {
  _Float16 v;
  std::memcpy(&v, &h, 2);
  return float(v);
}

struct Case {
  Chip chip;
  unsigned world;
  int S, H, Hkv, D;
  bool causal;
  RingSharding sharding;
  DType dtype;
  int B = 1;
  RingStepKernel kernel = RingStepKernel::AttentionMerge;
};

std::string name(const Case &c) {
  return std::string(getChipInfo(c.chip).name) + "_w" + std::to_string(c.world) + "_S" +
         std::to_string(c.S) + "_H" + std::to_string(c.H) + "_Hkv" + std::to_string(c.Hkv) +
         "_D" + std::to_string(c.D) + (c.causal ? "_causal" : "") + "_" +
         ringShardingName(c.sharding).str() + "_" + dtypeName(c.dtype).str() + "_B" +
         std::to_string(c.B) +
         (c.kernel == RingStepKernel::Persistent ? "_persistent" : "");
}

/// The world's ranks: emulated devices of one process and a heap over them.
struct Ranks {
  std::unique_ptr<Runtime> runtime;
  std::vector<Device *> devices;
  std::unique_ptr<SymmetricHeap> heap;
  std::unique_ptr<RingCommunicator> comm;
};

Ranks makeRanks(Chip chip, unsigned world) {
  Ranks r;
  RuntimeOptions ro;
  ro.useHip = false;
  auto rt = Runtime::create(ro);
  EXPECT_TRUE(bool(rt)) << toString(rt.takeError());
  r.runtime = std::move(*rt);
  auto devs = r.runtime->emulatedDevices(chip, world);
  EXPECT_TRUE(bool(devs)) << toString(devs.takeError());
  r.devices = *devs;
  auto heap = SymmetricHeap::create(*r.runtime, r.devices, 64ull << 20);
  EXPECT_TRUE(bool(heap)) << toString(heap.takeError());
  r.heap = std::move(*heap);
  auto comm = createLocalRingCommunicator(*r.heap);
  EXPECT_TRUE(bool(comm)) << toString(comm.takeError());
  r.comm = std::move(*comm);
  return r;
}

class RingAttentionTest : public ::testing::TestWithParam<Case> {};

void runRingCase(const Case &c);

TEST_P(RingAttentionTest, MatchesFloat64OnGatheredSequence) { runRingCase(GetParam()); }

void runRingCase(const Case &c) {
  Ranks ranks = makeRanks(c.chip, c.world);
  ASSERT_TRUE(ranks.comm);
  bool bf = c.dtype == DType::bf16;
  auto quant = [&](float x) { return bf ? toBf16(x) : toF16(x); };
  auto deq = [&](uint16_t h) { return double(bf ? fromBf16(h) : fromF16(h)); };

  // The global sequence, in global token order.
  int64_t N = int64_t(c.world) * c.S;
  std::mt19937 rng(c.world * 7919 + c.S * 31 + c.D + c.H * 3 + c.causal);
  std::normal_distribution<float> randn(0.f, 1.f);
  std::vector<uint16_t> q(size_t(c.B * N * c.H * c.D)), k(size_t(c.B * N * c.Hkv * c.D)),
      v(k.size());
  for (auto &x : q) x = quant(randn(rng));
  for (auto &x : k) x = quant(randn(rng));
  for (auto &x : v) x = quant(randn(rng));
  std::vector<double> qd(q.size()), kd(k.size()), vd(v.size()), oRef, lseRef;
  for (size_t i = 0; i < q.size(); ++i) qd[i] = deq(q[i]);
  for (size_t i = 0; i < k.size(); ++i) kd[i] = deq(k[i]), vd[i] = deq(v[i]);
  AttentionShape shape;
  shape.batch = c.B, shape.seqQ = N, shape.seqKv = N, shape.heads = c.H,
  shape.kvHeads = c.Hkv, shape.headDim = c.D;
  double scale = 1.0 / std::sqrt(double(c.D));
  attentionReference(shape, qd, kd, vd, c.causal, scale, oRef, lseRef);

  // Each rank's shard: its tokens in local order, [B, S, H, D] packed.
  std::vector<std::vector<int64_t>> globalOf(c.world);
  std::vector<Buffer> bufs;
  bufs.reserve(c.world * 5);
  std::vector<RingRankOperands> ops(c.world);
  for (unsigned r = 0; r < c.world; ++r) {
    for (const RingChunk &ch : ringChunks(c.sharding, c.world, r, c.S))
      for (int64_t i = 0; i < ch.length; ++i)
        globalOf[r].push_back(ch.globalStart + i);
    ASSERT_EQ(int64_t(globalOf[r].size()), c.S);
    auto shard = [&](const std::vector<uint16_t> &src, int heads) {
      std::vector<uint16_t> out(size_t(c.B * c.S * heads * c.D));
      for (int b = 0; b < c.B; ++b)
        for (int t = 0; t < c.S; ++t)
          std::memcpy(&out[((size_t(b) * c.S + t) * heads) * c.D],
                      &src[((size_t(b) * N + globalOf[r][t]) * heads) * c.D],
                      size_t(heads) * c.D * 2);
      return out;
    };
    Device &dev = *ranks.devices[r];
    auto put = [&](const std::vector<uint16_t> &h) -> Buffer & {
      auto b = Buffer::fromHost(dev, h);
      EXPECT_TRUE(bool(b)) << toString(b.takeError());
      bufs.push_back(std::move(*b));
      return bufs.back();
    };
    Buffer &bq = put(shard(q, c.H));
    Buffer &bk = put(shard(k, c.Hkv));
    Buffer &bv = put(shard(v, c.Hkv));
    Buffer &bo = put(std::vector<uint16_t>(size_t(c.B * c.S * c.H * c.D), 0x7fc0));
    auto lb = Buffer::allocate(dev, uint64_t(c.B) * c.H * c.S * 4);
    ASSERT_TRUE(bool(lb));
    ASSERT_FALSE(bool(lb->fill(0xff)));
    bufs.push_back(std::move(*lb));
    Buffer &bl = bufs.back();
    ops[r].q = AttentionTensorRef(bq, c.dtype, c.B, c.S, c.H, c.D);
    ops[r].k = AttentionTensorRef(bk, c.dtype, c.B, c.S, c.Hkv, c.D);
    ops[r].v = AttentionTensorRef(bv, c.dtype, c.B, c.S, c.Hkv, c.D);
    ops[r].o = AttentionTensorRef(bo, c.dtype, c.B, c.S, c.H, c.D);
    ops[r].lse = VectorRef(bl, DType::f32, int64_t(c.B) * c.H * c.S);
  }

  RingAttentionOptions options;
  options.causal = c.causal;
  options.sharding = c.sharding;
  options.stepKernel = c.kernel;
  auto res = ring_attention(*ranks.comm, ops, options);
  ASSERT_TRUE(bool(res)) << toString(res.takeError());
  ASSERT_EQ(res->stepKernel, c.kernel);
  // The result names the kernel that ran: the persistent one is none of
  // attention_forward()'s paths.
  if (c.kernel == RingStepKernel::Persistent) {
    EXPECT_EQ(res->path, "persistent");
    EXPECT_FALSE(res->attentionKernelPath.has_value());
  } else {
    AttentionPath expected = attentionPath(c.chip, c.D);
    EXPECT_EQ(res->path, "attention+merge (" + attentionPathName(expected).str() + ")");
    EXPECT_EQ(res->attentionKernelPath, expected);
  }
  if (c.kernel == RingStepKernel::Persistent) {
    // One launch per rank: instructions split by step, no merge kernel;
    // every step that folds a chunk in shows the workers' instructions,
    // every later step the fetchers'.
    EXPECT_GE(res->fetchers, 1u);
    EXPECT_GE(res->workers, 1u);
    // Two staging slots when each worker owns one query block; one per step
    // when workers take several (they revisit every step per block).
    unsigned items = unsigned(c.B * c.H * ((c.S + 127) / 128));
    unsigned steps = std::max(1u, c.world - 1);
    EXPECT_EQ(res->slots, res->workers < items ? steps : std::min(2u, steps));
    for (const RingStepRecord &s : res->steps) {
      EXPECT_EQ(s.mergeInstructions, 0u);
      if (!s.sources.empty()) {
        EXPECT_GT(s.attentionInstructions, 0u) << "rank " << s.rank << " step " << s.step;
      }
      if (s.step > 0 && !s.sources.empty()) {
        EXPECT_GT(s.fetchInstructions, 0u) << "rank " << s.rank << " step " << s.step;
      }
    }
  }

  // Schedule: world steps per rank; the chunk of rank i at step |i - j|;
  // causal chunks above the diagonal skipped, never computed.
  ASSERT_EQ(res->steps.size(), size_t(c.world) * c.world);
  unsigned calls = 0, skipped = 0;
  for (const RingStepRecord &s : res->steps) {
    for (unsigned src : s.sources)
      EXPECT_EQ(unsigned(std::abs(int(src) - int(s.rank))), s.step);
    calls += s.attentionCalls;
    skipped += s.skippedPairs;
  }
  unsigned per = c.sharding == RingSharding::ZigZag && c.S > 1 ? 2 : 1;
  unsigned pairs = c.world * c.world * per * per;
  if (!c.causal) {
    EXPECT_EQ(calls, pairs);
    EXPECT_EQ(skipped, 0u);
  } else {
    // Chunk pairs on or below the diagonal: n (n + 1) / 2 of n * n.
    unsigned n = c.world * per;
    EXPECT_EQ(calls, n * (n + 1) / 2);
    EXPECT_EQ(skipped, n * (n - 1) / 2);
  }

  double tol = bf ? 8e-3 : 2e-3, worst = 0, worstLse = 0;
  int bad = 0;
  for (unsigned r = 0; r < c.world; ++r) {
    auto o = bufs[r * 5 + 3].toHost<uint16_t>();
    auto l = bufs[r * 5 + 4].toHost<float>();
    ASSERT_TRUE(bool(o) && bool(l));
    for (int b = 0; b < c.B; ++b)
      for (int t = 0; t < c.S; ++t) {
        int64_t g = globalOf[r][t];
        for (int h = 0; h < c.H; ++h) {
          for (int e = 0; e < c.D; ++e) {
            double ref = oRef[((size_t(b) * N + g) * c.H + h) * c.D + e];
            double got = deq((*o)[((size_t(b) * c.S + t) * c.H + h) * c.D + e]);
            double err = std::fabs(got - ref);
            if (!(err <= tol * std::max(1.0, std::fabs(ref)))) {
              if (++bad <= 5)
                ADD_FAILURE() << "rank " << r << " O[" << b << "][" << t << " (global " << g
                              << ")][" << h << "][" << e << "] = " << got << ", reference "
                              << ref;
            } else {
              worst = std::max(worst, err);
            }
          }
          double refL = lseRef[(size_t(b) * c.H + h) * N + g];
          double gotL = (*l)[(size_t(b) * c.H + h) * c.S + t];
          if (!(std::fabs(gotL - refL) <= 1e-3)) {
            if (++bad <= 5)
              ADD_FAILURE() << "rank " << r << " LSE[" << b << "][" << h << "][" << t
                            << "] = " << gotL << ", reference " << refL;
          } else {
            worstLse = std::max(worstLse, std::fabs(gotL - refL));
          }
        }
      }
  }
  EXPECT_EQ(bad, 0);
  std::printf("  %u attention calls, %u skipped; max |O - ref| = %.3g, max |LSE - ref| = "
              "%.3g\n",
              calls, skipped, worst, worstLse);
}

std::vector<Case> cases() {
  using RS = RingSharding;
  const Chip g2 = Chip::gfx942, g5 = Chip::gfx950;
  return {
      // 2 ranks: GQA, causal zig-zag and plain contiguous.
      {g2, 2, 77, 4, 2, 64, true, RS::ZigZag, DType::bf16},
      {g5, 2, 256, 2, 1, 128, true, RS::ZigZag, DType::bf16},
      {g5, 2, 77, 4, 2, 128, false, RS::Contiguous, DType::f16, 2},
      // 3 ranks: MQA, both shardings.
      {g5, 3, 77, 2, 1, 128, false, RS::Contiguous, DType::f16},
      {g2, 3, 77, 4, 1, 64, true, RS::ZigZag, DType::f16},
      {g2, 3, 77, 2, 2, 64, true, RS::Contiguous, DType::bf16},
      // 4 ranks: S = 1 (zig-zag's second chunk empty), S = 256.
      {g2, 4, 1, 2, 2, 64, true, RS::ZigZag, DType::bf16},
      {g5, 4, 1, 2, 1, 128, false, RS::Contiguous, DType::f16},
      {g2, 4, 256, 2, 1, 64, true, RS::ZigZag, DType::f16},
      // 8 ranks.
      {g2, 8, 1, 4, 1, 128, true, RS::ZigZag, DType::bf16},
      {g2, 8, 77, 4, 2, 64, true, RS::Contiguous, DType::f16},
      // The persistent step kernel (one launch per rank for the whole ring).
      {g2, 2, 77, 4, 2, 64, true, RS::ZigZag, DType::bf16, 1, RingStepKernel::Persistent},
      {g5, 2, 256, 2, 1, 128, false, RS::Contiguous, DType::bf16, 1,
       RingStepKernel::Persistent},
      {g5, 3, 77, 4, 2, 128, true, RS::Contiguous, DType::f16, 1,
       RingStepKernel::Persistent},
      {g2, 3, 77, 2, 1, 128, false, RS::ZigZag, DType::bf16, 2, RingStepKernel::Persistent},
      {g2, 4, 1, 2, 2, 64, true, RS::ZigZag, DType::bf16, 1, RingStepKernel::Persistent},
      {g2, 4, 256, 2, 1, 64, true, RS::ZigZag, DType::bf16, 1, RingStepKernel::Persistent},
  };
}

INSTANTIATE_TEST_SUITE_P(Ring, RingAttentionTest, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return name(info.param); });

/// The publish/fetch/merge kernels and their flags under the emulator's
/// check mode (races, flags released before the data they guard, unwaited
/// loads): any finding fails the launch, and so ring_attention.
class RingAttentionCheckMode : public RingAttentionTest {
protected:
  void SetUp() override { setenv("KCC_EMU_CHECK", "1", 1); }
  void TearDown() override { unsetenv("KCC_EMU_CHECK"); }
};
TEST_P(RingAttentionCheckMode, CleanUnderCheckMode) { runRingCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(
    Ring, RingAttentionCheckMode,
    ::testing::Values(Case{Chip::gfx942, 3, 40, 2, 1, 64, true, RingSharding::ZigZag,
                           DType::bf16},
                      // 4 ranks, 2 query blocks: two slots, reused at step 3
                      // after the workers' done flags.
                      Case{Chip::gfx942, 4, 40, 2, 1, 64, true, RingSharding::ZigZag,
                           DType::bf16, 1, RingStepKernel::Persistent},
                      // gfx950: V through each wave's LDS stage; 8 query
                      // blocks for 7 resident workers (a slot per step).
                      Case{Chip::gfx950, 3, 33, 8, 2, 128, true, RingSharding::ZigZag,
                           DType::bf16, 1, RingStepKernel::Persistent}),
    [](const auto &info) { return name(info.param); });

/// Operands of `world` ranks with S tokens each (rank `odd` gets `oddS`).
struct Shards {
  std::vector<Buffer> bufs;
  std::vector<RingRankOperands> ops;
};
Shards shards(Ranks &ranks, unsigned world, int S, unsigned odd, int oddS, DType oddO) {
  Shards s;
  s.bufs.reserve(world * 4);
  for (unsigned r = 0; r < world; ++r) {
    int n = r == odd ? oddS : S;
    for (int i = 0; i < 4; ++i) {
      auto b = Buffer::allocate(*ranks.devices[r], uint64_t(n) * 2 * 64 * 2);
      EXPECT_TRUE(bool(b));
      EXPECT_FALSE(bool(b->fill(0)));
      s.bufs.push_back(std::move(*b));
    }
    RingRankOperands o;
    o.q = AttentionTensorRef(s.bufs[r * 4], DType::bf16, 1, n, 2, 64);
    o.k = AttentionTensorRef(s.bufs[r * 4 + 1], DType::bf16, 1, n, 2, 64);
    o.v = AttentionTensorRef(s.bufs[r * 4 + 2], DType::bf16, 1, n, 2, 64);
    o.o = AttentionTensorRef(s.bufs[r * 4 + 3], r == odd ? oddO : DType::bf16, 1, n, 2, 64);
    s.ops.push_back(o);
  }
  return s;
}

TEST(RingAttentionErrors, MismatchedShapeAcrossRanks) {
  Ranks ranks = makeRanks(Chip::gfx942, 3);
  ASSERT_TRUE(ranks.comm);
  Shards s = shards(ranks, 3, 32, 1, 31, DType::bf16);
  auto res = ring_attention(*ranks.comm, s.ops);
  ASSERT_FALSE(bool(res));
  EXPECT_EQ(toString(res.takeError()),
            "ring_attention: rank 1 has B=1 S=31 H=2 H_kv=2 D=64 bf16 but rank 0 has "
            "B=1 S=32 H=2 H_kv=2 D=64 bf16; every rank must pass the same shapes and "
            "dtype");
}

TEST(RingAttentionErrors, InvalidRankStopsEveryRank) {
  Ranks ranks = makeRanks(Chip::gfx942, 2);
  ASSERT_TRUE(ranks.comm);
  Shards s = shards(ranks, 2, 32, 1, 32, DType::f16);
  auto res = ring_attention(*ranks.comm, s.ops);
  ASSERT_FALSE(bool(res));
  std::string m = toString(res.takeError());
  EXPECT_EQ(m.rfind("ring_attention: rank 1 cannot take part, so no rank runs: rank 1: ", 0),
            0u)
      << m;
}

TEST(RingAttentionErrors, OperandsOnAnotherRanksDevice) {
  Ranks ranks = makeRanks(Chip::gfx942, 2);
  ASSERT_TRUE(ranks.comm);
  Shards s = shards(ranks, 2, 32, 9, 32, DType::bf16);
  std::swap(s.ops[0].v, s.ops[1].v);
  auto res = ring_attention(*ranks.comm, s.ops);
  ASSERT_FALSE(bool(res));
  EXPECT_EQ(toString(res.takeError()),
            "ring_attention: rank 0 cannot take part, so no rank runs: rank 0: V is on "
            "emu:gfx942.1 but the rank's device in the heap is emu:gfx942");
}

TEST(RingAttentionErrors, WrongNumberOfLocalRanks) {
  Ranks ranks = makeRanks(Chip::gfx942, 2);
  ASSERT_TRUE(ranks.comm);
  Shards s = shards(ranks, 2, 32, 9, 32, DType::bf16);
  s.ops.pop_back();
  auto res = ring_attention(*ranks.comm, s.ops);
  ASSERT_FALSE(bool(res));
  EXPECT_EQ(toString(res.takeError()),
            "ring_attention: this process drives 2 rank(s) of the communicator but got "
            "operands for 1");
}

TEST(RingSchedule, ChunksAndSources) {
  // Zig-zag over 4 ranks, 5 tokens each: chunks of 3 then 2 tokens.
  auto c = ringChunks(RingSharding::ZigZag, 4, 1, 5);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].globalStart, 3);
  EXPECT_EQ(c[0].length, 3);
  EXPECT_EQ(c[1].index, 6u);
  EXPECT_EQ(c[1].globalStart, 12 + 2 * 2);
  EXPECT_EQ(c[1].localStart, 3);
  EXPECT_EQ(c[1].length, 2);
  EXPECT_EQ(ringSources(4, 1, 0), std::vector<unsigned>({1}));
  EXPECT_EQ(ringSources(4, 1, 1), std::vector<unsigned>({0, 2}));
  EXPECT_EQ(ringSources(4, 1, 2), std::vector<unsigned>({3}));
  EXPECT_EQ(ringSources(3, 1, 2), std::vector<unsigned>({}));
}

} // namespace
