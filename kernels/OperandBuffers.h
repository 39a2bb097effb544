//===- OperandBuffers.h - Every operand given, all on one device -*- C++ -*-===//
//
// The first check of every op (GEMMs, attention forward and backward): each
// operand has a buffer, and all of them are on the device of the first, the
// one the op launches on. A kernel handed another device's address would
// read garbage or fault, so the op refuses before anything runs, naming
// the operand.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_KERNELS_OPERANDBUFFERS_H
#define KCC_KERNELS_OPERANDBUFFERS_H

#include "runtime/Buffer.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace kcc::ops {

/// One operand as the check names it ("A", "Bt's scale", "LSE") with its
/// buffer (null when the caller gave none). Optional operands the caller
/// did not give are left out of the list.
struct NamedBuffer {
  llvm::StringRef name;
  const Buffer *buffer;
};

/// "COMPONENT: NAME has no buffer" for the first operand without one; else
/// "COMPONENT: NAME is on SPEC but FIRST is on SPEC; all operands must be on
/// one device" for the first on another device than operands[0]'s.
llvm::Error checkOperandBuffers(llvm::StringRef component,
                                llvm::ArrayRef<NamedBuffer> operands);

} // namespace kcc::ops

#endif // KCC_KERNELS_OPERANDBUFFERS_H
