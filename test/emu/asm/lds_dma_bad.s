//===- lds_dma_bad.s - LDS DMA outside LDS or memory is reported ----------===//
//
// global_load_lds_dword faults like the other accesses (gfx942, gfx950):
//   which = 0: M0 = 192 with 256 bytes of LDS: lane 16 writes LDS 256
//   which = 1: the source address is unmapped (src + 1 GiB)
//
// Arguments: src (u32[64]), which (u32 in the second argument's low word).
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl lds_dma_bad
  .p2align 8
  .type lds_dma_bad,@function
lds_dma_bad:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s6, 0
  s_cbranch_scc0 .Lunmapped
  s_movk_i32 m0, 0xc0
  global_load_lds_dword v1, s[4:5]
  s_waitcnt vmcnt(0)
  s_endpgm
.Lunmapped:
  s_mov_b32 m0, 0
  s_add_u32 s4, s4, 0x40000000
  s_addc_u32 s5, s5, 0
  global_load_lds_dword v1, s[4:5]
  s_waitcnt vmcnt(0)
  s_endpgm
.Lfunc_end0:
  .size lds_dma_bad, .Lfunc_end0-lds_dma_bad

  .rodata
  .p2align 6
  .amdhsa_kernel lds_dma_bad
    .amdhsa_group_segment_fixed_size 256
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
    .group_segment_fixed_size: 256
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           lds_dma_bad
    .private_segment_fixed_size: 0
    .sgpr_count:     30
    .sgpr_spill_count: 0
    .symbol:         lds_dma_bad.kd
    .vgpr_count:     20
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
