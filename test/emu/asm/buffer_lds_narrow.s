//===- buffer_lds_narrow.s - buffer_load_{u,s}{byte,short} ... lds ---------===//
//
// gfx942 and gfx950. With the lds modifier a byte or short buffer load
// writes the value the VGPR form would load, extended to 32 bits, to LDS
// at M0 + 4 * lane; the range check is on the byte or short itself
// (AsmTests.cpp, Asm.BufferLoadNarrowLds). The raw resource covers in[]
// with num_records 383, so the last short of row 3 (bytes 382-383) is out
// of range and reads 0, while the one before it (380-381) is in range.
//
//   row 0: buffer_load_ubyte  at byte l;        M0 = 0
//   row 1: buffer_load_sbyte  at byte 64 + l (offset:64, which the LDS
//          address gets too); M0 = 192
//   row 2: buffer_load_ushort at byte 128 + 2l (offset:128); M0 = 384
//   row 3: buffer_load_sshort at byte 256 + 2l (the VGPR offset, which the
//          range check covers; soffset would not be); M0 = 768
//
// Arguments: in (u32[128]), out (u32[4 * 64]); one wave.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl buffer_lds_narrow
  .p2align 8
  .type buffer_lds_narrow,@function
buffer_lds_narrow:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = in, s[6:7] = out
  v_lshlrev_b32_e32 v1, 2, v0             // v1 = 4 * lane
  v_lshlrev_b32_e32 v2, 1, v0             // v2 = 2 * lane
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4
  s_and_b32 s9, s5, 0xffff
  s_movk_i32 s10, 0x17f
  s_mov_b32 s11, 0x20000
  s_mov_b32 m0, 0
  buffer_load_ubyte v0, s[8:11], 0 offen lds
  s_movk_i32 m0, 0xc0                     // + offset:64 -> LDS 256
  buffer_load_sbyte v0, s[8:11], 0 offen offset:64 lds
  s_movk_i32 m0, 0x180                    // + offset:128 -> LDS 512
  buffer_load_ushort v2, s[8:11], 0 offen offset:128 lds
  s_movk_i32 m0, 0x300
  v_add_u32_e32 v7, 0x100, v2             // 256 + 2 * lane
  buffer_load_sshort v7, s[8:11], 0 offen lds
  s_waitcnt vmcnt(0)
  ds_read_b32 v3, v1
  ds_read_b32 v4, v1 offset:256
  ds_read_b32 v5, v1 offset:512
  ds_read_b32 v6, v1 offset:768
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v3, s[6:7]
  global_store_dword v1, v4, s[6:7] offset:256
  global_store_dword v1, v5, s[6:7] offset:512
  global_store_dword v1, v6, s[6:7] offset:768
  s_endpgm
.Lfunc_end0:
  .size buffer_lds_narrow, .Lfunc_end0-buffer_lds_narrow
  .rodata
  .p2align 6
  .amdhsa_kernel buffer_lds_narrow
    .amdhsa_group_segment_fixed_size 1024
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
    .group_segment_fixed_size: 1024
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           buffer_lds_narrow
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         buffer_lds_narrow.kd
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
