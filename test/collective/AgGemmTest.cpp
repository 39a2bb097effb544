//===- AgGemmTest.cpp - fused all-gather + GEMM on emulated ranks ---------===//
//
// kcc::ops::all_gather_gemm on 2, 4 and 8 emulated gfx942 and gfx950
// devices of one process (one symmetric heap), randn inputs that differ per
// rank, every element of every rank's C against a float64 reference (the
// shards gathered and concatenated along K); bf16 and f16, with and without
// bias, M of 64, 512 and 1024 with small N and K, both staging layouts. Then:
// two calls on one workspace agree bit for bit; the fused kernel is clean
// under check mode, and the variant without the barrier before the flag
// release is caught by it as a race between the fetchers' staging stores
// and the workers' reads; the baseline (copy all-gather, then the GEMM)
// matches too; bad arguments fail with their exact message.
//
//===----------------------------------------------------------------------===//
#include "test/collective/AgGemmProblem.h"

#include "kernels/collective/AgGemmOp.h"
#include "runtime/Jit.h"
#include "runtime/Runtime.h"
#include "runtime/SymmetricHeap.h"
#include "runtime/emu/Check.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>

using namespace kcc;
using kcc::testing::AgGemmProblem;

namespace {

/// One runtime and JIT for the binary (variants compile once), and one heap
/// per (chip, world): the emulated devices persist in the runtime.
struct Shared {
  std::unique_ptr<Runtime> rt;
  std::unique_ptr<Jit> jit;
  std::map<std::pair<int, unsigned>, std::unique_ptr<SymmetricHeap>> heaps;
  static Shared &get() {
    static Shared s = [] {
      Shared s;
      RuntimeOptions o;
      o.useHip = false;
      s.rt = llvm::cantFail(Runtime::create(o));
      JitOptions jo;
      jo.useDiskCache = false; // tests must not depend on earlier runs
      s.jit = std::make_unique<Jit>(jo);
      return s;
    }();
    return s;
  }
  /// A fresh heap over `world` emulated devices of `chip` (16 MiB a rank:
  /// the largest case needs 2.3 MiB).
  std::unique_ptr<SymmetricHeap> heap(Chip chip, unsigned world) {
    std::vector<Device *> devices =
        llvm::cantFail(rt->emulatedDevices(chip, world));
    return llvm::cantFail(SymmetricHeap::create(*rt, devices, 16 << 20));
  }
};

struct Case {
  Chip chip;
  unsigned world;
  int64_t M, N, K;
  DType in = DType::bf16, out = DType::f32;
  bool bias = false;
  bool mContiguous = false;
  int64_t workerColumns = 0; // the workers' tile's columns, when checked
};

std::string caseName(const Case &c) {
  std::string s = getChipInfo(c.chip).name.str() + "_w" + std::to_string(c.world) +
                  "_" + std::to_string(c.M) + "x" + std::to_string(c.N) + "x" +
                  std::to_string(c.K) + "_" + dtypeName(c.in).str() + "_" +
                  dtypeName(c.out).str();
  if (c.bias) s += "_bias";
  if (c.mContiguous) s += "_mstage";
  return s;
}

class AgGemmTest : public ::testing::TestWithParam<Case> {};

TEST_P(AgGemmTest, MatchesReference) {
  const Case &c = GetParam();
  Shared &s = Shared::get();
  std::unique_ptr<SymmetricHeap> heap = s.heap(c.chip, c.world);
  AgGemmProblem p = llvm::cantFail(
      AgGemmProblem::create(*heap, c.M, c.N, c.K, c.in, c.out, c.bias));
  ops::AgGemmWorkspace ws =
      llvm::cantFail(ops::makeAllGatherGemmWorkspace(*heap, c.in, c.M, c.K));
  ops::AllGatherGemmOptions o;
  o.jit = s.jit.get();
  o.mContiguousStaging = c.mContiguous;
  o.record = true;
  llvm::Expected<ops::AllGatherGemmResult> r =
      ops::all_gather_gemm(*heap, p.a, p.btRefs, p.cRefs, p.biasRefs, ws, o);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  ASSERT_EQ(r->launches.size(), c.world);
  AgGemmProblem::Error e = llvm::cantFail(p.compare());
  EXPECT_EQ(e.bad, 0) << "max |error| " << e.maxAbs;

  // The counters account for all the work: every fetch job and K block
  // once, every output tile once, each with all its K blocks.
  ops::AgGemmTiles t = r->tiles;
  EXPECT_EQ(t.mTiles, ws.tiles.mTiles);
  EXPECT_EQ(t.bm(), 256);
  if (c.workerColumns) {
    EXPECT_EQ(t.bn(), c.workerColumns);
  }
  int64_t nnt = (c.N + t.bn() - 1) / t.bn();
  for (unsigned rank = 0; rank < c.world; ++rank) {
    int64_t jobs = 0, blocks = 0, tiles = 0, mulBlocks = 0, acquired = 0;
    ASSERT_EQ(r->stats[rank].size(), r->grid);
    for (unsigned g = 0; g < r->grid; ++g) {
      const ops::AgGemmWorkgroupStats &st = r->stats[rank][g];
      EXPECT_EQ(st.role, g < r->fetchers ? 1 : 2) << "workgroup " << g;
      // Timestamps: a fetcher's time is all fetching; a worker's splits
      // into waiting on flags and computing, and computing takes time.
      EXPECT_GT(st.ticksTotal, 0u) << "workgroup " << g;
      if (st.role == 1) {
        jobs += st.jobs;
        blocks += st.blocks;
        EXPECT_EQ(st.ticksFetch, st.ticksTotal) << "workgroup " << g;
        EXPECT_EQ(st.ticksWait, 0u) << "workgroup " << g;
      } else {
        tiles += st.jobs;
        mulBlocks += st.blocks;
        acquired += st.flags;
        EXPECT_EQ(st.ticksFetch, 0u) << "workgroup " << g;
        EXPECT_EQ(st.ticksWait + st.ticksCompute, st.ticksTotal) << "workgroup " << g;
        if (st.jobs > 0) {
          EXPECT_GT(st.ticksCompute, 0u) << "workgroup " << g;
        }
      }
    }
    EXPECT_EQ(jobs, t.mTiles * t.nkGroups);
    EXPECT_EQ(blocks, t.mTiles * c.K / t.bk);
    EXPECT_EQ(tiles, t.mTiles * nnt);
    EXPECT_EQ(mulBlocks, t.mTiles * nnt * (c.K / t.bk));
    EXPECT_EQ(acquired, t.mTiles * nnt * t.nkGroups);
  }
}

std::vector<Case> cases() {
  std::vector<Case> v;
  // Every world on both chips; M, dtype and bias rotate so that each chip
  // and world sees all three M, both dtypes and both bias settings, and one
  // case per chip and world stores bf16 or uses the m-contiguous staging.
  const int64_t Ms[] = {64, 512, 1024};
  for (Chip chip : {Chip::gfx942, Chip::gfx950})
    for (unsigned world : {2u, 4u, 8u}) {
      // Shards of one K block on gfx942 and of one or two on gfx950 with
      // 8 ranks: K = world * 32 or world * 64.
      int64_t K = chip == Chip::gfx950 ? world * 64 : world * 32;
      for (int i = 0; i < 4; ++i) {
        Case c{chip, world, Ms[i % 3], i % 2 ? 96 : 64, K};
        c.in = i % 2 ? DType::f16 : DType::bf16;
        c.bias = i == 1 || i == 2;
        if (i == 3) {
          c.out = c.in;
          c.mContiguous = true;
        }
        v.push_back(c);
      }
    }
  // Several k groups per shard (the flag granularity inside a shard).
  v.push_back({Chip::gfx942, 2, 128, 64, 1024, DType::bf16, DType::f32, true});
  v.push_back({Chip::gfx950, 4, 256, 64, 2048, DType::f16, DType::f32, false});
  // Whole tiles (the loads and DMA without bounds) and the workers' tiles:
  // on 8 emulated CUs (7 workers) gfx942 keeps 256x256 at N = 512 and takes
  // 256x128 at N = 384; three ranks give an odd count of K blocks (the
  // pair loops' block past K); gfx950's DMA and, m-contiguous, its blocks
  // through registers.
  v.push_back({Chip::gfx942, 2, 512, 512, 256, DType::bf16, DType::f32, false, false, 256});
  v.push_back({Chip::gfx942, 3, 300, 384, 480, DType::f16, DType::bf16, true, false, 128});
  v.push_back({Chip::gfx950, 3, 512, 256, 192, DType::bf16, DType::f32, false, false, 256});
  v.push_back({Chip::gfx950, 2, 256, 300, 256, DType::f16, DType::f32, true, true, 128});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Ranks, AgGemmTest, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return caseName(info.param); });

// Two calls on one workspace (no reset between them) give identical C on
// every rank, and the second call's flags carry epoch 2.
TEST(AgGemmWorkspace, ReusedWithoutReset) {
  Shared &s = Shared::get();
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    std::unique_ptr<SymmetricHeap> heap = s.heap(chip, 4);
    AgGemmProblem p = llvm::cantFail(AgGemmProblem::create(
        *heap, 256, 64, 4 * 64, DType::bf16, DType::f32, true, 7));
    ops::AgGemmWorkspace ws = llvm::cantFail(
        ops::makeAllGatherGemmWorkspace(*heap, DType::bf16, 256, 4 * 64));
    ops::AllGatherGemmOptions o;
    o.jit = s.jit.get();
    ASSERT_TRUE(bool(ops::all_gather_gemm(*heap, p.a, p.btRefs, p.cRefs,
                                          p.biasRefs, ws, o)));
    EXPECT_EQ(ws.epoch, 1);
    std::vector<std::vector<float>> first;
    for (unsigned r = 0; r < 4; ++r) {
      first.push_back(llvm::cantFail(p.cBuffers[r].toHost<float>()));
      ASSERT_FALSE(bool(p.cBuffers[r].fill(0xff))); // NaN if not rewritten
    }
    ASSERT_TRUE(bool(ops::all_gather_gemm(*heap, p.a, p.btRefs, p.cRefs,
                                          p.biasRefs, ws, o)));
    EXPECT_EQ(ws.epoch, 2);
    for (unsigned r = 0; r < 4; ++r) {
      std::vector<float> second = llvm::cantFail(p.cBuffers[r].toHost<float>());
      EXPECT_EQ(0, std::memcmp(first[r].data(), second.data(), second.size() * 4))
          << "rank " << r;
      std::vector<int32_t> flags(ws.tiles.mTiles * ws.tiles.nkGroups);
      ASSERT_FALSE(bool(heap->read(r, ws.flags, flags.data(), flags.size() * 4)));
      for (int32_t f : flags)
        EXPECT_EQ(f, 2);
    }
    EXPECT_EQ(llvm::cantFail(p.compare()).bad, 0);
  }
}

/// Runs the fused kernel on 2 ranks under check mode; returns the findings
/// (empty when clean) or fails the test on any other error.
std::vector<emu::Finding> runChecked(Chip chip, bool releaseBarrier,
                                     uint64_t *stagingBase = nullptr,
                                     uint64_t *stagingBytes = nullptr,
                                     int64_t M = 128, int64_t N = 64) {
  Shared &s = Shared::get();
  std::unique_ptr<SymmetricHeap> heap = s.heap(chip, 2);
  AgGemmProblem p = llvm::cantFail(AgGemmProblem::create(
      *heap, M, N, chip == Chip::gfx950 ? 128 : 64, DType::bf16,
      DType::f32, false, 3));
  ops::AgGemmWorkspace ws = llvm::cantFail(
      ops::makeAllGatherGemmWorkspace(*heap, DType::bf16, p.M, p.K));
  if (stagingBase) {
    *stagingBase = heap->address(0, ws.staging);
    *stagingBytes = ws.staging.bytes;
  }
  ops::AllGatherGemmOptions o;
  o.jit = s.jit.get();
  o.releaseBarrier = releaseBarrier;
  o.launch.check = true;
  llvm::Expected<ops::AllGatherGemmResult> r =
      ops::all_gather_gemm(*heap, p.a, p.btRefs, p.cRefs, p.biasRefs, ws, o);
  std::vector<emu::Finding> findings;
  if (!r)
    llvm::handleAllErrors(
        r.takeError(),
        [&](const emu::CheckError &e) { findings = e.findings; },
        [&](const llvm::ErrorInfoBase &e) { ADD_FAILURE() << e.message(); });
  return findings;
}

TEST(AgGemmCheck, FusedKernelIsClean) {
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    std::vector<emu::Finding> f = runChecked(chip, /*releaseBarrier=*/true);
    for (const emu::Finding &x : f)
      ADD_FAILURE() << getChipInfo(chip).name.str() << ": " << x.message();
  }
}

// More output tiles than workers (16 or 8 tiles, 7 workers on 8 emulated
// CUs): a worker's later tiles find all their flags set and take them by
// one tile.flag_test instead of a wait per k group. Its acquire must order
// the staging stores before the workers' reads as the waits do.
TEST(AgGemmCheck, FusedKernelIsCleanPastTheFirstRound) {
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    std::vector<emu::Finding> f =
        runChecked(chip, /*releaseBarrier=*/true, nullptr, nullptr, 512, 1024);
    for (const emu::Finding &x : f)
      ADD_FAILURE() << getChipInfo(chip).name.str() << ": " << x.message();
  }
}

// Without the barrier, waves 1-3's stores to the staging buffer are not
// ordered before wave 0's flag release: a worker that acquired the flag
// reads them unordered. Check mode must report that race, naming a staging
// store on one side and a worker's read of the staging buffer on the other.
TEST(AgGemmCheck, MissingReleaseBarrierIsCaught) {
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    uint64_t base = 0, bytes = 0;
    std::vector<emu::Finding> f =
        runChecked(chip, /*releaseBarrier=*/false, &base, &bytes);
    ASSERT_FALSE(f.empty()) << "the variant without the barrier ran clean";
    bool stagingRace = false;
    for (const emu::Finding &x : f) {
      if (x.kind != emu::FindingClass::Race)
        continue;
      const emu::FindingSite *store = nullptr, *read = nullptr;
      for (const emu::FindingSite *site : {&x.site, &x.other}) {
        if (site->access == "write" && llvm::StringRef(site->inst).contains("store"))
          store = site;
        if (site->access == "read" && llvm::StringRef(site->inst).contains("load"))
          read = site;
      }
      if (!store || !read)
        continue;
      // The staging store comes from a fetcher wave other than wave 0 (wave
      // 0's own stores precede its release in program order).
      EXPECT_NE(store->wave, 0u) << x.message();
      stagingRace = true;
    }
    EXPECT_TRUE(stagingRace) << "findings:\n" << [&] {
      std::string s;
      for (const emu::Finding &x : f) s += x.message() + "\n";
      return s;
    }();
  }
}

// The baseline (all-gather by copy kernels, then kernels/gemm) computes the
// same product.
TEST(AgGemmBaseline, MatchesReference) {
  Shared &s = Shared::get();
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    std::unique_ptr<SymmetricHeap> heap = s.heap(chip, 4);
    AgGemmProblem p = llvm::cantFail(AgGemmProblem::create(
        *heap, 192, 96, 4 * 64, DType::f16, DType::f32, true, 5));
    ops::AgGemmWorkspace ws = llvm::cantFail(
        ops::makeAllGatherGemmWorkspace(*heap, DType::f16, p.M, p.K));
    ops::AllGatherGemmOptions o;
    o.jit = s.jit.get();
    llvm::Expected<ops::AllGatherThenGemmResult> r = ops::all_gather_then_gemm(
        *heap, p.a, p.btRefs, p.cRefs, p.biasRefs, ws, o);
    ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
    EXPECT_EQ(llvm::cantFail(p.compare()).bad, 0);
  }
}

std::string errorOf(llvm::Error e) { return llvm::toString(std::move(e)); }

TEST(AgGemmArguments, ExactMessages) {
  Shared &s = Shared::get();
  std::unique_ptr<SymmetricHeap> heap = s.heap(Chip::gfx942, 2);
  EXPECT_EQ(errorOf(ops::makeAllGatherGemmWorkspace(*heap, DType::bf16, 64, 65)
                        .takeError()),
            "all_gather_gemm: K = 65 is not divisible by the world size 2; "
            "every rank holds K / world columns of A");
  EXPECT_EQ(errorOf(ops::makeAllGatherGemmWorkspace(*heap, DType::bf16, 64, 96)
                        .takeError()),
            "all_gather_gemm: K = 96 over 2 ranks gives shards of 48 columns, "
            "not a multiple of the K block 32; K must be a multiple of world x 32");
  EXPECT_EQ(errorOf(ops::makeAllGatherGemmWorkspace(*heap, DType::f32, 64, 64)
                        .takeError()),
            "all_gather_gemm: A is f32; A and Bt must be bf16 or f16");

  AgGemmProblem p = llvm::cantFail(AgGemmProblem::create(
      *heap, 64, 64, 128, DType::bf16, DType::f32, false));
  ops::AgGemmWorkspace small = llvm::cantFail(
      ops::makeAllGatherGemmWorkspace(*heap, DType::bf16, 32, 128));
  EXPECT_EQ(errorOf(ops::checkAllGatherGemm(*heap, p.a, p.btRefs, p.cRefs,
                                            p.biasRefs, small)),
            "all_gather_gemm: the workspace's staging buffer has 8192 bytes; "
            "M x K = 64x128 needs 16384");
  ops::AgGemmWorkspace ws = llvm::cantFail(
      ops::makeAllGatherGemmWorkspace(*heap, DType::bf16, 64, 128));
  ops::AgGemmWorkspace f16ws = llvm::cantFail(
      ops::makeAllGatherGemmWorkspace(*heap, DType::f16, 64, 128));
  EXPECT_EQ(errorOf(ops::checkAllGatherGemm(*heap, p.a, p.btRefs, p.cRefs,
                                            p.biasRefs, f16ws)),
            "all_gather_gemm: the workspace stages f16 but A is bf16");
  // Bt of the wrong dtype, C on the wrong rank's device, one Bt missing.
  std::vector<MatrixRef> bt = p.btRefs;
  bt[1].dtype = DType::f16;
  EXPECT_EQ(errorOf(ops::checkAllGatherGemm(*heap, p.a, bt, p.cRefs, {}, ws)),
            "all_gather_gemm: Bt of rank 1 is f16; expected bf16");
  std::vector<MatrixRef> c = p.cRefs;
  std::swap(c[0], c[1]);
  EXPECT_EQ(errorOf(ops::checkAllGatherGemm(*heap, p.a, p.btRefs, c, {}, ws)),
            "all_gather_gemm: C of rank 0 is on emu:gfx942.1 but rank 0 is "
            "emu:gfx942");
  EXPECT_EQ(errorOf(ops::checkAllGatherGemm(*heap, p.a, {p.btRefs[0]}, p.cRefs,
                                            {}, ws)),
            "all_gather_gemm: got 1 Bt and 2 C matrices for 2 ranks; one each "
            "per rank");
  std::vector<MatrixRef> cs = p.cRefs;
  cs[1].cols = 32;
  EXPECT_EQ(errorOf(ops::checkAllGatherGemm(*heap, p.a, p.btRefs, cs, {}, ws)),
            "all_gather_gemm: C of rank 1 is 64x32; expected 64x64");
  ASSERT_FALSE(bool(ops::checkAllGatherGemm(*heap, p.a, p.btRefs, p.cRefs, {}, ws)));

  // Overrides of the workers' tile: the grid follows them, the workspace's
  // m tiles (256 rows) and k groups stay, the per-wave shares must match.
  // (One output tile either way: the op keeps 2 x 4 waves of 128 x 64.)
  auto overridden = [&](std::vector<std::string> params, bool mContiguous = false) {
    ops::AllGatherGemmOptions o;
    o.jit = s.jit.get();
    o.params = std::move(params);
    o.mContiguousStaging = mContiguous;
    return ops::all_gather_gemm(*heap, p.a, p.btRefs, p.cRefs, {}, ws, o);
  };
  EXPECT_EQ(errorOf(overridden({"WGM=8"}).takeError()),
            "all_gather_gemm: the parameters give the workers 8 x 4 waves of 128 x 64; the "
            "workspace's m tiles need WGM x WM = 256 rows");
  EXPECT_EQ(errorOf(overridden({"WN=32"}).takeError()),
            "all_gather_gemm: RB=32 does not match the workers' tile: 128 rows over 8 waves "
            "is 16");
  EXPECT_EQ(errorOf(overridden({"KG=32"}).takeError()),
            "all_gather_gemm: the parameters give BK=32 and KG=32; the workspace's k groups "
            "are KG=64 of BK=32 blocks");
  EXPECT_EQ(errorOf(overridden({"WGM=1", "WM=256", "WGN=3"}).takeError()),
            "all_gather_gemm: the workers' 3 waves do not split into two PINGPONG groups; "
            "WGM x WGN must be even");
  EXPECT_EQ(errorOf(overridden({"PPREG=0"}, /*mContiguous=*/true).takeError()),
            "all_gather_gemm: the m-contiguous staging (STAGE_MN=1) is transposed on its way "
            "through the waves' registers; it needs PPREG=1");
  // The 256x128 tile where the op keeps 256x256 (N = 1792: 7 tiles for the
  // 7 workers of 8 emulated CUs, or 14 in two rounds): right, on the grid of
  // 14 tiles the override needs.
  AgGemmProblem q = llvm::cantFail(AgGemmProblem::create(
      *heap, 64, 1792, 128, DType::bf16, DType::f32, false, 9));
  ops::AllGatherGemmOptions o;
  o.jit = s.jit.get();
  o.params = {"WM=64", "WN=64", "WGM=4", "WGN=2", "RA=32", "RB=16"};
  llvm::Expected<ops::AllGatherGemmResult> narrow =
      ops::all_gather_gemm(*heap, q.a, q.btRefs, q.cRefs, {}, ws, o);
  ASSERT_TRUE(bool(narrow)) << llvm::toString(narrow.takeError());
  EXPECT_EQ(narrow->tiles.bn(), 128);
  EXPECT_EQ(llvm::cantFail(q.compare()).bad, 0);
}

TEST(SymmetricHeap, SameOffsetsAndBaseTable) {
  Shared &s = Shared::get();
  std::unique_ptr<SymmetricHeap> heap = s.heap(Chip::gfx950, 4);
  SymmetricAllocation a = llvm::cantFail(heap->allocate(100));
  SymmetricAllocation b = llvm::cantFail(heap->allocate(8, 4096));
  EXPECT_EQ(a.offset, 0u);
  EXPECT_EQ(b.offset, 4096u);
  for (unsigned r = 0; r < 4; ++r) {
    EXPECT_EQ(heap->address(r, b), heap->base(r) + 4096);
    std::vector<int64_t> table =
        llvm::cantFail(heap->basesTable(r).toHost<int64_t>());
    ASSERT_EQ(table.size(), 4u);
    for (unsigned q = 0; q < 4; ++q)
      EXPECT_EQ(uint64_t(table[q]), heap->base(q));
    EXPECT_EQ(&heap->basesTable(r).device(), &heap->device(r));
  }
  EXPECT_EQ(errorOf(heap->allocate(uint64_t(64) << 20).takeError()),
            "symmetric heap: cannot allocate 67108864 bytes: 4104 of 16777216 "
            "bytes per rank are in use");
  std::vector<Device *> same = {&heap->device(0), &heap->device(0)};
  EXPECT_EQ(errorOf(SymmetricHeap::create(*s.rt, same, 1024).takeError()),
            "symmetric heap: ranks 0 and 1 are both emu:gfx950; each rank needs "
            "its own device");
}

} // namespace
