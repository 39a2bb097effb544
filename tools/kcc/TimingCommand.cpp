//===- TimingCommand.cpp - `kcc run --timing` options and output ----------===//
#include "tools/kcc/TimingCommand.h"
#include "target/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
namespace kcc {
bool TimingCommand::handles(StringRef a) const {
  for (StringRef flag : {"--timing", "--timing-cus", "--steady-state", "--first-round", "--trip-count",
                         "--flops", "--dram-bytes", "--timeline", "--timeline-iterations",
                         "--timeline-window", "--bank-conflicts", "--blame", "--timing-constants",
                         "--timing-trace-cap"})
    if (a == flag || a.starts_with((flag + "=").str()))
      return true;
  return false;
}

Error TimingCommand::parse(ArrayRef<StringRef> args, size_t &i) {
  StringRef a = args[i];
  auto [flag, inlineValue] = a.split('=');
  bool hasInline = a.contains('=');
  auto value = [&]() -> std::optional<StringRef> {
    if (hasInline)
      return inlineValue;
    if (i + 1 < args.size())
      return args[++i];
    return std::nullopt;
  };
  on = true;
  if (flag == "--timing") {
    if (hasInline)
      return makeError("--timing takes no value");
    return Error::success();
  }
  if (flag == "--bank-conflicts") {
    bankConflicts = true;
    return Error::success();
  }
  if (flag == "--blame") {
    if (hasInline)
      return makeError("--blame takes no value");
    // The blame is read off each wave's spans (runtime/emu/timing/Blame.h).
    options.recordSpans = true;
    return Error::success();
  }
  if (flag == "--timing-constants") {
    constants = true;
    return Error::success();
  }
  if (flag == "--steady-state") {
    options.steadyStateIterations = 8;
    if (hasInline && (inlineValue.getAsInteger(0, options.steadyStateIterations) ||
                      options.steadyStateIterations < 3))
      return makeError("--steady-state=K needs K >= 3 (the first iteration is the fill)");
    return Error::success();
  }
  if (flag == "--first-round") {
    if (hasInline)
      return makeError("--first-round takes no value");
    options.firstRoundOnly = true;
    return Error::success();
  }
  auto v = value();
  if (!v)
    return makeError(flag + " needs a value");
  if (flag == "--timing-cus") {
    if (v->getAsInteger(0, options.computeUnits) || !options.computeUnits)
      return makeError("--timing-cus needs a positive count");
  } else if (flag == "--timing-trace-cap") {
    if (v->getAsInteger(0, options.maxTracedInstructions) || !options.maxTracedInstructions)
      return makeError("--timing-trace-cap needs a positive count of wave instructions");
  } else if (flag == "--trip-count") {
    if (v->getAsInteger(0, options.tripCount) || !options.tripCount)
      return makeError("--trip-count needs a positive count");
  } else if (flag == "--flops") {
    if (v->getAsDouble(options.flops) || options.flops <= 0)
      return makeError("--flops needs a positive number");
  } else if (flag == "--dram-bytes") {
    if (v->getAsDouble(options.dramBytes) || options.dramBytes < 0)
      return makeError("--dram-bytes needs a byte count");
  } else if (flag == "--timeline") {
    timelinePath = v->str();
    options.recordSpans = true;
  } else if (flag == "--timeline-iterations") {
    if (v->getAsInteger(0, timeline.iterations) || !timeline.iterations)
      return makeError("--timeline-iterations needs a positive count");
  } else if (flag == "--timeline-window") {
    auto [b, e] = v->split(':');
    if (b.getAsInteger(0, timeline.begin) || e.getAsInteger(0, timeline.end) ||
        timeline.end <= timeline.begin)
      return makeError("--timeline-window needs BEGIN:END cycles with BEGIN < END");
  }
  return Error::success();
}

Expected<LaunchResult> TimingCommand::launch(Device &device, LoadedCode &code,
                                             const KernelInfo &kernel,
                                             const LaunchConfig &config,
                                             ArrayRef<uint8_t> kernarg,
                                             const Device::EmulatorInstrumentation &base) {
  LaunchResult result;
  auto report = emu::timing::estimate(
      device.chip(), kernel, {config.grid.x, config.grid.y, config.grid.z},
      {config.block.x, config.block.y, config.block.z}, config.dynamicLdsBytes,
      options,
      [&](emu::Observer &observer,
          uint64_t limit) -> Expected<emu::LaunchStats> {
        Device::EmulatorInstrumentation in = base;
        in.observer = &observer;
        in.workgroupLimit = limit;
        if (Error e = device.instrument(in))
          return std::move(e);
        Expected<LaunchResult> r = device.launch(code, kernel, config, kernarg);
        consumeError(device.instrument(base));
        if (!r)
          return r.takeError();
        result = *r;
        emu::LaunchStats stats;
        stats.waveInstructions = r->waveInstructions.value_or(0);
        stats.workgroups = r->workgroups;
        return stats;
      });
  if (!report)
    return report.takeError();
  if (Error e = print(*report, device.chip()))
    return std::move(e);
  return result;
}

Error TimingCommand::print(const emu::timing::TimingReport &report, Chip chip) const {
  if (constants)
    emu::timing::printConstants(chip, outs());
  emu::timing::printReport(report, outs());
  if (bankConflicts)
    emu::timing::printBankConflicts(report, outs());
  if (!timelinePath.empty()) {
    std::error_code ec;
    raw_fd_ostream os(timelinePath, ec, sys::fs::OF_Text);
    if (ec)
      return makeError("cannot write '" + timelinePath + "': " + ec.message());
    emu::timing::writeTimelineSvg(report, timeline, os);
    auto [b, e] = emu::timing::timelineWindow(report, timeline);
    outs() << "  timeline: " << timelinePath << " (cycles " << b << " to " << e << ")\n";
  }
  return Error::success();
}

TimingCommand TimingCommand::forPart(StringRef part) const {
  TimingCommand t = *this;
  if (!timelinePath.empty()) {
    StringRef path(timelinePath);
    StringRef stem = path.ends_with(".svg") ? path.drop_back(4) : path;
    t.timelinePath = (stem + "." + part + ".svg").str();
  }
  return t;
}

} // namespace kcc
