// FlashAttention forward (kernels/attention/fmha_fwd.mlir), causal, on
// gfx950 with INTERIOR, as kcc::ops::attention_forward picks it there
// (attentionParams): the key tiles below the workgroup's diagonal run in a
// loop of their own, with no mask test, before the edge loop that tests
// every tile. fmha-gfx950.mlir pins the clusters' schedule and
// fmha-roles-gfx950.mlir the roles' loops, both without INTERIOR; this
// file pins what INTERIOR changes. The FP8 kernel's interior is pinned by
// the DIAG run (fmha_fwd_fp8.mlir, gfx942 causal).
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D DTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=0 -D VPAD=0 -D K_IMAGE=1 -D V_IMAGE=1 -D WIDE=1 -D VR=64 -D VC=128 -D VROWS=8 -D ROLES=1 -D CAUSAL=1 -D PAIRS=1 -D LSE_OUT=1 -D INTERIOR=1 --emit=asm -o - | FileCheck %s
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D DTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=0 -D VPAD=0 -D K_IMAGE=1 -D V_IMAGE=1 -D WIDE=1 -D VR=64 -D VC=128 -D VROWS=8 -D ROLES=1 -D CAUSAL=1 -D PAIRS=1 -D LSE_OUT=1 -D INTERIOR=1 --stats | FileCheck %s --check-prefix=STATS
// RUN: kcc %kernels/attention/fmha_fwd_fp8.mlir --mcpu=gfx942 -D DTYPE=f8E4M3FNUZ -D ODTYPE=bf16 -D D=128 -D CAUSAL=1 -D PAIRS=1 -D LSE_OUT=1 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=0 -D PAD=0 -D VPAD=4 -D VR=128 -D VC=64 -D VROWS=16 -D KSWZ=8 -D VSWZ=0 -D PLOG2=-1 -D INTERIOR=1 --emit=asm -o - | FileCheck %s --check-prefix=DIAG

// The lagging group's interior loop: its latch tests the trip count at
// barrier Y, then each step's cluster A at priority 2 (the 16 MFMAs of
// S_{j+1}), barrier X, and cluster B at priority 1 right after it: no
// branch between the barrier and cluster B's first transposing read of V
// (the edge loop's mask test is there).
// CHECK-LABEL: fmha_fwd:
// CHECK: s_branch .LBB0_[[BODY:[0-9]+]]
// CHECK-NEXT: .LBB0_{{[0-9]+}}:
// CHECK: s_barrier
// CHECK-NEXT: s_cbranch_scc1 .LBB0_[[IEXIT:[0-9]+]]
// CHECK-NEXT: .LBB0_[[BODY]]:
// CHECK-NOT: {{v_writelane|v_readlane|scratch_}}
// CHECK: s_setprio 1
// CHECK-NEXT: s_setprio 2
// CHECK-COUNT-16: v_mfma_f32_32x32x16_bf16
// CHECK-NOT: s_cbranch
// CHECK: s_barrier
// CHECK-NEXT: s_setprio 1
// CHECK-NEXT: ds_read_b64_tr_b16
// CHECK-COUNT-16: v_mfma_f32_32x32x16_bf16
// The second step likewise, after the first's barrier Y (its rescale's
// branch before it).
// CHECK: s_barrier
// CHECK-NEXT: s_setprio 1
// CHECK-NEXT: s_setprio 2
// CHECK-COUNT-16: v_mfma_f32_32x32x16_bf16
// CHECK-NOT: s_cbranch
// CHECK: s_barrier
// CHECK-NEXT: s_setprio 1
// CHECK-NEXT: ds_read_b64_tr_b16
// CHECK-COUNT-16: v_mfma_f32_32x32x16_bf16
// CHECK-NOT: {{v_writelane|v_readlane|scratch_}}
// CHECK: s_branch .LBB0_
// The interior's exit leads to the edge loop, whose barrier X is followed
// by the mask test (a wave-uniform branch) in each of its steps; the masked
// path takes the scores past a query's diagonal to -inf (32 a lane).
// CHECK: .LBB0_[[IEXIT]]:
// CHECK: v_mov_b32_e32 [[NINF:v[0-9]+]], 0xff800000
// CHECK: s_barrier
// CHECK-NEXT: s_cbranch_vccnz .LBB0_[[NOMASK:[0-9]+]]
// CHECK-NOT: s_barrier
// CHECK-COUNT-32: v_cndmask_b32_e32 v{{[0-9]+}}, [[NINF]], v{{[0-9]+}}, vcc
// CHECK: .LBB0_[[NOMASK]]:
// CHECK: s_barrier
// CHECK: s_barrier
// CHECK-NEXT: s_cbranch_vccnz .LBB0_[[NOMASK2:[0-9]+]]
// CHECK-NOT: s_barrier
// CHECK-COUNT-32: v_cndmask_b32_e32 v{{[0-9]+}}, [[NINF]], v{{[0-9]+}}, vcc
// CHECK: .LBB0_[[NOMASK2]]:

// INTERIOR adds loops (40.3 -> 57.7 KB of code with the two query blocks'
// copies), not VGPRs: three SGPRs spilled into VGPR lanes (two without
// INTERIOR, fmha-roles-gfx950.mlir), written before the second block's
// leading loops and read after them; none in the interior loop above.
// STATS: kernel fmha_fwd (gfx950)
// STATS-NEXT: registers {{ *}}{{[0-9]+}} VGPRs, 0 AGPRs
// STATS-NEXT: spills {{ *}}0 VGPR, 3 SGPR
// STATS-NEXT: scratch {{ *}}0 bytes per work-item

// FP8 on gfx942 (no roles): the interior loop (the first, whose latch
// steps j by 2 and leaves at j >= its bound) compares no key index against
// a query's limit; the edge loop after it does, 32 a step (v_cmp_le_i32:
// key row <= the column's last visible key).
// DIAG-LABEL: fmha_fwd_fp8:
// DIAG: s_add_i32 [[J:s[0-9]+]], [[J]], 2
// DIAG: s_cmp_ge_u32 [[J]], s{{[0-9]+}}
// DIAG-NEXT: s_barrier
// DIAG-NEXT: s_cbranch_scc1 .LBB0_[[IEXIT:[0-9]+]]
// DIAG-NEXT: .LBB0_{{[0-9]+}}:
// DIAG-NOT: v_cmp_le_i32
// DIAG: .LBB0_[[IEXIT]]:
// DIAG-COUNT-64: v_cmp_le_i32_e32
