// The GEMM kernel (kernels/gemm/gemm.mlir) on gfx942: what makes it fast.
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx942 --emit=asm -o - | FileCheck %s
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx942 -D REG=1 -D PAD=4 -D RROWS=16 --emit=asm -o - | FileCheck %s --check-prefix=REG
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx942 -D REG=1 -D PAD=4 -D RROWS=16 --stats | FileCheck %s --check-prefix=REGSTATS
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx942 --stats | FileCheck %s --check-prefix=STATS
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx942 -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=NOTES

// The DMA form (BK=32, rows unpadded), which ops::gemm takes on gfx942 when
// the register form does not apply (WM != WN). The copy of a K block: blocks at the matrices' edges take the bounded copy
// (a compare and select per DMA line); blocks wholly inside A and Bt, the
// copy without bounds: all 16 DMA lines of the wave (256 bytes each) with no
// select among them, one vector add and one M0 add per line.
// CHECK-LABEL: gemm:
// CHECK: s_cbranch_vccz [[INTERIOR:\.LBB0_[0-9]+]]
// CHECK: v_cndmask_b32
// CHECK: offen lds
// CHECK: [[INTERIOR]]:
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: v_cndmask
// The prologue's block has landed for all before the loop.
// CHECK: s_waitcnt vmcnt(0)
// CHECK-NEXT: s_barrier

// The multiply of one buffer: LDS reads feed the MFMAs with no wait on the
// DMA into the other buffer (each buffer has its own alias scope) until the
// wait and barrier that end the half-iteration.
// CHECK: ds_read2_b64
// CHECK-NOT: vmcnt
// CHECK: v_mfma_f32_32x32x8_bf16
// CHECK-NOT: vmcnt
// CHECK: s_waitcnt vmcnt(0) lgkmcnt(0)
// CHECK-NEXT: s_barrier
// CHECK: s_endpgm

// STATS: kernel gemm (gfx942)
// STATS: spills        0 VGPR, 0 SGPR
// STATS-NEXT: scratch       0 bytes per work-item
// STATS-NEXT: LDS           32768 bytes per workgroup
// STATS: mfma 32{{$}}

// NOTES: amdhsa.kernels:
// NOTES: .group_segment_fixed_size: 32768
// NOTES: .name: gemm
// NOTES: .private_segment_fixed_size: 0
// NOTES: .sgpr_spill_count: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx942

// The form ops::gemm picks on gfx942 (REG): each wave moves its 16 rows of
// each stage of A and Bt through registers (pairs of elements, bounded, the
// next block loaded before the multiply and stored after it) into LDS rows
// padded by 4; no LDS DMA at all. 36 KiB of LDS.
// REG-LABEL: gemm:
// REG-NOT: offen lds
// REG: buffer_load_dword
// REG: ds_write2_b32
// REG: s_barrier
// The loop: next block's loads, the multiply from LDS, then the stores.
// REG: buffer_load_dword
// REG: ds_read2_b64
// REG: v_mfma_f32_32x32x8_bf16
// REG: ds_write2_b32
// REG: s_barrier
// REG-NOT: offen lds
// REG: s_endpgm
// REGSTATS: spills {{ *}}0 VGPR, 0 SGPR
// REGSTATS: LDS {{ *}}36864 bytes per workgroup
