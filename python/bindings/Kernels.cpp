//===- Kernels.cpp - kcc compile -> Module -> Kernel.launch, LaunchInfo ---===//
//
// The Python face of runtime/Module.h and runtime/Kernel.h: compile a kernel
// of kernels/ or tile-dialect source through the shared JIT (the same caches
// as C++), and launch it with arrays for pointer arguments and Python numbers
// for values, checked against the code object's metadata before it runs.
//
//===----------------------------------------------------------------------===//

#include "python/bindings/Bindings.h"
#include "python/bindings/Tensors.h"

#include "runtime/Device.h"
#include "runtime/Jit.h"
#include "runtime/Kernel.h"
#include "runtime/KernelArg.h"
#include "runtime/Module.h"
#include "target/CodeObject.h"

#include <pybind11/stl.h>

#include <chrono>
#include <cmath>
#include <limits>

namespace kcc::python {

namespace {

/// A Module with what the JIT said of it.
struct CompiledModule {
  Module module;
  std::string cacheKey;
  std::string cacheOutcome; // outcomeId(): "compiled", "memory-hit", ...
  double compileSeconds = 0;
};

/// Identifiers, not the C++ API's prose ("memory cache hit"): Python code
/// compares them.
const char *outcomeId(CacheOutcome outcome) {
  switch (outcome) {
  case CacheOutcome::Compiled:
    return "compiled";
  case CacheOutcome::MemoryHit:
    return "memory-hit";
  case CacheOutcome::DiskHit:
    return "disk-hit";
  case CacheOutcome::Override:
    return "override";
  }
  return "unknown";
}

CompiledModule compileModule(const std::string &source,
                             const std::vector<std::string> &params,
                             py::handle where) {
  Device &device = resolveDevice(where);
  Jit &jit = Jit::shared();
  py::gil_scoped_release release;
  // The JIT's answer, kept for where it came from and its key.
  CompiledKernel compiled =
      take(jit.compile(source, params, device.chip()), ErrorKind::Compile);
  Module module = take(Module::load(device, compiled), ErrorKind::Compile);
  return CompiledModule{std::move(module), compiled.key,
                        outcomeId(compiled.outcome), compiled.seconds};
}

Dim3 toDim3(py::handle value, const char *what) {
  std::vector<int64_t> dims;
  if (py::isinstance<py::int_>(value))
    dims.push_back(value.cast<int64_t>());
  else if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value))
    dims = value.cast<std::vector<int64_t>>();
  else
    throw py::type_error(std::string(what) +
                         " is an int or a tuple of up to 3 ints");
  if (dims.empty() || dims.size() > 3)
    throw py::value_error(std::string(what) + " has 1 to 3 dimensions; got " +
                          std::to_string(dims.size()));
  Dim3 d;
  uint32_t *out[3] = {&d.x, &d.y, &d.z};
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 1 || dims[i] > std::numeric_limits<uint32_t>::max())
      throw py::value_error(std::string(what) + " dimension " +
                            std::to_string(i) + " is " +
                            std::to_string(dims[i]) +
                            "; it must be at least 1 and fit 32 bits");
    *out[i] = uint32_t(dims[i]);
  }
  return d;
}

/// A Python number as the value argument `slot` expects (its size says
/// which width; the Python type says integer or float).
KernelArgValue valueArgument(py::handle value, const KernelArg &slot,
                             const std::string &what) {
  if (py::isinstance<py::bool_>(value) || py::isinstance<py::int_>(value)) {
    py::int_ i = py::reinterpret_borrow<py::int_>(value);
    if (slot.size == 4) {
      int64_t v;
      try {
        v = i.cast<int64_t>();
      } catch (py::cast_error &) {
        v = std::numeric_limits<int64_t>::max();
      }
      if (v < std::numeric_limits<int32_t>::min() ||
          v > int64_t(std::numeric_limits<uint32_t>::max()))
        throw py::value_error(what + " is a 4-byte value; " +
                              std::string(py::str(value)) +
                              " does not fit 32 bits");
      return v > std::numeric_limits<int32_t>::max()
                 ? KernelArgValue(uint32_t(v))
                 : KernelArgValue(int32_t(v));
    }
    if (slot.size == 8) {
      try {
        return KernelArgValue(i.cast<int64_t>());
      } catch (py::cast_error &) {
        try {
          return KernelArgValue(i.cast<uint64_t>());
        } catch (py::cast_error &) {
          throw py::value_error(what + " is an 8-byte value; " +
                                std::string(py::str(value)) +
                                " does not fit 64 bits");
        }
      }
    }
  } else if (py::isinstance<py::float_>(value)) {
    double v = value.cast<double>();
    if (slot.size == 4)
      return KernelArgValue(float(v));
    if (slot.size == 8)
      return KernelArgValue(v);
  } else {
    throw py::type_error(what + " is a " + std::to_string(slot.size) +
                         "-byte value; pass a Python int or float, not " +
                         std::string(py::str(value.get_type().attr("__name__"))));
  }
  throw py::value_error(what + " is a " + std::to_string(slot.size) +
                        "-byte value, which no Python number maps to");
}

LaunchInfo launchKernel(const Kernel &kernel, py::handle gridValue,
                        py::handle blockValue, py::args args,
                        uint32_t dynamicLds, bool checkMode, uint64_t seed,
                        uint64_t stream) {
  auto start = std::chrono::steady_clock::now();
  LaunchConfig config;
  config.grid = toDim3(gridValue, "grid");
  config.block = toDim3(blockValue, "block");
  config.dynamicLdsBytes = dynamicLds;
  config.check.enabled = checkMode;
  config.check.seed = seed;
  config.stream = stream;
  std::vector<const KernelArg *> slots = kernel.info().explicitArgs();
  if (args.size() != slots.size())
    throw py::value_error("kernel '" + kernel.name().str() + "' takes " +
                          std::to_string(slots.size()) + " arguments; got " +
                          std::to_string(args.size()));

  // Views and staged copies first (they must outlive the values that point
  // at their buffers), then the values in the metadata's order.
  std::vector<TensorView> views;
  views.reserve(args.size());
  std::vector<std::optional<StagedTensor>> staged(args.size());
  std::vector<bool> writeBack(args.size(), false);
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg &slot = *slots[i];
    if (slot.kind != ArgKind::GlobalBuffer)
      continue;
    std::string what = "argument " + std::to_string(i) +
                       (slot.name.empty() ? "" : " ('" + slot.name + "')");
    views.push_back(importTensor(args[i], what));
    const TensorView &view = views.back();
    if (view.onGpu && kernel.device().spec() !=
                          "hip:" + std::to_string(view.deviceIndex))
      throw py::value_error(what + " is on " + view.placeName() +
                            "; the kernel is loaded on " +
                            kernel.device().spec());
    staged[i] = take(StagedTensor::stage(kernel.device(), view),
                     ErrorKind::General);
    writeBack[i] = !view.readOnly && !(slot.accessQualifier &&
                                       *slot.accessQualifier == "read_only");
  }
  std::vector<KernelArgValue> values;
  values.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArg &slot = *slots[i];
    std::string what = "argument " + std::to_string(i) +
                       (slot.name.empty() ? "" : " ('" + slot.name + "')") +
                       " of kernel '" + kernel.name().str() + "'";
    if (staged[i])
      values.emplace_back(staged[i]->buffer());
    else if (slot.kind == ArgKind::ByValue)
      values.push_back(valueArgument(args[i], slot, what));
    else
      throw py::value_error(what + " has value kind '" + slot.valueKind +
                            "', which the runtime cannot pass");
  }
  // Every check the launch makes, before anything runs.
  check(kernel.packArguments(values).takeError(), ErrorKind::Value);
  check(kernel.checkConfig(config), ErrorKind::Value);

  LaunchResult result;
  double opSeconds = 0;
  {
    py::gil_scoped_release release;
    auto launchStart = std::chrono::steady_clock::now();
    result = take(kernel.launch(config, values), ErrorKind::Launch);
    opSeconds = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - launchStart)
                    .count();
    for (size_t i = 0; i < args.size(); ++i)
      if (staged[i] && writeBack[i])
        check(staged[i]->copyBack(), ErrorKind::Launch);
  }
  LaunchInfo info = launchInfo(result, kernel.device());
  info.opSeconds = opSeconds;
  info.grid = config.grid;
  info.block = config.block;
  info.callSeconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
  return info;
}

py::dict argumentInfo(const KernelArg &arg) {
  py::dict d;
  d["name"] = arg.name;
  d["kind"] = arg.kind == ArgKind::GlobalBuffer ? "pointer" : "value";
  d["value_kind"] = arg.valueKind;
  d["size"] = arg.size;
  d["offset"] = arg.offset;
  d["type_name"] = arg.typeName;
  d["access"] = arg.accessQualifier ? py::cast(*arg.accessQualifier)
                                    : py::none();
  return d;
}

py::tuple dimTuple(const Dim3 &d) { return py::make_tuple(d.x, d.y, d.z); }

} // namespace

LaunchInfo launchInfo(const LaunchResult &result, const Device &device) {
  LaunchInfo info;
  info.deviceMilliseconds = result.deviceMilliseconds;
  info.waveInstructions = result.waveInstructions;
  info.workgroups = result.workgroups;
  info.hostSeconds = result.hostSeconds;
  info.device = device.spec();
  return info;
}

void bindKernels(py::module_ &m) {
  py::class_<LaunchInfo>(m, "LaunchInfo",
                         "What a launch reported: GPU milliseconds on a HIP "
                         "device, wave instructions on the emulator.")
      .def_readonly("device_ms", &LaunchInfo::deviceMilliseconds)
      .def_readonly("wave_instructions", &LaunchInfo::waveInstructions)
      .def_readonly("workgroups", &LaunchInfo::workgroups)
      .def_readonly("host_seconds", &LaunchInfo::hostSeconds,
                    "Host wall time of the device's launch call.")
      .def_readonly("op_seconds", &LaunchInfo::opSeconds,
                    "Host wall time of the C++ op (or Kernel::launch) call: "
                    "what the same call costs from C++.")
      .def_readonly("call_seconds", &LaunchInfo::callSeconds,
                    "Host wall time of the whole binding call (reading the "
                    "arrays, copying host data in and out, the op).")
      .def_readonly("device", &LaunchInfo::device)
      .def_readonly("path", &LaunchInfo::path)
      .def_readonly("params", &LaunchInfo::params)
      .def_property_readonly("grid",
                             [](const LaunchInfo &i) { return dimTuple(i.grid); })
      .def_property_readonly("block",
                             [](const LaunchInfo &i) { return dimTuple(i.block); })
      .def("__repr__", [](const LaunchInfo &i) {
        std::string s = "LaunchInfo(device=" + i.device;
        if (!i.path.empty())
          s += ", path=" + i.path;
        if (i.deviceMilliseconds)
          s += ", device_ms=" + std::to_string(*i.deviceMilliseconds);
        if (i.waveInstructions)
          s += ", wave_instructions=" + std::to_string(*i.waveInstructions);
        return s + ", workgroups=" + std::to_string(i.workgroups) + ")";
      });

  py::class_<Kernel>(m, "Kernel", "One kernel of a compiled module.")
      .def_property_readonly("name",
                             [](const Kernel &k) { return k.name().str(); })
      .def_property_readonly("device", &Kernel::device,
                             py::return_value_policy::reference)
      .def_property_readonly("args",
                             [](const Kernel &k) {
                               py::list l;
                               for (const KernelArg *a : k.info().explicitArgs())
                                 l.append(argumentInfo(*a));
                               return l;
                             })
      .def_property_readonly("vgprs", [](const Kernel &k) { return k.info().vgprCount; })
      .def_property_readonly("agprs", [](const Kernel &k) { return k.info().agprCount; })
      .def_property_readonly("sgprs", [](const Kernel &k) { return k.info().sgprCount; })
      .def_property_readonly("lds_bytes",
                             [](const Kernel &k) { return k.info().groupSegmentFixedSize; })
      .def_property_readonly("scratch_bytes",
                             [](const Kernel &k) { return k.info().privateSegmentFixedSize; })
      .def_property_readonly("max_block",
                             [](const Kernel &k) { return k.info().maxFlatWorkgroupSize; })
      .def("launch", &launchKernel, py::arg("grid"), py::arg("block"),
           py::kw_only(), py::arg("dynamic_lds") = 0, py::arg("check") = false,
           py::arg("seed") = 1, py::arg("stream") = 0,
           "launch(grid, block, *args, dynamic_lds=0, check=False, seed=1, "
           "stream=0): runs the kernel and waits for it. Arrays for pointer "
           "arguments (host arrays are copied to the device and back), Python "
           "numbers for values; everything is checked against the metadata "
           "first. `stream`: a hipStream_t (as an int) on HIP devices.")
      .def("__repr__", [](const Kernel &k) {
        return "<kcc.Kernel '" + k.name().str() + "' on " + k.device().spec() +
               ">";
      });

  py::class_<CompiledModule>(m, "Module", "A compiled, loaded code object.")
      .def_property_readonly("device",
                             [](const CompiledModule &c) -> Device & {
                               return c.module.device();
                             },
                             py::return_value_policy::reference)
      .def_property_readonly("kernel_names",
                             [](const CompiledModule &c) {
                               return c.module.kernelNames();
                             })
      .def("kernel",
           [](const CompiledModule &c, const std::string &name) {
             return take(c.module.kernel(name), ErrorKind::Value);
           })
      .def_readonly("cache_key", &CompiledModule::cacheKey)
      .def_readonly("cache_outcome", &CompiledModule::cacheOutcome)
      .def_readonly("compile_seconds", &CompiledModule::compileSeconds);

  m.def("_compile", &compileModule, py::arg("source"), py::arg("params"),
        py::arg("device"));

  m.def("jit_stats", [] {
    JitStats s = Jit::shared().stats();
    py::dict d;
    d["compiles"] = s.compiles;
    d["memory_hits"] = s.memoryHits;
    d["disk_hits"] = s.diskHits;
    d["disk_misses"] = s.diskMisses;
    d["damaged_entries"] = s.damagedEntries;
    d["stale_entries"] = s.staleEntries;
    d["evictions"] = s.evictions;
    return d;
  }, "Counters of the process's JIT since it started.");
  m.def("cache_dir", [] { return Jit::shared().cacheDirectory().str(); },
        "The JIT's disk cache folder ($KCC_CACHE_DIR, else ~/.cache/kcc).");
}

} // namespace kcc::python
