//===- check_lds_dma.s - LDS DMA across waves in check mode (gfx942, gfx950) ===//
//
// An LDS DMA (buffer_load ... lds) writes LDS some time before the s_waitcnt
// vmcnt that retires it. Another wave's access to those bytes is ordered
// after the write only by a barrier its wave reached after that wait
// (dma_race must be reported, dma_waited_ok not); and a DMA still in flight
// across a barrier does not keep the issuing wave's other, completed LDS
// accesses from being ordered by it (dma_in_flight_ok, the pattern of AMD's
// hand-written bf16 GEMM, which check mode used to report as ~200 races).
//
// Arguments: in (u32[64]), out (u32[64]); two waves (block 128).
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text

  .globl dma_race
  .p2align 8
  .type dma_race,@function
dma_race:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = in, s[6:7] = out
  v_and_b32_e32 v4, 63, v0                // lane
  v_lshlrev_b32_e32 v1, 2, v4             // lane * 4: LDS and global offset
  v_lshrrev_b32_e32 v3, 6, v0
  v_readfirstlane_b32 s12, v3             // wave index in the workgroup
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4                        // V# of in: 256 bytes
  s_and_b32 s9, s5, 0xffff
  s_movk_i32 s10, 0x100
  s_mov_b32 s11, 0x20000
  s_cmp_eq_u32 s12, 0
  s_cbranch_scc0 .Ldma_race_wave1
  // BUG: the barrier does not wait for the DMA (vmcnt), so wave 1's read
  // after it is not ordered after the DMA's write, whenever that lands.
  s_mov_b32 m0, 0
  buffer_load_dword v1, s[8:11], 0 offen lds
  s_barrier
  s_waitcnt vmcnt(0)
  s_endpgm
.Ldma_race_wave1:
  s_barrier
  ds_read_b32 v2, v1
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v2, s[6:7]
  s_endpgm
.Lend_dma_race:
  .size dma_race, .Lend_dma_race-dma_race

  .globl dma_waited_ok
  .p2align 8
  .type dma_waited_ok,@function
dma_waited_ok:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = in, s[6:7] = out
  v_and_b32_e32 v4, 63, v0                // lane
  v_lshlrev_b32_e32 v1, 2, v4             // lane * 4: LDS and global offset
  v_lshrrev_b32_e32 v3, 6, v0
  v_readfirstlane_b32 s12, v3             // wave index in the workgroup
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4                        // V# of in: 256 bytes
  s_and_b32 s9, s5, 0xffff
  s_movk_i32 s10, 0x100
  s_mov_b32 s11, 0x20000
  s_cmp_eq_u32 s12, 0
  s_cbranch_scc0 .Ldma_waited_ok_wave1
  // The DMA is waited for before the barrier: wave 1 reads what landed.
  s_mov_b32 m0, 0
  buffer_load_dword v1, s[8:11], 0 offen lds
  s_waitcnt vmcnt(0)
  s_barrier
  s_endpgm
.Ldma_waited_ok_wave1:
  s_barrier
  ds_read_b32 v2, v1
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v2, s[6:7]
  s_endpgm
.Lend_dma_waited_ok:
  .size dma_waited_ok, .Lend_dma_waited_ok-dma_waited_ok

  .globl dma_in_flight_ok
  .p2align 8
  .type dma_in_flight_ok,@function
dma_in_flight_ok:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = in, s[6:7] = out
  v_and_b32_e32 v4, 63, v0                // lane
  v_lshlrev_b32_e32 v1, 2, v4             // lane * 4: LDS and global offset
  v_lshrrev_b32_e32 v3, 6, v0
  v_readfirstlane_b32 s12, v3             // wave index in the workgroup
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4                        // V# of in: 256 bytes
  s_and_b32 s9, s5, 0xffff
  s_movk_i32 s10, 0x100
  s_mov_b32 s11, 0x20000
  s_cmp_eq_u32 s12, 0
  s_cbranch_scc0 .Ldma_in_flight_ok_wave1
  // Ping at LDS 0, pong at 256. The next tile's DMA (into pong) stays in
  // flight across the second barrier, as AMD's hand-written GEMMs keep it
  // (vmcnt(N) before s_barrier); the read of ping before it completed
  // (lgkmcnt(0)), so wave 1's DMA into ping after the barrier is ordered.
  s_mov_b32 m0, 0
  buffer_load_dword v1, s[8:11], 0 offen lds
  s_waitcnt vmcnt(0)
  s_barrier
  s_movk_i32 m0, 0x100
  buffer_load_dword v1, s[8:11], 0 offen lds
  ds_read_b32 v2, v1
  s_waitcnt lgkmcnt(0)
  s_barrier
  global_store_dword v1, v2, s[6:7]
  s_waitcnt vmcnt(0)
  s_endpgm
.Ldma_in_flight_ok_wave1:
  s_barrier
  s_barrier
  s_mov_b32 m0, 0
  buffer_load_dword v1, s[8:11], 0 offen lds
  s_waitcnt vmcnt(0)
  s_endpgm
.Lend_dma_in_flight_ok:
  .size dma_in_flight_ok, .Lend_dma_in_flight_ok-dma_in_flight_ok

  .rodata
  .p2align 6
  .amdhsa_kernel dma_race
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
  .p2align 6
  .amdhsa_kernel dma_waited_ok
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
  .p2align 6
  .amdhsa_kernel dma_in_flight_ok
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
    .max_flat_workgroup_size: 128
    .name:           dma_race
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         dma_race.kd
    .vgpr_count:     8
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
    .group_segment_fixed_size: 512
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 128
    .name:           dma_waited_ok
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         dma_waited_ok.kd
    .vgpr_count:     8
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
    .group_segment_fixed_size: 512
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 128
    .name:           dma_in_flight_ok
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         dma_in_flight_ok.kd
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
