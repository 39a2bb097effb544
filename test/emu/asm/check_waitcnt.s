//===- check_waitcnt.s - Counter rules for check mode (gfx942, gfx950) ----===//
//
// Kernels with a missing s_waitcnt (nowait_*), each of which check mode must
// report as an unwaited result at the marked instruction, and kernels that
// rely on the in-order retirement rules of gfx9 (*_ok) and must run clean.
//
// Arguments: in (u32[128]), out (u32[64]); one wave of 64.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text

  .globl nowait_vgpr
  .p2align 8
  .type nowait_vgpr,@function
nowait_vgpr:
  // A global load whose result is used without s_waitcnt vmcnt.
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = in, s[6:7] = out
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  v_add_u32_e32 v3, v2, v2                // BUG: v2 is still in flight
  s_waitcnt vmcnt(0)
  global_store_dword v1, v3, s[6:7]
  s_endpgm
.Lend_nowait_vgpr:
  .size nowait_vgpr, .Lend_nowait_vgpr-nowait_vgpr

  .globl vm_inorder_ok
  .p2align 8
  .type vm_inorder_ok,@function
vm_inorder_ok:
  // vmcnt counts loads in order: vmcnt(1) after two loads proves the first.
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[4:5] offset:256
  s_waitcnt vmcnt(1)
  v_add_u32_e32 v4, v2, v2
  s_waitcnt vmcnt(0)
  v_add_u32_e32 v4, v4, v3
  global_store_dword v1, v4, s[6:7]
  s_endpgm
.Lend_vm_inorder_ok:
  .size vm_inorder_ok, .Lend_vm_inorder_ok-vm_inorder_ok

  .globl nowait_smem_mixed
  .p2align 8
  .type nowait_smem_mixed,@function
nowait_smem_mixed:
  // lgkmcnt(1) after an SMEM load and an LDS read proves neither complete:
  // scalar loads return out of order, so only lgkmcnt(0) covers s8.
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  s_load_dword s8, s[4:5], 0x0
  ds_write_b32 v1, v0
  ds_read_b32 v2, v1
  s_waitcnt lgkmcnt(1)
  v_add_u32_e32 v3, s8, v0                // BUG: s8 may still be in flight
  s_waitcnt lgkmcnt(0)
  v_add_u32_e32 v3, v3, v2
  global_store_dword v1, v3, s[6:7]
  s_endpgm
.Lend_nowait_smem_mixed:
  .size nowait_smem_mixed, .Lend_nowait_smem_mixed-nowait_smem_mixed

  .globl lds_inorder_ok
  .p2align 8
  .type lds_inorder_ok,@function
lds_inorder_ok:
  // LDS ops retire in order: lgkmcnt(1) after two reads proves the first.
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  ds_write_b32 v1, v0
  ds_read_b32 v2, v1
  ds_read_b32 v3, v1
  s_waitcnt lgkmcnt(1)
  v_add_u32_e32 v4, v2, v2
  s_waitcnt lgkmcnt(0)
  v_add_u32_e32 v4, v4, v3
  global_store_dword v1, v4, s[6:7]
  s_endpgm
.Lend_lds_inorder_ok:
  .size lds_inorder_ok, .Lend_lds_inorder_ok-lds_inorder_ok

  .globl nowait_lds_dma
  .p2align 8
  .type nowait_lds_dma,@function
nowait_lds_dma:
  // LDS DMA counts in vmcnt: reading its bytes needs s_waitcnt vmcnt.
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4
  s_and_b32 s9, s5, 0xffff
  s_movk_i32 s10, 0x100
  s_mov_b32 s11, 0x20000
  s_mov_b32 m0, 0
  buffer_load_dword v1, s[8:11], 0 offen lds
  ds_read_b32 v2, v1                      // BUG: the DMA may not have landed
  s_waitcnt vmcnt(0) lgkmcnt(0)
  global_store_dword v1, v2, s[6:7]
  s_endpgm
.Lend_nowait_lds_dma:
  .size nowait_lds_dma, .Lend_nowait_lds_dma-nowait_lds_dma

  .rodata
  .p2align 6
  .amdhsa_kernel nowait_vgpr
    .amdhsa_group_segment_fixed_size 0
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
  .amdhsa_kernel vm_inorder_ok
    .amdhsa_group_segment_fixed_size 0
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
  .amdhsa_kernel nowait_smem_mixed
    .amdhsa_group_segment_fixed_size 256
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
  .amdhsa_kernel lds_inorder_ok
    .amdhsa_group_segment_fixed_size 256
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
  .amdhsa_kernel nowait_lds_dma
    .amdhsa_group_segment_fixed_size 256
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
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           nowait_vgpr
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         nowait_vgpr.kd
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
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           vm_inorder_ok
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         vm_inorder_ok.kd
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
    .group_segment_fixed_size: 256
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           nowait_smem_mixed
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         nowait_smem_mixed.kd
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
    .group_segment_fixed_size: 256
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           lds_inorder_ok
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         lds_inorder_ok.kd
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
    .group_segment_fixed_size: 256
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           nowait_lds_dma
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         nowait_lds_dma.kd
    .vgpr_count:     8
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
