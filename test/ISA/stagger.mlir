// tile.stagger: the lagging waves (wave_id >= 2) take one extra s_barrier
// before the body and the leading waves one after it, under complementary
// conditions, so both groups reach the same number of barriers one phase
// apart.
// RUN: kcc %s --mcpu=gfx942 --emit=asm -o - | FileCheck %s
// RUN: kcc %s --mcpu=gfx950 --emit=asm -o - | FileCheck %s

// CHECK-LABEL: sched:
// CHECK: s_and_b64 vcc, exec, [[LEAD:s\[[0-9]+:[0-9]+\]]]
// CHECK-NEXT: s_cbranch_vccnz [[AFTER1:\.LBB0_[0-9]+]]
// CHECK-NEXT: s_barrier
// CHECK-NEXT: [[AFTER1]]:
// CHECK-NEXT: s_andn2_b64 vcc, exec, [[LEAD]]
// The body's own barrier, then the leading waves' extra one.
// CHECK: s_barrier
// CHECK-NEXT: s_cbranch_vccnz [[AFTER2:\.LBB0_[0-9]+]]
// CHECK-NEXT: s_barrier
// CHECK-NEXT: [[AFTER2]]:
// CHECK: v_mfma

func.func @sched(%p: !tile.ptr<bf16>, %o: !tile.ptr<f32>) attributes {tile.kernel, tile.block_size = 256 : i64} {
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
  %w = tile.wave_id
  %c2 = arith.constant 2 : index
  %lag = arith.cmpi uge, %w, %c2 : index
  tile.stagger %lag {
    tile.barrier
  }
  %acc1 = tile.mma %a0, %b0, %acc0 : !tile.tile<[32, 32], bf16, #tile.mfma<a>>, !tile.tile<[32, 32], bf16, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %acc2 = tile.mma %a1, %b1, %acc1 : !tile.tile<[32, 32], bf16, #tile.mfma<a>>, !tile.tile<[32, 32], bf16, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  tile.store %acc2, %ob[%c0, %c0] stride %c32 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>, !tile.buffer<f32>
  return
}
