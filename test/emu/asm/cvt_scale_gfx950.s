//===- cvt_scale_gfx950.s - gfx950's scaled FP8/BF8/FP4/FP6 conversions --===//
//
// Every kind of v_cvt_scalef32_*: up-conversions of FP8/BF8 bytes and words
// and FP4 nibble pairs to f32/f16/bf16, down-conversions from f32 pairs and
// packed f16/bf16 (round to nearest even and stochastic), and the 32-value
// FP6/BF6 forms in both directions, one wave (gfx950 only). Before each op
// that writes part of a register the destination holds c. Each result
// register goes to its own 64-lane row of out; AluTests.cpp (ScaledConversions)
// lists the rows.
//
// Arguments (u32[64] each, then out u32[102 * 64]): a (FP8/FP4 codes),
// b, c (f32 with NaN and infinities), d, e (finite f32), hf (two f16), hb
// (two bf16), s (the scales). v1 = a, v2 = b, v3 = c, v10 = d, v11 = e,
// v12 = hf, v13 = hb, v9 = s, v5 = a * 0x9e3779b1 (the random bits).
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl cvt_scale_gfx950
  .p2align 8
  .type cvt_scale_gfx950,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[20:21]
  s_add_u32 s20, s20, 0x100
  s_addc_u32 s21, s21, 0
.endm

cvt_scale_gfx950:
  s_load_dwordx16 s[4:19], s[0:1], 0x0    // a, b, c, d, e, hf, hb, s
  s_load_dwordx2 s[20:21], s[0:1], 0x40   // out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  global_load_dword v10, v0, s[10:11]
  global_load_dword v11, v0, s[12:13]
  global_load_dword v12, v0, s[14:15]
  global_load_dword v13, v0, s[16:17]
  global_load_dword v9, v0, s[18:19]
  s_waitcnt vmcnt(0)
  s_mov_b32 s22, 0x9e3779b1
  v_mul_lo_u32 v5, v1, s22
  // out[0]: v_cvt_scalef32_f32_fp8 byte 0
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_f32_fp8 v4, v1, v9
  ST v4
  // out[1]: v_cvt_scalef32_f32_bf8 byte 3
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_f32_bf8 v4, v1, v9 op_sel:[1,1,0]
  ST v4
  // out[2]: v_cvt_scalef32_f32_fp8 byte 2
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_f32_fp8 v4, v1, v9 op_sel:[0,1,0]
  ST v4
  // out[3]: v_cvt_scalef32_f16_fp8 byte 1 into the low half
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_f16_fp8 v4, v1, v9 op_sel:[1,0,0]
  ST v4
  // out[4]: v_cvt_scalef32_f16_bf8 byte 2 into the high half
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_f16_bf8 v4, v1, v9 op_sel:[0,1,1]
  ST v4
  // out[5..6]: v_cvt_scalef32_pk_f32_fp8 word 0
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_f32_fp8 v[6:7], v1, v9
  ST v6
  ST v7
  // out[7..8]: v_cvt_scalef32_pk_f32_bf8 word 1
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_f32_bf8 v[6:7], v1, v9 op_sel:[1,0,0]
  ST v6
  ST v7
  // out[9]: v_cvt_scalef32_pk_f16_fp8 word 1
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_f16_fp8 v4, v1, v9 op_sel:[1,0,0]
  ST v4
  // out[10]: v_cvt_scalef32_pk_bf16_bf8 word 0
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_bf16_bf8 v4, v1, v9
  ST v4
  // out[11]: v_cvt_scalef32_pk_bf16_fp8 word 1
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_bf16_fp8 v4, v1, v9 op_sel:[1,0,0]
  ST v4
  // out[12]: v_cvt_scalef32_pk_f16_bf8 word 0
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_f16_bf8 v4, v1, v9
  ST v4
  // out[13..14]: v_cvt_scalef32_pk_f32_fp4 byte 3
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_f32_fp4 v[6:7], v1, v9 op_sel:[1,1,0]
  ST v6
  ST v7
  // out[15]: v_cvt_scalef32_pk_f16_fp4 byte 2
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_f16_fp4 v4, v1, v9 op_sel:[0,1,0]
  ST v4
  // out[16]: v_cvt_scalef32_pk_bf16_fp4 byte 0
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_bf16_fp4 v4, v1, v9
  ST v4
  // out[17]: v_cvt_scalef32_pk_fp8_f32 b, c into word 0
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_fp8_f32 v4, v2, v3, v9
  ST v4
  // out[18]: v_cvt_scalef32_pk_bf8_f32 -b, |c| into word 1
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_bf8_f32 v4, -v2, |v3|, v9 op_sel:[0,0,0,1]
  ST v4
  // out[19]: v_cvt_scalef32_pk_fp8_f16 hf into word 1
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_fp8_f16 v4, v12, v9 op_sel:[0,0,1]
  ST v4
  // out[20]: v_cvt_scalef32_pk_bf8_bf16 hb into word 0
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_bf8_bf16 v4, v13, v9
  ST v4
  // out[21]: v_cvt_scalef32_pk_fp4_f32 d, e into byte 3
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_fp4_f32 v4, v10, v11, v9 op_sel:[0,0,1,1]
  ST v4
  // out[22]: v_cvt_scalef32_pk_fp4_f16 hf into byte 1
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_fp4_f16 v4, v12, v9 op_sel:[0,0,1,0]
  ST v4
  // out[23]: v_cvt_scalef32_pk_fp4_bf16 hb into byte 0
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_pk_fp4_bf16 v4, v13, v9
  ST v4
  // out[24]: v_cvt_scalef32_sr_fp8_f32 b, r into byte 3
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_sr_fp8_f32 v4, v2, v5, v9 op_sel:[0,0,1,1]
  ST v4
  // out[25]: v_cvt_scalef32_sr_bf8_f16 hf.lo, r into byte 1
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_sr_bf8_f16 v4, v12, v5, v9 op_sel:[0,0,1,0]
  ST v4
  // out[26]: v_cvt_scalef32_sr_fp8_bf16 hb.hi, r into byte 2
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_sr_fp8_bf16 v4, v13, v5, v9 op_sel:[1,0,0,1]
  ST v4
  // out[27]: v_cvt_scalef32_sr_pk_fp4_f32 (d, e), r into byte 2
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_sr_pk_fp4_f32 v4, v[10:11], v5, v9 op_sel:[0,0,0,1]
  ST v4
  // out[28]: v_cvt_scalef32_sr_pk_fp4_f16 hf, r into byte 0
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_sr_pk_fp4_f16 v4, v12, v5, v9
  ST v4
  // out[29]: v_cvt_scalef32_sr_pk_fp4_bf16 hb, r into byte 3
  v_mov_b32_e32 v4, v3
  v_cvt_scalef32_sr_pk_fp4_bf16 v4, v13, v5, v9 op_sel:[0,0,1,1]
  ST v4
  // out[30..61]: v_cvt_scalef32_pk32_f32_fp6 of (a, b, c, d, e, hf)
  v_mov_b32_e32 v20, v1
  v_mov_b32_e32 v21, v2
  v_mov_b32_e32 v22, v3
  v_mov_b32_e32 v23, v10
  v_mov_b32_e32 v24, v11
  v_mov_b32_e32 v25, v12
  v_cvt_scalef32_pk32_f32_fp6 v[30:61], v[20:25], v9
  ST v30
  ST v31
  ST v32
  ST v33
  ST v34
  ST v35
  ST v36
  ST v37
  ST v38
  ST v39
  ST v40
  ST v41
  ST v42
  ST v43
  ST v44
  ST v45
  ST v46
  ST v47
  ST v48
  ST v49
  ST v50
  ST v51
  ST v52
  ST v53
  ST v54
  ST v55
  ST v56
  ST v57
  ST v58
  ST v59
  ST v60
  ST v61
  // out[62..77]: v_cvt_scalef32_pk32_bf16_bf6 of (a, b, c, d, e, hf)
  v_cvt_scalef32_pk32_bf16_bf6 v[62:77], v[20:25], v9
  ST v62
  ST v63
  ST v64
  ST v65
  ST v66
  ST v67
  ST v68
  ST v69
  ST v70
  ST v71
  ST v72
  ST v73
  ST v74
  ST v75
  ST v76
  ST v77
  // out[78..83]: v_cvt_scalef32_2xpk16_fp6_f32 of 1.3 x the 32 f32
  v_mul_f32_e32 v30, 0x3fa66666, v30
  v_mul_f32_e32 v31, 0x3fa66666, v31
  v_mul_f32_e32 v32, 0x3fa66666, v32
  v_mul_f32_e32 v33, 0x3fa66666, v33
  v_mul_f32_e32 v34, 0x3fa66666, v34
  v_mul_f32_e32 v35, 0x3fa66666, v35
  v_mul_f32_e32 v36, 0x3fa66666, v36
  v_mul_f32_e32 v37, 0x3fa66666, v37
  v_mul_f32_e32 v38, 0x3fa66666, v38
  v_mul_f32_e32 v39, 0x3fa66666, v39
  v_mul_f32_e32 v40, 0x3fa66666, v40
  v_mul_f32_e32 v41, 0x3fa66666, v41
  v_mul_f32_e32 v42, 0x3fa66666, v42
  v_mul_f32_e32 v43, 0x3fa66666, v43
  v_mul_f32_e32 v44, 0x3fa66666, v44
  v_mul_f32_e32 v45, 0x3fa66666, v45
  v_mul_f32_e32 v46, 0x3fa66666, v46
  v_mul_f32_e32 v47, 0x3fa66666, v47
  v_mul_f32_e32 v48, 0x3fa66666, v48
  v_mul_f32_e32 v49, 0x3fa66666, v49
  v_mul_f32_e32 v50, 0x3fa66666, v50
  v_mul_f32_e32 v51, 0x3fa66666, v51
  v_mul_f32_e32 v52, 0x3fa66666, v52
  v_mul_f32_e32 v53, 0x3fa66666, v53
  v_mul_f32_e32 v54, 0x3fa66666, v54
  v_mul_f32_e32 v55, 0x3fa66666, v55
  v_mul_f32_e32 v56, 0x3fa66666, v56
  v_mul_f32_e32 v57, 0x3fa66666, v57
  v_mul_f32_e32 v58, 0x3fa66666, v58
  v_mul_f32_e32 v59, 0x3fa66666, v59
  v_mul_f32_e32 v60, 0x3fa66666, v60
  v_mul_f32_e32 v61, 0x3fa66666, v61
  v_cvt_pk_f16_f32 v62, v30, v31
  v_cvt_pk_f16_f32 v63, v32, v33
  v_cvt_pk_f16_f32 v64, v34, v35
  v_cvt_pk_f16_f32 v65, v36, v37
  v_cvt_pk_f16_f32 v66, v38, v39
  v_cvt_pk_f16_f32 v67, v40, v41
  v_cvt_pk_f16_f32 v68, v42, v43
  v_cvt_pk_f16_f32 v69, v44, v45
  v_cvt_pk_f16_f32 v70, v46, v47
  v_cvt_pk_f16_f32 v71, v48, v49
  v_cvt_pk_f16_f32 v72, v50, v51
  v_cvt_pk_f16_f32 v73, v52, v53
  v_cvt_pk_f16_f32 v74, v54, v55
  v_cvt_pk_f16_f32 v75, v56, v57
  v_cvt_pk_f16_f32 v76, v58, v59
  v_cvt_pk_f16_f32 v77, v60, v61
  v_cvt_pk_bf16_f32 v78, v30, v31
  v_cvt_pk_bf16_f32 v79, v32, v33
  v_cvt_pk_bf16_f32 v80, v34, v35
  v_cvt_pk_bf16_f32 v81, v36, v37
  v_cvt_pk_bf16_f32 v82, v38, v39
  v_cvt_pk_bf16_f32 v83, v40, v41
  v_cvt_pk_bf16_f32 v84, v42, v43
  v_cvt_pk_bf16_f32 v85, v44, v45
  v_cvt_pk_bf16_f32 v86, v46, v47
  v_cvt_pk_bf16_f32 v87, v48, v49
  v_cvt_pk_bf16_f32 v88, v50, v51
  v_cvt_pk_bf16_f32 v89, v52, v53
  v_cvt_pk_bf16_f32 v90, v54, v55
  v_cvt_pk_bf16_f32 v91, v56, v57
  v_cvt_pk_bf16_f32 v92, v58, v59
  v_cvt_pk_bf16_f32 v93, v60, v61
  v_cvt_scalef32_2xpk16_fp6_f32 v[20:25], v[30:45], v[46:61], v9
  ST v20
  ST v21
  ST v22
  ST v23
  ST v24
  ST v25
  // out[84..89]: v_cvt_scalef32_sr_pk32_bf6_f32 of them, r
  v_cvt_scalef32_sr_pk32_bf6_f32 v[20:25], v[30:61], v5, v9
  ST v20
  ST v21
  ST v22
  ST v23
  ST v24
  ST v25
  // out[90..95]: v_cvt_scalef32_pk32_fp6_f16 of their f16 pairs
  v_cvt_scalef32_pk32_fp6_f16 v[20:25], v[62:77], v9
  ST v20
  ST v21
  ST v22
  ST v23
  ST v24
  ST v25
  // out[96..101]: v_cvt_scalef32_sr_pk32_bf6_bf16 of their bf16 pairs, r
  v_cvt_scalef32_sr_pk32_bf6_bf16 v[20:25], v[78:93], v5, v9
  ST v20
  ST v21
  ST v22
  ST v23
  ST v24
  ST v25
  s_endpgm
.Lfunc_end0:
  .size cvt_scale_gfx950, .Lfunc_end0-cvt_scale_gfx950

  .rodata
  .p2align 6
  .amdhsa_kernel cvt_scale_gfx950
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 72
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 96
    .amdhsa_next_free_sgpr 32
    .amdhsa_accum_offset 96
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
      - .address_space:  global
        .offset:         32
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         40
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         48
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         56
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         64
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 72
    .max_flat_workgroup_size: 64
    .name:           cvt_scale_gfx950
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         cvt_scale_gfx950.kd
    .vgpr_count:     96
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
