//===- valu_pk.s - packed (VOP3P) and mixed-precision ops (gfx942, gfx950) ===//
//
// Packed 16-bit integer and f16 ops (with clamp, op_sel/op_sel_hi, neg_lo/
// neg_hi), v_fma_f16 with op_sel, v_fma_mix*, v_dot2_f32_f16, the packed
// f32 ops, v_pk_fmac_f16 (e32, e64, DPP) and v_pk_mad_i16, one wave, each
// result in its own 64-lane row of out (a 64-bit result in two); AluTests.cpp
// lists the same rows with their references.
//
// Arguments: a, b, c (u32[64]), out (u32[49 * 64]). v1 = a, v2 = b, v3 = c,
// each two 16-bit values; v6, v7, v8 = the low f16 of a, b, c and v9 = the
// high f16 of a, as f32 (v[6:7] and v[8:9] are the f32 pairs).
//
// The descriptor asks for IEEE mode, DX10 clamp and denormals kept.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_pk
  .p2align 8
  .type valu_pk,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

valu_pk:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  v_cvt_f32_f16_e32 v6, v1                // f32 views of the low halves
  v_cvt_f32_f16_e32 v7, v2                // (v[6:7], v[8:9] for the f32 pairs)
  v_cvt_f32_f16_e32 v8, v3
  v_cvt_f32_f16_sdwa v9, v1 src0_sel:WORD_1
  // out[0]: v_pk_add_u16
  v_pk_add_u16 v4, v1, v2
  ST v4
  // out[1]: v_pk_add_u16 clamp
  v_pk_add_u16 v4, v1, v2 clamp
  ST v4
  // out[2]: v_pk_sub_u16
  v_pk_sub_u16 v4, v1, v2
  ST v4
  // out[3]: v_pk_sub_u16 clamp
  v_pk_sub_u16 v4, v1, v2 clamp
  ST v4
  // out[4]: v_pk_add_i16
  v_pk_add_i16 v4, v1, v2
  ST v4
  // out[5]: v_pk_add_i16 clamp
  v_pk_add_i16 v4, v1, v2 clamp
  ST v4
  // out[6]: v_pk_sub_i16
  v_pk_sub_i16 v4, v1, v2
  ST v4
  // out[7]: v_pk_sub_i16 clamp
  v_pk_sub_i16 v4, v1, v2 clamp
  ST v4
  // out[8]: v_pk_mul_lo_u16
  v_pk_mul_lo_u16 v4, v1, v2
  ST v4
  // out[9]: v_pk_lshlrev_b16
  v_pk_lshlrev_b16 v4, v2, v1
  ST v4
  // out[10]: v_pk_lshrrev_b16
  v_pk_lshrrev_b16 v4, v2, v1
  ST v4
  // out[11]: v_pk_ashrrev_i16
  v_pk_ashrrev_i16 v4, v2, v1
  ST v4
  // out[12]: v_pk_max_i16
  v_pk_max_i16 v4, v1, v2
  ST v4
  // out[13]: v_pk_min_i16
  v_pk_min_i16 v4, v1, v2
  ST v4
  // out[14]: v_pk_max_u16
  v_pk_max_u16 v4, v1, v2
  ST v4
  // out[15]: v_pk_min_u16
  v_pk_min_u16 v4, v1, v2
  ST v4
  // out[16]: v_pk_mad_u16
  v_pk_mad_u16 v4, v1, v2, v3
  ST v4
  // out[17]: v_pk_mad_u16 clamp
  v_pk_mad_u16 v4, v1, v2, v3 clamp
  ST v4
  // out[18]: v_pk_add_u16 op_sel:[1,0] op_sel_hi:[0,1]
  v_pk_add_u16 v4, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]
  ST v4
  // out[19]: v_pk_add_f16
  v_pk_add_f16 v4, v1, v2
  ST v4
  // out[20]: v_pk_mul_f16
  v_pk_mul_f16 v4, v1, v2
  ST v4
  // out[21]: v_pk_fma_f16
  v_pk_fma_f16 v4, v1, v2, v3
  ST v4
  // out[22]: v_pk_max_f16
  v_pk_max_f16 v4, v1, v2
  ST v4
  // out[23]: v_pk_min_f16
  v_pk_min_f16 v4, v1, v2
  ST v4
  // out[24]: v_pk_add_f16 neg_lo:[1,0] neg_hi:[0,1]
  v_pk_add_f16 v4, v1, v2 neg_lo:[1,0] neg_hi:[0,1]
  ST v4
  // out[25]: v_pk_fma_f16 op_sel:[0,1,1] op_sel_hi:[1,0,1]
  v_pk_fma_f16 v4, v1, v2, v3 op_sel:[0,1,1] op_sel_hi:[1,0,1]
  ST v4
  // out[26]: v_pk_add_f16 clamp
  v_pk_add_f16 v4, v1, v2 clamp
  ST v4
  // out[27]: v_fma_f16 (high half kept)
  v_mov_b32_e32 v4, v2
  v_fma_f16 v4, v1, v2, v3
  ST v4
  // out[28]: v_fma_f16 op_sel:[1,1,1,1] (low half kept)
  v_mov_b32_e32 v4, v2
  v_fma_f16 v4, v1, v2, v3 op_sel:[1,1,1,1]
  ST v4
  // out[29]: v_fma_mix_f32 (f16 lo inputs)
  v_fma_mix_f32 v4, v1, v2, v3 op_sel_hi:[1,1,1]
  ST v4
  // out[30]: v_fma_mix_f32 (f16 hi, f16 hi, f32)
  v_fma_mix_f32 v4, v1, v2, v3 op_sel:[1,1,0] op_sel_hi:[1,1,0]
  ST v4
  // out[31]: v_fma_mixlo_f16 (f16 inputs, high kept)
  v_mov_b32_e32 v4, v2
  v_fma_mixlo_f16 v4, v1, v2, v3 op_sel_hi:[1,1,1]
  ST v4
  // out[32]: v_fma_mixhi_f16 (f32 inputs, low kept)
  v_mov_b32_e32 v4, v2
  v_fma_mixhi_f16 v4, v6, v7, v8
  ST v4
  // out[33]: v_dot2_f32_f16
  v_dot2_f32_f16 v4, v1, v2, v6
  ST v4
  // out[34]: v_pk_add_f32 lo
  v_pk_add_f32 v[4:5], v[6:7], v[8:9]
  ST v4
  // out[35]: v_pk_add_f32 hi
  ST v5
  // out[36]: v_pk_mul_f32 lo
  v_pk_mul_f32 v[4:5], v[6:7], v[8:9]
  ST v4
  // out[37]: v_pk_mul_f32 hi
  ST v5
  // out[38]: v_pk_fma_f32 lo
  v_pk_fma_f32 v[4:5], v[6:7], v[8:9], v[6:7]
  ST v4
  // out[39]: v_pk_fma_f32 hi
  ST v5
  // out[40]: v_pk_mov_b32 op_sel:[1,0] lo
  v_pk_mov_b32 v[4:5], v[6:7], v[8:9] op_sel:[1,0]
  ST v4
  // out[41]: v_pk_mov_b32 op_sel:[1,0] hi
  ST v5
  // out[42]: v_pk_add_f32 op_sel:[1,0] neg_lo:[0,1] lo
  v_pk_add_f32 v[4:5], v[6:7], v[8:9] op_sel:[1,0] neg_lo:[0,1]
  ST v4
  // out[43]: v_pk_add_f32 op_sel:[1,0] neg_lo:[0,1] hi
  ST v5
  // out[44]: v_pk_fmac_f16_e32 (acc c)
  v_mov_b32_e32 v4, v3
  v_pk_fmac_f16_e32 v4, v1, v2
  ST v4
  // out[45]: v_pk_fmac_f16_e64 (acc c)
  v_mov_b32_e32 v4, v3
  v_pk_fmac_f16_e64 v4, v1, v2
  ST v4
  // out[46]: v_pk_fmac_f16_dpp row_shr:1 (acc c)
  v_mov_b32_e32 v4, v3
  v_pk_fmac_f16_dpp v4, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf
  ST v4
  // out[47]: v_pk_mad_i16
  v_pk_mad_i16 v4, v1, v2, v3
  ST v4
  // out[48]: v_pk_mad_i16 clamp
  v_pk_mad_i16 v4, v1, v2, v3 clamp
  ST v4
  s_endpgm
.Lfunc_end0:
  .size valu_pk, .Lfunc_end0-valu_pk

  .rodata
  .p2align 6
  .amdhsa_kernel valu_pk
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
    .name:           valu_pk
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         valu_pk.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
