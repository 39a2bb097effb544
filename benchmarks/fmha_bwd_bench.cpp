//===- fmha_bwd_bench.cpp - kcc's attention backward beside aiter's -------===//
//
//   [KCC_AITER_DIR=DIR] fmha_bwd_bench [--iterations K] [--chip gfx942|gfx950]
//                                      [--mode causal|non-causal] [--seq S]
//   KCC_AITER_DIR=DIR fmha_bwd_bench --check [--chip C] [--seq S]
//
// The FlashAttention backward at B=1 H=64 H_kv=8 S=16384 D=128 bf16 (--seq
// changes S), causal (bottom-right diagonal) and not, on both emulated chips,
// on the validated timing model in steady state (K iterations of each
// kernel's hot loop, default 32, extrapolated; README "Timing model"; kcc's
// loops, one wave per SIMD waiting on memory, read 9% fast at K = 8 and
// settle within 2% of K = 96 at 32; aiter's do not move):
//
//   - kcc's backward (kcc::ops::attention_backward): Delta, dK/dV and dQ,
//     each launch timed by itself, and their sum;
//   - AMD's hand-written fmha_v3_bwd (aiter), when KCC_AITER_DIR names an
//     aiter checkout (its hsa/<chip>/fmha_v3_bwd/*.co are read at run time;
//     nothing of aiter is in kcc's tree): the pipeline aiter's launcher
//     (csrc/cpp_itfs/mha_bwd.cu, fmha_v3_bwd) runs for this shape with the
//     Python API's defaults (is_v3_atomic_fp32, gfx942's bf16 conversion
//     rtna, gfx950's rtne): odo (Delta), dqdkdv (all five products, dQ by
//     f32 atomics into a zeroed accumulator) and dq_convert (f32 -> bf16).
//
// For each kernel: the model's time, TFLOPS (FLOPs = 5 products over the
// visible (query, key) pairs for the whole backward, as
// ops::attentionBackwardFlops; per kernel as attentionBackwardKernelFlops,
// aiter's dqdkdv counting all five), the hot loop's cycles per iteration,
// MFMA busy, non-MFMA instructions per MFMA in the hot loop, and what
// `kcc --stats` says of its code object (VGPRs, AGPRs, spills, scratch,
// LDS); then kcc/aiter per chip and mode, and what the model blames for
// each main kernel: the busiest pipe and where the waves of the hot loop
// wait (s_waitcnt, s_barrier, dependency stalls; the instruction that
// waits most).
//
// Every kernel is given its compulsory DRAM bytes (each input read once,
// each output written once), so that the memory-bound ones (Delta, odo,
// dq_convert) are charged at least HBM time on both sides alike.
//
// Causal launches: the model replays the first workgroups of the grid and
// charges every workgroup like them. kcc's causal workgroups differ, the
// longest first (dK/dV's first key block sees every query; dQ launches its
// last query blocks first), so both are given the launch's mean trip count
// of the hot loop, from the loop bounds in the .mlir. aiter's causal dqdkdv
// pairs key blocks i and n-1-i in one workgroup, as its forward does, and
// runs both halves through one loop: steady state would infer the first
// half's trip count only (255 of the pair's 258 back-edges at S=16384 on
// gfx950), so it is given the pair's (aiterCausalTrips). One count the
// model infers is off: kcc's dQ loop leaves through a counter tested in
// mid-body, and the compare before its back-edge is the key-tile bounds
// test, from which the model reads 257 iterations for 256 tiles (0.4%).
//
// --check runs aiter's whole pipeline (not steady state) at a small shape
// (default S=512 H=2 H_kv=1 D=128: two key blocks on gfx950, three with a
// tail on gfx942, so that dQ's atomics, the causal pairing and the GQA sum
// all take part) on each chip, causal and not, and prints the largest error
// of its dQ, dK and dV against ops::attentionBackwardReference (float64),
// beside kcc's on the same inputs: a wrong argument block shows up there
// before any timing is believed. aiter's dK and dV come per query head
// (dk_expanded in its launcher) and are summed over each group on the host,
// as the launcher's at::sum_out does after the kernels.
//
//===----------------------------------------------------------------------===//
#include "benchmarks/SideBySide.h"
#include "compiler/Stats.h"
#include "kernels/EmbeddedKernels.h"
#include "kernels/attention/AttentionBackwardOp.h"
#include "kernels/attention/AttentionOp.h"
#include "runtime/Buffer.h"
#include "runtime/DType.h"
#include "runtime/Device.h"
#include "runtime/Jit.h"
#include "runtime/emu/timing/Blame.h"
#include "runtime/emu/timing/TimingParams.h"
#include "target/CodeObject.h"
#include "target/Error.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace llvm;
using namespace kcc;
namespace timing = kcc::emu::timing;
using ops::AttentionBackwardKernel;

namespace {

//===----------------------------------------------------------------------===//
// Shapes, buffers and figures
//===----------------------------------------------------------------------===//

struct Shape {
  int64_t batch = 1, heads = 64, kvHeads = 8, seq = 16384, headDim = 128;
  bool causal = false;
  ops::AttentionShape op() const {
    ops::AttentionShape s;
    s.batch = batch;
    s.seqQ = s.seqKv = seq;
    s.heads = heads;
    s.kvHeads = kvHeads;
    s.headDim = headDim;
    return s;
  }
  uint64_t qElements() const { return uint64_t(batch * seq * heads * headDim); }
  uint64_t kvElements() const { return uint64_t(batch * seq * kvHeads * headDim); }
  uint64_t rows() const { return uint64_t(batch * heads * seq); } // LSE, Delta
};

/// One kernel's row of the table.
struct Row {
  std::string side, kernel, what;
  Dim3 grid, block;
  std::optional<std::string> error; // the model refused, or the launch failed
  bench::ModelFigures figures;
  double dramBytes = 0;
  bool memoryBound = false;
  uint64_t groupsPerCu = 0;
  std::optional<KernelStats> stats;
  std::string statsError;
  bool statsFromMetadata = false;
  std::string blame; // main kernels only
  std::string note;  // how steady state extrapolated
};

/// The inputs both sides read, on one emulated device: Q, K, V, dO random
/// bf16, O random too and LSE = ln(S) + 1 (values the kernels' control flow
/// does not depend on: steady state writes no gradient worth reading).
struct Inputs {
  Device &device;
  Buffer q, k, v, o, dO, lse;
};

Expected<Buffer> f32Buffer(Device &device, uint64_t elements, float value) {
  std::vector<float> host(static_cast<size_t>(elements), value);
  return Buffer::fromHost(device, ArrayRef<float>(host));
}

Expected<Inputs> makeInputs(Chip chip, const Shape &s) {
  Expected<Device &> device = bench::emulatedDevice(chip);
  if (!device)
    return device.takeError();
  Expected<Buffer> q = bench::randomBf16(*device, s.qElements(), 11),
                   k = bench::randomBf16(*device, s.kvElements(), 12),
                   v = bench::randomBf16(*device, s.kvElements(), 13),
                   o = bench::randomBf16(*device, s.qElements(), 14),
                   dO = bench::randomBf16(*device, s.qElements(), 15),
                   lse = f32Buffer(*device, s.rows(), float(std::log(double(s.seq)) + 1.0));
  for (Expected<Buffer> *b : {&q, &k, &v, &o, &dO, &lse})
    if (!*b)
      return b->takeError();
  return Inputs{*device,         std::move(*q),  std::move(*k),  std::move(*v),
                std::move(*o),   std::move(*dO), std::move(*lse)};
}

/// What the model blames for the hot loop (runtime/emu/timing/Blame.h).
std::string blameOf(const timing::TimingReport &r) {
  if (std::optional<timing::LoopBlame> b = timing::blameHotLoops(r))
    return timing::blameSummary(*b);
  return r.hotLoop < 0 ? "no loop"
                       : "the hot loop ran fewer than 3 iterations per wave: nothing to blame";
}

/// Times `launch` on the model and fills the figures of `row`.
void timeRow(Row &row, Device &device, unsigned iterations, double flops, uint64_t tripCount,
             function_ref<Expected<LaunchResult>()> launch, bool main) {
  timing::TimingOptions options;
  // The main kernels' loops run thousands of iterations: steady state. The
  // elementwise ones (Delta, odo, dq_convert) loop a few times per
  // workgroup, fewer than K, which steady state refuses to stand for the
  // rest: they run whole (every workgroup emulated, one CU's replayed).
  options.steadyStateIterations = main ? iterations : 0;
  options.flops = flops;
  options.dramBytes = row.dramBytes;
  options.tripCount = tripCount;
  options.recordSpans = main; // for blameOf
  Expected<timing::TimingReport> report = bench::timeLaunch(device, options, launch);
  if (!report) {
    row.error = toString(report.takeError());
    return;
  }
  row.figures = bench::figuresOf(*report);
  row.note = report->note;
  // The loop's whole trip count when steady state extrapolated it (the
  // note says "trip count N inferred" or "given"), not the K replayed.
  size_t at = row.note.find("trip count ");
  uint64_t trips;
  if (at != std::string::npos &&
      !StringRef(row.note).substr(at + 11).take_while(isDigit).getAsInteger(10, trips))
    row.figures.tripCount = trips;
  row.memoryBound = report->memoryBound;
  row.groupsPerCu = report->groupsPerCu;
  if (main)
    row.blame = blameOf(*report);
}

void statsOf(Row &row, ArrayRef<uint8_t> codeObject, StringRef kernel) {
  Expected<std::vector<KernelStats>> stats = computeStats(codeObject);
  if (!stats) {
    // aiter's code objects have no function symbol that sizes the code,
    // which the instruction counts need; the registers and memory are in
    // the metadata and the descriptor (AGPRs: the unified file from
    // accum_offset up, as the hardware allocates it).
    row.statsError = toString(stats.takeError());
    Expected<CodeObject> co = CodeObject::parse(codeObject);
    if (!co)
      return;
    const KernelInfo *info = co->findKernel(kernel);
    if (!info)
      return;
    KernelStats k;
    k.name = info->name;
    uint32_t accum = info->descriptor.accumOffset;
    k.vgprs = accum && accum < info->vgprCount ? accum : info->vgprCount;
    k.agprs = info->agprCount ? info->agprCount : info->vgprCount - k.vgprs;
    k.sgprs = info->sgprCount;
    k.vgprSpills = info->vgprSpillCount;
    k.sgprSpills = info->sgprSpillCount;
    k.scratchBytes = info->privateSegmentFixedSize;
    k.ldsBytes = info->groupSegmentFixedSize;
    row.stats = k;
    row.statsError.clear();
    row.statsFromMetadata = true;
    return;
  }
  for (const KernelStats &s : *stats)
    if (s.name == kernel)
      row.stats = s;
  if (!row.stats)
    row.statsError = "no kernel " + kernel.str() + " in the code object";
}

//===----------------------------------------------------------------------===//
// kcc
//===----------------------------------------------------------------------===//

/// The mean trip count of the hot loop over the launch's workgroups, from
/// the loop bounds of fmha_bwd_dkdv.mlir (a workgroup of keys from k0 walks
/// GROUP x (query tiles from the one holding query k0 when causal, else 0,
/// to the end)) and fmha_bwd_dq.mlir (a workgroup of queries up to qlast
/// walks the key tiles up to the one holding key qlast when causal, else
/// all), S_q = S_kv. Causal steady state needs it: the model replays the
/// first workgroups only, which are the longest (dK/dV) or the shortest
/// (dQ) of a causal launch.
double kccMeanTrips(AttentionBackwardKernel kernel, const Shape &s,
                    const std::vector<std::string> &params) {
  std::vector<ParamBinding> bindings = parseKernelParams(params).bindings;
  auto param = [&](StringRef name, int64_t dflt) {
    return paramInteger(bindings, name).value_or(dflt);
  };
  int64_t perWg = param("BLOCK", 256) / 64 * 32, groups = (s.seq + perWg - 1) / perWg;
  double sum = 0;
  if (kernel == AttentionBackwardKernel::DkDv) {
    int64_t bm = param("BM", 32), tiles = (s.seq + bm - 1) / bm;
    for (int64_t g = 0; g < groups; ++g)
      sum += double((s.heads / s.kvHeads) * (tiles - (s.causal ? g * perWg / bm : 0)));
  } else {
    int64_t bn = param("BN", 64), tiles = (s.seq + bn - 1) / bn;
    for (int64_t g = 0; g < groups; ++g) {
      int64_t qlast = std::min((g + 1) * perWg, s.seq) - 1;
      sum += double(s.causal ? std::min(tiles, qlast / bn + 1) : tiles);
    }
  }
  return sum / double(groups);
}

/// kcc's three kernels, each timed by itself: Delta, then dK/dV and dQ
/// reading the Delta scratch (whatever it holds: the values do not steer
/// the kernels).
std::vector<Row> timeKcc(Inputs &in, const Shape &s, unsigned iterations) {
  Device &device = in.device;
  Chip chip = device.chip();
  std::vector<Row> rows;
  struct Part {
    AttentionBackwardKernel kernel;
    const char *name;
  } parts[] = {{AttentionBackwardKernel::Delta, "Delta"},
               {AttentionBackwardKernel::DkDv, "dK/dV"},
               {AttentionBackwardKernel::Dq, "dQ"}};
  Expected<Buffer> dq = Buffer::allocate(device, s.qElements() * 2),
                   dk = Buffer::allocate(device, s.kvElements() * 2),
                   dv = Buffer::allocate(device, s.kvElements() * 2),
                   delta = Buffer::allocate(device, s.rows() * 8); // bias and Delta
  for (Expected<Buffer> *b : {&dq, &dk, &dv, &delta})
    if (!*b) {
      Row r;
      r.side = "kcc";
      r.kernel = "all";
      r.error = toString(b->takeError());
      return {r};
    }
  int64_t B = s.batch, S = s.seq, H = s.heads, Hkv = s.kvHeads, D = s.headDim;
  ops::AttentionTensorRef tq(in.q, DType::bf16, B, S, H, D), tk(in.k, DType::bf16, B, S, Hkv, D),
      tv(in.v, DType::bf16, B, S, Hkv, D), to(in.o, DType::bf16, B, S, H, D),
      tdo(in.dO, DType::bf16, B, S, H, D), tdq(*dq, DType::bf16, B, S, H, D),
      tdk(*dk, DType::bf16, B, S, Hkv, D), tdv(*dv, DType::bf16, B, S, Hkv, D);
  VectorRef lse(in.lse, DType::f32, int64_t(s.rows()));
  double q2 = double(s.qElements()) * 2, kv2 = double(s.kvElements()) * 2,
         r4 = double(s.rows()) * 4;
  for (const Part &p : parts) {
    Row row;
    row.side = "kcc";
    row.kernel = p.name;
    std::vector<std::string> params =
        ops::attentionBackwardParams(p.kernel, chip, DType::bf16, D, s.causal);
    row.what = join(params, " ");
    // Compulsory bytes: Delta reads O, dO and LSE and writes the bias and
    // Delta; dK/dV and dQ read Q, dO, K, V, the bias and Delta and write
    // their gradients.
    bool main = p.kernel != AttentionBackwardKernel::Delta;
    row.dramBytes = main ? 2 * q2 + 2 * kv2 + 2 * r4 +
                               (p.kernel == AttentionBackwardKernel::DkDv ? 2 * kv2 : q2)
                         : 2 * q2 + 3 * r4;
    ops::AttentionBackwardOptions o;
    o.causal = s.causal;
    o.delta = VectorRef(*delta, DType::f32, int64_t(2 * s.rows()));
    o.runDelta = p.kernel == AttentionBackwardKernel::Delta;
    o.runDkDv = p.kernel == AttentionBackwardKernel::DkDv;
    o.runDq = p.kernel == AttentionBackwardKernel::Dq;
    uint64_t trips =
        main && s.causal ? uint64_t(kccMeanTrips(p.kernel, s, params) + 0.5) : 0;
    timeRow(row, device, iterations,
            ops::attentionBackwardKernelFlops(p.kernel, s.op(), s.causal), trips,
            [&]() -> Expected<LaunchResult> {
              auto r = ops::attention_backward(tq, tk, tv, to, tdo, lse, tdq, tdk, tdv, o);
              if (!r)
                return r.takeError();
              const ops::AttentionBackwardLaunch &l =
                  p.kernel == AttentionBackwardKernel::Delta  ? r->delta
                  : p.kernel == AttentionBackwardKernel::DkDv ? r->dkdv
                                                              : r->dq;
              row.grid = l.grid;
              row.block = l.block;
              return l.launch;
            },
            main);
    if (trips)
      row.what += formatv(" (mean trip count {0} given)", trips).str();
    // The same compile the op made (the JIT's memory cache answers).
    StringRef name = ops::attentionBackwardKernelName(p.kernel);
    Expected<CompiledKernel> compiled = Jit::shared().compile(name, params, chip);
    if (compiled)
      statsOf(row, *compiled->codeObject, name);
    else
      row.statsError = toString(compiled.takeError());
    rows.push_back(std::move(row));
  }
  return rows;
}

//===----------------------------------------------------------------------===//
// aiter
//===----------------------------------------------------------------------===//

/// The kernels aiter's dispatcher (get_heuristic_kernel in
/// csrc/cpp_itfs/mha_bwd.cu, from hsa/<chip>/fmha_v3_bwd/*.csv) picks for
/// D = 128 bf16 in batch mode with the Python API's defaults:
/// is_v3_atomic_fp32 = True (a32: dQ summed by f32 atomics, then
/// dq_convert), how_v3_bf16_cvt = 1 (rtna) on gfx942 and 0 (rtne, forced)
/// on gfx950, whose configs accept any (bf16_cvt 3). Causal is the
/// bottom-right mask (mask type 2, "br"): flash-attention's causal mask_info
/// "b:-1,0", which gfx942 keeps for a32 (only a16 is folded to top-left).
/// Only the "psskddv" builds (padded sequence, padded head dims) exist for
/// a32 D = 128, so the dispatcher's fallback takes them whatever pssk says
/// (gfx950: 16384 % 256 == 0, pssk 0; gfx942: 16384 % 192 != 0, pssk 1).
struct AiterPipeline {
  std::string dir;       // .../hsa/<chip>/fmha_v3_bwd/
  std::string odoFile, odoKernel;
  std::string mainFile, mainKernel;
  std::string convertFile, convertKernel;
  int64_t tsOdo = 128, tsKv = 0, tsDq = 64; // the configs' `ts`
};

AiterPipeline aiterPipeline(const std::string &aiter, Chip chip, bool causal) {
  AiterPipeline p;
  bool is950 = chip == Chip::gfx950;
  p.dir = aiter + "/hsa/" + getChipInfo(chip).name.str() + "/fmha_v3_bwd/";
  p.odoFile = "bwd_hd128_odo_bf16.co";
  p.odoKernel = "_ZN5aiter23fmha_bwd_hd128_odo_bf16E";
  std::string stem = std::string("fmha_bwd_hd128_bf16") + (causal ? "_causal_br" : "") +
                     "_a32" + (is950 ? "" : "_rtna") + "_psskddv";
  p.mainFile = stem.substr(std::string("fmha_").size()) + ".co";
  p.mainKernel = "_ZN5aiter" + std::to_string(stem.size()) + stem + "E";
  if (is950) {
    p.convertFile = "bwd_hd128_dq_convert_bf16.co";
    p.convertKernel = "_ZN5aiter30fmha_bwd_hd128_dq_convert_bf16E";
  } else {
    p.convertFile = "bwd_hd128_dq_convert_bf16_rtna.co";
    p.convertKernel = "_ZN5aiter35fmha_bwd_hd128_dq_convert_bf16_rtnaE";
  }
  p.tsKv = is950 ? 256 : 192;
  return p;
}

/// aiter's buffers beyond the inputs: the gradients (dK and dV per query
/// head: its launcher's dk_expanded / dv_expanded, [B, S_k, H, D], summed
/// over each group afterwards by PyTorch), D (softmax_d, [B, H, S_q] f32)
/// and the zeroed f32 dQ accumulator ([B, H, S_q, D]).
struct AiterBuffers {
  Buffer dq, dkExpanded, dvExpanded, d, dqAcc;
};
Expected<AiterBuffers> aiterBuffers(Device &device, const Shape &s) {
  uint64_t expanded = uint64_t(s.batch * s.seq * s.heads * s.headDim) * 2;
  Expected<Buffer> dq = Buffer::allocate(device, s.qElements() * 2),
                   dk = Buffer::allocate(device, expanded),
                   dv = Buffer::allocate(device, expanded),
                   d = Buffer::allocate(device, s.rows() * 4),
                   acc = Buffer::allocate(device, s.qElements() * 4); // allocate() zeroes
  for (Expected<Buffer> *b : {&dq, &dk, &dv, &d, &acc})
    if (!*b)
      return b->takeError();
  return AiterBuffers{std::move(*dq), std::move(*dk), std::move(*dv), std::move(*d),
                      std::move(*acc)};
}

/// The three launches of aiter's pipeline with their argument blocks,
/// filled field by field as fmha_v3_bwd (csrc/cpp_itfs/mha_bwd.cu) fills
/// them for packed [B, S, H, D] tensors (strides in elements there, bytes
/// here: its "* 2" and "* 4").
struct AiterLaunches {
  bench::AiterLaunch odo, main, convert;
  Dim3 odoGrid, mainGrid, convertGrid;
};
Expected<AiterLaunches> loadAiterPipeline(const AiterPipeline &p, Inputs &in,
                                          const AiterBuffers &out, const Shape &s,
                                          double scale) {
  Device &device = in.device;
  uint32_t B = uint32_t(s.batch), S = uint32_t(s.seq), H = uint32_t(s.heads),
           Hkv = uint32_t(s.kvHeads), D = uint32_t(s.headDim);
  // Byte strides of the packed tensors: token, head, batch.
  uint32_t seqQ = H * D * 2, headQ = D * 2, batchQ = S * H * D * 2;   // q, o, do, dq
  uint32_t seqK = Hkv * D * 2, headK = D * 2, batchK = S * Hkv * D * 2; // k, v
  uint32_t seqX = H * D * 2, headX = D * 2, batchX = S * H * D * 2;   // dk/dv expanded
  uint32_t headL = S * 4, batchL = H * S * 4;                         // lse, d
  uint32_t seqAcc = D * 4, headAcc = S * D * 4, batchAcc = B == 1 ? 0 : H * S * D * 4;

  // pre: fmha_bwd_odo_logical_args, packed by pack_fmha_bwd_odo_args.
  Expected<bench::AiterLaunch> odo =
      bench::loadAiter(device, p.dir + p.odoFile, p.odoKernel, [&](bench::SlotBlock &x) {
        x.set(0, in.o.address());   // ptr_o
        x.set(1, in.dO.address());  // ptr_do
        x.set(2, out.d.address());  // ptr_d
        x.set(3, headQ);            // Hs_o
        x.set(4, batchQ);           // BAs_o
        x.set(5, seqQ);             // Seqs_o
        x.set(6, headQ);            // Hs_do
        x.set(7, batchQ);           // BAs_do
        x.set(8, seqQ);             // Seqs_do
        x.set(9, headL);            // Hs_d (nhead_stride_lsed * 4)
        x.set(10, batchL);          // BAs_d
        x.set(11, uint32_t(4));     // Seqs_d
        x.set(12, S);               // seqlen_q
        x.set(13, D);               // head_dim (hdim_q)
        x.set(14, uint64_t(0));     // ptr_qseq (batch mode: null)
        x.set(15, uint64_t(0));     // ptr_qseq_padded
      });
  if (!odo)
    return odo.takeError();

  // dqdkdv: fmha_bwd_dqdkdv_args (csrc/include/mha_bwd.h), one field per
  // 16-byte slot.
  Expected<bench::AiterLaunch> main =
      bench::loadAiter(device, p.dir + p.mainFile, p.mainKernel, [&](bench::SlotBlock &x) {
        x.set(0, out.dqAcc.address());      // ptr_dq: dq_acc (a32)
        x.set(1, out.dkExpanded.address()); // ptr_dk: dk_expanded
        x.set(2, out.dvExpanded.address()); // ptr_dv: dv_expanded
        x.set(3, in.q.address());           // ptr_q
        x.set(4, in.k.address());           // ptr_k
        x.set(5, in.v.address());           // ptr_v
        x.set(6, in.dO.address());          // ptr_do
        x.set(7, in.lse.address());         // ptr_lse
        x.set(8, out.d.address());          // ptr_d
        x.set(9, float(scale));             // scalar (softmax scale)
        x.set(10, float(1.4426950408889634)); // log2e
        x.set(11, S);                       // seqlen_q
        x.set(12, uint32_t(p.tsKv) * seqK); // Ts = ts_kv * stride_k * 2
        x.set(13, headQ);                   // Hs_q
        x.set(14, batchQ);                  // BAs_q
        x.set(15, seqQ);                    // Seqs_q
        x.set(16, H / Hkv);                 // ratio
        x.set(17, headK);                   // Hs_k
        x.set(18, batchK);                  // BAs_k
        x.set(19, seqK);                    // Seqs_k
        x.set(20, seqX);                    // Seqs_dk
        x.set(21, S);                       // seqlen_k
        x.set(22, D);                       // head_dim_q
        x.set(23, D);                       // head_dim_v
        x.set(24, H);                       // nhead_q
        x.set(25, headK);                   // Hs_v
        x.set(26, batchK);                  // BAs_v
        x.set(27, seqK);                    // Seqs_v
        x.set(28, headQ);                   // Hs_do
        x.set(29, batchQ);                  // BAs_do
        x.set(30, seqQ);                    // Seqs_do
        x.set(31, headX);                   // Hs_dk
        x.set(32, batchX);                  // BAs_dk
        x.set(33, headX);                   // Hs_dv
        x.set(34, batchX);                  // BAs_dv
        x.set(35, seqX);                    // Seqs_dv
        x.set(36, headL);                   // Hs_lsed
        x.set(37, uint64_t(0));             // ptr_qseq (batch mode: null)
        x.set(38, uint64_t(0));             // ptr_kseq
        x.set(39, uint64_t(0));             // ptr_qseq_padded
        x.set(40, uint64_t(0));             // ptr_kseq_padded
        x.set(41, S);                       // max_seqlen_dq (a32: max_seqlen_q)
        x.set(42, int32_t(0));              // mask_x (set for mask type 3 only)
        x.set(43, int32_t(0));              // mask_y
      });
  if (!main)
    return main.takeError();

  // post: fmha_bwd_post_kernel_args.
  Expected<bench::AiterLaunch> convert = bench::loadAiter(
      device, p.dir + p.convertFile, p.convertKernel, [&](bench::SlotBlock &x) {
        x.set(0, out.dqAcc.address()); // ptr_dq_acc
        x.set(1, out.dq.address());    // ptr_dq
        x.set(2, headAcc);             // Hs_dq_acc
        x.set(3, batchAcc);            // BAs_dq_acc (0 when batch == 1)
        x.set(4, seqAcc);              // Seqs_dq_acc
        x.set(5, headQ);               // Hs_dq
        x.set(6, batchQ);              // BAs_dq
        x.set(7, seqQ);                // Seqs_dq
        x.set(8, S);                   // seqlen_q
        x.set(9, D);                   // head_dim
        x.set(10, uint64_t(0));        // ptr_qseq
        x.set(11, uint64_t(0));        // ptr_qseq_padded
      });
  if (!convert)
    return convert.takeError();

  AiterLaunches l{std::move(*odo), std::move(*main), std::move(*convert), {}, {}, {}};
  // Grids as the launcher computes them; 256 work-items each.
  l.odoGrid = Dim3(uint32_t((S + p.tsOdo - 1) / p.tsOdo), H, B);
  uint32_t kvBlocks = uint32_t((S + p.tsKv - 1) / p.tsKv);
  // Causal ("mask kb"): one workgroup per pair of key blocks.
  l.mainGrid = Dim3(s.causal ? (kvBlocks + 1) / 2 : kvBlocks, H, B);
  l.convertGrid = Dim3(uint32_t((S + p.tsDq - 1) / p.tsDq), H, B);
  return l;
}

Expected<LaunchResult> launchAiter(bench::AiterLaunch &a, Dim3 grid, bool check = false) {
  LaunchConfig config;
  config.grid = grid;
  config.block = Dim3(256);
  config.check.enabled = check;
  return a.kernel.launch(config, a.args);
}

/// The trip count the model should charge a causal dqdkdv workgroup. Its
/// workgroup g takes key blocks g and n-1-g (the launcher's "mask kb"
/// grid), and both halves run through the same loop, one query tile per
/// back-edge (a full run at S=2048 on gfx950: 31 back-edges for block 0's
/// 32 tiles, an outer back-edge, 3 for block 7's 4 tiles). Steady state
/// infers only the first half's count from the loop compare; the pair's
/// back-edges, the same in every workgroup (bottom-right, S_q = S_kv), are
/// what the launch runs. A tile is 64 queries on gfx950 and 32 on gfx942
/// (the non-causal loops' 255 and 511 back-edges at S=16384). The second
/// half's own set-up is not charged, like any code outside the loop.
uint64_t aiterCausalTrips(Chip chip, const Shape &s, int64_t tsKv) {
  int64_t tq = chip == Chip::gfx950 ? 64 : 32;
  int64_t blocks = (s.seq + tsKv - 1) / tsKv, pairs = (blocks + 1) / 2;
  double sum = 0;
  for (int64_t g = 0; g < pairs; ++g)
    for (int64_t b : {g, blocks - 1 - g}) {
      int64_t queries = s.seq - b * tsKv; // those at or below the diagonal
      sum += double((queries + tq - 1) / tq - 1);
      if (b == blocks - 1 - g && b == g)
        break;
    }
  return uint64_t(sum / double(pairs) + 0.5);
}

std::vector<Row> timeAiter(const std::string &aiter, Inputs &in, const Shape &s,
                           unsigned iterations) {
  Device &device = in.device;
  AiterPipeline p = aiterPipeline(aiter, device.chip(), s.causal);
  auto failed = [&](Error e) {
    Row r;
    r.side = "aiter";
    r.kernel = "all";
    r.error = toString(std::move(e));
    return std::vector<Row>{r};
  };
  Expected<AiterBuffers> out = aiterBuffers(device, s);
  if (!out)
    return failed(out.takeError());
  Expected<AiterLaunches> l =
      loadAiterPipeline(p, in, *out, s, 1.0 / std::sqrt(double(s.headDim)));
  if (!l)
    return failed(l.takeError());
  double q2 = double(s.qElements()) * 2, kv2 = double(s.kvElements()) * 2,
         r4 = double(s.rows()) * 4, x2 = double(s.batch * s.seq * s.heads * s.headDim) * 2;
  struct Part {
    const char *name;
    bench::AiterLaunch *launch;
    Dim3 grid;
    std::string file;
    double flops, dramBytes;
    bool main;
  } parts[] = {
      {"odo", &l->odo, l->odoGrid, p.odoFile,
       ops::attentionBackwardKernelFlops(AttentionBackwardKernel::Delta, s.op(), s.causal),
       2 * q2 + r4, false},
      // dqdkdv reads Q, dO, K, V, LSE, D; writes dK, dV per query head and
      // the f32 dQ accumulator (its atomics meet in L2; once to DRAM).
      {"dqdkdv", &l->main, l->mainGrid, p.mainFile,
       ops::attentionBackwardFlops(s.op(), s.causal), 2 * q2 + 2 * kv2 + 2 * r4 + 2 * x2 + 2 * q2,
       true},
      {"dq_convert", &l->convert, l->convertGrid, p.convertFile, 0, 2 * q2 + q2, false},
  };
  std::vector<Row> rows;
  for (Part &part : parts) {
    Row row;
    row.side = "aiter";
    row.kernel = part.name;
    row.what = part.file;
    row.grid = part.grid;
    row.block = Dim3(256);
    row.dramBytes = part.dramBytes;
    uint64_t trips = part.main && s.causal ? aiterCausalTrips(device.chip(), s, p.tsKv) : 0;
    timeRow(row, device, iterations, part.flops, trips,
            [&] { return launchAiter(*part.launch, part.grid); }, part.main);
    if (trips)
      row.what += formatv(" (trip count {0} of the key-block pair given)", trips).str();
    statsOf(row, part.launch->codeObject, part.launch->kernel.info().name);
    rows.push_back(std::move(row));
  }
  return rows;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

std::string gridText(Dim3 g) { return formatv("{0}x{1}x{2}", g.x, g.y, g.z).str(); }

void printRow(const Row &r) {
  outs() << formatv("  {0,-5} {1,-10} {2,-11}", r.side, r.kernel, gridText(r.grid));
  if (r.error) {
    outs() << " model: " << *r.error << "\n";
    return;
  }
  const bench::ModelFigures &f = r.figures;
  std::string tflops = f.tflops > 0 ? formatv("{0,7:F1}", f.tflops).str() : "      -";
  std::string loop = f.cyclesPerIteration > 0
                         ? formatv("{0,7:F0} {1,5} {2,5:F1}%", f.cyclesPerIteration,
                                   f.tripCount, 100 * f.mfmaBusy)
                               .str()
                         : formatv("{0,7} {1,5} {2,5:F1}%", "-", "-", 100 * f.mfmaBusy).str();
  std::string mix = f.otherPerMfma > 0 ? formatv("{0,6:F2}", f.otherPerMfma).str() : "     -";
  outs() << formatv(" {0,9:F1} {1} {2} {3}", f.seconds * 1e6, tflops, loop, mix);
  if (r.stats) {
    const KernelStats &s = *r.stats;
    outs() << formatv(" {0,4} {1,4} {2,5} {3,7} {4,6} {5,2}", s.vgprs, s.agprs,
                      formatv("{0}/{1}", s.vgprSpills, s.sgprSpills).str(), s.scratchBytes,
                      s.ldsBytes, r.groupsPerCu);
  } else {
    outs() << "  (stats: " << r.statsError << ")";
  }
  if (r.memoryBound)
    outs() << "  HBM-bound";
  outs() << "\n";
  // A modelled figure with its error bar (the attention backward has none).
  if (f.tflops > 0 && !f.validation.empty())
    outs() << "        " << f.validation << "\n";
}

struct Total {
  double seconds = 0;
  bool complete = true;
};
Total totalOf(const std::vector<Row> &rows) {
  Total t;
  for (const Row &r : rows) {
    if (r.error)
      t.complete = false;
    else
      t.seconds += r.figures.seconds;
  }
  return t;
}

const char *kHeader = "  side  kernel     grid         time(us)  TFLOPS  cyc/it  trip  "
                      "busy   oth/MF VGPR AGPR spill scratch    LDS WG\n";

//===----------------------------------------------------------------------===//
// --check
//===----------------------------------------------------------------------===//

/// Largest |got - ref| over the reference's largest magnitude (at least
/// 0.1), the measure `kcc run attention_backward --verify` uses.
double relativeError(ArrayRef<double> got, ArrayRef<double> ref) {
  double largest = 0.1, worst = 0;
  for (double x : ref)
    largest = std::max(largest, std::fabs(x));
  for (size_t i = 0; i < got.size() && i < ref.size(); ++i) {
    double e = std::fabs(got[i] - ref[i]) / largest;
    worst = std::max(worst, std::isnan(e) ? std::numeric_limits<double>::infinity() : e);
  }
  return worst;
}

Expected<std::vector<double>> readBf16(const Buffer &b, uint64_t elements) {
  std::vector<uint16_t> bits(static_cast<size_t>(elements));
  if (Error e = b.read(bits.data(), elements * 2))
    return std::move(e);
  std::vector<double> out(bits.size());
  for (size_t i = 0; i < bits.size(); ++i)
    out[i] = bf16ToFloat(bits[i]);
  return out;
}

/// aiter and kcc on the same inputs at a small shape, whole launches,
/// against the float64 reference. Returns false when aiter's gradients do
/// not match (then its argument blocks are wrong and its timing means
/// nothing).
Expected<bool> check(const std::string &aiter, Chip chip, Shape s) {
  Expected<Device &> device = bench::emulatedDevice(chip);
  if (!device)
    return device.takeError();
  // Inputs as `kcc run attention_backward` draws them: normal, rounded to
  // bf16; O and LSE from the float64 forward.
  std::mt19937 rng(1234);
  std::normal_distribution<float> normal;
  auto draw = [&](uint64_t n, std::vector<double> &values) {
    std::vector<uint16_t> bits(static_cast<size_t>(n));
    values.resize(bits.size());
    for (size_t i = 0; i < bits.size(); ++i) {
      bits[i] = floatToBf16(normal(rng));
      values[i] = bf16ToFloat(bits[i]);
    }
    return bits;
  };
  std::vector<double> qd, kd, vd, dod;
  std::vector<uint16_t> qb = draw(s.qElements(), qd), kb = draw(s.kvElements(), kd),
                        vb = draw(s.kvElements(), vd), dob = draw(s.qElements(), dod);
  double scale = 1.0 / std::sqrt(double(s.headDim));
  std::vector<double> od, lsed;
  ops::attentionReference(s.op(), qd, kd, vd, s.causal, scale, od, lsed);
  std::vector<uint16_t> ob(od.size());
  for (size_t i = 0; i < od.size(); ++i)
    ob[i] = floatToBf16(float(od[i]));
  std::vector<float> lsef(lsed.begin(), lsed.end());
  std::vector<double> rdq, rdk, rdv;
  ops::attentionBackwardReference(s.op(), qd, kd, vd, dod, s.causal, scale, rdq, rdk, rdv);

  auto up16 = [&](const std::vector<uint16_t> &h) { return Buffer::fromHost(*device, h); };
  Expected<Buffer> q = up16(qb), k = up16(kb), v = up16(vb), o = up16(ob), dO = up16(dob),
                   lse = Buffer::fromHost(*device, ArrayRef<float>(lsef));
  for (Expected<Buffer> *b : {&q, &k, &v, &o, &dO, &lse})
    if (!*b)
      return b->takeError();
  Inputs in{*device, std::move(*q), std::move(*k), std::move(*v),
            std::move(*o), std::move(*dO), std::move(*lse)};

  // kcc.
  std::string kccText;
  {
    Expected<Buffer> dq = Buffer::allocate(*device, s.qElements() * 2),
                     dk = Buffer::allocate(*device, s.kvElements() * 2),
                     dv = Buffer::allocate(*device, s.kvElements() * 2);
    for (Expected<Buffer> *b : {&dq, &dk, &dv})
      if (!*b)
        return b->takeError();
    int64_t B = s.batch, S = s.seq, H = s.heads, Hkv = s.kvHeads, D = s.headDim;
    ops::AttentionBackwardOptions opt;
    opt.causal = s.causal;
    auto r = ops::attention_backward(
        ops::AttentionTensorRef(in.q, DType::bf16, B, S, H, D),
        ops::AttentionTensorRef(in.k, DType::bf16, B, S, Hkv, D),
        ops::AttentionTensorRef(in.v, DType::bf16, B, S, Hkv, D),
        ops::AttentionTensorRef(in.o, DType::bf16, B, S, H, D),
        ops::AttentionTensorRef(in.dO, DType::bf16, B, S, H, D),
        VectorRef(in.lse, DType::f32, int64_t(s.rows())),
        ops::AttentionTensorRef(*dq, DType::bf16, B, S, H, D),
        ops::AttentionTensorRef(*dk, DType::bf16, B, S, Hkv, D),
        ops::AttentionTensorRef(*dv, DType::bf16, B, S, Hkv, D), opt);
    if (!r)
      return r.takeError();
    Expected<std::vector<double>> gq = readBf16(*dq, s.qElements()),
                                  gk = readBf16(*dk, s.kvElements()),
                                  gv = readBf16(*dv, s.kvElements());
    for (auto *g : {&gq, &gk, &gv})
      if (!*g)
        return g->takeError();
    kccText = formatv("kcc   dQ {0:F5} dK {1:F5} dV {2:F5}", relativeError(*gq, rdq),
                      relativeError(*gk, rdk), relativeError(*gv, rdv))
                  .str();
  }

  // aiter: odo, dqdkdv, dq_convert, whole, then the launcher's GQA sum.
  AiterPipeline p = aiterPipeline(aiter, chip, s.causal);
  Expected<AiterBuffers> out = aiterBuffers(*device, s);
  if (!out)
    return out.takeError();
  Expected<AiterLaunches> l = loadAiterPipeline(p, in, *out, s, scale);
  if (!l)
    return l.takeError();
  for (auto [a, grid] : {std::pair{&l->odo, l->odoGrid}, {&l->main, l->mainGrid},
                         {&l->convert, l->convertGrid}}) {
    Expected<LaunchResult> r = launchAiter(*a, grid);
    if (!r)
      return r.takeError();
  }
  uint64_t expanded = uint64_t(s.batch * s.seq * s.heads * s.headDim);
  Expected<std::vector<double>> gq = readBf16(out->dq, s.qElements()),
                                xk = readBf16(out->dkExpanded, expanded),
                                xv = readBf16(out->dvExpanded, expanded);
  for (auto *g : {&gq, &xk, &xv})
    if (!*g)
      return g->takeError();
  int64_t group = s.heads / s.kvHeads;
  std::vector<double> gk(s.kvElements(), 0.0), gv(s.kvElements(), 0.0);
  for (int64_t b = 0; b < s.batch; ++b)
    for (int64_t j = 0; j < s.seq; ++j)
      for (int64_t h = 0; h < s.heads; ++h)
        for (int64_t e = 0; e < s.headDim; ++e) {
          size_t from = size_t(((b * s.seq + j) * s.heads + h) * s.headDim + e);
          size_t to = size_t(((b * s.seq + j) * s.kvHeads + h / group) * s.headDim + e);
          gk[to] += (*xk)[from];
          gv[to] += (*xv)[from];
        }
  double eq = relativeError(*gq, rdq), ek = relativeError(gk, rdk), ev = relativeError(gv, rdv);
  // bf16 gradients: P and dS are rounded to bf16 before their products on
  // both sides (about 5e-3); a wrong stride or scale is far above.
  const double tol = 1.5e-2;
  bool ok = eq <= tol && ek <= tol && ev <= tol;
  outs() << formatv("{0} S={1} H={2} Hkv={3} D={4} {5}: aiter dQ {6:F5} dK {7:F5} dV {8:F5} "
                    "({9}, {10}, {11}); {12}: {13}\n",
                    getChipInfo(chip).name, s.seq, s.heads, s.kvHeads, s.headDim,
                    s.causal ? "causal" : "non-causal", eq, ek, ev, p.odoFile, p.mainFile,
                    p.convertFile, kccText, ok ? "match" : "MISMATCH");
  // The emulator's check mode (races, uninitialised reads, out-of-bounds
  // accesses) on the same three launches again, for information: a report
  // here is about the sanitizer or the kernel, the numbers above decide.
  for (auto [a, grid] : {std::pair{&l->odo, l->odoGrid}, {&l->main, l->mainGrid},
                         {&l->convert, l->convertGrid}}) {
    Expected<LaunchResult> r = launchAiter(*a, grid, /*check=*/true);
    outs() << "  check mode, " << a->kernel.info().name << ": ";
    if (r) {
      outs() << "clean\n";
      continue;
    }
    std::string text = toString(r.takeError());
    SmallVector<StringRef> lines;
    StringRef(text).split(lines, '\n', -1, false);
    // By kind ("[race]", "[unwaited-result]", ...); a race of one LDS DMA
    // instruction against itself in another wave of the workgroup is the
    // waves repeating one load to the same LDS bytes (write-write, from the
    // same source), counted apart. The first report of each other kind is
    // printed.
    std::map<std::string, unsigned> kinds;
    std::map<std::string, size_t> firstOf;
    unsigned selfRaces = 0;
    auto pcOf = [](StringRef line) { return line.split(" at ").second.split(' ').first; };
    for (size_t i = 0; i < lines.size(); ++i) {
      StringRef line = lines[i].trim();
      if (!line.starts_with("["))
        continue;
      std::string kind = line.split(']').first.drop_front().str();
      StringRef other = i + 1 < lines.size() ? lines[i + 1].trim() : StringRef();
      if (kind == "race" && other.starts_with("other:") && line.contains("LDS DMA write") &&
          other.contains("LDS DMA write") && pcOf(line) == pcOf(other)) {
        ++selfRaces;
        continue;
      }
      if (!kinds[kind]++)
        firstOf[kind] = i;
    }
    outs() << (lines.empty() ? StringRef(text) : lines.front().trim()) << "\n";
    if (selfRaces)
      outs() << "    " << selfRaces
             << " races of one LDS DMA load against itself in two waves of a workgroup "
                "(each wave repeats the load to the same LDS bytes)\n";
    for (auto &[kind, n] : kinds) {
      outs() << "    " << n << " " << kind << ", first:\n";
      for (size_t i = firstOf[kind]; i < lines.size() && i < firstOf[kind] + 3; ++i)
        outs() << "      " << lines[i].trim() << "\n";
    }
  }
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  registerEmbeddedKernels();
  unsigned iterations = 32;
  bool checkMode = false;
  std::optional<int64_t> seq;
  std::vector<Chip> chips = {Chip::gfx950, Chip::gfx942};
  std::vector<bool> modes = {false, true};
  for (int i = 1; i < argc; ++i) {
    StringRef a = argv[i];
    int64_t n;
    if (a == "--iterations" && i + 1 < argc &&
        !StringRef(argv[i + 1]).getAsInteger(10, iterations) && iterations > 1) {
      ++i;
    } else if (a == "--check") {
      checkMode = true;
    } else if (a == "--seq" && i + 1 < argc && !StringRef(argv[i + 1]).getAsInteger(10, n) &&
               n > 0) {
      seq = n;
      ++i;
    } else if (a == "--chip" && i + 1 < argc && parseChip(argv[i + 1])) {
      chips = {*parseChip(argv[++i])};
    } else if (a == "--mode" && i + 1 < argc &&
               (StringRef(argv[i + 1]) == "causal" || StringRef(argv[i + 1]) == "non-causal")) {
      modes = {StringRef(argv[++i]) == "causal"};
    } else {
      errs() << "usage: [KCC_AITER_DIR=DIR] fmha_bwd_bench [--iterations K (>1)] "
                "[--chip gfx942|gfx950] [--mode causal|non-causal] [--seq S] [--check]\n";
      return 2;
    }
  }
  std::optional<std::string> aiter = bench::aiterCheckout();
  if (aiter)
    for (Chip chip : chips) {
      std::string dir = *aiter + "/hsa/" + getChipInfo(chip).name.str() + "/fmha_v3_bwd";
      if (!sys::fs::is_directory(dir)) {
        errs() << "fmha_bwd_bench: " << *aiter << " has no hsa/" << getChipInfo(chip).name
               << "/fmha_v3_bwd: not an aiter checkout\n";
        return 1;
      }
    }

  if (checkMode) {
    if (!aiter) {
      bench::printAiterHowTo(outs(), "fmha_bwd_bench");
      outs() << "fmha_bwd_bench --check: aiter was not given; nothing to check\n";
      return 0;
    }
    Shape s;
    s.heads = 2;
    s.kvHeads = 1;
    s.seq = seq.value_or(512);
    int bad = 0;
    for (Chip chip : chips)
      for (bool causal : modes) {
        s.causal = causal;
        Expected<bool> ok = check(*aiter, chip, s);
        if (!ok) {
          outs() << getChipInfo(chip).name << (causal ? " causal" : " non-causal")
                 << ": " << toString(ok.takeError()) << "\n";
          ++bad;
        } else if (!*ok) {
          ++bad;
        }
      }
    return bad ? 1 : 0;
  }

  Shape base;
  base.seq = seq.value_or(16384);
  outs() << formatv("FlashAttention backward, B={0} H={1} Hkv={2} S={3} D={4} bf16, calibrated "
                    "timing model, steady state over {5} iterations\n",
                    base.batch, base.heads, base.kvHeads, base.seq, base.headDim, iterations);
  if (!aiter) {
    bench::printAiterHowTo(outs(), "fmha_bwd_bench");
    outs() << "aiter was not given: kcc's figures alone\n";
  }
  int failures = 0;
  // Per chip: the non-causal kcc dQ's time and mean trip count, for the
  // causal dQ the model cannot time (below).
  for (Chip chip : chips)
    for (bool causal : modes) {
      Shape s = base;
      s.causal = causal;
      outs() << "\n" << getChipInfo(chip).name << " (" << getChipInfo(chip).marketing << "), "
             << (causal ? "causal (bottom-right)" : "non-causal") << "\n"
             << kHeader;
      Expected<Inputs> in = makeInputs(chip, s);
      if (!in) {
        errs() << "fmha_bwd_bench: " << toString(in.takeError()) << "\n";
        return 1;
      }
      double flops = ops::attentionBackwardFlops(s.op(), causal);
      std::vector<Row> kcc = timeKcc(*in, s, iterations);
      for (Row &r : kcc) {
        printRow(r);
        failures += r.error.has_value();
      }
      Total kt = totalOf(kcc);
      if (kt.complete)
        outs() << formatv("  kcc   total                 {0,9:F1} {1,7:F1}   (5 products: "
                          "{2:F4} TFLOP)\n",
                          kt.seconds * 1e6, flops / kt.seconds / 1e12, flops / 1e12);
      std::vector<Row> theirs;
      if (aiter) {
        theirs = timeAiter(*aiter, *in, s, iterations);
        for (const Row &r : theirs)
          printRow(r);
        Total at = totalOf(theirs);
        // aiter's launcher sums dK and dV over each group afterwards in
        // PyTorch (at::sum_out over [B, S_k, H_kv, H/H_kv, D]); not one of
        // its kernels, so not timed, but at least its bytes at HBM speed.
        double sumBytes = 2.0 * (double(s.batch * s.seq * s.heads * s.headDim) * 2 +
                                 double(s.kvElements()) * 2);
        double sumFloor = sumBytes / timing::getTimingParams(chip).hbmBytesPerSecond;
        if (at.complete) {
          outs() << formatv("  aiter total                 {0,9:F1} {1,7:F1}   (+ the GQA sum "
                            "of dK, dV in PyTorch, not timed: >= {2:F1} us at HBM bandwidth)\n",
                            at.seconds * 1e6, flops / at.seconds / 1e12, sumFloor * 1e6);
          if (kt.complete)
            outs() << formatv("  kcc/aiter {0:F2}x (whole backward, by TFLOPS); dK/dV + dQ "
                              "against dqdkdv + dq_convert: {1:F2}x\n",
                              at.seconds / kt.seconds,
                              (at.seconds - theirs[0].figures.seconds) /
                                  (kt.seconds - kcc[0].figures.seconds));
        }
      }
      for (const std::vector<Row> *rows : {&kcc, &theirs})
        for (const Row &r : *rows)
          if (!r.note.empty() && !r.error)
            outs() << "  " << r.side << " " << r.kernel << ": " << r.note << "\n";
      for (const Row &r : kcc)
        if (!r.blame.empty())
          outs() << "  model on kcc " << r.kernel << ": " << r.blame << "\n";
      for (const Row &r : theirs)
        if (!r.blame.empty())
          outs() << "  model on aiter " << r.kernel << ": " << r.blame << "\n";
      bool metadata = false;
      for (const std::vector<Row> *rows : {&kcc, &theirs})
        for (const Row &r : *rows) {
          outs() << "  " << r.side << " " << r.kernel << ": " << r.what << "\n";
          metadata |= r.statsFromMetadata;
        }
      if (metadata)
        outs() << "  (aiter's registers, spills, scratch and LDS from its metadata and kernel "
                  "descriptor: its code objects have no symbol that sizes the code, which "
                  "--stats' instruction counts need)\n";
    }
  outs() << "\nbusy: MFMA pipe busy fraction of the kernel (sets the sustained clock); oth/MF: "
            "non-MFMA instructions per MFMA in the hot loop; spill: VGPR/SGPR spills; "
            "scratch: bytes per work-item; LDS: bytes per workgroup; WG: workgroups per CU\n";
  return failures ? 1 : 0;
}
