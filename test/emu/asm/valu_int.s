//===- valu_int.s - integer VALU ops (gfx942, gfx950) ---------------------===//
//
// The integer and bit-manipulation VALU ops, one wave, on per-lane inputs
// (random, with hand-picked edge cases in the first lanes; see AluTests.cpp).
// Each op's result goes to its own 64-lane row of out, in the order below
// (the k-th ST writes row k; a 64-bit result takes two rows, low then high).
// AluTests.cpp lists the same ops in the same order with a reference each.
//
// Arguments: a, b, c (u32[64]), out (u32[76 * 64]). v1 = a, v2 = b, v3 = c,
// v5 = c & 0x0f0f0f0f (v_perm_b32 selectors in 0..15); 64-bit operands are
// v[6:7] = a | b << 32 and v[8:9] = b | c << 32.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_int
  .p2align 8
  .type valu_int,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

valu_int:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  v_and_b32_e32 v5, 0x0f0f0f0f, v3        // v_perm_b32 selectors 0..15 only
  v_mov_b32_e32 v6, v1                    // v[6:7] = a | b << 32
  v_mov_b32_e32 v7, v2
  v_mov_b32_e32 v8, v2                    // v[8:9] = b | c << 32
  v_mov_b32_e32 v9, v3
  // out[0]
  v_add_u32_e32 v4, v1, v2
  ST v4
  // out[1]
  v_sub_u32_e32 v4, v1, v2
  ST v4
  // out[2]
  v_subrev_u32_e32 v4, v1, v2
  ST v4
  // out[3]
  v_add_u32_e64 v4, v1, v2 clamp
  ST v4
  // out[4]
  v_sub_u32_e64 v4, v1, v2 clamp
  ST v4
  // out[5]
  v_subrev_u32_e64 v4, v1, v2 clamp
  ST v4
  // out[6]
  v_mul_lo_u32 v4, v1, v2
  ST v4
  // out[7]
  v_mul_hi_u32 v4, v1, v2
  ST v4
  // out[8]
  v_mul_hi_i32 v4, v1, v2
  ST v4
  // out[9]
  v_min_u32_e32 v4, v1, v2
  ST v4
  // out[10]
  v_max_u32_e32 v4, v1, v2
  ST v4
  // out[11]
  v_min_i32_e32 v4, v1, v2
  ST v4
  // out[12]
  v_max_i32_e32 v4, v1, v2
  ST v4
  // out[13]
  v_min3_u32 v4, v1, v2, v3
  ST v4
  // out[14]
  v_max3_u32 v4, v1, v2, v3
  ST v4
  // out[15]
  v_med3_u32 v4, v1, v2, v3
  ST v4
  // out[16]
  v_min3_i32 v4, v1, v2, v3
  ST v4
  // out[17]
  v_max3_i32 v4, v1, v2, v3
  ST v4
  // out[18]
  v_med3_i32 v4, v1, v2, v3
  ST v4
  // out[19]
  v_bfe_u32 v4, v1, v2, v3
  ST v4
  // out[20]
  v_bfe_i32 v4, v1, v2, v3
  ST v4
  // out[21]
  v_bfi_b32 v4, v1, v2, v3
  ST v4
  // out[22]
  v_bfm_b32 v4, v1, v2
  ST v4
  // out[23]
  v_alignbit_b32 v4, v1, v2, v3
  ST v4
  // out[24]
  v_alignbyte_b32 v4, v1, v2, v3
  ST v4
  // out[25]
  v_bcnt_u32_b32 v4, v1, v2
  ST v4
  // out[26]
  v_ffbh_u32_e32 v4, v1
  ST v4
  // out[27]
  v_ffbl_b32_e32 v4, v1
  ST v4
  // out[28]
  v_ffbh_i32_e32 v4, v1
  ST v4
  // out[29]
  v_bfrev_b32_e32 v4, v1
  ST v4
  // out[30]
  v_not_b32_e32 v4, v1
  ST v4
  // out[31]
  v_lshlrev_b32_e32 v4, v2, v1
  ST v4
  // out[32]
  v_lshrrev_b32_e32 v4, v2, v1
  ST v4
  // out[33]
  v_ashrrev_i32_e32 v4, v2, v1
  ST v4
  // out[34]
  v_lshl_add_u32 v4, v1, v2, v3
  ST v4
  // out[35]
  v_add_lshl_u32 v4, v1, v2, v3
  ST v4
  // out[36]
  v_lshl_or_b32 v4, v1, v2, v3
  ST v4
  // out[37]
  v_and_or_b32 v4, v1, v2, v3
  ST v4
  // out[38]
  v_or3_b32 v4, v1, v2, v3
  ST v4
  // out[39]
  v_add3_u32 v4, v1, v2, v3
  ST v4
  // out[40]
  v_xad_u32 v4, v1, v2, v3
  ST v4
  // out[41]
  v_mad_u32_u16 v4, v1, v2, v3
  ST v4
  // out[42]
  v_perm_b32 v4, v1, v2, v3
  ST v4
  // out[43]
  v_perm_b32 v4, v1, v2, v5
  ST v4
  // out[44]
  v_cvt_pk_u16_u32 v4, v1, v2
  ST v4
  // out[45]
  v_cvt_pk_i16_i32 v4, v1, v2
  ST v4
  // out[46]
  v_add_u16_e32 v4, v1, v2
  ST v4
  // out[47]
  v_sub_u16_e32 v4, v1, v2
  ST v4
  // out[48]
  v_subrev_u16_e32 v4, v1, v2
  ST v4
  // out[49]
  v_mul_lo_u16_e32 v4, v1, v2
  ST v4
  // out[50]
  v_lshlrev_b16_e32 v4, v2, v1
  ST v4
  // out[51]
  v_lshrrev_b16_e32 v4, v2, v1
  ST v4
  // out[52]
  v_ashrrev_i16_e32 v4, v2, v1
  ST v4
  // out[53]
  v_max_u16_e32 v4, v1, v2
  ST v4
  // out[54]
  v_min_u16_e32 v4, v1, v2
  ST v4
  // out[55]
  v_max_i16_e32 v4, v1, v2
  ST v4
  // out[56]
  v_min_i16_e32 v4, v1, v2
  ST v4
  // out[57]
  v_add_u16_e64 v4, v1, v2 clamp
  ST v4
  // out[58]
  v_sub_u16_e64 v4, v1, v2 clamp
  ST v4
  // out[59]
  v_cvt_f32_ubyte0_e32 v4, v1
  ST v4
  // out[60]
  v_cvt_f32_ubyte1_e32 v4, v1
  ST v4
  // out[61]
  v_cvt_f32_ubyte2_e32 v4, v1
  ST v4
  // out[62]
  v_cvt_f32_ubyte3_e32 v4, v1
  ST v4
  // out[63]
  v_mbcnt_lo_u32_b32 v4, v1, v2
  ST v4
  // out[64]
  v_mbcnt_hi_u32_b32 v4, v1, v2
  ST v4
  // out[65]
  v_xnor_b32_e32 v4, v1, v2
  ST v4
  // out[66], out[67]
  v_lshlrev_b64 v[4:5], v3, v[6:7]
  ST v4
  ST v5
  // out[68], out[69]
  v_lshrrev_b64 v[4:5], v3, v[6:7]
  ST v4
  ST v5
  // out[70], out[71]
  v_ashrrev_i64 v[4:5], v3, v[6:7]
  ST v4
  ST v5
  // out[72], out[73]
  v_mad_u64_u32 v[4:5], s[20:21], v1, v2, v[8:9]
  ST v4
  ST v5
  // out[74], out[75]
  v_mad_i64_i32 v[4:5], s[20:21], v1, v2, v[8:9]
  ST v4
  ST v5
  s_endpgm
.Lfunc_end0:
  .size valu_int, .Lfunc_end0-valu_int

  .rodata
  .p2align 6
  .amdhsa_kernel valu_int
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
    .name:           valu_int
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         valu_int.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
