//===- Validation.h - How far the model is from hardware, per family -*- C++ -*-===//
//
// The timing model's measured error on the validation part of AMD's
// hardware measurements (benchmarks/model_validation.cpp: rows of aiter's
// tuned tables and published figures the fit never saw), per kind of
// kernel and chip. Every modelled figure is printed with the error of the
// kind it belongs to, or with "not validated" where no measured row of
// that kind exists: a model figure without its error bar is not a result.
//
// The table in Validation.cpp is the full run's summary
// (`model_validation --summary` prints its rows), regenerated when the
// model changes.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_TIMING_VALIDATION_H
#define KCC_RUNTIME_EMU_TIMING_VALIDATION_H

#include "target/Target.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace kcc::emu::timing {

/// The kinds of kernel the validation speaks for.
enum class KernelKind { Bf16Gemm, Bf16AttentionForward, Fp8Gemm, Other };

/// The kind of a kernel from its name and the MFMA it runs fastest
/// (TimingReport::kernel, TimingReport::peakMfma): a GEMM or an attention
/// forward on bf16/f16 MFMAs, a GEMM on FP8 MFMAs (`_fp8_fp8`, or gfx950's
/// `_f8f6f4`); anything else (FP8 attention, the attention backward,
/// kernels without MFMAs) is Other.
KernelKind kernelKindOf(llvm::StringRef kernel, llvm::StringRef peakMfma);

/// One kind's error on one chip's validation rows.
struct ValidationError {
  KernelKind kind;
  Chip chip;
  /// What the rows are (families and machines), for the printed line.
  const char *what;
  unsigned rows;
  /// Median and 90th-percentile absolute error, share of rows within 10%.
  double median, p90, within10;
};

/// The error of `kind` on `chip`, if any row of it was validated.
std::optional<ValidationError> validationError(KernelKind kind, Chip chip);

/// The line printed beside a modelled figure: "bf16 GEMM gfx950
/// validation: median 4.1%, p90 8.0%, 92% within 10%, 210 rows (...)", or
/// "not validated: no hardware measurement of this kind of kernel on
/// gfx942 was run on the model".
std::string validationNote(llvm::StringRef kernel, llvm::StringRef peakMfma, Chip chip);

} // namespace kcc::emu::timing

#endif // KCC_RUNTIME_EMU_TIMING_VALIDATION_H
