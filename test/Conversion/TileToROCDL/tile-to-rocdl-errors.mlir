// RUN: kcc-opt %s -split-input-file --convert-tile-to-rocdl -verify-diagnostics

// What the lowering needs from its input (a chip, bound parameters, expanded
// scheduling constructs, placed LDS buffers, resolved tile types): each
// missing step is reported at the op that needs it.

// expected-error@+1 {{the module names no target chip (no tile.target); run tile-specialize first}}
module {
  func.func @k() {
    return
  }
}

// -----

// expected-error@+1 {{unsupported chip 'gfx90a'; supported: gfx942, gfx950}}
module attributes {tile.target = #tile.target<"gfx90a">} {
  func.func @k() {
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"gfx942">} {
  // expected-error@+1 {{'tile.param_decl' op is a compile-time parameter; run tile-specialize before lowering}}
  tile.param_decl @BM : i64 = 64
}

// -----

module attributes {tile.target = #tile.target<"gfx942">} {
  // expected-error@+1 {{'tile.type_param_decl' op is a compile-time parameter; run tile-specialize before lowering}}
  tile.type_param_decl @DT = bf16
}

// -----

module attributes {tile.target = #tile.target<"gfx950">} {
  func.func @k() -> i1 {
    // expected-error@+1 {{'tile.param' op is a compile-time parameter; run tile-specialize before lowering}}
    %0 = tile.param @CAUSAL : i1
    return %0 : i1
  }
  tile.param_decl @CAUSAL : i1
}

// -----

module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @k() {
    // expected-error@+1 {{'tile.sched_interleave' op must be expanded by tile-expand-schedule before lowering}}
    tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<valu, 2>] x 4
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"gfx950">} {
  func.func @k(%lagging: i1) {
    // expected-error@+1 {{'tile.stagger' op must be expanded by tile-expand-schedule before lowering}}
    tile.stagger %lagging {
      tile.barrier
    }
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @k() {
    // expected-error@+1 {{'tile.lds_alloc' op has no LDS placement; run tile-allocate-lds before lowering}}
    %0 = tile.lds_alloc "a" : !tile.lds<[64, 64], bf16>
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @k(%f: f32) {
    // expected-error@+1 {{'tile.splat' op cannot be lowered: the tile type has unbound parameters}}
    %0 = tile.splat %f : f32 -> !tile.tile<[BM, 32], f32, #tile.mfma<acc, 32x32x8>>
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @k(%f: f32) {
    // expected-error@+1 {{'tile.splat' op cannot be lowered: the tile type has unbound parameters}}
    %0 = tile.splat %f : f32 -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
    return
  }
}

// -----

// Four waves cannot share the two DMA lines of a 512-byte stage.
// Regression (bug 8): reported once, before the conversion starts (no
// "failed to legalize operation" after it).
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @k(%b: !tile.buffer<bf16>, %i: index) attributes {tile.kernel, tile.block_size = 256 : i64, tile.lds_bytes = 512 : i64} {
    %0 = tile.lds_alloc "a" {offset = 0 : i64, scope = 0 : i64} : !tile.lds<[8, 32], bf16>
    // expected-error@+1 {{'tile.async_copy' op the stage is 2 DMA lines of 256 bytes, which do not split evenly over the workgroup's 4 waves}}
    tile.async_copy %b[%i, %i] stride %i -> %0[%i] : !tile.buffer<bf16>, !tile.lds<[8, 32], bf16>
    return
  }
}

// -----

// Regression (bug 9): a buffer with an offset in a function without
// tile.lds_bytes (tile-allocate-lds did not run over it) made an
// llvm.mlir.addressof of a global that was never created.
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @k(%i: index) -> !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>> {
    // expected-error@+1 {{'tile.lds_alloc' op has no LDS placement; run tile-allocate-lds before lowering}}
    %0 = tile.lds_alloc "a" {offset = 0 : i64, scope = 0 : i64} : !tile.lds<[32, 8], bf16>
    %1 = tile.lds_load %0[%i][%i, %i] : !tile.lds<[32, 8], bf16> -> !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>
    return %1 : !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>
  }
}

// -----

// 'waves' replaces the workgroup's wave count: 4 lines over 3 waves.
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @k(%b: !tile.buffer<bf16>, %i: index) attributes {tile.kernel, tile.block_size = 256 : i64, tile.lds_bytes = 1024 : i64} {
    %0 = tile.lds_alloc "a" {offset = 0 : i64, scope = 0 : i64} : !tile.lds<[16, 32], bf16>
    %c3 = arith.constant 3 : index
    // expected-error@+1 {{'tile.async_copy' op the stage is 4 DMA lines of 256 bytes, which do not split evenly over the workgroup's 3 waves}}
    tile.async_copy %b[%i, %i] stride %i -> %0[%i] waves %c3 : !tile.buffer<bf16>, !tile.lds<[16, 32], bf16>
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"gfx950">} {
  func.func @k(%b: !tile.buffer<bf16>, %i: index, %w: index) attributes {tile.kernel, tile.block_size = 256 : i64, tile.lds_bytes = 1024 : i64} {
    %0 = tile.lds_alloc "a" {offset = 0 : i64, scope = 0 : i64} : !tile.lds<[16, 32], bf16>
    // expected-error@+1 {{'tile.async_copy' op 'waves' must be a compile-time constant after specialisation}}
    tile.async_copy %b[%i, %i] stride %i -> %0[%i] waves %w : !tile.buffer<bf16>, !tile.lds<[16, 32], bf16>
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"gfx950">} {
  func.func @k(%lagging: i1, %x: f32) -> f32 {
    // expected-error@+1 {{'tile.stagger' op must be expanded by tile-expand-schedule before lowering}}
    %0 = tile.stagger %lagging -> (f32) {
      tile.yield %x : f32
    }
    return %0 : f32
  }
}

// -----

// A buffer stored in a tile's reading order is filled by DMA only: a
// register store would have to scatter each lane's elements over the lines.
module attributes {tile.target = #tile.target<"gfx950">} {
  func.func @k(%t: !tile.tile<[64, 128], bf16, #tile.mfma<a, 32x32x16>>, %i: index) attributes {tile.kernel, tile.block_size = 64 : i64, tile.lds_bytes = 16384 : i64} {
    %0 = tile.lds_alloc "k" {offset = 0 : i64, scope = 0 : i64} : !tile.lds<[64, 128], bf16, order = !tile.tile<[64, 128], bf16, #tile.mfma<a, 32x32x16>>>
    // expected-error@+1 {{'tile.lds_store' op stores into a buffer stored in the order of '!tile.tile<[64, 128], bf16, #tile.mfma<a, 32x32x16>>', which only tile.async_copy fills}}
    tile.lds_store %t, %0[%i][%i, %i] : !tile.tile<[64, 128], bf16, #tile.mfma<a, 32x32x16>>, !tile.lds<[64, 128], bf16, order = !tile.tile<[64, 128], bf16, #tile.mfma<a, 32x32x16>>>
    return
  }
}

// -----

// The 32x32x8 a operand reads 8 bytes a lane: a 16-byte DMA lane would
// fetch two lanes' elements, which lie in different rows of memory.
module attributes {tile.target = #tile.target<"gfx950">} {
  func.func @k(%b: !tile.buffer<bf16>, %i: index) attributes {tile.kernel, tile.block_size = 64 : i64, tile.lds_bytes = 16384 : i64} {
    %0 = tile.lds_alloc "k" {offset = 0 : i64, scope = 0 : i64} : !tile.lds<[64, 128], bf16, order = !tile.tile<[64, 128], bf16, #tile.mfma<a, 32x32x8>>>
    // expected-error@+1 {{'tile.async_copy' op cannot fill a buffer stored in the order of its tile with 16-byte DMA lanes: the 16 bytes at LDS offset 0 are not adjacent in memory; use a narrower 'width'}}
    tile.async_copy inbounds %b[%i, %i] stride %i -> %0[%i] {width = 16 : i64} : !tile.buffer<bf16>, !tile.lds<[64, 128], bf16, order = !tile.tile<[64, 128], bf16, #tile.mfma<a, 32x32x8>>>
    return
  }
}
