//===- valu_special.s - transcendentals on special values (gfx942, gfx950) ===//
//
// v_rcp/rsq/sqrt/log/exp/sin/cos_f32, v_rcp_iflag_f32, the f16 forms and
// v_rcp/rsq/sqrt_f64 on inputs whose results are exact: signed zeros,
// infinities, NaNs, negative numbers, powers of two and denormals (which
// these ops flush). AluTests.cpp compares only lanes with such inputs.
//
// Arguments: a, b, c (u32[64]), out (u32[19 * 64]). v1 = a (f32), v3 = c
// (f16 in the low half), x = v[6:7] = b | a << 32 (f64).
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_special
  .p2align 8
  .type valu_special,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

valu_special:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  v_mov_b32_e32 v6, v2                    // x = v[6:7] = b | a << 32
  v_mov_b32_e32 v7, v1
  // out[0]: v_rcp_f32
  v_rcp_f32_e32 v4, v1
  ST v4
  // out[1]: v_rsq_f32
  v_rsq_f32_e32 v4, v1
  ST v4
  // out[2]: v_sqrt_f32
  v_sqrt_f32_e32 v4, v1
  ST v4
  // out[3]: v_log_f32
  v_log_f32_e32 v4, v1
  ST v4
  // out[4]: v_exp_f32
  v_exp_f32_e32 v4, v1
  ST v4
  // out[5]: v_sin_f32
  v_sin_f32_e32 v4, v1
  ST v4
  // out[6]: v_cos_f32
  v_cos_f32_e32 v4, v1
  ST v4
  // out[7]: v_rcp_iflag_f32
  v_rcp_iflag_f32_e32 v4, v1
  ST v4
  // out[8]: v_rcp_f16
  v_rcp_f16_e32 v4, v3
  ST v4
  // out[9]: v_sqrt_f16
  v_sqrt_f16_e32 v4, v3
  ST v4
  // out[10]: v_rsq_f16
  v_rsq_f16_e32 v4, v3
  ST v4
  // out[11]: v_log_f16
  v_log_f16_e32 v4, v3
  ST v4
  // out[12]: v_exp_f16
  v_exp_f16_e32 v4, v3
  ST v4
  // out[13]: v_rcp_f64 lo
  v_rcp_f64_e32 v[4:5], v[6:7]
  ST v4
  // out[14]: v_rcp_f64 hi
  ST v5
  // out[15]: v_rsq_f64 lo
  v_rsq_f64_e32 v[4:5], v[6:7]
  ST v4
  // out[16]: v_rsq_f64 hi
  ST v5
  // out[17]: v_sqrt_f64 lo
  v_sqrt_f64_e32 v[4:5], v[6:7]
  ST v4
  // out[18]: v_sqrt_f64 hi
  ST v5
  s_endpgm
.Lfunc_end0:
  .size valu_special, .Lfunc_end0-valu_special

  .rodata
  .p2align 6
  .amdhsa_kernel valu_special
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 32
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 16
    .amdhsa_next_free_sgpr 32
    .amdhsa_accum_offset 16
    .amdhsa_ieee_mode 1
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
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
      - .address_space:  global
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         16
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         24
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 32
    .max_flat_workgroup_size: 64
    .name:           valu_special
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         valu_special.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
