//===- BufferFormat.h - Typed buffer loads and stores (MUBUF/MTBUF) -*- C++ -*-===//
//
// The data/number format conversions of buffer_*_format_* and tbuffer_*;
// see BufferFormat.cpp for what is implemented and what is refused.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_BUFFERFORMAT_H
#define KCC_RUNTIME_EMU_BUFFERFORMAT_H

#include <cstdint>
#include <string>

namespace kcc::emu {

enum BufNumFormat : unsigned { BufNumUnorm, BufNumSnorm, BufNumUscaled, BufNumSscaled,
                               BufNumUint, BufNumSint, BufNumReserved6, BufNumFloat };

struct BufFormat {
  unsigned dfmt = 0, nfmt = 0;
  unsigned comps = 0, bits = 0; // components in memory and their width

  /// Fills `f` for a data/number format pair; false with the reason when
  /// the emulator does not implement it.
  static bool describe(unsigned dfmt, unsigned nfmt, BufFormat &f, std::string &why);
  std::string name() const;
  unsigned bytes() const { return comps * bits / 8; }
  /// The 32-bit register value of the component at `p`.
  uint32_t loadComponent(const uint8_t *p) const;
  /// The value of component `c` (0..3) the format does not have.
  uint32_t defaultComponent(unsigned c) const;
  /// A loaded 32-bit component value as a d16 result.
  bool toD16(uint32_t v, uint16_t &out, std::string &why) const;
  /// Writes a component from a register value (16 bits if d16).
  bool storeComponent(uint8_t *p, uint32_t v, bool d16, std::string &why) const;
};

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_BUFFERFORMAT_H
