//===- RunKernel.cpp - `kcc run NAME`: a kernel of kcc by name ------------===//
//
// Each named kernel gets a runner that knows its operands (names, shapes,
// dtypes from the -D parameters) and calls its op wrapper, in one file each:
// the GEMM (RunGemm.cpp), attention (RunAttention.cpp, the kernel
// fmha_fwd.mlir and fmha_fwd_fp8.mlir, also runnable as `kcc run fmha_fwd`,
// `kcc run fmha_fwd_fp8`) and its backward
// (RunAttentionBackward.cpp: Delta, dK/dV and dQ). This file parses the
// options (RunKernelOptions.cpp) and dispatches on the name.
//
//===----------------------------------------------------------------------===//
#include "tools/kcc/RunKernel.h"
#include "tools/kcc/RunKernelOptions.h"
#include "kernels/EmbeddedKernels.h"

#include "llvm/Support/FileSystem.h"

#include <cstdlib>

using namespace llvm;

namespace kcc {

bool isNamedKernel(StringRef word) {
  return (word == "attention" || word == "attention_backward" ||
          findEmbeddedKernel(word).has_value()) &&
         !sys::fs::exists(word);
}

int runNamedKernel(ArrayRef<StringRef> args) {
  using namespace runkernel;
  registerEmbeddedKernels();
  Options o;
  if (std::optional<int> exit = parseOptions(args, o))
    return *exit;
  if (o.kernel == "attention" || o.kernel == "fmha_fwd" || o.kernel == "fmha_fwd_fp8")
    return runAttention(o);
  if (!o.descale.empty())
    return fail("--descale gives the FP8 inputs' descale factors of attention "
                "(-D DTYPE=fp8); " + o.kernel + " takes none");
  if (o.kernel == "attention_backward")
    return runAttentionBackward(o);
  if (!o.scopedDefines.empty())
    return fail("-D " + o.scopedDefines.front().first + "." +
                o.scopedDefines.front().second.str() + ": " + o.kernel +
                " is one kernel; give its parameters as -D NAME=VALUE");
  if (o.kernel == "gemm")
    return runGemm(o);
  return fail("kernel '" + o.kernel + "' has no runner in kcc run; compile it "
              "with `kcc` and run the code object with --kernel");
}

} // namespace kcc
