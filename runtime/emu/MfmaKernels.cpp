//===- MfmaKernels.cpp - MFMA block products on the host's vectors --------===//
//
// The 16- and 32-wide rows of the MFMA shapes fill whole AVX2 (8 floats) or
// AVX-512 (16 floats) registers. A few rows of C stay in registers for the
// whole k loop; each k broadcasts one A value per row and streams B's row.
// The order of the k loop, and of the roundings, is the portable loop's.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/MfmaKernels.h"

#include <cmath>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define KCC_MFMA_X86 1
#endif

namespace kcc::emu {
namespace {

void blockPortable(const float *At, const float *B, float *C, int m, int n,
                   int K, MfmaSum sum) {
  for (int i = 0; i < m; ++i) {
    float *c = C + size_t(i) * n;
    for (int k = 0; k < K; ++k) {
      float a = At[size_t(k) * m + i];
      const float *bk = B + size_t(k) * n;
      if (sum == MfmaSum::MulAdd)
        for (int j = 0; j < n; ++j)
          c[j] = c[j] + a * bk[j];
      else
        for (int j = 0; j < n; ++j)
          c[j] = std::fma(a, bk[j], c[j]);
    }
  }
}

/// A quiet copy of NaN `x` (the payload kept), as the host's arithmetic
/// returns a NaN operand.
float quiet(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u |= 0x400000u;
  std::memcpy(&x, &u, 4);
  return x;
}

/// One step with the NaN operands chosen explicitly (B's, A's, then C's):
/// vector instructions pick by operand position, which the compiler may
/// commute.
float stepWithNaNs(float a, float b, float c, MfmaSum sum) {
  if (b != b)
    return quiet(b);
  if (a != a)
    return quiet(a);
  if (sum == MfmaSum::Fma)
    return c != c ? quiet(c) : std::fma(a, b, c);
  float p = a * b;
  if (p != p)
    return p;
  return c != c ? quiet(c) : c + p;
}

void blockWithNaNs(const float *At, const float *B, float *C, int m, int n,
                   int K, MfmaSum sum) {
  for (int i = 0; i < m; ++i)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < n; ++j)
        C[size_t(i) * n + j] = stepWithNaNs(At[size_t(k) * m + i],
                                            B[size_t(k) * n + j],
                                            C[size_t(i) * n + j], sum);
}

#ifdef KCC_MFMA_X86

/// R rows of C, V vectors of 8 each, over the k loop.
template <int R, int V, bool Fused>
__attribute__((target("avx2,fma"))) void rowsAvx2(const float *At,
                                                  const float *B, float *C,
                                                  int m, int n, int K, int i0) {
  __m256 acc[R][V];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v)
      acc[r][v] = _mm256_loadu_ps(C + size_t(i0 + r) * n + 8 * v);
  for (int k = 0; k < K; ++k) {
    const float *bk = B + size_t(k) * n;
    __m256 b[V];
    for (int v = 0; v < V; ++v)
      b[v] = _mm256_loadu_ps(bk + 8 * v);
    for (int r = 0; r < R; ++r) {
      __m256 a = _mm256_broadcast_ss(At + size_t(k) * m + i0 + r);
      for (int v = 0; v < V; ++v)
        acc[r][v] = Fused ? _mm256_fmadd_ps(a, b[v], acc[r][v])
                          : _mm256_add_ps(acc[r][v], _mm256_mul_ps(a, b[v]));
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v)
      _mm256_storeu_ps(C + size_t(i0 + r) * n + 8 * v, acc[r][v]);
}

template <int R, int V, bool Fused>
__attribute__((target("avx512f"))) void rowsAvx512(const float *At,
                                                   const float *B, float *C,
                                                   int m, int n, int K, int i0) {
  __m512 acc[R][V];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v)
      acc[r][v] = _mm512_loadu_ps(C + size_t(i0 + r) * n + 16 * v);
  for (int k = 0; k < K; ++k) {
    const float *bk = B + size_t(k) * n;
    __m512 b[V];
    for (int v = 0; v < V; ++v)
      b[v] = _mm512_loadu_ps(bk + 16 * v);
    for (int r = 0; r < R; ++r) {
      __m512 a = _mm512_set1_ps(At[size_t(k) * m + i0 + r]);
      for (int v = 0; v < V; ++v)
        acc[r][v] = Fused ? _mm512_fmadd_ps(a, b[v], acc[r][v])
                          : _mm512_add_ps(acc[r][v], _mm512_mul_ps(a, b[v]));
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v)
      _mm512_storeu_ps(C + size_t(i0 + r) * n + 16 * v, acc[r][v]);
}

/// Rows of C in groups of R (m is 16 or 32 where n fills the vectors): as
/// many as keep accumulators, B's row and the broadcast in registers (16
/// with AVX2, 32 with AVX-512).
template <int R, int V, bool Fused>
void blockAvx2(const float *At, const float *B, float *C, int m, int n, int K) {
  for (int i = 0; i < m; i += R)
    rowsAvx2<R, V, Fused>(At, B, C, m, n, K, i);
}
template <int R, int V, bool Fused>
void blockAvx512(const float *At, const float *B, float *C, int m, int n, int K) {
  for (int i = 0; i < m; i += R)
    rowsAvx512<R, V, Fused>(At, B, C, m, n, K, i);
}

#endif // KCC_MFMA_X86

/// The widest path this host runs, found once.
MfmaVectors hostVectors() {
  static const MfmaVectors v = [] {
#ifdef KCC_MFMA_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
      return MfmaVectors::Avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
      return MfmaVectors::Avx2;
#endif
    return MfmaVectors::Portable;
  }();
  return v;
}

} // namespace

bool mfmaHostRuns(MfmaVectors v) {
#ifdef KCC_MFMA_X86
  __builtin_cpu_init();
  if (v == MfmaVectors::Avx2)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (v == MfmaVectors::Avx512)
    return __builtin_cpu_supports("avx512f");
#endif
  return v == MfmaVectors::Portable;
}

void mfmaBlockF32On(MfmaVectors v, const float *At, const float *B, float *C,
                    int m, int n, int K, MfmaSum sum, bool nanInputs) {
#ifdef KCC_MFMA_X86
  bool fused = sum == MfmaSum::Fma;
  if (!nanInputs && m % 8 == 0 && (n == 16 || n == 32)) {
    switch (v) {
    case MfmaVectors::Avx512:
      if (n == 32)
        fused ? blockAvx512<8, 2, true>(At, B, C, m, n, K)
              : blockAvx512<8, 2, false>(At, B, C, m, n, K);
      else
        fused ? blockAvx512<8, 1, true>(At, B, C, m, n, K)
              : blockAvx512<8, 1, false>(At, B, C, m, n, K);
      return;
    case MfmaVectors::Avx2:
      if (n == 32)
        fused ? blockAvx2<2, 4, true>(At, B, C, m, n, K)
              : blockAvx2<2, 4, false>(At, B, C, m, n, K);
      else
        fused ? blockAvx2<4, 2, true>(At, B, C, m, n, K)
              : blockAvx2<4, 2, false>(At, B, C, m, n, K);
      return;
    case MfmaVectors::Portable:
      break;
    }
  }
#else
  (void)v;
#endif
  if (nanInputs)
    blockWithNaNs(At, B, C, m, n, K, sum);
  else
    blockPortable(At, B, C, m, n, K, sum);
}

void mfmaBlockF32(const float *At, const float *B, float *C, int m, int n,
                  int K, MfmaSum sum, bool nanInputs) {
  mfmaBlockF32On(hostVectors(), At, B, C, m, n, K, sum, nanInputs);
}

void mfmaBlockI32(const int32_t *At, const int32_t *B, int32_t *C, int m,
                  int n, int K) {
  for (int i = 0; i < m; ++i) {
    uint32_t *c = reinterpret_cast<uint32_t *>(C) + size_t(i) * n;
    for (int k = 0; k < K; ++k) {
      uint32_t a = uint32_t(At[size_t(k) * m + i]);
      const int32_t *bk = B + size_t(k) * n;
      for (int j = 0; j < n; ++j)
        c[j] += a * uint32_t(bk[j]);
    }
  }
}

const char *mfmaHostVectors() {
  switch (hostVectors()) {
  case MfmaVectors::Avx512: return "avx512";
  case MfmaVectors::Avx2: return "avx2";
  case MfmaVectors::Portable: break;
  }
  return "portable";
}

} // namespace kcc::emu
