// The GEMM kernel (kernels/gemm/gemm.mlir) on gfx950: what makes it fast.
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx950 --emit=asm -o - | FileCheck %s
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx950 --stats | FileCheck %s --check-prefix=STATS
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx950 -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=NOTES

// Prologue: the first K block of A and Bt reaches LDS by DMA, 4 lines of
// 256 bytes per wave for each of the four stages.
// CHECK-LABEL: gemm:
// CHECK-COUNT-16: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK: s_waitcnt vmcnt(0)
// CHECK-NEXT: s_barrier

// The multiply of one buffer: LDS reads feed the MFMAs with no wait on the
// DMA into the other buffer (each buffer has its own alias scope) until the
// wait and barrier that end the half-iteration.
// CHECK: .LBB0_{{[0-9]+}}:
// CHECK-NEXT: ds_read_b128
// CHECK-NOT: vmcnt
// CHECK: v_mfma_f32_32x32x16_bf16
// CHECK-NOT: vmcnt
// CHECK: s_waitcnt vmcnt(0) lgkmcnt(0)
// CHECK-NEXT: s_barrier
// CHECK: s_endpgm

// STATS: kernel gemm (gfx950)
// STATS: spills        0 VGPR, 0 SGPR
// STATS-NEXT: scratch       0 bytes per work-item
// STATS-NEXT: LDS           32768 bytes per workgroup
// STATS: mfma 16{{$}}

// NOTES: amdhsa.kernels:
// NOTES: .group_segment_fixed_size: 32768
// NOTES: .name: gemm
// NOTES: .private_segment_fixed_size: 0
// NOTES: .sgpr_spill_count: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx950
