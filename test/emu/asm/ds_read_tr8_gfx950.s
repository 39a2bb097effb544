//===- ds_read_tr8_gfx950.s - ds_read_b64_tr_b8 (gfx950) ------------------===//
//
// The transposing LDS read of bytes. Each lane first writes 8 bytes of src[]
// to LDS (LDS u8[8 * l .. 8 * l + 7] = src[8 * l .. 8 * l + 7]); after a
// wait, lane l reads with ds_read_b64_tr_b8 at its own byte address addr[l]
// (an arbitrary 8-byte-aligned address chosen by the host). Within each
// block of 16 lanes the 8 x 16 byte tile the lanes read (row r = lanes 2r,
// 2r + 1) is transposed: lane i receives byte i % 8 of the 64 bits read by
// lane 2 * e + (i % 16) / 8 of its block, for e = 0..7, as its byte e.
//
// Arguments: src (u8[512]), addr (u32[64]), out (u8[8 * 64]); one wave.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl ds_read_tr8
  .p2align 8
  .type ds_read_tr8,@function
ds_read_tr8:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = src, s[6:7] = addr
  s_load_dwordx2 s[8:9], s[0:1], 0x10     // s[8:9] = out
  v_lshlrev_b32_e32 v1, 3, v0             // 8 * lane
  v_lshlrev_b32_e32 v6, 2, v0             // 4 * lane
  s_waitcnt lgkmcnt(0)
  global_load_dwordx2 v[2:3], v1, s[4:5]
  global_load_dword v7, v6, s[6:7]
  s_waitcnt vmcnt(0)
  ds_write_b64 v1, v[2:3]
  s_waitcnt lgkmcnt(0)
  ds_read_b64_tr_b8 v[4:5], v7
  s_waitcnt lgkmcnt(0)
  global_store_dwordx2 v1, v[4:5], s[8:9]
  s_endpgm
.Lfunc_end0:
  .size ds_read_tr8, .Lfunc_end0-ds_read_tr8

  .rodata
  .p2align 6
  .amdhsa_kernel ds_read_tr8
    .amdhsa_group_segment_fixed_size 512
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 24
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 8
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 8
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
    .group_segment_fixed_size: 512
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .max_flat_workgroup_size: 64
    .name:           ds_read_tr8
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         ds_read_tr8.kd
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
