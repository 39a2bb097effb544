//===- cvt_refused_gfx950.s - Conversions whose result is not documented --===//
//
// What the scaled conversions refuse rather than guess (ValuScaleCvt.cpp): a
// scale whose exponent is 255 (cvt_nan_scale) and a NaN going to FP4, which
// has no NaN (cvt_nan_to_fp4). Each launch must fail with an error, never
// store a result.
//
// Arguments: out (u32[64]); one wave. gfx950 only.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl cvt_nan_scale
  .p2align 8
  .type cvt_nan_scale,@function
cvt_nan_scale:
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  v_mov_b32_e32 v2, 1.0
  v_mov_b32_e32 v3, 0x7f800001              // scale exponent 255 (E8M0 NaN)
  v_cvt_scalef32_pk_fp8_f32 v6, v2, v2, v3
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v6, s[4:5]
  s_endpgm
.Lcvt_nan_scale_end:
  .size cvt_nan_scale, .Lcvt_nan_scale_end-cvt_nan_scale

  .rodata
  .p2align 6
  .amdhsa_kernel cvt_nan_scale
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
  .text
  .globl cvt_nan_to_fp4
  .p2align 8
  .type cvt_nan_to_fp4,@function
cvt_nan_to_fp4:
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  v_mov_b32_e32 v2, 0x7fc00000              // NaN
  v_mov_b32_e32 v3, 1.0
  v_cvt_scalef32_pk_fp4_f32 v6, v2, v3, v3
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v6, s[4:5]
  s_endpgm
.Lcvt_nan_to_fp4_end:
  .size cvt_nan_to_fp4, .Lcvt_nan_to_fp4_end-cvt_nan_to_fp4

  .rodata
  .p2align 6
  .amdhsa_kernel cvt_nan_to_fp4
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
    .name:           cvt_nan_scale
    .private_segment_fixed_size: 0
    .sgpr_count:     14
    .sgpr_spill_count: 0
    .symbol:         cvt_nan_scale.kd
    .vgpr_count:     16
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
    .name:           cvt_nan_to_fp4
    .private_segment_fixed_size: 0
    .sgpr_count:     14
    .sgpr_spill_count: 0
    .symbol:         cvt_nan_to_fp4.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
