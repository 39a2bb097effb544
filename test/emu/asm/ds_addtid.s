//===- ds_addtid.s - ds_write_addtid_b32 and ds_read_addtid_b32 -----------===//
//
// LDS addressed by offset + M0[15:0] + 4 * lane, no address VGPR (gfx942,
// gfx950). Rows of out, read back with plain ds_read_b32 at 4l + base:
//
//   row 0: ds_write_addtid_b32 src[l], M0 = 0x40, offset:0x100 -> LDS 0x140
//   row 1: ds_read_addtid_b32 with M0 = 0x120, offset:0x20 -> src[l]
//   row 2: ds_write_addtid_b32 ~src[l] with EXEC = odd lanes, M0 = 0x240,
//          offset:0 -> LDS 0x240 + 4l (even lanes keep the 0xdeadbeef
//          written there first)
//   row 3: ds_read_addtid_b32 into 0xdeadbeef with EXEC = even lanes,
//          M0 = 0x140 -> src[l] in even lanes, 0xdeadbeef in odd ones
//
// Arguments: src (u32[64]), out (u32[4 * 64]); one wave.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl ds_addtid
  .p2align 8
  .type ds_addtid,@function
ds_addtid:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_not_b32_e32 v3, v2
  v_mov_b32_e32 v5, 0xdeadbeef
  ds_write_b32 v1, v5 offset:576
  s_mov_b32 m0, 0x40
  ds_write_addtid_b32 v2 offset:256
  s_waitcnt lgkmcnt(0)
  s_movk_i32 m0, 0x120
  ds_read_addtid_b32 v4 offset:32
  s_mov_b32 s8, 0xaaaaaaaa
  s_mov_b32 s9, s8
  s_mov_b64 exec, s[8:9]
  s_movk_i32 m0, 0x240
  ds_write_addtid_b32 v3
  s_not_b64 exec, s[8:9]
  s_movk_i32 m0, 0x140
  ds_read_addtid_b32 v5
  s_mov_b64 exec, -1
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v6, v1 offset:320
  ds_read_b32 v7, v1 offset:576
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v6, s[6:7]
  global_store_dword v1, v4, s[6:7] offset:256
  global_store_dword v1, v7, s[6:7] offset:512
  global_store_dword v1, v5, s[6:7] offset:768
  s_endpgm
.Lfunc_end0:
  .size ds_addtid, .Lfunc_end0-ds_addtid

  .rodata
  .p2align 6
  .amdhsa_kernel ds_addtid
    .amdhsa_group_segment_fixed_size 1024
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_enable_private_segment 0
    .amdhsa_kernarg_size 16
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 20
    .amdhsa_next_free_sgpr 24
    .amdhsa_accum_offset 20
  .end_amdhsa_kernel

  .amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - { .address_space: global, .offset: 0, .size: 8, .value_kind: global_buffer }
      - { .address_space: global, .offset: 8, .size: 8, .value_kind: global_buffer }
    .group_segment_fixed_size: 1024
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           ds_addtid
    .private_segment_fixed_size: 0
    .sgpr_count:     30
    .sgpr_spill_count: 0
    .symbol:         ds_addtid.kd
    .vgpr_count:     20
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
