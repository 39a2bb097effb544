//===- Buffer.h - RAII device memory ---------------------------*- C++ -*-===//
//
// A Buffer owns one allocation on one device and frees it when destroyed. It
// is move-only: two owners of one allocation would free it twice.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_BUFFER_H
#define KCC_RUNTIME_BUFFER_H

#include "runtime/Device.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace kcc {

class Buffer {
public:
  /// `bytes` of uninitialised device memory (at least one byte is reserved,
  /// so that even an empty buffer has a distinct address).
  static llvm::Expected<Buffer> allocate(Device &device, uint64_t bytes);
  /// A buffer holding a copy of `data`.
  template <typename T>
  static llvm::Expected<Buffer> fromHost(Device &device,
                                         llvm::ArrayRef<T> data) {
    auto buffer = allocate(device, data.size() * sizeof(T));
    if (!buffer)
      return buffer.takeError();
    if (llvm::Error e = buffer->write(data.data(), data.size() * sizeof(T)))
      return std::move(e);
    return buffer;
  }
  template <typename T>
  static llvm::Expected<Buffer> fromHost(Device &device,
                                         const std::vector<T> &data) {
    return fromHost(device, llvm::ArrayRef<T>(data));
  }

  /// A buffer over `bytes` of device memory at `address` that something
  /// else owns (a PyTorch tensor on a GPU, an allocation of the user's): it
  /// reads, writes and launches like any other and never frees the memory.
  /// The owner must keep it alive while the Buffer is in use.
  static Buffer borrow(Device &device, uint64_t address, uint64_t bytes) {
    Buffer b(device, address, bytes);
    b.owned_ = false;
    return b;
  }

  Buffer(Buffer &&other) noexcept;
  Buffer &operator=(Buffer &&other) noexcept;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer();

  Device &device() const { return *device_; }
  uint64_t address() const { return address_; }
  uint64_t size() const { return size_; }

  /// Host -> device at `offset`; the range must lie inside the buffer.
  llvm::Error write(const void *src, uint64_t bytes, uint64_t offset = 0);
  /// Device -> host from `offset`.
  llvm::Error read(void *dst, uint64_t bytes, uint64_t offset = 0) const;
  llvm::Error fill(uint8_t value);
  /// The whole buffer as elements of T (size must be a multiple of T's).
  template <typename T> llvm::Expected<std::vector<T>> toHost() const {
    if (size_ % sizeof(T))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "buffer of " + std::to_string(size_) +
              " bytes is not a whole number of " +
              std::to_string(sizeof(T)) + "-byte elements");
    std::vector<T> out(size_ / sizeof(T));
    if (llvm::Error e = read(out.data(), size_))
      return std::move(e);
    return out;
  }

  /// Frees now (a borrowed buffer only lets go); the Buffer is empty
  /// afterwards. The destructor does this too, but cannot report a failure.
  llvm::Error release();

private:
  Buffer(Device &device, uint64_t address, uint64_t size)
      : device_(&device), address_(address), size_(size) {}
  llvm::Error checkRange(uint64_t bytes, uint64_t offset,
                         llvm::StringRef what) const;

  Device *device_ = nullptr;
  uint64_t address_ = 0;
  uint64_t size_ = 0;
  bool owned_ = true;
};

} // namespace kcc

#endif // KCC_RUNTIME_BUFFER_H
