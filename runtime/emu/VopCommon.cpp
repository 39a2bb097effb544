//===- VopCommon.cpp - DPP, SDWA and modifiers of VALU operands ----------===//
//
// DPP controls (CDNA3 ISA, "Data Parallel Processing"): quad_perm 0x00-0xFF,
// row_shl 0x101-0x10F, row_shr 0x111-0x11F, row_ror 0x121-0x12F, wave_shl1
// 0x130, wave_rol1 0x134, wave_shr1 0x138, wave_ror1 0x13C, row_mirror
// 0x140, row_half_mirror 0x141, row_bcast15 0x142, row_bcast31 0x143. A source
// lane is invalid when it is out of range or has EXEC off; its destination
// lane is then written with 0 under bound_ctrl, else left alone. row_mask and
// bank_mask (bank = 4-lane group in a row) disable writes.
//
// SDWA selects: 0-3 BYTE_n, 4 WORD_0, 5 WORD_1, 6 DWORD; dst_unused: 0 pad
// with zeros, 1 sign-extend, 2 preserve.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/VopCommon.h"

#include <cmath>
#include <cstring>

namespace kcc::emu {

/// Source lane of `lane` under dpp_ctrl, or -1 when out of range.
static int dppSourceLane(unsigned ctrl, int lane) {
  int row = lane & ~15, inRow = lane & 15;
  if (ctrl <= 0xff) {
    int q = lane & ~3, i = lane & 3;
    return q + int((ctrl >> (2 * i)) & 3);
  }
  if (ctrl >= 0x101 && ctrl <= 0x10f) {
    int s = inRow + int(ctrl - 0x100);
    return s < 16 ? row + s : -1;
  }
  if (ctrl >= 0x111 && ctrl <= 0x11f) {
    int s = inRow - int(ctrl - 0x110);
    return s >= 0 ? row + s : -1;
  }
  if (ctrl >= 0x121 && ctrl <= 0x12f)
    return row + ((inRow - int(ctrl - 0x120)) & 15);
  switch (ctrl) {
  case 0x130: return lane + 1 < 64 ? lane + 1 : -1;
  case 0x134: return (lane + 1) & 63;
  case 0x138: return lane - 1;
  case 0x13c: return (lane - 1) & 63;
  case 0x140: return row + (15 - inRow);
  case 0x141: return (lane & ~7) + (7 - (lane & 7));
  case 0x142: return lane >= 16 ? row - 1 : -1;
  case 0x143: return lane >= 32 ? 31 : -1;
  default: return -2; // reserved encoding
  }
}

uint64_t dppWriteMask(Wave &w, const Inst &in, uint64_t exec) {
  if (!(in.form & kFormDpp))
    return exec;
  uint64_t mask = 0;
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    if (!((in.rowMask >> (l >> 4)) & 1) || !((in.bankMask >> ((l >> 2) & 3)) & 1))
      continue;
    int s = dppSourceLane(in.dppCtrl, l);
    bool valid = s >= 0 && ((exec >> s) & 1);
    if (!valid && !in.boundCtrl)
      continue;
    mask |= 1ull << l;
  }
  return mask;
}

bool dpp64Lanes(Wave &w, const Inst &in, int *srcLane, uint64_t &mask) {
  if (in.dppCtrl < 0x150 || in.dppCtrl > 0x15f) {
    w.fault("DPP control " + hex(in.dppCtrl) +
            " on a 64-bit operand: only row_newbcast is defined");
    return false;
  }
  uint64_t exec = w.exec();
  mask = 0;
  for (int l = 0; l < kLanes; ++l) {
    int s = (l & ~15) | int(in.dppCtrl & 15);
    bool valid = (exec >> s) & 1;
    srcLane[l] = valid ? s : -1;
    if (!((exec >> l) & 1) || !((in.rowMask >> (l >> 4)) & 1) ||
        !((in.bankMask >> ((l >> 2) & 3)) & 1) || (!valid && !in.boundCtrl))
      continue;
    mask |= 1ull << l;
  }
  return true;
}

void dppPermute(Wave &w, const Inst &in, const uint32_t *src, uint32_t *out) {
  uint64_t exec = w.exec();
  uint32_t tmp[kLanes];
  for (int l = 0; l < kLanes; ++l) {
    int s = dppSourceLane(in.dppCtrl, l);
    tmp[l] = (s >= 0 && ((exec >> s) & 1)) ? src[s] : 0;
  }
  std::memcpy(out, tmp, sizeof(tmp));
}

static uint32_t sdwaSelect(uint32_t x, unsigned sel, bool sext) {
  switch (sel) {
  case 0: case 1: case 2: case 3: {
    uint32_t b = (x >> (8 * sel)) & 0xff;
    return sext ? uint32_t(int32_t(int8_t(b))) : b;
  }
  case 4: case 5: {
    uint32_t h = (x >> (16 * (sel - 4))) & 0xffff;
    return sext ? uint32_t(int32_t(int16_t(h))) : h;
  }
  default:
    return x;
  }
}

const uint32_t *fetchSrc(Wave &w, const Inst &in, unsigned i, Ty ty,
                         uint32_t *buf) {
  const Opnd &o = in.src[i];
  const uint32_t *p = lanes(w, o, buf);
  bool dpp = i == 0 && (in.form & kFormDpp);
  bool sdwa = (in.form & kFormSdwa) && i < 2;
  bool isFloat = ty == Ty::F32 || ty == Ty::F16;
  bool fmods = isFloat && (o.mods & (kModNeg | kModAbs));
  bool opsel = ty != Ty::F32 && ty != Ty::B32 && !sdwa && (o.mods & kModOpSel0) &&
               !(in.form & (kFormDpp));
  if (!dpp && !sdwa && !fmods && !opsel)
    return p;
  if (dpp) {
    dppPermute(w, in, p, buf);
    p = buf;
  }
  if (sdwa) {
    unsigned sel = i == 0 ? in.src0Sel : in.src1Sel;
    bool sext = !isFloat && (o.mods & kModSext);
    for (int l = 0; l < kLanes; ++l)
      buf[l] = sdwaSelect(p[l], sel, sext);
    p = buf;
  }
  if (opsel) {
    for (int l = 0; l < kLanes; ++l)
      buf[l] = p[l] >> 16;
    p = buf;
  }
  if (fmods) {
    uint32_t sign = ty == Ty::F16 ? 0x8000u : 0x80000000u;
    uint32_t clear = (o.mods & kModAbs) ? sign : 0;
    uint32_t flip = (o.mods & kModNeg) ? sign : 0;
    uint32_t keep = ty == Ty::F16 ? 0xffffu : ~0u;
    for (int l = 0; l < kLanes; ++l)
      buf[l] = ((p[l] & keep & ~clear) ^ flip);
    p = buf;
  }
  return p;
}

void writeResult(Wave &w, const Inst &in, uint32_t *r, Ty ty, uint64_t mask) {
  if (in.omod || in.clamp) {
    if (ty == Ty::F32) {
      static const float scale[4] = {1.0f, 2.0f, 4.0f, 0.5f};
      float s = scale[in.omod & 3];
      for (int l = 0; l < kLanes; ++l) {
        float x = asF(r[l]) * s;
        if (in.clamp)
          x = std::isnan(x) ? 0.0f : std::fmin(std::fmax(x, 0.0f), 1.0f);
        r[l] = asU(x);
      }
    } else if (ty == Ty::F16) {
      static const float scale[4] = {1.0f, 2.0f, 4.0f, 0.5f};
      float s = scale[in.omod & 3];
      for (int l = 0; l < kLanes; ++l) {
        float x = f16ToFloat(uint16_t(r[l])) * s;
        if (in.clamp)
          x = std::isnan(x) ? 0.0f : std::fmin(std::fmax(x, 0.0f), 1.0f);
        r[l] = floatToF16(x);
      }
    }
  }
  uint32_t *dst = w.row(in.dst[0].reg);
  if (in.form & kFormSdwa) {
    unsigned sel = in.dstSel;
    if (sel != 6) {
      unsigned shift = sel < 4 ? 8 * sel : 16 * (sel - 4);
      unsigned bits = sel < 4 ? 8 : 16;
      uint32_t fieldMask = ((1u << bits) - 1) << shift;
      for (int l = 0; l < kLanes; ++l) {
        uint32_t v = (r[l] << shift) & fieldMask;
        uint32_t old = dst[l];
        uint32_t out;
        if (in.dstUnused == 2) {
          out = (old & ~fieldMask) | v;
        } else if (in.dstUnused == 1) {
          // Sign-extend the field into the bits above it; zeros below.
          unsigned up = 32 - shift - bits;
          out = uint32_t(int32_t(v << up) >> up);
        } else {
          out = v;
        }
        r[l] = out;
      }
    }
  }
  writeMasked(dst, r, mask);
}

float quietNaN(float x) { return asF(asU(x) | 0x400000); }

static bool isSignalling(float x) {
  return std::isnan(x) && !(asU(x) & 0x400000);
}

float fmaxIeee(float a, float b) {
  if (isSignalling(a) || isSignalling(b))
    return quietNaN(isSignalling(a) ? a : b);
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

float fminIeee(float a, float b) {
  if (isSignalling(a) || isSignalling(b))
    return quietNaN(isSignalling(a) ? a : b);
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

// f64 forms follow the f32 ones: in IEEE mode a signalling NaN operand gives
// the quieted NaN, not the other operand.
static bool isSignalling64(double x) {
  uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return std::isnan(x) && !(u & (1ull << 51));
}
static double quietNaN64(double x) {
  uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  u |= 1ull << 51;
  std::memcpy(&x, &u, sizeof u);
  return x;
}

double fmaxIeee64(double a, double b) {
  if (isSignalling64(a) || isSignalling64(b))
    return quietNaN64(isSignalling64(a) ? a : b);
  if (std::isnan(a))
    return std::isnan(b) ? a : b;
  if (std::isnan(b))
    return a;
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

double fminIeee64(double a, double b) {
  if (isSignalling64(a) || isSignalling64(b))
    return quietNaN64(isSignalling64(a) ? a : b);
  if (std::isnan(a))
    return std::isnan(b) ? a : b;
  if (std::isnan(b))
    return a;
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

} // namespace kcc::emu
