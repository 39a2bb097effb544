// The instructions of FP8 on each chip: the MFMAs of every FP8 shape (with
// an e4m3 A and an e5m2 B), the packed conversions, and the widest LDS and
// buffer accesses of one-byte MFMA operands.
// Each kernel's instructions counted by mnemonic (the scheduler may
// interleave them in any order), then the forms that carry the formats.
// RUN: kcc %s --mcpu=gfx942 -D A8=f8E4M3FNUZ -D B8=f8E5M2FNUZ --emit=asm -o %t.942.s
// RUN: kcc %s --mcpu=gfx950 -D A8=f8E4M3FN -D B8=f8E5M2 --emit=asm -o %t.950.s
// RUN: sed -n '/^mma:/,/s_endpgm/p' %t.942.s | grep -oE '(v_mfma|ds_read|ds_write|buffer_load|buffer_store)[a-z0-9_]*' | sort | uniq -c | FileCheck %s --check-prefix=MMA942
// RUN: sed -n '/^mma:/,/s_endpgm/p' %t.950.s | grep -oE '(v_mfma|ds_read|ds_write|buffer_load|buffer_store)[a-z0-9_]*' | sort | uniq -c | FileCheck %s --check-prefix=MMA950
// RUN: sed -n '/^cvt:/,/s_endpgm/p' %t.942.s | grep -oE '(v_cvt|v_med3|buffer_load|buffer_store)[a-z0-9_]*' | sort | uniq -c | FileCheck %s --check-prefix=CVT
// RUN: sed -n '/^cvt:/,/s_endpgm/p' %t.950.s | grep -oE '(v_cvt|v_med3|buffer_load|buffer_store)[a-z0-9_]*' | sort | uniq -c | FileCheck %s --check-prefix=CVT
// RUN: FileCheck %s --input-file=%t.942.s --check-prefix=FORMS942
// RUN: FileCheck %s --input-file=%t.950.s --check-prefix=FORMS950

tile.type_param_decl @A8 = f8E4M3FN of [f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ]
tile.type_param_decl @B8 = f8E5M2 of [f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ]

!a = !tile.tile<[32, 64], !tile.dtype<"A8">, #tile.mfma<a>>
!b = !tile.tile<[64, 32], !tile.dtype<"B8">, #tile.mfma<b>>
!acc = !tile.tile<[32, 32], f32, #tile.mfma<acc>>
!a16 = !tile.tile<[32, 64], !tile.dtype<"A8">, #tile.mfma<a, 32x32x16>>
!b16 = !tile.tile<[64, 32], !tile.dtype<"B8">, #tile.mfma<b, 32x32x16>>
!la = !tile.lds<[32, 64], !tile.dtype<"A8">>
!lb = !tile.lds<[32, 64], !tile.dtype<"B8">>

// A and Bt [32, 64] arrive by buffer loads in the operand layouts, go to
// LDS and come back: per lane a row of 8 bytes per 32x32x16 block (gfx942:
// one b64 access each) or of 32 bytes per 32x32x64 block (gfx950: two b128).
// MMA942: 16 buffer_load_dwordx2
// MMA942-NEXT: 16 buffer_store_dword
// MMA942-NEXT: 4 ds_read2_b64
// MMA942-NEXT: 4 ds_write2_b64
// MMA942-NEXT: 8 v_mfma_f32_32x32x16_fp8_bf8
// MMA942-EMPTY:
// MMA950: 8 buffer_load_dwordx2
// MMA950-NEXT: 4 buffer_load_dwordx4
// MMA950-NEXT: 16 buffer_store_dword
// MMA950-NEXT: 4 ds_read_b128
// MMA950-NEXT: 4 ds_write_b128
// MMA950-NEXT: 4 v_mfma_f32_32x32x16_fp8_bf8
// MMA950-NEXT: 1 v_mfma_f32_32x32x64_f8f6f4
// MMA950-EMPTY:
// The f8f6f4 form takes the formats as cbsz (A: 0, e4m3, not printed) and
// blgp (B: 1, e5m2); the first MFMA of each chain starts from 0.
// FORMS942-LABEL: mma:
// FORMS942: v_mfma_f32_32x32x16_fp8_bf8 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], 0{{$}}
// FORMS950-LABEL: mma:
// FORMS950: v_mfma_f32_32x32x64_f8f6f4 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], 0 blgp:1{{$}}
func.func @mma(%pa: !tile.ptr<!tile.dtype<"A8">>, %pb: !tile.ptr<!tile.dtype<"B8">>, %pc: !tile.ptr<f32>)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %n = arith.constant 4096 : index
  %z = arith.constant 0.0 : f32
  %abuf = tile.make_buffer %pa, %n : !tile.ptr<!tile.dtype<"A8">> -> !tile.buffer<!tile.dtype<"A8">>
  %bbuf = tile.make_buffer %pb, %n : !tile.ptr<!tile.dtype<"B8">> -> !tile.buffer<!tile.dtype<"B8">>
  %cbuf = tile.make_buffer %pc, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %la = tile.lds_alloc "a" : !la
  %lb = tile.lds_alloc "b" : !lb
  %ga = tile.load %abuf[%c0, %c0] stride %c64 : !tile.buffer<!tile.dtype<"A8">> -> !a
  %gb = tile.load %bbuf[%c0, %c0] stride %c64 transpose : !tile.buffer<!tile.dtype<"B8">> -> !b
  tile.lds_store %ga, %la[%c0][%c0, %c0] : !a, !la
  tile.lds_store %gb, %lb[%c0][%c0, %c0] transpose : !b, !lb
  tile.barrier
  %a = tile.lds_load %la[%c0][%c0, %c0] : !la -> !a
  %b = tile.lds_load %lb[%c0][%c0, %c0] transpose : !lb -> !b
  %acc = tile.splat %z : f32 -> !acc
  %c = tile.mma %a, %b, %acc : !a, !b -> !acc
  %a16 = tile.load %abuf[%c0, %c0] stride %c64 : !tile.buffer<!tile.dtype<"A8">> -> !a16
  %b16 = tile.load %bbuf[%c0, %c0] stride %c64 transpose : !tile.buffer<!tile.dtype<"B8">> -> !b16
  %d = tile.mma %a16, %b16, %c : !a16, !b16 -> !acc
  tile.store %d, %cbuf[%c0, %c0] stride %c32 : !acc, !tile.buffer<f32>
  return
}

// f32 -> FP8 (clamped by v_med3_f32, packed in pairs) and back.
// Both chips alike (each in its own formats): 4 x 2 clamps, a pair packed
// per instruction and a word's halves widened per instruction.
// CVT: 1 buffer_load_dwordx4
// CVT-NEXT: 2 buffer_store_dword
// CVT-NEXT: 1 buffer_store_dwordx4
// CVT-NEXT: 2 v_cvt_pk_bf8_f32
// CVT-NEXT: 1 v_cvt_pk_f32_bf8_e32
// CVT-NEXT: 1 v_cvt_pk_f32_bf8_sdwa
// CVT-NEXT: 1 v_cvt_pk_f32_fp8_e32
// CVT-NEXT: 1 v_cvt_pk_f32_fp8_sdwa
// CVT-NEXT: 2 v_cvt_pk_fp8_f32
// CVT-NEXT: 8 v_med3_f32
// CVT-EMPTY:
// The second pair of a word goes to its high half (op_sel[3]), and the
// high half is widened by SDWA's WORD_1.
// FORMS942-LABEL: cvt:
// FORMS942-DAG: v_cvt_pk_fp8_f32 [[W:v[0-9]+]], v{{[0-9]+}}, v{{[0-9]+}}{{$}}
// FORMS942-DAG: v_cvt_pk_fp8_f32 [[W]], v{{[0-9]+}}, v{{[0-9]+}} op_sel:[0,0,1]
// FORMS942-DAG: v_cvt_pk_f32_fp8_sdwa v[{{[0-9]+:[0-9]+}}], [[W]] src0_sel:WORD_1
// FORMS950-LABEL: cvt:
// FORMS950-DAG: v_cvt_pk_bf8_f32 [[V:v[0-9]+]], v{{[0-9]+}}, v{{[0-9]+}}{{$}}
// FORMS950-DAG: v_cvt_pk_bf8_f32 [[V]], v{{[0-9]+}}, v{{[0-9]+}} op_sel:[0,0,1]
// FORMS950-DAG: v_cvt_pk_f32_bf8_sdwa v[{{[0-9]+:[0-9]+}}], [[V]] src0_sel:WORD_1
func.func @cvt(%src: !tile.ptr<f32>, %q: !tile.ptr<!tile.dtype<"A8">>, %r: !tile.ptr<!tile.dtype<"B8">>, %dst: !tile.ptr<f32>)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %n = arith.constant 256 : index
  %s = tile.make_buffer %src, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %qb = tile.make_buffer %q, %n : !tile.ptr<!tile.dtype<"A8">> -> !tile.buffer<!tile.dtype<"A8">>
  %rb = tile.make_buffer %r, %n : !tile.ptr<!tile.dtype<"B8">> -> !tile.buffer<!tile.dtype<"B8">>
  %d = tile.make_buffer %dst, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %x = tile.load %s[%c0, %c0] stride %c64 : !tile.buffer<f32> -> !tile.tile<[4, 64], f32, #tile.blocked<[1, 4], [4, 16]>>
  %e4 = tile.convert %x : !tile.tile<[4, 64], f32, #tile.blocked<[1, 4], [4, 16]>> -> !tile.tile<[4, 64], !tile.dtype<"A8">, #tile.blocked<[1, 4], [4, 16]>>
  %e5 = tile.convert %x : !tile.tile<[4, 64], f32, #tile.blocked<[1, 4], [4, 16]>> -> !tile.tile<[4, 64], !tile.dtype<"B8">, #tile.blocked<[1, 4], [4, 16]>>
  tile.store %e4, %qb[%c0, %c0] stride %c64 : !tile.tile<[4, 64], !tile.dtype<"A8">, #tile.blocked<[1, 4], [4, 16]>>, !tile.buffer<!tile.dtype<"A8">>
  tile.store %e5, %rb[%c0, %c0] stride %c64 : !tile.tile<[4, 64], !tile.dtype<"B8">, #tile.blocked<[1, 4], [4, 16]>>, !tile.buffer<!tile.dtype<"B8">>
  %y4 = tile.convert %e4 : !tile.tile<[4, 64], !tile.dtype<"A8">, #tile.blocked<[1, 4], [4, 16]>> -> !tile.tile<[4, 64], f32, #tile.blocked<[1, 4], [4, 16]>>
  %y5 = tile.convert %e5 : !tile.tile<[4, 64], !tile.dtype<"B8">, #tile.blocked<[1, 4], [4, 16]>> -> !tile.tile<[4, 64], f32, #tile.blocked<[1, 4], [4, 16]>>
  %y = tile.addf %y4, %y5 : !tile.tile<[4, 64], f32, #tile.blocked<[1, 4], [4, 16]>>
  tile.store %y, %d[%c0, %c0] stride %c64 : !tile.tile<[4, 64], f32, #tile.blocked<[1, 4], [4, 16]>>, !tile.buffer<f32>
  return
}
