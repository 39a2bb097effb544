//===- EmuTestSupport.h - Harness of the emulator tests --------*- C++ -*-===//
//
// A GoogleTest fixture parameterized over the chip: it creates an emulated
// device, loads the code objects built from test/emu/kernels and test/emu/asm,
// moves buffers, packs kernel arguments as the metadata lays them out, and
// reports mismatches against the CPU references with their index. Plus bit-
// exact conversions (f16, bf16) and ulp distances, written here from the IEEE
// formats so that the references do not depend on the host compiler's
// _Float16 or __bf16 support.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TEST_EMU_EMUTESTSUPPORT_H
#define KCC_TEST_EMU_EMUTESTSUPPORT_H

#include "runtime/emu/Emulator.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace kcc::emutest {

const char *chipName(Chip chip);
/// <KCC_EMU_KERNEL_DIR>/<name>-<chip>.hsaco
std::string hsacoPath(const std::string &name, Chip chip);
/// GoogleTest parameter names: "gfx942", "gfx950".
std::string chipParamName(const ::testing::TestParamInfo<Chip> &info);

/// Explicit kernel arguments, each at the next offset aligned to its own
/// alignment (what clang's metadata says for HIP kernels).
class ArgPack {
public:
  template <typename T> ArgPack &add(const T &v) {
    size_t a = alignof(T);
    bytes.resize((bytes.size() + a - 1) / a * a);
    size_t at = bytes.size();
    bytes.resize(at + sizeof(T));
    std::memcpy(bytes.data() + at, &v, sizeof(T));
    return *this;
  }
  llvm::ArrayRef<uint8_t> data() const { return bytes; }

private:
  std::vector<uint8_t> bytes;
};

/// Collects element mismatches of one output; reports the first few with
/// their index and a total.
class Report {
public:
  explicit Report(std::string what) : what(std::move(what)) {}
  ~Report();
  template <typename G, typename E>
  void fail(size_t index, const G &got, const E &expected,
            const std::string &note = "") {
    if (failures++ < kShown) {
      std::ostringstream os;
      os << what << "[" << index << "]: got " << got << ", expected "
         << expected;
      if (!note.empty())
        os << " (" << note << ")";
      ADD_FAILURE() << os.str();
    }
  }
  /// Exact comparison of two equally long arrays.
  template <typename T>
  void expectEqual(const std::vector<T> &got, const std::vector<T> &expected) {
    if (got.size() != expected.size()) {
      ADD_FAILURE() << what << ": size " << got.size() << " vs "
                    << expected.size();
      return;
    }
    for (size_t i = 0; i < got.size(); ++i)
      if (!(got[i] == expected[i]))
        fail(i, +got[i], +expected[i]);
  }
  int count() const { return failures; }

private:
  static constexpr int kShown = 8;
  std::string what;
  int failures = 0;
};

/// Printable hex of an integer.
std::string hex(uint64_t v);

// IEEE helpers.
uint32_t bitsOf(float f);
float floatOf(uint32_t u);
uint64_t bitsOf(double d);
double doubleOf(uint64_t u);
/// Round to nearest even from double: binary16 and bfloat16 bit patterns
/// (NaN -> a quiet NaN, overflow -> infinity, denormals kept).
uint16_t toF16(double v);
uint16_t toBf16(double v);
double fromF16(uint16_t h);
float fromBf16(uint16_t b);
/// Distance in units in the last place between two floats (0 if both are
/// the same NaN-ness; a large number if one is NaN and the other not).
int64_t ulpDistance(float a, float b);
int64_t ulpDistanceF16(uint16_t a, uint16_t b);

/// An 8-bit float format as its definition gives it: exponent and mantissa
/// widths, bias, and which codes are NaN or infinite. FNUZ (gfx942): 0x80 is
/// the only NaN, no infinity, no -0. OCP e4m3fn (gfx950): S.1111.111 is NaN,
/// no infinity. OCP e5m2: S.11111.00 infinite, S.11111.xx NaN. `finite`:
/// OCP MX's FP4 (e2m1) and FP6 (e2m3, e3m2), every code a number; the sign
/// is the bit above the exponent.
struct Fp8Spec {
  int e, m, bias;
  bool fnuz;
  bool finite = false;
};
/// The formats of the chip: FNUZ on gfx942, OCP on gfx950.
inline Fp8Spec fp8Spec(bool gfx950) { return gfx950 ? Fp8Spec{4, 3, 7, false} : Fp8Spec{4, 3, 8, true}; }
inline Fp8Spec bf8Spec(bool gfx950) { return gfx950 ? Fp8Spec{5, 2, 15, false} : Fp8Spec{5, 2, 16, true}; }
/// The value of a code by the format's formula (NaN, +-inf included).
double fp8Value(uint32_t code, const Fp8Spec &s);
/// f32 to the format, round to nearest even, found by searching the values
/// for the nearest; beyond the largest value (MODE.FP16_OVFL = 0) FNUZ and
/// e4m3 give NaN, e5m2 infinity.
uint32_t fp8Nearest(double x, const Fp8Spec &s);
/// To the format with stochastic rounding by the random word, from a source
/// with `srcMan` mantissa bits (23: f32, 10: f16, 7: bf16).
uint32_t fp8Stochastic(double x, uint32_t random, const Fp8Spec &s, int srcMan = 23);

/// The fixture: one emulated device of the chip under test per test. The
/// chip comes from the test parameter (see EmuTest and the MFMA tests).
class EmuTestBase : public ::testing::Test {
protected:
  void SetUp() override;

  virtual Chip chip() const = 0;
  bool isGfx950() const { return chip() == Chip::gfx950; }

  /// Loads <name>-<chip>.hsaco; records a failure and returns null if the
  /// file is missing or the emulator rejects it.
  std::shared_ptr<emu::Module> load(const std::string &name);

  uint64_t alloc(uint64_t bytes, uint8_t fill = 0);
  template <typename T> uint64_t upload(const std::vector<T> &v) {
    uint64_t addr = alloc(v.size() * sizeof(T) + 1);
    if (addr)
      check(dev->copyToDevice(addr, v.data(), v.size() * sizeof(T)),
            "copyToDevice");
    return addr;
  }
  template <typename T> std::vector<T> download(uint64_t addr, size_t count) {
    std::vector<T> v(count);
    if (addr)
      check(dev->copyFromDevice(v.data(), addr, count * sizeof(T)),
            "copyFromDevice");
    return v;
  }
  template <typename T>
  void fill(uint64_t addr, const std::vector<T> &v) {
    check(dev->copyToDevice(addr, v.data(), v.size() * sizeof(T)),
          "copyToDevice");
  }

  /// Launches and returns the emulator's error text, "" on success.
  std::string launch(emu::Module &m, const std::string &kernel,
                     emu::Dim3 grid, emu::Dim3 block, const ArgPack &args,
                     uint32_t dynamicLds = 0);

  /// Records a failure for an error (consuming it); true if there was none.
  bool check(llvm::Error err, const std::string &what);

  std::unique_ptr<emu::Context> ctx;
  emu::Device *dev = nullptr;
  /// Seeded from the test name so that every run sees the same inputs; the
  /// seed is part of every failure message (SCOPED_TRACE).
  std::mt19937_64 rng;
  uint64_t seed = 0;

private:
  std::unique_ptr<::testing::ScopedTrace> trace;
};

/// Tests parameterized by the chip alone.
class EmuTest : public EmuTestBase, public ::testing::WithParamInterface<Chip> {
protected:
  Chip chip() const override { return GetParam(); }
};

#define EMU_LAUNCH(M, KERNEL, GRID, BLOCK, ARGS, ...)                          \
  do {                                                                         \
    std::string err_ = launch(M, KERNEL, GRID, BLOCK, ARGS, ##__VA_ARGS__);    \
    ASSERT_TRUE(err_.empty()) << "launch of " << KERNEL << " failed: " << err_; \
  } while (0)

} // namespace kcc::emutest

#endif // KCC_TEST_EMU_EMUTESTSUPPORT_H
