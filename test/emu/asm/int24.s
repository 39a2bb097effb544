//===- int24.s - 24-bit integer multiplies (gfx942, gfx950) ---------------===//
//
// v_mul_i32_i24, v_mul_hi_i32_i24, v_mad_i32_i24, v_mul_u32_u24,
// v_mul_hi_u32_u24 and v_mad_u32_u24 on per-lane inputs whose bits 23 (the
// 24-bit sign) and 24..31 (ignored) are random, plus v_mul_i32_i24 with a
// negative literal (LLVM emits 0xffffffa0 for -96 when it knows the other
// operand fits 24 bits).
//
// Arguments: a (u32[64]), b (u32[64]), c (u32[64]), out (u32[7 * 64]); one
// wave. out[k * 64 + l] = the k-th result for lane l, in the order above,
// then the literal form.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl int24
  .p2align 8
  .type int24,@function
int24:
  s_load_dwordx8 s[4:11], s[0:1], 0x0     // a, b, c, out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword v2, v0, s[6:7]
  global_load_dword v3, v0, s[8:9]
  s_waitcnt vmcnt(0)
  v_mul_i32_i24_e32 v4, v1, v2
  v_mul_hi_i32_i24_e32 v5, v1, v2
  v_mad_i32_i24 v6, v1, v2, v3
  v_mul_u32_u24_e32 v7, v1, v2
  v_mul_hi_u32_u24_e32 v8, v1, v2
  v_mad_u32_u24 v9, v1, v2, v3
  v_mul_i32_i24_e32 v10, 0xffffffa0, v1
  global_store_dword v0, v4, s[10:11]
  global_store_dword v0, v5, s[10:11] offset:256
  global_store_dword v0, v6, s[10:11] offset:512
  global_store_dword v0, v7, s[10:11] offset:768
  global_store_dword v0, v8, s[10:11] offset:1024
  global_store_dword v0, v9, s[10:11] offset:1280
  global_store_dword v0, v10, s[10:11] offset:1536
  s_endpgm
.Lfunc_end0:
  .size int24, .Lfunc_end0-int24

  .rodata
  .p2align 6
  .amdhsa_kernel int24
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 32
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 16
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 16
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
      - .address_space:  global
        .offset:         24
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 32
    .max_flat_workgroup_size: 64
    .name:           int24
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         int24.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
