//===- MfmaReference.cpp - CPU model of MFMA operand layouts --------------===//
//
// Layout rules (ISA guides, "Dependent arithmetic / matrix fused multiply
// add" sections, wave64):
// - A (M x K per block) and B (K x N per block): lane = row (of A) or column
//   (of B) + M * (k-group + (K / kPerLane) * block); the lane holds kPerLane
//   consecutive K values. f64 4x4x4 (four blocks) orders the blocks inside
//   the k groups: lane = row + 4 * block + 16 * k (AMD's matrix instruction
//   calculator).
// - C/D: lane % N is the column; the rest of the lane index and the register
//   index r pick a group of 4 rows: group = lane / N + (64 / N) * (r / 4),
//   block = group / (M / 4), row = 4 * (group % (M / 4)) + r % 4.
//   f64 16x16x4 differs: row = lane / 16 + 4 * r; f64 4x4x4: one register
//   pair, row = lane / 16, block = (lane / 4) % 4.
// - cbsz/abid: blocks form groups of 2^cbsz; every block of a group uses the
//   A of block abid of its group.
// - blgp: lane l reads B from lane (0) l, (1) l % 32, (2) 32 + l % 32,
//   (3) (l + 16) % 64, (4..7) 16 * (blgp - 4) + l % 16.
//
//===----------------------------------------------------------------------===//
#include "MfmaReference.h"

#include <cmath>
#include <cstring>

using namespace kcc::emutest;

int MfmaDesc::inBytes() const {
  switch (inA) {
  case MfmaIn::F32:
  case MfmaIn::XF32:
    return 4;
  case MfmaIn::F16:
  case MfmaIn::BF16:
    return 2;
  case MfmaIn::I8:
  case MfmaIn::FP8:
  case MfmaIn::BF8:
    return 1;
  case MfmaIn::F64:
    return 8;
  }
  return 0;
}

int MfmaDesc::outBytes() const { return out == MfmaOut::F64 ? 8 : 4; }

int MfmaDesc::accPerLane() const { return m * n * blocks / 64; }

LaneSlot kcc::emutest::mfmaSlotA(const MfmaDesc &d, int b, int i, int kk) {
  if (d.inA == MfmaIn::F64 && d.m == 4)
    return {i + 4 * b + 16 * kk, 0};
  int groups = d.k / d.kPerLane;
  return {i + d.m * (kk / d.kPerLane + groups * b), kk % d.kPerLane};
}

LaneSlot kcc::emutest::mfmaSlotB(const MfmaDesc &d, int b, int kk, int j) {
  if (d.inB == MfmaIn::F64 && d.n == 4)
    return {j + 4 * b + 16 * kk, 0};
  int groups = d.k / d.kPerLane;
  return {j + d.n * (kk / d.kPerLane + groups * b), kk % d.kPerLane};
}

void kcc::emutest::mfmaAccEntry(const MfmaDesc &d, int lane, int r, int &b,
                                int &i, int &j) {
  j = lane % d.n;
  if (d.out == MfmaOut::F64 && d.m == 4) {
    b = (lane / 4) % 4;
    i = lane / 16;
    return;
  }
  if (d.out == MfmaOut::F64) {
    b = 0;
    i = lane / 16 + 4 * r;
    return;
  }
  int group = lane / d.n + (64 / d.n) * (r / 4);
  int groupsPerBlock = d.m / 4;
  b = group / groupsPerBlock;
  i = 4 * (group % groupsPerBlock) + r % 4;
}

int kcc::emutest::mfmaBlgpSource(int blgp, int lane) {
  switch (blgp) {
  case 0:
    return lane;
  case 1:
    return lane % 32;
  case 2:
    return 32 + lane % 32;
  case 3:
    return (lane + 16) % 64;
  default:
    return 16 * (blgp - 4) + lane % 16;
  }
}

int kcc::emutest::mfmaABlock(const MfmaDesc &d, int b) {
  if (d.cbsz == 0)
    return b;
  int group = 1 << d.cbsz;
  return b / group * group + d.abid;
}

static double decodeMinifloat(unsigned bits, int expBits, int manBits,
                              int bias) {
  unsigned sign = bits >> (expBits + manBits);
  unsigned e = (bits >> manBits) & ((1u << expBits) - 1);
  unsigned mant = bits & ((1u << manBits) - 1);
  double v = e == 0 ? std::ldexp((double)mant, 1 - bias - manBits)
                    : std::ldexp((double)(mant | (1u << manBits)),
                                 (int)e - bias - manBits);
  return sign ? -v : v;
}

double kcc::emutest::mfmaDecode(MfmaIn t, const uint8_t *p, bool gfx950) {
  switch (t) {
  case MfmaIn::F32:
  case MfmaIn::XF32: {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  case MfmaIn::F64: {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  case MfmaIn::F16: {
    unsigned h = p[0] | (p[1] << 8);
    return decodeMinifloat(h, 5, 10, 15);
  }
  case MfmaIn::BF16: {
    uint32_t u = (uint32_t)(p[0] | (p[1] << 8)) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  case MfmaIn::I8:
    return (int8_t)p[0];
  // FNUZ (gfx942): bias 8 (e4m3) / 16 (e5m2), no infinities, 0x80 is NaN.
  // OCP (gfx950): e4m3fn bias 7, e5m2 bias 15. The tests never feed NaN or
  // infinity encodings.
  case MfmaIn::FP8:
    return decodeMinifloat(p[0], 4, 3, gfx950 ? 7 : 8);
  case MfmaIn::BF8:
    return decodeMinifloat(p[0], 5, 2, gfx950 ? 15 : 16);
  }
  return 0;
}

void kcc::emutest::mfmaReference(const MfmaDesc &d, bool gfx950,
                                 const std::vector<uint8_t> &a,
                                 const std::vector<uint8_t> &b,
                                 const std::vector<uint8_t> &c,
                                 std::vector<double> &ref,
                                 std::vector<double> &bound) {
  int eb = d.inBytes(), ob = d.outBytes(), acc = d.accPerLane();
  ref.assign(64 * acc, 0.0);
  bound.assign(64 * acc, 0.0);
  // Unit roundoff of the accumulation; xf32 also rounds its inputs to a
  // 10-bit mantissa, so allow that much per product.
  double u = d.out == MfmaOut::F64 ? std::ldexp(1.0, -52)
                                   : std::ldexp(1.0, -23);
  double inputErr = d.inA == MfmaIn::XF32 ? std::ldexp(1.0, -9) : 0.0;
  auto elemA = [&](int blk, int i, int kk) {
    LaneSlot s = mfmaSlotA(d, mfmaABlock(d, blk), i, kk);
    return mfmaDecode(d.inA, &a[(s.lane * d.kPerLane + s.elem) * eb], gfx950);
  };
  auto elemB = [&](int blk, int kk, int j) {
    LaneSlot s = mfmaSlotB(d, blk, kk, j);
    // B[kk][j] belongs to lane s.lane of the plain layout; under blgp that
    // lane's B operand is read from lane mfmaBlgpSource(blgp, s.lane).
    int src = mfmaBlgpSource(d.blgp, s.lane);
    return mfmaDecode(d.inB, &b[(src * d.kPerLane + s.elem) * eb], gfx950);
  };
  for (int lane = 0; lane < 64; ++lane)
    for (int r = 0; r < acc; ++r) {
      int blk, i, j;
      mfmaAccEntry(d, lane, r, blk, i, j);
      const uint8_t *cp = &c[(lane * acc + r) * ob];
      double cv;
      if (d.out == MfmaOut::F64) {
        std::memcpy(&cv, cp, 8);
      } else if (d.out == MfmaOut::I32) {
        int32_t iv;
        std::memcpy(&iv, cp, 4);
        cv = iv;
      } else {
        float f;
        std::memcpy(&f, cp, 4);
        cv = f;
      }
      double sum = cv, mag = std::fabs(cv);
      for (int kk = 0; kk < d.k; ++kk) {
        double p = elemA(blk, i, kk) * elemB(blk, kk, j);
        sum += p;
        mag += std::fabs(p);
      }
      ref[lane * acc + r] = sum;
      bound[lane * acc + r] =
          d.out == MfmaOut::I32 ? 0.0
                                : mag * ((d.k + 2) * u + inputErr) + 1e-30;
    }
}

// f8f6f4 formats: exponent and mantissa widths, bias (OCP MX), and which
// all-ones exponent codes are special: e4m3fn's S.1111.111 is NaN, e5m2's
// S.11111.00 infinite and S.11111.xx NaN; FP6 and FP4 have no specials.
namespace {
struct F8f6f4Format {
  int e, m, bias;
};
const F8f6f4Format kF8f6f4Formats[] = {
    {4, 3, 7}, {5, 2, 15}, {2, 3, 1}, {3, 2, 3}, {2, 1, 1}};
} // namespace

int kcc::emutest::f8f6f4Bits(int format) {
  const F8f6f4Format &f = kF8f6f4Formats[format];
  return 1 + f.e + f.m;
}

double kcc::emutest::f8f6f4Value(int format, unsigned code) {
  const F8f6f4Format &f = kF8f6f4Formats[format];
  unsigned e = (code >> f.m) & ((1u << f.e) - 1), man = code & ((1u << f.m) - 1);
  bool negative = (code >> (f.e + f.m)) & 1;
  if (format == 0 && e == 15 && man == 7)
    return NAN;
  if (format == 1 && e == 31)
    return man ? NAN : (negative ? -INFINITY : INFINITY);
  return decodeMinifloat(code & ((1u << (1 + f.e + f.m)) - 1), f.e, f.m,
                         f.bias);
}

void kcc::emutest::mfmaF8f6f4Reference(
    int m, int fa, int fb, int regs, const std::vector<uint32_t> &a,
    const std::vector<uint32_t> &b, const std::vector<float> &c,
    const uint8_t *scaleA, const uint8_t *scaleB, std::vector<double> &ref,
    std::vector<double> &bound) {
  int k = 2048 / m, acc = m * m / 64;
  MfmaDesc d{"", m, m, k, 1, 32, MfmaIn::FP8, MfmaIn::FP8, MfmaOut::F32};
  // Bit by bit, so that the packing is read independently of the emulator.
  auto value = [&](const std::vector<uint32_t> &v, int format, int lane,
                   int j) {
    int w = f8f6f4Bits(format);
    unsigned code = 0;
    for (int t = 0; t < w; ++t) {
      int bit = w * j + t;
      code |= ((v[lane * regs + bit / 32] >> (bit % 32)) & 1u) << t;
    }
    return f8f6f4Value(format, code);
  };
  auto scale = [](const uint8_t *s, int lane) {
    if (!s)
      return 1.0;
    return s[lane] == 255 ? NAN : std::ldexp(1.0, int(s[lane]) - 127);
  };
  ref.assign(64 * acc, 0.0);
  bound.assign(64 * acc, 0.0);
  double u = std::ldexp(1.0, -23);
  for (int lane = 0; lane < 64; ++lane)
    for (int r = 0; r < acc; ++r) {
      int blk, i, j;
      mfmaAccEntry(d, lane, r, blk, i, j);
      double cv = c[lane * acc + r];
      double sum = cv, mag = std::fabs(cv);
      for (int kk = 0; kk < k; ++kk) {
        int la = i + m * (kk / 32), lb = j + m * (kk / 32);
        double p = value(a, fa, la, kk % 32) * value(b, fb, lb, kk % 32) *
                   scale(scaleA, la) * scale(scaleB, lb);
        sum += p;
        mag += std::fabs(p);
      }
      ref[lane * acc + r] = sum;
      bound[lane * acc + r] = mag * (k + 2) * u + 1e-30;
    }
}

void kcc::emutest::smfmacReference(int m, int k, MfmaIn ta, MfmaIn tb,
                                   bool gfx950, const std::vector<uint32_t> &a,
                                   const std::vector<uint32_t> &b,
                                   const std::vector<uint32_t> &idx, int cbsz,
                                   int abid, const std::vector<uint32_t> &c,
                                   std::vector<double> &ref,
                                   std::vector<double> &bound) {
  int kd = k * m / 64, acc = m * m / 64, set = cbsz ? 0 : abid;
  MfmaDesc d{"", m, m, k, 1, kd, ta, tb,
             ta == MfmaIn::I8 ? MfmaOut::I32 : MfmaOut::F32};
  int eb = d.inBytes();
  auto bytes = [](const std::vector<uint32_t> &v, int lane, int elem, int eb) {
    return reinterpret_cast<const uint8_t *>(&v[lane * 8]) + elem * eb;
  };
  // The dense A with the kept positions marked.
  std::vector<double> A(m * k, 0.0);
  std::vector<bool> kept(m * k, false);
  for (int lane = 0; lane < 64; ++lane) {
    int i = lane % m, g = lane / m;
    uint32_t fields = idx[lane] >> (kd * set);
    for (int v = 0; v < kd / 2; ++v) {
      int kk = kd * g + 4 * (v / 2) + int((fields >> (2 * v)) & 3);
      A[i * k + kk] = mfmaDecode(ta, bytes(a, lane, v, eb), gfx950);
      kept[i * k + kk] = true;
    }
  }
  double u = std::ldexp(1.0, -23);
  ref.assign(64 * acc, 0.0);
  bound.assign(64 * acc, 0.0);
  for (int lane = 0; lane < 64; ++lane)
    for (int r = 0; r < acc; ++r) {
      int blk, i, j;
      mfmaAccEntry(d, lane, r, blk, i, j);
      uint32_t cw = c[lane * 16 + r];
      double cv;
      if (d.out == MfmaOut::I32) {
        cv = int32_t(cw);
      } else {
        float f;
        std::memcpy(&f, &cw, 4);
        cv = f;
      }
      double sum = cv, mag = std::fabs(cv);
      for (int kk = 0; kk < k; ++kk) {
        if (!kept[i * k + kk])
          continue;
        double p = A[i * k + kk] *
                   mfmaDecode(tb, bytes(b, j + m * (kk / kd), kk % kd, eb), gfx950);
        sum += p;
        mag += std::fabs(p);
      }
      ref[lane * acc + r] = sum;
      bound[lane * acc + r] =
          d.out == MfmaOut::I32 ? 0.0 : mag * (k / 2 + 2) * u + 1e-30;
    }
}
