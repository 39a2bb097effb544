// tile.sched_barrier [] fences the scheduler: group barriers placed after it
// cannot pull instructions from before it. The same kernel, a group-barrier
// pattern at its end, with and without a fence between its two MFMA pairs.
// RUN: split-file %s %t
// RUN: kcc %t/fenced.mlir --mcpu=gfx942 --emit=asm -o - | grep -E 'ds_read|v_mfma' | FileCheck %s --check-prefix=FENCED
// RUN: kcc %t/unfenced.mlir --mcpu=gfx942 --emit=asm -o - | grep -E 'ds_read|v_mfma' | FileCheck %s --check-prefix=UNFENCED

// Fenced: the reads and MFMAs of the first pair keep their own order, two
// reads then two MFMAs, twice, before the pattern starts.
// FENCED: ds_read2_b64
// FENCED-NEXT: ds_read2_b64
// FENCED-NEXT: v_mfma_f32_32x32x8_bf16
// FENCED-NEXT: v_mfma_f32_32x32x8_bf16
// FENCED-NEXT: ds_read2_b64
// FENCED-NEXT: ds_read2_b64
// FENCED-NEXT: v_mfma_f32_32x32x8_bf16
// FENCED-NEXT: v_mfma_f32_32x32x8_bf16

// Unfenced: the pattern reaches back into the first pair.
// UNFENCED: ds_read2_b64
// UNFENCED-NEXT: ds_read2_b64
// UNFENCED-NEXT: ds_read2_b64
// UNFENCED-NEXT: v_mfma_f32_32x32x8_bf16
// UNFENCED-NEXT: ds_read2_b64
// UNFENCED-NEXT: v_mfma_f32_32x32x8_bf16

//--- fenced.mlir
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
  %acc1 = tile.mma %a0, %b0, %acc0 : !tile.tile<[32, 32], bf16, #tile.mfma<a>>, !tile.tile<[32, 32], bf16, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  tile.sched_barrier []
  %a1 = tile.lds_load %l[%c0][%c64, %c0] : !tile.lds<[128, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<a>>
  %b1 = tile.lds_load %l[%c0][%c96, %c0] transpose : !tile.lds<[128, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<b>>
  %acc2 = tile.mma %a1, %b1, %acc1 : !tile.tile<[32, 32], bf16, #tile.mfma<a>>, !tile.tile<[32, 32], bf16, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  tile.sched_interleave [#tile.group<ds_read, 1>, #tile.group<mfma, 1>] x 8
  tile.store %acc2, %ob[%c0, %c0] stride %c32 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>, !tile.buffer<f32>
  return
}

//--- unfenced.mlir
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
  %acc1 = tile.mma %a0, %b0, %acc0 : !tile.tile<[32, 32], bf16, #tile.mfma<a>>, !tile.tile<[32, 32], bf16, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %a1 = tile.lds_load %l[%c0][%c64, %c0] : !tile.lds<[128, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<a>>
  %b1 = tile.lds_load %l[%c0][%c96, %c0] transpose : !tile.lds<[128, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<b>>
  %acc2 = tile.mma %a1, %b1, %acc1 : !tile.tile<[32, 32], bf16, #tile.mfma<a>>, !tile.tile<[32, 32], bf16, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  tile.sched_interleave [#tile.group<ds_read, 1>, #tile.group<mfma, 1>] x 8
  tile.store %acc2, %ob[%c0, %c0] stride %c32 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>, !tile.buffer<f32>
  return
}
