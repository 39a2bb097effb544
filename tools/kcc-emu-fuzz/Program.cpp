//===- Program.cpp - The random program generator of kcc-emu-fuzz -------===//
//
// Every operation the generator emits is defined for every input, so that
// the host and the GPU must agree on every bit (or within a documented ulp
// bound for the few approximate operations): shift amounts are masked to
// the width, divisors are replaced by 1 where they are 0 or where INT_MIN/-1
// would overflow, float-to-int conversions are guarded to the target range,
// no instruction carries nsw/nuw/exact or fast-math flags (except the
// approximate sinks), and no signalling NaN ever exists: inputs hold quiet
// NaNs only, and an integer bitcast to a float has its NaNs made quiet in
// the integer domain first (LLVM does not promise to quiet signalling NaNs,
// so minnum and friends would otherwise be free to differ). NaN payloads
// and signs are not defined by LLVM either, so float results compare any
// NaN equal to any NaN, and a float bitcast to an integer maps every NaN
// to one canonical pattern before the integer can be looked at.
//
//===----------------------------------------------------------------------===//
#include "Program.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <random>
#include <set>

namespace kcc::fuzz {

unsigned bitWidth(Ty t) {
  switch (t) {
  case Ty::I8: return 8;
  case Ty::I16: case Ty::F16: return 16;
  case Ty::I32: case Ty::F32: return 32;
  case Ty::I64: case Ty::F64: return 64;
  }
  return 0;
}

const char *irName(Ty t) {
  static const char *names[] = {"i8", "i16", "i32", "i64", "half", "float", "double"};
  return names[unsigned(t)];
}

static const char *kIcmp[] = {"eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"};
const char *icmpName(unsigned pred) { return kIcmp[pred]; }

bool evalIcmp(unsigned pred, uint32_t a, uint32_t b) {
  int32_t sa = int32_t(a), sb = int32_t(b);
  switch (pred) {
  case 0: return a == b;
  case 1: return a != b;
  case 2: return a > b;
  case 3: return a >= b;
  case 4: return a < b;
  case 5: return a <= b;
  case 6: return sa > sb;
  case 7: return sa >= sb;
  case 8: return sa < sb;
  default: return sa <= sb;
  }
}

static const char *kFcmp[] = {"oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                              "ueq", "ugt", "uge", "ult", "ule", "une", "uno"};

static const llvm::fltSemantics &semantics(Ty t) {
  switch (t) {
  case Ty::F16: return llvm::APFloat::IEEEhalf();
  case Ty::F32: return llvm::APFloat::IEEEsingle();
  default: return llvm::APFloat::IEEEdouble();
  }
}

/// `d` rounded to `t`, as the IR spelling of a constant of type `t` (LLVM
/// reads half and float constants as the hexadecimal double they equal).
static std::string floatConstant(Ty t, double d) {
  llvm::APFloat f(d);
  bool lost;
  f.convert(semantics(t), llvm::APFloat::rmNearestTiesToEven, &lost);
  f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return "0x" + llvm::utohexstr(f.bitcastToAPInt().getZExtValue(), false, 16);
}

namespace {

class Generator {
public:
  Generator(uint64_t seed, Chip chip, double size, Program &p, const std::vector<bool> *disabled)
      : rng_(seed), size_(size), p_(p), disabled_(disabled) {
    p_.seed = seed;
    p_.chip = chip;
  }

  void run();

private:
  // Randomness.
  uint64_t next() { return rng_(); }
  unsigned below(unsigned n) { return unsigned(next() % n); }
  bool chance(double q) { return std::uniform_real_distribution<double>(0, 1)(rng_) < q; }

  // Emission into the current segment.
  std::string fresh() { return "%t" + std::to_string(tmp_++); }
  std::string label() { return "L" + std::to_string(label_++); }
  void line(const std::string &s) { *out_ += "  " + s + "\n"; }
  std::string load(unsigned slot) {
    std::string t = fresh();
    line(t + " = load " + irName(p_.slots[slot].ty) + ", $P %s" + std::to_string(slot));
    return t;
  }
  void store(unsigned slot, const std::string &v) {
    line(std::string("store ") + irName(p_.slots[slot].ty) + " " + v + ", $P %s" +
         std::to_string(slot));
  }
  std::string emit(const std::string &rhs) {
    std::string t = fresh();
    line(t + " = " + rhs);
    return t;
  }
  /// A call of intrinsic `name` returning `ret`; records its declaration.
  std::string call(const std::string &ret, const std::string &name,
                   const std::vector<std::pair<std::string, std::string>> &args,
                   bool gpuOnly = false) {
    std::string decl = "declare " + ret + " @" + name + "(";
    std::string use = "call " + ret + " @" + name + "(";
    for (size_t i = 0; i < args.size(); ++i) {
      decl += (i ? ", " : "") + args[i].first;
      use += (i ? ", " : "") + args[i].first + " " + args[i].second;
    }
    (gpuOnly ? gpuDecls_ : decls_).insert(decl + ")");
    if (ret == "void") {
      line(use + ")");
      return "";
    }
    return emit(use + ")");
  }
  static std::string suffix(Ty t) {
    switch (t) {
    case Ty::F16: return "f16";
    case Ty::F32: return "f32";
    case Ty::F64: return "f64";
    default: return irName(t);
    }
  }

  unsigned pick(Ty t) { return pool_[unsigned(t)][below(pool_[unsigned(t)].size())]; }
  Ty anyInt() { static const Ty w[] = {Ty::I8, Ty::I16, Ty::I32, Ty::I32, Ty::I64}; return w[below(5)]; }
  Ty anyFloat() { static const Ty w[] = {Ty::F16, Ty::F32, Ty::F32, Ty::F64}; return w[below(4)]; }
  Ty anyType() {
    static const Ty w[] = {Ty::I8, Ty::I16, Ty::I32, Ty::I32, Ty::I32, Ty::I64, Ty::I64,
                           Ty::F16, Ty::F16, Ty::F32, Ty::F32, Ty::F32, Ty::F64, Ty::F64};
    return w[below(14)];
  }

  std::string intConstant(Ty t);
  /// A float constant of type t; its value in `value` if given.
  std::string fpConstant(Ty t, double *value = nullptr);
  /// A value of type t: mostly a slot, sometimes a constant (inline
  /// constants and literals take other encodings than registers).
  std::string operand(Ty t) {
    if (chance(0.15))
      return isFloat(t) ? fpConstant(t) : intConstant(t);
    return load(pick(t));
  }
  /// A float operand of fadd or fsub: as operand(), but a zero constant is
  /// opaque. InstCombine turns fadd (fneg x), +0.0 (and fsub (fneg x),
  /// -0.0) into fsub +0.0, x, which LLVM 22's AMDGPU backend takes for
  /// fneg x (see floatOp; README, "Differential fuzzing").
  std::string addend(Ty t) { return chance(0.15) ? addendConstant(t) : load(pick(t)); }
  /// A float constant for fadd or fsub: a zero one opaque (see addend).
  std::string addendConstant(Ty t) {
    double v = 0;
    std::string c = fpConstant(t, &v);
    return v == 0.0 ? opaque(t, c) : c;
  }
  /// `lane` or `wg` converted to int type t.
  std::string laneAs(Ty t, bool wg = false) {
    std::string src = wg ? "%wg" : "%lane";
    if (t == Ty::I32)
      return src;
    return emit(std::string(bitWidth(t) < 32 ? "trunc" : "zext") + " i32 " + src + " to " + irName(t));
  }
  std::string canonicalNanBits(Ty it, const std::string &bits);
  /// `v` of type t through an xor with %zero: the same value, of which the
  /// compiler knows nothing (no constant, no known bits). A float's bits
  /// are selected by %zero == 0 over %zero's instead: an xor (or add) of a
  /// -0.0 constant's bits reads as fneg of the bitcast %zero, and fneg is
  /// what some of the LLVM defects the guards avoid start from (fadd (fneg
  /// x), +0.0: gfx950 seed 8000592), and a product folds for +0.0.
  std::string opaque(Ty t, const std::string &v) {
    unsigned n = bitWidth(t);
    std::string I = "i" + std::to_string(n);
    std::string bits = isFloat(t) ? emit("bitcast " + std::string(irName(t)) + " " + v + " to " + I) : v;
    // sext, not zext: the high half must be unknown too.
    std::string z = n == 32 ? "%zero" : emit(std::string(n > 32 ? "sext" : "trunc") + " i32 %zero to " + I);
    std::string x = isFloat(t) ? emit("select i1 " + emit("icmp eq i32 %zero, 0") + ", " + I + " " +
                                      bits + ", " + I + " " + z)
                               : emit("xor " + I + " " + bits + ", " + z);
    return isFloat(t) ? emit("bitcast " + I + " " + x + " to " + irName(t)) : x;
  }

  std::string intOp(Ty t);
  /// An i8 product, opaque to the compiler: LLVM 22's AMDGPU backend turns
  /// an i8 sum of a product and a shift of it into a v_dot4_u32_u8 that
  /// counts the product twice and adds the shift amount (README,
  /// "Differential fuzzing").
  std::string byteProduct(Ty t, const std::string &product) {
    return t == Ty::I8 ? opaque(t, product) : product;
  }
  /// An i8 or i16 arithmetic shift right, opaque to the compiler: LLVM 22's
  /// SDWA peephole folds an i16 ashr by 8 into a 32-bit consumer as
  /// sext(BYTE_1), extending to 32 bits where the i16 must be zero-extended
  /// (udiv i16 of it divided 0xffffffxx; README, "Differential fuzzing").
  std::string narrowAshr(Ty t, bool isAshr, const std::string &r) {
    return isAshr && bitWidth(t) < 32 ? opaque(t, r) : r;
  }
  std::string floatOp(Ty t);
  void unitBody(unsigned depth);
  std::string condition();
  void statement();
  void block(unsigned depth, unsigned count);
  void approxSink();
  void crossLane();
  void waveReduce();

  /// Whether the next unit is left out (and counts it).
  bool skipUnit() {
    unsigned u = p_.units++;
    return disabled_ && u < disabled_->size() && (*disabled_)[u];
  }

  std::mt19937_64 rng_;
  double size_;
  Program &p_;
  const std::vector<bool> *disabled_;
  std::string *out_ = nullptr;
  unsigned tmp_ = 0, label_ = 0;
  std::vector<unsigned> pool_[kNumTys];
  std::vector<unsigned> sinks_;    // f32 slots for the approximate operations
  std::vector<unsigned> counters_; // one i32 slot per loop depth
  std::set<std::string> decls_, gpuDecls_;
  unsigned ldsArrays_ = 0;
  std::vector<Ty> ldsTypes_;
};

std::string Generator::intConstant(Ty t) {
  unsigned n = bitWidth(t);
  uint64_t mask = n == 64 ? ~0ull : (1ull << n) - 1;
  static const int64_t small[] = {0, 1, -1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, -16, -64, 255, 256, 0x3f800000};
  uint64_t v;
  switch (below(4)) {
  case 0: v = uint64_t(small[below(sizeof(small) / sizeof(small[0]))]); break;
  case 1: v = 1ull << below(n); break;
  case 2: v = (1ull << below(n)) - 1; break;
  default: v = next(); break;
  }
  v &= mask;
  // Print as a signed value of the type's width.
  int64_t s = n == 64 ? int64_t(v) : int64_t(v << (64 - n)) >> (64 - n);
  return std::to_string(s);
}

std::string Generator::fpConstant(Ty t, double *value) {
  static const double nice[] = {0.0, -0.0, 0.5, 1.0, -1.0, 2.0, -2.0, 4.0, 0.25, 1.5, 3.0,
                                -7.5, 100.0, 1024.0, 65504.0, 0x1p-14, 0x1p-24, 0.1, 1e10,
                                -3e-30, 0x1p-126, 0x1p-149, 2.5, 0.75, 1e300, INFINITY, -INFINITY};
  double d = nice[below(sizeof(nice) / sizeof(nice[0]))];
  if (chance(0.3))
    d = std::ldexp(1.0 + double(next() % 4096) / 4096.0, int(below(40)) - 20) * (chance(0.5) ? -1 : 1);
  if (value)
    *value = d;
  return floatConstant(t, d);
}

/// NaN patterns of an integer that is about to become a float (or was one)
/// replaced by the canonical quiet NaN, in the integer domain where no
/// optimisation may touch it.
std::string Generator::canonicalNanBits(Ty it, const std::string &bits) {
  unsigned n = bitWidth(it);
  uint64_t expMask = n == 16 ? 0x7c00 : n == 32 ? 0x7f800000ull : 0x7ff0000000000000ull;
  uint64_t quiet = n == 16 ? 0x7e00 : n == 32 ? 0x7fc00000ull : 0x7ff8000000000000ull;
  uint64_t magMask = n == 64 ? 0x7fffffffffffffffull : (1ull << (n - 1)) - 1;
  std::string T = irName(it);
  auto s = [&](uint64_t v) { return std::to_string(n == 64 ? int64_t(v) : int64_t(v)); };
  std::string mag = emit("and " + T + " " + bits + ", " + s(magMask));
  std::string isNan = emit("icmp ugt " + T + " " + mag + ", " + s(expMask));
  return emit("select i1 " + isNan + ", " + T + " " + s(quiet) + ", " + T + " " + bits);
}

std::string Generator::intOp(Ty t) {
  std::string T = irName(t);
  unsigned n = bitWidth(t);
  std::string sfx = suffix(t);
  switch (below(16)) {
  case 0: case 1: {
    static const char *ops[] = {"add", "sub", "mul", "and", "or", "xor"};
    unsigned op = below(6);
    std::string a = load(pick(t)), b = operand(t);
    if (op == 4 && t == Ty::I64) { // see orI64 below
      a = opaque(t, a);
      b = opaque(t, b);
    }
    std::string r = emit(std::string(ops[op]) + " " + T + " " + a + ", " + b);
    return op == 2 ? byteProduct(t, r) : r;
  }
  case 2: {
    static const char *ops[] = {"shl", "lshr", "ashr"};
    std::string a = operand(t), b = operand(t);
    std::string m = emit("and " + T + " " + b + ", " + std::to_string(n - 1));
    unsigned op = below(3);
    return narrowAshr(t, op == 2, emit(std::string(ops[op]) + " " + T + " " + a + ", " + m));
  }
  case 3: {
    static const char *ops[] = {"udiv", "urem", "sdiv", "srem"};
    unsigned op = below(4);
    std::string a = operand(t), b = load(pick(t));
    std::string bad = emit("icmp eq " + T + " " + b + ", 0");
    if (op >= 2) {
      std::string minS = n == 64 ? "-9223372036854775808" : std::to_string(-(int64_t(1) << (n - 1)));
      std::string am = emit("icmp eq " + T + " " + a + ", " + minS);
      std::string bm = emit("icmp eq " + T + " " + b + ", -1");
      std::string ov = emit("and i1 " + am + ", " + bm);
      bad = emit("or i1 " + bad + ", " + ov);
    }
    std::string d = emit("select i1 " + bad + ", " + T + " 1, " + T + " " + b);
    return emit(std::string(ops[op]) + " " + T + " " + a + ", " + d);
  }
  case 4: {
    static const char *ops[] = {"smin", "smax", "umin", "umax", "sadd.sat", "uadd.sat", "ssub.sat", "usub.sat"};
    unsigned op = below(8);
    std::string a = load(pick(t)), b = operand(t);
    // LLVM 22's AMDGPU backend folds the subtraction that makes an i64's
    // high half (a product's, say) into the v_addc of a saturating add and
    // then saturates on that v_addc's carry, which is another one (README,
    // "Differential fuzzing"): i64 saturating operations take opaque
    // operands.
    if (op >= 4 && t == Ty::I64) {
      a = opaque(t, a);
      b = opaque(t, b);
    }
    return call(T, std::string("llvm.") + ops[op] + "." + sfx, {{T, a}, {T, b}});
  }
  case 5: {
    std::string a = load(pick(t));
    switch (below(n >= 16 ? 6 : 5)) {
    case 0: return call(T, "llvm.ctpop." + sfx, {{T, a}});
    case 1: return call(T, "llvm.ctlz." + sfx, {{T, a}, {"i1", "false"}});
    case 2: return call(T, "llvm.cttz." + sfx, {{T, a}, {"i1", "false"}});
    case 3: return call(T, "llvm.bitreverse." + sfx, {{T, a}});
    case 4: return call(T, "llvm.abs." + sfx, {{T, a}, {"i1", "false"}});
    default: return call(T, "llvm.bswap." + sfx, {{T, a}});
    }
  }
  case 6: {
    std::string a = load(pick(t)), b = operand(t), c = operand(t);
    return call(T, std::string(chance(0.5) ? "llvm.fshl." : "llvm.fshr.") + sfx, {{T, a}, {T, b}, {T, c}});
  }
  case 7: {
    std::string c = condition();
    std::string a = operand(t), b = load(pick(t));
    return emit("select i1 " + c + ", " + T + " " + a + ", " + T + " " + b);
  }
  case 8: {
    Ty u = anyInt();
    if (u == t)
      u = t == Ty::I32 ? Ty::I64 : Ty::I32;
    std::string a = load(pick(u));
    if (bitWidth(u) > n)
      return emit("trunc " + std::string(irName(u)) + " " + a + " to " + T);
    return emit(std::string(chance(0.5) ? "zext " : "sext ") + irName(u) + " " + a + " to " + T);
  }
  case 9: case 10: {
    // From a float: guarded conversion, saturating conversion, bitcast, fcmp.
    Ty f = anyFloat();
    std::string F = irName(f);
    std::string x = load(pick(f));
    unsigned kind = below(4);
    if (kind == 2 && bitWidth(f) == n) {
      std::string bits = emit("bitcast " + F + " " + x + " to " + T);
      return canonicalNanBits(t, bits);
    }
    if (kind == 3) {
      std::string c = emit("fcmp " + std::string(kFcmp[below(14)]) + " " + F + " " + x + ", " + operand(f));
      return emit("zext i1 " + c + " to " + T);
    }
    bool isSigned = chance(0.5);
    if (kind == 1)
      return call(T, std::string(isSigned ? "llvm.fptosi.sat." : "llvm.fptoui.sat.") + sfx + "." + suffix(f), {{F, x}});
    // fptosi/fptoui are poison outside the range; the bounds are powers of
    // two (exact in every format, or infinite where the format ends first).
    double lo = isSigned ? -std::ldexp(1.0, n - 1) : -1.0;
    double hi = std::ldexp(1.0, isSigned ? n - 1 : n);
    double maxF = f == Ty::F16 ? 65504.0 : f == Ty::F32 ? 3.4028234663852886e38 : 1.7976931348623157e308;
    std::string loC = lo < -maxF ? "0xFFF0000000000000" : floatConstant(f, lo);
    std::string hiC = hi > maxF ? "0x7FF0000000000000" : floatConstant(f, hi);
    // Past the format's end the bound is an infinity, which must fail the
    // test too (fptosi of -inf is poison): strictly greater then.
    bool strict = !isSigned || lo < -maxF;
    std::string c1 = emit("fcmp " + std::string(strict ? "ogt " : "oge ") + F + " " + x + ", " + loC);
    std::string c2 = emit("fcmp olt " + F + " " + x + ", " + hiC);
    std::string ok = emit("and i1 " + c1 + ", " + c2);
    std::string xs = emit("select i1 " + ok + ", " + F + " " + x + ", " + F + " 0.0");
    return emit(std::string(isSigned ? "fptosi " : "fptoui ") + F + " " + xs + " to " + T);
  }
  case 11: {
    static const char *ops[] = {"add", "xor", "mul", "sub"};
    unsigned op = below(4);
    std::string a = load(pick(t));
    std::string r = emit(std::string(ops[op]) + " " + T + " " + a + ", " + laneAs(t, chance(0.2)));
    return op == 2 ? byteProduct(t, r) : r;
  }
  case 12: {
    if (t == Ty::I32 || t == Ty::I16) {
      // The high half of a widened product (v_mul_hi_*, v_mad_u64_u32).
      Ty w = t == Ty::I32 ? Ty::I64 : Ty::I32;
      std::string W = irName(w);
      // i16 halves are sign-extended only: LLVM 22 turns zext(ashr i16 x,
      // 8) into an SDWA sext(BYTE_1) operand of v_mul_u32_u24, which sets
      // bits 16-23 that the zext clears (README, "Differential fuzzing").
      const char *ext = chance(0.5) && t == Ty::I32 ? "zext " : "sext ";
      std::string a = emit(ext + T + " " + load(pick(t)) + " to " + W);
      std::string b = emit(ext + T + " " + operand(t) + " to " + W);
      std::string m = emit("mul " + W + " " + a + ", " + b);
      std::string h = emit("lshr " + W + " " + m + ", " + std::to_string(n));
      return emit("trunc " + W + " " + h + " to " + T);
    }
    std::string a = load(pick(t)), b = operand(t);
    static const char *ops[] = {"uadd", "sadd", "usub", "ssub", "umul", "smul"};
    unsigned op = below(6);
    // The carry of an i64 add or subtract with overflow: as for the
    // saturating ones (case 4), LLVM 22 takes it from a v_addc into which
    // it folded the add that made an operand's high half; opaque operands.
    if (op < 4 && t == Ty::I64) {
      a = opaque(t, a);
      b = opaque(t, b);
    }
    std::string r = call("{" + T + ", i1}", std::string("llvm.") + ops[op] + ".with.overflow." + sfx, {{T, a}, {T, b}});
    // The product of umul/smul.with.overflow is a plain mul to InstCombine
    // (byteProduct).
    if (chance(0.5)) {
      std::string v = emit("extractvalue {" + T + ", i1} " + r + ", 0");
      return op >= 4 ? byteProduct(t, v) : v;
    }
    std::string o = emit("extractvalue {" + T + ", i1} " + r + ", 1");
    return emit("zext i1 " + o + " to " + T);
  }
  default: {
    static const char *ops[] = {"and", "or", "xor", "add", "mul", "shl", "lshr", "ashr"};
    unsigned op = below(8);
    std::string a = load(pick(t));
    std::string c = op >= 5 ? std::to_string(below(n)) : intConstant(t);
    // orI64: LLVM 22's AMDGPU backend splits or(or(a, C), b) on i64 so that
    // the high half is b's where C's high half is all ones (README,
    // "Differential fuzzing"): both operands of an i64 or are opaque (a
    // slot's value may fold to such a C as well).
    if (op == 1 && t == Ty::I64) {
      a = opaque(t, a);
      c = opaque(t, c);
    }
    std::string r = emit(std::string(ops[op]) + " " + T + " " + a + ", " + c);
    return op == 4 ? byteProduct(t, r) : narrowAshr(t, op == 7, r);
  }
  }
}

std::string Generator::floatOp(Ty t) {
  std::string T = irName(t);
  std::string sfx = suffix(t);
  switch (below(14)) {
  case 0: case 1: case 2: {
    static const char *ops[] = {"fadd", "fsub", "fmul", "fdiv"};
    unsigned op = below(4);
    std::string a = operand(t), b = op <= 1 ? addend(t) : operand(t);
    // LLVM 22's AMDGPU backend takes "fsub +0.0, x" for fneg x as a source
    // modifier (v_ldexp_f32 ..., -v; v_cvt_f64_f32 -v; v_floor_f16 -v),
    // which gives -0 for x = +0 (README, "Differential fuzzing"). The +0.0
    // need not be written (sitofp of an always-false compare folds to it),
    // so fsub's left operand is opaque to the compiler; InstCombine makes
    // the same fsub of fadd (fneg x), +0.0, so fadd's and fsub's right
    // operands are never a visible zero (addend).
    if (op == 1)
      a = opaque(t, a);
    return emit(std::string(ops[op]) + " " + T + " " + a + ", " + b);
  }
  case 3: {
    std::string a = load(pick(t)), b = operand(t), c = operand(t);
    return call(T, "llvm.fma." + sfx, {{T, a}, {T, b}, {T, c}});
  }
  case 4: case 5: {
    std::string a = load(pick(t));
    static const char *ops[] = {"floor", "ceil", "trunc", "rint", "nearbyint", "round", "roundeven", "sqrt", "fabs"};
    unsigned op = below(10);
    if (op == 9)
      return emit("fneg " + T + " " + a);
    return call(T, std::string("llvm.") + ops[op] + "." + sfx, {{T, a}});
  }
  case 6: {
    std::string a = load(pick(t)), b = operand(t);
    unsigned op = below(7);
    static const char *ops[] = {"minimum", "maximum", "minimumnum", "maximumnum", "copysign", "minnum", "maxnum"};
    if (op >= 5) {
      // minnum(+0, -0) may return either zero: when the operands compare
      // equal both sides get the same one, which leaves no choice.
      std::string eq = emit("fcmp oeq " + T + " " + a + ", " + b);
      b = emit("select i1 " + eq + ", " + T + " " + a + ", " + T + " " + b);
    }
    if (op == 4) {
      // A NaN's sign is not defined (x86 makes negative NaNs, AMDGPU
      // positive ones): copysign takes the sign of a number only.
      std::string ord = emit("fcmp ord " + T + " " + b + ", " + floatConstant(t, 0.0));
      b = emit("select i1 " + ord + ", " + T + " " + b + ", " + T + " " + floatConstant(t, 1.0));
    }
    return call(T, std::string("llvm.") + ops[op] + "." + sfx, {{T, a}, {T, b}});
  }
  case 7: {
    std::string c = condition();
    std::string a = operand(t), b = load(pick(t));
    return emit("select i1 " + c + ", " + T + " " + a + ", " + T + " " + b);
  }
  case 8: {
    Ty u = anyInt();
    std::string a = load(pick(u));
    if (t == Ty::F16 && bitWidth(u) > 8) {
      // InstCombine (LLVM 22) turns fpext(sitofp iN x to half) into a
      // conversion to float when x's known bits fit half's mantissa,
      // forgetting that half overflows at 65520 (x = k * 2^29 became 2^29
      // instead of inf; README, "Differential fuzzing"). An xor with
      // %zero hides the known bits.
      a = opaque(u, a);
    }
    bool isSigned = chance(0.5);
    // LLVM 22's SDWA peephole gave uitofp of an i16 that another use sign
    // extends a sext() source modifier (v_cvt_f32_u32_sdwa v, sext(v)
    // src0_sel:WORD_0), converting 65531 as 4294967291 (README,
    // "Differential fuzzing"): a narrow unsigned conversion's operand is
    // opaque.
    if (!isSigned && bitWidth(u) < 32)
      a = opaque(u, a);
    return emit(std::string(isSigned ? "sitofp " : "uitofp ") + irName(u) + " " + a + " to " + T);
  }
  case 9: {
    Ty u = anyFloat();
    if (u == t)
      u = t == Ty::F32 ? Ty::F64 : Ty::F32;
    std::string a = load(pick(u));
    if (t == Ty::F16 && u != Ty::F16) {
      // LLVM 22 selects fptrunc(fma/fmul/fadd) from f32 to half as one
      // v_fma_mix, which rounds once where the IR rounds twice, and gives
      // a -0 product +0 (a +0 addend; README, "Differential fuzzing"). The
      // operand goes through an xor with %zero, a kernel argument that is 0
      // at run time, which no fold can see through.
      // From f64 too: fptrunc(fpext f32 to double) to half folds to the
      // f32 form.
      return emit("fptrunc " + std::string(irName(u)) + " " + opaque(u, a) + " to half");
    }
    return emit(std::string(bitWidth(u) < bitWidth(t) ? "fpext " : "fptrunc ") + irName(u) + " " + a +
                " to " + T);
  }
  case 10: {
    Ty it = t == Ty::F16 ? Ty::I16 : t == Ty::F32 ? Ty::I32 : Ty::I64;
    std::string bits = canonicalNanBits(it, load(pick(it)));
    return emit("bitcast " + std::string(irName(it)) + " " + bits + " to " + T);
  }
  case 11: {
    // ldexp with an exponent anywhere from -160 to 95 (over- and underflow).
    std::string e = load(pick(Ty::I32));
    std::string m = emit("and i32 " + e + ", 255");
    std::string x = emit("sub i32 " + m + ", 160");
    return call(T, "llvm.ldexp." + sfx + ".i32", {{T, load(pick(t))}, {"i32", x}});
  }
  case 12: {
    std::string l = emit(std::string(chance(0.5) ? "sitofp" : "uitofp") + " i32 " + (chance(0.8) ? "%lane" : "%wg") + " to " + T);
    return emit(std::string(chance(0.5) ? "fmul " : "fadd ") + T + " " + load(pick(t)) + ", " + l);
  }
  default: {
    static const char *ops[] = {"fadd", "fsub", "fmul", "fdiv"};
    std::string a = load(pick(t));
    unsigned op = below(4);
    // A zero added or subtracted stays out of InstCombine's sight (addend),
    // and fsub's left operand out of the backend's (case 0: it may fold to
    // +0.0).
    std::string c = op <= 1 ? addendConstant(t) : fpConstant(t);
    if (op == 1)
      a = opaque(t, a);
    return emit(std::string(ops[op]) + " " + T + " " + a + ", " + c);
  }
  }
}

/// An i1 that usually differs between lanes.
std::string Generator::condition() {
  switch (below(5)) {
  case 0: case 1: {
    Ty u = anyInt();
    std::string U = irName(u);
    std::string a = load(pick(u));
    return emit("icmp " + std::string(kIcmp[below(10)]) + " " + U + " " + a + ", " + operand(u));
  }
  case 2: {
    Ty f = anyFloat();
    std::string F = irName(f);
    std::string a = load(pick(f)), b = operand(f);
    unsigned pred = below(14);
    if (pred == 5 || pred == 7) {
      // LLVM 22's AMDGPU backend rewrites select(fcmp one x, y), c, y into
      // select(..., c, x), as if x and y were equal whenever "one" fails:
      // not when one is a NaN (README, "Differential fuzzing"). Opaque
      // operands keep the select's arms from matching the compare's.
      a = opaque(f, a);
      b = opaque(f, b);
    }
    return emit("fcmp " + std::string(kFcmp[pred]) + " " + F + " " + a + ", " + b);
  }
  case 3: {
    std::string m = emit("and i32 %lane, " + std::to_string(below(64) + 1));
    return emit("icmp " + std::string(kIcmp[below(10)]) + " i32 " + m + ", " + std::to_string(below(16)));
  }
  default: {
    // Uniform in a workgroup or a wave (a scalar branch). Each condition is
    // its own expression (a random xor), so that GVN does not merge
    // conditions of different branches and keep one live in SCC for long.
    std::string x = std::to_string(int32_t(next()));
    if (chance(0.5)) {
      std::string a = emit("xor i32 %wg, " + x);
      return emit("icmp eq i32 " + a + ", " + std::to_string(int32_t(std::stoll(x) ^ below(2))));
    }
    std::string w = emit("lshr i32 %lane, 6");
    std::string a = emit("xor i32 " + w + ", " + x);
    return emit("icmp " + std::string(kIcmp[below(10)]) + " i32 " + a + ", " +
                std::to_string(int32_t(std::stoll(x) ^ below(4))));
  }
  }
}

void Generator::statement() {
  Ty t = anyType();
  std::string v = isFloat(t) ? floatOp(t) : intOp(t);
  store(pick(t), v);
}

void Generator::approxSink() {
  // Operations that AMDGPU does not round correctly, each into a sink slot
  // that nothing reads (so that the error does not spread) and compared
  // within the bound README.md gives for it. Inputs of fdiv and sqrt are
  // brought into a range where afn keeps that bound: LLVM's afn lowering
  // (a * rcp(b), a bare v_sqrt) makes no promise near the ends of the range.
  unsigned sink = sinks_[below(sinks_.size())];
  auto tame = [&](const std::string &x0) {
    // A NaN's sign is not defined (x86 makes negative NaNs, AMDGPU positive
    // ones), so copysign must not see one.
    std::string ord = emit("fcmp ord float " + x0 + ", 0.0");
    std::string x = emit("select i1 " + ord + ", float " + x0 + ", float 1.0");
    std::string a = call("float", "llvm.fabs.f32", {{"float", x}});
    std::string lo = call("float", "llvm.maximumnum.f32", {{"float", a}, {"float", floatConstant(Ty::F32, 0x1p-40)}});
    std::string hi = call("float", "llvm.minimumnum.f32", {{"float", lo}, {"float", floatConstant(Ty::F32, 0x1p40)}});
    return call("float", "llvm.copysign.f32", {{"float", hi}, {"float", x}});
  };
  std::string r;
  unsigned ulps;
  switch (below(4)) {
  case 0: {
    std::string a = tame(load(pick(Ty::F32))), b = tame(load(pick(Ty::F32)));
    r = emit("fdiv afn float " + a + ", " + b);
    ulps = 3;
    break;
  }
  case 1: {
    std::string a = call("float", "llvm.fabs.f32", {{"float", tame(load(pick(Ty::F32)))}});
    decls_.insert("declare float @llvm.sqrt.f32(float)");
    r = emit("call afn float @llvm.sqrt.f32(float " + a + ")");
    ulps = 2;
    break;
  }
  case 2:
    r = call("float", "llvm.exp2.f32", {{"float", load(pick(Ty::F32))}});
    ulps = 2;
    break;
  default:
    r = call("float", "llvm.log2.f32", {{"float", load(pick(Ty::F32))}});
    ulps = 2;
    break;
  }
  p_.slots[sink].ulps = std::max(p_.slots[sink].ulps, ulps);
  store(sink, r);
}

void Generator::block(unsigned depth, unsigned count) {
  for (unsigned i = 0; i < count; ++i) {
    // A left-out unit is generated all the same (the random stream, and so
    // the rest of the program, stays as it was) into a scratch string.
    std::string scratch, *kept = out_;
    if (depth == 0 && skipUnit())
      out_ = &scratch;
    unitBody(depth);
    out_ = kept;
  }
}

void Generator::unitBody(unsigned depth) {
  {
    unsigned r = below(100);
    if (r < 8 && depth < 2) {
      // if/else on a (usually) divergent condition.
      std::string c = condition();
      std::string lt = label(), le = label(), lj = label();
      line("br i1 " + c + ", label %" + lt + ", label %" + le);
      *out_ += lt + ":\n";
      block(depth + 1, 1 + below(4));
      line("br label %" + lj);
      *out_ += le + ":\n";
      if (chance(0.6))
        block(depth + 1, 1 + below(3));
      line("br label %" + lj);
      *out_ += lj + ":\n";
    } else if (r < 13 && depth < 2) {
      // A loop whose trip count (0-7) differs between lanes.
      unsigned ctr = counters_[depth];
      std::string n0 = load(pick(Ty::I32));
      std::string n = emit("and i32 " + n0 + ", 7");
      store(ctr, "0");
      std::string lh = label(), lb = label(), le = label();
      line("br label %" + lh);
      *out_ += lh + ":\n";
      std::string i0 = load(ctr);
      std::string c = emit("icmp ult i32 " + i0 + ", " + n);
      line("br i1 " + c + ", label %" + lb + ", label %" + le);
      *out_ += lb + ":\n";
      block(depth + 1, 1 + below(5));
      std::string i1 = load(ctr);
      store(ctr, emit("add i32 " + i1 + ", 1"));
      line("br label %" + lh);
      *out_ += le + ":\n";
    } else if (r < 16) {
      approxSink();
    } else {
      statement();
    }
  }
}

void Generator::crossLane() {
  CrossLane x{CrossLane::ReadFirstLane};
  bool gfx950 = p_.chip == Chip::gfx950;
  unsigned kinds = gfx950 ? 11 : 9;
  // Wave reductions come only after the last segment (see run()).
  do
    x.kind = CrossLane::Kind(below(kinds));
  while (x.kind == CrossLane::WaveReduce);
  switch (x.kind) {
  case CrossLane::ReadFirstLane:
  case CrossLane::ReadLane: {
    static const Ty tys[] = {Ty::I32, Ty::I64, Ty::F32, Ty::I32};
    x.ty = tys[below(4)];
    x.imm = below(64);
    break;
  }
  case CrossLane::Ballot:
    x.ty = Ty::I64;
    x.imm2 = below(10);
    x.src = pick(Ty::I32);
    x.src2 = pick(Ty::I32);
    x.dst = pick(Ty::I64);
    if (!skipUnit())
      p_.steps.push_back({false, 0, x});
    return;
  case CrossLane::Lds: {
    static const Ty tys[] = {Ty::I8, Ty::I16, Ty::I32, Ty::I32, Ty::I64, Ty::F16, Ty::F32, Ty::F64};
    x.ty = tys[below(8)];
    x.imm = below(4);
    x.imm2 = below(p_.block * 2);
    x.src2 = pick(Ty::I32); // index source for LdsIndex::Data
    x.ldsIndex = ldsArrays_++;
    ldsTypes_.push_back(x.ty);
    break;
  }
  case CrossLane::WaveReduce:
    break;
  case CrossLane::Dpp: {
    static const unsigned fixed[] = {0x130, 0x134, 0x138, 0x13C, 0x140, 0x141, 0x142, 0x143};
    unsigned k = below(5);
    x.imm = k == 0 ? below(256)
            : k < 4 ? 0x100 + (k - 1) * 0x10 + 1 + below(15)
                    : fixed[below(8)];
    x.rowMask = chance(0.7) ? 0xf : below(16);
    x.bankMask = chance(0.7) ? 0xf : below(16);
    // A row broadcast has no source for row 0 (bcast15) or rows 0-1
    // (bcast31); the ISA leaves those rows unspecified, so they are masked.
    if (x.imm == 0x142)
      x.rowMask &= 0xe;
    if (x.imm == 0x143)
      x.rowMask &= 0xc;
    x.boundCtrl = chance(0.5);
    break;
  }
  case CrossLane::Swizzle:
    // Bit-mask mode (and, or, xor masks on the lane within 32) or quad
    // permute (offset bit 15); the FFT and rotate encodings above 0xe000
    // are left out.
    x.imm = chance(0.5) ? unsigned(below(0x8000)) : 0x8000 | below(256);
    break;
  default:
    break;
  }
  x.src = pick(x.ty);
  if (x.kind == CrossLane::Bpermute || x.kind == CrossLane::Dpp || x.kind == CrossLane::Mbcnt ||
      x.kind == CrossLane::Permlane16Swap || x.kind == CrossLane::Permlane32Swap)
    x.src2 = pick(Ty::I32);
  x.dst = pick(x.ty);
  x.dst2 = pick(x.ty);
  if (x.kind == CrossLane::Permlane16Swap || x.kind == CrossLane::Permlane32Swap) {
    while (x.dst2 == x.dst && pool_[unsigned(Ty::I32)].size() > 1)
      x.dst2 = pick(x.ty);
  }
  if (!skipUnit())
    p_.steps.push_back({false, 0, x});
}

/// A wave reduction of an i32 slot, as the program's last steps: LLVM 22
/// expands a reduction of a divergent value into a loop that clobbers SCC
/// without saying so, and a uniform branch condition that the scheduler
/// computed before it in SCC then chooses the wrong way (README,
/// "Differential fuzzing"); with no branch after it, it cannot.
void Generator::waveReduce() {
  CrossLane x{CrossLane::WaveReduce};
  // Not add or xor: LLVM 22 folds wave.reduce.add/xor of a constant to the
  // constant, where the sum over the lanes (or their parity) is meant.
  static const Reduce ops[] = {Reduce::UMin, Reduce::UMax, Reduce::SMin,
                               Reduce::SMax, Reduce::And, Reduce::Or};
  x.imm = unsigned(ops[below(6)]);
  x.src = pick(Ty::I32);
  x.dst = pick(Ty::I32);
  if (!skipUnit())
    p_.steps.push_back({false, 0, x});
}

void Generator::run() {
  static const unsigned blocks[] = {64, 64, 128, 128, 192, 256};
  p_.block = blocks[below(6)];
  p_.grid = 1 + below(2);
  // Slots: a pool of each type, the approximate sinks, the loop counters.
  for (unsigned t = 0; t < kNumTys; ++t) {
    unsigned n = 2 + below(4);
    for (unsigned i = 0; i < n; ++i) {
      pool_[t].push_back(p_.slots.size());
      p_.slots.push_back({Ty(t)});
    }
  }
  for (unsigned i = 0; i < 2; ++i) {
    sinks_.push_back(p_.slots.size());
    p_.slots.push_back({Ty::F32});
  }
  for (unsigned i = 0; i < 2; ++i) {
    counters_.push_back(p_.slots.size());
    p_.slots.push_back({Ty::I32});
  }
  unsigned segments = 2 + below(4);
  for (unsigned s = 0; s < segments; ++s) {
    if (s) {
      unsigned xls = 1 + below(2);
      for (unsigned i = 0; i < xls; ++i)
        crossLane();
    }
    p_.segments.emplace_back();
    out_ = &p_.segments.back();
    p_.steps.push_back({true, s, {}});
    unsigned count = unsigned((4 + below(12)) * size_) + 1;
    block(0, count);
  }
  unsigned reductions = below(3);
  for (unsigned i = 0; i < reductions; ++i)
    waveReduce();
  for (const std::string &d : decls_)
    p_.declarations += d + "\n";
  for (const std::string &d : gpuDecls_)
    p_.gpuDeclarations += d + "\n";
  p_.ldsTypes = ldsTypes_;
}

} // namespace

Program generateProgram(uint64_t seed, Chip chip, double size, const std::vector<bool> *disabled) {
  Program p;
  Generator(seed, chip, size, p, disabled).run();
  return p;
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

static std::string replacePtr(const std::string &body, const std::string &ptr) {
  std::string out;
  out.reserve(body.size() + body.size() / 4);
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '$' && i + 1 < body.size() && body[i + 1] == 'P') {
      out += ptr;
      ++i;
    } else {
      out += body[i];
    }
  }
  return out;
}

static std::string slotPointers(const Program &p, const std::string &ptr, const std::string &base) {
  std::string s;
  for (size_t k = 0; k < p.slots.size(); ++k)
    s += "  %s" + std::to_string(k) + " = getelementptr inbounds i8, " + ptr + " " + base +
         ", i32 " + std::to_string(8 * k) + "\n";
  return s;
}

/// Intrinsics the host's own backend gets wrong, each replaced in the host
/// module by an equivalent function of other operations (README,
/// "Differential fuzzing", lists them): the name, and the definition of
/// "@host.<name>".
static const struct {
  const char *name, *definition, *declaration;
} kHostWorkarounds[] = {
    // LLVM 22's x86 backend returns -32768 for a NaN (the LangRef says 0);
    // the f32 form is right, and f16 -> f32 is exact.
    {"llvm.fptosi.sat.i16.f16",
     "define internal i16 @host.llvm.fptosi.sat.i16.f16(half %x) {\n"
     "  %e = fpext half %x to float\n"
     "  %r = call i16 @llvm.fptosi.sat.i16.f32(float %e)\n"
     "  ret i16 %r\n}\n",
     "declare i16 @llvm.fptosi.sat.i16.f32(float)"},
};

std::string Program::hostModule() const {
  std::string m = "; kcc-emu-fuzz host module\n" + declarations;
  std::string body;
  for (size_t k = 0; k < segments.size(); ++k) {
    body += "\ndefine void @seg" + std::to_string(k) + "(ptr %v, i32 %lane, i32 %wg, i32 %zero) {\nentry:\n";
    body += slotPointers(*this, "ptr", "%v");
    body += replacePtr(segments[k], "ptr");
    body += "  ret void\n}\n";
  }
  for (const auto &w : kHostWorkarounds) {
    std::string call = std::string("@") + w.name + "(";
    if (body.find(call) == std::string::npos)
      continue;
    std::string replaced, with = std::string("@host.") + w.name + "(";
    size_t at = 0, next;
    while ((next = body.find(call, at)) != std::string::npos) {
      replaced += body.substr(at, next - at) + with;
      at = next + call.size();
    }
    body = replaced + body.substr(at);
    m += w.definition;
    if (m.find(w.declaration) == std::string::npos)
      m += std::string(w.declaration) + "\n";
  }
  return m + body;
}

static const char *kReduceName[] = {"umin", "umax", "min", "max", "add", "and", "or", "xor"};

std::string Program::gpuModule() const {
  std::string m;
  llvm::raw_string_ostream os(m);
  os << "; kcc-emu-fuzz seed " << seed << " chip " << getChipInfo(chip).name << " block " << block
     << " grid " << grid << "\n";
  os << declarations << gpuDeclarations;
  os << "declare i32 @llvm.amdgcn.workitem.id.x()\ndeclare i32 @llvm.amdgcn.workgroup.id.x()\n"
        "declare void @llvm.amdgcn.s.barrier()\n";
  for (size_t k = 0; k < ldsTypes.size(); ++k)
    os << "@lds" << k << " = internal addrspace(3) global [" << block << " x " << irName(ldsTypes[k])
       << "] poison, align 8\n";
  std::string P = "ptr addrspace(5)";
  os << "\ndefine amdgpu_kernel void @fuzz(ptr addrspace(1) noalias %in, ptr addrspace(1) noalias %out, i32 %zero) #0 {\n"
        "entry:\n"
        "  %tid = call i32 @llvm.amdgcn.workitem.id.x()\n"
        "  %wg = call i32 @llvm.amdgcn.workgroup.id.x()\n"
        "  %wgbase = mul i32 %wg, " << block << "\n"
        "  %lane = add i32 %wgbase, %tid\n"
        "  %v = alloca [" << slots.size() << " x i64], align 8, addrspace(5)\n";
  os << slotPointers(*this, P, "%v");
  os << "  %lane64 = zext i32 %lane to i64\n"
        "  %rowoff = mul i64 %lane64, " << 8 * slots.size() << "\n"
        "  %inrow = getelementptr inbounds i8, ptr addrspace(1) %in, i64 %rowoff\n"
        "  %outrow = getelementptr inbounds i8, ptr addrspace(1) %out, i64 %rowoff\n";
  for (size_t k = 0; k < slots.size(); ++k) {
    const char *T = irName(slots[k].ty);
    os << "  %in." << k << " = getelementptr inbounds i8, ptr addrspace(1) %inrow, i64 " << 8 * k << "\n"
       << "  %x." << k << " = load " << T << ", ptr addrspace(1) %in." << k << "\n"
       << "  store " << T << " %x." << k << ", " << P << " %s" << k << "\n";
  }
  unsigned n = 0;
  auto v = [&] { return "%c" + std::to_string(n++); };
  auto ld = [&](unsigned slot) {
    std::string r = v();
    os << "  " << r << " = load " << irName(slots[slot].ty) << ", " << P << " %s" << slot << "\n";
    return r;
  };
  auto st = [&](unsigned slot, const std::string &val) {
    os << "  store " << irName(slots[slot].ty) << " " << val << ", " << P << " %s" << slot << "\n";
  };
  for (const Step &s : steps) {
    if (s.isSegment) {
      os << replacePtr(segments[s.segment], P);
      continue;
    }
    const CrossLane &x = s.xl;
    std::string T = irName(x.ty);
    std::string r;
    switch (x.kind) {
    case CrossLane::ReadFirstLane: {
      std::string a = ld(x.src);
      r = v();
      os << "  " << r << " = call " << T << " @llvm.amdgcn.readfirstlane." << (x.ty == Ty::F32 ? "f32" : T)
         << "(" << T << " " << a << ")\n";
      break;
    }
    case CrossLane::ReadLane: {
      std::string a = ld(x.src);
      r = v();
      os << "  " << r << " = call " << T << " @llvm.amdgcn.readlane." << (x.ty == Ty::F32 ? "f32" : T)
         << "(" << T << " " << a << ", i32 " << x.imm << ")\n";
      break;
    }
    case CrossLane::Ballot: {
      // LLVM 22's AMDGPU backend lowers ballot(fcmp one x, y) to v_cmp_neq
      // (une: true for a NaN) where a compare outside a ballot takes
      // v_cmp_lg; InstCombine makes that fcmp of this icmp when its operand
      // is a zext'd fcmp (README, "Differential fuzzing"), so the operand
      // goes through an xor with %zero (a kernel argument that is 0).
      std::string a0 = ld(x.src), b = ld(x.src2), a = v(), c = v();
      os << "  " << a << " = xor i32 " << a0 << ", %zero\n";
      os << "  " << c << " = icmp " << icmpName(x.imm2) << " i32 " << a << ", " << b << "\n";
      r = v();
      os << "  " << r << " = call i64 @llvm.amdgcn.ballot.i64(i1 " << c << ")\n";
      break;
    }
    case CrossLane::Bpermute: {
      std::string a = ld(x.src), b = ld(x.src2);
      r = v();
      os << "  " << r << " = call i32 @llvm.amdgcn.ds.bpermute(i32 " << b << ", i32 " << a << ")\n";
      break;
    }
    case CrossLane::Lds: {
      std::string a = ld(x.src);
      std::string arr = "@lds" + std::to_string(x.ldsIndex);
      std::string ty = "[" + std::to_string(block) + " x " + T + "]";
      std::string p = v();
      os << "  " << p << " = getelementptr inbounds " << ty << ", ptr addrspace(3) " << arr << ", i32 0, i32 %tid\n"
         << "  store " << T << " " << a << ", ptr addrspace(3) " << p << "\n"
         << "  fence syncscope(\"workgroup\") release\n"
         << "  call void @llvm.amdgcn.s.barrier()\n"
         << "  fence syncscope(\"workgroup\") acquire\n";
      std::string idx = v();
      switch (LdsIndex(x.imm)) {
      case LdsIndex::Add: {
        std::string t = v();
        os << "  " << t << " = add i32 %tid, " << x.imm2 << "\n  " << idx << " = urem i32 " << t << ", " << block << "\n";
        break;
      }
      case LdsIndex::Xor: {
        std::string t = v();
        os << "  " << t << " = xor i32 %tid, " << x.imm2 << "\n  " << idx << " = urem i32 " << t << ", " << block << "\n";
        break;
      }
      case LdsIndex::Reverse:
        os << "  " << idx << " = sub i32 " << block - 1 << ", %tid\n";
        break;
      case LdsIndex::Data: {
        std::string d = ld(x.src2);
        os << "  " << idx << " = urem i32 " << d << ", " << block << "\n";
        break;
      }
      }
      std::string q = v();
      r = v();
      os << "  " << q << " = getelementptr inbounds " << ty << ", ptr addrspace(3) " << arr << ", i32 0, i32 " << idx << "\n"
         << "  " << r << " = load " << T << ", ptr addrspace(3) " << q << "\n";
      break;
    }
    case CrossLane::WaveReduce: {
      std::string a = ld(x.src);
      r = v();
      os << "  " << r << " = call i32 @llvm.amdgcn.wave.reduce." << kReduceName[x.imm] << ".i32(i32 " << a
         << ", i32 0)\n";
      break;
    }
    case CrossLane::Dpp: {
      std::string a = ld(x.src), old = ld(x.src2);
      r = v();
      os << "  " << r << " = call i32 @llvm.amdgcn.update.dpp.i32(i32 " << old << ", i32 " << a << ", i32 "
         << x.imm << ", i32 " << x.rowMask << ", i32 " << x.bankMask << ", i1 " << (x.boundCtrl ? "true" : "false")
         << ")\n";
      break;
    }
    case CrossLane::Mbcnt: {
      std::string a = ld(x.src), b = ld(x.src2), acc = ld(x.dst), lo = v();
      os << "  " << lo << " = call i32 @llvm.amdgcn.mbcnt.lo(i32 " << a << ", i32 " << acc << ")\n";
      r = v();
      os << "  " << r << " = call i32 @llvm.amdgcn.mbcnt.hi(i32 " << b << ", i32 " << lo << ")\n";
      break;
    }
    case CrossLane::Swizzle: {
      std::string a = ld(x.src);
      r = v();
      os << "  " << r << " = call i32 @llvm.amdgcn.ds.swizzle(i32 " << a << ", i32 " << x.imm << ")\n";
      break;
    }
    case CrossLane::Permlane16Swap:
    case CrossLane::Permlane32Swap: {
      std::string a = ld(x.src), b = ld(x.src2), pr = v();
      os << "  " << pr << " = call {i32, i32} @llvm.amdgcn.permlane"
         << (x.kind == CrossLane::Permlane16Swap ? "16" : "32") << ".swap(i32 " << a << ", i32 " << b
         << ", i1 false, i1 false)\n";
      std::string r2 = v();
      r = v();
      os << "  " << r << " = extractvalue {i32, i32} " << pr << ", 0\n"
         << "  " << r2 << " = extractvalue {i32, i32} " << pr << ", 1\n";
      st(x.dst2, r2);
      break;
    }
    }
    st(x.dst, r);
  }
  for (size_t k = 0; k < slots.size(); ++k) {
    const char *T = irName(slots[k].ty);
    os << "  %y." << k << " = load " << T << ", " << P << " %s" << k << "\n"
       << "  %o." << k << " = getelementptr inbounds i8, ptr addrspace(1) %outrow, i64 " << 8 * k << "\n"
       << "  store " << T << " %y." << k << ", ptr addrspace(1) %o." << k << "\n";
  }
  os << "  ret void\n}\n\nattributes #0 = { \"amdgpu-flat-work-group-size\"=\"" << block << "," << block
     << "\" }\n";
  return m;
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

static uint64_t floatBits(Ty t, double d) {
  llvm::APFloat f(d);
  bool lost;
  f.convert(semantics(t), llvm::APFloat::rmNearestTiesToEven, &lost);
  return f.bitcastToAPInt().getZExtValue();
}

static uint64_t randomValue(Ty t, std::mt19937_64 &rng) {
  unsigned n = bitWidth(t);
  uint64_t mask = n == 64 ? ~0ull : (1ull << n) - 1;
  uint64_t r = rng();
  unsigned kind = rng() % 8;
  if (!isFloat(t)) {
    static const int64_t edge[] = {0, 1, -1, 2, -2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff,
                                   0x7fffffff, int64_t(0x80000000), int64_t(0xffffffff),
                                   INT64_MAX, INT64_MIN, 31, 32, 63, 64};
    switch (kind) {
    case 0: case 1: return uint64_t(int64_t(r % 17) - 8) & mask;
    case 2: return uint64_t(edge[r % (sizeof(edge) / sizeof(edge[0]))]) & mask;
    case 3: return (r % 300) & mask;
    case 4: {
      // Just around a power of two.
      unsigned b = (r >> 8) % n;
      return ((1ull << b) + int64_t((r & 3)) - 1 - ((r >> 2) & 1 ? 0 : 2)) & mask;
    }
    default: return r & mask;
    }
  }
  static const double special[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 0.5, 2.0,
                                   2.5, -2.5, 3.5, 0.49999997, 1e-45, -1e-40, 1e-310, 65504.0,
                                   65520.0, 6e-8, 6.1e-5, 3.4028234663852886e38, 1.7976931348623157e308,
                                   2147483648.0, -2147483648.0, 4294967296.0, 2147483520.0,
                                   9.2233720368547758e18, 1.8446744073709552e19, 128.0, -129.0, 255.5,
                                   32767.5, -32768.0, 65535.0};
  uint64_t bits;
  switch (kind) {
  case 0: case 1:
    bits = floatBits(t, special[r % (sizeof(special) / sizeof(special[0]))]);
    break;
  case 2: // Small multiples of a quarter: rounding ties, exact integers.
    bits = floatBits(t, double(int64_t(r % 64) - 32) / 4.0);
    break;
  case 3: case 4: {
    int e = int((r >> 12) % 80) - 40;
    double m = 1.0 + double(r & 0xfff) / 4096.0;
    bits = floatBits(t, std::ldexp(m, e) * ((r >> 40) & 1 ? -1 : 1));
    break;
  }
  case 5: { // Denormals of the format.
    unsigned mant = t == Ty::F16 ? 10 : t == Ty::F32 ? 23 : 52;
    bits = ((r >> 1) & ((1ull << mant) - 1)) | ((r & 1) << (n - 1));
    break;
  }
  default:
    bits = r & mask;
    break;
  }
  // Quiet every NaN (see the file comment).
  unsigned mant = t == Ty::F16 ? 10 : t == Ty::F32 ? 23 : 52;
  uint64_t expMask = ((1ull << (n - 1 - mant)) - 1) << mant;
  if ((bits & expMask) == expMask && (bits & ((1ull << mant) - 1)))
    bits |= 1ull << (mant - 1);
  return bits & mask;
}

std::vector<uint64_t> generateInputs(const Program &p, uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 12345);
  std::vector<uint64_t> in(size_t(p.lanes()) * p.slots.size());
  // A tenth of the slots holds the same value in every lane of the launch,
  // so that comparisons between slots are sometimes equal and branches on
  // them sometimes uniform.
  std::vector<bool> uniform(p.slots.size());
  std::vector<uint64_t> value(p.slots.size());
  for (size_t k = 0; k < p.slots.size(); ++k) {
    uniform[k] = rng() % 10 == 0;
    value[k] = randomValue(p.slots[k].ty, rng);
  }
  for (unsigned lane = 0; lane < p.lanes(); ++lane)
    for (size_t k = 0; k < p.slots.size(); ++k)
      in[lane * p.slots.size() + k] = uniform[k] ? value[k] : randomValue(p.slots[k].ty, rng);
  return in;
}

} // namespace kcc::fuzz
