//===- AttentionOpTest.cpp - kcc::ops::attention_forward on both chips ----===//
//
// Random bf16/f16 data through the op wrapper (JIT, argument checks, path
// choice, launch) on emulated gfx942 and gfx950, every output element and
// every log-sum-exp against a float64 reference from the same rounded
// inputs: causal and not, MHA/GQA/MQA, S in {1, 17, 128, 384, 512, 1024},
// S_q != S_kv, D = 64 and 128, strided views (padding filled with NaN, so
// a read of it shows; O's padding must stay untouched), O written over Q.
// Then every bad argument with its exact message.
//
// Sizes are chosen for CI: the float64 reference costs B H S_q S_kv D, so
// the long sequences run with one or two heads.
//
//===----------------------------------------------------------------------===//
#include "kernels/attention/AttentionOp.h"
#include "runtime/Jit.h"
#include "runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace kcc;
using namespace kcc::ops;

namespace {

enum class Layout {
  Packed,  // contiguous [B, S, H, D] tensors, each in its own buffer
  Strided, // padded head/token/batch strides, offsets, K and V interleaved
  OddStrided, // the same with odd strides and offsets (packed by the op first)
  InPlace, // O written over Q (the same view)
};

struct Case {
  Chip chip;
  int B, Sq, Skv, H, Hkv, D;
  bool causal = false;
  DType dtype = DType::bf16;
  bool lse = true;
  Layout layout = Layout::Packed;
  double scale = 0; // 0: the default 1/sqrt(D)
};

std::string caseName(const Case &c) {
  std::string s = getChipInfo(c.chip).name.str() + "_B" + std::to_string(c.B) + "_Sq" +
                  std::to_string(c.Sq) + "_Skv" + std::to_string(c.Skv) + "_H" +
                  std::to_string(c.H) + "_Hkv" + std::to_string(c.Hkv) + "_D" +
                  std::to_string(c.D) + "_" + dtypeName(c.dtype).str();
  if (c.causal) s += "_causal";
  if (!c.lse) s += "_nolse";
  if (c.layout == Layout::Strided) s += "_strided";
  if (c.layout == Layout::OddStrided) s += "_oddstrided";
  if (c.layout == Layout::InPlace) s += "_inplace";
  if (c.scale) s += "_scaled";
  return s;
}

/// One runtime and one JIT for the whole binary: variants compiled once are
/// shared between cases, as in a real process.
struct Shared {
  std::unique_ptr<Runtime> rt;
  std::unique_ptr<Jit> jit;
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
};

Device &emuDevice(Chip chip) {
  return llvm::cantFail(
      Shared::get().rt->device(chip == Chip::gfx942 ? "emu:gfx942" : "emu:gfx950"));
}

constexpr uint16_t kNaNBf16 = 0x7fc0, kNaNF16 = 0x7e00;

/// A host image of one device buffer holding one or more [B, S, H, D]
/// views; elements outside every view keep `fill`.
struct HostImage {
  std::vector<uint16_t> bits;
  void place(const AttentionTensorRef &t, const std::vector<uint16_t> &packed) {
    for (int64_t b = 0; b < t.batch; ++b)
      for (int64_t s = 0; s < t.seq; ++s)
        for (int64_t h = 0; h < t.heads; ++h)
          for (int64_t e = 0; e < t.headDim; ++e)
            bits[size_t(address(t, b, s, h) + e)] =
                packed[size_t(((b * t.seq + s) * t.heads + h) * t.headDim + e)];
  }
  static int64_t address(const AttentionTensorRef &t, int64_t b, int64_t s, int64_t h) {
    return t.offset + b * t.batchStrideOrPacked() + s * t.tokenStrideOrPacked() +
           h * t.headStrideOrPacked();
  }
};

class AttentionOpTest : public ::testing::TestWithParam<Case> {};

TEST_P(AttentionOpTest, MatchesFloat64Reference) {
  const Case &c = GetParam();
  Device &dev = emuDevice(c.chip);
  bool bf = c.dtype == DType::bf16;
  uint16_t nan = bf ? kNaNBf16 : kNaNF16;
  auto quantise = [&](float x) { return bf ? floatToBf16(x) : floatToF16(x); };
  auto value = [&](uint16_t h) { return double(bf ? bf16ToFloat(h) : f16ToFloat(h)); };
  std::mt19937 rng(c.Sq * 977 + c.Skv * 13 + c.D * 7 + c.H + int(c.causal) + int(c.layout));
  std::normal_distribution<float> normal;
  size_t nq = size_t(c.B) * c.Sq * c.H * c.D, nk = size_t(c.B) * c.Skv * c.Hkv * c.D;
  std::vector<uint16_t> q(nq), k(nk), v(nk);
  for (auto &x : q) x = quantise(normal(rng));
  for (auto &x : k) x = quantise(normal(rng));
  for (auto &x : v) x = quantise(normal(rng));

  // Views and the images of their buffers.
  AttentionTensorRef tq, tk, tv, to;
  HostImage iq, ikv, io;
  size_t qElems, kvElems, oElems;
  bool strided = c.layout == Layout::Strided || c.layout == Layout::OddStrided;
  if (strided) {
    // Q: heads padded to D + 8, tokens by another 16, batches by 32, and an
    // offset; K and V interleaved per token ([B, S_kv, 2, H_kv, D + 8] with
    // V after K); O with its own padding and offset. OddStrided makes every
    // stride and offset odd, so that no row starts 4-byte aligned.
    int odd = c.layout == Layout::OddStrided ? 1 : 0;
    int64_t hs = c.D + 8 + odd, ts = c.H * hs + 16, bs = c.Sq * ts + 32 + odd;
    int64_t khs = c.D + 8 + odd, kts = 2 * c.Hkv * khs + odd, kbs = c.Skv * kts;
    int64_t ohs = c.D + 2 + odd, ots = c.H * ohs + 4, obs = c.Sq * ots + odd;
    qElems = size_t(64 + odd + c.B * bs);
    kvElems = size_t(c.B * kbs + odd);
    oElems = size_t(6 + odd + c.B * obs);
    tq = AttentionTensorRef().withStrides(bs, ts, hs).withOffset(64 + odd);
    tk = AttentionTensorRef().withStrides(kbs, kts, khs).withOffset(odd);
    tv = AttentionTensorRef().withStrides(kbs, kts, khs).withOffset(c.Hkv * khs + odd);
    to = AttentionTensorRef().withStrides(obs, ots, ohs).withOffset(6 + odd);
  } else {
    qElems = nq;
    kvElems = nk;
    oElems = nq;
  }
  iq.bits.assign(qElems, nan);
  ikv.bits.assign(strided ? kvElems : 2 * nk, nan);
  io.bits.assign(oElems, nan);
  auto shape = [&](AttentionTensorRef &t, int S, int H) {
    t.dtype = c.dtype;
    t.batch = c.B;
    t.seq = S;
    t.heads = H;
    t.headDim = c.D;
  };
  shape(tq, c.Sq, c.H);
  shape(tk, c.Skv, c.Hkv);
  shape(tv, c.Skv, c.Hkv);
  shape(to, c.Sq, c.H);
  if (!strided)
    tv = tv.withOffset(int64_t(nk)); // packed K then packed V, one buffer
  iq.place(tq, q);
  ikv.place(tk, k);
  ikv.place(tv, v);

  Buffer dq = llvm::cantFail(Buffer::fromHost(dev, iq.bits));
  Buffer dkv = llvm::cantFail(Buffer::fromHost(dev, ikv.bits));
  Buffer dout = llvm::cantFail(Buffer::fromHost(dev, io.bits));
  Buffer dlse = llvm::cantFail(Buffer::allocate(dev, size_t(c.B) * c.H * c.Sq * 4));
  ASSERT_FALSE(bool(dlse.fill(0xff)));
  tq.buffer = &dq;
  tk.buffer = &dkv;
  tv.buffer = &dkv;
  to.buffer = c.layout == Layout::InPlace ? &dq : &dout;
  if (c.layout == Layout::InPlace)
    to.offset = tq.offset;

  AttentionOptions options;
  options.causal = c.causal;
  options.jit = Shared::get().jit.get();
  if (c.scale)
    options.scale = c.scale;
  if (c.lse)
    options.lse = VectorRef(dlse, DType::f32, int64_t(c.B) * c.H * c.Sq);
  auto run = attention_forward(tq, tk, tv, to, options);
  ASSERT_TRUE(bool(run)) << llvm::toString(run.takeError());

  // The path: the gfx950 fast path for D = 128 (which the long sequences
  // of the issue must take), the gfx942 path there, generic for the rest.
  AttentionPath expected = c.chip == Chip::gfx942 ? AttentionPath::Gfx942
                           : c.D == 128           ? AttentionPath::Gfx950Fast
                                                  : AttentionPath::Generic;
  EXPECT_EQ(attentionPathName(run->path), attentionPathName(expected));
  if (c.chip == Chip::gfx950 && c.D == 128 &&
      (c.Skv == 384 || c.Skv == 512 || c.Skv == 1024)) {
    EXPECT_EQ(run->path, AttentionPath::Gfx950Fast);
    EXPECT_EQ(run->block.x, 512u);
  }

  // One workgroup per query block of 32 queries per wave; causal launches
  // take their blocks in pairs (the longest with the shortest).
  uint32_t perGroup = run->block.x / 64 * 32;
  uint32_t blocks = (uint32_t(c.Sq) + perGroup - 1) / perGroup;
  EXPECT_EQ(run->grid.x, c.causal ? (blocks + 1) / 2 : blocks);
  EXPECT_EQ(run->grid.y, uint32_t(c.H));
  EXPECT_EQ(run->grid.z, uint32_t(c.B));

  std::vector<double> qd(nq), kd(nk), vd(nk), refO, refLse;
  for (size_t i = 0; i < nq; ++i) qd[i] = value(q[i]);
  for (size_t i = 0; i < nk; ++i) kd[i] = value(k[i]), vd[i] = value(v[i]);
  AttentionShape s{c.B, c.Sq, c.Skv, c.H, c.Hkv, c.D};
  double scale = c.scale ? c.scale : 1.0 / std::sqrt(double(c.D));
  attentionReference(s, qd, kd, vd, c.causal, scale, refO, refLse);

  std::vector<uint16_t> got = llvm::cantFail(
      (c.layout == Layout::InPlace ? dq : dout).toHost<uint16_t>());
  double tol = bf ? 8e-3 : 2e-3, worst = 0, worstLse = 0;
  int bad = 0;
  std::vector<bool> written(got.size(), false);
  for (int b = 0; b < c.B; ++b)
    for (int i = 0; i < c.Sq; ++i)
      for (int h = 0; h < c.H; ++h)
        for (int e = 0; e < c.D; ++e) {
          size_t at = size_t(HostImage::address(to, b, i, h) + e);
          written[at] = true;
          double ref = refO[size_t(((int64_t(b) * c.Sq + i) * c.H + h) * c.D + e)];
          double g = value(got[at]);
          // The bound is for outputs of order 1; larger ones are allowed the
          // same relative error (bf16's own rounding of 2.15 is 0.008).
          double err = std::fabs(g - ref) / std::max(1.0, std::fabs(ref));
          if (!(err <= tol)) {
            if (++bad <= 5)
              ADD_FAILURE() << "O[" << b << "][" << i << "][" << h << "][" << e
                            << "] = " << g << ", reference " << ref;
          } else {
            worst = std::max(worst, err);
          }
        }
  // The padding between O's rows is never written.
  if (strided)
    for (size_t at = 0; at < got.size(); ++at)
      if (!written[at] && got[at] != nan && ++bad <= 5)
        ADD_FAILURE() << "O's padding element " << at << " was overwritten";
  if (c.lse) {
    std::vector<float> lse = llvm::cantFail(dlse.toHost<float>());
    for (size_t i = 0; i < lse.size(); ++i) {
      bool ok = std::isinf(refLse[i]) ? (std::isinf(lse[i]) && lse[i] < 0)
                                      : std::fabs(lse[i] - refLse[i]) <= 1e-3;
      if (!ok) {
        if (++bad <= 5)
          ADD_FAILURE() << "LSE[" << i << "] = " << lse[i] << ", reference " << refLse[i];
      } else if (!std::isinf(refLse[i])) {
        worstLse = std::max(worstLse, std::fabs(lse[i] - refLse[i]));
      }
    }
  }
  EXPECT_EQ(bad, 0);
  RecordProperty("path", attentionPathName(run->path).str());
  RecordProperty("max_error", std::to_string(worst));
  RecordProperty("max_lse_error", std::to_string(worstLse));
  std::printf("  %s path, max |O - ref| (relative beyond 1) = %.3g, max |LSE - ref| = "
              "%.3g, %llu wave instructions\n",
              attentionPathName(run->path).str().c_str(), worst, worstLse,
              (unsigned long long)run->launch.waveInstructions.value_or(0));
}

std::vector<Case> cases() {
  const DType bf = DType::bf16, f16 = DType::f16;
  std::vector<Case> all;
  for (Chip chip : {Chip::gfx950, Chip::gfx942}) {
    std::vector<Case> c = {
        // S = 1: one query, one key.
        {chip, 2, 1, 1, 2, 2, 128, false, bf},
        {chip, 1, 1, 1, 4, 1, 64, true, f16},
        // S = 17: a partial tile; GQA (H = 8, H_kv = 2).
        {chip, 2, 17, 17, 8, 2, 128, true, bf},
        {chip, 1, 17, 17, 2, 2, 64, false, f16},
        // S = 128: MQA and GQA.
        {chip, 1, 128, 128, 4, 1, 128, true, f16},
        {chip, 1, 128, 128, 8, 2, 64, false, bf},
        // S = 384, 512, 1024: the fast path on gfx950 for D = 128.
        {chip, 1, 384, 384, 2, 2, 128, true, bf},
        {chip, 1, 384, 384, 2, 1, 128, false, f16},
        {chip, 1, 512, 512, 8, 2, 128, true, bf},
        {chip, 1, 512, 512, 2, 2, 128, false, f16},
        {chip, 1, 512, 512, 1, 1, 64, false, bf},
        {chip, 1, 1024, 1024, 1, 1, 128, true, bf},
        {chip, 1, 1024, 1024, 1, 1, 128, false, f16},
        {chip, 1, 1024, 1024, 2, 1, 64, true, f16},
        // S_q != S_kv: fewer queries (the diagonal at the bottom right),
        // more queries than keys (early queries see no key: O = 0,
        // LSE = -inf), one query against many keys (decoding).
        {chip, 2, 100, 300, 8, 2, 64, true, bf},
        {chip, 1, 300, 77, 2, 1, 128, true, f16},
        {chip, 1, 1, 1024, 8, 1, 128, true, bf},
        // Causal query blocks in pairs, an odd count of them (3 and 5
        // blocks of 256 queries): the middle block has no partner.
        {chip, 1, 700, 700, 2, 1, 128, true, bf},
        {chip, 1, 1100, 1400, 2, 2, 64, true, f16},
        // No LSE output and a scale of the caller's.
        {chip, 1, 384, 1000, 2, 2, 128, false, bf, false, Layout::Packed, 0.05},
        // Views: padded strides and offsets, K and V interleaved; O over Q.
        {chip, 2, 200, 150, 4, 2, 128, true, bf, true, Layout::Strided},
        {chip, 2, 64, 64, 2, 1, 64, false, f16, true, Layout::Strided},
        // Odd strides and offsets everywhere: Q, K, V packed first, O
        // written packed and copied back (kernels/attention/attn_copy.mlir).
        {chip, 2, 77, 130, 4, 2, 128, true, bf, true, Layout::OddStrided},
        {chip, 1, 33, 33, 2, 1, 64, false, f16, true, Layout::OddStrided},
        {chip, 1, 256, 256, 2, 2, 128, true, bf, true, Layout::InPlace},
    };
    all.insert(all.end(), c.begin(), c.end());
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(Attention, AttentionOpTest, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return caseName(info.param); });

TEST(AttentionOpPath, ParametersPerChip) {
  EXPECT_EQ(attentionPath(Chip::gfx950, 128), AttentionPath::Gfx950Fast);
  EXPECT_EQ(attentionPath(Chip::gfx950, 64), AttentionPath::Generic);
  EXPECT_EQ(attentionPath(Chip::gfx942, 128), AttentionPath::Gfx942);
  EXPECT_EQ(attentionPath(Chip::gfx942, 64), AttentionPath::Gfx942);
  auto join = [](const std::vector<std::string> &p) {
    std::string s;
    for (const std::string &x : p) s += (s.empty() ? "" : " ") + x;
    return s;
  };
  EXPECT_EQ(join(attentionParams(Chip::gfx950, DType::bf16, 128, true, true)),
            "DTYPE=bf16 D=128 CAUSAL=1 PAIRS=1 LSE_OUT=1 BN=64 BLOCK=512 STAGGER=1 V_TR=1 "
            "PAD=0 VPAD=0 K_IMAGE=1 V_IMAGE=1 WIDE=1 VR=64 VC=128 VROWS=8 ROLES=1 INTERIOR=1");
  EXPECT_EQ(join(attentionParams(Chip::gfx950, DType::f16, 64, false, false)),
            "DTYPE=f16 D=64 CAUSAL=0 PAIRS=0 LSE_OUT=0 BN=64 BLOCK=512 STAGGER=1 V_TR=1 "
            "PAD=0 VPAD=0 K_IMAGE=1 V_IMAGE=1 WIDE=1 VR=64 VC=64 VROWS=8 ROLES=1 INTERIOR=1");
  EXPECT_EQ(join(attentionParams(Chip::gfx942, DType::bf16, 128, false, true)),
            "DTYPE=bf16 D=128 CAUSAL=0 PAIRS=0 LSE_OUT=1 BN=32 BLOCK=512 STAGGER=1 V_TR=0 "
            "PAD=4 VPAD=4 VR=128 VC=32 VROWS=8 INTERIOR=1");
  // Rows moved through registers must cover the tile: each of the leading
  // group's waves (all waves without a stagger) moves VROWS rows of V
  // (without V_TR) and, with K_REG, KROWS rows of K.
  auto tiling = [](std::vector<std::string> p) {
    llvm::Error e = checkAttentionTiling(p);
    return e ? llvm::toString(std::move(e)) : std::string("ok");
  };
  EXPECT_EQ(tiling(attentionParams(Chip::gfx942, DType::bf16, 128, false, true)), "ok");
  EXPECT_EQ(tiling(attentionParams(Chip::gfx942, DType::bf16, 64, true, true)), "ok");
  EXPECT_EQ(tiling(attentionFp8Params(Chip::gfx942, DType::e4m3fnuz, DType::bf16, 128, true,
                                      false)),
            "ok");
  EXPECT_EQ(tiling(attentionParams(Chip::gfx950, DType::bf16, 128, false, true)), "ok");
  EXPECT_EQ(tiling(attentionFp8Params(Chip::gfx942, DType::e4m3fnuz, DType::bf16, 128, false,
                                      false, {"VROWS=8"})),
            "attention: VROWS=8 rows for each of the 4 waves that move a tile do not cover "
            "BN=64 keys; give VROWS=16 (BN / the moving waves)");
  EXPECT_EQ(tiling(attentionParams(Chip::gfx942, DType::bf16, 128, false, true, {"STAGGER=0"})),
            "attention: VROWS=8 rows for each of the 8 waves that move a tile do not cover "
            "BN=32 keys; give VROWS=4 (BN / the moving waves)");
  EXPECT_EQ(tiling(attentionParams(Chip::gfx942, DType::bf16, 64, false, true, {"KROWS=8"})),
            "attention: KROWS=8 rows for each of the 4 waves that move a tile do not cover "
            "BN=64 keys; give KROWS=16 (BN / the moving waves)");
  EXPECT_EQ(join(attentionParams(Chip::gfx942, DType::bf16, 64, false, true, {"PAD=4"})),
            "DTYPE=bf16 D=64 CAUSAL=0 PAIRS=0 LSE_OUT=1 BN=64 BLOCK=512 STAGGER=1 V_TR=0 "
            "VPAD=4 VR=64 VC=64 VROWS=16 K_REG=1 KROWS=16 INTERIOR=1 PAD=4");
}

//===----------------------------------------------------------------------===//
// Bad arguments
//===----------------------------------------------------------------------===//

/// Valid operands (B = 1, S_q = 16, S_kv = 32, H = 4, H_kv = 2, D = 64,
/// bf16) on emulated gfx950, which each case breaks in one way.
struct BadArgs : public ::testing::Test {
  Device &dev = emuDevice(Chip::gfx950);
  Buffer bq = llvm::cantFail(Buffer::allocate(dev, 16 * 4 * 64 * 2));
  Buffer bk = llvm::cantFail(Buffer::allocate(dev, 32 * 2 * 64 * 2));
  Buffer bv = llvm::cantFail(Buffer::allocate(dev, 32 * 2 * 64 * 2));
  Buffer bo = llvm::cantFail(Buffer::allocate(dev, 16 * 4 * 64 * 2));
  Buffer bl = llvm::cantFail(Buffer::allocate(dev, 4 * 16 * 4));
  AttentionTensorRef q{bq, DType::bf16, 1, 16, 4, 64}, k{bk, DType::bf16, 1, 32, 2, 64},
      v{bv, DType::bf16, 1, 32, 2, 64}, o{bo, DType::bf16, 1, 16, 4, 64};
  AttentionOptions options;

  std::string message() {
    options.jit = Shared::get().jit.get();
    auto r = attention_forward(q, k, v, o, options);
    if (r)
      return "(no error)";
    return llvm::toString(r.takeError());
  }
};

TEST_F(BadArgs, ValidOperandsRun) {
  options.lse = VectorRef(bl, DType::f32, 64);
  EXPECT_EQ(message(), "(no error)");
}

TEST_F(BadArgs, MissingBuffers) {
  q.buffer = nullptr;
  EXPECT_EQ(message(), "attention: Q has no buffer");
  q.buffer = &bq;
  v.buffer = nullptr;
  EXPECT_EQ(message(), "attention: V has no buffer");
  v.buffer = &bv;
  options.lse = VectorRef();
  EXPECT_EQ(message(), "attention: LSE has no buffer");
}

TEST_F(BadArgs, Devices) {
  Device &other = emuDevice(Chip::gfx942);
  Buffer elsewhere = llvm::cantFail(Buffer::allocate(other, 32 * 2 * 64 * 2));
  k.buffer = &elsewhere;
  EXPECT_EQ(message(), "attention: K is on emu:gfx942 but Q is on emu:gfx950; all "
                       "operands must be on one device");
  k.buffer = &bk;
  options.lse = VectorRef(elsewhere, DType::f32, 64);
  EXPECT_EQ(message(), "attention: LSE is on emu:gfx942 but Q is on emu:gfx950; all "
                       "operands must be on one device");
}

TEST_F(BadArgs, DTypes) {
  q.dtype = k.dtype = v.dtype = o.dtype = DType::f32;
  EXPECT_EQ(message(), "attention: Q is f32; Q, K, V must be bf16, f16 or the chip's FP8 "
                       "e4m3 (e4m3fn on gfx950, e4m3fnuz on gfx942)");
  q.dtype = k.dtype = v.dtype = o.dtype = DType::bf16;
  v.dtype = DType::f16;
  EXPECT_EQ(message(), "attention: V is f16 but Q is bf16; Q, K, V and O must have "
                       "one dtype");
  v.dtype = DType::bf16;
  o.dtype = DType::f32;
  EXPECT_EQ(message(), "attention: O is f32 but Q is bf16; Q, K, V and O must have "
                       "one dtype");
  o.dtype = DType::bf16;
  options.lse = VectorRef(bl, DType::bf16, 64);
  EXPECT_EQ(message(), "attention: LSE is bf16; it must be f32");
}

TEST_F(BadArgs, Shapes) {
  q.seq = o.seq = 0;
  EXPECT_EQ(message(), "attention: Q is [1, 0, 4, 64] ([B, S, H, D]); every dimension "
                       "must be at least 1");
  q.seq = o.seq = 16;
  k.seq = v.seq = 0;
  EXPECT_EQ(message(), "attention: K is [1, 0, 2, 64] ([B, S, H, D]); every dimension "
                       "must be at least 1");
  k.seq = v.seq = 32;
  q.headDim = k.headDim = v.headDim = o.headDim = 96;
  EXPECT_EQ(message(), "attention: head size D = 96 is not supported; the kernel has "
                       "D = 64 and D = 128");
  q.headDim = k.headDim = v.headDim = o.headDim = 64;
  k.headDim = 128;
  EXPECT_EQ(message(), "attention: K is [1, 32, 2, 128] but Q is [1, 16, 4, 64]; K "
                       "needs Q's batch and head size");
  k.headDim = 64;
  k.batch = 2;
  EXPECT_EQ(message(), "attention: K is [2, 32, 2, 64] but Q is [1, 16, 4, 64]; K "
                       "needs Q's batch and head size");
  k.batch = 1;
  v.seq = 31;
  EXPECT_EQ(message(), "attention: V is [1, 31, 2, 64] but K is [1, 32, 2, 64]; V must "
                       "have K's shape");
  v.seq = 32;
  v.heads = 1;
  EXPECT_EQ(message(), "attention: V is [1, 32, 1, 64] but K is [1, 32, 2, 64]; V must "
                       "have K's shape");
  v.heads = 2;
  o.seq = 17;
  EXPECT_EQ(message(), "attention: O is [1, 17, 4, 64]; expected Q's shape [1, 16, 4, 64]");
  o.seq = 16;
  k.heads = v.heads = 3;
  EXPECT_EQ(message(), "attention: H = 4 query heads is not a multiple of H_kv = 3 "
                       "key/value heads");
  k.heads = v.heads = 8;
  EXPECT_EQ(message(), "attention: H = 4 query heads is not a multiple of H_kv = 8 "
                       "key/value heads");
}

TEST_F(BadArgs, Strides) {
  q = q.withStrides(0, -256, 0);
  EXPECT_EQ(message(), "attention: Q's token stride -256 is negative; strides must be "
                       "at least 0");
  q = q.withStrides(0, 0, 0);
  v = v.withOffset(-2);
  EXPECT_EQ(message(), "attention: V's offset -2 is negative");
  v = v.withOffset(0);
  // Heads 64 apart but tokens only 128: token 1 is heads 2 and 3 of token 0.
  o = o.withStrides(0, 128, 64);
  EXPECT_EQ(message(), "attention: O's strides (batch 2048, token 128, head 64) make "
                       "elements overlap; every output element needs its own address");
  o = o.withStrides(0, 0, 32);
  EXPECT_EQ(message(), "attention: O's strides (batch 2048, token 128, head 32) make "
                       "elements overlap; every output element needs its own address");
  o = o.withStrides(0, 0, 0);
  q = q.withStrides(0, int64_t(1) << 32, 0);
  EXPECT_EQ(message(), "attention: Q's token stride 4294967296 exceeds the kernel's "
                       "32-bit offsets (at most 2147483647)");
  q = q.withStrides(0, 0, 0);
  q.batch = k.batch = v.batch = o.batch = 3000;
  q = q.withStrides(1 << 20, 0, 0);
  EXPECT_EQ(message(), "attention: Q ([3000, 16, 4, 64], batch 1048576, token 256, head "
                       "64, offset 0) reaches element 3144683519; the kernel's 32-bit "
                       "offsets reach at most 2147483647");
}

TEST_F(BadArgs, BufferSizes) {
  q = q.withStrides(0, 258, 64);
  EXPECT_EQ(message(), "attention: Q ([1, 16, 4, 64], batch 4128, token 258, head 64, "
                       "offset 0, bf16) needs 8252 bytes; its buffer has 8192");
  q = q.withStrides(0, 0, 0);
  v = v.withOffset(2);
  EXPECT_EQ(message(), "attention: V ([1, 32, 2, 64], batch 4096, token 128, head 64, "
                       "offset 2, bf16) needs 8196 bytes; its buffer has 8192");
  v = v.withOffset(0);
  options.lse = VectorRef(bl, DType::f32, 63);
  EXPECT_EQ(message(), "attention: LSE has 63 elements; expected B * H * S_q = 64");
  Buffer small = llvm::cantFail(Buffer::allocate(dev, 200));
  options.lse = VectorRef(small, DType::f32, 64);
  EXPECT_EQ(message(), "attention: LSE (64 f32) needs 256 bytes; its buffer has 200");
}

TEST_F(BadArgs, Aliasing) {
  // O over K: other workgroups still read K.
  Buffer kvo = llvm::cantFail(Buffer::allocate(dev, 3 * 8192));
  k.buffer = v.buffer = o.buffer = &kvo;
  v = v.withOffset(4096);
  o = o.withOffset(2048);
  EXPECT_EQ(message(), "attention: O overlaps K in their buffer; the kernel reads K "
                       "while it writes O (only O = Q, the same view, may share memory)");
  // Side by side in one buffer is fine.
  o = o.withOffset(8192);
  options.lse = VectorRef(bl, DType::f32, 64);
  EXPECT_EQ(message(), "(no error)");
  // O over Q, shifted by a head: not the same view.
  k.buffer = &bk;
  v.buffer = &bv;
  v = v.withOffset(0);
  Buffer qo = llvm::cantFail(Buffer::allocate(dev, 3 * 8192));
  q.buffer = o.buffer = &qo;
  o = o.withOffset(64);
  EXPECT_EQ(message(), "attention: O overlaps Q in their buffer; the kernel reads Q "
                       "while it writes O (only O = Q, the same view, may share memory)");
  o.buffer = &bo;
  o = o.withOffset(0);
  options.lse = VectorRef(bk, DType::f32, 64);
  EXPECT_EQ(message(), "attention: LSE overlaps K in their buffer; it needs memory of "
                       "its own");
}

TEST_F(BadArgs, Scale) {
  options.scale = -0.125;
  EXPECT_EQ(message(), "attention: scale = -0.125 must be positive and finite (the "
                       "kernel's running maximum assumes larger scores weigh more)");
  options.scale = std::nan("");
  EXPECT_EQ(message(), "attention: scale = nan must be positive and finite (the "
                       "kernel's running maximum assumes larger scores weigh more)");
}

TEST_F(BadArgs, GridLimits) {
  Buffer big = llvm::cantFail(Buffer::allocate(dev, 70000 * 64 * 2));
  q = AttentionTensorRef(big, DType::bf16, 1, 1, 70000, 64);
  o = AttentionTensorRef(bo, DType::bf16, 1, 1, 70000, 64);
  k = AttentionTensorRef(bk, DType::bf16, 1, 32, 1, 64);
  v = AttentionTensorRef(bv, DType::bf16, 1, 32, 1, 64);
  EXPECT_EQ(message(), "attention: B = 1, H = 70000: the launch grid has B and H as "
                       "dimensions of at most 65535");
}

} // namespace
