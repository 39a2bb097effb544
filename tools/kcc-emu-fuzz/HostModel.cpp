//===- HostModel.cpp - The host's evaluation of a fuzz program -----------===//
//
// The segments run unoptimised (the JIT's default code generation on IR
// that no middle-end pass has touched), so the reference leans on as little
// of LLVM's optimiser as possible: the GPU side gets the full O3 pipeline,
// and a disagreement points at the emulator, the AMDGPU backend or the
// middle end, not at the same transformation made on both sides.
//
//===----------------------------------------------------------------------===//
#include "HostModel.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/ADT/bit.h"
#include <cstring>
#include <mutex>

using namespace llvm;

namespace kcc::fuzz {

void initializeHostJit() {
  static std::once_flag once;
  std::call_once(once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
  });
}

static uint64_t widthMask(Ty t) {
  unsigned n = bitWidth(t);
  return n == 64 ? ~0ull : (1ull << n) - 1;
}

Expected<std::vector<uint64_t>> evaluateOnHost(const Program &p,
                                               const std::vector<uint64_t> &inputs) {
  initializeHostJit();
  // Baseline x86-64, not the host's own CPU: with AVX-512, LLVM 22 lowers
  // minimumnum(x, y) with x known not to be NaN (a sitofp) so that it
  // returns y's NaN instead of x (README, "Differential fuzzing").
  orc::JITTargetMachineBuilder machine((Triple(sys::getProcessTriple())));
  machine.setCPU("x86-64");
  auto jit = orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(machine)).create();
  if (!jit)
    return jit.takeError();
  auto context = std::make_unique<LLVMContext>();
  SMDiagnostic diag;
  std::unique_ptr<llvm::Module> module = parseAssemblyString(p.hostModule(), diag, *context);
  if (!module) {
    std::string text;
    raw_string_ostream os(text);
    diag.print("host module", os);
    return createStringError(inconvertibleErrorCode(), "%s", text.c_str());
  }
  module->setDataLayout((*jit)->getDataLayout());
  module->setTargetTriple((*jit)->getTargetTriple());
  if (Error e = (*jit)->addIRModule(orc::ThreadSafeModule(std::move(module), std::move(context))))
    return std::move(e);

  using Segment = void (*)(void *, int32_t, int32_t, int32_t);
  std::vector<Segment> segments;
  for (size_t k = 0; k < p.segments.size(); ++k) {
    auto address = (*jit)->lookup("seg" + std::to_string(k));
    if (!address)
      return address.takeError();
    segments.push_back(address->toPtr<Segment>());
  }

  std::vector<uint64_t> state = inputs;
  size_t slots = p.slots.size();
  for (const Step &s : p.steps) {
    if (!s.isSegment) {
      applyCrossLane(p, s.xl, state);
      continue;
    }
    for (unsigned lane = 0; lane < p.lanes(); ++lane)
      segments[s.segment](&state[lane * slots], int32_t(lane), int32_t(lane / p.block), 0);
  }
  return state;
}

/// The DPP source lane of `lane` (0-63) for `ctrl`, or -1 where the ISA
/// names no lane (shifted past the row or wave): CDNA3 ISA, "DPP_CTRL".
static int dppSource(unsigned ctrl, int lane) {
  int row = lane & ~15, inRow = lane & 15;
  if (ctrl <= 0xff)
    return (lane & ~3) | ((ctrl >> (2 * (lane & 3))) & 3);
  if (ctrl >= 0x101 && ctrl <= 0x10f) { // row_shl: read n lanes up
    int n = ctrl & 15;
    return inRow + n < 16 ? lane + n : -1;
  }
  if (ctrl >= 0x111 && ctrl <= 0x11f) { // row_shr: read n lanes down
    int n = ctrl & 15;
    return inRow >= n ? lane - n : -1;
  }
  if (ctrl >= 0x121 && ctrl <= 0x12f) // row_ror: rotate within the row
    return row | ((inRow - int(ctrl & 15)) & 15);
  switch (ctrl) {
  case 0x130: return lane < 63 ? lane + 1 : -1; // wave_shl:1
  case 0x134: return (lane + 1) & 63;           // wave_rol:1
  case 0x138: return lane > 0 ? lane - 1 : -1;  // wave_shr:1
  case 0x13C: return (lane + 63) & 63;          // wave_ror:1
  case 0x140: return row | (15 - inRow);        // row_mirror
  case 0x141: return (lane & ~7) | (7 - (lane & 7)); // row_half_mirror
  case 0x142: return row ? row - 1 : -1;        // row_bcast:15
  case 0x143: return lane >= 32 ? 31 : -1;      // row_bcast:31
  }
  return -1;
}

void applyCrossLane(const Program &p, const CrossLane &x, std::vector<uint64_t> &state) {
  size_t slots = p.slots.size();
  unsigned lanes = p.lanes();
  auto get = [&](unsigned lane, unsigned slot) {
    return state[lane * slots + slot] & widthMask(p.slots[slot].ty);
  };
  std::vector<uint64_t> result(lanes), result2(lanes);
  for (unsigned base = 0; base < lanes; base += 64) {
    // One wave: lanes base .. base + 63 (blocks are multiples of 64).
    for (unsigned i = 0; i < 64; ++i) {
      unsigned lane = base + i;
      uint64_t r = 0, r2 = 0;
      switch (x.kind) {
      case CrossLane::ReadFirstLane:
        r = get(base, x.src);
        break;
      case CrossLane::ReadLane:
        r = get(base + x.imm, x.src);
        break;
      case CrossLane::Ballot:
        for (unsigned j = 0; j < 64; ++j)
          if (evalIcmp(x.imm2, uint32_t(get(base + j, x.src)), uint32_t(get(base + j, x.src2))))
            r |= 1ull << j;
        break;
      case CrossLane::Bpermute:
        // The address's bits 7:2 pick the lane (ds_bpermute_b32).
        r = get(base + ((get(lane, x.src2) >> 2) & 63), x.src);
        break;
      case CrossLane::Lds: {
        unsigned wg = lane / p.block, tid = lane % p.block, idx = 0;
        switch (LdsIndex(x.imm)) {
        case LdsIndex::Add: idx = (tid + x.imm2) % p.block; break;
        case LdsIndex::Xor: idx = (tid ^ x.imm2) % p.block; break;
        case LdsIndex::Reverse: idx = p.block - 1 - tid; break;
        case LdsIndex::Data: idx = uint32_t(get(lane, x.src2)) % p.block; break;
        }
        r = get(wg * p.block + idx, x.src);
        break;
      }
      case CrossLane::WaveReduce: {
        uint32_t acc = 0;
        for (unsigned j = 0; j < 64; ++j) {
          uint32_t v = uint32_t(get(base + j, x.src));
          if (j == 0) {
            acc = v;
            continue;
          }
          switch (Reduce(x.imm)) {
          case Reduce::UMin: acc = std::min(acc, v); break;
          case Reduce::UMax: acc = std::max(acc, v); break;
          case Reduce::SMin: acc = uint32_t(std::min(int32_t(acc), int32_t(v))); break;
          case Reduce::SMax: acc = uint32_t(std::max(int32_t(acc), int32_t(v))); break;
          case Reduce::Add: acc += v; break;
          case Reduce::And: acc &= v; break;
          case Reduce::Or: acc |= v; break;
          case Reduce::Xor: acc ^= v; break;
          }
        }
        r = acc;
        break;
      }
      case CrossLane::Dpp: {
        // update.dpp: v_mov old, then the DPP v_mov. A lane whose row or
        // bank is masked off is not written (keeps old); a lane without a
        // source gets 0 under bound_ctrl, else is not written either.
        uint64_t old = get(lane, x.src2);
        if (!((x.rowMask >> (i / 16)) & 1) || !((x.bankMask >> ((i % 16) / 4)) & 1)) {
          r = old;
          break;
        }
        int s = dppSource(x.imm, int(i));
        r = s < 0 ? (x.boundCtrl ? 0 : old) : get(base + unsigned(s), x.src);
        break;
      }
      case CrossLane::Mbcnt: {
        // mbcnt_lo counts the mask's bits of lanes 0-31 below this lane,
        // mbcnt_hi those of lanes 32-63 below it.
        uint32_t lo = uint32_t(get(lane, x.src)), hi = uint32_t(get(lane, x.src2));
        uint32_t loMask = i >= 32 ? ~0u : (1u << i) - 1;
        uint32_t hiMask = i <= 32 ? 0u : (1u << (i - 32)) - 1;
        r = uint32_t(get(lane, x.dst)) + llvm::popcount(lo & loMask) + llvm::popcount(hi & hiMask);
        break;
      }
      case CrossLane::Swizzle: {
        // ds_swizzle_b32: offset bit 15 selects quad permute (two bits per
        // lane of each quad), else the and/or/xor masks (bits 4:0, 9:5,
        // 14:10) applied to the lane's index within its 32 lanes.
        unsigned src;
        if (x.imm & 0x8000) {
          src = (i & ~3u) | ((x.imm >> (2 * (i & 3))) & 3);
        } else {
          unsigned andMask = x.imm & 31, orMask = (x.imm >> 5) & 31, xorMask = (x.imm >> 10) & 31;
          src = (i & 32) | ((((i & 31) & andMask) | orMask) ^ xorMask);
        }
        r = get(base + src, x.src);
        break;
      }
      case CrossLane::Permlane16Swap: {
        // Odd rows of the first operand trade places with the even rows of
        // the second: (row 1 <-> row 0, row 3 <-> row 2).
        unsigned row = i / 16;
        r = row & 1 ? get(base + i - 16, x.src2) : get(lane, x.src);
        r2 = row & 1 ? get(lane, x.src2) : get(base + i + 16, x.src);
        break;
      }
      case CrossLane::Permlane32Swap:
        // The upper half of the first operand trades places with the lower
        // half of the second.
        r = i >= 32 ? get(base + i - 32, x.src2) : get(lane, x.src);
        r2 = i >= 32 ? get(lane, x.src2) : get(base + i + 32, x.src);
        break;
      }
      result[lane] = r;
      result2[lane] = r2;
    }
  }
  auto put = [&](unsigned slot, const std::vector<uint64_t> &v) {
    uint64_t m = widthMask(p.slots[slot].ty);
    for (unsigned lane = 0; lane < lanes; ++lane) {
      uint64_t &s = state[lane * slots + slot];
      s = (s & ~m) | (v[lane] & m);
    }
  };
  if (x.kind == CrossLane::Permlane16Swap || x.kind == CrossLane::Permlane32Swap)
    put(x.dst2, result2);
  put(x.dst, result);
}

} // namespace kcc::fuzz
