//===- CrossLane.cpp - Lane reads/writes and lane permutes ----------------===//
//
// v_readfirstlane/v_readlane/v_writelane move values between a lane and an
// SGPR; gfx950's v_permlane16_swap/v_permlane32_swap exchange rows between
// two VGPRs (LLVM AMDGPUUsage: permlane16.swap swaps odd rows of the first
// operand with even rows of the second, permlane32.swap rows 2-3 of the first
// with rows 0-1 of the second; a row is 16 lanes).
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Exec.h"
#include "runtime/emu/Ops.h"

#include "llvm/ADT/bit.h"

namespace kcc::emu {
namespace {

void readfirstlane(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  int lane = exec ? llvm::countr_zero(exec) : 0;
  uint32_t buf[kLanes];
  writeScalar32(w, in.dst[0], lanes(w, in.src[0], buf)[lane]);
}

void readlane(Wave &w, const Inst &in) {
  uint32_t lane = readScalar32(w, in.src[1]) & 63;
  uint32_t buf[kLanes];
  writeScalar32(w, in.dst[0], lanes(w, in.src[0], buf)[lane]);
}

void writelane(Wave &w, const Inst &in) {
  // Writes one lane regardless of EXEC.
  uint32_t value = readScalar32(w, in.src[0]);
  uint32_t lane = readScalar32(w, in.src[1]) & 63;
  w.row(in.dst[0].reg)[lane] = value;
}

void permlaneSwap(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  uint32_t *a = w.row(in.dst[0].reg), *b = w.row(in.dst[1].reg);
  bool is32 = in.op == 32;
  for (int l = 0; l < kLanes; ++l) {
    // Lane l of b (rows 0-1 / even rows) pairs with lane p of a.
    bool source = is32 ? l < 32 : ((l >> 4) & 1) == 0;
    if (!source)
      continue;
    int p = is32 ? l + 32 : l + 16;
    uint32_t x = a[p], y = b[l];
    if ((exec >> p) & 1)
      a[p] = y;
    if ((exec >> l) & 1)
      b[l] = x;
  }
}

} // namespace

void registerCrossLaneOps(OpTable &t) {
  t.add("V_READFIRSTLANE_B32", readfirstlane);
  t.add("V_READLANE_B32", readlane);
  t.add("V_WRITELANE_B32", writelane);
  t.add("V_PERMLANE16_SWAP_B32", permlaneSwap, Layout::Plain, 16);
  t.add("V_PERMLANE32_SWAP_B32", permlaneSwap, Layout::Plain, 32);
}

} // namespace kcc::emu
