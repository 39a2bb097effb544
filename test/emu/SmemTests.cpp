//===- SmemTests.cpp - Scalar memory against references from the ISA ------===//
//
// The kernel of test/emu/asm/smem.s (llvm-mc output) runs scalar loads,
// stores and atomics of every kind once, one wave, and writes each scalar
// result to its own output slot; the file's header lists the slots. The
// references here follow the CDNA3 ISA guide's text ("Scalar Memory
// Operations" and the SMEM opcode descriptions), written another way than
// the emulator's: the memory is a host array the test updates in program
// order, the buffer range rule is a per-dword bounds test on byte indices,
// and each atomic is a case over its name with 128-bit arithmetic.
//
//===----------------------------------------------------------------------===//
#include "EmuTestSupport.h"

#include <string>

using namespace kcc;
using namespace kcc::emutest;

namespace {

class Smem : public EmuTest {};

const char *const kAtomicOps[] = {"add",  "sub",  "swap", "cmpswap", "smin",
                                  "umin", "smax", "umax", "and",     "or",
                                  "xor",  "inc",  "dec"};
constexpr int kNumOps = 13;

/// One atomic variant of smem.s, in the kernel's order.
struct Variant {
  bool buffer, wide, glc;
  std::string op;
};
std::vector<Variant> variants() {
  std::vector<Variant> v;
  for (int buffer = 0; buffer < 2; ++buffer)
    for (int wide = 0; wide < 2; ++wide)
      for (int glc = 0; glc < 2; ++glc)
        for (const char *op : kAtomicOps)
          v.push_back({buffer != 0, wide != 0, glc != 0, op});
  return v;
}

using i128 = __int128;

/// The new memory value of S_ATOMIC_<op> on an n-bit location holding
/// `tmp`, with sdata `data` (and `cmp` for cmpswap), as the ISA's
/// pseudocode states it.
uint64_t atomicRef(const std::string &op, unsigned n, uint64_t tmp, uint64_t data,
                   uint64_t cmp) {
  i128 mod = i128(1) << n;
  auto u = [&](uint64_t x) { return i128(x) % mod; };                      // unsigned view
  auto s = [&](uint64_t x) { return u(x) >= mod / 2 ? u(x) - mod : u(x); }; // signed view
  auto wrap = [&](i128 x) { return uint64_t(((x % mod) + mod) % mod); };
  if (op == "add") return wrap(u(tmp) + u(data));
  if (op == "sub") return wrap(u(tmp) - u(data));
  if (op == "swap") return wrap(u(data));
  if (op == "cmpswap") return u(tmp) == u(cmp) ? wrap(u(data)) : wrap(u(tmp));
  if (op == "smin") return s(data) < s(tmp) ? wrap(u(data)) : wrap(u(tmp));
  if (op == "umin") return u(data) < u(tmp) ? wrap(u(data)) : wrap(u(tmp));
  if (op == "smax") return s(data) > s(tmp) ? wrap(u(data)) : wrap(u(tmp));
  if (op == "umax") return u(data) > u(tmp) ? wrap(u(data)) : wrap(u(tmp));
  if (op == "and" || op == "or" || op == "xor") {
    uint64_t r = 0;
    for (unsigned b = 0; b < n; ++b) {
      unsigned x = (tmp >> b) & 1, y = (data >> b) & 1;
      unsigned z = op == "and" ? (x & y) : op == "or" ? (x | y) : (x ^ y);
      r |= uint64_t(z) << b;
    }
    return r;
  }
  if (op == "inc") return u(tmp) >= u(data) ? 0 : wrap(u(tmp) + 1);
  if (op == "dec")
    return (u(tmp) == 0 || u(tmp) > u(data)) ? wrap(u(data)) : wrap(u(tmp) - 1);
  ADD_FAILURE() << "no reference for s_atomic_" << op;
  return 0;
}

TEST_P(Smem, LoadsStoresAtomics) {
  auto m = load("smem");
  ASSERT_TRUE(m);
  std::vector<uint32_t> in(512), mem(512);
  for (auto &x : in)
    x = uint32_t(rng());
  for (auto &x : mem)
    x = uint32_t(rng());
  auto vars = variants();
  ASSERT_EQ(vars.size(), size_t(8 * kNumOps));
  // Edge cases: cmpswap that matches and that does not, inc that wraps to 0
  // and that counts, dec from 0, from above the limit and that counts.
  auto get = [](const std::vector<uint32_t> &a, size_t i, bool wide) {
    return uint64_t(a[i]) | (wide ? uint64_t(a[i + 1]) << 32 : 0);
  };
  auto put = [](std::vector<uint32_t> &a, size_t i, bool wide, uint64_t x) {
    a[i] = uint32_t(x);
    if (wide)
      a[i + 1] = uint32_t(x >> 32);
  };
  for (size_t v = 0; v < vars.size(); ++v) {
    const Variant &k = vars[v];
    size_t at = 64 + 4 * v;
    bool alt = k.glc != k.buffer; // which edge this variant takes
    uint64_t data = get(in, at, k.wide);
    if (k.op == "cmpswap") {
      size_t cmpAt = at + (k.wide ? 2 : 1);
      uint64_t old = get(mem, at, k.wide);
      put(in, cmpAt, k.wide, alt ? old : old ^ 0x100);
    } else if (k.op == "inc") {
      put(mem, at, k.wide, alt ? data : k.wide ? data + 3 : data - 5);
    } else if (k.op == "dec") {
      put(mem, at, k.wide, alt ? 0 : k.wide ? data + 3 : data - 5);
    }
  }
  uint64_t din = upload(in), dmem = upload(mem), dout = alloc(6 * 64 * 4, 0xcd);
  EMU_LAUNCH(*m, "smem", {1, 1, 1}, {64, 1, 1},
             ArgPack().add(din).add(dmem).add(dout));
  auto out = download<uint32_t>(dout, 6 * 64);
  auto memOut = download<uint32_t>(dmem, 512);

  // The reference: slots, and mem[] updated in program order.
  std::vector<uint32_t> ref = mem;
  std::vector<std::pair<size_t, uint32_t>> slots; // (slot, value)
  size_t next = 0;
  auto slot = [&](uint32_t x) { slots.push_back({next++, x}); };
  // A raw V#'s range rule: the dword at byte offset `byte` exists when all
  // of its four bytes are below num_records; else it reads 0.
  auto bufferRead = [&](const std::vector<uint32_t> &a, uint64_t byte,
                        uint64_t numRecords) -> uint32_t {
    return byte + 4 <= numRecords ? a[byte / 4] : 0;
  };
  for (uint64_t b = 0x20; b < 0x30; b += 4)
    slot(bufferRead(in, b, 40));
  for (uint64_t b = 4; b < 4 + 32; b += 4)
    slot(bufferRead(in, b, 40));
  slot(bufferRead(in, 4 + 0x24, 40));
  slot(bufferRead(in, 0x27 - 3, 40)); // 0x27 with bits 0-1 ignored
  for (uint64_t b = 0; b < 64; b += 4)
    slot(bufferRead(in, b, 48));
  slot(in[0x10 / 4]);
  slot(in[0x14 / 4]);
  slot(in[(4 + 8) / 4]);
  slot(in[4 / 4]);
  slot(in[4 / 4]); // the SGPR_alt encoding of the same load
  ASSERT_EQ(next, 35u);
  // Stores.
  ref[0] = in[16];
  ref[1] = in[18];
  ref[2] = in[19];
  for (int i = 0; i < 4; ++i)
    ref[3 + i] = in[20 + i];
  auto bufferWrite = [&](uint64_t base, uint64_t byte, uint64_t numRecords,
                         uint32_t x) {
    if (byte + 4 <= numRecords)
      ref[(base + byte) / 4] = x;
  };
  bufferWrite(32, 0, 24, in[16]);
  bufferWrite(32, 4, 24, in[17]);
  bufferWrite(32, 4 + 4, 24, in[17]);
  for (int i = 0; i < 4; ++i)
    bufferWrite(32, 0x10 + 4 * i, 24, in[20 + i]);
  std::vector<uint32_t> afterStores(ref.begin(), ref.begin() + 64);
  // Atomics.
  next = 64;
  for (size_t v = 0; v < vars.size(); ++v) {
    const Variant &k = vars[v];
    size_t at = 64 + 4 * v;
    unsigned n = k.wide ? 64 : 32;
    uint64_t tmp = get(ref, at, k.wide), data = get(in, at, k.wide),
             cmp = get(in, at + (k.wide ? 2 : 1), k.wide);
    put(ref, at, k.wide, atomicRef(k.op, n, tmp, data, cmp));
    // With glc sdata receives the value before the operation; without,
    // sdata is not written.
    uint64_t sdata = k.glc ? tmp : data;
    slot(uint32_t(sdata));
    if (k.wide)
      slot(uint32_t(sdata >> 32));
  }
  ASSERT_EQ(next, 220u);
  // s_atomic_swap glc, SGPR_alt encoding: returns mem[484], leaves in[484].
  slot(ref[484]);
  ref[484] = in[484];
  // mem[479..480] past num_records 1920: untouched.

  std::vector<uint32_t> want(6 * 64, 0xcdcdcdcdu);
  std::vector<bool> checked(6 * 64, false);
  for (auto &[k, x] : slots) {
    want[k] = x;
    checked[k] = true;
  }
  for (int l = 0; l < 64; ++l) {
    want[5 * 64 + l] = afterStores[l];
    checked[5 * 64 + l] = true;
  }
  // Only the slots the kernel writes are compared (other lanes of the
  // output VGPRs are never written).
  Report slotsReport("smem out (slot)");
  for (size_t i = 0; i < want.size(); ++i) {
    if (!checked[i])
      continue;
    std::string note;
    if (i >= 64 && i < 5 * 64) {
      // Name the atomic variant of the slot.
      size_t s = 64;
      for (size_t v = 0; v < vars.size(); ++v) {
        size_t w = vars[v].wide ? 2 : 1;
        if (i < s + w) {
          note = std::string(vars[v].buffer ? "s_buffer_atomic_" : "s_atomic_") +
                 vars[v].op + (vars[v].wide ? "_x2" : "") + (vars[v].glc ? " glc" : "");
          break;
        }
        s += w;
      }
    }
    if (out[i] != want[i])
      slotsReport.fail(i, hex(out[i]), hex(want[i]), note);
  }
  Report("smem mem after the kernel").expectEqual(memOut, ref);
}

} // namespace

INSTANTIATE_TEST_SUITE_P(Chips, Smem,
                         ::testing::Values(Chip::gfx942, Chip::gfx950),
                         chipParamName);
