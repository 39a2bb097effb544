//===- lds_narrow.s - Byte and short LDS DMA, ds_append/ds_consume --------===//
//
// gfx942 and gfx950. The byte and short forms of global_load_lds_* and
// scratch_load_lds_* extend the loaded value to the lane's dword at
// M0 + offset + 4 * lane (the offset is added to both addresses); LDS is
// read back after s_waitcnt vmcnt(0) at 4 * lane + row * 256
// (AsmTests.cpp, Asm.NarrowLdsDmaAndAppend, has the references):
//
//   row 0: global_load_lds_ubyte v[2:3] (src + 3l), off; M0 = 0
//   row 1: global_load_lds_sbyte v1 (l), s[4:5] offset:64; M0 = 192
//   row 2: global_load_lds_ushort v7 (2l), s[4:5] offset:128; M0 = 384
//   row 3: global_load_lds_sshort v[4:5] (src + 256 + 2l), off; M0 = 768
//   private memory: scratch_store_dwordx2 at offset 0 of (src[l], ~src[l])
//   row 4: scratch_load_lds_ubyte v9 (0), off offset:1; M0 = 1023
//   row 5: scratch_load_lds_sbyte off, s12 (3); M0 = 1280
//   row 6: scratch_load_lds_ushort off, off offset:2 (ST); M0 = 1534
//   row 7: scratch_load_lds_sshort v10 (4), s13 (2) (SVS); M0 = 1792
//
// ds_append / ds_consume on the LDS dwords at 2048 (100) and 2052 (50),
// addressed by M0 + offset:
//   row 8:  ds_append offset:4 with M0 = 2044, all 64 lanes: the old 100
//   row 9:  ds_append again with lanes 0..9 active: 164; the others keep 7
//   row 10: ds_consume with M0 = 2052: the old 50
//   row 11: LDS[2048] after both appends (174); row 12: LDS[2052] (-14)
//
// ds_condxchg32_rtn_b64 (rows 13-16; see the code below): the two old
// dwords it returns, then the pair in LDS after it.
//
// Arguments: src (u32[192]), out (u32[17 * 64]); one wave.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl lds_narrow
  .p2align 8
  .type lds_narrow,@function
lds_narrow:
  s_load_dwordx4 s[4:7], s[0:1], 0x0     // s[4:5] = src, s[6:7] = out
  v_lshlrev_b32_e32 v1, 2, v0             // 4 * lane
  v_mul_u32_u24_e32 v2, 3, v0             // 3 * lane
  v_lshlrev_b32_e32 v7, 1, v0             // 2 * lane
  v_add_u32_e32 v4, 0x100, v7             // 256 + 2 * lane
  v_mov_b32_e32 v9, 0
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v3, s5
  v_add_co_u32_e32 v2, vcc, s4, v2
  v_addc_co_u32_e32 v3, vcc, 0, v3, vcc   // v[2:3] = src + 3 * lane
  v_mov_b32_e32 v5, s5
  v_add_co_u32_e32 v4, vcc, s4, v4
  v_addc_co_u32_e32 v5, vcc, 0, v5, vcc   // v[4:5] = src + 256 + 2 * lane
  s_mov_b32 m0, 0
  global_load_lds_ubyte v[2:3], off
  s_movk_i32 m0, 0xc0
  global_load_lds_sbyte v0, s[4:5] offset:64
  s_movk_i32 m0, 0x180
  global_load_lds_ushort v7, s[4:5] offset:128
  s_movk_i32 m0, 0x300
  global_load_lds_sshort v[4:5], off
  global_load_dword v11, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mov_b32_e32 v16, v11
  v_not_b32_e32 v17, v11
  scratch_store_dwordx2 v9, v[16:17], off
  s_waitcnt vmcnt(0)
  s_movk_i32 m0, 0x3ff
  scratch_load_lds_ubyte v9, off offset:1
  s_mov_b32 s12, 3
  s_movk_i32 m0, 0x500
  scratch_load_lds_sbyte off, s12
  s_movk_i32 m0, 0x5fe
  scratch_load_lds_ushort off, off offset:2
  v_mov_b32_e32 v10, 4
  s_mov_b32 s13, 2
  s_movk_i32 m0, 0x700
  scratch_load_lds_sshort v10, s13
  s_waitcnt vmcnt(0)

  // ds_append / ds_consume
  v_mov_b32_e32 v13, 0x800
  v_mov_b32_e32 v14, 100
  v_mov_b32_e32 v15, 50
  ds_write2_b32 v13, v14, v15 offset1:1
  v_mov_b32_e32 v21, 7
  s_waitcnt lgkmcnt(0)
  s_movk_i32 m0, 0x7fc
  ds_append v20 offset:4
  s_mov_b64 s[14:15], exec
  v_cmp_gt_u32_e32 vcc, 10, v0
  s_and_b64 exec, exec, vcc
  ds_append v21 offset:4
  s_mov_b64 exec, s[14:15]
  s_movk_i32 m0, 0x804
  ds_consume v22
  s_waitcnt lgkmcnt(0)
  ds_read2_b32 v[24:25], v13 offset1:1

  // ds_condxchg32_rtn_b64 on the pair at 3072 + 8 * lane, first (3 * lane,
  // 0x80000000 | lane); data (src[l], ~src[l]); address 0x10000 + 3072 +
  // 8 * lane + 1 with offset:2, which the instruction's & 0xfff8 brings back
  // to the pair.
  v_lshlrev_b32_e32 v26, 3, v0
  v_add_u32_e32 v26, 0xc00, v26           // 3072 + 8 * lane
  v_mul_u32_u24_e32 v28, 3, v0
  v_or_b32_e32 v29, 0x80000000, v0
  ds_write_b64 v26, v[28:29]
  global_load_dword v30, v1, s[4:5]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_not_b32_e32 v31, v30
  v_add_u32_e32 v27, 0x10001, v26
  ds_condxchg32_rtn_b64 v[28:29], v27, v[30:31] offset:2
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v28, s[6:7] offset:3328
  global_store_dword v1, v29, s[6:7] offset:3584
  ds_read_b64 v[28:29], v26
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v28, s[6:7] offset:3840
  v_add_u32_e32 v30, 0x1000, v1
  global_store_dword v30, v29, s[6:7] offset:0

  ds_read_b32 v11, v1
  ds_read_b32 v12, v1 offset:256
  ds_read_b32 v13, v1 offset:512
  ds_read_b32 v14, v1 offset:768
  ds_read_b32 v15, v1 offset:1024
  ds_read_b32 v16, v1 offset:1280
  ds_read_b32 v17, v1 offset:1536
  ds_read_b32 v18, v1 offset:1792
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v11, s[6:7]
  global_store_dword v1, v12, s[6:7] offset:256
  global_store_dword v1, v13, s[6:7] offset:512
  global_store_dword v1, v14, s[6:7] offset:768
  global_store_dword v1, v15, s[6:7] offset:1024
  global_store_dword v1, v16, s[6:7] offset:1280
  global_store_dword v1, v17, s[6:7] offset:1536
  global_store_dword v1, v18, s[6:7] offset:1792
  global_store_dword v1, v20, s[6:7] offset:2048
  global_store_dword v1, v21, s[6:7] offset:2304
  global_store_dword v1, v22, s[6:7] offset:2560
  global_store_dword v1, v24, s[6:7] offset:2816
  global_store_dword v1, v25, s[6:7] offset:3072
  s_endpgm
.Lfunc_end0:
  .size lds_narrow, .Lfunc_end0-lds_narrow

  .rodata
  .p2align 6
  .amdhsa_kernel lds_narrow
    .amdhsa_group_segment_fixed_size 4096
    .amdhsa_private_segment_fixed_size 16
    .amdhsa_enable_private_segment 1
    .amdhsa_kernarg_size 16
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 32
    .amdhsa_next_free_sgpr 24
    .amdhsa_accum_offset 32
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
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           lds_narrow
    .private_segment_fixed_size: 16
    .sgpr_count:     30
    .sgpr_spill_count: 0
    .symbol:         lds_narrow.kd
    .vgpr_count:     32
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
