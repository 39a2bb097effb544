//===- TileToROCDLPatterns.h - Tile-to-ROCDL patterns by family -*- C++ -*-===//
//
// The lowering of the tile dialect to LLVM + ROCDL, one pattern set per op
// family, each in its own TileToROCDL<Family>.cpp. ConvertTileToROCDLPass
// (TileToROCDL.cpp) and populateTileToROCDLPatterns (Passes.h) add them all;
// a pass that lowers only some families can add just those.
//
// Every function adds the patterns of its family for `chip` to `patterns`;
// `facts` (LDS alias scopes and arrays, workgroup sizes) must outlive them.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_PASSES_TILETOROCDLPATTERNS_H
#define KCC_PASSES_TILETOROCDLPATTERNS_H

#include "target/Target.h"

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace kcc {

class KernelFacts;

/// Ids (program_id, num_programs, wave_id, lane_id), the clock (memtime),
/// barriers and the scheduling hints (sched_barrier, sched_group_barrier,
/// setprio).
void populateTileControlToROCDLPatterns(mlir::LLVMTypeConverter &converter,
                                        mlir::RewritePatternSet &patterns,
                                        Chip chip, const KernelFacts &facts);

/// Global memory through buffer resources: make_buffer, ptr_add, load,
/// store.
void populateTileGlobalMemoryToROCDLPatterns(mlir::LLVMTypeConverter &converter,
                                             mlir::RewritePatternSet &patterns,
                                             Chip chip, const KernelFacts &facts);

/// LDS buffers at their placed offsets in the kernel's LDS array:
/// lds_alloc.
void populateTileLdsAllocToROCDLPatterns(mlir::LLVMTypeConverter &converter,
                                         mlir::RewritePatternSet &patterns,
                                         Chip chip, const KernelFacts &facts);

/// Global memory into LDS by LDS DMA: async_copy.
void populateTileAsyncCopyToROCDLPatterns(mlir::LLVMTypeConverter &converter,
                                          mlir::RewritePatternSet &patterns,
                                          Chip chip, const KernelFacts &facts);

/// Tiles between registers and LDS, gfx950's transposing reads included:
/// lds_load, lds_store.
void populateTileLdsAccessToROCDLPatterns(mlir::LLVMTypeConverter &converter,
                                          mlir::RewritePatternSet &patterns,
                                          Chip chip, const KernelFacts &facts);

/// The waits on the memory counters: wait, wait_vmcnt.
void populateTileWaitsToROCDLPatterns(mlir::LLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns,
                                      Chip chip, const KernelFacts &facts);

/// Matrix multiply-accumulate (mma) on the MFMA units.
void populateTileMmaToROCDLPatterns(mlir::LLVMTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns,
                                    Chip chip, const KernelFacts &facts);

/// Per-element arithmetic, math functions, conversions, comparisons and
/// tile constructors (splat, iota).
void populateTileElementwiseToROCDLPatterns(mlir::LLVMTypeConverter &converter,
                                            mlir::RewritePatternSet &patterns,
                                            Chip chip, const KernelFacts &facts);

/// Reductions and what crosses or reinterprets lanes: reduce_max,
/// reduce_sum, any, broadcast, relayout.
void populateTileCrossLaneToROCDLPatterns(mlir::LLVMTypeConverter &converter,
                                          mlir::RewritePatternSet &patterns,
                                          Chip chip, const KernelFacts &facts);

/// Multi-GPU: peer pointers, flags (flag_store, flag_wait) and scoped
/// fences.
void populateTilePeerToROCDLPatterns(mlir::LLVMTypeConverter &converter,
                                     mlir::RewritePatternSet &patterns,
                                     Chip chip, const KernelFacts &facts);

} // namespace kcc

#endif // KCC_PASSES_TILETOROCDLPATTERNS_H
