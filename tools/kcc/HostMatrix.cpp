//===- HostMatrix.cpp - Operands of the kernel runners on the host --------===//
//
// Conversions of host matrices from and to .npy arrays, and random inputs.
//
//===----------------------------------------------------------------------===//
#include "tools/kcc/HostMatrix.h"
#include "tools/kcc/RunKernelOptions.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace kcc::runkernel {

/// The dtype a .npy element type holds, as kcc reads it.
static DType dtypeOf(NpyType type) {
  switch (type) {
  case NpyType::F32: return DType::f32;
  case NpyType::F16: return DType::f16;
  case NpyType::U16: return DType::bf16;
  case NpyType::U8: return DType::e4m3fn;
  case NpyType::I8: return DType::i8;
  }
  return DType::f32;
}

/// "f32 ('<f4')", "bf16 ('<u2' bits)".
static std::string describe(DType dtype) {
  switch (dtype) {
  case DType::f32: return "f32 ('<f4')";
  case DType::f16: return "f16 ('<f2')";
  case DType::bf16: return "bf16 ('<u2' bits)";
  case DType::e4m3fn:
  case DType::e4m3fnuz: return "FP8 ('|u1' bits)";
  case DType::i8: return "i8 ('|i1')";
  default: return dtypeName(dtype).str();
  }
}

Expected<HostMatrix> fromNpy(const NpyArray &a, DType dtype, StringRef name,
                             StringRef path) {
  // Both FP8 encodings are '|u1' bits: the kernel's dtype says which.
  bool fp8Bits = isFp8(dtype) && a.type == NpyType::U8;
  if (dtypeOf(a.type) != dtype && !fp8Bits)
    return makeError("input '" + name + "' (" + path + ") is " + describe(dtypeOf(a.type)) +
                     " but the kernel takes " + describe(dtype) +
                     " for it; convert the file first (kcc does not convert inputs)");
  HostMatrix m;
  m.dtype = dtype;
  if (a.shape.size() == 2) {
    m.rows = a.shape[0];
    m.cols = a.shape[1];
  } else if (a.shape.size() == 1) {
    m.rows = 1;
    m.cols = a.shape[0];
  } else {
    return makeError("input '" + name + "' (" + path + ") has " + Twine(a.shape.size()) +
                     " dimensions; expected a matrix or a vector");
  }
  m.bytes = a.data;
  return m;
}

NpyArray toNpy(const HostMatrix &m, bool vector) {
  NpyArray a;
  a.type = m.dtype == DType::f32   ? NpyType::F32
           : m.dtype == DType::f16 ? NpyType::F16
           : isFp8(m.dtype)        ? NpyType::U8
           : m.dtype == DType::i8  ? NpyType::I8
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
  m.bytes.resize(size_t(rows * cols) * dtypeSize(dtype));
  for (int64_t i = 0; i < rows * cols; ++i) {
    float f = normal(rng);
    if (isFp8(dtype)) {
      m.bytes[i] = floatToFp8(dtype, f);
    } else if (dtype == DType::i8) {
      m.bytes[i] = uint8_t(int8_t(std::clamp(std::lround(32 * f), -128l, 127l)));
    } else if (dtype == DType::f32) {
      std::memcpy(&m.bytes[4 * i], &f, 4);
    } else {
      uint16_t h = dtype == DType::bf16 ? floatToBf16(f) : floatToF16(f);
      std::memcpy(&m.bytes[2 * i], &h, 2);
    }
  }
  return m;
}

} // namespace kcc::runkernel
