//===- Validation.cpp - How far the model is from hardware, per family ----===//
#include "runtime/emu/timing/Validation.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace kcc::emu::timing {
namespace {

// The validation part of `KCC_AITER_DIR=... model_validation` (the full
// run, the FP8 rows a sample; `--summary` prints these rows), with the
// tree's constants.
// clang-format off
const ValidationError kValidated[] = {
    {KernelKind::Bf16Gemm, Chip::gfx942, "aiter bf16 GEMMs (split-K), MI308X", 10, 0.1521, 0.4682, 0.4000},
    {KernelKind::Bf16AttentionForward, Chip::gfx942, "aiter fmha_v3_fwd, MI300X", 71, 0.0207, 0.1138, 0.8592},
    {KernelKind::Bf16Gemm, Chip::gfx950, "aiter bf16 GEMMs (256x256, split-K), MI355X", 392, 0.0399, 0.1276, 0.8393},
    {KernelKind::Bf16AttentionForward, Chip::gfx950, "aiter fmha_v3_fwd, MI355X", 65, 0.0322, 0.3024, 0.7846},
    // fp8gemm-blockscale, a sample (--sample 80: 80 of 401 MI308X rows and
    // 80 of 404 MI355X rows, their validation part), not the full run.
    {KernelKind::Fp8Gemm, Chip::gfx942, "aiter FP8 block-scale GEMMs, MI308X; a sample of 80 of 401 rows", 59, 0.0252, 0.1590, 0.7966},
    {KernelKind::Fp8Gemm, Chip::gfx950, "aiter FP8 block-scale GEMMs, MI355X; a sample of 80 of 404 rows", 59, 0.1950, 0.4511, 0.3051},
};
// clang-format on

const char *kindName(KernelKind kind) {
  switch (kind) {
  case KernelKind::Bf16Gemm:
    return "bf16 GEMM";
  case KernelKind::Bf16AttentionForward:
    return "bf16 attention forward";
  case KernelKind::Fp8Gemm:
    return "FP8 GEMM";
  case KernelKind::Other:
    break;
  }
  return "other";
}

} // namespace

KernelKind kernelKindOf(StringRef kernel, StringRef peakMfma) {
  // bf16 and f16 MFMAs run at one rate: one kind. FP8 MFMAs another
  // (GEMMs only); integer MFMAs and kernels without MFMAs are others.
  bool half = peakMfma.ends_with("_bf16") || peakMfma.ends_with("_f16") ||
              peakMfma.ends_with("_bf16_1k");
  // (The scaled MFMAs of MXFP4, v_mfma_scale_*_f8f6f4, are not FP8's.)
  bool fp8 = peakMfma.ends_with("_fp8_fp8") ||
             (peakMfma.ends_with("_f8f6f4") && !peakMfma.contains("mfma_scale"));
  std::string name = kernel.lower();
  StringRef n(name);
  if (fp8)
    return n.contains("gemm") && !n.contains("fmha") && !n.contains("attention")
               ? KernelKind::Fp8Gemm
               : KernelKind::Other;
  if (!half)
    return KernelKind::Other;
  if (n.contains("bwd") || n.contains("backward"))
    return KernelKind::Other;
  if (n.contains("gemm"))
    return KernelKind::Bf16Gemm;
  if (n.contains("fmha_fwd") || n.contains("attention_forward"))
    return KernelKind::Bf16AttentionForward;
  return KernelKind::Other;
}

std::optional<ValidationError> validationError(KernelKind kind, Chip chip) {
  for (const ValidationError &e : kValidated)
    if (e.kind == kind && e.chip == chip && e.rows > 0)
      return e;
  return std::nullopt;
}

std::string validationNote(StringRef kernel, StringRef peakMfma, Chip chip) {
  KernelKind kind = kernelKindOf(kernel, peakMfma);
  StringRef chipName = getChipInfo(chip).name;
  std::optional<ValidationError> e = validationError(kind, chip);
  if (!e) {
    std::string what =
        kind == KernelKind::Other ? "kernel '" + kernel.str() + "'" : std::string(kindName(kind));
    return formatv("not validated: no hardware measurement of this kind of kernel ({0}) on "
                   "{1} was run on the model",
                   what, chipName)
        .str();
  }
  return formatv("{0} {1} validation: median {2:F1}%, p90 {3:F1}%, {4:F0}% within 10%, {5} "
                 "rows ({6})",
                 kindName(kind), chipName, 100 * e->median, 100 * e->p90, 100 * e->within10,
                 e->rows, e->what)
      .str();
}

} // namespace kcc::emu::timing
