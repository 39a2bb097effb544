// RUN: split-file %s %t
//
// Errors in the pass options have no place in the kernel source: they are
// reported without a location. Errors about one parameter's value are
// reported on its declaration.
// RUN: not kcc-opt %t/params.mlir --tile-specialize="chip=gfx942 params=CAUSAL=1,XX=3" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not kcc-opt %t/empty.mlir --tile-specialize="chip=gfx942 params=XX=3" 2>&1 | FileCheck %s --check-prefix=UNKNOWN-NONE
// RUN: not kcc-opt %t/params.mlir --tile-specialize="chip=gfx942 params=CAUSAL=1,CAUSAL=0" 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not kcc-opt %t/params.mlir --tile-specialize="chip=gfx942 params=CAUSAL" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not kcc-opt %t/params.mlir --tile-specialize="chip=gfx90a params=CAUSAL=1" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not kcc-opt %t/params.mlir --tile-specialize="params=CAUSAL=1" 2>&1 | FileCheck %s --check-prefix=NOCHIP
// RUN: kcc-opt %t/nodefault.mlir --tile-specialize="chip=gfx942 params=OUT=f32" -verify-diagnostics
// RUN: kcc-opt %t/nodefault-type.mlir --tile-specialize="chip=gfx942 params=CAUSAL=1" -verify-diagnostics
// RUN: kcc-opt %t/badflag.mlir --tile-specialize="chip=gfx942 params=CAUSAL=2" -verify-diagnostics
// RUN: kcc-opt %t/badint.mlir --tile-specialize="chip=gfx950 params=BM=abc" -verify-diagnostics
// RUN: kcc-opt %t/badtype.mlir --tile-specialize="chip=gfx942 params=OUT=i32" -verify-diagnostics
//
// Errors located at the op whose type the bound values break.
// RUN: kcc-opt %t/undeclared.mlir --tile-specialize=chip=gfx942 -split-input-file -verify-diagnostics
// RUN: kcc-opt %t/divide.mlir --tile-specialize="chip=gfx942 params=BM=48" -verify-diagnostics
// RUN: kcc-opt %t/divide.mlir --tile-specialize="chip=gfx942 params=BM=96" | FileCheck %t/divide.mlir

// UNKNOWN: <unknown>:0: error: unknown parameter 'XX'; this kernel declares: BM, CAUSAL, DT, OUT
// UNKNOWN-NONE: <unknown>:0: error: unknown parameter 'XX'; this kernel declares: none
// TWICE: <unknown>:0: error: parameter 'CAUSAL' is given twice
// SYNTAX: <unknown>:0: error: parameter 'CAUSAL' must be written NAME=VALUE
// CHIP: <unknown>:0: error: unsupported chip 'gfx90a'; supported: gfx942, gfx950
// NOCHIP: <unknown>:0: error: no target chip given; supported: gfx942, gfx950

//--- params.mlir
tile.param_decl @BM : i64 = 64
tile.param_decl @CAUSAL : i1
tile.type_param_decl @DT = bf16
tile.type_param_decl @OUT = f32
func.func @k(%f: f32) {
  %0 = tile.splat %f : f32 -> !tile.tile<[BM, 32], f32, #tile.mfma<acc>>
  return
}

//--- empty.mlir
func.func @k() {
  return
}

//--- nodefault.mlir
tile.param_decl @BM : i64 = 64
// expected-error@+1 {{parameter 'CAUSAL' has no default; give it a value (-D CAUSAL=...)}}
tile.param_decl @CAUSAL : i1
tile.type_param_decl @OUT

//--- nodefault-type.mlir
tile.param_decl @CAUSAL : i1
tile.type_param_decl @DT = bf16
// expected-error@+1 {{type parameter 'OUT' has no default; give it a value (-D OUT=bf16)}}
tile.type_param_decl @OUT

//--- badflag.mlir
// expected-error@+1 {{parameter 'CAUSAL' is 'i1'; '2' is not a valid value}}
tile.param_decl @CAUSAL : i1

//--- badint.mlir
// expected-error@+1 {{parameter 'BM' is 'i64'; 'abc' is not a valid value}}
tile.param_decl @BM : i64 = 64

//--- badtype.mlir
// expected-error@+1 {{type parameter 'OUT' must be bf16, f16 or f32, not 'i32'}}
tile.type_param_decl @OUT = f32

//--- undeclared.mlir
tile.param_decl @BM : i64 = 64
func.func @dim(%f: f32) {
  // expected-error@+1 {{'tile.splat' op uses undeclared parameter 'BN'}}
  %0 = tile.splat %f : f32 -> !tile.tile<[BM, BN], f32, #tile.mfma<acc>>
  return
}

// -----

func.func @dtype() {
  // expected-error@+1 {{'tile.lds_alloc' op uses undeclared parameter 'DT'}}
  %0 = tile.lds_alloc "a" : !tile.lds<[64, 64], !tile.dtype<"DT">>
  return
}

//--- divide.mlir
// A 32x32 accumulator tile of BM rows: BM = 96 is fine, BM = 48 is not.
tile.param_decl @BM : i64 = 64
// CHECK-LABEL: func.func @k(
// CHECK: tile.splat %{{.*}} : f32 -> <[96, 32], f32, #tile.mfma<acc, 32x32x8>>
func.func @k(%f: f32) -> !tile.tile<[BM, 32], f32, #tile.mfma<acc>> {
  // expected-error@+1 {{'tile.splat' op with the bound parameters, tile shape 48x32 is not a multiple of the layout's 32x32}}
  %0 = tile.splat %f : f32 -> !tile.tile<[BM, 32], f32, #tile.mfma<acc>>
  return %0 : !tile.tile<[BM, 32], f32, #tile.mfma<acc>>
}
