//===- valu_cmp.s - VOPC compares, carries, v_cndmask (gfx942, gfx950) ---===//
//
// VOPC compares (f32 all 16 conditions, f16, i16/u16, i32/u32, i64/u64,
// v_cmp_class_f32/f16, source modifiers, e32 to VCC, partial EXEC, v_cmpx),
// the carry-out/carry-in adds and subtracts, and v_cndmask_b32, one wave, on
// the float edge-case inputs of AluTests.cpp. A lane mask result is turned
// into 0/1 per lane with v_cndmask_b32; every result goes to its own 64-lane
// row of out, in the order below (AluTests.cpp lists the same rows).
//
// Arguments: a, b, c (u32[64]), out (u32[60 * 64]). v1 = a, v2 = b, v3 = c;
// v[6:7] = a | b << 32, v[8:9] = b | c << 32; v10 = c[9:0], v11 = c[25:16]
// (class masks); v12 = c >> 16; s[26:27] = lanes whose c is odd (carry-in
// and select mask).
//
// The descriptor asks for IEEE mode and denormals kept, as kcc and HIP do.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_cmp
  .p2align 8
  .type valu_cmp,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

valu_cmp:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  v_mov_b32_e32 v6, v1                    // v[6:7] = a | b << 32
  v_mov_b32_e32 v7, v2
  v_mov_b32_e32 v8, v2                    // v[8:9] = b | c << 32
  v_mov_b32_e32 v9, v3
  v_and_b32_e32 v10, 0x3ff, v3            // v_cmp_class_f32 mask
  v_bfe_u32 v11, v3, 16, 10               // v_cmp_class_f16 mask
  v_lshrrev_b32_e32 v12, 16, v3           // the high f16 of c, as a low half
  v_and_b32_e32 v13, 1, v3
  v_cmp_ne_u32_e64 s[26:27], 0, v13       // carry-in / select mask: c & 1
  // out[0]: v_cmp_f_f32
  v_cmp_f_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[1]: v_cmp_lt_f32
  v_cmp_lt_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[2]: v_cmp_eq_f32
  v_cmp_eq_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[3]: v_cmp_le_f32
  v_cmp_le_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[4]: v_cmp_gt_f32
  v_cmp_gt_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[5]: v_cmp_lg_f32
  v_cmp_lg_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[6]: v_cmp_ge_f32
  v_cmp_ge_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[7]: v_cmp_o_f32
  v_cmp_o_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[8]: v_cmp_u_f32
  v_cmp_u_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[9]: v_cmp_nge_f32
  v_cmp_nge_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[10]: v_cmp_nlg_f32
  v_cmp_nlg_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[11]: v_cmp_ngt_f32
  v_cmp_ngt_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[12]: v_cmp_nle_f32
  v_cmp_nle_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[13]: v_cmp_neq_f32
  v_cmp_neq_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[14]: v_cmp_nlt_f32
  v_cmp_nlt_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[15]: v_cmp_tru_f32
  v_cmp_tru_f32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[16]: v_cmp_lt_f16
  v_cmp_lt_f16_e64 s[20:21], v3, v12
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[17]: v_cmp_eq_f16
  v_cmp_eq_f16_e64 s[20:21], v3, v12
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[18]: v_cmp_u_f16
  v_cmp_u_f16_e64 s[20:21], v3, v12
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[19]: v_cmp_neq_f16
  v_cmp_neq_f16_e64 s[20:21], v3, v12
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[20]: v_cmp_nlt_f16
  v_cmp_nlt_f16_e64 s[20:21], v3, v12
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[21]: v_cmp_gt_f16
  v_cmp_gt_f16_e64 s[20:21], v3, v12
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[22]: v_cmp_lt_i32
  v_cmp_lt_i32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[23]: v_cmp_le_i32
  v_cmp_le_i32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[24]: v_cmp_gt_u32
  v_cmp_gt_u32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[25]: v_cmp_ne_u32
  v_cmp_ne_u32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[26]: v_cmp_ge_i32
  v_cmp_ge_i32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[27]: v_cmp_eq_u32
  v_cmp_eq_u32_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[28]: v_cmp_lt_i16
  v_cmp_lt_i16_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[29]: v_cmp_gt_u16
  v_cmp_gt_u16_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[30]: v_cmp_ge_i16
  v_cmp_ge_i16_e64 s[20:21], v1, v2
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[31]: v_cmp_lt_i64
  v_cmp_lt_i64_e64 s[20:21], v[6:7], v[8:9]
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[32]: v_cmp_ge_u64
  v_cmp_ge_u64_e64 s[20:21], v[6:7], v[8:9]
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[33]: v_cmp_eq_u64
  v_cmp_eq_u64_e64 s[20:21], v[6:7], v[8:9]
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[34]: v_cmp_gt_i64
  v_cmp_gt_i64_e64 s[20:21], v[6:7], v[8:9]
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[35]: v_cmp_class_f32
  v_cmp_class_f32_e64 s[20:21], v1, v10
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[36]: v_cmp_class_f32 -|a|
  v_cmp_class_f32_e64 s[20:21], -|v1|, v10
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[37]: v_cmp_class_f16
  v_cmp_class_f16_e64 s[20:21], v3, v11
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[38]: v_cmp_lt_f32_e32 (vcc)
  v_cmp_lt_f32_e32 vcc, v1, v2
  v_cndmask_b32_e64 v4, 0, 1, vcc
  ST v4
  // out[39]: v_cmp_lt_f32 -a, |b|
  v_cmp_lt_f32_e64 s[20:21], -v1, |v2|
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[40]: v_cmp_lt_u32 (odd lanes off)
  s_mov_b32 exec_lo, 0x55555555
  s_mov_b32 exec_hi, 0x55555555
  v_cmp_lt_u32_e64 s[20:21], v1, v2
  s_mov_b64 exec, -1
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[41]: v_cmpx_gt_f32 (exec)
  v_cmpx_gt_f32_e64 s[20:21], v1, v2
  s_mov_b64 s[20:21], exec
  s_mov_b64 exec, -1
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[42]: v_add_co_u32
  v_add_co_u32_e64 v4, s[20:21], v1, v2
  ST v4
  // out[43]: v_add_co_u32 carry
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[44]: v_sub_co_u32
  v_sub_co_u32_e64 v4, s[20:21], v1, v2
  ST v4
  // out[45]: v_sub_co_u32 carry
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[46]: v_subrev_co_u32
  v_subrev_co_u32_e64 v4, s[20:21], v1, v2
  ST v4
  // out[47]: v_subrev_co_u32 carry
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[48]: v_addc_co_u32
  v_addc_co_u32_e64 v4, s[20:21], v1, v2, s[26:27]
  ST v4
  // out[49]: v_addc_co_u32 carry
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[50]: v_subb_co_u32
  v_subb_co_u32_e64 v4, s[20:21], v1, v2, s[26:27]
  ST v4
  // out[51]: v_subb_co_u32 carry
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[52]: v_subbrev_co_u32
  v_subbrev_co_u32_e64 v4, s[20:21], v1, v2, s[26:27]
  ST v4
  // out[53]: v_subbrev_co_u32 carry
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[54]: v_add_co_u32_e32
  v_add_co_u32_e32 v4, vcc, v1, v2
  ST v4
  // out[55]: v_add_co_u32_e32 carry
  v_cndmask_b32_e64 v4, 0, 1, vcc
  ST v4
  // out[56]: v_addc_co_u32_e32
  s_mov_b64 vcc, s[26:27]
  v_addc_co_u32_e32 v4, vcc, v1, v2, vcc
  ST v4
  // out[57]: v_addc_co_u32_e32 carry
  v_cndmask_b32_e64 v4, 0, 1, vcc
  ST v4
  // out[58]: v_cndmask_b32
  v_cndmask_b32_e64 v4, v1, v2, s[26:27]
  ST v4
  // out[59]: v_cndmask_b32 -a, |b|
  v_cndmask_b32_e64 v4, -v1, |v2|, s[26:27]
  ST v4
  s_endpgm
.Lfunc_end0:
  .size valu_cmp, .Lfunc_end0-valu_cmp

  .rodata
  .p2align 6
  .amdhsa_kernel valu_cmp
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
    .name:           valu_cmp
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         valu_cmp.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
