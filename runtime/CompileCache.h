//===- CompileCache.h - On-disk cache of compiled code objects --*- C++ -*-===//
//
// One file per key, `<dir>/<key>.kcco`, laid out as
//
//   offset  0  magic "KCCCACHE"           8 bytes
//           8  format version (3)         4 bytes, little-endian
//          12  reserved (0)               4 bytes
//          16  payload length             8 bytes, little-endian
//          24  SHA-256 of key, identity  32 bytes
//              and payload
//          56  the key (hex, 64 chars)   64 bytes
//         120  compiler identity         64 bytes (BuildIdentity::id, hex)
//         184  payload (the code object)
//
// The key already names the compiler (CacheKeyInputs::compilerIdentity), so
// another build of kcc looks up other files; the identity in the header lets
// a reader refuse an entry whose writer was not this compiler all the same,
// and lets eviction and `kcc cache --stats` tell this build's entries from
// other builds' without knowing their keys.
//
// Writes go to a unique temporary file in the same directory and are renamed
// over the entry, so a reader sees either nothing or a whole entry, even with
// several processes filling the cache at once. A reader still trusts nothing:
// wrong magic, version, key, length or checksum make the entry "damaged", a
// foreign identity makes it "stale", and the JIT recompiles and overwrites it.
// The checksum covers the key and the identity as well as the payload, so an
// entry whose header was edited (another key's code object renamed, a stale
// entry given this build's identity) is damaged, never served.
//
// The folder is created readable by its owner only (0700): a code object in
// it is run as written, so no other user may put one there.
//
// Size: after each store, entries are evicted until the folder holds at most
// maxBytes - other compilers' entries (and unreadable files) first, then
// this compiler's least recently used (a hit refreshes an entry's time).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_COMPILECACHE_H
#define KCC_RUNTIME_COMPILECACHE_H

#include "target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Chrono.h"
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
  llvm::StringRef compilerIdentity; // kcc::buildIdentity().id
};

/// SHA-256 of the inputs as 64 lowercase hex digits. Parameters are sorted
/// first, so "-D M=1 -D N=2" and "-D N=2 -D M=1" share an entry.
std::string computeCacheKey(const CacheKeyInputs &inputs);

/// The directory from $KCC_CACHE_DIR, else $XDG_CACHE_HOME/kcc, else
/// ~/.cache/kcc.
std::string defaultCacheDirectory();

/// The size bound when neither the program nor $KCC_CACHE_MAX_BYTES sets one.
constexpr uint64_t kDefaultCacheMaxBytes = uint64_t(1) << 30;
/// $KCC_CACHE_MAX_BYTES (bytes, or with a K, M or G suffix: "512M"), else
/// kDefaultCacheMaxBytes; an unreadable value is an error naming it.
llvm::Expected<uint64_t> cacheMaxBytesFromEnvironment();

/// One file of the cache folder, as a scan finds it.
struct DiskCacheEntry {
  std::string path;
  /// From the header; empty when the file is no readable entry of this format
  /// (damaged, an older format, a writer's temporary file).
  std::string key, identity;
  /// A writer's "<key>.tmp-XXXXXXXX", not yet renamed into an entry.
  bool temporary = false;
  uint64_t bytes = 0;
  llvm::sys::TimePoint<> lastUsed; // modification time: written or hit
};

/// What the folder holds, split by the identity of the compiler that wrote
/// each entry.
struct DiskCacheSummary {
  uint64_t entries = 0, bytes = 0;
  uint64_t currentEntries = 0, currentBytes = 0; // this compiler's
  uint64_t otherEntries = 0, otherBytes = 0;     // other builds', unreadable
  unsigned otherIdentities = 0; // distinct identities among the others
};

class DiskCache {
public:
  /// `identity`: the compiler whose entries this cache reads and writes
  /// (BuildIdentity::id).
  DiskCache(std::string directory, std::string identity)
      : dir_(std::move(directory)), identity_(std::move(identity)) {}
  llvm::StringRef directory() const { return dir_; }
  llvm::StringRef identity() const { return identity_; }
  /// The file of `key`.
  std::string entryPath(llvm::StringRef key) const;

  enum class LookupStatus { Hit, Missing, Damaged, Stale };
  struct Lookup {
    LookupStatus status = LookupStatus::Missing;
    std::vector<uint8_t> payload; // for Hit
    std::string problem;          // for Damaged and Stale: what was wrong
  };
  /// Reads and verifies the entry of `key`; a hit refreshes its time, so
  /// that eviction keeps what is used.
  Lookup lookup(llvm::StringRef key) const;
  /// Writes atomically (temporary file + rename), creating the directory
  /// (private to the user).
  llvm::Error store(llvm::StringRef key, llvm::ArrayRef<uint8_t> payload) const;

  /// Every entry and temporary file of the folder (nothing else: the folder
  /// may be shared with other files). A missing folder is empty.
  std::vector<DiskCacheEntry> scan() const;
  DiskCacheSummary summarize() const;
  /// Removes entries until at most `maxBytes` remain, in the order above;
  /// `keep` (the entry just written) stays even if alone it is larger.
  /// Returns how many files went. Files that vanish meanwhile (another
  /// process evicting) are no error.
  uint64_t evict(uint64_t maxBytes, llvm::StringRef keep = {}) const;
  /// Removes every entry and temporary file; returns how many and their
  /// bytes, or the first file that could not be removed.
  llvm::Expected<std::pair<uint64_t, uint64_t>> clear() const;

  static constexpr size_t kHeaderSize = 184;
  static constexpr uint32_t kFormatVersion = 3;

private:
  std::string dir_, identity_;
};

} // namespace kcc

#endif // KCC_RUNTIME_COMPILECACHE_H
