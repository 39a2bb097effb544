//===- valu_lanes.s - SDWA selects and DPP lane moves (gfx942, gfx950) ---===//
//
// SDWA source selects (bytes, words, sext), destination selects with
// dst_unused PAD / SEXT / PRESERVE, float modifiers, an SDWA compare; DPP
// quad_perm, row_shl/shr/ror, row_mirror/half_mirror, row_bcast:15/31,
// wave_shl/ror, row and bank masks, bound_ctrl and lanes with EXEC off. One
// wave; before each op the destination holds c, so lanes an op does not
// write show c. AluTests.cpp lists the same rows with their references.
//
// Arguments: a, b, c (u32[64]), out (u32[26 * 64]). v1 = a, v2 = b, v3 = c.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_lanes
  .p2align 8
  .type valu_lanes,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

valu_lanes:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  // out[0]: sdwa add sext(a.b1) + b.w1
  v_mov_b32_e32 v4, v3
  v_add_u32_sdwa v4, sext(v1), v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:WORD_1
  ST v4
  // out[1]: sdwa mov byte2 preserve
  v_mov_b32_e32 v4, v3
  v_mov_b32_sdwa v4, v1 dst_sel:BYTE_2 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0
  ST v4
  // out[2]: sdwa mov word0 sext
  v_mov_b32_e32 v4, v3
  v_mov_b32_sdwa v4, v1 dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:WORD_1
  ST v4
  // out[3]: sdwa mov byte1 pad
  v_mov_b32_e32 v4, v3
  v_mov_b32_sdwa v4, v1 dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:DWORD
  ST v4
  // out[4]: sdwa add_f16 a.hi - b.lo to word1
  v_mov_b32_e32 v4, v3
  v_add_f16_sdwa v4, v1, -v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0
  ST v4
  // out[5]: sdwa cmp_lt_u32 bytes
  v_mov_b32_e32 v4, v3
  v_cmp_lt_u32_sdwa s[20:21], v1, v2 src0_sel:BYTE_0 src1_sel:BYTE_1
  v_cndmask_b32_e64 v4, 0, 1, s[20:21]
  ST v4
  // out[6]: sdwa add_u16 to word1
  v_mov_b32_e32 v4, v3
  v_add_u16_sdwa v4, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_3 src1_sel:WORD_0
  ST v4
  // out[7]: sdwa lshlrev_b32
  v_mov_b32_e32 v4, v3
  v_lshlrev_b32_sdwa v4, v2, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:WORD_1
  ST v4
  // out[8]: sdwa add_f32 -a + |b|
  v_mov_b32_e32 v4, v3
  v_add_f32_sdwa v4, -v1, |v2| dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
  ST v4
  // out[9]: sdwa cvt_f32_i32 sext byte2
  v_mov_b32_e32 v4, v3
  v_cvt_f32_i32_sdwa v4, sext(v1) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_2
  ST v4
  // out[10]: sdwa mul_u32_u24 sext byte3
  v_mov_b32_e32 v4, v3
  v_mul_u32_u24_sdwa v4, v1, sext(v2) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:BYTE_3
  ST v4
  // out[11]: sdwa sub to word1 sext
  v_mov_b32_e32 v4, v3
  v_sub_u32_sdwa v4, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_SEXT src0_sel:DWORD src1_sel:DWORD
  ST v4
  // out[12]: sdwa sub to byte1 sext
  v_mov_b32_e32 v4, v3
  v_sub_u32_sdwa v4, v1, v2 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:DWORD src1_sel:DWORD
  ST v4
  // out[13]: dpp add row_shr:3
  v_mov_b32_e32 v4, v3
  v_add_u32_dpp v4, v1, v2 row_shr:3 row_mask:0xf bank_mask:0xf
  ST v4
  // out[14]: dpp add row_shr:3 bound_ctrl
  v_mov_b32_e32 v4, v3
  v_add_u32_dpp v4, v1, v2 row_shr:3 row_mask:0xf bank_mask:0xf bound_ctrl:0
  ST v4
  // out[15]: dpp wave_shl:1
  v_mov_b32_e32 v4, v3
  v_mov_b32_dpp v4, v1 wave_shl:1 row_mask:0xf bank_mask:0xf
  ST v4
  // out[16]: dpp row_bcast:15 rows 1,3
  v_mov_b32_e32 v4, v3
  v_mov_b32_dpp v4, v1 row_bcast:15 row_mask:0xa bank_mask:0xf
  ST v4
  // out[17]: dpp row_bcast:31 rows 2,3
  v_mov_b32_e32 v4, v3
  v_mov_b32_dpp v4, v1 row_bcast:31 row_mask:0xc bank_mask:0xf
  ST v4
  // out[18]: dpp wave_ror:1
  v_mov_b32_e32 v4, v3
  v_mov_b32_dpp v4, v1 wave_ror:1 row_mask:0xf bank_mask:0xf
  ST v4
  // out[19]: dpp mul_f32 -a, |b| quad_perm:[3,2,1,0]
  v_mov_b32_e32 v4, v3
  v_mul_f32_dpp v4, -v1, |v2| quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
  ST v4
  // out[20]: dpp row_mirror banks 0,2
  v_mov_b32_e32 v4, v3
  v_mov_b32_dpp v4, v1 row_mirror row_mask:0xf bank_mask:0x5
  ST v4
  // out[21]: dpp row_half_mirror rows 0,2
  v_mov_b32_e32 v4, v3
  v_mov_b32_dpp v4, v1 row_half_mirror row_mask:0x5 bank_mask:0xf
  ST v4
  // out[22]: dpp row_ror:4
  v_mov_b32_e32 v4, v3
  v_mov_b32_dpp v4, v1 row_ror:4 row_mask:0xf bank_mask:0xf
  ST v4
  // out[23]: dpp row_shl:1 bound_ctrl
  v_mov_b32_e32 v4, v3
  v_mov_b32_dpp v4, v1 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
  ST v4
  // out[24]: dpp row_shr:1 bound_ctrl, lanes 0..3 off
  v_mov_b32_e32 v4, v3
  s_mov_b32 exec_lo, 0xfffffff0
  v_mov_b32_dpp v4, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
  s_mov_b64 exec, -1
  ST v4
  // out[25]: dpp row_shr:1, lanes 0..3 off
  v_mov_b32_e32 v4, v3
  s_mov_b32 exec_lo, 0xfffffff0
  v_mov_b32_dpp v4, v1 row_shr:1 row_mask:0xf bank_mask:0xf
  s_mov_b64 exec, -1
  ST v4
  s_endpgm
.Lfunc_end0:
  .size valu_lanes, .Lfunc_end0-valu_lanes

  .rodata
  .p2align 6
  .amdhsa_kernel valu_lanes
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
    .name:           valu_lanes
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         valu_lanes.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
