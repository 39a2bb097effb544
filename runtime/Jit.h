//===- Jit.h - Compile kernels at run time, with caches --------*- C++ -*-===//
//
// The JIT specialises and compiles a kernel in-process (the whole pipeline of
// compiler/Pipeline.h, no subprocess) and keeps the code object in memory and
// on disk under a key of source, sorted parameters, chip, optimisation level
// and kcc version (runtime/CompileCache.h). Several threads asking for one key
// at once compile it once: the first compiles, the others wait for its result.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_JIT_H
#define KCC_RUNTIME_JIT_H

#include "target/Target.h"
#include "runtime/CompileCache.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kcc {

struct JitOptions {
  /// Empty: defaultCacheDirectory() ($KCC_CACHE_DIR or ~/.cache/kcc).
  std::string cacheDirectory;
  bool useDiskCache = true;
  bool useMemoryCache = true;
  unsigned optLevel = 3;
};

/// Where a compile() result came from.
enum class CacheOutcome { Compiled, MemoryHit, DiskHit };
llvm::StringRef cacheOutcomeName(CacheOutcome outcome);

struct CompiledKernel {
  std::shared_ptr<const std::vector<uint8_t>> codeObject;
  std::string key; // computeCacheKey()
  CacheOutcome outcome = CacheOutcome::Compiled;
  double seconds = 0; // time spent in this compile() call
};

/// Counters since construction (for tests and the benchmark).
struct JitStats {
  uint64_t compiles = 0, memoryHits = 0, diskHits = 0, damagedEntries = 0,
           diskWriteFailures = 0;
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

  /// Drops the in-memory cache (the disk cache stays).
  void clearMemoryCache();
  JitStats stats() const;
  const JitOptions &options() const { return options_; }
  llvm::StringRef cacheDirectory() const { return disk_.directory(); }

private:
  struct Result {
    std::shared_ptr<const std::vector<uint8_t>> codeObject;
    std::string error;
    CacheOutcome outcome = CacheOutcome::Compiled;
  };
  Result produce(llvm::StringRef source, llvm::StringRef bufferName,
                 llvm::ArrayRef<std::string> params, Chip chip,
                 const std::string &key);

  JitOptions options_;
  DiskCache disk_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_future<Result>> entries_;
  std::atomic<uint64_t> compiles_{0}, memoryHits_{0}, diskHits_{0},
      damaged_{0}, writeFailures_{0};
};

} // namespace kcc

#endif // KCC_RUNTIME_JIT_H
