//===- attention_example.cpp - JIT-compile and run kcc's attention, check it ===//
//
// What a user of kcc writes: take the default device (a GPU, else the
// emulator; KCC_DEVICE=emu:gfx942 picks another), put bf16 Q, K, V
// [B, S, H, D] on it, run kcc::ops::attention_forward (causal, GQA: 8 query
// heads share 2 key/value heads; compiled on first use, then cached) and
// compare with a float64 softmax(Q K^T / sqrt(D)) V on the host. Prints the
// path the op took, the max error and PASS/FAIL.
//
//===----------------------------------------------------------------------===//
#include "kernels/attention/AttentionOp.h"
#include "runtime/Runtime.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <random>

using namespace kcc;

int main() {
  llvm::ExitOnError check("attention_example: ");
  const int B = 1, S = 300, H = 8, Hkv = 2, D = 128;
  std::mt19937 rng(1);
  std::normal_distribution<float> normal;
  std::vector<uint16_t> q(B * S * H * D), k(B * S * Hkv * D), v(k.size());
  for (auto *t : {&q, &k, &v})
    for (auto &x : *t) x = floatToBf16(normal(rng));

  auto runtime = check(Runtime::create());
  Device &device = check(runtime->defaultDevice());
  Buffer dq = check(Buffer::fromHost(device, q)), dk = check(Buffer::fromHost(device, k)),
         dv = check(Buffer::fromHost(device, v));
  Buffer dout = check(Buffer::allocate(device, q.size() * 2));
  ops::AttentionOptions options;
  options.causal = true;
  auto run = check(ops::attention_forward({dq, DType::bf16, B, S, H, D},
                                          {dk, DType::bf16, B, S, Hkv, D},
                                          {dv, DType::bf16, B, S, Hkv, D},
                                          {dout, DType::bf16, B, S, H, D}, options));
  std::vector<uint16_t> out = check(dout.toHost<uint16_t>());

  // Reference: query i of head h sees keys 0..i of K/V head h / (H / Hkv).
  double maxError = 0;
  for (int h = 0; h < H; ++h)
    for (int i = 0; i < S; ++i) {
      auto at = [&](const std::vector<uint16_t> &t, int heads, int s, int hh, int e) {
        return double(bf16ToFloat(t[(size_t(s) * heads + hh) * D + e]));
      };
      std::vector<double> w(i + 1);
      double mx = -INFINITY, sum = 0;
      for (int j = 0; j <= i; ++j) {
        double dot = 0;
        for (int e = 0; e < D; ++e) dot += at(q, H, i, h, e) * at(k, Hkv, j, h / (H / Hkv), e);
        mx = std::max(mx, w[j] = dot / std::sqrt(double(D)));
      }
      for (double &x : w) sum += x = std::exp(x - mx);
      for (int e = 0; e < D; ++e) {
        double ref = 0;
        for (int j = 0; j <= i; ++j) ref += w[j] / sum * at(v, Hkv, j, h / (H / Hkv), e);
        // Absolute error for outputs of order 1, relative beyond.
        maxError = std::max(maxError, std::fabs(at(out, H, i, h, e) - ref) /
                                          std::max(1.0, std::fabs(ref)));
      }
    }
  bool pass = maxError < 8e-3; // a few roundings of bf16
  llvm::outs() << "attention B=" << B << " S=" << S << " H=" << H << " Hkv=" << Hkv
               << " D=" << D << " bf16 causal on " << device.spec() << " ("
               << device.description() << "), " << ops::attentionPathName(run.path)
               << " path: ";
  if (run.launch.deviceMilliseconds)
    llvm::outs() << *run.launch.deviceMilliseconds << " ms; ";
  if (run.launch.waveInstructions)
    llvm::outs() << *run.launch.waveInstructions << " wave instructions; ";
  llvm::outs() << "max error " << maxError << " -> " << (pass ? "PASS" : "FAIL") << "\n";
  return pass ? 0 : 1;
}
