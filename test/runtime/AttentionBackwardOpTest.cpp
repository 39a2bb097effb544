//===- AttentionBackwardOpTest.cpp - kcc::ops::attention_backward ---------===//
//
// Random bf16/f16 Q, K, V and dO through the forward op (for O and LSE, as
// training runs it) and then the backward op on emulated gfx942 and gfx950;
// every element of dQ, dK and dV against a float64 reference that
// recomputes P, O and Delta exactly from the rounded inputs. Causal and
// not, S_q != S_kv both ways (queries that see no key), tails (S not a
// multiple of any tile, S = 1), MHA, GQA and MQA, D = 64 and 128, both
// dtypes, padded and odd strides (the op packs those). Then the argument
// checks with their exact messages.
//
// The bound: a gradient element's error over the reference tensor's largest
// magnitude. The kernels round P and dS to the input type before their
// products (as every FlashAttention backward does), which costs bf16 about
// 5e-3 of the largest element, f16 about 6e-4 (bounds: 1.5e-2, 2.5e-3); a wrong layout, mask or
// scale costs the order of 1.
//
//===----------------------------------------------------------------------===//
#include "kernels/attention/AttentionBackwardOp.h"
#include "runtime/Jit.h"
#include "runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

using namespace kcc;
using namespace kcc::ops;

namespace {

enum class Layout { Packed, Strided, OddStrided };

struct Case {
  Chip chip;
  int B, Sq, Skv, H, Hkv, D;
  bool causal = false;
  DType dtype = DType::bf16;
  Layout layout = Layout::Packed;
};

std::string caseName(const Case &c) {
  std::string s = getChipInfo(c.chip).name.str() + "_B" + std::to_string(c.B) + "_Sq" +
                  std::to_string(c.Sq) + "_Skv" + std::to_string(c.Skv) + "_H" +
                  std::to_string(c.H) + "_Hkv" + std::to_string(c.Hkv) + "_D" +
                  std::to_string(c.D) + "_" + dtypeName(c.dtype).str();
  if (c.causal) s += "_causal";
  if (c.layout == Layout::Strided) s += "_strided";
  if (c.layout == Layout::OddStrided) s += "_oddstrided";
  return s;
}

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

/// One tensor in its own device buffer: a packed or strided view, the
/// padding filled with NaN so that a read of it shows in the result and a
/// write to it is caught.
struct DeviceTensor {
  AttentionTensorRef ref;
  std::optional<Buffer> buffer;
  std::vector<uint16_t> image;
  uint16_t nan;

  int64_t address(int64_t b, int64_t s, int64_t h) const {
    return ref.offset + b * ref.batchStrideOrPacked() + s * ref.tokenStrideOrPacked() +
           h * ref.headStrideOrPacked();
  }
  void create(Device &dev, const Case &c, int S, int H, int salt,
              const std::vector<uint16_t> &packed) {
    bool bf = c.dtype == DType::bf16;
    nan = bf ? 0x7fc0 : 0x7e00;
    ref.dtype = c.dtype;
    ref.batch = c.B;
    ref.seq = S;
    ref.heads = H;
    ref.headDim = c.D;
    size_t elems = size_t(c.B) * S * H * c.D;
    if (c.layout != Layout::Packed) {
      int odd = c.layout == Layout::OddStrided ? 1 : 0;
      int64_t hs = c.D + 8 + odd + 2 * salt, ts = H * hs + 16 + odd, bs = S * ts + 32;
      ref = ref.withStrides(bs, ts, hs).withOffset(8 * salt + odd);
      elems = size_t(ref.offset + c.B * bs);
    }
    image.assign(elems, nan);
    for (int64_t b = 0; b < c.B; ++b)
      for (int64_t s = 0; s < S; ++s)
        for (int64_t h = 0; h < H; ++h)
          for (int64_t e = 0; e < c.D; ++e)
            image[size_t(address(b, s, h) + e)] =
                packed.empty() ? nan : packed[size_t(((b * S + s) * H + h) * c.D + e)];
    buffer.emplace(llvm::cantFail(Buffer::fromHost(dev, image)));
    ref.buffer = &*buffer;
  }
  /// The packed values, after the device wrote them; false if a padding
  /// element changed.
  bool read(std::vector<uint16_t> &packed) const {
    std::vector<uint16_t> got = llvm::cantFail(buffer->toHost<uint16_t>());
    std::vector<bool> inView(got.size(), false);
    packed.assign(size_t(ref.batch * ref.seq * ref.heads * ref.headDim), 0);
    for (int64_t b = 0; b < ref.batch; ++b)
      for (int64_t s = 0; s < ref.seq; ++s)
        for (int64_t h = 0; h < ref.heads; ++h)
          for (int64_t e = 0; e < ref.headDim; ++e) {
            size_t at = size_t(address(b, s, h) + e);
            inView[at] = true;
            packed[size_t(((b * ref.seq + s) * ref.heads + h) * ref.headDim + e)] = got[at];
          }
    for (size_t i = 0; i < got.size(); ++i)
      if (!inView[i] && got[i] != image[i])
        return false;
    return true;
  }
};

class AttentionBackwardOpTest : public ::testing::TestWithParam<Case> {};

TEST_P(AttentionBackwardOpTest, MatchesFloat64Reference) {
  const Case &c = GetParam();
  Device &dev = emuDevice(c.chip);
  bool bf = c.dtype == DType::bf16;
  auto quantise = [&](float x) { return bf ? floatToBf16(x) : floatToF16(x); };
  auto value = [&](uint16_t h) { return double(bf ? bf16ToFloat(h) : f16ToFloat(h)); };
  std::mt19937 rng(c.Sq * 31 + c.Skv * 7 + c.D + c.H * 3 + int(c.causal) + int(c.layout));
  std::normal_distribution<float> normal;
  size_t nq = size_t(c.B) * c.Sq * c.H * c.D, nk = size_t(c.B) * c.Skv * c.Hkv * c.D;
  std::vector<uint16_t> q(nq), k(nk), v(nk), dO(nq);
  for (auto *t : {&q, &k, &v, &dO})
    for (auto &x : *t)
      x = quantise(normal(rng));

  DeviceTensor tq, tk, tv, to, tdo, tdq, tdk, tdv;
  tq.create(dev, c, c.Sq, c.H, 0, q);
  tk.create(dev, c, c.Skv, c.Hkv, 1, k);
  tv.create(dev, c, c.Skv, c.Hkv, 2, v);
  to.create(dev, c, c.Sq, c.H, 3, {});
  tdo.create(dev, c, c.Sq, c.H, 4, dO);
  tdq.create(dev, c, c.Sq, c.H, 5, {});
  tdk.create(dev, c, c.Skv, c.Hkv, 6, {});
  tdv.create(dev, c, c.Skv, c.Hkv, 7, {});
  // The outputs (O, the gradients) start as NaN: every element of their
  // views must be written.
  int64_t rows = int64_t(c.B) * c.H * c.Sq;
  Buffer lse = llvm::cantFail(Buffer::allocate(dev, size_t(rows) * 4));

  AttentionOptions fo;
  fo.causal = c.causal;
  fo.jit = Shared::get().jit.get();
  fo.lse = VectorRef(lse, DType::f32, rows);
  auto fwd = attention_forward(tq.ref, tk.ref, tv.ref, to.ref, fo);
  ASSERT_TRUE(bool(fwd)) << llvm::toString(fwd.takeError());

  AttentionBackwardOptions bo;
  bo.causal = c.causal;
  bo.jit = Shared::get().jit.get();
  auto run = attention_backward(tq.ref, tk.ref, tv.ref, to.ref, tdo.ref,
                                VectorRef(lse, DType::f32, rows), tdq.ref, tdk.ref, tdv.ref, bo);
  ASSERT_TRUE(bool(run)) << llvm::toString(run.takeError());

  std::vector<double> qd(nq), kd(nk), vd(nk), dod(nq), rdq, rdk, rdv;
  for (size_t i = 0; i < nq; ++i) qd[i] = value(q[i]), dod[i] = value(dO[i]);
  for (size_t i = 0; i < nk; ++i) kd[i] = value(k[i]), vd[i] = value(v[i]);
  AttentionShape s{c.B, c.Sq, c.Skv, c.H, c.Hkv, c.D};
  attentionBackwardReference(s, qd, kd, vd, dod, c.causal, 1.0 / std::sqrt(double(c.D)), rdq,
                             rdk, rdv);

  double tol = bf ? 1.5e-2 : 2.5e-3;
  struct Grad {
    const char *name;
    DeviceTensor *t;
    std::vector<double> *ref;
  } grads[] = {{"dQ", &tdq, &rdq}, {"dK", &tdk, &rdk}, {"dV", &tdv, &rdv}};
  for (const Grad &g : grads) {
    std::vector<uint16_t> got;
    EXPECT_TRUE(g.t->read(got)) << g.name << "'s padding was overwritten";
    double scaleRef = 0.1; // a floor: with one key, dQ and dK are exactly 0
    for (double r : *g.ref)
      scaleRef = std::max(scaleRef, std::fabs(r));
    double worst = 0;
    int bad = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      double err = std::fabs(value(got[i]) - (*g.ref)[i]) / scaleRef;
      if (!(err <= tol)) {
        if (++bad <= 3)
          ADD_FAILURE() << g.name << " element " << i << " = " << value(got[i])
                        << ", reference " << (*g.ref)[i] << " (largest |reference| "
                        << scaleRef << ")";
        worst = std::isnan(err) ? INFINITY : std::max(worst, err);
      } else {
        worst = std::max(worst, err);
      }
    }
    EXPECT_EQ(bad, 0) << g.name;
    std::printf("  %s: max error %.3g of the largest |reference| %.3g\n", g.name, worst,
                scaleRef);
  }
}

std::vector<Case> cases() {
  const DType bf = DType::bf16, f16 = DType::f16;
  std::vector<Case> all;
  for (Chip chip : {Chip::gfx950, Chip::gfx942}) {
    std::vector<Case> c = {
        {chip, 1, 1, 1, 2, 1, 128, false, bf},
        {chip, 1, 17, 17, 2, 2, 64, true, f16},
        {chip, 2, 77, 130, 4, 2, 128, true, bf},
        {chip, 1, 150, 70, 4, 1, 64, true, bf},
        {chip, 1, 200, 200, 2, 1, 128, false, f16},
        {chip, 1, 64, 96, 8, 2, 128, true, bf, Layout::Strided},
        {chip, 1, 33, 45, 2, 1, 64, false, f16, Layout::OddStrided},
        // Decoding: one query against many keys; more queries than keys,
        // not causal; MQA with 8 query heads per key/value head.
        {chip, 1, 1, 300, 4, 2, 128, true, bf},
        {chip, 1, 100, 40, 2, 2, 128, false, bf},
        {chip, 1, 96, 160, 8, 1, 64, true, f16},
    };
    all.insert(all.end(), c.begin(), c.end());
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(AttentionBackward, AttentionBackwardOpTest, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return caseName(info.param); });

} // namespace

namespace {

/// The argument checks, each with its exact message.
TEST(AttentionBackwardOpChecks, Messages) {
  Device &dev = emuDevice(Chip::gfx950);
  auto buffer = [&](size_t bytes) { return llvm::cantFail(Buffer::allocate(dev, bytes)); };
  Buffer bq = buffer(2 * 64 * 2 * 128 * 2), bk = buffer(2 * 32 * 128 * 2),
         bv = buffer(2 * 32 * 128 * 2), bo = buffer(2 * 64 * 2 * 128 * 2),
         bdo = buffer(2 * 64 * 2 * 128 * 2), bdq = buffer(2 * 64 * 2 * 128 * 2),
         bdk = buffer(2 * 32 * 128 * 2), bdv = buffer(2 * 32 * 128 * 2), blse = buffer(2 * 64 * 2 * 4);
  AttentionTensorRef q(bq, DType::bf16, 2, 64, 2, 128), k(bk, DType::bf16, 2, 32, 1, 128),
      v(bv, DType::bf16, 2, 32, 1, 128), o(bo, DType::bf16, 2, 64, 2, 128),
      dO(bdo, DType::bf16, 2, 64, 2, 128), dq(bdq, DType::bf16, 2, 64, 2, 128),
      dk(bdk, DType::bf16, 2, 32, 1, 128), dv(bdv, DType::bf16, 2, 32, 1, 128);
  VectorRef lse(blse, DType::f32, 2 * 2 * 64);
  auto message = [&](AttentionTensorRef q2, AttentionTensorRef k2, AttentionTensorRef v2,
                     AttentionTensorRef dO2, AttentionTensorRef dq2, AttentionTensorRef dk2,
                     VectorRef lse2, AttentionBackwardOptions options = {}) {
    llvm::Error e = checkAttentionBackward(q2, k2, v2, o, dO2, lse2, dq2, dk2, dv, options);
    return e ? llvm::toString(std::move(e)) : std::string("success");
  };
  EXPECT_EQ(message(q, k, v, dO, dq, dk, lse), "success");
  AttentionTensorRef f16q = q;
  f16q.dtype = DType::f16;
  EXPECT_EQ(message(f16q, k, v, dO, dq, dk, lse),
            "attention_backward: K is bf16 but Q is f16; all tensors must have one dtype");
  AttentionTensorRef shortDo = dO;
  shortDo.seq = 63;
  EXPECT_EQ(message(q, k, v, shortDo, dq, dk, lse),
            "attention_backward: dO is [2, 63, 2, 128]; expected Q's shape [2, 64, 2, 128]");
  AttentionTensorRef wideDk = dk;
  wideDk.heads = 2;
  EXPECT_EQ(message(q, k, v, dO, dq, wideDk, lse),
            "attention_backward: dK is [2, 32, 2, 128]; expected K's shape [2, 32, 1, 128]");
  AttentionTensorRef dqOnDo = dO;
  EXPECT_EQ(message(q, k, v, dO, dqOnDo, dk, lse),
            "attention_backward: dQ overlaps dO in their buffer; each gradient needs memory "
            "of its own");
  AttentionTensorRef dkOnK = k;
  EXPECT_EQ(message(q, k, v, dO, dq, dkOnK, lse),
            "attention_backward: dK overlaps K in their buffer; each gradient needs memory "
            "of its own");
  EXPECT_EQ(message(q, k, v, dO, dq, dk, VectorRef(blse, DType::f32, 100)),
            "attention_backward: LSE has 100 elements; expected B * H * S_q = 256 (the "
            "forward's log-sum-exp)");
  EXPECT_EQ(message(q, k, v, dO, dq, dk, VectorRef(blse, DType::bf16, 256)),
            "attention_backward: LSE is bf16; it must be f32");
  AttentionTensorRef q96 = q, o96 = o;
  q96.headDim = 96;
  EXPECT_EQ(message(q96, k, v, dO, dq, dk, lse),
            "attention_backward: head size D = 96 is not supported; the kernels have D = 64 "
            "and D = 128");
  // H not a multiple of H_kv (the shapes otherwise consistent).
  AttentionTensorRef q3 = q, o3 = o, do3 = dO, dq3 = dq, k2 = k, v2 = v, dk2 = dk, dv2 = dv;
  q3.heads = o3.heads = do3.heads = dq3.heads = 3;
  k2.heads = v2.heads = dk2.heads = dv2.heads = 2;
  llvm::Error heads = checkAttentionBackward(q3, k2, v2, o3, do3, lse, dq3, dk2, dv2);
  EXPECT_EQ(llvm::toString(std::move(heads)),
            "attention_backward: H = 3 query heads is not a multiple of H_kv = 2 key/value "
            "heads");
  AttentionBackwardOptions bad;
  bad.scale = -1.0;
  EXPECT_EQ(message(q, k, v, dO, dq, dk, lse, bad),
            "attention_backward: scale = -1 must be positive and finite");
  AttentionTensorRef bigDq = dq;
  bigDq.seq = 64;
  bigDq = bigDq.withOffset(1);
  EXPECT_EQ(message(q, k, v, dO, bigDq, dk, lse),
            "attention_backward: dQ ([2, 64, 2, 128], batch 16384, token 256, head 128, offset "
            "1, bf16) needs 65538 bytes; its buffer has 65536");
}

} // namespace
