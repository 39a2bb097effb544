//===- valu_f16mad.s - The VI-era f16 multiply-adds, pkaccum (gfx942, gfx950) ===//
//
// v_mad_f16 (op_sel form, denormals flushed), v_mad_legacy_f16,
// v_fma_legacy_f16, v_mac_f16 (e32, e64, DPP), v_madak_f16, v_madmk_f16 and
// v_cvt_pkaccum_u8_f32, one wave; before each op the destination holds c
// (a for pkaccum). Each result goes to its own 64-lane row of out;
// AluTests.cpp (Alu.ValuF16Mad) lists the rows.
//
// Arguments: a, b, c (u32[64]), out (u32[10 * 64]). v1 = a, v2 = b, v3 = c.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_f16mad
  .p2align 8
  .type valu_f16mad,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

valu_f16mad:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  // out[0]: v_mad_f16
  v_mov_b32_e32 v4, v3
  v_mad_f16 v4, v1, v2, v3
  ST v4
  // out[1]: v_mad_f16 op_sel:[0,0,0,1] (result to the high half)
  v_mov_b32_e32 v4, v3
  v_mad_f16 v4, v1, v2, v3 op_sel:[0,0,0,1]
  ST v4
  // out[2]: v_mad_legacy_f16
  v_mov_b32_e32 v4, v3
  v_mad_legacy_f16 v4, v1, v2, v3
  ST v4
  // out[3]: v_fma_legacy_f16 -a
  v_mov_b32_e32 v4, v3
  v_fma_legacy_f16 v4, -v1, v2, v3
  ST v4
  // out[4]: v_mac_f16_e32 (acc c)
  v_mov_b32_e32 v4, v3
  v_mac_f16_e32 v4, v1, v2
  ST v4
  // out[5]: v_mac_f16_e64 -a (acc c)
  v_mov_b32_e32 v4, v3
  v_mac_f16_e64 v4, -v1, v2
  ST v4
  // out[6]: v_mac_f16_dpp row_shr:1 (acc c)
  v_mov_b32_e32 v4, v3
  v_mac_f16_dpp v4, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf
  ST v4
  // out[7]: v_madak_f16 a, b, 1.0
  v_mov_b32_e32 v4, v3
  v_madak_f16 v4, v1, v2, 0x3c00
  ST v4
  // out[8]: v_madmk_f16 a, 2.0, b
  v_mov_b32_e32 v4, v3
  v_madmk_f16 v4, v1, 0x4000, v2
  ST v4
  // out[9]: v_cvt_pkaccum_u8_f32 c (f32) into byte b[1:0] of a
  v_mov_b32_e32 v4, v3
  v_mov_b32_e32 v4, v1
  v_cvt_pkaccum_u8_f32 v4, v3, v2
  ST v4
  s_endpgm
.Lfunc_end0:
  .size valu_f16mad, .Lfunc_end0-valu_f16mad

  .rodata
  .p2align 6
  .amdhsa_kernel valu_f16mad
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 32
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 8
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 8
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
    .name:           valu_f16mad
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         valu_f16mad.kd
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
