// RUN: kcc-opt %s | kcc-opt | FileCheck %s
// RUN: kcc-opt %s --mlir-print-op-generic | kcc-opt | FileCheck %s

// Round trip of every op, type and attribute of the tile dialect: the custom
// printers must print what the parsers read, including the parameter-named
// dimensions and element types that only tile-specialize resolves.

//===----------------------------------------------------------------------===//
// Compile-time parameters
//===----------------------------------------------------------------------===//

// CHECK: tile.param_decl @BM : i64 = 128 : i64
// CHECK-NEXT: tile.param_decl @BK : i64 = 64 : i64
// CHECK-NEXT: tile.param_decl @CAUSAL : i1{{$}}
// CHECK-NEXT: tile.param_decl @FLAG : i1 = true
// CHECK-NEXT: tile.param_decl @NB : index = 4 : index
// CHECK-NEXT: tile.param_decl @PAD : i64 = 8 : i64
// CHECK-NEXT: tile.param_decl @BLOCK : i64 = 256 : i64
// CHECK-NEXT: tile.type_param_decl @DT = bf16
// CHECK-NEXT: tile.type_param_decl @OUT{{$}}
// CHECK-NEXT: tile.type_param_decl @IN = f16 of [bf16, f16]
// CHECK-NEXT: tile.type_param_decl @ACC of [f32]
// CHECK-NEXT: tile.type_param_decl @Q8 = f8E4M3FN of [f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ]
// CHECK-NEXT: tile.param_decl @VTR : i1 = true on {gfx942 = false}
// CHECK-NEXT: tile.param_decl @WARP : i64 = 64 : i64 on {gfx942 = 32 : i64}
// CHECK-NEXT: tile.type_param_decl @E4 = f8E4M3FN of [f8E4M3FN, f8E4M3FNUZ] on {gfx942 = f8E4M3FNUZ}
tile.param_decl @BM : i64 = 128
tile.param_decl @BK : i64 = 64 : i64
tile.param_decl @CAUSAL : i1
tile.param_decl @FLAG : i1 = true
tile.param_decl @NB : index = 4 : index
tile.param_decl @PAD : i64 = 8
tile.param_decl @BLOCK : i64 = 256
tile.type_param_decl @DT = bf16
tile.type_param_decl @OUT
tile.type_param_decl @IN = f16 of [bf16, f16]
tile.type_param_decl @ACC of [f32]
tile.type_param_decl @Q8 = f8E4M3FN of [f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ]
tile.param_decl @VTR : i1 = true on {gfx942 = false}
tile.param_decl @WARP : i64 = 64 on {gfx942 = 32}
tile.type_param_decl @E4 = f8E4M3FN of [f8E4M3FN, f8E4M3FNUZ] on {gfx942 = f8E4M3FNUZ}

// CHECK-LABEL: func.func @params()
// CHECK: tile.param @BM : index
// CHECK: tile.param @BM : i64
// CHECK: tile.param @CAUSAL : i1
// CHECK: tile.param @NB : index
func.func @params() -> (index, i64, i1, index) {
  %0 = tile.param @BM : index
  %1 = tile.param @BM : i64
  %2 = tile.param @CAUSAL : i1
  %3 = tile.param @NB : index
  return %0, %1, %2, %3 : index, i64, i1, index
}

//===----------------------------------------------------------------------===//
// Types and layout attributes
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @types(
// CHECK-SAME: %{{.*}}: !tile.ptr<bf16>,
// CHECK-SAME: %{{.*}}: !tile.ptr<!tile.dtype<"DT">>,
// CHECK-SAME: %{{.*}}: !tile.buffer<f32>,
// CHECK-SAME: %{{.*}}: !tile.buffer<!tile.dtype<"OUT">>,
// CHECK-SAME: %{{.*}}: !tile.lds<[128, 64], bf16>,
// CHECK-SAME: %{{.*}}: !tile.lds<[64, 64], f16>,
// CHECK-SAME: %{{.*}}: !tile.lds<[BM, BK], !tile.dtype<"DT">, pad = 8, stages = 2>,
// CHECK-SAME: %{{.*}}: !tile.lds<[64, 32], bf16, pad = 4>,
// CHECK-SAME: %{{.*}}: !tile.lds<[64, 32], bf16, stages = 3>,
// CHECK-SAME: %{{.*}}: !tile.tile<[BM, 64], !tile.dtype<"DT">, #tile.mfma<a>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[32, 8], bf16, #tile.mfma<a>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[64, BK], f32, #tile.mfma<acc, 16x16>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[8, 32], f16, #tile.mfma<b, 32x32x8>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[16, 16], f16, #tile.mfma<a, 16x16x16>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[32, 16], bf16, #tile.mfma<b, 16x16x32>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[64, 8], i32, #tile.blocked<[2, 4], [32, 2]>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[BM, 1], f32, #tile.slice<1, #tile.mfma<acc>>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[1, 32], f32, #tile.slice<0, #tile.mfma<acc, 32x32x8>>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[8, 1], i1, #tile.slice<1, #tile.blocked<[1, 8], [8, 8]>>>)
func.func @types(%p0: !tile.ptr<bf16>,
                 %p1: !tile.ptr<!tile.dtype<"DT">>,
                 %b0: !tile.buffer<f32>,
                 %b1: !tile.buffer<!tile.dtype<"OUT">>,
                 %l0: !tile.lds<[128, 64], bf16>,
                 %l1: !tile.lds<[64, 64], f16, pad = 0, stages = 1>,
                 %l2: !tile.lds<[BM, BK], !tile.dtype<"DT">, pad = 8, stages = 2>,
                 %l3: !tile.lds<[64, 32], bf16, pad = 4>,
                 %l4: !tile.lds<[64, 32], bf16, stages = 3>,
                 %t0: !tile.tile<[BM, 64], !tile.dtype<"DT">, #tile.mfma<a>>,
                 %t1: !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32>>,
                 %t2: !tile.tile<[64, BK], f32, #tile.mfma<acc, 16x16>>,
                 %t3: !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16>>,
                 %t4: !tile.tile<[8, 32], f16, #tile.mfma<b, 32x32x8>>,
                 %t5: !tile.tile<[16, 16], f16, #tile.mfma<a, 16x16x16>>,
                 %t6: !tile.tile<[32, 16], bf16, #tile.mfma<b, 16x16x32>>,
                 %t7: !tile.tile<[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>,
                 %t8: !tile.tile<[64, 8], i32, #tile.blocked<[2, 4], [32, 2]>>,
                 %t9: !tile.tile<[BM, 1], f32, #tile.slice<1, #tile.mfma<acc>>>,
                 %t10: !tile.tile<[1, 32], f32, #tile.slice<0, #tile.mfma<acc, 32x32x8>>>,
                 %t11: !tile.tile<[8, 1], i1, #tile.slice<1, #tile.blocked<[1, 8], [8, 8]>>>) {
  return
}

// k_from_acc: an a or b operand whose K runs in an accumulator's row order;
// printed after the shape, and kept when the shape is left to the target;
// likewise k_wide (K interleaved across instances, 16 bytes a lane).
// A parameter-named row padding.
// CHECK-LABEL: func.func @types_attention(
// CHECK-SAME: %{{.*}}: !tile.tile<[32, 32], bf16, #tile.mfma<b, 32x32x16, k_from_acc>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[32, 32], bf16, #tile.mfma<a, k_from_acc>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[16, 32], f16, #tile.mfma<a, 16x16, k_from_acc>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[32, 16], bf16, #tile.mfma<b, 16x16x32, k_from_acc>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[BM, 32], !tile.dtype<"DT">, #tile.mfma<a, 32x32x8, k_from_acc>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[32, 16], bf16, #tile.mfma<a, k_wide>>,
// CHECK-SAME: %{{.*}}: !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x8, k_wide>>,
// CHECK-SAME: %{{.*}}: !tile.lds<[BM, 64], bf16, pad = PAD>,
// CHECK-SAME: %{{.*}}: !tile.lds<[64, 64], bf16, pad = PAD, stages = 2>,
// CHECK-SAME: %{{.*}}: !tile.lds<[64, 64], bf16, pad = 4, stages = 2>)
func.func @types_attention(%t0: !tile.tile<[32, 32], bf16, #tile.mfma<b, 32x32x16, k_from_acc>>,
                           %t1: !tile.tile<[32, 32], bf16, #tile.mfma<a, k_from_acc>>,
                           %t2: !tile.tile<[16, 32], f16, #tile.mfma<a, 16x16, k_from_acc>>,
                           %t3: !tile.tile<[32, 16], bf16, #tile.mfma<b, 16x16x32, k_from_acc>>,
                           %t4: !tile.tile<[BM, 32], !tile.dtype<"DT">, #tile.mfma<a, 32x32x8, k_from_acc>>,
                           %t5: !tile.tile<[32, 16], bf16, #tile.mfma<a, k_wide>>,
                           %t6: !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x8, k_wide>>,
                           %l0: !tile.lds<[BM, 64], bf16, pad = PAD>,
                           %l1: !tile.lds<[64, 64], bf16, stages = 2, pad = PAD>,
                           %l2: !tile.lds<[64, 64], bf16, stages = 2, pad = 4>) {
  return
}

//===----------------------------------------------------------------------===//
// Ids
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @ids()
// CHECK: tile.program_id 0{{$}}
// CHECK: tile.program_id 2{{$}}
// CHECK: tile.num_programs 1{{$}}
// CHECK: tile.wave_id{{$}}
// CHECK: tile.lane_id{{$}}
func.func @ids() -> (index, index, index, index, index) {
  %0 = tile.program_id 0
  %1 = tile.program_id 2
  %2 = tile.num_programs 1
  %3 = tile.wave_id
  %4 = tile.lane_id
  return %0, %1, %2, %3, %4 : index, index, index, index, index
}

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @global_memory(
// CHECK: %[[BUF:.*]] = tile.make_buffer %{{.*}}, %{{.*}} : <bf16> -> <bf16>
// CHECK: tile.load %[[BUF]][%{{.*}}, %{{.*}}] stride %{{.*}} : <bf16> -> <[32, 8], bf16, #tile.mfma<a, 32x32x8>>
// CHECK: tile.load %[[BUF]][%{{.*}}, %{{.*}}] stride %{{.*}} bounds %{{.*}}, %{{.*}} : <bf16> -> <[8, 32], bf16, #tile.mfma<b, 32x32x8>>
// CHECK: tile.load %[[BUF]][%{{.*}}, %{{.*}}] stride %{{.*}} transpose : <bf16> -> <[8, 32], bf16, #tile.mfma<b, 32x32x8>>
// CHECK: %[[T:.*]] = tile.load %[[BUF]][%{{.*}}, %{{.*}}] stride %{{.*}} bounds %{{.*}}, %{{.*}} transpose : <bf16> -> <[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>
// CHECK: tile.store %[[T]], %[[BUF]][%{{.*}}, %{{.*}}] stride %{{.*}} : <[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>, <bf16>
// CHECK: tile.store %[[T]], %[[BUF]][%{{.*}}, %{{.*}}] stride %{{.*}} bounds %{{.*}}, %{{.*}} : <[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>, <bf16>
// CHECK: tile.make_buffer %{{.*}}, %{{.*}} : <!tile.dtype<"DT">> -> <!tile.dtype<"DT">>
// CHECK: tile.store %[[T]], %[[BUF]][%{{.*}}, %{{.*}}] stride %{{.*}} transpose : <[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>, <bf16>
// CHECK: tile.store %[[T]], %[[BUF]][%{{.*}}, %{{.*}}] stride %{{.*}} bounds %{{.*}}, %{{.*}} transpose : <[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>, <bf16>
// CHECK: %[[P:.*]] = tile.ptr_add %{{.*}}, %{{.*}} : <bf16>
// CHECK: tile.ptr_add %[[P]], %{{.*}} : <bf16>
// CHECK: tile.ptr_add %{{.*}}, %{{.*}} : <!tile.dtype<"DT">>
func.func @global_memory(%p: !tile.ptr<bf16>, %q: !tile.ptr<!tile.dtype<"DT">>,
                         %n: index, %i: index, %j: index) {
  %buf = tile.make_buffer %p, %n : !tile.ptr<bf16> -> !tile.buffer<bf16>
  %0 = tile.load %buf[%i, %j] stride %n : !tile.buffer<bf16> -> !tile.tile<[32, 8], bf16, #tile.mfma<a, 32x32x8>>
  %1 = tile.load %buf[%i, %j] stride %n bounds %n, %n : !tile.buffer<bf16> -> !tile.tile<[8, 32], bf16, #tile.mfma<b, 32x32x8>>
  %2 = tile.load %buf[%i, %j] stride %n transpose : !tile.buffer<bf16> -> !tile.tile<[8, 32], bf16, #tile.mfma<b, 32x32x8>>
  %3 = tile.load %buf[%i, %j] stride %n bounds %n, %n transpose : !tile.buffer<bf16> -> !tile.tile<[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>
  tile.store %3, %buf[%i, %j] stride %n : !tile.tile<[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>, !tile.buffer<bf16>
  tile.store %3, %buf[%i, %j] stride %n bounds %n, %n : !tile.tile<[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>, !tile.buffer<bf16>
  %pbuf = tile.make_buffer %q, %n : !tile.ptr<!tile.dtype<"DT">> -> !tile.buffer<!tile.dtype<"DT">>
  tile.store %3, %buf[%i, %j] stride %n transpose : !tile.tile<[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>, !tile.buffer<bf16>
  tile.store %3, %buf[%i, %j] stride %n bounds %n, %n transpose : !tile.tile<[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>, !tile.buffer<bf16>
  %p1 = tile.ptr_add %p, %i : !tile.ptr<bf16>
  %p2 = tile.ptr_add %p1, %j : !tile.ptr<bf16>
  %q1 = tile.ptr_add %q, %i : !tile.ptr<!tile.dtype<"DT">>
  return
}

//===----------------------------------------------------------------------===//
// LDS
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @lds(
// CHECK: %[[A:.*]] = tile.lds_alloc "a" : <[128, 64], bf16>
// CHECK: tile.lds_alloc "b" : <[BM, BK], !tile.dtype<"DT">, pad = 8, stages = 2>
// CHECK: tile.lds_alloc "c" {offset = 16384 : i64, scope = 2 : i64} : <[64, 64], f16, stages = 3>
// CHECK: tile.async_copy %[[BUF:.*]][%{{.*}}, %{{.*}}] stride %{{.*}} -> %[[A]][%{{.*}}] : <bf16>, <[128, 64], bf16>
// CHECK: tile.async_copy %[[BUF]][%{{.*}}, %{{.*}}] stride %{{.*}} bounds %{{.*}}, %{{.*}} -> %[[A]][%{{.*}}] {width = 16 : i64} : <bf16>, <[128, 64], bf16>
// CHECK: tile.async_copy %[[BUF]][%{{.*}}, %{{.*}}] stride %{{.*}} -> %[[A]][%{{.*}}] : <bf16>, <[128, 64], bf16>
// CHECK: tile.wait vmcnt(0){{$}}
// CHECK: tile.wait lgkmcnt(3){{$}}
// CHECK: tile.wait vmcnt(63) lgkmcnt(15){{$}}
// CHECK: tile.lds_load %[[A]][%{{.*}}] [%{{.*}}, %{{.*}}] : <[128, 64], bf16> -> <[32, 16], bf16, #tile.mfma<a, 32x32x16>>
// CHECK: tile.lds_load %[[A]][%{{.*}}] [%{{.*}}, %{{.*}}] transpose : <[128, 64], bf16> -> <[16, 32], bf16, #tile.mfma<b, 32x32x16>>
// CHECK: tile.lds_store %{{.*}}, %[[A]][%{{.*}}] [%{{.*}}, %{{.*}}] : <[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>, <[128, 64], bf16>
func.func @lds(%buf: !tile.buffer<bf16>, %t: !tile.tile<[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>,
               %n: index, %i: index, %j: index) {
  %a = tile.lds_alloc "a" : !tile.lds<[128, 64], bf16>
  %b = tile.lds_alloc "b" : !tile.lds<[BM, BK], !tile.dtype<"DT">, pad = 8, stages = 2>
  %c = tile.lds_alloc "c" {offset = 16384 : i64, scope = 2 : i64} : !tile.lds<[64, 64], f16, stages = 3>
  tile.async_copy %buf[%i, %j] stride %n -> %a[%i] : !tile.buffer<bf16>, !tile.lds<[128, 64], bf16>
  tile.async_copy %buf[%i, %j] stride %n bounds %n, %n -> %a[%i] {width = 16 : i64} : !tile.buffer<bf16>, !tile.lds<[128, 64], bf16>
  tile.async_copy %buf[%i, %j] stride %n -> %a[%i] {width = 4 : i64} : !tile.buffer<bf16>, !tile.lds<[128, 64], bf16>
  tile.wait vmcnt(0)
  tile.wait lgkmcnt(3)
  tile.wait vmcnt(63) lgkmcnt(15)
  %0 = tile.lds_load %a[%i][%i, %j] : !tile.lds<[128, 64], bf16> -> !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16>>
  %1 = tile.lds_load %a[%i][%i, %j] transpose : !tile.lds<[128, 64], bf16> -> !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16>>
  tile.lds_store %t, %a[%i][%i, %j] : !tile.tile<[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>, !tile.lds<[128, 64], bf16>
  return
}

// Swizzled LDS rows (a number or a parameter) and a copy that promises to
// stay inside its buffer.
// CHECK-LABEL: func.func @lds_swizzle(
// CHECK: %[[S:.*]] = tile.lds_alloc "s" : <[64, 64], bf16, stages = 2, swizzle = 8>
// CHECK: tile.lds_alloc "p" : <[WM, BK], !tile.dtype<"DT">, stages = 2, swizzle = SWZ>
// CHECK: tile.async_copy inbounds %{{.*}}[%{{.*}}, %{{.*}}] stride %{{.*}} -> %[[S]][%{{.*}}] {width = 16 : i64} : <bf16>, <[64, 64], bf16, stages = 2, swizzle = 8>
func.func @lds_swizzle(%buf: !tile.buffer<bf16>, %n: index, %i: index) {
  %s = tile.lds_alloc "s" : !tile.lds<[64, 64], bf16, stages = 2, swizzle = 8>
  %p = tile.lds_alloc "p" : !tile.lds<[WM, BK], !tile.dtype<"DT">, stages = 2, swizzle = SWZ>
  tile.async_copy inbounds %buf[%i, %i] stride %n -> %s[%i] {width = 16 : i64} : !tile.buffer<bf16>, !tile.lds<[64, 64], bf16, stages = 2, swizzle = 8>
  return
}

// LDS buffers stored in a tile's reading order, plain, transposed and gated
// by a parameter.
// CHECK-LABEL: func.func @lds_order(
// CHECK: tile.lds_alloc "k" : <[64, 128], bf16, order = !tile.tile<[64, 128], bf16, #tile.mfma<a>>>
// CHECK: tile.lds_alloc "v" : <[64, 128], bf16, order = transpose !tile.tile<[128, 64], bf16, #tile.mfma<a, k_from_acc>>>
// CHECK: tile.lds_alloc "p" : <[BN, D], !tile.dtype<"DT">, pad = PAD, order = !tile.tile<[BN, D], !tile.dtype<"DT">, #tile.mfma<a>> if K_IMAGE>
func.func @lds_order() {
  %k = tile.lds_alloc "k" : !tile.lds<[64, 128], bf16, order = !tile.tile<[64, 128], bf16, #tile.mfma<a>>>
  %v = tile.lds_alloc "v" : !tile.lds<[64, 128], bf16, order = transpose !tile.tile<[128, 64], bf16, #tile.mfma<a, k_from_acc>>>
  %p = tile.lds_alloc "p" : !tile.lds<[BN, D], !tile.dtype<"DT">, pad = PAD, order = !tile.tile<[BN, D], !tile.dtype<"DT">, #tile.mfma<a>> if K_IMAGE>
  return
}

// The attention additions: DMA issued by the first %w waves only, a wait
// whose count is an SSA value, transposed LDS stores, a parameter-named pad.
// CHECK-LABEL: func.func @lds_attention(
// CHECK: %[[K:.*]] = tile.lds_alloc "k" : <[64, 64], bf16, pad = PAD>
// CHECK: tile.async_copy %{{.*}}[%{{.*}}, %{{.*}}] stride %{{.*}} -> %[[K]][%{{.*}}] waves %[[W:[^ ]*]] : <bf16>, <[64, 64], bf16, pad = PAD>
// CHECK: tile.async_copy %{{.*}}[%{{.*}}, %{{.*}}] stride %{{.*}} bounds %{{.*}}, %{{.*}} -> %[[K]][%{{.*}}] waves %[[W]] {width = 16 : i64} : <bf16>, <[64, 64], bf16, pad = PAD>
// CHECK: tile.async_copy %{{.*}}[%{{.*}}, %{{.*}}] stride %{{.*}} -> %[[K]][%{{.*}}] : <bf16>, <[64, 64], bf16, pad = PAD>
// CHECK: tile.wait_vmcnt %[[W]]{{$}}
// CHECK: tile.lds_store %{{.*}}, %[[K]][%{{.*}}] [%{{.*}}, %{{.*}}] transpose : <[8, 32], bf16, #tile.blocked<[4, 1], [2, 32]>>, <[64, 64], bf16, pad = PAD>
// CHECK: tile.lds_store %{{.*}}, %[[K]][%{{.*}}] [%{{.*}}, %{{.*}}] : <[8, 32], bf16, #tile.blocked<[4, 1], [2, 32]>>, <[64, 64], bf16, pad = PAD>
// CHECK: tile.lds_load %[[K]][%{{.*}}] [%{{.*}}, %{{.*}}] transpose : <[64, 64], bf16, pad = PAD> -> <[32, 32], bf16, #tile.mfma<b, k_from_acc>>
func.func @lds_attention(%buf: !tile.buffer<bf16>, %t: !tile.tile<[8, 32], bf16, #tile.blocked<[4, 1], [2, 32]>>,
                         %n: index, %i: index, %w: index) {
  %k = tile.lds_alloc "k" : !tile.lds<[64, 64], bf16, pad = PAD>
  tile.async_copy %buf[%i, %i] stride %n -> %k[%i] waves %w : !tile.buffer<bf16>, !tile.lds<[64, 64], bf16, pad = PAD>
  tile.async_copy %buf[%i, %i] stride %n bounds %n, %n -> %k[%i] waves %w {width = 16 : i64} : !tile.buffer<bf16>, !tile.lds<[64, 64], bf16, pad = PAD>
  tile.async_copy %buf[%i, %i] stride %n -> %k[%i] : !tile.buffer<bf16>, !tile.lds<[64, 64], bf16, pad = PAD>
  tile.wait_vmcnt %w
  tile.lds_store %t, %k[%i][%i, %i] transpose : !tile.tile<[8, 32], bf16, #tile.blocked<[4, 1], [2, 32]>>, !tile.lds<[64, 64], bf16, pad = PAD>
  tile.lds_store %t, %k[%i][%i, %i] : !tile.tile<[8, 32], bf16, #tile.blocked<[4, 1], [2, 32]>>, !tile.lds<[64, 64], bf16, pad = PAD>
  %0 = tile.lds_load %k[%i][%i, %i] transpose : !tile.lds<[64, 64], bf16, pad = PAD> -> !tile.tile<[32, 32], bf16, #tile.mfma<b, k_from_acc>>
  return
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @mma(
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : <[BM, BK], !tile.dtype<"DT">, #tile.mfma<a>>, <[BK, 64], !tile.dtype<"DT">, #tile.mfma<b>> -> <[BM, 64], f32, #tile.mfma<acc>>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : <[16, 16], f16, #tile.mfma<a, 16x16x16>>, <[16, 16], f16, #tile.mfma<b, 16x16x16>> -> <[16, 16], f32, #tile.mfma<acc, 16x16x16>>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : <[64, 32], bf16, #tile.mfma<a, 32x32x16>>, <[32, 32], bf16, #tile.mfma<b, 32x32x16>> -> <[64, 32], f32, #tile.mfma<acc, 32x32x16>>
func.func @mma(%a: !tile.tile<[BM, BK], !tile.dtype<"DT">, #tile.mfma<a>>,
               %b: !tile.tile<[BK, 64], !tile.dtype<"DT">, #tile.mfma<b>>,
               %c: !tile.tile<[BM, 64], f32, #tile.mfma<acc>>,
               %a16: !tile.tile<[16, 16], f16, #tile.mfma<a, 16x16x16>>,
               %b16: !tile.tile<[16, 16], f16, #tile.mfma<b, 16x16x16>>,
               %c16: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16x16>>,
               %a32: !tile.tile<[64, 32], bf16, #tile.mfma<a, 32x32x16>>,
               %b32: !tile.tile<[32, 32], bf16, #tile.mfma<b, 32x32x16>>,
               %c32: !tile.tile<[64, 32], f32, #tile.mfma<acc, 32x32x16>>) {
  %0 = tile.mma %a, %b, %c : !tile.tile<[BM, BK], !tile.dtype<"DT">, #tile.mfma<a>>, !tile.tile<[BK, 64], !tile.dtype<"DT">, #tile.mfma<b>> -> !tile.tile<[BM, 64], f32, #tile.mfma<acc>>
  %1 = tile.mma %a16, %b16, %c16 : !tile.tile<[16, 16], f16, #tile.mfma<a, 16x16x16>>, !tile.tile<[16, 16], f16, #tile.mfma<b, 16x16x16>> -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16x16>>
  %2 = tile.mma %a32, %b32, %c32 : !tile.tile<[64, 32], bf16, #tile.mfma<a, 32x32x16>>, !tile.tile<[32, 32], bf16, #tile.mfma<b, 32x32x16>> -> !tile.tile<[64, 32], f32, #tile.mfma<acc, 32x32x16>>
  return
}

// An accumulator fed back as the b operand by relayout, with the a operand
// in the same K order.
// CHECK-LABEL: func.func @mma_k_from_acc(
// CHECK: %[[PB:.*]] = tile.relayout %{{.*}} : <[32, 32], bf16, #tile.mfma<acc>> -> <[32, 32], bf16, #tile.mfma<b, k_from_acc>>
// CHECK: tile.mma %{{.*}}, %[[PB]], %{{.*}} : <[64, 32], bf16, #tile.mfma<a, k_from_acc>>, <[32, 32], bf16, #tile.mfma<b, k_from_acc>> -> <[64, 32], f32, #tile.mfma<acc>>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : <[16, 32], f16, #tile.mfma<a, 16x16x32, k_from_acc>>, <[32, 16], f16, #tile.mfma<b, 16x16x32, k_from_acc>> -> <[16, 16], f32, #tile.mfma<acc, 16x16x32>>
func.func @mma_k_from_acc(%p: !tile.tile<[32, 32], bf16, #tile.mfma<acc>>,
                          %v: !tile.tile<[64, 32], bf16, #tile.mfma<a, k_from_acc>>,
                          %o: !tile.tile<[64, 32], f32, #tile.mfma<acc>>,
                          %a16: !tile.tile<[16, 32], f16, #tile.mfma<a, 16x16x32, k_from_acc>>,
                          %b16: !tile.tile<[32, 16], f16, #tile.mfma<b, 16x16x32, k_from_acc>>,
                          %c16: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16x32>>) {
  %pb = tile.relayout %p : !tile.tile<[32, 32], bf16, #tile.mfma<acc>> -> !tile.tile<[32, 32], bf16, #tile.mfma<b, k_from_acc>>
  %0 = tile.mma %v, %pb, %o : !tile.tile<[64, 32], bf16, #tile.mfma<a, k_from_acc>>, !tile.tile<[32, 32], bf16, #tile.mfma<b, k_from_acc>> -> !tile.tile<[64, 32], f32, #tile.mfma<acc>>
  %1 = tile.mma %a16, %b16, %c16 : !tile.tile<[16, 32], f16, #tile.mfma<a, 16x16x32, k_from_acc>>, !tile.tile<[32, 16], f16, #tile.mfma<b, 16x16x32, k_from_acc>> -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16x32>>
  return
}

// FP8 operands: both families, e4m3 and e5m2 mixed, the f8f6f4 shapes,
// an accumulator of another K, and the conversions to and from f32.
// CHECK-LABEL: func.func @mma_fp8(
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : <[32, 64], f8E4M3FN, #tile.mfma<a, 32x32x64>>, <[64, 32], f8E5M2, #tile.mfma<b, 32x32x64>> -> <[32, 32], f32, #tile.mfma<acc>>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : <[16, 32], f8E5M2FNUZ, #tile.mfma<a, 16x16x32>>, <[32, 16], f8E4M3FNUZ, #tile.mfma<b, 16x16x32>> -> <[16, 16], f32, #tile.mfma<acc, 16x16x16>>
// CHECK: %[[Q:.*]] = tile.convert %{{.*}} : <[32, 32], f32, #tile.mfma<acc>> -> <[32, 32], f8E4M3FN, #tile.mfma<acc>>
// CHECK: tile.convert %[[Q]] : <[32, 32], f8E4M3FN, #tile.mfma<acc>> -> <[32, 32], f32, #tile.mfma<acc>>
// CHECK: tile.lds_alloc "q" : <[64, 128], f8E5M2FNUZ, pad = 16>
func.func @mma_fp8(%a: !tile.tile<[32, 64], f8E4M3FN, #tile.mfma<a, 32x32x64>>,
                   %b: !tile.tile<[64, 32], f8E5M2, #tile.mfma<b, 32x32x64>>,
                   %c: !tile.tile<[32, 32], f32, #tile.mfma<acc>>,
                   %a16: !tile.tile<[16, 32], f8E5M2FNUZ, #tile.mfma<a, 16x16x32>>,
                   %b16: !tile.tile<[32, 16], f8E4M3FNUZ, #tile.mfma<b, 16x16x32>>,
                   %c16: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16x16>>) {
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 64], f8E4M3FN, #tile.mfma<a, 32x32x64>>, !tile.tile<[64, 32], f8E5M2, #tile.mfma<b, 32x32x64>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %1 = tile.mma %a16, %b16, %c16 : !tile.tile<[16, 32], f8E5M2FNUZ, #tile.mfma<a, 16x16x32>>, !tile.tile<[32, 16], f8E4M3FNUZ, #tile.mfma<b, 16x16x32>> -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16x16>>
  %q = tile.convert %0 : !tile.tile<[32, 32], f32, #tile.mfma<acc>> -> !tile.tile<[32, 32], f8E4M3FN, #tile.mfma<acc>>
  %2 = tile.convert %q : !tile.tile<[32, 32], f8E4M3FN, #tile.mfma<acc>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %l = tile.lds_alloc "q" : !tile.lds<[64, 128], f8E5M2FNUZ, pad = 16>
  return
}

// CHECK-LABEL: func.func @elementwise(
// CHECK: tile.addf %{{.*}}, %{{.*}} : <[32, 32], f32, #tile.mfma<acc, 16x16>>
// CHECK: tile.subf %{{.*}}, %{{.*}} : <[32, 32], f32, #tile.mfma<acc, 16x16>>
// CHECK: tile.mulf %{{.*}}, %{{.*}} : <[32, 32], f32, #tile.mfma<acc, 16x16>>
// CHECK: tile.maxf %{{.*}}, %{{.*}} : <[32, 32], f32, #tile.mfma<acc, 16x16>>
// CHECK: tile.minf %{{.*}}, %{{.*}} : <[32, 32], f32, #tile.mfma<acc, 16x16>>
// CHECK: tile.exp2 %{{.*}} : <[32, 32], f32, #tile.mfma<acc, 16x16>>
// CHECK: tile.convert %{{.*}} : <[32, 32], f32, #tile.mfma<acc, 16x16>> -> <[32, 32], bf16, #tile.mfma<acc, 16x16>>
// CHECK: tile.convert %{{.*}} : <[32, 32], bf16, #tile.mfma<acc, 16x16>> -> <[32, 32], f32, #tile.mfma<acc, 16x16>>
// CHECK: tile.convert %{{.*}} : <[32, 32], f32, #tile.mfma<acc, 16x16>> -> <[32, 32], !tile.dtype<"OUT">, #tile.mfma<acc, 16x16>>
// CHECK: tile.convert %{{.*}} fast_rounding : <[32, 32], f32, #tile.mfma<acc, 16x16>> -> <[32, 32], bf16, #tile.mfma<acc, 16x16>>
// CHECK: tile.convert %{{.*}} fast_rounding ties_any : <[32, 32], f32, #tile.mfma<acc, 16x16>> -> <[32, 32], bf16, #tile.mfma<acc, 16x16>>
// CHECK: tile.splat %{{.*}} : f32 -> <[32, 32], f32, #tile.mfma<acc, 16x16>>
// CHECK: tile.splat %{{.*}} : i32 -> <[32, 32], i32, #tile.mfma<acc, 16x16>>
// CHECK: tile.undef : <[8, 128], bf16, #tile.blocked<[4, 2], [2, 32]>>
// CHECK: %[[R:.*]] = tile.iota 0 : <[32, 32], i32, #tile.mfma<acc, 16x16>>
// CHECK: %[[C:.*]] = tile.iota 1 : <[32, 32], i32, #tile.mfma<acc, 16x16>>
// CHECK: tile.addi %[[R]], %[[C]] : <[32, 32], i32, #tile.mfma<acc, 16x16>>
// CHECK: tile.subi %[[R]], %[[C]] : <[32, 32], i32, #tile.mfma<acc, 16x16>>
// CHECK: %[[M:.*]] = tile.cmpi sge, %{{.*}}, %{{.*}} : <[32, 32], i32, #tile.mfma<acc, 16x16>> -> <[32, 32], i1, #tile.mfma<acc, 16x16>>
// CHECK: tile.cmpi ult, %{{.*}}, %{{.*}} : <[32, 32], i32, #tile.mfma<acc, 16x16>> -> <[32, 32], i1, #tile.mfma<acc, 16x16>>
// CHECK: tile.select %[[M]], %{{.*}}, %{{.*}} : <[32, 32], i1, #tile.mfma<acc, 16x16>>, <[32, 32], f32, #tile.mfma<acc, 16x16>>
func.func @elementwise(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>>, %f: f32, %i: i32) {
  %0 = tile.addf %x, %x : !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>>
  %1 = tile.subf %0, %x : !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>>
  %2 = tile.mulf %1, %x : !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>>
  %3 = tile.maxf %2, %x : !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>>
  %4 = tile.minf %3, %x : !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>>
  %5 = tile.exp2 %4 : !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>>
  %6 = tile.convert %5 : !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>> -> !tile.tile<[32, 32], bf16, #tile.mfma<acc, 16x16>>
  %7 = tile.convert %6 : !tile.tile<[32, 32], bf16, #tile.mfma<acc, 16x16>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>>
  %8 = tile.convert %7 : !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>> -> !tile.tile<[32, 32], !tile.dtype<"OUT">, #tile.mfma<acc, 16x16>>
  %fast = tile.convert %7 fast_rounding : !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>> -> !tile.tile<[32, 32], bf16, #tile.mfma<acc, 16x16>>
  %ties = tile.convert %7 fast_rounding ties_any : !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>> -> !tile.tile<[32, 32], bf16, #tile.mfma<acc, 16x16>>
  %9 = tile.splat %f : f32 -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>>
  %10 = tile.splat %i : i32 -> !tile.tile<[32, 32], i32, #tile.mfma<acc, 16x16>>
  %undef = tile.undef : !tile.tile<[8, 128], bf16, #tile.blocked<[4, 2], [2, 32]>>
  %r = tile.iota 0 : !tile.tile<[32, 32], i32, #tile.mfma<acc, 16x16>>
  %c = tile.iota 1 : !tile.tile<[32, 32], i32, #tile.mfma<acc, 16x16>>
  %11 = tile.addi %r, %c : !tile.tile<[32, 32], i32, #tile.mfma<acc, 16x16>>
  %12 = tile.subi %r, %c : !tile.tile<[32, 32], i32, #tile.mfma<acc, 16x16>>
  %13 = tile.cmpi sge, %11, %10 : !tile.tile<[32, 32], i32, #tile.mfma<acc, 16x16>> -> !tile.tile<[32, 32], i1, #tile.mfma<acc, 16x16>>
  %14 = tile.cmpi ult, %12, %10 : !tile.tile<[32, 32], i32, #tile.mfma<acc, 16x16>> -> !tile.tile<[32, 32], i1, #tile.mfma<acc, 16x16>>
  %15 = tile.select %13, %5, %9 : !tile.tile<[32, 32], i1, #tile.mfma<acc, 16x16>>, !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>>
  return
}

// The softmax and normalisation ops of attention.
// CHECK-LABEL: func.func @elementwise_attention(
// CHECK: %[[F:.*]] = tile.fma %{{.*}}, %{{.*}}, %{{.*}} : <[32, 32], f32, #tile.mfma<acc>>
// CHECK: %[[D:.*]] = tile.divf %[[F]], %{{.*}} : <[32, 32], f32, #tile.mfma<acc>>
// CHECK: %[[L:.*]] = tile.log2 %[[D]] : <[32, 32], f32, #tile.mfma<acc>>
// CHECK: %[[GT:.*]] = tile.cmpf ogt, %[[L]], %{{.*}} : <[32, 32], f32, #tile.mfma<acc>> -> <[32, 32], i1, #tile.mfma<acc>>
// CHECK: tile.cmpf oeq, %{{.*}}, %{{.*}} : <[32, 1], f32, #tile.slice<1, #tile.mfma<acc>>> -> <[32, 1], i1, #tile.slice<1, #tile.mfma<acc>>>
// CHECK: tile.cmpf uno, %{{.*}}, %{{.*}} : <[32, 32], !tile.dtype<"OUT">, #tile.mfma<acc>> -> <[32, 32], i1, #tile.mfma<acc>>
// CHECK: tile.any %[[GT]] : <[32, 32], i1, #tile.mfma<acc>>
// CHECK: tile.any %{{.*}} : <[32, 1], i1, #tile.slice<1, #tile.mfma<acc>>>
func.func @elementwise_attention(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc>>,
                                 %r: !tile.tile<[32, 1], f32, #tile.slice<1, #tile.mfma<acc>>>,
                                 %o: !tile.tile<[32, 32], !tile.dtype<"OUT">, #tile.mfma<acc>>) -> (i1, i1) {
  %0 = tile.fma %x, %x, %x : !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %1 = tile.divf %0, %x : !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %2 = tile.log2 %1 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %3 = tile.cmpf ogt, %2, %x : !tile.tile<[32, 32], f32, #tile.mfma<acc>> -> !tile.tile<[32, 32], i1, #tile.mfma<acc>>
  %4 = tile.cmpf oeq, %r, %r : !tile.tile<[32, 1], f32, #tile.slice<1, #tile.mfma<acc>>> -> !tile.tile<[32, 1], i1, #tile.slice<1, #tile.mfma<acc>>>
  %5 = tile.cmpf uno, %o, %o : !tile.tile<[32, 32], !tile.dtype<"OUT">, #tile.mfma<acc>> -> !tile.tile<[32, 32], i1, #tile.mfma<acc>>
  %6 = tile.any %3 : !tile.tile<[32, 32], i1, #tile.mfma<acc>>
  %7 = tile.any %4 : !tile.tile<[32, 1], i1, #tile.slice<1, #tile.mfma<acc>>>
  return %6, %7 : i1, i1
}

// CHECK-LABEL: func.func @reductions(
// CHECK: %[[MAX:.*]] = tile.reduce_max %{{.*}} dim 1 : <[BM, 64], f32, #tile.mfma<acc>> -> <[BM, 1], f32, #tile.slice<1, #tile.mfma<acc>>>
// CHECK: tile.reduce_sum %{{.*}} dim 0 : <[BM, 64], f32, #tile.mfma<acc>> -> <[1, 64], f32, #tile.slice<0, #tile.mfma<acc>>>
// CHECK: tile.reduce_sum %{{.*}} dim 1 : <[16, 64], i32, #tile.blocked<[1, 8], [8, 8]>> -> <[16, 1], i32, #tile.slice<1, #tile.blocked<[1, 8], [8, 8]>>>
// CHECK: tile.broadcast %[[MAX]] : <[BM, 1], f32, #tile.slice<1, #tile.mfma<acc>>> -> <[BM, 64], f32, #tile.mfma<acc>>
// CHECK: tile.relayout %{{.*}} : <[32, 32], bf16, #tile.mfma<acc, 32x32x8>> -> <[32, 32], bf16, #tile.mfma<a, 32x32x16>>
func.func @reductions(%x: !tile.tile<[BM, 64], f32, #tile.mfma<acc>>,
                      %y: !tile.tile<[16, 64], i32, #tile.blocked<[1, 8], [8, 8]>>,
                      %p: !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>>) {
  %0 = tile.reduce_max %x dim 1 : !tile.tile<[BM, 64], f32, #tile.mfma<acc>> -> !tile.tile<[BM, 1], f32, #tile.slice<1, #tile.mfma<acc>>>
  %1 = tile.reduce_sum %x dim 0 : !tile.tile<[BM, 64], f32, #tile.mfma<acc>> -> !tile.tile<[1, 64], f32, #tile.slice<0, #tile.mfma<acc>>>
  %2 = tile.reduce_sum %y dim 1 : !tile.tile<[16, 64], i32, #tile.blocked<[1, 8], [8, 8]>> -> !tile.tile<[16, 1], i32, #tile.slice<1, #tile.blocked<[1, 8], [8, 8]>>>
  %3 = tile.broadcast %0 : !tile.tile<[BM, 1], f32, #tile.slice<1, #tile.mfma<acc>>> -> !tile.tile<[BM, 64], f32, #tile.mfma<acc>>
  %4 = tile.relayout %p : !tile.tile<[32, 32], bf16, #tile.mfma<acc, 32x32x8>> -> !tile.tile<[32, 32], bf16, #tile.mfma<a, 32x32x16>>
  return
}

//===----------------------------------------------------------------------===//
// Synchronisation and scheduling
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @sched(
// CHECK: tile.barrier{{$}}
// CHECK-NEXT: tile.barrier unfenced{{$}}
// CHECK-NEXT: tile.sched_barrier []{{$}}
// CHECK-NEXT: tile.sched_barrier [valu, salu]{{$}}
// CHECK-NEXT: tile.sched_barrier [alu, mfma, vmem, vmem_read, vmem_write, ds, ds_read, ds_write, trans]{{$}}
// CHECK-NEXT: tile.sched_group_barrier <mfma, 1>{{$}}
// CHECK-NEXT: tile.sched_group_barrier <mfma, 1>{{$}}
// CHECK-NEXT: tile.sched_group_barrier <ds_read, 2> sync 1{{$}}
// CHECK-NEXT: tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<valu, 2>, #tile.group<trans, 1>] x 16{{$}}
// CHECK-NEXT: tile.sched_interleave [#tile.group<vmem_read, 1>, #tile.group<ds_write, 4>] x 2 sync 3{{$}}
// CHECK-NEXT: tile.setprio 0{{$}}
// CHECK-NEXT: tile.setprio 3{{$}}
// CHECK-NEXT: tile.stagger %{{.*}} {
// CHECK-NEXT:   tile.setprio 1
// CHECK-NEXT:   tile.barrier
// CHECK-NEXT:   tile.stagger %{{.*}} {
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @sched(%lagging: i1) {
  tile.barrier
  tile.barrier unfenced
  tile.sched_barrier []
  tile.sched_barrier [valu, salu]
  tile.sched_barrier [alu, mfma, vmem, vmem_read, vmem_write, ds, ds_read, ds_write, trans]
  tile.sched_group_barrier #tile.group<mfma, 1>
  tile.sched_group_barrier #tile.group<mfma, 1> sync 0
  tile.sched_group_barrier #tile.group<ds_read, 2> sync 1
  tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<valu, 2>, #tile.group<trans, 1>] x 16
  tile.sched_interleave [#tile.group<vmem_read, 1>, #tile.group<ds_write, 4>] x 2 sync 3
  tile.setprio 0
  tile.setprio 3
  tile.stagger %lagging {
    tile.setprio 1
    tile.barrier
    tile.stagger %lagging {
    }
  }
  return
}

// A stagger that returns values through tile.yield; one without results
// needs no yield in the source and prints none.
// CHECK-LABEL: func.func @stagger_results(
// CHECK: %[[R:.*]]:2 = tile.stagger %{{.*}} -> (f32, !tile.tile<[32, 32], f32, #tile.mfma<acc>>) {
// CHECK-NEXT:   %[[A:.*]] = tile.addf %{{.*}}, %{{.*}} : <[32, 32], f32, #tile.mfma<acc>>
// CHECK-NEXT:   tile.barrier
// CHECK-NEXT:   tile.yield %{{.*}}, %[[A]] : f32, !tile.tile<[32, 32], f32, #tile.mfma<acc>>
// CHECK-NEXT: }
// CHECK-NEXT: tile.stagger %{{.*}} {
// CHECK-NEXT:   tile.barrier
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1 : f32, !tile.tile<[32, 32], f32, #tile.mfma<acc>>
func.func @stagger_results(%lagging: i1, %f: f32, %x: !tile.tile<[32, 32], f32, #tile.mfma<acc>>) -> (f32, !tile.tile<[32, 32], f32, #tile.mfma<acc>>) {
  %r:2 = tile.stagger %lagging -> (f32, !tile.tile<[32, 32], f32, #tile.mfma<acc>>) {
    %a = tile.addf %x, %x : !tile.tile<[32, 32], f32, #tile.mfma<acc>>
    tile.barrier
    tile.yield %f, %a : f32, !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  }
  tile.stagger %lagging {
    tile.barrier
    tile.yield
  }
  return %r#0, %r#1 : f32, !tile.tile<[32, 32], f32, #tile.mfma<acc>>
}

//===----------------------------------------------------------------------===//
// Multi-GPU: peer memory and flags
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @peers_and_flags(
// CHECK: %[[P:.*]] = tile.peer_ptr %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : <bf16>, <i64>
// CHECK-NEXT: tile.flag_store %{{.*}}[%{{.*}}], %{{.*}} agent : <i32>
// CHECK-NEXT: tile.flag_wait %{{.*}}[%{{.*}}] ge %{{.*}} agent : <i32>
// CHECK-NEXT: tile.flag_wait %{{.*}}[%{{.*}}] eq %{{.*}} system : <i32>
// CHECK-NEXT: %[[T:.*]] = tile.flag_test %{{.*}}[%{{.*}}] count %{{.*}} ge %{{.*}} agent : <i32>
// CHECK-NEXT: %{{.*}} = tile.flag_test %{{.*}}[%{{.*}}] count %{{.*}} eq %{{.*}} workgroup : <i32>
// CHECK-NEXT: tile.fence agent
// CHECK-NEXT: return %[[P]], %[[T]]
func.func @peers_and_flags(%a: !tile.ptr<bf16>, %bases: !tile.ptr<i64>, %flags: !tile.ptr<i32>,
                           %i: index, %n: index, %v: i32) -> (!tile.ptr<bf16>, i1) {
  %p = tile.peer_ptr %a, %bases, %i, %n : !tile.ptr<bf16>, !tile.ptr<i64>
  tile.flag_store %flags[%i], %v agent : !tile.ptr<i32>
  tile.flag_wait %flags[%i] ge %v agent : !tile.ptr<i32>
  tile.flag_wait %flags[%i] eq %v system : !tile.ptr<i32>
  %t = tile.flag_test %flags[%i] count %n ge %v agent : !tile.ptr<i32>
  %u = tile.flag_test %flags[%i] count %n eq %v workgroup : !tile.ptr<i32>
  tile.fence agent
  return %p, %t : !tile.ptr<bf16>, i1
}

// A kernel entry point with its workgroup size.
// CHECK-LABEL: func.func @kernel()
// CHECK-SAME: attributes {tile.block_size = 256 : i64, tile.kernel}
func.func @kernel() attributes {tile.kernel, tile.block_size = 256 : i64} {
  return
}

// The workgroup size may name a parameter (tile-specialize resolves it).
// CHECK-LABEL: func.func @kernel_param_block()
// CHECK-SAME: attributes {tile.block_size = @BLOCK, tile.kernel}
func.func @kernel_param_block() attributes {tile.kernel, tile.block_size = @BLOCK} {
  return
}
