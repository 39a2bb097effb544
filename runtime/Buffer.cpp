//===- Buffer.cpp - RAII device memory ------------------------------------===//
#include "runtime/Buffer.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace kcc {

Expected<Buffer> Buffer::allocate(Device &device, uint64_t bytes) {
  Expected<uint64_t> address = device.allocate(bytes ? bytes : 1);
  if (!address)
    return createStringError(inconvertibleErrorCode(),
                             "cannot allocate " + Twine(bytes) + " bytes on " +
                                 device.spec() + ": " +
                                 toString(address.takeError()));
  return Buffer(device, *address, bytes);
}

Buffer::Buffer(Buffer &&other) noexcept
    : device_(other.device_), address_(other.address_), size_(other.size_),
      owned_(other.owned_) {
  other.device_ = nullptr;
  other.address_ = 0;
  other.size_ = 0;
}

Buffer &Buffer::operator=(Buffer &&other) noexcept {
  if (this != &other) {
    consumeError(release());
    device_ = other.device_;
    address_ = other.address_;
    size_ = other.size_;
    owned_ = other.owned_;
    other.device_ = nullptr;
    other.address_ = 0;
    other.size_ = 0;
  }
  return *this;
}

Buffer::~Buffer() {
  // A destructor cannot return the error; a failed free at teardown (device
  // lost) leaves nothing the caller could do. release() reports it.
  if (Error e = release())
    errs() << "kcc: warning: " << toString(std::move(e)) << "\n";
}

Error Buffer::release() {
  if (!device_)
    return Error::success();
  Device *d = device_;
  uint64_t a = address_;
  bool owned = owned_;
  device_ = nullptr;
  address_ = 0;
  size_ = 0;
  owned_ = true;
  return owned ? d->free(a) : Error::success();
}

Error Buffer::checkRange(uint64_t bytes, uint64_t offset, StringRef what) const {
  if (!device_)
    return createStringError(inconvertibleErrorCode(),
                             "cannot " + what + " an empty (moved-from or "
                             "released) buffer");
  if (offset > size_ || bytes > size_ - offset)
    return createStringError(inconvertibleErrorCode(),
                             "cannot " + what + " " + Twine(bytes) +
                                 " bytes at offset " + Twine(offset) +
                                 " of a " + Twine(size_) + "-byte buffer");
  return Error::success();
}

Error Buffer::write(const void *src, uint64_t bytes, uint64_t offset) {
  if (Error e = checkRange(bytes, offset, "write"))
    return e;
  return bytes ? device_->copyToDevice(address_ + offset, src, bytes)
               : Error::success();
}

Error Buffer::read(void *dst, uint64_t bytes, uint64_t offset) const {
  if (Error e = checkRange(bytes, offset, "read"))
    return e;
  return bytes ? device_->copyFromDevice(dst, address_ + offset, bytes)
               : Error::success();
}

Error Buffer::fill(uint8_t value) {
  if (Error e = checkRange(size_, 0, "fill"))
    return e;
  return size_ ? device_->memset(address_, value, size_) : Error::success();
}

} // namespace kcc
