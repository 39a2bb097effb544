// FlashAttention forward (kernels/attention/fmha_fwd.mlir) on gfx950 with the
// fast path's parameters, as kcc::ops::attention_forward picks them for
// D = 128 (kernels/attention/AttentionOp.cpp): 8 waves in two staggered wave
// groups, 64-key tiles, K and V by LDS DMA, V read transposed.
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D DTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=8 -D VR=64 -D VC=128 -D VROWS=8 --emit=asm -o - | FileCheck %s
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D DTYPE=f16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=8 -D VR=64 -D VC=128 -D VROWS=8 --emit=asm -o - | FileCheck %s --check-prefix=F16
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D DTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=8 -D VR=64 -D VC=128 -D VROWS=8 --stats | FileCheck %s --check-prefix=STATS
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D DTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=8 -D VR=64 -D VC=128 -D VROWS=8 -D CAUSAL=1 -D LSE_OUT=1 --stats | FileCheck %s --check-prefix=STATS
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D DTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=8 -D VR=64 -D VC=128 -D VROWS=8 -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=NOTES

// Prologue: key and value tile 0 by LDS DMA (16 lines of 256 bytes each for
// K and V, shared by the 4 leading waves), Q^T into registers.
// CHECK-LABEL: fmha_fwd:
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK: buffer_load_dwordx4
// The stagger before the loop: everyone's barrier after the prologue's
// wait, then one more for the lagging group only (the leading group
// branches past it), so the groups run one barrier apart.
// CHECK: s_waitcnt vmcnt(0)
// CHECK-NEXT: s_barrier
// CHECK-NEXT: s_cbranch_vccnz [[LEAD:\.LBB0_[0-9]+]]
// CHECK-NEXT: s_barrier
// CHECK-NEXT: [[LEAD]]:
// The loop's exit test (no key tile to visit).
// CHECK: s_cbranch_scc0 [[EXIT:\.LBB0_[0-9]+]]

// One key tile of the loop. The next K tile's DMA (issuers only), then
// S^T = K Q^T: 16 ds_read_b128 of the padded K rows feed 16 MFMAs at raised
// priority.
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK: [[KREAD:\.LBB0_[0-9]+]]:
// CHECK-COUNT-16: ds_read_b128
// CHECK-NEXT: s_setprio 1
// CHECK: v_mfma_f32_32x32x16_bf16
// CHECK: s_setprio 0
// Softmax: the row maximum and the row sum each take one exchange between
// the wave's halves, exp2 on the scores.
// CHECK: v_permlane32_swap_b32
// CHECK: v_exp_f32
// CHECK: v_permlane32_swap_b32
// Barrier X (K free), then the next V tile's DMA, and O^T += V^T P^T:
// 32 transposing reads of V, P converted to bf16 in pairs, 16 MFMAs.
// CHECK: s_barrier
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK: .LBB0_{{[0-9]+}}:
// CHECK-COUNT-32: ds_read_b64_tr_b16
// CHECK-NEXT: s_setprio 1
// CHECK: v_cvt_pk_bf16_f32
// CHECK: v_mfma_f32_32x32x16_bf16
// CHECK: s_setprio 0
// Barrier Y (V free).
// CHECK: s_barrier
// The stagger after the loop: the leading group's extra barrier, the one
// the lagging group took before it; then the epilogue (O / l).
// CHECK: [[EXIT]]:
// CHECK-NOT: s_barrier
// CHECK: s_cbranch_vccnz [[END:\.LBB0_[0-9]+]]
// CHECK-NEXT: s_barrier
// CHECK-NEXT: [[END]]:
// CHECK: v_rcp_f32
// CHECK: s_endpgm
// No scratch anywhere in the kernel.
// CHECK-NOT: scratch_

// f16: the same structure with the f16 MFMA and conversions; no bf16 left.
// F16-LABEL: fmha_fwd:
// F16-NOT: _bf16
// F16: ds_read_b64_tr_b16
// F16: v_mfma_f32_32x32x16_f16
// F16-NOT: _bf16
// F16: s_endpgm

// Two key tiles per loop iteration (ping, pong), each 32 MFMAs, 16 + 32 LDS
// reads; no spills and no scratch, causal (with LSE) or not: the causal
// mask is one limit per query column, not [BN, 32] index tiles (which
// spilled 1024 VGPRs).
// STATS: kernel fmha_fwd (gfx950)
// STATS-NEXT: registers {{ *}}{{[0-9]+}} VGPRs, 0 AGPRs
// STATS-NEXT: spills {{ *}}0 VGPR, 0 SGPR
// STATS-NEXT: scratch {{ *}}0 bytes per work-item
// STATS-NEXT: LDS {{ *}}67584 bytes per workgroup
// STATS: mfma {{ *}}64{{$}}
// STATS: lds {{ *}}96{{$}}

// NOTES: .group_segment_fixed_size: 67584
// NOTES: .name: fmha_fwd
// NOTES: .private_segment_fixed_size: 0
// NOTES: .sgpr_spill_count: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx950
