// kcc GEMM split-K reduction: C[M, N] = sum over s < S of W[s] (+ bias[N]),
// converted to OUT. W holds the S f32 partial sums that gemm.mlir with
// SPLITK = S stores, [S, M, N] with rows ldw elements apart (slice s
// starting at row s M). kcc::ops::gemm makes ldw a multiple of 4, so that
// every lane's four consecutive partials are one aligned 16-byte load; C
// takes any ldc (a row is stored element by element unless ldc is a
// multiple of 4 too, and at the right edge of C).
//
// A workgroup is one wave; it sums 256 columns of one row of C, four per
// lane. The S partials of them are read as one S x 256 tile whose rows
// are the slices (stride M ldw), so all S loads are in flight at once
// rather than S memory latencies one after the other; the sum over its
// rows stays in the lane. Columns past N are neither read nor written.
//
// Parameters: DTYPE (the bias's: A's dtype, bf16 or f16, or the 8-bit
// GEMMs' bf16, f16 or f32), OUT (bf16, f16,
// f32), HAS_BIAS, S (the splits). Launch: grid (M, ceil(N / 256)),
// block 64.

tile.type_param_decl @DTYPE = bf16 of [bf16, f16, f32]
tile.type_param_decl @OUT = f32
tile.param_decl @HAS_BIAS : i1 = false
tile.param_decl @S : i64 = 2

!wbuf = !tile.buffer<f32>
!parts = !tile.tile<[S, 256], f32, #tile.blocked<[1, 4], [1, 64]>>
!row = !tile.tile<[1, 256], f32, #tile.slice<0, #tile.blocked<[1, 4], [1, 64]>>>
!brow = !tile.tile<[1, 256], !tile.dtype<"DTYPE">, #tile.slice<0, #tile.blocked<[1, 4], [1, 64]>>>
!orow = !tile.tile<[1, 256], !tile.dtype<"OUT">, #tile.slice<0, #tile.blocked<[1, 4], [1, 64]>>>

func.func @gemm_reduce(%w: !tile.ptr<f32>, %c: !tile.ptr<!tile.dtype<"OUT">>,
                       %bias: !tile.ptr<!tile.dtype<"DTYPE">>,
                       %M: index, %N: index, %ldw: index, %ldc: index)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %S = tile.param @S : index
  %r = tile.program_id 0
  %pn = tile.program_id 1
  %n0 = arith.muli %pn, %c256 : index

  %slice = arith.muli %M, %ldw : index
  %w_elems = arith.muli %S, %slice : index
  %c_elems = arith.muli %M, %ldc : index
  %wbuf = tile.make_buffer %w, %w_elems : !tile.ptr<f32> -> !wbuf
  %cbuf = tile.make_buffer %c, %c_elems : !tile.ptr<!tile.dtype<"OUT">> -> !tile.buffer<!tile.dtype<"OUT">>

  // Row r of every slice: element (s, j) of the tile is W[s][r][n0 + j],
  // at s M ldw + r ldw + n0 + j.
  %rw = arith.muli %r, %ldw : index
  %col = arith.addi %rw, %n0 : index
  %col_end = arith.addi %rw, %N : index
  %p = tile.load %wbuf[%c0, %col] stride %slice bounds %S, %col_end : !wbuf -> !parts
  %sum = tile.reduce_sum %p dim 0 : !parts -> !row

  %has_bias = tile.param @HAS_BIAS : i1
  %with_bias = scf.if %has_bias -> (!row) {
    %bbuf = tile.make_buffer %bias, %N : !tile.ptr<!tile.dtype<"DTYPE">> -> !tile.buffer<!tile.dtype<"DTYPE">>
    // Read as the transpose of an N x 1 matrix: one element per load, each
    // bounded on its own. (Four to a lane in one load, the last group of an
    // N not a multiple of 4 would reach past the bias's buffer, and the
    // buffer's range check drops a dword that is only partly inside.)
    %b = tile.load %bbuf[%n0, %c0] stride %c1 bounds %N, %c1 transpose : !tile.buffer<!tile.dtype<"DTYPE">> -> !brow
    %b32 = tile.convert %b : !brow -> !row
    %x = tile.addf %sum, %b32 : !row
    scf.yield %x : !row
  } else {
    scf.yield %sum : !row
  }
  %out = tile.convert %with_bias : !row -> !orow

  // Whole runs of 256 columns in rows of whole 4-element groups take
  // vector stores; the others one store per element.
  %nend = arith.addi %n0, %c256 : index
  %n_in = arith.cmpi ule, %nend, %N : index
  %ldc4 = arith.remui %ldc, %c4 : index
  %aligned = arith.cmpi eq, %ldc4, %c0 : index
  %vector = arith.andi %n_in, %aligned : i1
  scf.if %vector {
    tile.store %out, %cbuf[%r, %n0] stride %ldc : !orow, !tile.buffer<!tile.dtype<"OUT">>
  } else {
    tile.store %out, %cbuf[%r, %n0] stride %ldc bounds %M, %N : !orow, !tile.buffer<!tile.dtype<"OUT">>
  }
  return
}
