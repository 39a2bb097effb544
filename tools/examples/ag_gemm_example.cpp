//===- ag_gemm_example.cpp - Fused all-gather + GEMM on 4 emulated GPUs ---===//
//
// The host API of the multi-GPU kernels in one page: four emulated gfx942
// devices (or --chip gfx950, --world N), a symmetric heap over them, A
// sharded along K (rank r holds A_r [M, K / world], randn, different per
// rank), the fused kernel run on all ranks at once, and each rank's C
// compared with a float64 reference (shards gathered, concatenated along K,
// multiplied). Exits non-zero if any element is off.
//
//   kcc-ag-gemm-example [--chip gfx942|gfx950] [--world N] [M N K]
//
//===----------------------------------------------------------------------===//
#include "test/collective/AgGemmProblem.h"

#include "kernels/collective/AgGemmOp.h"
#include "runtime/Runtime.h"
#include "runtime/SymmetricHeap.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>
#include <string>

using namespace kcc;

static int fail(llvm::Error e) {
  llvm::errs() << "kcc-ag-gemm-example: " << llvm::toString(std::move(e)) << "\n";
  return 1;
}

static void usage(llvm::raw_ostream &os) {
  os << "usage: kcc-ag-gemm-example [--chip gfx942|gfx950] [--world N] [M N K]\n"
        "  the fused all-gather + GEMM (kcc::ops::all_gather_gemm) on N emulated ranks\n"
        "  (default 4): C[M, N] = A_gathered[M, K] * B[K, N] + bias on every rank, where\n"
        "  rank r holds A_r[M, K / N]; checked against a float64 reference. Defaults:\n"
        "  M N K = 512 128 1024.\n";
}

int main(int argc, char **argv) {
  Chip chip = Chip::gfx942;
  unsigned world = 4;
  int64_t dims[3] = {512, 128, 1024};
  int nd = 0;
  auto bad = [](const llvm::Twine &what) {
    llvm::errs() << "kcc-ag-gemm-example: " << what << "\n";
    usage(llvm::errs());
    return 2;
  };
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a = argv[i];
    if (a == "--help" || a == "-h") {
      usage(llvm::outs());
      return 0;
    }
    if (a == "--chip" || a == "--world") {
      if (i + 1 == argc)
        return bad(a + " needs a value");
      llvm::StringRef v = argv[++i];
      if (a == "--chip") {
        std::optional<Chip> c = parseChip(v);
        if (!c)
          return bad("unknown chip '" + v + "'");
        chip = *c;
      } else if (v.getAsInteger(10, world) || world == 0) {
        return bad("--world takes a positive number of ranks; got '" + v + "'");
      }
    } else if (nd < 3) {
      if (a.getAsInteger(10, dims[nd]) || dims[nd] <= 0)
        return bad("M, N and K are positive numbers; got '" + a + "'");
      ++nd;
    } else {
      return bad("unexpected argument '" + a + "'");
    }
  }
  int64_t M = dims[0], N = dims[1], K = dims[2];

  // Emulated ranks: the example shows the emulator path on any machine.
  RuntimeOptions ro;
  ro.useHip = false;
  llvm::Expected<std::unique_ptr<Runtime>> rt = Runtime::create(ro);
  if (!rt)
    return fail(rt.takeError());
  llvm::Expected<std::vector<Device *>> devices =
      (*rt)->emulatedDevices(chip, world);
  if (!devices)
    return fail(devices.takeError());
  llvm::Expected<std::unique_ptr<SymmetricHeap>> heap =
      SymmetricHeap::create(**rt, *devices, 64 << 20);
  if (!heap)
    return fail(heap.takeError());

  llvm::Expected<testing::AgGemmProblem> p = testing::AgGemmProblem::create(
      **heap, M, N, K, DType::bf16, DType::f32, /*hasBias=*/true);
  if (!p)
    return fail(p.takeError());
  llvm::Expected<ops::AgGemmWorkspace> ws =
      ops::makeAllGatherGemmWorkspace(**heap, DType::bf16, M, K);
  if (!ws)
    return fail(ws.takeError());
  llvm::Expected<ops::AllGatherGemmResult> r = ops::all_gather_gemm(
      **heap, p->a, p->btRefs, p->cRefs, p->biasRefs, *ws);
  if (!r)
    return fail(r.takeError());
  llvm::Expected<testing::AgGemmProblem::Error> err = p->compare();
  if (!err)
    return fail(err.takeError());

  llvm::outs() << "fused all-gather + GEMM on " << world << " x "
               << (*devices)[0]->description() << "\n"
               << "  C[" << M << ", " << N << "] = A_gathered[" << M << ", " << K
               << "] * B[" << K << ", " << N << "] + bias, bf16 in, f32 out; "
               << "rank r holds A_r[" << M << ", " << K / world << "]\n"
               << "  grid " << r->grid << " workgroups per rank (" << r->fetchers
               << " fetchers, " << r->workers << " GEMM workers), "
               << r->launches[0].waveInstructions.value_or(0)
               << " wave instructions on rank 0\n"
               << "  max |C - reference| over all ranks: " << err->maxAbs
               << ", elements beyond tolerance: " << err->bad << "\n"
               << (err->bad ? "FAILED" : "OK") << "\n";
  return err->bad ? 1 : 0;
}
