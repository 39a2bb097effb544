//===- ds_atomics2.s - DS compare-store, wrap, packed add, exchange2 -------===//
//
// The DS atomics beyond the integer read-modify-writes, each applied once
// per lane to a region of LDS prefilled from the inputs, with the returned
// old value and the memory afterwards both stored (gfx942, gfx950):
//
//   ds_cmpst_rtn_f32 / ds_cmpst_f32   mem a32, cmp b32, new c32
//   ds_wrap_rtn_b32                   mem a32, data0 b32, data1 c32
//   ds_pk_add_rtn_f16 / _bf16         mem c32, data lo32(c64) (and no-rtn forms)
//   ds_wrxchg2_rtn_b32 offset0:0 offset1:64 (x4 bytes), ds_wrxchg2st64_rtn_b32
//     offset0:1 offset1:2 (x256 bytes): mem (a32, b32), data (c32, a32)
//   ds_cmpst_rtn_f64 / ds_cmpst_f64   mem a64, cmp b64, new c64
//   ds_wrxchg2_rtn_b64 offset0:0 offset1:64 (x8), ds_wrxchg2st64_rtn_b64
//     offset0:1 offset1:2 (x512): mem (a64, b64), data (c64, a64)
//
// Arguments: a32, b32, c32 (u32[64]), a64, b64, c64 (u64[64]), out: 19 rows
// of 64 u32, then 11 rows of 64 u64, in the order of the stores below.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl ds_atomics2
  .p2align 8
  .type ds_atomics2,@function

.macro st32 vreg
  global_store_dword v1, \vreg, s[14:15]
  s_add_u32 s14, s14, 0x100
  s_addc_u32 s15, s15, 0
.endm
.macro st64 vreg
  global_store_dwordx2 v2, \vreg, s[14:15]
  s_add_u32 s14, s14, 0x200
  s_addc_u32 s15, s15, 0
.endm

ds_atomics2:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a32, b32, c32, a64
  s_load_dwordx4 s[12:15], s[0:1], 0x20   // b64, c64 ... out at 0x30
  s_load_dwordx2 s[16:17], s[0:1], 0x30
  v_lshlrev_b32_e32 v1, 2, v0             // 4 * lane
  v_lshlrev_b32_e32 v2, 3, v0             // 8 * lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v3, v1, s[4:5]
  global_load_dword v4, v1, s[6:7]
  global_load_dword v5, v1, s[8:9]
  global_load_dwordx2 v[6:7], v2, s[10:11]
  global_load_dwordx2 v[8:9], v2, s[12:13]
  global_load_dwordx2 v[10:11], v2, s[14:15]
  s_mov_b64 s[14:15], s[16:17]            // out
  s_waitcnt vmcnt(0)
  // Prefill.
  ds_write_b32 v1, v3                     // R0 cmpst_rtn_f32
  ds_write_b32 v1, v3 offset:256          // R1 cmpst_f32
  ds_write_b32 v1, v3 offset:512          // R2 wrap
  ds_write_b32 v1, v5 offset:768          // R3 pk_add_rtn_f16
  ds_write_b32 v1, v5 offset:1024         // R4 pk_add_rtn_bf16
  ds_write_b32 v1, v5 offset:1280         // R5 pk_add_f16
  ds_write_b32 v1, v5 offset:1536         // R6 pk_add_bf16
  ds_write_b64 v2, v[6:7] offset:2048     // R7 cmpst_rtn_f64
  ds_write_b64 v2, v[6:7] offset:2560     // R8 cmpst_f64
  ds_write_b32 v1, v3 offset:3072         // wrxchg2_b32 first
  ds_write_b32 v1, v4 offset:3328         //   second
  ds_write_b32 v1, v3 offset:3840         // wrxchg2st64_b32 first
  ds_write_b32 v1, v4 offset:4096         //   second
  ds_write_b64 v2, v[6:7] offset:4352     // wrxchg2_b64 first
  ds_write_b64 v2, v[8:9] offset:4864     //   second
  ds_write_b64 v2, v[6:7] offset:5888     // wrxchg2st64_b64 first
  ds_write_b64 v2, v[8:9] offset:6400     //   second
  v_add_u32_e32 v20, 0xc00, v1            // 4l + 3072
  v_add_u32_e32 v21, 0xe00, v1            // 4l + 3584
  v_add_u32_e32 v22, 0x1100, v2           // 8l + 4352
  v_add_u32_e32 v23, 0x1500, v2           // 8l + 5376
  s_waitcnt lgkmcnt(0)
  ds_cmpst_rtn_f32 v12, v1, v4, v5
  ds_cmpst_f32 v1, v4, v5 offset:256
  ds_wrap_rtn_b32 v13, v1, v4, v5 offset:512
  ds_pk_add_rtn_f16 v14, v1, v10 offset:768
  ds_pk_add_rtn_bf16 v15, v1, v10 offset:1024
  ds_pk_add_f16 v1, v10 offset:1280
  ds_pk_add_bf16 v1, v10 offset:1536
  ds_cmpst_rtn_f64 v[24:25], v2, v[8:9], v[10:11] offset:2048
  ds_cmpst_f64 v2, v[8:9], v[10:11] offset:2560
  ds_wrxchg2_rtn_b32 v[16:17], v20, v5, v3 offset1:64
  ds_wrxchg2st64_rtn_b32 v[18:19], v21, v5, v3 offset0:1 offset1:2
  ds_wrxchg2_rtn_b64 v[26:29], v22, v[10:11], v[6:7] offset1:64
  ds_wrxchg2st64_rtn_b64 v[30:33], v23, v[10:11], v[6:7] offset0:1 offset1:2
  s_waitcnt lgkmcnt(0)
  st32 v12
  ds_read_b32 v34, v1
  s_waitcnt lgkmcnt(0)
  st32 v34
  ds_read_b32 v34, v1 offset:256
  s_waitcnt lgkmcnt(0)
  st32 v34
  st32 v13
  ds_read_b32 v34, v1 offset:512
  s_waitcnt lgkmcnt(0)
  st32 v34
  st32 v14
  ds_read_b32 v34, v1 offset:768
  s_waitcnt lgkmcnt(0)
  st32 v34
  st32 v15
  ds_read_b32 v34, v1 offset:1024
  s_waitcnt lgkmcnt(0)
  st32 v34
  ds_read_b32 v34, v1 offset:1280
  s_waitcnt lgkmcnt(0)
  st32 v34
  ds_read_b32 v34, v1 offset:1536
  s_waitcnt lgkmcnt(0)
  st32 v34
  st32 v16
  st32 v17
  ds_read_b32 v34, v1 offset:3072
  ds_read_b32 v35, v1 offset:3328
  s_waitcnt lgkmcnt(0)
  st32 v34
  st32 v35
  st32 v18
  st32 v19
  ds_read_b32 v34, v1 offset:3840
  ds_read_b32 v35, v1 offset:4096
  s_waitcnt lgkmcnt(0)
  st32 v34
  st32 v35
  st64 v[24:25]
  ds_read_b64 v[34:35], v2 offset:2048
  ds_read_b64 v[36:37], v2 offset:2560
  s_waitcnt lgkmcnt(0)
  st64 v[34:35]
  st64 v[36:37]
  st64 v[26:27]
  st64 v[28:29]
  ds_read_b64 v[34:35], v2 offset:4352
  ds_read_b64 v[36:37], v2 offset:4864
  s_waitcnt lgkmcnt(0)
  st64 v[34:35]
  st64 v[36:37]
  st64 v[30:31]
  st64 v[32:33]
  ds_read_b64 v[34:35], v2 offset:5888
  ds_read_b64 v[36:37], v2 offset:6400
  s_waitcnt lgkmcnt(0)
  st64 v[34:35]
  st64 v[36:37]
  s_endpgm
.Lfunc_end0:
  .size ds_atomics2, .Lfunc_end0-ds_atomics2

  .rodata
  .p2align 6
  .amdhsa_kernel ds_atomics2
    .amdhsa_group_segment_fixed_size 8192
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 56
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 40
    .amdhsa_next_free_sgpr 24
    .amdhsa_accum_offset 40
  .end_amdhsa_kernel

  .amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - { .address_space: global, .offset: 0, .size: 8, .value_kind: global_buffer }
      - { .address_space: global, .offset: 8, .size: 8, .value_kind: global_buffer }
      - { .address_space: global, .offset: 16, .size: 8, .value_kind: global_buffer }
      - { .address_space: global, .offset: 24, .size: 8, .value_kind: global_buffer }
      - { .address_space: global, .offset: 32, .size: 8, .value_kind: global_buffer }
      - { .address_space: global, .offset: 40, .size: 8, .value_kind: global_buffer }
      - { .address_space: global, .offset: 48, .size: 8, .value_kind: global_buffer }
    .group_segment_fixed_size: 8192
    .kernarg_segment_align: 8
    .kernarg_segment_size: 56
    .max_flat_workgroup_size: 64
    .name:           ds_atomics2
    .private_segment_fixed_size: 0
    .sgpr_count:     30
    .sgpr_spill_count: 0
    .symbol:         ds_atomics2.kd
    .vgpr_count:     40
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
