//===- KernelArg.h - A typed value passed to a kernel ----------*- C++ -*-===//
//
// What the host passes for one explicit kernel argument: a device buffer (or
// raw device address) for a pointer, a scalar of a stated C++ type for a
// value. The type travels with the value so that Kernel::launch can check it
// against the code object's metadata instead of copying bytes blindly.
// Implicit constructors let a launch read `kernel.launch(cfg, {a, b, n})`.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_KERNELARG_H
#define KCC_RUNTIME_KERNELARG_H

#include <cstdint>
#include <cstring>
#include <string>

namespace kcc {

class Buffer;

/// A device address that no Buffer owns (memory allocated elsewhere).
struct DevicePointer {
  uint64_t address = 0;
};

class KernelArgValue {
public:
  enum class Type { Buffer, Pointer, I32, U32, I64, U64, F32, F64 };

  KernelArgValue(const Buffer &buffer);
  KernelArgValue(DevicePointer p) : type_(Type::Pointer), bits_(p.address) {}
  KernelArgValue(int32_t v) : type_(Type::I32), bits_(uint32_t(v)) {}
  KernelArgValue(uint32_t v) : type_(Type::U32), bits_(v) {}
  KernelArgValue(int64_t v) : type_(Type::I64), bits_(uint64_t(v)) {}
  KernelArgValue(uint64_t v) : type_(Type::U64), bits_(v) {}
  KernelArgValue(float v) : type_(Type::F32) {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    bits_ = b;
  }
  KernelArgValue(double v) : type_(Type::F64) { std::memcpy(&bits_, &v, 8); }

  Type type() const { return type_; }
  bool isPointer() const {
    return type_ == Type::Buffer || type_ == Type::Pointer;
  }
  /// Bytes the value occupies in the kernarg segment.
  unsigned size() const;
  /// The buffer, for Type::Buffer (its device is checked at launch).
  const Buffer *buffer() const { return buffer_; }
  /// The bits to store (address for pointers), little-endian in size().
  uint64_t bits() const;
  /// "buffer", "i32", ...: for error messages.
  std::string typeName() const;

private:
  Type type_;
  uint64_t bits_ = 0;
  const Buffer *buffer_ = nullptr;
};

} // namespace kcc

#endif // KCC_RUNTIME_KERNELARG_H
