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

} // namespace kcc::emutest

#endif // KCC_TEST_EMU_MFMAREFERENCE_H
