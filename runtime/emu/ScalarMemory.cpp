//===- ScalarMemory.cpp - SMEM: loads, stores, atomics, s_memtime ---------===//
//
// MC operand order: [sdst,] [sdata,] sbase, then the offset (an SGPR for the
// _SGPR form, an immediate for _IMM, both for _SGPR_IMM), then the cache
// policy. Loads have sdst only; stores and atomics take sdata as their first
// source (the returning atomics, printed with glc, _RTN in MC, also define
// sdst, tied to sdata), so sbase is src[0] of a load and src[1] of the rest.
//
// Addresses (CDNA3 ISA, "Scalar Memory Operations"): sbase plus the offsets,
// with the two low address bits ignored. s_load/s_store/s_atomic take a
// 64-bit address in sbase; the s_buffer_* forms take base and num_records
// from the V# in sbase (words 0-1 and 2) and apply the offset to the base:
// dwords past num_records read 0 and are not written, and an atomic past it
// neither changes memory nor returns what is there (it returns 0, as any read
// out of range does). Only raw V#s (stride 0, num_records in bytes) are
// modelled; a V# with a stride stops the wave rather than being guessed at.
//
// Scalar stores and atomics: the scalar data cache is write-back, so the
// memory model (LLVM's AMDGPUUsage) guarantees vector accesses see a scalar
// store only after s_dcache_wb and an lgkmcnt wait. The emulator writes
// device memory at once, which is one of the orders the hardware allows;
// that is why s_dcache_wb/s_dcache_inv (and their _vol forms) have nothing
// to do (Control.cpp). Atomics return the value before the operation to
// sdst when glc is set (the _RTN forms); cmpswap's sdata is {new, compare}.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Exec.h"
#include "runtime/emu/Ops.h"

#include "llvm/ADT/StringExtras.h"

namespace kcc::emu {

std::string hex(uint64_t x) { return "0x" + llvm::utohexstr(x); }

namespace {

/// The byte offset of an SMEM instruction: immediate and/or SGPR. `sbase`
/// is the index of the sbase source (the SGPR offset follows it).
uint64_t smemOffset(Wave &w, const Inst &in, unsigned sbase) {
  uint64_t off = 0;
  if (in.nsrc >= sbase + 2 && (in.form & kFormSmemSgpr))
    off += readScalar32(w, in.src[sbase + 1]);
  if (in.form & kFormSmemImm) {
    if (in.nctrl >= 2)
      off += uint64_t(int64_t(int32_t(in.ctrl[0]) << 11 >> 11)); // 21-bit signed
    else if (in.nctrl == 1 && (in.form & kFormSmemSgpr) == 0)
      off += uint64_t(in.ctrl[0]);
  }
  return off;
}

/// Host pointer to `bytes` of device memory at `addr` for a scalar access,
/// logged for the observers; nullptr after faulting the wave (an address
/// outside every allocation is a page fault on hardware).
uint8_t *scalarMemory(Wave &w, uint64_t addr, unsigned bytes, const char *what,
                      uint8_t kind) {
  uint8_t *p = w.dispatch->memory->translate(addr, bytes);
  if (!p) {
    w.faultBadAddress(addr, std::string(what) + " of " + std::to_string(bytes) + " bytes",
                      std::string(kind == kMemRead ? " from" : " at") +
                          " unmapped address " + hex(addr));
    return nullptr;
  }
  logMem(w, MemSpace::Scalar, kind, 0, addr, bytes);
  return p;
}

/// The raw buffer a scalar buffer instruction addresses (see the header).
struct ScalarBuffer {
  uint64_t base;
  uint32_t numRecords;
};
bool scalarBuffer(Wave &w, const Opnd &rsrc, const char *what, ScalarBuffer &b) {
  unsigned r = rsrc.reg;
  uint32_t stride = (w.s[r + 1] >> 16) & 0x3fff;
  if (stride) {
    w.fault(std::string(what) + " with a V# stride of " + std::to_string(stride) +
            ": scalar buffer accesses are modelled for raw (stride 0) "
            "resources only");
    return false;
  }
  b.base = uint64_t(w.s[r]) | (uint64_t(w.s[r + 1] & 0xffff) << 32);
  b.numRecords = w.s[r + 2];
  return true;
}

uint32_t sgprOf(const Wave &w, const Opnd &o, unsigned i) {
  return o.kind == OpndKind::Sgpr && o.reg != kSgprNull && o.reg + i < kNumSgprSlots
             ? w.s[o.reg + i]
             : 0;
}
void setSgpr(Wave &w, const Opnd &o, unsigned i, uint32_t x) {
  if (o.kind == OpndKind::Sgpr && o.reg != kSgprNull && o.reg + i < kNumSgprSlots)
    w.s[o.reg + i] = x;
}

void sload(Wave &w, const Inst &in) {
  unsigned n = in.dst[0].width;
  uint64_t addr = (readScalar64(w, in.src[0]) + smemOffset(w, in, 0)) & ~3ull;
  const uint8_t *p = scalarMemory(w, addr, 4 * n, "scalar load", kMemRead);
  if (!p)
    return;
  for (unsigned i = 0; i < n; ++i) {
    uint32_t x;
    std::memcpy(&x, p + 4 * i, 4);
    setSgpr(w, in.dst[0], i, x);
  }
}

void sbufferLoad(Wave &w, const Inst &in) {
  unsigned n = in.dst[0].width;
  ScalarBuffer b;
  if (!scalarBuffer(w, in.src[0], "s_buffer_load", b))
    return;
  uint64_t off = smemOffset(w, in, 0) & ~3ull;
  for (unsigned i = 0; i < n; ++i) {
    uint64_t o = off + 4 * i;
    uint32_t x = 0;
    if (o + 4 <= b.numRecords) {
      const uint8_t *p = scalarMemory(w, b.base + o, 4, "s_buffer_load", kMemRead);
      if (!p)
        return;
      std::memcpy(&x, p, 4);
    }
    setSgpr(w, in.dst[0], i, x);
  }
}

void sstore(Wave &w, const Inst &in) {
  const Opnd &data = in.src[0];
  unsigned n = data.width;
  uint64_t addr = (readScalar64(w, in.src[1]) + smemOffset(w, in, 1)) & ~3ull;
  uint8_t *p = scalarMemory(w, addr, 4 * n, "scalar store", kMemWrite);
  if (!p)
    return;
  for (unsigned i = 0; i < n; ++i) {
    uint32_t x = sgprOf(w, data, i);
    std::memcpy(p + 4 * i, &x, 4);
  }
  ++*w.dispatch->progress;
}

void sbufferStore(Wave &w, const Inst &in) {
  const Opnd &data = in.src[0];
  unsigned n = data.width;
  ScalarBuffer b;
  if (!scalarBuffer(w, in.src[1], "s_buffer_store", b))
    return;
  uint64_t off = smemOffset(w, in, 1) & ~3ull;
  bool wrote = false;
  for (unsigned i = 0; i < n; ++i) {
    uint64_t o = off + 4 * i;
    if (o + 4 > b.numRecords)
      continue; // dropped, as out-of-range buffer writes are
    uint8_t *p = scalarMemory(w, b.base + o, 4, "s_buffer_store", kMemWrite);
    if (!p)
      return;
    uint32_t x = sgprOf(w, data, i);
    std::memcpy(p, &x, 4);
    wrote = true;
  }
  if (wrote)
    ++*w.dispatch->progress;
}

/// Inst::op of the atomics: atomicApply's operation | wide << 8 | buffer << 9.
enum : unsigned { AAdd = 0, ASub = 1, AInc = 3, ADec = 4, AMinI = 5, AMaxI = 6,
                  AMinU = 7, AMaxU = 8, AAnd = 9, AOr = 10, AXor = 11,
                  AXchg = 13, ACmpswap = 18 };
constexpr unsigned kAtomicWide = 1u << 8, kAtomicBuffer = 1u << 9;

void satomic(Wave &w, const Inst &in) {
  unsigned op = in.op & 0xff;
  bool wide = in.op & kAtomicWide, buffer = in.op & kAtomicBuffer;
  unsigned dwords = wide ? 2 : 1;
  const Opnd &data = in.src[0];
  uint64_t off = smemOffset(w, in, 1);
  uint64_t addr;
  bool inRange = true;
  if (buffer) {
    ScalarBuffer b;
    if (!scalarBuffer(w, in.src[1], "s_buffer_atomic", b))
      return;
    off &= ~3ull;
    addr = b.base + off;
    inRange = off + 4 * dwords <= b.numRecords; // all or nothing
  } else {
    addr = (readScalar64(w, in.src[1]) + off) & ~3ull;
  }
  auto value = [&](unsigned first) {
    uint64_t x = sgprOf(w, data, first);
    if (wide)
      x |= uint64_t(sgprOf(w, data, first + 1)) << 32;
    return x;
  };
  uint64_t src = value(0), cmp = op == ACmpswap ? value(dwords) : 0, old = 0;
  if (inRange) {
    uint8_t *p = scalarMemory(w, addr, 4 * dwords,
                              buffer ? "s_buffer_atomic" : "scalar atomic", kMemAtomic);
    if (!p)
      return;
    std::memcpy(&old, p, 4 * dwords);
    uint64_t nv = atomicApply(op, old, src, cmp, wide);
    std::memcpy(p, &nv, 4 * dwords);
    if (nv != old)
      ++*w.dispatch->progress;
  }
  if (in.form & kFormRtn) {
    setSgpr(w, in.dst[0], 0, uint32_t(old));
    if (wide)
      setSgpr(w, in.dst[0], 1, uint32_t(old >> 32));
  }
}

void memtime(Wave &w, const Inst &in) {
  // A monotonically increasing counter: instructions issued on the device.
  writeScalar64(w, in.dst[0], ++*w.dispatch->clock);
}

/// s_atc_probe and s_atc_probe_buffer ask the address translation cache to
/// fetch the translation of an address ahead of its use: a hint that writes
/// no register and no memory. The emulator has no translation cache, so
/// there is nothing to do (and nothing to fault on: a probe of an unmapped
/// address is not an access).
void atcProbe(Wave &, const Inst &) {}

} // namespace

void registerScalarMemoryOps(OpTable &t) {
  // Not s_scratch_load/store: their sbase is ignored and the wave's
  // FLAT_SCRATCH is the base (LLVM's AMDGPU syntax reference), an address in
  // the swizzled scratch of the whole wave, which the emulator's per-lane
  // private segments do not model. They stay unsupported rather than read
  // device memory at sbase.
  for (const char *name : {"S_LOAD_DWORD", "S_LOAD_DWORDX2", "S_LOAD_DWORDX4",
                           "S_LOAD_DWORDX8", "S_LOAD_DWORDX16"})
    t.add(name, sload);
  for (const char *name :
       {"S_BUFFER_LOAD_DWORD", "S_BUFFER_LOAD_DWORDX2", "S_BUFFER_LOAD_DWORDX4",
        "S_BUFFER_LOAD_DWORDX8", "S_BUFFER_LOAD_DWORDX16"})
    t.add(name, sbufferLoad);
  for (const char *name : {"S_STORE_DWORD", "S_STORE_DWORDX2", "S_STORE_DWORDX4"})
    t.add(name, sstore);
  for (const char *name :
       {"S_BUFFER_STORE_DWORD", "S_BUFFER_STORE_DWORDX2", "S_BUFFER_STORE_DWORDX4"})
    t.add(name, sbufferStore);
  struct {
    const char *name;
    unsigned op;
  } atomics[] = {{"ADD", AAdd},   {"SUB", ASub},   {"INC", AInc},
                 {"DEC", ADec},   {"SMIN", AMinI}, {"SMAX", AMaxI},
                 {"UMIN", AMinU}, {"UMAX", AMaxU}, {"AND", AAnd},
                 {"OR", AOr},     {"XOR", AXor},   {"SWAP", AXchg},
                 {"CMPSWAP", ACmpswap}};
  for (const auto &a : atomics)
    for (unsigned buffer = 0; buffer < 2; ++buffer)
      for (unsigned wide = 0; wide < 2; ++wide)
        t.add(std::string(buffer ? "S_BUFFER_ATOMIC_" : "S_ATOMIC_") + a.name +
                  (wide ? "_X2" : ""),
              satomic, Layout::Plain,
              uint16_t(a.op | (wide ? kAtomicWide : 0) | (buffer ? kAtomicBuffer : 0)));
  t.add("S_MEMTIME", memtime);
  t.add("S_MEMREALTIME", memtime);
  t.add("S_ATC_PROBE", atcProbe);
  t.add("S_ATC_PROBE_BUFFER", atcProbe);
}

} // namespace kcc::emu
