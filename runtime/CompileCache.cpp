//===- CompileCache.cpp - On-disk cache of compiled code objects ----------===//
#include "runtime/CompileCache.h"

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
#include <cstring>

using namespace llvm;

namespace kcc {

static constexpr char kMagic[8] = {'K', 'C', 'C', 'C', 'A', 'C', 'H', 'E'};
static constexpr uint32_t kFormatVersion = 1;

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
  field("kcc-compile-v1");
  field(inputs.compilerVersion);
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

std::string DiskCache::entryPath(StringRef key) const {
  SmallString<256> p(dir_);
  sys::path::append(p, key + ".kcco");
  return std::string(p);
}

DiskCache::Lookup DiskCache::lookup(StringRef key) const {
  Lookup result;
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(entryPath(key), /*IsText=*/false,
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
  std::array<uint8_t, 32> sum = SHA256::hash(payload);
  if (std::memcmp(sum.data(), p + 24, 32) != 0)
    return damaged("payload checksum mismatch");
  result.status = LookupStatus::Hit;
  result.payload.assign(payload.begin(), payload.end());
  return result;
}

Error DiskCache::store(StringRef key, ArrayRef<uint8_t> payload) const {
  if (std::error_code ec = sys::fs::create_directories(dir_))
    return createStringError(ec, "cannot create cache directory '" + dir_ +
                                     "': " + ec.message());
  std::vector<uint8_t> header(kHeaderSize, 0);
  std::memcpy(header.data(), kMagic, 8);
  support::endian::write32le(header.data() + 8, kFormatVersion);
  support::endian::write64le(header.data() + 16, payload.size());
  std::array<uint8_t, 32> sum = SHA256::hash(payload);
  std::memcpy(header.data() + 24, sum.data(), 32);
  std::memcpy(header.data() + 56, key.data(), std::min<size_t>(key.size(), 64));

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

} // namespace kcc
