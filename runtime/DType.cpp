//===- DType.cpp - Element types of device buffers ------------------------===//
#include "runtime/DType.h"

#include <cstring>

namespace kcc {

unsigned dtypeSize(DType type) {
  switch (type) {
  case DType::bf16:
  case DType::f16:
    return 2;
  case DType::f32:
  case DType::i32:
    return 4;
  }
  return 0;
}

llvm::StringRef dtypeName(DType type) {
  switch (type) {
  case DType::bf16: return "bf16";
  case DType::f16: return "f16";
  case DType::f32: return "f32";
  case DType::i32: return "i32";
  }
  return "?";
}

std::optional<DType> parseDType(llvm::StringRef name) {
  if (name == "bf16") return DType::bf16;
  if (name == "f16") return DType::f16;
  if (name == "f32") return DType::f32;
  if (name == "i32") return DType::i32;
  return std::nullopt;
}


} // namespace kcc
