//===- kcc.cpp - The kcc ahead-of-time compiler and runner ----------------===//
//
//   kcc FILE.mlir --mcpu=gfx942|gfx950 [-D NAME=VALUE]... [--emit=STAGE] [-o OUT] [--stats]
//   kcc run CODE_OBJECT --kernel NAME --device emu:gfx950 ...   (see kcc run --help)
//   kcc cache --stats|--clear                                  (the JIT's disk cache)
//
// Every failure is one line on stderr (plus MLIR's located diagnostics for
// kernel source errors) and a non-zero exit; nothing reaches an abort.
//
//===----------------------------------------------------------------------===//
#include "compiler/BuildIdentity.h"
#include "compiler/Launcher.h"
#include "compiler/Pipeline.h"
#include "compiler/Stats.h"
#include "runtime/CompileCache.h"
#include "runtime/Jit.h"
#include "target/Target.h"

#ifdef KCC_HAVE_RUN_COMMAND
#include "tools/kcc/CacheCommand.h"
#include "tools/kcc/RunCommand.h"
#endif

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static int fail(const Twine &message) {
  WithColor::error(errs(), "kcc") << message << "\n";
  return 1;
}

static const char *kUsage =
    "OVERVIEW: kcc compiles tile-dialect kernels to gfx942/gfx950 code objects\n"
    "\n"
    "USAGE: kcc FILE.mlir --mcpu=CHIP [options]\n"
    "       kcc run CODE_OBJECT --kernel NAME --device emu:CHIP ...   (kcc run --help)\n"
    "       kcc cache --stats|--clear [--dir DIR]   the JIT's disk cache (kcc cache --help)\n"
    "\n"
    "OPTIONS:\n"
    "  --mcpu=CHIP       target chip: gfx942 (MI300X) or gfx950 (MI355X); required\n"
    "  -D NAME=VALUE     bind a kernel parameter (repeatable; also -DNAME=VALUE)\n"
    "  --emit=STAGE      stop after STAGE: tile (tile passes), rocdl (LLVM+ROCDL\n"
    "                    dialect), llvm (optimised LLVM IR), asm, obj, hsaco (default);\n"
    "                    or launcher: with -o DIR/NAME, writes NAME.h and NAME.c, the\n"
    "                    code object embedded and a typed C function per kernel\n"
    "                    (NAME_KERNEL_launch) on kcc_c.h; link with -lkcc_c\n"
    "  -o FILE           output file ('-' for stdout; default a.STAGE for binary\n"
    "                    stages, stdout for text)\n"
    "  --stats[=json]    print per kernel: VGPRs, AGPRs, SGPRs, spills, scratch, LDS,\n"
    "                    occupancy and instruction counts by class\n"
    "  -O0 .. -O3        LLVM optimisation level (default -O3)\n"
    "  --save-temps      also write every stage beside the output, as clang does:\n"
    "                    OUT.input.mlir, OUT.tile-passes/ (after each pass),\n"
    "                    OUT.tile.mlir, OUT.rocdl.mlir, OUT.kernel.ll, .s, .o, .hsaco,\n"
    "                    OUT.stats.json (OUT: the output's name without extension)\n"
    "\n"
    "ENVIRONMENT (as for the JIT; the folder is NAME-KEY, the input's stem and the\n"
    "compile cache key's first 16 hex digits):\n"
    "  KCC_DUMP_DIR=DIR      write every stage into DIR/NAME-KEY/\n"
    "  KCC_OVERRIDE_DIR=DIR  use DIR/NAME-KEY/kernel.hsaco or kernel.s (assembled\n"
    "                        and linked) as the code object instead of compiling\n"
    "  --help            this text\n"
    "  --version         this build's identity: version, git revision, source hash,\n"
    "                    LLVM (what the compile cache keys on); MLIR and the chips\n";

/// kcc's options, parsed by hand: llvm::cl is shared with the LLVM backend
/// and lld linked into this binary, which register `-mcpu`, `-stats` and
/// others of their own (two options of one name abort at start-up).
struct Options {
  std::string input, mcpu, emit = "hsaco", output, statsFormat;
  std::vector<std::string> defines;
  bool stats = false, saveTemps = false;
  unsigned optLevel = 3;
};

/// Returns the exit code to end with, or std::nullopt to go on compiling.
static std::optional<int> parseArgs(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    StringRef a(argv[i]);
    // The value of `--name=value` or `--name value` / `-name value`.
    auto valueOf = [&](StringRef name, std::string &out) -> std::optional<bool> {
      for (StringRef prefix : {"--", "-"}) {
        std::string flag = (prefix + name).str();
        if (a == flag) {
          if (i + 1 >= argc)
            return false;
          out = argv[++i];
          return true;
        }
        if (a.starts_with(flag + "=")) {
          out = a.drop_front(flag.size() + 1).str();
          return true;
        }
      }
      return std::nullopt;
    };
    std::optional<bool> got;
    std::string v;
    if (a == "--help" || a == "-help" || a == "-h") {
      outs() << kUsage;
      return 0;
    }
    if (a == "--version" || a == "-version") {
      const kcc::BuildIdentity &b = kcc::buildIdentity();
      outs() << kcc::kccVersion() << "\n";
      if (b.gitRevision.empty())
        outs() << "  git revision  none (not built from a git checkout)\n";
      else
        outs() << "  git revision  " << b.gitRevision
               << (b.gitDirty ? " (with uncommitted changes)" : "") << "\n";
      outs() << "  sources       " << b.sourceHash
             << " (target, dialects, passes, compiler, kernels, cmake)\n";
      outs() << "  LLVM          " << b.llvmVersion;
      if (b.llvmBuildVersion != b.llvmVersion)
        outs() << " (built against " << b.llvmBuildVersion << ")";
      outs() << "\n";
      // MLIR has no version of its own: it is the release kcc was built
      // with (linked statically, unlike libLLVM).
      outs() << "  MLIR          " << b.llvmBuildVersion << "\n";
      outs() << "  chips         ";
      for (kcc::Chip chip : {kcc::Chip::gfx942, kcc::Chip::gfx950}) {
        const kcc::ChipInfo &info = kcc::getChipInfo(chip);
        outs() << (chip == kcc::Chip::gfx942 ? "" : ", ") << info.name << " ("
               << info.marketing << ")";
      }
      outs() << "\n";
      outs() << "  identity      " << b.id << " (the compile cache's name for this build)\n";
      return 0;
    }
    if (a == "--stats" || a == "-stats") {
      o.stats = true;
      continue;
    }
    if (a.starts_with("--stats=") || a.starts_with("-stats=")) {
      o.stats = true;
      o.statsFormat = a.split('=').second.str();
      continue;
    }
    if ((got = valueOf("mcpu", v))) {
      if (!*got)
        return fail("--mcpu needs a chip (gfx942 or gfx950)");
      o.mcpu = v;
      continue;
    }
    if ((got = valueOf("emit", v))) {
      if (!*got)
        return fail("--emit needs a stage (" + kcc::stageList() + ")");
      o.emit = v;
      continue;
    }
    if (a == "-o") {
      if (i + 1 >= argc)
        return fail("-o needs a file name");
      o.output = argv[++i];
      continue;
    }
    if (a == "-D") {
      if (i + 1 >= argc)
        return fail("-D needs NAME=VALUE");
      o.defines.push_back(argv[++i]);
      continue;
    }
    if (a.starts_with("-D")) {
      o.defines.push_back(a.drop_front(2).str());
      continue;
    }
    if (a == "--save-temps" || a == "-save-temps") {
      o.saveTemps = true;
      continue;
    }
    if (a.size() == 3 && a.starts_with("-O") && a[2] >= '0' && a[2] <= '3') {
      o.optLevel = a[2] - '0';
      continue;
    }
    if (a.starts_with("-") && a != "-")
      return fail("unknown option '" + a + "'; see kcc --help");
    if (!o.input.empty())
      return fail("more than one input file ('" + o.input + "' and '" + a +
                  "'); kcc compiles one kernel file at a time");
    o.input = a.str();
  }
  return std::nullopt;
}

static int compileMain(int argc, char **argv) {
  Options o;
  if (std::optional<int> done = parseArgs(argc, argv, o))
    return *done;
  if (o.input.empty())
    return fail("no input file; usage: kcc FILE.mlir --mcpu=gfx942|gfx950 (see kcc --help)");
  if (o.mcpu.empty())
    return fail("no target chip; pass --mcpu=gfx942 or --mcpu=gfx950");
  std::optional<kcc::Chip> chip = kcc::parseChip(o.mcpu);
  if (!chip)
    return fail("unsupported chip '" + o.mcpu + "'; supported: " + kcc::supportedChipList());
  // --emit=launcher compiles the code object, then writes C around it.
  bool launcher = o.emit == "launcher";
  std::optional<kcc::Stage> stage =
      launcher ? std::optional<kcc::Stage>(kcc::Stage::Hsaco) : kcc::parseStage(o.emit);
  if (!stage)
    return fail("unknown --emit stage '" + o.emit + "'; expected one of: " +
                kcc::stageList() + ", launcher");
  if (launcher && (o.output.empty() || o.output == "-"))
    return fail("--emit=launcher writes NAME.h and NAME.c: give -o DIR/NAME");
  if (o.stats && !o.statsFormat.empty() && o.statsFormat != "json")
    return fail("unknown --stats format '" + o.statsFormat + "'; use --stats or --stats=json");
  if (o.stats && *stage != kcc::Stage::Hsaco)
    return fail("--stats needs the code object; drop --emit or use --emit=hsaco");

  ErrorOr<std::unique_ptr<MemoryBuffer>> input = MemoryBuffer::getFileOrSTDIN(o.input);
  if (!input)
    return fail("cannot read '" + o.input + "': " + input.getError().message());

  Expected<std::vector<kcc::ParamBinding>> params = kcc::parseParamBindings(o.defines);
  if (!params)
    return fail(toString(params.takeError()));

  kcc::CompileOptions options;
  options.chip = *chip;
  options.params = *params;
  options.optLevel = o.optLevel;
  // The folder KCC_DUMP_DIR and KCC_OVERRIDE_DIR use: the JIT's for the same
  // source, parameters and chip.
  kcc::CacheKeyInputs keyInputs;
  keyInputs.source = (*input)->getBuffer();
  keyInputs.params = kcc::paramBindingTexts(*params);
  keyInputs.chip = *chip;
  keyInputs.optLevel = o.optLevel;
  keyInputs.compilerIdentity = kcc::buildIdentity().id;
  std::string key = kcc::computeCacheKey(keyInputs);
  if (*stage == kcc::Stage::Hsaco)
    if (std::optional<std::string> file = kcc::Jit::overrideFile(o.input, key)) {
      WithColor::note(errs(), "kcc") << "using " << *file << " (KCC_OVERRIDE_DIR)\n";
      options.overrideFile = *file;
    }
  if (o.saveTemps) {
    bool toStdout = o.output.empty() || o.output == "-";
    StringRef named = toStdout ? StringRef(o.input) : StringRef(o.output);
    SmallString<256> dir = toStdout ? StringRef(".") : sys::path::parent_path(named);
    if (dir.empty())
      dir = ".";
    options.dumpDirectory = std::string(dir);
    options.dumpPrefix = sys::path::stem(named).str() + ".";
  } else {
    options.dumpDirectory = kcc::Jit::dumpDirectory(o.input, key);
  }
  Expected<std::vector<uint8_t>> result = kcc::compileKernelSource(
      (*input)->getBuffer(), o.input, options, *stage, errs());
  if (!result)
    return fail(toString(result.takeError()));

  if (launcher) {
    Expected<std::vector<kcc::KernelSignature>> signatures =
        kcc::kernelSignatures((*input)->getBuffer(), o.input, errs());
    if (!signatures)
      return fail(toString(signatures.takeError()));
    std::string origin = sys::path::filename(o.input).str() + " for " + o.mcpu;
    for (const std::string &d : o.defines)
      origin += " -D " + d;
    StringRef name = sys::path::filename(o.output);
    Expected<kcc::LauncherFiles> files =
        kcc::writeLauncher(name, *result, *signatures, origin);
    if (!files)
      return fail(toString(files.takeError()));
    SmallString<256> dir = sys::path::parent_path(o.output);
    std::string id = kcc::cIdentifier(name);
    for (auto [ext, text] : {std::pair<const char *, const std::string *>{".h", &files->header},
                             {".c", &files->source}}) {
      SmallString<256> path(dir);
      sys::path::append(path, id + ext);
      std::error_code ec;
      ToolOutputFile file(path, ec, sys::fs::OF_Text);
      if (ec)
        return fail("cannot write '" + path + "': " + ec.message());
      file.os() << *text;
      file.keep();
    }
    return 0;
  }

  bool binary = *stage == kcc::Stage::Obj || *stage == kcc::Stage::Hsaco;
  std::string out = o.output;
  if (out.empty() && !(o.stats && binary))
    out = binary ? "a." + o.emit : "-";
  if (!out.empty()) {
    if (binary && out == "-" && sys::Process::StandardOutIsDisplayed())
      return fail("refusing to write a binary code object to the terminal; use -o FILE");
    std::error_code ec;
    ToolOutputFile file(out, ec, binary ? sys::fs::OF_None : sys::fs::OF_Text);
    if (ec)
      return fail("cannot write '" + out + "': " + ec.message());
    file.os().write(reinterpret_cast<const char *>(result->data()), result->size());
    file.keep();
  }
  if (o.stats) {
    Expected<std::vector<kcc::KernelStats>> s = kcc::computeStats(*result);
    if (!s)
      return fail(toString(s.takeError()));
    if (o.statsFormat == "json")
      kcc::printStatsJSON(outs(), *s);
    else
      kcc::printStatsTable(outs(), *s);
  }
  return 0;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  if (argc > 1 && StringRef(argv[1]) == "run") {
#ifdef KCC_HAVE_RUN_COMMAND
    return kcc::runCommand(ArrayRef<const char *>(argv + 2, argv + argc));
#else
    return fail("this kcc was built without the emulator; 'kcc run' is unavailable");
#endif
  }
  if (argc > 1 && StringRef(argv[1]) == "cache") {
#ifdef KCC_HAVE_RUN_COMMAND
    return kcc::cacheCommand(ArrayRef<const char *>(argv + 2, argv + argc));
#else
    return fail("this kcc was built without the runtime; 'kcc cache' is unavailable");
#endif
  }
  if (argc > 1 && StringRef(argv[1]) == "emu-coverage") {
#ifdef KCC_HAVE_RUN_COMMAND
    return kcc::emuCoverageCommand(ArrayRef<const char *>(argv + 2, argv + argc));
#else
    return fail("this kcc was built without the emulator; 'kcc emu-coverage' is unavailable");
#endif
  }
  return compileMain(argc, argv);
}
