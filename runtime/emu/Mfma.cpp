//===- Mfma.cpp - Matrix fused multiply-add (MFMA) ------------------------===//
//
// D = A x B + C per block, with the register layouts of the CDNA3/CDNA4 ISA
// guides ("Dependent Matrix Fused Multiply-Add" and AMD's matrix instruction
// calculator):
//  - A (M x K): lane l holds row i = l % M; lane group g = l / M holds
//    k = g * kPerLane + j (one block) or block g, k = j (64 / M blocks);
//  - B (K x N): the same with column j = l % N;
//  - C/D (M >= 16): column j = l % N, row i = (r / 4) * 4 * (64 / N) +
//    (l / N) * 4 + r % 4 within a block, blocks in consecutive register
//    groups; 4x4 blocks: i = r, j = l % 4, block = l / 4.
// Products are exact in f32 for 16-bit inputs; they are summed in order of k
// with fused multiply-adds into the f32 accumulator, as hardware does.
// CBSZ/ABID broadcast A between blocks; BLGP permutes B's lane groups.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Exec.h"
#include "runtime/emu/MfmaKernels.h"
#include "runtime/emu/Ops.h"

#include <array>
#include <cmath>
#include <vector>

namespace kcc::emu {
namespace {

enum class In : uint8_t { F32, F16, BF16, I8, FP8, BF8, XF32, F64 };

struct Shape {
  int m, n, k, blocks;
  In in;
  bool intOut;
  In inB = In::F32; // B's type when it differs from A's (fp8 x bf8)
  bool f64 = false; // f64 in, f64 accumulate
};

int perReg(In t) {
  return t == In::F32 || t == In::XF32 ? 1 : t == In::F16 || t == In::BF16 ? 2 : 4;
}

/// 8-bit floats: gfx942 uses the FNUZ variants (bias 8 / 16, no infinities,
/// 0x80 is the only NaN); gfx950 the OCP ones (e4m3fn: bias 7, S.1111.111 is
/// NaN, no infinities; e5m2: bias 15, IEEE-like infinities and NaNs).
float minifloat(uint8_t bits, bool e5m2, bool ocp) {
  int expBits = e5m2 ? 5 : 4, manBits = e5m2 ? 2 : 3;
  int bias = ocp ? (e5m2 ? 15 : 7) : (e5m2 ? 16 : 8);
  unsigned sign = bits >> 7, e = (bits >> manBits) & ((1u << expBits) - 1),
           mant = bits & ((1u << manBits) - 1);
  if (!ocp && bits == 0x80)
    return NAN;
  if (ocp && !e5m2 && e == 15 && mant == 7)
    return NAN;
  if (ocp && e5m2 && e == 31)
    return mant ? NAN : (sign ? -INFINITY : INFINITY);
  float v = e == 0 ? std::ldexp(float(mant), 1 - bias - manBits)
                   : std::ldexp(float(mant | (1u << manBits)), int(e) - bias - manBits);
  return sign ? -v : v;
}

/// xf32: the input keeps a 10-bit mantissa (rounded to nearest even).
float toXf32(float x) {
  uint32_t u = asU(x);
  if (std::isnan(x) || std::isinf(x))
    return x;
  u += 0xfff + ((u >> 13) & 1);
  return asF(u & ~0x1fffu);
}

/// v_mfma_f64_16x16x4_f64: A and B hold one f64 per lane (k = lane / 16),
/// D holds four f64 per lane at row lane / 16 + 4 * r, column lane % 16.
void mfmaF64(Wave &w, const Inst &in) {
  if (in.nctrl > 2 && (in.ctrl[0] || in.ctrl[1] || in.ctrl[2])) {
    w.fault("f64 MFMA with cbsz/abid/blgp is not modelled");
    return;
  }
  double A[16][4], B[4][16], C[16][16];
  alignas(64) uint32_t lo[kLanes], hi[kLanes];
  for (int s = 0; s < 2; ++s) {
    const uint32_t *pl = lanes(w, in.src[s], lo, 0), *ph = lanes(w, in.src[s], hi, 1);
    for (int l = 0; l < kLanes; ++l) {
      double x = asD(uint64_t(pl[l]) | (uint64_t(ph[l]) << 32));
      if (s == 0) A[l % 16][l / 16] = x;
      else B[l / 16][l % 16] = x;
    }
  }
  for (int r = 0; r < 4; ++r) {
    const uint32_t *pl = lanes(w, in.src[2], lo, in.src[2].kind == OpndKind::Vgpr ? 2 * r : 0);
    const uint32_t *ph = lanes(w, in.src[2], hi, in.src[2].kind == OpndKind::Vgpr ? 2 * r + 1 : 1);
    for (int l = 0; l < kLanes; ++l)
      C[l / 16 + 4 * r][l % 16] = asD(uint64_t(pl[l]) | (uint64_t(ph[l]) << 32));
  }
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      for (int k = 0; k < 4; ++k)
        C[i][j] = std::fma(A[i][k], B[k][j], C[i][j]);
  for (int r = 0; r < 4; ++r) {
    uint32_t *dl = w.row(in.dst[0].reg + 2 * r), *dh = w.row(in.dst[0].reg + 2 * r + 1);
    for (int l = 0; l < kLanes; ++l) {
      uint64_t x = asU64(C[l / 16 + 4 * r][l % 16]);
      dl[l] = uint32_t(x);
      dh[l] = uint32_t(x >> 32);
    }
  }
}
/// v_mfma_f64_4x4x4_4b_f64: four 4x4x4 blocks, one f64 per lane of A, B and
/// D. A holds row l % 4 of block (l / 4) % 4 at k = l / 16 (B likewise by
/// column): the blocks lie inside the k groups, unlike the f32 4x4 shapes.
/// D holds row l / 16, column l % 4 of block (l / 4) % 4 (AMD's matrix
/// instruction calculator, CDNA3). Products are summed in k order with fused
/// multiply-adds.
void mfmaF64x4(Wave &w, const Inst &in) {
  if (in.nctrl > 2 && (in.ctrl[0] || in.ctrl[1] || in.ctrl[2])) {
    w.fault("f64 MFMA with cbsz/abid/blgp is not modelled");
    return;
  }
  double A[4][4][4], B[4][4][4]; // [block][row or column][k]
  alignas(64) uint32_t lo[kLanes], hi[kLanes];
  for (int s = 0; s < 2; ++s) {
    const uint32_t *pl = lanes(w, in.src[s], lo, 0), *ph = lanes(w, in.src[s], hi, 1);
    for (int l = 0; l < kLanes; ++l) {
      double x = asD(uint64_t(pl[l]) | (uint64_t(ph[l]) << 32));
      (s == 0 ? A : B)[(l / 4) % 4][l % 4][l / 16] = x;
    }
  }
  const uint32_t *cl = lanes(w, in.src[2], lo, 0), *ch = lanes(w, in.src[2], hi, 1);
  double D[kLanes];
  for (int l = 0; l < kLanes; ++l) {
    int b = (l / 4) % 4, i = l / 16, j = l % 4;
    double acc = asD(uint64_t(cl[l]) | (uint64_t(ch[l]) << 32));
    for (int k = 0; k < 4; ++k)
      acc = std::fma(A[b][i][k], B[b][j][k], acc);
    D[l] = acc;
  }
  uint32_t *dl = w.row(in.dst[0].reg), *dh = w.row(in.dst[0].reg + 1);
  for (int l = 0; l < kLanes; ++l) {
    uint64_t x = asU64(D[l]);
    dl[l] = uint32_t(x);
    dh[l] = uint32_t(x >> 32);
  }
}

/// Element conversions of one lane group's words (sub-element `sub` of each
/// word) into floats, written so that the compiler vectorises them.
struct Narrow {
  /// minifloat() of every byte: [e5m2][ocp][bits].
  std::array<std::array<std::array<float, 256>, 2>, 2> f8;
  Narrow() {
    for (int e5 = 0; e5 < 2; ++e5)
      for (int ocp = 0; ocp < 2; ++ocp)
        for (int b = 0; b < 256; ++b)
          f8[e5][ocp][b] = minifloat(uint8_t(b), e5, ocp);
  }
};
const Narrow &narrow() {
  static const Narrow tables;
  return tables;
}

/// f16ToFloat without branches or subnormal arithmetic (a subnormal input
/// is an integer times 2^-24, computed in normal floats, so the host's
/// flush-to-zero modes cannot touch it): the same bits as f16ToFloat.
inline uint32_t f16Bits(uint32_t h) {
  uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  uint32_t normal = ((e + 112) << 23) | (m << 13);
  uint32_t sub = asU(float(int32_t(m)) * 0x1p-24f);
  uint32_t special = 0x7f800000u | (m << 13) | (m ? 0x400000u : 0);
  return sign | (e == 0 ? sub : e == 31 ? special : normal);
}

void toFloats(const uint32_t *words, int count, int sub, In t, bool ocp,
              float *out) {
  switch (t) {
  case In::F32:
    std::memcpy(out, words, size_t(count) * 4);
    return;
  case In::XF32:
    for (int l = 0; l < count; ++l)
      out[l] = toXf32(asF(words[l]));
    return;
  case In::BF16:
    if (sub)
      for (int l = 0; l < count; ++l)
        out[l] = asF(words[l] & 0xffff0000u);
    else
      for (int l = 0; l < count; ++l)
        out[l] = asF(words[l] << 16);
    return;
  case In::F16:
    for (int l = 0; l < count; ++l)
      out[l] = asF(f16Bits((words[l] >> (16 * sub)) & 0xffff));
    return;
  case In::FP8:
  case In::BF8: {
    const float *table = narrow().f8[t == In::BF8][ocp].data();
    for (int l = 0; l < count; ++l)
      out[l] = table[(words[l] >> (8 * sub)) & 0xff];
    return;
  }
  default:
    return;
  }
}

void toInts(const uint32_t *words, int count, int sub, int32_t *out) {
  for (int l = 0; l < count; ++l)
    out[l] = int8_t(words[l] >> (8 * sub));
}

int blgpLane(int l, unsigned blgp) {
  switch (blgp & 7) {
  case 1: return l & 31;
  case 2: return (l & 31) + 32;
  case 3: return (l + 16) & 63;
  case 4: return l & 15;
  case 5: return (l & 15) + 16;
  case 6: return (l & 15) + 32;
  case 7: return (l & 15) + 48;
  default: return l;
  }
}

/// Where C/D's register `r`, lanes g * n to g * n + n - 1, start in the
/// row-major [block][i][j] accumulator: those lanes hold one row's n
/// consecutive columns (j = l % n), so registers and matrix exchange
/// whole runs of n values.
uint32_t accRun(const Shape &s, int r, int g) {
  if (s.m == 4) // 4x4 blocks: i = r, block = l / 4
    return (uint32_t(g) * 4 + r) * 4;
  int regsPerBlock = s.m * s.n / 64, rr = r % regsPerBlock, b = r / regsPerBlock;
  int i = (rr / 4) * 4 * (64 / s.n) + g * 4 + rr % 4;
  return (uint32_t(b) * s.m + i) * s.n;
}

/// A shape with the start of every C/D run (accRun), computed once at
/// registration: the divisions would cost an MFMA more than its copies.
struct Prepared {
  const Shape *shape = nullptr;
  std::vector<uint32_t> runs; // [r * (64 / n) + g]
};

/// Copies a run of `n` words: the MFMA shapes' n (4, 16, 32) as fixed
/// sizes the compiler turns into a few vector moves, not a call.
inline void copyRun(uint32_t *dst, const uint32_t *src, int n) {
  switch (n) {
  case 32: std::memcpy(dst, src, 128); return;
  case 16: std::memcpy(dst, src, 64); return;
  case 4: std::memcpy(dst, src, 16); return;
  default: std::memcpy(dst, src, size_t(n) * 4); return;
  }
}

void mfma(Wave &w, const Inst &in) {
  const Prepared &prepared = *static_cast<const Prepared *>(in.aux);
  const Shape &s = *prepared.shape;
  const uint32_t *runs = prepared.runs.data();
  bool ocp = w.dispatch->chip == Chip::gfx950;
  In inB = s.inB == In::F32 ? s.in : s.inB;
  unsigned cbsz = in.nctrl > 0 ? unsigned(in.ctrl[0]) : 0;
  unsigned abid = in.nctrl > 1 ? unsigned(in.ctrl[1]) : 0;
  unsigned blgp = in.nctrl > 2 ? unsigned(in.ctrl[2]) : 0;
  if (s.blocks == 1 && (cbsz || abid)) {
    w.fault("MFMA with cbsz/abid on a single-block shape");
    return;
  }
  int groups = 64 / s.m;                 // lane groups in A and B
  int kPerLane = s.blocks == 1 ? s.k / groups : s.k;
  int pr = perReg(s.in);
  int outRegs = s.m * s.n * s.blocks / 64;
  if (in.dst[0].width < outRegs || in.src[0].width * pr < kPerLane) {
    w.fault("MFMA operand widths do not match its shape");
    return;
  }
  // A is kept k-major (At[b][k][i]) and B row-major (B[b][k][j]): a lane
  // group's register holds one k of m consecutive rows of A, or of n
  // consecutive columns of B, so operands are gathered in runs, and the
  // block product (MfmaKernels.h) reads both with unit stride. The largest
  // shapes need 2048 accumulator and 1024 A or B entries.
  constexpr size_t kMax = 2048;
  alignas(64) static thread_local float A[kMax], B[kMax], C[kMax];
  alignas(64) static thread_local int32_t AI[kMax], BI[kMax], CI[kMax];
  size_t aSize = size_t(s.blocks) * s.m * s.k, bSize = size_t(s.blocks) * s.k * s.n;
  size_t cSize = size_t(s.blocks) * s.m * s.n;
  if (aSize > kMax || bSize > kMax || cSize > kMax) {
    w.fault("MFMA shape exceeds the emulator's operand buffers");
    return;
  }
  alignas(64) uint32_t buf[kLanes], permuted[kLanes];
  int bGroups = 64 / s.n;
  for (int j = 0; j < kPerLane; ++j) {
    const uint32_t *ra = lanes(w, in.src[0], buf, j / pr);
    for (int g = 0; g < groups; ++g) {
      int b = s.blocks == 1 ? 0 : g, k = s.blocks == 1 ? g * kPerLane + j : j;
      size_t at = (size_t(b) * s.k + k) * s.m;
      if (s.intOut) toInts(ra + g * s.m, s.m, j % pr, AI + at);
      else toFloats(ra + g * s.m, s.m, j % pr, s.in, ocp, A + at);
    }
    const uint32_t *rb = lanes(w, in.src[1], buf, j / pr);
    if (blgp) {
      for (int l = 0; l < kLanes; ++l)
        permuted[l] = rb[blgpLane(l, blgp)];
      rb = permuted;
    }
    for (int g = 0; g < bGroups; ++g) {
      int b = s.blocks == 1 ? 0 : g, k = s.blocks == 1 ? g * kPerLane + j : j;
      size_t at = (size_t(b) * s.k + k) * s.n;
      if (s.intOut) toInts(rb + g * s.n, s.n, j % pr, BI + at);
      else toFloats(rb + g * s.n, s.n, j % pr, inB, ocp, B + at);
    }
  }
  // Accumulator words are copied as bits: C as floats or ints alike.
  void *acc = s.intOut ? static_cast<void *>(CI) : static_cast<void *>(C);
  for (int r = 0; r < outRegs; ++r) {
    const uint32_t *rc = lanes(w, in.src[2], buf, in.src[2].kind == OpndKind::Vgpr ? r : 0);
    for (int g = 0; g < bGroups; ++g)
      copyRun(static_cast<uint32_t *>(acc) + runs[r * bGroups + g], rc + g * s.n, s.n);
  }
  // Products of 16- and 8-bit floats are exact in f32 (short of underflow),
  // and are added to the accumulator as they are; f32/xf32 inputs are
  // summed with fused multiply-adds.
  MfmaSum sum = s.in != In::F32 && s.in != In::XF32 ? MfmaSum::MulAdd : MfmaSum::Fma;
  // A NaN in C matters only where a product can be NaN too (an A or B
  // NaN or infinity): otherwise every path returns C's NaN itself.
  bool nanInputs = false;
  if (!s.intOut) {
    // On the bits, so that the loops vectorise (float compares with NaNs
    // do not).
    auto count = [](const float *x, size_t n, uint32_t above) {
      const uint32_t *u = reinterpret_cast<const uint32_t *>(x);
      uint32_t hit = 0;
      for (size_t i = 0; i < n; ++i)
        hit |= uint32_t(int32_t(u[i] & 0x7fffffffu) > int32_t(above));
      return hit != 0;
    };
    constexpr uint32_t kBelowInf = 0x7f7fffffu, kInf = 0x7f800000u;
    if (count(A, aSize, kBelowInf) || count(B, bSize, kBelowInf))
      nanInputs = count(A, aSize, kInf) || count(B, bSize, kInf) ||
                  count(C, cSize, kInf);
  }
  unsigned group = 1u << cbsz;
  for (int b = 0; b < s.blocks; ++b) {
    int ab = s.blocks == 1 ? 0 : int((unsigned(b) & ~(group - 1)) | (abid & (group - 1)));
    if (ab >= s.blocks) ab = b;
    size_t aAt = size_t(ab) * s.k * s.m, bAt = size_t(b) * s.k * s.n,
           cAt = size_t(b) * s.m * s.n;
    if (s.intOut)
      mfmaBlockI32(AI + aAt, BI + bAt, CI + cAt, s.m, s.n, s.k);
    else
      mfmaBlockF32(A + aAt, B + bAt, C + cAt, s.m, s.n, s.k, sum, nanInputs);
  }
  // MFMA ignores EXEC: every lane's accumulator is written.
  for (int r = 0; r < outRegs; ++r) {
    uint32_t *d = w.row(in.dst[0].reg + r);
    for (int g = 0; g < bGroups; ++g)
      copyRun(d + g * s.n, static_cast<const uint32_t *>(acc) + runs[r * bGroups + g], s.n);
  }
}

struct Named {
  const char *name;
  Shape shape;
};
const Named kShapes[] = {
    {"V_MFMA_F32_32X32X1F32", {32, 32, 1, 2, In::F32, false}},
    {"V_MFMA_F32_16X16X1F32", {16, 16, 1, 4, In::F32, false}},
    {"V_MFMA_F32_4X4X1F32", {4, 4, 1, 16, In::F32, false}},
    {"V_MFMA_F32_32X32X2F32", {32, 32, 2, 1, In::F32, false}},
    {"V_MFMA_F32_16X16X4F32", {16, 16, 4, 1, In::F32, false}},
    {"V_MFMA_F32_32X32X4F16", {32, 32, 4, 2, In::F16, false}},
    {"V_MFMA_F32_16X16X4F16", {16, 16, 4, 4, In::F16, false}},
    {"V_MFMA_F32_4X4X4F16", {4, 4, 4, 16, In::F16, false}},
    {"V_MFMA_F32_32X32X8F16", {32, 32, 8, 1, In::F16, false}},
    {"V_MFMA_F32_16X16X16F16", {16, 16, 16, 1, In::F16, false}},
    {"V_MFMA_F32_32X32X4BF16_1K", {32, 32, 4, 2, In::BF16, false}},
    {"V_MFMA_F32_16X16X4BF16_1K", {16, 16, 4, 4, In::BF16, false}},
    {"V_MFMA_F32_4X4X4BF16_1K", {4, 4, 4, 16, In::BF16, false}},
    {"V_MFMA_F32_32X32X8BF16_1K", {32, 32, 8, 1, In::BF16, false}},
    {"V_MFMA_F32_16X16X16BF16_1K", {16, 16, 16, 1, In::BF16, false}},
    {"V_MFMA_I32_32X32X4I8", {32, 32, 4, 2, In::I8, true}},
    {"V_MFMA_I32_16X16X4I8", {16, 16, 4, 4, In::I8, true}},
    {"V_MFMA_I32_4X4X4I8", {4, 4, 4, 16, In::I8, true}},
    {"V_MFMA_I32_32X32X16I8", {32, 32, 16, 1, In::I8, true}},
    {"V_MFMA_I32_16X16X32I8", {16, 16, 32, 1, In::I8, true}},
    // gfx950.
    {"V_MFMA_F32_32X32X16_BF16", {32, 32, 16, 1, In::BF16, false}},
    {"V_MFMA_F32_32X32X16_F16", {32, 32, 16, 1, In::F16, false}},
    {"V_MFMA_F32_16X16X32_BF16", {16, 16, 32, 1, In::BF16, false}},
    {"V_MFMA_F32_16X16X32_F16", {16, 16, 32, 1, In::F16, false}},
    {"V_MFMA_I32_32X32X32_I8", {32, 32, 32, 1, In::I8, true}},
    {"V_MFMA_I32_16X16X64_I8", {16, 16, 64, 1, In::I8, true}},
    // 8-bit floats (FNUZ on gfx942, OCP on gfx950) and xf32 (gfx942).
    {"V_MFMA_F32_32X32X16_FP8_FP8", {32, 32, 16, 1, In::FP8, false}},
    {"V_MFMA_F32_32X32X16_FP8_BF8", {32, 32, 16, 1, In::FP8, false, In::BF8}},
    {"V_MFMA_F32_32X32X16_BF8_FP8", {32, 32, 16, 1, In::BF8, false, In::FP8}},
    {"V_MFMA_F32_32X32X16_BF8_BF8", {32, 32, 16, 1, In::BF8, false}},
    {"V_MFMA_F32_16X16X32_FP8_FP8", {16, 16, 32, 1, In::FP8, false}},
    {"V_MFMA_F32_16X16X32_FP8_BF8", {16, 16, 32, 1, In::FP8, false, In::BF8}},
    {"V_MFMA_F32_16X16X32_BF8_FP8", {16, 16, 32, 1, In::BF8, false, In::FP8}},
    {"V_MFMA_F32_16X16X32_BF8_BF8", {16, 16, 32, 1, In::BF8, false}},
    {"V_MFMA_F32_32X32X4XF32", {32, 32, 4, 1, In::XF32, false}},
    {"V_MFMA_F32_16X16X8XF32", {16, 16, 8, 1, In::XF32, false}},
};

} // namespace

void registerMfmaOps(OpTable &t) {
  static const std::vector<Prepared> prepared = [] {
    std::vector<Prepared> all;
    for (const Named &n : kShapes) {
      Prepared p;
      p.shape = &n.shape;
      const Shape &s = n.shape;
      int outRegs = s.m * s.n * s.blocks / 64, groups = 64 / s.n;
      for (int r = 0; r < outRegs; ++r)
        for (int g = 0; g < groups; ++g)
          p.runs.push_back(accRun(s, r, g));
      all.push_back(std::move(p));
    }
    return all;
  }();
  for (size_t i = 0; i < prepared.size(); ++i)
    t.add(kShapes[i].name, mfma, Layout::Plain, 0, &prepared[i]);
  t.add("V_MFMA_F64_16X16X4F64", mfmaF64);
  t.add("V_MFMA_F64_4X4X4F64", mfmaF64x4);
}

} // namespace kcc::emu
