// RUN: split-file %s %t
//
// Errors in the pass options have no place in the kernel source: they are
// reported at the kernel's first parameter declaration (an unknown or
// malformed parameter) or at the kernel (the chip), naming the option, so the
// file and a line show. Errors about one parameter (its value, or its being
// given twice) are reported on its declaration.
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
// RUN: kcc-opt %t/notallowed.mlir --tile-specialize="chip=gfx942 params=DTYPE=f32" -verify-diagnostics
//
// Errors located at the op whose type the bound values break.
// RUN: kcc-opt %t/undeclared.mlir --tile-specialize=chip=gfx942 -split-input-file -verify-diagnostics
// RUN: kcc-opt %t/divide.mlir --tile-specialize="chip=gfx942 params=BM=48" -verify-diagnostics
// RUN: kcc-opt %t/divide.mlir --tile-specialize="chip=gfx942 params=BM=96" | FileCheck %t/divide.mlir
//
// Regressions (bugs 1, 2, 7 of the first round) and the attention additions.
// RUN: kcc-opt %t/arg-undeclared.mlir --tile-specialize=chip=gfx942 -verify-diagnostics
// RUN: kcc-opt %t/arg-divide.mlir --tile-specialize="chip=gfx942 params=BM=48" -verify-diagnostics
// RUN: kcc-opt %t/registers.mlir --tile-specialize="chip=gfx950 params=BM=1099511627776" -verify-diagnostics
// RUN: kcc-opt %t/registers-acc.mlir --tile-specialize="chip=gfx950" -verify-diagnostics
// RUN: kcc-opt %t/registers-fit.mlir --tile-specialize="chip=gfx950 params=BM=256" -verify-diagnostics
// RUN: kcc-opt %t/nonpositive.mlir --tile-specialize="chip=gfx942 params=BM=0" -split-input-file -verify-diagnostics
// RUN: kcc-opt %t/negative.mlir --tile-specialize="chip=gfx942 params=BM=-32" -verify-diagnostics
// RUN: not kcc-opt %t/params.mlir --tile-specialize="chip=gfx942 params=CAUSAL=1,OUT=notatype" 2>&1 | FileCheck %s --check-prefix=NOTATYPE --implicit-check-not=error:
// RUN: kcc-opt %t/pad.mlir --tile-specialize="chip=gfx942 params=PAD=-1" -split-input-file -verify-diagnostics
// RUN: kcc-opt %t/block.mlir --tile-specialize=chip=gfx942 -split-input-file -verify-diagnostics
// RUN: kcc-opt %t/branch.mlir --tile-specialize="chip=gfx942 params=TR=1" -verify-diagnostics
// RUN: kcc-opt %t/derived.mlir --tile-specialize="chip=gfx950 params=WM=32,WGM=4" | FileCheck %t/derived.mlir
// RUN: kcc-opt %t/derived-given.mlir --tile-specialize="chip=gfx950 params=BM=128" -verify-diagnostics
// RUN: kcc-opt %t/derived-factor.mlir --tile-specialize=chip=gfx950 -split-input-file -verify-diagnostics
// RUN: kcc-opt %t/waves-param.mlir --tile-specialize="chip=gfx950 params=WPS=9" -verify-diagnostics
// RUN: kcc-opt %t/waves-param.mlir --tile-specialize="chip=gfx950 params=WPS=2" | FileCheck %t/waves-param.mlir

// UNKNOWN: params.mlir:1:1: error: unknown parameter 'XX' (-D XX=3); this kernel declares: BM, CAUSAL, DT, OUT
// UNKNOWN-NONE: empty.mlir:1:1: error: unknown parameter 'XX' (-D XX=3); this kernel declares: none
// TWICE: params.mlir:{{[0-9]+}}:1: error: parameter 'CAUSAL' is given twice
// SYNTAX: params.mlir:1:1: error: parameter 'CAUSAL': write it NAME=VALUE
// CHIP: params.mlir:5:1: error: unsupported chip 'gfx90a'; supported: gfx942, gfx950
// NOCHIP: params.mlir:5:1: error: no target chip given; supported: gfx942, gfx950
// A type value that does not parse is reported once, in terms of the
// parameter (the type parser's own "expected non-function type" is dropped).
// NOTATYPE: params.mlir:4:1: error: type parameter 'OUT' must be bf16, f16 or f32, not 'notatype'

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

//--- notallowed.mlir
// A type the kernel's declaration does not list is refused there, with the
// list, not later by the MFMA that cannot take it.
// expected-error@+1 {{type parameter 'DTYPE' must be bf16 or f16, not 'f32'}}
tile.type_param_decl @DTYPE = bf16 of [bf16, f16]

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

//--- arg-undeclared.mlir
// Block-argument types are checked like op results.
// expected-error@+1 {{'func.func' op argument #1 uses undeclared parameter 'ZZ'}}
func.func @k(%i: index, %p: !tile.ptr<!tile.dtype<"ZZ">>) {
  return
}

//--- arg-divide.mlir
tile.param_decl @BM : i64 = 64
// expected-error@+1 {{'func.func' op argument #0 with the bound parameters, tile shape 48x32 is not a multiple of the layout's 32x32}}
func.func @k(%t: !tile.tile<[BM, 32], f32, #tile.mfma<acc>>) {
  return
}

//--- registers.mlir
// A register tile must fit a lane's 512 registers: 2^40 rows are refused at
// once (not after building a register map of 2^38 entries).
tile.param_decl @BM : i64 = 64
func.func @k(%f: f32) {
  // expected-error@+1 {{'tile.splat' op with the bound parameters, tile 1099511627776x64 needs more than the 512 elements per lane that fit a lane's 512 registers (VGPRs and AGPRs)}}
  %0 = tile.splat %f : f32 -> !tile.tile<[BM, 64], f32, #tile.blocked<[1, 4], [4, 16]>>
  return
}

//--- registers-acc.mlir
// 512 x 128 f32 in 32x32 MFMA accumulators (2048 per lane) is four times
// what a lane holds.
func.func @acc(%f: f32) {
  // expected-error@+1 {{'tile.splat' op with the bound parameters, tile 512x128 needs more than the 512 elements per lane that fit a lane's 512 registers (VGPRs and AGPRs)}}
  %0 = tile.splat %f : f32 -> !tile.tile<[512, 128], f32, #tile.mfma<acc>>
  return
}

//--- registers-fit.mlir
// 256 x 64 f32 in this blocked layout is 256 per lane: it fits.
tile.param_decl @BM : i64 = 64
func.func @k(%f: f32) {
  %0 = tile.splat %f : f32 -> !tile.tile<[BM, 64], f32, #tile.blocked<[1, 4], [4, 16]>>
  return
}

//--- nonpositive.mlir
tile.param_decl @BM : i64 = 64
func.func @k(%f: f32) {
  // expected-error@+1 {{'tile.splat' op needs a positive dimension (a non-negative pad), but BM = 0}}
  %0 = tile.splat %f : f32 -> !tile.tile<[BM, 32], f32, #tile.mfma<acc>>
  return
}

// -----

tile.param_decl @BM : i64 = 64
func.func @k() {
  // expected-error@+1 {{'tile.lds_alloc' op needs a positive dimension (a non-negative pad), but BM = 0}}
  %0 = tile.lds_alloc "a" : !tile.lds<[BM, 64], bf16>
  return
}

// -----

// In a block argument too.
tile.param_decl @BM : i64 = 64
// expected-error@+1 {{'func.func' op argument #1 needs a positive dimension (a non-negative pad), but BM = 0}}
func.func @k(%f: f32, %l: !tile.lds<[BM, 64], bf16>) {
  return
}

//--- negative.mlir
tile.param_decl @BM : i64 = 64
func.func @k(%f: f32) {
  // expected-error@+1 {{'tile.splat' op needs a positive dimension (a non-negative pad), but BM = -32}}
  %0 = tile.splat %f : f32 -> !tile.tile<[BM, 32], f32, #tile.mfma<acc>>
  return
}

//--- pad.mlir
tile.param_decl @PAD : i64 = 8
func.func @k() {
  // expected-error@+1 {{'tile.lds_alloc' op needs a positive dimension (a non-negative pad), but PAD = -1}}
  %0 = tile.lds_alloc "a" : !tile.lds<[64, 64], bf16, pad = PAD>
  return
}

// -----

tile.param_decl @PAD : i64 = 8
func.func @k() {
  // expected-error@+1 {{'tile.lds_alloc' op uses undeclared parameter 'QQ'}}
  %0 = tile.lds_alloc "a" : !tile.lds<[64, 64], bf16, pad = QQ>
  return
}

//--- block.mlir
tile.type_param_decl @DT = bf16
// expected-error@+1 {{'func.func' op tile.block_size names 'DT', which is not an integer parameter}}
func.func @k() attributes {tile.kernel, tile.block_size = @DT} {
  return
}

// -----

// expected-error@+1 {{'func.func' op tile.block_size names 'NOPE', which is not an integer parameter}}
func.func @k() attributes {tile.kernel, tile.block_size = @NOPE} {
  return
}

//--- branch.mlir
// The branch the parameters take is verified for the chip.
tile.param_decl @TR : i1 = false
func.func @k(%a: !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16>>,
             %b: !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16>>,
             %c: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>) {
  %tr = tile.param @TR : i1
  scf.if %tr {
    // expected-error@+1 {{'tile.mma' op no MFMA of shape 32x32x16 on gfx942; it has 32x32x8 and 16x16x16}}
    %0 = tile.mma %a, %b, %c : !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16>>, !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>
  }
  return
}

//--- derived.mlir
// A derived parameter is the product of its factors, in tile shapes, in
// values and in the workgroup size, and is recorded with the others.
tile.param_decl @WM : i64 = 64
tile.param_decl @WGM : i64 = 2
tile.param_decl @BM : i64 product [@WM, @WGM]
tile.param_decl @BLOCK : i64 product [@WGM, 64]
// CHECK: tile.params = {BLOCK = 256 : i64, BM = 128 : i64, WGM = 4 : i64, WM = 32 : i64}
// CHECK: func.func @k() -> index attributes {tile.block_size = 256 : i64, tile.kernel}
func.func @k() -> index attributes {tile.kernel, tile.block_size = @BLOCK} {
  // CHECK: tile.lds_alloc "a" : <[128, 32], bf16>
  %a = tile.lds_alloc "a" : !tile.lds<[BM, WM], bf16>
  // CHECK: arith.constant 128 : index
  %bm = tile.param @BM : index
  return %bm : index
}

//--- derived-given.mlir
tile.param_decl @WM : i64 = 64
tile.param_decl @WGM : i64 = 2
// expected-error@+1 {{parameter 'BM' is derived (WM * WGM); set those instead}}
tile.param_decl @BM : i64 product [@WM, @WGM]

//--- derived-factor.mlir
tile.param_decl @WM : i64 = 64
tile.param_decl @BM : i64 product [@WM, 2]
// expected-error@+1 {{parameter 'BB' multiplies 'BM', which is not an i64 parameter of its own}}
tile.param_decl @BB : i64 product [@BM, 2]

// -----

// expected-error@+1 {{parameter 'BM' multiplies 'NOPE', which is not an i64 parameter of its own}}
tile.param_decl @BM : i64 product [@NOPE, 2]

// -----

// expected-error@+1 {{'tile.param_decl' op a derived parameter (product) has no default value}}
tile.param_decl @BM : i64 = 4 product [4]

//--- waves-param.mlir
tile.param_decl @WPS : i64 = 1
// expected-error@+2 {{'func.func' op tile.waves_per_simd = @WPS is 9; it must be from 1 to 8}}
// CHECK: tile.waves_per_simd = 2 : i64
func.func @k() attributes {tile.kernel, tile.block_size = 256 : i64, tile.waves_per_simd = @WPS} {
  return
}
