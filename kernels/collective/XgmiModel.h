//===- XgmiModel.h - Inter-GPU link model of an 8-GPU MI300X/MI325X node -*- C++ -*-===//
//
// The arithmetic ag_gemm_bench uses to put milliseconds on the all-gather
// part of the fused all-gather + GEMM and of the gather-then-GEMM baseline
// (the emulator runs no links; this is the model of them).
//
// The node: 8 GPUs, each with 7 xGMI (Infinity Fabric) links of 16 lanes at
// 32 Gb/s, i.e. 64 GB/s per direction and 128 GB/s bidirectional per link,
// one link to each of the 7 peers (a full mesh). Sources:
//  * "Each MI300X GPU has up to seven Infinity Fabric links, each with 16
//    lanes ... up to 32Gbps per lane, yielding 128GB/s of bidirectional
//    bandwidth per link" ("AMD Looks to Infinity for AI Interconnects",
//    https://www.wheelersnetwork.com/2024/01/).
//  * MI325X: "Seven Infinity Fabric links ensuring full connectivity between
//    eight GPUs", "drop-in replacement for the Instinct MI300X Platform"
//    (https://wiaix.com/amd-instincttm-mi325x-accelerators); the platform's
//    accelerators are "fully meshed" (https://unanswered.io/guide/amd-instinct-mi325x).
//    The MI325X keeps the MI300X's CDNA 3 silicon (304 CUs), so the same
//    model serves both.
//
// Only the links' signalling rate is modelled: no protocol overhead, no
// per-transfer latency (microseconds, against the ~0.5 ms a 32 MiB shard
// takes), no contention with HBM. Times from it are therefore lower bounds;
// allGatherSeconds() scales by an explicit efficiency for what a real
// transport reaches.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_KERNELS_COLLECTIVE_XGMIMODEL_H
#define KCC_KERNELS_COLLECTIVE_XGMIMODEL_H

#include <cstdint>

namespace kcc::ops {

struct XgmiLinks {
  unsigned gpus = 8;          // GPUs in the node
  unsigned linksPerGpu = 7;   // one to each peer
  double lanes = 16;          // per link
  double gbitPerLane = 32;    // Gb/s per lane, per direction
  /// Bytes per second one link carries in one direction: 16 x 32 Gb/s / 8
  /// = 64 GB/s.
  double bytesPerSecond() const { return lanes * gbitPerLane * 1e9 / 8; }
};

enum class XgmiTopology {
  /// Every pair of GPUs has its own link (the MI300X/MI325X platform): a
  /// rank pulls each peer's shard over that peer's link, all at once.
  FullMesh,
  /// A unidirectional ring over one link per GPU (what a ring all-gather
  /// uses): the shards pass rank to rank in world - 1 steps.
  Ring,
};

/// Seconds until every one of `world` ranks holds the other ranks' shards of
/// `shardBytes` each, links at `efficiency` of their signalling rate.
/// Full mesh: the world - 1 shards arrive in parallel, one per link, so the
/// time is one shard over one link (it needs world - 1 <= links per GPU).
/// Ring: world - 1 steps of one shard over one link each.
inline double allGatherSeconds(XgmiTopology topology, unsigned world,
                               double shardBytes, const XgmiLinks &links,
                               double efficiency = 1.0) {
  if (world < 2)
    return 0;
  double oneShard = shardBytes / (links.bytesPerSecond() * efficiency);
  if (topology == XgmiTopology::FullMesh)
    return oneShard;
  return double(world - 1) * oneShard;
}

/// Bytes per second arriving at one GPU in the gather (to check a figure
/// against: nothing may exceed links x per-link bandwidth).
inline double allGatherInboundBytesPerSecond(XgmiTopology topology,
                                             const XgmiLinks &links) {
  return topology == XgmiTopology::FullMesh
             ? links.linksPerGpu * links.bytesPerSecond()
             : links.bytesPerSecond();
}

} // namespace kcc::ops

#endif // KCC_KERNELS_COLLECTIVE_XGMIMODEL_H
