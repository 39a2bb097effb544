// Bug 12: a branch the parameters exclude is erased before types are checked,
// so a tile that only exists for larger BM does not reject BM = 16.
// RUN: kcc-opt %s --tile-specialize="chip=gfx942 params=BM=16" | FileCheck %s --check-prefix=SMALL
// RUN: kcc-opt %s --tile-specialize="chip=gfx942 params=BM=64" | FileCheck %s --check-prefix=BIG

tile.param_decl @BM : i64 = 64

// SMALL-LABEL: func.func @k(
// SMALL-NOT: tile.splat
// SMALL: return
// BIG-LABEL: func.func @k(
// BIG: tile.splat %{{.*}} : f32 -> <[64, 32], f32, #tile.mfma<acc, 32x32x8>>
func.func @k(%f: f32) {
  %bm = tile.param @BM : index
  %c32 = arith.constant 32 : index
  %big = arith.cmpi uge, %bm, %c32 : index
  scf.if %big {
    %0 = tile.splat %f : f32 -> !tile.tile<[BM, 32], f32, #tile.mfma<acc>>
  }
  return
}
