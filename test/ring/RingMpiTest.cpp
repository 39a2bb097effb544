//===- RingMpiTest.cpp - ring_attention with one rank per process ----------===//
//
// Run under mpirun: every process owns one emulated device, the ranks of the
// node share a symmetric heap in POSIX shared memory, and KCC_RING_MPI_PAIRS
// (or --force-mpi) puts chosen pairs on the MPI point-to-point path. Every
// process builds the same global problem (same seed), runs ring_attention on
// its shard and checks its O and LSE against float64 attention over the
// whole sequence; it prints one line ("rank R: ...") and exits non-zero on
// any mismatch or error. With --mismatch rank 1 passes one token fewer: every
// rank must report the same error instead of hanging.
//
//   kcc-ring-mpi-test [--seq S] [--causal] [--zigzag] [--d 64|128]
//                     [--f16] [--heads H] [--kv-heads H] [--force-mpi a-b,...]
//                     [--mismatch] [--rccl] [--persistent]
//                     [--destroy-after-finalize]
//
// --persistent runs the persistent step kernel (RingStepKernel::Persistent).
// --destroy-after-finalize keeps the communicator (and its runtime) alive
// past MPI_Finalize and destroys them after, as a program whose
// std::unique_ptr outlives its MPI_Finalize call does; that must not abort.
//
//===----------------------------------------------------------------------===//
#include "kernels/ring/RingAttention.h"
#include "kernels/ring/RingMpi.h"
#include "runtime/Buffer.h"
#include "runtime/Runtime.h"

#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace kcc;
using namespace kcc::ops;

namespace {

/// --destroy-after-finalize: what main destroys after MPI_Finalize.
std::unique_ptr<Runtime> keptRuntime;
std::unique_ptr<RingCommunicator> keptComm;

uint16_t quantize(float x, bool bf) {
  if (bf) {
    uint32_t b;
    std::memcpy(&b, &x, 4);
    b += 0x7fff + ((b >> 16) & 1);
    return uint16_t(b >> 16);
  }
  _Float16 h = _Float16(x);
  uint16_t r;
  std::memcpy(&r, &h, 2);
  return r;
}
double dequantize(uint16_t h, bool bf) {
  if (bf) {
    uint32_t b = uint32_t(h) << 16;
    float x;
    std::memcpy(&x, &b, 4);
    return x;
  }
  _Float16 v;
  std::memcpy(&v, &h, 2);
  return double(v);
}

int run(int rank, int world, int argc, char **argv) {
  int S = 77, D = 64, H = 4, Hkv = 2;
  bool causal = false, zigzag = false, bf = true, mismatch = false, rccl = false,
       persistent = false, destroyAfterFinalize = false;
  MpiRingOptions mo;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--seq") S = std::stoi(next());
    else if (a == "--d") D = std::stoi(next());
    else if (a == "--heads") H = std::stoi(next());
    else if (a == "--kv-heads") Hkv = std::stoi(next());
    else if (a == "--causal") causal = true;
    else if (a == "--zigzag") zigzag = true;
    else if (a == "--f16") bf = false;
    else if (a == "--mismatch") mismatch = true;
    else if (a == "--rccl") rccl = true;
    else if (a == "--persistent") persistent = true;
    else if (a == "--destroy-after-finalize") destroyAfterFinalize = true;
    else if (a == "--force-mpi") {
      std::string list = next();
      for (size_t p = 0; p < list.size();) {
        size_t comma = list.find(',', p);
        std::string item = list.substr(p, comma == std::string::npos ? std::string::npos : comma - p);
        size_t dash = item.find('-');
        mo.forceMpi.push_back({unsigned(std::stoi(item.substr(0, dash))),
                               unsigned(std::stoi(item.substr(dash + 1)))});
        p = comma == std::string::npos ? list.size() : comma + 1;
      }
    } else {
      std::printf("rank %d: unknown argument %s\n", rank, a.c_str());
      return 2;
    }
  }
  if (rccl)
    mo.crossNode = RingCrossNode::Rccl;
  RuntimeOptions ro;
  ro.useHip = false;
  auto rt = Runtime::create(ro);
  if (!rt) {
    std::printf("rank %d: %s\n", rank, llvm::toString(rt.takeError()).c_str());
    return 1;
  }
  auto comm = createMpiRingCommunicator(**rt, mo);
  if (!comm) {
    std::printf("rank %d: %s\n", rank, llvm::toString(comm.takeError()).c_str());
    return 1;
  }
  RingSharding sharding = zigzag ? RingSharding::ZigZag : RingSharding::Contiguous;
  DType dtype = bf ? DType::bf16 : DType::f16;

  int64_t N = int64_t(world) * S;
  std::mt19937 rng(1234 + S + D);
  std::normal_distribution<float> randn(0.f, 1.f);
  std::vector<uint16_t> q(size_t(N * H * D)), k(size_t(N * Hkv * D)), v(k.size());
  for (auto *t : {&q, &k, &v})
    for (auto &x : *t)
      x = quantize(randn(rng), bf);

  int mineS = mismatch && rank == 1 ? S - 1 : S;
  std::vector<int64_t> globalOf;
  for (const RingChunk &c : ringChunks(sharding, unsigned(world), unsigned(rank), S))
    for (int64_t i = 0; i < c.length; ++i)
      globalOf.push_back(c.globalStart + i);
  auto shard = [&](const std::vector<uint16_t> &src, int heads) {
    std::vector<uint16_t> out(size_t(mineS) * heads * D);
    for (int t = 0; t < mineS; ++t)
      std::memcpy(&out[size_t(t) * heads * D], &src[size_t(globalOf[t]) * heads * D],
                  size_t(heads) * D * 2);
    return out;
  };
  Device &dev = (*comm)->device(unsigned(rank));
  auto bq = Buffer::fromHost(dev, shard(q, H));
  auto bk = Buffer::fromHost(dev, shard(k, Hkv));
  auto bv = Buffer::fromHost(dev, shard(v, Hkv));
  auto bo = Buffer::allocate(dev, uint64_t(mineS) * H * D * 2);
  auto bl = Buffer::allocate(dev, uint64_t(H) * mineS * 4);
  if (!bq || !bk || !bv || !bo || !bl) {
    std::printf("rank %d: cannot allocate its operands\n", rank);
    return 1;
  }
  RingRankOperands ops;
  ops.q = AttentionTensorRef(*bq, dtype, 1, mineS, H, D);
  ops.k = AttentionTensorRef(*bk, dtype, 1, mineS, Hkv, D);
  ops.v = AttentionTensorRef(*bv, dtype, 1, mineS, Hkv, D);
  ops.o = AttentionTensorRef(*bo, dtype, 1, mineS, H, D);
  ops.lse = VectorRef(*bl, DType::f32, int64_t(H) * mineS);
  RingAttentionOptions options;
  options.causal = causal;
  options.sharding = sharding;
  if (persistent)
    options.stepKernel = RingStepKernel::Persistent;
  auto res = ring_attention(**comm, {ops}, options);
  if (!res) {
    std::printf("rank %d: %s\n", rank, llvm::toString(res.takeError()).c_str());
    return 1;
  }

  std::vector<double> qd(q.size()), kd(k.size()), vd(v.size()), oRef, lRef;
  for (size_t i = 0; i < q.size(); ++i) qd[i] = dequantize(q[i], bf);
  for (size_t i = 0; i < k.size(); ++i) kd[i] = dequantize(k[i], bf), vd[i] = dequantize(v[i], bf);
  AttentionShape shape;
  shape.seqQ = N, shape.seqKv = N, shape.heads = H, shape.kvHeads = Hkv, shape.headDim = D;
  attentionReference(shape, qd, kd, vd, causal, 1.0 / std::sqrt(double(D)), oRef, lRef);
  auto o = bo->toHost<uint16_t>();
  auto l = bl->toHost<float>();
  if (!o || !l) {
    std::printf("rank %d: cannot read its results\n", rank);
    return 1;
  }
  double tol = bf ? 8e-3 : 2e-3, worst = 0, worstLse = 0;
  int bad = 0;
  for (int t = 0; t < S; ++t)
    for (int h = 0; h < H; ++h) {
      for (int e = 0; e < D; ++e) {
        double ref = oRef[(size_t(globalOf[t]) * H + h) * D + e];
        double err = std::fabs(dequantize((*o)[(size_t(t) * H + h) * D + e], bf) - ref);
        if (!(err <= tol * std::max(1.0, std::fabs(ref))))
          ++bad;
        worst = std::max(worst, err);
      }
      double errL = std::fabs((*l)[size_t(h) * S + t] - lRef[size_t(h) * N + globalOf[t]]);
      if (!(errL <= 1e-3))
        ++bad;
      worstLse = std::max(worstLse, errL);
    }
  std::string links;
  for (const RingStepRecord &s : res->steps)
    for (size_t i = 0; i < s.links.size(); ++i)
      links += " " + std::to_string(s.sources[i]) + ":" + ringLinkName(s.links[i]).str();
  std::printf("rank %d: %s (%s) max |O - ref| = %.3g max |LSE - ref| = %.3g; chunks from%s\n",
              rank, bad ? "FAILED" : "OK", res->path.c_str(), worst, worstLse, links.c_str());
  if (destroyAfterFinalize) {
    keptComm = std::move(*comm);
    keptRuntime = std::move(*rt);
  }
  return bad ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, world = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  int status = run(rank, world, argc, argv);
  std::fflush(stdout);
  // Every rank's verdict decides every exit code.
  int worst = 0;
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  if (keptComm) {
    keptComm.reset();
    keptRuntime.reset();
    std::printf("rank %d: communicator destroyed after MPI_Finalize\n", rank);
  }
  return worst;
}
