//===- CheckTests.cpp - Check mode catches deliberately broken kernels ----===//
//
// Each broken kernel (kernels/checkbugs.hip, asm/check_waitcnt.s,
// asm/check_smem.s, and the tile-dialect kernels of check/) must produce a
// finding of the right class whose instructions are the ones that carry the
// bug, found by address in the emulator's own disassembly of the kernel;
// each fixed variant must run clean on the same pattern.
//
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include "runtime/emu/Check.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstdlib>
#include <functional>

using namespace kcc;
using namespace kcc::emutest;

namespace {

class Check : public EmuTest {
protected:
  /// Runs `kernel` in check mode; returns the findings (an error that is
  /// not a CheckError fails the test).
  std::vector<emu::Finding> run(emu::Module &m, const std::string &kernel,
                                emu::Dim3 grid, emu::Dim3 block,
                                const ArgPack &args, bool uninit = false,
                                uint32_t dynamicLds = 0) {
    emu::LaunchOptions o;
    o.grid = grid;
    o.block = block;
    o.dynamicLdsBytes = dynamicLds;
    o.check.enabled = true;
    o.check.uninit = uninit;
    std::vector<emu::Finding> findings;
    auto stats = dev->launch(m, kernel, o, args.data());
    if (stats)
      return findings;
    llvm::Error rest = llvm::handleErrors(
        stats.takeError(), [&](const emu::CheckError &e) { findings = e.findings; });
    if (rest)
      ADD_FAILURE() << "launch of " << kernel
                    << " failed outside check mode: " << llvm::toString(std::move(rest));
    return findings;
  }

  /// Addresses of the instructions of `kernel` in `file`'s code object whose
  /// disassembly satisfies `match`.
  std::vector<uint64_t> pcsOf(const std::string &file, const std::string &kernel,
                              std::function<bool(llvm::StringRef)> match) {
    std::vector<uint64_t> pcs;
    auto buf = llvm::MemoryBuffer::getFile(hsacoPath(file, chip()));
    if (!buf) {
      ADD_FAILURE() << "cannot read " << hsacoPath(file, chip());
      return pcs;
    }
    llvm::ArrayRef<uint8_t> bytes(
        reinterpret_cast<const uint8_t *>((*buf)->getBufferStart()), (*buf)->getBufferSize());
    auto insts = emu::disassembleKernel(bytes, kernel, chip());
    if (!insts) {
      ADD_FAILURE() << llvm::toString(insts.takeError());
      return pcs;
    }
    for (const emu::DecodedInstruction &d : *insts)
      if (match(d.text))
        pcs.push_back(d.offset);
    return pcs;
  }
  uint64_t uniquePc(const std::string &file, const std::string &kernel,
                    std::function<bool(llvm::StringRef)> match, const char *what) {
    auto pcs = pcsOf(file, kernel, match);
    EXPECT_EQ(pcs.size(), 1u) << "instructions matching " << what << " in " << kernel;
    return pcs.empty() ? ~0ull : pcs.front();
  }

  static std::string dump(const std::vector<emu::Finding> &fs) {
    std::string s;
    for (const emu::Finding &f : fs)
      s += "\n  " + f.message();
    return s;
  }
};

auto startsWith(const char *prefix) {
  return [prefix](llvm::StringRef t) { return t.starts_with(prefix); };
}

TEST_P(Check, LdsRaceBetweenTwoWaves) {
  auto m = load("checkbugs");
  ASSERT_TRUE(m);
  uint64_t out = alloc(64 * 4);
  auto fs = run(*m, "lds_race", {1, 1, 1}, {128, 1, 1}, ArgPack().add(out));
  ASSERT_EQ(fs.size(), 1u) << dump(fs);
  EXPECT_EQ(fs[0].kind, emu::FindingClass::Race);
  uint64_t wr = uniquePc("checkbugs", "lds_race", startsWith("ds_write_b32"), "ds_write");
  uint64_t rd = uniquePc("checkbugs", "lds_race", startsWith("ds_read_b32"), "ds_read");
  // Either side may come first in the interleaving; both are named.
  std::set<uint64_t> pcs{fs[0].site.pc, fs[0].other.pc};
  EXPECT_EQ(pcs, (std::set<uint64_t>{wr, rd})) << dump(fs);
  EXPECT_NE(fs[0].site.wave, fs[0].other.wave);
  EXPECT_NE(fs[0].message().find("LDS [0x"), std::string::npos);

  EXPECT_TRUE(run(*m, "lds_race_ok", {1, 1, 1}, {128, 1, 1}, ArgPack().add(out)).empty());
}

// A scalar store is published as the memory model orders it (s_store,
// s_dcache_wb, s_waitcnt lgkmcnt(0), then s_barrier) and another wave's
// vector load of it after the barrier is no race (asm/check_smem.s); the
// same pair with no barrier is one.
TEST_P(Check, ScalarStoreThenVectorLoad) {
  auto m = load("check_smem");
  ASSERT_TRUE(m);
  uint64_t mem = alloc(64 * 4), out = alloc(128 * 4);
  auto clean = run(*m, "smem_publish", {1, 1, 1}, {128, 1, 1}, ArgPack().add(mem).add(out));
  EXPECT_TRUE(clean.empty()) << dump(clean);
  auto seen = download<uint32_t>(out + 64 * 4, 64);
  Report("wave 1's vector load of the scalar store")
      .expectEqual(seen, std::vector<uint32_t>(64, 0x5eed));

  auto fs = run(*m, "smem_race", {1, 1, 1}, {128, 1, 1}, ArgPack().add(mem).add(out));
  ASSERT_EQ(fs.size(), 1u) << dump(fs);
  EXPECT_EQ(fs[0].kind, emu::FindingClass::Race);
  uint64_t st = uniquePc("check_smem", "smem_race", startsWith("s_store_dword"), "s_store");
  uint64_t ld = uniquePc("check_smem", "smem_race", startsWith("global_load_dword"),
                         "global_load");
  std::set<uint64_t> pcs{fs[0].site.pc, fs[0].other.pc};
  EXPECT_EQ(pcs, (std::set<uint64_t>{st, ld})) << dump(fs);
}

// Scalar stores and atomics past their buffer are bad addresses like vector
// ones: check mode reports the instruction, and a plain launch names the
// access and the argument it ran past (asm/check_smem.s, smem_oob).
TEST_P(Check, ScalarBadAddress) {
  auto m = load("check_smem");
  ASSERT_TRUE(m);
  uint64_t out = alloc(64 * 4), mem = alloc(64 * 4); // mem above out
  auto args = [&](int32_t atomicOff, int32_t storeOff) {
    return ArgPack().add(mem).add(out).add(atomicOff).add(storeOff);
  };
  EXPECT_TRUE(run(*m, "smem_oob", {1, 1, 1}, {64, 1, 1}, args(0, 4)).empty());
  // mem[0] += 1; s9 (1: no glc, no return) is stored to mem[1].
  EXPECT_EQ(download<uint32_t>(mem, 2), (std::vector<uint32_t>{1, 1}));
  auto fs = run(*m, "smem_oob", {1, 1, 1}, {64, 1, 1}, args(1 << 20, 0));
  ASSERT_EQ(fs.size(), 1u) << dump(fs);
  EXPECT_EQ(fs[0].kind, emu::FindingClass::BadAddress);
  EXPECT_EQ(fs[0].site.pc, uniquePc("check_smem", "smem_oob", startsWith("s_atomic_add"),
                                    "s_atomic_add"));
  fs = run(*m, "smem_oob", {1, 1, 1}, {64, 1, 1}, args(0, 1 << 20));
  ASSERT_EQ(fs.size(), 1u) << dump(fs);
  EXPECT_EQ(fs[0].kind, emu::FindingClass::BadAddress);
  EXPECT_EQ(fs[0].site.pc, uniquePc("check_smem", "smem_oob", startsWith("s_store_dword"),
                                    "s_store_dword"));
  std::string err = launch(*m, "smem_oob", {1, 1, 1}, {64, 1, 1}, args(0, 1 << 20));
  EXPECT_NE(err.find("scalar store of 4 bytes at unmapped address"), std::string::npos) << err;
  // KCCEmuCheckedTests runs this launch in check mode too, whose report
  // names the access but not the buffer.
  if (!std::getenv("KCC_EMU_CHECK")) {
    EXPECT_NE(err.find("argument 0 'mem': scalar store of 4 bytes at offset 1048576"),
              std::string::npos)
        << err;
  }
}

TEST_P(Check, ReleaseWithoutBarrier) {
  auto m = load("checkbugs");
  ASSERT_TRUE(m);
  uint64_t tile = alloc(256 * 4), flag = alloc(4), out = alloc(256 * 4);
  auto fs = run(*m, "release_no_barrier", {2, 1, 1}, {256, 1, 1},
                ArgPack().add(tile).add(flag).add(out));
  ASSERT_FALSE(fs.empty());
  // The producer's tile store (a plain store before the wbl2/release) and the
  // consumer's tile load (a plain load after the acquire).
  auto plain = [](const char *op) {
    return [op](llvm::StringRef t) { return t.starts_with(op) && !t.contains("sc1"); };
  };
  auto stores = pcsOf("checkbugs", "release_no_barrier", plain("global_store_dword"));
  auto loads = pcsOf("checkbugs", "release_no_barrier", plain("global_load_dword"));
  uint64_t wbl2 = uniquePc("checkbugs", "release_no_barrier", startsWith("buffer_wbl2"), "wbl2");
  bool found = false;
  for (const emu::Finding &f : fs) {
    EXPECT_EQ(f.kind, emu::FindingClass::Race) << f.message();
    const emu::FindingSite *st = f.site.workgroup[0] == 0 ? &f.site : &f.other;
    const emu::FindingSite *ld = st == &f.site ? &f.other : &f.site;
    bool isStore = std::count(stores.begin(), stores.end(), st->pc) && st->pc < wbl2;
    bool isLoad = std::count(loads.begin(), loads.end(), ld->pc);
    // Wave 0 released after its own store; the other waves' stores race.
    if (isStore && isLoad && st->workgroup[0] == 0 && st->wave != 0 &&
        ld->workgroup[0] == 1)
      found = true;
  }
  EXPECT_TRUE(found) << dump(fs);

  uint64_t flag2 = alloc(4);
  auto clean = run(*m, "release_with_barrier", {2, 1, 1}, {256, 1, 1},
                   ArgPack().add(tile).add(flag2).add(out));
  EXPECT_TRUE(clean.empty()) << dump(clean);
}

TEST_P(Check, BarrierCountMismatch) {
  auto m = load("checkbugs");
  ASSERT_TRUE(m);
  uint64_t out = alloc(128 * 4);
  auto fs = run(*m, "barrier_mismatch", {1, 1, 1}, {128, 1, 1},
                ArgPack().add(out).add(int32_t(3)));
  ASSERT_EQ(fs.size(), 1u) << dump(fs);
  EXPECT_EQ(fs[0].kind, emu::FindingClass::BarrierMisuse);
  EXPECT_EQ(fs[0].site.pc,
            uniquePc("checkbugs", "barrier_mismatch", startsWith("s_barrier"), "s_barrier"));
  EXPECT_EQ(fs[0].site.wave, 0u);
  EXPECT_EQ(fs[0].other.wave, 1u);
}

TEST_P(Check, FlagResetWhilePeerSpins) {
  auto m = load("checkbugs");
  ASSERT_TRUE(m);
  uint64_t flag = alloc(4), out = alloc(4);
  auto fs = run(*m, "flag_reset_race", {2, 1, 1}, {64, 1, 1}, ArgPack().add(flag).add(out));
  ASSERT_FALSE(fs.empty());
  uint64_t wbl2 = uniquePc("checkbugs", "flag_reset_race", startsWith("buffer_wbl2"), "wbl2");
  auto resets = pcsOf("checkbugs", "flag_reset_race", [](llvm::StringRef t) {
    return t.starts_with("global_store_dword") && !t.contains("sc1");
  });
  auto acquires = pcsOf("checkbugs", "flag_reset_race", [](llvm::StringRef t) {
    return t.starts_with("global_load_dword") && t.contains("sc1");
  });
  ASSERT_EQ(acquires.size(), 1u);
  bool found = false;
  for (const emu::Finding &f : fs) {
    const emu::FindingSite *reset = f.site.workgroup[0] == 0 ? &f.site : &f.other;
    const emu::FindingSite *peer = reset == &f.site ? &f.other : &f.site;
    if (f.kind == emu::FindingClass::Race && reset->pc > wbl2 &&
        std::count(resets.begin(), resets.end(), reset->pc) &&
        peer->pc == acquires[0] && peer->workgroup[0] == 1)
      found = true;
  }
  EXPECT_TRUE(found) << dump(fs);
}

TEST_P(Check, MissingWaitcntVgpr) {
  auto m = load("check_waitcnt");
  ASSERT_TRUE(m);
  uint64_t in = alloc(128 * 4), out = alloc(64 * 4);
  auto fs = run(*m, "nowait_vgpr", {1, 1, 1}, {64, 1, 1}, ArgPack().add(in).add(out));
  ASSERT_EQ(fs.size(), 1u) << dump(fs);
  EXPECT_EQ(fs[0].kind, emu::FindingClass::UnwaitedResult);
  EXPECT_EQ(fs[0].what, "v2");
  EXPECT_EQ(fs[0].site.pc, uniquePc("check_waitcnt", "nowait_vgpr",
                                    startsWith("v_add_u32_e32 v3, v2, v2"), "v_add"));
  EXPECT_EQ(fs[0].other.pc, uniquePc("check_waitcnt", "nowait_vgpr",
                                     startsWith("global_load_dword"), "load"));
  EXPECT_TRUE(run(*m, "vm_inorder_ok", {1, 1, 1}, {64, 1, 1}, ArgPack().add(in).add(out)).empty());
}

TEST_P(Check, MissingWaitcntScalarMixedWithLds) {
  auto m = load("check_waitcnt");
  ASSERT_TRUE(m);
  uint64_t in = alloc(128 * 4), out = alloc(64 * 4);
  auto fs = run(*m, "nowait_smem_mixed", {1, 1, 1}, {64, 1, 1}, ArgPack().add(in).add(out));
  ASSERT_EQ(fs.size(), 1u) << dump(fs);
  EXPECT_EQ(fs[0].kind, emu::FindingClass::UnwaitedResult);
  EXPECT_EQ(fs[0].what, "s8");
  EXPECT_EQ(fs[0].site.pc, uniquePc("check_waitcnt", "nowait_smem_mixed",
                                    startsWith("v_add_u32_e32 v3, s8"), "v_add"));
  EXPECT_EQ(fs[0].other.pc, uniquePc("check_waitcnt", "nowait_smem_mixed",
                                     startsWith("s_load_dword s8"), "s_load"));
  EXPECT_TRUE(run(*m, "lds_inorder_ok", {1, 1, 1}, {64, 1, 1}, ArgPack().add(in).add(out)).empty());
}

TEST_P(Check, MissingWaitcntLdsDma) {
  auto m = load("check_waitcnt");
  ASSERT_TRUE(m);
  uint64_t in = alloc(128 * 4), out = alloc(64 * 4);
  auto fs = run(*m, "nowait_lds_dma", {1, 1, 1}, {64, 1, 1}, ArgPack().add(in).add(out));
  ASSERT_EQ(fs.size(), 1u) << dump(fs);
  EXPECT_EQ(fs[0].kind, emu::FindingClass::UnwaitedResult);
  EXPECT_EQ(fs[0].site.pc, uniquePc("check_waitcnt", "nowait_lds_dma",
                                    startsWith("ds_read_b32"), "ds_read"));
  EXPECT_EQ(fs[0].other.pc, uniquePc("check_waitcnt", "nowait_lds_dma",
                                     startsWith("buffer_load_dword"), "DMA"));
}

// LDS DMA across waves: ordered by a barrier only once waited for, and a
// DMA in flight across a barrier does not hold back the ordering of the
// issuing wave's completed LDS reads (asm/check_lds_dma.s).
TEST_P(Check, LdsDmaAcrossWaves) {
  auto m = load("check_lds_dma");
  ASSERT_TRUE(m);
  uint64_t in = alloc(64 * 4), out = alloc(64 * 4);
  auto fs = run(*m, "dma_race", {1, 1, 1}, {128, 1, 1}, ArgPack().add(in).add(out));
  ASSERT_EQ(fs.size(), 1u) << dump(fs);
  EXPECT_EQ(fs[0].kind, emu::FindingClass::Race);
  auto read = uniquePc("check_lds_dma", "dma_race", startsWith("ds_read_b32"), "ds_read");
  auto dma = uniquePc("check_lds_dma", "dma_race", startsWith("buffer_load_dword"), "DMA");
  // Whichever of the two the interleaving ran first.
  EXPECT_TRUE((fs[0].site.pc == read && fs[0].other.pc == dma) ||
              (fs[0].site.pc == dma && fs[0].other.pc == read))
      << dump(fs);
  EXPECT_TRUE(run(*m, "dma_waited_ok", {1, 1, 1}, {128, 1, 1}, ArgPack().add(in).add(out))
                  .empty());
  auto inflight =
      run(*m, "dma_in_flight_ok", {1, 1, 1}, {128, 1, 1}, ArgPack().add(in).add(out));
  EXPECT_TRUE(inflight.empty()) << dump(inflight);
}

TEST_P(Check, BadAddress) {
  auto m = load("checkbugs");
  ASSERT_TRUE(m);
  uint64_t out = alloc(64 * 4);
  auto fs = run(*m, "out_of_bounds", {1, 1, 1}, {64, 1, 1},
                ArgPack().add(out).add(int32_t(1 << 20)));
  ASSERT_EQ(fs.size(), 1u) << dump(fs);
  EXPECT_EQ(fs[0].kind, emu::FindingClass::BadAddress);
  EXPECT_EQ(fs[0].site.pc, uniquePc("checkbugs", "out_of_bounds",
                                    startsWith("global_store_dword"), "store"));
  EXPECT_EQ(fs[0].site.lane, 0);
  EXPECT_TRUE(run(*m, "out_of_bounds", {1, 1, 1}, {64, 1, 1},
                  ArgPack().add(out).add(int32_t(0))).empty());
}

TEST_P(Check, UninitialisedLdsOnlyOnRequest) {
  auto m = load("checkbugs");
  ASSERT_TRUE(m);
  uint64_t out = alloc(64 * 4);
  EXPECT_TRUE(run(*m, "lds_uninit", {1, 1, 1}, {64, 1, 1}, ArgPack().add(out)).empty());
  auto fs = run(*m, "lds_uninit", {1, 1, 1}, {64, 1, 1}, ArgPack().add(out), /*uninit=*/true);
  ASSERT_EQ(fs.size(), 1u) << dump(fs);
  EXPECT_EQ(fs[0].kind, emu::FindingClass::Uninit);
  EXPECT_EQ(fs[0].site.lane, 63);
  EXPECT_EQ(fs[0].site.pc, uniquePc("checkbugs", "lds_uninit", startsWith("ds_read"), "read"));
}

INSTANTIATE_TEST_SUITE_P(Chips, Check, ::testing::Values(Chip::gfx942, Chip::gfx950),
                         chipParamName);

} // namespace
