//===- valu_legacy.s - Legacy exp/log, quad SADs, SDWA pk_fmac ------------===//
//
// v_exp_legacy_f32 and v_log_legacy_f32 in every encoding, v_pk_fmac_f16 in
// its SDWA form, and the quad sums of absolute differences
// v_qsad_pk_u16_u8, v_mqsad_pk_u16_u8, v_mqsad_u32_u8, one wave; before
// each single-register op the destination holds c. Each result goes to its
// own 64-lane row of out; AluTests.cpp (Alu.ValuLegacyAndQuadSad) lists
// the rows.
//
// Arguments: a, b, c (u32[64]), out (u32[17 * 64]). v1 = a, v2 = b,
// v3 = c.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_legacy
  .p2align 8
  .type valu_legacy,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

valu_legacy:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  // out[0]: v_exp_legacy_f32_e32 a
  v_mov_b32_e32 v4, v3
  v_exp_legacy_f32_e32 v4, v1
  ST v4
  // out[1]: v_exp_legacy_f32_e64 a
  v_mov_b32_e32 v4, v3
  v_exp_legacy_f32_e64 v4, v1
  ST v4
  // out[2]: v_exp_legacy_f32_sdwa a
  v_mov_b32_e32 v4, v3
  v_exp_legacy_f32_sdwa v4, v1 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:DWORD
  ST v4
  // out[3]: v_exp_legacy_f32_dpp a quad_perm:[1,0,3,2]
  v_mov_b32_e32 v4, v3
  v_exp_legacy_f32_dpp v4, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  ST v4
  // out[4]: v_log_legacy_f32_e32 a
  v_mov_b32_e32 v4, v3
  v_log_legacy_f32_e32 v4, v1
  ST v4
  // out[5]: v_log_legacy_f32_e64 a
  v_mov_b32_e32 v4, v3
  v_log_legacy_f32_e64 v4, v1
  ST v4
  // out[6]: v_log_legacy_f32_sdwa a
  v_mov_b32_e32 v4, v3
  v_log_legacy_f32_sdwa v4, v1 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:DWORD
  ST v4
  // out[7]: v_log_legacy_f32_dpp a quad_perm:[1,0,3,2]
  v_mov_b32_e32 v4, v3
  v_log_legacy_f32_dpp v4, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  ST v4
  // out[8]: v_pk_fmac_f16_sdwa a.WORD_1, b.WORD_0 -> WORD_1 (acc c, preserved)
  v_mov_b32_e32 v4, v3
  v_pk_fmac_f16_sdwa v4, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0
  ST v4
  // out[9], out[10]: v_qsad_pk_u16_u8 {a, b}, c, {b, c}, lo and hi
  v_mov_b32_e32 v6, v1
  v_mov_b32_e32 v7, v2
  v_mov_b32_e32 v8, v2
  v_mov_b32_e32 v9, v3
  v_qsad_pk_u16_u8 v[10:11], v[6:7], v3, v[8:9]
  ST v10
  ST v11
  // out[11], out[12]: v_mqsad_pk_u16_u8 {a, b}, c, {b, c}, lo and hi
  v_mqsad_pk_u16_u8 v[10:11], v[6:7], v3, v[8:9]
  ST v10
  ST v11
  // out[13]..out[16]: v_mqsad_u32_u8 {a, b}, c, {a, b, c, a ^ b}
  v_mov_b32_e32 v12, v1
  v_mov_b32_e32 v13, v2
  v_mov_b32_e32 v14, v3
  v_xor_b32_e32 v15, v1, v2
  v_mqsad_u32_u8 v[12:15], v[6:7], v3, v[12:15]
  ST v12
  ST v13
  ST v14
  ST v15
  s_endpgm
.Lfunc_end0:
  .size valu_legacy, .Lfunc_end0-valu_legacy

  .rodata
  .p2align 6
  .amdhsa_kernel valu_legacy
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 32
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 16
    .amdhsa_next_free_sgpr 16
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
    .name:           valu_legacy
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         valu_legacy.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
