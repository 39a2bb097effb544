//===- AgGemmProblem.h - Inputs and reference of all_gather_gemm -*- C++ -*-===//
//
// One all-gather + GEMM problem over the ranks of a symmetric heap: randn
// inputs that differ per rank (each rank's A shard, its Bt and its bias come
// from a generator seeded by the rank), rounded to bf16/f16 once, so that the
// kernels and the float64 reference see the same numbers. The reference
// gathers the shards, concatenates them along K and multiplies in float64.
// Shared by the tests, the benchmark and the example program.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TEST_COLLECTIVE_AGGEMMPROBLEM_H
#define KCC_TEST_COLLECTIVE_AGGEMMPROBLEM_H

#include "kernels/collective/AgGemmOp.h"
#include "runtime/Buffer.h"
#include "runtime/DType.h"
#include "runtime/SymmetricHeap.h"

#include "llvm/Support/Error.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace kcc::testing {

class AgGemmProblem {
public:
  unsigned world = 0;
  int64_t M = 0, N = 0, K = 0;
  DType in = DType::bf16, out = DType::f32;
  bool hasBias = false;
  std::vector<std::vector<uint16_t>> shards, bt, bias; // per rank
  ops::ShardedMatrix a;
  std::vector<Buffer> btBuffers, cBuffers, biasBuffers;
  std::vector<MatrixRef> btRefs, cRefs;
  std::vector<VectorRef> biasRefs;

  /// Makes the inputs (seeded by `seed` and the rank), allocates A's shards
  /// in the heap and the per-rank buffers, and uploads everything.
  static llvm::Expected<AgGemmProblem> create(SymmetricHeap &heap, int64_t M,
                                              int64_t N, int64_t K, DType in,
                                              DType out, bool hasBias,
                                              uint64_t seed = 1) {
    AgGemmProblem p;
    p.world = heap.world();
    p.M = M, p.N = N, p.K = K, p.in = in, p.out = out, p.hasBias = hasBias;
    int64_t kl = K / p.world;
    auto q = [&](float x) {
      return in == DType::bf16 ? floatToBf16(x) : floatToF16(x);
    };
    for (unsigned r = 0; r < p.world; ++r) {
      std::mt19937_64 rng(seed * 1000003 + r * 7919 + M * 31 + N * 17 + K);
      std::normal_distribution<float> normal;
      std::vector<uint16_t> s(size_t(M) * kl), b(size_t(N) * K), bi(N);
      for (auto &x : s) x = q(normal(rng));
      for (auto &x : b) x = q(normal(rng));
      for (auto &x : bi) x = q(normal(rng));
      p.shards.push_back(std::move(s));
      p.bt.push_back(std::move(b));
      p.bias.push_back(std::move(bi));
    }
    llvm::Expected<SymmetricAllocation> alloc =
        heap.allocate(uint64_t(M) * kl * 2);
    if (!alloc)
      return alloc.takeError();
    p.a = {*alloc, in, M, K};
    for (unsigned r = 0; r < p.world; ++r) {
      if (llvm::Error e = heap.write(r, *alloc, p.shards[r].data(),
                                     p.shards[r].size() * 2))
        return std::move(e);
      Device &d = heap.device(r);
      llvm::Expected<Buffer> b = Buffer::fromHost(d, p.bt[r]);
      if (!b)
        return b.takeError();
      p.btBuffers.push_back(std::move(*b));
      llvm::Expected<Buffer> c =
          Buffer::allocate(d, uint64_t(M) * N * dtypeSize(out));
      if (!c)
        return c.takeError();
      p.cBuffers.push_back(std::move(*c));
      llvm::Expected<Buffer> bb = Buffer::fromHost(d, p.bias[r]);
      if (!bb)
        return bb.takeError();
      p.biasBuffers.push_back(std::move(*bb));
    }
    // Views after the vectors are complete: Buffers move while they grow.
    for (unsigned r = 0; r < p.world; ++r) {
      p.btRefs.emplace_back(p.btBuffers[r], in, N, K);
      p.cRefs.emplace_back(p.cBuffers[r], out, M, N);
      if (hasBias)
        p.biasRefs.emplace_back(p.biasBuffers[r], in, N);
    }
    return std::move(p);
  }

  double value(uint16_t h) const {
    return in == DType::bf16 ? bf16ToFloat(h) : f16ToFloat(h);
  }

  /// Rank r's C in float64: concat_k(shards) * Bt_r^T (+ bias_r).
  std::vector<double> reference(unsigned r) const {
    int64_t kl = K / world;
    std::vector<double> ag(size_t(M) * K);
    for (unsigned p = 0; p < world; ++p)
      for (int64_t m = 0; m < M; ++m)
        for (int64_t k = 0; k < kl; ++k)
          ag[m * K + p * kl + k] = value(shards[p][m * kl + k]);
    std::vector<double> b(size_t(N) * K);
    for (size_t i = 0; i < b.size(); ++i)
      b[i] = value(bt[r][i]);
    std::vector<double> c(size_t(M) * N);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double s = hasBias ? value(bias[r][n]) : 0;
        const double *x = &ag[m * K], *y = &b[n * K];
        for (int64_t k = 0; k < K; ++k)
          s += x[k] * y[k];
        c[m * N + n] = s;
      }
    return c;
  }

  /// Rank r's C as computed, widened to double.
  llvm::Expected<std::vector<double>> result(unsigned r) const {
    std::vector<double> c(size_t(M) * N);
    if (out == DType::f32) {
      llvm::Expected<std::vector<float>> v = cBuffers[r].toHost<float>();
      if (!v)
        return v.takeError();
      for (size_t i = 0; i < c.size(); ++i) c[i] = (*v)[i];
    } else {
      llvm::Expected<std::vector<uint16_t>> v = cBuffers[r].toHost<uint16_t>();
      if (!v)
        return v.takeError();
      for (size_t i = 0; i < c.size(); ++i)
        c[i] = out == DType::bf16 ? bf16ToFloat((*v)[i]) : f16ToFloat((*v)[i]);
    }
    return c;
  }

  /// The tolerance of one element: f32 accumulation over K (products of
  /// unit normals, sums of size ~sqrt(K)) plus the rounding of C to `out`.
  double tolerance(double ref) const {
    double accum = 1e-5 * std::sqrt(double(K)) * 4;
    double rounding = out == DType::f32    ? 1e-6
                      : out == DType::bf16 ? 1.0 / 256
                                           : 1.0 / 2048;
    return accum + rounding * std::fabs(ref);
  }

  /// The largest |C - reference| over all ranks and the number of elements
  /// beyond tolerance.
  struct Error {
    double maxAbs = 0;
    int64_t bad = 0;
  };
  llvm::Expected<Error> compare() const {
    Error e;
    for (unsigned r = 0; r < world; ++r) {
      std::vector<double> ref = reference(r);
      llvm::Expected<std::vector<double>> got = result(r);
      if (!got)
        return got.takeError();
      for (size_t i = 0; i < ref.size(); ++i) {
        double d = std::fabs((*got)[i] - ref[i]);
        if (!(d <= tolerance(ref[i])))
          ++e.bad;
        if (!(d <= e.maxAbs))
          e.maxAbs = d; // NaN sticks
      }
    }
    return e;
  }
};

} // namespace kcc::testing

#endif // KCC_TEST_COLLECTIVE_AGGEMMPROBLEM_H
