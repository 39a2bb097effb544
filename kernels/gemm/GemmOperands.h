//===- GemmOperands.h - What the GEMM ops check and pack alike --*- C++ -*-===//
//
// The GEMM kernels (gemm.mlir, gemm_q8.mlir) read A and Bt row by row
// through buffer resources and move K to LDS by DMA in units of 4 or 16
// bytes. Their ops (GemmOp, GemmFp8Op) check each matrix operand the same
// way and, where K or a row stride is not a whole number of those units,
// copy the operand into a packed buffer with zero columns after K
// (kernels/gemm/gemm_pack.mlir): the zeros add nothing to the products.
// A split of K ends with a second launch, the reduction; both ops report
// the two as one result.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_KERNELS_GEMM_GEMMOPERANDS_H
#define KCC_KERNELS_GEMM_GEMMOPERANDS_H

#include "runtime/Buffer.h"
#include "runtime/Launch.h"
#include "runtime/MatrixRef.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace kcc {
class Jit;
namespace ops {

/// "ROWSxCOLS".
std::string matrixShapeText(const MatrixRef &m);

/// Checks one matrix operand on its own: a positive shape, a leading
/// dimension of at least its columns, sizes that fit the kernels' 32-bit
/// arguments and a buffer resource's 32-bit range, and a buffer that holds
/// it. Errors read "COMPONENT: NAME ...".
llvm::Error checkMatrixOperand(llvm::StringRef component, llvm::StringRef name,
                               const MatrixRef &m);

/// A packed copy of an operand: `cols` columns, rows `cols` apart, its own
/// buffer on the operand's device.
struct PackedOperand {
  Buffer buffer;
  DType dtype;
  int64_t rows, cols;
  // Built where the PackedOperand finally lives (a MatrixRef points at its
  // buffer).
  MatrixRef ref() const { return MatrixRef(buffer, dtype, rows, cols); }
};

/// Copies `m` into a packed buffer of `cols` (>= m.cols) columns, those
/// past m.cols zero, by gemm_pack.mlir on m's device, on `stream`.
llvm::Expected<PackedOperand> packOperand(llvm::StringRef component, llvm::StringRef name,
                                          const MatrixRef &m, int64_t cols, Jit &jit,
                                          uint64_t stream);

/// A split-K GEMM's result as one: its kernel's launch and the reduction's
/// together (device times, wave instructions, workgroups and host time
/// summed).
LaunchResult bothLaunches(const LaunchResult &first, const LaunchResult &second);

} // namespace ops
} // namespace kcc

#endif // KCC_KERNELS_GEMM_GEMMOPERANDS_H
