// A kernel of the user's own, in the tile dialect, JIT-compiled through the
// installed package (Module::compile, kcc::jit) and run on the default
// device: y = a * x + y on n floats (n <= 64, one wave), checked on the host.
#include "runtime/Buffer.h"
#include "runtime/Jit.h"
#include "runtime/Kernel.h"
#include "runtime/Module.h"
#include "runtime/Runtime.h"

#include "llvm/Support/Error.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

static const char *kSource = R"(
!t = !tile.tile<[1, 64], f32, #tile.blocked<[1, 1], [1, 64]>>
func.func @axpy(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %a: f32, %n: index)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %bx = tile.make_buffer %x, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %by = tile.make_buffer %y, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %vx = tile.load %bx[%c0, %c0] stride %c64 : !tile.buffer<f32> -> !t
  %vy = tile.load %by[%c0, %c0] stride %c64 : !tile.buffer<f32> -> !t
  %va = tile.splat %a : f32 -> !t
  %ax = tile.mulf %vx, %va : !t
  %r = tile.addf %ax, %vy : !t
  tile.store %r, %by[%c0, %c0] stride %c64 : !t, !tile.buffer<f32>
  return
}
)";

int main() {
  llvm::ExitOnError check("own_kernel: ");
  const int n = 50; // a tail: lanes 50-63 read 0 and store nothing
  auto runtime = check(kcc::Runtime::create());
  kcc::Device &device = check(runtime->defaultDevice());
  kcc::Module module = check(kcc::Module::compile(device, kcc::Jit::shared(), kSource, {}));
  kcc::Kernel axpy = check(module.kernel("axpy"));
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i) / 4;
    y[i] = float(n - i);
  }
  kcc::Buffer dx = check(kcc::Buffer::fromHost(device, x));
  kcc::Buffer dy = check(kcc::Buffer::fromHost(device, y));
  const float a = 3.0f;
  check(axpy.launch({1, 1, 1}, {64, 1, 1}, {dx, dy, a, int32_t(n)}));
  std::vector<float> got = check(dy.toHost<float>());
  double worst = 0;
  for (int i = 0; i < n; ++i)
    worst = std::max(worst, std::fabs(double(got[i]) - (double(a) * x[i] + y[i])));
  bool pass = worst == 0;
  std::printf("own axpy kernel, JIT-compiled, n=%d on %s: max error %g: %s\n", n,
              device.spec().c_str(), worst, pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
