//===- TileAttrs.td - Layout attributes of the tile dialect -*- tablegen -*-===//
//
// A layout says which lane of a wave holds which element of a tile. Every
// layout here is linear in the lane bits: element (row, col) of register
// index i in lane l is (rowR(i) + rowL(l), colR(i) + colL(l)), which is what
// lets the lowering compute one per-lane base and add constants.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TILE_ATTRS
#define KCC_TILE_ATTRS

include "dialects/Tile/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Tile_MfmaOperand : I32EnumAttr<"MfmaOperand", "MFMA operand role", [
    I32EnumAttrCase<"a", 0>, I32EnumAttrCase<"b", 1>, I32EnumAttrCase<"acc", 2>
  ]> {
  let cppNamespace = "::kcc::tile";
  let genSpecializedAttr = 0;
}

def Tile_SchedGroupKind : I32EnumAttr<"SchedGroupKind",
    "instruction classes that sched_group_barrier can select", [
    I32EnumAttrCase<"alu", 1>,   I32EnumAttrCase<"valu", 2>,
    I32EnumAttrCase<"salu", 4>,  I32EnumAttrCase<"mfma", 8>,
    I32EnumAttrCase<"vmem", 16>, I32EnumAttrCase<"vmem_read", 32>,
    I32EnumAttrCase<"vmem_write", 64>, I32EnumAttrCase<"ds", 128>,
    I32EnumAttrCase<"ds_read", 256>, I32EnumAttrCase<"ds_write", 512>,
    I32EnumAttrCase<"trans", 1024>
  ]> {
  let cppNamespace = "::kcc::tile";
  let genSpecializedAttr = 0;
}

def Tile_MemoryScope : I32EnumAttr<"MemoryScope",
    "the set of agents a memory ordering applies to", [
    I32EnumAttrCase<"workgroup", 0>, I32EnumAttrCase<"agent", 1>,
    I32EnumAttrCase<"system", 2>
  ]> {
  let cppNamespace = "::kcc::tile";
}

def Tile_FlagPredicate : I32EnumAttr<"FlagPredicate",
    "when a flag wait is satisfied", [
    I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ge", 1>
  ]> {
  let cppNamespace = "::kcc::tile";
}

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tile_TargetAttr : Tile_Attr<"Target", "target"> {
  let summary = "the chip a module is compiled for";
  let description = [{
    The module attribute `tile.target = #tile.target<"gfx950">`, set by
    `tile-specialize` and read by every later pass: the one place the chip
    travels through the pipeline. Passes ask it for the chip's facts
    (`getInfo()`: LDS size, MFMA shapes, features such as the transposing
    LDS read or the 16-byte LDS DMA), never compare chip names.
  }];
  let parameters = (ins StringRefParameter<"chip name, e.g. gfx950">:$chip);
  let assemblyFormat = "`<` $chip `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The chip (the verifier guarantees it is a supported one).
    ::kcc::Chip getChipKind() const;
    /// Everything kcc knows about the chip (target/Target.h).
    const ::kcc::ChipInfo &getInfo() const;
  }];
}

def Tile_MfmaLayoutAttr : Tile_Attr<"MfmaLayout", "mfma"> {
  let summary = "an operand layout of an MFMA instruction";
  let description = [{
    The register layout of operand `a` (M x K), `b` (K x N) or the
    accumulator `acc` (M x N) of a wave64 MFMA instruction of shape MxNxK with
    16-bit or FP8 inputs (a lane holds M*K/64 consecutive K values of one row
    of `a`, whatever their width). A tile larger than one instruction
    repeats the instance shape, rows of repetitions outermost.

    The shape may be left to the target: `#tile.mfma<a>` is the 32x32 MFMA
    with the widest K of the chip for the tile's element type (16-bit:
    32x32x8 on gfx942, 32x32x16 on gfx950; FP8: 32x32x16 on gfx942,
    32x32x64 on gfx950) and `#tile.mfma<a, 16x16>` the 16x16 one;
    `tile-specialize` fills it in. An accumulator's layout does not depend
    on K (an `acc` left to the target gets the 16-bit K), and `tile.mma`
    takes an accumulator of any K.

    With `k_from_acc`, an `a` or `b` operand's K dimension runs in the order
    of an accumulator's rows instead: register j of lane l holds
    k = (j / 4) * 4 * (64 / N) + (l / N) * 4 + j % 4. An accumulator then
    feeds the next MFMA as its `b` (or, transposed, `a`) operand by
    `tile.relayout` alone, as long as the other operand uses the same order
    (for 32x32x8 and 16x16x16 the two orders coincide).

    With `k_wide`, an `a` or `b` operand's instances along K interleave
    so that a lane holds 16 contiguous bytes of K where one instance holds
    fewer: P = 16 / (M*K/64 * element bytes) consecutive instances form a
    group (fewer if the tile's instances along K do not divide by P), and
    register i of instance j of group q in lane l holds
    k = q*K*P + (l / M)*KL*P + j*KL + i (KL = M*K/64). The sum over K is
    the same as long as the other operand is `k_wide` too; a lane's part of
    each operand is then one 16-byte read (32x32x8 bf16 on gfx942: one
    ds_read_b128 for two MFMAs instead of two ds_read_b64, which the
    16-byte chunks of a swizzled row cannot keep free of bank conflicts).
    Where an instance already holds 16 bytes a lane, P = 1.

    ```mlir
    #tile.mfma<a, 32x32x8>
    #tile.mfma<acc>
    #tile.mfma<b, 32x32x16, k_from_acc>
    #tile.mfma<a, k_wide>
    ```
  }];
  let parameters = (ins EnumParameter<Tile_MfmaOperand>:$operand,
                        "int64_t":$m, "int64_t":$n, "int64_t":$k,
                        "bool":$kFromAcc, DefaultValuedParameter<"bool", "false">:$kWide);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// True once the K dimension is known (after specialisation).
    bool isResolved() const { return getK() != 0; }
  }];
}

def Tile_BlockedLayoutAttr : Tile_Attr<"BlockedLayout", "blocked"> {
  let summary = "a blocked layout for memory access";
  let description = [{
    Each lane holds a `per_lane[0] x per_lane[1]` block of contiguous
    elements; the 64 lanes are arranged `lanes[0] x lanes[1]`, row-major
    (lane = r * lanes[1] + c). The instance shape is their product; larger
    tiles repeat it. Wide `per_lane[1]` gives wide loads and stores.

    ```mlir
    #tile.blocked<[1, 8], [8, 8]>   // 8 x 64 instance, 16-byte rows per lane for bf16
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$perLane,
                        ArrayRefParameter<"int64_t">:$lanes);
  let assemblyFormat = "`<` `[` $perLane `]` `,` `[` $lanes `]` `>`";
  let genVerifyDecl = 1;
}

def Tile_SliceLayoutAttr : Tile_Attr<"SliceLayout", "slice"> {
  let summary = "the layout of a reduction result: a parent layout with one dimension collapsed";
  let description = [{
    `#tile.slice<1, P>` is the row layout of parent layout P: an R x 1 tile
    whose element r is held by every lane that holds some element of row r in
    P (the result of a reduction over columns, e.g. the row max of an
    accumulator). `#tile.slice<0, P>` collapses the rows instead (1 x C).
  }];
  let parameters = (ins "int64_t":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` $dim `,` $parent `>`";
  let genVerifyDecl = 1;
}

def Tile_SchedGroupAttr : Tile_Attr<"SchedGroup", "group"> {
  let summary = "one group of a scheduling pattern: an instruction class and a count";
  let parameters = (ins EnumParameter<Tile_SchedGroupKind>:$kind, "int64_t":$count);
  let assemblyFormat = "`<` $kind `,` $count `>`";
}

#endif // KCC_TILE_ATTRS
