//===- lds_dma.s - global_load_lds_dword and scratch_load_lds_dword ------===//
//
// LDS DMA from global and private memory (gfx942, gfx950): the loaded dword
// goes to LDS at M0 + offset + 4 * lane, the instruction's offset added to
// both the memory and the LDS address. LDS is read back after
// s_waitcnt vmcnt(0) with plain ds_read_b32 at 4 * lane + row * 256:
//
//   row 0: global_load_lds_dword v[2:3] (src + 4 * (63 - l)), off; M0 = 0
//          -> src[63 - l]
//   row 1: global_load_lds_dword v1 (4l), s[4:5] offset:256; M0 = 0
//          -> LDS 256 + 4l = src[64 + l]
//   row 2: global_load_lds_dword v1, s[4:5] offset:512 with M0 = 256 -> LDS
//          768 + 4l; read back as row 3 (LDS 512.. stays 0): src[128 + l]
//   private memory: scratch_store_dwordx2 at offset 0 of (src[l], ~src[l])
//   row 4: scratch_load_lds_dword v(0), off offset:4; M0 = 1020 -> LDS
//          1024 + 4l = ~src[l]
//   row 5: scratch_load_lds_dword off, s12 (= 4), M0 = 1280 -> ~src[l]
//   row 6: scratch_load_lds_dword off, off (ST form); M0 = 1536 -> src[l]
//   row 7: scratch_load_lds_dword v(4), s13 (= -4) (SVS form); M0 = 1792
//          -> src[l]
//
// Arguments: src (u32[192]), out (u32[8 * 64]); one wave.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl lds_dma
  .p2align 8
  .type lds_dma,@function
lds_dma:
  s_load_dwordx4 s[4:7], s[0:1], 0x0     // s[4:5] = src, s[6:7] = out
  v_lshlrev_b32_e32 v1, 2, v0             // 4 * lane
  v_sub_u32_e32 v2, 63, v0
  v_lshlrev_b32_e32 v2, 2, v2             // 4 * (63 - lane)
  v_mov_b32_e32 v9, 0
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v3, s5
  v_add_co_u32_e32 v2, vcc, s4, v2
  v_addc_co_u32_e32 v3, vcc, 0, v3, vcc   // v[2:3] = src + 4 * (63 - lane)
  // LDS is zero at launch; the emulator's LDS is zeroed, and row 2 checks
  // that nothing was written where M0 is not added.
  s_mov_b32 m0, 0
  global_load_lds_dword v[2:3], off
  global_load_lds_dword v1, s[4:5] offset:256
  s_movk_i32 m0, 0x100
  global_load_lds_dword v1, s[4:5] offset:512
  global_load_dword v4, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_not_b32_e32 v5, v4
  v_mov_b32_e32 v6, v4
  v_mov_b32_e32 v7, v5
  scratch_store_dwordx2 v9, v[6:7], off
  s_waitcnt vmcnt(0)
  s_movk_i32 m0, 0x3fc
  scratch_load_lds_dword v9, off offset:4
  s_mov_b32 s12, 4
  s_movk_i32 m0, 0x500
  scratch_load_lds_dword off, s12
  s_movk_i32 m0, 0x600
  scratch_load_lds_dword off, off
  v_mov_b32_e32 v10, 4
  s_mov_b32 s13, -4
  s_movk_i32 m0, 0x700
  scratch_load_lds_dword v10, s13
  s_waitcnt vmcnt(0)
  ds_read_b32 v11, v1
  ds_read_b32 v12, v1 offset:256
  ds_read_b32 v13, v1 offset:512
  ds_read_b32 v14, v1 offset:768
  ds_read_b32 v15, v1 offset:1024
  ds_read_b32 v16, v1 offset:1280
  ds_read_b32 v17, v1 offset:1536
  ds_read_b32 v18, v1 offset:1792
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v11, s[6:7]
  global_store_dword v1, v12, s[6:7] offset:256
  global_store_dword v1, v13, s[6:7] offset:512
  global_store_dword v1, v14, s[6:7] offset:768
  global_store_dword v1, v15, s[6:7] offset:1024
  global_store_dword v1, v16, s[6:7] offset:1280
  global_store_dword v1, v17, s[6:7] offset:1536
  global_store_dword v1, v18, s[6:7] offset:1792
  s_endpgm
.Lfunc_end0:
  .size lds_dma, .Lfunc_end0-lds_dma

  .rodata
  .p2align 6
  .amdhsa_kernel lds_dma
    .amdhsa_group_segment_fixed_size 2048
    .amdhsa_private_segment_fixed_size 16
    .amdhsa_enable_private_segment 1
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
    .group_segment_fixed_size: 2048
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           lds_dma
    .private_segment_fixed_size: 16
    .sgpr_count:     30
    .sgpr_spill_count: 0
    .symbol:         lds_dma.kd
    .vgpr_count:     20
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
