//===- ds_wrap.s - DS addresses wrap at 32 bits (gfx942, gfx950) -----------===//
//
// An LDS address is the address VGPR plus the instruction's offset, added in
// 32 bits. LLVM folds constants into the offset field of DS instructions
// whose base VGPR may hold a "negative" value, and relies on the wrap. Here
// v4 = 4 * lane - 16 (lane 0: 0xfffffff0) and v12 = 4 * lane - 256 are the
// bases of every access that is not a plain 4 * lane + offset:
//
//   row 0: ds_read_b32 v4 offset:32             reads LDS[4l + 16] = src[l + 4]
//   row 1, 2: ds_read2_b32 v4 offset0:4 offset1:5 reads 4l, 4l + 4
//   row 3, 4: ds_read2st64_b32 v12 offset0:1 offset1:2 reads 4l, 4l + 256
//   row 5: ds_write_b32 v4 offset:528 writes ~src[l] at 4l + 512
//   row 6, 7: ds_write2st64_b32 v12 offset0:4 offset1:5 writes src[l] + 1
//             at 4l + 768 and src[l] + 2 at 4l + 1024
//   row 8: ds_add_rtn_u32 v4 offset:1296 at 4l + 1280 returns src[l + 64]
//   row 9: and leaves src[l + 64] + src[l] there
//
// Rows 5-7 and 9 are read back with plain addresses (4 * lane + offset).
// LDS[0, 512) holds src[0..127] (written with plain addresses first).
//
// Arguments: src (u32[128]), out (u32[10 * 64]); one wave.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl ds_wrap
  .p2align 8
  .type ds_wrap,@function
ds_wrap:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = src, s[6:7] = out
  v_lshlrev_b32_e32 v1, 2, v0             // 4 * lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]             // src[l]
  global_load_dword v3, v1, s[4:5] offset:256  // src[l + 64]
  s_waitcnt vmcnt(0)
  ds_write_b32 v1, v2
  ds_write_b32 v1, v3 offset:256
  ds_write_b32 v1, v3 offset:1280
  v_add_u32_e32 v4, -16, v1               // 4l - 16
  v_add_u32_e32 v12, 0xffffff00, v1       // 4l - 256
  v_not_b32_e32 v13, v2
  v_add_u32_e32 v14, 1, v2
  v_add_u32_e32 v15, 2, v2
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v5, v4 offset:32
  ds_read2_b32 v[8:9], v4 offset0:4 offset1:5
  ds_read2st64_b32 v[10:11], v12 offset0:1 offset1:2
  ds_write_b32 v4, v13 offset:528
  ds_write2st64_b32 v12, v14, v15 offset0:4 offset1:5
  ds_add_rtn_u32 v17, v4, v2 offset:1296
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v18, v1 offset:512
  ds_read_b32 v19, v1 offset:768
  ds_read_b32 v20, v1 offset:1024
  ds_read_b32 v21, v1 offset:1280
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v5, s[6:7]
  global_store_dword v1, v8, s[6:7] offset:256
  global_store_dword v1, v9, s[6:7] offset:512
  global_store_dword v1, v10, s[6:7] offset:768
  global_store_dword v1, v11, s[6:7] offset:1024
  global_store_dword v1, v18, s[6:7] offset:1280
  global_store_dword v1, v19, s[6:7] offset:1536
  global_store_dword v1, v20, s[6:7] offset:1792
  global_store_dword v1, v17, s[6:7] offset:2048
  global_store_dword v1, v21, s[6:7] offset:2304
  s_endpgm
.Lfunc_end0:
  .size ds_wrap, .Lfunc_end0-ds_wrap

  .rodata
  .p2align 6
  .amdhsa_kernel ds_wrap
    .amdhsa_group_segment_fixed_size 2048
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 16
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 24
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 24
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
    .group_segment_fixed_size: 2048
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           ds_wrap
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         ds_wrap.kd
    .vgpr_count:     24
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
