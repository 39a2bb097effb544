//===- buffer_format.s - Typed buffer loads and stores (MUBUF, MTBUF) -----===//
//
// buffer_load/store_format_* with the format in the V# (word3 DATA_FORMAT
// [18:15], NUM_FORMAT [14:12]) and tbuffer_* with it in the instruction,
// over a raw buffer (stride 0) on src whose num_records is set per access
// (gfx942, gfx950). Each result component is stored as a row of 64 dwords
// (out row k = the k-th st32 below):
//
//   rows 0-3   buffer_load_format_xyzw, 16_16_16_16 UNORM at 8l, NR 324:
//              lane 40 loads x, y (z, w out of range: 0); lanes 41.. all 0
//   rows 4-7   buffer_load_format_xyzw, 8_8 SNORM at 2l: x, y, 0, 1.0
//   rows 8-9   buffer_load_format_xy, 32 FLOAT at 4l: x, 0
//   rows 10-12 tbuffer_load_format_xyz [8_8_8_8, UINT] at 4l, NR 130:
//              lane 32 loads x, y; lanes 33.. 0
//   row 13     tbuffer_load_format_x [16, SINT] at 2l
//   rows 14-15 tbuffer_load_format_xy [16_16, USCALED] at 4l
//   row 16     tbuffer_load_format_x [8, SSCALED] at l
//   rows 17-18 tbuffer_load_format_d16_xyzw [16_16_16_16, FLOAT] at 8l
//   row 19     buffer_load_format_d16_xy, 8_8 UNORM at 2l: f16 pair
//   row 20     buffer_load_format_d16_hi_x, 16 FLOAT at 2l into 0x1234abcd
//   row 21     tbuffer_load_format_d16_x [8, UINT] at l into 0x1234abcd
//   row 22     buffer_load_format_x lds, 16 SNORM at 2l, M0 = 0 (LDS 4l)
//   stores into dst (raw, NR 1024 unless said), each read back as a row:
//   row 23     tbuffer_store_format_xy [16_16, FLOAT] of (src32[l],
//              src32[l + 64]) at 4l: two f16 (round to nearest even)
//   row 24     buffer_store_format_d16_hi_x, 16 FLOAT of src32[l] at 4l + 256
//              (the high half; the other half of the dword stays 0)
//   row 25     tbuffer_store_format_d16_xy [16_16, UINT] of src32[l] at 512+4l
//   row 26     buffer_store_format_x, 32 UINT of src32[l] at 768 + 4l, NR 896:
//              lanes 32.. dropped (dst stays 0)
//   structured (stride 8, num_records 40 records: lanes 40.. read 0):
//   rows 27-28 tbuffer_load_format_xy idxen [16_16, SINT], index l -> 8l, 8l+2
//   row 29     buffer_load_format_x bothen (index l, offset 6), 16 UNORM
//              -> 8l + 6
//
// Arguments: src (u8[1024]), dst (u8[1024]), out (u32[30 * 64]); one wave.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl buffer_format
  .p2align 8
  .type buffer_format,@function

.macro st32 vreg
  global_store_dword v1, \vreg, s[14:15]
  s_add_u32 s14, s14, 0x100
  s_addc_u32 s15, s15, 0
.endm

buffer_format:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // src, dst
  s_load_dwordx2 s[14:15], s[0:1], 0x10   // out
  v_lshlrev_b32_e32 v1, 2, v0             // 4l
  v_lshlrev_b32_e32 v2, 1, v0             // 2l
  v_lshlrev_b32_e32 v3, 3, v0             // 8l
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4
  s_and_b32 s9, s5, 0xffff                // raw: stride 0
  s_mov_b32 s16, s6
  s_and_b32 s17, s7, 0xffff
  s_movk_i32 s18, 0x400
  s_mov_b32 s19, 0x27000                  // 32 UINT for the dst stores (unused fields)
  // 16_16_16_16 (12) UNORM (0), NR 324
  s_movk_i32 s10, 0x144
  s_mov_b32 s11, 0x60000
  buffer_load_format_xyzw v[10:13], v3, s[8:11], 0 offen
  // 8_8 (3) SNORM (1)
  s_movk_i32 s10, 0x400
  s_mov_b32 s11, 0x19000
  buffer_load_format_xyzw v[14:17], v2, s[8:11], 0 offen
  // 32 (4) FLOAT (7)
  s_mov_b32 s11, 0x27000
  buffer_load_format_xy v[18:19], v1, s[8:11], 0 offen
  s_movk_i32 s10, 0x82
  tbuffer_load_format_xyz v[20:22], v1, s[8:11], 0 format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_UINT] offen
  s_movk_i32 s10, 0x400
  tbuffer_load_format_x v23, v2, s[8:11], 0 format:[BUF_DATA_FORMAT_16,BUF_NUM_FORMAT_SINT] offen
  tbuffer_load_format_xy v[24:25], v1, s[8:11], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_USCALED] offen
  tbuffer_load_format_x v26, v0, s[8:11], 0 format:[BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_SSCALED] offen
  tbuffer_load_format_d16_xyzw v[34:35], v3, s[8:11], 0 format:[BUF_DATA_FORMAT_16_16_16_16,BUF_NUM_FORMAT_FLOAT] offen
  // 8_8 (3) UNORM (0)
  s_mov_b32 s11, 0x18000
  buffer_load_format_d16_xy v29, v2, s[8:11], 0 offen
  v_mov_b32_e32 v30, 0x1234abcd
  v_mov_b32_e32 v31, 0x1234abcd
  // 16 (2) FLOAT (7)
  s_mov_b32 s11, 0x17000
  buffer_load_format_d16_hi_x v30, v2, s[8:11], 0 offen
  tbuffer_load_format_d16_x v31, v0, s[8:11], 0 format:[BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_UINT] offen
  // 16 (2) SNORM (1) into LDS
  s_mov_b32 s11, 0x11000
  s_mov_b32 m0, 0
  buffer_load_format_x v2, s[8:11], 0 offen lds
  // Stores: src32[l] and src32[l + 64] from a dword load.
  s_mov_b32 s11, 0x27000
  buffer_load_dword v40, v1, s[8:11], 0 offen
  buffer_load_dword v41, v1, s[8:11], 0 offen offset:256
  s_waitcnt vmcnt(0)
  tbuffer_store_format_xy v[40:41], v1, s[16:19], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_FLOAT] offen
  s_mov_b32 s19, 0x17000                  // 16 FLOAT
  buffer_store_format_d16_hi_x v40, v1, s[16:19], 0 offen offset:256
  tbuffer_store_format_d16_xy v40, v1, s[16:19], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_UINT] offen offset:512
  s_mov_b32 s19, 0x24000                  // 32 UINT
  s_movk_i32 s18, 0x380
  buffer_store_format_x v40, v1, s[16:19], 0 offen offset:768
  // Structured: stride 8 in word1[29:16], num_records 40.
  s_or_b32 s9, s9, 0x80000
  s_movk_i32 s10, 0x28
  v_mov_b32_e32 v51, 6
  tbuffer_load_format_xy v[46:47], v0, s[8:11], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_SINT] idxen
  s_mov_b32 s11, 0x10000                  // 16 (2) UNORM (0)
  v_mov_b32_e32 v50, v0
  buffer_load_format_x v48, v[50:51], s[8:11], 0 idxen offen
  s_waitcnt vmcnt(0)
  ds_read_b32 v32, v1
  s_movk_i32 s18, 0x400
  buffer_load_dword v42, v1, s[16:19], 0 offen
  buffer_load_dword v43, v1, s[16:19], 0 offen offset:256
  buffer_load_dword v44, v1, s[16:19], 0 offen offset:512
  buffer_load_dword v45, v1, s[16:19], 0 offen offset:768
  s_waitcnt vmcnt(0) lgkmcnt(0)
  st32 v10
  st32 v11
  st32 v12
  st32 v13
  st32 v14
  st32 v15
  st32 v16
  st32 v17
  st32 v18
  st32 v19
  st32 v20
  st32 v21
  st32 v22
  st32 v23
  st32 v24
  st32 v25
  st32 v26
  st32 v34
  st32 v35
  st32 v29
  st32 v30
  st32 v31
  st32 v32
  st32 v42
  st32 v43
  st32 v44
  st32 v45
  st32 v46
  st32 v47
  st32 v48
  s_endpgm
.Lfunc_end0:
  .size buffer_format, .Lfunc_end0-buffer_format

  .rodata
  .p2align 6
  .amdhsa_kernel buffer_format
    .amdhsa_group_segment_fixed_size 256
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_enable_private_segment 0
    .amdhsa_kernarg_size 24
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 56
    .amdhsa_next_free_sgpr 24
    .amdhsa_accum_offset 56
  .end_amdhsa_kernel

  .amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - { .address_space: global, .offset: 0, .size: 8, .value_kind: global_buffer }
      - { .address_space: global, .offset: 8, .size: 8, .value_kind: global_buffer }
      - { .address_space: global, .offset: 16, .size: 8, .value_kind: global_buffer }
    .group_segment_fixed_size: 256
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .max_flat_workgroup_size: 64
    .name:           buffer_format
    .private_segment_fixed_size: 0
    .sgpr_count:     30
    .sgpr_spill_count: 0
    .symbol:         buffer_format.kd
    .vgpr_count:     56
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
