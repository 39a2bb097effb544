// RUN: kcc-opt %s --tile-specialize="chip=gfx942 params=Q=f8E4M3FNUZ" | FileCheck %s --check-prefix=GFX942
// RUN: kcc-opt %s --tile-specialize="chip=gfx950 params=Q=f8E5M2" | FileCheck %s --check-prefix=GFX950
// RUN: kcc-opt %s --tile-specialize="chip=gfx950 params=Q=bf16" | FileCheck %s --check-prefix=BF16
// A format of the other chip's family is refused at the first op that uses
// it, naming both chips' formats; a type the declaration does not list, at
// the declaration.
// RUN: not kcc-opt %s --tile-specialize="chip=gfx942 params=Q=f8E4M3FN" 2>&1 | FileCheck %s --check-prefix=OCP-ON-GFX942
// RUN: not kcc-opt %s --tile-specialize="chip=gfx950 params=Q=f8E5M2FNUZ" 2>&1 | FileCheck %s --check-prefix=FNUZ-ON-GFX950
// RUN: not kcc-opt %s --tile-specialize="chip=gfx950 params=Q=f16" 2>&1 | FileCheck %s --check-prefix=NOT-LISTED

// MFMA shapes left to the target resolve per chip and element type: FP8
// operands take the chip's widest FP8 K (twice the 16-bit K on gfx942, the
// f8f6f4 K on gfx950); the accumulator keeps the 16-bit K, which tile.mma
// accepts beside any operand K.

tile.type_param_decl @Q = f8E4M3FN of [f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, bf16]

// GFX942: module attributes {tile.params = {Q = f8E4M3FNUZ}, tile.target = #tile.target<"gfx942">}
// GFX942-LABEL: func.func @k(
// GFX942-SAME: !tile.tile<[32, 64], f8E4M3FNUZ, #tile.mfma<a, 32x32x16>>
// GFX942-SAME: !tile.tile<[64, 32], f8E4M3FNUZ, #tile.mfma<b, 32x32x16>>
// GFX942-SAME: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x8>>
// GFX942-SAME: !tile.tile<[16, 128], f8E4M3FNUZ, #tile.mfma<a, 16x16x32>>
// GFX942-SAME: !tile.tile<[128, 16], f8E4M3FNUZ, #tile.mfma<b, 16x16x32>>
// GFX942-SAME: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16x16>>

// GFX950-LABEL: func.func @k(
// GFX950-SAME: !tile.tile<[32, 64], f8E5M2, #tile.mfma<a, 32x32x64>>
// GFX950-SAME: !tile.tile<[64, 32], f8E5M2, #tile.mfma<b, 32x32x64>>
// GFX950-SAME: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>
// GFX950-SAME: !tile.tile<[16, 128], f8E5M2, #tile.mfma<a, 16x16x128>>
// GFX950-SAME: !tile.tile<[128, 16], f8E5M2, #tile.mfma<b, 16x16x128>>
// GFX950-SAME: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16x32>>

// BF16-LABEL: func.func @k(
// BF16-SAME: !tile.tile<[32, 64], bf16, #tile.mfma<a, 32x32x16>>
// BF16-SAME: !tile.tile<[16, 128], bf16, #tile.mfma<a, 16x16x32>>

// OCP-ON-GFX942: tile-specialize-fp8.mlir:[[@LINE+2]]:1: error: 'func.func' op uses f8E4M3FN, an OCP FP8 format that gfx942 lacks: gfx942 has f8E4M3FNUZ and f8E5M2FNUZ (FNUZ), gfx950 has f8E4M3FN and f8E5M2 (OCP)
// FNUZ-ON-GFX950: tile-specialize-fp8.mlir:[[@LINE+1]]:1: error: 'func.func' op uses f8E5M2FNUZ, an FNUZ FP8 format that gfx950 lacks: gfx950 has f8E4M3FN and f8E5M2 (OCP), gfx942 has f8E4M3FNUZ and f8E5M2FNUZ (FNUZ)
func.func @k(%a: !tile.tile<[32, 64], !tile.dtype<"Q">, #tile.mfma<a>>,
             %b: !tile.tile<[64, 32], !tile.dtype<"Q">, #tile.mfma<b>>,
             %c: !tile.tile<[32, 32], f32, #tile.mfma<acc>>,
             %a16: !tile.tile<[16, 128], !tile.dtype<"Q">, #tile.mfma<a, 16x16>>,
             %b16: !tile.tile<[128, 16], !tile.dtype<"Q">, #tile.mfma<b, 16x16>>,
             %c16: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>) {
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 64], !tile.dtype<"Q">, #tile.mfma<a>>, !tile.tile<[64, 32], !tile.dtype<"Q">, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  %1 = tile.mma %a16, %b16, %c16 : !tile.tile<[16, 128], !tile.dtype<"Q">, #tile.mfma<a, 16x16>>, !tile.tile<[128, 16], !tile.dtype<"Q">, #tile.mfma<b, 16x16>> -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  return
}

// NOT-LISTED: error: type parameter 'Q' must be f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ or bf16, not 'f16'
