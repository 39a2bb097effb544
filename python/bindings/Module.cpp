//===- Module.cpp - The _kcc extension module -----------------------------===//
//
// The C++ half of the kcc package (python/kcc/__init__.py is the face users
// import): devices, compile and launch, the ops, and kcc's exceptions.
//
//===----------------------------------------------------------------------===//

#include "python/bindings/Bindings.h"

#include "compiler/BuildIdentity.h"

PYBIND11_MODULE(_kcc, m) {
  using namespace kcc::python;
  m.doc() = "kcc's runtime and ops (the C++ half of the kcc package)";
  bindErrors(m);
  bindDevices(m);
  bindKernels(m);
  bindOps(m);
  m.attr("__version__") = kcc::buildIdentity().version;
  m.attr("build_identity") = kcc::buildIdentity().id;
}
