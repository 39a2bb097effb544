//===- MeasuredRows.h - AMD's hardware measurements, row by row -*- C++ -*-===//
//
// The ground truth the timing model is fitted on and validated against:
// the measured times of AMD's hand-written aiter kernels on MI355X, MI300X
// and MI308X, read at run time from an aiter checkout the user names
// (KCC_AITER_DIR; nothing of it is in this tree):
//
//   - aiter/configs/bf16_tuned_gemm.csv and
//     aiter/configs/model_configs/*bf16_tuned_gemm.csv: rows with libtype
//     asm, the kernel's mangled name `_ZN5aiter<len><name>E` standing for
//     hsa/<gfx>/bf16gemm/<name>.co (the registry bf16gemm_fp32bf16.csv
//     beside the code objects gives its tile);
//   - aiter/configs/a8w8_blockscale_bpreshuffle_tuned_gemm.csv and
//     aiter/configs/model_configs/*a8w8_blockscale_bpreshuffle*tuned*.csv:
//     rows with libtype asm, `_ZN5aiter<len><name>E` standing for
//     hsa/<gfx>/fp8gemm_blockscale/<name>.co (FP8 A [M, K] with 1x128 block
//     scales, pre-shuffled FP8 B [N, K] with 128x128 ones, bf16 out; the
//     registry fp8gemm_bf16_blockscale.csv beside them gives its tile);
//   - op_tests/cpp/mha/README.md: fmha_v3 forward TFLOPS on MI300X and
//     MI355X for B, H, H_kv, S, D = 128, causal and not.
//
// Rows dropped, and why: a time of 0 or less (not measured), a time that
// three or more rows of one table share (a placeholder), an error
// ratio above 5% (aiter's own numerical check failed: the kernel did not
// compute the product), a kernel the harness has no launcher for, and
// repeats of a (chip, CUs, kernel, shape) already read (the first is kept).
//
// The split into fitting and validation rows is a fixed rule of the row's
// identity: the FNV-1a hash of key() modulo 4 is 0 for the fitting part.
// Nothing about a row's time or error enters the rule.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_BENCHMARKS_MEASUREDROWS_H
#define KCC_BENCHMARKS_MEASUREDROWS_H

#include "benchmarks/SideBySide.h"
#include "runtime/emu/timing/DeviceModel.h"
#include "target/Target.h"

#include <map>
#include <string>
#include <vector>

namespace kcc::bench {

/// One measurement of one aiter kernel at one shape on one machine.
struct MeasuredRow {
  /// The kernel family the row belongs to (model_validation's --families).
  std::string family;
  Chip chip = Chip::gfx950;
  /// CUs of the machine measured: 256 (MI355X), 304 (MI300X), 80 (MI308X).
  unsigned computeUnits = 0;
  /// aiter's kernel symbol and its code object, relative to the checkout.
  std::string kernel, codeObject;
  /// GEMM rows: C[M, N] = A[M, K] B[N, K]^T, the tile, the split of K.
  GemmShape gemm;
  unsigned tileM = 0, tileN = 0, splitK = 1;
  /// FP8 block-scale GEMM rows (family fp8gemm-blockscale): A and B in the
  /// chip's e4m3, f32 block scales, bf16 out.
  bool fp8 = false;
  /// Attention rows.
  AttentionShape attention;
  bool isAttention = false;
  double measuredUs = 0;
  double flops = 0;
  /// Where the row came from: file and line.
  std::string source;

  /// The row's identity: family, chip, CUs and shape (and, for GEMMs, the
  /// kernel and its split), the text the split rule hashes.
  std::string key() const;
};

/// How a family's rows were measured: aiter's tuner times its GEMM tables
/// with the profiler on rotated (cold) inputs (aiter/test_common.py); the
/// FMHA table comes from the op_tests benchmark's host events around
/// back-to-back launches on the same buffers (warm; ck_tile's timer).
emu::timing::Measurement measurementOfFamily(llvm::StringRef family);

/// The split rule: the row whose key() this is belongs to the fitting part
/// (one row in four, by the key's hash).
bool isFittingKey(llvm::StringRef key);

/// Rows of every table the harness reads, and a count of the rows dropped
/// per reason.
struct MeasuredTables {
  std::vector<MeasuredRow> rows;
  std::map<std::string, unsigned> dropped;
  /// asm rows of families the harness has no launcher for, per family:
  /// listed, never silently missing.
  std::map<std::string, unsigned> notLaunched;
};

MeasuredTables readMeasuredTables(const std::string &aiter);

/// FNV-1a, 64-bit: the split rule's hash (stable across platforms).
uint64_t fnv1a(llvm::StringRef text);

} // namespace kcc::bench

#endif // KCC_BENCHMARKS_MEASUREDROWS_H
