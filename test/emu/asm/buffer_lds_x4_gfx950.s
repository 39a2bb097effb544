//===- buffer_lds_x4_gfx950.s - buffer_load_dwordx4 ... lds (gfx950) -------===//
//
// gfx950's wide LDS DMA: buffer_load_dwordx4 with the lds modifier writes the
// 16 loaded bytes of each lane to LDS at M0 + 16 * lane. The vector offsets
// are reversed per lane (lane l loads in[] bytes 16 * (63 - l)), M0 = 1024.
// The wave reads LDS back with ds_read_b128 and stores it.
//
// Arguments: in (u32[256]), out (u32[256]); one wave.
// out[4 * l + j] = in[4 * (63 - l) + j].
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl buffer_lds_x4
  .p2align 8
  .type buffer_lds_x4,@function
buffer_lds_x4:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = in, s[6:7] = out
  v_lshlrev_b32_e32 v1, 4, v0             // v1 = 16 * lane
  v_sub_u32_e32 v2, 63, v0
  v_lshlrev_b32_e32 v2, 4, v2             // v2 = 16 * (63 - lane)
  v_add_u32_e32 v3, 0x400, v1             // LDS address of this lane's slot
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4
  s_and_b32 s9, s5, 0xffff
  s_movk_i32 s10, 0x400
  s_mov_b32 s11, 0x20000
  s_movk_i32 m0, 0x400
  buffer_load_dwordx4 v2, s[8:11], 0 offen lds
  s_waitcnt vmcnt(0)
  ds_read_b128 v[4:7], v3
  s_waitcnt lgkmcnt(0)
  global_store_dwordx4 v1, v[4:7], s[6:7]
  s_endpgm
.Lfunc_end0:
  .size buffer_lds_x4, .Lfunc_end0-buffer_lds_x4

  .rodata
  .p2align 6
  .amdhsa_kernel buffer_lds_x4
    .amdhsa_group_segment_fixed_size 2048
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 16
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
    .group_segment_fixed_size: 2048
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           buffer_lds_x4
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         buffer_lds_x4.kd
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
