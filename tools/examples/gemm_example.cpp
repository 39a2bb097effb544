//===- gemm_example.cpp - JIT-compile and run kcc's GEMM, check it --------===//
//
// What a user of kcc writes: take the default device (a GPU, else the
// emulator; KCC_DEVICE=emu:gfx942 picks another), put two bf16 matrices on
// it, run kcc::ops::gemm (compiled on first use, then cached) and compare
// with a float64 reference on the host. Prints the max error and PASS/FAIL.
//
//===----------------------------------------------------------------------===//
#include "kernels/gemm/GemmOp.h"
#include "runtime/Runtime.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <random>

using namespace kcc;

int main() {
  llvm::ExitOnError check("gemm_example: ");
  const int M = 200, N = 136, K = 96;
  std::mt19937 rng(1);
  std::normal_distribution<float> normal;
  std::vector<uint16_t> a(M * K), bt(N * K);
  for (auto &x : a) x = floatToBf16(normal(rng));
  for (auto &x : bt) x = floatToBf16(normal(rng));

  auto runtime = check(Runtime::create());
  Device &device = check(runtime->defaultDevice());
  Buffer da = check(Buffer::fromHost(device, a));
  Buffer dbt = check(Buffer::fromHost(device, bt));
  Buffer dc = check(Buffer::allocate(device, M * N * sizeof(float)));
  auto run = check(ops::gemm({da, DType::bf16, M, K}, {dbt, DType::bf16, N, K},
                             {dc, DType::f32, M, N}));
  std::vector<float> c = check(dc.toHost<float>());

  double maxError = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double ref = 0;
      for (int k = 0; k < K; ++k)
        ref += double(bf16ToFloat(a[m * K + k])) * bf16ToFloat(bt[n * K + k]);
      maxError = std::max(maxError, std::fabs(c[m * N + n] - ref));
    }
  bool pass = maxError < 1e-3;
  llvm::outs() << "gemm " << M << "x" << N << "x" << K << " bf16 -> f32 on "
               << device.spec() << " (" << device.description() << "): ";
  if (run.deviceMilliseconds)
    llvm::outs() << *run.deviceMilliseconds << " ms; ";
  if (run.waveInstructions)
    llvm::outs() << *run.waveInstructions << " wave instructions; ";
  llvm::outs() << "max error " << maxError << " -> " << (pass ? "PASS" : "FAIL")
               << "\n";
  return pass ? 0 : 1;
}
