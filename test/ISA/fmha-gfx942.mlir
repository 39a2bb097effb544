// FlashAttention forward (kernels/attention/fmha_fwd.mlir) on gfx942 with the
// parameters kcc::ops::attention_forward picks there (AttentionOp.cpp): 4
// waves, 32-key tiles, K by LDS DMA, V moved through registers and stored
// transposed (gfx942 has no transposing LDS read), 32x32x8 MFMAs.
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx942 -D DTYPE=bf16 -D D=128 -D BN=32 -D BLOCK=256 -D STAGGER=0 -D V_TR=0 -D PAD=8 -D VR=128 -D VC=32 -D VROWS=8 --emit=asm -o - | FileCheck %s
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx942 -D DTYPE=f16 -D D=64 -D BN=32 -D BLOCK=256 -D STAGGER=0 -D V_TR=0 -D PAD=0 -D VR=64 -D VC=32 -D VROWS=8 -D CAUSAL=1 --emit=asm -o - | FileCheck %s --check-prefix=F16
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx942 -D DTYPE=bf16 -D D=128 -D BN=32 -D BLOCK=256 -D STAGGER=0 -D V_TR=0 -D PAD=8 -D VR=128 -D VC=32 -D VROWS=8 --stats | FileCheck %s --check-prefix=STATS
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx942 -D DTYPE=bf16 -D D=128 -D BN=32 -D BLOCK=256 -D STAGGER=0 -D V_TR=0 -D PAD=8 -D VR=128 -D VC=32 -D VROWS=8 -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=NOTES

// No gfx950-only instruction anywhere.
// CHECK-NOT: ds_read_b64_tr_b16
// CHECK-NOT: v_permlane32_swap
// CHECK-NOT: 32x32x16
// CHECK-LABEL: fmha_fwd:
// Prologue: key tile 0 by LDS DMA (8 lines of 256 bytes per wave), value
// tile 0 into registers and stored transposed as V^T [D, 32].
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK: buffer_load_ushort
// CHECK: ds_write2st64_b64
// CHECK: s_barrier
// One key tile of the loop: the next K by DMA and the next V into
// registers, S^T = K Q^T from ds_read2_b64 with 16 MFMAs at raised
// priority.
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK: buffer_load_ushort
// CHECK: ds_read2_b64
// CHECK: s_setprio 1
// CHECK-COUNT-16: v_mfma_f32_32x32x8_bf16
// CHECK-NEXT: s_setprio 0
// The row maximum's exchange, barrier X (K free: the scheduler sinks the
// exp2 of P, which touches no LDS, below it), exp2, the row sum's exchange;
// then this wave's rows of the next V stored transposed, and
// O^T += V^T P^T from plain LDS reads of V^T (P rounded to bf16 by VALU
// arithmetic: gfx942 has no v_cvt_pk_bf16_f32).
// CHECK: ds_bpermute_b32
// CHECK: s_barrier
// CHECK: v_exp_f32
// CHECK: ds_bpermute_b32
// CHECK: ds_write2st64_b64
// CHECK: ds_read2_b64
// CHECK: s_setprio 1
// CHECK-COUNT-16: v_mfma_f32_32x32x8_bf16
// CHECK-NEXT: s_setprio 0
// Barrier Y.
// CHECK: s_barrier
// CHECK: s_endpgm
// CHECK-NOT: scratch_

// f16, D = 64, causal: the f16 MFMA, nothing of bf16.
// F16-NOT: _bf16
// F16-LABEL: fmha_fwd:
// F16: v_mfma_f32_32x32x8_f16
// F16-NOT: _bf16
// F16: s_endpgm

// STATS: kernel fmha_fwd (gfx942)
// STATS-NEXT: registers {{ *}}{{[0-9]+}} VGPRs
// STATS-NEXT: spills {{ *}}0 VGPR, 0 SGPR
// STATS-NEXT: scratch {{ *}}0 bytes per work-item
// STATS-NEXT: LDS {{ *}}33792 bytes per workgroup
// STATS: mfma {{ *}}64{{$}}

// NOTES: .group_segment_fixed_size: 33792
// NOTES: .name: fmha_fwd
// NOTES: .private_segment_fixed_size: 0
// NOTES: .sgpr_spill_count: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx942
