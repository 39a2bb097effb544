//===- TileDialect.td - The tile dialect -------------------*- tablegen -*-===//
//
// The tile dialect describes GPU kernels as operations on small 2-D tiles
// distributed over the 64 lanes of a wave, with the data movement (global,
// LDS, registers) and the scheduling of the instruction stream under the
// author's control.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TILE_DIALECT
#define KCC_TILE_DIALECT

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::kcc::tile";
  let summary = "Tile-level kernels for AMD CDNA GPUs with scheduling control";
  let description = [{
    A tile is a 2-D array held by one wave: each of the 64 lanes holds some of
    its elements, as its layout attribute says (the operand layouts of the
    MFMA instructions, slices of them for reductions, or a blocked layout for
    memory access). Kernels move tiles between global memory (buffer
    resources), LDS buffers and registers explicitly, and may steer the
    instruction schedule (group barriers, priorities, staggered wave groups).

    Compile-time parameters (`tile.param_decl`, `tile.type_param_decl`) may
    appear as values (`tile.param`), as tile dimensions and as element types
    (`!tile.dtype<"NAME">`); the `tile-specialize` pass binds them together
    with the target chip.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let extraClassDeclaration = [{
    /// Module attribute: the #tile.target the kernel is specialised for.
    static constexpr ::llvm::StringLiteral kTargetAttrName = "tile.target";
    /// Function attribute marking a kernel entry point.
    static constexpr ::llvm::StringLiteral kKernelAttrName = "tile.kernel";
    /// Function attribute: work-items per workgroup (required on kernels).
    static constexpr ::llvm::StringLiteral kBlockSizeAttrName = "tile.block_size";
    /// Kernel attribute: the waves per SIMD the register allocator plans for
    /// (1..8). 1 gives each wave all 512 registers of a lane, the AGPRs
    /// included, and makes the backend keep MFMA accumulators in AGPRs: what
    /// a kernel whose LDS already limits it to one workgroup per CU wants.
    static constexpr ::llvm::StringLiteral kWavesPerSimdAttrName = "tile.waves_per_simd";
  private:
    void registerTypes();
    void registerAttributes();
  public:
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // KCC_TILE_DIALECT
