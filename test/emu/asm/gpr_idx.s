//===- gpr_idx.s - VGPR index mode (gfx942, gfx950) ------------------------===//
//
// s_set_gpr_idx_on sets M0[7:0] to the index and M0[15:12] to the operand
// mask (bit 0 src0, 1 src1, 2 src2, 3 vdst) and turns VGPR index mode on;
// VALU operands the mask names, when VGPRs, are then index registers further
// on, until s_set_gpr_idx_off. v10 + i holds 100 i + lane (i = 0..7):
//
//   row 0: index 3, SRC0:   v_mov_b32 v2, v10          = v13 = 300 + l
//   row 1: index 3, SRC1:   v_add_u32 v3, v10, v11     = v10 + v14 = 400 + 2l
//   row 2: index 5, DST:    v_mov_b32 v20, v1 writes v25; read back = l
//   row 3: s_set_gpr_idx_idx 1 (mask SRC0 kept): v_mov_b32 v5, v10 = v11 = 100 + l
//   row 4: s_set_gpr_idx_mode gpr_idx(DST) (index 1 kept): v_mov_b32 v20, v1
//          writes v21; read back = l
//   row 5: M0 after s_set_gpr_idx_on s2 (3), gpr_idx(SRC0,SRC2) from -1:
//          0xffff0f00 | 3 | 0x5000 = 0xffff5f03 (the other bits kept)
//   row 6, 7: index 2, SRC1, 64 bits: v_lshlrev_b64 v[30:31], 0, v[10:11]
//          reads v[12:13] = 200 + l, 300 + l
//   row 8: after s_set_gpr_idx_off, v_mov_b32 v8, v10 reads v10 = l
//
// And the scalar relative moves, s[20..25] = 11, 22, 33, 44, 55, 66, M0 = 2:
//   row 9: s_movrels_b32 s8, s20 = s22 = 33
//   row 10, 11: s_movrels_b64 s[10:11], s[20:21] = s[22:23] = 33, 44
//   row 12: s_movreld_b32 s20, s9 (99) writes s22 = 99
//   row 13: s_movreld_b64 s[20:21], s[24:25] writes s[22:23] = 55, 66: s23
//
// Arguments: out (u32[14 * 64]), one wave.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl gpr_idx
  .p2align 8
  .type gpr_idx,@function
gpr_idx:
  s_load_dwordx2 s[6:7], s[0:1], 0x0      // out
  v_lshlrev_b32_e32 v9, 2, v0             // 4 * lane
  v_mov_b32_e32 v1, v0
  v_mov_b32_e32 v10, v0
  v_add_u32_e32 v11, 100, v0
  v_add_u32_e32 v12, 200, v0
  v_add_u32_e32 v13, 300, v0
  v_add_u32_e32 v14, 400, v0
  v_add_u32_e32 v15, 500, v0
  v_add_u32_e32 v16, 600, v0
  v_add_u32_e32 v17, 700, v0
  s_mov_b32 s2, 3
  s_mov_b32 s3, 5
  s_mov_b32 s4, 1
  s_mov_b32 s5, 2
  s_set_gpr_idx_on s2, gpr_idx(SRC0)
  v_mov_b32_e32 v2, v10
  s_set_gpr_idx_off
  s_set_gpr_idx_on s2, gpr_idx(SRC1)
  v_add_u32_e32 v3, v10, v11
  s_set_gpr_idx_off
  s_set_gpr_idx_on s3, gpr_idx(DST)
  v_mov_b32_e32 v20, v1
  s_set_gpr_idx_off
  v_mov_b32_e32 v4, v25
  s_set_gpr_idx_on s2, gpr_idx(SRC0)
  s_set_gpr_idx_idx s4
  v_mov_b32_e32 v5, v10
  s_set_gpr_idx_mode gpr_idx(DST)
  v_mov_b32_e32 v20, v1
  s_set_gpr_idx_off
  v_mov_b32_e32 v6, v21
  s_mov_b32 m0, -1
  s_set_gpr_idx_on s2, gpr_idx(SRC0,SRC2)
  s_set_gpr_idx_off
  v_mov_b32_e32 v7, m0
  s_set_gpr_idx_on s5, gpr_idx(SRC1)
  v_lshlrev_b64 v[30:31], 0, v[10:11]
  s_set_gpr_idx_off
  v_mov_b32_e32 v8, v10
  s_mov_b32 s20, 11
  s_mov_b32 s21, 22
  s_mov_b32 s22, 33
  s_mov_b32 s23, 44
  s_mov_b32 s24, 55
  s_mov_b32 s25, 66
  s_mov_b32 s9, 99
  s_mov_b32 m0, 2
  s_movrels_b32 s8, s20
  s_movrels_b64 s[10:11], s[20:21]
  v_mov_b32_e32 v21, s8
  v_mov_b32_e32 v22, s10
  v_mov_b32_e32 v23, s11
  s_movreld_b32 s20, s9
  v_mov_b32_e32 v24, s22
  s_movreld_b64 s[20:21], s[24:25]
  v_mov_b32_e32 v25, s23
  s_waitcnt lgkmcnt(0)
  global_store_dword v9, v2, s[6:7]
  global_store_dword v9, v3, s[6:7] offset:256
  global_store_dword v9, v4, s[6:7] offset:512
  global_store_dword v9, v5, s[6:7] offset:768
  global_store_dword v9, v6, s[6:7] offset:1024
  global_store_dword v9, v7, s[6:7] offset:1280
  global_store_dword v9, v30, s[6:7] offset:1536
  global_store_dword v9, v31, s[6:7] offset:1792
  global_store_dword v9, v8, s[6:7] offset:2048
  global_store_dword v9, v21, s[6:7] offset:2304
  global_store_dword v9, v22, s[6:7] offset:2560
  global_store_dword v9, v23, s[6:7] offset:2816
  global_store_dword v9, v24, s[6:7] offset:3072
  global_store_dword v9, v25, s[6:7] offset:3328
  s_endpgm
.Lfunc_end0:
  .size gpr_idx, .Lfunc_end0-gpr_idx

  .globl gpr_idx_past_end
  .p2align 8
  .type gpr_idx_past_end,@function
gpr_idx_past_end:
  // v250 + 8 is past v255: refused, not guessed.
  s_mov_b32 s2, 8
  s_set_gpr_idx_on s2, gpr_idx(SRC0)
  v_mov_b32_e32 v0, v250
  s_set_gpr_idx_off
  s_endpgm
.Lfunc_end1:
  .size gpr_idx_past_end, .Lfunc_end1-gpr_idx_past_end

  .rodata
  .p2align 6
  .amdhsa_kernel gpr_idx
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 8
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 32
    .amdhsa_next_free_sgpr 32
    .amdhsa_accum_offset 32
  .end_amdhsa_kernel
  .p2align 6
  .amdhsa_kernel gpr_idx_past_end
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 8
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 256
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 256
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
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           gpr_idx
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         gpr_idx.kd
    .vgpr_count:     32
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           gpr_idx_past_end
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         gpr_idx_past_end.kd
    .vgpr_count:     256
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
