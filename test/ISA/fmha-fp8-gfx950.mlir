// FP8 FlashAttention forward (kernels/attention/fmha_fwd_fp8.mlir) on gfx950
// with the parameters kcc::ops::attention_forward picks for e4m3fn and
// D = 128 (attentionFp8Params): 8 waves in two staggered groups, 64-key
// tiles, K and V by 16-byte LDS DMA into rows swizzled by 8 chunks, V read
// by ds_read_b64_tr_b8, the f8f6f4 MFMA at 32x32x64, one key loop per
// wave group's role (ROLES).
// RUN: kcc %kernels/attention/fmha_fwd_fp8.mlir --mcpu=gfx950 -D DTYPE=f8E4M3FN -D ODTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=0 -D VPAD=0 -D VR=64 -D VC=128 -D VROWS=8 -D KSWZ=8 -D VSWZ=8 -D WIDE=1 -D PLOG2=0 -D ROLES=1 --emit=asm -o - | FileCheck %s
// RUN: kcc %kernels/attention/fmha_fwd_fp8.mlir --mcpu=gfx950 -D DTYPE=f8E4M3FN -D ODTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=0 -D VPAD=0 -D VR=64 -D VC=128 -D VROWS=8 -D KSWZ=8 -D VSWZ=8 -D WIDE=1 -D PLOG2=0 -D ROLES=1 --stats | FileCheck %s --check-prefix=STATS128
// RUN: kcc %kernels/attention/fmha_fwd_fp8.mlir --mcpu=gfx950 -D DTYPE=f8E4M3FN -D ODTYPE=f16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=0 -D VPAD=0 -D VR=64 -D VC=128 -D VROWS=8 -D KSWZ=8 -D VSWZ=8 -D WIDE=1 -D PLOG2=0 -D ROLES=1 -D CAUSAL=1 -D LSE_OUT=1 --stats | FileCheck %s --check-prefix=STATS
// RUN: kcc %kernels/attention/fmha_fwd_fp8.mlir --mcpu=gfx950 -D DTYPE=f8E4M3FN -D ODTYPE=bf16 -D D=64 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=0 -D VPAD=0 -D VR=64 -D VC=64 -D VROWS=8 -D KSWZ=4 -D VSWZ=4 -D WIDE=1 -D PLOG2=0 -D ROLES=1 -D CAUSAL=1 --stats | FileCheck %s --check-prefix=STATS

// The lagging group's loop comes first (ROLES): it issues no DMA, so its
// step opens on cluster A between s_setprio 1 and 0: the 4 MFMAs of
// S_{j+1} = K_{j+1} Q^T (two row blocks of 32 keys, D in two 64-deep
// halves), each fed by two 16-byte reads of K and followed by 8 of S_j's
// exponentials, the next MFMA's two reads among them (the pattern
// [ds_read 2] [mfma 1, trans 4, ds_read 1, trans 2, ds_read 1, trans 2] x 4).
// CHECK-LABEL: fmha_fwd_fp8:
// The prologue's S_0 at priority 1, the barrier after it and the lagging
// group's extra one (the stagger), then the loop.
// CHECK: s_setprio 1
// CHECK: v_mfma_f32_32x32x64_f8f6f4
// CHECK: s_setprio 0
// CHECK: s_barrier
// CHECK: s_barrier
// CHECK: s_setprio 1
// CHECK-NEXT: ds_read_b128
// CHECK-NEXT: ds_read_b128
// CHECK: v_mfma_f32_32x32x64_f8f6f4 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], 0{{$}}
// CHECK-COUNT-4: v_exp_f32
// CHECK-NOT: {{v_exp_f32|v_mfma}}
// CHECK: ds_read_b128
// CHECK-COUNT-2: v_exp_f32
// CHECK-NOT: {{v_exp_f32|v_mfma}}
// CHECK: ds_read_b128
// CHECK-COUNT-2: v_exp_f32
// CHECK-NOT: v_mfma
// CHECK: s_waitcnt lgkmcnt(0)
// CHECK-NEXT: v_mfma_f32_32x32x64_f8f6f4
// CHECK-COUNT-4: v_exp_f32
// CHECK-NOT: {{v_exp_f32|v_mfma}}
// CHECK: ds_read_b128
// CHECK-COUNT-2: v_exp_f32
// CHECK-NOT: {{v_exp_f32|v_mfma}}
// CHECK: ds_read_b128
// CHECK-COUNT-2: v_exp_f32
// CHECK-NOT: v_mfma
// CHECK: s_waitcnt lgkmcnt(0)
// CHECK-NEXT: v_mfma_f32_32x32x64_f8f6f4 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], 0{{$}}
// CHECK-COUNT-4: v_exp_f32
// CHECK-NOT: {{v_exp_f32|v_mfma}}
// CHECK: ds_read_b128
// CHECK-COUNT-2: v_exp_f32
// CHECK-NOT: {{v_exp_f32|v_mfma}}
// CHECK: ds_read_b128
// CHECK-COUNT-2: v_exp_f32
// CHECK-NOT: v_mfma
// CHECK: s_waitcnt lgkmcnt(0)
// CHECK-NEXT: v_mfma_f32_32x32x64_f8f6f4
// CHECK-COUNT-8: v_exp_f32
// CHECK-NOT: v_mfma
// CHECK: s_setprio 0
// Barrier X, and no DMA after it either; then cluster B (at normal
// priority, unlike bf16's): the first four transposing 8-byte reads of V,
// P_j to e4m3, two per conversion, four bytes per register (no clamp:
// fast_rounding), and O^T += V_j^T P_j^T, 4 MFMAs of 64 keys, each fed by
// four reads of V.
// CHECK-NOT: buffer_load
// CHECK: s_barrier
// CHECK-NOT: buffer_load
// CHECK-COUNT-4: ds_read_b64_tr_b8
// CHECK-COUNT-8: v_cvt_pk_fp8_f32 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}{{$}}
// CHECK-COUNT-8: v_cvt_pk_fp8_f32 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}} op_sel:[0,0,1]
// CHECK-NOT: s_setprio
// CHECK: v_mfma_f32_32x32x64_f8f6f4 [[O:v\[[0-9]+:[0-9]+\]]], v[{{[0-9]+}}:{{[0-9]+}}], [[P:v\[[0-9]+:[0-9]+\]]], [[O]]
// CHECK-COUNT-4: ds_read_b64_tr_b8
// CHECK: v_max3_f32
// CHECK: v_mfma_f32_32x32x64_f8f6f4 {{.*}}, [[P]], v
// CHECK: v_permlane32_swap_b32
// CHECK: v_mfma_f32_32x32x64_f8f6f4 {{.*}}, [[P]], v
// CHECK-NOT: s_setprio
// CHECK: v_mfma_f32_32x32x64_f8f6f4 {{.*}}, [[P]], v
// CHECK-NOT: s_setprio
// CHECK: s_cbranch_vccz
// CHECK-NOT: buffer_load
// CHECK: s_barrier
// The leading group's loop: K j+2's tile, wholly inside the keys, by
// `inbounds` DMA: one M0 write for two 1 KiB lines, each line's row in a
// scalar offset (the second line's LDS place in the offset field), no
// vector instruction between them; the last tile's bounded copy computes
// its lane offsets instead.
// The role's branch (placed after the lagging loop) leads there.
// CHECK: s_cbranch_execnz .LBB0_[[LEAD:[0-9]+]]
// CHECK: {{^}}.LBB0_[[LEAD]]:
// CHECK: scratch_store_dword
// CHECK: scratch_store_dword
// CHECK-NOT: scratch_
// CHECK: s_mov_b32 m0, s{{[0-9]+}}
// CHECK-NEXT: s_add_i32 [[L0:s[0-9]+]], s{{[0-9]+}}, s{{[0-9]+}}
// CHECK-NEXT: buffer_load_dwordx4 [[LANE:v[0-9]+]], s[{{[0-9]+}}:{{[0-9]+}}], [[L0]] offen lds
// CHECK-NEXT: s_add_i32 [[L1:s[0-9]+]], s{{[0-9]+}}, s{{[0-9]+}}
// CHECK-NEXT: buffer_load_dwordx4 [[LANE]], s[{{[0-9]+}}:{{[0-9]+}}], [[L1]] offen offset:2048 lds
// CHECK: buffer_load_dwordx4 v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-NOT: scratch_
// CHECK: s_setprio 1
// CHECK-NEXT: ds_read_b128
// CHECK-NEXT: ds_read_b128
// CHECK-NOT: scratch_
// CHECK: v_mfma_f32_32x32x64_f8f6f4
// CHECK-NOT: scratch_
// CHECK: s_barrier
// CHECK-NOT: scratch_
// CHECK: s_barrier
// CHECK-NOT: scratch_
// CHECK: s_barrier
// CHECK-NOT: scratch_
// CHECK: s_barrier
// CHECK-NOT: scratch_
// CHECK: s_branch
// CHECK: scratch_load_dword
// CHECK: scratch_load_dword
// No MFMA of another shape anywhere, nor a bf16 one.
// CHECK-NOT: v_mfma_f32_32x32x16
// CHECK: s_endpgm

// No spill and no scratch in the causal configurations (the D = 64 causal
// one spilled 64 SGPRs while the splat of the softmax's scale was held as
// 32 SGPR copies across the key loop). The non-causal D = 128 kernel with
// ROLES keeps two VGPRs in scratch across the leading group's loop, stored
// once before it and loaded once after (the asm checks above: no scratch
// access in the loop).
// STATS128: kernel fmha_fwd_fp8 (gfx950)
// STATS128: spills        2 VGPR, 0 SGPR
// STATS128-NEXT: scratch       12 bytes per work-item
// STATS128: occupancy     2 of 8 waves per SIMD
// STATS: kernel fmha_fwd_fp8 (gfx950)
// STATS: spills        0 VGPR, 0 SGPR
// STATS-NEXT: scratch       0 bytes per work-item
// STATS: occupancy     2 of 8 waves per SIMD
