// FlashAttention forward (kernels/attention/fmha_fwd.mlir) on gfx950 with the
// fast path's parameters, as kcc::ops::attention_forward picks them for
// D = 128 (kernels/attention/AttentionOp.cpp): 8 waves in two staggered wave
// groups, 64-key tiles, K and V by 16-byte LDS DMA into buffers stored in
// the order their MFMA operands read them (K_IMAGE, V_IMAGE: every read one
// contiguous 1 KiB or 512-byte line, conflict-free without padding), V read
// transposed.
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D DTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=0 -D VPAD=0 -D K_IMAGE=1 -D V_IMAGE=1 -D WIDE=1 -D VR=64 -D VC=128 -D VROWS=8 --emit=asm -o - | FileCheck %s
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D DTYPE=f16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=0 -D VPAD=0 -D K_IMAGE=1 -D V_IMAGE=1 -D WIDE=1 -D VR=64 -D VC=128 -D VROWS=8 --emit=asm -o - | FileCheck %s --check-prefix=F16
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D DTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=0 -D VPAD=0 -D K_IMAGE=1 -D V_IMAGE=1 -D WIDE=1 -D VR=64 -D VC=128 -D VROWS=8 --stats | FileCheck %s --check-prefix=STATS
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D DTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=0 -D VPAD=0 -D K_IMAGE=1 -D V_IMAGE=1 -D WIDE=1 -D VR=64 -D VC=128 -D VROWS=8 -D CAUSAL=1 -D LSE_OUT=1 --stats | FileCheck %s --check-prefix=STATS
// RUN: kcc %kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D DTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=1 -D PAD=0 -D VPAD=0 -D K_IMAGE=1 -D V_IMAGE=1 -D WIDE=1 -D VR=64 -D VC=128 -D VROWS=8 -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=NOTES

// Prologue: K tiles 0 and 1 and V tile 0 by LDS DMA (16 lines of 1 KiB per
// tile, 4 per leading wave; a tile inside the keys from one lane offset and
// scalar line offsets, one M0 write a line), all landed before the first
// barrier; then Q^T into registers and the scores of tile 0, which start
// the pipeline, from K reads that are one address register and immediate
// offsets 1 KiB apart, with their column maxima (one exchange between the
// wave's halves).
// CHECK-LABEL: fmha_fwd:
// CHECK: buffer_load_dwordx4 v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK: s_waitcnt vmcnt(0)
// CHECK-NEXT: s_barrier
// CHECK: buffer_load_dwordx4 v[{{[0-9]+}}:{{[0-9]+}}]
// CHECK: s_setprio 1
// CHECK: ds_read_b128 v[{{[0-9]+}}:{{[0-9]+}}], [[K0:v[0-9]+]]{{$}}
// CHECK-NEXT: ds_read_b128 v[{{[0-9]+}}:{{[0-9]+}}], [[K0]] offset:1024
// CHECK-COUNT-16: v_mfma_f32_32x32x16_bf16
// CHECK-NEXT: s_setprio 0
// CHECK: v_permlane32_swap_b32
// Every wave has read K 0 (barrier); then the stagger: the lagging group
// takes one more barrier (the leading group branches past it), so the
// groups run one barrier apart.
// CHECK-NEXT: v_max_f32
// CHECK: s_barrier
// CHECK-NEXT: s_cbranch_vccnz [[LEAD:\.LBB0_[0-9]+]]
// CHECK-NEXT: s_barrier
// CHECK-NEXT: [[LEAD]]:
// The loop's exit test (no key tile left to pipeline).
// CHECK: s_cbranch_scc0 [[EXIT:\.LBB0_[0-9]+]]

// One key tile j of the loop. K j+2's DMA (issuers only, at raised
// priority already): a tile inside the keys takes 4 lines a wave with no
// vector instruction but the wave index's readfirstlane, each line's
// offset scalar and M0 written once a line; the last tile of a sequence
// that BN does not divide, the same lines with the offsets per lane (the
// hardware's range check zeroes the rows past the keys). Then cluster A at
// priority 2: the 16 MFMAs of S_{j+1} = K_{j+1} Q^T (accumulating from 0),
// with the exponentials of S_j two per MFMA and the LDS reads of K (one
// address register, the reads 1 KiB apart) running three MFMAs ahead (the
// sched_group_barrier pattern [ds_read 3] then [mfma 1, trans 2,
// ds_read 1]): each MFMA waits with two reads still in flight. The row
// sum (register pairs added by v_pk_add_f32, the pair's halves last) and
// its exchange close the cluster.
// CHECK: s_setprio 1
// CHECK-NOT: s_setprio
// CHECK: v_readfirstlane_b32
// CHECK-NOT: {{^[[:space:]]+v_}}
// CHECK: buffer_load_dwordx4 [[KL:v[0-9]+]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK-NOT: {{^[[:space:]]+v_}}
// CHECK: buffer_load_dwordx4 [[KL]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK-NOT: {{^[[:space:]]+v_}}
// CHECK: buffer_load_dwordx4 [[KL]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK-NOT: {{^[[:space:]]+v_}}
// CHECK: buffer_load_dwordx4 [[KL]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK-NOT: s_setprio
// CHECK-COUNT-4: buffer_load_dwordx4 v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK: s_setprio 2
// CHECK-NEXT: ds_read_b128 v[{{[0-9]+}}:{{[0-9]+}}], [[KADDR:v[0-9]+]] offset:[[KOFF:[0-9]+]]
// CHECK-NEXT: ds_read_b128 v[{{[0-9]+}}:{{[0-9]+}}], [[KADDR]] offset:
// CHECK-NEXT: ds_read_b128 v[{{[0-9]+}}:{{[0-9]+}}], [[KADDR]] offset:
// CHECK: s_waitcnt lgkmcnt(2)
// CHECK-NEXT: v_mfma_f32_32x32x16_bf16 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], 0{{$}}
// CHECK-NOT: v_mfma
// CHECK: v_exp_f32
// CHECK-NEXT: v_exp_f32
// CHECK-NEXT: ds_read_b128 v[{{[0-9]+}}:{{[0-9]+}}], [[KADDR]] offset:
// CHECK-NOT: v_mfma
// CHECK: s_waitcnt lgkmcnt(2)
// CHECK-NEXT: v_mfma_f32_32x32x16_bf16
// CHECK-NOT: v_mfma
// CHECK: v_exp_f32
// CHECK-NEXT: v_exp_f32
// CHECK-NEXT: ds_read_b128 v[{{[0-9]+}}:{{[0-9]+}}], [[KADDR]] offset:
// CHECK-NOT: v_mfma
// CHECK: s_waitcnt lgkmcnt(2)
// CHECK-NEXT: v_mfma_f32_32x32x16_bf16
// CHECK-COUNT-13: v_mfma_f32_32x32x16_bf16
// CHECK-NOT: s_setprio
// CHECK: v_pk_add_f32 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}] op_sel:[0,1] op_sel_hi:[1,0]
// CHECK-NOT: s_setprio
// CHECK: v_permlane32_swap_b32
// CHECK-NEXT: s_setprio 0
// Barrier X (V j landed), V j+1's DMA (as K's), then cluster B: O^T +=
// V_j^T P_j^T, two transposing reads of V per MFMA, six in flight, all from
// one address register with immediate offsets (512-byte lines); P
// converted to bf16 in pairs, and the column maxima of S_{j+1} (their
// exchange) inside the cluster; the lazy rescale's scalar branch after it.
// CHECK: s_barrier
// CHECK: v_readfirstlane_b32
// CHECK-NOT: {{^[[:space:]]+v_}}
// CHECK: buffer_load_dwordx4 [[VL:v[0-9]+]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK-NOT: {{^[[:space:]]+v_}}
// CHECK: buffer_load_dwordx4 [[VL]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK-NOT: {{^[[:space:]]+v_}}
// CHECK: buffer_load_dwordx4 [[VL]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK-NOT: {{^[[:space:]]+v_}}
// CHECK: buffer_load_dwordx4 [[VL]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK: s_setprio 1
// CHECK-NEXT: ds_read_b64_tr_b16 v[{{[0-9]+}}:{{[0-9]+}}], [[VADDR:v[0-9]+]] offset:
// CHECK-COUNT-5: ds_read_b64_tr_b16 v[{{[0-9]+}}:{{[0-9]+}}], [[VADDR]] offset:
// CHECK: s_waitcnt lgkmcnt(4)
// CHECK-NEXT: v_mfma_f32_32x32x16_bf16
// CHECK-NOT: v_mfma
// CHECK: ds_read_b64_tr_b16 v[{{[0-9]+}}:{{[0-9]+}}], [[VADDR]] offset:
// CHECK-NOT: v_mfma
// CHECK: ds_read_b64_tr_b16 v[{{[0-9]+}}:{{[0-9]+}}], [[VADDR]] offset:
// CHECK-NOT: v_mfma
// CHECK: s_waitcnt lgkmcnt(4)
// CHECK-NEXT: v_mfma_f32_32x32x16_bf16
// CHECK: v_max3_f32
// CHECK: v_permlane32_swap_b32
// CHECK-NOT: s_setprio
// CHECK: v_mfma_f32_32x32x16_bf16
// CHECK: s_setprio 0
// CHECK-NEXT: s_cbranch_vccz
// CHECK: v_exp_f32
// CHECK: v_pk_mul_f32
// Barrier Y (K j+2 landed).
// CHECK: s_barrier
// The last tile drains the pipeline: its exponentials, barrier X, its
// accumulation; then the stagger's other barrier, for the leading group.
// CHECK: [[EXIT]]:
// CHECK: v_exp_f32
// CHECK: s_barrier
// CHECK-NEXT: s_setprio 1
// CHECK: v_mfma_f32_32x32x16_bf16
// CHECK: s_setprio 0
// CHECK: s_barrier
// CHECK: v_rcp_f32
// CHECK: s_endpgm
// No scratch anywhere in the kernel.
// CHECK-NOT: scratch_

// f16: the same structure with the f16 MFMA and conversions; no bf16 left.
// F16-LABEL: fmha_fwd:
// F16-NOT: _bf16
// F16: ds_read_b64_tr_b16
// F16: v_mfma_f32_32x32x16_f16
// F16-NOT: _bf16
// F16: s_endpgm

// 112 MFMAs: the prologue's 16, two steps of 32 per loop iteration (ping,
// pong), the last tile's 16 from either buffer; no spills and no scratch, causal (with LSE) or not: the causal
// mask is one limit per query column, not [BN, 32] index tiles (which
// spilled 1024 VGPRs).
// STATS: kernel fmha_fwd (gfx950)
// STATS-NEXT: registers {{ *}}{{[0-9]+}} VGPRs, 0 AGPRs
// STATS-NEXT: spills {{ *}}0 VGPR, 0 SGPR
// STATS-NEXT: scratch {{ *}}0 bytes per work-item
// STATS-NEXT: LDS {{ *}}65536 bytes per workgroup
// STATS: mfma {{ *}}112{{$}}
// STATS: lds {{ *}}176{{$}}

// NOTES: .group_segment_fixed_size: 65536
// NOTES: .name: fmha_fwd
// NOTES: .private_segment_fixed_size: 0
// NOTES: .sgpr_spill_count: 0
// NOTES: .vgpr_spill_count: 0
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx950
