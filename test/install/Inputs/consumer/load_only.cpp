// Loads a GEMM code object compiled ahead of time by the installed kcc
// (f16 in, f32 out, 64x64 workgroup tiles) with the runtime alone, runs it
// on an emulated device and checks C = A * Bt^T exactly (small integers).
#include "runtime/Buffer.h"
#include "runtime/Module.h"
#include "runtime/Runtime.h"

#include "runtime/DType.h"

#include "llvm/Support/Error.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

int main(int argc, char **argv) {
  llvm::ExitOnError check("load_only: ");
  if (argc != 3) {
    std::fprintf(stderr, "usage: load_only FILE.hsaco DEVICE\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  auto runtime = check(kcc::Runtime::create());
  kcc::Device &device = check(runtime->device(argv[2]));
  kcc::Module module = check(kcc::Module::load(device, bytes));
  kcc::Kernel gemm = check(module.kernel("gemm"));

  const int M = 70, N = 50, K = 40;
  std::vector<uint16_t> a(M * K), bt(N * K), bias(N, 0);
  for (int i = 0; i < M * K; ++i)
    a[i] = kcc::floatToF16(float(i % 5) - 2);
  for (int i = 0; i < N * K; ++i)
    bt[i] = kcc::floatToF16(float(i % 3) - 1);
  kcc::Buffer da = check(kcc::Buffer::fromHost(device, a));
  kcc::Buffer db = check(kcc::Buffer::fromHost(device, bt));
  kcc::Buffer dc = check(kcc::Buffer::allocate(device, M * N * sizeof(float)));
  kcc::Buffer dbias = check(kcc::Buffer::fromHost(device, bias));
  kcc::LaunchResult run = check(gemm.launch(
      kcc::Dim3((M + 63) / 64, (N + 63) / 64), kcc::Dim3(256),
      {da, db, dc, dbias, M, N, K, K, K, N}));
  std::vector<float> c = check(dc.toHost<float>());
  int wrong = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float ref = 0;
      for (int k = 0; k < K; ++k)
        ref += (float(i * K + k) - 5 * float((i * K + k) / 5) - 2) *
               (float(j * K + k) - 3 * float((j * K + k) / 3) - 1);
      wrong += c[i * N + j] != ref;
    }
  std::printf("gemm code object on %s: %llu wave instructions, %d of %d wrong: %s\n",
              device.spec().c_str(),
              (unsigned long long)run.waveInstructions.value_or(0), wrong, M * N,
              wrong ? "FAIL" : "PASS");
  return wrong ? 1 : 0;
}
