//===- AttentionCheckTest.cpp - FlashAttention under the emulator's check mode ===//
//
// kcc's attention kernel with the parameters kcc::ops::attention_forward
// picks (the gfx950 fast path: two wave groups staggered by asymmetric
// barriers, only the leading group issuing LDS DMA into the buffer the
// other group has finished with; the gfx942 path: V through registers into
// LDS), causal, run in check mode (runtime/emu/Check.h) with several wave
// interleavings. Check mode follows every LDS byte (DMA writes, transposing
// reads, ds_write of V^T) with per-wave vector clocks, so a clean run says
// the stagger's DMA protocol orders every write after the last read of the
// bytes it overwrites; the output must also match the float64 reference.
// test/emu/check/fmha-stagger-race.test shows that a broken barrier in the
// same kernel is reported.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline.h"
#include "kernels/attention/AttentionOp.h"
#include "target/CodeObject.h"
#include "runtime/DType.h"
#include "test/e2e/CompileForTest.h"
#include "test/e2e/EmulatedDevice.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace kcc;

namespace {

struct CheckCase {
  Chip chip;
  int Sq, Skv, H, Hkv, D;
  DType dtype;
};

class AttentionCheckTest : public ::testing::TestWithParam<CheckCase> {};

TEST_P(AttentionCheckTest, CleanUnderCheckMode) {
  const CheckCase &c = GetParam();
  std::vector<std::string> params =
      ops::attentionParams(c.chip, c.dtype, c.D, /*causal=*/true, /*lse=*/true);
  auto src = llvm::MemoryBuffer::getFile(KCC_FMHA_SOURCE);
  ASSERT_TRUE(bool(src));
  auto hsaco = e2e::compileForTest((*src)->getBuffer(), "fmha_fwd.mlir", c.chip, params);
  ASSERT_TRUE(bool(hsaco)) << llvm::toString(hsaco.takeError());
  auto co = CodeObject::parse(*hsaco);
  ASSERT_TRUE(bool(co));
  const KernelInfo *info = co->findKernel("fmha_fwd");
  ASSERT_NE(info, nullptr);
  // The workgroup size is the kernel's (its metadata), as the op chose it.
  uint32_t block = info->maxFlatWorkgroupSize;

  bool bf = c.dtype == DType::bf16;
  std::mt19937 rng(c.Sq + c.Skv);
  std::normal_distribution<float> normal;
  size_t nq = size_t(c.Sq) * c.H * c.D, nk = size_t(c.Skv) * c.Hkv * c.D;
  std::vector<uint16_t> q(nq), k(nk), v(nk);
  std::vector<double> qd(nq), kd(nk), vd(nk);
  auto fill = [&](std::vector<uint16_t> &bits, std::vector<double> &values) {
    for (size_t i = 0; i < bits.size(); ++i) {
      bits[i] = bf ? floatToBf16(normal(rng)) : floatToF16(normal(rng));
      values[i] = bf ? bf16ToFloat(bits[i]) : f16ToFloat(bits[i]);
    }
  };
  fill(q, qd);
  fill(k, kd);
  fill(v, vd);
  std::vector<double> refO, refLse;
  ops::attentionReference({1, c.Sq, c.Skv, c.H, c.Hkv, c.D}, qd, kd, vd, true,
                          1.0 / std::sqrt(double(c.D)), refO, refLse);

  // Each seed interleaves the waves differently (slice lengths).
  for (uint64_t seed : {1, 2, 3}) {
    SCOPED_TRACE("check seed " + std::to_string(seed));
    auto dev = kcc::e2e::EmulatedDevice::open(c.chip);
    ASSERT_TRUE(bool(dev)) << llvm::toString(dev.takeError());
    kcc::Device &d = **dev;
    auto alloc = [&](size_t bytes) { return llvm::cantFail(d.allocate(bytes)); };
    uint64_t dq = alloc(nq * 2), dk = alloc(nk * 2), dv = alloc(nk * 2), dout = alloc(nq * 2),
             dlse = alloc(size_t(c.H) * c.Sq * 4);
    ASSERT_FALSE(bool(d.copyToDevice(dq, q.data(), nq * 2)));
    ASSERT_FALSE(bool(d.copyToDevice(dk, k.data(), nk * 2)));
    ASSERT_FALSE(bool(d.copyToDevice(dv, v.data(), nk * 2)));
    std::vector<const KernelArg *> slots = info->explicitArgs();
    ASSERT_EQ(slots.size(), 22u);
    std::vector<uint8_t> args(info->explicitArgsSize(), 0);
    uint64_t ptrs[5] = {dq, dk, dv, dout, dlse};
    for (int i = 0; i < 5; ++i)
      std::memcpy(&args[slots[i]->offset], &ptrs[i], 8);
    int32_t qs = c.H * c.D, ks = c.Hkv * c.D;
    int32_t ints[16] = {c.Sq, c.Skv, c.H, c.Hkv, c.Sq * qs, qs, c.D, c.Skv * ks, ks, c.D,
                        c.Skv * ks, ks, c.D, c.Sq * qs, qs, c.D};
    for (int i = 0; i < 16; ++i)
      std::memcpy(&args[slots[5 + i]->offset], &ints[i], 4);
    float scale = float(1.0 / std::sqrt(double(c.D)) * 1.4426950408889634);
    std::memcpy(&args[slots[21]->offset], &scale, 4);

    kcc::LaunchConfig launch;
    uint32_t queries = block / 64 * 32;
    launch.grid = {uint32_t((c.Sq + queries - 1) / queries), uint32_t(c.H), 1};
    launch.block = {block, 1, 1};
    launch.check.enabled = true;
    launch.check.seed = seed;
    auto stats = dev->launch(*hsaco, "fmha_fwd", launch, args);
    ASSERT_TRUE(bool(stats)) << llvm::toString(stats.takeError());

    std::vector<uint16_t> out(nq);
    std::vector<float> lse(size_t(c.H) * c.Sq);
    ASSERT_FALSE(bool(d.copyFromDevice(out.data(), dout, nq * 2)));
    ASSERT_FALSE(bool(d.copyFromDevice(lse.data(), dlse, lse.size() * 4)));
    double tol = bf ? 8e-3 : 2e-3, worst = 0;
    for (size_t i = 0; i < nq; ++i) {
      double got = bf ? bf16ToFloat(out[i]) : f16ToFloat(out[i]);
      worst = std::max(worst, std::fabs(got - refO[i]) / std::max(1.0, std::fabs(refO[i])));
    }
    EXPECT_LE(worst, tol);
    for (size_t i = 0; i < lse.size(); ++i)
      if (std::isinf(refLse[i]))
        EXPECT_TRUE(std::isinf(lse[i]) && lse[i] < 0) << "LSE[" << i << "]";
      else
        EXPECT_NEAR(lse[i], refLse[i], 1e-3) << "LSE[" << i << "]";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Attention, AttentionCheckTest,
    ::testing::Values(
        // The fast path: 6 key tiles (3 loop iterations, the last tile
        // partial), two query blocks, GQA.
        CheckCase{Chip::gfx950, 300, 330, 4, 2, 128, DType::bf16},
        CheckCase{Chip::gfx950, 256, 512, 2, 1, 128, DType::f16},
        // The generic path (D = 64) and the gfx942 path.
        CheckCase{Chip::gfx950, 100, 200, 2, 1, 64, DType::bf16},
        CheckCase{Chip::gfx942, 150, 200, 4, 2, 128, DType::bf16},
        CheckCase{Chip::gfx942, 64, 100, 2, 2, 64, DType::f16}),
    [](const auto &info) {
      const CheckCase &c = info.param;
      return getChipInfo(c.chip).name.str() + "_Sq" + std::to_string(c.Sq) + "_Skv" +
             std::to_string(c.Skv) + "_D" + std::to_string(c.D) + "_" +
             dtypeName(c.dtype).str() + "_causal";
    });

} // namespace
