// The GEMM kernel (kernels/gemm/gemm.mlir) on gfx942: what makes it fast.
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx942 -D BK=32 -D KS=16 -D SWZ=4 --emit=asm -o - | FileCheck %s
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx942 -D REG=1 -D PAD=4 -D RROWS=16 --emit=asm -o - | FileCheck %s --check-prefix=REG
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx942 -D REG=1 -D PAD=4 -D RROWS=16 --stats | FileCheck %s --check-prefix=REGSTATS
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx942 -D BK=32 -D KS=16 -D SWZ=4 --stats | FileCheck %s --check-prefix=STATS
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx942 -D BK=32 -D KS=16 -D SWZ=4 -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=NOTES
// RUN: kcc %kernels/gemm/gemm.mlir --mcpu=gfx942 -D BK=32 -D KS=16 -D SWZ=4 --emit=asm -o - | FileCheck %s --check-prefix=PAIR

// The tiles kcc::ops::gemm picks on gfx942: 128x128 per workgroup, BK=32,
// LDS rows of 64 bytes swizzled over their 4 chunks, filled by the 4-byte
// DMA (gfx942 has no wider one). The copy of a K block wholly inside A and
// Bt (inbounds): 8 lines of A then 8 of Bt per wave and buffer, each line
// in one instruction whose lane part is one VGPR computed once and whose
// line offset is the scalar offset: nothing rewrites the lane's VGPR
// between the lines of one matrix. The 8 lines of a matrix share one M0
// write, at offsets 0, 512, .. 3584 (two lines apart, one swizzle period
// of 8 rows: the same columns a lane). First in the prologue, then in the
// loop.
// PAIR: buffer_load_dword v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}} offen lds
// PAIR-NOT: m0
// PAIR: offen offset:512 lds
// PAIR-NOT: m0
// PAIR: offen offset:1024 lds
// PAIR-NOT: m0
// PAIR: offen offset:1536 lds
// PAIR-NOT: m0
// PAIR: offen offset:2048 lds
// PAIR-NOT: m0
// PAIR: offen offset:2560 lds
// PAIR-NOT: m0
// PAIR: offen offset:3072 lds
// PAIR-NOT: m0
// PAIR: offen offset:3584 lds
// CHECK-LABEL: gemm:
// CHECK: v_xor_b32
// CHECK: buffer_load_dword [[A0:v[0-9]+]], [[RA0:s\[[0-9]+:[0-9]+\]]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// CHECK: buffer_load_dword [[A0]], [[RA0]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// CHECK: buffer_load_dword [[A0]], [[RA0]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// CHECK: buffer_load_dword [[A0]], [[RA0]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// CHECK: buffer_load_dword [[A0]], [[RA0]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// CHECK: buffer_load_dword [[A0]], [[RA0]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// CHECK: buffer_load_dword [[A0]], [[RA0]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A0]],
// CHECK: buffer_load_dword [[A0]], [[RA0]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK: buffer_load_dword [[B0:v[0-9]+]], [[RB0:s\[[0-9]+:[0-9]+\]]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// CHECK: buffer_load_dword [[B0]], [[RB0]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// CHECK: buffer_load_dword [[B0]], [[RB0]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// CHECK: buffer_load_dword [[B0]], [[RB0]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// CHECK: buffer_load_dword [[B0]], [[RB0]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// CHECK: buffer_load_dword [[B0]], [[RB0]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// CHECK: buffer_load_dword [[B0]], [[RB0]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B0]],
// CHECK: buffer_load_dword [[B0]], [[RB0]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK: s_waitcnt vmcnt(0)
// CHECK-NEXT: s_barrier
// CHECK: buffer_load_dword [[A1:v[0-9]+]], [[RA1:s\[[0-9]+:[0-9]+\]]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A1]],
// CHECK: buffer_load_dword [[A1]], [[RA1]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A1]],
// CHECK: buffer_load_dword [[A1]], [[RA1]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A1]],
// CHECK: buffer_load_dword [[A1]], [[RA1]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A1]],
// CHECK: buffer_load_dword [[A1]], [[RA1]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A1]],
// CHECK: buffer_load_dword [[A1]], [[RA1]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A1]],
// CHECK: buffer_load_dword [[A1]], [[RA1]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[A1]],
// CHECK: buffer_load_dword [[A1]], [[RA1]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK: buffer_load_dword [[B1:v[0-9]+]], [[RB1:s\[[0-9]+:[0-9]+\]]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B1]],
// CHECK: buffer_load_dword [[B1]], [[RB1]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B1]],
// CHECK: buffer_load_dword [[B1]], [[RB1]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B1]],
// CHECK: buffer_load_dword [[B1]], [[RB1]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B1]],
// CHECK: buffer_load_dword [[B1]], [[RB1]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B1]],
// CHECK: buffer_load_dword [[B1]], [[RB1]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B1]],
// CHECK: buffer_load_dword [[B1]], [[RB1]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds
// CHECK-NOT: {{^[[:space:]]+v_[a-z0-9_]+}} [[B1]],
// CHECK: buffer_load_dword [[B1]], [[RB1]], s{{[0-9]+}} offen {{(offset:[0-9]+ )?}}lds

// The multiply of one buffer, software-pipelined in K slices of 16: LDS
// reads feed the MFMAs with no wait on the DMA into the other buffer (each
// buffer has its own alias scope) until the wait and barrier that end the
// half-iteration.
// CHECK: ds_read
// CHECK-NOT: vmcnt
// CHECK: v_mfma_f32_32x32x8_bf16
// CHECK-NOT: vmcnt
// CHECK: s_waitcnt vmcnt(0)
// CHECK: s_barrier
// CHECK: s_endpgm

// No VGPR spills and no scratch. The 4-byte DMA's lines each keep a
// loop-invariant M0 value and line offset in SGPRs (eight lines a wave per
// matrix and buffer): at the 102-SGPR limit a few go to VGPR lanes
// (v_writelane/v_readlane, no memory; 705 TFLOPS at 8192^3 on the model
// with or without them).
// STATS: kernel gemm (gfx942)
// STATS: spills        0 VGPR, {{[0-9]}} SGPR
// STATS-NEXT: scratch       0 bytes per work-item
// STATS-NEXT: LDS           32768 bytes per workgroup
// STATS: mfma 32{{$}}

// NOTES: amdhsa.kernels:
// NOTES: .group_segment_fixed_size: 32768
// NOTES: .name: gemm
// NOTES: .private_segment_fixed_size: 0
// NOTES: .sgpr_spill_count: {{[0-9]}}
// NOTES: .vgpr_spill_count: 0
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx942

// The register form (REG, a parameter; ops::gemm's choice before the
// swizzled DMA, which the timing model puts 2.5x ahead): each wave moves
// its 16 rows of each stage of A and Bt through registers (pairs of
// elements, bounded, the next block loaded before the multiply and stored
// after it) into LDS rows padded by 4; no LDS DMA at all. 36 KiB of LDS.
// REG-LABEL: gemm:
// REG-NOT: offen lds
// REG: buffer_load_dword
// REG: ds_write2_b32
// REG: s_barrier
// The loop: next block's loads, the multiply from LDS, then the stores.
// REG: buffer_load_dword
// REG: ds_read2_b64
// REG: v_mfma_f32_32x32x8_bf16
// REG: ds_write2_b32
// REG: s_barrier
// REG-NOT: offen lds
// REG: s_endpgm
// REGSTATS: spills {{ *}}0 VGPR, 0 SGPR
// REGSTATS: LDS {{ *}}36864 bytes per workgroup
