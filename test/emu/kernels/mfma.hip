//===- mfma.hip - Every MFMA shape and dtype through clang builtins -------===//
//
// One kernel per instruction (and per cbsz/abid/blgp variant), one wave each:
// lane l loads its A and B operand registers from a[l] and b[l], its
// accumulator registers from c[l], runs the MFMA and stores the result
// registers to d[l]. The host knows nothing of what the registers mean
// except through its own model of the documented operand and accumulator
// lane layouts (test/emu/MfmaReference.cpp), so a wrong layout in the
// emulator fails there.
//
//===----------------------------------------------------------------------===//
#include "common.h"

typedef int v32i __attribute__((ext_vector_type(32)));
typedef float v2f_ __attribute__((ext_vector_type(2)));

#define MFMA(NAME, AT, CT, BUILTIN, CBSZ, ABID, BLGP)                          \
  KERNEL void mfma_##NAME(const AT *a, const AT *b, const CT *c, CT *d) {     \
    unsigned l = tidX();                                                       \
    d[l] = BUILTIN(a[l], b[l], c[l], CBSZ, ABID, BLGP);                        \
  }

// f32 inputs.
MFMA(f32_32x32x1f32, float, v32f, __builtin_amdgcn_mfma_f32_32x32x1f32, 0, 0, 0)
MFMA(f32_16x16x1f32, float, v16f, __builtin_amdgcn_mfma_f32_16x16x1f32, 0, 0, 0)
MFMA(f32_4x4x1f32, float, v4f, __builtin_amdgcn_mfma_f32_4x4x1f32, 0, 0, 0)
MFMA(f32_32x32x2f32, float, v16f, __builtin_amdgcn_mfma_f32_32x32x2f32, 0, 0, 0)
MFMA(f32_16x16x4f32, float, v4f, __builtin_amdgcn_mfma_f32_16x16x4f32, 0, 0, 0)
// f16 inputs.
MFMA(f32_32x32x4f16, v4h, v32f, __builtin_amdgcn_mfma_f32_32x32x4f16, 0, 0, 0)
MFMA(f32_16x16x4f16, v4h, v16f, __builtin_amdgcn_mfma_f32_16x16x4f16, 0, 0, 0)
MFMA(f32_4x4x4f16, v4h, v4f, __builtin_amdgcn_mfma_f32_4x4x4f16, 0, 0, 0)
MFMA(f32_32x32x8f16, v4h, v16f, __builtin_amdgcn_mfma_f32_32x32x8f16, 0, 0, 0)
MFMA(f32_16x16x16f16, v4h, v4f, __builtin_amdgcn_mfma_f32_16x16x16f16, 0, 0, 0)
// bf16 inputs (the "_1k" instructions: four bf16 per lane).
MFMA(f32_32x32x4bf16_1k, v4s, v32f, __builtin_amdgcn_mfma_f32_32x32x4bf16_1k, 0, 0, 0)
MFMA(f32_16x16x4bf16_1k, v4s, v16f, __builtin_amdgcn_mfma_f32_16x16x4bf16_1k, 0, 0, 0)
MFMA(f32_4x4x4bf16_1k, v4s, v4f, __builtin_amdgcn_mfma_f32_4x4x4bf16_1k, 0, 0, 0)
MFMA(f32_32x32x8bf16_1k, v4s, v16f, __builtin_amdgcn_mfma_f32_32x32x8bf16_1k, 0, 0, 0)
MFMA(f32_16x16x16bf16_1k, v4s, v4f, __builtin_amdgcn_mfma_f32_16x16x16bf16_1k, 0, 0, 0)
// i8 inputs, i32 accumulation.
MFMA(i32_32x32x4i8, int, v32i, __builtin_amdgcn_mfma_i32_32x32x4i8, 0, 0, 0)
MFMA(i32_16x16x4i8, int, v16i, __builtin_amdgcn_mfma_i32_16x16x4i8, 0, 0, 0)
MFMA(i32_4x4x4i8, int, v4i, __builtin_amdgcn_mfma_i32_4x4x4i8, 0, 0, 0)
MFMA(i32_32x32x16_i8, long, v16i, __builtin_amdgcn_mfma_i32_32x32x16_i8, 0, 0, 0)
MFMA(i32_16x16x32_i8, long, v4i, __builtin_amdgcn_mfma_i32_16x16x32_i8, 0, 0, 0)
// f64.
MFMA(f64_16x16x4f64, double, v4d, __builtin_amdgcn_mfma_f64_16x16x4f64, 0, 0, 0)
MFMA(f64_4x4x4f64, double, double, __builtin_amdgcn_mfma_f64_4x4x4f64, 0, 0, 0)
// fp8/bf8 (gfx942: FNUZ encodings; gfx950: OCP e4m3fn/e5m2).
MFMA(f32_32x32x16_fp8_fp8, long, v16f, __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8, 0, 0, 0)
MFMA(f32_32x32x16_bf8_bf8, long, v16f, __builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8, 0, 0, 0)
MFMA(f32_32x32x16_fp8_bf8, long, v16f, __builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8, 0, 0, 0)
MFMA(f32_16x16x32_fp8_fp8, long, v4f, __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8, 0, 0, 0)
MFMA(f32_16x16x32_bf8_fp8, long, v4f, __builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8, 0, 0, 0)

// Broadcast and lane-group controls: cbsz/abid pick which block's A feeds a
// group of 2^cbsz blocks; blgp permutes the lanes B is read from. The ISA
// defines cbsz/abid for the multi-block instructions and blgp for the f32
// (and f64, where it means negation) ones only, so only those are used.
MFMA(f32_32x32x1f32_cbsz1_abid1, float, v32f, __builtin_amdgcn_mfma_f32_32x32x1f32, 1, 1, 0)
MFMA(f32_16x16x1f32_cbsz2_abid3_blgp3, float, v16f, __builtin_amdgcn_mfma_f32_16x16x1f32, 2, 3, 3)
MFMA(f32_4x4x1f32_cbsz3_abid5_blgp4, float, v4f, __builtin_amdgcn_mfma_f32_4x4x1f32, 3, 5, 4)
MFMA(f32_32x32x2f32_blgp1, float, v16f, __builtin_amdgcn_mfma_f32_32x32x2f32, 0, 0, 1)
MFMA(f32_16x16x4f32_blgp6, float, v4f, __builtin_amdgcn_mfma_f32_16x16x4f32, 0, 0, 6)

// The accumulator pinned to AGPRs by empty inline asm, so the MFMA reads and
// writes a[] registers (the v_accvgpr_write/read moves come with it).
KERNEL void mfma_f32_32x32x8f16_agpr(const v4h *a, const v4h *b,
                                     const v16f *c, v16f *d) {
  unsigned l = tidX();
  v16f acc = c[l];
  asm volatile("" : "+a"(acc));
  acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a[l], b[l], acc, 0, 0, 0);
  asm volatile("" : "+a"(acc));
  d[l] = acc;
}

#if defined(__gfx942__)
// xf32 (gfx942 only; removed in gfx950): f32 inputs rounded to a 10-bit
// mantissa.
MFMA(f32_32x32x4_xf32, v2f_, v16f, __builtin_amdgcn_mfma_f32_32x32x4_xf32, 0, 0, 0)
MFMA(f32_16x16x8_xf32, v2f_, v4f, __builtin_amdgcn_mfma_f32_16x16x8_xf32, 0, 0, 0)
#endif

#if defined(__gfx950__)
// gfx950's double-K 16-bit and i8 instructions: eight 16-bit (sixteen i8)
// values per lane.
MFMA(f32_32x32x16_bf16, v8bf, v16f, __builtin_amdgcn_mfma_f32_32x32x16_bf16, 0, 0, 0)
MFMA(f32_16x16x32_bf16, v8bf, v4f, __builtin_amdgcn_mfma_f32_16x16x32_bf16, 0, 0, 0)
MFMA(f32_32x32x16_f16, v8h, v16f, __builtin_amdgcn_mfma_f32_32x32x16_f16, 0, 0, 0)
MFMA(f32_16x16x32_f16, v8h, v4f, __builtin_amdgcn_mfma_f32_16x16x32_f16, 0, 0, 0)
MFMA(i32_32x32x32_i8, v4i, v16i, __builtin_amdgcn_mfma_i32_32x32x32_i8, 0, 0, 0)
MFMA(i32_16x16x64_i8, v4i, v4i, __builtin_amdgcn_mfma_i32_16x16x64_i8, 0, 0, 0)

// gfx950's block-scaled f8f6f4 MFMAs. A and B are eight dwords per lane in
// the builtin; the instruction reads the low 8, 6 or 4 of them as the format
// (CBSZ for A, BLGP for B: 0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4) needs. s[2l] and
// s[2l + 1] are lane l's scale words of A and B; OPSEL_A/B pick their byte.
typedef int v8i_ __attribute__((ext_vector_type(8)));
#define MFMA_SCALE(SHAPE, CT, CBSZ, BLGP, OPSEL_A, OPSEL_B)                    \
  KERNEL void mfma_scale_##SHAPE##_##CBSZ##_##BLGP##_##OPSEL_A##OPSEL_B(       \
      const v8i_ *a, const v8i_ *b, const CT *c, CT *d, const int *s) {        \
    unsigned l = tidX();                                                       \
    d[l] = __builtin_amdgcn_mfma_scale_f32_##SHAPE##_f8f6f4(                   \
        a[l], b[l], c[l], CBSZ, BLGP, OPSEL_A, s[2 * l], OPSEL_B, s[2 * l + 1]); \
  }
MFMA_SCALE(16x16x128, v4f, 0, 0, 0, 0)
MFMA_SCALE(16x16x128, v4f, 1, 0, 1, 2)
MFMA_SCALE(16x16x128, v4f, 2, 3, 3, 1)
MFMA_SCALE(16x16x128, v4f, 4, 4, 2, 3)
MFMA_SCALE(16x16x128, v4f, 0, 4, 0, 1)
MFMA_SCALE(32x32x64, v16f, 0, 1, 0, 0)
MFMA_SCALE(32x32x64, v16f, 3, 2, 2, 1)
MFMA_SCALE(32x32x64, v16f, 4, 0, 1, 3)
MFMA_SCALE(32x32x64, v16f, 1, 4, 3, 0)
#endif

// Sparse MFMA (A 2:4 sparse; idx[l] is the lane's index VGPR, cbsz/abid pick
// its index set). Operands at fixed lane strides, as SmfmacTests lays them
// out: A and B 8 dwords per lane, C and D 16.
typedef int v2i_ __attribute__((ext_vector_type(2)));
typedef short v8s_ __attribute__((ext_vector_type(8)));
#define SMFMAC(NAME, AT, BT, CT, CBSZ, ABID)                                   \
  KERNEL void smfmac_##NAME(const int *a, const int *b, const int *idx,        \
                            const float *c, float *d) {                        \
    unsigned l = tidX();                                                       \
    *(CT *)(d + 16 * l) = __builtin_amdgcn_smfmac_##NAME(                      \
        *(const AT *)(a + 8 * l), *(const BT *)(b + 8 * l),                    \
        *(const CT *)(c + 16 * l), idx[l], CBSZ, ABID);                        \
  }
SMFMAC(f32_16x16x32_f16, v4h, v8h, v4f, 0, 3)
SMFMAC(f32_32x32x16_bf16, v4s, v8s_, v16f, 0, 2)
SMFMAC(i32_32x32x32_i8, v2i_, v4i, v16i, 0, 1)
SMFMAC(f32_16x16x64_bf8_fp8, v2i_, v4i, v4f, 1, 0)
#if defined(__gfx950__)
typedef _Float16 v16h_ __attribute__((ext_vector_type(16)));
typedef __bf16 v16bf_ __attribute__((ext_vector_type(16)));
SMFMAC(f32_16x16x128_fp8_bf8, v4i, v8i_, v4f, 0, 0)
SMFMAC(f32_32x32x32_bf16, v8bf, v16bf_, v16f, 0, 1)
SMFMAC(f32_16x16x64_f16, v8h, v16h_, v4f, 0, 1)
#endif
