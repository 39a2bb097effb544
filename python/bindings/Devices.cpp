//===- Devices.cpp - kcc.Device, kcc.device(), the process's Runtime ------===//

#include "python/bindings/Bindings.h"

#include "kernels/EmbeddedKernels.h"
#include "runtime/Device.h"
#include "runtime/Runtime.h"

#include <pybind11/stl.h>

#include <cstdlib>
#include <mutex>

namespace kcc::python {

Runtime &runtime() {
  // kcc's own kernels by name, for kcc.compile("gemm").
  static std::once_flag once;
  std::call_once(once, [] { registerEmbeddedKernels(); });
  return take(Runtime::shared(), ErrorKind::General);
}

Device &resolveDevice(py::handle where) {
  if (where.is_none())
    return take(runtime().defaultDevice(), ErrorKind::General);
  if (py::isinstance<Device>(where))
    return where.cast<Device &>();
  if (py::isinstance<py::str>(where))
    return take(runtime().device(where.cast<std::string>()), ErrorKind::Value);
  throw py::type_error("a device is a kcc.Device, a spec string such as "
                       "\"emu:gfx950\" or \"hip:0\", or None; got " +
                       std::string(py::str(where.get_type().attr("__name__"))));
}

Device &defaultDeviceForHostData() {
  Device &device = take(runtime().defaultDevice(), ErrorKind::General);
  if (device.kind() == DeviceKind::Emu)
    return device;
  return take(runtime().device("emu:gfx950"), ErrorKind::General);
}

void bindDevices(py::module_ &m) {
  py::class_<Device>(m, "Device",
                     "A device kernels run on: a HIP GPU (\"hip:N\") or the "
                     "CPU emulator of a chip (\"emu:gfx942\", \"emu:gfx950\").")
      .def_property_readonly("spec", &Device::spec)
      .def_property_readonly(
          "kind",
          [](const Device &d) {
            return d.kind() == DeviceKind::Hip ? "hip" : "emu";
          })
      .def_property_readonly("chip",
                             [](const Device &d) { return getChipInfo(d.chip()).name.str(); })
      .def_property_readonly("description", &Device::description)
      .def_property_readonly("compute_units", &Device::computeUnits)
      .def("__repr__",
           [](const Device &d) { return "kcc.device(\"" + d.spec() + "\")"; })
      .def("__eq__", [](const Device &a, const Device &b) { return &a == &b; })
      .def("__hash__", [](const Device &d) { return std::hash<const Device *>()(&d); });

  // Devices live as long as the Runtime, which lives as long as the process.
  m.def(
      "device",
      [](py::object spec) -> Device & { return resolveDevice(spec); },
      py::arg("spec") = py::none(), py::return_value_policy::reference,
      "The device named by `spec` (\"emu:gfx950\", \"hip:0\"); without one, "
      "the default device: $KCC_DEVICE, else the first GPU, else the "
      "emulated gfx950.");
  m.def(
      "devices", [] { return runtime().devices(); },
      py::return_value_policy::reference,
      "The GPUs of this process, or the emulated devices when there is none.");
  m.def(
      "hip_status", [] { return runtime().hipStatus().str(); },
      "Why HIP devices are or are not used.");
}

} // namespace kcc::python
