//===- Check.h - Check mode: findings of the emulator's sanitizer -*- C++ -*-===//
//
// Check mode (LaunchOptions::check, `kcc run --check`, KCC_EMU_CHECK=1)
// watches every instruction of every wave and reports kernel bugs that
// hardware hides until a rare interleaving shows them: results read before
// their s_waitcnt, races in LDS and global memory, barrier misuse, bad
// addresses and (on request) LDS bytes read before any write. A launch with
// findings fails with a `CheckError` that carries them; its message is the
// report.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_EMU_CHECK_H
#define KCC_RUNTIME_EMU_CHECK_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kcc::emu {

enum class FindingClass : uint8_t {
  UnwaitedResult, // a register (or LDS-DMA byte) read while its op is outstanding
  Race,           // conflicting accesses not ordered by happens-before
  BarrierMisuse,  // different barrier counts, end while others wait, deadlock
  BadAddress,     // outside every allocation / past the workgroup's LDS
  Uninit,         // LDS bytes read before any write (--check=uninit)
};

llvm::StringRef findingClassName(FindingClass c);

/// One side of a finding: an instruction executed by one lane of one wave.
struct FindingSite {
  bool valid = false;
  uint64_t pc = 0;          // offset in the code object
  std::string inst;         // disassembly
  uint32_t workgroup[3] = {0, 0, 0};
  uint32_t wave = 0;        // wave in its workgroup
  int lane = -1;            // -1: the whole wave (scalar, barrier)
  std::string access;       // "read", "write", "atomic", ... of this side
};

struct Finding {
  FindingClass kind = FindingClass::Race;
  std::string kernel;
  FindingSite site;         // the instruction that exposed the bug
  FindingSite other;        // the other access / the producing instruction
  std::string what;         // register or address ("LDS [0x100, +4)", "v5")
  std::string detail;       // why, in a sentence
  uint32_t occurrences = 1; // lanes/bytes/registers with the same two sites
  std::string message() const;
};

/// The error of a launch with findings.
class CheckError : public llvm::ErrorInfo<CheckError> {
public:
  static char ID;
  explicit CheckError(std::vector<Finding> findings)
      : findings(std::move(findings)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  std::vector<Finding> findings;
};

} // namespace kcc::emu

#endif // KCC_RUNTIME_EMU_CHECK_H
