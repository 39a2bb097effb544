//===- graphics_only.s - A graphics-only instruction in a compute kernel ---===//
//
// v_cubeid_f32 computes the face of a cube map for texture sampling (CDNA3
// ISA, VOP3A): the emulator classifies it as graphics-only and must stop the
// launch with an error that names the instruction and says why, never run
// it as a compute op.
//
// Arguments: out (u32[64]); one wave.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl graphics_only
  .p2align 8
  .type graphics_only,@function
graphics_only:
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  v_mov_b32_e32 v2, 1.0
  v_cubeid_f32 v6, v2, v2, v2
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v6, s[4:5]
  s_endpgm
.Lfunc_end0:
  .size graphics_only, .Lfunc_end0-graphics_only

  .rodata
  .p2align 6
  .amdhsa_kernel graphics_only
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
    .name:           graphics_only
    .private_segment_fixed_size: 0
    .sgpr_count:     14
    .sgpr_spill_count: 0
    .symbol:         graphics_only.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
