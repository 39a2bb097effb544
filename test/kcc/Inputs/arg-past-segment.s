// A kernel whose metadata names an argument past its kernarg segment, as two
// of AMD's own MoE code objects do (aiter hsa/gfx950/fmoe/gelu/
// fmoe_bf16_blockscaleBf16_g1u1_ps_gelu_32x{128,256}.co): 'out' and 'n' lie
// in the 16-byte segment, 'unused' at offset 16 does not. The kernel stores
// n to out[lane].
  .amdgcn_target "amdgcn-amd-amdhsa--gfx950"
  .text
  .globl store_n
  .p2align 8
  .type store_n,@function
store_n:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_load_dword s4, s[0:1], 0x8
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v2, s4
  global_store_dword v1, v2, s[2:3]
  s_endpgm
.Lend_store_n:
  .size store_n, .Lend_store_n-store_n

  .rodata
  .p2align 6
  .amdhsa_kernel store_n
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_next_free_vgpr 8
    .amdhsa_next_free_sgpr 8
    .amdhsa_accum_offset 8
  .end_amdhsa_kernel

  .amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .name:           n
        .offset:         8
        .size:           4
        .value_kind:     by_value
      - .name:           unused
        .offset:         16
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           store_n
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .sgpr_spill_count: 0
    .symbol:         store_n.kd
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx950
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
