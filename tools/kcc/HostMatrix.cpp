//===- HostMatrix.cpp - Operands of the kernel runners on the host --------===//
//
// Conversions of host matrices from and to .npy arrays, and random inputs.
//
//===----------------------------------------------------------------------===//
#include "tools/kcc/HostMatrix.h"
#include "tools/kcc/RunKernelOptions.h"

using namespace llvm;

namespace kcc::runkernel {

Expected<HostMatrix> fromNpy(const NpyArray &a, DType dtype, StringRef what) {
  HostMatrix m;
  m.dtype = dtype;
  if (a.shape.size() == 2) {
    m.rows = a.shape[0];
    m.cols = a.shape[1];
  } else if (a.shape.size() == 1) {
    m.rows = 1;
    m.cols = a.shape[0];
  } else {
    return makeError(what + " has " + Twine(a.shape.size()) +
                 " dimensions; expected a matrix or a vector");
  }
  size_t n = a.elementCount();
  m.bytes.resize(n * dtypeSize(dtype));
  auto element = [&](size_t i) -> float {
    if (a.type == NpyType::F32) {
      float f;
      std::memcpy(&f, &a.data[4 * i], 4);
      return f;
    }
    uint16_t h;
    std::memcpy(&h, &a.data[2 * i], 2);
    return a.type == NpyType::F16 ? f16ToFloat(h) : bf16ToFloat(h);
  };
  if (a.type == NpyType::U16 && dtype != DType::bf16)
    return makeError(what + " is '<u2' (bf16 bits) but the kernel wants " +
                 dtypeName(dtype));
  for (size_t i = 0; i < n; ++i) {
    float f = element(i);
    if (dtype == DType::f32) {
      std::memcpy(&m.bytes[4 * i], &f, 4);
    } else {
      uint16_t h = dtype == DType::bf16 ? floatToBf16(f) : floatToF16(f);
      std::memcpy(&m.bytes[2 * i], &h, 2);
    }
  }
  return m;
}

NpyArray toNpy(const HostMatrix &m, bool vector) {
  NpyArray a;
  a.type = m.dtype == DType::f32   ? NpyType::F32
           : m.dtype == DType::f16 ? NpyType::F16
                                   : NpyType::U16;
  if (vector)
    a.shape = {uint64_t(m.cols)};
  else
    a.shape = {uint64_t(m.rows), uint64_t(m.cols)};
  a.data = m.bytes;
  return a;
}

HostMatrix randomMatrix(DType dtype, int64_t rows, int64_t cols,
                        std::mt19937_64 &rng) {
  std::normal_distribution<float> normal;
  HostMatrix m;
  m.dtype = dtype;
  m.rows = rows;
  m.cols = cols;
  m.bytes.resize(size_t(rows * cols) * 2);
  for (int64_t i = 0; i < rows * cols; ++i) {
    float f = normal(rng);
    uint16_t h = dtype == DType::bf16 ? floatToBf16(f) : floatToF16(f);
    std::memcpy(&m.bytes[2 * i], &h, 2);
  }
  return m;
}

} // namespace kcc::runkernel
