//===- valu_gfx950.s - gfx950's new VALU ops (gfx950 only) ---------------===//
//
// v_cvt_pk_f16_f32 (with modifiers), v_cvt_pk_bf16_f32, v_cvt_f32_bf16,
// v_bitop3_b32 with several truth tables, v_bitop3_b16 (with op_sel) and
// v_dot2_f32_bf16, v_dot2c_f32_bf16 (e32, e64, DPP), v_maximum3/minimum3_f32 and v_pk_maximum3/minimum3_f16
// (IEEE 754-2019 maximum/minimum, LLVM's llvm.maximum), one wave; before each op the destination holds c. Each
// result goes to its own 64-lane row of out; AluTests.cpp lists the rows.
//
// Arguments: a, b, c (u32[64]), out (u32[20 * 64]). v1 = a, v2 = b, v3 = c.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_gfx950
  .p2align 8
  .type valu_gfx950,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

valu_gfx950:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  // out[0]: v_cvt_pk_f16_f32
  v_mov_b32_e32 v4, v3
  v_cvt_pk_f16_f32 v4, v1, v2
  ST v4
  // out[1]: v_cvt_pk_f16_f32 -|a|, b
  v_mov_b32_e32 v4, v3
  v_cvt_pk_f16_f32 v4, -|v1|, v2
  ST v4
  // out[2]: v_cvt_pk_bf16_f32
  v_mov_b32_e32 v4, v3
  v_cvt_pk_bf16_f32 v4, v1, v2
  ST v4
  // out[3]: v_cvt_f32_bf16
  v_mov_b32_e32 v4, v3
  v_cvt_f32_bf16_e32 v4, v1
  ST v4
  // out[4]: v_bitop3_b32 0x96
  v_mov_b32_e32 v4, v3
  v_bitop3_b32 v4, v1, v2, v3 bitop3:0x96
  ST v4
  // out[5]: v_bitop3_b32 0xe8
  v_mov_b32_e32 v4, v3
  v_bitop3_b32 v4, v1, v2, v3 bitop3:0xe8
  ST v4
  // out[6]: v_bitop3_b32 0xca
  v_mov_b32_e32 v4, v3
  v_bitop3_b32 v4, v1, v2, v3 bitop3:0xca
  ST v4
  // out[7]: v_bitop3_b32 0x01
  v_mov_b32_e32 v4, v3
  v_bitop3_b32 v4, v1, v2, v3 bitop3:0x01
  ST v4
  // out[8]: v_bitop3_b32 0x80
  v_mov_b32_e32 v4, v3
  v_bitop3_b32 v4, v1, v2, v3 bitop3:0x80
  ST v4
  // out[9]: v_bitop3_b32 0x6a
  v_mov_b32_e32 v4, v3
  v_bitop3_b32 v4, v1, v2, v3 bitop3:0x6a
  ST v4
  // out[10]: v_bitop3_b16 0xe8
  v_mov_b32_e32 v4, v3
  v_bitop3_b16 v4, v1, v2, v3 bitop3:0xe8
  ST v4
  // out[11]: v_bitop3_b16 0x96 op_sel:[1,1,0,1]
  v_mov_b32_e32 v4, v3
  v_bitop3_b16 v4, v1, v2, v3 bitop3:0x96 op_sel:[1,1,0,1]
  ST v4
  // out[12]: v_dot2_f32_bf16
  v_mov_b32_e32 v4, v3
  v_dot2_f32_bf16 v4, v1, v2, v3
  ST v4
  // out[13]: v_maximum3_f32
  v_maximum3_f32 v4, v1, v2, v3
  ST v4
  // out[14]: v_minimum3_f32
  v_minimum3_f32 v4, v1, v2, v3
  ST v4
  // out[15]: v_pk_maximum3_f16
  v_pk_maximum3_f16 v4, v1, v2, v3
  ST v4
  // out[16]: v_pk_minimum3_f16 with op_sel: the low result from the high
  // halves of a and c and the low half of b, the high result from the high
  // halves
  v_pk_minimum3_f16 v4, v1, v2, v3 op_sel:[1,0,1]
  ST v4
  // out[17]: v_dot2c_f32_bf16_e32 (acc c)
  v_mov_b32_e32 v4, v3
  v_dot2c_f32_bf16_e32 v4, v1, v2
  ST v4
  // out[18]: v_dot2c_f32_bf16_e64 (acc c)
  v_mov_b32_e32 v4, v3
  v_dot2c_f32_bf16_e64 v4, v1, v2
  ST v4
  // out[19]: v_dot2c_f32_bf16_dpp row_shr:1 (acc c)
  v_mov_b32_e32 v4, v3
  v_dot2c_f32_bf16_dpp v4, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf
  ST v4
  s_endpgm
.Lfunc_end0:
  .size valu_gfx950, .Lfunc_end0-valu_gfx950

  .rodata
  .p2align 6
  .amdhsa_kernel valu_gfx950
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
    .name:           valu_gfx950
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         valu_gfx950.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
