//===- KernelArg.cpp - A typed value passed to a kernel -------------------===//
#include "runtime/KernelArg.h"
#include "runtime/Buffer.h"

namespace kcc {

KernelArgValue::KernelArgValue(const Buffer &buffer)
    : type_(Type::Buffer), bits_(buffer.address()), buffer_(&buffer) {}

unsigned KernelArgValue::size() const {
  switch (type_) {
  case Type::I32:
  case Type::U32:
  case Type::F32:
    return 4;
  default:
    return 8;
  }
}

uint64_t KernelArgValue::bits() const {
  // Read the buffer's address at launch time, not at construction: a Buffer
  // may have been moved into place after the argument list was built.
  return type_ == Type::Buffer ? buffer_->address() : bits_;
}

std::string KernelArgValue::typeName() const {
  switch (type_) {
  case Type::Buffer: return "buffer";
  case Type::Pointer: return "device pointer";
  case Type::I32: return "i32";
  case Type::U32: return "u32";
  case Type::I64: return "i64";
  case Type::U64: return "u64";
  case Type::F32: return "f32";
  case Type::F64: return "f64";
  }
  return "?";
}

} // namespace kcc
