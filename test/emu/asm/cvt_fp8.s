//===- cvt_fp8.s - FP8/BF8 conversions of gfx942 (FNUZ) and gfx950 (OCP) -===//
//
// v_cvt_f32_fp8/bf8 (every byte select), v_cvt_pk_f32_fp8/bf8 (both word
// selects), their clamp/omod/DPP forms, v_cvt_pk_fp8/bf8_f32 (both words,
// with neg/abs), v_cvt_sr_fp8/bf8_f32 (every byte) and v_cvt_off_f32_i4, one
// wave; the same code runs on both chips, whose formats differ. Before each
// op that writes part of a register the destination holds a. Each result goes
// to its own 64-lane row of out; AluTests.cpp (Fp8Conversions) lists the rows.
//
// Arguments: a, b, c (u32[64]), out (u32[40 * 64]). v1 = a, v2 = b,
// v3 = c, and v5 = a * 0x9e3779b1 (the random bits of the stochastic
// roundings).
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl cvt_fp8
  .p2align 8
  .type cvt_fp8,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

cvt_fp8:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  s_mov_b32 s12, 0x9e3779b1
  v_mul_lo_u32 v5, v1, s12
  // out[0]: v_cvt_f32_fp8 byte 0 (e32)
  v_mov_b32_e32 v4, v1
  v_cvt_f32_fp8_e32 v4, v1
  ST v4
  // out[1]: v_cvt_f32_fp8 byte 1 (sdwa)
  v_mov_b32_e32 v4, v1
  v_cvt_f32_fp8_sdwa v4, v1 src0_sel:BYTE_1
  ST v4
  // out[2]: v_cvt_f32_fp8 byte 2 (sdwa)
  v_mov_b32_e32 v4, v1
  v_cvt_f32_fp8_sdwa v4, v1 src0_sel:BYTE_2
  ST v4
  // out[3]: v_cvt_f32_fp8 byte 3 (sdwa)
  v_mov_b32_e32 v4, v1
  v_cvt_f32_fp8_sdwa v4, v1 src0_sel:BYTE_3
  ST v4
  // out[4]: v_cvt_f32_bf8 byte 0 (e32)
  v_mov_b32_e32 v4, v1
  v_cvt_f32_bf8_e32 v4, v1
  ST v4
  // out[5]: v_cvt_f32_bf8 byte 1 (sdwa)
  v_mov_b32_e32 v4, v1
  v_cvt_f32_bf8_sdwa v4, v1 src0_sel:BYTE_1
  ST v4
  // out[6]: v_cvt_f32_bf8 byte 2 (sdwa)
  v_mov_b32_e32 v4, v1
  v_cvt_f32_bf8_sdwa v4, v1 src0_sel:BYTE_2
  ST v4
  // out[7]: v_cvt_f32_bf8 byte 3 (sdwa)
  v_mov_b32_e32 v4, v1
  v_cvt_f32_bf8_sdwa v4, v1 src0_sel:BYTE_3
  ST v4
  // out[8], out[9]: v_cvt_pk_f32_fp8 word 0 (e32), lo and hi
  v_cvt_pk_f32_fp8_e32 v[6:7], v1
  ST v6
  ST v7
  // out[10], out[11]: v_cvt_pk_f32_fp8 word 1 (sdwa), lo and hi
  v_cvt_pk_f32_fp8_sdwa v[6:7], v1 src0_sel:WORD_1
  ST v6
  ST v7
  // out[12], out[13]: v_cvt_pk_f32_bf8 word 0 (e32), lo and hi
  v_cvt_pk_f32_bf8_e32 v[6:7], v1
  ST v6
  ST v7
  // out[14], out[15]: v_cvt_pk_f32_bf8 word 1 (sdwa), lo and hi
  v_cvt_pk_f32_bf8_sdwa v[6:7], v1 src0_sel:WORD_1
  ST v6
  ST v7
  // out[16]: v_cvt_f32_bf8_e64 clamp (byte 0)
  v_mov_b32_e32 v4, v1
  v_cvt_f32_bf8_e64 v4, v1 clamp
  ST v4
  // out[17]: v_cvt_f32_fp8_e64 mul:2 (byte 0)
  v_mov_b32_e32 v4, v1
  v_cvt_f32_fp8_e64 v4, v1 mul:2
  ST v4
  // out[18]: v_cvt_f32_fp8_sdwa mul:4 byte 3
  v_mov_b32_e32 v4, v1
  v_cvt_f32_fp8_sdwa v4, v1 mul:4 src0_sel:BYTE_3
  ST v4
  // out[19], out[20]: v_cvt_pk_f32_bf8_e64 div:2 (word 0), lo and hi
  v_cvt_pk_f32_bf8_e64 v[6:7], v1 div:2
  ST v6
  ST v7
  // out[21]: v_cvt_f32_fp8_dpp quad_perm:[1,0,3,2] (byte 0 of the neighbour)
  v_mov_b32_e32 v4, v1
  v_cvt_f32_fp8_dpp v4, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  ST v4
  // out[22]: v_cvt_pk_fp8_f32 b, c into word 0 (a kept above)
  v_mov_b32_e32 v4, v1
  v_cvt_pk_fp8_f32 v4, v2, v3
  ST v4
  // out[23]: v_cvt_pk_fp8_f32 -b, |c| into word 1 (a kept below)
  v_mov_b32_e32 v4, v1
  v_cvt_pk_fp8_f32 v4, -v2, |v3| op_sel:[0,0,1]
  ST v4
  // out[24]: v_cvt_pk_bf8_f32 b, c into word 0
  v_mov_b32_e32 v4, v1
  v_cvt_pk_bf8_f32 v4, v2, v3
  ST v4
  // out[25]: v_cvt_pk_bf8_f32 c, -b into word 1
  v_mov_b32_e32 v4, v1
  v_cvt_pk_bf8_f32 v4, v3, -v2 op_sel:[0,0,1]
  ST v4
  // out[26]: v_cvt_sr_fp8_f32 b, r into byte 0
  v_mov_b32_e32 v4, v1
  v_cvt_sr_fp8_f32 v4, v2, v5
  ST v4
  // out[27]: v_cvt_sr_fp8_f32 c, r into byte 1
  v_mov_b32_e32 v4, v1
  v_cvt_sr_fp8_f32 v4, v3, v5 op_sel:[0,0,1,0]
  ST v4
  // out[28]: v_cvt_sr_bf8_f32 b, r into byte 2
  v_mov_b32_e32 v4, v1
  v_cvt_sr_bf8_f32 v4, v2, v5 op_sel:[0,0,0,1]
  ST v4
  // out[29]: v_cvt_sr_bf8_f32 -c, r into byte 3
  v_mov_b32_e32 v4, v1
  v_cvt_sr_bf8_f32 v4, -v3, v5 op_sel:[0,0,1,1]
  ST v4
  // out[30]: v_cvt_sr_fp8_f32 b, 0 (rounds toward zero) into byte 0
  v_mov_b32_e32 v4, v1
  v_cvt_sr_fp8_f32 v4, v2, 0
  ST v4
  // out[31]: v_cvt_sr_bf8_f32 c, 0xffffffff into byte 3
  v_mov_b32_e32 v4, v1
  v_cvt_sr_bf8_f32 v4, v3, -1 op_sel:[0,0,1,1]
  ST v4
  // out[32]: v_cvt_sr_fp8_f32 c, ~r into byte 2
  v_mov_b32_e32 v4, v1
  v_not_b32_e32 v8, v5
  v_cvt_sr_fp8_f32 v4, v3, v8 op_sel:[0,0,0,1]
  ST v4
  // out[33]: v_cvt_off_f32_i4 a
  v_mov_b32_e32 v4, v1
  v_cvt_off_f32_i4_e32 v4, v1
  ST v4
  // out[34]: v_cvt_off_f32_i4_sdwa byte 2 of a
  v_mov_b32_e32 v4, v1
  v_cvt_off_f32_i4_sdwa v4, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_2
  ST v4
  // out[35]: v_cvt_off_f32_i4_e64 c mul:4
  v_mov_b32_e32 v4, v1
  v_cvt_off_f32_i4_e64 v4, v3 mul:4
  ST v4
  // out[36], out[37]: v_cvt_pk_f32_fp8_dpp row_newbcast:3 (word 0 of lane 3
  // of the lane's row), lo and hi
  v_mov_b32_e32 v6, v3
  v_mov_b32_e32 v7, v3
  v_cvt_pk_f32_fp8_dpp v[6:7], v1 row_newbcast:3 row_mask:0xf bank_mask:0xf
  ST v6
  ST v7
  // out[38], out[39]: v_cvt_pk_f32_bf8_dpp row_newbcast:14 with rows 0, 2
  // and banks 1, 3 written (the other lanes keep c), lo and hi
  v_mov_b32_e32 v6, v3
  v_mov_b32_e32 v7, v3
  v_cvt_pk_f32_bf8_dpp v[6:7], v1 row_newbcast:14 row_mask:0x5 bank_mask:0xa
  ST v6
  ST v7
  s_endpgm
.Lfunc_end0:
  .size cvt_fp8, .Lfunc_end0-cvt_fp8

  .rodata
  .p2align 6
  .amdhsa_kernel cvt_fp8
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
    .name:           cvt_fp8
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         cvt_fp8.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
