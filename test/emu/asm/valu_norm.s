//===- valu_norm.s - Normalised and saturating packs, quad masks (gfx942, gfx950) ===//
//
// One op per 64-lane row of out, on per-lane a and b (AsmTests.cpp,
// Asm.NormAndQuadMasks, has the references):
//
//   row 0: v_cvt_norm_i16_f16 a       row 1: v_cvt_norm_u16_f16 a
//   row 2: v_cvt_pknorm_i16_f16 a, b  row 3: v_cvt_pknorm_u16_f16 a, b
//   row 4: v_sat_pk_u8_i16 a
//   row 5: s_wqm_b32 and row 6: s_quadmask_b32 of 0x01200f80 (uniform),
//   row 7: SCC of s_wqm_b32 0x01200f80 (1) + 2 * SCC of s_quadmask_b32 0 (0)
//
// Rows 0 and 1 keep only the low half (the 16-bit result).
//
// Arguments: a, b (u32[64]), out (u32[8 * 64]); one wave.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_norm
  .p2align 8
  .type valu_norm,@function

.macro ST r
  global_store_dword v0, \r, s[8:9]
  s_add_u32 s8, s8, 0x100
  s_addc_u32 s9, s9, 0
.endm

valu_norm:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // a, b
  s_load_dwordx2 s[8:9], s[0:1], 0x10     // out
  v_lshlrev_b32_e32 v0, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  s_waitcnt vmcnt(0)
  v_cvt_norm_i16_f16_e32 v4, v1
  v_and_b32_e32 v4, 0xffff, v4
  ST v4
  v_cvt_norm_u16_f16_e32 v4, v1
  v_and_b32_e32 v4, 0xffff, v4
  ST v4
  v_cvt_pknorm_i16_f16 v4, v1, v2
  ST v4
  v_cvt_pknorm_u16_f16 v4, v1, v2
  ST v4
  v_sat_pk_u8_i16_e32 v4, v1
  ST v4
  s_mov_b32 s12, 0x01200f80
  s_wqm_b32 s13, s12
  s_cselect_b32 s15, 1, 0
  v_mov_b32_e32 v4, s13
  ST v4
  s_quadmask_b32 s13, s12
  v_mov_b32_e32 v4, s13
  ST v4
  s_quadmask_b32 s13, 0
  s_cselect_b32 s14, 2, 0
  s_add_u32 s15, s15, s14
  v_mov_b32_e32 v4, s15
  ST v4
  s_endpgm
.Lfunc_end0:
  .size valu_norm, .Lfunc_end0-valu_norm

  .rodata
  .p2align 6
  .amdhsa_kernel valu_norm
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 24
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
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .max_flat_workgroup_size: 64
    .name:           valu_norm
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         valu_norm.kd
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
