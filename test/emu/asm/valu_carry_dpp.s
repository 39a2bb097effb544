//===- valu_carry_dpp.s - carry-out adds under DPP and SDWA (gfx942/950) --===//
//
// v_add_co_u32 / v_addc_co_u32 / v_sub_co_u32 in their DPP and SDWA forms:
// the DPP row shift, row mask and bound_ctrl decide which lanes are written;
// SDWA selects the sources and places the result in a byte or word. Before
// each op the destination holds c and VCC is 0 (or c & 1 as carry-in);
// each op gives two rows of out, the result and VCC as 0/1.
//
// Arguments: a, b, c (u32[64]), out (u32[10 * 64]). v1 = a, v2 = b, v3 = c.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_carry_dpp
  .p2align 8
  .type valu_carry_dpp,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

valu_carry_dpp:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  v_and_b32_e32 v13, 1, v3
  v_cmp_ne_u32_e64 s[26:27], 0, v13       // carry-in mask: c & 1
  // out[0]: v_add_co_u32_dpp row_shr:1
  v_mov_b32_e32 v4, v3
  s_mov_b64 vcc, 0
  v_add_co_u32_dpp v4, vcc, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf
  ST v4
  // out[1]: v_add_co_u32_dpp row_shr:1 vcc
  v_cndmask_b32_e64 v4, 0, 1, vcc
  ST v4
  // out[2]: v_add_co_u32_dpp row_shr:1 rows 0,2 bound_ctrl
  v_mov_b32_e32 v4, v3
  s_mov_b64 vcc, 0
  v_add_co_u32_dpp v4, vcc, v1, v2 row_shr:1 row_mask:0x5 bank_mask:0xf bound_ctrl:0
  ST v4
  // out[3]: v_add_co_u32_dpp row_shr:1 rows 0,2 bound_ctrl vcc
  v_cndmask_b32_e64 v4, 0, 1, vcc
  ST v4
  // out[4]: v_addc_co_u32_dpp row_shr:2 (carry-in c & 1)
  v_mov_b32_e32 v4, v3
  s_mov_b64 vcc, s[26:27]
  v_addc_co_u32_dpp v4, vcc, v1, v2, vcc row_shr:2 row_mask:0xf bank_mask:0xf
  ST v4
  // out[5]: v_addc_co_u32_dpp row_shr:2 (carry-in c & 1) vcc
  v_cndmask_b32_e64 v4, 0, 1, vcc
  ST v4
  // out[6]: v_add_co_u32_sdwa to word1 preserve
  v_mov_b32_e32 v4, v3
  s_mov_b64 vcc, 0
  v_add_co_u32_sdwa v4, vcc, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:DWORD
  ST v4
  // out[7]: v_add_co_u32_sdwa to word1 preserve vcc
  v_cndmask_b32_e64 v4, 0, 1, vcc
  ST v4
  // out[8]: v_sub_co_u32_sdwa to byte0
  v_mov_b32_e32 v4, v3
  s_mov_b64 vcc, 0
  v_sub_co_u32_sdwa v4, vcc, v1, v2 dst_sel:BYTE_0 dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:BYTE_2
  ST v4
  // out[9]: v_sub_co_u32_sdwa to byte0 vcc
  v_cndmask_b32_e64 v4, 0, 1, vcc
  ST v4
  s_endpgm
.Lfunc_end0:
  .size valu_carry_dpp, .Lfunc_end0-valu_carry_dpp

  .rodata
  .p2align 6
  .amdhsa_kernel valu_carry_dpp
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
    .name:           valu_carry_dpp
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         valu_carry_dpp.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
