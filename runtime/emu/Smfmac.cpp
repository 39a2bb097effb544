//===- Smfmac.cpp - Sparse matrix fused multiply-add (SMFMAC) -------------===//
//
// v_smfmac_{f32,i32}_MxNxK_*: D = A x B + D with A 2:4 structured-sparse
// (CDNA3/CDNA4 ISA guides, "Sparse Matrix Fused Multiply-Accumulate"; LLVM's
// IntrinsicsAMDGPU.td and the MLIR AMDGPU dialect's sparse_mfma):
//  - B (K x N) as the single-block MFMA of the shape: lane l holds column
//    l % N and the kd = K / (64 / M) consecutive K values from kd * (l / M).
//  - A (M x K) keeps two values of every four consecutive K: lane l holds
//    row l % M and kd / 2 values of the same K range; values 2p and 2p + 1
//    lie in K group 4p .. 4p + 3 of that range, at the offsets the 2-bit
//    fields 2p and 2p + 1 of the lane's index set give.
//  - The index VGPR (src2) holds 32 / kd index sets of kd bits; cbsz != 0
//    selects set 0, else abid does. An abid past the sets is refused.
//  - The accumulator is D itself (C is tied to D).
// Only the kept products are summed (the B values at the other positions are
// not read), in order of the kept values, with one rounding each (products
// of 16- and 8-bit floats are exact in f32), as Mfma.cpp sums.
// Two indices of one pair that are equal would either overwrite or add, and
// the guides do not say which: they are refused.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Exec.h"
#include "runtime/emu/MiniFloat.h"
#include "runtime/emu/Ops.h"

#include <string>

namespace kcc::emu {
namespace {

enum class SIn : uint8_t { F16, BF16, I8, FP8, BF8 };

struct SparseShape {
  int m, n, k;
  SIn a, b;
};

bool is16(SIn t) { return t == SIn::F16 || t == SIn::BF16; }

/// Element `idx` of a register word as float (FP8/BF8: FNUZ on gfx942, OCP
/// on gfx950).
float elemF(uint32_t word, int idx, SIn t, bool ocp) {
  switch (t) {
  case SIn::F16: return f16ToFloat(uint16_t(word >> (16 * idx)));
  case SIn::BF16: return bf16ToFloat(uint16_t(word >> (16 * idx)));
  case SIn::FP8:
    return decodeMiniFloat(uint8_t(word >> (8 * idx)), ocp ? kFp8Ocp : kFp8Fnuz);
  case SIn::BF8:
    return decodeMiniFloat(uint8_t(word >> (8 * idx)), ocp ? kBf8Ocp : kBf8Fnuz);
  default: return 0;
  }
}

void smfmac(Wave &w, const Inst &in) {
  const SparseShape &s = *static_cast<const SparseShape *>(in.aux);
  bool ocp = w.dispatch->chip == Chip::gfx950;
  unsigned cbsz = in.nctrl > 0 ? unsigned(in.ctrl[0]) : 0;
  unsigned abid = in.nctrl > 1 ? unsigned(in.ctrl[1]) : 0;
  const int groups = 64 / s.m, kd = s.k / groups, per = is16(s.a) ? 2 : 4;
  const int outRegs = s.m * s.n / 64, sets = 32 / kd;
  unsigned set = cbsz ? 0 : abid;
  if (int(set) >= sets) {
    w.fault("SMFMAC abid " + std::to_string(abid) + " selects no index set (" +
            std::to_string(sets) + " per VGPR)");
    return;
  }
  if (in.nsrc < 3 || in.src[0].width * per < kd / 2 || in.src[1].width * per < kd ||
      in.dst[0].width < outRegs) {
    w.fault("SMFMAC operand widths do not match its shape");
    return;
  }
  alignas(64) uint32_t ibuf[kLanes];
  const uint32_t *idxRow = lanes(w, in.src[2], ibuf);
  // Per lane: the kept A values and the dense B values, as float or int.
  alignas(64) static thread_local float AF[kLanes * 32], BF[kLanes * 64];
  alignas(64) static thread_local int32_t AI[kLanes * 32], BI[kLanes * 64];
  alignas(64) static thread_local uint8_t pos[kLanes * 32];
  bool intOut = s.a == SIn::I8;
  alignas(64) uint32_t buf[kLanes];
  for (int j = 0; j < kd / 2; ++j) {
    const uint32_t *ra = lanes(w, in.src[0], buf, j / per);
    for (int l = 0; l < kLanes; ++l) {
      if (intOut) AI[l * 32 + j] = int8_t(ra[l] >> (8 * (j % per)));
      else AF[l * 32 + j] = elemF(ra[l], j % per, s.a, ocp);
    }
  }
  for (int l = 0; l < kLanes; ++l) {
    uint32_t bits = idxRow[l] >> (kd * set);
    for (int p = 0; p < kd / 4; ++p) {
      unsigned i0 = (bits >> (4 * p)) & 3, i1 = (bits >> (4 * p + 2)) & 3;
      if (i0 == i1) {
        w.fault("SMFMAC lane " + std::to_string(l) +
                " has equal indices in one pair (" + std::to_string(i0) +
                "): not documented");
        return;
      }
      pos[l * 32 + 2 * p] = uint8_t(4 * p + i0);
      pos[l * 32 + 2 * p + 1] = uint8_t(4 * p + i1);
    }
  }
  for (int t = 0; t < kd; ++t) {
    const uint32_t *rb = lanes(w, in.src[1], buf, t / per);
    for (int l = 0; l < kLanes; ++l) {
      if (intOut) BI[l * 64 + t] = int8_t(rb[l] >> (8 * (t % per)));
      else BF[l * 64 + t] = elemF(rb[l], t % per, s.b, ocp);
    }
  }
  auto lanesOf = [&](int r, int l, int &i, int &j) {
    i = (r / 4) * 4 * (64 / s.n) + (l / s.n) * 4 + r % 4;
    j = l % s.n;
  };
  // The accumulator is D (C is tied to it).
  alignas(64) float C[64 * 16];
  alignas(64) int32_t CI[64 * 16];
  for (int r = 0; r < outRegs; ++r) {
    const uint32_t *d = w.row(in.dst[0].reg + r);
    for (int l = 0; l < kLanes; ++l) {
      int i, j;
      lanesOf(r, l, i, j);
      if (intOut) CI[i * s.n + j] = int32_t(d[l]);
      else C[i * s.n + j] = asF(d[l]);
    }
  }
  for (int i = 0; i < s.m; ++i)
    for (int j = 0; j < s.n; ++j) {
      float acc = C[i * s.n + j];
      uint32_t iacc = uint32_t(CI[i * s.n + j]);
      for (int g = 0; g < groups; ++g) {
        int la = i + s.m * g, lb = j + s.n * g;
        for (int v = 0; v < kd / 2; ++v) {
          int t = pos[la * 32 + v];
          if (intOut)
            iacc += uint32_t(AI[la * 32 + v] * BI[lb * 64 + t]);
          else
            acc += AF[la * 32 + v] * BF[lb * 64 + t];
        }
      }
      if (intOut) CI[i * s.n + j] = int32_t(iacc);
      else C[i * s.n + j] = acc;
    }
  // Like MFMA, SMFMAC ignores EXEC.
  for (int r = 0; r < outRegs; ++r) {
    uint32_t *d = w.row(in.dst[0].reg + r);
    for (int l = 0; l < kLanes; ++l) {
      int i, j;
      lanesOf(r, l, i, j);
      d[l] = intOut ? uint32_t(CI[i * s.n + j]) : asU(C[i * s.n + j]);
    }
  }
}

struct Named {
  const char *name;
  SparseShape shape;
};
const Named kShapes[] = {
    // gfx942 and gfx950.
    {"V_SMFMAC_F32_16X16X32_F16", {16, 16, 32, SIn::F16, SIn::F16}},
    {"V_SMFMAC_F32_32X32X16_F16", {32, 32, 16, SIn::F16, SIn::F16}},
    {"V_SMFMAC_F32_16X16X32_BF16", {16, 16, 32, SIn::BF16, SIn::BF16}},
    {"V_SMFMAC_F32_32X32X16_BF16", {32, 32, 16, SIn::BF16, SIn::BF16}},
    {"V_SMFMAC_I32_16X16X64_I8", {16, 16, 64, SIn::I8, SIn::I8}},
    {"V_SMFMAC_I32_32X32X32_I8", {32, 32, 32, SIn::I8, SIn::I8}},
    {"V_SMFMAC_F32_16X16X64_FP8_FP8", {16, 16, 64, SIn::FP8, SIn::FP8}},
    {"V_SMFMAC_F32_16X16X64_FP8_BF8", {16, 16, 64, SIn::FP8, SIn::BF8}},
    {"V_SMFMAC_F32_16X16X64_BF8_FP8", {16, 16, 64, SIn::BF8, SIn::FP8}},
    {"V_SMFMAC_F32_16X16X64_BF8_BF8", {16, 16, 64, SIn::BF8, SIn::BF8}},
    {"V_SMFMAC_F32_32X32X32_FP8_FP8", {32, 32, 32, SIn::FP8, SIn::FP8}},
    {"V_SMFMAC_F32_32X32X32_FP8_BF8", {32, 32, 32, SIn::FP8, SIn::BF8}},
    {"V_SMFMAC_F32_32X32X32_BF8_FP8", {32, 32, 32, SIn::BF8, SIn::FP8}},
    {"V_SMFMAC_F32_32X32X32_BF8_BF8", {32, 32, 32, SIn::BF8, SIn::BF8}},
    // gfx950: twice the K.
    {"V_SMFMAC_F32_16X16X64_F16", {16, 16, 64, SIn::F16, SIn::F16}},
    {"V_SMFMAC_F32_32X32X32_F16", {32, 32, 32, SIn::F16, SIn::F16}},
    {"V_SMFMAC_F32_16X16X64_BF16", {16, 16, 64, SIn::BF16, SIn::BF16}},
    {"V_SMFMAC_F32_32X32X32_BF16", {32, 32, 32, SIn::BF16, SIn::BF16}},
    {"V_SMFMAC_I32_16X16X128_I8", {16, 16, 128, SIn::I8, SIn::I8}},
    {"V_SMFMAC_I32_32X32X64_I8", {32, 32, 64, SIn::I8, SIn::I8}},
    {"V_SMFMAC_F32_16X16X128_FP8_FP8", {16, 16, 128, SIn::FP8, SIn::FP8}},
    {"V_SMFMAC_F32_16X16X128_FP8_BF8", {16, 16, 128, SIn::FP8, SIn::BF8}},
    {"V_SMFMAC_F32_16X16X128_BF8_FP8", {16, 16, 128, SIn::BF8, SIn::FP8}},
    {"V_SMFMAC_F32_16X16X128_BF8_BF8", {16, 16, 128, SIn::BF8, SIn::BF8}},
    {"V_SMFMAC_F32_32X32X64_FP8_FP8", {32, 32, 64, SIn::FP8, SIn::FP8}},
    {"V_SMFMAC_F32_32X32X64_FP8_BF8", {32, 32, 64, SIn::FP8, SIn::BF8}},
    {"V_SMFMAC_F32_32X32X64_BF8_FP8", {32, 32, 64, SIn::BF8, SIn::FP8}},
    {"V_SMFMAC_F32_32X32X64_BF8_BF8", {32, 32, 64, SIn::BF8, SIn::BF8}},
};

} // namespace

void registerSmfmacOps(OpTable &t) {
  for (const Named &n : kShapes)
    t.add(n.name, smfmac, Layout::Plain, 0, &n.shape);
}

} // namespace kcc::emu
