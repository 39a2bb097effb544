//===- valu_16bit.s - 16-bit integer and f16 VOP3 ops, SAD, trig_preop ----===//
//
// Ops clang emits for ordinary HIP code that the audit found missing:
// saturating i16 add/sub, the 16-bit multiply-adds, min3/max3/med3 on i16,
// u16 and f16, v_div_fixup_f16 (f16 division), frexp and sin/cos of f16,
// the byte SAD family and v_lerp_u8, v_cvt_pk_u8_f32, v_trig_preop_f64
// (f64 sin/cos range reduction) and v_cvt_pknorm_*_f32, then
// s_flbit_i32_i64 and s_bitreplicate_b64_b32 per lane. One wave; the k-th ST writes row k of out.
// AluTests.cpp (Valu16Bit) lists the rows with a reference each.
//
// Arguments: a, b, c (u32[64]), out (u32[41 * 64]). v1 = a, v2 = b,
// v3 = c, v[6:7] = a | b << 32. The gfx9 op_sel forms keep the half of the
// destination they do not write, so v4 starts as c; where LLVM does not
// rely on what happens to the high half (zeroesHigh16BitsOfDest lists
// neither), it is masked off before the store.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_16bit
  .p2align 8
  .type valu_16bit,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

valu_16bit:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  v_mov_b32_e32 v6, v1                    // v[6:7] = a | b << 32
  v_mov_b32_e32 v7, v2
  // out[0]: v_add_i16 (wraps)
  v_add_i16 v4, v1, v2
  v_and_b32_e32 v4, 0xffff, v4            // high half not architected here
  ST v4
  // out[1]: v_add_i16 clamp (saturates)
  v_add_i16 v4, v1, v2 clamp
  v_and_b32_e32 v4, 0xffff, v4            // high half not architected here
  ST v4
  // out[2]: v_sub_i16
  v_sub_i16 v4, v1, v2
  v_and_b32_e32 v4, 0xffff, v4            // high half not architected here
  ST v4
  // out[3]: v_sub_i16 clamp
  v_sub_i16 v4, v1, v2 clamp
  v_and_b32_e32 v4, 0xffff, v4            // high half not architected here
  ST v4
  // out[4]: v_mad_u16
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_mad_u16 v4, v1, v2, v3
  ST v4
  // out[5]: v_mad_u16 op_sel:[1,1,1,1] (high halves in and out)
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_mad_u16 v4, v1, v2, v3 op_sel:[1,1,1,1]
  ST v4
  // out[6]: v_mad_legacy_u16
  v_mad_legacy_u16 v4, v1, v2, v3
  v_and_b32_e32 v4, 0xffff, v4            // high half not architected here
  ST v4
  // out[7]: v_mad_i16
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_mad_i16 v4, v1, v2, v3
  ST v4
  // out[8]: v_mad_legacy_i16
  v_mad_legacy_i16 v4, v1, v2, v3
  v_and_b32_e32 v4, 0xffff, v4            // high half not architected here
  ST v4
  // out[9]: v_mad_i32_i16
  v_mad_i32_i16 v4, v1, v2, v3
  ST v4
  // out[10]: v_min3_i16
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_min3_i16 v4, v1, v2, v3
  ST v4
  // out[11]: v_max3_i16
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_max3_i16 v4, v1, v2, v3
  ST v4
  // out[12]: v_med3_i16
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_med3_i16 v4, v1, v2, v3
  ST v4
  // out[13]: v_min3_u16
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_min3_u16 v4, v1, v2, v3
  ST v4
  // out[14]: v_max3_u16
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_max3_u16 v4, v1, v2, v3
  ST v4
  // out[15]: v_med3_u16
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_med3_u16 v4, v1, v2, v3
  ST v4
  // out[16]: v_med3_i16 op_sel:[1,1,1,1]
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_med3_i16 v4, v1, v2, v3 op_sel:[1,1,1,1]
  ST v4
  // out[17]: v_min3_f16
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_min3_f16 v4, v1, v2, v3
  ST v4
  // out[18]: v_max3_f16
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_max3_f16 v4, v1, v2, v3
  ST v4
  // out[19]: v_med3_f16
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_med3_f16 v4, v1, v2, v3
  ST v4
  // out[20]: v_div_fixup_f16
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_div_fixup_f16 v4, v1, v2, v3
  ST v4
  // out[21]: v_div_fixup_f16 op_sel:[0,0,0,1] (result in the high half)
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_div_fixup_f16 v4, v1, v2, v3 op_sel:[0,0,0,1]
  ST v4
  // out[22]: v_div_fixup_legacy_f16
  v_div_fixup_legacy_f16 v4, v1, v2, v3
  v_and_b32_e32 v4, 0xffff, v4            // high half not architected here
  ST v4
  // out[23]: v_frexp_mant_f16 (zeroes the high half on gfx9)
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_frexp_mant_f16_e32 v4, v1
  ST v4
  // out[24]: v_frexp_exp_i16_f16
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_frexp_exp_i16_f16_e32 v4, v1
  ST v4
  // out[25]: v_sin_f16
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_sin_f16_e32 v4, v1
  ST v4
  // out[26]: v_cos_f16
  v_mov_b32_e32 v4, v3                    // the half not written keeps c's
  v_cos_f16_e32 v4, v1
  ST v4
  // out[27]: v_sad_u8
  v_sad_u8 v4, v1, v2, v3
  ST v4
  // out[28]: v_sad_hi_u8
  v_sad_hi_u8 v4, v1, v2, v3
  ST v4
  // out[29]: v_sad_u16
  v_sad_u16 v4, v1, v2, v3
  ST v4
  // out[30]: v_sad_u32
  v_sad_u32 v4, v1, v2, v3
  ST v4
  // out[31]: v_msad_u8
  v_msad_u8 v4, v1, v2, v3
  ST v4
  // out[32]: v_lerp_u8
  v_lerp_u8 v4, v1, v2, v3
  ST v4
  // out[33]: v_cvt_pk_u8_f32 of trunc(a) (integral, so rounding does not matter)
  v_trunc_f32_e32 v10, v1
  v_cvt_pk_u8_f32 v4, v10, v2, v3
  ST v4
  // out[34]: v_trig_preop_f64 v[6:7] = a | b << 32, segment c (lo, hi)
  v_trig_preop_f64 v[10:11], v[6:7], v3
  ST v10
  ST v11
  // out[36]: v_cvt_pknorm_i16_f32 (a, b as f32)
  v_cvt_pknorm_i16_f32 v4, v1, v2
  ST v4
  // out[37]: v_cvt_pknorm_u16_f32
  v_cvt_pknorm_u16_f32 v4, v1, v2
  ST v4
  // out[38..40]: the SALU ops the audit listed, once per lane index l on
  // x = a[l] | b[l] << 32: s_flbit_i32_i64 x, and s_bitreplicate_b64_b32
  // of a[l] (lo, hi), into lane l of v12, v13, v14.
  s_mov_b32 s12, 0
.Lloop:
  s_mov_b32 m0, s12
  v_readlane_b32 s20, v1, s12
  v_readlane_b32 s21, v2, s12
  s_flbit_i32_i64 s30, s[20:21]
  v_writelane_b32 v12, s30, m0
  s_bitreplicate_b64_b32 s[28:29], s20
  v_writelane_b32 v13, s28, m0
  v_writelane_b32 v14, s29, m0
  s_add_u32 s12, s12, 1
  s_cmp_lt_u32 s12, 64
  s_cbranch_scc1 .Lloop
  ST v12
  ST v13
  ST v14
  s_endpgm
.Lfunc_end0:
  .size valu_16bit, .Lfunc_end0-valu_16bit

  .rodata
  .p2align 6
  .amdhsa_kernel valu_16bit
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
    .name:           valu_16bit
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         valu_16bit.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
