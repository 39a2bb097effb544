//===- lds_dma_x34_gfx950.s - gfx950's dwordx3/x4 LDS DMA ----------------===//
//
// gfx950's 12- and 16-byte LDS DMA loads put lane l's data at
// M0 + offset + 16 * l (LLVM's notes on llvm.amdgcn.load.to.lds: lanes are
// 16 bytes apart for loads over a dword), so a dwordx3 load leaves every
// fourth dword alone. LDS is prefilled with 0xdead0000 + dword index.
//
//   rows 0-3:  global_load_lds_dwordx4 v1 (16l), s[4:5]; M0 = 0
//              -> LDS[16l + 4j] = src[4l + j]
//   rows 4-7:  global_load_lds_dwordx3 v[2:3] (src + 16l), off offset:16,
//              M0 = 1008 -> LDS 1024 + 16l + 4j = src[4l + 4 + j], j < 3
//   rows 8-11: buffer_load_dwordx3 v1, s[8:11] offen lds (raw buffer over
//              src, num_records 520 bytes), M0 = 2048 -> LDS 2048 + 16l + 4j
//              = src[4l + j] for j < 3 where 16l + 4j + 4 <= 520, else 0
//              (lane 32 loads two dwords, lanes 33.. none)
//   rows 12-15: untouched (no DMA writes past its lanes)
//
// Arguments: src (u32[260]), out (u32[16 * 64]); one wave. Rows are read
// back as LDS dwords 256 * k + lane-major (out[i] = LDS dword i).
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl lds_dma_x34
  .p2align 8
  .type lds_dma_x34,@function
lds_dma_x34:
  s_load_dwordx4 s[4:7], s[0:1], 0x0     // s[4:5] = src, s[6:7] = out
  v_lshlrev_b32_e32 v1, 4, v0             // 16 * lane
  v_lshlrev_b32_e32 v20, 2, v0            // 4 * lane
  v_mov_b32_e32 v9, 0
  // Prefill LDS dword i (i = 64k + lane) with 0xdead0000 + i.
  v_or_b32_e32 v21, 0xdead0000, v0
  ds_write_b32 v20, v21
  v_add_u32_e32 v21, 64, v21
  ds_write_b32 v20, v21 offset:256
  v_add_u32_e32 v21, 64, v21
  ds_write_b32 v20, v21 offset:512
  v_add_u32_e32 v21, 64, v21
  ds_write_b32 v20, v21 offset:768
  v_add_u32_e32 v21, 64, v21
  ds_write_b32 v20, v21 offset:1024
  v_add_u32_e32 v21, 64, v21
  ds_write_b32 v20, v21 offset:1280
  v_add_u32_e32 v21, 64, v21
  ds_write_b32 v20, v21 offset:1536
  v_add_u32_e32 v21, 64, v21
  ds_write_b32 v20, v21 offset:1792
  v_add_u32_e32 v21, 64, v21
  ds_write_b32 v20, v21 offset:2048
  v_add_u32_e32 v21, 64, v21
  ds_write_b32 v20, v21 offset:2304
  v_add_u32_e32 v21, 64, v21
  ds_write_b32 v20, v21 offset:2560
  v_add_u32_e32 v21, 64, v21
  ds_write_b32 v20, v21 offset:2816
  v_add_u32_e32 v21, 64, v21
  ds_write_b32 v20, v21 offset:3072
  v_add_u32_e32 v21, 64, v21
  ds_write_b32 v20, v21 offset:3328
  v_add_u32_e32 v21, 64, v21
  ds_write_b32 v20, v21 offset:3584
  v_add_u32_e32 v21, 64, v21
  ds_write_b32 v20, v21 offset:3840
  s_waitcnt lgkmcnt(0)
  v_mov_b32_e32 v3, s5
  v_add_co_u32_e32 v2, vcc, s4, v1
  v_addc_co_u32_e32 v3, vcc, 0, v3, vcc   // v[2:3] = src + 16 * lane
  s_mov_b32 m0, 0
  global_load_lds_dwordx4 v1, s[4:5]
  s_movk_i32 m0, 0x3f0
  global_load_lds_dwordx3 v[2:3], off offset:16
  s_mov_b32 s8, s4
  s_and_b32 s9, s5, 0xffff
  s_movk_i32 s10, 0x208                   // num_records: 520 bytes
  s_mov_b32 s11, 0x20000
  s_movk_i32 m0, 0x800
  buffer_load_dwordx3 v1, s[8:11], 0 offen lds
  s_waitcnt vmcnt(0)
  ds_read_b32 v10, v20
  ds_read_b32 v11, v20 offset:256
  ds_read_b32 v12, v20 offset:512
  ds_read_b32 v13, v20 offset:768
  ds_read_b32 v14, v20 offset:1024
  ds_read_b32 v15, v20 offset:1280
  ds_read_b32 v16, v20 offset:1536
  ds_read_b32 v17, v20 offset:1792
  s_waitcnt lgkmcnt(0)
  global_store_dword v20, v10, s[6:7]
  global_store_dword v20, v11, s[6:7] offset:256
  global_store_dword v20, v12, s[6:7] offset:512
  global_store_dword v20, v13, s[6:7] offset:768
  global_store_dword v20, v14, s[6:7] offset:1024
  global_store_dword v20, v15, s[6:7] offset:1280
  global_store_dword v20, v16, s[6:7] offset:1536
  global_store_dword v20, v17, s[6:7] offset:1792
  ds_read_b32 v10, v20 offset:2048
  ds_read_b32 v11, v20 offset:2304
  ds_read_b32 v12, v20 offset:2560
  ds_read_b32 v13, v20 offset:2816
  ds_read_b32 v14, v20 offset:3072
  ds_read_b32 v15, v20 offset:3328
  ds_read_b32 v16, v20 offset:3584
  ds_read_b32 v17, v20 offset:3840
  s_add_u32 s6, s6, 0x800
  s_addc_u32 s7, s7, 0
  s_waitcnt lgkmcnt(0)
  global_store_dword v20, v10, s[6:7]
  global_store_dword v20, v11, s[6:7] offset:256
  global_store_dword v20, v12, s[6:7] offset:512
  global_store_dword v20, v13, s[6:7] offset:768
  global_store_dword v20, v14, s[6:7] offset:1024
  global_store_dword v20, v15, s[6:7] offset:1280
  global_store_dword v20, v16, s[6:7] offset:1536
  global_store_dword v20, v17, s[6:7] offset:1792
  s_endpgm
.Lfunc_end0:
  .size lds_dma_x34, .Lfunc_end0-lds_dma_x34

  .rodata
  .p2align 6
  .amdhsa_kernel lds_dma_x34
    .amdhsa_group_segment_fixed_size 4096
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_enable_private_segment 0
    .amdhsa_kernarg_size 16
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 24
    .amdhsa_next_free_sgpr 24
    .amdhsa_accum_offset 24
  .end_amdhsa_kernel

  .amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - { .address_space: global, .offset: 0, .size: 8, .value_kind: global_buffer }
      - { .address_space: global, .offset: 8, .size: 8, .value_kind: global_buffer }
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 16
    .max_flat_workgroup_size: 64
    .name:           lds_dma_x34
    .private_segment_fixed_size: 0
    .sgpr_count:     30
    .sgpr_spill_count: 0
    .symbol:         lds_dma_x34.kd
    .vgpr_count:     24
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
