//===- smem.s - scalar memory: loads, stores, atomics (gfx942, gfx950) -----===//
//
// Each scalar result is written by v_writelane_b32 to the next lane of the
// output VGPRs (OUT: slot k is lane k % 64 of v10 + k / 64), and out row r
// is v10 + r (rows 0-4); row 5 is what vector loads see of mem[0..63] after
// the scalar stores and s_dcache_wb. SmemTests.cpp computes every slot and
// the final mem[] from the ISA's description of each instruction.
//
// Slots 0-33, loads (in[] is read only):
//   0-3   s_buffer_load_dwordx4 at 0x20 of a V# over in[] with num_records 40:
//         in[8], in[9], then 0, 0 (past num_records)
//   4-11  s_buffer_load_dwordx8, SGPR offset 4: in[1..8]
//   12    s_buffer_load_dword, SGPR 4 + offset:0x24 = 40: 0 (past the end)
//   13    s_buffer_load_dword at 0x27: the low two bits ignored, in[9]
//   14-29 s_buffer_load_dwordx16 at 0, num_records 48: in[0..11], 0 x 4
//   30-31 s_load_dwordx2 at 0x13: in[4], in[5] (low bits ignored)
//   32    s_load_dword, SGPR 4 + offset:0x8: in[3]
//   33    s_load_dword, SGPR 4: in[1]
//   34    the same in the SGPR_alt encoding: in[1]
// Stores (mem[0..15]), then row 5:
//   s_store_dword in[16] at mem[0]; s_store_dwordx2 in[18..19] at SGPR 4
//   (mem[1..2]); s_store_dwordx4 in[20..23] at SGPR 4 + offset:0x8
//   (mem[3..6]); through a V# over mem[8..13] (base mem + 32, num_records
//   24): s_buffer_store_dwordx2 in[16..17] at 0 (mem[8..9]),
//   s_buffer_store_dword in[17] at SGPR 4 + offset:0x4 (mem[10]),
//   s_buffer_store_dwordx4 in[20..23] at 0x10: mem[12..13] written, the two
//   dwords past num_records dropped (mem[14..15] keep their values).
// Slots 64 on, atomics: variant v = 0..103 in the order buffer (0, 1) x
//   wide (x2: 0, 1) x glc (0, 1) x op (add sub swap cmpswap smin umin smax
//   umax and or xor inc dec) works on mem[64 + 4v] (two dwords if wide) with
//   sdata loaded from in[64 + 4v ..], cmpswap's sdata being {new, compare}.
//   The offset takes the form v % 3: immediate, SGPR, SGPR + offset:16.
//   Global atomics address mem through s[6:7]; buffer atomics through a V#
//   over all of mem (num_records 2048). After each, sdata's first dword (and
//   second if wide) goes to the next slot: the old value with glc, sdata
//   unchanged without.
// Slot 220: s_atomic_swap glc in the SGPR_alt encoding on mem[484] with
//   sdata in[484]: the old mem[484].
// Last, through a V# over mem with num_records 1920 (mem[0..479]):
//   s_buffer_atomic_add at 1920 and s_buffer_atomic_add_x2 at 1916 are past
//   num_records (atomics are range checked all or nothing): mem[479..480]
//   keep their values.
//
// Arguments: in (u32[512]), mem (u32[512]), out (u32[6 * 64]).
//
//===----------------------------------------------------------------------===//
  .amdhsa_code_object_version 5
  .text
  .globl smem
  .p2align 8
  .type smem,@function

// Writes SGPR \r to the next output slot.
.set outk, 0
.macro OUT r
  .if outk < 64
  v_writelane_b32 v10, \r, outk
  .elseif outk < 128
  v_writelane_b32 v11, \r, outk - 64
  .elseif outk < 192
  v_writelane_b32 v12, \r, outk - 128
  .elseif outk < 256
  v_writelane_b32 v13, \r, outk - 192
  .else
  v_writelane_b32 v14, \r, outk - 256
  .endif
  .set outk, outk + 1
.endm

smem:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // s[4:5] = in, s[6:7] = mem
  s_load_dwordx2 s[8:9], s[0:1], 0x10     // s[8:9] = out
  v_lshlrev_b32_e32 v0, 2, v0             // 4 * lane
  s_mov_b32 s16, 4
  s_waitcnt lgkmcnt(0)
  // Loads. V# over in[]: base, stride 0, num_records 40 bytes.
  s_mov_b32 s12, s4
  s_and_b32 s13, s5, 0xffff
  s_mov_b32 s14, 40
  s_mov_b32 s15, 0
  s_buffer_load_dwordx4 s[20:23], s[12:15], 0x20
  s_waitcnt lgkmcnt(0)
  OUT s20
  OUT s21
  OUT s22
  OUT s23
  s_buffer_load_dwordx8 s[24:31], s[12:15], s16
  s_waitcnt lgkmcnt(0)
  OUT s24
  OUT s25
  OUT s26
  OUT s27
  OUT s28
  OUT s29
  OUT s30
  OUT s31
  s_buffer_load_dword s20, s[12:15], s16 offset:0x24
  s_buffer_load_dword s21, s[12:15], 0x27
  s_waitcnt lgkmcnt(0)
  OUT s20
  OUT s21
  s_mov_b32 s14, 48
  s_buffer_load_dwordx16 s[20:35], s[12:15], 0x0
  s_waitcnt lgkmcnt(0)
  OUT s20
  OUT s21
  OUT s22
  OUT s23
  OUT s24
  OUT s25
  OUT s26
  OUT s27
  OUT s28
  OUT s29
  OUT s30
  OUT s31
  OUT s32
  OUT s33
  OUT s34
  OUT s35
  s_load_dwordx2 s[20:21], s[4:5], 0x13
  s_load_dword s22, s[4:5], s16 offset:0x8
  s_load_dword s23, s[4:5], s16
  // s_load_dword s24, s[4:5], s16 in the SGPR_alt encoding (the SGPR in the
  // soffset field: SOE = 1, IMM = 0), which llvm-mc does not choose itself.
  .long 0xc0004602, 0x20000000
  s_waitcnt lgkmcnt(0)
  OUT s20
  OUT s21
  OUT s22
  OUT s23
  OUT s24
  // Stores.
  s_load_dwordx4 s[20:23], s[4:5], 0x40   // in[16..19]
  s_load_dwordx4 s[24:27], s[4:5], 0x50   // in[20..23]
  s_waitcnt lgkmcnt(0)
  s_store_dword s20, s[6:7], 0x0
  s_store_dwordx2 s[22:23], s[6:7], s16
  s_store_dwordx4 s[24:27], s[6:7], s16 offset:0x8
  s_add_u32 s36, s6, 32                   // V# over mem[8..13]
  s_addc_u32 s37, s7, 0
  s_and_b32 s37, s37, 0xffff
  s_mov_b32 s38, 24
  s_mov_b32 s39, 0
  s_buffer_store_dwordx2 s[20:21], s[36:39], 0x0
  s_buffer_store_dword s21, s[36:39], s16 offset:0x4
  s_buffer_store_dwordx4 s[24:27], s[36:39], 0x10
  // The memory model's order for scalar stores before vector loads.
  s_dcache_wb
  s_waitcnt lgkmcnt(0)
  global_load_dword v20, v0, s[6:7]
  s_waitcnt vmcnt(0)
  global_store_dword v0, v20, s[8:9] offset:1280
  // Atomics. V# over all of mem.
  s_mov_b32 s48, s6
  s_and_b32 s49, s7, 0xffff
  s_mov_b32 s50, 2048
  s_mov_b32 s51, 0
.set outk, 64
  // variant 0
  s_load_dwordx4 s[40:43], s[4:5], 0x100
  s_waitcnt lgkmcnt(0)
  s_atomic_add s40, s[6:7], 0x100
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 1
  s_load_dwordx4 s[40:43], s[4:5], 0x110
  s_mov_b32 s44, 0x110
  s_waitcnt lgkmcnt(0)
  s_atomic_sub s40, s[6:7], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 2
  s_load_dwordx4 s[40:43], s[4:5], 0x120
  s_mov_b32 s44, 0x110
  s_waitcnt lgkmcnt(0)
  s_atomic_swap s40, s[6:7], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 3
  s_load_dwordx4 s[40:43], s[4:5], 0x130
  s_waitcnt lgkmcnt(0)
  s_atomic_cmpswap s[40:41], s[6:7], 0x130
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 4
  s_load_dwordx4 s[40:43], s[4:5], 0x140
  s_mov_b32 s44, 0x140
  s_waitcnt lgkmcnt(0)
  s_atomic_smin s40, s[6:7], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 5
  s_load_dwordx4 s[40:43], s[4:5], 0x150
  s_mov_b32 s44, 0x140
  s_waitcnt lgkmcnt(0)
  s_atomic_umin s40, s[6:7], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 6
  s_load_dwordx4 s[40:43], s[4:5], 0x160
  s_waitcnt lgkmcnt(0)
  s_atomic_smax s40, s[6:7], 0x160
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 7
  s_load_dwordx4 s[40:43], s[4:5], 0x170
  s_mov_b32 s44, 0x170
  s_waitcnt lgkmcnt(0)
  s_atomic_umax s40, s[6:7], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 8
  s_load_dwordx4 s[40:43], s[4:5], 0x180
  s_mov_b32 s44, 0x170
  s_waitcnt lgkmcnt(0)
  s_atomic_and s40, s[6:7], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 9
  s_load_dwordx4 s[40:43], s[4:5], 0x190
  s_waitcnt lgkmcnt(0)
  s_atomic_or s40, s[6:7], 0x190
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 10
  s_load_dwordx4 s[40:43], s[4:5], 0x1a0
  s_mov_b32 s44, 0x1a0
  s_waitcnt lgkmcnt(0)
  s_atomic_xor s40, s[6:7], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 11
  s_load_dwordx4 s[40:43], s[4:5], 0x1b0
  s_mov_b32 s44, 0x1a0
  s_waitcnt lgkmcnt(0)
  s_atomic_inc s40, s[6:7], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 12
  s_load_dwordx4 s[40:43], s[4:5], 0x1c0
  s_waitcnt lgkmcnt(0)
  s_atomic_dec s40, s[6:7], 0x1c0
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 13
  s_load_dwordx4 s[40:43], s[4:5], 0x1d0
  s_mov_b32 s44, 0x1d0
  s_waitcnt lgkmcnt(0)
  s_atomic_add s40, s[6:7], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 14
  s_load_dwordx4 s[40:43], s[4:5], 0x1e0
  s_mov_b32 s44, 0x1d0
  s_waitcnt lgkmcnt(0)
  s_atomic_sub s40, s[6:7], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 15
  s_load_dwordx4 s[40:43], s[4:5], 0x1f0
  s_waitcnt lgkmcnt(0)
  s_atomic_swap s40, s[6:7], 0x1f0 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 16
  s_load_dwordx4 s[40:43], s[4:5], 0x200
  s_mov_b32 s44, 0x200
  s_waitcnt lgkmcnt(0)
  s_atomic_cmpswap s[40:41], s[6:7], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 17
  s_load_dwordx4 s[40:43], s[4:5], 0x210
  s_mov_b32 s44, 0x200
  s_waitcnt lgkmcnt(0)
  s_atomic_smin s40, s[6:7], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 18
  s_load_dwordx4 s[40:43], s[4:5], 0x220
  s_waitcnt lgkmcnt(0)
  s_atomic_umin s40, s[6:7], 0x220 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 19
  s_load_dwordx4 s[40:43], s[4:5], 0x230
  s_mov_b32 s44, 0x230
  s_waitcnt lgkmcnt(0)
  s_atomic_smax s40, s[6:7], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 20
  s_load_dwordx4 s[40:43], s[4:5], 0x240
  s_mov_b32 s44, 0x230
  s_waitcnt lgkmcnt(0)
  s_atomic_umax s40, s[6:7], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 21
  s_load_dwordx4 s[40:43], s[4:5], 0x250
  s_waitcnt lgkmcnt(0)
  s_atomic_and s40, s[6:7], 0x250 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 22
  s_load_dwordx4 s[40:43], s[4:5], 0x260
  s_mov_b32 s44, 0x260
  s_waitcnt lgkmcnt(0)
  s_atomic_or s40, s[6:7], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 23
  s_load_dwordx4 s[40:43], s[4:5], 0x270
  s_mov_b32 s44, 0x260
  s_waitcnt lgkmcnt(0)
  s_atomic_xor s40, s[6:7], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 24
  s_load_dwordx4 s[40:43], s[4:5], 0x280
  s_waitcnt lgkmcnt(0)
  s_atomic_inc s40, s[6:7], 0x280 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 25
  s_load_dwordx4 s[40:43], s[4:5], 0x290
  s_mov_b32 s44, 0x290
  s_waitcnt lgkmcnt(0)
  s_atomic_dec s40, s[6:7], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 26
  s_load_dwordx4 s[40:43], s[4:5], 0x2a0
  s_mov_b32 s44, 0x290
  s_waitcnt lgkmcnt(0)
  s_atomic_add_x2 s[40:41], s[6:7], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 27
  s_load_dwordx4 s[40:43], s[4:5], 0x2b0
  s_waitcnt lgkmcnt(0)
  s_atomic_sub_x2 s[40:41], s[6:7], 0x2b0
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 28
  s_load_dwordx4 s[40:43], s[4:5], 0x2c0
  s_mov_b32 s44, 0x2c0
  s_waitcnt lgkmcnt(0)
  s_atomic_swap_x2 s[40:41], s[6:7], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 29
  s_load_dwordx4 s[40:43], s[4:5], 0x2d0
  s_mov_b32 s44, 0x2c0
  s_waitcnt lgkmcnt(0)
  s_atomic_cmpswap_x2 s[40:43], s[6:7], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 30
  s_load_dwordx4 s[40:43], s[4:5], 0x2e0
  s_waitcnt lgkmcnt(0)
  s_atomic_smin_x2 s[40:41], s[6:7], 0x2e0
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 31
  s_load_dwordx4 s[40:43], s[4:5], 0x2f0
  s_mov_b32 s44, 0x2f0
  s_waitcnt lgkmcnt(0)
  s_atomic_umin_x2 s[40:41], s[6:7], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 32
  s_load_dwordx4 s[40:43], s[4:5], 0x300
  s_mov_b32 s44, 0x2f0
  s_waitcnt lgkmcnt(0)
  s_atomic_smax_x2 s[40:41], s[6:7], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 33
  s_load_dwordx4 s[40:43], s[4:5], 0x310
  s_waitcnt lgkmcnt(0)
  s_atomic_umax_x2 s[40:41], s[6:7], 0x310
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 34
  s_load_dwordx4 s[40:43], s[4:5], 0x320
  s_mov_b32 s44, 0x320
  s_waitcnt lgkmcnt(0)
  s_atomic_and_x2 s[40:41], s[6:7], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 35
  s_load_dwordx4 s[40:43], s[4:5], 0x330
  s_mov_b32 s44, 0x320
  s_waitcnt lgkmcnt(0)
  s_atomic_or_x2 s[40:41], s[6:7], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 36
  s_load_dwordx4 s[40:43], s[4:5], 0x340
  s_waitcnt lgkmcnt(0)
  s_atomic_xor_x2 s[40:41], s[6:7], 0x340
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 37
  s_load_dwordx4 s[40:43], s[4:5], 0x350
  s_mov_b32 s44, 0x350
  s_waitcnt lgkmcnt(0)
  s_atomic_inc_x2 s[40:41], s[6:7], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 38
  s_load_dwordx4 s[40:43], s[4:5], 0x360
  s_mov_b32 s44, 0x350
  s_waitcnt lgkmcnt(0)
  s_atomic_dec_x2 s[40:41], s[6:7], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 39
  s_load_dwordx4 s[40:43], s[4:5], 0x370
  s_waitcnt lgkmcnt(0)
  s_atomic_add_x2 s[40:41], s[6:7], 0x370 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 40
  s_load_dwordx4 s[40:43], s[4:5], 0x380
  s_mov_b32 s44, 0x380
  s_waitcnt lgkmcnt(0)
  s_atomic_sub_x2 s[40:41], s[6:7], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 41
  s_load_dwordx4 s[40:43], s[4:5], 0x390
  s_mov_b32 s44, 0x380
  s_waitcnt lgkmcnt(0)
  s_atomic_swap_x2 s[40:41], s[6:7], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 42
  s_load_dwordx4 s[40:43], s[4:5], 0x3a0
  s_waitcnt lgkmcnt(0)
  s_atomic_cmpswap_x2 s[40:43], s[6:7], 0x3a0 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 43
  s_load_dwordx4 s[40:43], s[4:5], 0x3b0
  s_mov_b32 s44, 0x3b0
  s_waitcnt lgkmcnt(0)
  s_atomic_smin_x2 s[40:41], s[6:7], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 44
  s_load_dwordx4 s[40:43], s[4:5], 0x3c0
  s_mov_b32 s44, 0x3b0
  s_waitcnt lgkmcnt(0)
  s_atomic_umin_x2 s[40:41], s[6:7], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 45
  s_load_dwordx4 s[40:43], s[4:5], 0x3d0
  s_waitcnt lgkmcnt(0)
  s_atomic_smax_x2 s[40:41], s[6:7], 0x3d0 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 46
  s_load_dwordx4 s[40:43], s[4:5], 0x3e0
  s_mov_b32 s44, 0x3e0
  s_waitcnt lgkmcnt(0)
  s_atomic_umax_x2 s[40:41], s[6:7], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 47
  s_load_dwordx4 s[40:43], s[4:5], 0x3f0
  s_mov_b32 s44, 0x3e0
  s_waitcnt lgkmcnt(0)
  s_atomic_and_x2 s[40:41], s[6:7], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 48
  s_load_dwordx4 s[40:43], s[4:5], 0x400
  s_waitcnt lgkmcnt(0)
  s_atomic_or_x2 s[40:41], s[6:7], 0x400 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 49
  s_load_dwordx4 s[40:43], s[4:5], 0x410
  s_mov_b32 s44, 0x410
  s_waitcnt lgkmcnt(0)
  s_atomic_xor_x2 s[40:41], s[6:7], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 50
  s_load_dwordx4 s[40:43], s[4:5], 0x420
  s_mov_b32 s44, 0x410
  s_waitcnt lgkmcnt(0)
  s_atomic_inc_x2 s[40:41], s[6:7], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 51
  s_load_dwordx4 s[40:43], s[4:5], 0x430
  s_waitcnt lgkmcnt(0)
  s_atomic_dec_x2 s[40:41], s[6:7], 0x430 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 52
  s_load_dwordx4 s[40:43], s[4:5], 0x440
  s_mov_b32 s44, 0x440
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_add s40, s[48:51], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 53
  s_load_dwordx4 s[40:43], s[4:5], 0x450
  s_mov_b32 s44, 0x440
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_sub s40, s[48:51], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 54
  s_load_dwordx4 s[40:43], s[4:5], 0x460
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_swap s40, s[48:51], 0x460
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 55
  s_load_dwordx4 s[40:43], s[4:5], 0x470
  s_mov_b32 s44, 0x470
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_cmpswap s[40:41], s[48:51], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 56
  s_load_dwordx4 s[40:43], s[4:5], 0x480
  s_mov_b32 s44, 0x470
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_smin s40, s[48:51], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 57
  s_load_dwordx4 s[40:43], s[4:5], 0x490
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_umin s40, s[48:51], 0x490
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 58
  s_load_dwordx4 s[40:43], s[4:5], 0x4a0
  s_mov_b32 s44, 0x4a0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_smax s40, s[48:51], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 59
  s_load_dwordx4 s[40:43], s[4:5], 0x4b0
  s_mov_b32 s44, 0x4a0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_umax s40, s[48:51], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 60
  s_load_dwordx4 s[40:43], s[4:5], 0x4c0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_and s40, s[48:51], 0x4c0
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 61
  s_load_dwordx4 s[40:43], s[4:5], 0x4d0
  s_mov_b32 s44, 0x4d0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_or s40, s[48:51], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 62
  s_load_dwordx4 s[40:43], s[4:5], 0x4e0
  s_mov_b32 s44, 0x4d0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_xor s40, s[48:51], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 63
  s_load_dwordx4 s[40:43], s[4:5], 0x4f0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_inc s40, s[48:51], 0x4f0
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 64
  s_load_dwordx4 s[40:43], s[4:5], 0x500
  s_mov_b32 s44, 0x500
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_dec s40, s[48:51], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 65
  s_load_dwordx4 s[40:43], s[4:5], 0x510
  s_mov_b32 s44, 0x500
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_add s40, s[48:51], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 66
  s_load_dwordx4 s[40:43], s[4:5], 0x520
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_sub s40, s[48:51], 0x520 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 67
  s_load_dwordx4 s[40:43], s[4:5], 0x530
  s_mov_b32 s44, 0x530
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_swap s40, s[48:51], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 68
  s_load_dwordx4 s[40:43], s[4:5], 0x540
  s_mov_b32 s44, 0x530
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_cmpswap s[40:41], s[48:51], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 69
  s_load_dwordx4 s[40:43], s[4:5], 0x550
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_smin s40, s[48:51], 0x550 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 70
  s_load_dwordx4 s[40:43], s[4:5], 0x560
  s_mov_b32 s44, 0x560
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_umin s40, s[48:51], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 71
  s_load_dwordx4 s[40:43], s[4:5], 0x570
  s_mov_b32 s44, 0x560
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_smax s40, s[48:51], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 72
  s_load_dwordx4 s[40:43], s[4:5], 0x580
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_umax s40, s[48:51], 0x580 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 73
  s_load_dwordx4 s[40:43], s[4:5], 0x590
  s_mov_b32 s44, 0x590
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_and s40, s[48:51], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 74
  s_load_dwordx4 s[40:43], s[4:5], 0x5a0
  s_mov_b32 s44, 0x590
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_or s40, s[48:51], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 75
  s_load_dwordx4 s[40:43], s[4:5], 0x5b0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_xor s40, s[48:51], 0x5b0 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 76
  s_load_dwordx4 s[40:43], s[4:5], 0x5c0
  s_mov_b32 s44, 0x5c0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_inc s40, s[48:51], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 77
  s_load_dwordx4 s[40:43], s[4:5], 0x5d0
  s_mov_b32 s44, 0x5c0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_dec s40, s[48:51], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  // variant 78
  s_load_dwordx4 s[40:43], s[4:5], 0x5e0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_add_x2 s[40:41], s[48:51], 0x5e0
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 79
  s_load_dwordx4 s[40:43], s[4:5], 0x5f0
  s_mov_b32 s44, 0x5f0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_sub_x2 s[40:41], s[48:51], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 80
  s_load_dwordx4 s[40:43], s[4:5], 0x600
  s_mov_b32 s44, 0x5f0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_swap_x2 s[40:41], s[48:51], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 81
  s_load_dwordx4 s[40:43], s[4:5], 0x610
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_cmpswap_x2 s[40:43], s[48:51], 0x610
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 82
  s_load_dwordx4 s[40:43], s[4:5], 0x620
  s_mov_b32 s44, 0x620
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_smin_x2 s[40:41], s[48:51], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 83
  s_load_dwordx4 s[40:43], s[4:5], 0x630
  s_mov_b32 s44, 0x620
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_umin_x2 s[40:41], s[48:51], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 84
  s_load_dwordx4 s[40:43], s[4:5], 0x640
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_smax_x2 s[40:41], s[48:51], 0x640
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 85
  s_load_dwordx4 s[40:43], s[4:5], 0x650
  s_mov_b32 s44, 0x650
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_umax_x2 s[40:41], s[48:51], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 86
  s_load_dwordx4 s[40:43], s[4:5], 0x660
  s_mov_b32 s44, 0x650
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_and_x2 s[40:41], s[48:51], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 87
  s_load_dwordx4 s[40:43], s[4:5], 0x670
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_or_x2 s[40:41], s[48:51], 0x670
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 88
  s_load_dwordx4 s[40:43], s[4:5], 0x680
  s_mov_b32 s44, 0x680
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_xor_x2 s[40:41], s[48:51], s44
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 89
  s_load_dwordx4 s[40:43], s[4:5], 0x690
  s_mov_b32 s44, 0x680
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_inc_x2 s[40:41], s[48:51], s44 offset:0x10
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 90
  s_load_dwordx4 s[40:43], s[4:5], 0x6a0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_dec_x2 s[40:41], s[48:51], 0x6a0
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 91
  s_load_dwordx4 s[40:43], s[4:5], 0x6b0
  s_mov_b32 s44, 0x6b0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_add_x2 s[40:41], s[48:51], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 92
  s_load_dwordx4 s[40:43], s[4:5], 0x6c0
  s_mov_b32 s44, 0x6b0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_sub_x2 s[40:41], s[48:51], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 93
  s_load_dwordx4 s[40:43], s[4:5], 0x6d0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_swap_x2 s[40:41], s[48:51], 0x6d0 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 94
  s_load_dwordx4 s[40:43], s[4:5], 0x6e0
  s_mov_b32 s44, 0x6e0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_cmpswap_x2 s[40:43], s[48:51], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 95
  s_load_dwordx4 s[40:43], s[4:5], 0x6f0
  s_mov_b32 s44, 0x6e0
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_smin_x2 s[40:41], s[48:51], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 96
  s_load_dwordx4 s[40:43], s[4:5], 0x700
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_umin_x2 s[40:41], s[48:51], 0x700 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 97
  s_load_dwordx4 s[40:43], s[4:5], 0x710
  s_mov_b32 s44, 0x710
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_smax_x2 s[40:41], s[48:51], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 98
  s_load_dwordx4 s[40:43], s[4:5], 0x720
  s_mov_b32 s44, 0x710
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_umax_x2 s[40:41], s[48:51], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 99
  s_load_dwordx4 s[40:43], s[4:5], 0x730
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_and_x2 s[40:41], s[48:51], 0x730 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 100
  s_load_dwordx4 s[40:43], s[4:5], 0x740
  s_mov_b32 s44, 0x740
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_or_x2 s[40:41], s[48:51], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 101
  s_load_dwordx4 s[40:43], s[4:5], 0x750
  s_mov_b32 s44, 0x740
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_xor_x2 s[40:41], s[48:51], s44 offset:0x10 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 102
  s_load_dwordx4 s[40:43], s[4:5], 0x760
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_inc_x2 s[40:41], s[48:51], 0x760 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // variant 103
  s_load_dwordx4 s[40:43], s[4:5], 0x770
  s_mov_b32 s44, 0x770
  s_waitcnt lgkmcnt(0)
  s_buffer_atomic_dec_x2 s[40:41], s[48:51], s44 glc
  s_waitcnt lgkmcnt(0)
  OUT s40
  OUT s41
  // s_atomic_swap s40, s[6:7], s44 glc in the SGPR_alt encoding, on mem[484].
  s_load_dword s40, s[4:5], 0x790         // in[484]
  s_mov_b32 s44, 0x790
  s_waitcnt lgkmcnt(0)
  .long 0xc2014a03, 0x58000000
  s_waitcnt lgkmcnt(0)
  OUT s40
  // Atomics past num_records: V# over mem[0..479].
  s_mov_b32 s50, 1920
  s_mov_b32 s40, 1
  s_mov_b32 s41, 1
  s_buffer_atomic_add s40, s[48:51], 0x780
  s_buffer_atomic_add_x2 s[40:41], s[48:51], 0x77c
  s_waitcnt lgkmcnt(0)
  global_store_dword v0, v10, s[8:9]
  global_store_dword v0, v11, s[8:9] offset:256
  global_store_dword v0, v12, s[8:9] offset:512
  global_store_dword v0, v13, s[8:9] offset:768
  global_store_dword v0, v14, s[8:9] offset:1024
  s_endpgm
.Lfunc_end0:
  .size smem, .Lfunc_end0-smem

  .rodata
  .p2align 6
  .amdhsa_kernel smem
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_private_segment_fixed_size 0
    .amdhsa_kernarg_size 24
    .amdhsa_user_sgpr_count 2
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 24
    .amdhsa_next_free_sgpr 56
    .amdhsa_accum_offset 24
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
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .max_flat_workgroup_size: 64
    .name:           smem
    .private_segment_fixed_size: 0
    .sgpr_count:     62
    .sgpr_spill_count: 0
    .symbol:         smem.kd
    .vgpr_count:     24
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
  .end_amdgpu_metadata
