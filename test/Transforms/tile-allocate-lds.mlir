// RUN: split-file %s %t
// RUN: kcc-opt %t/alloc.mlir --tile-specialize=chip=gfx942 --tile-allocate-lds | FileCheck %t/alloc.mlir
// RUN: kcc-opt %t/alloc.mlir --tile-specialize=chip=gfx950 --tile-allocate-lds | FileCheck %t/alloc.mlir
//
// 64 KiB + 16 bytes: over gfx942's 64 KiB per workgroup, within gfx950's 160 KiB.
// RUN: kcc-opt %t/limit.mlir --tile-specialize=chip=gfx942 --tile-allocate-lds -verify-diagnostics
// RUN: kcc-opt %t/limit.mlir --tile-specialize=chip=gfx950 --tile-allocate-lds | FileCheck %t/limit.mlir --check-prefix=GFX950
//
// RUN: kcc-opt %t/nochip.mlir --tile-allocate-lds -verify-diagnostics
// RUN: kcc-opt %t/unbound.mlir --tile-allocate-lds -split-input-file -verify-diagnostics

//--- alloc.mlir
// Buffers are placed in program order, each at the next 16-byte boundary,
// with one alias scope each; the kernel records its total.
tile.param_decl @BM : i64 = 64
tile.param_decl @PAD : i64 = 8

// CHECK-LABEL: func.func @kernel()
// CHECK-SAME: tile.lds_bytes = 20016 : i64
// 3 x 3 bf16 = 18 bytes.
// CHECK: tile.lds_alloc "a" {offset = 0 : i64, scope = 0 : i64} : <[3, 3], bf16>
// 64 rows of (64 + 8) bf16, two stages = 18432 bytes.
// CHECK: tile.lds_alloc "b" {offset = 32 : i64, scope = 1 : i64} : <[64, 64], bf16, pad = 8, stages = 2>
// CHECK: tile.lds_alloc "c" {offset = 18464 : i64, scope = 2 : i64} : <[1, 1], f32>
// 16 x 16 f16, three stages = 1536 bytes.
// CHECK: tile.lds_alloc "d" {offset = 18480 : i64, scope = 3 : i64} : <[16, 16], f16, stages = 3>
func.func @kernel() attributes {tile.kernel} {
  %a = tile.lds_alloc "a" : !tile.lds<[3, 3], bf16>
  %b = tile.lds_alloc "b" : !tile.lds<[BM, 64], bf16, pad = 8, stages = 2>
  %c = tile.lds_alloc "c" : !tile.lds<[1, 1], f32>
  %d = tile.lds_alloc "d" : !tile.lds<[16, 16], f16, stages = 3>
  return
}

// Each function starts again at offset 0 and scope 0; nested regions count.
// CHECK-LABEL: func.func @second(
// CHECK-SAME: tile.lds_bytes = 65536 : i64
// CHECK: tile.lds_alloc "x" {offset = 0 : i64, scope = 0 : i64} : <[64, 128], f32>
// CHECK: scf.if
// CHECK: tile.lds_alloc "y" {offset = 32768 : i64, scope = 1 : i64} : <[64, 128], f32>
func.func @second(%c: i1) {
  %x = tile.lds_alloc "x" : !tile.lds<[64, 128], f32>
  scf.if %c {
    %y = tile.lds_alloc "y" : !tile.lds<[64, 128], f32>
  }
  return
}

// A parameter-named pad is bound before placement: 32 rows of (64 + 8) bf16
// is 4608 bytes.
// CHECK-LABEL: func.func @named_pad()
// CHECK-SAME: tile.lds_bytes = 5120 : i64
// CHECK: tile.lds_alloc "k" {offset = 0 : i64, scope = 0 : i64} : <[32, 64], bf16, pad = 8>
// CHECK: tile.lds_alloc "v" {offset = 4608 : i64, scope = 1 : i64} : <[16, 16], bf16>
func.func @named_pad() {
  %k = tile.lds_alloc "k" : !tile.lds<[32, 64], bf16, pad = PAD>
  %v = tile.lds_alloc "v" : !tile.lds<[16, 16], bf16>
  return
}

// CHECK-LABEL: func.func @none()
// CHECK-SAME: tile.lds_bytes = 0 : i64
func.func @none() {
  return
}

//--- limit.mlir
// GFX950-LABEL: func.func @big()
// GFX950-SAME: tile.lds_bytes = 65552 : i64
// GFX950: tile.lds_alloc "a" {offset = 0 : i64, scope = 0 : i64} : <[128, 128], f32>
// GFX950: tile.lds_alloc "b" {offset = 65536 : i64, scope = 1 : i64} : <[1, 4], f32>
// expected-error@+1 {{LDS buffers of kernel 'big' need 65552 bytes; gfx942 gives a workgroup 65536}}
func.func @big() {
  // expected-note@+1 {{'a' takes 65536 bytes}}
  %a = tile.lds_alloc "a" : !tile.lds<[128, 128], f32>
  // expected-note@+1 {{'b' takes 16 bytes}}
  %b = tile.lds_alloc "b" : !tile.lds<[1, 4], f32>
  return
}

//--- nochip.mlir
// expected-error@+1 {{the module names no target chip; run tile-specialize first}}
module {
  func.func @k() {
    %a = tile.lds_alloc "a" : !tile.lds<[64, 64], bf16>
    return
  }
}

//--- unbound.mlir
module attributes {tile.target = #tile.target<"gfx950">} {
  func.func @k() {
    // expected-error@+1 {{'tile.lds_alloc' op has unbound parameters; run tile-specialize first}}
    %a = tile.lds_alloc "a" : !tile.lds<[BM, 64], bf16>
    return
  }
}

// -----

// A pad named by a parameter is unbound too.
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @k() {
    // expected-error@+1 {{'tile.lds_alloc' op has unbound parameters; run tile-specialize first}}
    %a = tile.lds_alloc "a" : !tile.lds<[64, 64], bf16, pad = PAD>
    return
  }
}
