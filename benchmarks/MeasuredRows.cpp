//===- MeasuredRows.cpp - AMD's hardware measurements, row by row ---------===//
#include "benchmarks/MeasuredRows.h"
#include "target/Target.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

using namespace llvm;

namespace kcc::bench {

uint64_t fnv1a(StringRef text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : text) {
    h ^= uint8_t(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string MeasuredRow::key() const {
  std::string shape =
      isAttention
          ? formatv("B={0},H={1},Hkv={2},S={3},D={4},causal={5}", attention.batch,
                    attention.heads, attention.kvHeads, attention.seq, attention.headDim,
                    int(attention.causal))
                .str()
          : formatv("{0},M={1},N={2},K={3},out={4},splitK={5}", kernel, gemm.m, gemm.n, gemm.k,
                    gemm.outBf16 ? "bf16" : "f32", splitK)
                .str();
  return formatv("{0}|{1}|{2}|{3}", family, getChipInfo(chip).name, computeUnits, shape).str();
}

emu::timing::Measurement measurementOfFamily(StringRef family) {
  return family == "fmha-fwd" ? emu::timing::Measurement::EventsWarmCaches
                              : emu::timing::Measurement::ProfilerColdCaches;
}

bool isFittingKey(StringRef key) { return fnv1a(key) % 4 == 0; }

namespace {

/// The lines of a file, or none.
std::vector<std::string> readLines(const std::string &path) {
  std::vector<std::string> out;
  auto buf = MemoryBuffer::getFile(path);
  if (!buf)
    return out;
  SmallVector<StringRef> lines;
  (*buf)->getBuffer().split(lines, '\n', -1, true);
  for (StringRef l : lines)
    out.push_back(l.rtrim("\r").str());
  return out;
}

/// The .csv files of a folder, sorted (a stable order: the first of two
/// repeated rows is the one kept).
std::vector<std::string> csvFiles(const std::string &dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    if (StringRef(it->path()).ends_with(".csv"))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

/// `_ZN5aiter<len><name>E` -> name, or empty.
std::string demangledName(StringRef symbol) {
  if (!symbol.consume_front("_ZN5aiter") || !symbol.consume_back("E"))
    return {};
  size_t digits = 0;
  while (digits < symbol.size() && isDigit(symbol[digits]))
    ++digits;
  unsigned len = 0;
  if (!digits || symbol.take_front(digits).getAsInteger(10, len) ||
      symbol.size() - digits != len)
    return {};
  return symbol.drop_front(digits).str();
}

/// The index of the column named `name` in a CSV header, or -1: the
/// tables are read by their columns' names, not their order.
int columnOf(ArrayRef<StringRef> head, StringRef name) {
  for (size_t i = 0; i < head.size(); ++i)
    if (head[i].trim() == name)
      return int(i);
  return -1;
}

struct TileInfo {
  unsigned tileM = 0, tileN = 0;
};

/// A registry CSV beside the code objects (hsa/<gfx>/<folder>/<file>):
/// kernel symbol -> tile, by the columns `name`, `tileM`, `tileN`.
std::map<std::string, TileInfo> registryTiles(const std::string &path, StringRef name,
                                              StringRef tileM, StringRef tileN) {
  std::map<std::string, TileInfo> tiles;
  std::vector<std::string> lines = readLines(path);
  if (lines.empty())
    return tiles;
  SmallVector<StringRef> head;
  StringRef(lines[0]).split(head, ',');
  auto col = [&](StringRef c) { return columnOf(head, c); };
  int cName = col(name), cM = col(tileM), cN = col(tileN);
  if (cName < 0 || cM < 0 || cN < 0)
    return tiles;
  for (size_t i = 1; i < lines.size(); ++i) {
    SmallVector<StringRef> f;
    StringRef(lines[i]).split(f, ',');
    if (f.size() != head.size())
      continue;
    TileInfo t;
    if (f[cM].trim().getAsInteger(10, t.tileM) || f[cN].trim().getAsInteger(10, t.tileN))
      continue;
    tiles[f[cName].trim().str()] = t;
  }
  return tiles;
}

/// The kinds of tuned table the harness launches rows of.
enum class TableKind { none, bf16, fp8BlockScale };

TableKind tableKindOf(StringRef file) {
  if (file.contains("bf16_tuned_gemm") && !file.contains("batched"))
    return TableKind::bf16;
  // aiter/configs/a8w8_blockscale_bpreshuffle_tuned_gemm.csv and its model
  // variants (model_configs/*a8w8_blockscale_bpreshuffle*tuned*.csv).
  if (file.contains("a8w8_blockscale_bpreshuffle") && file.contains("tuned_gemm"))
    return TableKind::fp8BlockScale;
  return TableKind::none;
}

/// The registry of a table kind's code objects on `gfx`: hsa/<gfx>/bf16gemm/
/// bf16gemm_fp32bf16.csv (knl_name, tileM, tileN) or hsa/<gfx>/
/// fp8gemm_blockscale/fp8gemm_bf16_blockscale.csv (knl_name, tile_m,
/// tile_n).
std::map<std::string, TileInfo> gemmRegistry(const std::string &aiter, StringRef gfx,
                                             TableKind kind) {
  if (kind == TableKind::fp8BlockScale)
    return registryTiles(aiter + "/hsa/" + gfx.str() +
                             "/fp8gemm_blockscale/fp8gemm_bf16_blockscale.csv",
                         "knl_name", "tile_m", "tile_n");
  return registryTiles(aiter + "/hsa/" + gfx.str() + "/bf16gemm/bf16gemm_fp32bf16.csv",
                       "knl_name", "tileM", "tileN");
}

/// The GEMM families the harness launches, by demangled name.
std::string gemmFamily(StringRef name, TableKind kind) {
  if (kind == TableKind::fp8BlockScale)
    return name.starts_with("fp8gemm_bf16_blockscale_BpreShuffle_") ? "fp8gemm-blockscale"
                                                                    : "";
  if (name == "bf16gemm_bf16_tn_256x256")
    return "bf16gemm-256x256";
  if (name.starts_with("bf16gemm_fp32bf16_tn_") && name.contains("splitk") &&
      !name.contains("bshuffle"))
    return "bf16gemm-splitk";
  return {};
}

/// The folder of a table kind's code objects under hsa/<gfx>/.
const char *codeObjectFolder(TableKind kind) {
  return kind == TableKind::fp8BlockScale ? "fp8gemm_blockscale" : "bf16gemm";
}

void readGemmTables(const std::string &aiter, MeasuredTables &out) {
  std::map<std::pair<std::string, TableKind>, std::map<std::string, TileInfo>> registry;
  std::set<std::string> seen;
  std::vector<std::string> files = csvFiles(aiter + "/aiter/configs");
  for (const std::string &f : csvFiles(aiter + "/aiter/configs/model_configs"))
    files.push_back(f);
  for (const std::string &path : files) {
    StringRef file = sys::path::filename(path);
    if (!file.contains("tuned") || file.contains("untuned"))
      continue;
    std::vector<std::string> lines = readLines(path);
    if (lines.empty())
      continue;
    SmallVector<StringRef> head;
    StringRef(lines[0]).split(head, ',');
    auto col = [&](StringRef name) { return columnOf(head, name); };
    int cGfx = col("gfx"), cCu = col("cu_num"), cM = col("M"), cN = col("N"), cK = col("K"),
        cOut = col("outdtype"), cUs = col("us"), cName = col("kernelName"),
        cLib = col("libtype"), cSplit = col("splitK"), cErr = col("err_ratio"),
        cName1 = col("kernelName1");
    // The FP8 block-scale tables name their error column errRatio.
    if (cErr < 0)
      cErr = col("errRatio");
    TableKind kind = tableKindOf(file);
    // A time that three or more rows of one table share, to the last digit
    // of its four or more, is a placeholder written for shapes not
    // measured, not a measurement.
    std::map<std::string, unsigned> timesSeen;
    if (cUs >= 0)
      for (size_t li = 1; li < lines.size(); ++li) {
        SmallVector<StringRef> f;
        StringRef(lines[li]).split(f, ',');
        if (f.size() == head.size())
          ++timesSeen[f[cUs].trim().str()];
      }
    for (size_t li = 1; li < lines.size(); ++li) {
      SmallVector<StringRef> f;
      StringRef(lines[li]).split(f, ',');
      if (f.size() != head.size() || f.size() < 2)
        continue;
      // aiter's own kernels in tables the harness does not launch yet:
      // counted per table, so that the report lists them.
      StringRef symbol = cName >= 0 ? f[cName].trim() : cName1 >= 0 ? f[cName1].trim() : "";
      bool asmRow = (cLib >= 0 && f[cLib].trim() == "asm") || symbol.starts_with("_ZN5aiter");
      if (kind == TableKind::none) {
        if (asmRow)
          ++out.notLaunched[sys::path::stem(file).str()];
        continue;
      }
      if (cLib < 0 || f[cLib].trim() != "asm" || cGfx < 0 || cCu < 0 || cM < 0 || cN < 0 ||
          cK < 0 || cUs < 0 || cName < 0)
        continue;
      std::string name = demangledName(symbol);
      std::string family = gemmFamily(name, kind);
      if (family.empty()) {
        ++out.notLaunched[(kind == TableKind::fp8BlockScale ? "FP8 block-scale GEMM "
                                                            : "bf16 GEMM ") +
                          (name.empty() ? symbol.str() : name)];
        continue;
      }
      MeasuredRow r;
      r.family = family;
      StringRef gfx = f[cGfx].trim();
      if (gfx == "gfx942")
        r.chip = Chip::gfx942;
      else if (gfx == "gfx950")
        r.chip = Chip::gfx950;
      else {
        ++out.dropped["a chip kcc does not target (" + gfx.str() + ")"];
        continue;
      }
      if (f[cCu].trim().getAsInteger(10, r.computeUnits) ||
          f[cM].trim().getAsInteger(10, r.gemm.m) || f[cN].trim().getAsInteger(10, r.gemm.n) ||
          f[cK].trim().getAsInteger(10, r.gemm.k) || f[cUs].trim().getAsDouble(r.measuredUs)) {
        ++out.dropped["a field that is not a number"];
        continue;
      }
      if (r.measuredUs <= 0) {
        ++out.dropped["no time measured (us <= 0)"];
        continue;
      }
      if (timesSeen[f[cUs].trim().str()] >= 3) {
        ++out.dropped["a placeholder time (shared by 3 or more rows of its table)"];
        continue;
      }
      double err = 0;
      if (cErr >= 0 && !f[cErr].trim().getAsDouble(err) && err > 0.05) {
        ++out.dropped["aiter's own error check above 5%"];
        continue;
      }
      // splitK counts the shares of K (aiter's launchers: 0 stands for 1).
      if (cSplit >= 0 && f[cSplit].trim().getAsInteger(10, r.splitK))
        r.splitK = 1;
      r.splitK = std::max(1u, r.splitK);
      // The FP8 block-scale kernels write bf16 (the tables have no
      // outdtype column: the launcher refuses any other).
      r.gemm.outBf16 =
          kind == TableKind::fp8BlockScale || (cOut >= 0 && f[cOut].contains("bfloat16"));
      r.fp8 = kind == TableKind::fp8BlockScale;
      r.kernel = symbol.str();
      r.codeObject = "hsa/" + gfx.str() + "/" + codeObjectFolder(kind) + "/" + name + ".co";
      auto &tiles = registry[{gfx.str(), kind}];
      if (tiles.empty())
        tiles = gemmRegistry(aiter, gfx, kind);
      auto tile = tiles.find(r.kernel);
      if (tile == tiles.end()) {
        ++out.dropped["a kernel missing from its registry CSV"];
        continue;
      }
      r.tileM = tile->second.tileM;
      r.tileN = tile->second.tileN;
      r.flops = 2.0 * double(r.gemm.m) * double(r.gemm.n) * double(r.gemm.k);
      r.source = formatv("aiter/configs/{0}{1}:{2}",
                         StringRef(path).contains("model_configs") ? "model_configs/" : "", file,
                         li + 1)
                     .str();
      if (!seen.insert(r.key()).second) {
        ++out.dropped["a repeat of a row already read"];
        continue;
      }
      out.rows.push_back(std::move(r));
    }
  }
}

/// op_tests/cpp/mha/README.md's table: | batch | q_nheads | kv_nheads |
/// seqlen_q | seqlen_kv | hdim | causal | FWD MI300X | FWD MI355X | BWD-a16
/// MI300X | MI355X | BWD-a32 MI300X | MI355X |, TFLOPS.
void readFmhaTable(const std::string &aiter, MeasuredTables &out) {
  const std::string rel = "op_tests/cpp/mha/README.md";
  std::vector<std::string> lines = readLines(aiter + "/" + rel);
  std::set<std::string> seen;
  for (size_t li = 0; li < lines.size(); ++li) {
    SmallVector<StringRef> f;
    StringRef(lines[li]).trim().split(f, '|');
    // "| a | b | ... |" splits into an empty first and last field.
    if (f.size() != 15)
      continue;
    uint64_t b, h, hkv, sq, sk, d;
    unsigned causal;
    if (f[1].trim().getAsInteger(10, b) || f[2].trim().getAsInteger(10, h) ||
        f[3].trim().getAsInteger(10, hkv) || f[4].trim().getAsInteger(10, sq) ||
        f[5].trim().getAsInteger(10, sk) || f[6].trim().getAsInteger(10, d) ||
        f[7].trim().getAsInteger(10, causal))
      continue;
    for (int which = 0; which < 6; ++which) {
      double tflops = 0;
      if (f[8 + which].trim().getAsDouble(tflops) || tflops <= 0)
        continue;
      bool mi355 = which % 2 == 1;
      if (which >= 2) {
        ++out.notLaunched[which < 4 ? "fmha_v3 backward, a16 (op_tests/cpp/mha/README.md)"
                                    : "fmha_v3 backward, a32 (op_tests/cpp/mha/README.md)"];
        continue;
      }
      if (sq != sk || d != 128) {
        ++out.dropped["an attention shape the harness does not launch (S_q != S_kv or D != 128)"];
        continue;
      }
      MeasuredRow r;
      r.family = "fmha-fwd";
      r.isAttention = true;
      r.chip = mi355 ? Chip::gfx950 : Chip::gfx942;
      r.computeUnits = unsigned(getChipInfo(r.chip).computeUnits); // the flagship parts
      r.attention.batch = b;
      r.attention.heads = h;
      r.attention.kvHeads = hkv;
      r.attention.seq = sq;
      r.attention.headDim = d;
      r.attention.causal = causal != 0;
      // The benchmark's default rounding on MI300X (-v3_bf16_cvt=1).
      r.attention.aiterGfx942Rounding = "rtna";
      r.kernel = "fmha_v3_fwd hd128 bf16";
      // The benchmark's FLOPs (op_tests/cpp/mha/benchmark_mha_fwd.cpp):
      // 4 B H S_q S_kv D, halved when masked; its TFLOPS are these over the
      // measured time, which is what is compared.
      r.flops = 4.0 * double(b * h) * double(sq) * double(sk) * double(d) / (causal ? 2 : 1);
      r.measuredUs = r.flops / (tflops * 1e12) * 1e6;
      r.source = formatv("{0}:{1}", rel, li + 1).str();
      if (!seen.insert(r.key()).second) {
        ++out.dropped["a repeat of a row already read"];
        continue;
      }
      out.rows.push_back(std::move(r));
    }
  }
}

} // namespace

MeasuredTables readMeasuredTables(const std::string &aiter) {
  MeasuredTables t;
  readGemmTables(aiter, t);
  readFmhaTable(aiter, t);
  return t;
}

} // namespace kcc::bench
