//===- valu_float.s - float VALU ops on special values (gfx942, gfx950) -===//
//
// f32 and f16 VALU ops, conversions and modifiers, one wave, on per-lane
// inputs: NaNs (quiet and signalling), infinities, signed zeros, denormals,
// rounding ties and conversion limits in the first lanes, random values in
// the others (see AluTests.cpp, which lists the same ops in the same order).
// Each op's result goes to its own 64-lane row of out.
//
// Arguments: a, b, c (u32[64]), out (u32[42 * 64]). v1 = a, v2 = b, v3 = c
// (f32, or integers for the int -> float conversions, or two f16 halves);
// v6 = c[8:0] and v8 = c[21:16] sign-extended (ldexp exponents), v7 = c >> 16.
//
// The descriptor asks for what kcc's and HIP's kernels run with: IEEE mode,
// DX10 clamp, denormals kept for every width, round to nearest even.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_float
  .p2align 8
  .type valu_float,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

valu_float:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  v_bfe_i32 v6, v3, 0, 9                  // v_ldexp_f32 exponents -256..255
  v_lshrrev_b32_e32 v7, 16, v3            // the high f16 of c, as a low half
  v_bfe_i32 v8, v3, 16, 6                 // v_ldexp_f16 exponents -32..31
  // out[0]
  v_add_f32_e32 v4, v1, v2
  ST v4
  // out[1]
  v_sub_f32_e32 v4, v1, v2
  ST v4
  // out[2]
  v_mul_f32_e32 v4, v1, v2
  ST v4
  // out[3]
  v_mul_legacy_f32 v4, v1, v2
  ST v4
  // out[4]
  v_min_f32_e32 v4, v1, v2
  ST v4
  // out[5]
  v_max_f32_e32 v4, v1, v2
  ST v4
  // out[6]
  v_min3_f32 v4, v1, v2, v3
  ST v4
  // out[7]
  v_max3_f32 v4, v1, v2, v3
  ST v4
  // out[8]
  v_med3_f32 v4, v1, v2, v3
  ST v4
  // out[9]
  v_fma_f32 v4, v1, v2, v3
  ST v4
  // out[10]
  v_fract_f32_e32 v4, v1
  ST v4
  // out[11]
  v_frexp_mant_f32_e32 v4, v1
  ST v4
  // out[12]
  v_frexp_exp_i32_f32_e32 v4, v1
  ST v4
  // out[13]
  v_ldexp_f32 v4, v1, v6
  ST v4
  // out[14]
  v_ldexp_f32 v4, v1, v3
  ST v4
  // out[15]
  v_cvt_f32_u32_e32 v4, v3
  ST v4
  // out[16]
  v_cvt_f32_i32_e32 v4, v3
  ST v4
  // out[17]
  v_cvt_u32_f32_e32 v4, v1
  ST v4
  // out[18]
  v_cvt_i32_f32_e32 v4, v1
  ST v4
  // out[19]
  v_cvt_rpi_i32_f32_e32 v4, v1
  ST v4
  // out[20]
  v_cvt_flr_i32_f32_e32 v4, v1
  ST v4
  // out[21]
  v_rndne_f32_e32 v4, v1
  ST v4
  // out[22]
  v_floor_f32_e32 v4, v1
  ST v4
  // out[23]
  v_ceil_f32_e32 v4, v1
  ST v4
  // out[24]
  v_trunc_f32_e32 v4, v1
  ST v4
  // out[25]
  v_cvt_f16_f32_e32 v4, v1
  ST v4
  // out[26]
  v_cvt_f32_f16_e32 v4, v3
  ST v4
  // out[27]
  v_cvt_pkrtz_f16_f32 v4, v1, v2
  ST v4
  // out[28]
  v_pack_b32_f16 v4, v1, v2
  ST v4
  // out[29]
  v_pack_b32_f16 v4, v1, v2 op_sel:[1,1,0]
  ST v4
  // out[30]
  v_add_f32_e64 v4, v1, v2 clamp
  ST v4
  // out[31]
  v_mul_f32_e64 v4, v1, v2 mul:2
  ST v4
  // out[32]
  v_max_f32_e64 v4, |v1|, -v2
  ST v4
  // out[33]
  v_cvt_u16_f16_e32 v4, v3
  ST v4
  // out[34]
  v_cvt_i16_f16_e32 v4, v3
  ST v4
  // out[35]
  v_cvt_f16_u16_e32 v4, v3
  ST v4
  // out[36]
  v_cvt_f16_i16_e32 v4, v3
  ST v4
  // out[37]
  v_max_f16_e32 v4, v3, v7
  ST v4
  // out[38]
  v_min_f16_e32 v4, v3, v7
  ST v4
  // out[39]
  v_add_f16_e32 v4, v3, v7
  ST v4
  // out[40]
  v_mul_f16_e32 v4, v3, v7
  ST v4
  // out[41]
  v_ldexp_f16_e32 v4, v3, v8
  ST v4
  s_endpgm
.Lfunc_end0:
  .size valu_float, .Lfunc_end0-valu_float

  .rodata
  .p2align 6
  .amdhsa_kernel valu_float
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
    .amdhsa_dx10_clamp 1
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
    .amdhsa_float_round_mode_32 0
    .amdhsa_float_round_mode_16_64 0
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
    .name:           valu_float
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         valu_float.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
