//===- MfmaF8f6f4.cpp - gfx950's mixed narrow-float MFMAs -----------------===//
//
// v_mfma_f32_16x16x128_f8f6f4 and v_mfma_f32_32x32x64_f8f6f4, and their
// block-scaled forms v_mfma_scale_f32_*_f8f6f4 (CDNA4 ISA guide, "Dependent
// Matrix Fused Multiply-Add", and LLVM's IntrinsicsAMDGPU.td):
//  - cbsz selects A's format and blgp B's (they are not broadcast or lane
//    permutation controls here): 0 FP8 e4m3fn, 1 BF8 e5m2 (OCP, as gfx950's
//    other FP8 instructions), 2 FP6 e2m3, 3 BF6 e3m2, 4 FP4 e2m1. 5..7 are
//    reserved and refused.
//  - Every lane holds 32 consecutive K values of one row of A (column of B)
//    packed densely, value j in bits [w*j, w*j + w) of the register tuple, so
//    an operand is 8, 6 or 4 VGPRs (the MC opcode names the widths; both must
//    agree with the formats). Lane l: row (column) l % M, K = 32 * (l / M) + j.
//  - C/D as the other single-block MFMAs of the shape.
//  - The scaled forms are a 16-byte instruction: v_mfma_ld_scale_b32 supplies
//    a VGPR per operand whose byte op_sel + 2 * op_sel_hi, in each lane, is
//    the E8M0 scale 2^(e - 127) of that lane's 32 K values, which is exactly
//    one OCP MX block. e = 255 (OCP's NaN scale) is refused, as the scaled
//    conversions refuse it (ValuScaleCvt.cpp): what it does is not
//    documented. MFMA ignores EXEC, so every lane's scale counts.
// The products of narrow values are exact in f32 and are summed in k order
// with one rounding each (a fused multiply-add), as Mfma.cpp does. A scaled
// product can leave f32's range, so it is formed exactly in double and the
// sum rounded once from double (53 >= 2 * 24 + 2 bits, so the double
// rounding is innocuous).
//
// A v_mfma_ld_scale_b32 not followed by an f8f6f4 MFMA (which LLVM decodes
// as an instruction of its own) is not modelled: what it does to another
// instruction is not documented.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Exec.h"
#include "runtime/emu/MiniFloat.h"
#include "runtime/emu/Ops.h"

#include <cmath>
#include <string>

namespace kcc::emu {
namespace {

struct F8f6f4Shape {
  int m, n; // K = 64 * 32 / M
  bool scaled;
};

/// Format by cbsz/blgp value, or null for the reserved values.
const MiniFloat *formatOf(unsigned sel) {
  static const MiniFloat *const kFormats[] = {&kFp8Ocp, &kBf8Ocp, &kFp6E2m3,
                                              &kBf6E3m2, &kFp4E2m1};
  return sel < 5 ? kFormats[sel] : nullptr;
}

/// All values of one format, indexed by code (at most 256).
struct DecodeTable {
  float v[256];
  explicit DecodeTable(const MiniFloat &f) {
    for (uint32_t c = 0; c < (1u << f.width()); ++c)
      v[c] = decodeMiniFloat(c, f);
  }
};
const DecodeTable &tableOf(unsigned sel) {
  static const DecodeTable kTables[] = {
      DecodeTable(kFp8Ocp), DecodeTable(kBf8Ocp), DecodeTable(kFp6E2m3),
      DecodeTable(kBf6E3m2), DecodeTable(kFp4E2m1)};
  return kTables[sel];
}

/// The 32 K values of every lane of operand `o`, decoded: out[l * 32 + j].
void gather(Wave &w, const Opnd &o, unsigned sel, float *out) {
  const MiniFloat &f = *formatOf(sel);
  const DecodeTable &t = tableOf(sel);
  unsigned width = f.width(), regs = width; // 32 values * width bits / 32
  const uint32_t *rows[8];
  alignas(64) uint32_t bufs[8][kLanes];
  for (unsigned r = 0; r < regs; ++r)
    rows[r] = lanes(w, o, bufs[r], r);
  uint32_t mask = (1u << width) - 1;
  for (int l = 0; l < kLanes; ++l)
    for (unsigned j = 0; j < 32; ++j) {
      unsigned bit = j * width, r = bit / 32, sh = bit % 32;
      uint64_t window = rows[r][l];
      if (r + 1 < regs)
        window |= uint64_t(rows[r + 1][l]) << 32;
      out[l * 32 + j] = t.v[(window >> sh) & mask];
    }
}

void mfmaF8f6f4(Wave &w, const Inst &in) {
  const F8f6f4Shape &s = *static_cast<const F8f6f4Shape *>(in.aux);
  if (in.nctrl < (s.scaled ? 4 : 2) || in.nsrc < (s.scaled ? 5 : 3)) {
    w.fault("f8f6f4 MFMA without its format or scale operands");
    return;
  }
  unsigned cbsz = unsigned(in.ctrl[0]), blgp = unsigned(in.ctrl[1]);
  if (!formatOf(cbsz) || !formatOf(blgp)) {
    w.fault("f8f6f4 MFMA with a reserved format (cbsz " + std::to_string(cbsz) +
            ", blgp " + std::to_string(blgp) + ")");
    return;
  }
  int outRegs = s.m * s.n / 64;
  if (in.src[0].width != formatOf(cbsz)->width() ||
      in.src[1].width != formatOf(blgp)->width() || in.dst[0].width < outRegs) {
    w.fault("f8f6f4 MFMA operand widths do not match its formats");
    return;
  }
  const int groups = 64 / s.m;
  // A[l * 32 + j] is row l % M, k = 32 * (l / M) + j; B likewise by column.
  alignas(64) static thread_local float A[kLanes * 32], B[kLanes * 32];
  gather(w, in.src[0], cbsz, A);
  gather(w, in.src[1], blgp, B);
  // Per-lane block scales as powers of two.
  int scaleA[kLanes] = {}, scaleB[kLanes] = {};
  if (s.scaled) {
    alignas(64) uint32_t ba[kLanes], bb[kLanes];
    const uint32_t *ra = lanes(w, in.src[3], ba), *rb = lanes(w, in.src[4], bb);
    auto byteSel = [](int64_t mods) {
      return ((mods & kModOpSel0) ? 1 : 0) + ((mods & kModOpSel1) ? 2 : 0);
    };
    int selA = byteSel(in.ctrl[2]), selB = byteSel(in.ctrl[3]);
    for (int l = 0; l < kLanes; ++l) {
      unsigned ea = (ra[l] >> (8 * selA)) & 0xff, eb = (rb[l] >> (8 * selB)) & 0xff;
      if (ea == 0xff || eb == 0xff) {
        w.fault("scaled MFMA with a NaN scale (E8M0 255) in lane " +
                std::to_string(l) + " is not modelled");
        return;
      }
      scaleA[l] = int(ea) - 127;
      scaleB[l] = int(eb) - 127;
    }
  }
  alignas(64) uint32_t buf[kLanes];
  alignas(64) float C[64 * 16];
  auto accIndex = [&](int r, int l) {
    int i = (r / 4) * 4 * (64 / s.n) + (l / s.n) * 4 + r % 4;
    return i * s.n + l % s.n;
  };
  for (int r = 0; r < outRegs; ++r) {
    const uint32_t *rc = lanes(w, in.src[2], buf, in.src[2].kind == OpndKind::Vgpr ? r : 0);
    for (int l = 0; l < kLanes; ++l)
      C[accIndex(r, l)] = asF(rc[l]);
  }
  for (int i = 0; i < s.m; ++i)
    for (int j = 0; j < s.n; ++j) {
      float acc = C[i * s.n + j];
      for (int g = 0; g < groups; ++g) {
        int la = i + s.m * g, lb = j + s.n * g;
        const float *a = &A[la * 32], *b = &B[lb * 32];
        if (!s.scaled) {
          // Exact products: one rounding per step, as an FMA.
          for (int t = 0; t < 32; ++t)
            acc += a[t] * b[t];
          continue;
        }
        // Both factors and the power of two are exact in double, and so is
        // their product (at most 8 significant bits, exponent within
        // +-(2 * 127 + 34)).
        double scale = std::ldexp(1.0, scaleA[la] + scaleB[lb]);
        for (int t = 0; t < 32; ++t) {
          double p = double(a[t]) * double(b[t]) * scale;
          acc = float(double(acc) + p);
        }
      }
      C[i * s.n + j] = acc;
    }
  // MFMA ignores EXEC: every lane's accumulator is written.
  for (int r = 0; r < outRegs; ++r) {
    uint32_t *d = w.row(in.dst[0].reg + r);
    for (int l = 0; l < kLanes; ++l)
      d[l] = asU(C[accIndex(r, l)]);
  }
}

const F8f6f4Shape k16{16, 16, false}, k32{32, 32, false};
const F8f6f4Shape kScaled16{16, 16, true}, kScaled32{32, 32, true};

} // namespace

void registerMfmaF8f6f4Ops(OpTable &t) {
  // The MC opcodes name the register widths of A and B (f8: 8 VGPRs for
  // FP8/BF8, f6: 6 for FP6/BF6, f4: 4 for FP4); one handler serves them all
  // and checks the widths against cbsz/blgp.
  static const char *const kWidths[] = {"f8", "f6", "f4"};
  for (const char *a : kWidths)
    for (const char *b : kWidths) {
      std::string suffix = std::string("_") + a + "_" + b;
      t.add("V_MFMA_F32_16X16X128_F8F6F4" + suffix, mfmaF8f6f4, Layout::Plain, 0, &k16);
      t.add("V_MFMA_F32_32X32X64_F8F6F4" + suffix, mfmaF8f6f4, Layout::Plain, 0, &k32);
      t.add("V_MFMA_SCALE_F32_16X16X128_F8F6F4" + suffix, mfmaF8f6f4, Layout::Plain,
            0, &kScaled16);
      t.add("V_MFMA_SCALE_F32_32X32X64_F8F6F4" + suffix, mfmaF8f6f4, Layout::Plain,
            0, &kScaled32);
    }
}

} // namespace kcc::emu
