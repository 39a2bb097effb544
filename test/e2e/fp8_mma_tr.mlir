// gfx950's transposing LDS read of FP8 MFMA operands, for Fp8MmaTest.cpp:
// C [32, 32] = A * B with A given as A^T [K, 32] and B as [K, 32], both
// row-major and brought to LDS by DMA (plain or swizzled rows: SWZ), so
// that every lane's operand registers run down LDS columns and are
// gathered by ds_read_b64_tr_b8. (gfx942 has no such read: the verifier
// refuses these loads there.)

tile.type_param_decl @AT = f8E4M3FN of [f8E4M3FN, f8E5M2]
tile.type_param_decl @BT = f8E4M3FN of [f8E4M3FN, f8E5M2]
tile.param_decl @KT : i64 = 128
tile.param_decl @SWZ : i64 = 0

!la = !tile.lds<[KT, 32], !tile.dtype<"AT">, swizzle = SWZ>
!lb = !tile.lds<[KT, 32], !tile.dtype<"BT">, swizzle = SWZ>

func.func @kn(%pa: !tile.ptr<!tile.dtype<"AT">>, %pb: !tile.ptr<!tile.dtype<"BT">>, %pc: !tile.ptr<f32>)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %kt = tile.param @KT : index
  %n = arith.muli %kt, %c32 : index
  %z = arith.constant 0.0 : f32
  %abuf = tile.make_buffer %pa, %n : !tile.ptr<!tile.dtype<"AT">> -> !tile.buffer<!tile.dtype<"AT">>
  %bbuf = tile.make_buffer %pb, %n : !tile.ptr<!tile.dtype<"BT">> -> !tile.buffer<!tile.dtype<"BT">>
  %cbuf = tile.make_buffer %pc, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %la = tile.lds_alloc "a" : !la
  %lb = tile.lds_alloc "b" : !lb
  tile.async_copy %abuf[%c0, %c0] stride %c32 -> %la[%c0] : !tile.buffer<!tile.dtype<"AT">>, !la
  tile.async_copy %bbuf[%c0, %c0] stride %c32 -> %lb[%c0] : !tile.buffer<!tile.dtype<"BT">>, !lb
  tile.wait vmcnt(0)
  %a = tile.lds_load %la[%c0][%c0, %c0] transpose : !la -> !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a>>
  %b = tile.lds_load %lb[%c0][%c0, %c0] : !lb -> !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b>>
  %acc = tile.splat %z : f32 -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %c = tile.mma %a, %b, %acc : !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a>>, !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  tile.store %c, %cbuf[%c0, %c0] stride %c32 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>, !tile.buffer<f32>
  return
}

// @kn with gfx950's 16-byte LDS DMA (16 FP8 elements per lane).
func.func @kn_wide(%pa: !tile.ptr<!tile.dtype<"AT">>, %pb: !tile.ptr<!tile.dtype<"BT">>, %pc: !tile.ptr<f32>)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %kt = tile.param @KT : index
  %n = arith.muli %kt, %c32 : index
  %z = arith.constant 0.0 : f32
  %abuf = tile.make_buffer %pa, %n : !tile.ptr<!tile.dtype<"AT">> -> !tile.buffer<!tile.dtype<"AT">>
  %bbuf = tile.make_buffer %pb, %n : !tile.ptr<!tile.dtype<"BT">> -> !tile.buffer<!tile.dtype<"BT">>
  %cbuf = tile.make_buffer %pc, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %la = tile.lds_alloc "a" : !la
  %lb = tile.lds_alloc "b" : !lb
  tile.async_copy %abuf[%c0, %c0] stride %c32 -> %la[%c0] {width = 16 : i64} : !tile.buffer<!tile.dtype<"AT">>, !la
  tile.async_copy %bbuf[%c0, %c0] stride %c32 -> %lb[%c0] {width = 16 : i64} : !tile.buffer<!tile.dtype<"BT">>, !lb
  tile.wait vmcnt(0)
  %a = tile.lds_load %la[%c0][%c0, %c0] transpose : !la -> !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a>>
  %b = tile.lds_load %lb[%c0][%c0, %c0] : !lb -> !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b>>
  %acc = tile.splat %z : f32 -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %c = tile.mma %a, %b, %acc : !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a>>, !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  tile.store %c, %cbuf[%c0, %c0] stride %c32 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>, !tile.buffer<f32>
  return
}

// The same operands at 32x32x16 (8 bytes per lane per instance: one
// transposing read each).
func.func @kn16(%pa: !tile.ptr<!tile.dtype<"AT">>, %pb: !tile.ptr<!tile.dtype<"BT">>, %pc: !tile.ptr<f32>)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %kt = tile.param @KT : index
  %n = arith.muli %kt, %c32 : index
  %z = arith.constant 0.0 : f32
  %abuf = tile.make_buffer %pa, %n : !tile.ptr<!tile.dtype<"AT">> -> !tile.buffer<!tile.dtype<"AT">>
  %bbuf = tile.make_buffer %pb, %n : !tile.ptr<!tile.dtype<"BT">> -> !tile.buffer<!tile.dtype<"BT">>
  %cbuf = tile.make_buffer %pc, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %la = tile.lds_alloc "a" : !la
  %lb = tile.lds_alloc "b" : !lb
  tile.async_copy %abuf[%c0, %c0] stride %c32 -> %la[%c0] : !tile.buffer<!tile.dtype<"AT">>, !la
  tile.async_copy %bbuf[%c0, %c0] stride %c32 -> %lb[%c0] : !tile.buffer<!tile.dtype<"BT">>, !lb
  tile.wait vmcnt(0)
  %a = tile.lds_load %la[%c0][%c0, %c0] transpose : !la -> !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a, 32x32x16>>
  %b = tile.lds_load %lb[%c0][%c0, %c0] : !lb -> !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b, 32x32x16>>
  %acc = tile.splat %z : f32 -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %c = tile.mma %a, %b, %acc : !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a, 32x32x16>>, !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b, 32x32x16>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  tile.store %c, %cbuf[%c0, %c0] stride %c32 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>, !tile.buffer<f32>
  return
}

// Attention's O^T = V^T P^T in FP8: S = A * Bt^T (32 x 32 from global
// memory), P = FP8(S) fed back as the b operand by relayout (k_from_acc),
// and V [32 keys, 32] brought to LDS by DMA and read as the a operand V^T in
// the accumulator's K order: its registers run down LDS columns, gathered
// by ds_read_b64_tr_b8. O [32, 32] = V^T * P.
func.func @chain_tr(%pa: !tile.ptr<!tile.dtype<"AT">>, %pb: !tile.ptr<!tile.dtype<"BT">>,
                    %pv: !tile.ptr<!tile.dtype<"AT">>, %po: !tile.ptr<f32>)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %kt = tile.param @KT : index
  %n = arith.muli %kt, %c32 : index
  %n32 = arith.muli %c32, %c32 : index
  %z = arith.constant 0.0 : f32
  %abuf = tile.make_buffer %pa, %n : !tile.ptr<!tile.dtype<"AT">> -> !tile.buffer<!tile.dtype<"AT">>
  %bbuf = tile.make_buffer %pb, %n : !tile.ptr<!tile.dtype<"BT">> -> !tile.buffer<!tile.dtype<"BT">>
  %vbuf = tile.make_buffer %pv, %n32 : !tile.ptr<!tile.dtype<"AT">> -> !tile.buffer<!tile.dtype<"AT">>
  %obuf = tile.make_buffer %po, %n32 : !tile.ptr<f32> -> !tile.buffer<f32>
  %lv = tile.lds_alloc "v" : !tile.lds<[32, 32], !tile.dtype<"AT">, swizzle = SWZ>
  tile.async_copy %vbuf[%c0, %c0] stride %c32 -> %lv[%c0] : !tile.buffer<!tile.dtype<"AT">>, !tile.lds<[32, 32], !tile.dtype<"AT">, swizzle = SWZ>
  %a = tile.load %abuf[%c0, %c0] stride %kt : !tile.buffer<!tile.dtype<"AT">> -> !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a, 32x32x16>>
  %b = tile.load %bbuf[%c0, %c0] stride %kt transpose : !tile.buffer<!tile.dtype<"BT">> -> !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b, 32x32x16>>
  %zero = tile.splat %z : f32 -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %s = tile.mma %a, %b, %zero : !tile.tile<[32, KT], !tile.dtype<"AT">, #tile.mfma<a, 32x32x16>>, !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b, 32x32x16>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %p = tile.convert %s : !tile.tile<[32, 32], f32, #tile.mfma<acc>> -> !tile.tile<[32, 32], !tile.dtype<"AT">, #tile.mfma<acc>>
  %pk = tile.relayout %p : !tile.tile<[32, 32], !tile.dtype<"AT">, #tile.mfma<acc>> -> !tile.tile<[32, 32], !tile.dtype<"AT">, #tile.mfma<b, 32x32x16, k_from_acc>>
  tile.wait vmcnt(0)
  %vt = tile.lds_load %lv[%c0][%c0, %c0] transpose : !tile.lds<[32, 32], !tile.dtype<"AT">, swizzle = SWZ> -> !tile.tile<[32, 32], !tile.dtype<"AT">, #tile.mfma<a, 32x32x16, k_from_acc>>
  %o = tile.mma %vt, %pk, %zero : !tile.tile<[32, 32], !tile.dtype<"AT">, #tile.mfma<a, 32x32x16, k_from_acc>>, !tile.tile<[32, 32], !tile.dtype<"AT">, #tile.mfma<b, 32x32x16, k_from_acc>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  tile.store %o, %obuf[%c0, %c0] stride %c32 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>, !tile.buffer<f32>
  return
}

// The same with gfx950's f8f6f4 MFMAs: S [64 keys, 32] = A [64, KT] * Bt^T
// by 32x32x64, P = FP8(S) as the b operand of a 32x32x64 (K = 64 keys, in
// the order of the two accumulator blocks' rows), V [64 keys, 32] read as
// V^T by transposing reads. O [32, 32] = V^T * P.
func.func @chain_tr64(%pa: !tile.ptr<!tile.dtype<"AT">>, %pb: !tile.ptr<!tile.dtype<"BT">>,
                      %pv: !tile.ptr<!tile.dtype<"AT">>, %po: !tile.ptr<f32>)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %kt = tile.param @KT : index
  %na = arith.muli %kt, %c64 : index
  %nb = arith.muli %kt, %c32 : index
  %nv = arith.muli %c64, %c32 : index
  %z = arith.constant 0.0 : f32
  %abuf = tile.make_buffer %pa, %na : !tile.ptr<!tile.dtype<"AT">> -> !tile.buffer<!tile.dtype<"AT">>
  %bbuf = tile.make_buffer %pb, %nb : !tile.ptr<!tile.dtype<"BT">> -> !tile.buffer<!tile.dtype<"BT">>
  %vbuf = tile.make_buffer %pv, %nv : !tile.ptr<!tile.dtype<"AT">> -> !tile.buffer<!tile.dtype<"AT">>
  %obuf = tile.make_buffer %po, %nv : !tile.ptr<f32> -> !tile.buffer<f32>
  %lv = tile.lds_alloc "v" : !tile.lds<[64, 32], !tile.dtype<"AT">, swizzle = SWZ>
  tile.async_copy %vbuf[%c0, %c0] stride %c32 -> %lv[%c0] : !tile.buffer<!tile.dtype<"AT">>, !tile.lds<[64, 32], !tile.dtype<"AT">, swizzle = SWZ>
  %a = tile.load %abuf[%c0, %c0] stride %kt : !tile.buffer<!tile.dtype<"AT">> -> !tile.tile<[64, KT], !tile.dtype<"AT">, #tile.mfma<a>>
  %b = tile.load %bbuf[%c0, %c0] stride %kt transpose : !tile.buffer<!tile.dtype<"BT">> -> !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b>>
  %zero = tile.splat %z : f32 -> !tile.tile<[64, 32], f32, #tile.mfma<acc>>
  %s = tile.mma %a, %b, %zero : !tile.tile<[64, KT], !tile.dtype<"AT">, #tile.mfma<a>>, !tile.tile<[KT, 32], !tile.dtype<"BT">, #tile.mfma<b>> -> !tile.tile<[64, 32], f32, #tile.mfma<acc>>
  %p = tile.convert %s : !tile.tile<[64, 32], f32, #tile.mfma<acc>> -> !tile.tile<[64, 32], !tile.dtype<"AT">, #tile.mfma<acc>>
  %pk = tile.relayout %p : !tile.tile<[64, 32], !tile.dtype<"AT">, #tile.mfma<acc>> -> !tile.tile<[64, 32], !tile.dtype<"AT">, #tile.mfma<b, 32x32x64, k_from_acc>>
  tile.wait vmcnt(0)
  %vt = tile.lds_load %lv[%c0][%c0, %c0] transpose : !tile.lds<[64, 32], !tile.dtype<"AT">, swizzle = SWZ> -> !tile.tile<[32, 64], !tile.dtype<"AT">, #tile.mfma<a, 32x32x64, k_from_acc>>
  %zo = tile.splat %z : f32 -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %o = tile.mma %vt, %pk, %zo : !tile.tile<[32, 64], !tile.dtype<"AT">, #tile.mfma<a, 32x32x64, k_from_acc>>, !tile.tile<[64, 32], !tile.dtype<"AT">, #tile.mfma<b, 32x32x64, k_from_acc>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  tile.store %o, %obuf[%c0, %c0] stride %c32 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>, !tile.buffer<f32>
  return
}
