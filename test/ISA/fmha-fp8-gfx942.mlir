// FP8 FlashAttention forward (kernels/attention/fmha_fwd_fp8.mlir) on gfx942
// with the parameters kcc::ops::attention_forward picks for e4m3fnuz and
// D = 128 (attentionFp8Params): 8 waves in two staggered groups, 64-key
// tiles, K by 4-byte LDS DMA into rows swizzled by 8 chunks, V moved through
// registers by the leading waves and stored transposed (no transposing LDS
// read on gfx942), v_mfma_f32_32x32x16_fp8_fp8, P scaled by 2^-1 to fit FNUZ
// e4m3 (max 240).
// RUN: kcc %kernels/attention/fmha_fwd_fp8.mlir --mcpu=gfx942 -D DTYPE=f8E4M3FNUZ -D ODTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=0 -D PAD=0 -D VPAD=4 -D VR=128 -D VC=64 -D VROWS=16 -D KSWZ=8 -D VSWZ=0 -D PLOG2=-1 --emit=asm -o - | FileCheck %s
// RUN: kcc %kernels/attention/fmha_fwd_fp8.mlir --mcpu=gfx942 -D DTYPE=f8E4M3FNUZ -D ODTYPE=bf16 -D D=128 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=0 -D PAD=0 -D VPAD=4 -D VR=128 -D VC=64 -D VROWS=16 -D KSWZ=8 -D VSWZ=0 -D PLOG2=-1 --stats | FileCheck %s --check-prefix=STATS
// RUN: kcc %kernels/attention/fmha_fwd_fp8.mlir --mcpu=gfx942 -D DTYPE=f8E4M3FNUZ -D ODTYPE=f16 -D D=64 -D BN=64 -D BLOCK=512 -D STAGGER=1 -D V_TR=0 -D PAD=0 -D VPAD=4 -D VR=64 -D VC=64 -D VROWS=16 -D KSWZ=4 -D VSWZ=0 -D PLOG2=-1 -D CAUSAL=1 -D LSE_OUT=1 --stats | FileCheck %s --check-prefix=STATS
// The OCP encoding is gfx950's: refused at the kernel's first use of it.
// RUN: not kcc %kernels/attention/fmha_fwd_fp8.mlir --mcpu=gfx942 -D DTYPE=f8E4M3FN --emit=asm -o /dev/null 2>&1 | FileCheck %s --check-prefix=OCP
// OCP: error: 'func.func' op uses f8E4M3FN, an OCP FP8 format that gfx942 lacks: gfx942 has f8E4M3FNUZ and f8E5M2FNUZ (FNUZ), gfx950 has f8E4M3FN and f8E5M2 (OCP)

// After the prologue (S_0 at priority 1, the barrier after it and the
// lagging group's extra one), the step: K j+2's DMA (8 lines of 256 bytes
// per leading wave): `inbounds` for a tile wholly inside the keys, one M0
// write for four lines, each line's row in a scalar offset and its LDS
// place in the offset field, no vector instruction between them; the
// bounded copy of the last tile; V j+1's 16 rows into registers (4 bytes,
// four columns of a row, per load: 8 per wave, nothing waiting for them
// before the matrix work), then cluster A: the 16 MFMAs of S_{j+1} (two
// row blocks of 32 keys, D in 16-deep steps), each fed by one 8-byte read
// of K issued an MFMA ahead and followed by two of S_j's exponentials.
// CHECK-LABEL: fmha_fwd_fp8:
// CHECK: s_setprio 1
// CHECK: s_setprio 0
// CHECK: s_barrier
// CHECK: s_barrier
// CHECK: s_mov_b32 m0, s{{[0-9]+}}
// CHECK-NEXT: s_add_i32 [[L0:s[0-9]+]], s{{[0-9]+}}, s{{[0-9]+}}
// CHECK-NEXT: buffer_load_dword [[LANE:v[0-9]+]], s[{{[0-9]+}}:{{[0-9]+}}], [[L0]] offen lds
// CHECK-NEXT: s_add_i32 [[L1:s[0-9]+]], s{{[0-9]+}}, s{{[0-9]+}}
// CHECK-NEXT: buffer_load_dword [[LANE]], s[{{[0-9]+}}:{{[0-9]+}}], [[L1]] offen offset:1024 lds
// CHECK-NEXT: s_add_i32 [[L2:s[0-9]+]], s{{[0-9]+}}, s{{[0-9]+}}
// CHECK-NEXT: buffer_load_dword [[LANE]], s[{{[0-9]+}}:{{[0-9]+}}], [[L2]] offen offset:2048 lds
// CHECK-NEXT: s_add_i32 [[L3:s[0-9]+]], s{{[0-9]+}}, s{{[0-9]+}}
// CHECK-NEXT: buffer_load_dword [[LANE]], s[{{[0-9]+}}:{{[0-9]+}}], [[L3]] offen offset:3072 lds
// The second four lines, under a second M0 write.
// CHECK-NOT: {{^[[:space:]]+v_}}
// CHECK: s_mov_b32 m0, s{{[0-9]+}}
// CHECK-NOT: {{^[[:space:]]+v_}}
// CHECK: buffer_load_dword [[LANE]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// CHECK-NOT: {{^[[:space:]]+v_}}
// CHECK-COUNT-3: buffer_load_dword [[LANE]], s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen offset:{{[0-9]+}} lds
// CHECK-COUNT-8: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen lds
// CHECK-COUNT-8: buffer_load_dword v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0 offen{{$}}
// CHECK-NOT: buffer_load
// CHECK-NOT: v_perm_b32
// CHECK-NOT: s_waitcnt vmcnt
// CHECK: s_setprio 1
// CHECK-NEXT: ds_read
// CHECK-NEXT: ds_read_b64
// CHECK: s_waitcnt lgkmcnt(1)
// CHECK-NEXT: v_mfma_f32_32x32x16_fp8_fp8 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], 0{{$}}
// CHECK-NOT: v_mfma
// CHECK: v_exp_f32
// CHECK-NEXT: v_exp_f32
// CHECK-NEXT: ds_read_b64
// CHECK-NEXT: s_waitcnt lgkmcnt(1)
// CHECK-NEXT: v_mfma_f32_32x32x16_fp8_fp8
// CHECK-COUNT-6: v_mfma_f32_32x32x16_fp8_fp8
// The second row block of keys: its first MFMA accumulates from 0 too.
// CHECK: v_mfma_f32_32x32x16_fp8_fp8 v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], 0{{$}}
// CHECK-COUNT-7: v_mfma_f32_32x32x16_fp8_fp8
// CHECK-NOT: v_mfma
// CHECK: s_setprio 0
// Barrier X, V j+1 stored transposed, then P_j to FNUZ e4m3 and cluster B
// (normal priority): the 16 MFMAs of O^T += V_j^T P_j^T (64 keys in four
// 16-deep steps per 32 rows of D), one read of V^T between MFMAs, P's
// conversions among the first.
// CHECK: s_barrier
// CHECK: ds_write_b16
// CHECK: ds_read2_b32
// CHECK: v_cvt_pk_fp8_f32 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}{{$}}
// CHECK: v_cvt_pk_fp8_f32 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}} op_sel:[0,0,1]
// CHECK: v_mfma_f32_32x32x16_fp8_fp8 [[O:v\[[0-9]+:[0-9]+\]]], v[{{[0-9]+}}:{{[0-9]+}}], v[{{[0-9]+}}:{{[0-9]+}}], [[O]]
// CHECK-COUNT-15: v_mfma_f32_32x32x16_fp8_fp8 {{.*}}, v{{\[[0-9]+:[0-9]+\]}}{{$}}
// CHECK-NOT: s_setprio
// CHECK: s_cbranch_vccz
// CHECK: s_endpgm

// No VGPR spill and no scratch.
// STATS: kernel fmha_fwd_fp8 (gfx942)
// STATS: spills        0 VGPR,
// STATS-NEXT: scratch       0 bytes per work-item
// STATS: occupancy     {{[24]}} of 8 waves per SIMD
