//===- RunCommand.cpp - `kcc run`: run a code object on a device ----------===//
//
// Hand-parsed (the kcc driver owns the llvm::cl options; registering more
// here would clash).
//
//===----------------------------------------------------------------------===//
#include "tools/kcc/RunCommand.h"
#include "tools/kcc/RunKernel.h"
#include "runtime/Kernel.h"
#include "runtime/Module.h"
#include "runtime/Runtime.h"
#include "target/CodeObject.h"
#include "tools/kcc/TimingCommand.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstring>

using namespace llvm;
namespace kcc {
namespace {

constexpr const char *kUsage =
    "usage: kcc run CODE_OBJECT --kernel NAME [--device emu:gfx942|emu:gfx950|hip:N] "
    "--grid X[,Y,Z] --block X[,Y,Z] [--lds-bytes N] [--cus N] "
    "[--check[=uninit]] [--check-seed N] [--max-wave-instructions N] "
    "[--timeout SECONDS] [--watchdog N] --arg "
    "in=FILE|out=FILE:BYTES|inout=FILE|null|i32=V|u32=V|i64=V|f32=V ...";

/// What each option and argument means, for --help.
constexpr const char *kDetails =
    "\nRuns one kernel of a code object (kcc's, clang's or AMD's) once, on the\n"
    "emulator or a GPU, with the arguments given in the kernel's order.\n"
    "\nOPTIONS:\n"
    "  --kernel NAME             the kernel's symbol (kcc emu-coverage FILE lists them)\n"
    "  --device SPEC             emu:gfx942, emu:gfx950 or hip:N; default: see KCC_DEVICE\n"
    "  --grid X[,Y,Z]            workgroups in each dimension (not work-items), as HIP's\n"
    "                            gridDim; missing dimensions are 1\n"
    "  --block X[,Y,Z]           work-items per workgroup, as HIP's blockDim\n"
    "  --lds-bytes N             dynamic LDS per workgroup, on top of the code object's\n"
    "  --cus N                   emulated CUs, which bound the workgroups resident\n"
    "                            (interleaved) at once (default 8)\n"
    "  --check[=uninit]          the emulator's sanitizer: unwaited loads, LDS races,\n"
    "                            barrier misuse, bad addresses (=uninit: also reads of\n"
    "                            LDS nothing wrote); --check-seed N tries another\n"
    "                            interleaving of the waves\n"
    "  --max-wave-instructions N, --timeout SECONDS, --watchdog N\n"
    "                            stop a runaway emulated launch with an error\n"
    "  --timing ...              the timing model's estimate (its own options below)\n"
    "\nARGUMENTS (--arg, one per kernel argument, in order):\n"
    "  in=FILE         a buffer holding FILE's raw bytes (little-endian, no header:\n"
    "                  e.g. numpy's tofile()); its size is the file's\n"
    "  out=FILE:BYTES  a buffer of BYTES bytes (0x.. allowed), its contents before the\n"
    "                  launch unspecified, written to FILE after it\n"
    "  inout=FILE      in=FILE, written back to FILE after the launch\n"
    "  null            a null pointer (for a pointer the kernel does not read)\n"
    "  i32=V u32=V     4-byte integers (kcc's `index` arguments are i32)\n"
    "  i64=V           an 8-byte integer\n"
    "  f32=V           a 4-byte float\n"
    "  The code object's metadata says each argument's size and kind; an argument\n"
    "  of the wrong kind or size is an error naming it.\n"
    "\nEXAMPLE (docs/examples/vadd.mlir: c = a + b over n = 1001 floats):\n"
    "  kcc docs/examples/vadd.mlir --mcpu=gfx950 -o vadd.hsaco\n"
    "  kcc run vadd.hsaco --kernel vadd --grid 4 --block 64 --arg in=a.bin \\\n"
    "      --arg in=b.bin --arg out=c.bin:4004 --arg i32=1001\n"
    "\nkcc run gemm|attention|attention_backward --help: kcc's own kernels by name.\n";

/// What the emulator reads from the environment, for every launch of the
/// process (kcc run's own and the JIT's).
constexpr const char *kEnvironment =
    "\nENVIRONMENT:\n"
    "  KCC_DEVICE=SPEC           the device without --device (hip:N, emu:gfx942,\n"
    "                            emu:gfx950); unset: the first GPU, else the\n"
    "                            emulator of the code object's chip\n"
    "  KCC_EMU_CHECK=1|uninit    check mode for every emulated launch\n"
    "  KCC_EMU_PROGRESS=0        no progress line on a terminal (shown when a\n"
    "                            launch runs longer than 3 s)\n"
    "  KCC_EMU_PROGRESS_AFTER=S  show it after S seconds instead\n"
    "  KCC_EMU_THREADS=N         host threads that run workgroups (default:\n"
    "                            every hardware thread; check mode, --timing\n"
    "                            and traces run on one)\n";

int fail(const Twine &message) {
  errs() << "kcc run: error: " << message << "\n";
  return 1;
}

bool parseDim(StringRef text, Dim3 &out) {
  SmallVector<StringRef, 3> parts;
  text.split(parts, ',');
  if (parts.empty() || parts.size() > 3)
    return false;
  uint32_t v[3] = {1, 1, 1};
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i].trim().getAsInteger(10, v[i]) || v[i] == 0)
      return false;
  out = {v[0], v[1], v[2]};
  return true;
}

struct ArgSpec {
  enum Kind { In, Out, InOut, Null, I32, U32, I64, F32 } kind;
  std::string text;     // as given
  std::string file;
  uint64_t bytes = 0;   // out buffers
  uint64_t scalar = 0;  // scalar bits
  unsigned scalarSize = 0;
  uint64_t address = 0; // device buffer
};

Expected<ArgSpec> parseArg(StringRef text) {
  ArgSpec a;
  a.text = text.str();
  auto [key, value] = text.split('=');
  auto bad = [&](const Twine &why) {
    return createStringError(inconvertibleErrorCode(),
                             "bad --arg '" + text + "': " + why);
  };
  // HIP launchers pass null for pointers a kernel does not use.
  if (text == "null") {
    a.kind = ArgSpec::Null;
    return a;
  }
  if (value.empty() && !text.contains('='))
    return bad("expected KIND=VALUE");
  if (key == "in" || key == "inout") {
    a.kind = key == "in" ? ArgSpec::In : ArgSpec::InOut;
    a.file = value.str();
    if (a.file.empty())
      return bad("missing file name");
    return a;
  }
  if (key == "out") {
    a.kind = ArgSpec::Out;
    auto [file, bytes] = value.rsplit(':');
    if (bytes.empty() || file.empty() || bytes.getAsInteger(0, a.bytes) || !a.bytes)
      return bad("expected out=FILE:BYTES with BYTES > 0");
    a.file = file.str();
    return a;
  }
  if (key == "i32" || key == "u32") {
    a.kind = key == "i32" ? ArgSpec::I32 : ArgSpec::U32;
    a.scalarSize = 4;
    if (key == "i32") {
      int64_t v;
      if (value.getAsInteger(0, v) || v < INT32_MIN || v > INT32_MAX)
        return bad("not a 32-bit signed integer");
      a.scalar = uint32_t(int32_t(v));
    } else {
      uint64_t v;
      if (value.getAsInteger(0, v) || v > UINT32_MAX)
        return bad("not a 32-bit unsigned integer");
      a.scalar = v;
    }
    return a;
  }
  if (key == "i64") {
    a.kind = ArgSpec::I64;
    a.scalarSize = 8;
    int64_t v;
    if (value.getAsInteger(0, v))
      return bad("not a 64-bit integer");
    a.scalar = uint64_t(v);
    return a;
  }
  if (key == "f32") {
    a.kind = ArgSpec::F32;
    a.scalarSize = 4;
    double v;
    if (value.getAsDouble(v))
      return bad("not a number");
    float f = float(v);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    a.scalar = bits;
    return a;
  }
  return bad("unknown kind '" + key + "' (in, out, inout, null, i32, u32, i64, f32)");
}

} // namespace

int runCommand(ArrayRef<const char *> argv) {
  std::vector<StringRef> args(argv.begin(), argv.end());
  if (!args.empty() && args[0] == "run")
    args.erase(args.begin());
  // `kcc run gemm ...`: a kernel of kcc by name, through the JIT.
  if (!args.empty() && isNamedKernel(args[0]))
    return runNamedKernel(args);
  std::string codeObjectPath, kernel, device;
  LaunchConfig options;
  Device::EmulatorInstrumentation emulator;
  bool haveGrid = false, haveBlock = false;
  TimingCommand timing;
  std::vector<ArgSpec> specs;
  for (size_t i = 0; i < args.size(); ++i) {
    StringRef a = args[i];
    auto value = [&](StringRef flag) -> std::optional<StringRef> {
      if (a.starts_with(flag.str() + "="))
        return a.drop_front(flag.size() + 1);
      if (a == flag && i + 1 < args.size())
        return args[++i];
      return std::nullopt;
    };
    if (a == "-h" || a == "--help") {
      outs() << kUsage << "\n  " << TimingCommand::kUsage << "\n" << kDetails << kEnvironment;
      return 0;
    }
    if (a.starts_with("--kernel")) {
      auto v = value("--kernel");
      if (!v) return fail("--kernel needs a name");
      kernel = v->str();
    } else if (a.starts_with("--device")) {
      auto v = value("--device");
      if (!v) return fail("--device needs emu:gfx942 or emu:gfx950");
      device = v->str();
    } else if (a.starts_with("--grid")) {
      auto v = value("--grid");
      if (!v || !parseDim(*v, options.grid))
        return fail("--grid needs X[,Y,Z] with positive integers");
      haveGrid = true;
    } else if (a.starts_with("--block")) {
      auto v = value("--block");
      if (!v || !parseDim(*v, options.block))
        return fail("--block needs X[,Y,Z] with positive integers");
      haveBlock = true;
    } else if (a.starts_with("--lds-bytes")) {
      auto v = value("--lds-bytes");
      if (!v || v->getAsInteger(0, options.dynamicLdsBytes))
        return fail("--lds-bytes needs a byte count");
    } else if (a == "--check") {
      options.check.enabled = true;
    } else if (a == "--check=uninit") {
      options.check.enabled = true;
      options.check.uninitialisedLds = true;
    } else if (a.starts_with("--check-seed")) {
      auto v = value("--check-seed");
      if (!v || v->getAsInteger(0, options.check.seed))
        return fail("--check-seed needs an integer");
    } else if (a.starts_with("--check")) {
      return fail("unknown check mode '" + a + "' (--check or --check=uninit)");
    } else if (a.starts_with("--cus")) {
      auto v = value("--cus");
      if (!v || v->getAsInteger(0, emulator.computeUnits) || !emulator.computeUnits)
        return fail("--cus needs a positive count");
    } else if (a.starts_with("--max-wave-instructions")) {
      auto v = value("--max-wave-instructions");
      if (!v || v->getAsInteger(0, emulator.maxWaveInstructions) ||
          !emulator.maxWaveInstructions)
        return fail("--max-wave-instructions needs a positive count");
    } else if (a.starts_with("--timeout")) {
      auto v = value("--timeout");
      if (!v || v->getAsDouble(emulator.timeoutSeconds) ||
          !(emulator.timeoutSeconds > 0))
        return fail("--timeout needs a positive number of seconds");
    } else if (a.starts_with("--watchdog")) {
      auto v = value("--watchdog");
      if (!v || v->getAsInteger(0, emulator.watchdogInstructions) ||
          !emulator.watchdogInstructions)
        return fail("--watchdog needs a positive count of wave instructions");
    } else if (a.starts_with("--arg")) {
      auto v = value("--arg");
      if (!v)
        return fail("--arg needs a value");
      auto spec = parseArg(*v);
      if (!spec)
        return fail(toString(spec.takeError()));
      specs.push_back(std::move(*spec));
    } else if (timing.handles(a)) {
      if (Error e = timing.parse(args, i))
        return fail(toString(std::move(e)));
    } else if (a.starts_with("-")) {
      return fail("unknown option '" + a + "'; " + kUsage);
    } else if (codeObjectPath.empty()) {
      codeObjectPath = a.str();
    } else {
      return fail("unexpected argument '" + a + "' (one code object per run)");
    }
  }
  if (codeObjectPath.empty())
    return fail(std::string("no code object given; ") + kUsage);
  if (kernel.empty())
    return fail("--kernel is required");
  if (!haveGrid || !haveBlock)
    return fail("--grid and --block are required");
  // The code object is read before the device only when it names the
  // device (no --device): a device given is checked first, whatever the file.
  std::unique_ptr<MemoryBuffer> file;
  std::optional<CodeObject> co;
  auto readCodeObject = [&]() -> bool {
    auto f = MemoryBuffer::getFile(codeObjectPath, false, false);
    if (!f) {
      fail("cannot read '" + codeObjectPath + "': " + f.getError().message());
      return false;
    }
    file = std::move(*f);
    ArrayRef<uint8_t> bytes(reinterpret_cast<const uint8_t *>(file->getBufferStart()),
                            file->getBufferSize());
    auto parsed = CodeObject::parse(bytes);
    if (!parsed) {
      fail(codeObjectPath + ": " + toString(parsed.takeError()));
      return false;
    }
    co.emplace(std::move(*parsed));
    return true;
  };
  // The device through the runtime, as the ops reach it: the same run works
  // on a GPU (hip:N) and on the emulator. Without --device, the runtime's
  // default: $KCC_DEVICE, else the first GPU, else the emulator of the chip
  // the code object is compiled for.
  RuntimeOptions ro;
  if (device.empty()) {
    if (!readCodeObject())
      return 1;
    if (co->chip())
      ro.emulatedChip = *co->chip();
  }
  Expected<std::unique_ptr<Runtime>> runtime = Runtime::create(ro);
  if (!runtime)
    return fail(toString(runtime.takeError()));
  Expected<Device &> devOr =
      device.empty() ? (*runtime)->defaultDevice() : (*runtime)->device(device);
  if (!devOr)
    return fail(toString(devOr.takeError()));
  Device &d = *devOr;
  device = d.spec();
  std::optional<Chip> chip = d.chip();
  bool emulatorOnly = timing.enabled() || emulator.computeUnits ||
                      emulator.maxWaveInstructions ||
                      emulator.timeoutSeconds > 0 || emulator.watchdogInstructions;
  if (d.kind() != DeviceKind::Emu && emulatorOnly)
    return fail("--timing, --cus, --max-wave-instructions, --timeout and "
                "--watchdog need an emulated device (emu:gfx942 or emu:gfx950), "
                "not " + d.spec());
  if (emulatorOnly)
    if (Error e = d.instrument(emulator))
      return fail(toString(std::move(e)));

  if (!co && !readCodeObject())
    return 1;
  ArrayRef<uint8_t> bytes(reinterpret_cast<const uint8_t *>(file->getBufferStart()),
                          file->getBufferSize());
  if (!co->chip() || *co->chip() != *chip)
    return fail(codeObjectPath + " is compiled for " + co->machineName() +
                " but the device is " + device);
  const KernelInfo *k = co->findKernel(kernel);
  if (!k)
    return fail("no kernel '" + kernel + "' in " + codeObjectPath +
                "; available: " + co->kernelNameList());
  for (const std::string &w : k->warnings)
    errs() << "kcc run: warning: " << w << "\n";
  auto expected = k->explicitArgs();
  if (expected.size() != specs.size())
    return fail("kernel '" + kernel + "' takes " + Twine(expected.size()) +
                " arguments, got " + Twine(specs.size()));
  // The argument's type as the error names it: the metadata's `.type_name`
  // when the compiler wrote one (clang does, kcc does not), else what
  // --arg spellings fit its size.
  auto typeText = [](const KernelArg &ka) -> std::string {
    if (!ka.typeName.empty())
      return ka.typeName;
    if (ka.size == 4)
      return "pass i32=, u32= or f32=";
    if (ka.size == 8)
      return "pass i64= or a buffer";
    return std::to_string(ka.size) + "-byte values cannot be passed by kcc run";
  };
  for (size_t i = 0; i < specs.size(); ++i) {
    const KernelArg &ka = *expected[i];
    ArgSpec &s = specs[i];
    bool isBuffer = s.kind == ArgSpec::In || s.kind == ArgSpec::Out ||
                    s.kind == ArgSpec::InOut || s.kind == ArgSpec::Null;
    std::string name = "argument " + std::to_string(i) +
                       (ka.name.empty() ? "" : " ('" + ka.name + "')");
    if (ka.kind == ArgKind::GlobalBuffer) {
      if (!isBuffer)
        return fail(name + " is a pointer" +
                    (ka.typeName.empty() ? "" : " (" + ka.typeName + ")") +
                    "; pass in=, out=, inout= or null");
    } else if (ka.kind == ArgKind::ByValue) {
      if (isBuffer) {
        if (ka.size != 8)
          return fail(name + " is a " + Twine(ka.size) + "-byte value (" + typeText(ka) +
                      "), not a buffer");
      } else if (s.scalarSize != ka.size) {
        return fail(name + " is " + Twine(ka.size) + " bytes (" + typeText(ka) + "), '" +
                    s.text + "' is " + Twine(s.scalarSize));
      }
    } else {
      return fail(name + " has value kind " + ka.valueKind + ", which kcc run cannot pass");
    }
  }

  Expected<Module> module = Module::load(d, bytes);
  if (!module)
    return fail(toString(module.takeError()));
  // The geometry as Kernel::launch checks it, before any buffer is made.
  Expected<Kernel> loaded = module->kernel(kernel);
  if (!loaded)
    return fail(toString(loaded.takeError()));
  if (Error e = loaded->checkConfig(options))
    return fail(toString(std::move(e)));

  std::vector<uint8_t> kernarg(k->explicitArgsSize(), 0);
  for (size_t i = 0; i < specs.size(); ++i) {
    ArgSpec &s = specs[i];
    const KernelArg &ka = *expected[i];
    uint64_t value = s.scalar;
    if (s.kind == ArgSpec::In || s.kind == ArgSpec::InOut || s.kind == ArgSpec::Out) {
      std::unique_ptr<MemoryBuffer> content;
      uint64_t size = s.bytes;
      if (s.kind != ArgSpec::Out) {
        auto in = MemoryBuffer::getFile(s.file, false, false);
        if (!in)
          return fail("cannot read '" + s.file + "': " + in.getError().message());
        content = std::move(*in);
        size = content->getBufferSize();
      }
      auto addr = d.allocate(size ? size : 1);
      if (!addr)
        return fail(toString(addr.takeError()));
      if (content)
        if (Error e = d.copyToDevice(*addr, content->getBufferStart(), size))
          return fail(toString(std::move(e)));
      s.address = *addr;
      s.bytes = size;
      value = *addr;
    }
    std::memcpy(kernarg.data() + ka.offset, &value, ka.size);
  }

  auto start = std::chrono::steady_clock::now();
  LoadedCode &code = loaded->loadedCode();
  auto stats = timing.enabled()
                   ? timing.launch(d, code, loaded->info(), options, kernarg, emulator)
                   : d.launch(code, loaded->info(), options, kernarg);
  if (!stats)
    return fail(toString(stats.takeError()));
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start).count();

  for (ArgSpec &s : specs) {
    if (s.kind != ArgSpec::Out && s.kind != ArgSpec::InOut)
      continue;
    std::vector<uint8_t> out(s.bytes);
    if (Error e = d.copyFromDevice(out.data(), s.address, s.bytes))
      return fail(toString(std::move(e)));
    std::error_code ec;
    raw_fd_ostream os(s.file, ec, sys::fs::OF_None);
    if (ec)
      return fail("cannot write '" + s.file + "': " + ec.message());
    os.write(reinterpret_cast<const char *>(out.data()), out.size());
  }
  if (stats->deviceMilliseconds) {
    outs() << "kernel " << kernel << " on " << device << ": "
           << format("%.3f", *stats->deviceMilliseconds) << " ms\n";
    return 0;
  }
  uint64_t waveInstructions = stats->waveInstructions.value_or(0);
  double rate = seconds > 0 ? double(waveInstructions) / seconds : 0;
  outs() << "kernel " << kernel << " on " << device << ": " << stats->workgroups
         << " workgroups, " << waveInstructions << " wave instructions in "
         << format("%.3f", seconds) << " s ("
         << format("%.1f", rate / 1e6) << " M wave-instructions/s)\n";
  return 0;
}

} // namespace kcc
