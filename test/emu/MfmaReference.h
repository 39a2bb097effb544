//===- MfmaReference.h - CPU model of MFMA operand layouts -----*- C++ -*-===//
//
// An independent model of what each MFMA instruction computes, written from
// the CDNA3/CDNA4 ISA guides' description of the operand and accumulator
// lane layouts (cross-checked against AMD's matrix instruction calculator for
// the CDNA3 instructions): which lane and register element of A, B, C and D
// holds which matrix entry of which block, and what cbsz/abid/blgp do.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TEST_EMU_MFMAREFERENCE_H
#define KCC_TEST_EMU_MFMAREFERENCE_H

#include <cstdint>
#include <string>
#include <vector>

namespace kcc::emutest {

enum class MfmaIn { F32, XF32, F16, BF16, I8, FP8, BF8, F64 };
enum class MfmaOut { F32, I32, F64 };

/// One MFMA instruction: an M x N x K product per block, `blocks` blocks,
/// `kPerLane` consecutive K elements of A/B in each lane's registers.
struct MfmaDesc {
  const char *kernel; // kernel name in mfma.hip
  int m, n, k, blocks, kPerLane;
  MfmaIn inA, inB;
  MfmaOut out;
  int cbsz = 0, abid = 0, blgp = 0;

  int inBytes() const;    // bytes of one A/B element
  int outBytes() const;   // bytes of one C/D element
  int accPerLane() const; // C/D elements per lane
};

/// Where an entry lives: element `elem` of lane `lane`'s operand registers.
struct LaneSlot {
  int lane, elem;
};

/// Operand A entry (block b, row i, column kk) and B entry (block b, row kk,
/// column j) before cbsz/abid/blgp are applied.
LaneSlot mfmaSlotA(const MfmaDesc &d, int b, int i, int kk);
LaneSlot mfmaSlotB(const MfmaDesc &d, int b, int kk, int j);
/// C/D entry of lane `lane`, element `r`: block, row, column.
void mfmaAccEntry(const MfmaDesc &d, int lane, int r, int &b, int &i, int &j);

/// The lane whose B registers lane `lane` uses under blgp.
int mfmaBlgpSource(int blgp, int lane);
/// The block whose A feeds block `b` under cbsz/abid.
int mfmaABlock(const MfmaDesc &d, int b);

/// Decodes one input element (raw little-endian bytes) to double; `gfx950`
/// selects the OCP fp8/bf8 encodings, otherwise the FNUZ ones of gfx942.
double mfmaDecode(MfmaIn t, const uint8_t *p, bool gfx950);

/// The reference D for raw per-lane registers a, b (64 * kPerLane elements
/// each) and c (64 * accPerLane elements), as doubles, and a per-element
/// error bound for the float types (0 for integers).
void mfmaReference(const MfmaDesc &d, bool gfx950,
                   const std::vector<uint8_t> &a,
                   const std::vector<uint8_t> &b,
                   const std::vector<uint8_t> &c, std::vector<double> &ref,
                   std::vector<double> &bound);

/// gfx950's f8f6f4 MFMAs (v_mfma[_scale]_f32_{16x16x128,32x32x64}_f8f6f4).
/// Formats by cbsz/blgp value: 0 FP8 (OCP e4m3fn), 1 BF8 (OCP e5m2), 2 FP6
/// (e2m3), 3 BF6 (e3m2), 4 FP4 (e2m1).
int f8f6f4Bits(int format);
/// The value of a code by the format's formula (NaN and +-inf included).
double f8f6f4Value(int format, unsigned code);

/// The reference D of the M x M x (2048 / M) f8f6f4 MFMA (M = 16 or 32):
/// a and b hold `regs` dwords per lane (lane-major), whose low
/// 32 * f8f6f4Bits(format) bits are the lane's 32 K values packed densely
/// (value j in bits [w * j, w * j + w)); lane l holds row (column) l % M,
/// K = 32 * (l / M) + j. c is C as D's registers (64 * acc, lane-major).
/// scaleA/scaleB: each lane's E8M0 scale of its 32 values (2^(e - 127), 255
/// is NaN in OCP MX), or null for the unscaled form. Results and error bounds as
/// mfmaReference's.
void mfmaF8f6f4Reference(int m, int fa, int fb, int regs,
                         const std::vector<uint32_t> &a,
                         const std::vector<uint32_t> &b,
                         const std::vector<float> &c, const uint8_t *scaleA,
                         const uint8_t *scaleB, std::vector<double> &ref,
                         std::vector<double> &bound);

/// The reference D of a sparse v_smfmac_* (M x M x K, A 2:4 sparse) on
/// gfx942 (FNUZ FP8) or gfx950 (OCP): a and b hold 8 dwords per lane
/// (lane-major): lane l's B holds column l % M, K values kd * (l / M) + t
/// (kd = K * M / 64) as elements t; its A holds row l % M and kd / 2 kept
/// values, value 2p + h at K kd * (l / M) + 4p + the 2-bit field 2p + h of
/// the lane's index set (bits [kd * set, kd * set + kd) of idx[l]; set 0 if
/// cbsz != 0, else abid). c: 16 dwords per lane, the low M * M / 64 used.
/// Results and bounds as mfmaReference's (ref[lane * acc + r]).
void smfmacReference(int m, int k, MfmaIn ta, MfmaIn tb, bool gfx950,
                     const std::vector<uint32_t> &a,
                     const std::vector<uint32_t> &b,
                     const std::vector<uint32_t> &idx, int cbsz, int abid,
                     const std::vector<uint32_t> &c, std::vector<double> &ref,
                     std::vector<double> &bound);

} // namespace kcc::emutest

#endif // KCC_TEST_EMU_MFMAREFERENCE_H
