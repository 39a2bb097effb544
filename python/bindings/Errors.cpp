//===- Errors.cpp - kcc's exceptions and llvm::Error -> Python -----------===//

#include "python/bindings/Bindings.h"

namespace kcc::python {

void raise(llvm::Error error, ErrorKind kind) {
  std::string message = llvm::toString(std::move(error));
  switch (kind) {
  case ErrorKind::Value:
    throw py::value_error(message);
  case ErrorKind::Type:
    throw py::type_error(message);
  case ErrorKind::Compile:
    throw CompileError(message);
  case ErrorKind::Launch:
    throw LaunchError(message);
  case ErrorKind::General:
    break;
  }
  throw Error(message);
}

void bindErrors(py::module_ &m) {
  // The classes, with RuntimeError as the base of all three: code that
  // catches RuntimeError around a torch call keeps working around kcc's.
  auto &base = py::register_exception<Error>(m, "Error", PyExc_RuntimeError);
  py::register_exception<CompileError>(m, "CompileError", base.ptr());
  py::register_exception<LaunchError>(m, "LaunchError", base.ptr());
}

} // namespace kcc::python
