//===- TimingParams.cpp - Per-chip constants of the timing model ----------===//
//
// Abbreviations in the sources:
//   [DS300]   AMD Instinct MI300X data sheet (peak engine clock, CUs, peak
//             TFLOPS, HBM bandwidth, board power).
//   [DS355]   AMD Instinct MI355X data sheet.
// The chip's own facts (CUs, SIMDs per CU, LDS banks, peak clock, HBM
// bandwidth) and the MFMA pass counts are target/'s (Target.cpp, Isa.cpp);
// this table holds the model's constants: latencies, cycles, fitted values.
//   [GCNWP]   AMD "Graphics Cores Next Architecture" white paper (2012), CU
//             front end; CDNA keeps the GCN CU organisation.
//   [CDNA3ISA] "AMD Instinct MI300 Instruction Set Architecture" reference.
//   [CDNA3WP] AMD CDNA 3 architecture white paper.
//   [CDNA4WP] AMD CDNA 4 architecture white paper.
//   [SISched] llvm/lib/Target/AMDGPU/SISchedule.td, SIDPGFX940FullSpeedModel
//             (used by gfx942 and gfx950; llvm-mca -mcpu=gfx9xx shows it).
//   [GCNHR]   llvm/lib/Target/AMDGPU/GCNHazardRecognizer.cpp.
//   [C&C]     Chips and Cheese, "Testing AMD's Giant MI300X" (2024),
//             pointer-chasing latency measurements.
//   [MAF]     AMD ROCm blog, "Understanding Peak, Max-Achievable & Delivered
//             FLOPs" parts 1 and 2 (2025): GEMMs run below the boost clock,
//             which is reached only in lightly loaded phases; the median
//             clock under a dense GEMM sets the achievable FLOPs.
//   [FIT]     benchmarks/model_validation.cpp --fit: fitted on the fitting
//             part (one row in four, by a hash of the row's key) of AMD's
//             hardware measurements of its aiter kernels: the bf16 GEMM
//             tuned tables (aiter/configs/*bf16_tuned_gemm.csv, MI355X and
//             MI308X, the tuner's profiler time on rotated inputs) and the
//             published fmha_v3 forward table (op_tests/cpp/mha/README.md,
//             MI300X and MI355X, events around back-to-back launches); the
//             rest of the rows validate it (README, "Timing model").
// "Check:" notes show a constant reproducing a published peak.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/timing/TimingParams.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <cstdlib>
#include <vector>

using namespace llvm;
namespace kcc::emu::timing {
namespace {

const TimingConstant kGfx942[] = {
    {"issue_period", 4, "cycles",
     "[GCNWP] each SIMD gets an issue slot every 4 cycles; up to one "
     "instruction per type from different waves"},
    {"valu_cycles", 4, "cycles",
     "[GCNWP] wave64 over 16 lanes. Check: 304*4*16*2 flop*2.1 GHz = 81.7 "
     "TFLOPS = [DS300] FP32 vector"},
    {"trans_cycles", 16, "cycles", "[SISched] WriteTrans32: quarter rate"},
    {"trans_use_wait_states", 1, "wait states",
     "[GCNHR] checkVALUHazards: TransDefWaitstates (gfx940 trans forwarding)"},
    {"permlane_cycles", 8, "cycles",
     "[SISched] v_permlane*_swap: 2 VALU cycles (llvm-mca RThroughput 2); "
     "gfx950 only"},
    {"mfma_cycles_per_pass", 4, "cycles",
     "[CDNA3ISA] MFMA pass = 4 cycles. Check: 32x32x8 bf16 = 8 passes "
     "[SISched]; 304*4*16384/32*2.1 GHz = 1307 TFLOPS = [DS300] bf16 dense"},
    {"mfma_read_extra_passes", 3, "wait states",
     "[GCNHR] GFX940_XDL_N_PassWriteVgprVALUMemExpReadWaitStates = passes + 3"},
    {"salu_cycles", 1, "cycles", "[SISched] WriteSALU latency 1"},
    {"branch_taken_cycles", 8, "cycles",
     "[SISched] WriteBranch latency 8 (a scheduling-model figure)"},
    {"smem_latency", 150, "cycles", "assumption (scalar cache hit)"},
    {"lds_latency", 64, "cycles", "assumption (no vendor figure)"},
    {"vmem_latency", 400, "cycles",
     "[FIT] a load's latency, data from HBM (the tuner's rotated inputs); "
     "[C&C] puts MI300X's L2 near 230 ns and HBM beyond 500 ns"},
    {"vmem_store_latency", 200, "cycles",
     "moves with vmem_latency (the fit's probe moves both): 300 assumed before it"},
    {"l2_bytes_per_cycle_per_cu", 2048.0 / 38, "B/cycle",
     "[CDNA3WP] L2 per XCD: 16 channels x 128 B/clk, shared by 38 CUs"},
    {"hbm_sustained_fraction", 1.0, "fraction",
     "[FIT] left at the data sheet's: no gfx942 row is HBM-bound"},
    {"launch_overhead_us", 8.52, "us",
     "[FIT] a launch's fixed cost in the profiler's device time (MI308X rows)"},
    {"workgroup_launch_cycles", 0, "cycles",
     "[FIT] a round's workgroup launch: at the bottom of its range"},
    {"back_to_back_launch_us", 17.17, "us",
     "[FIT] the same with host events around back-to-back launches (MI300X "
     "FMHA rows): the gap between launches included"},
    {"vmem_latency_warm", 300, "cycles",
     "[FIT] a load's latency, data warm from the launch before; at the bottom "
     "of the fit's range (an L2 hit)"},
    {"barrier_latency", 16, "cycles", "assumption (last arrival to release)"},
    {"sleep_cycles_per_unit", 64, "cycles", "[CDNA3ISA] s_sleep: ~64 clocks per unit"},
    {"power_knee_mfma_busy", 0.328, "fraction",
     "[FIT] the chip's mean MFMA-busy fraction the 750 W board limit [DS300] "
     "sustains at the peak clock; above it the clock falls ([MAF])"},
    {"power_clock_exponent", 1.47, "",
     "[FIT] power ~ activity x f^n (dynamic power f V^2 with the voltage near "
     "its floor: between 1 and 3)"},
};

const TimingConstant kGfx950[] = {
    {"issue_period", 4, "cycles", "[GCNWP] as gfx942"},
    {"valu_cycles", 4, "cycles",
     "[GCNWP] wave64 over 16 lanes. Check: 256*4*16*2*2 (packed) flop*2.4 "
     "GHz = 157.3 TFLOPS = [DS355] FP32 vector"},
    {"trans_cycles", 16, "cycles", "[SISched] WriteTrans32: quarter rate"},
    {"trans_use_wait_states", 1, "wait states", "[GCNHR] TransDefWaitstates"},
    {"permlane_cycles", 8, "cycles",
     "[SISched] llvm-mca -mcpu=gfx950: v_permlane32_swap RThroughput 2"},
    {"mfma_cycles_per_pass", 4, "cycles",
     "[CDNA3ISA] pass = 4 cycles. Check: 32x32x16 bf16 = 8 passes [SISched]; "
     "256*4*32768/32*2.4 GHz = 2517 TFLOPS = [DS355] bf16 dense"},
    {"mfma_read_extra_passes", 4, "wait states",
     "[GCNHR] GFX940_XDL_N_PassWriteVgprVALUMemExpReadWaitStates: passes + 3, "
     "+1 on gfx950"},
    {"salu_cycles", 1, "cycles", "[SISched] WriteSALU latency 1"},
    {"branch_taken_cycles", 8, "cycles", "[SISched] WriteBranch latency 8"},
    {"smem_latency", 150, "cycles", "assumption (scalar cache hit)"},
    {"lds_latency", 64, "cycles", "assumption (no vendor figure)"},
    {"vmem_latency", 1526, "cycles",
     "[FIT] a load's latency, data from HBM (the tuner's rotated inputs): "
     "636 ns at 2.4 GHz"},
    {"vmem_store_latency", 1306, "cycles",
     "moves with vmem_latency (the fit's probe moves both): 340 assumed before it"},
    {"l2_bytes_per_cycle_per_cu", 2048.0 / 32, "B/cycle",
     "[CDNA4WP] 32 CUs per XCD; L2 width as CDNA3 (2 KB/clk) assumed"},
    {"hbm_sustained_fraction", 0.554, "fraction",
     "[FIT] the share of the data-sheet bandwidth streaming launches sustain"},
    {"launch_overhead_us", 0.0, "us",
     "[FIT] a launch's fixed cost in the profiler's device time (MI355X rows), "
     "beyond its workgroups' launch: at the bottom of its range (one-round "
     "launches cannot tell the two apart)"},
    {"back_to_back_launch_us", 20.0, "us",
     "[FIT] the same with host events around back-to-back launches (MI355X "
     "FMHA rows), at the top of the fit's range: the short attention launches "
     "ask for more than a launch costs (README: what the model misses)"},
    {"workgroup_launch_cycles", 10004, "cycles",
     "[FIT] a round's workgroup launch (dispatch and set-up, 4.2 us at 2.4 GHz)"},
    {"vmem_latency_warm", 1526, "cycles",
     "[FIT] a load's latency, data warm from the launch before; held at or "
     "below vmem_latency, and at it"},
    {"barrier_latency", 16, "cycles", "assumption (last arrival to release)"},
    {"sleep_cycles_per_unit", 64, "cycles", "[CDNA3ISA] s_sleep: ~64 clocks per unit"},
    {"power_knee_mfma_busy", 0.367, "fraction",
     "[FIT] the chip's mean MFMA-busy fraction the 1400 W board limit [DS355] "
     "sustains at the peak clock; above it the clock falls ([MAF])"},
    {"power_clock_exponent", 2.94, "",
     "[FIT] power ~ activity x f^n (dynamic power f V^2 with the voltage near "
     "its floor: between 1 and 3)"},
};

/// The chip's own facts, which the model reads from target/ (ChipInfo) and
/// the printout lists first.
std::vector<TimingConstant> chipFacts(Chip chip) {
  const ChipInfo &ci = getChipInfo(chip);
  const char *sheet = chip == Chip::gfx942 ? "target/ ChipInfo: [DS300]" : "target/ ChipInfo: [DS355]";
  const char *paper = chip == Chip::gfx942 ? "target/ ChipInfo: [CDNA3WP]" : "target/ ChipInfo: [CDNA4WP]";
  return {
      {"clock_ghz", ci.peakClockGHz, "GHz", sheet},
      {"compute_units", double(ci.computeUnits), "CUs", sheet},
      {"simds_per_cu", double(ci.simdsPerCU), "SIMDs", paper},
      {"lds_banks", double(ci.ldsBanks), "banks", paper},
      {"hbm_bytes_per_second", ci.hbmBytesPerSecond, "B/s", sheet},
  };
}

ArrayRef<TimingConstant> modelTable(Chip chip) {
  if (chip == Chip::gfx942)
    return kGfx942;
  return kGfx950;
}

TimingParams build(Chip chip) {
  TimingParams p;
  p.chip = chip;
  const ChipInfo &ci = getChipInfo(chip);
  p.clockGHz = ci.peakClockGHz;
  p.computeUnits = unsigned(ci.computeUnits);
  p.simdsPerCu = unsigned(ci.simdsPerCU);
  p.ldsBanks = unsigned(ci.ldsBanks);
  p.hbmBytesPerSecond = ci.hbmBytesPerSecond;
  for (const TimingConstant &c : modelTable(chip)) {
    StringRef n(c.name);
    double v = c.value;
    auto u = unsigned(v);
    if (n == "issue_period") p.issuePeriod = u;
    else if (n == "valu_cycles") p.valuCycles = u;
    else if (n == "trans_cycles") p.transCycles = u;
    else if (n == "trans_use_wait_states") p.transUseWaitStates = u;
    else if (n == "permlane_cycles") p.permlaneCycles = u;
    else if (n == "mfma_cycles_per_pass") p.mfmaCyclesPerPass = u;
    else if (n == "mfma_read_extra_passes") p.mfmaReadExtraPasses = u;
    else if (n == "salu_cycles") p.saluCycles = u;
    else if (n == "branch_taken_cycles") p.branchTakenCycles = u;
    else if (n == "smem_latency") p.smemLatency = u;
    else if (n == "lds_latency") p.ldsLatency = u;
    else if (n == "vmem_latency") p.vmemLatency = u;
    else if (n == "vmem_store_latency") p.vmemStoreLatency = u;
    else if (n == "l2_bytes_per_cycle_per_cu") p.l2BytesPerCyclePerCu = v;
    else if (n == "hbm_sustained_fraction") p.hbmSustainedFraction = v;
    else if (n == "launch_overhead_us") p.launchOverheadSeconds = v * 1e-6;
    else if (n == "back_to_back_launch_us") p.backToBackLaunchSeconds = v * 1e-6;
    else if (n == "workgroup_launch_cycles") p.workgroupLaunchCycles = v;
    else if (n == "vmem_latency_warm") p.vmemLatencyWarm = u;
    else if (n == "barrier_latency") p.barrierLatency = u;
    else if (n == "sleep_cycles_per_unit") p.sleepCyclesPerUnit = u;
    else if (n == "power_knee_mfma_busy") p.powerKneeMfmaBusy = v;
    else if (n == "power_clock_exponent") p.powerClockExponent = v;
    else
      report_fatal_error(Twine("timing table row without a field: ") + n);
  }
  return p;
}

} // namespace

double TimingParams::sustainedClockGHz(double mfmaBusy) const {
  if (mfmaBusy <= powerKneeMfmaBusy || powerClockExponent <= 0)
    return clockGHz;
  return clockGHz * std::pow(powerKneeMfmaBusy / mfmaBusy, 1.0 / powerClockExponent);
}

ArrayRef<TimingConstant> timingTable(Chip chip) {
  auto make = [](Chip c) {
    std::vector<TimingConstant> rows = chipFacts(c);
    llvm::append_range(rows, modelTable(c));
    return rows;
  };
  static const std::vector<TimingConstant> t942 = make(Chip::gfx942);
  static const std::vector<TimingConstant> t950 = make(Chip::gfx950);
  return chip == Chip::gfx942 ? t942 : t950;
}

const TimingParams &getTimingParams(Chip chip) {
  static const TimingParams p942 = build(Chip::gfx942);
  static const TimingParams p950 = build(Chip::gfx950);
  return chip == Chip::gfx942 ? p942 : p950;
}

} // namespace kcc::emu::timing
