//===- XgmiModelTest.cpp - The link model's arithmetic by hand ------------===//
//
// kernels/collective/XgmiModel.h on small cases worked out by hand, so that
// ag_gemm_bench's all-gather milliseconds rest on checked arithmetic.
//
//===----------------------------------------------------------------------===//
#include "kernels/collective/XgmiModel.h"

#include <gtest/gtest.h>

using namespace kcc::ops;

TEST(XgmiModel, LinkRateIsLanesTimesLaneRate) {
  // 16 lanes x 32 Gb/s = 512 Gb/s = 64 GB/s per direction.
  EXPECT_DOUBLE_EQ(XgmiLinks().bytesPerSecond(), 64e9);
  XgmiLinks narrow;
  narrow.lanes = 8;
  narrow.gbitPerLane = 25;
  EXPECT_DOUBLE_EQ(narrow.bytesPerSecond(), 25e9); // 8 x 25 / 8
}

TEST(XgmiModel, AllGatherOnEightGpus) {
  XgmiLinks links;
  // 64 MB shards: one link moves one in 64e6 / 64e9 = 1 ms.
  const double shard = 64e6;
  // Full mesh: the 7 peers' shards arrive at once, one per link.
  EXPECT_DOUBLE_EQ(allGatherSeconds(XgmiTopology::FullMesh, 8, shard, links), 1e-3);
  // Ring: 7 steps of one shard over one link.
  EXPECT_NEAR(allGatherSeconds(XgmiTopology::Ring, 8, shard, links), 7e-3, 1e-15);
  // Half the signalling rate doubles the time.
  EXPECT_DOUBLE_EQ(allGatherSeconds(XgmiTopology::FullMesh, 8, shard, links, 0.5), 2e-3);
  // One rank has nothing to gather.
  EXPECT_DOUBLE_EQ(allGatherSeconds(XgmiTopology::FullMesh, 1, shard, links), 0);
  // Into one GPU: 7 x 64 GB/s over the mesh, one link's 64 GB/s on the ring.
  EXPECT_DOUBLE_EQ(allGatherInboundBytesPerSecond(XgmiTopology::FullMesh, links), 448e9);
  EXPECT_DOUBLE_EQ(allGatherInboundBytesPerSecond(XgmiTopology::Ring, links), 64e9);
}
