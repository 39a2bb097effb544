//===- CacheCommand.h - `kcc cache`: the JIT's disk cache ------*- C++ -*-===//
//
//   kcc cache --stats [--dir DIR]
//   kcc cache --clear [--dir DIR]
//
// The folder is the JIT's ($KCC_CACHE_DIR, else ~/.cache/kcc) unless --dir
// names another. --stats counts the entries and their bytes, this compiler
// build's apart from other builds' (which eviction removes first), against
// the size bound ($KCC_CACHE_MAX_BYTES); --clear removes every entry and
// leaves any other file of the folder alone.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TOOLS_KCC_CACHECOMMAND_H
#define KCC_TOOLS_KCC_CACHECOMMAND_H

#include "llvm/ADT/ArrayRef.h"

namespace kcc {

/// Runs `kcc cache`; `args` are the words after "cache". Returns the exit
/// code: 0, or 1 with one line on stderr.
int cacheCommand(llvm::ArrayRef<const char *> args);

} // namespace kcc

#endif // KCC_TOOLS_KCC_CACHECOMMAND_H
