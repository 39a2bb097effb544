//===- mov64_dpp.s - v_mov_b64_dpp with row_newbcast -----------------------===//
//
// gfx90a+'s 64-bit DPP move: row_newbcast:N reads lane N of each 16-lane
// row (AluTests.cpp, Alu.Mov64Dpp). v[6:7] = (a, b); before each move the
// destination pair holds (c, c).
//
//   rows 0, 1: v_mov_b64_dpp row_newbcast:1, low and high dwords
//   rows 2, 3: v_mov_b64_dpp row_newbcast:15 row_mask:0x6 bank_mask:0x9
//              (rows 1, 2 and banks 0, 3 written; the other lanes keep c)
//
// Arguments: a, b, c (u32[64]), out (u32[4 * 64]).
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl mov64_dpp
  .p2align 8
  .type mov64_dpp,@function

// Stores \r to out + 256 * k (k counts the stores) for this lane, then
// moves the output base one 64-lane row on.
.macro ST r
  global_store_dword v0, \r, s[10:11]
  s_add_u32 s10, s10, 0x100
  s_addc_u32 s11, s11, 0
.endm

mov64_dpp:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  v_mov_b32_e32 v6, v1
  v_mov_b32_e32 v7, v2
  v_mov_b32_e32 v4, v3
  v_mov_b32_e32 v5, v3
  v_mov_b64_dpp v[4:5], v[6:7] row_newbcast:1 row_mask:0xf bank_mask:0xf
  ST v4
  ST v5
  v_mov_b32_e32 v4, v3
  v_mov_b32_e32 v5, v3
  v_mov_b64_dpp v[4:5], v[6:7] row_newbcast:15 row_mask:0x6 bank_mask:0x9
  ST v4
  ST v5
  s_endpgm
.Lfunc_end0:
  .size mov64_dpp, .Lfunc_end0-mov64_dpp

  .rodata
  .p2align 6
  .amdhsa_kernel mov64_dpp
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 32
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 16
    .amdhsa_next_free_sgpr 32
    .amdhsa_accum_offset 16
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
    .name:           mov64_dpp
    .private_segment_fixed_size: 0
    .sgpr_count:     34
    .sgpr_spill_count: 0
    .symbol:         mov64_dpp.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
