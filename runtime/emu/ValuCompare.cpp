//===- ValuCompare.cpp - VALU comparisons (VOPC) --------------------------===//
//
// v_cmp_* and v_cmpx_* on f16, f32, f64 and 16/32/64-bit integers, and
// v_cmp_class_*: a lane mask written to VCC or an SGPR pair (and EXEC for the
// cmpx forms). The op id of each registered name is type << 8 | condition.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Valu.h"

namespace kcc::emu {
namespace {

using namespace valu;

//===----------------------------------------------------------------------===//
// VOPC
//===----------------------------------------------------------------------===//

enum Cmp : uint8_t { CF, CLt, CEq, CLe, CGt, CLg, CGe, CO, CU, CNge, CNlg, CNgt,
                     CNle, CNeq, CNlt, CTru, CNe };

template <class T> bool compareF(T a, T b, Cmp c) {
  switch (c) {
  case CF: return false;
  case CLt: return a < b;
  case CEq: return a == b;
  case CLe: return a <= b;
  case CGt: return a > b;
  case CLg: return a < b || a > b;
  case CGe: return a >= b;
  case CO: return !std::isnan(a) && !std::isnan(b);
  case CU: return std::isnan(a) || std::isnan(b);
  case CNge: return !(a >= b);
  case CNlg: return !(a < b || a > b);
  case CNgt: return !(a > b);
  case CNle: return !(a <= b);
  case CNeq: return !(a == b);
  case CNlt: return !(a < b);
  case CTru: return true;
  default: return false;
  }
}
template <class T> bool compareI(T a, T b, Cmp c) {
  switch (c) {
  case CF: return false;
  case CLt: return a < b;
  case CEq: return a == b;
  case CLe: return a <= b;
  case CGt: return a > b;
  case CNe: return a != b;
  case CGe: return a >= b;
  case CTru: return true;
  default: return false;
  }
}

enum CmpType : uint8_t { TF16, TF32, TF64, TI16, TU16, TI32, TU32, TI64, TU64,
                         TClassF32, TClassF64, TClassF16 };

bool classify(double x, uint32_t mask, bool isSubnormal) {
  bool r = false;
  if (std::isnan(x)) {
    // bit 0 signalling, bit 1 quiet; double NaNs here are already classed by
    // the caller's width, treat all as quiet unless flagged.
    r |= (mask & 2) != 0;
  } else if (std::isinf(x)) {
    r |= (mask & (std::signbit(x) ? 4 : 512)) != 0;
  } else if (x == 0) {
    r |= (mask & (std::signbit(x) ? 32 : 64)) != 0;
  } else if (isSubnormal) {
    r |= (mask & (std::signbit(x) ? 16 : 128)) != 0;
  } else {
    r |= (mask & (std::signbit(x) ? 8 : 256)) != 0;
  }
  return r;
}

template <bool X> void vcmp(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  Cmp c = Cmp(in.op & 0xff);
  CmpType t = CmpType(in.op >> 8);
  Ty ty = t == TF32 || t == TClassF32 ? Ty::F32 : t == TF16 || t == TClassF16 ? Ty::F16 : Ty::B32;
  alignas(64) uint32_t b0[kLanes], b1[kLanes], b2[kLanes], b3[kLanes];
  const uint32_t *a = fetchSrc(w, in, 0, ty, b0);
  const uint32_t *b = fetchSrc(w, in, 1, t == TClassF32 || t == TClassF64 || t == TClassF16 ? Ty::B32 : ty, b1);
  const uint32_t *ah = a, *bh = b;
  bool wide = t == TF64 || t == TI64 || t == TU64 || t == TClassF64;
  if (wide) {
    ah = lanes(w, in.src[0], b2, 1);
    if (t != TClassF64)
      bh = lanes(w, in.src[1], b3, 1);
  }
  uint64_t m = 0;
  for (int l = 0; l < kLanes; ++l) {
    bool r = false;
    switch (t) {
    case TF32: r = compareF(asF(a[l]), asF(b[l]), c); break;
    case TF16: r = compareF(f16ToFloat(uint16_t(a[l])), f16ToFloat(uint16_t(b[l])), c); break;
    case TF64: {
      uint64_t x = uint64_t(a[l]) | (uint64_t(ah[l]) << 32);
      uint64_t y = uint64_t(b[l]) | (uint64_t(bh[l]) << 32);
      if (in.src[0].mods & kModAbs) x &= ~(1ull << 63);
      if (in.src[0].mods & kModNeg) x ^= 1ull << 63;
      if (in.src[1].mods & kModAbs) y &= ~(1ull << 63);
      if (in.src[1].mods & kModNeg) y ^= 1ull << 63;
      r = compareF(asD(x), asD(y), c);
      break;
    }
    case TI16: r = compareI(int16_t(a[l]), int16_t(b[l]), c); break;
    case TU16: r = compareI(uint16_t(a[l]), uint16_t(b[l]), c); break;
    case TI32: r = compareI(int32_t(a[l]), int32_t(b[l]), c); break;
    case TU32: r = compareI(a[l], b[l], c); break;
    case TI64: r = compareI(int64_t(uint64_t(a[l]) | (uint64_t(ah[l]) << 32)),
                            int64_t(uint64_t(b[l]) | (uint64_t(bh[l]) << 32)), c); break;
    case TU64: r = compareI(uint64_t(a[l]) | (uint64_t(ah[l]) << 32),
                            uint64_t(b[l]) | (uint64_t(bh[l]) << 32), c); break;
    case TClassF32: {
      float x = asF(a[l]);
      bool snan = std::isnan(x) && !(a[l] & 0x400000);
      r = snan ? (b[l] & 1) : classify(x, b[l], isDenorm(x));
      break;
    }
    case TClassF16: {
      uint16_t h = uint16_t(a[l]);
      float x = f16ToFloat(h);
      bool snan = std::isnan(x) && !(h & 0x200);
      bool sub = (h & 0x7c00) == 0 && (h & 0x3ff);
      r = snan ? (b[l] & 1) : classify(x, b[l], sub);
      break;
    }
    case TClassF64: {
      uint64_t bits = uint64_t(a[l]) | (uint64_t(ah[l]) << 32);
      double x = asD(bits);
      bool snan = std::isnan(x) && !(bits & (1ull << 51));
      r = snan ? (b[l] & 1) : classify(x, b[l], std::fpclassify(x) == FP_SUBNORMAL);
      break;
    }
    }
    m |= uint64_t(r) << l;
  }
  m &= exec;
  // e32/SDWA write VCC (SDWA may name an SGPR pair), e64 the explicit sdst.
  const Opnd *d = maskDst(in, 0);
  if (X) {
    if (d)
      writeScalar64(w, *d, m);
    else if (!(in.form & kFormE64))
      w.setVcc(m);
    w.setExec(m);
  } else {
    writeMask(w, d, m);
  }
}

} // namespace

void registerValuCompareOps(OpTable &t) {
  const Layout V = Layout::Vop;
  // VOPC. Op id: type << 8 | condition.
  struct CmpName {
    const char *cond;
    Cmp c;
  };
  static const CmpName fconds[] = {
      {"F", CF}, {"LT", CLt}, {"EQ", CEq}, {"LE", CLe}, {"GT", CGt},
      {"LG", CLg}, {"GE", CGe}, {"O", CO}, {"U", CU}, {"NGE", CNge},
      {"NLG", CNlg}, {"NGT", CNgt}, {"NLE", CNle}, {"NEQ", CNeq},
      {"NLT", CNlt}, {"TRU", CTru}};
  static const CmpName iconds[] = {{"F", CF}, {"LT", CLt}, {"EQ", CEq},
                                   {"LE", CLe}, {"GT", CGt}, {"NE", CNe},
                                   {"GE", CGe}, {"T", CTru}};
  struct TypeName {
    const char *name;
    CmpType t;
  };
  static const TypeName ftypes[] = {{"F16", TF16}, {"F32", TF32}, {"F64", TF64}};
  static const TypeName itypes[] = {{"I16", TI16}, {"U16", TU16}, {"I32", TI32},
                                    {"U32", TU32}, {"I64", TI64}, {"U64", TU64}};
  for (bool x : {false, true}) {
    std::string prefix = x ? "V_CMPX_" : "V_CMP_";
    Handler h = x ? vcmp<true> : vcmp<false>;
    for (auto &ty : ftypes)
      for (auto &c : fconds)
        t.add(prefix + c.cond + "_" + ty.name, h, V, uint16_t(ty.t << 8 | c.c));
    for (auto &ty : itypes)
      for (auto &c : iconds)
        t.add(prefix + c.cond + "_" + ty.name, h, V, uint16_t(ty.t << 8 | c.c));
    t.add(prefix + "CLASS_F32", h, V, uint16_t(TClassF32 << 8));
    t.add(prefix + "CLASS_F64", h, V, uint16_t(TClassF64 << 8));
    t.add(prefix + "CLASS_F16", h, V, uint16_t(TClassF16 << 8));
  }
}

} // namespace kcc::emu
