//===- BufferFormat.cpp - Typed buffer loads and stores (MUBUF/MTBUF) -----===//
//
// buffer_load/store_format_* take the data and number format from the V#
// (word3 NUM_FORMAT [14:12], DATA_FORMAT [18:15]); tbuffer_* from the
// instruction's format field (dfmt [3:0], nfmt [6:4]). The CDNA3 ISA's
// buffer format tables give, for compute:
//
//   data formats: 8, 16, 8_8, 32, 16_16, 10_11_11, 11_11_10, 10_10_10_2,
//     2_10_10_10, 8_8_8_8, 32_32, 16_16_16_16, 32_32_32, 32_32_32_32
//   number formats: UNORM (u / (2^n - 1)), SNORM (s / (2^(n-1) - 1),
//     clamped to -1), USCALED and SSCALED (the integer as a float), UINT,
//     SINT, FLOAT (16- and 32-bit components only)
//
// Components are consecutive and little-endian, x lowest. A load asks for
// x..(x,y,z,w); what the format lacks reads as 0 for y and z and as 1 (1.0
// for the float-valued number formats) for w. The d16 forms return each
// component as 16 bits, packed two per VGPR (x, y in the first; z, w in the
// second), keeping the half they do not write, as the other d16 loads do.
//
// The V#'s DST_SEL_X..W swizzle is not applied: the guide's MUBUF text
// converts by DATA_FORMAT and NUM_FORMAT only, and the V#s compute code
// builds (LLVM's, HIP's) leave DST_SEL zero, which as a swizzle would
// select constant 0 for every component.
//
// Implemented: every number format on the formats whose components are 8,
// 16 or 32 bits. Refused with an error naming the format (the guide does
// not pin the rounding or overflow behaviour the emulator would have to
// invent): the packed formats (10_11_11, 11_11_10, 10_10_10_2,
// 2_10_10_10); stores through UNORM, SNORM, USCALED, SSCALED and through
// 8- and 16-bit integers from wider values (rounding and saturation are
// not specified); d16 loads of 32-bit integer components and d16 stores
// to 8- or 32-bit integer components (truncate or saturate is not
// specified).
//
//===----------------------------------------------------------------------===//
#include "runtime/emu/BufferFormat.h"

#include "target/Float16.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace kcc::emu {

namespace {

const char *dataFormatName(unsigned d) {
  static const char *names[16] = {"INVALID", "8", "16", "8_8", "32", "16_16",
                                  "10_11_11", "11_11_10", "10_10_10_2",
                                  "2_10_10_10", "8_8_8_8", "32_32",
                                  "16_16_16_16", "32_32_32", "32_32_32_32",
                                  "RESERVED_15"};
  return names[d & 15];
}
const char *numFormatName(unsigned n) {
  static const char *names[8] = {"UNORM", "SNORM", "USCALED", "SSCALED",
                                 "UINT", "SINT", "RESERVED_6", "FLOAT"};
  return names[n & 7];
}

bool floatValued(unsigned nfmt) { return nfmt != BufNumUint && nfmt != BufNumSint; }

} // namespace

std::string BufFormat::name() const {
  return std::string("BUF_DATA_FORMAT_") + dataFormatName(dfmt) +
         ", BUF_NUM_FORMAT_" + numFormatName(nfmt);
}

bool BufFormat::describe(unsigned d, unsigned n, BufFormat &f, std::string &why) {
  f = BufFormat();
  f.dfmt = d;
  f.nfmt = n;
  struct Shape {
    uint8_t comps, bits;
  };
  static const Shape shapes[16] = {{0, 0}, {1, 8},  {1, 16}, {2, 8}, {1, 32}, {2, 16},
                                   {0, 0}, {0, 0},  {0, 0},  {0, 0}, {4, 8},  {2, 32},
                                   {4, 16}, {3, 32}, {4, 32}, {0, 0}};
  Shape s = shapes[d & 15];
  if (d >= 6 && d <= 9) {
    why = "the packed buffer format " + f.name() +
          " is not modelled (its per-component rounding is not specified)";
    return false;
  }
  if (s.comps == 0 || n == 6) {
    why = "buffer format " + f.name() + " is invalid or reserved";
    return false;
  }
  if (n == BufNumFloat && s.bits == 8) {
    why = "buffer format " + f.name() + " is invalid: FLOAT needs 16- or 32-bit components";
    return false;
  }
  f.comps = s.comps;
  f.bits = s.bits;
  return true;
}

uint32_t BufFormat::loadComponent(const uint8_t *p) const {
  uint32_t u = 0;
  std::memcpy(&u, p, bits / 8);
  int64_t s = bits == 32 ? int64_t(int32_t(u))
                         : (u & (1u << (bits - 1))) ? int64_t(u) - (int64_t(1) << bits)
                                                    : int64_t(u);
  double maxU = double((uint64_t(1) << bits) - 1);
  double maxS = double((uint64_t(1) << (bits - 1)) - 1);
  float f;
  switch (nfmt) {
  case BufNumUnorm: f = float(double(u) / maxU); break;
  case BufNumSnorm: f = float(std::max(double(s) / maxS, -1.0)); break;
  case BufNumUscaled: f = float(u); break;
  case BufNumSscaled: f = float(s); break;
  case BufNumUint: return u;
  case BufNumSint: return uint32_t(int32_t(s));
  default: // FLOAT
    if (bits == 16)
      f = f16ToFloat(uint16_t(u));
    else
      return u;
  }
  uint32_t r;
  std::memcpy(&r, &f, 4);
  return r;
}

uint32_t BufFormat::defaultComponent(unsigned c) const {
  if (c < 3)
    return 0;
  return floatValued(nfmt) ? 0x3f800000u : 1u;
}

bool BufFormat::toD16(uint32_t v, uint16_t &out, std::string &why) const {
  if (!floatValued(nfmt)) {
    if (bits == 32) {
      why = "a d16 load of 32-bit integer components (" + name() +
            ") is not modelled: truncation or saturation is not specified";
      return false;
    }
    out = uint16_t(v); // an 8- or 16-bit integer fits
    return true;
  }
  float f;
  std::memcpy(&f, &v, 4);
  out = floatToF16(f);
  return true;
}

bool BufFormat::storeComponent(uint8_t *p, uint32_t v, bool d16, std::string &why) const {
  if (nfmt == BufNumFloat) {
    if (bits == 32) {
      if (d16) {
        float f = f16ToFloat(uint16_t(v));
        std::memcpy(p, &f, 4);
      } else {
        std::memcpy(p, &v, 4);
      }
    } else {
      uint16_t h;
      if (d16) {
        h = uint16_t(v);
      } else {
        float f;
        std::memcpy(&f, &v, 4);
        h = floatToF16(f);
      }
      std::memcpy(p, &h, 2);
    }
    return true;
  }
  if (nfmt == BufNumUint || nfmt == BufNumSint) {
    unsigned srcBits = d16 ? 16 : 32;
    if (bits != srcBits) {
      why = "a store of " + std::to_string(srcBits) + "-bit data to " + name() +
            " is not modelled: truncation or saturation is not specified";
      return false;
    }
    std::memcpy(p, &v, bits / 8);
    return true;
  }
  why = "stores through " + name() +
        " are not modelled: the rounding of the conversion is not specified";
  return false;
}

} // namespace kcc::emu
