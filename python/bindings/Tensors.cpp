//===- Tensors.cpp - Arrays from Python, and their copies on a device -----===//

#include "python/bindings/Tensors.h"

#include "runtime/Device.h"
#include "runtime/Runtime.h"
#include "target/Error.h"

#include "llvm/ADT/Twine.h"

#include <cstring>

namespace kcc::python {

namespace {

// The DLPack ABI (dmlc/dlpack, dlpack.h, the unversioned DLManagedTensor
// that __dlpack__ returns in a capsule named "dltensor"), spelled out here
// as the specification lays it out: Debian has no package of the header.
enum DLDeviceType : int32_t {
  kDLCPU = 1,
  kDLCUDAHost = 3,
  kDLROCM = 10,
  kDLROCMHost = 11,
};
enum DLTypeCode : uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLBfloat = 4,
};
struct DLDevice {
  int32_t deviceType;
  int32_t deviceId;
};
struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides; // elements; null: compact row-major
  uint64_t byteOffset;
};
struct DLManagedTensor {
  DLTensor tensor;
  void *managerContext;
  void (*deleter)(DLManagedTensor *self);
};

std::string dlpackTypeName(DLDataType t) {
  std::string bits = std::to_string(t.bits);
  switch (t.code) {
  case kDLInt:
    return "int" + bits;
  case kDLUInt:
    return "uint" + bits;
  case kDLFloat:
    return "float" + bits;
  case kDLBfloat:
    return "bfloat" + bits;
  default:
    return "DLPack type code " + std::to_string(t.code) + " of " + bits +
           " bits";
  }
}

/// kcc's type for elements `typeName` names, bf16 also from uint16 bits.
std::optional<DType> dtypeFromName(const std::string &name) {
  if (name == "bfloat16" || name == "uint16")
    return DType::bf16;
  if (name == "float16")
    return DType::f16;
  if (name == "float32")
    return DType::f32;
  if (name == "int32")
    return DType::i32;
  if (name == "int8")
    return DType::i8;
  return std::nullopt;
}

void requireNonNegativeStrides(const TensorView &view) {
  for (size_t i = 0; i < view.strides.size(); ++i)
    if (view.strides[i] < 0 && view.shape[i] > 1)
      throw py::value_error(view.name + ": dimension " + std::to_string(i) +
                            " has a negative stride (a flipped view); pass a "
                            "copy (.contiguous() / .copy())");
}

bool importDlpack(py::handle object, TensorView &view) {
  py::object source = py::reinterpret_borrow<py::object>(object);
  // PyTorch refuses to export a tensor that requires grad; the op only
  // reads or writes its memory, which the detached alias shares.
  if (py::hasattr(source, "requires_grad") &&
      py::bool_(source.attr("requires_grad")))
    source = source.attr("detach")();
  py::object capsule;
  try {
    capsule = source.attr("__dlpack__")();
  } catch (py::error_already_set &e) {
    // NumPy cannot export a read-only array this way: the buffer protocol
    // can.
    if (e.matches(PyExc_BufferError))
      return false;
    throw;
  }
  auto *managed = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (!managed)
    throw py::error_already_set();
  // The consumer renames the capsule and owns the tensor from here on: the
  // producer's capsule destructor leaves a renamed capsule alone.
  PyCapsule_SetName(capsule.ptr(), "used_dltensor");
  view.owner = py::capsule(managed, [](void *p) {
    auto *m = static_cast<DLManagedTensor *>(p);
    if (m->deleter)
      m->deleter(m);
  });

  const DLTensor &t = managed->tensor;
  switch (t.device.deviceType) {
  case kDLCPU:
  case kDLCUDAHost:
  case kDLROCMHost:
    view.onGpu = false;
    break;
  case kDLROCM:
    view.onGpu = true;
    view.deviceIndex = t.device.deviceId;
    break;
  default:
    throw py::value_error(view.name + ": memory of DLPack device type " +
                          std::to_string(t.device.deviceType) +
                          " (kcc runs host arrays on the emulator and ROCm "
                          "GPU tensors in place; move it to the CPU)");
  }
  if (t.dtype.lanes != 1 || t.dtype.bits % 8 != 0 || t.dtype.bits == 0)
    throw py::type_error(view.name + ": vector or sub-byte elements (" +
                         dlpackTypeName(t.dtype) + ") are not supported");
  view.typeName = dlpackTypeName(t.dtype);
  view.dtype = dtypeFromName(view.typeName);
  view.elementBytes = t.dtype.bits / 8;
  view.data = static_cast<uint8_t *>(t.data) + t.byteOffset;
  view.shape.assign(t.shape, t.shape + t.ndim);
  if (t.strides) {
    view.strides.assign(t.strides, t.strides + t.ndim);
  } else {
    view.strides.assign(t.ndim, 1);
    for (int i = t.ndim - 2; i >= 0; --i)
      view.strides[i] = view.strides[i + 1] * view.shape[i + 1];
  }
  view.readOnly = false;
  return true;
}

std::string bufferTypeName(const py::buffer_info &info) {
  std::string f = info.format;
  // Byte order and alignment prefixes say nothing about the type.
  while (!f.empty() && std::strchr("@=<>!", f[0]))
    f.erase(0, 1);
  if (f == "e")
    return "float16";
  if (f == "f")
    return "float32";
  if (f == "d")
    return "float64";
  if (f == "H" && info.itemsize == 2)
    return "uint16";
  if ((f == "i" || f == "l") && info.itemsize == 4)
    return "int32";
  if (f == "B")
    return "uint8";
  if (f == "b")
    return "int8";
  return "buffer format '" + info.format + "'";
}

void importBuffer(py::handle object, TensorView &view) {
  py::buffer buffer = py::reinterpret_borrow<py::buffer>(object);
  py::buffer_info info;
  try {
    info = buffer.request(/*writable=*/true);
  } catch (py::error_already_set &) {
    info = buffer.request(/*writable=*/false);
    view.readOnly = true;
  }
  view.onGpu = false;
  view.typeName = bufferTypeName(info);
  view.dtype = dtypeFromName(view.typeName);
  view.elementBytes = unsigned(info.itemsize);
  view.data = static_cast<uint8_t *>(info.ptr);
  view.shape.assign(info.shape.begin(), info.shape.end());
  view.strides.clear();
  for (py::ssize_t s : info.strides) {
    if (s % info.itemsize)
      throw py::value_error(view.name + ": a stride of " + std::to_string(s) +
                            " bytes is not a whole number of " +
                            std::to_string(info.itemsize) +
                            "-byte elements");
    view.strides.push_back(s / info.itemsize);
  }
  // The buffer_info releases the Py_buffer when it dies: keep it with the
  // view, in a capsule so that it dies with the GIL held.
  auto *kept = new py::buffer_info(std::move(info));
  view.owner = py::capsule(kept, [](void *p) {
    delete static_cast<py::buffer_info *>(p);
  });
}

} // namespace

int64_t TensorView::elements() const {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

int64_t TensorView::spanElements() const {
  int64_t last = 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0)
      return 0;
    last += (shape[i] - 1) * strides[i];
  }
  return last + 1;
}

bool TensorView::isContiguous() const { return spanElements() == elements(); }

std::string TensorView::placeName() const {
  return onGpu ? "rocm:" + std::to_string(deviceIndex) : "cpu";
}

TensorView importTensor(py::handle object, const std::string &name) {
  TensorView view;
  view.name = name;
  bool imported = false;
  if (py::hasattr(object, "__dlpack__"))
    imported = importDlpack(object, view);
  if (!imported) {
    if (!PyObject_CheckBuffer(object.ptr()))
      throw py::type_error(
          name + ": expected a tensor or array (an object with __dlpack__ or "
                 "the buffer protocol: torch.Tensor, numpy.ndarray); got " +
          std::string(py::str(object.get_type().attr("__name__"))));
    importBuffer(object, view);
  }
  requireNonNegativeStrides(view);
  return view;
}

llvm::Expected<StagedTensor> StagedTensor::stage(Device &device,
                                                 const TensorView &view,
                                                 bool copyIn) {
  uint64_t bytes = uint64_t(view.spanElements()) * view.elementBytes;
  if (view.onGpu) {
    if (device.kind() != DeviceKind::Hip)
      return makeError(view.name + " lives on " + view.placeName() +
                       "; it runs there in place, not on " + device.spec());
    return StagedTensor(Buffer::borrow(device, uint64_t(uintptr_t(view.data)),
                                       bytes),
                        view);
  }
  llvm::Expected<Buffer> buffer = Buffer::allocate(device, bytes);
  if (!buffer)
    return buffer.takeError();
  if (copyIn || !view.isContiguous())
    if (llvm::Error e = buffer->write(view.data, bytes))
      return std::move(e);
  return StagedTensor(std::move(*buffer), view);
}

llvm::Error StagedTensor::copyBack() const {
  if (view_->onGpu)
    return llvm::Error::success();
  if (view_->readOnly)
    return makeError(view_->name + " is read-only; the result cannot be "
                                   "written to it");
  return buffer_.read(view_->data, buffer_.size());
}

Device &deviceFor(const std::vector<const TensorView *> &views,
                  py::handle where) {
  const TensorView *gpu = nullptr, *host = nullptr;
  for (const TensorView *v : views) {
    if (v->onGpu) {
      if (gpu && gpu->deviceIndex != v->deviceIndex)
        throw py::value_error(gpu->name + " is on " + gpu->placeName() +
                              " but " + v->name + " is on " + v->placeName());
      gpu = v;
    } else {
      host = v;
    }
  }
  if (gpu && host)
    throw py::value_error(gpu->name + " is on " + gpu->placeName() + " but " +
                          host->name + " is on the CPU; put both on one "
                          "device");
  if (gpu) {
    Device &device = take(
        runtime().device("hip:" + std::to_string(gpu->deviceIndex)),
        ErrorKind::Value);
    if (!where.is_none() && &resolveDevice(where) != &device)
      throw py::value_error(gpu->name + " is on " + gpu->placeName() +
                            ", which runs it in place as " + device.spec() +
                            "; device=" + resolveDevice(where).spec() +
                            " cannot run it");
    return device;
  }
  return where.is_none() ? defaultDeviceForHostData() : resolveDevice(where);
}

} // namespace kcc::python
