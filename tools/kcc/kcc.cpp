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
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Option/Option.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace llvm::opt; // the names Options.inc uses (DefaultVis, ...)

static int fail(const Twine &message) {
  WithColor::error(errs(), "kcc") << message << "\n";
  return 1;
}

namespace {

/// The option IDs of Options.td (OPT_mcpu_EQ, OPT_D, ...).
enum OptionID {
  OPT_INVALID = 0,
#define OPTION(...) LLVM_MAKE_OPT_ID(__VA_ARGS__),
#include "tools/kcc/Options.inc"
#undef OPTION
};

#define OPTTABLE_STR_TABLE_CODE
#include "tools/kcc/Options.inc"
#undef OPTTABLE_STR_TABLE_CODE

#define OPTTABLE_PREFIXES_TABLE_CODE
#include "tools/kcc/Options.inc"
#undef OPTTABLE_PREFIXES_TABLE_CODE

constexpr opt::OptTable::Info kOptionInfo[] = {
#define OPTION(...) LLVM_CONSTRUCT_OPT_INFO(__VA_ARGS__),
#include "tools/kcc/Options.inc"
#undef OPTION
};

/// kcc's own table: LLVM's OptTable, not llvm::cl, whose registry the
/// backend and lld linked into this binary share (they register `-mcpu`,
/// `-stats` and others; two options of one name abort at start-up).
class KccOptTable : public opt::GenericOptTable {
public:
  KccOptTable() : GenericOptTable(OptionStrTable, OptionPrefixesTable, kOptionInfo) {}
};

const char *const kUsage = "kcc FILE.mlir --mcpu=CHIP [options]";
const char *const kTitle = "kcc compiles tile-dialect kernels to gfx942/gfx950 code objects";

/// What --help prints after the options: the subcommands and the
/// environment, which the table does not hold.
const char *const kHelpTail =
    "\nSTAGES (--emit): tile (after the tile passes), rocdl (LLVM + ROCDL dialect),\n"
    "llvm (optimised LLVM IR), asm, obj, hsaco (the code object). --emit=launcher\n"
    "-o DIR/NAME writes NAME.h and NAME.c: the code object embedded and a typed C\n"
    "function per kernel (NAME_KERNEL_launch) on kcc_c.h; link with -lkcc_c.\n"
    "--save-temps writes OUT.input.mlir, OUT.tile-passes/ (after each pass),\n"
    "OUT.tile.mlir, OUT.rocdl.mlir, OUT.kernel.ll, .s, .o, .hsaco, OUT.stats.json.\n"
    "\nSUBCOMMANDS (each has --help):\n"
    "  kcc run CODE_OBJECT --kernel NAME --device emu:CHIP|hip:N ...\n"
    "                    run a kernel of any code object (kcc's, clang's, AMD's)\n"
    "                    on the emulator or a GPU, with check mode and the timing\n"
    "                    model\n"
    "  kcc run gemm|attention|attention_backward [--shape ...] [-D NAME=VALUE]... [--verify]\n"
    "                    run one of kcc's kernels through its op on random or .npy\n"
    "                    inputs, checked against a float64 host reference\n"
    "  kcc cache --stats|--clear [--dir DIR]\n"
    "                    the JIT's disk cache\n"
    "  kcc emu-coverage FILE.hsaco [--mcpu=CHIP] | --isa CHIP [--missing]\n"
    "                    which instructions of a code object the emulator executes\n"
    "\n"
    "ENVIRONMENT (as for the JIT; the folder is NAME-KEY, the input's stem and the\n"
    "compile cache key's first 16 hex digits):\n"
    "  KCC_DUMP_DIR=DIR      write every stage into DIR/NAME-KEY/\n"
    "  KCC_OVERRIDE_DIR=DIR  use DIR/NAME-KEY/kernel.hsaco or kernel.s (assembled\n"
    "                        and linked) as the code object instead of compiling\n";

} // namespace

/// kcc's options once parsed.
struct Options {
  std::string input, mcpu, emit = "hsaco", output, statsFormat;
  std::vector<std::string> defines, mllvm;
  bool stats = false, saveTemps = false, verbose = false, lineTables = false;
  unsigned optLevel = 3;
};

static void printVersion() {
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
}

/// Returns the exit code to end with, or std::nullopt to go on compiling.
static std::optional<int> parseArgs(int argc, char **argv, Options &o) {
  KccOptTable table;
  unsigned missingIndex = 0, missingCount = 0;
  opt::InputArgList args =
      table.ParseArgs(ArrayRef<const char *>(argv + 1, argv + argc), missingIndex,
                      missingCount);
  if (missingCount)
    return fail(Twine(args.getArgString(missingIndex)) + " needs a value; see kcc --help");
  for (const opt::Arg *a : args.filtered(OPT_UNKNOWN))
    return fail("unknown option '" + Twine(a->getAsString(args)) + "'; see kcc --help");
  if (args.hasArg(OPT_help)) {
    table.printHelp(outs(), kUsage, kTitle);
    outs() << kHelpTail;
    return 0;
  }
  if (args.hasArg(OPT_version)) {
    printVersion();
    return 0;
  }
  o.mcpu = args.getLastArgValue(OPT_mcpu_EQ).str();
  o.emit = args.getLastArgValue(OPT_emit_EQ, "hsaco").str();
  o.output = args.getLastArgValue(OPT_o).str();
  o.defines = args.getAllArgValues(OPT_D);
  o.mllvm = args.getAllArgValues(OPT_mllvm);
  o.saveTemps = args.hasArg(OPT_save_temps);
  o.verbose = args.hasArg(OPT_v);
  o.lineTables = args.hasArg(OPT_g);
  if (const opt::Arg *a = args.getLastArg(OPT_stats, OPT_stats_EQ)) {
    o.stats = true;
    if (a->getOption().matches(OPT_stats_EQ))
      o.statsFormat = a->getValue();
  }
  if (const opt::Arg *a = args.getLastArg(OPT_O)) {
    StringRef level = a->getValue();
    if (level.size() != 1 || level[0] < '0' || level[0] > '3')
      return fail("unknown optimisation level '-O" + level + "'; use -O0 to -O3");
    o.optLevel = unsigned(level[0] - '0');
  }
  std::vector<std::string> inputs = args.getAllArgValues(OPT_INPUT);
  if (inputs.size() > 1)
    return fail("more than one input file ('" + inputs[0] + "' and '" + inputs[1] +
                "'); kcc compiles one kernel file at a time");
  if (!inputs.empty())
    o.input = inputs[0];
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

  // -mllvm: options of LLVM's code generator, as clang passes them on.
  if (!o.mllvm.empty()) {
    std::vector<const char *> llvmArgs = {"-mllvm"};
    for (const std::string &a : o.mllvm)
      llvmArgs.push_back(a.c_str());
    std::string problems;
    raw_string_ostream problemStream(problems);
    if (!cl::ParseCommandLineOptions(int(llvmArgs.size()), llvmArgs.data(), "",
                                     &problemStream))
      return fail(StringRef(problems).trim() +
                  "\n(`llc -march=amdgcn --help-hidden` lists LLVM's options)");
  }
  Expected<std::vector<kcc::ParamBinding>> params = kcc::parseParamBindings(o.defines);
  if (!params)
    return fail(toString(params.takeError()));

  kcc::CompileOptions options;
  options.chip = *chip;
  options.params = *params;
  options.optLevel = o.optLevel;
  if (o.verbose)
    options.progress = &errs();
  options.lineTables = o.lineTables;
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
    out = binary ? (*stage == kcc::Stage::Obj ? "a.o" : "a." + o.emit) : "-";
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
