//===- TimingTests.cpp - The CU model on kernels with known cycle counts --===//
//
// Each kernel of asm/timing_kernels.s runs on the emulator with the trace
// recorder; the expected cycles are computed here by hand from the chip
// constants (runtime/emu/timing/TimingParams.cpp), so a change of the model
// or of a constant that moves them makes these fail.
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include "runtime/emu/timing/Blame.h"
#include "runtime/emu/timing/DeviceModel.h"
#include "runtime/emu/timing/InstClass.h"
#include "runtime/emu/timing/LdsBanks.h"
#include "runtime/emu/timing/Timeline.h"
#include "runtime/emu/timing/Timing.h"
#include "runtime/emu/timing/Validation.h"
#include "target/Isa.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace kcc;
using namespace kcc::emu;
using namespace kcc::emu::timing;

namespace {

const char *chipName(Chip c) { return c == Chip::gfx942 ? "gfx942" : "gfx950"; }

class TimingTest : public ::testing::TestWithParam<Chip> {
protected:
  TimingReport run(const std::string &kernel, TimingOptions options = {}) {
    std::string path = std::string(KCC_TIMING_KERNEL_DIR) + "/timing_kernels-" +
                       chipName(GetParam()) + ".hsaco";
    auto file = llvm::MemoryBuffer::getFile(path);
    EXPECT_TRUE(bool(file)) << "cannot read " << path;
    if (!file)
      return {};
    auto ctx = Context::create();
    auto dev = ctx->addDevice(GetParam());
    EXPECT_TRUE(bool(dev));
    LaunchOptions lo;
    lo.grid = {1, 1, 1};
    lo.block = {64, 1, 1};
    options.recordSpans = true;
    llvm::ArrayRef<uint8_t> bytes(
        reinterpret_cast<const uint8_t *>((*file)->getBufferStart()),
        (*file)->getBufferSize());
    auto r = estimateLaunch(**dev, bytes, kernel, lo, {}, options);
    if (!r) {
      ADD_FAILURE() << llvm::toString(r.takeError());
      return {};
    }
    return std::move(*r);
  }
  static std::vector<Span> spans(const TimingReport &r, SpanKind kind) {
    std::vector<Span> out;
    if (r.timing.waves.empty())
      return out;
    for (const Span &s : r.timing.waves[0].spans)
      if (s.kind == kind)
        out.push_back(s);
    return out;
  }
  const TimingParams &params() const { return getTimingParams(GetParam()); }
  /// The blame of `r`'s hot loop, and the loop's cycles per iteration in
  /// `period` (0 without a hot loop).
  static std::optional<LoopBlame> blameOf(const TimingReport &r, double &period) {
    period = r.hotLoop >= 0 ? r.loops[size_t(r.hotLoop)].cyclesPerIteration : 0;
    return blameHotLoops(r);
  }
};

// 32x32x8 bf16 is 8 passes of 4 cycles on both chips: 16 back to back take
// 16 * 32 = 512 cycles of the pipe, one starting every 32.
TEST_P(TimingTest, IndependentMfmasIssueAtPassRate) {
  TimingReport r = run("mfma_indep");
  auto m = spans(r, SpanKind::Mfma);
  ASSERT_EQ(m.size(), 16u);
  for (size_t i = 1; i < m.size(); ++i)
    EXPECT_EQ(m[i].begin - m[i - 1].begin, 32u) << "MFMA " << i;
  EXPECT_EQ(m.back().end - m.front().begin, 512u);
  EXPECT_NEAR(r.simds[0].mfma * double(r.simulatedCycles), 512.0, 0.5);
}

// Accumulating into the same registers does not wait for the result.
TEST_P(TimingTest, AccumulatorChainIssuesAtPassRate) {
  TimingReport r = run("mfma_chain_c");
  auto m = spans(r, SpanKind::Mfma);
  ASSERT_EQ(m.size(), 16u);
  EXPECT_EQ(m.back().end - m.front().begin, 512u);
}

// Reading the previous result as A waits passes + 3 wait states on gfx942
// (+4 on gfx950), 4 cycles each: 44 / 48 cycles per MFMA.
TEST_P(TimingTest, DependentMfmasWaitForTheResult) {
  TimingReport r = run("mfma_chain_ab");
  auto m = spans(r, SpanKind::Mfma);
  ASSERT_EQ(m.size(), 16u);
  uint64_t latency = GetParam() == Chip::gfx942 ? 44 : 48;
  for (size_t i = 1; i < m.size(); ++i)
    EXPECT_EQ(m[i].begin - m[i - 1].begin, latency) << "MFMA " << i;
  EXPECT_EQ(m.back().begin - m.front().begin, 15 * latency);
}

// v_mov, s_nop 7, v_mov: the nop's slot and its 8 wait states, 4 cycles
// each, separate the two VALU ops: (1 + 8) * 4 = 36.
TEST_P(TimingTest, NopWaitStates) {
  TimingReport r = run("nop_wait");
  auto v = spans(r, SpanKind::Valu);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1].begin - v[0].begin, 36u);
}

// ds_read_b32 of 64 lanes at a 4-byte stride: 256 bytes over 32 banks (gfx942)
// = 2 cycles, over 64 banks (gfx950) = 1; at an 8-byte stride every bank in
// use delivers two dwords: twice the time. ds_read_b128 at a 16-byte stride:
// 1024 bytes, 8 / 4 cycles, no conflict.
TEST_P(TimingTest, TwoWayBankConflictDoublesLdsTime) {
  TimingReport r = run("lds_stride");
  auto l = spans(r, SpanKind::Lds);
  ASSERT_EQ(l.size(), 9u);
  uint64_t base = GetParam() == Chip::gfx942 ? 2 : 1;
  for (size_t i = 0; i < 4; ++i)
    EXPECT_EQ(l[i].end - l[i].begin, base) << "read " << i;
  for (size_t i = 4; i < 8; ++i)
    EXPECT_EQ(l[i].end - l[i].begin, 2 * base) << "read " << i;
  EXPECT_EQ(l[8].end - l[8].begin, 4 * base);
  // The report names the four stride-8 reads (four static instructions),
  // and nothing else.
  ASSERT_EQ(r.ldsConflicts.size(), 4u);
  for (const LdsConflictSite &c : r.ldsConflicts) {
    EXPECT_NE(c.text.find("ds_read_b32 v4"), std::string::npos) << c.text;
    EXPECT_DOUBLE_EQ(c.degree, 2.0);
    EXPECT_EQ(c.executions, 1u);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  printBankConflicts(r, os);
  EXPECT_NE(text.find("2.00-way"), std::string::npos) << text;
}

// One MFMA per iteration bounds the loop at 32 cycles; the scalar work and
// the taken branch (8 cycles) hide under it.
TEST_P(TimingTest, LoopCyclesPerIteration) {
  TimingReport r = run("counted_loop");
  ASSERT_EQ(r.loops.size(), 1u);
  EXPECT_EQ(r.loops[0].iterations, 64u);
  EXPECT_DOUBLE_EQ(r.loops[0].cyclesPerIteration, 32.0);
  EXPECT_EQ(r.hotLoop, 0);
  EXPECT_DOUBLE_EQ(r.loops[0].mixPerIteration[unsigned(Kind::Mfma)], 1.0);
}

// A loop inside another: the outer back-edge's takings span more
// instructions than the inner one's (whose first taking comes after the
// first inner iteration), but the inner loop runs most of them and is the
// hot one. Its mix counts the intervals between takings within one entry
// (one MFMA each), not those that cross the outer loop's back-edge; its
// iterations are its 60 takings and the 4 entries' last iterations, which
// fall through.
TEST_P(TimingTest, HotLoopIsTheInnerOneOfANest) {
  TimingReport r = run("nested_loop");
  ASSERT_EQ(r.loops.size(), 2u);
  ASSERT_GE(r.hotLoop, 0);
  const LoopTiming &hot = r.loops[size_t(r.hotLoop)];
  EXPECT_EQ(hot.iterations, 64u);
  EXPECT_DOUBLE_EQ(hot.mixPerIteration[unsigned(Kind::Mfma)], 1.0);
  const LoopTiming &outer = r.loops[size_t(1 - r.hotLoop)];
  EXPECT_EQ(outer.iterations, 4u);
  EXPECT_DOUBLE_EQ(outer.mixPerIteration[unsigned(Kind::Mfma)], 16.0);
  // The mean over the waves' own hot loops is the inner loop's too.
  EXPECT_EQ(r.hotMixWaves, 1u);
  EXPECT_DOUBLE_EQ(r.hotMixMean[unsigned(Kind::Mfma)], 1.0);
}

// Steady state: 4 iterations replayed, the other 60 inferred from
// s_cmp_lt_u32 s2, 64 and charged at 32 cycles; the result matches the full
// replay within the epilogue (s_endpgm only here).
TEST_P(TimingTest, SteadyStateExtrapolatesTheTripCount) {
  TimingReport full = run("counted_loop");
  TimingOptions o;
  o.steadyStateIterations = 4;
  TimingReport steady = run("counted_loop", o);
  EXPECT_TRUE(steady.extrapolated) << steady.note;
  EXPECT_NE(steady.note.find("trip count 64 inferred"), std::string::npos) << steady.note;
  EXPECT_NEAR(double(steady.cuCycles), double(full.cuCycles), 0.01 * double(full.cuCycles));
}

// The device scale: rounds of residency over the chip's CUs, each with its
// workgroups' launch.
TEST_P(TimingTest, KernelScalesByRounds) {
  TimingReport r = run("mfma_indep");
  EXPECT_EQ(r.rounds, 1u);
  EXPECT_DOUBLE_EQ(r.kernelCycles, double(r.cuCycles) + params().workgroupLaunchCycles);
  TimingOptions o;
  o.flops = 16.0 * 32 * 32 * 8 * 2;
  TimingReport f = run("mfma_indep", o);
  EXPECT_GT(f.tflops, 0);
}

TEST_P(TimingTest, TimelineRenders) {
  TimingReport r = run("counted_loop");
  std::string svg;
  llvm::raw_string_ostream os(svg);
  writeTimelineSvg(r, TimelineOptions(), os);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("v_mfma_f32_32x32x8_bf16"), std::string::npos);
  auto [b, e] = timelineWindow(r, TimelineOptions());
  EXPECT_EQ(e - b, 32u); // one iteration
}

// A loop that waits for each LDS read before it goes on: its waves block
// in s_waitcnt lgkmcnt(0) for the LDS latency each iteration (within an
// issue slot: the wait starts the cycle after the read's and ends on the
// slot after the data), that wait is what the blame names, and nothing of
// it is charged to memory.
TEST_P(TimingTest, BlameNamesTheLdsWait) {
  TimingReport r = run("lds_wait_loop");
  double period = 0;
  std::optional<LoopBlame> b = blameOf(r, period);
  ASSERT_TRUE(b);
  ASSERT_GT(period, 0.0);
  EXPECT_EQ(b->waves, 1u);
  EXPECT_NEAR(b->blocked[WaitKind::Lds] * period, double(params().ldsLatency),
              params().issuePeriod + 2.0);
  EXPECT_EQ(b->blocked[WaitKind::Memory], 0.0);
  EXPECT_EQ(b->blocked[WaitKind::Barrier], 0.0);
  EXPECT_EQ(b->blocked.largest(), WaitKind::Lds);
  ASSERT_FALSE(b->worst.empty());
  EXPECT_EQ(b->worst.front().text, "s_waitcnt lgkmcnt(0)");
  EXPECT_NEAR(b->worst.front().share, b->blocked[WaitKind::Lds], 1e-9);
  // The vector pipe idles all but the add's 4 cycles an iteration; while it
  // does, the one wave waits on LDS for the latency, waits for the taken
  // branch's refetch (an "other" stall) and issues the rest. No MFMA runs:
  // the matrix pipe idles throughout, for the same reasons.
  EXPECT_NEAR(b->valuIdle.idle * period, period - 4, 0.5);
  const WaitShares &idle = b->valuIdle.waits;
  EXPECT_NEAR(idle[WaitKind::Lds] * b->valuIdle.idle, b->blocked[WaitKind::Lds], 1e-9);
  EXPECT_NEAR(idle[WaitKind::StallOther] * b->valuIdle.idle, b->blocked[WaitKind::StallOther],
              1e-9);
  EXPECT_GT(b->blocked[WaitKind::StallOther], 0.0);
  EXPECT_NEAR(idle[WaitKind::Lds] + idle[WaitKind::StallOther] + b->valuIdle.issuing, 1.0, 1e-9);
  EXPECT_DOUBLE_EQ(b->mfmaIdle.idle, 1.0);
  std::string text;
  llvm::raw_string_ostream os(text);
  printReport(r, os);
  EXPECT_NE(text.find("where the hot loops' waves wait"), std::string::npos) << text;
  EXPECT_NE(text.find("VALU pipe idle"), std::string::npos) << text;
}

// The same with a buffer load: the wait is vmcnt's, the memory latency.
TEST_P(TimingTest, BlameNamesTheMemoryWait) {
  TimingReport r = run("mem_wait_loop");
  double period = 0;
  std::optional<LoopBlame> b = blameOf(r, period);
  ASSERT_TRUE(b);
  ASSERT_GT(period, 0.0);
  EXPECT_NEAR(b->blocked[WaitKind::Memory] * period, double(params().vmemLatency),
              params().issuePeriod + 2.0);
  EXPECT_EQ(b->blocked[WaitKind::Lds], 0.0);
  EXPECT_EQ(b->blocked.largest(), WaitKind::Memory);
  ASSERT_FALSE(b->worst.empty());
  EXPECT_EQ(b->worst.front().text, "s_waitcnt vmcnt(0)");
}

// Without spans there is nothing to blame (and printReport says nothing).
TEST_P(TimingTest, NoBlameWithoutSpans) {
  TimingOptions o;
  TimingReport r = run("lds_wait_loop", o);
  r.timing.waves[0].spans.clear();
  EXPECT_FALSE(blameHotLoops(r));
  std::string text;
  llvm::raw_string_ostream os(text);
  printReport(r, os);
  EXPECT_EQ(text.find("where the hot loops' waves wait"), std::string::npos) << text;
}

INSTANTIATE_TEST_SUITE_P(Chips, TimingTest, ::testing::Values(Chip::gfx942, Chip::gfx950),
                         [](const ::testing::TestParamInfo<Chip> &i) {
                           return std::string(chipName(i.param));
                         });

// Pass counts of SIDPGFX940FullSpeedModel (SISchedule.td).
TEST(MfmaPasses, FollowLlvmSchedule) {
  struct Case { const char *m; unsigned passes; };
  for (Case c : {Case{"v_mfma_f32_32x32x8_bf16", 8}, {"v_mfma_f32_16x16x16_bf16", 4},
                 {"v_mfma_f32_32x32x16_bf16", 8}, {"v_mfma_f32_16x16x32_bf16", 4},
                 {"v_mfma_f32_32x32x2_f32", 16}, {"v_mfma_f32_16x16x4_f32", 8},
                 {"v_mfma_f32_32x32x1_2b_f32", 16}, {"v_mfma_f32_4x4x4_16b_f16", 2},
                 {"v_mfma_f32_32x32x4_2b_f16", 16}, {"v_mfma_f32_32x32x4_xf32", 8},
                 {"v_mfma_f32_16x16x8_xf32", 4}, {"v_mfma_f64_16x16x4_f64", 8},
                 {"v_mfma_f64_4x4x4_4b_f64", 4}, {"v_mfma_i32_32x32x16_i8", 8},
                 {"v_mfma_f32_32x32x16_fp8_fp8", 8}, {"v_smfmac_f32_32x32x16_bf16", 8},
                 {"v_add_f32", 0}})
    EXPECT_EQ(mfmaPasses(Chip::gfx942, c.m), c.passes) << c.m;
}

// gfx950's f8f6f4 MFMAs (and their block-scaled forms): the name gives the
// FP6/FP4 rate, an FP8/BF8 operand (8 VGPRs) doubles the passes; so FP8
// reproduces MI355X's FP8 peak, twice its bf16 one, and FP4 twice that.
TEST(MfmaPasses, F8f6f4FollowTheOperandFormats) {
  EXPECT_EQ(mfmaPasses(Chip::gfx950, "v_mfma_f32_32x32x64_f8f6f4"), 8u);
  EXPECT_EQ(mfmaPasses(Chip::gfx950, "v_mfma_scale_f32_32x32x64_f8f6f4"), 8u);
  EXPECT_EQ(mfmaPasses(Chip::gfx950, "v_mfma_f32_16x16x128_f8f6f4"), 4u);
  EXPECT_EQ(mfmaPasses(Chip::gfx950, "v_mfma_scale_f32_16x16x128_f8f6f4"), 4u);
  struct Case { const char *text; unsigned a, b, passes; };
  for (Case c : {Case{"v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15]", 8, 8, 16},
                 {"v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:27], v[0:15]", 8, 4, 16},
                 {"v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:21], v[24:27], v[0:15]", 6, 4, 8},
                 {"v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[16:23], v[24:31], v[0:3]", 8, 8, 8},
                 {"v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[16:19], v[24:27], v[0:3]", 4, 4, 4},
                 {"v_mfma_scale_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15], v32, v33", 8, 8, 16}}) {
    Inst in;
    in.nsrc = 3;
    for (unsigned i = 0; i < 3; ++i)
      in.src[i].kind = OpndKind::Vgpr;
    in.src[0].width = uint8_t(c.a);
    in.src[1].width = uint8_t(c.b);
    in.src[2].width = 16;
    InstInfo info = classify(Chip::gfx950, in, c.text);
    EXPECT_EQ(info.kind, Kind::Mfma) << c.text;
    EXPECT_EQ(info.mfmaPasses, c.passes) << c.text;
  }
  const TimingParams &p = getTimingParams(Chip::gfx950);
  auto peak = [&](double flops, unsigned passes) {
    return flops / (passes * p.mfmaCyclesPerPass) * 4 * p.computeUnits * p.clockGHz * 1e9 / 1e12;
  };
  EXPECT_NEAR(peak(32.0 * 32 * 64 * 2, 16), 2 * 2516.6, 2.0); // FP8
  EXPECT_NEAR(peak(32.0 * 32 * 64 * 2, 8), 4 * 2516.6, 4.0);  // FP4
}

// The timing model charges the transcendental unit for exactly what
// target/'s rule calls transcendental (the rule --stats counts by).
TEST(InstClass, TranscendentalFollowsTarget) {
  for (const char *text :
       {"v_exp_f32_e32 v0, v1", "v_log_f32_e32 v0, v1", "v_rcp_iflag_f32_e32 v0, v1",
        "v_rsq_f64_e32 v[0:1], v[2:3]", "v_sqrt_f16_e32 v0, v1", "v_sin_f32_e32 v0, v1",
        "v_cos_f16_e32 v0, v1", "v_exp_legacy_f32_e32 v0, v1", "v_ldexp_f32 v0, v1, v2",
        "v_frexp_mant_f32_e32 v0, v1", "v_mul_f32_e32 v0, v1, v2", "v_prng_b32_e32 v0, v1"}) {
    Inst in;
    InstInfo info = classify(Chip::gfx950, in, text);
    llvm::StringRef m = llvm::StringRef(text).split(' ').first;
    EXPECT_EQ(info.kind == Kind::Trans, isTranscendental(m)) << text;
  }
}

// FLOPs of one MFMA from its name: 2 M N K (the peak guard divides them by
// the passes).
TEST(TimingParams, MfmaFlops) {
  EXPECT_EQ(mfmaFlops("v_mfma_f32_32x32x16_bf16"), 32768u);
  EXPECT_EQ(mfmaFlops("v_mfma_f32_16x16x32_bf16"), 16384u);
  EXPECT_EQ(mfmaFlops("v_mfma_f64_16x16x4_f64"), 2048u);
  EXPECT_EQ(mfmaFlops("v_smfmac_f32_32x32x16_bf16"), 32768u);
  EXPECT_EQ(mfmaFlops("v_add_f32"), 0u);
  EXPECT_EQ(mfmaFlops("v_mfma_f32_bogus"), 0u);
}

// The tables reproduce the data-sheet peaks they cite.
TEST(TimingParams, ReproduceDataSheetPeaks) {
  const TimingParams &a = getTimingParams(Chip::gfx942);
  double perSimd942 = 32.0 * 32 * 8 * 2 / (8 * a.mfmaCyclesPerPass);
  EXPECT_NEAR(a.computeUnits * 4 * perSimd942 * a.clockGHz * 1e9 / 1e12, 1307.4, 1.0);
  const TimingParams &b = getTimingParams(Chip::gfx950);
  double perSimd950 = 32.0 * 32 * 16 * 2 / (8 * b.mfmaCyclesPerPass);
  EXPECT_NEAR(b.computeUnits * 4 * perSimd950 * b.clockGHz * 1e9 / 1e12, 2516.6, 1.0);
  EXPECT_EQ(a.ldsBanks, 32u);
  EXPECT_EQ(b.ldsBanks, 64u);
}

// The power limit: the peak clock up to the knee, then f = peak (knee /
// busy)^(1/n), never above peak and falling as the matrix cores get busier.
TEST(TimingParams, PowerLimitedClock) {
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    const TimingParams &p = getTimingParams(chip);
    EXPECT_DOUBLE_EQ(p.sustainedClockGHz(0), p.clockGHz);
    EXPECT_DOUBLE_EQ(p.sustainedClockGHz(p.powerKneeMfmaBusy), p.clockGHz);
    double knee = p.powerKneeMfmaBusy, n = p.powerClockExponent;
    EXPECT_NEAR(p.sustainedClockGHz(1.0), p.clockGHz * std::pow(knee, 1 / n), 1e-12);
    EXPECT_LT(p.sustainedClockGHz(0.9), p.sustainedClockGHz(0.7));
  }
  // gfx950 with the whole chip 98.3% MFMA busy (a dense GEMM): with the
  // fitted knee and exponent (model_validation --fit), 2.4 (0.367 /
  // 0.983)^(1/2.94) = 1.717 GHz.
  EXPECT_NEAR(getTimingParams(Chip::gfx950).sustainedClockGHz(0.983), 1.717, 0.001);
}

// The device-level model (DeviceModel.h) on constants of the test's own,
// every figure computed by hand.
TimingParams deviceTestParams() {
  TimingParams p = getTimingParams(Chip::gfx950); // 256 CUs, 2.4 GHz, 8 TB/s
  p.powerKneeMfmaBusy = 0.5;
  p.powerClockExponent = 2;
  p.hbmSustainedFraction = 0.8;
  p.launchOverheadSeconds = 3e-6;
  p.vmemLatency = 1000;
  p.workgroupLaunchCycles = 0;
  return p;
}

// Rounds: 600 workgroups one to a CU over 256 CUs are three rounds, the
// last of 88 taking a whole round; 600 two to a CU are two rounds, the
// second of 88 workgroups at one per CU, half a round (the CU's two slots
// shared in throughput). The slots occupied: 600 of 768 round-slots, and
// 600 x 10000 of 512 x 15000 slot-cycles.
TEST(DeviceModel, RoundsAndTheLastRound) {
  TimingParams p = deviceTestParams();
  p.launchOverheadSeconds = 0;
  CuRound one{10000, 0.0, 1};
  DeviceTime a = deviceTime(p, one, {600, 0, 0});
  EXPECT_EQ(a.rounds, 3u);
  EXPECT_DOUBLE_EQ(a.cycles, 30000);
  EXPECT_NEAR(a.occupiedFraction, 600.0 / 768.0, 1e-12);
  EXPECT_DOUBLE_EQ(a.clockGHz, 2.4); // MFMA idle: the peak clock
  EXPECT_NEAR(a.seconds, 30000 / 2.4e9, 1e-15);
  CuRound two{10000, 0.0, 2};
  DeviceTime b = deviceTime(p, two, {600, 0, 0});
  EXPECT_EQ(b.rounds, 2u);
  EXPECT_DOUBLE_EQ(b.cycles, 15000);
  EXPECT_NEAR(b.occupiedFraction, 600.0 * 10000 / (512.0 * 15000), 1e-12);
}

// Each round starts with its workgroups' launch: three rounds of 10000
// cycles with 2000 cycles of launch each are 36000.
TEST(DeviceModel, EachRoundLaunchesItsWorkgroups) {
  TimingParams p = deviceTestParams();
  p.workgroupLaunchCycles = 2000;
  DeviceTime t = deviceTime(p, {10000, 0.0, 1}, {600, 0, 0});
  EXPECT_EQ(t.rounds, 3u);
  EXPECT_DOUBLE_EQ(t.cycles, 36000);
}

// The clock follows the chip's activity: a CU 90% busy on a full chip is
// 0.9 > knee 0.5: 2.4 (0.5 / 0.9)^(1/2) = 1.7889 GHz; the same CU on 64 of
// 256 CUs is 22.5% of the chip, under the knee: the peak clock.
TEST(DeviceModel, ClockFollowsTheWholeChip) {
  TimingParams p = deviceTestParams();
  DeviceTime full = deviceTime(p, {1e6, 0.9, 1}, {256, 0, 0});
  EXPECT_NEAR(full.chipMfmaBusy, 0.9, 1e-12);
  EXPECT_NEAR(full.clockGHz, 2.4 * std::sqrt(0.5 / 0.9), 1e-9);
  EXPECT_NEAR(full.seconds, 1e6 / (full.clockGHz * 1e9) + 3e-6, 1e-12);
  DeviceTime part = deviceTime(p, {1e6, 0.9, 1}, {64, 0, 0});
  EXPECT_NEAR(part.chipMfmaBusy, 0.9 * 0.25, 1e-12);
  EXPECT_DOUBLE_EQ(part.clockGHz, 2.4);
}

// HBM: 4 GB at 8 TB/s x 0.8 is 625 us, longer than 24000 cycles (10 us):
// the floor decides, plus the launch's 3 us.
TEST(DeviceModel, MemoryFloorAndLaunchCost) {
  TimingParams p = deviceTestParams();
  DeviceTime t = deviceTime(p, {24000, 0.1, 1}, {256, 0, 4e9});
  EXPECT_TRUE(t.memoryBound);
  EXPECT_NEAR(t.memorySeconds, 4e9 / 6.4e12, 1e-15);
  EXPECT_NEAR(t.seconds, 625e-6 + 3e-6, 1e-12);
  DeviceTime small = deviceTime(p, {24000, 0.1, 1}, {256, 0, 0});
  EXPECT_FALSE(small.memoryBound);
  EXPECT_NEAR(small.seconds, 10e-6 + 3e-6, 1e-12);
}

// A round replayed at latency 600 that grows 7 cycles per cycle of latency
// is, at the table's 1000, 10000 + 7 x 400 = 12800 cycles; its MFMA work
// (40% of 10000) spread over them: 31.25% busy.
TEST(DeviceModel, RoundAtTheTablesLatency) {
  TimingParams p = deviceTestParams();
  CuRound r{10000, 0.4, 1, 7.0, 600};
  DeviceTime t = deviceTime(p, r, {256, 0, 0});
  EXPECT_DOUBLE_EQ(t.cycles, 12800);
  EXPECT_NEAR(t.chipMfmaBusy, 0.4 * 10000 / 12800, 1e-12);
}

// The latency probe: mem_wait_loop waits for each of its 16 loads before
// the next, so every cycle of latency costs it 16.
TEST_P(TimingTest, LatencySensitivityCountsTheWaitedLoads) {
  TimingOptions o;
  o.latencySensitivity = true;
  TimingReport r = run("mem_wait_loop", o);
  EXPECT_DOUBLE_EQ(r.cyclesPerLatencyCycle, 16.0);
  TimingReport plain = run("mem_wait_loop");
  EXPECT_EQ(plain.cyclesPerLatencyCycle, 0);
  EXPECT_EQ(plain.cuCycles, r.cuCycles);
}

// Every figure is printed with its kind's validation error, or says it has
// none: the kind from the kernel's name and its fastest MFMA.
TEST(Validation, KindsAndNotes) {
  EXPECT_EQ(kernelKindOf("gemm", "v_mfma_f32_32x32x16_bf16"), KernelKind::Bf16Gemm);
  EXPECT_EQ(kernelKindOf("_ZN5aiter24bf16gemm_bf16_tn_256x256E", "v_mfma_f32_16x16x32_bf16"),
            KernelKind::Bf16Gemm);
  EXPECT_EQ(kernelKindOf("gemm", "v_mfma_f32_32x32x8_f16"), KernelKind::Bf16Gemm);
  EXPECT_EQ(kernelKindOf("fmha_fwd", "v_mfma_f32_32x32x16_bf16"),
            KernelKind::Bf16AttentionForward);
  EXPECT_EQ(kernelKindOf("fmha_fwd_fp8", "v_mfma_f32_32x32x64_f8f6f4"), KernelKind::Other);
  EXPECT_EQ(kernelKindOf("gemm_fp8", "v_mfma_f32_32x32x64_f8f6f4"), KernelKind::Fp8Gemm);
  EXPECT_EQ(kernelKindOf("_ZN5aiter42fp8gemm_bf16_blockscale_BpreShuffle_32x128E",
                         "v_mfma_f32_16x16x32_fp8_fp8"),
            KernelKind::Fp8Gemm);
  EXPECT_EQ(kernelKindOf("gemm_mxfp4", "v_mfma_scale_f32_32x32x64_f8f6f4"), KernelKind::Other);
  EXPECT_EQ(kernelKindOf("fmha_bwd_dkdv", "v_mfma_f32_32x32x16_bf16"), KernelKind::Other);
  EXPECT_EQ(kernelKindOf("gemm", ""), KernelKind::Other);
  for (Chip chip : {Chip::gfx942, Chip::gfx950}) {
    ASSERT_TRUE(validationError(KernelKind::Bf16Gemm, chip));
    ASSERT_TRUE(validationError(KernelKind::Bf16AttentionForward, chip));
    EXPECT_FALSE(validationError(KernelKind::Other, chip));
  }
  std::string gemm = validationNote("gemm", "v_mfma_f32_32x32x16_bf16", Chip::gfx950);
  EXPECT_EQ(gemm.rfind("bf16 GEMM gfx950 validation: median ", 0), 0u) << gemm;
  EXPECT_NE(gemm.find(" rows (aiter bf16 GEMMs"), std::string::npos) << gemm;
  EXPECT_EQ(validationNote("fmha_bwd_dq", "v_mfma_f32_32x32x8_bf16", Chip::gfx942),
            "not validated: no hardware measurement of this kind of kernel (kernel "
            "'fmha_bwd_dq') on gfx942 was run on the model");
}

TEST(LdsBanks, BroadcastIsFree) {
  uint32_t addr[64];
  for (uint32_t &a : addr)
    a = 128;
  LdsAccessCost c = ldsAccessCost(addr, ~0ull, 4, 32);
  EXPECT_EQ(c.cycles, c.idealCycles);
  // A 32-dword stride puts every lane of a phase on one bank: 32-way.
  for (int l = 0; l < 64; ++l)
    addr[l] = uint32_t(l) * 128;
  c = ldsAccessCost(addr, ~0ull, 4, 32);
  EXPECT_EQ(c.cycles, 64u);
  EXPECT_EQ(c.idealCycles, 2u);
}

TEST(TripCount, CountedLoops) {
  // for (i = 0; i < 10; ++i): the compare after the increment saw (3, 10).
  EXPECT_EQ(remainingIterations("s_cmp_lt_u32", "s_cbranch_scc1", 3, 10, 1, 0), 7u);
  // Count down to zero: s_cmp_lg_u32 s, 0 saw 5.
  EXPECT_EQ(remainingIterations("s_cmp_lg_u32", "s_cbranch_scc1", 5, 0, -1, 0), 5u);
  // Exit on equality with scc0 ... branch back while not equal.
  EXPECT_EQ(remainingIterations("s_cmp_eq_u32", "s_cbranch_scc0", 16, 64, 16, 0), 3u);
  // Neither operand moves: not a counted loop.
  EXPECT_FALSE(remainingIterations("s_cmp_lt_u32", "s_cbranch_scc1", 3, 10, 0, 0));
  EXPECT_FALSE(remainingIterations("s_cmp_lt_u32", "s_cbranch_vccnz", 3, 10, 1, 0));
}

} // namespace
