//===- Jit.cpp - Compile kernels at run time, with caches -----------------===//
#include "runtime/Jit.h"
#include "compiler/BuildIdentity.h"
#include "compiler/Pipeline.h"
#include "runtime/KernelCatalog.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;

namespace kcc {

StringRef cacheOutcomeName(CacheOutcome outcome) {
  switch (outcome) {
  case CacheOutcome::Compiled: return "compiled";
  case CacheOutcome::MemoryHit: return "memory cache hit";
  case CacheOutcome::DiskHit: return "disk cache hit";
  case CacheOutcome::Override: return "override";
  }
  return "?";
}

Jit::Jit(JitOptions options)
    : options_(std::move(options)),
      identity_(options_.compilerIdentity.empty() ? buildIdentity().id
                                                  : options_.compilerIdentity),
      disk_(options_.cacheDirectory.empty() ? defaultCacheDirectory()
                                            : options_.cacheDirectory,
            identity_) {
  if (options_.cacheMaxBytes) {
    maxBytes_ = *options_.cacheMaxBytes;
  } else if (Expected<uint64_t> env = cacheMaxBytesFromEnvironment()) {
    maxBytes_ = *env;
  } else {
    maxBytesError_ = toString(env.takeError());
  }
}

Expected<uint64_t> Jit::cacheMaxBytes() const {
  if (!maxBytesError_.empty())
    return createStringError(inconvertibleErrorCode(), maxBytesError_);
  return maxBytes_;
}

Jit::~Jit() = default;

Jit &Jit::shared() {
  // Never destroyed: op wrappers may run from static destructors of users.
  static Jit *jit = new Jit();
  return *jit;
}

Expected<CompiledKernel> Jit::compile(StringRef kernelOrSource,
                                      ArrayRef<std::string> params, Chip chip) {
  if (std::optional<NamedKernelSource> k =
          KernelCatalog::global().find(kernelOrSource))
    return compileSource(k->source, k->path, params, chip);
  // Kernel names have no white space; source text always has some.
  if (kernelOrSource.find_first_of(" \t\n") == StringRef::npos)
    return createStringError(inconvertibleErrorCode(),
                             "no kernel named '" + kernelOrSource +
                                 "'; kcc has: " +
                                 KernelCatalog::global().nameList());
  return compileSource(kernelOrSource, "<source>", params, chip);
}

namespace {
/// $name, when set and not empty.
std::optional<std::string> environmentPath(const char *name) {
  const char *v = std::getenv(name);
  if (!v || !*v)
    return std::nullopt;
  return std::string(v);
}

/// A yes/no environment variable: unset or empty is no; a value kcc does not
/// understand is an error naming it, never a silent guess.
Expected<bool> environmentFlag(const char *name, StringRef meaning) {
  const char *v = std::getenv(name);
  if (!v || !*v)
    return false;
  StringRef value(v);
  for (StringRef yes : {"1", "true", "yes", "on"})
    if (value.equals_insensitive(yes))
      return true;
  for (StringRef no : {"0", "false", "no", "off"})
    if (value.equals_insensitive(no))
      return false;
  return createStringError(inconvertibleErrorCode(), Twine(name) + "='" + value +
                                                         "' is not understood; use 1 (" +
                                                         meaning + ") or 0");
}
} // namespace

std::string Jit::stageFolderName(StringRef bufferName, StringRef key) {
  std::string stem;
  for (char c : sys::path::stem(bufferName))
    if (isAlnum(c) || c == '_' || c == '-' || c == '.')
      stem += c;
  return (stem.empty() ? std::string("source") : stem) + "-" +
         key.substr(0, 16).str();
}

std::string Jit::dumpDirectory(StringRef bufferName, StringRef key) {
  std::optional<std::string> dir = environmentPath("KCC_DUMP_DIR");
  if (!dir)
    return "";
  SmallString<256> path(*dir);
  sys::path::append(path, stageFolderName(bufferName, key));
  return std::string(path);
}

std::optional<std::string> Jit::overrideFile(StringRef bufferName,
                                             StringRef key) {
  std::optional<std::string> dir = environmentPath("KCC_OVERRIDE_DIR");
  if (!dir)
    return std::nullopt;
  for (const char *name : {"kernel.hsaco", "kernel.s"}) {
    SmallString<256> path(*dir);
    sys::path::append(path, stageFolderName(bufferName, key), name);
    if (sys::fs::exists(path))
      return std::string(path);
  }
  return std::nullopt;
}

Jit::Result Jit::produce(StringRef source, StringRef bufferName,
                         ArrayRef<ParamBinding> params, Chip chip,
                         const std::string &key, bool alwaysCompile) {
  Result r;
  // A user's hand-edited result for this compile replaces it. It never goes
  // to the disk cache: without the file, the next process compiles again.
  if (std::optional<std::string> file = overrideFile(bufferName, key)) {
    CompileOptions co;
    co.chip = chip;
    co.overrideFile = *file;
    std::string unused; // the override's errors come whole in the Error
    raw_string_ostream diag(unused);
    Expected<std::vector<uint8_t>> bytes =
        compileKernelSource(source, bufferName, co, Stage::Hsaco, diag);
    if (bytes)
      r.codeObject = std::make_shared<std::vector<uint8_t>>(std::move(*bytes));
    else
      r.error = "KCC_OVERRIDE_DIR: " + toString(bytes.takeError());
    r.outcome = CacheOutcome::Override;
    return r;
  }
  // KCC_ALWAYS_COMPILE: past the disk cache, both ways. The memory cache
  // stays: the calls of one process share its one compile (and dump).
  bool useDisk = options_.useDiskCache && !alwaysCompile;
  if (useDisk) {
    DiskCache::Lookup hit = disk_.lookup(key);
    if (hit.status == DiskCache::LookupStatus::Hit) {
      ++diskHits_;
      r.outcome = CacheOutcome::DiskHit;
      r.codeObject = std::make_shared<std::vector<uint8_t>>(std::move(hit.payload));
      return r;
    }
    // A damaged entry, or one another compiler build wrote, is never
    // trusted: compile again and overwrite it.
    ++diskMisses_;
    if (hit.status == DiskCache::LookupStatus::Damaged)
      ++damaged_;
    if (hit.status == DiskCache::LookupStatus::Stale)
      ++stale_;
  }
  CompileOptions co;
  co.chip = chip;
  co.params.assign(params.begin(), params.end());
  co.optLevel = options_.optLevel;
  // A dump is of a compile: a kernel the caches hold is not dumped again.
  co.dumpDirectory = dumpDirectory(bufferName, key);
  std::string diagnostics;
  raw_string_ostream diag(diagnostics);
  ++compiles_;
  Expected<std::vector<uint8_t>> bytes =
      compileKernelSource(source, bufferName, co, Stage::Hsaco, diag);
  if (!bytes) {
    r.error = toString(bytes.takeError());
    if (!diagnostics.empty())
      r.error += "\n" + StringRef(diagnostics).rtrim().str();
    return r;
  }
  r.codeObject = std::make_shared<std::vector<uint8_t>>(std::move(*bytes));
  if (useDisk) {
    // The cache is an optimisation: a read-only or full disk must not fail
    // the compile. The counter lets tests and tools notice.
    if (Error e = disk_.store(key, *r.codeObject)) {
      // Said once per JIT, not per kernel: every later store would fail
      // the same way.
      if (writeFailures_++ == 0)
        WithColor::warning(errs(), "kcc")
            << "cannot write the compile cache: " << toString(std::move(e))
            << "; compiling without it (set KCC_CACHE_DIR to a writable "
               "folder)\n";
      else
        consumeError(std::move(e));
    } else {
      evictions_ += disk_.evict(maxBytes_, key);
    }
  }
  return r;
}

Expected<CompiledKernel> Jit::compileSource(StringRef source,
                                            StringRef bufferName,
                                            ArrayRef<std::string> params,
                                            Chip chip) {
  auto start = std::chrono::steady_clock::now();
  // NAME=VALUE is read here, once; the compiler gets typed bindings and the
  // key their canonical spelling ("0x10" and "16" share an entry).
  Expected<std::vector<ParamBinding>> bindings = parseParamBindings(params);
  if (!bindings)
    return bindings.takeError();
  // Read here, so that a value kcc does not understand fails the call.
  Expected<bool> alwaysCompile =
      environmentFlag("KCC_ALWAYS_COMPILE", "compile past the disk cache");
  if (!alwaysCompile)
    return alwaysCompile.takeError();
  CacheKeyInputs in;
  in.source = source;
  in.params = paramBindingTexts(*bindings);
  in.chip = chip;
  in.optLevel = options_.optLevel;
  in.compilerIdentity = identity_;
  std::string key = computeCacheKey(in);
  // A size bound nobody can read is not silently replaced by the default.
  if (options_.useDiskCache && !maxBytesError_.empty())
    return createStringError(inconvertibleErrorCode(), maxBytesError_);

  std::shared_future<Result> future;
  bool owner = false;
  std::promise<Result> promise;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it != entries_.end()) {
      future = it->second;
    } else {
      owner = true;
      future = promise.get_future().share();
      entries_.emplace(key, future);
    }
  }
  Result r;
  if (owner) {
    r = produce(source, bufferName, *bindings, chip, key, *alwaysCompile);
    promise.set_value(r);
    // Failures and a disabled memory cache leave no entry behind: the next
    // call tries again (only calls already waiting share this result).
    if (!r.codeObject || !options_.useMemoryCache) {
      std::lock_guard<std::mutex> lock(mutex_);
      entries_.erase(key);
    }
  } else {
    r = future.get();
    if (r.codeObject) {
      ++memoryHits_;
      r.outcome = CacheOutcome::MemoryHit;
    }
  }
  if (!r.codeObject)
    return createStringError(inconvertibleErrorCode(), r.error);
  CompiledKernel out;
  out.codeObject = r.codeObject;
  out.key = key;
  out.outcome = r.outcome;
  out.seconds = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - start).count();
  return out;
}

void Jit::clearMemoryCache() {
  std::lock_guard<std::mutex> lock(mutex_);
  // Entries still being compiled stay, so that their waiters are served.
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (it->second.wait_for(std::chrono::seconds(0)) == std::future_status::ready)
      it = entries_.erase(it);
    else
      ++it;
  }
}

JitStats Jit::stats() const {
  JitStats s;
  s.compiles = compiles_;
  s.memoryHits = memoryHits_;
  s.diskHits = diskHits_;
  s.diskMisses = diskMisses_;
  s.damagedEntries = damaged_;
  s.staleEntries = stale_;
  s.evictions = evictions_;
  s.diskWriteFailures = writeFailures_;
  return s;
}

} // namespace kcc
