//===- LdsBanks.cpp - LDS bank-conflict cycles of one access --------------===//
#include "runtime/emu/timing/LdsBanks.h"

#include <algorithm>

namespace kcc::emu::timing {

LdsAccessCost ldsAccessCost(const uint32_t *addr, uint64_t exec,
                            unsigned bytesPerLane, unsigned banks) {
  LdsAccessCost cost;
  if (!exec || !banks)
    return cost;
  unsigned dwordsPerLane = std::max(1u, (bytesPerLane + 3) / 4);
  unsigned lanesPerPhase = std::max(1u, std::min(64u, banks / dwordsPerLane));
  // Per phase: the distinct dwords each bank delivers. At most 64 lanes x 4
  // dwords = 256 dwords per phase, so a small flat list is enough.
  uint32_t dwords[256];
  for (unsigned first = 0; first < 64; first += lanesPerPhase) {
    unsigned n = 0;
    unsigned activeLanes = 0;
    for (unsigned l = first; l < first + lanesPerPhase && l < 64; ++l) {
      if (!((exec >> l) & 1))
        continue;
      ++activeLanes;
      for (unsigned d = 0; d < dwordsPerLane; ++d)
        dwords[n++] = addr[l] / 4 + d;
    }
    if (!activeLanes)
      continue;
    std::sort(dwords, dwords + n);
    n = unsigned(std::unique(dwords, dwords + n) - dwords);
    unsigned perBank[64] = {};
    unsigned worst = 0;
    for (unsigned i = 0; i < n; ++i)
      worst = std::max(worst, ++perBank[dwords[i] % banks]);
    cost.cycles += worst;
    // Conflict-free: the phase's dwords spread over all banks.
    unsigned ideal = (activeLanes * dwordsPerLane + banks - 1) / banks;
    cost.idealCycles += std::max(1u, ideal);
  }
  return cost;
}

} // namespace kcc::emu::timing
