//===- DeviceModel.cpp - From one CU's replay to the whole chip -----------===//
#include "runtime/emu/timing/DeviceModel.h"

#include <algorithm>

namespace kcc::emu::timing {

TimingParams withLoadLatency(TimingParams p, unsigned cycles) {
  int shift = int(cycles) - int(p.vmemLatency);
  p.vmemLatency = cycles;
  p.vmemStoreLatency = unsigned(std::max(1, int(p.vmemStoreLatency) + shift));
  return p;
}

TimingParams measuredBy(TimingParams p, Measurement m) {
  if (m == Measurement::EventsWarmCaches) {
    p = withLoadLatency(p, p.vmemLatencyWarm);
    p.launchOverheadSeconds = p.backToBackLaunchSeconds;
  }
  return p;
}

DeviceTime deviceTime(const TimingParams &p, const CuRound &round, const LaunchExtent &launch) {
  DeviceTime t;
  unsigned cus = launch.computeUnits ? launch.computeUnits : p.computeUnits;
  uint64_t perCu = std::max<uint64_t>(1, round.workgroups);
  uint64_t perRound = uint64_t(cus) * perCu;
  uint64_t workgroups = std::max<uint64_t>(1, launch.workgroups);
  t.rounds = (workgroups + perRound - 1) / perRound;
  // The last round holds what is left; spread over the CUs, each holds
  // ceil(left / CUs) of its `perCu` slots and runs at that share.
  uint64_t left = workgroups - (t.rounds - 1) * perRound;
  uint64_t lastPerCu = std::min(perCu, (left + cus - 1) / cus);
  double roundCycles = round.cycles, mfmaBusy = round.mfmaBusy;
  if (round.cyclesPerLatencyCycle > 0 && round.replayedLatency > 0) {
    roundCycles = std::max(
        1.0, round.cycles + round.cyclesPerLatencyCycle *
                                (double(p.vmemLatency) - round.replayedLatency));
    mfmaBusy = std::min(1.0, round.mfmaBusy * round.cycles / roundCycles);
  }
  // Each round starts with its workgroups' launch, which the replay (its
  // waves set up at cycle 0) does not see.
  roundCycles += p.workgroupLaunchCycles;
  t.cycles = roundCycles * (double(t.rounds - 1) + double(lastPerCu) / double(perCu));
  // Each workgroup holds a slot for a round; the chip offers CUs x perCu
  // slots for the launch's whole time.
  if (t.cycles > 0)
    t.occupiedFraction = std::min(
        1.0, double(workgroups) * roundCycles / (double(perRound) * t.cycles));
  t.chipMfmaBusy = mfmaBusy * t.occupiedFraction;
  t.clockGHz = p.sustainedClockGHz(t.chipMfmaBusy);
  t.computeSeconds = t.cycles / (t.clockGHz * 1e9);
  if (launch.dramBytes > 0 && p.hbmBytesPerSecond > 0)
    t.memorySeconds = launch.dramBytes / (p.hbmBytesPerSecond * p.hbmSustainedFraction);
  t.memoryBound = t.memorySeconds > t.computeSeconds;
  t.launchSeconds = p.launchOverheadSeconds;
  t.seconds = std::max(t.computeSeconds, t.memorySeconds) + t.launchSeconds;
  return t;
}

} // namespace kcc::emu::timing
