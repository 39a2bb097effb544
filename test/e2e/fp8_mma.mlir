// FP8 matrix products through tile.mma, for Fp8MmaTest.cpp: C = A * Bt^T for
// one M x N block (M, N <= the tile) with K <= KT, A [M, K] and Bt [N, K]
// row-major in global memory, C [M, N] f32. A and B may hold different FP8
// formats (e4m3 and e5m2 of one family).
//
// Each function uses one MFMA shape; all of them move their operands the
// same two ways, so that every byte path of the lowering runs:
//  - A through registers: a bounded global load in the MFMA `a` layout
//    (rows past M and columns past K read as 0), stored to LDS as it is and
//    read back;
//  - Bt by LDS DMA (4 bytes per lane, bounded: K must be a multiple of 4)
//    and a transposed LDS read in the `b` layout.
// C leaves by a bounded store.

tile.type_param_decl @AT = f8E4M3FN of [f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ]
tile.type_param_decl @BT = f8E4M3FN of [f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ]
tile.param_decl @KT : i64 = 128

!pa = !tile.ptr<!tile.dtype<"AT">>
!pb = !tile.ptr<!tile.dtype<"BT">>
!ba = !tile.buffer<!tile.dtype<"AT">>
!bb = !tile.buffer<!tile.dtype<"BT">>

// The chip's widest 32x32 FP8 MFMA (gfx942: 32x32x16, gfx950: 32x32x64).
func.func @mma32(%pa: !pa, %pb: !pb, %pc: !tile.ptr<f32>, %M: index, %N: index, %K: index)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %na = arith.muli %M, %K : index
  %nb = arith.muli %N, %K : index
  %nc = arith.muli %M, %N : index
  %abuf = tile.make_buffer %pa, %na : !pa -> !ba
  %bbuf = tile.make_buffer %pb, %nb : !pb -> !bb
  %cbuf = tile.make_buffer %pc, %nc : !tile.ptr<f32> -> !tile.buffer<f32>
  %la = tile.lds_alloc "a" : !tile.lds<[32, KT], !tile.dtype<"AT">>
  %lb = tile.lds_alloc "b" : !tile.lds<[32, KT], !tile.dtype<"BT">>
  %ga = tile.load %abuf[%c0, %c0] stride %K bounds %M, %K : !ba -> !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a>>
  tile.lds_store %ga, %la[%c0][%c0, %c0] : !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a>>, !tile.lds<[32, KT], !tile.dtype<"AT">>
  tile.async_copy %bbuf[%c0, %c0] stride %K bounds %N, %K -> %lb[%c0] : !bb, !tile.lds<[32, KT], !tile.dtype<"BT">>
  tile.wait vmcnt(0)
  %a = tile.lds_load %la[%c0][%c0, %c0] : !tile.lds<[32, KT], !tile.dtype<"AT">> -> !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a>>
  %b = tile.lds_load %lb[%c0][%c0, %c0] transpose : !tile.lds<[32, KT], !tile.dtype<"BT">> -> !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b>>
  %acc = tile.splat %z : f32 -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %c = tile.mma %a, %b, %acc : !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a>>, !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  tile.store %c, %cbuf[%c0, %c0] stride %N bounds %M, %N : !tile.tile<[32, 32], f32, #tile.mfma<acc>>, !tile.buffer<f32>
  return
}

// The chip's widest 16x16 FP8 MFMA (gfx942: 16x16x32, gfx950: 16x16x128).
func.func @mma16(%pa: !pa, %pb: !pb, %pc: !tile.ptr<f32>, %M: index, %N: index, %K: index)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %na = arith.muli %M, %K : index
  %nb = arith.muli %N, %K : index
  %nc = arith.muli %M, %N : index
  %abuf = tile.make_buffer %pa, %na : !pa -> !ba
  %bbuf = tile.make_buffer %pb, %nb : !pb -> !bb
  %cbuf = tile.make_buffer %pc, %nc : !tile.ptr<f32> -> !tile.buffer<f32>
  %la = tile.lds_alloc "a" : !tile.lds<[16, KT], !tile.dtype<"AT">>
  %lb = tile.lds_alloc "b" : !tile.lds<[16, KT], !tile.dtype<"BT">>
  %ga = tile.load %abuf[%c0, %c0] stride %K bounds %M, %K : !ba -> !tile.tile<[16, KT], !tile.dtype<"AT">, #tile.mfma<a, 16x16>>
  tile.lds_store %ga, %la[%c0][%c0, %c0] : !tile.tile<[16, KT], !tile.dtype<"AT">, #tile.mfma<a, 16x16>>, !tile.lds<[16, KT], !tile.dtype<"AT">>
  tile.async_copy %bbuf[%c0, %c0] stride %K bounds %N, %K -> %lb[%c0] : !bb, !tile.lds<[16, KT], !tile.dtype<"BT">>
  tile.wait vmcnt(0)
  %a = tile.lds_load %la[%c0][%c0, %c0] : !tile.lds<[16, KT], !tile.dtype<"AT">> -> !tile.tile<[16, KT], !tile.dtype<"AT">, #tile.mfma<a, 16x16>>
  %b = tile.lds_load %lb[%c0][%c0, %c0] transpose : !tile.lds<[16, KT], !tile.dtype<"BT">> -> !tile.tile<[KT, 16], !tile.dtype<"BT">, #tile.mfma<b, 16x16>>
  %acc = tile.splat %z : f32 -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %c = tile.mma %a, %b, %acc : !tile.tile<[16, KT], !tile.dtype<"AT">, #tile.mfma<a, 16x16>>, !tile.tile<[KT, 16], !tile.dtype<"BT">, #tile.mfma<b, 16x16>> -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  tile.store %c, %cbuf[%c0, %c0] stride %N bounds %M, %N : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>, !tile.buffer<f32>
  return
}

// 32x32x16 named explicitly: v_mfma_f32_32x32x16_fp8_fp8 and its bf8
// mixes, on gfx950 as well (where the default is the f8f6f4 32x32x64).
func.func @mma32x16(%pa: !pa, %pb: !pb, %pc: !tile.ptr<f32>, %M: index, %N: index, %K: index)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %na = arith.muli %M, %K : index
  %nb = arith.muli %N, %K : index
  %nc = arith.muli %M, %N : index
  %abuf = tile.make_buffer %pa, %na : !pa -> !ba
  %bbuf = tile.make_buffer %pb, %nb : !pb -> !bb
  %cbuf = tile.make_buffer %pc, %nc : !tile.ptr<f32> -> !tile.buffer<f32>
  %la = tile.lds_alloc "a" : !tile.lds<[32, KT], !tile.dtype<"AT">>
  %lb = tile.lds_alloc "b" : !tile.lds<[32, KT], !tile.dtype<"BT">>
  %ga = tile.load %abuf[%c0, %c0] stride %K bounds %M, %K : !ba -> !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a, 32x32x16>>
  tile.lds_store %ga, %la[%c0][%c0, %c0] : !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a, 32x32x16>>, !tile.lds<[32, KT], !tile.dtype<"AT">>
  tile.async_copy %bbuf[%c0, %c0] stride %K bounds %N, %K -> %lb[%c0] : !bb, !tile.lds<[32, KT], !tile.dtype<"BT">>
  tile.wait vmcnt(0)
  %a = tile.lds_load %la[%c0][%c0, %c0] : !tile.lds<[32, KT], !tile.dtype<"AT">> -> !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a, 32x32x16>>
  %b = tile.lds_load %lb[%c0][%c0, %c0] transpose : !tile.lds<[32, KT], !tile.dtype<"BT">> -> !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b, 32x32x16>>
  %acc = tile.splat %z : f32 -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %c = tile.mma %a, %b, %acc : !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a, 32x32x16>>, !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b, 32x32x16>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  tile.store %c, %cbuf[%c0, %c0] stride %N bounds %M, %N : !tile.tile<[32, 32], f32, #tile.mfma<acc>>, !tile.buffer<f32>
  return
}

// Two products chained through an FP8 accumulator, as attention's P.V is
// fed: S = A * Bt^T (32 x 32, f32), P = S converted to A's FP8 format
// (saturating), reinterpreted by tile.relayout alone as the `b` operand of
// O = V * P (V [32, 32] in A's format, K in the accumulator's row order on
// both operands: k_from_acc). 32x32x16 on both chips.
func.func @chain(%pa: !pa, %pb: !pb, %pv: !pa, %po: !tile.ptr<f32>, %K: index)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0.0 : f32
  %na = arith.muli %c32, %K : index
  %n32 = arith.muli %c32, %c32 : index
  %abuf = tile.make_buffer %pa, %na : !pa -> !ba
  %bbuf = tile.make_buffer %pb, %na : !pb -> !bb
  %vbuf = tile.make_buffer %pv, %n32 : !pa -> !ba
  %obuf = tile.make_buffer %po, %n32 : !tile.ptr<f32> -> !tile.buffer<f32>
  %a = tile.load %abuf[%c0, %c0] stride %K bounds %c32, %K : !ba -> !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a, 32x32x16>>
  %b = tile.load %bbuf[%c0, %c0] stride %K bounds %c32, %K transpose : !bb -> !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b, 32x32x16>>
  %zero = tile.splat %z : f32 -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %s = tile.mma %a, %b, %zero : !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a, 32x32x16>>, !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b, 32x32x16>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %p = tile.convert %s : !tile.tile<[32, 32], f32, #tile.mfma<acc>> -> !tile.tile<[32, 32], !tile.dtype<"AT">, #tile.mfma<acc>>
  %pk = tile.relayout %p : !tile.tile<[32, 32], !tile.dtype<"AT">, #tile.mfma<acc>> -> !tile.tile<[32, 32], !tile.dtype<"AT">, #tile.mfma<b, 32x32x16, k_from_acc>>
  %v = tile.load %vbuf[%c0, %c0] stride %c32 : !ba -> !tile.tile<[32, 32], !tile.dtype<"AT">, #tile.mfma<a, 32x32x16, k_from_acc>>
  %o = tile.mma %v, %pk, %zero : !tile.tile<[32, 32], !tile.dtype<"AT">, #tile.mfma<a, 32x32x16, k_from_acc>>, !tile.tile<[32, 32], !tile.dtype<"AT">, #tile.mfma<b, 32x32x16, k_from_acc>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  tile.store %o, %obuf[%c0, %c0] stride %c32 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>, !tile.buffer<f32>
  return
}
