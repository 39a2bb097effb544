//===- EmuTestSupport.cpp - Harness of the emulator tests -----------------===//
//
// Fixture, buffers and launches; IEEE conversions with round to nearest even
// written from the formats (sign, biased exponent, fraction).
//
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include "llvm/Support/MemoryBuffer.h"

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
