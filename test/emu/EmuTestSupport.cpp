//===- EmuTestSupport.cpp - Harness of the emulator tests -----------------===//
//
// Fixture, buffers and launches; IEEE conversions with round to nearest even
// written from the formats (sign, biased exponent, fraction); the 8-bit
// floats by formula and by search over their values.
//
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>
#include <functional>

using namespace kcc;
using namespace kcc::emutest;

const char *kcc::emutest::chipName(Chip chip) {
  return chip == Chip::gfx942 ? "gfx942" : "gfx950";
}

std::string kcc::emutest::hsacoPath(const std::string &name, Chip chip) {
  return std::string(KCC_EMU_KERNEL_DIR) + "/" + name + "-" + chipName(chip) +
         ".hsaco";
}

std::string
kcc::emutest::chipParamName(const ::testing::TestParamInfo<Chip> &info) {
  return chipName(info.param);
}

Report::~Report() {
  if (failures > kShown)
    ADD_FAILURE() << what << ": " << failures << " mismatches in total";
}

std::string kcc::emutest::hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

uint32_t kcc::emutest::bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float kcc::emutest::floatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint64_t kcc::emutest::bitsOf(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
double kcc::emutest::doubleOf(uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}

// Rounds |v| to a format with `manBits` fraction bits, exponent bias `bias`
// and `expBits` exponent bits, to nearest even; returns the bits without
// sign.
static uint32_t roundToFormat(double a, int expBits, int manBits, int bias) {
  uint32_t expMax = (1u << expBits) - 1;
  if (std::isnan(a))
    return (expMax << manBits) | (1u << (manBits - 1));
  if (std::isinf(a))
    return expMax << manBits;
  if (a == 0)
    return 0;
  int e;
  std::frexp(a, &e); // a = f * 2^e, f in [0.5, 1)
  int exp = e - 1;   // a = 1.x * 2^exp
  int minExp = 1 - bias;
  // Quantum of the representable values around a.
  int q = (exp < minExp ? minExp : exp) - manBits;
  double scaled = std::ldexp(a, -q); // exact: a power-of-two scaling
  double r = std::nearbyint(scaled); // host default rounding: nearest even
  uint64_t n = (uint64_t)r;
  // n * 2^q; renormalize if rounding carried into a new binade.
  if (n >= (2ull << manBits)) {
    n >>= 1;
    ++q;
  }
  int biased;
  uint32_t frac;
  if (n < (1ull << manBits)) { // denormal (or rounded down to zero)
    biased = 0;
    frac = (uint32_t)n;
  } else {
    biased = q + manBits + bias;
    frac = (uint32_t)(n - (1ull << manBits));
  }
  if (biased >= (int)expMax)
    return expMax << manBits; // overflow: infinity under round to nearest
  return ((uint32_t)biased << manBits) | frac;
}

uint16_t kcc::emutest::toF16(double v) {
  uint16_t s = std::signbit(v) ? 0x8000 : 0;
  return s | (uint16_t)roundToFormat(std::fabs(v), 5, 10, 15);
}

uint16_t kcc::emutest::toBf16(double v) {
  uint16_t s = std::signbit(v) ? 0x8000 : 0;
  return s | (uint16_t)roundToFormat(std::fabs(v), 8, 7, 127);
}

double kcc::emutest::fromF16(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 31)
    v = m ? NAN : INFINITY;
  else if (e == 0)
    v = std::ldexp((double)m, -24);
  else
    v = std::ldexp((double)(m | 1024), e - 25);
  return (h & 0x8000) ? -v : v;
}

float kcc::emutest::fromBf16(uint16_t b) { return floatOf((uint32_t)b << 16); }

int64_t kcc::emutest::ulpDistance(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b) ? 0 : INT64_MAX;
  auto ordered = [](float f) {
    int32_t i = (int32_t)bitsOf(f);
    return i < 0 ? (int64_t)INT32_MIN - i : (int64_t)i;
  };
  int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

int64_t kcc::emutest::ulpDistanceF16(uint16_t a, uint16_t b) {
  bool na = (a & 0x7fff) > 0x7c00, nb = (b & 0x7fff) > 0x7c00;
  if (na || nb)
    return na && nb ? 0 : INT64_MAX;
  auto ordered = [](uint16_t h) {
    return (h & 0x8000) ? -(int64_t)(h & 0x7fff) : (int64_t)h;
  };
  int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

//===----------------------------------------------------------------------===//
// 8-bit floats
//===----------------------------------------------------------------------===//

namespace kcc::emutest {

/// (-1)^s * 2^(E - bias) * (1 + m / 2^M) for a normal code, and
/// (-1)^s * 2^(1 - bias) * (m / 2^M) for a denormal one, in double.
double fp8Value(uint32_t code, const Fp8Spec &s) {
  int sign = int(code >> (s.e + s.m) & 1);
  int E = int(code >> s.m) & ((1 << s.e) - 1);
  int M = int(code) & ((1 << s.m) - 1);
  int emax = (1 << s.e) - 1;
  if (!s.finite) { // FP4/FP6: every code is a number
    if (s.fnuz && code == 0x80)
      return std::nan("");
    if (!s.fnuz && s.e == 4 && E == emax && M == (1 << s.m) - 1)
      return sign ? -std::nan("") : std::nan("");
    if (!s.fnuz && s.e == 5 && E == emax)
      return M ? std::nan("") : (sign ? -INFINITY : INFINITY);
  }
  double frac = double(M) / std::pow(2.0, s.m);
  double v = E == 0 ? frac * std::pow(2.0, 1 - s.bias) : (1 + frac) * std::pow(2.0, E - s.bias);
  return sign ? -v : v;
}

/// The codes the conversions produce for NaN and beyond the largest value
/// (no saturation: MODE.FP16_OVFL is 0; the formats without NaN and
/// infinity saturate). NaN payloads follow AMD's host model of the OCP
/// conversions (S.1111.111 and S.11111.10).
static uint32_t fp8NaN(bool neg, const Fp8Spec &s) {
  if (s.fnuz)
    return 0x80;
  return (neg ? 0x80u : 0u) | (s.e == 4 ? 0x7fu : 0x7eu);
}
static uint32_t fp8Overflow(bool neg, const Fp8Spec &s) {
  if (s.finite)
    return (neg ? 1u << (s.e + s.m) : 0u) | ((1u << (s.e + s.m)) - 1);
  if (!s.fnuz && s.e == 5)
    return (neg ? 0x80u : 0u) | 0x7c; // infinity
  return fp8NaN(neg, s);
}

/// The non-negative finite values of the format in increasing order, with
/// their codes, then one more step of the top spacing standing for
/// "overflow" (code ~0u).
static std::vector<std::pair<double, uint32_t>> fp8Grid(const Fp8Spec &s) {
  std::vector<std::pair<double, uint32_t>> g;
  for (uint32_t code = 0; code < (1u << (s.e + s.m)); ++code) {
    double v = fp8Value(code, s);
    if (std::isfinite(v))
      g.push_back({v, code});
  }
  std::sort(g.begin(), g.end());
  double step = g.back().first - g[g.size() - 2].first;
  g.push_back({g.back().first + step, ~0u});
  return g;
}

static uint32_t fp8Signed(uint32_t code, bool neg, const Fp8Spec &s) {
  if (code == ~0u)
    return fp8Overflow(neg, s);
  if (code == 0 && s.fnuz)
    return 0; // no -0
  return (neg ? 1u << (s.e + s.m) : 0u) | code;
}

/// Round to nearest even by searching the grid for the nearest value; a
/// tie goes to the even code (the overflow step has the parity the next
/// code would have).
uint32_t fp8Nearest(double x, const Fp8Spec &s) {
  bool neg = std::signbit(x);
  if (std::isnan(x))
    return fp8NaN(neg, s);
  auto g = fp8Grid(s);
  double a = std::fabs(x);
  // At or beyond the step past the largest value nothing is nearer than the
  // overflow (distances there may not even be representable apart).
  if (a >= g.back().first)
    return fp8Overflow(neg, s);
  size_t best = 0;
  for (size_t i = 1; i < g.size(); ++i) {
    double d = std::fabs(g[i].first - a), db = std::fabs(g[best].first - a);
    uint32_t parity = g[i].second == ~0u ? !(g[i - 1].second & 1) : (g[i].second & 1);
    if (d < db || (d == db && parity == 0))
      best = i;
  }
  return fp8Signed(g[best].second, neg, s);
}

/// Stochastic rounding by search: between the grid values lo <= |x| < hi,
/// the position (|x| - lo) / (hi - lo) as K = srcMan - M bits (what the
/// source's mantissa holds below the kept bits), plus the top K bits of the
/// random word, carries into a round up.
uint32_t fp8Stochastic(double x, uint32_t random, const Fp8Spec &s, int srcMan) {
  bool neg = std::signbit(x);
  if (std::isnan(x))
    return fp8NaN(neg, s);
  auto g = fp8Grid(s);
  double a = std::fabs(x);
  if (std::isinf(a))
    return fp8Overflow(neg, s);
  size_t i = 0;
  while (i + 1 < g.size() && g[i + 1].first <= a)
    ++i;
  if (g[i].first == a || i + 1 == g.size())
    return fp8Signed(g[i].second, neg, s);
  int k = srcMan - s.m;
  double pos = (a - g[i].first) / (g[i + 1].first - g[i].first);
  uint64_t t = uint64_t(std::floor(std::ldexp(pos, k)));
  bool up = t + (random >> (32 - k)) >= (uint64_t(1) << k);
  return fp8Signed(g[up ? i + 1 : i].second, neg, s);
}

} // namespace kcc::emutest

void EmuTestBase::SetUp() {
  const ::testing::TestInfo *info =
      ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name =
      std::string(info->test_suite_name()) + "." + info->name();
  seed = std::hash<std::string>()(name) & 0xffffffff;
  rng.seed(seed);
  trace = std::make_unique<::testing::ScopedTrace>(
      __FILE__, __LINE__,
      std::string("chip ") + chipName(chip()) + ", seed " +
          std::to_string(seed));
  ctx = emu::Context::create();
  ASSERT_TRUE(ctx) << "emu::Context::create() returned null";
  llvm::Expected<emu::Device *> d = ctx->addDevice(chip());
  if (!d) {
    FAIL() << "addDevice(" << chipName(chip())
           << "): " << llvm::toString(d.takeError());
  }
  dev = *d;
}

bool EmuTestBase::check(llvm::Error err, const std::string &what) {
  if (!err)
    return true;
  ADD_FAILURE() << what << ": " << llvm::toString(std::move(err));
  return false;
}

std::shared_ptr<emu::Module> EmuTestBase::load(const std::string &name) {
  std::string path = hsacoPath(name, chip());
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf) {
    ADD_FAILURE() << "cannot read " << path << ": " << buf.getError().message()
                  << " (build the KCCEmuTestKernels target)";
    return nullptr;
  }
  llvm::ArrayRef<uint8_t> bytes(
      reinterpret_cast<const uint8_t *>((*buf)->getBufferStart()),
      (*buf)->getBufferSize());
  auto m = dev->loadModule(bytes);
  if (!m) {
    ADD_FAILURE() << "loadModule(" << path
                  << "): " << llvm::toString(m.takeError());
    return nullptr;
  }
  return *m;
}

uint64_t EmuTestBase::alloc(uint64_t bytes, uint8_t fill) {
  auto a = dev->allocate(bytes);
  if (!a) {
    ADD_FAILURE() << "allocate(" << bytes
                  << "): " << llvm::toString(a.takeError());
    return 0;
  }
  check(dev->memset(*a, fill, bytes), "memset");
  return *a;
}

std::string EmuTestBase::launch(emu::Module &m, const std::string &kernel,
                            emu::Dim3 grid, emu::Dim3 block,
                            const ArgPack &args, uint32_t dynamicLds) {
  emu::LaunchOptions opts;
  opts.grid = grid;
  opts.block = block;
  opts.dynamicLdsBytes = dynamicLds;
  auto stats = dev->launch(m, kernel, opts, args.data());
  if (!stats)
    return llvm::toString(stats.takeError());
  return "";
}
