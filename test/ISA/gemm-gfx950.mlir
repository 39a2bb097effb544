// The GEMM kernel (kernels/gemm/gemm.mlir) on gfx950: what makes it fast.
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx950 -D WM=128 -D WN=128 -D BK=64 -D KS=32 -D SWZ=8 -D WIDE=1 --emit=asm -o - | FileCheck %s
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx950 -D WM=128 -D WN=128 -D BK=64 -D KS=32 -D SWZ=8 -D WIDE=1 --stats | FileCheck %s --check-prefix=STATS
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx950 -D WM=128 -D WN=64 -D WGM=2 -D WGN=4 -D BK=64 -D KS=16 -D SWZ=8 -D WIDE=1 -D FETCH_ALWAYS=1 --stats | FileCheck %s --check-prefix=WAVES8
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx950 -D WM=64 -D WN=64 -D BK=128 -D KS=64 -D SWZ=16 -D WIDE=1 --emit=asm -o - | FileCheck %s --check-prefix=SMALL
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx950 -D WM=64 -D WN=64 -D BK=128 -D KS=64 -D SWZ=16 -D WIDE=1 --stats | FileCheck %s --check-prefix=SMALLSTATS
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx950 -D WM=128 -D WN=64 -D WGM=2 -D WGN=4 -D BK=64 -D KS=16 -D SWZ=8 -D WIDE=1 -D FETCH_ALWAYS=1 -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=NOTES
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx950 -D WM=128 -D WN=128 -D BK=64 -D KS=32 -D SWZ=8 -D WIDE=1 --emit=asm -o - | FileCheck %s --check-prefix=PAIR

// The 256x256 tile (-D WM=128 -D WN=128): 128x128 per wave, BK=64, LDS rows
// of 128 bytes swizzled over their 8 chunks (rows are never padded: a
// 16-byte DMA line is 1 KiB of contiguous LDS). kcc::ops::gemm no longer
// picks it (gemm-large-gfx950.test has the tile it picks); it stays pinned
// for its DMA lines and its accumulators in AGPRs.
//
// The copy of a K block wholly inside A and Bt (inbounds): 16-byte DMA, 8
// lines of A then 8 of Bt per wave and buffer, each line in one
// instruction whose lane part is one VGPR computed once (the swizzled
// column: an XOR) and whose line offset is the scalar offset: nothing
// rewrites the lane's VGPR between the lines of one matrix; a line costs
// a scalar add, and two lines share an M0 write (the second 2 KiB on, in
// the instruction's offset field: the lines of a wave are two apart, one
// swizzle period of 16 rows, so that they fetch the same columns). First
// in the prologue, then in the loop.
// CHECK-LABEL: gemm:
// PAIR: buffer_load_dwordx4 v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// PAIR-NOT: m0
// PAIR: buffer_load_dwordx4 v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen offset:2048 lds
// CHECK: v_xor_b32
// CHECK: buffer_load_dwordx4 [[A0:v[0-9]+]], [[RA0:s\[[0-9]+:[0-9]+\]]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// CHECK: buffer_load_dwordx4 [[A0]], [[RA0]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// CHECK: buffer_load_dwordx4 [[A0]], [[RA0]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// CHECK: buffer_load_dwordx4 [[A0]], [[RA0]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// CHECK: buffer_load_dwordx4 [[A0]], [[RA0]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// CHECK: buffer_load_dwordx4 [[A0]], [[RA0]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// CHECK: buffer_load_dwordx4 [[A0]], [[RA0]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// CHECK: buffer_load_dwordx4 [[A0]], [[RA0]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK: buffer_load_dwordx4 [[B0:v[0-9]+]], [[RB0:s\[[0-9]+:[0-9]+\]]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// CHECK: buffer_load_dwordx4 [[B0]], [[RB0]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// CHECK: buffer_load_dwordx4 [[B0]], [[RB0]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// CHECK: buffer_load_dwordx4 [[B0]], [[RB0]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// CHECK: buffer_load_dwordx4 [[B0]], [[RB0]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// CHECK: buffer_load_dwordx4 [[B0]], [[RB0]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// CHECK: buffer_load_dwordx4 [[B0]], [[RB0]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// CHECK: buffer_load_dwordx4 [[B0]], [[RB0]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK: s_waitcnt vmcnt(0)
// CHECK-NEXT: s_barrier
// CHECK: buffer_load_dwordx4 [[A1:v[0-9]+]], [[RA1:s\[[0-9]+:[0-9]+\]]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A1]],
// CHECK: buffer_load_dwordx4 [[A1]], [[RA1]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A1]],
// CHECK: buffer_load_dwordx4 [[A1]], [[RA1]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A1]],
// CHECK: buffer_load_dwordx4 [[A1]], [[RA1]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A1]],
// CHECK: buffer_load_dwordx4 [[A1]], [[RA1]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A1]],
// CHECK: buffer_load_dwordx4 [[A1]], [[RA1]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A1]],
// CHECK: buffer_load_dwordx4 [[A1]], [[RA1]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A1]],
// CHECK: buffer_load_dwordx4 [[A1]], [[RA1]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK: buffer_load_dwordx4 [[B1:v[0-9]+]], [[RB1:s\[[0-9]+:[0-9]+\]]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B1]],
// CHECK: buffer_load_dwordx4 [[B1]], [[RB1]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B1]],
// CHECK: buffer_load_dwordx4 [[B1]], [[RB1]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B1]],
// CHECK: buffer_load_dwordx4 [[B1]], [[RB1]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B1]],
// CHECK: buffer_load_dwordx4 [[B1]], [[RB1]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B1]],
// CHECK: buffer_load_dwordx4 [[B1]], [[RB1]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B1]],
// CHECK: buffer_load_dwordx4 [[B1]], [[RB1]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B1]],
// CHECK: buffer_load_dwordx4 [[B1]], [[RB1]], s{{[0-9]+}} offen {{(offset:2048 )?}}lds

// The multiply: MFMAs accumulate in AGPRs (one wave per SIMD:
// tile.waves_per_simd = 1 gives each lane all 512 registers), their
// operands read by ds_read_b128, and no wait on the DMA into the other
// buffer until the wait and barrier that end the half-iteration.
// CHECK: ds_read_b128
// CHECK-NOT: vmcnt
// CHECK: v_mfma_f32_32x32x16_bf16 a[{{[0-9]+}}:{{[0-9]+}}], {{.*}}, a[{{[0-9]+}}:{{[0-9]+}}]
// CHECK-NOT: vmcnt
// CHECK: s_waitcnt vmcnt(0)
// CHECK: s_barrier
// CHECK: s_endpgm

// At one wave per SIMD the 128x128 accumulators live in AGPRs; LLVM moves
// them between the register files (the reason the op does not pick this
// tile). The loop holds 128 MFMAs: two K blocks of 64 (the loop takes whole
// pairs; an odd last block is a zero block past K, not a copy of the loop's
// body after it), in each of its two versions: the interior one (blocks of
// C whose K blocks are all inside, no bounds) and the bounded one.
// STATS: kernel gemm (gfx950)
// STATS-NEXT: registers {{[0-9]+}} VGPRs, {{[1-9][0-9]*}} AGPRs ({{[0-9]+}} of 512 allocated)
// STATS-NEXT: spills        {{[0-9]+}} VGPR, 0 SGPR
// STATS: LDS           131072 bytes per workgroup
// STATS-NEXT: occupancy     1 of 8 waves per SIMD, limited by lds
// STATS: mfma 256{{$}}

// The same 256x256 block of C with eight waves (2 x 4, 128x64 each): two
// waves share a SIMD, 128 accumulator registers each, all in VGPRs, nothing
// spilt: the tile the AGPR version cannot hold without LLVM's moves (64
// MFMAs a loop, in its interior and bounded versions).
// WAVES8: kernel gemm (gfx950)
// WAVES8-NEXT: registers {{[0-9]+}} VGPRs, 0 AGPRs ({{[0-9]+}} of 512 allocated)
// WAVES8-NEXT: spills        0 VGPR, 0 SGPR
// WAVES8-NEXT: scratch       0 bytes per work-item
// WAVES8-NEXT: LDS           131072 bytes per workgroup
// WAVES8-NEXT: occupancy     2 of 8 waves per SIMD, limited by lds (workgroup size 512)
// WAVES8: mfma 128{{$}}

// For problems with fewer 128x128 tiles than CUs: 128x128 per workgroup,
// BK=128, rows of 256 bytes swizzled over 16 chunks: 8 lines of A, then 8
// of Bt, in each copy, as above.
// SMALL: buffer_load_dwordx4 [[A0:v[0-9]+]], [[RA0:s\[[0-9]+:[0-9]+\]]], s{{[0-9]+}} offen lds
// SMALL-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// SMALL: buffer_load_dwordx4 [[A0]], [[RA0]], s{{[0-9]+}} offen lds
// SMALL-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// SMALL: buffer_load_dwordx4 [[A0]], [[RA0]], s{{[0-9]+}} offen lds
// SMALL-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// SMALL: buffer_load_dwordx4 [[A0]], [[RA0]], s{{[0-9]+}} offen lds
// SMALL-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// SMALL: buffer_load_dwordx4 [[A0]], [[RA0]], s{{[0-9]+}} offen lds
// SMALL-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// SMALL: buffer_load_dwordx4 [[A0]], [[RA0]], s{{[0-9]+}} offen lds
// SMALL-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// SMALL: buffer_load_dwordx4 [[A0]], [[RA0]], s{{[0-9]+}} offen lds
// SMALL-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// SMALL: buffer_load_dwordx4 [[A0]], [[RA0]], s{{[0-9]+}} offen lds
// SMALL: buffer_load_dwordx4 [[B0:v[0-9]+]], [[RB0:s\[[0-9]+:[0-9]+\]]], s{{[0-9]+}} offen lds
// SMALL-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// SMALL: buffer_load_dwordx4 [[B0]], [[RB0]], s{{[0-9]+}} offen lds
// SMALL-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// SMALL: buffer_load_dwordx4 [[B0]], [[RB0]], s{{[0-9]+}} offen lds
// SMALL-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// SMALL: buffer_load_dwordx4 [[B0]], [[RB0]], s{{[0-9]+}} offen lds
// SMALL-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// SMALL: buffer_load_dwordx4 [[B0]], [[RB0]], s{{[0-9]+}} offen lds
// SMALL-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// SMALL: buffer_load_dwordx4 [[B0]], [[RB0]], s{{[0-9]+}} offen lds
// SMALL-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// SMALL: buffer_load_dwordx4 [[B0]], [[RB0]], s{{[0-9]+}} offen lds
// SMALL-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// SMALL: buffer_load_dwordx4 [[B0]], [[RB0]], s{{[0-9]+}} offen lds
// SMALL: v_mfma_f32_32x32x16_bf16
// SMALLSTATS: spills        0 VGPR, 0 SGPR
// SMALLSTATS-NEXT: scratch       0 bytes per work-item
// SMALLSTATS-NEXT: LDS           131072 bytes per workgroup

// The eight-wave kernel's metadata: a workgroup of 512, no scratch.
// NOTES: amdhsa.kernels:
// NOTES: .agpr_count: 0
// NOTES: .group_segment_fixed_size: 131072
// NOTES: .max_flat_workgroup_size: 512
// NOTES: .name: gemm
// NOTES: .private_segment_fixed_size: 0
// NOTES: .sgpr_spill_count: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx950
