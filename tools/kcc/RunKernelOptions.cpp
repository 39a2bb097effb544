//===- RunKernelOptions.cpp - Options of `kcc run NAME` -------------------===//
//
// Parsing of the options every named-kernel runner takes, and the helpers the
// runners share to read them and report errors.
//
//===----------------------------------------------------------------------===//
#include "tools/kcc/RunKernelOptions.h"
#include "runtime/Device.h"
#include "runtime/Runtime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;

namespace kcc::runkernel {
namespace {

constexpr const char *kUsage =
    "usage: kcc run gemm [--device hip:N|emu:gfx942|emu:gfx950] "
    "[-D NAME=VALUE]... [--shape M=..,N=..,K=..] [--seed N] "
    "[--inputs a=A.npy,bt=BT.npy,bias=BIAS.npy] [--outputs DIR] "
    "[--reference c=REF.npy] [--atol X] [--rtol Y] [--verify] [--check] "
    "[--timing [--steady-state[=K]] ...]\n"
    "       kcc run gemm -D DTYPE=fp8|e4m3fn|e4m3fnuz|i8 [-D OUT=bf16|f16|f32] "
    "[-D ASCALE=0|1|2] [-D BSCALE=0|1|2] [-D HAS_BIAS=1 [-D BDTYPE=bf16|f16|f32]] ... "
    "(scales 0 per tensor, 1 per row, 2 128-deep blocks (FP8); --inputs a=,bt= '|u1' FP8 bits or '|i1' i8, "
    "a_scale=,b_scale= f32, their shapes then deciding)\n"
    "       kcc run attention [--device ...] [-D NAME=VALUE]... "
    "[--shape B=..,Sq=..,Skv=..,H=..,Hkv=..,D=..] [--causal] [--scale X] "
    "[--seed N] [--inputs q=Q.npy,k=K.npy,v=V.npy] [--outputs DIR] [--atol X] [--verify] [--check] "
    "[--timing [--steady-state[=K]] ...]\n"
    "       kcc run attention -D DTYPE=fp8|e4m3fn|e4m3fnuz [-D ODTYPE=bf16|f16] "
    "[--descale q=X,k=Y,v=Z] ... (the options above; inputs as '|u1' FP8 bits)\n"
    "       kcc run attention_backward [--device ...] [-D DTYPE=bf16|f16] "
    "[-D dkdv.NAME=VALUE]... [-D dq.NAME=VALUE]... "
    "[--shape B=..,Sq=..,Skv=..,H=..,Hkv=..,D=..] [--causal] [--scale X] [--seed N] "
    "[--inputs q=,k=,v=,do=[,o=,lse=]] [--outputs DIR] [--atol X] [--verify] [--check] "
    "[--timing [--steady-state[=K]] ...]";

/// "k1=v1,k2=v2" into a map; false on a malformed pair.
bool parsePairs(StringRef text, StringMap<std::string> &out) {
  SmallVector<StringRef, 4> parts;
  text.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef p : parts) {
    auto [k, v] = p.split('=');
    if (k.trim().empty() || v.trim().empty())
      return false;
    out[k.trim()] = v.trim().str();
  }
  return !parts.empty();
}

} // namespace

int fail(const Twine &message) {
  // What the run printed so far comes first, as it happened.
  outs().flush();
  errs() << "kcc run: error: " << message << "\n";
  return 1;
}


std::optional<std::string> define(const Options &o, StringRef name) {
  std::optional<std::string> v;
  for (const ParamBinding &d : o.defines)
    if (d.name == name)
      v = d.valueText();
  return v;
}

Expected<bool> defineFlag(const Options &o, StringRef name, bool dflt) {
  const ParamBinding *given = nullptr;
  for (const ParamBinding &d : o.defines)
    if (d.name == name)
      given = &d;
  if (!given)
    return dflt;
  if (!given->isInteger() || (given->integer() != 0 && given->integer() != 1))
    return makeError("-D " + given->str() + ": " + name + " is a flag, 0 or 1");
  return given->integer() == 1;
}

std::vector<std::string> tuningDefines(const Options &o, ArrayRef<StringRef> own) {
  std::vector<std::string> tuning;
  for (const ParamBinding &d : o.defines)
    if (!is_contained(own, StringRef(d.name)))
      tuning.push_back(d.str());
  return tuning;
}

Expected<std::optional<NpyArray>> readInput(const Options &o, StringRef name) {
  auto it = o.inputs.find(name);
  if (it == o.inputs.end())
    return std::optional<NpyArray>();
  Expected<NpyArray> npy = readNpy(it->second);
  if (!npy)
    return npy.takeError();
  return std::optional<NpyArray>(std::move(*npy));
}

std::optional<int> parseOptions(ArrayRef<StringRef> args, Options &o) {
  o.kernel = args.front().str();
  for (size_t i = 1; i < args.size(); ++i) {
    StringRef a = args[i];
    auto value = [&](StringRef flag) -> std::optional<StringRef> {
      if (a.starts_with(flag.str() + "="))
        return a.drop_front(flag.size() + 1);
      if (a == flag && i + 1 < args.size())
        return args[++i];
      return std::nullopt;
    };
    auto number = [&](StringRef flag, double &out) -> bool {
      auto v = value(flag);
      return v && !v->getAsDouble(out) && out >= 0;
    };
    double d;
    if (a == "-h" || a == "--help") {
      outs() << kUsage << "\n";
      return 0;
    }
    if (a == "--verify") {
      o.verify = true;
    } else if (a == "--causal") {
      o.causal = true;
    } else if (a == "--check") {
      o.check = true;
    } else if (a == "--scale" || a.starts_with("--scale=")) {
      auto v = value("--scale");
      if (!v || v->getAsDouble(d))
        return fail("--scale needs a number");
      o.scale = d;
    } else if (a.starts_with("-D")) {
      if (a == "-D" && i + 1 >= args.size())
        return fail("-D needs NAME=VALUE");
      StringRef text = a == "-D" ? args[++i] : a.drop_front(2);
      // KERNEL.NAME=VALUE binds NAME in one kernel of the op.
      auto [scope, rest] = text.split('.');
      bool scoped = !rest.empty() && !scope.contains('=');
      Expected<ParamBinding> d = ParamBinding::parse(scoped ? rest : text);
      if (!d)
        return fail(toString(d.takeError()));
      if (scoped)
        o.scopedDefines.emplace_back(scope.str(), std::move(*d));
      else
        o.defines.push_back(std::move(*d));
    } else if (a == "--device" || a.starts_with("--device=")) {
      auto v = value("--device");
      if (!v) return fail("--device needs hip:N, emu:gfx942 or emu:gfx950");
      o.device = v->str();
    } else if (a == "--shape" || a.starts_with("--shape=")) {
      auto v = value("--shape");
      StringMap<std::string> pairs;
      if (!v || !parsePairs(*v, pairs))
        return fail("--shape needs NAME=VALUE[,NAME=VALUE...] (gemm: M, N, K; "
                    "attention: B, Sq, Skv, H, Hkv, D)");
      for (auto &e : pairs) {
        int64_t n;
        if (StringRef(e.second).getAsInteger(10, n))
          return fail("--shape: '" + e.second + "' is not an integer");
        o.shape[e.getKey()] = n;
      }
    } else if (a == "--seed" || a.starts_with("--seed=")) {
      auto v = value("--seed");
      if (!v || v->getAsInteger(0, o.seed))
        return fail("--seed needs an integer");
    } else if (a == "--inputs" || a.starts_with("--inputs=")) {
      auto v = value("--inputs");
      if (!v || !parsePairs(*v, o.inputs))
        return fail("--inputs needs NAME=FILE.npy[,NAME=FILE.npy...]");
    } else if (a == "--descale" || a.starts_with("--descale=")) {
      auto v = value("--descale");
      StringMap<std::string> pairs;
      if (!v || !parsePairs(*v, pairs))
        return fail("--descale needs q=X,k=Y,v=Z (any of them; the others are 1)");
      for (auto &e : pairs) {
        double x;
        if (!is_contained({"q", "k", "v"}, e.getKey()))
          return fail("--descale takes q, k and v; got '" + e.getKey() + "'");
        if (StringRef(e.second).getAsDouble(x) || !(std::isfinite(x) && x > 0))
          return fail("--descale " + e.getKey() + "=" + e.second +
                      ": a descale factor is a positive finite number");
        o.descale[e.getKey()] = x;
      }
    } else if (a == "--outputs" || a.starts_with("--outputs=")) {
      auto v = value("--outputs");
      if (!v) return fail("--outputs needs a directory");
      o.outputs = v->str();
    } else if (a == "--reference" || a.starts_with("--reference=")) {
      auto v = value("--reference");
      if (!v) return fail("--reference needs c=FILE.npy");
      StringRef file = *v;
      if (file.contains('=')) {
        auto [name, path] = file.split('=');
        if (name != "c")
          return fail("--reference compares the output c; got '" + name + "'");
        file = path;
      }
      o.reference = file.str();
    } else if (a == "--atol" || a.starts_with("--atol=")) {
      if (!number("--atol", d)) return fail("--atol needs a non-negative number");
      o.atol = d;
    } else if (a == "--rtol" || a.starts_with("--rtol=")) {
      if (!number("--rtol", d)) return fail("--rtol needs a non-negative number");
      o.rtol = d;
    } else if (o.timing.handles(a)) {
      // --timing [--steady-state[=K]] ...: the op's kernel on the model.
      size_t j = i;
      if (Error e = o.timing.parse(args, j))
        return fail(toString(std::move(e)));
      i = j;
    } else {
      return fail("unknown option '" + a + "' for a named kernel; " + kUsage);
    }
  }
  return std::nullopt;
}

Expected<Device &> openDevice(Runtime &runtime, const Options &o) {
  Expected<Device &> device =
      o.device.empty() ? runtime.defaultDevice() : runtime.device(o.device);
  if (!device)
    return device.takeError();
  if (o.check) {
    Device::EmulatorInstrumentation in;
    in.check = CheckRequest{true, 1, false};
    if (Error e = device->instrument(in))
      return makeError("--check: " + toString(std::move(e)));
  }
  return *device;
}

Expected<std::unique_ptr<OpTiming>> OpTiming::start(Device &device,
                                                    const Options &o,
                                                    double flops) {
  if (!o.timing.enabled())
    return nullptr;
  emu::timing::TimingOptions t = o.timing.timingOptions();
  if (t.flops == 0)
    t.flops = flops;
  std::optional<CheckRequest> check;
  if (o.check)
    check = CheckRequest{true, 1, false};
  Expected<std::unique_ptr<LaunchTiming>> timing = LaunchTiming::attach(device, t, check);
  if (!timing)
    return timing.takeError();
  return std::unique_ptr<OpTiming>(new OpTiming(std::move(*timing), o, device.chip()));
}

Error OpTiming::print(const LaunchResult &launch) {
  Expected<emu::timing::TimingReport> report = timing_->report(launch);
  if (!report)
    return report.takeError();
  return o_.timing.print(*report, chip_);
}

Expected<double> OpTiming::printSeconds(const LaunchResult &launch) {
  Expected<emu::timing::TimingReport> report = timing_->report(launch);
  if (!report)
    return report.takeError();
  if (Error e = o_.timing.print(*report, chip_))
    return std::move(e);
  return report->kernelSeconds;
}

} // namespace kcc::runkernel
