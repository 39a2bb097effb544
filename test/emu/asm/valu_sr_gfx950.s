//===- valu_sr_gfx950.s - gfx950's PRNG, packed shifts, SR to 16 bits ----===//
//
// v_prng_b32 (e32, e64, SDWA, DPP), v_ashr_pk_i8_i32 / v_ashr_pk_u8_i32
// (with op_sel), v_cvt_sr_f16_f32 and v_cvt_sr_bf16_f32 (with op_sel and
// modifiers), and a v_mfma_ld_scale_b32 no MFMA follows, one wave; before
// each op the destination holds c. Each result goes to its own 64-lane row
// of out; AluTests.cpp (Alu.ValuGfx950Sr) lists the rows.
//
// Arguments: a, b, c (u32[64]), out (u32[12 * 64]). v1 = a, v2 = b, v3 = c.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_sr_gfx950
  .p2align 8
  .type valu_sr_gfx950,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

valu_sr_gfx950:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  // out[0]: v_prng_b32_e32 a
  v_mov_b32_e32 v4, v3
  v_prng_b32_e32 v4, v1
  ST v4
  // out[1]: v_prng_b32_e64 b
  v_mov_b32_e32 v4, v3
  v_prng_b32_e64 v4, v2
  ST v4
  // out[2]: v_prng_b32_sdwa a.WORD_1 (dst_sel:WORD_0, dst_unused:UNUSED_PRESERVE)
  v_mov_b32_e32 v4, v3
  v_prng_b32_sdwa v4, v1 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1
  ST v4
  // out[3]: v_prng_b32_dpp a row_shr:1 (lane 0 of a row keeps c)
  v_mov_b32_e32 v4, v3
  v_prng_b32_dpp v4, v1 row_shr:1 row_mask:0xf bank_mask:0xf
  ST v4
  // out[4]: v_ashr_pk_i8_i32 a, b, c
  v_mov_b32_e32 v4, v3
  v_ashr_pk_i8_i32 v4, v1, v2, v3
  ST v4
  // out[5]: v_ashr_pk_u8_i32 a, b, c op_sel:[0,0,0,1]
  v_mov_b32_e32 v4, v3
  v_ashr_pk_u8_i32 v4, v1, v2, v3 op_sel:[0,0,0,1]
  ST v4
  // out[6]: v_ashr_pk_u8_i32 a, b, c
  v_mov_b32_e32 v4, v3
  v_ashr_pk_u8_i32 v4, v1, v2, v3
  ST v4
  // out[7]: v_cvt_sr_f16_f32 a, b
  v_mov_b32_e32 v4, v3
  v_cvt_sr_f16_f32 v4, v1, v2
  ST v4
  // out[8]: v_cvt_sr_f16_f32 a, b op_sel:[0,0,1]
  v_mov_b32_e32 v4, v3
  v_cvt_sr_f16_f32 v4, v1, v2 op_sel:[0,0,1]
  ST v4
  // out[9]: v_cvt_sr_bf16_f32 a, b
  v_mov_b32_e32 v4, v3
  v_cvt_sr_bf16_f32 v4, v1, v2
  ST v4
  // out[10]: v_cvt_sr_bf16_f32 -|a|, b op_sel:[0,0,1]
  v_mov_b32_e32 v4, v3
  v_cvt_sr_bf16_f32 v4, -|v1|, v2 op_sel:[0,0,1]
  ST v4
  // out[11]: v_mfma_ld_scale_b32 with no MFMA after it changes nothing
  v_mov_b32_e32 v4, v3
  v_mfma_ld_scale_b32 v1, v2
  v_nop
  ST v4
  s_endpgm
.Lfunc_end0:
  .size valu_sr_gfx950, .Lfunc_end0-valu_sr_gfx950

  .rodata
  .p2align 6
  .amdhsa_kernel valu_sr_gfx950
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
    .name:           valu_sr_gfx950
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         valu_sr_gfx950.kd
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
