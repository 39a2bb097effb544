//===- Lds.cpp - LDS (DS) instructions and the DS cross-lane permutes -----===//
//
// MC operand order: [vdst,] addr, [data0, [data1,]] then offset (or offset0,
// offset1) and gds. An address is vaddr + offset per lane, added in 32 bits:
// the sum wraps, and LLVM relies on it when it folds a constant into the
// offset field of an access whose base VGPR holds a "negative" value
// (0xfffffff0 with offset:32 is address 16). read2/write2 scale each offset
// by the element size (x64 more for the ST64 forms) before the same 32-bit
// add. gfx9+ does not clamp LDS addresses with M0; an access outside the
// workgroup's LDS allocation is reported as a fault, since it is a kernel
// bug.
//
// Atomics beyond the integer read-modify-writes (CDNA3 ISA, DS opcodes):
// ds_cmpst_f32/f64 replace memory by data1 when it equals data0 as a float;
// ds_wrap_rtn_b32 steps a ring index (subtract data0 once memory reaches it,
// else add data1); ds_pk_add_f16/bf16 add per 16-bit half;
// ds_wrxchg2[st64]_rtn_b32/b64 are two exchanges addressed as in write2.
// ds_read_addtid_b32/ds_write_addtid_b32 address LDS without a VGPR, at
// offset + M0[15:0] + 4 * lane (the CDNA3 pseudocode). gfx950's LDS is
// larger than 64 KiB and its guide does not say whether M0[17:16] count, so
// an M0 with those bits set is refused rather than guessed.
// ds_append/ds_consume: see dsAppend.
// ds_read_b64_tr_b4 and ds_read_b96_tr_b6: see dsReadTrWide;
// ds_condxchg32_rtn_b64: see dsCondxchg.
//
// ds_read_b64_tr_b16 (gfx950): within each 16-lane group, the 16 lanes'
// 8-byte reads form a 4 x 16 tile of 16-bit elements (row r = lanes
// 4r..4r+3); lane c receives column c.
// ds_read_b64_tr_b8 (gfx950) is the same with bytes: the 16 lanes' reads
// form an 8 x 16 tile of bytes (row r = lanes 2r, 2r+1), and lane c
// receives column c, byte r from row r. That is the tile distribution
// AMD's Composable Kernel gives the instruction for 1-byte types (an 8 x 16
// tile read as rows x (2 lanes x 8 bytes), 16 x 8 after the transpose), or
// "two interleaved 8 x 8 byte transposes": even lanes' bytes go to lanes
// 0..7, odd lanes' to lanes 8..15.
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/Exec.h"
#include "runtime/emu/Ops.h"

#include "llvm/ADT/bit.h"

namespace kcc::emu {
namespace {

bool ldsRange(Wave &w, uint64_t addr, unsigned bytes, int lane, const char *what) {
  if (addr + bytes <= w.wg->lds.size())
    return true;
  w.fault(std::string("LDS ") + what + " of " + std::to_string(bytes) +
          " bytes at " + hex(addr) + " (lane " + std::to_string(lane) +
          ") is outside the workgroup's " + std::to_string(w.wg->lds.size()) +
          " bytes of LDS",
          FaultKind::BadAddress);
  return false;
}

/// The LDS address of a lane: VGPR plus the (already scaled) offset, modulo
/// 2^32 as the hardware's address adder computes it.
inline uint64_t ldsAddress(uint32_t vaddr, int64_t offset) {
  return uint32_t(vaddr + uint32_t(offset));
}

enum LoadKind : uint16_t { LdU8, LdI8, LdU16, LdI16, LdB32, LdB64, LdB96, LdB128,
                           LdU8D16, LdU8D16Hi, LdI8D16, LdI8D16Hi, LdU16D16,
                           LdU16D16Hi };

void dsRead(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  int64_t offset = in.nctrl ? in.ctrl[0] : 0;
  const uint32_t *addr = w.row(in.src[0].reg);
  unsigned dwords = in.op == LdB64 ? 2 : in.op == LdB96 ? 3 : in.op == LdB128 ? 4 : 1;
  unsigned bytes = in.op <= LdI8 || (in.op >= LdU8D16 && in.op <= LdI8D16Hi) ? 1
                   : in.op <= LdI16 || in.op >= LdU16D16 ? 2 : 4 * dwords;
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    uint64_t a = ldsAddress(addr[l], offset);
    if (!ldsRange(w, a, bytes, l, "read"))
      return;
    logMem(w, MemSpace::Lds, kMemRead, l, a, bytes);
    const uint8_t *p = w.wg->lds.data() + a;
    uint32_t *d0 = w.row(in.dst[0].reg);
    switch (LoadKind(in.op)) {
    case LdU8: d0[l] = p[0]; break;
    case LdI8: d0[l] = uint32_t(int32_t(int8_t(p[0]))); break;
    case LdU16: d0[l] = uint32_t(p[0] | p[1] << 8); break;
    case LdI16: d0[l] = uint32_t(int32_t(int16_t(p[0] | p[1] << 8))); break;
    case LdU8D16: d0[l] = (d0[l] & 0xffff0000u) | p[0]; break;
    case LdU8D16Hi: d0[l] = (d0[l] & 0xffffu) | (uint32_t(p[0]) << 16); break;
    case LdI8D16: d0[l] = (d0[l] & 0xffff0000u) | (uint16_t(int8_t(p[0]))); break;
    case LdI8D16Hi: d0[l] = (d0[l] & 0xffffu) | (uint32_t(uint16_t(int8_t(p[0]))) << 16); break;
    case LdU16D16: d0[l] = (d0[l] & 0xffff0000u) | uint32_t(p[0] | p[1] << 8); break;
    case LdU16D16Hi: d0[l] = (d0[l] & 0xffffu) | (uint32_t(p[0] | p[1] << 8) << 16); break;
    default:
      for (unsigned i = 0; i < dwords; ++i)
        std::memcpy(w.row(in.dst[0].reg + i) + l, p + 4 * i, 4);
    }
  }
}

enum StoreKind : uint16_t { StB8, StB16, StB32, StB64, StB96, StB128, StB8Hi, StB16Hi };

void dsWrite(Wave &w, const Inst &in) {
  // LDS writes count as progress for the scheduler's hang detection.
  ++*w.dispatch->progress;
  uint64_t exec = w.exec();
  int64_t offset = in.nctrl ? in.ctrl[0] : 0;
  const uint32_t *addr = w.row(in.src[0].reg);
  unsigned dwords = in.op == StB64 ? 2 : in.op == StB96 ? 3 : in.op == StB128 ? 4 : 1;
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    uint64_t a = ldsAddress(addr[l], offset);
    uint32_t x = w.row(in.src[1].reg)[l];
    switch (StoreKind(in.op)) {
    case StB8: case StB8Hi:
      if (!ldsRange(w, a, 1, l, "write")) return;
      logMem(w, MemSpace::Lds, kMemWrite, l, a, 1);
      w.wg->lds[a] = uint8_t(in.op == StB8Hi ? x >> 16 : x);
      break;
    case StB16: case StB16Hi: {
      if (!ldsRange(w, a, 2, l, "write")) return;
      logMem(w, MemSpace::Lds, kMemWrite, l, a, 2);
      uint16_t h = uint16_t(in.op == StB16Hi ? x >> 16 : x);
      std::memcpy(&w.wg->lds[a], &h, 2);
      break;
    }
    default:
      if (!ldsRange(w, a, 4 * dwords, l, "write")) return;
      logMem(w, MemSpace::Lds, kMemWrite, l, a, 4 * dwords);
      for (unsigned i = 0; i < dwords; ++i)
        std::memcpy(&w.wg->lds[a + 4 * i], w.row(in.src[1].reg + i) + l, 4);
    }
  }
}

/// ds_read2/ds_write2 (_b32/_b64, _st64): two elements at offset0 and
/// offset1 scaled by the element size (times 64 for ST64).
void dsRead2(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  unsigned dw = in.op & 0xf, scale = dw * 4 * ((in.op >> 4) ? 64 : 1);
  int64_t off0 = in.nctrl > 0 ? in.ctrl[0] : 0, off1 = in.nctrl > 1 ? in.ctrl[1] : 0;
  const uint32_t *addr = w.row(in.src[0].reg);
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    uint64_t a0 = ldsAddress(addr[l], off0 * scale),
             a1 = ldsAddress(addr[l], off1 * scale);
    if (!ldsRange(w, a0, 4 * dw, l, "read") || !ldsRange(w, a1, 4 * dw, l, "read"))
      return;
    logMem(w, MemSpace::Lds, kMemRead, l, a0, 4 * dw);
    logMem(w, MemSpace::Lds, kMemRead, l, a1, 4 * dw);
    for (unsigned i = 0; i < dw; ++i) {
      std::memcpy(w.row(in.dst[0].reg + i) + l, &w.wg->lds[a0 + 4 * i], 4);
      std::memcpy(w.row(in.dst[0].reg + dw + i) + l, &w.wg->lds[a1 + 4 * i], 4);
    }
  }
}

void dsWrite2(Wave &w, const Inst &in) {
  // LDS writes count as progress for the scheduler's hang detection.
  ++*w.dispatch->progress;
  uint64_t exec = w.exec();
  unsigned dw = in.op & 0xf, scale = dw * 4 * ((in.op >> 4) ? 64 : 1);
  int64_t off0 = in.nctrl > 0 ? in.ctrl[0] : 0, off1 = in.nctrl > 1 ? in.ctrl[1] : 0;
  const uint32_t *addr = w.row(in.src[0].reg);
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    uint64_t a0 = ldsAddress(addr[l], off0 * scale),
             a1 = ldsAddress(addr[l], off1 * scale);
    if (!ldsRange(w, a0, 4 * dw, l, "write") || !ldsRange(w, a1, 4 * dw, l, "write"))
      return;
    logMem(w, MemSpace::Lds, kMemWrite, l, a0, 4 * dw);
    logMem(w, MemSpace::Lds, kMemWrite, l, a1, 4 * dw);
    for (unsigned i = 0; i < dw; ++i) {
      std::memcpy(&w.wg->lds[a0 + 4 * i], w.row(in.src[1].reg + i) + l, 4);
      std::memcpy(&w.wg->lds[a1 + 4 * i], w.row(in.src[2].reg + i) + l, 4);
    }
  }
}

enum AtomicOp : uint8_t { AAdd, ASub, ARsub, AInc, ADec, AMinI, AMaxI, AMinU,
                          AMaxU, AAnd, AOr, AXor, AMskor, AXchg, ACmpst,
                          AAddF32, AMinF32, AMaxF32, ACmpswap, ACmpstF, AWrap,
                          APkAddF16 = 100, APkAddBf16 = 101 };

} // namespace

/// Shared with global atomics: new value of a 32- or 64-bit atomic.
uint64_t atomicApply(unsigned op, uint64_t old, uint64_t src, uint64_t cmp,
                     bool wide) {
  uint64_t mask = wide ? ~0ull : 0xffffffffull;
  auto sx = [&](uint64_t x) { return wide ? int64_t(x) : int64_t(int32_t(uint32_t(x))); };
  switch (AtomicOp(op)) {
  case AAdd: return (old + src) & mask;
  case ASub: return (old - src) & mask;
  case ARsub: return (src - old) & mask;
  case AInc: return old >= src ? 0 : (old + 1) & mask;
  case ADec: return (old == 0 || old > src) ? src : (old - 1) & mask;
  case AMinI: return sx(old) < sx(src) ? old : src;
  case AMaxI: return sx(old) > sx(src) ? old : src;
  case AMinU: return std::min(old, src);
  case AMaxU: return std::max(old, src);
  case AAnd: return old & src;
  case AOr: return old | src;
  case AXor: return old ^ src;
  case AMskor: return (old & ~cmp) | src;
  case AXchg: return src;
  case ACmpst: return old == cmp ? src : old; // ds_cmpst: data0 = compare
  case ACmpswap: return old == cmp ? src : old;
  // ds_cmpst_f32/f64 compare as floats: -0 equals +0 and a NaN equals
  // nothing, so a NaN in memory is never replaced.
  case ACmpstF:
    return (wide ? asD(old) == asD(cmp) : asF(uint32_t(old)) == asF(uint32_t(cmp)))
               ? src : old;
  // ds_wrap_rtn_b32 (data0 = DATA as cmp, data1 = DATA2 as src): a ring
  // index that steps back by DATA once it reaches it, else forward by DATA2.
  case AWrap:
    return uint32_t(old) >= uint32_t(cmp) ? uint32_t(old - cmp) : uint32_t(old + src);
  // Packed 16-bit float adds, per half, rounded to nearest even. Adding in
  // f32 and rounding once more is exact enough: f32 has 24 bits >= 2 * 11 + 2
  // (f16) and 2 * 8 + 2 (bf16), so the double rounding cannot differ.
  case APkAddF16: case APkAddBf16: {
    uint32_t res = 0;
    for (int h = 0; h < 2; ++h) {
      uint16_t a = uint16_t(old >> (16 * h)), b = uint16_t(src >> (16 * h));
      uint16_t y = op == APkAddF16 ? floatToF16(f16ToFloat(a) + f16ToFloat(b))
                                   : floatToBf16(bf16ToFloat(a) + bf16ToFloat(b));
      res |= uint32_t(y) << (16 * h);
    }
    return res;
  }
  case AAddF32:
    return wide ? asU64(asD(old) + asD(src)) : asU(asF(uint32_t(old)) + asF(uint32_t(src)));
  case AMinF32:
    return wide ? asU64(std::fmin(asD(old), asD(src)))
                : asU(std::fmin(asF(uint32_t(old)), asF(uint32_t(src))));
  case AMaxF32:
    return wide ? asU64(std::fmax(asD(old), asD(src)))
                : asU(std::fmax(asF(uint32_t(old)), asF(uint32_t(src))));
  }
  return old;
}

namespace {

/// op = AtomicOp | wide << 8 | rtn << 9.
void dsAtomic(Wave &w, const Inst &in) {
  // LDS writes count as progress for the scheduler's hang detection.
  ++*w.dispatch->progress;
  uint64_t exec = w.exec();
  unsigned op = in.op & 0xff;
  bool wide = (in.op >> 8) & 1, rtn = (in.op >> 9) & 1;
  int64_t offset = in.nctrl ? in.ctrl[0] : 0;
  unsigned bytes = wide ? 8 : 4;
  const uint32_t *addr = w.row(in.src[0].reg);
  bool twoData = op == AMskor || op == ACmpst || op == ACmpstF || op == AWrap;
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    uint64_t a = ldsAddress(addr[l], offset);
    if (!ldsRange(w, a, bytes, l, "atomic"))
      return;
    logMem(w, MemSpace::Lds, kMemAtomic, l, a, bytes);
    auto read = [&](unsigned idx) {
      uint64_t x = w.row(in.src[idx].reg)[l];
      if (wide)
        x |= uint64_t(w.row(in.src[idx].reg + 1)[l]) << 32;
      return x;
    };
    uint64_t d0 = read(1), d1 = twoData ? read(2) : 0;
    uint64_t old = 0;
    std::memcpy(&old, &w.wg->lds[a], bytes);
    // ds_cmpst_b32 addr, cmp(data0), new(data1); ds_mskor: mask(data0), or(data1);
    // ds_wrap_rtn_b32: limit(data0), step(data1).
    uint64_t nv = twoData ? atomicApply(op, old, d1, d0, wide)
                          : atomicApply(op, old, d0, 0, wide);
    std::memcpy(&w.wg->lds[a], &nv, bytes);
    if (rtn) {
      w.row(in.dst[0].reg)[l] = uint32_t(old);
      if (wide)
        w.row(in.dst[0].reg + 1)[l] = uint32_t(old >> 32);
    }
  }
}

/// ds_wrxchg2_rtn_b32/b64 and the ST64 forms: two exchanges at offset0 and
/// offset1 (scaled as in ds_write2), data0 stored at the first and data1 at
/// the second; vdst receives the two old values, the first element's in its
/// low registers. op = element dwords | st64 << 4, as for read2/write2.
void dsWrxchg2(Wave &w, const Inst &in) {
  // LDS writes count as progress for the scheduler's hang detection.
  ++*w.dispatch->progress;
  uint64_t exec = w.exec();
  unsigned dw = in.op & 0xf, scale = dw * 4 * ((in.op >> 4) ? 64 : 1);
  int64_t off0 = in.nctrl > 0 ? in.ctrl[0] : 0, off1 = in.nctrl > 1 ? in.ctrl[1] : 0;
  const uint32_t *addr = w.row(in.src[0].reg);
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    uint64_t a[2] = {ldsAddress(addr[l], off0 * scale), ldsAddress(addr[l], off1 * scale)};
    if (!ldsRange(w, a[0], 4 * dw, l, "exchange") || !ldsRange(w, a[1], 4 * dw, l, "exchange"))
      return;
    // In order: with equal addresses the second exchange returns data0.
    for (unsigned e = 0; e < 2; ++e) {
      logMem(w, MemSpace::Lds, kMemAtomic, l, a[e], 4 * dw);
      for (unsigned i = 0; i < dw; ++i) {
        std::memcpy(w.row(in.dst[0].reg + e * dw + i) + l, &w.wg->lds[a[e] + 4 * i], 4);
        std::memcpy(&w.wg->lds[a[e] + 4 * i], w.row(in.src[1 + e].reg + i) + l, 4);
      }
    }
  }
}

/// ds_bpermute_b32 (pull from lane addr/4) and ds_permute_b32 (push to lane
/// addr/4); lanes are taken modulo 64. Inactive source lanes read as 0.
void dsPermute(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  int64_t offset = in.nctrl ? in.ctrl[0] : 0;
  const uint32_t *addr = w.row(in.src[0].reg), *data = w.row(in.src[1].reg);
  uint32_t out[kLanes];
  uint32_t *dst = w.row(in.dst[0].reg);
  if (in.op == 0) { // bpermute
    for (int l = 0; l < kLanes; ++l) {
      unsigned s = unsigned(ldsAddress(addr[l], offset) >> 2) & 63;
      out[l] = ((exec >> s) & 1) ? data[s] : 0;
    }
  } else {
    for (int l = 0; l < kLanes; ++l)
      out[l] = 0;
    for (int l = 0; l < kLanes; ++l)
      if ((exec >> l) & 1)
        out[unsigned(ldsAddress(addr[l], offset) >> 2) & 63] = data[l];
  }
  writeMasked(dst, out, exec);
}

/// ds_swizzle_b32: offset[15] = 1 selects the quad-permute mode
/// (offset[7:0] = four 2-bit lane selects within each quad); otherwise the
/// bitmask mode over 32-lane halves: and_mask = offset[4:0],
/// or_mask = offset[9:5], xor_mask = offset[14:10].
void dsSwizzle(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  unsigned off = in.nctrl ? unsigned(in.ctrl[0]) : 0;
  const uint32_t *data = w.row(in.src[0].reg);
  uint32_t out[kLanes];
  for (int l = 0; l < kLanes; ++l) {
    int s;
    if (off & 0x8000) {
      s = (l & ~3) | ((off >> (2 * (l & 3))) & 3);
    } else {
      unsigned andM = off & 31, orM = (off >> 5) & 31, xorM = (off >> 10) & 31;
      s = (l & 32) | ((((l & 31) & andM) | orM) ^ xorM);
    }
    out[l] = ((exec >> s) & 1) ? data[s] : 0;
  }
  writeMasked(w.row(in.dst[0].reg), out, exec);
}

void dsReadTr16(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  int64_t offset = in.nctrl ? in.ctrl[0] : 0;
  const uint32_t *addr = w.row(in.src[0].reg);
  uint16_t elems[kLanes][4];
  for (int l = 0; l < kLanes; ++l) {
    std::memset(elems[l], 0, 8);
    if (!((exec >> l) & 1))
      continue;
    uint64_t a = ldsAddress(addr[l], offset);
    if (!ldsRange(w, a, 8, l, "read"))
      return;
    logMem(w, MemSpace::Lds, kMemRead, l, a, 8);
    std::memcpy(elems[l], &w.wg->lds[a], 8);
  }
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    int group = l & ~15, c = l & 15;
    uint16_t col[4];
    for (int r = 0; r < 4; ++r)
      col[r] = elems[group + 4 * r + c / 4][c % 4];
    w.row(in.dst[0].reg)[l] = uint32_t(col[0]) | (uint32_t(col[1]) << 16);
    w.row(in.dst[0].reg + 1)[l] = uint32_t(col[2]) | (uint32_t(col[3]) << 16);
  }
}

/// ds_read_b64_tr_b8: lane c of each 16-lane group gets byte c % 8 of the
/// 8 bytes that lane 2r + c / 8 of its group read, as its byte r.
void dsReadTr8(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  int64_t offset = in.nctrl ? in.ctrl[0] : 0;
  const uint32_t *addr = w.row(in.src[0].reg);
  uint8_t bytes[kLanes][8];
  for (int l = 0; l < kLanes; ++l) {
    std::memset(bytes[l], 0, 8);
    if (!((exec >> l) & 1))
      continue;
    uint64_t a = ldsAddress(addr[l], offset);
    if (!ldsRange(w, a, 8, l, "read"))
      return;
    logMem(w, MemSpace::Lds, kMemRead, l, a, 8);
    std::memcpy(bytes[l], &w.wg->lds[a], 8);
  }
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    int group = l & ~15, c = l & 15;
    uint32_t lo = 0, hi = 0;
    for (int r = 0; r < 8; ++r) {
      uint32_t b = bytes[group + 2 * r + c / 8][c % 8];
      (r < 4 ? lo : hi) |= b << (8 * (r % 4));
    }
    w.row(in.dst[0].reg)[l] = lo;
    w.row(in.dst[0].reg + 1)[l] = hi;
  }
}

/// ds_read_b64_tr_b4 (op 4) and ds_read_b96_tr_b6 (op 6): each lane's read
/// holds 16 elements of 4 or 6 bits (element i at bits [b*i + b - 1, b*i] of
/// the 64 or 96 bits), so the 16 lanes of a group read a 16 x 16 tile, one
/// row per lane, and lane c receives column c: element c of lane r as its
/// element r. That is the rule of the b8 and b16 forms (lane c takes element
/// c % n of lane (16 / n) * r + c / n, n elements per lane) with n = 16, and
/// the transpose AMD's rocRoller checks these two against on hardware
/// ("each block of 16 lanes is transposed as a 16x16 submatrix").
void dsReadTrWide(Wave &w, const Inst &in) {
  unsigned bits = in.op, bytes = 2 * bits; // 16 elements
  uint64_t exec = w.exec();
  int64_t offset = in.nctrl ? in.ctrl[0] : 0;
  const uint32_t *addr = w.row(in.src[0].reg);
  uint8_t data[kLanes][12] = {};
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    uint64_t a = ldsAddress(addr[l], offset);
    if (!ldsRange(w, a, bytes, l, "read"))
      return;
    logMem(w, MemSpace::Lds, kMemRead, l, a, bytes);
    std::memcpy(data[l], &w.wg->lds[a], bytes);
  }
  auto element = [&](int lane, unsigned i) {
    uint32_t v = 0;
    for (unsigned b = 0; b < bits; ++b) {
      unsigned at = bits * i + b;
      v |= uint32_t((data[lane][at / 8] >> (at % 8)) & 1) << b;
    }
    return v;
  };
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    int group = l & ~15, c = l & 15;
    uint32_t out[3] = {0, 0, 0};
    for (unsigned r = 0; r < 16; ++r) {
      uint32_t v = element(group + int(r), unsigned(c));
      for (unsigned b = 0; b < bits; ++b) {
        unsigned at = bits * r + b;
        out[at / 32] |= ((v >> b) & 1) << (at % 32);
      }
    }
    for (unsigned d = 0; d < bytes / 4; ++d)
      w.row(in.dst[0].reg + d)[l] = out[d];
  }
}

/// ds_read_addtid_b32 (op 0) and ds_write_addtid_b32 (op 1).
void dsAddTid(Wave &w, const Inst &in) {
  uint32_t m0 = w.s[kSgprM0];
  if ((m0 >> 16) & 3) {
    w.fault("ds_*_addtid_b32 with M0 = " + hex(m0) +
            ": whether M0[17:16] add to the LDS address is not documented");
    return;
  }
  bool write = in.op == 1;
  if (write)
    ++*w.dispatch->progress;
  uint64_t exec = w.exec();
  int64_t offset = in.nctrl ? in.ctrl[0] : 0;
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    uint64_t a = ldsAddress((m0 & 0xffff) + 4 * uint32_t(l), offset);
    if (!ldsRange(w, a, 4, l, write ? "write" : "read"))
      return;
    logMem(w, MemSpace::Lds, write ? kMemWrite : kMemRead, l, a, 4);
    if (write)
      std::memcpy(&w.wg->lds[a], w.row(in.src[0].reg) + l, 4);
    else
      std::memcpy(w.row(in.dst[0].reg) + l, &w.wg->lds[a], 4);
  }
}

/// DS_APPEND / DS_CONSUME (CDNA3 ISA, DS opcodes 190/189): one wave-wide
/// atomic that adds (append) or subtracts (consume) the number of active
/// lanes to the dword at the LDS address, and returns the value before it
/// to every active lane. The guide gives the address as "instr_offset if
/// LDS" and M0.base + offset for GDS; LLVM's lowering of
/// llvm.amdgcn.ds.append/consume puts the LDS pointer in M0 and folds only
/// constants into the offset, so the base comes from M0 here too, as for
/// ds_*_addtid_b32: M0[15:0], with M0[17:16] refused (not documented).
void dsAppend(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  if (!exec)
    return;
  uint32_t m0 = w.s[kSgprM0];
  if ((m0 >> 16) & 3) {
    w.fault(std::string(in.op ? "ds_consume" : "ds_append") + " with M0 = " + hex(m0) +
            ": whether M0[17:16] add to the LDS address is not documented");
    return;
  }
  int64_t offset = in.nctrl ? in.ctrl[0] : 0;
  uint64_t a = ldsAddress(m0 & 0xffff, offset);
  int lane = llvm::countr_zero(exec);
  if (!ldsRange(w, a, 4, lane, "atomic"))
    return;
  ++*w.dispatch->progress;
  logMem(w, MemSpace::Lds, kMemAtomic, lane, a, 4);
  uint32_t old;
  std::memcpy(&old, &w.wg->lds[a], 4);
  uint32_t count = uint32_t(llvm::popcount(exec));
  uint32_t updated = in.op ? old - count : old + count;
  std::memcpy(&w.wg->lds[a], &updated, 4);
  uint32_t *d = w.row(in.dst[0].reg);
  for (int l = 0; l < kLanes; ++l)
    if ((exec >> l) & 1)
      d[l] = old;
}

/// DS_CONDXCHG32_RTN_B64 (CDNA4 ISA, DS opcode 126): two conditional
/// exchanges at the 8-byte-aligned dword pair (vaddr + offset) & 0xfff8
/// (the guide's mask, a 64 KiB window on both chips). Each returns the old
/// dword and, when bit 31 of its data dword is set, writes that dword's bits
/// 30:0 with bit 31 clear.
void dsCondxchg(Wave &w, const Inst &in) {
  uint64_t exec = w.exec();
  int64_t offset = in.nctrl ? in.ctrl[0] : 0;
  const uint32_t *addr = w.row(in.src[0].reg);
  const uint32_t *d0 = w.row(in.src[1].reg), *d1 = w.row(in.src[1].reg + 1);
  bool wrote = false;
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    uint64_t a = (addr[l] + uint32_t(offset)) & 0xfff8u;
    if (!ldsRange(w, a, 8, l, "atomic"))
      return;
    logMem(w, MemSpace::Lds, kMemAtomic, l, a, 8);
    uint32_t data[2] = {d0[l], d1[l]}, old[2];
    std::memcpy(old, &w.wg->lds[a], 8);
    for (int i = 0; i < 2; ++i)
      if (data[i] >> 31) {
        uint32_t v = data[i] & 0x7fffffffu;
        std::memcpy(&w.wg->lds[a + 4 * i], &v, 4);
        wrote = true;
      }
    w.row(in.dst[0].reg)[l] = old[0];
    w.row(in.dst[0].reg + 1)[l] = old[1];
  }
  if (wrote)
    ++*w.dispatch->progress;
}

void dsNop(Wave &, const Inst &) {}

} // namespace

void registerLdsOps(OpTable &t) {
  struct {
    const char *name;
    LoadKind k;
  } loads[] = {{"DS_READ_U8", LdU8}, {"DS_READ_I8", LdI8}, {"DS_READ_U16", LdU16},
               {"DS_READ_I16", LdI16}, {"DS_READ_B32", LdB32}, {"DS_READ_B64", LdB64},
               {"DS_READ_B96", LdB96}, {"DS_READ_B128", LdB128},
               {"DS_READ_U8_D16", LdU8D16}, {"DS_READ_U8_D16_HI", LdU8D16Hi},
               {"DS_READ_I8_D16", LdI8D16}, {"DS_READ_I8_D16_HI", LdI8D16Hi},
               {"DS_READ_U16_D16", LdU16D16}, {"DS_READ_U16_D16_HI", LdU16D16Hi}};
  for (auto &e : loads)
    t.add(e.name, dsRead, Layout::Plain, e.k);
  struct {
    const char *name;
    StoreKind k;
  } stores[] = {{"DS_WRITE_B8", StB8}, {"DS_WRITE_B16", StB16}, {"DS_WRITE_B32", StB32},
                {"DS_WRITE_B64", StB64}, {"DS_WRITE_B96", StB96},
                {"DS_WRITE_B128", StB128}, {"DS_WRITE_B8_D16_HI", StB8Hi},
                {"DS_WRITE_B16_D16_HI", StB16Hi}};
  for (auto &e : stores)
    t.add(e.name, dsWrite, Layout::Plain, e.k);
  t.add("DS_READ2_B32", dsRead2, Layout::Plain, 1);
  t.add("DS_READ2_B64", dsRead2, Layout::Plain, 2);
  t.add("DS_READ2ST64_B32", dsRead2, Layout::Plain, 0x11);
  t.add("DS_READ2ST64_B64", dsRead2, Layout::Plain, 0x12);
  t.add("DS_WRITE2_B32", dsWrite2, Layout::Plain, 1);
  t.add("DS_WRITE2_B64", dsWrite2, Layout::Plain, 2);
  t.add("DS_WRITE2ST64_B32", dsWrite2, Layout::Plain, 0x11);
  t.add("DS_WRITE2ST64_B64", dsWrite2, Layout::Plain, 0x12);
  // DS atomics: DS_<OP>_<TYPE> and the returning DS_<OP>_RTN_<TYPE>.
  struct {
    const char *op;
    const char *type32;
    const char *type64;
    AtomicOp a;
  } atomics[] = {{"ADD", "U32", "U64", AAdd},     {"SUB", "U32", "U64", ASub},
                 {"RSUB", "U32", "U64", ARsub},   {"INC", "U32", "U64", AInc},
                 {"DEC", "U32", "U64", ADec},     {"MIN", "I32", "I64", AMinI},
                 {"MAX", "I32", "I64", AMaxI},    {"MIN", "U32", "U64", AMinU},
                 {"MAX", "U32", "U64", AMaxU},    {"AND", "B32", "B64", AAnd},
                 {"OR", "B32", "B64", AOr},       {"XOR", "B32", "B64", AXor},
                 {"MSKOR", "B32", "B64", AMskor}, {"CMPST", "B32", "B64", ACmpst},
                 {"ADD", "F32", "F64", AAddF32},  {"MIN", "F32", "F64", AMinF32},
                 {"MAX", "F32", "F64", AMaxF32}};
  for (auto &a : atomics)
    for (int wide = 0; wide < 2; ++wide) {
      std::string type = wide ? a.type64 : a.type32;
      uint16_t op = uint16_t(a.a | wide << 8);
      t.add(std::string("DS_") + a.op + "_" + type, dsAtomic, Layout::Plain, op);
      t.add(std::string("DS_") + a.op + "_RTN_" + type, dsAtomic, Layout::Plain,
            uint16_t(op | 1 << 9));
    }
  for (int wide = 0; wide < 2; ++wide) {
    std::string type = wide ? "F64" : "F32";
    uint16_t op = uint16_t(ACmpstF | wide << 8);
    t.add("DS_CMPST_" + type, dsAtomic, Layout::Plain, op);
    t.add("DS_CMPST_RTN_" + type, dsAtomic, Layout::Plain, uint16_t(op | 1 << 9));
  }
  t.add("DS_WRAP_RTN_B32", dsAtomic, Layout::Plain, uint16_t(AWrap | 1 << 9));
  t.add("DS_PK_ADD_F16", dsAtomic, Layout::Plain, uint16_t(APkAddF16));
  t.add("DS_PK_ADD_RTN_F16", dsAtomic, Layout::Plain, uint16_t(APkAddF16 | 1 << 9));
  t.add("DS_PK_ADD_BF16", dsAtomic, Layout::Plain, uint16_t(APkAddBf16));
  t.add("DS_PK_ADD_RTN_BF16", dsAtomic, Layout::Plain, uint16_t(APkAddBf16 | 1 << 9));
  t.add("DS_WRXCHG2_RTN_B32", dsWrxchg2, Layout::Plain, 1);
  t.add("DS_WRXCHG2_RTN_B64", dsWrxchg2, Layout::Plain, 2);
  t.add("DS_WRXCHG2ST64_RTN_B32", dsWrxchg2, Layout::Plain, 0x11);
  t.add("DS_WRXCHG2ST64_RTN_B64", dsWrxchg2, Layout::Plain, 0x12);
  t.add("DS_WRXCHG_RTN_B32", dsAtomic, Layout::Plain, uint16_t(AXchg | 1 << 9));
  t.add("DS_WRXCHG_RTN_B64", dsAtomic, Layout::Plain, uint16_t(AXchg | 1 << 8 | 1 << 9));
  t.add("DS_BPERMUTE_B32", dsPermute, Layout::Plain, 0);
  t.add("DS_PERMUTE_B32", dsPermute, Layout::Plain, 1);
  t.add("DS_SWIZZLE_B32", dsSwizzle);
  t.add("DS_READ_B64_TR_B16", dsReadTr16);
  t.add("DS_READ_B64_TR_B8", dsReadTr8);
  t.add("DS_READ_B64_TR_B4", dsReadTrWide, Layout::Plain, 4);
  t.add("DS_READ_B96_TR_B6", dsReadTrWide, Layout::Plain, 6);
  t.add("DS_READ_ADDTID_B32", dsAddTid, Layout::Plain, 0);
  t.add("DS_WRITE_ADDTID_B32", dsAddTid, Layout::Plain, 1);
  t.add("DS_NOP", dsNop);
  t.add("DS_CONDXCHG32_RTN_B64", dsCondxchg);
  t.add("DS_APPEND", dsAppend, Layout::Plain, 0);
  t.add("DS_CONSUME", dsAppend, Layout::Plain, 1);
}

} // namespace kcc::emu
