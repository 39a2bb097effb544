//===- salu.s - scalar ALU ops (gfx942, gfx950) -----------------------------===//
//
// SOP1/SOP2/SOPC/SOPK ops run once per lane index l = 0..63 on (a[l], b[l],
// c[l]) read into SGPRs with v_readlane_b32; each result, the high dword of
// 64-bit results and SCC (read back with s_cselect_b32) goes to lane l of its
// own VGPR, v10 upwards, stored as row k of out (k = VGPR - 10). The order is
// the one in AluTests.cpp. 64-bit operands: s[20:21] = a | b << 32.
//
// Arguments: a, b, c (u32[64]), out (u32[112 * 64]).
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl salu
  .p2align 8
  .type salu,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

salu:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  // One iteration per lane: its a, b, c into s20, s21, s22; each result
  // (and SCC, through s_cselect_b32) into lane s12 = M0 of its own VGPR.
  s_mov_b32 s12, 0
.Lloop:
  s_mov_b32 m0, s12                       // v_writelane_b32's lane (one SGPR besides M0)
  v_readlane_b32 s20, v1, s12
  v_readlane_b32 s21, v2, s12
  v_readlane_b32 s22, v3, s12
  // s_bfe_* operands: offset S1[4:0] (S1[5:0] for 64 bits), width S1[22:16].
  // The tests keep widths within the data width (what wider widths do is
  // left open by the ISA text); s26 keeps b's other, ignored bits.
  s_and_b32 s23, s21, 0x001f001f          // s_bfe_*32: width 0..31, offset 0..31
  s_and_b32 s24, s22, 0x003f003f          // s_bfe_*64: width 0..63, offset 0..63
  s_and_b32 s26, s21, 0xff9fffff          // s_bfe_*32: width 0..31, junk elsewhere
  // s_add_u32: v10 = d, v11 = scc
  s_add_u32 s30, s20, s21
  v_writelane_b32 v10, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v11, s25, m0
  // s_sub_u32: v12 = d, v13 = scc
  s_sub_u32 s30, s20, s21
  v_writelane_b32 v12, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v13, s25, m0
  // s_add_i32: v14 = d, v15 = scc
  s_add_i32 s30, s20, s21
  v_writelane_b32 v14, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v15, s25, m0
  // s_sub_i32: v16 = d, v17 = scc
  s_sub_i32 s30, s20, s21
  v_writelane_b32 v16, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v17, s25, m0
  // s_addc_u32: v18 = d, v19 = scc
  s_bitcmp1_b32 s22, 0
  s_addc_u32 s30, s20, s21
  v_writelane_b32 v18, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v19, s25, m0
  // s_subb_u32: v20 = d, v21 = scc
  s_bitcmp1_b32 s22, 0
  s_subb_u32 s30, s20, s21
  v_writelane_b32 v20, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v21, s25, m0
  // s_min_i32: v22 = d, v23 = scc
  s_min_i32 s30, s20, s21
  v_writelane_b32 v22, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v23, s25, m0
  // s_max_i32: v24 = d, v25 = scc
  s_max_i32 s30, s20, s21
  v_writelane_b32 v24, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v25, s25, m0
  // s_min_u32: v26 = d, v27 = scc
  s_min_u32 s30, s20, s21
  v_writelane_b32 v26, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v27, s25, m0
  // s_max_u32: v28 = d, v29 = scc
  s_max_u32 s30, s20, s21
  v_writelane_b32 v28, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v29, s25, m0
  // s_cselect_b32: v30 = d
  s_bitcmp1_b32 s22, 0
  s_cselect_b32 s30, s20, s21
  v_writelane_b32 v30, s30, m0
  // s_bfe_u32: v31 = d, v32 = scc
  s_bfe_u32 s30, s20, s23
  v_writelane_b32 v31, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v32, s25, m0
  // s_bfe_i32: v33 = d, v34 = scc
  s_bfe_i32 s30, s20, s23
  v_writelane_b32 v33, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v34, s25, m0
  // s_bfe_u32: v35 = d
  s_bfe_u32 s30, s20, s26
  v_writelane_b32 v35, s30, m0
  // s_bfe_i32: v36 = d
  s_bfe_i32 s30, s20, s26
  v_writelane_b32 v36, s30, m0
  // s_bfe_u64: v37 = d, v38 = h, v39 = scc
  s_bfe_u64 s[30:31], s[20:21], s24
  v_writelane_b32 v37, s30, m0
  v_writelane_b32 v38, s31, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v39, s25, m0
  // s_bfe_i64: v40 = d, v41 = h, v42 = scc
  s_bfe_i64 s[30:31], s[20:21], s24
  v_writelane_b32 v40, s30, m0
  v_writelane_b32 v41, s31, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v42, s25, m0
  // s_lshl_b32: v43 = d, v44 = scc
  s_lshl_b32 s30, s20, s21
  v_writelane_b32 v43, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v44, s25, m0
  // s_lshr_b32: v45 = d, v46 = scc
  s_lshr_b32 s30, s20, s21
  v_writelane_b32 v45, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v46, s25, m0
  // s_ashr_i32: v47 = d, v48 = scc
  s_ashr_i32 s30, s20, s21
  v_writelane_b32 v47, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v48, s25, m0
  // s_lshl_b64: v49 = d, v50 = h, v51 = scc
  s_lshl_b64 s[30:31], s[20:21], s22
  v_writelane_b32 v49, s30, m0
  v_writelane_b32 v50, s31, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v51, s25, m0
  // s_lshr_b64: v52 = d, v53 = h, v54 = scc
  s_lshr_b64 s[30:31], s[20:21], s22
  v_writelane_b32 v52, s30, m0
  v_writelane_b32 v53, s31, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v54, s25, m0
  // s_ashr_i64: v55 = d, v56 = h, v57 = scc
  s_ashr_i64 s[30:31], s[20:21], s22
  v_writelane_b32 v55, s30, m0
  v_writelane_b32 v56, s31, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v57, s25, m0
  // s_brev_b32: v58 = d
  s_brev_b32 s30, s20
  v_writelane_b32 v58, s30, m0
  // s_brev_b64: v59 = d, v60 = h
  s_brev_b64 s[30:31], s[20:21]
  v_writelane_b32 v59, s30, m0
  v_writelane_b32 v60, s31, m0
  // s_ff0_i32_b32: v61 = d
  s_ff0_i32_b32 s30, s20
  v_writelane_b32 v61, s30, m0
  // s_ff1_i32_b32: v62 = d
  s_ff1_i32_b32 s30, s20
  v_writelane_b32 v62, s30, m0
  // s_flbit_i32_b32: v63 = d
  s_flbit_i32_b32 s30, s20
  v_writelane_b32 v63, s30, m0
  // s_flbit_i32: v64 = d
  s_flbit_i32 s30, s20
  v_writelane_b32 v64, s30, m0
  // s_ff0_i32_b64: v65 = d
  s_ff0_i32_b64 s30, s[20:21]
  v_writelane_b32 v65, s30, m0
  // s_ff1_i32_b64: v66 = d
  s_ff1_i32_b64 s30, s[20:21]
  v_writelane_b32 v66, s30, m0
  // s_flbit_i32_b64: v67 = d
  s_flbit_i32_b64 s30, s[20:21]
  v_writelane_b32 v67, s30, m0
  // s_bcnt0_i32_b32: v68 = d, v69 = scc
  s_bcnt0_i32_b32 s30, s20
  v_writelane_b32 v68, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v69, s25, m0
  // s_bcnt1_i32_b32: v70 = d, v71 = scc
  s_bcnt1_i32_b32 s30, s20
  v_writelane_b32 v70, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v71, s25, m0
  // s_bcnt1_i32_b64: v72 = d, v73 = scc
  s_bcnt1_i32_b64 s30, s[20:21]
  v_writelane_b32 v72, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v73, s25, m0
  // s_absdiff_i32: v74 = d, v75 = scc
  s_absdiff_i32 s30, s20, s21
  v_writelane_b32 v74, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v75, s25, m0
  // s_mul_i32: v76 = d
  s_mul_i32 s30, s20, s21
  v_writelane_b32 v76, s30, m0
  // s_mul_hi_u32: v77 = d
  s_mul_hi_u32 s30, s20, s21
  v_writelane_b32 v77, s30, m0
  // s_mul_hi_i32: v78 = d
  s_mul_hi_i32 s30, s20, s21
  v_writelane_b32 v78, s30, m0
  // s_pack_ll_b32_b16: v79 = d
  s_pack_ll_b32_b16 s30, s20, s21
  v_writelane_b32 v79, s30, m0
  // s_pack_lh_b32_b16: v80 = d
  s_pack_lh_b32_b16 s30, s20, s21
  v_writelane_b32 v80, s30, m0
  // s_pack_hh_b32_b16: v81 = d
  s_pack_hh_b32_b16 s30, s20, s21
  v_writelane_b32 v81, s30, m0
  // s_bfm_b32: v82 = d
  s_bfm_b32 s30, s20, s21
  v_writelane_b32 v82, s30, m0
  // s_bfm_b64: v83 = d, v84 = h
  s_bfm_b64 s[30:31], s20, s21
  v_writelane_b32 v83, s30, m0
  v_writelane_b32 v84, s31, m0
  // s_lshl1_add_u32: v85 = d, v86 = scc
  s_lshl1_add_u32 s30, s20, s21
  v_writelane_b32 v85, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v86, s25, m0
  // s_lshl2_add_u32: v87 = d, v88 = scc
  s_lshl2_add_u32 s30, s20, s21
  v_writelane_b32 v87, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v88, s25, m0
  // s_lshl3_add_u32: v89 = d, v90 = scc
  s_lshl3_add_u32 s30, s20, s21
  v_writelane_b32 v89, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v90, s25, m0
  // s_lshl4_add_u32: v91 = d, v92 = scc
  s_lshl4_add_u32 s30, s20, s21
  v_writelane_b32 v91, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v92, s25, m0
  // s_abs_i32: v93 = d, v94 = scc
  s_abs_i32 s30, s20
  v_writelane_b32 v93, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v94, s25, m0
  // s_sext_i32_i8: v95 = d
  s_sext_i32_i8 s30, s20
  v_writelane_b32 v95, s30, m0
  // s_sext_i32_i16: v96 = d
  s_sext_i32_i16 s30, s20
  v_writelane_b32 v96, s30, m0
  // s_not_b32: v97 = d, v98 = scc
  s_not_b32 s30, s20
  v_writelane_b32 v97, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v98, s25, m0
  // s_andn2_b32: v99 = d
  s_andn2_b32 s30, s20, s21
  v_writelane_b32 v99, s30, m0
  // s_orn2_b32: v100 = d
  s_orn2_b32 s30, s20, s21
  v_writelane_b32 v100, s30, m0
  // s_nand_b32: v101 = d
  s_nand_b32 s30, s20, s21
  v_writelane_b32 v101, s30, m0
  // s_nor_b32: v102 = d
  s_nor_b32 s30, s20, s21
  v_writelane_b32 v102, s30, m0
  // s_xnor_b32: v103 = d, v104 = scc
  s_xnor_b32 s30, s20, s21
  v_writelane_b32 v103, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v104, s25, m0
  // s_cmp_lt_i32: v105 = scc
  s_cmp_lt_i32 s20, s21
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v105, s25, m0
  // s_cmp_lt_u32: v106 = scc
  s_cmp_lt_u32 s20, s21
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v106, s25, m0
  // s_bitcmp1_b32: v107 = scc
  s_bitcmp1_b32 s20, s21
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v107, s25, m0
  // s_bitcmp0_b64: v108 = scc
  s_bitcmp0_b64 s[20:21], s22
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v108, s25, m0
  // s_cmpk_lt_i32: v109 = scc
  s_cmpk_lt_i32 s20, 0x8000
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v109, s25, m0
  // s_cmpk_lt_u32: v110 = scc
  s_cmpk_lt_u32 s20, 0x8000
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v110, s25, m0
  // s_movk_i32: v111 = d
  s_movk_i32 s30, 0x8000
  v_writelane_b32 v111, s30, m0
  // s_addk_i32: v112 = d, v113 = scc
  s_mov_b32 s30, s20
  s_addk_i32 s30, 0x7fff
  v_writelane_b32 v112, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v113, s25, m0
  // s_mulk_i32: v114 = d
  s_mov_b32 s30, s20
  s_mulk_i32 s30, 0xfff0
  v_writelane_b32 v114, s30, m0
  // s_bitset1_b32: v115 = d
  s_mov_b32 s30, s20
  s_bitset1_b32 s30, s21
  v_writelane_b32 v115, s30, m0
  // s_bitset0_b32: v116 = d
  s_mov_b32 s30, s20
  s_bitset0_b32 s30, s21
  v_writelane_b32 v116, s30, m0
  // s_wqm_b64: v117 = d, v118 = h, v119 = scc
  s_wqm_b64 s[30:31], s[20:21]
  v_writelane_b32 v117, s30, m0
  v_writelane_b32 v118, s31, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v119, s25, m0
  // s_quadmask_b64: v120 = d, v121 = h
  s_quadmask_b64 s[30:31], s[20:21]
  v_writelane_b32 v120, s30, m0
  v_writelane_b32 v121, s31, m0
  s_add_u32 s12, s12, 1
  s_cmp_lt_u32 s12, 64
  s_cbranch_scc1 .Lloop
  ST v10
  ST v11
  ST v12
  ST v13
  ST v14
  ST v15
  ST v16
  ST v17
  ST v18
  ST v19
  ST v20
  ST v21
  ST v22
  ST v23
  ST v24
  ST v25
  ST v26
  ST v27
  ST v28
  ST v29
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
  ST v78
  ST v79
  ST v80
  ST v81
  ST v82
  ST v83
  ST v84
  ST v85
  ST v86
  ST v87
  ST v88
  ST v89
  ST v90
  ST v91
  ST v92
  ST v93
  ST v94
  ST v95
  ST v96
  ST v97
  ST v98
  ST v99
  ST v100
  ST v101
  ST v102
  ST v103
  ST v104
  ST v105
  ST v106
  ST v107
  ST v108
  ST v109
  ST v110
  ST v111
  ST v112
  ST v113
  ST v114
  ST v115
  ST v116
  ST v117
  ST v118
  ST v119
  ST v120
  ST v121
  s_endpgm
.Lfunc_end0:
  .size salu, .Lfunc_end0-salu

  .rodata
  .p2align 6
  .amdhsa_kernel salu
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 32
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 128
    .amdhsa_next_free_sgpr 32
    .amdhsa_accum_offset 128
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
    .name:           salu
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         salu.kd
    .vgpr_count:     128
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
