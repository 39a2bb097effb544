//===- Decoder.h - Predecoding of gfx942/gfx950 machine code ---*- C++ -*-===//
//
// LLVM's AMDGPU MCDisassembler turns bytes into MCInsts; the Decoder maps each
// one, once, into the emulator's compact `Inst` (handler, operands, control
// fields) and keeps the MCInstPrinter text for diagnostics. A `Program` is a
// code object image loaded at a device address; it decodes each instruction
// the first time a wave reaches it and serves it from a table afterwards.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_DECODER_H
#define KCC_RUNTIME_EMU_DECODER_H

#include "runtime/emu/Wave.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <deque>
#include <mutex>
#include <memory>
#include <string>
#include <vector>

namespace kcc::emu {

class Decoder {
public:
  /// The decoder of `chip`, created on first use (thread-safe).
  static llvm::Expected<const Decoder *> get(Chip chip);
  ~Decoder();

  /// Decodes the instruction at `bytes` (which belongs at `address`). Bytes
  /// the disassembler rejects yield an Inst whose handler faults with the
  /// raw dword, so that undecodable data is reported only if executed.
  void decode(llvm::ArrayRef<uint8_t> bytes, uint64_t address, Inst &out,
              std::string &text) const;

  /// Whether a decoded instruction has a handler (it decoded, and the
  /// emulator implements the opcode with those operands on this chip).
  static bool implements(const Inst &in);

  struct Impl;

private:
  explicit Decoder(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

/// A code object's image in device memory, with its decoded instructions.
/// Host threads running workgroups of one launch fetch from it at once: the
/// table from address to instruction is read without a lock, and the first
/// decode of an instruction takes one.
class Program {
public:
  Program(const Decoder &decoder, uint64_t base, const uint8_t *image,
          uint64_t size, std::vector<std::pair<uint64_t, uint64_t>> code)
      : decoder(decoder), base(base), image(image), size(size),
        codeRanges(std::move(code)),
        index(new std::atomic<const Inst *>[size / 4]()) {}

  /// The instruction at device address `pc`, or nullptr (with `error` set)
  /// when pc is outside the code.
  const Inst *fetch(uint64_t pc, std::string &error) {
    uint64_t off = pc - base;
    if (off < size && !(off & 3))
      if (const Inst *in = index[off >> 2].load(std::memory_order_acquire))
        return in;
    return fetchSlow(pc, error);
  }
  const std::string &text(const Inst &in) const {
    std::lock_guard<std::mutex> guard(lock);
    return texts[in.textIndex];
  }
  uint64_t imageBase() const { return base; }

private:
  const Inst *fetchSlow(uint64_t pc, std::string &error);

  const Decoder &decoder;
  uint64_t base;
  const uint8_t *image;
  uint64_t size;
  std::vector<std::pair<uint64_t, uint64_t>> codeRanges; // [begin, end) offsets
  std::unique_ptr<std::atomic<const Inst *>[]> index;    // by dword offset
  mutable std::mutex lock;  // guards insts and texts while they grow
  std::deque<Inst> insts;   // stable addresses: waves hold pointers
  std::deque<std::string> texts; // stable too: text() returns a reference
};

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_DECODER_H
