// RUN: kcc-opt %s | kcc-opt | FileCheck %s

// CHECK-LABEL: func.func @clock(
// CHECK: %[[T0:.*]] = tile.memtime
// CHECK-NEXT: %[[T1:.*]] = tile.memtime
// CHECK-NEXT: arith.subi %[[T1]], %[[T0]] : i64
func.func @clock() -> i64 {
  %t0 = tile.memtime
  %t1 = tile.memtime
  %d = arith.subi %t1, %t0 : i64
  return %d : i64
}
