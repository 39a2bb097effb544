//===- check_smem.s - check mode and scalar stores (gfx942, gfx950) --------===//
//
// Two waves of one workgroup: wave 0 writes mem[0] with s_store_dword, and
// wave 1 reads it with a vector load. smem_publish follows the order the
// memory model asks of scalar stores (s_dcache_wb, s_waitcnt lgkmcnt(0))
// and then s_barrier before the read: check mode must find nothing, and
// wave 1 must read the stored value. smem_race has no barrier: the scalar
// store and the vector load race, and check mode must say so.
//
// Arguments: mem (u32[64]), out (u32[128]); block 128.
//
// smem_oob: s_atomic_add at mem + a, then s_store_dword at mem + b (a, b
// the third and fourth arguments); one wave. An offset past mem's buffer
// must stop the wave with a bad-address fault that names the access and
// the argument whose buffer it ran past.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl smem_publish
  .p2align 8
  .type smem_publish,@function
smem_publish:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = mem, s[6:7] = out
  v_lshlrev_b32_e32 v1, 2, v0             // 4 * work-item
  v_readfirstlane_b32 s8, v0              // 0 in wave 0, 64 in wave 1
  s_mov_b32 s9, 0x5eed
  v_mov_b32_e32 v3, 0
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc0 .Lsmem_publish_reader
  s_store_dword s9, s[4:5], 0x0           // wave 0: mem[0] = 0x5eed
  s_dcache_wb
  s_waitcnt lgkmcnt(0)
  s_barrier
  s_endpgm
.Lsmem_publish_reader:
  s_barrier
  global_load_dword v2, v3, s[4:5]       // wave 1: every lane reads mem[0]
  s_waitcnt vmcnt(0)
  global_store_dword v1, v2, s[6:7]
  s_endpgm
.Lsmem_publish_end:
  .size smem_publish, .Lsmem_publish_end-smem_publish

  .globl smem_race
  .p2align 8
  .type smem_race,@function
smem_race:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = mem, s[6:7] = out
  v_lshlrev_b32_e32 v1, 2, v0             // 4 * work-item
  v_readfirstlane_b32 s8, v0              // 0 in wave 0, 64 in wave 1
  s_mov_b32 s9, 0x5eed
  v_mov_b32_e32 v3, 0
  s_waitcnt lgkmcnt(0)
  s_cmp_eq_u32 s8, 0
  s_cbranch_scc0 .Lsmem_race_reader
  s_store_dword s9, s[4:5], 0x0           // wave 0: mem[0] = 0x5eed
  s_dcache_wb
  s_waitcnt lgkmcnt(0)
  s_endpgm
.Lsmem_race_reader:
  global_load_dword v2, v3, s[4:5]       // wave 1: every lane reads mem[0]
  s_waitcnt vmcnt(0)
  global_store_dword v1, v2, s[6:7]
  s_endpgm
.Lsmem_race_end:
  .size smem_race, .Lsmem_race_end-smem_race

  .globl smem_oob
  .p2align 8
  .type smem_oob,@function
smem_oob:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = mem, s[6:7] = out
  s_load_dwordx2 s[10:11], s[0:1], 0x10   // s10 = atomic offset, s11 = store offset
  s_mov_b32 s9, 1
  s_waitcnt lgkmcnt(0)
  s_atomic_add s9, s[4:5], s10
  s_store_dword s9, s[4:5], s11
  s_waitcnt lgkmcnt(0)
  s_endpgm
.Lsmem_oob_end:
  .size smem_oob, .Lsmem_oob_end-smem_oob

  .rodata
  .p2align 6
  .amdhsa_kernel smem_publish
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 16
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 4
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 4
  .end_amdhsa_kernel
  .p2align 6
  .amdhsa_kernel smem_race
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 16
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 4
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 4
  .end_amdhsa_kernel
  .p2align 6
  .amdhsa_kernel smem_oob
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 24
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 4
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 4
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
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 128
    .name:           smem_publish
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         smem_publish.kd
    .vgpr_count:     4
    .vgpr_spill_count: 0
    .wavefront_size: 64
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
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 128
    .name:           smem_race
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         smem_race.kd
    .vgpr_count:     4
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .name:           mem
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
      - .offset:         16
        .size:           4
        .value_kind:     by_value
      - .offset:         20
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .max_flat_workgroup_size: 64
    .name:           smem_oob
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         smem_oob.kd
    .vgpr_count:     4
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
