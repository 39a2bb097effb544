// An MFMA accumulator of 16-bit elements stored transposed: each lane holds
// runs of 4 elements (8 bytes), and the lanes one lane bit apart (l + 32 in
// the 32x32 layout, l + 16 in the 16x16 one) hold the 4 that follow in
// memory. gfx950 trades half the runs across that bit, one
// v_permlane32_swap / v_permlane16_swap per dword, and stores 16 bytes a
// lane, as AMD's hand-written GEMMs store C; gfx942, without the swaps,
// stores the 8-byte runs. Where the elements land:
// test/e2e/StoreLayoutTest.cpp. The instructions of each kernel, counted:
// RUN: kcc %s --mcpu=gfx950 --emit=asm -o - | awk '/^store_[a-z0-9]+:/ {k = $1} /^\t(buffer_store|v_permlane)/ {print k, $1}' | sort | uniq -c | FileCheck %s --check-prefix=GFX950
// RUN: kcc %s --mcpu=gfx942 --emit=asm -o - | awk '/^store_[a-z0-9]+:/ {k = $1} /^\t(buffer_store|v_permlane)/ {print k, $1}' | sort | uniq -c | FileCheck %s --check-prefix=GFX942

// A 64x64 tile: 64 registers a lane in 16 runs, 8 pairs of 2 dwords (16
// swaps), and one swap that hands the upper lanes their store origin.
// GFX950:      8 store_acc16: buffer_store_dwordx4
// GFX950-NEXT: 17 store_acc16: v_permlane16_swap_b32_e32
// GFX950-NEXT: 8 store_acc32: buffer_store_dwordx4
// GFX950-NEXT: 17 store_acc32: v_permlane32_swap_b32_e32
// GFX942:      16 store_acc16: buffer_store_dwordx2
// GFX942-NEXT: 16 store_acc32: buffer_store_dwordx2
// Plain (not transposed), a lane's registers run down a column: one
// element a store, nothing to pair.
// GFX950-NEXT: 16 store_plain: buffer_store_short
// GFX942-NEXT: 16 store_plain: buffer_store_short
// Bounded, with a constant column bound past every column (as attention's
// outputs, D of D): the rows alone are checked and the runs go whole, as
// unbounded; a runtime column bound stores element by element.
// GFX950-NEXT: 8 store_rows: buffer_store_dwordx4
// GFX950-NEXT: 17 store_rows: v_permlane32_swap_b32_e32
// GFX950-NEXT: 64 store_runtime: buffer_store_short
// GFX942-NEXT: 16 store_rows: buffer_store_dwordx2
// GFX942-NEXT: 64 store_runtime: buffer_store_short
// GFX950-NOT: {{.}}
// GFX942-NOT: {{.}}

func.func @store_acc32(%src: !tile.ptr<bf16>, %dst: !tile.ptr<bf16>) attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %ld = arith.constant 128 : index
  %n = arith.constant 65536 : index
  %s = tile.make_buffer %src, %n : !tile.ptr<bf16> -> !tile.buffer<bf16>
  %d = tile.make_buffer %dst, %n : !tile.ptr<bf16> -> !tile.buffer<bf16>
  %t = tile.load %s[%c0, %c0] stride %ld : !tile.buffer<bf16> -> !tile.tile<[64, 64], bf16, #tile.mfma<acc>>
  tile.store %t, %d[%c0, %c0] stride %ld transpose : !tile.tile<[64, 64], bf16, #tile.mfma<acc>>, !tile.buffer<bf16>
  return
}

func.func @store_acc16(%src: !tile.ptr<f16>, %dst: !tile.ptr<f16>) attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %ld = arith.constant 128 : index
  %n = arith.constant 65536 : index
  %s = tile.make_buffer %src, %n : !tile.ptr<f16> -> !tile.buffer<f16>
  %d = tile.make_buffer %dst, %n : !tile.ptr<f16> -> !tile.buffer<f16>
  %t = tile.load %s[%c0, %c0] stride %ld : !tile.buffer<f16> -> !tile.tile<[64, 64], f16, #tile.mfma<acc, 16x16>>
  tile.store %t, %d[%c0, %c0] stride %ld transpose : !tile.tile<[64, 64], f16, #tile.mfma<acc, 16x16>>, !tile.buffer<f16>
  return
}

func.func @store_plain(%src: !tile.ptr<bf16>, %dst: !tile.ptr<bf16>) attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %ld = arith.constant 128 : index
  %n = arith.constant 65536 : index
  %s = tile.make_buffer %src, %n : !tile.ptr<bf16> -> !tile.buffer<bf16>
  %d = tile.make_buffer %dst, %n : !tile.ptr<bf16> -> !tile.buffer<bf16>
  %t = tile.load %s[%c0, %c0] stride %ld : !tile.buffer<bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<acc>>
  tile.store %t, %d[%c0, %c0] stride %ld : !tile.tile<[32, 32], bf16, #tile.mfma<acc>>, !tile.buffer<bf16>
  return
}

func.func @store_rows(%src: !tile.ptr<bf16>, %dst: !tile.ptr<bf16>, %rows: index) attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %ld = arith.constant 128 : index
  %n = arith.constant 65536 : index
  %s = tile.make_buffer %src, %n : !tile.ptr<bf16> -> !tile.buffer<bf16>
  %d = tile.make_buffer %dst, %n : !tile.ptr<bf16> -> !tile.buffer<bf16>
  %t = tile.load %s[%c0, %c0] stride %ld : !tile.buffer<bf16> -> !tile.tile<[64, 64], bf16, #tile.mfma<acc>>
  tile.store %t, %d[%c0, %c0] stride %ld bounds %rows, %ld transpose : !tile.tile<[64, 64], bf16, #tile.mfma<acc>>, !tile.buffer<bf16>
  return
}

func.func @store_runtime(%src: !tile.ptr<bf16>, %dst: !tile.ptr<bf16>, %rows: index, %cols: index) attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %ld = arith.constant 128 : index
  %n = arith.constant 65536 : index
  %s = tile.make_buffer %src, %n : !tile.ptr<bf16> -> !tile.buffer<bf16>
  %d = tile.make_buffer %dst, %n : !tile.ptr<bf16> -> !tile.buffer<bf16>
  %t = tile.load %s[%c0, %c0] stride %ld : !tile.buffer<bf16> -> !tile.tile<[64, 64], bf16, #tile.mfma<acc>>
  tile.store %t, %d[%c0, %c0] stride %ld bounds %rows, %cols transpose : !tile.tile<[64, 64], bf16, #tile.mfma<acc>>, !tile.buffer<bf16>
  return
}
