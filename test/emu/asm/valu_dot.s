//===- valu_dot.s - signed add/sub, integer dot products, v_fract_f16 -----===//
//
// Ops LLVM emits on gfx942/gfx950 that the emulator lacked: v_add_i32 /
// v_sub_i32 (llvm.sadd.sat/ssub.sat with clamp), the integer dot products
// (llvm.amdgcn.sdot4/udot4/sdot2/udot2/sdot8/udot8, v_dot4c_i32_i8 with and
// without DPP) and v_fract_f16 (llvm.amdgcn.fract.f16), and v_fmac_f32_dpp
// (an accumulating DPP op: no "old" operand), v_dot2_f32_f16 with neg_lo/
// neg_hi and v_dot2c_f32_f16 (e32, DPP); one wave, one row of out per op. AluTests.cpp lists the same rows with their references.
//
// Arguments: a, b, c (u32[64]), out (u32[20 * 64]). v1 = a, v2 = b, v3 = c.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_dot
  .p2align 8
  .type valu_dot,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

valu_dot:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  // out[0]: v_add_i32
  v_add_i32 v4, v1, v2
  ST v4
  // out[1]: v_add_i32 clamp
  v_add_i32 v4, v1, v2 clamp
  ST v4
  // out[2]: v_sub_i32 clamp
  v_sub_i32 v4, v1, v2 clamp
  ST v4
  // out[3]: v_sub_i32
  v_sub_i32 v4, v1, v2
  ST v4
  // out[4]: v_dot4_i32_i8
  v_dot4_i32_i8 v4, v1, v2, v3
  ST v4
  // out[5]: v_dot4_i32_i8 clamp
  v_dot4_i32_i8 v4, v1, v2, v3 clamp
  ST v4
  // out[6]: v_dot4_u32_u8
  v_dot4_u32_u8 v4, v1, v2, v3
  ST v4
  // out[7]: v_dot4_u32_u8 clamp
  v_dot4_u32_u8 v4, v1, v2, v3 clamp
  ST v4
  // out[8]: v_dot2_i32_i16
  v_dot2_i32_i16 v4, v1, v2, v3
  ST v4
  // out[9]: v_dot2_u32_u16 clamp
  v_dot2_u32_u16 v4, v1, v2, v3 clamp
  ST v4
  // out[10]: v_dot8_i32_i4
  v_dot8_i32_i4 v4, v1, v2, v3
  ST v4
  // out[11]: v_dot8_u32_u4 clamp
  v_dot8_u32_u4 v4, v1, v2, v3 clamp
  ST v4
  // out[12]: v_dot4c_i32_i8 (acc c)
  v_mov_b32_e32 v4, v3
  v_dot4c_i32_i8_e32 v4, v1, v2
  ST v4
  // out[13]: v_dot2c_i32_i16 (acc c)
  v_mov_b32_e32 v4, v3
  v_dot2c_i32_i16_e32 v4, v1, v2
  ST v4
  // out[14]: v_dot4c_i32_i8_dpp row_shr:1 (acc c)
  v_mov_b32_e32 v4, v3
  v_dot4c_i32_i8_dpp v4, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf
  ST v4
  // out[15]: v_fract_f16
  v_fract_f16_e32 v4, v1
  ST v4
  // out[16]: v_fmac_f32_dpp row_shr:1 (acc c)
  v_mov_b32_e32 v4, v3
  v_fmac_f32_dpp v4, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf
  ST v4
  // out[17]: v_dot2_f32_f16 neg_lo:[1,0,1] neg_hi:[0,1,0]
  v_dot2_f32_f16 v4, v1, v2, v3 neg_lo:[1,0,1] neg_hi:[0,1,0]
  ST v4
  // out[18]: v_dot2c_f32_f16 (acc c)
  v_mov_b32_e32 v4, v3
  v_dot2c_f32_f16_e32 v4, v1, v2
  ST v4
  // out[19]: v_dot2c_f32_f16_dpp row_shr:1 (acc c)
  v_mov_b32_e32 v4, v3
  v_dot2c_f32_f16_dpp v4, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf
  ST v4
  // out[20]: v_dot2c_f32_f16_e64 (acc c)
  v_mov_b32_e32 v4, v3
  v_dot2c_f32_f16_e64 v4, v1, v2
  ST v4
  s_endpgm
.Lfunc_end0:
  .size valu_dot, .Lfunc_end0-valu_dot

  .rodata
  .p2align 6
  .amdhsa_kernel valu_dot
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
    .name:           valu_dot
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         valu_dot.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
