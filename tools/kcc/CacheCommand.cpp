//===- CacheCommand.cpp - `kcc cache`: the JIT's disk cache ---------------===//
#include "tools/kcc/CacheCommand.h"
#include "compiler/BuildIdentity.h"
#include "runtime/CompileCache.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace llvm;

namespace kcc {

static const char *kCacheUsage =
    "USAGE: kcc cache --stats|--clear [--dir DIR]\n"
    "\n"
    "  --stats    entries and bytes of the JIT's disk cache, this compiler's\n"
    "             apart from other kcc builds' (evicted first), and the bound\n"
    "  --clear    remove every entry (other files in the folder stay)\n"
    "  --dir DIR  another cache folder (default $KCC_CACHE_DIR, else\n"
    "             $XDG_CACHE_HOME/kcc, else ~/.cache/kcc)\n"
    "\n"
    "Size bound: $KCC_CACHE_MAX_BYTES (bytes, or 512M, 2G; default 1G); least\n"
    "recently used entries go first once a compile would exceed it.\n";

static int fail(const Twine &message) {
  WithColor::error(errs(), "kcc cache") << message << "\n";
  return 1;
}

/// "1234 bytes", "5.2 MiB".
static std::string sizeText(uint64_t bytes) {
  std::string s;
  raw_string_ostream os(s);
  if (bytes < 1024)
    os << bytes << " bytes";
  else if (bytes < (uint64_t(1) << 20))
    os << format("%.1f KiB", double(bytes) / 1024);
  else if (bytes < (uint64_t(1) << 30))
    os << format("%.1f MiB", double(bytes) / (1 << 20));
  else
    os << format("%.1f GiB", double(bytes) / (1 << 30));
  return s;
}

int cacheCommand(ArrayRef<const char *> args) {
  bool stats = false, clear = false;
  std::string dir;
  for (size_t i = 0; i < args.size(); ++i) {
    StringRef a(args[i]);
    if (a == "--help" || a == "-h") {
      outs() << kCacheUsage;
      return 0;
    }
    if (a == "--stats") {
      stats = true;
    } else if (a == "--clear") {
      clear = true;
    } else if (a == "--dir") {
      if (i + 1 >= args.size())
        return fail("--dir needs a folder");
      dir = args[++i];
    } else if (a.starts_with("--dir=")) {
      dir = a.drop_front(6).str();
    } else {
      return fail("unknown argument '" + a + "'; usage: kcc cache --stats|--clear [--dir DIR]");
    }
  }
  if (!stats && !clear)
    return fail("nothing to do; usage: kcc cache --stats|--clear [--dir DIR]");
  if (dir.empty())
    dir = defaultCacheDirectory();
  DiskCache cache(dir, buildIdentity().id);

  if (clear) {
    Expected<std::pair<uint64_t, uint64_t>> removed = cache.clear();
    if (!removed)
      return fail(toString(removed.takeError()));
    outs() << "removed " << removed->first << (removed->first == 1 ? " entry (" : " entries (")
           << sizeText(removed->second)
           << ") from " << dir << "\n";
  }
  if (stats) {
    Expected<uint64_t> limit = cacheMaxBytesFromEnvironment();
    if (!limit)
      return fail(toString(limit.takeError()));
    DiskCacheSummary s = cache.summarize();
    outs() << "cache " << dir << "\n";
    outs() << "  entries          " << s.entries << " (" << sizeText(s.bytes) << ")\n";
    outs() << "  limit            " << sizeText(*limit)
           << " (least recently used evicted beyond it)\n";
    outs() << "  this compiler    " << s.currentEntries << " (" << sizeText(s.currentBytes)
           << "), identity " << StringRef(buildIdentity().id).take_front(16) << "\n";
    outs() << "  other compilers  " << s.otherEntries << " (" << sizeText(s.otherBytes)
           << ") from " << s.otherIdentities << " other build"
           << (s.otherIdentities == 1 ? "" : "s")
           << (s.otherEntries ? "; never used by this one, evicted first" : "")
           << "\n";
  }
  return 0;
}

} // namespace kcc
