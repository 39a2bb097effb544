// FlashAttention forward (kernels/attention/fmha_fwd.mlir) on gfx942 with the
// parameters kcc::ops::attention_forward picks there for D = 128
// (AttentionOp.cpp): 8 waves in two staggered groups, 32-key tiles, K by
// LDS DMA (leading group), V moved through registers and stored
// transposed (gfx942 has no transposing LDS read), 32x32x8 MFMAs. K rows
// padded by 4 elements and V^T rows by 4: conflict-free on 32 banks.
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx942 -D DTYPE=bf16 -D D=128 -D BN=32 -D BLOCK=512 -D STAGGER=1 -D V_TR=0 -D PAD=4 -D VPAD=4 -D VR=128 -D VC=32 -D VROWS=8 --emit=asm -o - | FileCheck %s
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx942 -D DTYPE=f16 -D D=64 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=0 -D PAD=4 -D VPAD=4 -D VR=64 -D VC=64 -D VROWS=16 -D K_REG=1 -D KROWS=16 -D CAUSAL=1 --emit=asm -o - | FileCheck %s --check-prefix=F16
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx942 -D DTYPE=bf16 -D D=128 -D BN=32 -D BLOCK=512 -D STAGGER=1 -D V_TR=0 -D PAD=4 -D VPAD=4 -D VR=128 -D VC=32 -D VROWS=8 --stats | FileCheck %s --check-prefix=STATS
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx942 -D DTYPE=bf16 -D D=128 -D BN=32 -D BLOCK=512 -D STAGGER=1 -D V_TR=0 -D PAD=4 -D VPAD=4 -D VR=128 -D VC=32 -D VROWS=8 -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=NOTES

// No gfx950-only instruction anywhere.
// CHECK-NOT: ds_read_b64_tr_b16
// CHECK-NOT: v_permlane32_swap
// CHECK-NOT: 32x32x16
// CHECK-LABEL: fmha_fwd:
// Prologue: key tiles 0 and 1 by LDS DMA (8 lines of 256 bytes per wave
// and tile), value tile 0 into registers and stored transposed as
// V^T [D, 32]; then the scores of tile 0 at raised priority and their
// column maxima (one ds_bpermute exchange between the wave's halves), and
// the barrier after which K 0's buffer may be overwritten.
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-COUNT-8: buffer_load_dword v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen{{$}}
// CHECK: v_perm_b32
// CHECK: ds_write2_b64
// CHECK: s_barrier
// CHECK: s_setprio 1
// CHECK-COUNT-16: v_mfma_f32_32x32x8_bf16
// CHECK-NEXT: s_setprio 0
// CHECK: ds_bpermute_b32
// CHECK: s_barrier
// The stagger: the lagging group's extra barrier, which the leading group
// branches past.
// CHECK: s_cbranch_vccnz [[LEAD:\.LBB0_[0-9]+]]
// CHECK-NEXT: s_barrier
// CHECK-NEXT: [[LEAD]]:
// One key tile j of the loop: K j+2 by DMA (a tile inside the keys: one
// lane offset, the lines' rows in scalar offsets, no vector add a line; the
// last tile of a sequence that BN does not divide: offsets per lane, which
// the hardware's range check sees) and this wave's rows of V j+1 into
// registers; cluster A at priority 2: the 16 MFMAs of S_{j+1} = K_{j+1}
// Q^T (accumulating from 0), each followed by one exponential of S_j and
// the LDS read of later K operands ([ds_read 1, mfma 1, trans 1]); the row
// sum's exchange closes it.
// V's rows: 4 bytes (2 columns) per load, 8 per wave, and nothing waits for
// them before the matrix work: their repacking into V^T's pairs comes after
// barrier X, with the stores.
// CHECK: buffer_load_dword [[KL:v[0-9]+]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK-NOT: {{^[[:space:]]+v_}}
// CHECK-COUNT-7: buffer_load_dword [[KL]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-COUNT-8: buffer_load_dword v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen{{$}}
// CHECK-NOT: v_perm_b32
// CHECK-NOT: s_waitcnt vmcnt
// CHECK: s_setprio 2
// CHECK-NEXT: ds_read2_b64
// CHECK: v_mfma_f32_32x32x8_bf16 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], 0{{$}}
// CHECK: v_exp_f32
// CHECK: v_mfma_f32_32x32x8_bf16
// CHECK-NEXT: v_exp_f32
// CHECK-NEXT: ds_read2_b64
// CHECK: v_mfma_f32_32x32x8_bf16
// CHECK-NEXT: v_exp_f32
// CHECK-NEXT: ds_read2_b64
// CHECK-COUNT-13: v_mfma_f32_32x32x8_bf16
// CHECK-NOT: s_setprio
// CHECK: ds_bpermute_b32
// CHECK-NEXT: s_setprio 0
// Barrier X (K j+1 read by all), then V j+1 stored transposed (by the
// leading group only, which loaded it), and cluster
// B: O^T += V_j^T P_j^T from plain LDS reads of V^T (P rounded to bf16 by
// VALU arithmetic: gfx942 has no v_cvt_pk_bf16_f32), with the column
// maxima of S_{j+1} and their exchange between its MFMAs; the lazy
// rescale's scalar branch after it. The priority is raised at the barrier
// already: the stores' VALU work no longer waits behind the other group's
// cluster.
// CHECK: s_barrier
// CHECK-NEXT: s_setprio 1
// CHECK-NEXT: s_and_b64 vcc
// CHECK-NEXT: s_cbranch_vccnz
// CHECK: v_perm_b32
// CHECK: ds_write2_b64
// CHECK: s_setprio 1
// CHECK-NOT: v_mfma
// CHECK: ds_read2_b64
// CHECK-NEXT: v_perm_b32
// CHECK: v_mfma_f32_32x32x8_bf16
// CHECK: ds_bpermute_b32
// CHECK: v_mfma_f32_32x32x8_bf16
// CHECK-NOT: ds_bpermute_b32
// CHECK: s_setprio 0
// CHECK-NEXT: s_cbranch_vccz
// Barrier Y (K j+2 landed).
// CHECK: s_barrier
// CHECK: s_endpgm
// CHECK-NOT: scratch_

// f16, D = 64, causal: the f16 MFMA, nothing of bf16; K through registers
// into padded LDS rows (K_REG): 16-byte loads and stores, no LDS DMA at all.
// F16-NOT: _bf16
// F16-LABEL: fmha_fwd:
// F16-NOT: offen lds
// F16: buffer_load_dwordx4
// F16-NOT: offen lds
// F16: ds_write_b128
// F16-NOT: offen lds
// F16: v_mfma_f32_32x32x8_f16
// F16-NOT: _bf16
// F16-NOT: offen lds
// F16: s_endpgm

// STATS: kernel fmha_fwd (gfx942)
// STATS-NEXT: registers {{ *}}{{[0-9]+}} VGPRs
// STATS-NEXT: spills {{ *}}0 VGPR, 0 SGPR
// STATS-NEXT: scratch {{ *}}0 bytes per work-item
// STATS-NEXT: LDS {{ *}}35328 bytes per workgroup
// STATS: mfma {{ *}}112{{$}}

// NOTES: .group_segment_fixed_size: 35328
// NOTES: .name: fmha_fwd
// NOTES: .private_segment_fixed_size: 0
// NOTES: .sgpr_spill_count: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx942
