// RUN: kcc-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the tile dialect's verifiers and parsers
// (TileTypes.cpp, TileAttrs.cpp, TileOps.cpp). Checks that need the target
// fire only inside a module that names its chip (tile.target).

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// expected-error@+1 {{tiles are 2-D; got 1 dimensions}}
func.func @tile_rank(%t: !tile.tile<[32], f32, #tile.mfma<acc, 32x32x8>>)

// -----

// expected-error@+1 {{tiles are 2-D; got 3 dimensions}}
func.func @lds_rank(%l: !tile.lds<[4, 32, 32], bf16>)

// -----

// expected-error@+1 {{dimension 0 must be a positive integer or a parameter name}}
func.func @tile_dynamic_dim(%t: !tile.tile<[-9223372036854775808, 32], f32, #tile.mfma<acc, 32x32x8>>)

// -----

// expected-error@+1 {{dimension 0 must be positive, got 0}}
func.func @tile_zero_dim(%t: !tile.tile<[0, 32], f32, #tile.mfma<acc, 32x32x8>>)

// -----

// expected-error@+1 {{dimension 1 must be positive, got -64}}
func.func @lds_negative_dim(%l: !tile.lds<[64, -64], bf16>)

// -----

// expected-error@+1 {{tile elements must be integers or floats, got 'index'}}
func.func @tile_element(%t: !tile.tile<[32, 32], index, #tile.mfma<acc, 32x32x8>>)

// -----

// expected-error@+1 {{expected a tile layout (#tile.mfma, #tile.blocked or #tile.slice), got 1 : i64}}
func.func @tile_layout(%t: !tile.tile<[32, 32], f32, 1>)

// -----

// expected-error@+1 {{tile shape 32x16 is not a multiple of its layout's 32x32 instance}}
func.func @tile_not_multiple(%t: !tile.tile<[32, 16], f32, #tile.mfma<acc, 32x32x8>>)

// -----

// expected-error@+1 {{tile shape 16x8 is not a multiple of its layout's 8x64 instance}}
func.func @tile_not_multiple_blocked(%t: !tile.tile<[16, 8], bf16, #tile.blocked<[1, 8], [8, 8]>>)

// -----

// expected-error@+1 {{tile shape 16x32 is not a multiple of its layout's 32x16 instance}}
func.func @tile_not_multiple_b(%t: !tile.tile<[16, 32], bf16, #tile.mfma<b, 16x16x32>>)

// -----

// expected-error@+1 {{a slice along dimension 1 must have extent 1 there}}
func.func @slice_extent(%t: !tile.tile<[32, 2], f32, #tile.slice<1, #tile.mfma<acc, 32x32x8>>>)

// -----

// expected-error@+1 {{unknown LDS buffer property 'banks'; expected 'pad', 'stages', 'swizzle' or 'order'}}
func.func @lds_property(%l: !tile.lds<[64, 64], bf16, banks = 2>)

// -----

// expected-error@+1 {{LDS elements must be integers or floats, got 'index'}}
func.func @lds_element(%l: !tile.lds<[64, 64], index>)

// -----

// expected-error@+1 {{an LDS swizzle must be 0 (none) or a power of two of at least 2, got 6}}
func.func @lds_swizzle_not_pow2(%l: !tile.lds<[64, 64], bf16, swizzle = 6>)

// -----

// expected-error@+1 {{an LDS buffer is either padded or swizzled, not both (pad = 8, swizzle = 8)}}
func.func @lds_swizzle_and_pad(%l: !tile.lds<[64, 64], bf16, pad = 8, swizzle = 8>)

// -----

// expected-error@+1 {{swizzle = 16 permutes 16 chunks of 16 bytes within a row, but a row of 64 x 'bf16' is 128 bytes}}
func.func @lds_swizzle_row(%l: !tile.lds<[64, 64], bf16, swizzle = 16>)

// -----

// expected-error@+1 {{LDS buffer property 'swizzle' given twice}}
func.func @lds_swizzle_twice(%l: !tile.lds<[64, 64], bf16, swizzle = 2, swizzle = 4>)

// -----

// expected-error@+1 {{an LDS buffer's order is a !tile.tile type, got 'bf16'}}
func.func @lds_order_not_tile(%l: !tile.lds<[64, 64], bf16, order = bf16>)

// -----

// expected-error@+1 {{an LDS buffer stored in a tile's order is neither padded nor swizzled (pad = 8, swizzle = 0)}}
func.func @lds_order_padded(%l: !tile.lds<[64, 64], bf16, pad = 8, order = !tile.tile<[64, 64], bf16, #tile.mfma<a>>>)

// -----

// expected-error@+1 {{an LDS buffer of 'bf16' cannot be stored in the order of a tile of 'f16'}}
func.func @lds_order_element(%l: !tile.lds<[64, 64], bf16, order = !tile.tile<[64, 64], f16, #tile.mfma<a>>>)

// -----

// expected-error@+1 {{an LDS buffer of [64, 128] cannot be stored in the order of a transposed tile of [64, 128]}}
func.func @lds_order_shape(%l: !tile.lds<[64, 128], bf16, order = transpose !tile.tile<[64, 128], bf16, #tile.mfma<a>>>)

// -----

func.func @lds_order_other_tile(%i: index) {
  %c0 = arith.constant 0 : index
  %l = tile.lds_alloc "k" : !tile.lds<[64, 128], bf16, order = !tile.tile<[64, 128], bf16, #tile.mfma<a, 32x32x16>>>
  // expected-error@+1 {{'tile.lds_load' op reads '!tile.tile<[64, 128], bf16, #tile.blocked<[1, 8], [4, 16]>>' from a buffer stored in the order of '!tile.tile<[64, 128], bf16, #tile.mfma<a, 32x32x16>>': such a buffer is read only as that tile}}
  %t = tile.lds_load %l[%c0][%c0, %c0] : !tile.lds<[64, 128], bf16, order = !tile.tile<[64, 128], bf16, #tile.mfma<a, 32x32x16>>> -> !tile.tile<[64, 128], bf16, #tile.blocked<[1, 8], [4, 16]>>
  return
}

// -----

func.func @lds_order_offset(%i: index) {
  %c0 = arith.constant 0 : index
  %l = tile.lds_alloc "k" : !tile.lds<[64, 128], bf16, order = !tile.tile<[64, 128], bf16, #tile.mfma<a, 32x32x16>>>
  // expected-error@+1 {{'tile.lds_load' op reads a buffer stored in a tile's order at a position other than [0, 0]: such a buffer holds that one tile}}
  %t = tile.lds_load %l[%c0][%i, %c0] : !tile.lds<[64, 128], bf16, order = !tile.tile<[64, 128], bf16, #tile.mfma<a, 32x32x16>>> -> !tile.tile<[64, 128], bf16, #tile.mfma<a, 32x32x16>>
  return
}

// -----

func.func @async_copy_inbounds_bounded(%b: !tile.buffer<bf16>, %i: index) {
  %l = tile.lds_alloc "a" : !tile.lds<[64, 64], bf16>
  // expected-error@+1 {{'tile.async_copy' op is either 'inbounds' (the block lies inside the buffer) or bounded ('bounds'), not both}}
  tile.async_copy inbounds %b[%i, %i] stride %i bounds %i, %i -> %l[%i] : !tile.buffer<bf16>, !tile.lds<[64, 64], bf16>
  return
}

// -----

func.func @async_copy_width12(%b: !tile.buffer<bf16>, %i: index) {
  %l = tile.lds_alloc "a" : !tile.lds<[96, 64], bf16>
  // expected-error@+1 {{'tile.async_copy' op LDS DMA of 12 bytes per lane writes its lanes 16 bytes apart in LDS (as 16-byte DMA does), which leaves a dword of every 16 bytes of the dense LDS block unwritten; use width = 4 or 16}}
  tile.async_copy %b[%i, %i] stride %i -> %l[%i] {width = 12 : i64} : !tile.buffer<bf16>, !tile.lds<[96, 64], bf16>
  return
}

// -----

// expected-error@+1 {{'tile.waves_per_simd' must be an integer from 1 to 8 (or a parameter, @NAME) on a kernel (a function with 'tile.kernel')}}
func.func @waves_per_simd_range() attributes {tile.kernel, tile.waves_per_simd = 9 : i64} {
  return
}

// -----

// expected-error@+1 {{LDS row padding must be non-negative, got -8}}
func.func @lds_pad(%l: !tile.lds<[64, 64], bf16, pad = -8>)

// -----

// expected-error@+1 {{an LDS buffer needs at least one stage, got 0}}
func.func @lds_stages(%l: !tile.lds<[64, 64], bf16, stages = 0>)

// -----

// Regression (bug 6): a repeated LDS property was taken silently (the last
// value won).
// expected-error@+1 {{LDS buffer property 'pad' given twice}}
func.func @lds_pad_twice(%l: !tile.lds<[4, 4], f32, pad = 1, pad = 2>)

// -----

// expected-error@+1 {{LDS buffer property 'stages' given twice}}
func.func @lds_stages_twice(%l: !tile.lds<[4, 4], f32, stages = 2, pad = 1, stages = 2>)

// -----

// A parameter-named pad counts as the one 'pad'.
// expected-error@+1 {{LDS buffer property 'pad' given twice}}
func.func @lds_pad_param_twice(%l: !tile.lds<[64, 64], bf16, pad = PAD, pad = 8>)

// -----

// Only 'pad' may name a parameter.
// expected-error@+1 {{expected integer value}}
func.func @lds_stages_param(%l: !tile.lds<[64, 64], bf16, stages = NS>)

// -----

//===----------------------------------------------------------------------===//
// Layout attributes
//===----------------------------------------------------------------------===//

// expected-error@+1 {{expected MFMA operand 'a', 'b' or 'acc', got 'c'}}
func.func @mfma_role(%t: !tile.tile<[32, 32], f32, #tile.mfma<c>>)

// -----

// expected-error@+1 {{expected an MxN or MxNxK MFMA shape}}
func.func @mfma_rank(%t: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8x2>>)

// -----

// expected-error@+1 {{no MFMA has an 32x16 shape; supported: 32x32 and 16x16}}
func.func @mfma_mn(%t: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x16>>)

// -----

// expected-error@+1 {{no MFMA has an 64x64 shape; supported: 32x32 and 16x16}}
func.func @mfma_mn_square(%t: !tile.tile<[64, 64], f32, #tile.mfma<acc, 64x64x8>>)

// -----

// expected-error@+1 {{no MFMA has shape 32x32x4; supported: 32x32x8, 16x16x16 (gfx942, gfx950), 32x32x16, 16x16x32 (gfx950) for 16-bit inputs, 32x32x16, 16x16x32 (gfx942, gfx950), 32x32x64, 16x16x128 (gfx950) for FP8}}
func.func @mfma_k(%t: !tile.tile<[32, 4], bf16, #tile.mfma<a, 32x32x4>>)

// -----

// expected-error@+1 {{no MFMA has shape 16x16x8; supported: 32x32x8, 16x16x16 (gfx942, gfx950), 32x32x16, 16x16x32 (gfx950) for 16-bit inputs, 32x32x16, 16x16x32 (gfx942, gfx950), 32x32x64, 16x16x128 (gfx950) for FP8}}
func.func @mfma_k16(%t: !tile.tile<[16, 8], bf16, #tile.mfma<a, 16x16x8>>)

// -----

// expected-error@+1 {{blocked layout needs two elements-per-lane and two lane counts}}
func.func @blocked_rank(%t: !tile.tile<[8, 64], bf16, #tile.blocked<[8], [8, 8]>>)

// -----

// expected-error@+1 {{blocked layout sizes must be positive}}
func.func @blocked_positive(%t: !tile.tile<[8, 64], bf16, #tile.blocked<[0, 8], [8, 8]>>)

// -----

// expected-error@+1 {{blocked layout arranges 32 lanes; a wave has 64}}
func.func @blocked_lanes(%t: !tile.tile<[8, 64], bf16, #tile.blocked<[1, 8], [4, 8]>>)

// -----

// expected-error@+1 {{slice dimension must be 0 or 1, got 2}}
func.func @slice_dim(%t: !tile.tile<[32, 1], f32, #tile.slice<2, #tile.mfma<acc>>>)

// -----

// expected-error@+1 {{slice parent must be an MFMA or blocked layout}}
func.func @slice_parent(%t: !tile.tile<[32, 1], f32, #tile.slice<1, #tile.slice<1, #tile.mfma<acc>>>>)

// -----

// expected-error@+1 {{'k_from_acc' orders the K dimension of an 'a' or 'b' operand; an accumulator has none}}
func.func @mfma_acc_k_from_acc(%t: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8, k_from_acc>>)

// -----

// expected-error@+1 {{'k_from_acc' orders the K dimension of an 'a' or 'b' operand; an accumulator has none}}
func.func @mfma_acc_k_from_acc_default(%t: !tile.tile<[32, 32], f32, #tile.mfma<acc, k_from_acc>>)

// -----

// expected-error@+1 {{expected 'k_from_acc' or 'k_wide'}}
func.func @mfma_two_shapes(%t: !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16, 32x32x8>>)

// -----

// expected-error@+1 {{expected 'k_from_acc' or 'k_wide'}}
func.func @mfma_unknown_flag(%t: !tile.tile<[32, 16], bf16, #tile.mfma<b, 32x32x16, k_from_b>>)

// -----

// expected-error@+1 {{'k_wide' orders the K dimension of an 'a' or 'b' operand; an accumulator has none}}
func.func @mfma_acc_k_wide(%t: !tile.tile<[32, 32], f32, #tile.mfma<acc, k_wide>>)

// -----

// expected-error@+1 {{'k_wide' and 'k_from_acc' are two orders of K; an operand takes one}}
func.func @mfma_k_wide_k_from_acc(%t: !tile.tile<[32, 16], bf16, #tile.mfma<a, k_from_acc, k_wide>>)

// -----

// expected-error@+1 {{'k_wide' given twice}}
func.func @mfma_k_wide_twice(%t: !tile.tile<[32, 16], bf16, #tile.mfma<a, k_wide, k_wide>>)

// -----

// expected-error@+1 {{the MFMA shape comes before 'k_from_acc' and 'k_wide'}}
func.func @mfma_shape_after_k_wide(%t: !tile.tile<[32, 16], bf16, #tile.mfma<a, k_wide, 32x32x8>>)

// -----

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

// expected-error@+1 {{'tile.param_decl' op parameters are signless integers (i1 for flags); got 'f32'}}
tile.param_decl @X : f32

// -----

// expected-error@+1 {{'tile.param_decl' op default value 1 : i32 does not have the parameter's type 'i64'}}
tile.param_decl @X : i64 = 1 : i32

// -----

// Regression (bug 3): a default that is no element type was bound by
// tile-specialize into an invalid tile type.
// expected-error@+1 {{'tile.type_param_decl' op element-type parameters are bf16, f16, f32, an FP8 format, i8 or i32 (as -D accepts); the default 'index' is not}}
tile.type_param_decl @DT = index

// -----

// expected-error@+1 {{'tile.type_param_decl' op element-type parameters are bf16, f16, f32, an FP8 format, i8 or i32 (as -D accepts); the default 'vector<8xbf16>' is not}}
tile.type_param_decl @DT = vector<8xbf16>

// -----

func.func @undeclared() -> index {
  // expected-error@+1 {{'tile.param' op 'BM' is not declared by a tile.param_decl}}
  %0 = tile.param @BM : index
  return %0 : index
}

// -----

tile.param_decl @CAUSAL : i1
func.func @flag_as_index() -> index {
  // expected-error@+1 {{'tile.param' op parameter 'CAUSAL' is declared 'i1' but used as 'index'}}
  %0 = tile.param @CAUSAL : index
  return %0 : index
}

// -----

tile.param_decl @BM : i64 = 64
func.func @int_as_flag() -> i1 {
  // expected-error@+1 {{'tile.param' op parameter 'BM' is declared 'i64' but used as 'i1'}}
  %0 = tile.param @BM : i1
  return %0 : i1
}

// -----

func.func @decl_in_func() {
  // expected-error@+1 {{'tile.param_decl' op expects parent op 'builtin.module'}}
  tile.param_decl @X : i64
  return
}

// -----

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

// Regression (bug 5): the message named a "tile".
func.func @make_buffer_element(%p: !tile.ptr<f16>, %n: index) {
  // expected-error@+1 {{'tile.make_buffer' op the pointer holds 'f16' but the buffer holds 'bf16'}}
  %0 = tile.make_buffer %p, %n : !tile.ptr<f16> -> !tile.buffer<bf16>
  return
}

// -----

func.func @load_element(%b: !tile.buffer<f16>, %i: index) {
  // expected-error@+1 {{'tile.load' op the buffer holds 'f16' but the tile holds 'bf16'}}
  %0 = tile.load %b[%i, %i] stride %i : !tile.buffer<f16> -> !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>
  return
}

// -----

func.func @load_half_bounds(%b: !tile.buffer<bf16>, %i: index) {
  // expected-error@+1 {{'tile.load' op needs both row and column bounds, or neither}}
  %0 = "tile.load"(%b, %i, %i, %i, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0>}> : (!tile.buffer<bf16>, index, index, index, index) -> !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>
  return
}

// -----

func.func @store_element(%t: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>, %b: !tile.buffer<bf16>, %i: index) {
  // expected-error@+1 {{'tile.store' op the buffer holds 'bf16' but the tile holds 'f32'}}
  tile.store %t, %b[%i, %i] stride %i : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>, !tile.buffer<bf16>
  return
}

// -----

func.func @store_half_bounds(%t: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>, %b: !tile.buffer<f32>, %i: index) {
  // expected-error@+1 {{'tile.store' op needs both row and column bounds, or neither}}
  "tile.store"(%t, %b, %i, %i, %i, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1>}> : (!tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>, !tile.buffer<f32>, index, index, index, index) -> ()
  return
}

// -----

func.func @ptr_add_element(%p: !tile.ptr<bf16>, %n: index) {
  // expected-error@+1 {{'tile.ptr_add' op failed to verify that all of {ptr, result} have same type}}
  %0 = "tile.ptr_add"(%p, %n) : (!tile.ptr<bf16>, index) -> !tile.ptr<f16>
  return
}

// -----

func.func @ptr_add_offset(%p: !tile.ptr<bf16>, %n: i32) {
  // expected-error@+1 {{'tile.ptr_add' op operand #1 must be index, but got 'i32'}}
  %0 = "tile.ptr_add"(%p, %n) : (!tile.ptr<bf16>, i32) -> !tile.ptr<bf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// LDS
//===----------------------------------------------------------------------===//

func.func @async_copy_half_bounds(%b: !tile.buffer<bf16>, %i: index) {
  %l = tile.lds_alloc "a" : !tile.lds<[64, 64], bf16>
  // expected-error@+1 {{'tile.async_copy' op needs both row and column bounds, or neither}}
  "tile.async_copy"(%b, %i, %i, %i, %i, %l, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1, 1, 0>, width = 4 : i64}> : (!tile.buffer<bf16>, index, index, index, index, !tile.lds<[64, 64], bf16>, index) -> ()
  return
}

// -----

func.func @async_copy_element(%b: !tile.buffer<f16>, %i: index) {
  %l = tile.lds_alloc "a" : !tile.lds<[64, 64], bf16>
  // expected-error@+1 {{'tile.async_copy' op the buffer holds 'f16' but the tile holds 'bf16'}}
  tile.async_copy %b[%i, %i] stride %i -> %l[%i] : !tile.buffer<f16>, !tile.lds<[64, 64], bf16>
  return
}

// -----

func.func @async_copy_width(%b: !tile.buffer<bf16>, %i: index) {
  %l = tile.lds_alloc "a" : !tile.lds<[64, 64], bf16>
  // expected-error@+1 {{'tile.async_copy' op LDS DMA moves 4 or 16 bytes per lane, not 8}}
  tile.async_copy %b[%i, %i] stride %i -> %l[%i] {width = 8 : i64} : !tile.buffer<bf16>, !tile.lds<[64, 64], bf16>
  return
}

// -----

module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @async_copy_wide_gfx942(%b: !tile.buffer<bf16>, %i: index) {
    %l = tile.lds_alloc "a" : !tile.lds<[64, 64], bf16>
    // expected-error@+1 {{'tile.async_copy' op LDS DMA of 16 bytes per lane needs gfx950; gfx942 moves 4 (use width = 4)}}
    tile.async_copy %b[%i, %i] stride %i -> %l[%i] {width = 16 : i64} : !tile.buffer<bf16>, !tile.lds<[64, 64], bf16>
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @async_copy_16_gfx942(%b: !tile.buffer<bf16>, %i: index) {
    %l = tile.lds_alloc "a" : !tile.lds<[96, 64], bf16>
    // expected-error@+1 {{'tile.async_copy' op LDS DMA of 16 bytes per lane needs gfx950; gfx942 moves 4 (use width = 4)}}
    tile.async_copy %b[%i, %i] stride %i -> %l[%i] {width = 16 : i64} : !tile.buffer<bf16>, !tile.lds<[96, 64], bf16>
    return
  }
}

// -----

func.func @async_copy_padded_row(%b: !tile.buffer<bf16>, %i: index) {
  %l = tile.lds_alloc "a" : !tile.lds<[64, 64], bf16, pad = 8>
  // expected-error@+1 {{'tile.async_copy' op a padded LDS row must hold whole DMA lines of 256 bytes (64 lanes x 4); a row of 64 x 'bf16' is 128 bytes}}
  tile.async_copy %b[%i, %i] stride %i -> %l[%i] : !tile.buffer<bf16>, !tile.lds<[64, 64], bf16, pad = 8>
  return
}

// -----

func.func @async_copy_stage_lines(%b: !tile.buffer<bf16>, %i: index) {
  %l = tile.lds_alloc "a" : !tile.lds<[2, 32], bf16>
  // expected-error@+1 {{'tile.async_copy' op the LDS stage (128 bytes) must be a whole number of DMA lines of 256 bytes}}
  tile.async_copy %b[%i, %i] stride %i -> %l[%i] : !tile.buffer<bf16>, !tile.lds<[2, 32], bf16>
  return
}

// -----

func.func @async_copy_stage_lines_wide(%b: !tile.buffer<bf16>, %i: index) {
  %l = tile.lds_alloc "a" : !tile.lds<[4, 64], bf16>
  // expected-error@+1 {{'tile.async_copy' op the LDS stage (512 bytes) must be a whole number of DMA lines of 1024 bytes}}
  tile.async_copy %b[%i, %i] stride %i -> %l[%i] {width = 16 : i64} : !tile.buffer<bf16>, !tile.lds<[4, 64], bf16>
  return
}

// -----

func.func @wait_nothing() {
  // expected-error@+1 {{'tile.wait' op waits on nothing; give vmcnt(N), lgkmcnt(N) or both}}
  tile.wait
  return
}

// -----

func.func @wait_range() {
  // expected-error@+1 {{'tile.wait' op attribute 'lgkmcnt' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 15}}
  tile.wait lgkmcnt(16)
  return
}

// -----

func.func @lds_load_element(%i: index) {
  %l = tile.lds_alloc "a" : !tile.lds<[64, 64], f16>
  // expected-error@+1 {{'tile.lds_load' op the LDS buffer holds 'f16' but the tile holds 'bf16'}}
  %0 = tile.lds_load %l[%i][%i, %i] : !tile.lds<[64, 64], f16> -> !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>
  return
}

// -----

// An FP8 b operand read down an LDS column: only gfx950's ds_read_b64_tr_b8
// gathers it.
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @lds_load_column_fp8_gfx942(%i: index) {
    %l = tile.lds_alloc "b" : !tile.lds<[32, 32], f8E4M3FNUZ>
    // expected-error@+1 {{'tile.lds_load' op reads each lane's b operand down an LDS column, which needs the transposing LDS read (ds_read_b64_tr_b8) of gfx950; gfx942 has none: store the matrix transposed in LDS and read it with 'transpose'}}
    %0 = tile.lds_load %l[%i][%i, %i] : !tile.lds<[32, 32], f8E4M3FNUZ> -> !tile.tile<[32, 32], f8E4M3FNUZ, #tile.mfma<b, 32x32x16>>
    return
  }
}

// -----

// A b operand (K x N) read from a K x N array: each lane's registers run down
// an LDS column, which only gfx950's ds_read_b64_tr_b16 gathers.
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @lds_load_column_gfx942(%i: index) {
    %l = tile.lds_alloc "b" : !tile.lds<[32, 32], bf16>
    // expected-error@+1 {{'tile.lds_load' op reads each lane's b operand down an LDS column, which needs the transposing LDS read (ds_read_b64_tr_b16) of gfx950; gfx942 has none: store the matrix transposed in LDS and read it with 'transpose'}}
    %0 = tile.lds_load %l[%i][%i, %i] : !tile.lds<[32, 32], bf16> -> !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x8>>
    return
  }
}

// -----

// The same for an a operand read with 'transpose' from an M x K array stored
// K x M.
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @lds_load_column_a_gfx942(%i: index) {
    %l = tile.lds_alloc "a" : !tile.lds<[16, 32], f16>
    // expected-error@+1 {{'tile.lds_load' op reads each lane's a operand down an LDS column, which needs the transposing LDS read (ds_read_b64_tr_b16) of gfx950; gfx942 has none: store the matrix transposed in LDS and read it with 'transpose'}}
    %0 = tile.lds_load %l[%i][%i, %i] transpose : !tile.lds<[16, 32], f16> -> !tile.tile<[32, 16], f16, #tile.mfma<a, 32x32x8>>
    return
  }
}

// -----

func.func @wait_vmcnt_type(%n: i32) {
  // expected-error@+1 {{'tile.wait_vmcnt' op operand #0 must be index, but got 'i32'}}
  "tile.wait_vmcnt"(%n) : (i32) -> ()
  return
}

// -----

// k_from_acc operands: on gfx942 (32x32x8) the order is the plain one, so a
// b operand read from a K x N array still runs down a column...
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @lds_load_column_k_from_acc_gfx942(%i: index) {
    %l = tile.lds_alloc "v" : !tile.lds<[32, 32], bf16>
    // expected-error@+1 {{'tile.lds_load' op reads each lane's b operand down an LDS column, which needs the transposing LDS read (ds_read_b64_tr_b16) of gfx950; gfx942 has none: store the matrix transposed in LDS and read it with 'transpose'}}
    %0 = tile.lds_load %l[%i][%i, %i] : !tile.lds<[32, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<b, 32x32x8, k_from_acc>>
    return
  }
}

// -----

// ... and so does an a operand read with 'transpose' (V^T stored D x BN).
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @lds_load_column_a_k_from_acc_gfx942(%i: index) {
    %l = tile.lds_alloc "v" : !tile.lds<[32, 32], bf16>
    // expected-error@+1 {{'tile.lds_load' op reads each lane's a operand down an LDS column, which needs the transposing LDS read (ds_read_b64_tr_b16) of gfx950; gfx942 has none: store the matrix transposed in LDS and read it with 'transpose'}}
    %0 = tile.lds_load %l[%i][%i, %i] transpose : !tile.lds<[32, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<a, 32x32x8, k_from_acc>>
    return
  }
}

// -----

// The same reads along rows verify on gfx942, and the column read on gfx950.
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @lds_load_rows_k_from_acc_gfx942(%i: index) {
    %l = tile.lds_alloc "v" : !tile.lds<[32, 32], bf16>
    %0 = tile.lds_load %l[%i][%i, %i] transpose : !tile.lds<[32, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<b, 32x32x8, k_from_acc>>
    %1 = tile.lds_load %l[%i][%i, %i] : !tile.lds<[32, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<a, 32x32x8, k_from_acc>>
    return
  }
}
module attributes {tile.target = #tile.target<"gfx950">} {
  func.func @lds_load_column_k_from_acc_gfx950(%i: index) {
    %l = tile.lds_alloc "v" : !tile.lds<[32, 32], bf16>
    %0 = tile.lds_load %l[%i][%i, %i] : !tile.lds<[32, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<b, 32x32x16, k_from_acc>>
    return
  }
}

// -----

func.func @lds_store_element(%t: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>, %i: index) {
  %l = tile.lds_alloc "c" : !tile.lds<[32, 32], bf16>
  // expected-error@+1 {{'tile.lds_store' op the LDS buffer holds 'bf16' but the tile holds 'f32'}}
  tile.lds_store %t, %l[%i][%i, %i] : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>, !tile.lds<[32, 32], bf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// mma
//===----------------------------------------------------------------------===//

func.func @mma_a_layout(%a: !tile.tile<[8, 32], bf16, #tile.mfma<b, 32x32x8>>,
                        %b: !tile.tile<[8, 32], bf16, #tile.mfma<b, 32x32x8>>,
                        %c: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.mma' op operand a must have an #tile.mfma<a, ...> layout, not #tile.mfma<b, 32x32x8>}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[8, 32], bf16, #tile.mfma<b, 32x32x8>>, !tile.tile<[8, 32], bf16, #tile.mfma<b, 32x32x8>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @mma_b_layout(%a: !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>,
                        %b: !tile.tile<[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>,
                        %c: !tile.tile<[32, 64], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.mma' op operand b must have an #tile.mfma<b, ...> layout, not #tile.blocked<[1, 8], [8, 8]>}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>, !tile.tile<[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>> -> !tile.tile<[32, 64], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @mma_acc_layout(%a: !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>,
                          %b: !tile.tile<[8, 32], bf16, #tile.mfma<b, 32x32x8>>,
                          %c: !tile.tile<[32, 8], f32, #tile.mfma<a, 32x32x8>>) {
  // expected-error@+1 {{'tile.mma' op the accumulator must have an #tile.mfma<acc, ...> layout, not #tile.mfma<a, 32x32x8>}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>, !tile.tile<[8, 32], bf16, #tile.mfma<b, 32x32x8>> -> !tile.tile<[32, 8], f32, #tile.mfma<a, 32x32x8>>
  return
}

// -----

func.func @mma_shapes(%a: !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>,
                      %b: !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16>>,
                      %c: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.mma' op operands use different MFMA shapes: #tile.mfma<a, 32x32x8>, #tile.mfma<b, 32x32x16>, #tile.mfma<acc, 32x32x8>}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>, !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @mma_m(%a: !tile.tile<[16, 16], bf16, #tile.mfma<a, 16x16x16>>,
                 %b: !tile.tile<[16, 16], bf16, #tile.mfma<b, 16x16x16>>,
                 %c: !tile.tile<[32, 32], f32, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.mma' op operands use different MFMA shapes: #tile.mfma<a, 16x16x16>, #tile.mfma<b, 16x16x16>, #tile.mfma<acc>}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[16, 16], bf16, #tile.mfma<a, 16x16x16>>, !tile.tile<[16, 16], bf16, #tile.mfma<b, 16x16x16>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  return
}

// -----

func.func @mma_dtypes(%a: !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>,
                      %b: !tile.tile<[8, 32], f16, #tile.mfma<b, 32x32x8>>,
                      %c: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.mma' op a and b must hold the same element type; got 'bf16' and 'f16'}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>, !tile.tile<[8, 32], f16, #tile.mfma<b, 32x32x8>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @mma_input_type(%a: !tile.tile<[32, 8], f32, #tile.mfma<a, 32x32x8>>,
                          %b: !tile.tile<[8, 32], f32, #tile.mfma<b, 32x32x8>>,
                          %c: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.mma' op MFMA inputs must be bf16, f16, FP8 (f8E4M3FN, f8E5M2, f8E4M3FNUZ or f8E5M2FNUZ) or i8, not 'f32'}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 8], f32, #tile.mfma<a, 32x32x8>>, !tile.tile<[8, 32], f32, #tile.mfma<b, 32x32x8>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @mma_acc_type(%a: !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>,
                        %b: !tile.tile<[8, 32], bf16, #tile.mfma<b, 32x32x8>>,
                        %c: !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.mma' op the accumulator must be f32, not 'bf16'}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>, !tile.tile<[8, 32], bf16, #tile.mfma<b, 32x32x8>> -> !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @mma_chain(%a: !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x8>>,
                     %b: !tile.tile<[8, 32], bf16, #tile.mfma<b, 32x32x8>>,
                     %c: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.mma' op shapes do not chain: a is '!tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x8>>', b is '!tile.tile<[8, 32], bf16, #tile.mfma<b, 32x32x8>>', acc is '!tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>' (need MxK, KxN, MxN)}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x8>>, !tile.tile<[8, 32], bf16, #tile.mfma<b, 32x32x8>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

// Parameter names must agree too: BM and BN are not known to be equal.
func.func @mma_chain_params(%a: !tile.tile<[BM, 8], bf16, #tile.mfma<a>>,
                            %b: !tile.tile<[8, 32], bf16, #tile.mfma<b>>,
                            %c: !tile.tile<[BN, 32], f32, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.mma' op shapes do not chain}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[BM, 8], bf16, #tile.mfma<a>>, !tile.tile<[8, 32], bf16, #tile.mfma<b>> -> !tile.tile<[BN, 32], f32, #tile.mfma<acc>>
  return
}

// -----

module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @mma_32x32x16_gfx942(%a: !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16>>,
                                 %b: !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16>>,
                                 %c: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>) {
    // expected-error@+1 {{'tile.mma' op no MFMA of shape 32x32x16 on gfx942; it has 32x32x8 and 16x16x16}}
    %0 = tile.mma %a, %b, %c : !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16>>, !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @mma_16x16x32_gfx942(%a: !tile.tile<[16, 32], f16, #tile.mfma<a, 16x16x32>>,
                                 %b: !tile.tile<[32, 16], f16, #tile.mfma<b, 16x16x32>>,
                                 %c: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16x32>>) {
    // expected-error@+1 {{'tile.mma' op no MFMA of shape 16x16x32 on gfx942; it has 32x32x8 and 16x16x16}}
    %0 = tile.mma %a, %b, %c : !tile.tile<[16, 32], f16, #tile.mfma<a, 16x16x32>>, !tile.tile<[32, 16], f16, #tile.mfma<b, 16x16x32>> -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16x32>>
    return
  }
}

// -----

// FP8: each chip has one family of formats (gfx942 FNUZ, gfx950 OCP). A
// kernel typed in the other family is refused at the first op (or
// signature) that names the type, saying which chip has which.
module attributes {tile.target = #tile.target<"gfx942">} {
  // expected-error@+1 {{'func.func' op uses f8E4M3FN, an OCP FP8 format that gfx942 lacks: gfx942 has f8E4M3FNUZ and f8E5M2FNUZ (FNUZ), gfx950 has f8E4M3FN and f8E5M2 (OCP)}}
  func.func @fp8_ocp_on_gfx942(%p: !tile.ptr<f8E4M3FN>) {
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @bf8_ocp_on_gfx942(%b: !tile.buffer<bf16>, %i: index) {
    // expected-error@+1 {{'tile.lds_alloc' op uses f8E5M2, an OCP FP8 format that gfx942 lacks: gfx942 has f8E4M3FNUZ and f8E5M2FNUZ (FNUZ), gfx950 has f8E4M3FN and f8E5M2 (OCP)}}
    %l = tile.lds_alloc "a" : !tile.lds<[64, 64], f8E5M2>
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"gfx950">} {
  func.func @fp8_fnuz_on_gfx950(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc>>) {
    // expected-error@+1 {{'tile.convert' op uses f8E4M3FNUZ, an FNUZ FP8 format that gfx950 lacks: gfx950 has f8E4M3FN and f8E5M2 (OCP), gfx942 has f8E4M3FNUZ and f8E5M2FNUZ (FNUZ)}}
    %0 = tile.convert %x : !tile.tile<[32, 32], f32, #tile.mfma<acc>> -> !tile.tile<[32, 32], f8E4M3FNUZ, #tile.mfma<acc>>
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"gfx950">} {
  // expected-error@+1 {{'func.func' op uses f8E5M2FNUZ, an FNUZ FP8 format that gfx950 lacks}}
  func.func @bf8_fnuz_on_gfx950(%t: !tile.tile<[32, 16], f8E5M2FNUZ, #tile.mfma<a, 32x32x16>>) {
    return
  }
}

// -----

func.func @mma_fp8_families(%a: !tile.tile<[32, 16], f8E4M3FN, #tile.mfma<a, 32x32x16>>,
                            %b: !tile.tile<[16, 32], f8E5M2FNUZ, #tile.mfma<b, 32x32x16>>,
                            %c: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>) {
  // expected-error@+1 {{'tile.mma' op a and b mix FP8 families: 'f8E4M3FN' is OCP, 'f8E5M2FNUZ' is FNUZ (no chip has both)}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 16], f8E4M3FN, #tile.mfma<a, 32x32x16>>, !tile.tile<[16, 32], f8E5M2FNUZ, #tile.mfma<b, 32x32x16>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>
  return
}

// -----

func.func @mma_fp8_with_bf16(%a: !tile.tile<[32, 16], f8E4M3FN, #tile.mfma<a, 32x32x16>>,
                             %b: !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16>>,
                             %c: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>) {
  // expected-error@+1 {{'tile.mma' op a and b must hold the same element type; got 'f8E4M3FN' and 'bf16'}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 16], f8E4M3FN, #tile.mfma<a, 32x32x16>>, !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>
  return
}

// -----

// K = 8 is a 16-bit shape; FP8 MFMAs take twice the K.
func.func @mma_fp8_shape(%a: !tile.tile<[32, 8], f8E4M3FN, #tile.mfma<a, 32x32x8>>,
                         %b: !tile.tile<[8, 32], f8E4M3FN, #tile.mfma<b, 32x32x8>>,
                         %c: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.mma' op no FP8 MFMA has shape 32x32x8; the FP8 shapes are 32x32x16, 16x16x32 (gfx942, gfx950), 32x32x64, 16x16x128 (gfx950)}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 8], f8E4M3FN, #tile.mfma<a, 32x32x8>>, !tile.tile<[8, 32], f8E4M3FN, #tile.mfma<b, 32x32x8>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @mma_bf16_fp8_shape(%a: !tile.tile<[32, 64], bf16, #tile.mfma<a, 32x32x64>>,
                              %b: !tile.tile<[64, 32], bf16, #tile.mfma<b, 32x32x64>>,
                              %c: !tile.tile<[32, 32], f32, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.mma' op no 16-bit MFMA has shape 32x32x64; the 16-bit shapes are 32x32x8, 16x16x16 (gfx942, gfx950), 32x32x16, 16x16x32 (gfx950)}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 64], bf16, #tile.mfma<a, 32x32x64>>, !tile.tile<[64, 32], bf16, #tile.mfma<b, 32x32x64>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  return
}

// -----

// 32x32x32 is an i8 shape (gfx950), not a 16-bit one.
func.func @mma_bf16_i8_shape(%a: !tile.tile<[32, 32], bf16, #tile.mfma<a, 32x32x32>>,
                             %b: !tile.tile<[32, 32], bf16, #tile.mfma<b, 32x32x32>>,
                             %c: !tile.tile<[32, 32], f32, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.mma' op no 16-bit MFMA has shape 32x32x32; the 16-bit shapes are 32x32x8, 16x16x16 (gfx942, gfx950), 32x32x16, 16x16x32 (gfx950)}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 32], bf16, #tile.mfma<a, 32x32x32>>, !tile.tile<[32, 32], bf16, #tile.mfma<b, 32x32x32>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  return
}

// -----

// i8 accumulates in i32.
func.func @mma_i8_f32_acc(%a: !tile.tile<[32, 16], i8, #tile.mfma<a, 32x32x16>>,
                          %b: !tile.tile<[16, 32], i8, #tile.mfma<b, 32x32x16>>,
                          %c: !tile.tile<[32, 32], f32, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.mma' op an i8 MFMA accumulates in i32, not 'f32'}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 16], i8, #tile.mfma<a, 32x32x16>>, !tile.tile<[16, 32], i8, #tile.mfma<b, 32x32x16>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  return
}

// -----

// bf16 does not accumulate in i32.
func.func @mma_bf16_i32_acc(%a: !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>,
                            %b: !tile.tile<[8, 32], bf16, #tile.mfma<b, 32x32x8>>,
                            %c: !tile.tile<[32, 32], i32, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.mma' op the accumulator must be f32, not 'i32'}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>, !tile.tile<[8, 32], bf16, #tile.mfma<b, 32x32x8>> -> !tile.tile<[32, 32], i32, #tile.mfma<acc>>
  return
}

// -----

// gfx942's i8 MFMAs stop at K = 16 (32x32).
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @mma_i8_gfx942(%a: !tile.tile<[32, 32], i8, #tile.mfma<a, 32x32x32>>,
                           %b: !tile.tile<[32, 32], i8, #tile.mfma<b, 32x32x32>>,
                           %c: !tile.tile<[32, 32], i32, #tile.mfma<acc>>) {
    // expected-error@+1 {{'tile.mma' op no i8 MFMA of shape 32x32x32 on gfx942; it has 32x32x16 and 16x16x32}}
    %0 = tile.mma %a, %b, %c : !tile.tile<[32, 32], i8, #tile.mfma<a, 32x32x32>>, !tile.tile<[32, 32], i8, #tile.mfma<b, 32x32x32>> -> !tile.tile<[32, 32], i32, #tile.mfma<acc>>
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @mma_f8f6f4_gfx942(%a: !tile.tile<[32, 64], f8E4M3FNUZ, #tile.mfma<a, 32x32x64>>,
                               %b: !tile.tile<[64, 32], f8E4M3FNUZ, #tile.mfma<b, 32x32x64>>,
                               %c: !tile.tile<[32, 32], f32, #tile.mfma<acc>>) {
    // expected-error@+1 {{'tile.mma' op no FP8 MFMA of shape 32x32x64 on gfx942; it has 32x32x16 and 16x16x32}}
    %0 = tile.mma %a, %b, %c : !tile.tile<[32, 64], f8E4M3FNUZ, #tile.mfma<a, 32x32x64>>, !tile.tile<[64, 32], f8E4M3FNUZ, #tile.mfma<b, 32x32x64>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
    return
  }
}

// -----

// FP8 tiles carry data to MFMAs and from conversions; arithmetic on them
// (which LLVM has no FP8 type for) is refused at the op.
func.func @addf_fp8(%x: !tile.tile<[32, 32], f8E4M3FN, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.addf' op has no FP8 form: 'f8E4M3FN' tiles are MFMA operands and conversion results; tile.convert them to f32 for arithmetic}}
  %0 = tile.addf %x, %x : !tile.tile<[32, 32], f8E4M3FN, #tile.mfma<acc>>
  return
}

// -----

func.func @cmpf_fp8(%x: !tile.tile<[32, 32], f8E5M2FNUZ, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.cmpf' op has no FP8 form: tile.convert the 'f8E5M2FNUZ' tiles to f32 to compare them}}
  %0 = tile.cmpf olt, %x, %x : !tile.tile<[32, 32], f8E5M2FNUZ, #tile.mfma<acc>> -> !tile.tile<[32, 32], i1, #tile.mfma<acc>>
  return
}

// -----

func.func @reduce_fp8(%x: !tile.tile<[32, 32], f8E4M3FN, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.reduce_max' op cannot reduce elements of type 'f8E4M3FN'}}
  %0 = tile.reduce_max %x dim 1 : !tile.tile<[32, 32], f8E4M3FN, #tile.mfma<acc>> -> !tile.tile<[32, 1], f8E4M3FN, #tile.slice<1, #tile.mfma<acc>>>
  return
}

// -----

func.func @convert_fp8_to_bf16(%x: !tile.tile<[32, 32], f8E4M3FN, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.convert' op cannot convert 'f8E4M3FN' to 'bf16'; supported: f32 <-> bf16/f16, f32 <-> FP8, i32 -> f32, any type to itself}}
  %0 = tile.convert %x : !tile.tile<[32, 32], f8E4M3FN, #tile.mfma<acc>> -> !tile.tile<[32, 32], bf16, #tile.mfma<acc>>
  return
}

// -----

func.func @convert_fp8_fast_rounding(%x: !tile.tile<[32, 32], f8E4M3FN, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.convert' op 'fast_rounding' applies to f32 -> bf16/f16/FP8 only, not 'f8E4M3FN' -> 'f32'}}
  %0 = tile.convert %x fast_rounding : !tile.tile<[32, 32], f8E4M3FN, #tile.mfma<acc>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  return
}

// -----

func.func @mma_k_from_acc_b_only(%a: !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16>>,
                                  %b: !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16, k_from_acc>>,
                                  %c: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>) {
  // expected-error@+1 {{'tile.mma' op a and b must order K the same way (both or neither 'k_from_acc'): #tile.mfma<a, 32x32x16>, #tile.mfma<b, 32x32x16, k_from_acc>}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16>>, !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16, k_from_acc>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>
  return
}

// -----

// Also where the two orders coincide (32x32x8), and with the shape left to
// the target.
func.func @mma_k_from_acc_a_only(%a: !tile.tile<[32, 8], bf16, #tile.mfma<a, k_from_acc>>,
                                  %b: !tile.tile<[8, 32], bf16, #tile.mfma<b>>,
                                  %c: !tile.tile<[32, 32], f32, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.mma' op a and b must order K the same way (both or neither 'k_from_acc'): #tile.mfma<a, k_from_acc>, #tile.mfma<b>}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 8], bf16, #tile.mfma<a, k_from_acc>>, !tile.tile<[8, 32], bf16, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  return
}

// -----

// k_wide interleaves K across instances: both operands or neither (even
// where it changes nothing, as on gfx950's 32x32x16).
func.func @mma_k_wide_a_only(%a: !tile.tile<[32, 16], bf16, #tile.mfma<a, k_wide>>,
                             %b: !tile.tile<[16, 32], bf16, #tile.mfma<b>>,
                             %c: !tile.tile<[32, 32], f32, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.mma' op a and b must order K the same way (both or neither 'k_wide'): #tile.mfma<a, k_wide>, #tile.mfma<b>}}
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 16], bf16, #tile.mfma<a, k_wide>>, !tile.tile<[16, 32], bf16, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

func.func @exp2_type(%x: !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.exp2' op exp2 works on f32 tiles, not 'bf16'}}
  %0 = tile.exp2 %x : !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @binary_types(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>,
                        %y: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>) {
  // expected-error@+1 {{'tile.addf' op requires the same type for all operands and results}}
  %0 = "tile.addf"(%x, %y) : (!tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>, !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>) -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @convert_layout(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.convert' op changes only the element type; shapes and layouts must match: '!tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>' vs '!tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x16>>'}}
  %0 = tile.convert %x : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x16>>
  return
}

// -----

func.func @convert_shape(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.convert' op changes only the element type; shapes and layouts must match}}
  %0 = tile.convert %x : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[64, 32], bf16, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @convert_types(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.convert' op cannot convert 'f32' to 'i32'; supported: f32 <-> bf16/f16, f32 <-> FP8, i32 -> f32, any type to itself}}
  %0 = tile.convert %x : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @convert_ties_any_alone(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.convert' op 'ties_any' applies to f32 -> bf16/f16 with 'fast_rounding' only, not 'f32' -> 'bf16' without it}}
  %0 = tile.convert %x ties_any : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @convert_ties_any_fp8(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.convert' op 'ties_any' applies to f32 -> bf16/f16 with 'fast_rounding' only, not 'f32' -> 'f8E4M3FN'}}
  %0 = tile.convert %x fast_rounding ties_any : !tile.tile<[32, 32], f32, #tile.mfma<acc>> -> !tile.tile<[32, 32], f8E4M3FN, #tile.mfma<acc>>
  return
}

// -----

func.func @convert_fast_rounding(%x: !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.convert' op 'fast_rounding' applies to f32 -> bf16/f16/FP8 only, not 'bf16' -> 'f32'}}
  %0 = tile.convert %x fast_rounding : !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @convert_16bit(%x: !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.convert' op cannot convert 'bf16' to 'f16'; supported: f32 <-> bf16/f16, f32 <-> FP8, i32 -> f32, any type to itself}}
  %0 = tile.convert %x : !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 32], f16, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @splat_type(%f: f16) {
  // expected-error@+1 {{'tile.splat' op splats a 'f16' into a tile of 'f32'}}
  %0 = tile.splat %f : f16 -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @iota_type() {
  // expected-error@+1 {{'tile.iota' op produces i32 tiles}}
  %0 = tile.iota 0 : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @iota_dim() {
  // expected-error@+1 {{'tile.iota' op attribute 'dim' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 1}}
  %0 = tile.iota 2 : !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @cmpi_float(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.cmpi' op compares integer tiles, not 'f32'}}
  %0 = tile.cmpi slt, %x, %x : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 32], i1, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @cmpi_result(%x: !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.cmpi' op result must be an i1 tile of the operands' shape and layout}}
  %0 = tile.cmpi slt, %x, %x : !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @cmpi_result_layout(%x: !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.cmpi' op result must be an i1 tile of the operands' shape and layout}}
  %0 = tile.cmpi slt, %x, %x : !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 64], i1, #tile.blocked<[1, 8], [8, 8]>>
  return
}

// -----

func.func @select_condition(%m: !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>>,
                            %x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.select' op the condition must be an i1 tile of the result's shape and layout}}
  %0 = tile.select %m, %x, %x : !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>>, !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @select_condition_shape(%m: !tile.tile<[64, 32], i1, #tile.mfma<acc, 32x32x8>>,
                                  %x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.select' op the condition must be an i1 tile of the result's shape and layout}}
  %0 = tile.select %m, %x, %x : !tile.tile<[64, 32], i1, #tile.mfma<acc, 32x32x8>>, !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @log2_type(%x: !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.log2' op log2 works on f32 tiles, not 'bf16'}}
  %0 = tile.log2 %x : !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @any_type(%x: !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.any' op takes an i1 tile, not a tile of 'i32'}}
  %0 = tile.any %x : !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @cmpf_int(%x: !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.cmpf' op compares float tiles, not 'i32'}}
  %0 = tile.cmpf olt, %x, %x : !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 32], i1, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @cmpf_result_type(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.cmpf' op result must be an i1 tile of the operands' shape and layout}}
  %0 = tile.cmpf olt, %x, %x : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @cmpf_result_layout(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.cmpf' op result must be an i1 tile of the operands' shape and layout}}
  %0 = tile.cmpf olt, %x, %x : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 32], i1, #tile.mfma<acc, 16x16x16>>
  return
}

// -----

func.func @cmpf_operands(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>, %y: !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16x16>>) {
  // expected-error@+1 {{'tile.cmpf' op requires all operands to have the same type}}
  %0 = "tile.cmpf"(%x, %y) <{predicate = 2 : i64}> : (!tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>, !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16x16>>) -> !tile.tile<[32, 32], i1, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @cmpf_predicate(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, true]}}
  %0 = tile.cmpf sge, %x, %x : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 32], i1, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @divf_types(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>,
                      %y: !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16x16>>) {
  // expected-error@+1 {{'tile.divf' op requires the same type for all operands and results}}
  %0 = "tile.divf"(%x, %y) : (!tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>, !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16x16>>) -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @fma_types(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>,
                     %y: !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16x16>>) {
  // expected-error@+1 {{'tile.fma' op requires the same type for all operands and results}}
  %0 = "tile.fma"(%x, %x, %y) : (!tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>, !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>, !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16x16>>) -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Reductions, broadcast, relayout
//===----------------------------------------------------------------------===//

func.func @reduce_slice(%x: !tile.tile<[32, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x8>>>) {
  // expected-error@+1 {{'tile.reduce_max' op reduces MFMA or blocked tiles, not a slice}}
  %0 = tile.reduce_max %x dim 1 : !tile.tile<[32, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x8>>> -> !tile.tile<[32, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x8>>>
  return
}

// -----

func.func @reduce_result_layout(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.reduce_max' op result layout must be #tile.slice<1, #tile.mfma<acc, 32x32x8>>}}
  %0 = tile.reduce_max %x dim 1 : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[1, 32], f32, #tile.slice<0, #tile.mfma<acc, 32x32x8>>>
  return
}

// -----

func.func @reduce_result_parent(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.reduce_sum' op result layout must be #tile.slice<0, #tile.mfma<acc, 32x32x8>>}}
  %0 = tile.reduce_sum %x dim 0 : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[1, 32], f32, #tile.slice<0, #tile.mfma<acc, 32x32x16>>>
  return
}

// -----

func.func @reduce_result_not_slice(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.reduce_sum' op result layout must be #tile.slice<1, #tile.mfma<acc, 32x32x8>>}}
  %0 = tile.reduce_sum %x dim 1 : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @reduce_result_shape(%x: !tile.tile<[64, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.reduce_max' op result shape must collapse dimension 1 of '!tile.tile<[64, 32], f32, #tile.mfma<acc, 32x32x8>>' to 1}}
  %0 = tile.reduce_max %x dim 1 : !tile.tile<[64, 32], f32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x8>>>
  return
}

// -----

func.func @reduce_element(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.reduce_sum' op keeps the element type}}
  %0 = tile.reduce_sum %x dim 1 : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 1], bf16, #tile.slice<1, #tile.mfma<acc, 32x32x8>>>
  return
}

// -----

func.func @reduce_max_int(%x: !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.reduce_max' op cannot reduce elements of type 'i32'}}
  %0 = tile.reduce_max %x dim 1 : !tile.tile<[32, 32], i32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 1], i32, #tile.slice<1, #tile.mfma<acc, 32x32x8>>>
  return
}

// -----

func.func @broadcast_not_slice(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.broadcast' op broadcasts a #tile.slice tile, not #tile.mfma<acc, 32x32x8>}}
  %0 = tile.broadcast %x : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @broadcast_parent(%x: !tile.tile<[32, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x8>>>) {
  // expected-error@+1 {{'tile.broadcast' op result layout must be the slice's parent #tile.mfma<acc, 32x32x8>}}
  %0 = tile.broadcast %x : !tile.tile<[32, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x8>>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>
  return
}

// -----

func.func @broadcast_shape(%x: !tile.tile<[32, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x8>>>) {
  // expected-error@+1 {{'tile.broadcast' op result must keep dimension 0 of '!tile.tile<[32, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x8>>>'}}
  %0 = tile.broadcast %x : !tile.tile<[32, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x8>>> -> !tile.tile<[64, 32], f32, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @broadcast_element(%x: !tile.tile<[1, 32], f32, #tile.slice<0, #tile.mfma<acc, 32x32x8>>>) {
  // expected-error@+1 {{'tile.broadcast' op keeps the element type}}
  %0 = tile.broadcast %x : !tile.tile<[1, 32], f32, #tile.slice<0, #tile.mfma<acc, 32x32x8>>> -> !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>>
  return
}

// -----

func.func @relayout_element(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.relayout' op keeps the element type}}
  %0 = tile.relayout %x : !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 32], bf16, #tile.mfma<a, 32x32x8>>
  return
}

// -----

func.func @relayout_registers(%x: !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>>) {
  // expected-error@+1 {{'tile.relayout' op reinterprets 16 registers per lane as 4; the counts must match}}
  %0 = tile.relayout %x : !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Scheduling
//===----------------------------------------------------------------------===//

func.func @interleave_empty() {
  // expected-error@+1 {{'tile.sched_interleave' op needs at least one group in its pattern}}
  tile.sched_interleave [] x 4
  return
}

// -----

func.func @interleave_count() {
  // expected-error@+1 {{'tile.sched_interleave' op group counts must be positive}}
  tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<valu, 0>] x 4
  return
}

// -----

func.func @interleave_repeat() {
  // expected-error@+1 {{'tile.sched_interleave' op attribute 'repeat' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1}}
  tile.sched_interleave [#tile.group<mfma, 1>] x 0
  return
}

// -----

func.func @setprio_range() {
  // expected-error@+1 {{'tile.setprio' op attribute 'priority' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3}}
  tile.setprio 4
  return
}

// -----

func.func @program_id_range() {
  // expected-error@+1 {{'tile.program_id' op attribute 'dim' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 2}}
  %0 = tile.program_id 3
  return
}

// -----

// Regression (bug 4): the documented bare-keyword form is the syntax; a
// class name it does not know is reported by name.
func.func @sched_barrier_kind() {
  // expected-error@+1 {{unknown instruction class 'vector'; expected alu, valu, salu, mfma, vmem, vmem_read, vmem_write, ds, ds_read, ds_write or trans}}
  tile.sched_barrier [valu, vector]
  return
}

// -----

func.func @stagger_yield_count(%lagging: i1) {
  // expected-error@+1 {{'tile.stagger' op yields () but returns ('f32')}}
  %0 = tile.stagger %lagging -> (f32) {
    tile.barrier
  }
  return
}

// -----

func.func @stagger_yield_type(%lagging: i1, %x: f32) {
  // expected-error@+1 {{'tile.stagger' op yields ('f32') but returns ('i32')}}
  %0 = tile.stagger %lagging -> (i32) {
    tile.yield %x : f32
  }
  return
}

// -----

func.func @stagger_yield_extra(%lagging: i1, %x: f32) {
  // expected-error@+1 {{'tile.stagger' op yields ('f32') but returns ()}}
  tile.stagger %lagging {
    tile.yield %x : f32
  }
  return
}

// -----

func.func @yield_parent(%x: f32) -> f32 {
  // expected-error@+1 {{'tile.yield' op expects parent op 'tile.stagger'}}
  tile.yield %x : f32
}

// -----

// Bug 10: float arithmetic needs float tiles, integer arithmetic integer ones.
func.func @addf_on_ints(%a: !tile.tile<[32, 32], i32, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.addf' op works on float tiles, not tiles of 'i32'}}
  %0 = tile.addf %a, %a : !tile.tile<[32, 32], i32, #tile.mfma<acc>>
  return
}

// -----

func.func @addi_on_floats(%a: !tile.tile<[32, 32], f32, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.addi' op works on integer tiles, not tiles of 'f32'}}
  %0 = tile.addi %a, %a : !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  return
}

// -----

func.func @fma_on_ints(%a: !tile.tile<[32, 32], i32, #tile.mfma<acc>>) {
  // expected-error@+1 {{'tile.fma' op works on float tiles, not tiles of 'i32'}}
  %0 = tile.fma %a, %a, %a : !tile.tile<[32, 32], i32, #tile.mfma<acc>>
  return
}

// -----

// The `of` list: what -D accepts, not empty, and holding the default.
// expected-error@+1 {{'tile.type_param_decl' op element-type parameters are bf16, f16, f32, an FP8 format, i8 or i32 (as -D accepts); the allowed type 'i16' is not}}
tile.type_param_decl @DT = bf16 of [bf16, i16]

// -----

// expected-error@+1 {{'tile.type_param_decl' op the list of allowed types is empty}}
tile.type_param_decl @DT of []

// -----

// expected-error@+1 {{'tile.type_param_decl' op the default 'f32' is not one of the allowed types, bf16 or f16}}
tile.type_param_decl @DT = f32 of [bf16, f16]

// -----

// Bug 3: a type parameter's default is checked as -D values are.
// expected-error@+1 {{'tile.type_param_decl' op element-type parameters are bf16, f16, f32, an FP8 format, i8 or i32 (as -D accepts); the default 'i16' is not}}
tile.type_param_decl @DT = i16

// -----

// i32 is a parameter type, but not one of the list's without `of`.
// expected-error@+1 {{'tile.type_param_decl' op the default 'i32' is not one of the allowed types, bf16, f16 or f32}}
tile.type_param_decl @DT = i32

// -----

// Bug 13: k_from_acc once, after the shape.
// expected-error@+1 {{'k_from_acc' given twice}}
func.func @twice(%a: !tile.tile<[32, 16], bf16, #tile.mfma<b, 32x32x16, k_from_acc, k_from_acc>>) {
  return
}

// -----

// expected-error@+1 {{the MFMA shape comes before 'k_from_acc'}}
func.func @order(%a: !tile.tile<[32, 16], bf16, #tile.mfma<b, k_from_acc, 32x32x16>>) {
  return
}

// -----

// expected-error@+1 {{no MFMA has shape 32x32x128; supported: 32x32x8, 16x16x16 (gfx942, gfx950), 32x32x16, 16x16x32 (gfx950) for 16-bit inputs, 32x32x16, 16x16x32 (gfx942, gfx950), 32x32x64, 16x16x128 (gfx950) for FP8, 32x32x16, 16x16x32 (gfx942, gfx950), 32x32x32, 16x16x64 (gfx950) for i8}}
func.func @mma_shape_no_chip_has(%a: !tile.tile<[32, 128], bf16, #tile.mfma<a, 32x32x128>>) {
  return
}

// -----

// The chip travels as one typed attribute; the retired spelling is refused,
// not ignored.
// expected-error@+1 {{'tile.chip' is now 'tile.target = #tile.target<"gfx950">'}}
module attributes {tile.chip = "gfx950"} {
}

// -----

// expected-error@+1 {{unsupported chip 'gfx90a'; supported: gfx942, gfx950}}
module attributes {tile.target = #tile.target<"gfx90a">} {
}

// -----

module {
  // expected-error@+1 {{'tile.target' must be a #tile.target<"CHIP"> on the module}}
  func.func @f() attributes {tile.target = #tile.target<"gfx950">} {
    return
  }
}

// -----

//===----------------------------------------------------------------------===//
// Flags
//===----------------------------------------------------------------------===//

func.func @flag_test_not_words(%flags: !tile.ptr<i64>, %i: index, %n: index, %v: i32) -> i1 {
  // expected-error@+1 {{'tile.flag_test' op flags are i32 words, not 'i64'}}
  %t = tile.flag_test %flags[%i] count %n ge %v agent : !tile.ptr<i64>
  return %t : i1
}

// -----

func.func @flag_test_too_many(%flags: !tile.ptr<i32>, %i: index, %v: i32) -> i1 {
  %n = arith.constant 65 : index
  // expected-error@+1 {{'tile.flag_test' op tests 1 to 64 flag words (one per lane); count is 65}}
  %t = tile.flag_test %flags[%i] count %n ge %v agent : !tile.ptr<i32>
  return %t : i1
}

// -----

func.func @flag_test_none(%flags: !tile.ptr<i32>, %i: index, %v: i32) -> i1 {
  %n = arith.constant 0 : index
  // expected-error@+1 {{'tile.flag_test' op tests 1 to 64 flag words (one per lane); count is 0}}
  %t = tile.flag_test %flags[%i] count %n ge %v agent : !tile.ptr<i32>
  return %t : i1
}

// -----

func.func @flag_wait_not_words(%flags: !tile.ptr<f32>, %i: index, %v: i32) {
  // expected-error@+1 {{'tile.flag_wait' op flags are i32 words, not 'f32'}}
  tile.flag_wait %flags[%i] ge %v agent : !tile.ptr<f32>
  return
}

// -----

// Per-chip defaults name chips and hold the parameter's type.
// expected-error@+1 {{'tile.param_decl' op 'on' names chips (gfx942, gfx950); got 'gfx90a'}}
tile.param_decl @V_TR : i1 = true on {gfx90a = false}

// -----

// expected-error@+1 {{'tile.param_decl' op the default on gfx942 4 : i64 does not have the parameter's type i1}}
tile.param_decl @V_TR : i1 = true on {gfx942 = 4}

// -----

// expected-error@+1 {{'tile.type_param_decl' op the default on gfx942 f16 is not one of the allowed types, f8E4M3FN or f8E4M3FNUZ}}
tile.type_param_decl @DT = f8E4M3FN of [f8E4M3FN, f8E4M3FNUZ] on {gfx942 = f16}

// -----

// expected-error@+1 {{'tile.param_decl' op a derived parameter (product) has no per-chip defaults}}
tile.param_decl @BM : i64 on {gfx942 = 4} product [64, 2]
