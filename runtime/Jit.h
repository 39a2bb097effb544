//===- Jit.h - Compile kernels at run time, with caches --------*- C++ -*-===//
//
// The JIT specialises and compiles a kernel in-process (the whole pipeline of
// compiler/Pipeline.h, no subprocess) and keeps the code object in memory and
// on disk under a key of source, sorted parameters, chip, optimisation level
// and the compiler's build identity (compiler/BuildIdentity.h,
// runtime/CompileCache.h): another build of kcc never gets this one's code. Several threads asking for one key
// at once compile it once: the first compiles, the others wait for its result.
//
// Three environment variables, read when a key is first asked for in the
// process (Triton's, with kcc's names): KCC_DUMP_DIR=DIR writes every stage of
// each compile the JIT runs into dumpDirectory() (compiler/Pipeline.h lists
// the files); KCC_OVERRIDE_DIR=DIR takes overrideFile() (a dumped kernel.s,
// edited, or a .hsaco) as the result instead of compiling, never stored on
// disk; KCC_ALWAYS_COMPILE=1 neither reads nor writes the disk cache, so each
// kernel is compiled (and dumped) once per process.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_JIT_H
#define KCC_RUNTIME_JIT_H

#include "runtime/CompileCache.h"
#include "target/ParamBinding.h"
#include "target/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace kcc {

struct JitOptions {
  /// Empty: defaultCacheDirectory() ($KCC_CACHE_DIR or ~/.cache/kcc).
  std::string cacheDirectory;
  bool useDiskCache = true;
  bool useMemoryCache = true;
  unsigned optLevel = 3;
  /// The disk cache's size bound; none: $KCC_CACHE_MAX_BYTES, else 1 GiB.
  std::optional<uint64_t> cacheMaxBytes;
  /// The compiler named in keys and entries; empty: buildIdentity().id.
  /// Another value stands for another build of kcc (tests, and programs
  /// that patch the compiler and must not share its entries).
  std::string compilerIdentity;
};

/// Where a compile() result came from. Override: the user's file from
/// $KCC_OVERRIDE_DIR (never cached).
enum class CacheOutcome { Compiled, MemoryHit, DiskHit, Override };
llvm::StringRef cacheOutcomeName(CacheOutcome outcome);

struct CompiledKernel {
  std::shared_ptr<const std::vector<uint8_t>> codeObject;
  std::string key; // computeCacheKey()
  CacheOutcome outcome = CacheOutcome::Compiled;
  double seconds = 0; // time spent in this compile() call
};

/// Counters since construction (for tests, tools and the benchmark).
/// diskMisses counts disk lookups that served nothing: no entry, a damaged
/// one, or a stale one (written by another compiler build).
struct JitStats {
  uint64_t compiles = 0, memoryHits = 0, diskHits = 0, diskMisses = 0,
           damagedEntries = 0, staleEntries = 0, diskWriteFailures = 0,
           evictions = 0;
};

class Jit {
public:
  explicit Jit(JitOptions options = {});
  ~Jit();
  /// The process-wide JIT that op wrappers use unless given another.
  static Jit &shared();

  /// `kernelOrSource` is the name of a kernel in KernelCatalog::global()
  /// ("gemm", once kcc::registerEmbeddedKernels() ran) or tile-dialect
  /// source text. Compile errors carry the located diagnostics.
  llvm::Expected<CompiledKernel> compile(llvm::StringRef kernelOrSource,
                                         llvm::ArrayRef<std::string> params,
                                         Chip chip);
  llvm::Expected<CompiledKernel> compileSource(llvm::StringRef source,
                                               llvm::StringRef bufferName,
                                               llvm::ArrayRef<std::string> params,
                                               Chip chip);

  /// The folder of one compile under $KCC_DUMP_DIR and $KCC_OVERRIDE_DIR:
  /// the source's file stem and the first 16 hex digits of its cache key,
  /// "gemm-3f9a0c1d2e4b5a69" (tile-dialect text given as a string is
  /// "source-...").
  static std::string stageFolderName(llvm::StringRef bufferName,
                                     llvm::StringRef key);
  /// $KCC_DUMP_DIR/stageFolderName(...); "" when KCC_DUMP_DIR is not set.
  static std::string dumpDirectory(llvm::StringRef bufferName,
                                   llvm::StringRef key);
  /// $KCC_OVERRIDE_DIR/stageFolderName(...)/kernel.hsaco, else kernel.s,
  /// when one exists.
  static std::optional<std::string> overrideFile(llvm::StringRef bufferName,
                                                 llvm::StringRef key);

  /// Drops the in-memory cache (the disk cache stays).
  void clearMemoryCache();
  JitStats stats() const;
  const JitOptions &options() const { return options_; }
  llvm::StringRef cacheDirectory() const { return disk_.directory(); }
  const DiskCache &diskCache() const { return disk_; }
  /// The bound in force; an error when $KCC_CACHE_MAX_BYTES is unreadable
  /// (then every compile that uses the disk cache fails with it).
  llvm::Expected<uint64_t> cacheMaxBytes() const;

private:
  struct Result {
    std::shared_ptr<const std::vector<uint8_t>> codeObject;
    std::string error;
    CacheOutcome outcome = CacheOutcome::Compiled;
  };
  /// The override, else the disk cache's entry, else a compile (dumped
  /// when $KCC_DUMP_DIR says so).
  Result produce(llvm::StringRef source, llvm::StringRef bufferName,
                 llvm::ArrayRef<ParamBinding> params, Chip chip,
                 const std::string &key, bool alwaysCompile);

  JitOptions options_;
  std::string identity_;
  DiskCache disk_;
  uint64_t maxBytes_ = kDefaultCacheMaxBytes;
  std::string maxBytesError_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_future<Result>> entries_;
  std::atomic<uint64_t> compiles_{0}, memoryHits_{0}, diskHits_{0},
      diskMisses_{0}, damaged_{0}, stale_{0}, writeFailures_{0}, evictions_{0};
};

} // namespace kcc

#endif // KCC_RUNTIME_JIT_H
