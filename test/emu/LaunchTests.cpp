//===- LaunchTests.cpp - Launch parity with HIP ---------------------------===//
//
// Hidden arguments as HIP fills them for code object v5, dynamic LDS up to
// the whole LDS of the chip (64 KiB gfx942, 160 KiB gfx950) and no further,
// and large packed by-value argument structs (kernels/parity.hip).
//
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include "target/CodeObject.h"

#include "llvm/ADT/StringExtras.h"

using namespace kcc;
using namespace kcc::emutest;

namespace {

using Launch = EmuTest;

TEST_P(Launch, HiddenArgumentsAsHipFillsThem) {
  auto m = load("parity");
  ASSERT_TRUE(m);
  auto co = CodeObject::readFile(hsacoPath("parity", chip()));
  ASSERT_TRUE(bool(co)) << llvm::toString(co.takeError());
  const KernelInfo *k = co->findKernel("hidden_args");
  ASSERT_TRUE(k);
  uint32_t base = ~0u;
  for (const KernelArg &a : k->args)
    if (a.isHidden())
      base = std::min(base, a.offset);
  ASSERT_NE(base, ~0u);
  const int words = 64;
  uint64_t out = alloc(words * 4, 0xee);
  const uint32_t lds = 1000;
  std::string err = launch(*m, "hidden_args", {5, 2, 1}, {37, 3, 1},
                           ArgPack().add(out).add(int32_t(words)), lds);
  ASSERT_TRUE(err.empty()) << err;
  auto got = download<uint8_t>(out, words * 4);
  unsigned checked = 0;
  for (const KernelArg &a : k->args) {
    if (!a.isHidden())
      continue;
    uint32_t at = a.offset - base;
    if (at + a.size > words * 4u)
      continue;
    uint64_t v = 0;
    std::memcpy(&v, got.data() + at, a.size);
    SCOPED_TRACE(a.valueKind);
    ++checked;
    switch (a.kind) {
    case ArgKind::HiddenBlockCountX: EXPECT_EQ(v, 5u); break;
    case ArgKind::HiddenBlockCountY: EXPECT_EQ(v, 2u); break;
    case ArgKind::HiddenBlockCountZ: EXPECT_EQ(v, 1u); break;
    case ArgKind::HiddenGroupSizeX: EXPECT_EQ(v, 37u); break;
    case ArgKind::HiddenGroupSizeY: EXPECT_EQ(v, 3u); break;
    case ArgKind::HiddenGroupSizeZ: EXPECT_EQ(v, 1u); break;
    // HIP's grid is whole workgroups: no partial last group.
    case ArgKind::HiddenRemainderX: case ArgKind::HiddenRemainderY:
    case ArgKind::HiddenRemainderZ: EXPECT_EQ(v, 0u); break;
    case ArgKind::HiddenGlobalOffsetX: case ArgKind::HiddenGlobalOffsetY:
    case ArgKind::HiddenGlobalOffsetZ: EXPECT_EQ(v, 0u); break;
    case ArgKind::HiddenGridDims: EXPECT_EQ(v, 2u); break;
    case ArgKind::HiddenDynamicLdsSize: EXPECT_EQ(v, lds); break;
    case ArgKind::HiddenMultigridSyncArg: case ArgKind::HiddenDefaultQueue:
    case ArgKind::HiddenCompletionAction: EXPECT_EQ(v, 0u); break;
    // Device objects the launch allocates (and frees with it): a queue
    // and a zeroed heap, 256-byte aligned as device allocations are.
    case ArgKind::HiddenQueuePtr: case ArgKind::HiddenHeapV1:
      EXPECT_NE(v, 0u);
      EXPECT_EQ(v % 256, 0u);
      break;
    case ArgKind::HiddenSharedBase: EXPECT_EQ(v, 0x10000u); break;
    case ArgKind::HiddenPrivateBase: EXPECT_EQ(v, 0x20000u); break;
    default: --checked; break;
    }
  }
  EXPECT_GE(checked, 15u);
}

TEST_P(Launch, LargePackedArgumentStruct) {
  auto m = load("parity");
  ASSERT_TRUE(m);
  struct __attribute__((packed)) Big {
    char tag;
    double d[40];
    int i[20];
    short s;
  } big;
  static_assert(sizeof(Big) == 403, "packed layout");
  big.tag = 7;
  big.s = 3;
  double want = 7 + 3 * 1000.0 + 11 * 1e6;
  for (int k = 0; k < 40; ++k)
    want += (big.d[k] = k * 0.25);
  for (int k = 0; k < 20; ++k)
    want += (big.i[k] = k - 5) * 0.5;
  uint64_t out = alloc(8);
  // Laid out as the metadata says: the struct at 0, `after` at 404 and
  // the pointer at 408.
  std::vector<uint8_t> args(416, 0);
  std::memcpy(args.data(), &big, sizeof(big));
  int32_t after = 11;
  std::memcpy(args.data() + 404, &after, 4);
  std::memcpy(args.data() + 408, &out, 8);
  emu::LaunchOptions o;
  o.grid = {1, 1, 1};
  o.block = {64, 1, 1};
  auto s = dev->launch(*m, "big_struct", o, args);
  ASSERT_TRUE(bool(s)) << llvm::toString(s.takeError());
  EXPECT_EQ(download<double>(out, 1)[0], want);
}

TEST_P(Launch, DynamicLdsFillsTheChip) {
  auto m = load("parity");
  ASSERT_TRUE(m);
  uint32_t ldsBytes = isGfx950() ? 160 * 1024 : 64 * 1024;
  uint32_t words = ldsBytes / 4;
  uint64_t out = alloc(256 * 4);
  std::string err = launch(*m, "lds_fill", {1, 1, 1}, {256, 1, 1},
                           ArgPack().add(out).add(words), ldsBytes);
  ASSERT_TRUE(err.empty()) << err;
  auto got = download<uint32_t>(out, 256);
  Report r("out");
  for (uint32_t t = 0; t < 256; ++t) {
    uint32_t acc = 0;
    for (uint32_t i = 255 - t; i < words; i += 256)
      acc ^= i * 2654435761u;
    if (got[t] != acc)
      r.fail(t, got[t], acc);
  }
  // One dword more than the chip has is refused before anything runs.
  err = launch(*m, "lds_fill", {1, 1, 1}, {256, 1, 1}, ArgPack().add(out).add(words),
               ldsBytes + 4);
  EXPECT_NE(err.find("bytes of LDS"), std::string::npos) << err;
}

INSTANTIATE_TEST_SUITE_P(Chips, Launch, ::testing::Values(Chip::gfx942, Chip::gfx950),
                         chipParamName);

// The emulator feature the heap across processes stands on: host memory
// owned elsewhere (shared memory) mapped as device memory at a fixed address.
TEST(EmulatorExternalMemory, MappedHostMemoryIsDeviceMemory) {
  auto ctx = emu::Context::create();
  auto d0 = ctx->addDevice(Chip::gfx942);
  auto d1 = ctx->addDevice(Chip::gfx942);
  ASSERT_TRUE(bool(d0) && bool(d1));
  std::vector<uint32_t> host(1024, 7);
  uint64_t at = emu::Device::kExternalMappingBase;
  ASSERT_FALSE(bool((*d0)->mapExternal(at, host.data(), host.size() * 4)));
  // Writes through the device land in the host memory, and every device of
  // the context reaches the mapping by address.
  uint32_t v = 42;
  ASSERT_FALSE(bool((*d1)->copyToDevice(at + 8, &v, 4)));
  EXPECT_EQ(host[2], 42u);
  uint32_t back = 0;
  ASSERT_FALSE(bool((*d0)->copyFromDevice(&back, at + 4, 4)));
  EXPECT_EQ(back, 7u);
  EXPECT_EQ(toString((*d0)->mapExternal(at + 256, host.data(), 256)),
            "external mapping [0x" + llvm::utohexstr(at + 256, true) +
                ", +256) overlaps an allocation or another mapping");
  EXPECT_EQ(toString((*d0)->free(at)),
            "free of 0x" + llvm::utohexstr(at, true) +
                ", which is mapped external memory (unmap it instead)");
  ASSERT_FALSE(bool((*d0)->unmapExternal(at)));
  llvm::Error gone = (*d0)->copyFromDevice(&back, at, 4);
  EXPECT_TRUE(bool(gone)) << "a read after unmapping succeeded";
  llvm::consumeError(std::move(gone));
}

} // namespace
