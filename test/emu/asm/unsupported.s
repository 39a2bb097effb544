//===- unsupported.s - An instruction the emulator does not implement ------===//
//
// s_scratch_load_dword exists on gfx942 and gfx950, but the CDNA guides do
// not define its address (CalcScalarScratchAddr: which base SBASE holds and
// how a wave-level address falls in the per-lane private segment), so the
// emulator does not implement it: the launch must fail with an error that
// names the instruction, never guess a result.
//
// Arguments: out (u32[64]); one wave.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl unsupported
  .p2align 8
  .type unsupported,@function
unsupported:
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  v_mov_b32_e32 v2, 1
  v_mov_b32_e32 v3, 2
  v_mov_b32_e32 v4, 3
  s_scratch_load_dword s6, s[4:5], 0x0
  v_mov_b32_e32 v6, s6
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v6, s[4:5]
  s_endpgm
.Lfunc_end0:
  .size unsupported, .Lfunc_end0-unsupported

  .rodata
  .p2align 6
  .amdhsa_kernel unsupported
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 8
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 16
    .amdhsa_next_free_sgpr 8
    .amdhsa_accum_offset 16
  .end_amdhsa_kernel

  .amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           unsupported
    .private_segment_fixed_size: 0
    .sgpr_count:     14
    .sgpr_spill_count: 0
    .symbol:         unsupported.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
