//===- CompileCache.cpp - On-disk cache of compiled code objects ----------===//
#include "runtime/CompileCache.h"
#include "target/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <set>

using namespace llvm;

namespace kcc {

static constexpr char kMagic[8] = {'K', 'C', 'C', 'C', 'A', 'C', 'H', 'E'};
static constexpr size_t kIdentityOffset = 120;

std::string computeCacheKey(const CacheKeyInputs &inputs) {
  std::vector<std::string> params = inputs.params;
  llvm::sort(params);
  SHA256 hash;
  // Every field is length-prefixed so that no two different inputs can
  // concatenate to the same byte string.
  auto field = [&](StringRef s) {
    uint64_t n = s.size();
    uint8_t len[8];
    support::endian::write64le(len, n);
    hash.update(ArrayRef<uint8_t>(len, 8));
    hash.update(s);
  };
  field("kcc-compile-v2");
  field(inputs.compilerIdentity);
  field(getChipInfo(inputs.chip).name);
  field(("O" + Twine(inputs.optLevel)).str());
  field(std::to_string(params.size()));
  for (const std::string &p : params)
    field(p);
  field(inputs.source);
  std::array<uint8_t, 32> digest = hash.final();
  return toHex(digest, /*LowerCase=*/true);
}

std::string defaultCacheDirectory() {
  if (std::optional<std::string> dir = sys::Process::GetEnv("KCC_CACHE_DIR"))
    if (!dir->empty())
      return *dir;
  if (std::optional<std::string> xdg = sys::Process::GetEnv("XDG_CACHE_HOME"))
    if (!xdg->empty()) {
      SmallString<256> p(*xdg);
      sys::path::append(p, "kcc");
      return std::string(p);
    }
  SmallString<256> home;
  if (!sys::path::home_directory(home))
    home = sys::path::get_separator(); // no home: keep a usable absolute path
  sys::path::append(home, ".cache", "kcc");
  return std::string(home);
}

Expected<uint64_t> cacheMaxBytesFromEnvironment() {
  std::optional<std::string> env = sys::Process::GetEnv("KCC_CACHE_MAX_BYTES");
  if (!env || env->empty())
    return kDefaultCacheMaxBytes;
  StringRef text = StringRef(*env).trim();
  uint64_t scale = 1;
  if (!text.empty()) {
    switch (toUpper(text.back())) {
    case 'K': scale = uint64_t(1) << 10; break;
    case 'M': scale = uint64_t(1) << 20; break;
    case 'G': scale = uint64_t(1) << 30; break;
    }
    if (scale != 1)
      text = text.drop_back();
  }
  uint64_t n;
  if (text.getAsInteger(10, n) || n > UINT64_MAX / scale)
    return makeError("KCC_CACHE_MAX_BYTES='" + *env +
                     "' is not a size; expected bytes, optionally with a K, M "
                     "or G suffix (e.g. 512M)");
  return n * scale;
}

std::string DiskCache::entryPath(StringRef key) const {
  SmallString<256> p(dir_);
  sys::path::append(p, key + ".kcco");
  return std::string(p);
}

/// Sets the entry's modification time to now: the recency that eviction
/// reads. A read-only cache folder just keeps the old time.
static void touch(const std::string &path) {
  int fd;
  if (sys::fs::openFileForReadWrite(path, fd, sys::fs::CD_OpenExisting,
                                    sys::fs::OF_None))
    return;
  (void)sys::fs::setLastAccessAndModificationTime(fd, std::chrono::system_clock::now());
  sys::Process::SafelyCloseFileDescriptor(fd);
}

/// What an entry's checksum covers: its key and writer as the header holds
/// them (64 bytes each, zero-padded) and the payload.
static std::array<uint8_t, 32> entryChecksum(StringRef key, StringRef identity,
                                             ArrayRef<uint8_t> payload) {
  char fields[128] = {};
  std::memcpy(fields, key.data(), std::min<size_t>(key.size(), 64));
  std::memcpy(fields + 64, identity.data(), std::min<size_t>(identity.size(), 64));
  SHA256 hash;
  hash.update(StringRef(fields, sizeof(fields)));
  hash.update(payload);
  return hash.final();
}

DiskCache::Lookup DiskCache::lookup(StringRef key) const {
  Lookup result;
  std::string path = entryPath(key);
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!file)
    return result; // Missing: nothing there (or unreadable, same outcome)
  StringRef data = (*file)->getBuffer();
  auto damaged = [&](const Twine &why) {
    result.status = LookupStatus::Damaged;
    result.problem = why.str();
    return result;
  };
  if (data.size() < kHeaderSize)
    return damaged("entry is " + Twine(data.size()) +
                   " bytes, shorter than its header");
  const uint8_t *p = reinterpret_cast<const uint8_t *>(data.data());
  if (std::memcmp(p, kMagic, 8) != 0)
    return damaged("bad magic");
  if (support::endian::read32le(p + 8) != kFormatVersion)
    return damaged("format version " + Twine(support::endian::read32le(p + 8)));
  uint64_t length = support::endian::read64le(p + 16);
  if (StringRef(data.data() + 56, 64) != key)
    return damaged("entry belongs to another key");
  if (length != data.size() - kHeaderSize)
    return damaged("payload is " + Twine(data.size() - kHeaderSize) +
                   " bytes, header says " + Twine(length) + " (truncated?)");
  ArrayRef<uint8_t> payload(p + kHeaderSize, length);
  StringRef writer(data.data() + kIdentityOffset, 64);
  std::array<uint8_t, 32> sum = entryChecksum(key, writer, payload);
  if (std::memcmp(sum.data(), p + 24, 32) != 0)
    return damaged("checksum mismatch (payload or header edited)");
  // Whole and sound, but from another build of the compiler: its code may
  // differ from what this one generates, so it is never served.
  if (writer != identity_) {
    result.status = LookupStatus::Stale;
    result.problem = ("written by another compiler (identity " +
                      writer.take_front(16) + "...)").str();
    return result;
  }
  result.status = LookupStatus::Hit;
  result.payload.assign(payload.begin(), payload.end());
  file->reset(); // closed before its time changes
  touch(path);
  return result;
}

Error DiskCache::store(StringRef key, ArrayRef<uint8_t> payload) const {
  if (std::error_code ec =
          sys::fs::create_directories(dir_, /*IgnoreExisting=*/true, sys::fs::owner_all))
    return createStringError(ec, "cannot create cache directory '" + dir_ +
                                     "': " + ec.message());
  std::vector<uint8_t> header(kHeaderSize, 0);
  std::memcpy(header.data(), kMagic, 8);
  support::endian::write32le(header.data() + 8, kFormatVersion);
  support::endian::write64le(header.data() + 16, payload.size());
  std::array<uint8_t, 32> sum = entryChecksum(key, identity_, payload);
  std::memcpy(header.data() + 24, sum.data(), 32);
  std::memcpy(header.data() + 56, key.data(), std::min<size_t>(key.size(), 64));
  std::memcpy(header.data() + kIdentityOffset, identity_.data(),
              std::min<size_t>(identity_.size(), 64));

  // The temporary file lives in the cache directory: rename() is atomic only
  // within one file system.
  SmallString<256> model(dir_);
  sys::path::append(model, key + ".tmp-%%%%%%%%");
  int fd;
  SmallString<256> tmp;
  if (std::error_code ec = sys::fs::createUniqueFile(model, fd, tmp))
    return createStringError(ec, "cannot create a temporary file in '" + dir_ +
                                     "': " + ec.message());
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(reinterpret_cast<const char *>(header.data()), header.size());
    os.write(reinterpret_cast<const char *>(payload.data()), payload.size());
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      sys::fs::remove(tmp);
      return createStringError(ec, "cannot write '" + tmp + "': " + ec.message());
    }
  }
  std::string path = entryPath(key);
  if (std::error_code ec = sys::fs::rename(tmp, path)) {
    sys::fs::remove(tmp);
    return createStringError(ec, "cannot rename '" + tmp + "' to '" + path +
                                     "': " + ec.message());
  }
  return Error::success();
}

/// Whether `name` is a file this cache makes: "<64 hex>.kcco", or a
/// writer's "<64 hex>.tmp-XXXXXXXX". Anything else in the folder is not
/// ours to count or remove.
static bool isCacheFile(StringRef name, bool &temporary) {
  if (name.size() < 64 || !llvm::all_of(name.take_front(64), isHexDigit))
    return false;
  StringRef rest = name.drop_front(64);
  temporary = rest.starts_with(".tmp-");
  return rest == ".kcco" || temporary;
}

/// Reads the key and writer identity of the entry at `path` from its
/// header; both stay empty when it is no readable version-2 entry.
static void readHeader(const std::string &path, std::string &key,
                       std::string &identity) {
  Expected<sys::fs::file_t> file = sys::fs::openNativeFileForRead(path);
  if (!file) {
    consumeError(file.takeError());
    return;
  }
  char header[DiskCache::kHeaderSize];
  size_t got = 0;
  while (got < sizeof(header)) {
    Expected<size_t> n = sys::fs::readNativeFile(
        *file, MutableArrayRef<char>(header + got, sizeof(header) - got));
    if (!n) {
      consumeError(n.takeError());
      break;
    }
    if (*n == 0)
      break;
    got += *n;
  }
  sys::fs::closeFile(*file);
  const uint8_t *p = reinterpret_cast<const uint8_t *>(header);
  if (got < sizeof(header) || std::memcmp(p, kMagic, 8) != 0 ||
      support::endian::read32le(p + 8) != DiskCache::kFormatVersion)
    return;
  key.assign(header + 56, 64);
  identity.assign(header + kIdentityOffset, 64);
}

std::vector<DiskCacheEntry> DiskCache::scan() const {
  std::vector<DiskCacheEntry> out;
  std::error_code ec;
  for (sys::fs::directory_iterator it(dir_, ec), end; !ec && it != end;
       it.increment(ec)) {
    bool temporary = false;
    if (!isCacheFile(sys::path::filename(it->path()), temporary))
      continue;
    sys::fs::file_status st;
    if (sys::fs::status(it->path(), st) ||
        st.type() != sys::fs::file_type::regular_file)
      continue; // gone meanwhile, or not a plain file
    DiskCacheEntry e;
    e.path = it->path();
    e.temporary = temporary;
    e.bytes = st.getSize();
    e.lastUsed = st.getLastModificationTime();
    if (!temporary)
      readHeader(e.path, e.key, e.identity);
    out.push_back(std::move(e));
  }
  return out;
}

DiskCacheSummary DiskCache::summarize() const {
  DiskCacheSummary s;
  std::set<std::string> others;
  for (const DiskCacheEntry &e : scan()) {
    ++s.entries;
    s.bytes += e.bytes;
    if (e.identity == identity_) {
      ++s.currentEntries;
      s.currentBytes += e.bytes;
    } else {
      ++s.otherEntries;
      s.otherBytes += e.bytes;
      if (!e.identity.empty())
        others.insert(e.identity);
    }
  }
  s.otherIdentities = unsigned(others.size());
  return s;
}

uint64_t DiskCache::evict(uint64_t maxBytes, StringRef keep) const {
  std::vector<DiskCacheEntry> all = scan();
  uint64_t total = 0;
  for (const DiskCacheEntry &e : all)
    total += e.bytes;
  if (total <= maxBytes)
    return 0;
  // A writer's temporary file is only evicted once it is an hour old: a
  // younger one may be about to be renamed into an entry.
  auto now = std::chrono::system_clock::now();
  std::string keepPath = keep.empty() ? std::string() : entryPath(keep);
  std::vector<const DiskCacheEntry *> order;
  for (const DiskCacheEntry &e : all) {
    if (e.path == keepPath || (e.temporary && now - e.lastUsed < std::chrono::hours(1)))
      continue;
    order.push_back(&e);
  }
  // Other compilers' entries (and files that are no entry of this format)
  // first, then this compiler's; oldest first within each.
  llvm::stable_sort(order, [&](const DiskCacheEntry *a, const DiskCacheEntry *b) {
    bool aMine = a->identity == identity_, bMine = b->identity == identity_;
    if (aMine != bMine)
      return !aMine;
    return a->lastUsed < b->lastUsed;
  });
  uint64_t removed = 0;
  for (const DiskCacheEntry *e : order) {
    if (total <= maxBytes)
      break;
    std::error_code ec = sys::fs::remove(e->path, /*IgnoreNonExisting=*/true);
    if (ec)
      continue; // read-only folder: nothing more can be done
    total -= e->bytes;
    ++removed;
  }
  return removed;
}

Expected<std::pair<uint64_t, uint64_t>> DiskCache::clear() const {
  uint64_t files = 0, bytes = 0;
  for (const DiskCacheEntry &e : scan()) {
    if (std::error_code ec = sys::fs::remove(e.path, /*IgnoreNonExisting=*/true))
      return makeError("cannot remove '" + e.path + "': " + ec.message());
    ++files;
    bytes += e.bytes;
  }
  return std::make_pair(files, bytes);
}

} // namespace kcc
