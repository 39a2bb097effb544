// FlashAttention forward (kernels/attention/fmha_fwd.mlir) on gfx950 with
// ROLES, as kcc::ops::attention_forward picks it there (attentionParams):
// the key loop compiled once per wave group's role, so that neither loop
// branches on the role. fmha-gfx950.mlir pins the clusters' schedule,
// which both loops share; this file pins what the roles change.
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D DTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=0 -D VPAD=0 -D K_IMAGE=1 -D V_IMAGE=1 -D WIDE=1 -D VR=64 -D VC=128 -D VROWS=8 -D ROLES=1 --emit=asm -o - | FileCheck %s
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D DTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=0 -D VPAD=0 -D K_IMAGE=1 -D V_IMAGE=1 -D WIDE=1 -D VR=64 -D VC=128 -D VROWS=8 -D ROLES=1 --stats | FileCheck %s --check-prefix=STATS
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D DTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=0 -D VPAD=0 -D K_IMAGE=1 -D V_IMAGE=1 -D WIDE=1 -D VR=64 -D VC=128 -D VROWS=8 -D ROLES=1 -D CAUSAL=1 -D PAIRS=1 -D LSE_OUT=1 --stats | FileCheck %s --check-prefix=CAUSAL

// After the prologue (S_0 at priority 1), the barrier every wave takes,
// the branch on the role (to the leading group's loop), and the lagging
// group's extra barrier (the stagger).
// CHECK-LABEL: fmha_fwd:
// CHECK: s_setprio 1
// CHECK: s_setprio 0
// CHECK: s_barrier
// CHECK-NEXT: s_cbranch_vccnz .LBB0_[[ROLE:[0-9]+]]
// CHECK: s_barrier
// The lagging group's loop: two steps an iteration, each cluster A at
// priority 2 (the 16 MFMAs of S_{j+1}), barrier X, cluster B at priority 1
// (the 16 MFMAs of O^T), barrier Y; no DMA and no wait on memory anywhere
// in it, and no scratch access (the spilled VGPR is stored before the loop
// and loaded after it).
// CHECK: scratch_store_dword
// CHECK-NOT: {{buffer_load|vmcnt|scratch_}}
// CHECK: s_setprio 2
// CHECK-COUNT-16: v_mfma_f32_32x32x16_bf16
// CHECK-NOT: {{buffer_load|vmcnt|scratch_}}
// CHECK: s_barrier
// CHECK-NOT: {{buffer_load|vmcnt|scratch_}}
// CHECK: s_setprio 1
// CHECK-COUNT-16: v_mfma_f32_32x32x16_bf16
// CHECK-NOT: {{buffer_load|vmcnt|scratch_}}
// CHECK: s_barrier
// CHECK-NOT: {{buffer_load|vmcnt|scratch_}}
// CHECK: s_setprio 2
// CHECK-COUNT-16: v_mfma_f32_32x32x16_bf16
// CHECK-NOT: {{buffer_load|vmcnt|scratch_}}
// CHECK: s_barrier
// CHECK-NOT: {{buffer_load|vmcnt|scratch_}}
// CHECK: s_setprio 1
// CHECK-COUNT-16: v_mfma_f32_32x32x16_bf16
// CHECK-NOT: {{buffer_load|vmcnt|scratch_}}
// CHECK: s_barrier
// CHECK-NEXT: s_branch
// The role's branch leads to the leading group's loop: per step K j+2's
// 4 lines of 1 KiB by inbounds DMA (one lane register, scalar line
// offsets) before cluster A at priority 2, then after barrier X V j+1's 4
// lines, each group of fetches waited for before the barrier that
// publishes it.
// CHECK: .LBB0_[[ROLE]]:
// CHECK-NEXT: s_cbranch_execnz .LBB0_[[LEAD:[0-9]+]]
// CHECK: .LBB0_[[LEAD]]:
// CHECK: scratch_store_dword
// CHECK-NOT: scratch_
// CHECK: buffer_load_dwordx4 [[KL:v[0-9]+]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK-COUNT-3: buffer_load_dwordx4 [[KL]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK-NOT: scratch_
// CHECK: s_setprio 2
// CHECK-COUNT-16: v_mfma_f32_32x32x16_bf16
// CHECK-NOT: scratch_
// CHECK: s_waitcnt vmcnt
// CHECK-NOT: scratch_
// CHECK: s_barrier
// CHECK-NOT: scratch_
// CHECK: buffer_load_dwordx4 [[VL:v[0-9]+]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK-COUNT-3: buffer_load_dwordx4 [[VL]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK-NOT: scratch_
// CHECK: s_setprio 1
// CHECK-COUNT-16: v_mfma_f32_32x32x16_bf16
// CHECK-NOT: scratch_
// CHECK: s_waitcnt vmcnt
// CHECK-NOT: scratch_
// CHECK: s_barrier
// CHECK: s_endpgm

// Non-causal, one VGPR held across each role's loop (the epilogue's lane
// half: stored once before the loop, loaded once after); causal (with LSE)
// two SGPRs spilled into VGPR lanes, no scratch.
// STATS: kernel fmha_fwd (gfx950)
// STATS-NEXT: registers {{ *}}256 VGPRs, 0 AGPRs
// STATS-NEXT: spills {{ *}}2 VGPR, 0 SGPR
// STATS-NEXT: scratch {{ *}}8 bytes per work-item
// STATS-NEXT: LDS {{ *}}65536 bytes per workgroup
// CAUSAL: kernel fmha_fwd (gfx950)
// CAUSAL-NEXT: registers {{ *}}{{[0-9]+}} VGPRs, 0 AGPRs
// CAUSAL-NEXT: spills {{ *}}0 VGPR, 2 SGPR
// CAUSAL-NEXT: scratch {{ *}}0 bytes per work-item
