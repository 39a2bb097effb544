//===- Program.h - A random kernel of the emulator's differential fuzzer -*- C++ -*-===//
//
// kcc-emu-fuzz checks the emulator against the host: it generates a random,
// well-defined LLVM IR program, compiles it with the AMDGPU backend and runs
// it on the emulator, evaluates the same IR per lane on the host with ORC,
// and compares every lane's results.
//
// A program is a per-lane state of typed slots (8 bytes each, a fixed type
// per slot) and a list of steps. A step is either a segment of straight-line
// code, branches and loops that reads and writes only its own lane's slots
// (target-independent IR, so the host can compile it), or one cross-lane
// operation (readfirstlane, ballot, ds_bpermute, DPP, an LDS exchange across
// a barrier, ...) that the host evaluates with its own model of that
// intrinsic (HostModel.cpp). On the GPU every step is inlined into one
// kernel; on the host each segment is a function called once per lane, and
// the cross-lane steps run in C++ between them. Cross-lane steps sit at the
// kernel's top level, where every lane of the workgroup is active, so their
// meaning does not depend on how the compiler shapes divergent code.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TOOLS_EMU_FUZZ_PROGRAM_H
#define KCC_TOOLS_EMU_FUZZ_PROGRAM_H

#include "target/Target.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kcc::fuzz {

enum class Ty : uint8_t { I8, I16, I32, I64, F16, F32, F64 };
constexpr unsigned kNumTys = 7;

inline bool isFloat(Ty t) { return t >= Ty::F16; }
unsigned bitWidth(Ty t);
/// The type's name in LLVM IR ("i32", "half", ...).
const char *irName(Ty t);

/// One slot of a lane's state. Slots whose value came from an operation that
/// is not correctly rounded on AMDGPU (see README, "Differential fuzzing")
/// are write-only sinks compared within `ulps` units in the last place;
/// every other slot must agree bit for bit (NaNs: any NaN matches any NaN).
struct Slot {
  Ty ty;
  unsigned ulps = 0; // 0: exact
};

/// A cross-lane operation between two segments (all lanes active).
struct CrossLane {
  enum Kind {
    ReadFirstLane, // dst = src of the wave's first lane
    ReadLane,      // dst = src of lane `imm` of the wave
    Ballot,        // dst (i64) = wave mask of lanes with (src pred src2)
    Bpermute,      // dst = src of lane ((src2 >> 2) & 63) of the wave
    Lds,           // dst = src of the workgroup's lane index(imm), via LDS
    WaveReduce,    // dst = reduction `imm` of src over the wave (last steps only)
    Dpp,           // dst = update.dpp(old = src2, src, imm = dpp_ctrl, masks)
    Mbcnt,         // dst = mbcnt_hi(src2, mbcnt_lo(src, acc = dst's old value))
    Swizzle,       // dst = ds_swizzle(src, offset imm)
    Permlane16Swap, // (dst, dst2) = permlane16.swap(src, src2) (gfx950)
    Permlane32Swap, // (dst, dst2) = permlane32.swap(src, src2) (gfx950)
  };
  Kind kind;
  Ty ty = Ty::I32;
  unsigned dst = 0, dst2 = 0, src = 0, src2 = 0;
  unsigned imm = 0;      // lane, reduction, dpp_ctrl, LDS index mode, swizzle offset
  unsigned imm2 = 0;     // LDS index constant; Ballot's predicate
  unsigned rowMask = 0xf, bankMask = 0xf;
  bool boundCtrl = false;
  unsigned ldsIndex = 0; // which LDS array (one per exchange)
};

enum class LdsIndex { Add, Xor, Reverse, Data };
enum class Reduce { UMin, UMax, SMin, SMax, Add, And, Or, Xor };
/// icmp predicates in IR order (eq ne ugt uge ult ule sgt sge slt sle).
const char *icmpName(unsigned pred);
bool evalIcmp(unsigned pred, uint32_t a, uint32_t b);

struct Step {
  bool isSegment;
  unsigned segment = 0; // index into Program::segments
  CrossLane xl{CrossLane::ReadFirstLane};
};

struct Program {
  uint64_t seed = 0;
  Chip chip = Chip::gfx942;
  unsigned block = 64; // work-items per workgroup, a multiple of 64
  unsigned grid = 1;   // workgroups
  std::vector<Slot> slots;
  std::vector<Step> steps;
  /// The body of each segment (instructions and blocks, no function
  /// header). It addresses slot k through `%s<k>` (a pointer of type
  /// `$P`, replaced by the caller's pointer type) and may read `%lane`
  /// (global work-item id, i32), `%wg` (workgroup id, i32) and `%zero` (an
  /// i32 that is 0 at run time, opaque to the compiler). It falls through
  /// at its end: the caller appends what follows.
  std::vector<std::string> segments;
  /// Declarations the bodies need (intrinsics), shared by both modules.
  std::string declarations;
  /// Declarations only the GPU module needs.
  std::string gpuDeclarations;
  /// The element type of each LDS exchange's array (`@lds<k>`, block
  /// elements).
  std::vector<Ty> ldsTypes;

  /// How many units the program has (see generateProgram).
  unsigned units = 0;

  unsigned lanes() const { return block * grid; }
  /// The kernel `fuzz(ptr addrspace(1) in, ptr addrspace(1) out, i32 zero)`
  /// for the AMDGPU backend: lane i's slots are in[i * slots .. ], its
  /// results go to the same place in out; zero is 0.
  std::string gpuModule() const;
  /// The host module: `void seg<k>(ptr %v, i32 %lane, i32 %wg, i32 %zero)`
  /// per segment.
  std::string hostModule() const;
};

/// Makes the program of `seed` for `chip`. `size` scales the number of
/// operations (1: the default). `disabled`, when given, leaves out the
/// program's units (top-level statements, branches and loops of a segment,
/// and cross-lane steps, numbered in generation order) that it marks,
/// without changing the rest: the reducer (kcc-emu-fuzz --reduce) shrinks a
/// mismatching program this way.
Program generateProgram(uint64_t seed, Chip chip, double size = 1.0,
                        const std::vector<bool> *disabled = nullptr);

/// Random inputs for every lane and slot of `p`, lane-major, 8 bytes per
/// slot (the value in the low bytes, the rest zero).
std::vector<uint64_t> generateInputs(const Program &p, uint64_t seed);

} // namespace kcc::fuzz

#endif // KCC_TOOLS_EMU_FUZZ_PROGRAM_H
