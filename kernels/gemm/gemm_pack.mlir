// kcc GEMM operand packing: copies a matrix SRC [R, K] (DTYPE: 16-bit,
// f32, FP8 or i8), rows `ls` elements apart (any stride), into DST [R, KP],
// packed (rows KP apart), KP >= K, the padding columns zero. The GEMM
// kernels move K to LDS in 4-byte (or 16-byte) units at aligned addresses,
// so their ops pack an operand this way when K or its leading dimension is
// not a whole number of units (kernels/gemm/GemmOperands.h: gemm.mlir's
// KP = K rounded up to even, gemm_q8.mlir's to a multiple of 4 or 16).
//
// A workgroup is one wave; it copies 4 rows, 64 columns (one element per
// lane and row) at a time: elements past K read as zero (the load's
// bounds), rows past R are neither read nor written.
// Launch: grid (ceil(R / 4)), block 64.

tile.type_param_decl @DTYPE = bf16 of [bf16, f16, f32, f8E4M3FN, f8E4M3FNUZ, i8]

!buf = !tile.buffer<!tile.dtype<"DTYPE">>
!ptr = !tile.ptr<!tile.dtype<"DTYPE">>
!rows = !tile.tile<[4, 64], !tile.dtype<"DTYPE">, #tile.blocked<[1, 1], [1, 64]>>

func.func @gemm_pack(%src: !ptr, %dst: !ptr, %R: index, %K: index, %ls: index, %KP: index)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %b = tile.program_id 0
  %r0 = arith.muli %b, %c4 : index
  // SRC ends with its last row's K-th element, DST with its last row.
  %r1 = arith.subi %R, %c1 : index
  %slast = arith.muli %r1, %ls : index
  %sn = arith.addi %slast, %K : index
  %dn = arith.muli %R, %KP : index
  %sbuf = tile.make_buffer %src, %sn : !ptr -> !buf
  %dbuf = tile.make_buffer %dst, %dn : !ptr -> !buf
  scf.for %k0 = %c0 to %KP step %c64 {
    %t = tile.load %sbuf[%r0, %k0] stride %ls bounds %R, %K : !buf -> !rows
    tile.store %t, %dbuf[%r0, %k0] stride %KP bounds %R, %KP : !rows, !buf
  }
  return
}
