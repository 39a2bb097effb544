// Counts that fold from constants need no canonicalisation first (bug 11),
// and a zero wave count is named as such (bug 14).
// RUN: kcc-opt %s -split-input-file --convert-tile-to-rocdl -verify-diagnostics | FileCheck %s

// 2 * 4 = 8 outstanding: vmcnt(8) is 0xF78 | 8 = 3960.
// CHECK-LABEL: llvm.func @folded(
// CHECK: rocdl.s.waitcnt 3960
module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @folded() attributes {tile.kernel, tile.block_size = 64 : i64} {
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %n = arith.muli %c2, %c4 : index
    tile.wait_vmcnt %n
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"gfx942">} {
  func.func @k(%b: !tile.buffer<bf16>, %i: index) attributes {tile.kernel, tile.block_size = 256 : i64, tile.lds_bytes = 8192 : i64} {
    %c0 = arith.constant 0 : index
    %0 = tile.lds_alloc "a" {offset = 0 : i64, scope = 0 : i64} : !tile.lds<[64, 64], bf16>
    // expected-error@+1 {{'tile.async_copy' op 'waves' must be at least 1, not 0}}
    tile.async_copy %b[%i, %i] stride %i -> %0[%i] waves %c0 : !tile.buffer<bf16>, !tile.lds<[64, 64], bf16>
    return
  }
}

// -----

// tile.memtime is the shader clock: llvm.amdgcn.s.memtime (s_memtime).
// CHECK-LABEL: llvm.func @clock(
// CHECK: llvm.call_intrinsic "llvm.amdgcn.s.memtime"() : () -> i64
module attributes {tile.target = #tile.target<"gfx950">} {
  func.func @clock() -> i64 attributes {tile.kernel, tile.block_size = 64 : i64} {
    %t = tile.memtime
    return %t : i64
  }
}
