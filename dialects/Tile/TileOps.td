//===- TileOps.td - Operations of the tile dialect ---------*- tablegen -*-===//
#ifndef KCC_TILE_OPS
#define KCC_TILE_OPS

include "dialects/Tile/TileTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Dialect/Arith/IR/ArithBase.td"

def Tile_AnyTile : Type<CPred<"::llvm::isa<::kcc::tile::TileType>($_self)">,
                        "tile", "::kcc::tile::TileType">;
def Tile_Buffer : Type<CPred<"::llvm::isa<::kcc::tile::BufferType>($_self)">,
                       "buffer resource", "::kcc::tile::BufferType">;
def Tile_Ptr : Type<CPred<"::llvm::isa<::kcc::tile::PtrType>($_self)">,
                    "global pointer", "::kcc::tile::PtrType">;
def Tile_Lds : Type<CPred<"::llvm::isa<::kcc::tile::LdsType>($_self)">,
                    "LDS buffer", "::kcc::tile::LdsType">;

//===----------------------------------------------------------------------===//
// Compile-time parameters
//===----------------------------------------------------------------------===//

def Tile_ParamDeclOp : Tile_Op<"param_decl", [Symbol, HasParent<"::mlir::ModuleOp">]> {
  let summary = "declares an integer or boolean compile-time parameter";
  let description = [{
    ```mlir
    tile.param_decl @BLOCK_M : i64 = 128
    tile.param_decl @CAUSAL : i1
    ```
    A parameter without a default must be given (`-D CAUSAL=1`) when the
    kernel is specialised. Parameters of type i64 may also name tile
    dimensions.

    ```mlir
    tile.param_decl @BM : i64 product [@WM, @WGM]
    tile.param_decl @BLOCK : i64 product [@WGM, @WGN, 64]
    ```
    A derived parameter is the product of other (not derived) i64
    parameters and integer constants: a tile dimension or a workgroup size
    that follows from the others, so that the two can never disagree. It
    cannot be given a value.

    ```mlir
    tile.param_decl @V_TR : i1 = true on {gfx942 = false}
    ```
    `on {CHIP = VALUE, ...}` gives the default on a chip where another
    value is the right one (gfx942 has no transposing LDS read): a kernel
    file then compiles for every chip without -D, each with its own
    defaults. A value given with -D still wins.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, TypeAttr:$type,
                       OptionalAttr<TypedAttrInterface>:$default_value,
                       OptionalAttr<DictionaryAttr>:$chip_defaults,
                       OptionalAttr<ArrayAttr>:$product);
  let assemblyFormat = "$sym_name `:` $type (`=` $default_value^)? (`on` $chip_defaults^)? (`product` $product^)? attr-dict";
  let hasVerifier = 1;
}

def Tile_TypeParamDeclOp : Tile_Op<"type_param_decl", [Symbol, HasParent<"::mlir::ModuleOp">]> {
  let summary = "declares an element-type compile-time parameter";
  let description = [{
    ```mlir
    tile.type_param_decl @DTYPE = bf16 of [bf16, f16]
    ```
    Uses are written `!tile.dtype<"DTYPE">`. The optional `of [...]` lists
    the types the kernel supports (bf16, f16, f32 and the FP8 formats
    f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ; without a list bf16, f16 and
    f32): a value outside it is refused on the declaration, naming the
    list, before an op deep in the kernel (an MFMA) trips over it.

    ```mlir
    tile.type_param_decl @DTYPE = f8E4M3FN of [f8E4M3FN, f8E4M3FNUZ] on {gfx942 = f8E4M3FNUZ}
    ```
    `on {CHIP = TYPE, ...}` gives a chip's own default, as for
    `tile.param_decl`.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, OptionalAttr<TypeAttr>:$default_type,
                       OptionalAttr<TypeArrayAttr>:$allowed_types,
                       OptionalAttr<DictionaryAttr>:$chip_defaults);
  let assemblyFormat = "$sym_name (`=` $default_type^)? (`of` $allowed_types^)? (`on` $chip_defaults^)? attr-dict";
  let extraClassDeclaration = [{
    /// The types a value may take: the `of` list, else bf16, f16 and f32.
    ::llvm::SmallVector<::mlir::Type> getAllowedTypeList();
    /// "bf16 or f16", "bf16, f16 or f32": for diagnostics.
    std::string allowedTypesText();
  }];
  let hasVerifier = 1;
}

def Tile_ParamOp : Tile_Op<"param", [Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the value of an integer or boolean compile-time parameter";
  let description = [{
    ```mlir
    %bm = tile.param @BLOCK_M : index
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$name);
  let results = (outs SignlessIntegerOrIndexLike:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Ids
//===----------------------------------------------------------------------===//

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure]> {
  let summary = "the workgroup id along one grid dimension";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict";
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure]> {
  let summary = "the number of workgroups along one grid dimension";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict";
}

def Tile_WaveIdOp : Tile_Op<"wave_id", [Pure]> {
  let summary = "the index of this wave in its workgroup (wave-uniform)";
  let description = [{
    Lowered through `v_readfirstlane`, so the value lives in an SGPR and
    branches on it are uniform.
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def Tile_LaneIdOp : Tile_Op<"lane_id", [Pure]> {
  let summary = "the index of this lane in its wave (0..63)";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

def Tile_MakeBufferOp : Tile_Op<"make_buffer", [Pure]> {
  let summary = "a buffer resource over `num_elements` elements at `ptr`";
  let arguments = (ins Tile_Ptr:$ptr, Index:$num_elements);
  let results = (outs Tile_Buffer:$result);
  let assemblyFormat = "$ptr `,` $num_elements attr-dict `:` type($ptr) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_PtrAddOp : Tile_Op<"ptr_add", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "a pointer `offset` elements past `ptr`";
  let description = [{
    Selects one slice of a larger tensor (a batch and head of attention's
    [B, S, H, D] inputs, say) before a buffer is made over it. The offset
    is unsigned: the result never lies before `ptr`.
  }];
  let arguments = (ins Tile_Ptr:$ptr, Index:$offset);
  let results = (outs Tile_Ptr:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr)";
}

def Tile_LoadOp : Tile_Op<"load", [AttrSizedOperandSegments]> {
  let summary = "loads a tile from a row-major matrix in a buffer";
  let description = [{
    Element (r, c) of the result is element `(row + r) * stride + col + c` of
    the buffer. With `bounds %rows, %cols`, elements whose row + r >= rows or
    col + c >= cols read as zero (a partial tile at a matrix edge). With
    `transpose` the buffer holds the transposed matrix: element (r, c) is
    `(row + c) * stride + col + r`, and the bounds apply to that matrix.

    ```mlir
    %a = tile.load %buf[%m0, %k0] stride %lda : !tile.buffer<bf16> -> !tile.tile<[32, 8], bf16, #tile.mfma<a>>
    ```
  }];
  let arguments = (ins Tile_Buffer:$buffer, Index:$row, Index:$col, Index:$stride,
                       Optional<Index>:$bound_rows, Optional<Index>:$bound_cols,
                       UnitAttr:$transpose);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $buffer `[` $row `,` $col `]` `stride` $stride
    (`bounds` $bound_rows^ `,` $bound_cols)? (`transpose` $transpose^)? attr-dict
    `:` type($buffer) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [AttrSizedOperandSegments]> {
  let summary = "stores a tile into a row-major matrix in a buffer";
  let description = [{
    The inverse of `tile.load`; with `bounds`, elements outside are not
    written; with `transpose`, the tile is written into the transposed
    matrix (element (r, c) to `(row + c) * stride + col + r`).
  }];
  let arguments = (ins Tile_AnyTile:$value, Tile_Buffer:$buffer, Index:$row,
                       Index:$col, Index:$stride,
                       Optional<Index>:$bound_rows, Optional<Index>:$bound_cols,
                       UnitAttr:$transpose);
  let assemblyFormat = [{
    $value `,` $buffer `[` $row `,` $col `]` `stride` $stride
    (`bounds` $bound_rows^ `,` $bound_cols)? (`transpose` $transpose^)? attr-dict
    `:` type($value) `,` type($buffer)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// LDS
//===----------------------------------------------------------------------===//

def Tile_LdsAllocOp : Tile_Op<"lds_alloc"> {
  let summary = "a named LDS buffer of the workgroup";
  let description = [{
    Every buffer gets its own alias scope, so accesses to different buffers
    may be reordered by the LLVM scheduler. `tile-allocate-lds` assigns the
    byte `offset` and the `scope` index and checks the total against the
    chip's LDS.

    ```mlir
    %a = tile.lds_alloc "a" : !tile.lds<[128, 64], bf16, pad = 0, stages = 2>
    ```
  }];
  let arguments = (ins StrAttr:$name, OptionalAttr<I64Attr>:$offset,
                       OptionalAttr<I64Attr>:$scope);
  let results = (outs Tile_Lds:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_AsyncCopyOp : Tile_Op<"async_copy", [AttrSizedOperandSegments]> {
  let summary = "copies a matrix block from a buffer to one LDS stage, asynchronously";
  let description = [{
    Fills stage `stage` of the LDS buffer with the block whose top-left
    element is (row, col) of the row-major matrix (row stride `stride`) in
    the buffer, by `buffer_load_dword ... lds` DMA: the data bypasses the
    registers, and is ready after `tile.wait vmcnt(...)` and a barrier. Each
    lane moves `width` bytes per instruction (4; 16 on gfx950), so a padded
    LDS row must hold a whole number of 64 * width-byte lines. The waves of
    the workgroup share the lines; with `waves %n` only waves 0..n-1 do
    (the others must not execute the op), which lets one wave group of a
    stagger own all the DMA; `%n` must fold to a constant after
    specialisation.

    Reads outside the buffer give zero, per lane, unless the copy says
    `inbounds`: the author's promise that the whole block lies inside the
    buffer (and inside `bounds`, which it then must not give), its rows not
    overlapping (`stride` at least the block's columns). An inbounds copy
    puts each line's rows in the instruction's scalar offset, which the
    hardware does not range-check, and the block's column in the lane's
    offset, computed once a copy: in a loop that walks along the rows (a
    GEMM's K loop) the scalar offsets are loop-invariant. Lines up to 4 KiB
    apart in LDS share one M0 value through the instruction's offset field.
  }];
  let arguments = (ins Tile_Buffer:$buffer, Index:$row, Index:$col, Index:$stride,
                       Optional<Index>:$bound_rows, Optional<Index>:$bound_cols,
                       Tile_Lds:$lds, Index:$stage, Optional<Index>:$waves,
                       DefaultValuedAttr<I64Attr, "4">:$width, UnitAttr:$inbounds);
  let assemblyFormat = [{
    (`inbounds` $inbounds^)? $buffer `[` $row `,` $col `]` `stride` $stride
    (`bounds` $bound_rows^ `,` $bound_cols)? `->` $lds `[` $stage `]`
    (`waves` $waves^)? attr-dict `:` type($buffer) `,` type($lds)
  }];
  let hasVerifier = 1;
}

def Tile_WaitOp : Tile_Op<"wait"> {
  let summary = "waits until at most N memory operations of a kind are outstanding";
  let description = [{
    `vmcnt` counts vector-memory operations (global/buffer loads, LDS DMA);
    `lgkmcnt` counts LDS and scalar-memory operations. Omitted counters are
    not waited on.

    ```mlir
    tile.wait vmcnt(0) lgkmcnt(0)
    ```
  }];
  let arguments = (ins OptionalAttr<ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<63>]>>:$vmcnt,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<15>]>>:$lgkmcnt);
  let assemblyFormat = "(`vmcnt` `(` $vmcnt^ `)`)? (`lgkmcnt` `(` $lgkmcnt^ `)`)? attr-dict";
  let hasVerifier = 1;
}

def Tile_WaitVmcntOp : Tile_Op<"wait_vmcnt"> {
  let summary = "waits until at most %count vector-memory operations are outstanding";
  let description = [{
    Like `tile.wait vmcnt(N)` with N computed from parameters (the number of
    DMA instructions a copy issues depends on the tile sizes): `count` must
    fold to a constant after specialisation.
  }];
  let arguments = (ins Index:$count);
  let assemblyFormat = "$count attr-dict";
}

def Tile_LdsLoadOp : Tile_Op<"lds_load"> {
  let summary = "reads a tile from an LDS stage into registers";
  let description = [{
    Element (r, c) of the result is element (row + r, col + c) of the stage;
    with `transpose` the stage holds the transposed matrix and element (r, c)
    comes from (row + c, col + r).

    Each lane's registers are read with the widest `ds_read` that the layout
    allows: consecutive registers at consecutive LDS addresses become one
    ds_read_b64 / ds_read_b128. When a lane's registers instead run down an
    LDS column (an MFMA `b` operand of a matrix stored K x N, for example),
    gfx950 gathers them with the transposing read `ds_read_b64_tr_b16`
    (`ds_read_b64_tr_b8` for FP8); gfx942 has no such read and the verifier
    rejects the load (store the operand transposed and read it with
    `transpose`).
  }];
  let arguments = (ins Tile_Lds:$lds, Index:$stage, Index:$row, Index:$col,
                       UnitAttr:$transpose);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = [{
    $lds `[` $stage `]` `[` $row `,` $col `]` (`transpose` $transpose^)? attr-dict
    `:` type($lds) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_LdsStoreOp : Tile_Op<"lds_store"> {
  let summary = "writes a tile from registers into an LDS stage";
  let description = [{
    Element (r, c) goes to (row + r, col + c) of the stage; with `transpose`
    to (row + c, col + r), which is how a matrix that no transposing read can
    reach (V on gfx942) is stored transposed on its way through registers.
    Consecutive registers at consecutive addresses become one wide
    ds_write.
  }];
  let arguments = (ins Tile_AnyTile:$value, Tile_Lds:$lds, Index:$stage,
                       Index:$row, Index:$col, UnitAttr:$transpose);
  let assemblyFormat = [{
    $value `,` $lds `[` $stage `]` `[` $row `,` $col `]` (`transpose` $transpose^)? attr-dict
    `:` type($value) `,` type($lds)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

def Tile_MmaOp : Tile_Op<"mma", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "result = a * b + acc on the matrix cores";
  let description = [{
    `a` (M x K) and `b` (K x N) hold bf16 or f16 in the MFMA `a` and `b`
    layouts, `acc` and the result (M x N) f32 in the `acc` layout, all of the
    same instruction shape (an accumulator's K is free: its layout has
    none), which the chip must have. Larger tiles issue one MFMA per
    instance, K innermost.

    FP8 inputs: e4m3 and e5m2 of the chip's family, mixed freely between `a`
    and `b` (f8E4M3FNUZ / f8E5M2FNUZ on gfx942, f8E4M3FN / f8E5M2 on gfx950),
    with K twice the 16-bit K: 32x32x16 and 16x16x32
    (`v_mfma_f32_32x32x16_fp8_fp8` and its bf8 mixes, both chips), and on
    gfx950 32x32x64 and 16x16x128 (`v_mfma_f32_32x32x64_f8f6f4`, the
    formats in its cbsz/blgp selectors).
  }];
  let arguments = (ins Tile_AnyTile:$a, Tile_AnyTile:$b, Tile_AnyTile:$acc);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `->` type($result)";
  let hasVerifier = 1;
}

class Tile_BinaryOp<string mnemonic, string what>
    : Tile_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = "elementwise " # what;
  let arguments = (ins Tile_AnyTile:$lhs, Tile_AnyTile:$rhs);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_AddFOp : Tile_BinaryOp<"addf", "floating-point addition">;
def Tile_SubFOp : Tile_BinaryOp<"subf", "floating-point subtraction">;
def Tile_MulFOp : Tile_BinaryOp<"mulf", "floating-point multiplication">;
def Tile_MaxFOp : Tile_BinaryOp<"maxf", "floating-point maximum (NaN-propagating as v_max_f32 is not; use on finite data)">;
def Tile_MinFOp : Tile_BinaryOp<"minf", "floating-point minimum">;
def Tile_DivFOp : Tile_BinaryOp<"divf", "floating-point division (correctly rounded)">;
def Tile_AddIOp : Tile_BinaryOp<"addi", "integer addition">;
def Tile_SubIOp : Tile_BinaryOp<"subi", "integer subtraction">;

def Tile_FmaOp : Tile_Op<"fma", [Pure, SameOperandsAndResultType]> {
  let summary = "elementwise a * b + c with one rounding (v_fma_f32)";
  let description = [{
    Lets a kernel fold a scale into a subtraction at no cost: softmax's
    exp2(scale * s - scale * m) is one fma per element.
  }];
  let arguments = (ins Tile_AnyTile:$a, Tile_AnyTile:$b, Tile_AnyTile:$c);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$a `,` $b `,` $c attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_Exp2Op : Tile_Op<"exp2", [Pure, SameOperandsAndResultType]> {
  let summary = "elementwise 2^x on f32 tiles, one v_exp_f32 per element";
  let description = [{
    Denormal results flush to zero, as `v_exp_f32` does; softmax in base 2
    (inputs pre-scaled by log2(e)) needs nothing more.
  }];
  let arguments = (ins Tile_AnyTile:$operand);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_Log2Op : Tile_Op<"log2", [Pure, SameOperandsAndResultType]> {
  let summary = "elementwise log2(x) on f32 tiles, one v_log_f32 per element";
  let description = [{
    Denormal inputs flush to zero (log2 gives -inf), as `v_log_f32` does;
    used for log-sum-exp outputs.
  }];
  let arguments = (ins Tile_AnyTile:$operand);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_AnyOp : Tile_Op<"any", [Pure]> {
  let summary = "true in every lane when any element of an i1 tile is true in any lane";
  let description = [{
    A wave-uniform flag (`s_cmp` on a ballot), so branching on it is a scalar
    branch: for example lazy rescaling in attention skips the rescale when
    no row maximum grew enough in any lane.
  }];
  let arguments = (ins Tile_AnyTile:$operand);
  let results = (outs I1:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand)";
  let hasVerifier = 1;
}

def Tile_ConvertOp : Tile_Op<"convert", [Pure]> {
  let summary = "converts the element type of a tile (same shape and layout)";
  let description = [{
    f32 to bf16/f16 rounds to nearest even (gfx950 packs pairs with
    `v_cvt_pk_bf16_f32`); 16-bit floats to f32 are exact; i32 to f32 rounds.

    f32 to FP8 (the chip's formats: FNUZ on gfx942, OCP on gfx950) rounds to
    nearest even and saturates: a number or infinity beyond the largest
    finite value becomes that value with its sign (448 for f8E4M3FN, 240
    for f8E4M3FNUZ, 57344 for the e5m2 formats), a NaN stays a NaN. Pairs
    of elements are packed by `v_cvt_pk_fp8_f32` / `v_cvt_pk_bf8_f32`,
    after a clamp (`v_med3_f32`) and a NaN select per element. With
    `fast_rounding` those two are left out (one conversion per pair and
    nothing else): values within the format's range, and NaNs, convert
    exactly as without it; beyond the range the instruction's own result
    stands (with MODE.FP16_OVFL clear, as kcc's kernels run: NaN for e4m3
    and FNUZ e5m2, infinity for OCP e5m2). For values known to be in
    range, e.g. attention's probabilities in [0, 1].
    FP8 to f32 is exact (`v_cvt_pk_f32_fp8` / `_bf8` per pair).

    `fast_rounding` (f32 to bf16; allowed, without effect, for f32 to f16 so
    that kernels generic in the dtype may carry it): gfx942 has no bf16
    conversion, and the integer rounding it uses instead needs a NaN check
    so that a NaN stays a NaN (the rounding carry may otherwise run into the
    exponent or the sign). With `fast_rounding` that check is left out (5 instead of
    11 VALU per pair of elements): every number, and the canonical quiet NaN
    0x7fc00000 that v_exp_f32 returns, converts exactly as without it; other
    NaNs may become an infinity or a zero. For values that cannot carry such
    a NaN, e.g. results of exp2. gfx950 converts in hardware either way.

    `ties_any` (with `fast_rounding`, f32 to bf16/f16) lets an exact tie
    (the dropped bits exactly half a unit in the last place) round either
    way: on gfx942 bf16 rounds to nearest with ties away from zero (one add
    per element where ties to even needs two: 3 VALU per pair instead of 5),
    as AMD's rtna attention kernels round P; gfx950's conversion instruction
    and f16 keep ties to even. Every other value converts as without it.
  }];
  let arguments = (ins Tile_AnyTile:$operand, UnitAttr:$fast_rounding, UnitAttr:$ties_any);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$operand (`fast_rounding` $fast_rounding^)? (`ties_any` $ties_any^)? attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure]> {
  let summary = "a tile whose every element is one scalar";
  let description = [{
    The scalar is the same in every lane, as every scalar of the dialect is
    (kernel arguments, constants, ids and arithmetic on them; per-lane data
    lives in tiles), which the lowering relies on (a splatted fma factor is
    read through v_readfirstlane).
  }];
  let arguments = (ins AnyTypeOf<[AnyFloat, AnySignlessIntegerOrIndex]>:$value);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_UndefOp : Tile_Op<"undef", [Pure]> {
  let summary = "a tile whose elements are unspecified, for a branch that has no value to give";
  let description = [{
    The value an `scf.if` yields on the path where the tile is never read,
    e.g. the rows of V that only some waves load and, under the same
    condition, store: those waves' other branch has nothing to compute.
    It lowers to poison, which costs nothing, where a zero tile costs one
    move per register on every pass through that branch. Reading it (an
    arithmetic use, a store) gives unspecified values.

    ```mlir
    %v = scf.if %mover -> !vreg {
      %x = tile.load ... : !buf -> !vreg
      scf.yield %x : !vreg
    } else {
      %u = tile.undef : !vreg
      scf.yield %u : !vreg
    }
    ```
  }];
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tile_IotaOp : Tile_Op<"iota", [Pure]> {
  let summary = "a tile of i32 element coordinates: row (dim 0) or column (dim 1) index";
  let description = [{
    With `tile.splat`, `tile.addi` and `tile.cmpi`, builds masks such as the
    causal mask `q0 + row >= k0 + col`.
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<1>]>:$dim);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$dim attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_CmpIOp : Tile_Op<"cmpi", [Pure, SameTypeOperands]> {
  let summary = "elementwise integer comparison into an i1 tile";
  let arguments = (ins Arith_CmpIPredicateAttr:$predicate, Tile_AnyTile:$lhs, Tile_AnyTile:$rhs);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_CmpFOp : Tile_Op<"cmpf", [Pure, SameTypeOperands]> {
  let summary = "elementwise floating-point comparison into an i1 tile";
  let arguments = (ins Arith_CmpFPredicateAttr:$predicate, Tile_AnyTile:$lhs, Tile_AnyTile:$rhs);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_SelectOp : Tile_Op<"select", [Pure, AllTypesMatch<["true_value", "false_value", "result"]>]> {
  let summary = "elementwise choice by an i1 mask tile";
  let arguments = (ins Tile_AnyTile:$condition, Tile_AnyTile:$true_value, Tile_AnyTile:$false_value);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$condition `,` $true_value `,` $false_value attr-dict `:` type($condition) `,` type($result)";
  let hasVerifier = 1;
}

class Tile_ReduceOp<string mnemonic, string what> : Tile_Op<mnemonic, [Pure]> {
  let summary = "reduces a tile along one dimension by " # what;
  let description = [{
    `dim = 1` reduces each row over its columns (row max / row sum); the
    result is a `#tile.slice<1, P>` tile of shape R x 1. The lowering reduces
    within each lane first, then across the lanes that share a row (DPP and
    `ds_swizzle` within 32 lanes; `v_permlane32_swap` across the two halves
    of the wave on gfx950).
  }];
  let arguments = (ins Tile_AnyTile:$operand,
                       ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<1>]>:$dim);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$operand `dim` $dim attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ReduceMaxOp : Tile_ReduceOp<"reduce_max", "maximum">;
def Tile_ReduceSumOp : Tile_ReduceOp<"reduce_sum", "addition">;

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "expands a slice tile back over the collapsed dimension";
  let description = [{
    The inverse shape of a reduction: each element of the R x 1 (or 1 x C)
    operand fills its row (column) of the result, whose layout is the
    slice's parent. No data moves between lanes.
  }];
  let arguments = (ins Tile_AnyTile:$operand);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_RelayoutOp : Tile_Op<"relayout", [Pure]> {
  let summary = "reinterprets the registers of a tile under another layout";
  let description = [{
    No data moves: register i of each lane keeps its value and now stands for
    the element that the new layout assigns to register i. Both tiles must
    have the same number of elements per lane and element type. This is how
    an accumulator (P in attention) feeds the next MFMA as an operand
    without a trip through LDS: the author pairs it with a matching order of
    the other operand's K dimension.
  }];
  let arguments = (ins Tile_AnyTile:$operand);
  let results = (outs Tile_AnyTile:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Synchronisation and scheduling
//===----------------------------------------------------------------------===//

def Tile_BarrierOp : Tile_Op<"barrier"> {
  let summary = "workgroup barrier with workgroup-scope release and acquire";
  let description = [{
    Like HIP's `__syncthreads`: the wave's earlier LDS and global accesses
    complete before it arrives (`s_waitcnt` from the release fence), all
    waves meet at `s_barrier`, and later accesses see the others' writes.
    `unfenced` is the bare `s_barrier`: it orders execution only (the extra
    barriers of a stagger need no more).
  }];
  let arguments = (ins UnitAttr:$unfenced);
  let assemblyFormat = "(`unfenced` $unfenced^)? attr-dict";
}

def Tile_SchedBarrierOp : Tile_Op<"sched_barrier"> {
  let summary = "fences the instruction scheduler";
  let description = [{
    No instruction crosses this point in the final schedule, except those of
    the classes listed (`tile.sched_barrier [valu, salu]`); `[]` fences all.
    The classes are those of `#tile.group`: alu, valu, salu, mfma, vmem,
    vmem_read, vmem_write, ds, ds_read, ds_write, trans. The attribute holds
    LLVM's mask (`llvm.amdgcn.sched.barrier`).
  }];
  let arguments = (ins I32Attr:$allowed);
  let assemblyFormat = "custom<SchedKinds>($allowed) attr-dict";
}

def Tile_SchedGroupBarrierOp : Tile_Op<"sched_group_barrier"> {
  let summary = "asks the scheduler for a group of `count` instructions of one class here";
  let description = [{
    A sequence of group barriers with the same `sync_id` orders groups: e.g.
    one MFMA, then two LDS reads, then one MFMA, ... (LLVM's
    `llvm.amdgcn.sched.group.barrier`).
  }];
  let arguments = (ins Tile_SchedGroupAttr:$group, DefaultValuedAttr<I32Attr, "0">:$sync_id);
  let assemblyFormat = "$group (`sync` $sync_id^)? attr-dict";
}

def Tile_SchedInterleaveOp : Tile_Op<"sched_interleave"> {
  let summary = "a repeated pattern of scheduling groups (the pairs form)";
  let description = [{
    Expands (`tile-expand-schedule`) to `repeat` copies of the pattern's
    group barriers, e.g. one MFMA followed by two VALU and one EXP:

    ```mlir
    tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<valu, 2>, #tile.group<trans, 1>] x 16
    ```
  }];
  let arguments = (ins TypedArrayAttrBase<Tile_SchedGroupAttr, "groups">:$pattern,
                       ConfinedAttr<I64Attr, [IntMinValue<1>]>:$repeat,
                       DefaultValuedAttr<I32Attr, "0">:$sync_id);
  let assemblyFormat = "$pattern `x` $repeat (`sync` $sync_id^)? attr-dict";
  let hasVerifier = 1;
}

def Tile_SetPrioOp : Tile_Op<"setprio"> {
  let summary = "sets this wave's issue priority (s_setprio, 0..3)";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<3>]>:$priority);
  let assemblyFormat = "$priority attr-dict";
}

def Tile_StaggerOp : Tile_Op<"stagger", [SingleBlockImplicitTerminator<"YieldOp">,
                                          RecursiveMemoryEffects]> {
  let summary = "runs the body with two wave groups phase-shifted by one barrier";
  let description = [{
    Waves for which `lagging` is true wait at one extra `s_barrier` before
    the body, and the others at one extra barrier after it, so the groups
    meet every barrier of the body one phase apart (while one group runs its
    MFMA cluster, the other runs its softmax) and the barrier counts of all
    waves still match. The body's `tile.yield` gives the results.
    `tile-expand-schedule` expands it.

    ```mlir
    %m, %l = tile.stagger %lagging -> (!row, !row) {
      ...
      tile.yield %m1, %l1 : !row, !row
    }
    ```
  }];
  let arguments = (ins I1:$lagging);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$lagging (`->` `(` type($results)^ `)`)? $body attr-dict";
  let hasVerifier = 1;
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator, ReturnLike,
                                     HasParent<"StaggerOp">]> {
  let summary = "the results of a tile.stagger body";
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* no values */ }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

//===----------------------------------------------------------------------===//
// Multi-GPU: peer memory and flags
//===----------------------------------------------------------------------===//

def Tile_PeerPtrOp : Tile_Op<"peer_ptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "the same symmetric-heap allocation on another rank";
  let description = [{
    Every rank's heap holds each allocation at the same offset, so the peer
    address is `ptr - bases[from] + bases[to]`, with `bases` the table of
    heap base addresses (one i64 per rank) the runtime passes to the kernel.

    ```mlir
    %remote = tile.peer_ptr %a, %bases, %me, %r : !tile.ptr<bf16>, !tile.ptr<i64>
    ```
  }];
  let arguments = (ins Tile_Ptr:$ptr, Tile_Ptr:$bases, Index:$from, Index:$to);
  let results = (outs Tile_Ptr:$result);
  let assemblyFormat = "$ptr `,` $bases `,` $from `,` $to attr-dict `:` type($ptr) `,` type($bases)";
  let hasVerifier = 1;
}

def Tile_FlagStoreOp : Tile_Op<"flag_store"> {
  let summary = "stores a flag word with release ordering at a scope";
  let description = [{
    `flag[index] = value` as an atomic store that releases at `scope`: every
    memory access of this wave before it is visible to an agent of the scope
    that acquires the flag (a `tile.flag_wait`). Writes of the workgroup's
    other waves are ordered before it only through a `tile.barrier` first.
    Executed once per wave (every lane stores the same word).
  }];
  let arguments = (ins Tile_Ptr:$flags, Index:$index, I32:$value,
                       Tile_MemoryScope:$scope);
  let assemblyFormat = "$flags `[` $index `]` `,` $value $scope attr-dict `:` type($flags)";
  let hasVerifier = 1;
}

def Tile_FlagWaitOp : Tile_Op<"flag_wait"> {
  let summary = "spins until a flag word satisfies a predicate, then acquires";
  let description = [{
    Loads `flag[index]` with acquire ordering at `scope` until it is equal to
    (`eq`) or at least (`ge`, for epoch counters that never need a reset)
    `value`, sleeping between polls. Accesses after it see what the releasing
    wave wrote before its `tile.flag_store`.
  }];
  let arguments = (ins Tile_Ptr:$flags, Index:$index, Tile_FlagPredicate:$predicate,
                       I32:$value, Tile_MemoryScope:$scope);
  let assemblyFormat = "$flags `[` $index `]` $predicate $value $scope attr-dict `:` type($flags)";
  let hasVerifier = 1;
}

def Tile_FlagTestOp : Tile_Op<"flag_test"> {
  let summary = "whether `count` consecutive flag words all satisfy a predicate (no wait)";
  let description = [{
    Lane i loads `flag[index + min(i, count - 1)]` once, with acquire
    ordering at `scope`, and the result is true when every word compared is
    equal to (`eq`) or at least (`ge`) `value`: then the wave has acquired
    what the releases of all `count` words published (the acquire's cache
    invalidation is the wave's), and may skip waiting on each
    (`tile.flag_wait`) - a persistent kernel tests the flags of its next tile
    once instead of polling one per block. False promises nothing. `count`
    is between 1 and 64 (a word per lane); wave-uniform operands.

    ```mlir
    %all = tile.flag_test %flags[%row] count %n ge %epoch agent : !tile.ptr<i32>
    ```
  }];
  let arguments = (ins Tile_Ptr:$flags, Index:$index, Index:$count,
                       Tile_FlagPredicate:$predicate, I32:$value, Tile_MemoryScope:$scope);
  let results = (outs I1:$ready);
  let assemblyFormat = "$flags `[` $index `]` `count` $count $predicate $value $scope attr-dict `:` type($flags)";
  let hasVerifier = 1;
}

def Tile_FenceOp : Tile_Op<"fence"> {
  let summary = "a release-acquire fence at a scope";
  let arguments = (ins Tile_MemoryScope:$scope);
  let assemblyFormat = "$scope attr-dict";
}

def Tile_MemtimeOp : Tile_Op<"memtime"> {
  let summary = "the shader clock (s_memtime): a wave-uniform 64-bit tick count";
  let description = [{
    For kernels that record when their phases start and end (fetch, wait,
    compute); differences of two readings on one wave are elapsed ticks. In
    the emulator the clock advances with the instructions the device issues.
  }];
  let results = (outs I64:$result);
  let assemblyFormat = "attr-dict";
}

#endif // KCC_TILE_OPS
