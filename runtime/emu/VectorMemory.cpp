//===- VectorMemory.cpp - Global, flat, scratch and buffer memory ---------===//
//
// Operands are found by role rather than position, because MC orders them
// differently per form: the scalar base (saddr) is the SGPR operand, the V#
// of a buffer instruction is the 4-SGPR operand with soffset after it, the
// address is the first VGPR operand (after vdata for stores and atomics).
//
// Buffer addressing (CDNA3 ISA, "Buffer Instructions"): V# word0-1 base
// (48 bits), word1[29:16] stride, word2 num_records. Raw buffers (stride 0)
// are range checked per dword against num_records on vgpr offset + inst
// offset (the SGPR offset is not part of the check); structured buffers
// check index < num_records. Out-of-range loads return 0, stores and atomics
// are dropped. Swizzled and add-tid buffers are not modelled and fault.
// The typed forms (buffer_*_format_*, tbuffer_*) check each component the
// same way and convert through BufferFormat.cpp.
//
// LDS DMA (buffer_load_* lds, global_load_lds_*, scratch_load_lds_*): the
// data goes to LDS at M0 + inst_offset + lane * stride instead of a VGPR;
// the offset field applies to both addresses, and the stride is 4 bytes for
// a dword and 16 for dwordx3 and dwordx4 (LLVM's AMDGPU DMA notes,
// llvm.amdgcn.load.to.lds). A byte or short load of global_load_lds_* and
// scratch_load_lds_* is zero- or sign-extended to the lane's dword (CDNA4
// ISA, FLAT opcodes).
//
// Flat addresses in the shared aperture go to LDS and in the private
// aperture to scratch; everything else is device memory, where an access
// outside every allocation is a fault (a page fault on hardware).
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/BufferFormat.h"
#include "runtime/emu/Exec.h"
#include "runtime/emu/Ops.h"

namespace kcc::emu {

namespace {

enum Space : uint8_t { Global, Flat, Scratch, Buffer };

/// Access kinds. Loads and stores of 1, 2, 4..16 bytes; d16 loads keep the
/// other half of the destination register.
enum Kind : uint8_t { KU8, KI8, KU16, KI16, KB32, KB64, KB96, KB128,
                      KU8D16, KU8D16Hi, KI8D16, KI8D16Hi, KB16D16, KB16D16Hi,
                      KSt8, KSt16, KSt32, KSt64, KSt96, KSt128, KSt8Hi, KSt16Hi,
                      KAtomic };

unsigned kindBytes(Kind k) {
  switch (k) {
  case KU8: case KI8: case KU8D16: case KU8D16Hi: case KI8D16: case KI8D16Hi:
  case KSt8: case KSt8Hi: return 1;
  case KU16: case KI16: case KB16D16: case KB16D16Hi: case KSt16: case KSt16Hi:
    return 2;
  case KB64: case KSt64: return 8;
  case KB96: case KSt96: return 12;
  case KB128: case KSt128: return 16;
  default: return 4;
  }
}
bool isStore(Kind k) { return k >= KSt8 && k <= KSt16Hi; }

/// op: Kind | Space << 8 | atomic op << 12 (for KAtomic) | wide << 17.
struct Decoded {
  Kind kind;
  Space space;
  unsigned atomicOp;
  bool wide;
  bool ldsDma; // global_load_lds_* / scratch_load_lds_*: to LDS via M0
};
Decoded decodeOp(uint16_t op, uint32_t extra) {
  return {Kind(op & 0xff), Space((op >> 8) & 0xf), extra & 0xff,
          ((extra >> 8) & 1) != 0, ((extra >> 9) & 1) != 0};
}

/// The LDS byte address an LDS DMA writes a lane's data to, or ~0 after
/// faulting: M0 holds the wave's LDS base, the instruction's offset is added
/// as to the memory address, and lanes are 4 bytes apart for loads up to a
/// dword and 16 bytes apart for dwordx3 and dwordx4.
uint64_t ldsDmaAddress(Wave &w, int64_t instOffset, int lane, unsigned bytes,
                       const char *what) {
  uint32_t m0 = w.s[kSgprM0];
  uint64_t stride = bytes <= 4 ? 4 : 16;
  uint64_t a = (m0 & 0x3ffff) + uint64_t(instOffset) + uint64_t(lane) * stride;
  unsigned n = bytes < 4 ? 4 : bytes;
  if (a + n > w.wg->lds.size()) {
    w.fault(std::string(what) + " ... lds writes LDS at " + hex(a) + " (lane " +
                std::to_string(lane) + ") beyond the workgroup's " +
                std::to_string(w.wg->lds.size()) + " bytes (M0 = " + hex(m0) + ")",
            FaultKind::BadAddress);
    return ~0ull;
  }
  return a;
}

struct Roles {
  const Opnd *vaddr = nullptr, *vdata = nullptr, *saddr = nullptr,
             *srsrc = nullptr, *soffset = nullptr;
};

Roles findRoles(const Inst &in, bool hasData) {
  Roles r;
  int vgprSeen = 0;
  for (unsigned i = 0; i < in.nsrc; ++i) {
    const Opnd &o = in.src[i];
    if (o.kind == OpndKind::Sgpr && o.width == 4 && !r.srsrc) {
      r.srsrc = &o;
      if (i + 1 < in.nsrc)
        r.soffset = &in.src[i + 1];
      break;
    }
    if (o.kind == OpndKind::Sgpr && !r.saddr && !(in.form & kFormLds && r.srsrc)) {
      r.saddr = &o;
      continue;
    }
    if (o.kind == OpndKind::Vgpr) {
      // Stores/atomics: (vaddr, vdata) for global/flat/scratch, (vdata,
      // vaddr) for buffer; fixed up by the caller.
      if (vgprSeen == 0)
        r.vaddr = &o;
      else if (vgprSeen == 1)
        r.vdata = &o;
      ++vgprSeen;
    }
  }
  (void)hasData;
  return r;
}

/// Host pointer for a lane's access, or nullptr after faulting. Buffer
/// range failures return `outOfRange` instead.
uint8_t *resolve(Wave &w, uint64_t addr, unsigned bytes, int lane,
                 bool flat, const char *what, uint8_t kind) {
  if (flat) {
    if (addr - kSharedAperture < kApertureSize) {
      uint64_t off = addr - kSharedAperture;
      if (off + bytes <= w.wg->lds.size()) {
        logMem(w, MemSpace::Lds, kind, lane, off, bytes);
        return w.wg->lds.data() + off;
      }
      w.fault(std::string("flat ") + what + " to LDS offset " + hex(off) +
              " (lane " + std::to_string(lane) + ") is outside the workgroup's " +
              std::to_string(w.wg->lds.size()) + " bytes of LDS",
              FaultKind::BadAddress);
      return nullptr;
    }
    if (addr - kPrivateAperture < kApertureSize) {
      uint64_t off = addr - kPrivateAperture;
      uint64_t per = w.dispatch->privateBytesPerLane;
      if (off + bytes <= per) {
        logMem(w, MemSpace::Scratch, kind, lane, off, bytes);
        return w.scratch.data() + lane * per + off;
      }
      w.fault(std::string("flat ") + what + " to private offset " + hex(off) +
              " is outside the " + std::to_string(per) + "-byte private segment",
              FaultKind::BadAddress);
      return nullptr;
    }
  }
  uint8_t *p = w.dispatch->memory->translate(addr, bytes);
  if (!p) {
    w.faultBadAddress(addr, std::string(what) + " of " + std::to_string(bytes) + " bytes",
                      " at unmapped address " + hex(addr) + " (lane " +
                          std::to_string(lane) + ")");
  } else {
    logMem(w, MemSpace::Global, kind, lane, addr, bytes);
  }
  return p;
}

void loadLane(Wave &w, const Opnd &dst, Kind k, int l, const uint8_t *p) {
  uint32_t *d = w.row(dst.reg);
  switch (k) {
  case KU8: d[l] = p[0]; break;
  case KI8: d[l] = uint32_t(int32_t(int8_t(p[0]))); break;
  case KU16: d[l] = uint32_t(p[0] | p[1] << 8); break;
  case KI16: d[l] = uint32_t(int32_t(int16_t(p[0] | p[1] << 8))); break;
  case KU8D16: d[l] = (d[l] & 0xffff0000u) | p[0]; break;
  case KU8D16Hi: d[l] = (d[l] & 0xffffu) | (uint32_t(p[0]) << 16); break;
  case KI8D16: d[l] = (d[l] & 0xffff0000u) | uint16_t(int8_t(p[0])); break;
  case KI8D16Hi: d[l] = (d[l] & 0xffffu) | (uint32_t(uint16_t(int8_t(p[0]))) << 16); break;
  case KB16D16: d[l] = (d[l] & 0xffff0000u) | uint32_t(p[0] | p[1] << 8); break;
  case KB16D16Hi: d[l] = (d[l] & 0xffffu) | (uint32_t(p[0] | p[1] << 8) << 16); break;
  default: {
    unsigned n = kindBytes(k) / 4;
    for (unsigned i = 0; i < n; ++i)
      std::memcpy(w.row(dst.reg + i) + l, p + 4 * i, 4);
  }
  }
}

void storeLane(Wave &w, const Opnd &data, Kind k, int l, uint8_t *p) {
  uint32_t x = w.row(data.reg)[l];
  switch (k) {
  case KSt8: p[0] = uint8_t(x); break;
  case KSt8Hi: p[0] = uint8_t(x >> 16); break;
  case KSt16: { uint16_t h = uint16_t(x); std::memcpy(p, &h, 2); break; }
  case KSt16Hi: { uint16_t h = uint16_t(x >> 16); std::memcpy(p, &h, 2); break; }
  default: {
    unsigned n = kindBytes(k) / 4;
    for (unsigned i = 0; i < n; ++i)
      std::memcpy(p + 4 * i, w.row(data.reg + i) + l, 4);
  }
  }
}

/// Global, flat and scratch (non-buffer) memory instructions.
void flatAccess(Wave &w, const Inst &in) {
  Decoded d = decodeOp(in.op, uint32_t(reinterpret_cast<uintptr_t>(in.aux)));
  uint64_t exec = w.exec();
  Roles r = findRoles(in, true);
  // Loads: the address is the only VGPR source; global/flat stores:
  // (vaddr, vdata), scratch stores (vdata, vaddr);
  // scratch SADDR/ST forms may have no address VGPR, then the only VGPR is
  // the data.
  const Opnd *vaddr = r.vaddr, *vdata = r.vdata;
  bool store = isStore(d.kind), atomic = d.kind == KAtomic;
  if ((store || atomic) && !vdata) {
    vdata = vaddr;
    vaddr = nullptr;
  } else if (store && d.space == Scratch) {
    // MC lists a scratch store's data before its address VGPR (LLVM's
    // FLAT_Scratch_Store_Pseudo), unlike global and flat stores.
    std::swap(vaddr, vdata);
  }
  int64_t offset = in.nctrl >= 2 ? in.ctrl[in.nctrl - 2] : 0;
  if (in.nctrl == 1)
    offset = 0;
  unsigned bytes = atomic ? (d.wide ? 8 : 4) : kindBytes(d.kind);
  bool flat = d.space == Flat;
  bool wrote = false;
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    uint8_t *p;
    if (d.space == Scratch) {
      uint64_t off = uint64_t(offset);
      if (vaddr)
        off += w.row(vaddr->reg)[l];
      if (r.saddr)
        off += readScalar32(w, *r.saddr);
      off &= 0xffffffffull;
      uint64_t per = w.dispatch->privateBytesPerLane;
      if (off + bytes > per) {
        w.fault("scratch access at offset " + hex(off) + " (lane " +
                std::to_string(l) + ") is outside the " + std::to_string(per) +
                "-byte private segment",
                FaultKind::BadAddress);
        return;
      }
      logMem(w, MemSpace::Scratch, store ? kMemWrite : atomic ? kMemAtomic : kMemRead,
             l, off, bytes);
      p = w.scratch.data() + l * per + off;
    } else {
      uint64_t addr;
      if (r.saddr)
        addr = readScalar64(w, *r.saddr) + (vaddr ? w.row(vaddr->reg)[l] : 0);
      else
        addr = uint64_t(w.row(vaddr->reg)[l]) |
               (uint64_t(w.row(vaddr->reg + 1)[l]) << 32);
      addr += uint64_t(offset);
      p = resolve(w, addr, bytes, l, flat, store ? "store" : atomic ? "atomic" : "load",
                  store ? kMemWrite : atomic ? kMemAtomic : kMemRead);
      if (!p)
        return;
    }
    if (d.ldsDma) {
      uint64_t a = ldsDmaAddress(w, offset, l, bytes,
                                 d.space == Scratch ? "scratch_load_lds" : "global_load_lds");
      if (a == ~0ull)
        return;
      if (bytes < 4) {
        // The byte and short forms extend to 32 bits ("zero extend to 32
        // bits and store the result into a data share", CDNA4 ISA, FLAT
        // opcodes) and write the lane's whole dword.
        uint32_t x = bytes == 1 ? (d.kind == KI8 ? uint32_t(int32_t(int8_t(p[0]))) : p[0])
                                : (d.kind == KI16 ? uint32_t(int32_t(int16_t(p[0] | p[1] << 8)))
                                                  : uint32_t(p[0] | p[1] << 8));
        std::memcpy(&w.wg->lds[a], &x, 4);
        logMem(w, MemSpace::Lds, kMemWrite, l, a, 4);
      } else {
        std::memcpy(&w.wg->lds[a], p, bytes);
        logMem(w, MemSpace::Lds, kMemWrite, l, a, bytes);
      }
      wrote = true;
      continue;
    }
    if (atomic) {
      uint64_t src = w.row(vdata->reg)[l], cmp = 0;
      unsigned dw = d.wide ? 2 : 1;
      if (d.wide)
        src |= uint64_t(w.row(vdata->reg + 1)[l]) << 32;
      if (d.atomicOp == 18 /*cmpswap*/) {
        cmp = w.row(vdata->reg + dw)[l];
        if (d.wide)
          cmp |= uint64_t(w.row(vdata->reg + dw + 1)[l]) << 32;
      }
      uint64_t old = 0;
      std::memcpy(&old, p, bytes);
      uint64_t nv;
      if (d.atomicOp == 100 || d.atomicOp == 101) {
        // Packed f16 / bf16 add.
        uint32_t o = uint32_t(old), s = uint32_t(src), res = 0;
        for (int h = 0; h < 2; ++h) {
          uint16_t a = uint16_t(o >> (16 * h)), b = uint16_t(s >> (16 * h));
          uint16_t y = d.atomicOp == 100
                           ? floatToF16(f16ToFloat(a) + f16ToFloat(b))
                           : floatToBf16(bf16ToFloat(a) + bf16ToFloat(b));
          res |= uint32_t(y) << (16 * h);
        }
        nv = res;
      } else {
        nv = atomicApply(d.atomicOp, old, src, cmp, d.wide);
      }
      std::memcpy(p, &nv, bytes);
      wrote |= nv != old;
      if (in.form & kFormRtn) {
        w.row(in.dst[0].reg)[l] = uint32_t(old);
        if (d.wide)
          w.row(in.dst[0].reg + 1)[l] = uint32_t(old >> 32);
      }
    } else if (store) {
      storeLane(w, *vdata, d.kind, l, p);
      wrote = true;
    } else {
      loadLane(w, in.dst[0], d.kind, l, p);
    }
  }
  if (wrote)
    ++*w.dispatch->progress;
}

/// A buffer instruction's resource and operands (see the header comment for
/// the addressing and range rules).
struct BufCtx {
  const Opnd *vdata = nullptr, *vaddr = nullptr;
  uint64_t base = 0, soffset = 0;
  uint32_t stride = 0, numRecords = 0, word3 = 0;
  int64_t instOffset = 0;
};

bool bufferContext(Wave &w, const Inst &in, bool hasData, BufCtx &c) {
  Roles r = findRoles(in, true);
  if (!r.srsrc) {
    w.fault("buffer instruction without a resource descriptor");
    return false;
  }
  // For buffer ops vdata precedes vaddr in the operand list.
  bool hasAddr = in.form & (kFormOffen | kFormIdxen | kFormBothen);
  if (hasData) {
    c.vdata = r.vaddr;
    c.vaddr = hasAddr ? r.vdata : nullptr;
  } else {
    c.vaddr = hasAddr ? r.vaddr : nullptr;
  }
  unsigned rs = r.srsrc->reg;
  uint32_t w0 = w.s[rs], w1 = w.s[rs + 1], w2 = w.s[rs + 2], w3 = w.s[rs + 3];
  c.base = uint64_t(w0) | (uint64_t(w1 & 0xffff) << 32);
  c.stride = (w1 >> 16) & 0x3fff;
  c.numRecords = w2;
  c.word3 = w3;
  if ((w1 >> 31) & 1) {
    w.fault("swizzled buffer resources (SWIZZLE_EN) are not modelled");
    return false;
  }
  if ((w3 >> 23) & 1) {
    w.fault("buffer resources with ADD_TID_ENABLE are not modelled");
    return false;
  }
  c.soffset = r.soffset ? readScalar32(w, *r.soffset) : 0;
  // The instruction offset is the first control immediate of MUBUF and
  // MTBUF (then MTBUF's format, the cache policy, swz).
  c.instOffset = in.nctrl ? in.ctrl[0] : 0;
  return true;
}

/// A lane's record index, range-checked offset (vgpr offset + inst offset)
/// and address.
void bufferLane(Wave &w, const Inst &in, const BufCtx &c, int l, uint64_t &index,
                uint64_t &off, uint64_t &addr) {
  uint64_t voff = 0;
  index = 0;
  if (c.vaddr) {
    if (in.form & kFormBothen) {
      index = w.row(c.vaddr->reg)[l];
      voff = w.row(c.vaddr->reg + 1)[l];
    } else if (in.form & kFormIdxen) {
      index = w.row(c.vaddr->reg)[l];
    } else {
      voff = w.row(c.vaddr->reg)[l];
    }
  }
  off = voff + uint64_t(c.instOffset);
  addr = c.base + c.soffset + off + uint64_t(c.stride) * index;
}

/// MUBUF loads, stores, atomics and LDS-direct loads.
void bufferAccess(Wave &w, const Inst &in) {
  Decoded d = decodeOp(in.op, uint32_t(reinterpret_cast<uintptr_t>(in.aux)));
  uint64_t exec = w.exec();
  bool store = isStore(d.kind), atomic = d.kind == KAtomic;
  bool lds = in.form & kFormLds;
  BufCtx c;
  if (!bufferContext(w, in, store || atomic, c))
    return;
  const Opnd *vdata = c.vdata;
  uint32_t stride = c.stride, numRecords = c.numRecords;
  int64_t instOffset = c.instOffset;
  unsigned bytes = atomic ? (d.wide ? 8 : 4) : kindBytes(d.kind);
  bool wrote = false;
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    uint64_t index, off, addr;
    bufferLane(w, in, c, l, index, off, addr);
    // Per-dword range check for raw buffers; index check for structured.
    auto inRange = [&](unsigned byteOff, unsigned n) {
      if (stride == 0)
        return off + byteOff + n <= numRecords;
      return index < numRecords;
    };
    if (lds) {
      unsigned dw = bytes / 4 ? bytes / 4 : 1;
      uint64_t ldsAddr = ldsDmaAddress(w, instOffset, l, bytes, "buffer_load");
      if (ldsAddr == ~0ull)
        return;
      if (bytes < 4) {
        // buffer_load_{u,s}{byte,short} ... lds: the byte or short is
        // range-checked as itself and extended to the lane's dword, the
        // value the VGPR form would load (CDNA4 ISA, MUBUF opcodes).
        uint32_t x = 0;
        if (inRange(0, bytes)) {
          uint8_t *p = resolve(w, addr, bytes, l, false, "buffer load", kMemRead);
          if (!p)
            return;
          x = bytes == 1 ? (d.kind == KI8 ? uint32_t(int32_t(int8_t(p[0]))) : p[0])
                         : (d.kind == KI16 ? uint32_t(int32_t(int16_t(p[0] | p[1] << 8)))
                                           : uint32_t(p[0] | p[1] << 8));
        }
        std::memcpy(&w.wg->lds[ldsAddr], &x, 4);
        logMem(w, MemSpace::Lds, kMemWrite, l, ldsAddr, 4);
        wrote = true;
        continue;
      }
      for (unsigned i = 0; i < dw; ++i) {
        uint32_t x = 0;
        if (inRange(4 * i, 4)) {
          uint8_t *p = resolve(w, addr + 4 * i, 4, l, false, "buffer load", kMemRead);
          if (!p)
            return;
          std::memcpy(&x, p, 4);
        }
        std::memcpy(&w.wg->lds[ldsAddr + 4 * i], &x, 4);
        logMem(w, MemSpace::Lds, kMemWrite, l, ldsAddr + 4 * i, 4);
      }
      wrote = true;
      continue;
    }
    if (store) {
      if (bytes <= 4) {
        if (!inRange(0, bytes))
          continue;
        uint8_t *p = resolve(w, addr, bytes, l, false, "buffer store", kMemWrite);
        if (!p)
          return;
        storeLane(w, *vdata, d.kind, l, p);
      } else {
        for (unsigned i = 0; i < bytes / 4; ++i) {
          if (!inRange(4 * i, 4))
            continue;
          uint8_t *p = resolve(w, addr + 4 * i, 4, l, false, "buffer store", kMemWrite);
          if (!p)
            return;
          std::memcpy(p, w.row(vdata->reg + i) + l, 4);
        }
      }
      wrote = true;
      continue;
    }
    if (atomic) {
      if (!inRange(0, bytes))
        continue;
      uint8_t *p = resolve(w, addr, bytes, l, false, "buffer atomic", kMemAtomic);
      if (!p)
        return;
      uint64_t src = w.row(vdata->reg)[l], cmp = 0;
      unsigned dw = d.wide ? 2 : 1;
      if (d.wide)
        src |= uint64_t(w.row(vdata->reg + 1)[l]) << 32;
      if (d.atomicOp == 18) {
        cmp = w.row(vdata->reg + dw)[l];
        if (d.wide)
          cmp |= uint64_t(w.row(vdata->reg + dw + 1)[l]) << 32;
      }
      uint64_t old = 0;
      std::memcpy(&old, p, bytes);
      uint64_t nv = atomicApply(d.atomicOp, old, src, cmp, d.wide);
      std::memcpy(p, &nv, bytes);
      wrote |= nv != old;
      if (in.form & kFormRtn) {
        // The returned value goes to vdata (the tied destination).
        const Opnd &dst = in.ndst ? in.dst[0] : *vdata;
        w.row(dst.reg)[l] = uint32_t(old);
        if (d.wide)
          w.row(dst.reg + 1)[l] = uint32_t(old >> 32);
      }
      continue;
    }
    // Loads.
    if (bytes <= 4) {
      if (!inRange(0, bytes)) {
        static const uint8_t zero[4] = {0, 0, 0, 0};
        loadLane(w, in.dst[0], d.kind, l, zero);
        continue;
      }
      uint8_t *p = resolve(w, addr, bytes, l, false, "buffer load", kMemRead);
      if (!p)
        return;
      loadLane(w, in.dst[0], d.kind, l, p);
    } else {
      for (unsigned i = 0; i < bytes / 4; ++i) {
        uint32_t x = 0;
        if (inRange(4 * i, 4)) {
          uint8_t *p = resolve(w, addr + 4 * i, 4, l, false, "buffer load", kMemRead);
          if (!p)
            return;
          std::memcpy(&x, p, 4);
        }
        w.row(in.dst[0].reg + i)[l] = x;
      }
    }
  }
  if (wrote)
    ++*w.dispatch->progress;
}

/// buffer_load/store_format_* and tbuffer_load/store_format_*: aux =
/// components - 1 | d16 << 2 | hi << 3 | store << 4 | tbuffer << 5. The
/// format comes from the V# (buffer) or the instruction (tbuffer); see
/// BufferFormat.cpp. Range checks are those of the other buffer accesses,
/// per component: a raw buffer checks offset + component end against
/// num_records, a structured one the index. An out-of-range component loads
/// as 0; a store of it is dropped.
void bufferFormatAccess(Wave &w, const Inst &in) {
  uint32_t aux = uint32_t(reinterpret_cast<uintptr_t>(in.aux));
  unsigned n = (aux & 3) + 1;
  bool d16 = aux & 4, hi = aux & 8, store = aux & 16, tbuffer = aux & 32;
  BufCtx c;
  if (!bufferContext(w, in, store, c))
    return;
  unsigned dfmt, nfmt;
  if (tbuffer) {
    unsigned f = in.nctrl >= 2 ? unsigned(in.ctrl[1]) : 0;
    dfmt = f & 15;
    nfmt = (f >> 4) & 7;
  } else {
    dfmt = (c.word3 >> 15) & 15;
    nfmt = (c.word3 >> 12) & 7;
  }
  BufFormat fmt;
  std::string why;
  if (!BufFormat::describe(dfmt, nfmt, fmt, why)) {
    w.fault(why);
    return;
  }
  bool lds = in.form & kFormLds;
  const Opnd *data = store ? c.vdata : lds ? nullptr : &in.dst[0];
  unsigned cbytes = fmt.bits / 8;
  uint64_t exec = w.exec();
  bool wrote = false;
  for (int l = 0; l < kLanes; ++l) {
    if (!((exec >> l) & 1))
      continue;
    uint64_t index, off, addr;
    bufferLane(w, in, c, l, index, off, addr);
    for (unsigned k = 0; k < n; ++k) {
      // Register half or word of component k.
      unsigned reg = d16 ? k / 2 : k;
      unsigned shift = d16 ? (hi ? 16 : 16 * (k & 1)) : 0;
      uint32_t *row = data ? w.row(data->reg + reg) : nullptr;
      bool present = k < fmt.comps;
      bool inRange = c.stride == 0 ? off + (k + 1) * cbytes <= c.numRecords
                                   : index < c.numRecords;
      if (store) {
        if (!present || !inRange)
          continue;
        uint8_t *p = resolve(w, addr + k * cbytes, cbytes, l, false, "buffer store", kMemWrite);
        if (!p)
          return;
        uint32_t v = d16 ? (row[l] >> shift) & 0xffff : row[l];
        if (!fmt.storeComponent(p, v, d16, why)) {
          w.fault(why);
          return;
        }
        wrote = true;
        continue;
      }
      uint32_t v;
      if (!present) {
        if (!inRange) {
          w.fault("an out-of-range format load of a component " + fmt.name() +
                  " lacks: the value returned is not specified");
          return;
        }
        v = fmt.defaultComponent(k);
      } else if (!inRange) {
        v = 0;
      } else {
        uint8_t *p = resolve(w, addr + k * cbytes, cbytes, l, false, "buffer load", kMemRead);
        if (!p)
          return;
        v = fmt.loadComponent(p);
      }
      if (lds) {
        // buffer_load_format_x ... lds: the converted dword goes to LDS.
        uint64_t a = ldsDmaAddress(w, c.instOffset, l, 4, "buffer_load_format_x");
        if (a == ~0ull)
          return;
        std::memcpy(&w.wg->lds[a], &v, 4);
        logMem(w, MemSpace::Lds, kMemWrite, l, a, 4);
        wrote = true;
        continue;
      }
      if (!d16) {
        row[l] = v;
        continue;
      }
      uint16_t h = 0;
      if (present && inRange && !fmt.toD16(v, h, why)) {
        w.fault(why);
        return;
      }
      if (!present)
        h = k == 3 && fmt.nfmt != BufNumUint && fmt.nfmt != BufNumSint ? 0x3c00 : uint16_t(v);
      row[l] = (row[l] & ~(0xffffu << shift)) | (uint32_t(h) << shift);
    }
  }
  if (wrote)
    ++*w.dispatch->progress;
}

// Atomic operation ids shared with LDS (see Lds.cpp's AtomicOp order).
enum : unsigned { AAdd = 0, ASub = 1, AInc = 3, ADec = 4, AMinI = 5, AMaxI = 6,
                  AMinU = 7, AMaxU = 8, AAnd = 9, AOr = 10, AXor = 11,
                  AXchg = 13, AAddF = 15, AMinF = 16, AMaxF = 17, ACmpswap = 18,
                  APkAddF16 = 100, APkAddBf16 = 101 };

} // namespace

void registerVectorMemoryOps(OpTable &t) {
  struct {
    const char *suffix;
    Kind kind;
  } accesses[] = {
      {"LOAD_UBYTE", KU8}, {"LOAD_SBYTE", KI8}, {"LOAD_USHORT", KU16},
      {"LOAD_SSHORT", KI16}, {"LOAD_DWORD", KB32}, {"LOAD_DWORDX2", KB64},
      {"LOAD_DWORDX3", KB96}, {"LOAD_DWORDX4", KB128},
      {"LOAD_UBYTE_D16", KU8D16}, {"LOAD_UBYTE_D16_HI", KU8D16Hi},
      {"LOAD_SBYTE_D16", KI8D16}, {"LOAD_SBYTE_D16_HI", KI8D16Hi},
      {"LOAD_SHORT_D16", KB16D16}, {"LOAD_SHORT_D16_HI", KB16D16Hi},
      {"STORE_BYTE", KSt8}, {"STORE_SHORT", KSt16}, {"STORE_DWORD", KSt32},
      {"STORE_DWORDX2", KSt64}, {"STORE_DWORDX3", KSt96},
      {"STORE_DWORDX4", KSt128}, {"STORE_BYTE_D16_HI", KSt8Hi},
      {"STORE_SHORT_D16_HI", KSt16Hi},
  };
  struct {
    const char *prefix;
    Space space;
  } spaces[] = {{"GLOBAL_", Global}, {"FLAT_", Flat}, {"SCRATCH_", Scratch},
                {"BUFFER_", Buffer}};
  for (auto &s : spaces)
    for (auto &a : accesses)
      t.add(std::string(s.prefix) + a.suffix,
            s.space == Buffer ? bufferAccess : flatAccess, Layout::Plain,
            uint16_t(a.kind | s.space << 8));
  // Typed buffer accesses: BUFFER_/TBUFFER_ LOAD/STORE_FORMAT_[D16_[HI_]]X..XYZW.
  for (int tb = 0; tb < 2; ++tb)
    for (int st = 0; st < 2; ++st)
      for (int d16 = 0; d16 < 3; ++d16) // plain, D16, D16_HI (x only)
        for (unsigned n = 1; n <= 4; ++n) {
          if (d16 == 2 && n != 1)
            continue;
          static const char *comps[] = {"X", "XY", "XYZ", "XYZW"};
          std::string name = std::string(tb ? "TBUFFER_" : "BUFFER_") +
                             (st ? "STORE_FORMAT_" : "LOAD_FORMAT_") +
                             (d16 == 1 ? "D16_" : d16 == 2 ? "D16_HI_" : "") + comps[n - 1];
          uintptr_t aux = (n - 1) | (d16 ? 4u : 0u) | (d16 == 2 ? 8u : 0u) |
                          (st ? 16u : 0u) | (tb ? 32u : 0u);
          t.add(name, bufferFormatAccess, Layout::Plain, uint16_t(KB32 | Buffer << 8),
                reinterpret_cast<const void *>(aux));
        }
  // LDS DMA from global and scratch memory (gfx950 adds dwordx3/x4).
  for (auto &s : spaces) {
    if (s.space != Global && s.space != Scratch)
      continue;
    struct {
      const char *suffix;
      Kind kind;
    } dma[] = {{"LOAD_LDS_DWORD", KB32}, {"LOAD_LDS_DWORDX3", KB96},
               {"LOAD_LDS_DWORDX4", KB128}, {"LOAD_LDS_UBYTE", KU8},
               {"LOAD_LDS_SBYTE", KI8},     {"LOAD_LDS_USHORT", KU16},
               {"LOAD_LDS_SSHORT", KI16}};
    for (auto &a : dma)
      t.add(std::string(s.prefix) + a.suffix, flatAccess, Layout::Plain,
            uint16_t(a.kind | s.space << 8), reinterpret_cast<const void *>(uintptr_t(1u << 9)));
  }
  struct {
    const char *name;
    unsigned op;
  } atomics[] = {{"ADD", AAdd}, {"SUB", ASub}, {"INC", AInc}, {"DEC", ADec},
                 {"SMIN", AMinI}, {"SMAX", AMaxI}, {"UMIN", AMinU},
                 {"UMAX", AMaxU}, {"AND", AAnd}, {"OR", AOr}, {"XOR", AXor},
                 {"SWAP", AXchg}, {"CMPSWAP", ACmpswap}};
  for (auto &s : spaces) {
    if (s.space == Scratch)
      continue;
    Handler h = s.space == Buffer ? bufferAccess : flatAccess;
    uint16_t op = uint16_t(KAtomic | s.space << 8);
    for (auto &a : atomics) {
      std::string base = std::string(s.prefix) + "ATOMIC_" + a.name;
      t.add(base, h, Layout::Plain, op, reinterpret_cast<const void *>(uintptr_t(a.op)));
      t.add(base + "_X2", h, Layout::Plain, op,
            reinterpret_cast<const void *>(uintptr_t(a.op | 1u << 8)));
    }
    std::string p = std::string(s.prefix) + "ATOMIC_";
    t.add(p + "ADD_F32", h, Layout::Plain, op, reinterpret_cast<const void *>(uintptr_t(AAddF)));
    t.add(p + "ADD_F64", h, Layout::Plain, op, reinterpret_cast<const void *>(uintptr_t(AAddF | 1u << 8)));
    t.add(p + "MIN_F64", h, Layout::Plain, op, reinterpret_cast<const void *>(uintptr_t(AMinF | 1u << 8)));
    t.add(p + "MAX_F64", h, Layout::Plain, op, reinterpret_cast<const void *>(uintptr_t(AMaxF | 1u << 8)));
    t.add(p + "PK_ADD_F16", h, Layout::Plain, op, reinterpret_cast<const void *>(uintptr_t(APkAddF16)));
    t.add(p + "PK_ADD_BF16", h, Layout::Plain, op, reinterpret_cast<const void *>(uintptr_t(APkAddBf16)));
  }
}

} // namespace kcc::emu
