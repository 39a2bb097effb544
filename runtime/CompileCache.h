//===- CompileCache.h - On-disk cache of compiled code objects --*- C++ -*-===//
//
// One file per key, `<dir>/<key>.kcco`, laid out as
//
//   offset  0  magic "KCCCACHE"           8 bytes
//           8  format version (1)         4 bytes, little-endian
//          12  reserved (0)               4 bytes
//          16  payload length             8 bytes, little-endian
//          24  SHA-256 of the payload    32 bytes
//          56  the key (hex, 64 chars)   64 bytes
//         120  payload (the code object)
//
// Writes go to a unique temporary file in the same directory and are renamed
// over the entry, so a reader sees either nothing or a whole entry, even with
// several processes filling the cache at once. A reader still trusts nothing:
// wrong magic, version, key, length or checksum make the entry "damaged", and
// the JIT recompiles and overwrites it.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_COMPILECACHE_H
#define KCC_RUNTIME_COMPILECACHE_H

#include "target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kcc {

/// What identifies one compilation: everything that changes its output.
struct CacheKeyInputs {
  llvm::StringRef source;
  std::vector<std::string> params; // NAME=VALUE, any order (sorted here)
  Chip chip = Chip::gfx942;
  unsigned optLevel = 3;
  llvm::StringRef compilerVersion; // kcc::kccVersion()
};

/// SHA-256 of the inputs as 64 lowercase hex digits. Parameters are sorted
/// first, so "-D M=1 -D N=2" and "-D N=2 -D M=1" share an entry.
std::string computeCacheKey(const CacheKeyInputs &inputs);

/// The directory from $KCC_CACHE_DIR, else $XDG_CACHE_HOME/kcc, else
/// ~/.cache/kcc.
std::string defaultCacheDirectory();

class DiskCache {
public:
  explicit DiskCache(std::string directory) : dir_(std::move(directory)) {}
  llvm::StringRef directory() const { return dir_; }
  /// The file of `key`.
  std::string entryPath(llvm::StringRef key) const;

  enum class LookupStatus { Hit, Missing, Damaged };
  struct Lookup {
    LookupStatus status = LookupStatus::Missing;
    std::vector<uint8_t> payload; // for Hit
    std::string problem;          // for Damaged: what was wrong
  };
  /// Reads and verifies the entry of `key`.
  Lookup lookup(llvm::StringRef key) const;
  /// Writes atomically (temporary file + rename), creating the directory.
  llvm::Error store(llvm::StringRef key, llvm::ArrayRef<uint8_t> payload) const;

  static constexpr size_t kHeaderSize = 120;

private:
  std::string dir_;
};

} // namespace kcc

#endif // KCC_RUNTIME_COMPILECACHE_H
