// FP8 MFMA operands whose registers run down LDS columns (A stored as
// A^T [K, M] and read with `transpose`, B stored [K, N]): gfx950 gathers
// them with ds_read_b64_tr_b8, 8 bytes per lane per read, 4 reads per
// 32x32x64 operand; gfx942 has no such read and refuses the load.
// RUN: kcc %s --mcpu=gfx950 --emit=asm -o - | grep -oE '(ds_read|v_mfma)[a-z0-9_]*' | sort | uniq -c | FileCheck %s --check-prefix=GFX950
// RUN: kcc %s --mcpu=gfx950 -D SWZ=2 --emit=asm -o - | grep -oE '(ds_read|v_mfma)[a-z0-9_]*' | sort | uniq -c | FileCheck %s --check-prefix=GFX950
// RUN: not kcc %s --mcpu=gfx942 -D AT=f8E4M3FNUZ -D BT=f8E4M3FNUZ --emit=asm -o /dev/null 2>&1 | FileCheck %s --check-prefix=GFX942

// GFX950: 8 ds_read_b64_tr_b8
// GFX950-NEXT: 1 v_mfma_f32_32x32x64_f8f6f4
// GFX950-EMPTY:
// GFX942: error: 'tile.lds_load' op reads each lane's a operand down an LDS column, which needs the transposing LDS read (ds_read_b64_tr_b8) of gfx950; gfx942 has none

tile.type_param_decl @AT = f8E4M3FN of [f8E4M3FN, f8E5M2, f8E4M3FNUZ]
tile.type_param_decl @BT = f8E5M2 of [f8E4M3FN, f8E5M2, f8E4M3FNUZ]
tile.param_decl @SWZ : i64 = 0

func.func @kn(%pa: !tile.ptr<!tile.dtype<"AT">>, %pb: !tile.ptr<!tile.dtype<"BT">>, %pc: !tile.ptr<f32>)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %n = arith.constant 2048 : index
  %z = arith.constant 0.0 : f32
  %abuf = tile.make_buffer %pa, %n : !tile.ptr<!tile.dtype<"AT">> -> !tile.buffer<!tile.dtype<"AT">>
  %bbuf = tile.make_buffer %pb, %n : !tile.ptr<!tile.dtype<"BT">> -> !tile.buffer<!tile.dtype<"BT">>
  %cbuf = tile.make_buffer %pc, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %la = tile.lds_alloc "a" : !tile.lds<[64, 32], !tile.dtype<"AT">, swizzle = SWZ>
  %lb = tile.lds_alloc "b" : !tile.lds<[64, 32], !tile.dtype<"BT">, swizzle = SWZ>
  tile.async_copy %abuf[%c0, %c0] stride %c32 -> %la[%c0] : !tile.buffer<!tile.dtype<"AT">>, !tile.lds<[64, 32], !tile.dtype<"AT">, swizzle = SWZ>
  tile.async_copy %bbuf[%c0, %c0] stride %c32 -> %lb[%c0] : !tile.buffer<!tile.dtype<"BT">>, !tile.lds<[64, 32], !tile.dtype<"BT">, swizzle = SWZ>
  tile.wait vmcnt(0)
  %a = tile.lds_load %la[%c0][%c0, %c0] transpose : !tile.lds<[64, 32], !tile.dtype<"AT">, swizzle = SWZ> -> !tile.tile<[32, 64], !tile.dtype<"AT">, #tile.mfma<a>>
  %b = tile.lds_load %lb[%c0][%c0, %c0] : !tile.lds<[64, 32], !tile.dtype<"BT">, swizzle = SWZ> -> !tile.tile<[64, 32], !tile.dtype<"BT">, #tile.mfma<b>>
  %acc = tile.splat %z : f32 -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %c = tile.mma %a, %b, %acc : !tile.tile<[32, 64], !tile.dtype<"AT">, #tile.mfma<a>>, !tile.tile<[64, 32], !tile.dtype<"BT">, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  tile.store %c, %cbuf[%c0, %c0] stride %c32 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>, !tile.buffer<f32>
  return
}
