// RUN: kcc-opt %s --tile-specialize="chip=gfx942 params=Q=f8E4M3FNUZ,R=f8E5M2FNUZ" --tile-allocate-lds --tile-expand-schedule --convert-tile-to-rocdl | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: kcc-opt %s --tile-specialize="chip=gfx950 params=Q=f8E5M2,R=f8E4M3FN" --tile-allocate-lds --tile-expand-schedule --convert-tile-to-rocdl | FileCheck %s --check-prefixes=CHECK,GFX950

// FP8 tiles lower to vectors of i8 (LLVM IR has no FP8 type); the MFMAs,
// conversions and memory accesses of one-byte elements. gfx942 runs the
// FNUZ formats (Q = e4m3, R = e5m2), gfx950 the OCP ones (Q = e5m2, R = e4m3),
// so the operand order of the mixed MFMAs shows too.

tile.type_param_decl @Q = f8E4M3FN of [f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ]
tile.type_param_decl @R = f8E4M3FN of [f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ]

// The widest 32x32 MFMA: gfx942 32x32x16 (8 values, an i64, per lane; four
// along K = 64, chained), gfx950 the f8f6f4 32x32x64 (32 values, 8 VGPRs),
// through LLVM's block-scaled intrinsic with both scales 0 (which selects
// the unscaled instruction): cbsz = 1 (a is e5m2), blgp = 0 (b is e4m3).
// CHECK-LABEL: llvm.func @mma(
// CHECK-SAME: %{{.*}}: vector<32xi8>, %{{.*}}: vector<32xi8>, %{{.*}}: vector<16xf32>) -> vector<16xf32>
// GFX942-COUNT-4: rocdl.mfma.f32.32x32x16.fp8.bf8 %{{.*}} : (i64, i64, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
// GFX942-NOT: rocdl.mfma
// GFX950-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// GFX950-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// GFX950: %[[A:.*]] = llvm.bitcast %{{.*}} : vector<32xi8> to vector<8xi32>
// GFX950: %[[B:.*]] = llvm.bitcast %{{.*}} : vector<32xi8> to vector<8xi32>
// GFX950: rocdl.mfma.scale.f32.32x32x64.f8f6f4 %[[A]], %[[B]], %{{.*}}, %[[ONE]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (vector<8xi32>, vector<8xi32>, vector<16xf32>, i32, i32, i32, i32, i32, i32) -> vector<16xf32>
// GFX950-NOT: rocdl.mfma
func.func @mma(%a: !tile.tile<[32, 64], !tile.dtype<"Q">, #tile.mfma<a>>,
               %b: !tile.tile<[64, 32], !tile.dtype<"R">, #tile.mfma<b>>,
               %c: !tile.tile<[32, 32], f32, #tile.mfma<acc>>) -> !tile.tile<[32, 32], f32, #tile.mfma<acc>> {
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 64], !tile.dtype<"Q">, #tile.mfma<a>>, !tile.tile<[64, 32], !tile.dtype<"R">, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  return %0 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>
}

// 16x16x32 by name (both chips), the formats in the intrinsic's name.
// CHECK-LABEL: llvm.func @mma16(
// GFX942: rocdl.mfma.f32.16x16x32.fp8.bf8 %{{.*}} : (i64, i64, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
// GFX950: rocdl.mfma.f32.16x16x32.bf8.fp8 %{{.*}} : (i64, i64, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
func.func @mma16(%a: !tile.tile<[16, 32], !tile.dtype<"Q">, #tile.mfma<a, 16x16x32>>,
                 %b: !tile.tile<[32, 16], !tile.dtype<"R">, #tile.mfma<b, 16x16x32>>,
                 %c: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>) -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>> {
  %0 = tile.mma %a, %b, %c : !tile.tile<[16, 32], !tile.dtype<"Q">, #tile.mfma<a, 16x16x32>>, !tile.tile<[32, 16], !tile.dtype<"R">, #tile.mfma<b, 16x16x32>> -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  return %0 : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
}

// f32 -> FP8: each element clamped to the format's largest finite value
// (240 for f8E4M3FNUZ, 57344 for f8E5M2) by v_med3_f32, NaNs passed by a
// select, then packed in pairs: three elements take one word, the third
// paired with 0. FP8 -> f32: the word's two halves.
// CHECK-LABEL: llvm.func @convert(
// GFX942-DAG: llvm.mlir.constant(-2.400000e+02 : f32) : f32
// GFX942-DAG: llvm.mlir.constant(2.400000e+02 : f32) : f32
// GFX950-DAG: llvm.mlir.constant(-5.734400e+04 : f32) : f32
// GFX950-DAG: llvm.mlir.constant(5.734400e+04 : f32) : f32
// CHECK-COUNT-3: llvm.call_intrinsic "llvm.amdgcn.fmed3"
// CHECK: %[[NAN:.*]] = llvm.fcmp "uno" %[[X:.*]], %[[X]] : vector<3xf32>
// CHECK: llvm.select %[[NAN]], %[[X]], %{{.*}} : vector<3xi1>, vector<3xf32>
// GFX942: %[[W:.*]] = rocdl.cvt.pk.fp8.f32 %{{.*}}, %{{.*}} -> %{{.*}}[false] : i32
// GFX942: rocdl.cvt.pk.fp8.f32 %{{.*}}, %{{.*}} -> %[[W]][true] : i32
// GFX942: rocdl.cvt.pk.f32.fp8 %[[V:.*]][false] : vector<2xf32>
// GFX942: rocdl.cvt.pk.f32.fp8 %[[V]][true] : vector<2xf32>
// GFX950: %[[W:.*]] = rocdl.cvt.pk.bf8.f32 %{{.*}}, %{{.*}} -> %{{.*}}[false] : i32
// GFX950: rocdl.cvt.pk.bf8.f32 %{{.*}}, %{{.*}} -> %[[W]][true] : i32
// GFX950: rocdl.cvt.pk.f32.bf8 %[[V:.*]][false] : vector<2xf32>
// GFX950: rocdl.cvt.pk.f32.bf8 %[[V]][true] : vector<2xf32>
// CHECK-NOT: rocdl.cvt
func.func @convert(%x: !tile.tile<[3, 64], f32, #tile.blocked<[1, 1], [1, 64]>>) -> !tile.tile<[3, 64], f32, #tile.blocked<[1, 1], [1, 64]>> {
  %q = tile.convert %x : !tile.tile<[3, 64], f32, #tile.blocked<[1, 1], [1, 64]>> -> !tile.tile<[3, 64], !tile.dtype<"Q">, #tile.blocked<[1, 1], [1, 64]>>
  %y = tile.convert %q : !tile.tile<[3, 64], !tile.dtype<"Q">, #tile.blocked<[1, 1], [1, 64]>> -> !tile.tile<[3, 64], f32, #tile.blocked<[1, 1], [1, 64]>>
  return %y : !tile.tile<[3, 64], f32, #tile.blocked<[1, 1], [1, 64]>>
}

// With fast_rounding the clamp and the NaN select are left out: one
// conversion per pair and nothing else.
// CHECK-LABEL: llvm.func @convert_fast(
// CHECK-NOT: fmed3
// CHECK-NOT: llvm.select
// GFX942: rocdl.cvt.pk.fp8.f32 %{{.*}}, %{{.*}} -> %{{.*}}[false] : i32
// GFX950: rocdl.cvt.pk.bf8.f32 %{{.*}}, %{{.*}} -> %{{.*}}[false] : i32
// CHECK-NOT: fmed3
// CHECK: llvm.return
func.func @convert_fast(%x: !tile.tile<[2, 64], f32, #tile.blocked<[1, 1], [1, 64]>>) -> !tile.tile<[2, 64], !tile.dtype<"Q">, #tile.blocked<[1, 1], [1, 64]>> {
  %q = tile.convert %x fast_rounding : !tile.tile<[2, 64], f32, #tile.blocked<[1, 1], [1, 64]>> -> !tile.tile<[2, 64], !tile.dtype<"Q">, #tile.blocked<[1, 1], [1, 64]>>
  return %q : !tile.tile<[2, 64], !tile.dtype<"Q">, #tile.blocked<[1, 1], [1, 64]>>
}

// One-byte elements move in the widest access their run allows: an `a`
// operand's 8 adjacent bytes per 32x32x16 block (gfx942) as one 8-byte
// access, 32 (gfx950) as two 16-byte ones; two adjacent bytes as one 16-bit
// access. A buffer of one-byte elements spans num_elements bytes, and the
// LDS DMA moves 4 bytes (4 elements) per lane: 32 x 64 bytes are 8 lines.
// CHECK-LABEL: llvm.func @memory(
// CHECK: %[[N:.*]] = llvm.zext %{{.*}} : i32 to i64
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[BYTES:.*]] = llvm.mul %[[N]], %[[ONE]] : i64
// CHECK: rocdl.make.buffer.rsrc %{{.*}}, %{{.*}}, %[[BYTES]], %{{.*}} : <1> to <8>
// GFX942-COUNT-4: rocdl.raw.ptr.buffer.load %{{.*}} : vector<2xi32>
// GFX950-COUNT-2: rocdl.raw.ptr.buffer.load %{{.*}} : vector<4xi32>
// GFX942-COUNT-4: llvm.store %{{.*}} {alias_scopes = [#{{.*}}], alignment = 8 : i64} : vector<8xi8>, !llvm.ptr<3>
// GFX950-COUNT-2: llvm.store %{{.*}} {alias_scopes = [#{{.*}}], alignment = 16 : i64} : vector<16xi8>, !llvm.ptr<3>
// GFX942-COUNT-4: llvm.load %{{.*}} {alias_scopes = [#{{.*}}], alignment = 8 : i64} : !llvm.ptr<3> -> vector<8xi8>
// GFX950-COUNT-2: llvm.load %{{.*}} {alias_scopes = [#{{.*}}], alignment = 16 : i64} : !llvm.ptr<3> -> vector<16xi8>
// GFX942-COUNT-4: rocdl.raw.ptr.buffer.store %{{.*}} : vector<2xi32>
// GFX950-COUNT-2: rocdl.raw.ptr.buffer.store %{{.*}} : vector<4xi32>
// CHECK: rocdl.raw.ptr.buffer.load %{{.*}} : i16
// CHECK: rocdl.raw.ptr.buffer.store %{{.*}} : i16
// CHECK-COUNT-8: rocdl.raw.ptr.buffer.load.lds
// CHECK-NOT: rocdl.raw.ptr.buffer.load.lds
func.func @memory(%p: !tile.ptr<!tile.dtype<"Q">>, %n: index) {
  %c0 = arith.constant 0 : index
  %buf = tile.make_buffer %p, %n : !tile.ptr<!tile.dtype<"Q">> -> !tile.buffer<!tile.dtype<"Q">>
  %l = tile.lds_alloc "q" : !tile.lds<[32, 64], !tile.dtype<"Q">>
  %t = tile.load %buf[%c0, %c0] stride %n : !tile.buffer<!tile.dtype<"Q">> -> !tile.tile<[32, 64], !tile.dtype<"Q">, #tile.mfma<a>>
  tile.lds_store %t, %l[%c0][%c0, %c0] : !tile.tile<[32, 64], !tile.dtype<"Q">, #tile.mfma<a>>, !tile.lds<[32, 64], !tile.dtype<"Q">>
  %u = tile.lds_load %l[%c0][%c0, %c0] : !tile.lds<[32, 64], !tile.dtype<"Q">> -> !tile.tile<[32, 64], !tile.dtype<"Q">, #tile.mfma<a>>
  tile.store %u, %buf[%c0, %c0] stride %n : !tile.tile<[32, 64], !tile.dtype<"Q">, #tile.mfma<a>>, !tile.buffer<!tile.dtype<"Q">>
  %v = tile.load %buf[%c0, %c0] stride %n : !tile.buffer<!tile.dtype<"Q">> -> !tile.tile<[2, 64], !tile.dtype<"Q">, #tile.blocked<[1, 2], [2, 32]>>
  tile.store %v, %buf[%c0, %c0] stride %n : !tile.tile<[2, 64], !tile.dtype<"Q">, #tile.blocked<[1, 2], [2, 32]>>, !tile.buffer<!tile.dtype<"Q">>
  tile.async_copy %buf[%c0, %c0] stride %n -> %l[%c0] : !tile.buffer<!tile.dtype<"Q">>, !tile.lds<[32, 64], !tile.dtype<"Q">>
  return
}
