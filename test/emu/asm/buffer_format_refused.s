//===- buffer_format_refused.s - Buffer formats the emulator refuses ------===//
//
// Conversions the ISA guide does not pin down stop the launch with an error
// naming the format instead of guessing (gfx942, gfx950):
//   which = 0: buffer_load_format_x through DATA_FORMAT 10_11_11 (packed)
//   which = 1: tbuffer_store_format_x to [8, UNORM] (rounding unspecified)
//
// Arguments: buf (u8[256]), which (u32 in the second argument's low word).
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl buffer_format_refused
  .p2align 8
  .type buffer_format_refused,@function
buffer_format_refused:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4
  s_and_b32 s9, s5, 0xffff
  s_movk_i32 s10, 0x100
  s_mov_b32 s11, 0x37000                  // 10_11_11 (6) FLOAT (7)
  s_cmp_eq_u32 s6, 0
  s_cbranch_scc0 .Lstore
  buffer_load_format_x v2, v1, s[8:11], 0 offen
  s_waitcnt vmcnt(0)
  s_endpgm
.Lstore:
  v_mov_b32_e32 v2, 0x3f000000
  tbuffer_store_format_x v2, v1, s[8:11], 0 format:[BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_UNORM] offen
  s_waitcnt vmcnt(0)
  s_endpgm
.Lfunc_end0:
  .size buffer_format_refused, .Lfunc_end0-buffer_format_refused

  .rodata
  .p2align 6
  .amdhsa_kernel buffer_format_refused
    .amdhsa_group_segment_fixed_size 0
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
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           buffer_format_refused
    .private_segment_fixed_size: 0
    .sgpr_count:     30
    .sgpr_spill_count: 0
    .symbol:         buffer_format_refused.kd
    .vgpr_count:     20
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
