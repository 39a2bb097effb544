//===- fp16_ovfl.s - MODE.FP16_OVFL, which the emulator does not model ----===//
//
// With MODE.FP16_OVFL set, conversions to f16 and to FP8/BF8 saturate
// instead of overflowing to infinity or NaN. The emulator models only the
// clear bit, so both ways of setting it must stop the run with an error
// naming it, never convert as if it were clear: the kernel descriptor's bit
// (fp16_ovfl_descriptor) and s_setreg of the MODE bit (fp16_ovfl_setreg).
// Each then converts 480 (beyond e4m3's largest value) with
// v_cvt_pk_fp8_f32.
//
// Arguments: out (u32[64]); one wave.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl fp16_ovfl_descriptor
  .p2align 8
  .type fp16_ovfl_descriptor,@function
fp16_ovfl_descriptor:
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0

  v_mov_b32_e32 v2, 0x43f00000              // 480: beyond e4m3's largest value
  v_cvt_pk_fp8_f32 v6, v2, v2
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v6, s[4:5]
  s_endpgm
.Lfp16_ovfl_descriptor_end:
  .size fp16_ovfl_descriptor, .Lfp16_ovfl_descriptor_end-fp16_ovfl_descriptor

  .rodata
  .p2align 6
  .amdhsa_kernel fp16_ovfl_descriptor
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 8
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 16
    .amdhsa_next_free_sgpr 8
    .amdhsa_accum_offset 16
    .amdhsa_fp16_overflow 1
  .end_amdhsa_kernel
  .text
  .globl fp16_ovfl_setreg
  .p2align 8
  .type fp16_ovfl_setreg,@function
fp16_ovfl_setreg:
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32_e32 v1, 2, v0
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1), 1
  v_mov_b32_e32 v2, 0x43f00000              // 480: beyond e4m3's largest value
  v_cvt_pk_fp8_f32 v6, v2, v2
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v6, s[4:5]
  s_endpgm
.Lfp16_ovfl_setreg_end:
  .size fp16_ovfl_setreg, .Lfp16_ovfl_setreg_end-fp16_ovfl_setreg

  .rodata
  .p2align 6
  .amdhsa_kernel fp16_ovfl_setreg
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 8
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 16
    .amdhsa_next_free_sgpr 8
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
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           fp16_ovfl_descriptor
    .private_segment_fixed_size: 0
    .sgpr_count:     14
    .sgpr_spill_count: 0
    .symbol:         fp16_ovfl_descriptor.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           fp16_ovfl_setreg
    .private_segment_fixed_size: 0
    .sgpr_count:     14
    .sgpr_spill_count: 0
    .symbol:         fp16_ovfl_setreg.kd
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
