// C = A * Bt^T through kcc::ops::gemm on the default device (the emulator
// without a GPU), checked against a float64 reference.
#include "kernels/EmbeddedKernels.h"
#include "kernels/gemm/GemmOp.h"
#include "runtime/Buffer.h"
#include "runtime/Runtime.h"

#include "runtime/DType.h"

#include "llvm/Support/Error.h"

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  llvm::ExitOnError check("ops_gemm: ");
  const int M = 100, N = 70, K = 52;
  auto runtime = check(kcc::Runtime::create());
  kcc::Device &device = check(runtime->defaultDevice());
  std::vector<uint16_t> a(M * K), bt(N * K);
  std::vector<double> av(M * K), bv(N * K);
  for (int i = 0; i < M * K; ++i) {
    a[i] = kcc::floatToBf16(float((i * 37 % 17) - 8) / 8);
    av[i] = kcc::bf16ToFloat(a[i]);
  }
  for (int i = 0; i < N * K; ++i) {
    bt[i] = kcc::floatToBf16(float((i * 11 % 13) - 6) / 4);
    bv[i] = kcc::bf16ToFloat(bt[i]);
  }
  kcc::Buffer da = check(kcc::Buffer::fromHost(device, a));
  kcc::Buffer db = check(kcc::Buffer::fromHost(device, bt));
  kcc::Buffer dc = check(kcc::Buffer::allocate(device, M * N * sizeof(float)));
  check(kcc::ops::gemm({da, kcc::DType::bf16, M, K}, {db, kcc::DType::bf16, N, K},
                       {dc, kcc::DType::f32, M, N}));
  std::vector<float> c = check(dc.toHost<float>());
  double worst = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0;
      for (int k = 0; k < K; ++k)
        ref += av[i * K + k] * bv[j * K + k];
      worst = std::max(worst, std::fabs(c[i * N + j] - ref));
    }
  bool pass = worst <= 1e-4;
  std::printf("ops::gemm %dx%dx%d on %s: max error %g: %s\n", M, N, K,
              device.spec().c_str(), worst, pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
