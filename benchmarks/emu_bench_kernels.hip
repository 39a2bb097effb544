// Kernels for emu_bench: built by clang-22 for gfx942 and gfx950 at build
// time (benchmarks/CMakeLists.txt). Each stresses one part of the emulator.
#define KERNEL extern "C" __attribute__((global))

typedef float float4_t __attribute__((ext_vector_type(4)));
typedef float float16_t __attribute__((ext_vector_type(16)));
typedef short short4_t __attribute__((ext_vector_type(4)));

static __attribute__((device)) unsigned tid() { return __builtin_amdgcn_workitem_id_x(); }
static __attribute__((device)) unsigned bid() { return __builtin_amdgcn_workgroup_id_x(); }

// VALU-bound: a long dependent chain of FMAs per lane.
KERNEL void valu_fma(float *out, int iters) {
  float a = tid() * 0.001f, b = 1.0001f, c = 0.5f, d = 0.25f;
  for (int i = 0; i < iters; ++i) {
    a = __builtin_fmaf(a, b, c);
    c = __builtin_fmaf(c, b, d);
    d = __builtin_fmaf(d, 0.999f, a);
    b = __builtin_fmaf(b, 0.9999f, 0.0001f);
  }
  out[bid() * 256 + tid()] = a + b + c + d;
}

// MFMA-bound: 32x32x8 bf16 MFMAs into four independent accumulators.
KERNEL void mfma_loop(float *out, int iters) {
  short4_t a = {(short)tid(), 1, 2, 3}, b = {3, 2, 1, (short)tid()};
  float16_t acc0 = {}, acc1 = {}, acc2 = {}, acc3 = {};
  for (int i = 0; i < iters; ++i) {
    acc0 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, acc0, 0, 0, 0);
    acc1 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(b, a, acc1, 0, 0, 0);
    acc2 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, a, acc2, 0, 0, 0);
    acc3 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(b, b, acc3, 0, 0, 0);
  }
  float16_t s = acc0 + acc1 + acc2 + acc3;
  float r = 0;
  for (int i = 0; i < 16; ++i)
    r += s[i];
  out[bid() * 64 + tid()] = r;
}

// Memory-bound: c = a * s + b over float4s, grid-stride.
KERNEL void triad(const float4_t *a, const float4_t *b, float4_t *c, float s, int n) {
  for (int i = bid() * 256 + tid(); i < n; i += 256 * __builtin_amdgcn_grid_size_x() / 256)
    c[i] = a[i] * s + b[i];
}
