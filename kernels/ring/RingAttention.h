//===- RingAttention.h - kcc::ops::ring_attention, sequence-parallel attention -*- C++ -*-===//
//
// Ring attention: the sequence is sharded over `world` ranks; each rank holds
// its own query tokens and 1/world of K and V, and ends with the exact
// attention output for its own tokens,
//   O_r = softmax(scale * Q_r K^T [+ causal mask]) V,
// K and V being every rank's shard concatenated in global token order.
//
// Schedule (bidirectional): at step 0 a rank attends to its own chunk; at
// step s = 1 .. world-1 it receives the chunks of ranks r - s and r + s (those
// that exist), so the chunk of rank i reaches rank j at step |i - j|. Each
// arriving chunk gives partial outputs (fmha_fwd with its log-sum-exp) that
// kernels/ring/ring_merge.mlir folds into the running (O, LSE) in f32.
// Chunks are double-buffered: the fetch of step s + 1's chunks into one
// staging slot is issued before the attention on step s's slot.
//
// Transport per pair of ranks (RingCommunicator::link): inside a node a rank
// reads the owner's published chunk from the symmetric heap (ring_fetch:
// peer_ptr + an acquire on the owner's per-chunk flag); across nodes the
// owners exchange the chunk with MPI point-to-point (or RCCL, where ROCm is
// present), see RingMpi.h.
//
// Sharding of the global sequence (S tokens per rank, world ranks):
//  * Contiguous: rank r holds tokens [r S, (r + 1) S).
//  * ZigZag: the sequence is cut into 2 world chunks; rank r holds chunk r
//    (its first ceil(S/2) tokens) and chunk 2 world - 1 - r (the other
//    floor(S/2)), so that every rank does the same causal work. Chunks
//    0 .. world-1 have ceil(S/2) tokens, the others floor(S/2).
// Causal masking is over global positions (a query sees keys at or before
// its own position); a (query chunk, key chunk) pair entirely above the
// diagonal is skipped, one on it is computed with the kernel's causal mask,
// one below it without.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_KERNELS_RING_RINGATTENTION_H
#define KCC_KERNELS_RING_RINGATTENTION_H

#include "kernels/attention/AttentionOp.h"
#include "kernels/ring/RingComm.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kcc::ops {

enum class RingSharding { Contiguous, ZigZag };
/// "contiguous", "zigzag".
llvm::StringRef ringShardingName(RingSharding sharding);

/// How a step is computed.
///  * AttentionMerge: per (query chunk, key chunk) pair, fmha_fwd with its
///    LSE, then ring_merge folds the partial into an f32 running (O, LSE);
///    a fetch launch per step moves the next chunks (double buffering).
///  * Persistent: one launch per rank for the whole ring
///    (kernels/ring/ring_attn_persistent.mlir): fetcher workgroups stage
///    each step's chunks and release per-step flags, worker workgroups
///    acquire them and fold every key tile into (m, l, O) held in
///    registers, writing O and the LSE once at the end. Needs every pair
///    of ranks linked through the symmetric heap (no MPI pairs).
enum class RingStepKernel { AttentionMerge, Persistent };
/// "attention+merge", "persistent".
llvm::StringRef ringStepKernelName(RingStepKernel kernel);

/// One rank's operands: its shard Q, K, V ([B, S, H, D] / [B, S, H_kv, D]),
/// its output O [B, S, H, D] and optionally its LSE [B, H, S] (f32, natural
/// log, packed), all on the rank's device. Tokens are in the rank's local
/// order (ZigZag: its first chunk, then its second).
struct RingRankOperands {
  AttentionTensorRef q, k, v, o;
  std::optional<VectorRef> lse;
};

struct RingAttentionOptions {
  bool causal = false;
  RingSharding sharding = RingSharding::Contiguous;
  /// Softmax scale; default 1/sqrt(D).
  std::optional<double> scale;
  /// The JIT to compile with; nullptr: Jit::shared().
  Jit *jit = nullptr;
  /// See RingStepKernel; README "Ring attention" has the measurements
  /// behind the default.
  RingStepKernel stepKernel = RingStepKernel::AttentionMerge;
};

/// What one rank did at one step.
struct RingStepRecord {
  unsigned rank = 0, step = 0;
  /// Ranks whose chunk was folded in at this step (the rank itself at 0).
  std::vector<unsigned> sources;
  /// (query chunk, key chunk) pairs computed, and skipped (above the
  /// diagonal).
  unsigned attentionCalls = 0, skippedPairs = 0;
  /// Emulated devices: wave instructions of this step's attention and merge
  /// kernels, and of the fetch that brought this step's chunks. Persistent:
  /// the one launch's instructions split by step (an observer of the
  /// emulator follows each wave through the step flags): the workers'
  /// instructions from acquiring step t's chunks to acquiring step t + 1's
  /// (waiting included) as attentionInstructions, the fetchers' from
  /// releasing step t - 1's to releasing step t's as fetchInstructions;
  /// mergeInstructions stay 0 (the merge happens in registers). Where the
  /// launch cannot be observed (ranks in several processes, or HIP), step
  /// 0's attentionInstructions hold the whole launch.
  uint64_t attentionInstructions = 0, mergeInstructions = 0,
           fetchInstructions = 0;
  /// Bytes of K/V that arrived for this step, and over which link.
  uint64_t bytesIn = 0;
  std::vector<RingLink> links;
};

struct RingAttentionResult {
  unsigned world = 0;
  RingStepKernel stepKernel = RingStepKernel::AttentionMerge;
  /// The step kernel that ran, by name: "persistent"
  /// (ring_attn_persistent.mlir), or "attention+merge (PATH)" with the path
  /// of attention_forward() it ran (attentionPathName: "gfx950-fast",
  /// "gfx942", "generic").
  std::string path;
  /// AttentionMerge: that attention path; none for Persistent, whose one
  /// kernel is none of attention_forward()'s.
  std::optional<AttentionPath> attentionKernelPath;
  /// Persistent: workgroups of each rank's launch (fetchers + workers), and
  /// the staging slots (2, or world - 1 when the query blocks outnumber the
  /// resident workers).
  unsigned fetchers = 0, workers = 0, slots = 0;
  std::vector<RingStepRecord> steps; // local ranks x steps, rank-major
};

/// The token ranges (global offset, length) of rank `rank`'s chunks, in its
/// local order: one for Contiguous, two for ZigZag (the second may be empty).
struct RingChunk {
  int64_t globalStart = 0, localStart = 0, length = 0;
  unsigned index = 0; // position of the chunk in the global sequence
};
std::vector<RingChunk> ringChunks(RingSharding sharding, unsigned world,
                                  unsigned rank, int64_t seqPerRank);

/// The ranks whose chunks reach `rank` at `step` (step 0: itself).
std::vector<unsigned> ringSources(unsigned world, unsigned rank, unsigned step);

/// Checks one rank's operands on their own (shapes, dtypes, strides, buffer
/// sizes, device) without any communication.
llvm::Error checkRingRank(const RingCommunicator &comm, unsigned rank,
                          const RingRankOperands &operands,
                          const RingAttentionOptions &options);

/// Runs ring attention for this process's ranks (comm.localRanks(), one
/// RingRankOperands each, in that order). Collective: every process of the
/// communicator calls it with the same options and shapes; a mismatch or a
/// rank whose operands are invalid is reported, by every rank, before any
/// data moves.
llvm::Expected<RingAttentionResult>
ring_attention(RingCommunicator &comm, llvm::ArrayRef<RingRankOperands> local,
               const RingAttentionOptions &options = {});

} // namespace kcc::ops

#endif // KCC_KERNELS_RING_RINGATTENTION_H
