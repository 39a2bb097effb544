//===- valu_f64.s - f64 VALU ops and 64-bit moves (gfx942, gfx950) ------===//
//
// f64 arithmetic, min/max, rounding, frexp/ldexp, conversions to and from
// f32 and integers (with source modifiers), f64 compares and class, and
// v_lshl_add_u64 / v_mov_b64, one wave. A 64-bit result takes two 64-lane
// rows of out (low dword, then high); AluTests.cpp lists the same rows.
//
// Arguments: a, b, c (u32[64]), out (u32[50 * 64]). x = v[6:7] = c | a << 32,
// y = v[8:9] = ~c | b << 32 (so a and b are the high dwords that carry sign
// and exponent); v1 = a is also the f32 source and v3 = c the integer one;
// v10 = b[10:0] sign-extended (ldexp exponent), v11 = b[9:0] (class mask).
//
// The descriptor asks for IEEE mode, DX10 clamp and denormals kept.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_f64
  .p2align 8
  .type valu_f64,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

valu_f64:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  v_mov_b32_e32 v6, v3                    // x = v[6:7] = c | a << 32
  v_mov_b32_e32 v7, v1
  v_not_b32_e32 v8, v3                    // y = v[8:9] = ~c | b << 32
  v_mov_b32_e32 v9, v2
  v_bfe_i32 v10, v2, 0, 11                // v_ldexp_f64 exponents -1024..1023
  v_and_b32_e32 v11, 0x3ff, v2            // v_cmp_class_f64 mask
  // out[0]: v_add_f64 lo
  v_add_f64 v[4:5], v[6:7], v[8:9]
  ST v4
  // out[1]: v_add_f64 hi
  ST v5
  // out[2]: v_mul_f64 lo
  v_mul_f64 v[4:5], v[6:7], v[8:9]
  ST v4
  // out[3]: v_mul_f64 hi
  ST v5
  // out[4]: v_fma_f64 x*y+x lo
  v_fma_f64 v[4:5], v[6:7], v[8:9], v[6:7]
  ST v4
  // out[5]: v_fma_f64 x*y+x hi
  ST v5
  // out[6]: v_max_f64 lo
  v_max_f64 v[4:5], v[6:7], v[8:9]
  ST v4
  // out[7]: v_max_f64 hi
  ST v5
  // out[8]: v_min_f64 lo
  v_min_f64 v[4:5], v[6:7], v[8:9]
  ST v4
  // out[9]: v_min_f64 hi
  ST v5
  // out[10]: v_max_f64 -x, |y| lo
  v_max_f64 v[4:5], -v[6:7], |v[8:9]|
  ST v4
  // out[11]: v_max_f64 -x, |y| hi
  ST v5
  // out[12]: v_fract_f64 lo
  v_fract_f64_e32 v[4:5], v[6:7]
  ST v4
  // out[13]: v_fract_f64 hi
  ST v5
  // out[14]: v_frexp_mant_f64 lo
  v_frexp_mant_f64_e32 v[4:5], v[6:7]
  ST v4
  // out[15]: v_frexp_mant_f64 hi
  ST v5
  // out[16]: v_frexp_exp_i32_f64
  v_frexp_exp_i32_f64_e32 v4, v[6:7]
  ST v4
  // out[17]: v_ldexp_f64 lo
  v_ldexp_f64 v[4:5], v[6:7], v10
  ST v4
  // out[18]: v_ldexp_f64 hi
  ST v5
  // out[19]: v_rndne_f64 lo
  v_rndne_f64_e32 v[4:5], v[6:7]
  ST v4
  // out[20]: v_rndne_f64 hi
  ST v5
  // out[21]: v_floor_f64 lo
  v_floor_f64_e32 v[4:5], v[6:7]
  ST v4
  // out[22]: v_floor_f64 hi
  ST v5
  // out[23]: v_ceil_f64 lo
  v_ceil_f64_e32 v[4:5], v[6:7]
  ST v4
  // out[24]: v_ceil_f64 hi
  ST v5
  // out[25]: v_trunc_f64 lo
  v_trunc_f64_e32 v[4:5], v[6:7]
  ST v4
  // out[26]: v_trunc_f64 hi
  ST v5
  // out[27]: v_cvt_f32_f64
  v_cvt_f32_f64_e32 v4, v[6:7]
  ST v4
  // out[28]: v_cvt_f64_f32 lo
  v_cvt_f64_f32_e32 v[4:5], v1
  ST v4
  // out[29]: v_cvt_f64_f32 hi
  ST v5
  // out[30]: v_cvt_f64_f32 -a lo
  v_cvt_f64_f32_e64 v[4:5], -v1
  ST v4
  // out[31]: v_cvt_f64_f32 -a hi
  ST v5
  // out[32]: v_cvt_f64_f32 |a| lo
  v_cvt_f64_f32_e64 v[4:5], |v1|
  ST v4
  // out[33]: v_cvt_f64_f32 |a| hi
  ST v5
  // out[34]: v_cvt_i32_f64
  v_cvt_i32_f64_e32 v4, v[6:7]
  ST v4
  // out[35]: v_cvt_u32_f64
  v_cvt_u32_f64_e32 v4, v[6:7]
  ST v4
  // out[36]: v_cvt_f64_i32 lo
  v_cvt_f64_i32_e32 v[4:5], v3
  ST v4
  // out[37]: v_cvt_f64_i32 hi
  ST v5
  // out[38]: v_cvt_f64_u32 lo
  v_cvt_f64_u32_e32 v[4:5], v3
  ST v4
  // out[39]: v_cvt_f64_u32 hi
  ST v5
  // out[40]: v_cmp_class_f64
  v_cmp_class_f64_e64 s[20:21], v[6:7], v11
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[41]: v_cmp_lt_f64
  v_cmp_lt_f64_e64 s[20:21], v[6:7], v[8:9]
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[42]: v_cmp_neq_f64
  v_cmp_neq_f64_e64 s[20:21], v[6:7], v[8:9]
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[43]: v_cmp_eq_u64
  v_cmp_eq_u64_e64 s[20:21], v[6:7], v[8:9]
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[44]: v_lshl_add_u64 <<3 lo
  v_lshl_add_u64 v[4:5], v[6:7], 3, v[8:9]
  ST v4
  // out[45]: v_lshl_add_u64 <<3 hi
  ST v5
  // out[46]: v_mov_b64 lo
  v_mov_b64_e32 v[4:5], v[6:7]
  ST v4
  // out[47]: v_mov_b64 hi
  ST v5
  // out[48]: v_add_f64 clamp lo
  v_add_f64 v[4:5], v[6:7], v[8:9] clamp
  ST v4
  // out[49]: v_add_f64 clamp hi
  ST v5
  s_endpgm
.Lfunc_end0:
  .size valu_f64, .Lfunc_end0-valu_f64

  .rodata
  .p2align 6
  .amdhsa_kernel valu_f64
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
    .name:           valu_f64
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         valu_f64.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
