//===- Wave.h - Architectural state of emulated waves ----------*- C++ -*-===//
//
// The state the executor works on: one predecoded instruction (`Inst`), a
// wave64's registers (`Wave`), a workgroup's LDS and barrier (`Workgroup`),
// and the launch it belongs to (`Dispatch`). Handlers of every instruction
// family see only these types, so they live in one header.
//
// Register files: scalar registers use the hardware operand numbering (s0-101,
// FLAT_SCRATCH 102-103, XNACK_MASK 104-105, VCC 106-107, TTMP 108-123, M0 124,
// EXEC 126-127), so VCC/EXEC/M0 are ordinary slots. Vector registers are one
// array of 512 rows of 64 lanes: VGPRs in rows 0-255 and AGPRs in rows
// 256-511. On gfx90a+ the AGPRs physically follow the VGPRs at accum_offset in
// a unified file, but no instruction can name an AGPR through a VGPR number,
// so a fixed split is observably the same.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_WAVE_H
#define KCC_RUNTIME_EMU_WAVE_H

#include "target/Target.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace kcc {
struct KernelInfo;
}

namespace kcc::emu {

constexpr int kLanes = 64;
constexpr unsigned kSgprVcc = 106, kSgprM0 = 124, kSgprNull = 125,
                   kSgprExec = 126, kSgprFlatScratch = 102;
/// Slot that absorbs writes to the null register.
constexpr unsigned kSgprDiscard = 128;
constexpr unsigned kNumSgprSlots = 132;
constexpr unsigned kAgprBase = 256, kNumVectorRows = 512;

/// Apertures of the flat address space (what src_shared_base /
/// src_private_base return); device memory lives far below them.
constexpr uint64_t kSharedAperture = 0x1000000000000ull;
constexpr uint64_t kPrivateAperture = 0x2000000000000ull;
constexpr uint64_t kApertureSize = 1ull << 32;

enum class OpndKind : uint8_t {
  None,
  Sgpr,  // index in the scalar slot numbering
  Vgpr,  // row in the vector file (AGPRs are rows 256+)
  Imm,   // inline constant or literal, already expanded by the disassembler
  Scc,   // src_scc
  Vccz,  // src_vccz
  Execz, // src_execz
  SharedBase,
  SharedLimit,
  PrivateBase,
  PrivateLimit,
};

/// Source modifier bits as the disassembler puts them in srcN_modifiers.
enum : uint8_t {
  kModNeg = 1,
  kModAbs = 2,      // NEG_HI for VOP3P
  kModOpSel0 = 4,   // op_sel (low half selection)
  kModOpSel1 = 8,   // op_sel_hi, or destination op_sel on src0 for VOP3
  kModSext = 16,    // SEXT of an integer SDWA source (LLVM's SISrcMods::SEXT,
                    // bit 4; not NEG's bit 0)
};

struct Opnd {
  OpndKind kind = OpndKind::None;
  uint8_t width = 0; // dwords
  uint8_t mods = 0;
  uint16_t reg = 0;
  uint64_t imm = 0;
  bool isVector() const { return kind == OpndKind::Vgpr; }
};

/// Encoding-form flags recovered from the MC opcode name.
enum FormFlags : uint32_t {
  kFormE32 = 1u << 0,
  kFormE64 = 1u << 1,
  kFormSdwa = 1u << 2,
  kFormDpp = 1u << 3,
  kFormOffen = 1u << 4,
  kFormIdxen = 1u << 5,
  kFormBothen = 1u << 6,
  kFormOffsetOnly = 1u << 7,
  kFormAddr64 = 1u << 8,
  kFormLds = 1u << 9,
  kFormSaddr = 1u << 10,
  kFormSmemImm = 1u << 11,
  kFormSmemSgpr = 1u << 12,
  kFormRtn = 1u << 13,
  kFormAccCd = 1u << 14, // MFMA accumulator in AGPRs
  kFormVgprCd = 1u << 15,
  kFormVe = 1u << 16,    // scratch with a VGPR address
  kFormSvs = 1u << 17,   // scratch with SGPR + VGPR address
  kFormDpp8 = 1u << 18,
  kFormValu = 1u << 19, // a vector ALU instruction (VGPR index mode applies)
  kFormVskip = 1u << 20, // VOP*, MUBUF/MTBUF, DS or FLAT: what VSKIP skips
  // Writes device memory (global, flat, buffer, scalar; not LDS DMA, which
  // writes LDS): a plain store, or with kFormDeviceRmw an atomic
  // read-modify-write. Host threads running workgroups side by side
  // serialise an atomic against every other write (Scheduler.cpp), so that
  // an atomic stays indivisible as on hardware.
  kFormDeviceWrite = 1u << 21,
  kFormDeviceRmw = 1u << 22,
};

/// What an instruction does to the memory counters and ordering, for the
/// observers (check mode, timing): set by the decoder from the opcode name.
enum MemClassFlags : uint8_t {
  kMemClassVm = 1u << 0,      // counted in vmcnt (VMEM, buffer_wbl2)
  kMemClassLgkm = 1u << 1,    // counted in lgkmcnt, in order (LDS/GDS)
  kMemClassSmem = 1u << 2,    // counted in lgkmcnt, out of order (SMEM)
  kMemClassWaitcnt = 1u << 3, // s_waitcnt
  kMemClassBarrier = 1u << 4, // s_barrier
  kMemClassWbl2 = 1u << 5,    // buffer_wbl2: L2 write-back (release)
  kMemClassInv = 1u << 6,     // buffer_inv / buffer_wbinvl1*: invalidate (acquire)
  kMemClassLdsDma = 1u << 7,  // buffer_load ... lds: global -> LDS, in vmcnt
};

/// Cache-policy bits of gfx940+ memory instructions as MC prints them
/// (AMDGPU CPol: SC0 = GLC, NT = SLC, SC1 = SCC).
enum CachePolicy : uint8_t { kCpolSc0 = 1, kCpolNt = 2, kCpolSc1 = 16 };

struct Wave;
struct Inst;
struct MemRecord;
class Observer;
using Handler = void (*)(Wave &, const Inst &);

/// One predecoded instruction. Handlers read operands by position (`dst`,
/// `src`) and the control immediates by field; what each position means is
/// fixed per family by the MC operand order.
struct Inst {
  Handler exec = nullptr;
  uint64_t pc = 0;         // device address
  uint32_t size = 4;
  uint32_t form = 0;       // FormFlags
  uint16_t op = 0;         // family-specific operation id
  uint8_t ndst = 0, nsrc = 0;
  Opnd dst[2];
  Opnd src[5]; // five: the scaled MFMAs' A, B, C and two scale VGPRs
  // Control immediates, in MC operand order after the register operands.
  uint8_t nctrl = 0;
  int64_t ctrl[8] = {};
  // Decoded fields most families use.
  bool clamp = false;
  uint8_t omod = 0;
  uint32_t opSel = 0, opSelHi = 0, negLo = 0, negHi = 0; // VOP3P bit masks
  // DPP.
  uint16_t dppCtrl = 0;
  uint8_t rowMask = 0xf, bankMask = 0xf;
  bool boundCtrl = false;
  // SDWA.
  uint8_t dstSel = 6, dstUnused = 0, src0Sel = 6, src1Sel = 6;
  // Extra data a family attaches (e.g. the MFMA shape).
  const void *aux = nullptr;
  uint64_t target = 0;     // branch target (device address)
  uint32_t textIndex = 0;  // index of the printed text in the Program
  uint8_t memClass = 0;    // MemClassFlags
  uint8_t cpol = 0;        // CachePolicy bits of memory instructions
};

enum class WaveState : uint8_t { Running, Barrier, Ended, Faulted };

/// Why a wave faulted: check mode reports bad addresses as their own class.
enum class FaultKind : uint8_t { Other, BadAddress };

struct Workgroup;
struct Dispatch;
class Program;
class Memory;

/// A wave64.
struct Wave {
  uint32_t s[kNumSgprSlots];
  uint64_t pc = 0;
  bool scc = false;
  WaveState state = WaveState::Running;
  bool yield = false;      // s_sleep / s_barrier: end the current slice
  bool gprIndexMode = false; // MODE.gpr_idx_en (s_set_gpr_idx_on, GprIndex.cpp)
  /// MODE.CSP, the branch-stack pointer of s_cbranch_*_fork/join (3 bits).
  uint8_t csp = 0;
  /// VSKIP (s_setvskip): vector ALU, vector memory, LDS and flat
  /// instructions are not issued (Scheduler.cpp skips them).
  bool vskip = false;
  uint32_t *v = nullptr;   // kNumVectorRows * kLanes
  Workgroup *wg = nullptr;
  Dispatch *dispatch = nullptr;
  uint32_t waveInGroup = 0;
  uint64_t instructions = 0;
  uint64_t timeCounter = 0;
  int priority = 0;
  std::string error;       // set with state == Faulted
  FaultKind faultKind = FaultKind::Other;
  /// For a BadAddress fault on global memory: the address and what was
  /// done there ("store of 4 bytes"), so the report can name the buffer.
  uint64_t faultAddress = 0;
  std::string faultAccess;
  /// Unique among the waves of one scheduler run (all its launches), for
  /// observers that keep per-wave state.
  uint32_t uid = 0;
  /// Non-null while an observer watches: handlers append every lane access.
  std::vector<MemRecord> *memLog = nullptr;
  std::vector<uint32_t> vstorage;
  std::vector<uint8_t> scratch; // private segment, lane-interleaved by dword

  uint64_t exec() const {
    uint64_t e;
    std::memcpy(&e, &s[kSgprExec], 8);
    return e;
  }
  void setExec(uint64_t e) { std::memcpy(&s[kSgprExec], &e, 8); }
  uint64_t vcc() const {
    uint64_t e;
    std::memcpy(&e, &s[kSgprVcc], 8);
    return e;
  }
  void setVcc(uint64_t e) { std::memcpy(&s[kSgprVcc], &e, 8); }
  uint64_t sgpr64(unsigned i) const {
    return uint64_t(s[i]) | (uint64_t(s[i + 1]) << 32);
  }
  void setSgpr64(unsigned i, uint64_t x) {
    s[i] = uint32_t(x);
    s[i + 1] = uint32_t(x >> 32);
  }
  uint32_t *row(unsigned r) { return v + size_t(r) * kLanes; }

  /// Stops the wave with a message; the scheduler reports it with the pc.
  void fault(std::string message, FaultKind kind = FaultKind::Other) {
    if (state == WaveState::Faulted)
      return;
    state = WaveState::Faulted;
    error = std::move(message);
    faultKind = kind;
    yield = true;
  }
  /// A BadAddress fault: `access` ("store of 4 bytes") at `address`; the
  /// message is `access` followed by `detail`. The first fault of the wave
  /// is the one reported, its address with it.
  void faultBadAddress(uint64_t address, std::string access, const std::string &detail) {
    if (state == WaveState::Faulted)
      return;
    faultAddress = address;
    faultAccess = std::move(access);
    fault(faultAccess + detail, FaultKind::BadAddress);
  }
};

/// One workgroup: LDS and barrier bookkeeping.
struct Workgroup {
  uint32_t id[3] = {0, 0, 0};
  uint64_t index = 0;      // linear workgroup index in its launch
  uint32_t launch = 0;     // index of its launch in the scheduler run
  std::vector<uint8_t> lds;
  std::vector<std::unique_ptr<Wave>> waves;
  uint32_t atBarrier = 0;
  uint32_t ended = 0;
  Dispatch *dispatch = nullptr;
};

/// Everything a handler may need about the launch it runs in.
struct Dispatch {
  Chip chip = Chip::gfx942;
  Memory *memory = nullptr;
  Program *program = nullptr;
  const KernelInfo *kernel = nullptr;
  std::string kernelName;
  uint32_t grid[3] = {1, 1, 1};  // workgroups
  uint32_t block[3] = {1, 1, 1}; // work-items per workgroup
  uint64_t kernargAddress = 0;
  uint64_t packetAddress = 0;
  uint32_t ldsBytes = 0;
  uint32_t privateBytesPerLane = 0;
  uint64_t *progress = nullptr;  // bumped on every memory modification
  uint64_t *clock = nullptr;     // s_memtime
  Observer *observer = nullptr;  // check mode and/or timing, else null
  /// The launch's pointer arguments, for naming the one an out-of-bounds
  /// access ran past.
  struct BufferArg {
    unsigned index;   // among the explicit arguments
    std::string name; // from the metadata, may be empty
    uint64_t address;
  };
  std::vector<BufferArg> bufferArgs;
};

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_WAVE_H
