//===- Error.h - The one way kcc makes an error from a message -*- C++ -*-===//
//
// Every part of kcc reports failures as llvm::Error with a message a user can
// act on; this is the helper they share instead of each file defining its own
// `error`/`err`/`fail`/`bad`.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TARGET_ERROR_H
#define KCC_TARGET_ERROR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace kcc {

/// An llvm::Error carrying `message` (no error code: kcc's errors are for
/// people, and the message says what went wrong and what to do).
inline llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// An error reported by `component`, the op or part a user called, named
/// first so that a message from deep inside says where it came from:
/// makeError("gemm", "K = 0 ...") is "gemm: K = 0 ...".
inline llvm::Error makeError(llvm::StringRef component,
                             const llvm::Twine &message) {
  return makeError(component + ": " + message);
}

} // namespace kcc

#endif // KCC_TARGET_ERROR_H
