//===- accvgpr.s - AGPR moves and AGPR loads/stores (gfx942, gfx950) ------===//
//
// v_accvgpr_write_b32 (from a VGPR and from an inline constant),
// v_accvgpr_mov_b32, v_accvgpr_read_b32, and global_load/store_dword with an
// AGPR as data. After a0 is written, v1 is overwritten: reading a0 back must
// still give the input, so AGPRs are a file of their own.
//
// Arguments: in (u32[64]), out (u32[4 * 64]); one wave.
// out[l] = in[l], out[64 + l] = 7, out[128 + l] = in[l] (loaded straight into
// a3), out[192 + l] = in[l] + 1 (stored straight from a4).
// v_nop (a VALU wait state hand-written kernels such as aiter's pad hazards
// with) sits between the AGPR moves and must change nothing.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl accvgpr
  .p2align 8
  .type accvgpr,@function
accvgpr:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = in, s[6:7] = out
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  global_load_dword a3, v0, s[4:5]
  s_waitcnt vmcnt(0)
  v_accvgpr_write_b32 a0, v1
  v_mov_b32_e32 v1, 0xdead
  v_accvgpr_write_b32 a2, 7
  v_accvgpr_mov_b32 a1, a0
  v_nop
  v_nop
  v_accvgpr_read_b32 v2, a1
  v_accvgpr_read_b32 v3, a2
  v_accvgpr_read_b32 v4, a0
  v_add_u32_e32 v4, 1, v4
  v_accvgpr_write_b32 a4, v4
  global_store_dword v0, v2, s[6:7]
  global_store_dword v0, v3, s[6:7] offset:256
  global_store_dword v0, a3, s[6:7] offset:512
  global_store_dword v0, a4, s[6:7] offset:768
  s_endpgm
.Lfunc_end0:
  .size accvgpr, .Lfunc_end0-accvgpr

  .rodata
  .p2align 6
  .amdhsa_kernel accvgpr
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 16
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 16
    .amdhsa_next_free_sgpr 8
    .amdhsa_accum_offset 8
  .end_amdhsa_kernel

  .amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     8
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
    .name:           accvgpr
    .private_segment_fixed_size: 0
    .sgpr_count:     14
    .sgpr_spill_count: 0
    .symbol:         accvgpr.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
