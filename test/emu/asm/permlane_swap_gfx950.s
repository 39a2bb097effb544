//===- permlane_swap_gfx950.s - v_permlane16/32_swap_b32 (gfx950) ----------===//
//
// v_permlane32_swap_b32 vdst, vsrc swaps lanes 32..63 of vdst with lanes
// 0..31 of vsrc; v_permlane16_swap_b32 vdst, vsrc swaps the odd 16-lane rows
// of vdst with the even rows of vsrc (row 1 of vdst with row 0 of vsrc, row
// 3 with row 2). Both registers are written back.
//
// Arguments: x (u32[64]), y (u32[64]), out (u32[4 * 64]); one wave.
// out[0..63] = vdst and out[64..127] = vsrc after the 32-lane swap of (x, y);
// out[128..191] = vdst and out[192..255] = vsrc after the 16-lane swap.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl permlane_swap
  .p2align 8
  .type permlane_swap,@function
permlane_swap:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = x, s[6:7] = y
  s_load_dwordx2 s[8:9], s[0:1], 0x10     // s[8:9] = out
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[6:7]
  s_waitcnt vmcnt(0)
  v_mov_b32_e32 v4, v2
  v_mov_b32_e32 v5, v3
  s_nop 1
  v_permlane32_swap_b32 v2, v3
  v_permlane16_swap_b32 v4, v5
  s_nop 1
  global_store_dword v1, v2, s[8:9]
  global_store_dword v1, v3, s[8:9] offset:256
  global_store_dword v1, v4, s[8:9] offset:512
  global_store_dword v1, v5, s[8:9] offset:768
  s_endpgm
.Lfunc_end0:
  .size permlane_swap, .Lfunc_end0-permlane_swap

  .rodata
  .p2align 6
  .amdhsa_kernel permlane_swap
    .amdhsa_group_segment_fixed_size 0
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
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .max_flat_workgroup_size: 64
    .name:           permlane_swap
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         permlane_swap.kd
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
