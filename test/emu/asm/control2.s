//===- control2.s - Program control without a debugger (gfx942, gfx950) ---===//
//
// The SOPP/SOPK/SOP1/SOP2 control instructions whose effect is on the
// wave's program counter, EXEC and MODE (AsmTests.cpp, Asm.ProgramControl,
// has the references). One op per 64-lane row of out:
//
//   row 0: s_call_b64: the subroutine's mark (7)
//   row 1: s_call_b64: saved return address - s_getpc_b64 after it (-4)
//   row 2: s_cbranch_i_fork / s_cbranch_join on lanes < 20: 1 or 2
//   row 3: MODE.CSP read inside the forked path (1), + 16 * CSP after the
//          join (0)
//   row 4: s_cbranch_g_fork / s_cbranch_join on lanes < 50: 3 or 4
//   row 5: s_cbranch_cdbg* all fall through without a debugger (1)
//   row 6: s_rfe_b64 and s_rfe_restore_b64 jump to S0: 5 + 16 (nothing
//          skipped over ran)
//   row 7: s_setvskip: the vector instructions between on and off did not
//          run (9) while the scalar ones did (+ 0x100 * 11)
//   row 8: s_sendmsg interrupt, s_dcache_discard(_x2), v_clrexcp, s_setkill
//          0 have no effect on the wave: a mark after them (0x600d)
//
// Arguments: out (u32[9 * 64]); one wave. The branch stack of the forks
// uses s[0:3] (entry CSP = 0), so the kernel argument pointer is moved out.
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl control2
  .p2align 8
  .type control2,@function

.macro ST r
  global_store_dword v0, \r, s[8:9]
  s_add_u32 s8, s8, 0x100
  s_addc_u32 s9, s9, 0
.endm

control2:
  s_load_dwordx2 s[8:9], s[0:1], 0x0      // out
  v_mov_b32_e32 v1, v0                    // lane id
  v_lshlrev_b32_e32 v0, 2, v0             // byte offset of this lane
  s_waitcnt lgkmcnt(0)
  s_mov_b64 s[10:11], exec

  // rows 0, 1: s_call_b64
  s_call_b64 s[36:37], .Lsub
.Lret:
  s_getpc_b64 s[42:43]                    // .Lret + 4
  v_mov_b32_e32 v2, s38
  ST v2
  s_sub_u32 s39, s36, s42
  v_mov_b32_e32 v2, s39
  ST v2

  // rows 2, 3: s_cbranch_i_fork; 20 lanes pass, 44 fail: the passing
  // lanes run first, the failing ones wait on the stack.
  s_getreg_b32 s30, hwreg(HW_REG_MODE, 29, 3)   // saved CSP (0)
  v_mov_b32_e32 v5, 0
  v_cmp_gt_u32_e32 vcc, 20, v1
  s_cbranch_i_fork vcc, .Lipass
  v_mov_b32_e32 v5, 2                     // failing lanes
  s_branch .Lijoin
.Lipass:
  v_mov_b32_e32 v5, 1                     // passing lanes
  s_getreg_b32 s31, hwreg(HW_REG_MODE, 29, 3)
.Lijoin:
  s_cbranch_join s30
  s_mov_b64 exec, s[10:11]
  ST v5
  s_getreg_b32 s32, hwreg(HW_REG_MODE, 29, 3)
  s_lshl_b32 s32, s32, 4
  s_add_u32 s31, s31, s32
  v_mov_b32_e32 v2, s31
  ST v2

  // row 4: s_cbranch_g_fork; 50 lanes pass, 14 fail: the failing lanes run
  // first.
  s_getpc_b64 s[40:41]
.Lgpc:
  s_add_u32 s40, s40, .Lgpass-.Lgpc
  s_addc_u32 s41, s41, 0
  v_mov_b32_e32 v6, 0
  v_cmp_gt_u32_e32 vcc, 50, v1
  s_cbranch_g_fork vcc, s[40:41]
  v_mov_b32_e32 v6, 4                     // failing lanes
  s_branch .Lgjoin
.Lgpass:
  v_mov_b32_e32 v6, 3                     // passing lanes
.Lgjoin:
  s_cbranch_join s30
  s_mov_b64 exec, s[10:11]
  ST v6

  // row 5: the debug branches fall through.
  v_mov_b32_e32 v8, 1
  s_cbranch_cdbgsys .Lcdbg_bad
  s_cbranch_cdbguser .Lcdbg_bad
  s_cbranch_cdbgsys_or_user .Lcdbg_bad
  s_cbranch_cdbgsys_and_user .Lcdbg_bad
  s_branch .Lcdbg_ok
.Lcdbg_bad:
  v_mov_b32_e32 v8, 0xbad
.Lcdbg_ok:
  ST v8

  // row 6: s_rfe_b64 / s_rfe_restore_b64 jump over a write each.
  v_mov_b32_e32 v7, 5
  s_getpc_b64 s[44:45]
.Lrfe_pc:
  s_add_u32 s44, s44, .Lrfe_to-.Lrfe_pc
  s_addc_u32 s45, s45, 0
  s_rfe_b64 s[44:45]
  v_mov_b32_e32 v7, 0xbad
.Lrfe_to:
  s_getpc_b64 s[44:45]
.Lrfe2_pc:
  s_add_u32 s44, s44, .Lrfe2_to-.Lrfe2_pc
  s_addc_u32 s45, s45, 0
  s_mov_b32 s46, 0
  s_rfe_restore_b64 s[44:45], s46
  v_mov_b32_e32 v7, 0xbad
.Lrfe2_to:
  v_add_u32_e32 v7, 16, v7
  ST v7

  // row 7: s_setvskip with constants and with an SGPR bit.
  v_mov_b32_e32 v9, 9
  s_mov_b32 s48, 0
  s_setvskip 1, 0
  v_mov_b32_e32 v9, 0xbad
  global_store_dword v0, v9, s[8:9]       // skipped: row 7 is written below
  s_mov_b32 s48, 11
  s_setvskip 0, 0
  s_mov_b32 s47, 4
  s_setvskip s47, 2                       // bit 2 of 4: on
  v_mov_b32_e32 v9, 0xbad
  s_setvskip s47, 0                       // bit 0 of 4: off
  s_lshl_b32 s48, s48, 8
  v_add_u32_e32 v9, s48, v9
  ST v9

  // row 8: no effect on the wave.
  s_sendmsg sendmsg(MSG_INTERRUPT)
  s_dcache_discard s[8:9], 0x0
  s_dcache_discard_x2 s[8:9], 0x40
  v_clrexcp
  v_clrexcp_e64
  s_setkill 0
  v_mov_b32_e32 v2, 0x600d
  ST v2
  s_endpgm

.Lsub:
  s_mov_b32 s38, 7
  s_setpc_b64 s[36:37]
.Lfunc_end0:
  .size control2, .Lfunc_end0-control2

//===----------------------------------------------------------------------===//
// Kernels that stop: s_setkill 1 ends the wave after its first store;
// s_sendmsghalt, s_sethalt 1 (after a harmless s_sethalt 0) and s_sendmsg
// of a message the emulator has nothing for stop it with an error.
// Arguments: out (u32[64]).
//===----------------------------------------------------------------------===//
  .globl setkill
  .p2align 8
  .type setkill,@function
setkill:
  s_load_dwordx2 s[8:9], s[0:1], 0x0
  v_lshlrev_b32_e32 v0, 2, v0
  v_mov_b32_e32 v1, 1
  s_waitcnt lgkmcnt(0)
  global_store_dword v0, v1, s[8:9]
  s_setkill 1
  v_mov_b32_e32 v1, 0xbad
  global_store_dword v0, v1, s[8:9]
  s_endpgm
.Lfunc_end1:
  .size setkill, .Lfunc_end1-setkill

  .globl sendmsghalt
  .p2align 8
  .type sendmsghalt,@function
sendmsghalt:
  s_sendmsghalt sendmsg(MSG_INTERRUPT)
  s_endpgm
.Lfunc_end2:
  .size sendmsghalt, .Lfunc_end2-sendmsghalt

  .globl sethalt
  .p2align 8
  .type sethalt,@function
sethalt:
  s_sethalt 0
  s_sethalt 1
  s_endpgm
.Lfunc_end4:
  .size sethalt, .Lfunc_end4-sethalt

  .globl doorbell
  .p2align 8
  .type doorbell,@function
doorbell:
  s_sendmsg sendmsg(MSG_GET_DOORBELL)
  s_endpgm
.Lfunc_end3:
  .size doorbell, .Lfunc_end3-doorbell

  .rodata
.macro KD name, vgprs
  .p2align 6
  .amdhsa_kernel \name
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 8
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr \vgprs
    .amdhsa_next_free_sgpr 56
    .amdhsa_accum_offset \vgprs
  .end_amdhsa_kernel
.endm
  KD control2, 12
  KD setkill, 4
  KD sendmsghalt, 4
  KD doorbell, 4
  KD sethalt, 4

  .amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           control2
    .private_segment_fixed_size: 0
    .sgpr_count:     62
    .symbol:         control2.kd
    .vgpr_count:     12
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           setkill
    .private_segment_fixed_size: 0
    .sgpr_count:     62
    .symbol:         setkill.kd
    .vgpr_count:     4
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           sendmsghalt
    .private_segment_fixed_size: 0
    .sgpr_count:     62
    .symbol:         sendmsghalt.kd
    .vgpr_count:     4
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           doorbell
    .private_segment_fixed_size: 0
    .sgpr_count:     62
    .symbol:         doorbell.kd
    .vgpr_count:     4
    .wavefront_size: 64
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 64
    .name:           sethalt
    .private_segment_fixed_size: 0
    .sgpr_count:     62
    .symbol:         sethalt.kd
    .vgpr_count:     4
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
