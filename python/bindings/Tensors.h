//===- Tensors.h - Arrays from Python, and their copies on a device -*- C++ -*-===//
//
// Ops and Kernel.launch take any array Python has: objects with __dlpack__
// (PyTorch tensors, NumPy arrays, and whatever else speaks DLPack) and, for
// the rest (read-only NumPy arrays, memoryviews), the buffer protocol.
// importTensor() reads one into a TensorView without copying; StagedTensor
// then puts it on the device an op runs on: host (CPU) memory is copied into
// a device buffer (and back, for outputs), memory already on a ROCm GPU is
// borrowed in place.
//
// Element types: bf16 comes as torch.bfloat16, or from NumPy (which has no
// bfloat16) as a uint16 array of the bits; float16 is f16.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_PYTHON_BINDINGS_TENSORS_H
#define KCC_PYTHON_BINDINGS_TENSORS_H

#include "python/bindings/Bindings.h"

#include "runtime/Buffer.h"
#include "runtime/DType.h"

#include <optional>
#include <string>
#include <vector>

namespace kcc::python {

struct TensorView {
  /// The argument's name, for messages ("q", "argument 2").
  std::string name;
  /// Host memory, or a ROCm GPU's (deviceIndex: its HIP ordinal).
  bool onGpu = false;
  int deviceIndex = 0;
  /// The element at index (0, ..., 0).
  uint8_t *data = nullptr;
  unsigned elementBytes = 0;
  /// kcc's type for the elements; none when kcc has no such type.
  std::optional<DType> dtype;
  /// The producer's name for the type ("bfloat16", "uint16", "float64").
  std::string typeName;
  std::vector<int64_t> shape, strides; // strides in elements, all >= 0
  bool readOnly = false;
  /// Keeps the producer's memory alive (released with the GIL held).
  py::object owner;

  int64_t elements() const;
  /// Elements from data to one past the last element the view reaches.
  int64_t spanElements() const;
  bool isContiguous() const;
  /// "cpu" or "rocm:N".
  std::string placeName() const;
};

/// Reads `object` as an array (TypeError when it is none).
TensorView importTensor(py::handle object, const std::string &name);

/// A TensorView on a device: a buffer holding the view's span (host data is
/// copied in; GPU memory is borrowed), with the view's strides unchanged.
class StagedTensor {
public:
  /// Copies host data in unless `copyIn` is false and the view covers its
  /// whole span (an output that every element of is written).
  static llvm::Expected<StagedTensor> stage(Device &device,
                                            const TensorView &view,
                                            bool copyIn = true);
  const Buffer &buffer() const { return buffer_; }
  /// Host views: copies the span back from the device (outputs).
  llvm::Error copyBack() const;

private:
  StagedTensor(Buffer buffer, const TensorView &view)
      : buffer_(std::move(buffer)), view_(&view) {}
  Buffer buffer_;
  const TensorView *view_;
};

/// The device every one of `views` can run on: `where` if given (checked
/// against GPU-resident views, which only run in place), else the GPU they
/// live on, else defaultDeviceForHostData(). ValueError when views live in
/// different places.
Device &deviceFor(const std::vector<const TensorView *> &views,
                  py::handle where);

} // namespace kcc::python

#endif // KCC_PYTHON_BINDINGS_TENSORS_H
