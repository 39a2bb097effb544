// tile.sched_interleave (group barriers) forces an MFMA / LDS-read order that
// differs from the scheduler's own: the same kernel with and without it.
// RUN: split-file %s %t
// RUN: kcc %t/with.mlir --mcpu=gfx942 --emit=asm -o - | grep -E 'ds_read|v_mfma' | FileCheck %s --check-prefix=WITH942
// RUN: kcc %t/without.mlir --mcpu=gfx942 --emit=asm -o - | grep -E 'ds_read|v_mfma' | FileCheck %s --check-prefix=WITHOUT942
// RUN: kcc %t/with.mlir --mcpu=gfx950 --emit=asm -o - | grep -E 'ds_read|v_mfma' | FileCheck %s --check-prefix=WITH950
// RUN: kcc %t/without.mlir --mcpu=gfx950 --emit=asm -o - | grep -E 'ds_read|v_mfma' | FileCheck %s --check-prefix=WITHOUT950

// Without group barriers the scheduler pairs reads and MFMAs two by two.
// WITHOUT942: ds_read2_b64
// WITHOUT942-NEXT: ds_read2_b64
// WITHOUT942-NEXT: v_mfma_f32_32x32x8_bf16
// WITHOUT942-NEXT: v_mfma_f32_32x32x8_bf16
// WITHOUT942-NEXT: ds_read2_b64
// WITHOUT942-NEXT: ds_read2_b64
// WITHOUT942-NEXT: v_mfma_f32_32x32x8_bf16
// WITHOUT942-NEXT: v_mfma_f32_32x32x8_bf16

// With [ds_read 1, mfma 1] x 8, once the first operands are in, every MFMA
// is followed by one LDS read.
// WITH942: v_mfma_f32_32x32x8_bf16
// WITH942-NEXT: ds_read2_b64
// WITH942-NEXT: v_mfma_f32_32x32x8_bf16
// WITH942-NEXT: ds_read2_b64
// WITH942-NEXT: v_mfma_f32_32x32x8_bf16
// WITH942-NEXT: ds_read2_b64
// WITH942-NEXT: v_mfma_f32_32x32x8_bf16
// WITH942-NEXT: ds_read2_b64
// WITH942-NEXT: v_mfma_f32_32x32x8_bf16
// WITH942-NEXT: ds_read2_b64
// WITH942-NEXT: v_mfma_f32_32x32x8_bf16

// WITHOUT950: ds_read_b128
// WITHOUT950-NEXT: ds_read_b128
// WITHOUT950-NEXT: ds_read_b128
// WITHOUT950-NEXT: ds_read_b128
// WITHOUT950-NEXT: v_mfma_f32_32x32x16_bf16
// WITHOUT950-NEXT: v_mfma_f32_32x32x16_bf16

// WITH950: v_mfma_f32_32x32x16_bf16
// WITH950-NEXT: ds_read_b128
// WITH950-NEXT: v_mfma_f32_32x32x16_bf16
// WITH950-NEXT: ds_read_b128

//--- with.mlir
func.func @sched(%p: !tile.ptr<bf16>, %o: !tile.ptr<f32>) attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65536 : index
  %z = arith.constant 0.0 : f32
  %b = tile.make_buffer %p, %n : !tile.ptr<bf16> -> !tile.buffer<bf16>
  %ob = tile.make_buffer %o, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %l = tile.lds_alloc "x" : !tile.lds<[128, 32], bf16>
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  tile.async_copy %b[%c0, %c0] stride %c32 -> %l[%c0] : !tile.buffer<bf16>, !tile.lds<[128, 32], bf16>
  tile.wait vmcnt(0)
  tile.barrier
  %acc0 = tile.splat %z : f32 -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %a0 = tile.lds_load %l[%c0][%c0, %c0] : !tile.lds<[128, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<a>>
  %b0 = tile.lds_load %l[%c0][%c32, %c0] transpose : !tile.lds<[128, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<b>>
  %a1 = tile.lds_load %l[%c0][%c64, %c0] : !tile.lds<[128, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<a>>
  %b1 = tile.lds_load %l[%c0][%c96, %c0] transpose : !tile.lds<[128, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<b>>
  %acc1 = tile.mma %a0, %b0, %acc0 : !tile.tile<[32, 32], bf16, #tile.mfma<a>>, !tile.tile<[32, 32], bf16, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %acc2 = tile.mma %a1, %b1, %acc1 : !tile.tile<[32, 32], bf16, #tile.mfma<a>>, !tile.tile<[32, 32], bf16, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  tile.sched_interleave [#tile.group<ds_read, 1>, #tile.group<mfma, 1>] x 8
  tile.store %acc2, %ob[%c0, %c0] stride %c32 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>, !tile.buffer<f32>
  return
}

//--- without.mlir
func.func @sched(%p: !tile.ptr<bf16>, %o: !tile.ptr<f32>) attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65536 : index
  %z = arith.constant 0.0 : f32
  %b = tile.make_buffer %p, %n : !tile.ptr<bf16> -> !tile.buffer<bf16>
  %ob = tile.make_buffer %o, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %l = tile.lds_alloc "x" : !tile.lds<[128, 32], bf16>
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  tile.async_copy %b[%c0, %c0] stride %c32 -> %l[%c0] : !tile.buffer<bf16>, !tile.lds<[128, 32], bf16>
  tile.wait vmcnt(0)
  tile.barrier
  %acc0 = tile.splat %z : f32 -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %a0 = tile.lds_load %l[%c0][%c0, %c0] : !tile.lds<[128, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<a>>
  %b0 = tile.lds_load %l[%c0][%c32, %c0] transpose : !tile.lds<[128, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<b>>
  %a1 = tile.lds_load %l[%c0][%c64, %c0] : !tile.lds<[128, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<a>>
  %b1 = tile.lds_load %l[%c0][%c96, %c0] transpose : !tile.lds<[128, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<b>>
  %acc1 = tile.mma %a0, %b0, %acc0 : !tile.tile<[32, 32], bf16, #tile.mfma<a>>, !tile.tile<[32, 32], bf16, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %acc2 = tile.mma %a1, %b1, %acc1 : !tile.tile<[32, 32], bf16, #tile.mfma<a>>, !tile.tile<[32, 32], bf16, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  tile.store %acc2, %ob[%c0, %c0] stride %c32 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>, !tile.buffer<f32>
  return
}
