//===- MatrixRef.h - A row-major matrix view of a device buffer -*- C++ -*-===//
//
// How op wrappers receive operands: a buffer plus the dtype, shape and row
// stride the caller means. The view does not own the buffer; op wrappers
// check that it fits (shape, stride and dtype against the buffer's size).
//
//===----------------------------------------------------------------------===//
#ifndef KCC_RUNTIME_MATRIXREF_H
#define KCC_RUNTIME_MATRIXREF_H

#include "runtime/Buffer.h"
#include "runtime/DType.h"

#include <cstdint>

namespace kcc {

struct MatrixRef {
  const Buffer *buffer = nullptr;
  DType dtype = DType::f32;
  int64_t rows = 0, cols = 0;
  /// Elements between the starts of consecutive rows; 0 means `cols`.
  int64_t ld = 0;

  MatrixRef() = default;
  MatrixRef(const Buffer &buffer, DType dtype, int64_t rows, int64_t cols,
            int64_t ld = 0)
      : buffer(&buffer), dtype(dtype), rows(rows), cols(cols), ld(ld) {}
  int64_t stride() const { return ld ? ld : cols; }
};

/// A vector (one row).
struct VectorRef {
  const Buffer *buffer = nullptr;
  DType dtype = DType::f32;
  int64_t size = 0;

  VectorRef() = default;
  VectorRef(const Buffer &buffer, DType dtype, int64_t size)
      : buffer(&buffer), dtype(dtype), size(size) {}
};

} // namespace kcc

#endif // KCC_RUNTIME_MATRIXREF_H
