//===- kcc-emu-fuzz.cpp - Differential fuzzing of the emulator ------------===//
//
//   kcc-emu-fuzz --chip gfx942|gfx950 [--seed S] [--runs N] [--size X]
//                [--dump DIR] [--dump-all] [--print-ir] [--check] [-O N]
//                [--reduce] [--max-reports N]
//
// Program k of a run is generated from seed S + k, so one program is
// reproduced alone with `--seed S+k --runs 1`. Each is compiled for the chip
// (prepareModule, the O3 pipeline, the backend and lld, as kcc compiles its
// own kernels), loaded and launched on the emulated device through the
// runtime's Device interface, and evaluated on the host (HostModel.h); then
// every slot of every lane is compared. A mismatch prints the lane, slot,
// type and both values; with --dump the program's GPU module, host module,
// assembly and inputs are written to DIR/<chip>-<seed>.*; --reduce shrinks
// it first. --check runs the emulator in check mode (a report fails the
// launch). The last line is "N programs on CHIP (seeds .., T s): M
// mismatches", and the exit status is 1 when M > 0 or a program failed to
// compile or run.
//
//===----------------------------------------------------------------------===//
#include "HostModel.h"
#include "Program.h"

#include "compiler/CodeGen.h"
#include "compiler/Link.h"
#include "runtime/Buffer.h"
#include "runtime/Device.h"
#include "runtime/Kernel.h"
#include "runtime/Module.h"
#include "runtime/Runtime.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstring>

using namespace llvm;
using namespace kcc;
using namespace kcc::fuzz;

// The options. Parsed by hand: LLVM's cl::opt registry is not the one
// ParseCommandLineOptions reads in a tool linked as this one is (libLLVM.so
// beside lld's static libraries), so cl::opt values would silently keep
// their defaults.
struct Options {
  std::string chipName = "gfx942";
  uint64_t firstSeed = 1;
  unsigned runs = 100;
  double sizeFactor = 1.0;
  std::string dumpDir;
  bool dumpAll = false, printIR = false, checkMode = false, reduce = false;
  unsigned optLevel = 3, maxReports = 8;
};
static Options opts;

static const char kUsage[] =
    "usage: kcc-emu-fuzz [--chip gfx942|gfx950] [--seed S] [--runs N] [--size X]\n"
    "                    [--dump DIR] [--dump-all] [--print-ir] [--check] [-O N]\n"
    "                    [--reduce]\n"
    "                    [--max-reports N]\n"
    "Runs N random LLVM IR programs (seeds S .. S+N-1) on the emulated chip and\n"
    "on the host and compares every lane's results (README, \"Differential\n"
    "fuzzing\"). --reduce shrinks each mismatching program and prints what is left.\n";

static bool parseOptions(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    StringRef a = argv[i];
    std::string value;
    auto take = [&](StringRef name) {
      if (a == name && i + 1 < argc) {
        value = argv[++i];
        return true;
      }
      if (a.starts_with(name.str() + "=")) {
        value = a.substr(name.size() + 1).str();
        return true;
      }
      return false;
    };
    auto number = [&](auto &out) {
      uint64_t v;
      if (StringRef(value).getAsInteger(0, v))
        return false;
      out = std::remove_reference_t<decltype(out)>(v);
      return true;
    };
    bool ok = true;
    if (take("--chip"))
      opts.chipName = value;
    else if (take("--seed"))
      ok = number(opts.firstSeed);
    else if (take("--runs"))
      ok = number(opts.runs);
    else if (take("--size"))
      ok = !StringRef(value).getAsDouble(opts.sizeFactor);
    else if (take("--dump"))
      opts.dumpDir = value;
    else if (take("-O"))
      ok = number(opts.optLevel);
    else if (take("--max-reports"))
      ok = number(opts.maxReports);
    else if (a == "--dump-all")
      opts.dumpAll = true;
    else if (a == "--print-ir")
      opts.printIR = true;
    else if (a == "--check")
      opts.checkMode = true;
    else if (a == "--reduce")
      opts.reduce = true;
    else if (a == "--help" || a == "-h") {
      outs() << kUsage;
      exit(0);
    } else
      ok = false;
    if (!ok) {
      errs() << "kcc-emu-fuzz: bad argument '" << a << "'\n" << kUsage;
      return false;
    }
  }
  return true;
}

// The seed being run, for the crash handlers: a backend crash or fatal
// error then names the program that caused it.
static uint64_t currentSeed = 0;
static bool running = false;

static void printCurrent(void *) {
  if (running)
    errs() << "kcc-emu-fuzz: while running seed " << currentSeed << " on " << opts.chipName << "\n";
}

/// Distance in units in the last place between two finite or infinite
/// values of a float type (bit patterns ordered as integers).
static uint64_t ulpDistance(Ty t, uint64_t a, uint64_t b) {
  unsigned n = bitWidth(t);
  auto ordered = [n](uint64_t v) {
    int64_t sign = (v >> (n - 1)) & 1;
    int64_t mag = int64_t(v & ((n == 64 ? ~0ull : (1ull << n) - 1) >> 1));
    return sign ? -mag : mag;
  };
  int64_t d = ordered(a) - ordered(b);
  return uint64_t(d < 0 ? -d : d);
}

/// An approximate sink's result the GPU flushed to zero where the host's
/// is denormal: LLVM 22 lowers exp2.f32 of an fpext'd half to a bare
/// v_exp_f32, which flushes results below 2^-126 (its scaling for them is
/// skipped because the input cannot be denormal; README, "Differential
/// fuzzing").
static bool flushedDenormal(Ty t, uint64_t gpu, uint64_t host) {
  unsigned n = bitWidth(t);
  uint64_t magnitude = gpu & ((n == 64 ? ~0ull : (1ull << n) - 1) >> 1);
  unsigned mant = t == Ty::F16 ? 10 : t == Ty::F32 ? 23 : 52;
  uint64_t hostMagnitude = host & ((n == 64 ? ~0ull : (1ull << n) - 1) >> 1);
  return magnitude == 0 && hostMagnitude != 0 && hostMagnitude < (1ull << mant) &&
         (gpu >> (n - 1)) == (host >> (n - 1));
}

static bool isNan(Ty t, uint64_t v) {
  unsigned mant = t == Ty::F16 ? 10 : t == Ty::F32 ? 23 : 52;
  unsigned n = bitWidth(t);
  uint64_t expMask = ((1ull << (n - 1 - mant)) - 1) << mant;
  return (v & expMask) == expMask && (v & ((1ull << mant) - 1));
}

static std::string showValue(Ty t, uint64_t v) {
  std::string s;
  raw_string_ostream os(s);
  os << format_hex(v, 2 + bitWidth(t) / 4);
  if (isFloat(t)) {
    const fltSemantics &sem = t == Ty::F16 ? APFloat::IEEEhalf()
                              : t == Ty::F32 ? APFloat::IEEEsingle()
                                             : APFloat::IEEEdouble();
    APFloat f(sem, APInt(bitWidth(t), v));
    SmallString<32> text;
    f.toString(text, 17);
    os << " (" << text << ")";
  } else {
    os << " (" << int64_t(bitWidth(t) == 64 ? v : (v << (64 - bitWidth(t)))) / (bitWidth(t) == 64 ? 1 : int64_t(1) << (64 - bitWidth(t))) << ")";
  }
  return s;
}

static void writeFile(const std::string &path, StringRef data) {
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  if (!ec)
    os << data;
}

struct Outcome {
  bool failed = false;     // could not compile or run
  unsigned mismatches = 0; // values that disagree
};

static Outcome runProgram(Device &device, Chip chip, uint64_t seed,
                          const std::vector<bool> *disabled = nullptr, bool quiet = false,
                          unsigned *units = nullptr) {
  Outcome outcome;
  Program program = generateProgram(seed, chip, opts.sizeFactor, disabled);
  if (units)
    *units = program.units;
  unsigned maxReports = quiet ? 0 : opts.maxReports;
  std::vector<uint64_t> inputs = generateInputs(program, seed);
  std::string gpuText = program.gpuModule();
  if (opts.printIR && !quiet)
    outs() << gpuText;
  auto fail = [&](const Twine &what, Error e) {
    std::string text = toString(std::move(e));
    if (!quiet)
      errs() << "seed " << seed << ": " << what << ": " << text << "\n";
    outcome.failed = true;
    return outcome;
  };

  // The GPU: compile as kcc compiles, run on the emulator.
  LLVMContext context;
  SMDiagnostic diag;
  std::unique_ptr<llvm::Module> module = parseAssemblyString(gpuText, diag, context);
  if (!module) {
    std::string text;
    raw_string_ostream os(text);
    diag.print("gpu module", os);
    return fail("the generated IR does not parse", createStringError(inconvertibleErrorCode(), text));
  }
  if (Error e = prepareModule(*module, chip))
    return fail("prepareModule", std::move(e));
  if (Error e = optimizeModule(*module, chip, opts.optLevel))
    return fail("optimizeModule", std::move(e));
  auto object = emitObject(*module, chip, opts.optLevel);
  if (!object)
    return fail("the AMDGPU backend", object.takeError());
  auto codeObject = linkCodeObject(*object);
  if (!codeObject)
    return fail("lld", codeObject.takeError());
  auto loaded = kcc::Module::load(device, *codeObject);
  if (!loaded)
    return fail("loading the code object", loaded.takeError());
  auto kernel = loaded->kernel("fuzz");
  if (!kernel)
    return fail("the kernel", kernel.takeError());
  auto in = Buffer::fromHost(device, ArrayRef<uint64_t>(inputs));
  if (!in)
    return fail("input buffer", in.takeError());
  auto out = Buffer::allocate(device, inputs.size() * 8);
  if (!out)
    return fail("output buffer", out.takeError());
  if (Error e = out->fill(0))
    return fail("output buffer", std::move(e));
  LaunchConfig config;
  config.grid = Dim3(program.grid);
  config.block = Dim3(program.block);
  config.check.enabled = opts.checkMode;
  config.check.seed = seed;
  auto launched = kernel->launch(config, {*in, *out, int32_t(0)});
  if (!launched)
    return fail("the emulated launch", launched.takeError());
  auto gpu = out->toHost<uint64_t>();
  if (!gpu)
    return fail("reading the results", gpu.takeError());

  // The host.
  auto host = evaluateOnHost(program, inputs);
  if (!host)
    return fail("the host JIT", host.takeError());

  size_t slots = program.slots.size();
  for (unsigned lane = 0; lane < program.lanes(); ++lane)
    for (size_t k = 0; k < slots; ++k) {
      const Slot &slot = program.slots[k];
      unsigned n = bitWidth(slot.ty);
      uint64_t mask = n == 64 ? ~0ull : (1ull << n) - 1;
      uint64_t g = (*gpu)[lane * slots + k] & mask, h = (*host)[lane * slots + k] & mask;
      bool same = g == h;
      if (!same && isFloat(slot.ty)) {
        if (isNan(slot.ty, g) || isNan(slot.ty, h))
          same = isNan(slot.ty, g) && isNan(slot.ty, h);
        else
          same = slot.ulps && (ulpDistance(slot.ty, g, h) <= slot.ulps ||
                               flushedDenormal(slot.ty, g, h));
      }
      if (same)
        continue;
      if (outcome.mismatches++ < maxReports)
        errs() << "seed " << seed << " " << opts.chipName << ": lane " << lane << " slot " << k << " ("
               << irName(slot.ty) << (slot.ulps ? ", " + std::to_string(slot.ulps) + " ulp" : "")
               << "): emulator " << showValue(slot.ty, g) << ", host " << showValue(slot.ty, h)
               << ", input " << showValue(slot.ty, inputs[lane * slots + k] & mask) << "\n";
    }
  if (outcome.mismatches && !quiet)
    errs() << "seed " << seed << " " << opts.chipName << ": " << outcome.mismatches
           << " mismatching values\n";

  if (!opts.dumpDir.empty() && !quiet && (outcome.mismatches || opts.dumpAll)) {
    sys::fs::create_directories(opts.dumpDir);
    std::string base = opts.dumpDir + "/" + opts.chipName + "-" + std::to_string(seed);
    writeFile(base + ".gpu.ll", gpuText);
    writeFile(base + ".host.ll", program.hostModule());
    std::string optimised;
    raw_string_ostream os(optimised);
    module->print(os, nullptr);
    writeFile(base + ".opt.ll", optimised);
    if (auto assembly = emitAssembly(*module, chip, opts.optLevel))
      writeFile(base + ".s", *assembly);
    else
      consumeError(assembly.takeError());
    writeFile(base + ".in.bin", StringRef(reinterpret_cast<const char *>(inputs.data()), inputs.size() * 8));
  }
  return outcome;
}

/// Shrinks the mismatching program `seed` by leaving out units (see
/// generateProgram) one at a time while the emulator still disagrees with
/// the host, then runs what is left with reports and dumps: a triage aid.
static void reduce(Device &device, Chip chip, uint64_t seed) {
  unsigned units = 0;
  runProgram(device, chip, seed, nullptr, true, &units);
  std::vector<bool> disabled(units, false);
  for (unsigned pass = 0; pass < 2; ++pass)
    for (unsigned u = 0; u < units; ++u) {
      if (disabled[u])
        continue;
      disabled[u] = true;
      Outcome o = runProgram(device, chip, seed, &disabled, true);
      if (!o.mismatches || o.failed)
        disabled[u] = false;
    }
  unsigned kept = 0;
  for (bool d : disabled)
    kept += !d;
  errs() << "seed " << seed << ": reduced to " << kept << " of " << units << " units\n";
  bool print = opts.printIR;
  opts.printIR = true;
  runProgram(device, chip, seed, &disabled);
  opts.printIR = print;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  if (!parseOptions(argc, argv))
    return 2;
  std::optional<Chip> chip = parseChip(opts.chipName);
  if (!chip) {
    errs() << "kcc-emu-fuzz: unknown chip '" << opts.chipName << "' (gfx942 or gfx950)\n";
    return 2;
  }
  sys::AddSignalHandler(printCurrent, nullptr);
  install_fatal_error_handler([](void *, const char *reason, bool) {
    errs() << "LLVM ERROR: " << reason << "\n";
    printCurrent(nullptr);
    sys::Process::Exit(3);
  });

  RuntimeOptions options;
  options.useHip = false;
  auto runtime = Runtime::create(options);
  if (!runtime) {
    errs() << "kcc-emu-fuzz: " << toString(runtime.takeError()) << "\n";
    return 2;
  }
  auto device = (*runtime)->device(std::string("emu:") + opts.chipName);
  if (!device) {
    errs() << "kcc-emu-fuzz: " << toString(device.takeError()) << "\n";
    return 2;
  }

  auto start = std::chrono::steady_clock::now();
  unsigned mismatching = 0, failed = 0;
  for (unsigned k = 0; k < opts.runs; ++k) {
    currentSeed = opts.firstSeed + k;
    running = true;
    Outcome o = runProgram(*device, *chip, currentSeed);
    if (o.mismatches && opts.reduce)
      reduce(*device, *chip, currentSeed);
    running = false;
    mismatching += o.mismatches != 0;
    failed += o.failed;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outs() << opts.runs << " programs on " << opts.chipName << " (seeds " << opts.firstSeed << ".." << opts.firstSeed + opts.runs - 1
         << ", " << format("%.1f", seconds) << " s): " << mismatching << " mismatches";
  if (failed)
    outs() << ", " << failed << " failed to compile or run";
  outs() << "\n";
  return mismatching || failed ? 1 : 0;
}
