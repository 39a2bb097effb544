//===- mfma_f64_4x4.s - v_mfma_f64_4x4x4f64 (VGPR and AGPR accumulator) --===//
//
// Four 4x4x4 f64 blocks (MC's V_MFMA_F64_4X4X4F64, printed
// v_mfma_f64_4x4x4_4b_f64), as MfmaTests checks the clang-built kernel of
// mfma.hip: lane l loads its A, B and C (one f64 each) from a[l], b[l], c[l]
// and stores D to d[l]; the _acd kernel keeps C and D in AGPRs.
//
// Arguments: a, b, c, d (f64[64]); one wave.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl mfma_f64_4x4x4f64_vcd
  .p2align 8
  .type mfma_f64_4x4x4f64_vcd,@function
mfma_f64_4x4x4f64_vcd:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, d
  v_lshlrev_b32_e32 v1, 3, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx2 v[2:3], v1, s[4:5]
  global_load_dwordx2 v[4:5], v1, s[6:7]
  global_load_dwordx2 v[6:7], v1, s[8:9]
  s_waitcnt vmcnt(0)
  v_mfma_f64_4x4x4f64 v[8:9], v[2:3], v[4:5], v[6:7]
  s_nop 7
  s_nop 7
  global_store_dwordx2 v1, v[8:9], s[10:11]
  s_endpgm
.Lmfma_f64_4x4x4f64_vcd_end:
  .size mfma_f64_4x4x4f64_vcd, .Lmfma_f64_4x4x4f64_vcd_end-mfma_f64_4x4x4f64_vcd

  .rodata
  .p2align 6
  .amdhsa_kernel mfma_f64_4x4x4f64_vcd
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 32
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 20
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 16
  .end_amdhsa_kernel

  .text
  .globl mfma_f64_4x4x4f64_acd
  .p2align 8
  .type mfma_f64_4x4x4f64_acd,@function
mfma_f64_4x4x4f64_acd:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, d
  v_lshlrev_b32_e32 v1, 3, v0
  s_waitcnt lgkmcnt(0)
  global_load_dwordx2 v[2:3], v1, s[4:5]
  global_load_dwordx2 v[4:5], v1, s[6:7]
  global_load_dwordx2 v[6:7], v1, s[8:9]
  s_waitcnt vmcnt(0)
  v_accvgpr_write_b32 a0, v6
  v_accvgpr_write_b32 a1, v7
  v_mfma_f64_4x4x4f64 a[0:1], v[2:3], v[4:5], a[0:1]
  s_nop 7
  s_nop 7
  global_store_dwordx2 v1, a[0:1], s[10:11]
  s_endpgm
.Lmfma_f64_4x4x4f64_acd_end:
  .size mfma_f64_4x4x4f64_acd, .Lmfma_f64_4x4x4f64_acd_end-mfma_f64_4x4x4f64_acd

  .rodata
  .p2align 6
  .amdhsa_kernel mfma_f64_4x4x4f64_acd
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 32
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 20
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 16
  .end_amdhsa_kernel

  .amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     4
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
    .name:           mfma_f64_4x4x4f64_vcd
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         mfma_f64_4x4x4f64_vcd.kd
    .vgpr_count:     20
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     4
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
    .name:           mfma_f64_4x4x4f64_acd
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         mfma_f64_4x4x4f64_acd.kd
    .vgpr_count:     20
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
