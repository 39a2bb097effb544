//===- DeviceTest.cpp - Devices, HIP fallbacks, buffers, launch checks ----===//
//
// What needs no GPU: the HIP runtime missing or reporting no device leads to
// emulated devices with a message saying why; device specs; buffers; and
// every argument check of Kernel::launch, each with its exact message.
//
//===----------------------------------------------------------------------===//
#include "runtime/Buffer.h"
#include "kernels/EmbeddedKernels.h"
#include "target/CodeObject.h"
#include "runtime/Jit.h"
#include "runtime/LaunchTrace.h"
#include "runtime/Module.h"
#include "runtime/Runtime.h"
#include "runtime/hip/HipLibrary.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dlfcn.h>

using namespace kcc;

namespace {

/// Sets environment variables for one test and restores them after.
class ScopedEnv {
public:
  void set(const char *name, const char *value) {
    const char *old = getenv(name);
    saved_.push_back({name, old ? std::optional<std::string>(old) : std::nullopt});
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->second)
        setenv(it->first.c_str(), it->second->c_str(), 1);
      else
        unsetenv(it->first.c_str());
    }
  }

private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

std::string errorText(llvm::Error e) { return llvm::toString(std::move(e)); }
template <typename T> std::string errorText(llvm::Expected<T> &v) {
  EXPECT_FALSE(bool(v)) << "expected an error";
  return v ? "" : llvm::toString(v.takeError());
}

TEST(Runtime, MissingHipLibraryFallsBackToEmulator) {
  ScopedEnv env;
  env.set("KCC_DEVICE", nullptr);
  env.set("KCC_HIP_LIBRARY", "/nonexistent/libamdhip64.so");
  auto rt = Runtime::create();
  ASSERT_TRUE(bool(rt)) << llvm::toString(rt.takeError());
  EXPECT_FALSE((*rt)->hasGpu());
  EXPECT_EQ((*rt)->hipStatus().str(),
            "HIP runtime not found: cannot load the HIP runtime (libamdhip64); "
            "tried:\n  /nonexistent/libamdhip64.so: /nonexistent/libamdhip64.so: "
            "cannot open shared object file: No such file or directory");
  std::vector<Device *> devices = (*rt)->devices();
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[0]->spec(), "emu:gfx942");
  EXPECT_EQ(devices[1]->spec(), "emu:gfx950");
  auto d = (*rt)->defaultDevice();
  ASSERT_TRUE(bool(d));
  EXPECT_EQ(d->spec(), "emu:gfx950");
  EXPECT_EQ(d->kind(), DeviceKind::Emu);
  auto hip0 = (*rt)->device("hip:0");
  EXPECT_EQ(errorText(hip0),
            "device 'hip:0' is not available: " + (*rt)->hipStatus().str());
}

TEST(Runtime, RocmPathIsSearchedFirst) {
  ScopedEnv env;
  env.set("KCC_HIP_LIBRARY", nullptr);
  env.set("ROCM_PATH", "/nonexistent-rocm");
  std::vector<std::string> paths = hip::HipLibrary::searchPaths();
  ASSERT_EQ(paths.size(), 4u);
  EXPECT_EQ(paths[0], "/nonexistent-rocm/lib/libamdhip64.so");
  EXPECT_EQ(paths[1], "libamdhip64.so");
  env.set("ROCM_PATH", nullptr);
  EXPECT_EQ(hip::HipLibrary::searchPaths()[0], "/opt/rocm/lib/libamdhip64.so");
}

// Debian's libamdhip64 (ROCm 5.2) loads here and finds no GPU: that is "no
// AMD GPU found", an ordinary state, and the emulator takes over.
TEST(Runtime, NoGpuFromInstalledHipRuntime) {
  void *probe = dlopen("libamdhip64.so", RTLD_NOW | RTLD_LOCAL);
  if (!probe)
    GTEST_SKIP() << "libamdhip64.so is not installed (libamdhip64-dev)";
  ScopedEnv env;
  env.set("KCC_DEVICE", nullptr);
  env.set("KCC_HIP_LIBRARY", nullptr);
  env.set("ROCM_PATH", "/nonexistent-rocm");
  auto rt = Runtime::create();
  ASSERT_TRUE(bool(rt)) << llvm::toString(rt.takeError());
  if ((*rt)->hasGpu())
    GTEST_SKIP() << "this machine has a GPU: " << (*rt)->hipStatus().str();
  EXPECT_EQ((*rt)->hipStatus().str(),
            "no AMD GPU found (HIP runtime libamdhip64.so)");
  auto d = (*rt)->defaultDevice();
  ASSERT_TRUE(bool(d));
  EXPECT_EQ(d->spec(), "emu:gfx950");
}

TEST(Runtime, DeviceSpecs) {
  ScopedEnv env;
  env.set("KCC_DEVICE", "emu:gfx942");
  auto rt = Runtime::create();
  ASSERT_TRUE(bool(rt)) << llvm::toString(rt.takeError());
  EXPECT_EQ((*rt)->hipStatus().str(),
            "HIP not used (an emulated device was asked for)");
  auto d = (*rt)->defaultDevice();
  ASSERT_TRUE(bool(d));
  EXPECT_EQ(d->spec(), "emu:gfx942");
  EXPECT_EQ(d->chip(), Chip::gfx942);
  auto same = (*rt)->device("emu:gfx942");
  ASSERT_TRUE(bool(same));
  EXPECT_EQ(&*same, &*d);
  auto bad = (*rt)->device("emu:gfx90a");
  EXPECT_EQ(errorText(bad), "unknown chip 'gfx90a' in device 'emu:gfx90a'; "
                            "emulated devices: emu:gfx942, emu:gfx950");
  auto odd = (*rt)->device("cuda:0");
  EXPECT_EQ(errorText(odd), "unknown device 'cuda:0'; use hip:N (a GPU) or "
                            "emu:gfx942 / emu:gfx950 (the emulator)");
  auto hipX = (*rt)->device("hip:x");
  EXPECT_EQ(errorText(hipX), "bad device 'hip:x': expected hip:N with N a number");

  env.set("KCC_DEVICE", "emu:gfx1100");
  auto rt2 = Runtime::create();
  EXPECT_EQ(errorText(rt2), "default device: unknown chip 'gfx1100' in device "
                            "'emu:gfx1100'; emulated devices: emu:gfx942, emu:gfx950");
}

TEST(Buffer, RoundTripAndRanges) {
  RuntimeOptions o;
  o.useHip = false;
  auto rt = Runtime::create(o);
  ASSERT_TRUE(bool(rt));
  Device &d = llvm::cantFail((*rt)->device("emu:gfx950"));
  std::vector<float> host = {1, 2, 3, 4};
  auto b = Buffer::fromHost(d, host);
  ASSERT_TRUE(bool(b)) << llvm::toString(b.takeError());
  EXPECT_EQ(b->size(), 16u);
  auto back = b->toHost<float>();
  ASSERT_TRUE(bool(back));
  EXPECT_EQ(*back, host);
  float x = 0;
  EXPECT_EQ(errorText(b->read(&x, 4, 14)),
            "cannot read 4 bytes at offset 14 of a 16-byte buffer");
  EXPECT_EQ(errorText(b->write(&x, 20)),
            "cannot write 20 bytes at offset 0 of a 16-byte buffer");
  auto asDouble = b->toHost<std::array<char, 3>>();
  EXPECT_EQ(errorText(asDouble),
            "buffer of 16 bytes is not a whole number of 3-byte elements");
  Buffer moved = std::move(*b);
  EXPECT_EQ(errorText(b->fill(0)),
            "cannot fill an empty (moved-from or released) buffer");
  EXPECT_FALSE(bool(moved.fill(0)));
  EXPECT_FALSE(bool(moved.release()));
}

class LaunchChecks : public ::testing::Test {
protected:
  void SetUp() override {
    registerEmbeddedKernels();
    RuntimeOptions o;
    o.useHip = false;
    auto rt = Runtime::create(o);
    ASSERT_TRUE(bool(rt));
    rt_ = std::move(*rt);
    auto d = rt_->device("emu:gfx942");
    ASSERT_TRUE(bool(d));
    device_ = &*d;
    JitOptions jo;
    jo.useDiskCache = false;
    jit_ = std::make_unique<Jit>(jo);
  }
  std::unique_ptr<Runtime> rt_;
  Device *device_ = nullptr;
  std::unique_ptr<Jit> jit_;
};

TEST_F(LaunchChecks, GemmArguments) {
  auto m = Module::compile(*device_, *jit_, "gemm", {"DTYPE=bf16", "OUT=f32"});
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  auto k = m->kernel("gemm");
  ASSERT_TRUE(bool(k)) << llvm::toString(k.takeError());
  auto missing = m->kernel("gem");
  EXPECT_EQ(errorText(missing), "no kernel 'gem' in the module; it has: gemm");

  auto buf = Buffer::allocate(*device_, 1024);
  ASSERT_TRUE(bool(buf));
  Buffer &b = *buf;
  int32_t n = 64;
  Dim3 grid(1), block(256);
  auto tooFew = k->launch(grid, block, {b, b, b});
  EXPECT_EQ(errorText(tooFew), "kernel 'gemm' takes 10 arguments; got 3");
  auto valueForPointer = k->launch(grid, block, {b, n, b, b, n, n, n, n, n, n});
  EXPECT_EQ(errorText(valueForPointer),
            "argument 1 of kernel 'gemm' is a pointer; got a value of type i32");
  auto pointerForValue = k->launch(grid, block, {b, b, b, b, b, n, n, n, n, n});
  EXPECT_EQ(errorText(pointerForValue),
            "argument 4 of kernel 'gemm' is a 4-byte value; got a buffer");
  auto wrongSize =
      k->launch(grid, block, {b, b, b, b, n, int64_t(64), n, n, n, n});
  EXPECT_EQ(errorText(wrongSize),
            "argument 5 of kernel 'gemm' is 4 bytes; got i64 (8 bytes)");
  auto bigBlock = k->launch(grid, Dim3(2048), {b, b, b, b, n, n, n, n, n, n});
  EXPECT_EQ(errorText(bigBlock),
            "kernel 'gemm' requires a block of (256, 1, 1) work-items (its "
            ".reqd_workgroup_size); got (2048, 1, 1)");
  // Smaller than required, or the same count in another shape: these ran
  // before, silently computing the wrong thing.
  auto smallBlock = k->launch(grid, Dim3(128), {b, b, b, b, n, n, n, n, n, n});
  EXPECT_EQ(errorText(smallBlock),
            "kernel 'gemm' requires a block of (256, 1, 1) work-items (its "
            ".reqd_workgroup_size); got (128, 1, 1)");
  auto reshaped = k->launch(grid, Dim3(64, 4), {b, b, b, b, n, n, n, n, n, n});
  EXPECT_EQ(errorText(reshaped),
            "kernel 'gemm' requires a block of (256, 1, 1) work-items (its "
            ".reqd_workgroup_size); got (64, 4, 1)");
  auto zeroGrid = k->launch(Dim3(0), block, {b, b, b, b, n, n, n, n, n, n});
  EXPECT_EQ(errorText(zeroGrid), "kernel 'gemm': grid (0, 1, 1) has a zero dimension");

  auto other = rt_->device("emu:gfx950");
  ASSERT_TRUE(bool(other));
  auto foreign = Buffer::allocate(*other, 64);
  ASSERT_TRUE(bool(foreign));
  auto wrongDevice =
      k->launch(grid, block, {b, *foreign, b, b, n, n, n, n, n, n});
  EXPECT_EQ(errorText(wrongDevice),
            "argument 1 of kernel 'gemm' is a buffer on emu:gfx950; the kernel "
            "is loaded on emu:gfx942");
}

TEST_F(LaunchChecks, CodeObjectForAnotherChip) {
  auto compiled = jit_->compile("gemm", {}, Chip::gfx950);
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  auto m = Module::load(*device_, *compiled->codeObject);
  EXPECT_EQ(errorText(m), "code object is compiled for gfx950; device "
                          "emu:gfx942 is gfx942");
  std::vector<uint8_t> junk = {1, 2, 3};
  auto j = Module::load(*device_, junk);
  std::string text = errorText(j);
  EXPECT_EQ(text.rfind("not a loadable code object: ", 0), 0u) << text;
}

// A device that only has the Device interface's defaults for what the
// emulator alone can do: what a GPU answers.
class PlainDevice final : public Device {
public:
  DeviceKind kind() const override { return DeviceKind::Hip; }
  Chip chip() const override { return Chip::gfx942; }
  std::string spec() const override { return "hip:7"; }
  std::string description() const override { return "test device"; }
  llvm::Expected<uint64_t> allocate(uint64_t) override { return 0; }
  llvm::Error free(uint64_t) override { return llvm::Error::success(); }
  llvm::Error copyToDevice(uint64_t, const void *, uint64_t) override {
    return llvm::Error::success();
  }
  llvm::Error copyFromDevice(void *, uint64_t, uint64_t) override {
    return llvm::Error::success();
  }
  llvm::Error memset(uint64_t, uint8_t, uint64_t) override {
    return llvm::Error::success();
  }
  llvm::Error synchronize() override { return llvm::Error::success(); }
  llvm::Expected<std::shared_ptr<LoadedCode>>
  loadCode(const CodeObject &) override {
    return nullptr;
  }
  llvm::Expected<LaunchResult> launch(LoadedCode &, const KernelInfo &,
                                      const LaunchConfig &,
                                      llvm::ArrayRef<uint8_t>) override {
    ++launches;
    return LaunchResult{};
  }
  int launches = 0;
};

class CountingTrace final : public LaunchTrace {
public:
  void instruction(const TracedInstruction &,
                   llvm::ArrayRef<TracedAccess>) override {}
};

TEST(DeviceInterface, EmulatorOnlyOperationsAreRefusedElsewhere) {
  PlainDevice d;
  Device::EmulatorInstrumentation check;
  check.check = CheckRequest{true, 1, false};
  EXPECT_EQ(errorText(d.instrument(check)),
            "check mode is not supported on hip:7 (emulated devices only: "
            "emu:gfx942, emu:gfx950)");
  EXPECT_FALSE(bool(d.instrument({}))); // nothing asked: nothing refused
  auto mapped = d.mapSharedHostMemory(0, 64, nullptr, 64);
  EXPECT_EQ(errorText(mapped),
            "mapping shared host memory (GPUs share memory through IPC "
            "handles) is not supported on hip:7 (emulated devices only: "
            "emu:gfx942, emu:gfx950)");
  EXPECT_EQ(d.computeUnits(), 304u);

  std::vector<Device::GroupMember> members(2);
  for (auto &m : members)
    m.device = &d;
  CountingTrace trace;
  auto group = d.launchGroup(members, &trace);
  EXPECT_EQ(errorText(group),
            "an instruction trace is not supported on hip:7 (emulated devices "
            "only: emu:gfx942, emu:gfx950)");
  EXPECT_EQ(d.launches, 0);
}

TEST_F(LaunchChecks, EmulatedDeviceTakesInstrumentation) {
  // Check mode through the Device, not the environment: the same GEMM
  // launch runs clean under it, and an instruction trace sees every wave
  // instruction the launch counted.
  auto m = Module::compile(*device_, *jit_, "gemm", {"DTYPE=bf16", "OUT=f32"});
  ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
  auto k = m->kernel("gemm");
  ASSERT_TRUE(bool(k));
  const int32_t n = 64;
  auto a = Buffer::allocate(*device_, n * n * 2);
  auto c = Buffer::allocate(*device_, n * n * 4);
  ASSERT_TRUE(a && c);
  ASSERT_FALSE(bool(a->fill(0)));
  Device::EmulatorInstrumentation in;
  in.check = CheckRequest{true, 3, false};
  ASSERT_FALSE(bool(device_->instrument(in)));
  class Counter final : public LaunchTrace {
  public:
    void instruction(const TracedInstruction &,
                     llvm::ArrayRef<TracedAccess>) override {
      ++count;
    }
    uint64_t count = 0;
  } counter;
  LaunchConfig config;
  config.grid = Dim3(1, 1);
  config.block = Dim3(256);
  config.trace = &counter;
  auto r = k->launch(config, {*a, *a, *c, *a, n, n, n, n, n, n});
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  ASSERT_TRUE(r->waveInstructions.has_value());
  EXPECT_EQ(counter.count, *r->waveInstructions);
  EXPECT_GT(counter.count, 0u);
  ASSERT_FALSE(bool(device_->instrument({})));
}

} // namespace
