//===- buffer_lds.s - buffer_load_dword ... lds through M0 (gfx942, gfx950) -===//
//
// LDS DMA: buffer_load_dword with the lds modifier writes the loaded dword
// not to a VGPR but to LDS at M0 + 4 * lane (M0 holds the wave's LDS base
// byte address). Two loads with different M0 and per-lane vector offsets
// (one identity, one reversed) fill LDS[0..255] and LDS[256..511]; after
// s_waitcnt vmcnt(0) the wave reads LDS back with ds_read_b32 and stores it.
//
// Arguments: in (u32[128]), out (u32[128]); one wave.
// out[l] = in[l]; out[64 + l] = in[64 + 63 - l].
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl buffer_lds
  .p2align 8
  .type buffer_lds,@function
buffer_lds:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = in, s[6:7] = out
  v_lshlrev_b32_e32 v1, 2, v0             // v1 = 4 * lane
  v_sub_u32_e32 v2, 63, v0
  v_lshlrev_b32_e32 v2, 2, v2             // v2 = 4 * (63 - lane)
  s_waitcnt lgkmcnt(0)
  // Raw buffer resource over in[]: base, stride 0, 512 bytes, DATA_FORMAT 32.
  s_mov_b32 s8, s4
  s_and_b32 s9, s5, 0xffff
  s_movk_i32 s10, 0x200
  s_mov_b32 s11, 0x20000
  s_mov_b32 m0, 0
  buffer_load_dword v1, s[8:11], 0 offen lds
  s_movk_i32 m0, 0x100
  s_movk_i32 s12, 0x100                   // soffset: the second half of in[]
  buffer_load_dword v2, s[8:11], s12 offen lds
  s_waitcnt vmcnt(0)
  ds_read_b32 v3, v1
  ds_read_b32 v4, v1 offset:256
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v3, s[6:7]
  global_store_dword v1, v4, s[6:7] offset:256
  s_endpgm
.Lfunc_end0:
  .size buffer_lds, .Lfunc_end0-buffer_lds

  .rodata
  .p2align 6
  .amdhsa_kernel buffer_lds
    .amdhsa_group_segment_fixed_size 512
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
    .group_segment_fixed_size: 512
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           buffer_lds
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         buffer_lds.kd
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
