//===- mfma_refused_gfx950.s - Matrix ops whose result is not documented -===//
//
// What the matrix families refuse rather than guess: a block-scaled MFMA
// with an E8M0 NaN scale (255) and an f8f6f4 MFMA with a reserved format
// (cbsz 5) (MfmaF8f6f4.cpp); a sparse MFMA whose index pair names one
// position twice, and one whose abid selects an index set the VGPR does not
// have (two 16-bit sets for 8-bit data) (Smfmac.cpp). Each launch must fail
// with an error, never store a result.
//
// Arguments: out (u32[64 * 4]); one wave. gfx950 only.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl mfma_scale_nan
  .p2align 8
  .type mfma_scale_nan,@function
mfma_scale_nan:
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 4, v0
  v_mov_b32_e32 v40, 0x7f7f7fff             // A scale byte 0: E8M0 255
  v_mov_b32_e32 v41, 0x7f7f7f7f
  v_mfma_scale_f32_16x16x128_f8f6f4 v[48:51], v[8:15], v[16:23], v[24:27], v40, v41 op_sel_hi:[0,0,0]
  s_nop 7
  s_nop 7
  s_waitcnt lgkmcnt(0)
  global_store_dwordx4 v1, v[48:51], s[4:5]
  s_endpgm
.Lmfma_scale_nan_end:
  .size mfma_scale_nan, .Lmfma_scale_nan_end-mfma_scale_nan

  .rodata
  .p2align 6
  .amdhsa_kernel mfma_scale_nan
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 8
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 64
    .amdhsa_next_free_sgpr 8
    .amdhsa_accum_offset 64
  .end_amdhsa_kernel

  .text
  .globl mfma_f8f6f4_reserved
  .p2align 8
  .type mfma_f8f6f4_reserved,@function
mfma_f8f6f4_reserved:
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 4, v0
  v_mfma_f32_16x16x128_f8f6f4 v[48:51], v[8:15], v[16:23], v[24:27] cbsz:5
  s_nop 7
  s_nop 7
  s_waitcnt lgkmcnt(0)
  global_store_dwordx4 v1, v[48:51], s[4:5]
  s_endpgm
.Lmfma_f8f6f4_reserved_end:
  .size mfma_f8f6f4_reserved, .Lmfma_f8f6f4_reserved_end-mfma_f8f6f4_reserved

  .rodata
  .p2align 6
  .amdhsa_kernel mfma_f8f6f4_reserved
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 8
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 64
    .amdhsa_next_free_sgpr 8
    .amdhsa_accum_offset 64
  .end_amdhsa_kernel

  .text
  .globl smfmac_equal_indices
  .p2align 8
  .type smfmac_equal_indices,@function
smfmac_equal_indices:
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 4, v0
  v_mov_b32_e32 v40, 0                     // every pair (0, 0)
  v_smfmac_f32_16x16x32_f16 v[48:51], v[8:9], v[16:19], v40
  s_nop 7
  s_nop 7
  s_waitcnt lgkmcnt(0)
  global_store_dwordx4 v1, v[48:51], s[4:5]
  s_endpgm
.Lsmfmac_equal_indices_end:
  .size smfmac_equal_indices, .Lsmfmac_equal_indices_end-smfmac_equal_indices

  .rodata
  .p2align 6
  .amdhsa_kernel smfmac_equal_indices
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 8
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 64
    .amdhsa_next_free_sgpr 8
    .amdhsa_accum_offset 64
  .end_amdhsa_kernel

  .text
  .globl smfmac_abid_past_sets
  .p2align 8
  .type smfmac_abid_past_sets,@function
smfmac_abid_past_sets:
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 4, v0
  v_mov_b32_e32 v40, 0xe4e4e4e4            // pairs (0,1), (2,3)
  v_smfmac_f32_16x16x64_fp8_fp8 v[48:51], v[8:9], v[16:19], v40 abid:2
  s_nop 7
  s_nop 7
  s_waitcnt lgkmcnt(0)
  global_store_dwordx4 v1, v[48:51], s[4:5]
  s_endpgm
.Lsmfmac_abid_past_sets_end:
  .size smfmac_abid_past_sets, .Lsmfmac_abid_past_sets_end-smfmac_abid_past_sets

  .rodata
  .p2align 6
  .amdhsa_kernel smfmac_abid_past_sets
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 8
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 64
    .amdhsa_next_free_sgpr 8
    .amdhsa_accum_offset 64
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
    .name:           mfma_scale_nan
    .private_segment_fixed_size: 0
    .sgpr_count:     14
    .sgpr_spill_count: 0
    .symbol:         mfma_scale_nan.kd
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
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
    .name:           mfma_f8f6f4_reserved
    .private_segment_fixed_size: 0
    .sgpr_count:     14
    .sgpr_spill_count: 0
    .symbol:         mfma_f8f6f4_reserved.kd
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
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
    .name:           smfmac_equal_indices
    .private_segment_fixed_size: 0
    .sgpr_count:     14
    .sgpr_spill_count: 0
    .symbol:         smfmac_equal_indices.kd
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
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
    .name:           smfmac_abid_past_sets
    .private_segment_fixed_size: 0
    .sgpr_count:     14
    .sgpr_spill_count: 0
    .symbol:         smfmac_abid_past_sets.kd
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
