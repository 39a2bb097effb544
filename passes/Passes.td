//===- Passes.td - kcc's tile passes and lowering ----------*- tablegen -*-===//
#ifndef KCC_PASSES
#define KCC_PASSES

include "mlir/Pass/PassBase.td"

def TileSpecialize : Pass<"tile-specialize", "::mlir::ModuleOp"> {
  let summary = "Binds compile-time parameters and the target chip";
  let description = [{
    Replaces every `tile.param` by a constant, every parameter-named tile
    dimension and `!tile.dtype<"NAME">` by its value, resolves MFMA layouts
    left to the target (`#tile.mfma<a>` becomes `#tile.mfma<a, 32x32x16>` on
    gfx950), records the chip as the module's `tile.target` attribute and the
    bound values as `tile.params`, and erases the declarations. A value for
    an undeclared parameter, or a parameter with neither a value nor a
    default, is an error.

    Before (with `chip=gfx950 params=BM=64`):
    ```mlir
    tile.param_decl @BM : i64 = 128
    ... %bm = tile.param @BM : index
    ... !tile.tile<[BM, 32], f32, #tile.mfma<acc>>
    ```
    After:
    ```mlir
    module attributes {tile.params = {BM = 64 : i64}, tile.target = #tile.target<"gfx950">}
    ... %bm = arith.constant 64 : index
    ... !tile.tile<[64, 32], f32, #tile.mfma<acc, 32x32x16>>
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target chip: gfx942 or gfx950">,
    ListOption<"params", "params", "std::string",
               "Parameter values, each NAME=VALUE">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TileAllocateLds : Pass<"tile-allocate-lds", "::mlir::ModuleOp"> {
  let summary = "Places the LDS buffers of each kernel and gives each an alias scope";
  let description = [{
    Assigns every `tile.lds_alloc` of a kernel a byte `offset` (16-byte
    aligned, in program order) and a `scope` index, records the kernel's
    total as `tile.lds_bytes`, and rejects a kernel whose buffers exceed the
    chip's LDS per workgroup (64 KiB on gfx942, 160 KiB on gfx950).

    ```mlir
    %a = tile.lds_alloc "a" : !tile.lds<[128, 64], bf16, stages = 2>
    %b = tile.lds_alloc "b" : !tile.lds<[64, 128], bf16, stages = 2>
    // becomes
    %a = tile.lds_alloc "a" {offset = 0 : i64, scope = 0 : i64} : ...
    %b = tile.lds_alloc "b" {offset = 32768 : i64, scope = 1 : i64} : ...
    ```
  }];
}

def TileExpandSchedule : Pass<"tile-expand-schedule", "::mlir::ModuleOp"> {
  let summary = "Expands the scheduling constructs into group barriers and barriers";
  let description = [{
    `tile.sched_interleave [P] x N` becomes N copies of the group barriers of
    pattern P. `tile.stagger %lagging { body }` becomes an extra barrier for
    the lagging waves before the body and one for the leading waves after
    it:

    ```mlir
    scf.if %lagging { tile.barrier unfenced }
    body
    %leading = arith.xori %lagging, %true
    scf.if %leading { tile.barrier unfenced }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def ConvertTileToROCDL : Pass<"convert-tile-to-rocdl", "::mlir::ModuleOp"> {
  let summary = "Lowers tile kernels to the LLVM and ROCDL dialects";
  let description = [{
    Every tile becomes a per-lane LLVM vector of the elements that lane
    holds; memory ops become buffer, LDS-DMA and LDS accesses with per-lane
    offsets computed from the layout; `tile.mma` becomes one MFMA intrinsic
    per instruction-shaped block; reductions go across lanes with
    `ds_swizzle`, and `v_permlane32_swap` on gfx950. LDS accesses carry one
    alias scope per buffer. Kernels become `llvm.func`s with `rocdl.kernel`
    and their workgroup size. Index arithmetic is 32-bit.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::ROCDL::ROCDLDialect"];
}

#endif // KCC_PASSES
