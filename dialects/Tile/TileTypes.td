//===- TileTypes.td - Types of the tile dialect ------------*- tablegen -*-===//
#ifndef KCC_TILE_TYPES
#define KCC_TILE_TYPES

include "dialects/Tile/TileAttrs.td"

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_TileType : Tile_Type<"Tile", "tile"> {
  let summary = "a 2-D tile held in the registers of one wave";
  let description = [{
    `!tile.tile<[ROWS, COLS], ELEMENT, LAYOUT>`. A dimension may name an
    integer compile-time parameter (`[BM, 64]`) and the element type may be a
    type parameter (`!tile.dtype<"DTYPE">`) until `tile-specialize` binds
    them. The shape must be a multiple of the layout's instance shape.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        ArrayRefParameter<"::mlir::StringAttr">:$dimParams,
                        "::mlir::Type":$elementType,
                        "::mlir::Attribute":$layout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "::mlir::Type":$elementType, "::mlir::Attribute":$layout), [{
      ::llvm::SmallVector<::mlir::StringAttr> none(shape.size(),
          ::mlir::StringAttr::get(elementType.getContext(), ""));
      return $_get(elementType.getContext(), shape, none, elementType, layout);
    }]>
  ];
  let skipDefaultBuilders = 0;
  let extraClassDeclaration = [{
    int64_t getRows() const { return getShape()[0]; }
    int64_t getCols() const { return getShape()[1]; }
    /// True when no dimension, element type or layout awaits a parameter.
    bool isResolved() const;
    /// The same tile with another element type (conversions keep layouts).
    TileType withElementType(::mlir::Type type) const;
  }];
}

def Tile_PtrType : Tile_Type<"Ptr", "ptr"> {
  let summary = "a pointer to global memory holding elements of one type";
  let description = [{ `!tile.ptr<bf16>`: a kernel argument; lowered to `!llvm.ptr<1>`. }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

def Tile_BufferType : Tile_Type<"Buffer", "buffer"> {
  let summary = "a buffer resource over global memory";
  let description = [{
    `!tile.buffer<bf16>`: a base address and a size in bytes; element offsets
    index it. Reads outside the size give zero and writes outside it are
    dropped, by the hardware, which is how tails are masked.
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

def Tile_LdsType : Tile_Type<"Lds", "lds"> {
  let summary = "a named buffer in LDS (shared memory of a workgroup)";
  let description = [{
    `!tile.lds<[ROWS, COLS], ELEMENT, pad = P, stages = N, swizzle = S>`:
    N copies (stages, for multi-buffering) of a row-major ROWS x COLS array
    whose rows are COLS + P elements apart (padding rows moves each row to
    other banks, so that column-wise reads avoid bank conflicts).

    `swizzle = S` (a power of two, at least 2) is the other way to spread a
    column over the banks, for rows that cannot be padded (the 1 KiB lines
    of gfx950's 16-byte LDS DMA fill LDS contiguously): the 16-byte chunk j
    of row r is stored at chunk j XOR ((r / G) mod S) of that row, where G
    = max(1, line / row bytes) is the number of rows that share one line of
    banks (256 bytes: 64 banks of 4 bytes on gfx950; 128 on gfx942's 32):
    rows that start in different banks need no different XOR. G depends on
    the chip, so the layout is the lowering's to place.
    Every access (DMA, reads, writes) applies it, so the layout is
    invisible to the kernel's indices. A swizzled row is unpadded and holds
    a multiple of S chunks.

    `order = TILE` (or `order = transpose TILE`) stores the buffer in the
    order in which `tile.lds_load` (with `transpose`) reads it as TILE, a
    tile of the buffer's shape (transposed) and element type: access k of
    lane l sits at byte (k * 64 + l) * B, B the bytes a lane reads per
    access. The reads are then one contiguous line each, free of bank
    conflicts, at one address register and an immediate offset each; and
    `tile.async_copy`'s 16-byte lines fill the buffer in that order (every
    DMA lane fetches the 16 bytes of memory that land in its place). Only
    that load and `tile.async_copy` may access such a buffer; it is
    unpadded and unswizzled. `order = TILE if P` takes the order only when
    the i1 parameter P is true.

    `pad` and `swizzle` default to 0 (none) and `stages` to 1; `pad` and
    `swizzle` may name integer parameters.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        ArrayRefParameter<"::mlir::StringAttr">:$dimParams,
                        "::mlir::Type":$elementType,
                        "int64_t":$pad, "int64_t":$stages,
                        "::mlir::StringAttr":$padParam,
                        "int64_t":$swizzle,
                        "::mlir::StringAttr":$swizzleParam,
                        "::mlir::Type":$order,
                        "bool":$orderTranspose,
                        "::mlir::StringAttr":$orderParam);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRows() const { return getShape()[0]; }
    int64_t getCols() const { return getShape()[1]; }
    bool isResolved() const;
    /// Elements between the starts of two rows (requires isResolved()).
    int64_t getRowStride() const { return getCols() + getPad(); }
    /// Bytes of the unit that `swizzle` permutes within a row.
    static constexpr int64_t kSwizzleChunkBytes = 16;
    /// Rows that share one swizzle XOR on a chip whose banks span
    /// `bankLineBytes` (G above; requires isResolved()).
    int64_t getSwizzleRowGroup(int64_t bankLineBytes) const;
    /// Bytes of one stage and of the whole buffer (requires isResolved()).
    int64_t getStageBytes() const;
    int64_t getTotalBytes() const { return getStageBytes() * getStages(); }
    /// The tile whose reading order the buffer is stored in (`order`), or
    /// null: none, or one gated by a parameter not yet bound.
    TileType getOrderTile() const {
      if (!getOrderParam().getValue().empty())
        return {};
      return ::llvm::dyn_cast_if_present<TileType>(getOrder());
    }
  }];
}

def Tile_DtypeParamType : Tile_Type<"DtypeParam", "dtype"> {
  let summary = "an element type left to a compile-time parameter";
  let parameters = (ins StringRefParameter<>:$name);
  let assemblyFormat = "`<` $name `>`";
}

#endif // KCC_TILE_TYPES
