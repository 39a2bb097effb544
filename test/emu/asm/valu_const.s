//===- valu_const.s - inline constants and literals by operand type -------===//
//
// The same encoded constant means different bits for different operand
// types: inline 1.0 is 0x3c00 to an f16 source, 0x3f800000 to an f32 one and
// 0x3ff00000_00000000 to an f64 one; 1/(2*pi) likewise; a 32-bit literal is
// the high dword of an f64 operand; packed ops see a constant in the low
// half. These rows use them in f16, f32, f64, 16-bit integer, packed and
// SALU operands (gfx942, gfx950), one result per 64-lane row of out. (Not
// v_fma_mix: LLVM never puts an inline constant there, and whether an f32
// source reads it as f16 or f32 is not settled here.)
//
// Arguments: a, b, c (u32[64]), out (u32[56 * 64]). v1 = a, v2 = b, v3 = c;
// x = v[6:7] = c | a << 32.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl valu_const
  .p2align 8
  .type valu_const,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

valu_const:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  v_mov_b32_e32 v6, v3                    // x = v[6:7] = c | a << 32
  v_mov_b32_e32 v7, v1
  s_mov_b32 s24, 0
  s_mov_b32 s25, 0x40040000                // s[24:25] = 2.5
  // out[0]: v_add_f16 1.0, a
  v_add_f16_e32 v4, 1.0, v1
  ST v4
  // out[1]: v_add_f16 a, -2.0
  v_add_f16_e64 v4, v1, -2.0
  ST v4
  // out[2]: v_mul_f16 0x4248 (3.140625), a
  v_mul_f16_e32 v4, 0x4248, v1
  ST v4
  // out[3]: v_mul_f16 1/(2pi), a
  v_mul_f16_e32 v4, 0.15915494, v1
  ST v4
  // out[4]: v_mul_f32 0.5, a
  v_mul_f32_e32 v4, 0.5, v1
  ST v4
  // out[5]: v_mul_f32 1/(2pi), a
  v_mul_f32_e32 v4, 0.15915494, v1
  ST v4
  // out[6]: v_add_f32 0x40490fdb, a
  v_add_f32_e32 v4, 0x40490fdb, v1
  ST v4
  // out[7]: v_add_f32 a, -4.0
  v_add_f32_e64 v4, v1, -4.0
  ST v4
  // out[8]: v_add_u16 -1, a
  v_add_u16_e32 v4, -1, v1
  ST v4
  // out[9]: v_add_u16 0x1234, a
  v_add_u16_e32 v4, 0x1234, v1
  ST v4
  // out[10]: v_pk_add_f16 a, 1.0 op_sel_hi:[1,0]
  v_pk_add_f16 v4, v1, 1.0 op_sel_hi:[1,0]
  ST v4
  // out[11]: v_pk_add_f16 a, 1.0 (op_sel_hi:[1,1])
  v_pk_add_f16 v4, v1, 1.0
  ST v4
  // out[12]: v_pk_add_u16 a, 1 op_sel_hi:[1,0]
  v_pk_add_u16 v4, v1, 1 op_sel_hi:[1,0]
  ST v4
  // out[13]: v_pk_mul_f16 a, 0x4000 op_sel_hi:[1,0]
  v_pk_mul_f16 v4, v1, 0x4000 op_sel_hi:[1,0]
  ST v4
  // out[14]: v_fma_f16 a, 0.5, b
  v_mov_b32_e32 v4, 0
  v_fma_f16 v4, v1, 0.5, v2
  ST v4
  // out[15]: v_cvt_f32_f16 0.5
  v_cvt_f32_f16_e32 v4, 0.5
  ST v4
  // out[16]: v_cvt_f32_f16 -4.0
  v_cvt_f32_f16_e32 v4, -4.0
  ST v4
  // out[17]: v_ldexp_f32 1.0, b
  v_ldexp_f32 v4, 1.0, v2
  ST v4
  // out[18]: v_and_b32 0x3fff, a
  v_and_b32_e32 v4, 0x3fff, v1
  ST v4
  // out[19]: v_mov_b32 1/(2pi)
  v_mov_b32_e32 v4, 0.15915494
  ST v4
  // out[20]: v_mov_b32 -0.5
  v_mov_b32_e32 v4, -0.5
  ST v4
  // out[21]: v_mov_b32 -16
  v_mov_b32_e32 v4, -16
  ST v4
  // out[22]: v_max_i16 -16, a
  v_max_i16_e32 v4, -16, v1
  ST v4
  // out[23]: v_lshlrev_b16 3, a
  v_lshlrev_b16_e32 v4, 3, v1
  ST v4
  // out[24]: v_add_f64 x, 1.0 lo
  v_add_f64 v[4:5], v[6:7], 1.0
  ST v4
  // out[25]: v_add_f64 x, 1.0 hi
  ST v5
  // out[26]: v_cvt_f32_f64 3.0 (literal: high dword)
  v_cvt_f32_f64_e32 v4, 0x40080000
  ST v4
  // out[27]: v_add_f64 x, s[24:25] = 2.5 lo
  v_add_f64_e64 v[4:5], v[6:7], s[24:25]
  ST v4
  // out[28]: v_add_f64 x, s[24:25] = 2.5 hi
  ST v5
  // out[29]: v_mul_f64 x, 1/(2pi) lo
  v_mul_f64 v[4:5], v[6:7], 0.15915494309189532
  ST v4
  // out[30]: v_mul_f64 x, 1/(2pi) hi
  ST v5
  // out[31]: v_add_f64 -x, -2.0 lo
  v_add_f64 v[4:5], -v[6:7], -2.0
  ST v4
  // out[32]: v_add_f64 -x, -2.0 hi
  ST v5
  // out[33]: v_mov_b64 -1 lo
  v_mov_b64_e32 v[4:5], -1
  ST v4
  // out[34]: v_mov_b64 -1 hi
  ST v5
  // out[35]: v_mov_b64 0.5 lo
  v_mov_b64_e32 v[4:5], 0.5
  ST v4
  // out[36]: v_mov_b64 0.5 hi
  ST v5
  // out[37]: v_lshlrev_b64 1, -1 lo
  v_lshlrev_b64 v[4:5], 1, -1
  ST v4
  // out[38]: v_lshlrev_b64 1, -1 hi
  ST v5
  // out[39]: s_mov_b32 1.0
  s_mov_b32 s20, 1.0
  v_mov_b32_e32 v4, s20
  ST v4
  // out[40]: s_mov_b64 1.0 lo
  s_mov_b64 s[20:21], 1.0
  v_mov_b32_e32 v4, s20
  v_mov_b32_e32 v5, s21
  ST v4
  // out[41]: s_mov_b64 1.0 hi
  ST v5
  // out[42]: s_mov_b64 -2 lo
  s_mov_b64 s[20:21], -2
  v_mov_b32_e32 v4, s20
  v_mov_b32_e32 v5, s21
  ST v4
  // out[43]: s_mov_b64 -2 hi
  ST v5
  // out[44]: s_mov_b64 0x12345678 lo
  s_mov_b64 s[20:21], 0x12345678
  v_mov_b32_e32 v4, s20
  v_mov_b32_e32 v5, s21
  ST v4
  // out[45]: s_mov_b64 0x12345678 hi
  ST v5
  // out[46]: s_mov_b64 literal 0xfffffff0 lo
  s_mov_b64 s[20:21], 0xfffffff0
  v_mov_b32_e32 v4, s20
  v_mov_b32_e32 v5, s21
  ST v4
  // out[47]: s_mov_b64 literal 0xfffffff0 hi
  ST v5
  // out[48]: s_mov_b64 literal 0x80000000 lo
  s_mov_b64 s[20:21], 0x80000000
  v_mov_b32_e32 v4, s20
  v_mov_b32_e32 v5, s21
  ST v4
  // out[49]: s_mov_b64 literal 0x80000000 hi
  ST v5
  // out[50]: v_mov_b64 literal 0x87654321 lo
  v_mov_b64_e32 v[4:5], 0x87654321
  ST v4
  // out[51]: v_mov_b64 literal 0x87654321 hi
  ST v5
  // out[52]: s_lshl_b64 0x80000000, 1 lo
  v_readfirstlane_b32 s22, v1
  s_lshl_b64 s[20:21], 0x80000000, 1
  v_mov_b32_e32 v4, s20
  v_mov_b32_e32 v5, s21
  ST v4
  // out[53]: s_lshl_b64 0x80000000, 1 hi
  ST v5
  // out[54]: v_cvt_f16_f32 1/(2pi) (f32)
  v_cvt_f16_f32_e32 v4, 0.15915494
  ST v4
  // out[55]: v_add_f32 1/(2pi), 0 (e64)
  v_add_f32_e64 v4, 0.15915494, 0
  ST v4
  s_endpgm
.Lfunc_end0:
  .size valu_const, .Lfunc_end0-valu_const

  .rodata
  .p2align 6
  .amdhsa_kernel valu_const
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
    .name:           valu_const
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         valu_const.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
