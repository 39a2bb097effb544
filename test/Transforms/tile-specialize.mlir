// RUN: kcc-opt %s --tile-specialize="chip=gfx942 params=BN=32,CAUSAL=1,DT=f16" | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: kcc-opt %s --tile-specialize="chip=gfx950 params=BN=32,CAUSAL=true,DT=f16" | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: kcc-opt %s --tile-specialize="chip=gfx950 params=CAUSAL=false" | FileCheck %s --check-prefix=DEFAULTS

// tile-specialize binds the parameters (given values first, then defaults),
// resolves the MFMA shapes left to the target, records the chip and the bound
// values on the module, and erases the declarations.

// GFX942: module attributes {tile.chip = "gfx942", tile.params = {BK = 16 : i64, BM = 64 : i64, BN = 32 : i64, CAUSAL = 1 : i64, DT = f16, OUT = f32}}
// GFX950: module attributes {tile.chip = "gfx950", tile.params = {BK = 16 : i64, BM = 64 : i64, BN = 32 : i64, CAUSAL = 1 : i64, DT = f16, OUT = f32}}
// CHECK-NOT: tile.param_decl
// CHECK-NOT: tile.type_param_decl
// DEFAULTS: module attributes {tile.chip = "gfx950", tile.params = {BK = 16 : i64, BM = 64 : i64, BN = 64 : i64, CAUSAL = 0 : i64, DT = bf16, OUT = f32}}
// DEFAULTS-NOT: tile.param_decl
// DEFAULTS-NOT: tile.type_param_decl
tile.param_decl @BM : i64 = 64
tile.param_decl @BN : i64 = 64
tile.param_decl @BK : i64 = 16
tile.param_decl @CAUSAL : i1
tile.type_param_decl @DT = bf16
tile.type_param_decl @OUT = f32

// CHECK-LABEL: func.func @values()
// CHECK-DAG: %[[BM:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[BN:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[BN64:.*]] = arith.constant 32 : i64
// CHECK-DAG: %[[CAUSAL:.*]] = arith.constant true
// CHECK-NOT: tile.param
// CHECK: return %[[BM]], %[[BN]], %[[BN64]], %[[CAUSAL]] : index, index, i64, i1
// DEFAULTS-LABEL: func.func @values()
// DEFAULTS-DAG: %[[BM:.*]] = arith.constant 64 : index
// DEFAULTS-DAG: %[[BN:.*]] = arith.constant 64 : index
// DEFAULTS-DAG: %[[BN64:.*]] = arith.constant 64 : i64
// DEFAULTS-DAG: %[[CAUSAL:.*]] = arith.constant false
// DEFAULTS: return %[[BM]], %[[BN]], %[[BN64]], %[[CAUSAL]] : index, index, i64, i1
func.func @values() -> (index, index, i64, i1) {
  %bm = tile.param @BM : index
  %bn = tile.param @BN : index
  %bn64 = tile.param @BN : i64
  %causal = tile.param @CAUSAL : i1
  return %bm, %bn, %bn64, %causal : index, index, i64, i1
}

// Parameter-named dimensions and dtypes, in block arguments and results, and
// MFMA shapes: 32x32x8 / 16x16x16 on gfx942, 32x32x16 / 16x16x32 on gfx950.
// Explicit shapes stay as written.
// CHECK-LABEL: func.func @types(
// GFX942-SAME: %{{.*}}: !tile.ptr<f16>, %{{.*}}: !tile.ptr<f32>,
// GFX942-SAME: %{{.*}}: !tile.tile<[64, 16], f16, #tile.mfma<a, 32x32x8>>,
// GFX942-SAME: %{{.*}}: !tile.tile<[16, 32], f16, #tile.mfma<b, 32x32x8>>,
// GFX942-SAME: %{{.*}}: !tile.tile<[64, 32], f32, #tile.mfma<acc, 32x32x8>>,
// GFX942-SAME: %{{.*}}: !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16x16>>,
// GFX942-SAME: %{{.*}}: !tile.tile<[64, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x8>>>,
// GFX942-SAME: %{{.*}}: !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16>>,
// GFX950-SAME: %{{.*}}: !tile.ptr<f16>, %{{.*}}: !tile.ptr<f32>,
// GFX950-SAME: %{{.*}}: !tile.tile<[64, 16], f16, #tile.mfma<a, 32x32x16>>,
// GFX950-SAME: %{{.*}}: !tile.tile<[16, 32], f16, #tile.mfma<b, 32x32x16>>,
// GFX950-SAME: %{{.*}}: !tile.tile<[64, 32], f32, #tile.mfma<acc, 32x32x16>>,
// GFX950-SAME: %{{.*}}: !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16x32>>,
// GFX950-SAME: %{{.*}}: !tile.tile<[64, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x16>>>,
// GFX950-SAME: %{{.*}}: !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16>>,
// CHECK: tile.make_buffer %{{.*}}, %{{.*}} : <f16> -> <f16>
// CHECK: tile.lds_alloc "a" : <[64, 16], f16, pad = 8, stages = 2>
// GFX942: tile.lds_load %{{.*}}[%{{.*}}] [%{{.*}}, %{{.*}}] : <[64, 16], f16, pad = 8, stages = 2> -> <[64, 16], f16, #tile.mfma<a, 32x32x8>>
// GFX950: tile.lds_load %{{.*}}[%{{.*}}] [%{{.*}}, %{{.*}}] : <[64, 16], f16, pad = 8, stages = 2> -> <[64, 16], f16, #tile.mfma<a, 32x32x16>>
// GFX942: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : <[64, 16], f16, #tile.mfma<a, 32x32x8>>, <[16, 32], f16, #tile.mfma<b, 32x32x8>> -> <[64, 32], f32, #tile.mfma<acc, 32x32x8>>
// GFX950: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : <[64, 16], f16, #tile.mfma<a, 32x32x16>>, <[16, 32], f16, #tile.mfma<b, 32x32x16>> -> <[64, 32], f32, #tile.mfma<acc, 32x32x16>>
// GFX942: tile.reduce_max %{{.*}} dim 1 : <[64, 32], f32, #tile.mfma<acc, 32x32x8>> -> <[64, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x8>>>
// GFX950: tile.reduce_max %{{.*}} dim 1 : <[64, 32], f32, #tile.mfma<acc, 32x32x16>> -> <[64, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x16>>>
// CHECK: tile.convert %{{.*}} : <[64, 32], f32, #tile.mfma<acc, {{32x32x8|32x32x16}}>> -> <[64, 32], f32, #tile.mfma<acc, {{32x32x8|32x32x16}}>>
// DEFAULTS-LABEL: func.func @types(
// DEFAULTS-SAME: %{{.*}}: !tile.ptr<bf16>, %{{.*}}: !tile.ptr<f32>,
// DEFAULTS-SAME: %{{.*}}: !tile.tile<[64, 16], bf16, #tile.mfma<a, 32x32x16>>,
// DEFAULTS-SAME: %{{.*}}: !tile.tile<[16, 64], bf16, #tile.mfma<b, 32x32x16>>,
// DEFAULTS-SAME: %{{.*}}: !tile.tile<[64, 64], f32, #tile.mfma<acc, 32x32x16>>,
func.func @types(%p: !tile.ptr<!tile.dtype<"DT">>, %q: !tile.ptr<!tile.dtype<"OUT">>,
                 %a: !tile.tile<[BM, BK], !tile.dtype<"DT">, #tile.mfma<a>>,
                 %b: !tile.tile<[BK, BN], !tile.dtype<"DT">, #tile.mfma<b>>,
                 %c: !tile.tile<[BM, BN], f32, #tile.mfma<acc>>,
                 %d: !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>>,
                 %e: !tile.tile<[BM, 1], f32, #tile.slice<1, #tile.mfma<acc>>>,
                 %g: !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16>>,
                 %n: index, %i: index) {
  %buf = tile.make_buffer %p, %n : !tile.ptr<!tile.dtype<"DT">> -> !tile.buffer<!tile.dtype<"DT">>
  %lds = tile.lds_alloc "a" : !tile.lds<[BM, BK], !tile.dtype<"DT">, pad = 8, stages = 2>
  %fa = tile.lds_load %lds[%i][%i, %i] : !tile.lds<[BM, BK], !tile.dtype<"DT">, pad = 8, stages = 2> -> !tile.tile<[BM, BK], !tile.dtype<"DT">, #tile.mfma<a>>
  %0 = tile.mma %fa, %b, %c : !tile.tile<[BM, BK], !tile.dtype<"DT">, #tile.mfma<a>>, !tile.tile<[BK, BN], !tile.dtype<"DT">, #tile.mfma<b>> -> !tile.tile<[BM, BN], f32, #tile.mfma<acc>>
  %1 = tile.reduce_max %0 dim 1 : !tile.tile<[BM, BN], f32, #tile.mfma<acc>> -> !tile.tile<[BM, 1], f32, #tile.slice<1, #tile.mfma<acc>>>
  %2 = tile.convert %0 : !tile.tile<[BM, BN], f32, #tile.mfma<acc>> -> !tile.tile<[BM, BN], !tile.dtype<"OUT">, #tile.mfma<acc>>
  return
}

// Ops whose types hold no parameters pass through unchanged.
// CHECK-LABEL: func.func @untouched(
// CHECK: tile.splat %{{.*}} : f32 -> <[8, 64], f32, #tile.blocked<[1, 8], [8, 8]>>
// CHECK: tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<valu, 2>] x 4
func.func @untouched(%f: f32) {
  %0 = tile.splat %f : f32 -> !tile.tile<[8, 64], f32, #tile.blocked<[1, 8], [8, 8]>>
  tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<valu, 2>] x 4
  return
}
