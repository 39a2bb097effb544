//===- ScalarMemory.cpp - SMEM: s_load, s_buffer_load, s_memtime ----------===//
//
// MC operand order: sdst, sbase, then the offset (an SGPR for the _SGPR form,
// an immediate for _IMM, both for _SGPR_IMM), then the cache policy.
// Scalar loads ignore the two low address bits (CDNA3 ISA, "Scalar Memory
// Operations"); s_buffer_load takes base and num_records from the V# and
// returns 0 for dwords past num_records.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Exec.h"
#include "runtime/emu/Ops.h"

#include "llvm/ADT/StringExtras.h"

namespace kcc::emu {

std::string hex(uint64_t x) { return "0x" + llvm::utohexstr(x); }

namespace {

/// The byte offset of an SMEM instruction: immediate and/or SGPR.
uint64_t smemOffset(Wave &w, const Inst &in) {
  uint64_t off = 0;
  if (in.nsrc >= 2 && (in.form & kFormSmemSgpr))
    off += readScalar32(w, in.src[1]);
  if (in.form & kFormSmemImm) {
    if (in.nctrl >= 2)
      off += uint64_t(int64_t(int32_t(in.ctrl[0]) << 11 >> 11)); // 21-bit signed
    else if (in.nctrl == 1 && (in.form & kFormSmemSgpr) == 0)
      off += uint64_t(in.ctrl[0]);
  }
  return off;
}

void sload(Wave &w, const Inst &in) {
  unsigned n = in.dst[0].width;
  uint64_t addr = (readScalar64(w, in.src[0]) + smemOffset(w, in)) & ~3ull;
  const uint8_t *p = w.dispatch->memory->translate(addr, 4ull * n);
  if (!p) {
    w.faultBadAddress(addr, "scalar load of " + std::to_string(4 * n) + " bytes",
                      " from unmapped address " + hex(addr));
    return;
  }
  logMem(w, MemSpace::Scalar, kMemRead, 0, addr, 4 * n);
  for (unsigned i = 0; i < n; ++i) {
    uint32_t x;
    std::memcpy(&x, p + 4 * i, 4);
    if (in.dst[0].reg + i < kNumSgprSlots)
      w.s[in.dst[0].reg + i] = x;
  }
}

void sbufferLoad(Wave &w, const Inst &in) {
  unsigned n = in.dst[0].width;
  unsigned r = in.src[0].reg;
  uint64_t base = uint64_t(w.s[r]) | (uint64_t(w.s[r + 1] & 0xffff) << 32);
  uint32_t numRecords = w.s[r + 2];
  uint64_t off = smemOffset(w, in) & ~3ull;
  for (unsigned i = 0; i < n; ++i) {
    uint64_t o = off + 4 * i;
    uint32_t x = 0;
    if (o + 4 <= numRecords) {
      const uint8_t *p = w.dispatch->memory->translate(base + o, 4);
      if (!p) {
        w.fault("s_buffer_load from unmapped address " + hex(base + o),
                FaultKind::BadAddress);
        return;
      }
      logMem(w, MemSpace::Scalar, kMemRead, 0, base + o, 4);
      std::memcpy(&x, p, 4);
    }
    w.s[in.dst[0].reg + i] = x;
  }
}

void memtime(Wave &w, const Inst &in) {
  // A monotonically increasing counter: instructions issued on the device.
  writeScalar64(w, in.dst[0], ++*w.dispatch->clock);
}

} // namespace

void registerScalarMemoryOps(OpTable &t) {
  for (const char *name : {"S_LOAD_DWORD", "S_LOAD_DWORDX2", "S_LOAD_DWORDX4",
                           "S_LOAD_DWORDX8", "S_LOAD_DWORDX16",
                           "S_SCRATCH_LOAD_DWORD"})
    t.add(name, sload);
  for (const char *name :
       {"S_BUFFER_LOAD_DWORD", "S_BUFFER_LOAD_DWORDX2", "S_BUFFER_LOAD_DWORDX4",
        "S_BUFFER_LOAD_DWORDX8", "S_BUFFER_LOAD_DWORDX16"})
    t.add(name, sbufferLoad);
  t.add("S_MEMTIME", memtime);
  t.add("S_MEMREALTIME", memtime);
}

} // namespace kcc::emu
