//===- ds_read_tr46_gfx950.s - ds_read_b64_tr_b4, ds_read_b96_tr_b6 (gfx950) ===//
//
// The transposing LDS reads of 4- and 6-bit elements. Each lane first writes
// 16 bytes of src[] to LDS (LDS u8[16 * l .. 16 * l + 15]); after a wait,
// lane l reads with ds_read_b64_tr_b4 and with ds_read_b96_tr_b6 at its own
// address addr[l] (a 16-byte slot chosen by the host; the b96 form needs
// 16-byte alignment). Each read holds 16 elements (element i at bits
// [b*i + b - 1, b*i]); within each block of 16 lanes the 16 x 16 tile of
// elements is transposed: lane c receives element c of lane r's read as its
// element r (AsmTests.cpp, Asm.DsReadTransposeB4B6).
//
// Arguments: src (u8[1024]), addr (u32[64]), out (u32[2 * 64] for tr_b4,
// then u32[4 * 64] for tr_b6, three dwords used); one wave.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl ds_read_tr46
  .p2align 8
  .type ds_read_tr46,@function
ds_read_tr46:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = src, s[6:7] = addr
  s_load_dwordx2 s[8:9], s[0:1], 0x10     // s[8:9] = out
  v_lshlrev_b32_e32 v1, 4, v0             // 16 * lane
  v_lshlrev_b32_e32 v6, 2, v0             // 4 * lane
  v_lshlrev_b32_e32 v8, 3, v0             // 8 * lane
  s_waitcnt lgkmcnt(0)
  global_load_dwordx4 v[12:15], v1, s[4:5]
  global_load_dword v7, v6, s[6:7]
  s_waitcnt vmcnt(0)
  ds_write_b128 v1, v[12:15]
  s_waitcnt lgkmcnt(0)
  ds_read_b64_tr_b4 v[2:3], v7
  ds_read_b96_tr_b6 v[16:18], v7
  s_waitcnt lgkmcnt(0)
  global_store_dwordx2 v8, v[2:3], s[8:9]
  global_store_dwordx3 v1, v[16:18], s[8:9] offset:512
  s_endpgm
.Lfunc_end0:
  .size ds_read_tr46, .Lfunc_end0-ds_read_tr46

  .rodata
  .p2align 6
  .amdhsa_kernel ds_read_tr46
    .amdhsa_group_segment_fixed_size 1024
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 24
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 20
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 20
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
    .group_segment_fixed_size: 1024
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .max_flat_workgroup_size: 64
    .name:           ds_read_tr46
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         ds_read_tr46.kd
    .vgpr_count:     20
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
