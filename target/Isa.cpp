//===- Isa.cpp - What an instruction's mnemonic says about it -------------===//
//
// Sources:
//   [SISched] llvm/lib/Target/AMDGPU/SISchedule.td, SIDPGFX940FullSpeedModel
//             (used by gfx942 and gfx950; llvm-mca -mcpu=gfx9xx shows it).
//   [DS355]   AMD Instinct MI355X data sheet: dense FP16 2.5, FP8 5.0 and
//             FP6/FP4 10 PFLOPS.
//   [TRANS]   LLVM's SIInstrFlags::TRANS on the AMDGPU instructions
//             (VOP1Instructions.td): of those gfx942 and gfx950 have, exactly
//             the v_exp/v_log/v_rcp/v_rsq/v_sqrt/v_sin/v_cos families.
//
//===----------------------------------------------------------------------===//
#include "target/Isa.h"

#include "llvm/ADT/STLExtras.h"

#include <cctype>

using namespace llvm;
namespace kcc {

namespace {

/// Parses "MxNxK<type>" after the v_mfma_<out>_ prefix.
bool parseShape(StringRef s, unsigned &m, unsigned &n, unsigned &k, StringRef &type) {
  auto num = [&](unsigned &out) {
    size_t i = 0;
    while (i < s.size() && isdigit(static_cast<unsigned char>(s[i])))
      ++i;
    if (!i || s.take_front(i).getAsInteger(10, out))
      return false;
    s = s.drop_front(i);
    return true;
  };
  if (!num(m) || !s.consume_front("x") || !num(n) || !s.consume_front("x") || !num(k))
    return false;
  type = s.ltrim('_');
  return true;
}

} // namespace

std::optional<MfmaName> parseMfmaName(StringRef s) {
  MfmaName f;
  s = s.trim();
  if (s.consume_front("v_smfmac_"))
    f.sparse = true;
  else if (s.consume_front("v_mfma_scale_"))
    f.scaled = true;
  else if (!s.consume_front("v_mfma_"))
    return std::nullopt;
  // Output type: f32_, i32_, f64_.
  size_t us = s.find('_');
  if (us == StringRef::npos)
    return std::nullopt;
  f.out = s.take_front(us);
  if (!parseShape(s.drop_front(us + 1), f.m, f.n, f.k, f.type))
    return std::nullopt;
  return f;
}

uint64_t mfmaFlops(StringRef mnemonic) {
  std::optional<MfmaName> f = parseMfmaName(mnemonic);
  if (!f)
    return 0;
  return 2ull * f->m * f->n * f->k;
}

unsigned mfmaPasses(Chip, StringRef mnemonic, bool fp8Operand) {
  std::optional<MfmaName> f = parseMfmaName(mnemonic);
  if (!f)
    return 0;
  // The block-scaled f8f6f4 forms (v_mfma_scale_f32_...) time as the
  // unscaled ones.
  unsigned m = f->m, k = f->k;
  bool xf32 = f->type.contains("xf32");
  unsigned passes;
  if (f->sparse)
    passes = m == 32 ? 8 : 4;
  else if (f->out == "f64")
    passes = m == 4 ? 4 : 8;
  else if (m == 4)
    passes = 2;
  else if (m == 16)
    passes = (k >= 8 || xf32) ? 4 : 8;
  else if (m == 32)
    passes = (k >= 8 || xf32) ? 8 : 16;
  else
    passes = 16;
  // gfx950's f8f6f4 MFMAs: the matrix cores run FP8/BF8 at half the FP6/FP4
  // rate ([DS355]: FP16 2.5, FP8 5.0, FP6/FP4 10 PFLOPS), so a 32x32x64 is
  // 16 passes with an FP8 operand and 8 with FP6/FP4 ones (16x16x128: 8 and
  // 4), as the name's shape alone gives.
  if (fp8Operand && f->type.contains("f8f6f4"))
    passes *= 2;
  return passes;
}

StringRef mfmaPassSource() {
  return "[SISched] SIDPGFX940FullSpeedModel: 4x4 2 passes; f64 4x4x4 4, "
         "16x16x4 f64 8; 16x16 with K>=8 4 (16X16X8X/16X16X16/16X16X32), "
         "16x16 with K<=4 8 (16X16X[14][FBI]); 32x32 with K>=8 or xf32 8 "
         "(32X32X8/32X32X16/32X32X4XF), 32x32 with K<=4 16 "
         "(32X32X[124][FBI]); smfmac 16x16 4, 32x32 8; gfx950 f8f6f4 "
         "32x32x64 8, 16x16x128 4 with FP6/FP4 operands, twice that with an "
         "FP8/BF8 one (target/Isa.cpp)";
}

bool isTranscendental(StringRef mnemonic) {
  // The trailing '_' keeps the families apart from longer names that share
  // a prefix; each family's every form (v_rcp_iflag_f32, v_exp_legacy_f32,
  // v_log_legacy_f32 included) is on the transcendental unit ([TRANS]).
  StringRef m = mnemonic.trim();
  return any_of(ArrayRef<StringRef>{"v_exp_", "v_log_", "v_rcp_", "v_rsq_",
                                    "v_sqrt_", "v_sin_", "v_cos_"},
                [&](StringRef p) { return m.starts_with(p); });
}

} // namespace kcc
