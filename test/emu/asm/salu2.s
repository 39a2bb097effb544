//===- salu2.s - more scalar ALU ops: 64-bit, compares, EXEC (gfx942/950) ===//
//
// S_CMOV/S_CMOVK/S_CSELECT_B64, the 64-bit logic ops and their SCC,
// s_bcnt0_i32_b64, s_bitset*_b64, bit compares, the S_CMP/S_CMPK families and
// the saveexec/wrexec ops (the saved value, the new EXEC and SCC), run once
// per lane index l = 0..63 on (a[l], b[l], c[l]) as salu.s does; each result
// goes to lane l of its own VGPR, v10 upwards, stored as row k of out
// (k = VGPR - 10). AluTests.cpp lists the rows in the same order.
//
// Arguments: a, b, c (u32[64]), out (u32[86 * 64]).
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl salu2
  .p2align 8
  .type salu2,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

salu2:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  // One iteration per lane: x = s[20:21] = a | b << 32 and the 32-bit
  // operands a, b, c in s20, s21, s22; y = s[28:29] = c | ~c << 32. Each
  // result (SCC through s_cselect_b32) goes to lane s12 = M0 of its own VGPR.
  s_mov_b32 s12, 0
.Lloop:
  s_mov_b32 m0, s12                       // v_writelane_b32's lane (one SGPR besides M0)
  v_readlane_b32 s20, v1, s12
  v_readlane_b32 s21, v2, s12
  v_readlane_b32 s22, v3, s12
  s_not_b32 s23, s22
  // s_cmov_b32: v10 = d
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_mov_b32 s30, s20
  s_bitcmp1_b32 s22, 0
  s_cmov_b32 s30, s21
  v_writelane_b32 v10, s30, m0
  // s_cmovk_i32: v11 = d
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_mov_b32 s30, s20
  s_bitcmp1_b32 s22, 1
  s_cmovk_i32 s30, 0x8001
  v_writelane_b32 v11, s30, m0
  // s_cmov_b64: v12 = d, v13 = h
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_mov_b64 s[30:31], s[20:21]
  s_bitcmp1_b32 s22, 2
  s_cmov_b64 s[30:31], s[28:29]
  v_writelane_b32 v12, s30, m0
  v_writelane_b32 v13, s31, m0
  // s_cselect_b64: v14 = d, v15 = h
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_bitcmp1_b32 s22, 3
  s_cselect_b64 s[30:31], s[20:21], s[28:29]
  v_writelane_b32 v14, s30, m0
  v_writelane_b32 v15, s31, m0
  // s_and_b64: v16 = d, v17 = h, v18 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_and_b64 s[30:31], s[20:21], s[28:29]
  v_writelane_b32 v16, s30, m0
  v_writelane_b32 v17, s31, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v18, s25, m0
  // s_or_b64: v19 = d, v20 = h, v21 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_or_b64 s[30:31], s[20:21], s[28:29]
  v_writelane_b32 v19, s30, m0
  v_writelane_b32 v20, s31, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v21, s25, m0
  // s_xor_b64: v22 = d, v23 = h, v24 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_xor_b64 s[30:31], s[20:21], s[28:29]
  v_writelane_b32 v22, s30, m0
  v_writelane_b32 v23, s31, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v24, s25, m0
  // s_andn2_b64: v25 = d, v26 = h, v27 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_andn2_b64 s[30:31], s[20:21], s[28:29]
  v_writelane_b32 v25, s30, m0
  v_writelane_b32 v26, s31, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v27, s25, m0
  // s_orn2_b64: v28 = d, v29 = h, v30 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_orn2_b64 s[30:31], s[20:21], s[28:29]
  v_writelane_b32 v28, s30, m0
  v_writelane_b32 v29, s31, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v30, s25, m0
  // s_nand_b64: v31 = d, v32 = h, v33 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_nand_b64 s[30:31], s[20:21], s[28:29]
  v_writelane_b32 v31, s30, m0
  v_writelane_b32 v32, s31, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v33, s25, m0
  // s_nor_b64: v34 = d, v35 = h, v36 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_nor_b64 s[30:31], s[20:21], s[28:29]
  v_writelane_b32 v34, s30, m0
  v_writelane_b32 v35, s31, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v36, s25, m0
  // s_xnor_b64: v37 = d, v38 = h, v39 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_xnor_b64 s[30:31], s[20:21], s[28:29]
  v_writelane_b32 v37, s30, m0
  v_writelane_b32 v38, s31, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v39, s25, m0
  // s_not_b64: v40 = d, v41 = h, v42 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_not_b64 s[30:31], s[20:21]
  v_writelane_b32 v40, s30, m0
  v_writelane_b32 v41, s31, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v42, s25, m0
  // s_bcnt0_i32_b64: v43 = d, v44 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_bcnt0_i32_b64 s30, s[20:21]
  v_writelane_b32 v43, s30, m0
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v44, s25, m0
  // s_bitset1_b64: v45 = d, v46 = h
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_mov_b64 s[30:31], s[20:21]
  s_bitset1_b64 s[30:31], s22
  v_writelane_b32 v45, s30, m0
  v_writelane_b32 v46, s31, m0
  // s_bitset0_b64: v47 = d, v48 = h
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_mov_b64 s[30:31], s[20:21]
  s_bitset0_b64 s[30:31], s22
  v_writelane_b32 v47, s30, m0
  v_writelane_b32 v48, s31, m0
  // s_bitcmp0_b32: v49 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_bitcmp0_b32 s20, s21
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v49, s25, m0
  // s_bitcmp1_b64: v50 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_bitcmp1_b64 s[20:21], s22
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v50, s25, m0
  // s_cmp_eq_u64: v51 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_cmp_eq_u64 s[20:21], s[28:29]
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v51, s25, m0
  // s_cmp_lg_u64: v52 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_cmp_lg_u64 s[20:21], s[28:29]
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v52, s25, m0
  // s_cmp_eq_i32: v53 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_cmp_eq_i32 s20, s21
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v53, s25, m0
  // s_cmp_lg_i32: v54 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_cmp_lg_i32 s20, s21
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v54, s25, m0
  // s_cmp_gt_i32: v55 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_cmp_gt_i32 s20, s21
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v55, s25, m0
  // s_cmp_ge_i32: v56 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_cmp_ge_i32 s20, s21
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v56, s25, m0
  // s_cmp_le_i32: v57 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_cmp_le_i32 s20, s21
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v57, s25, m0
  // s_cmp_gt_u32: v58 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_cmp_gt_u32 s20, s21
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v58, s25, m0
  // s_cmp_ge_u32: v59 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_cmp_ge_u32 s20, s21
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v59, s25, m0
  // s_cmp_le_u32: v60 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_cmp_le_u32 s20, s21
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v60, s25, m0
  // s_cmpk_eq_i32: v61 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_cmpk_eq_i32 s20, 0xffff
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v61, s25, m0
  // s_cmpk_gt_i32: v62 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_cmpk_gt_i32 s20, 0x7fff
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v62, s25, m0
  // s_cmpk_le_u32: v63 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_cmpk_le_u32 s20, 0xffff
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v63, s25, m0
  // s_cmpk_ge_u32: v64 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_cmpk_ge_u32 s20, 0x8000
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v64, s25, m0
  // s_cmpk_lg_u32: v65 = scc
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_cmpk_lg_u32 s20, 0x1
  s_cselect_b32 s25, 1, 0
  v_writelane_b32 v65, s25, m0
  // s_mov_b64: v66 = d, v67 = h, v68 = x0, v69 = x1, v70 = s25
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_mov_b64 s[26:27], exec
  s_mov_b64 exec, s[20:21]
  s_and_saveexec_b64 s[30:31], s[28:29]
  s_cselect_b32 s25, 1, 0
  s_mov_b64 s[28:29], exec
  s_mov_b64 exec, s[26:27]
  v_writelane_b32 v66, s30, m0
  v_writelane_b32 v67, s31, m0
  v_writelane_b32 v68, s28, m0
  v_writelane_b32 v69, s29, m0
  v_writelane_b32 v70, s25, m0
  // s_mov_b64: v71 = d, v72 = h, v73 = x0, v74 = x1, v75 = s25
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_mov_b64 s[26:27], exec
  s_mov_b64 exec, s[20:21]
  s_andn2_saveexec_b64 s[30:31], s[28:29]
  s_cselect_b32 s25, 1, 0
  s_mov_b64 s[28:29], exec
  s_mov_b64 exec, s[26:27]
  v_writelane_b32 v71, s30, m0
  v_writelane_b32 v72, s31, m0
  v_writelane_b32 v73, s28, m0
  v_writelane_b32 v74, s29, m0
  v_writelane_b32 v75, s25, m0
  // s_mov_b64: v76 = d, v77 = h, v78 = x0, v79 = x1, v80 = s25
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_mov_b64 s[26:27], exec
  s_mov_b64 exec, s[20:21]
  s_xnor_saveexec_b64 s[30:31], s[28:29]
  s_cselect_b32 s25, 1, 0
  s_mov_b64 s[28:29], exec
  s_mov_b64 exec, s[26:27]
  v_writelane_b32 v76, s30, m0
  v_writelane_b32 v77, s31, m0
  v_writelane_b32 v78, s28, m0
  v_writelane_b32 v79, s29, m0
  v_writelane_b32 v80, s25, m0
  // s_mov_b64: v81 = d, v82 = h, v83 = x0, v84 = x1, v85 = s25
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_mov_b64 s[26:27], exec
  s_mov_b64 exec, s[20:21]
  s_andn1_saveexec_b64 s[30:31], s[28:29]
  s_cselect_b32 s25, 1, 0
  s_mov_b64 s[28:29], exec
  s_mov_b64 exec, s[26:27]
  v_writelane_b32 v81, s30, m0
  v_writelane_b32 v82, s31, m0
  v_writelane_b32 v83, s28, m0
  v_writelane_b32 v84, s29, m0
  v_writelane_b32 v85, s25, m0
  // s_mov_b64: v86 = d, v87 = h, v88 = x0, v89 = x1, v90 = s25
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_mov_b64 s[26:27], exec
  s_mov_b64 exec, s[20:21]
  s_andn1_wrexec_b64 s[30:31], s[28:29]
  s_cselect_b32 s25, 1, 0
  s_mov_b64 s[28:29], exec
  s_mov_b64 exec, s[26:27]
  v_writelane_b32 v86, s30, m0
  v_writelane_b32 v87, s31, m0
  v_writelane_b32 v88, s28, m0
  v_writelane_b32 v89, s29, m0
  v_writelane_b32 v90, s25, m0
  // s_mov_b64: v91 = d, v92 = h, v93 = x0, v94 = x1, v95 = s25
  s_mov_b64 s[28:29], s[22:23]       // y = c | ~c << 32
  s_mov_b64 s[26:27], exec
  s_mov_b64 exec, s[20:21]
  s_orn1_saveexec_b64 s[30:31], s[28:29]
  s_cselect_b32 s25, 1, 0
  s_mov_b64 s[28:29], exec
  s_mov_b64 exec, s[26:27]
  v_writelane_b32 v91, s30, m0
  v_writelane_b32 v92, s31, m0
  v_writelane_b32 v93, s28, m0
  v_writelane_b32 v94, s29, m0
  v_writelane_b32 v95, s25, m0
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
  s_endpgm
.Lfunc_end0:
  .size salu2, .Lfunc_end0-salu2

  .rodata
  .p2align 6
  .amdhsa_kernel salu2
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
    .name:           salu2
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         salu2.kd
    .vgpr_count:     128
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
