//===- timing_kernels.s - Kernels with hand-computed cycle counts ---------===//
//
// One wave each, no arguments. The expected cycles are worked out in
// TimingTests.cpp next to each test from the constants of
// runtime/emu/timing/TimingParams.cpp.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text

// mfma_indep: 16 independent MFMAs (four accumulators in turn): the pipe is the limit,
// 8 passes = 32 cycles each.
  .globl mfma_indep
  .p2align 8
  .type mfma_indep,@function
mfma_indep:
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[16:31], v[0:1], v[2:3], a[16:31]
  v_mfma_f32_32x32x8_bf16 a[32:47], v[0:1], v[2:3], a[32:47]
  v_mfma_f32_32x32x8_bf16 a[48:63], v[0:1], v[2:3], a[48:63]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[16:31], v[0:1], v[2:3], a[16:31]
  v_mfma_f32_32x32x8_bf16 a[32:47], v[0:1], v[2:3], a[32:47]
  v_mfma_f32_32x32x8_bf16 a[48:63], v[0:1], v[2:3], a[48:63]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[16:31], v[0:1], v[2:3], a[16:31]
  v_mfma_f32_32x32x8_bf16 a[32:47], v[0:1], v[2:3], a[32:47]
  v_mfma_f32_32x32x8_bf16 a[48:63], v[0:1], v[2:3], a[48:63]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[16:31], v[0:1], v[2:3], a[16:31]
  v_mfma_f32_32x32x8_bf16 a[32:47], v[0:1], v[2:3], a[32:47]
  v_mfma_f32_32x32x8_bf16 a[48:63], v[0:1], v[2:3], a[48:63]
  s_endpgm
.Lend_mfma_indep:
  .size mfma_indep, .Lend_mfma_indep-mfma_indep

// mfma_chain_c: 16 MFMAs accumulating into one accumulator: the src C chain is forwarded,
// so they issue at pipe rate like independent ones.
  .globl mfma_chain_c
  .p2align 8
  .type mfma_chain_c,@function
mfma_chain_c:
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  s_endpgm
.Lend_mfma_chain_c:
  .size mfma_chain_c, .Lend_mfma_chain_c-mfma_chain_c

// mfma_chain_ab: 16 MFMAs each reading the previous one's result as its A operand: every
// one waits for the result, passes + 3 wait states (gfx950: + 4).
  .globl mfma_chain_ab
  .p2align 8
  .type mfma_chain_ab,@function
mfma_chain_ab:
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  v_mfma_f32_32x32x8_bf16 v[0:15], v[0:1], v[32:33], v[16:31]
  s_endpgm
.Lend_mfma_chain_ab:
  .size mfma_chain_ab, .Lend_mfma_chain_ab-mfma_chain_ab

// nop_wait: s_nop 7 between two VALU ops: 8 wait states of 4 cycles.
  .globl nop_wait
  .p2align 8
  .type nop_wait,@function
nop_wait:
  v_mov_b32_e32 v1, 0
  s_nop 7
  v_mov_b32_e32 v2, 0
  s_endpgm
.Lend_nop_wait:
  .size nop_wait, .Lend_nop_wait-nop_wait

// lds_stride: ds_read_b32 with a 4-byte lane stride (no conflict), with an 8-byte stride
// (2-way: two dwords per bank in every phase), and ds_read_b128 with a
// 16-byte stride (no conflict: 8 lanes fill the banks of a phase).
  .globl lds_stride
  .p2align 8
  .type lds_stride,@function
lds_stride:
  v_lshlrev_b32_e32 v1, 2, v0
  v_lshlrev_b32_e32 v2, 3, v0
  v_lshlrev_b32_e32 v5, 4, v0
  ds_read_b32 v3, v1
  ds_read_b32 v3, v1
  ds_read_b32 v3, v1
  ds_read_b32 v3, v1
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v4, v2
  ds_read_b32 v4, v2
  ds_read_b32 v4, v2
  ds_read_b32 v4, v2
  s_waitcnt lgkmcnt(0)
  ds_read_b128 v[8:11], v5
  s_waitcnt lgkmcnt(0)
  s_endpgm
.Lend_lds_stride:
  .size lds_stride, .Lend_lds_stride-lds_stride

// counted_loop: A loop of 64 iterations, one MFMA each, counted in s2: the back-edge
// compare lets steady-state mode infer the trip count.
  .globl counted_loop
  .p2align 8
  .type counted_loop,@function
counted_loop:
  s_mov_b32 s2, 0
.Lloop:
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  s_add_u32 s2, s2, 1
  s_cmp_lt_u32 s2, 64
  s_cbranch_scc1 .Lloop
  s_endpgm
.Lend_counted_loop:
  .size counted_loop, .Lend_counted_loop-counted_loop

// nested_loop: 4 iterations of an outer loop (s3), each running 16 of an
// inner loop (s2) of one MFMA and a few VALU instructions around them: the
// outer back-edge's takings span more instructions than the inner one's,
// but the time goes to the inner loop.
  .globl nested_loop
  .p2align 8
  .type nested_loop,@function
nested_loop:
  s_mov_b32 s3, 0
.Louter:
  v_mov_b32 v4, 0
  v_mov_b32 v5, 0
  s_mov_b32 s2, 0
.Linner:
  v_mfma_f32_32x32x8_bf16 a[0:15], v[0:1], v[2:3], a[0:15]
  s_add_u32 s2, s2, 1
  s_cmp_lt_u32 s2, 16
  s_cbranch_scc1 .Linner
  v_add_u32 v4, v4, v5
  s_add_u32 s3, s3, 1
  s_cmp_lt_u32 s3, 4
  s_cbranch_scc1 .Louter
  s_endpgm
.Lend_nested_loop:
  .size nested_loop, .Lend_nested_loop-nested_loop

// lds_wait_loop: 16 iterations, each an LDS read whose result the next
// instruction waits for: the loop's time is the LDS latency, spent in
// s_waitcnt lgkmcnt(0).
  .globl lds_wait_loop
  .p2align 8
  .type lds_wait_loop,@function
lds_wait_loop:
  v_lshlrev_b32_e32 v1, 2, v0
  s_mov_b32 s2, 0
.Llds_wait:
  ds_read_b32 v3, v1
  s_waitcnt lgkmcnt(0)
  v_add_u32_e32 v4, v3, v4
  s_add_u32 s2, s2, 1
  s_cmp_lt_u32 s2, 16
  s_cbranch_scc1 .Llds_wait
  s_endpgm
.Lend_lds_wait_loop:
  .size lds_wait_loop, .Lend_lds_wait_loop-lds_wait_loop

// mem_wait_loop: the same with a buffer load (a null descriptor: no bytes
// in range, every lane reads 0) and s_waitcnt vmcnt(0).
  .globl mem_wait_loop
  .p2align 8
  .type mem_wait_loop,@function
mem_wait_loop:
  s_mov_b64 s[4:5], 0
  s_mov_b64 s[6:7], 0
  v_mov_b32_e32 v1, 0
  s_mov_b32 s2, 0
.Lmem_wait:
  buffer_load_dword v3, v1, s[4:7], 0 offen
  s_waitcnt vmcnt(0)
  v_add_u32_e32 v4, v3, v4
  s_add_u32 s2, s2, 1
  s_cmp_lt_u32 s2, 16
  s_cbranch_scc1 .Lmem_wait
  s_endpgm
.Lend_mem_wait_loop:
  .size mem_wait_loop, .Lend_mem_wait_loop-mem_wait_loop

  .rodata
// Every kernel's descriptor: one wave, no arguments, 128 VGPRs (AGPRs from
// 64), and LDS_BYTES of LDS.
.macro timing_kernel_descriptor name, lds_bytes=0
  .p2align 6
  .amdhsa_kernel \name
    .amdhsa_group_segment_fixed_size \lds_bytes
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 0
    .amdhsa_user_sgpr_count 0
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 128
    .amdhsa_next_free_sgpr 8
    .amdhsa_accum_offset 64
  .end_amdhsa_kernel
.endm
  timing_kernel_descriptor mfma_indep
  timing_kernel_descriptor mfma_chain_c
  timing_kernel_descriptor mfma_chain_ab
  timing_kernel_descriptor nop_wait
  timing_kernel_descriptor lds_stride, 1024
  timing_kernel_descriptor counted_loop
  timing_kernel_descriptor nested_loop
  timing_kernel_descriptor lds_wait_loop, 1024
  timing_kernel_descriptor mem_wait_loop

  .amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     64
    .args:           []
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 0
    .max_flat_workgroup_size: 64
    .name:           mfma_indep
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .sgpr_spill_count: 0
    .symbol:         mfma_indep.kd
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     64
    .args:           []
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 0
    .max_flat_workgroup_size: 64
    .name:           mfma_chain_c
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .sgpr_spill_count: 0
    .symbol:         mfma_chain_c.kd
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     64
    .args:           []
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 0
    .max_flat_workgroup_size: 64
    .name:           mfma_chain_ab
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .sgpr_spill_count: 0
    .symbol:         mfma_chain_ab.kd
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     64
    .args:           []
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 0
    .max_flat_workgroup_size: 64
    .name:           nop_wait
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .sgpr_spill_count: 0
    .symbol:         nop_wait.kd
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     64
    .args:           []
    .group_segment_fixed_size: 1024
    .kernarg_segment_align: 8
    .kernarg_segment_size: 0
    .max_flat_workgroup_size: 64
    .name:           lds_stride
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .sgpr_spill_count: 0
    .symbol:         lds_stride.kd
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     64
    .args:           []
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 0
    .max_flat_workgroup_size: 64
    .name:           counted_loop
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .sgpr_spill_count: 0
    .symbol:         counted_loop.kd
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     64
    .args:           []
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 0
    .max_flat_workgroup_size: 64
    .name:           nested_loop
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .sgpr_spill_count: 0
    .symbol:         nested_loop.kd
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     64
    .args:           []
    .group_segment_fixed_size: 1024
    .kernarg_segment_align: 8
    .kernarg_segment_size: 0
    .max_flat_workgroup_size: 64
    .name:           lds_wait_loop
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .sgpr_spill_count: 0
    .symbol:         lds_wait_loop.kd
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     64
    .args:           []
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 0
    .max_flat_workgroup_size: 64
    .name:           mem_wait_loop
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .sgpr_spill_count: 0
    .symbol:         mem_wait_loop.kd
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
