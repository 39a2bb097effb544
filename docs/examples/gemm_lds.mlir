// C = A * B on the matrix cores, through LDS: the tutorial's second step
// (docs/tutorial.md). A is [M, K] f16 row-major, B is given transposed as
// Bt [N, K] f16 row-major (K contiguous in both), C is [M, N] f32.
//
// A workgroup of four waves (2 x 2) computes a 64 x 64 block of C, each
// wave a 32 x 32 block. K advances BK at a time: the block's 64 rows of A
// and of Bt are copied into LDS by DMA (global memory to LDS without a
// trip through registers), then every wave reads its operands from LDS and
// runs the MFMAs. Rows past M or N and columns past K read as zero; K must
// be even (the DMA moves pairs of f16).
// Launch: grid (ceil(M / 64), ceil(N / 64)), block 256.

tile.param_decl @BK : i64 = 32

!buf = !tile.buffer<f16>
!lds = !tile.lds<[64, BK], f16>
!fa = !tile.tile<[32, BK], f16, #tile.mfma<a>>
!fb = !tile.tile<[BK, 32], f16, #tile.mfma<b>>
!acc = !tile.tile<[32, 32], f32, #tile.mfma<acc>>

func.func @gemm(%a: !tile.ptr<f16>, %bt: !tile.ptr<f16>, %c: !tile.ptr<f32>,
                %M: index, %N: index, %K: index)
    attributes {tile.kernel, tile.block_size = 256 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %bk = tile.param @BK : index
  // This workgroup's block of C, and this wave's 32 x 32 part of it.
  %pm = tile.program_id 0
  %pn = tile.program_id 1
  %m0 = arith.muli %pm, %c64 : index
  %n0 = arith.muli %pn, %c64 : index
  %w = tile.wave_id
  %wr = arith.divui %w, %c2 : index
  %wc = arith.remui %w, %c2 : index
  %ra = arith.muli %wr, %c32 : index
  %rb = arith.muli %wc, %c32 : index

  %na = arith.muli %M, %K : index
  %nb = arith.muli %N, %K : index
  %nc = arith.muli %M, %N : index
  %ba = tile.make_buffer %a, %na : !tile.ptr<f16> -> !buf
  %bb = tile.make_buffer %bt, %nb : !tile.ptr<f16> -> !buf
  %bc = tile.make_buffer %c, %nc : !tile.ptr<f32> -> !tile.buffer<f32>
  %lds_a = tile.lds_alloc "a" : !lds
  %lds_b = tile.lds_alloc "b" : !lds

  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : f32 -> !acc
  // ceil(K / BK) blocks of K.
  %kpad = arith.addi %K, %bk : index
  %kpad1 = arith.subi %kpad, %c1 : index
  %nk = arith.divui %kpad1, %bk : index
  %r = scf.for %kb = %c0 to %nk step %c1 iter_args(%acc = %acc0) -> (!acc) {
    %k0 = arith.muli %kb, %bk : index
    // Rows m0.. of A and n0.. of Bt, columns k0..k0+BK, into LDS; the four
    // waves share the DMA's lines.
    tile.async_copy %ba[%m0, %k0] stride %K bounds %M, %K -> %lds_a[%c0] : !buf, !lds
    tile.async_copy %bb[%n0, %k0] stride %K bounds %N, %K -> %lds_b[%c0] : !buf, !lds
    // The DMA is done (vmcnt) and every wave's part of it is visible (barrier).
    tile.wait vmcnt(0)
    tile.barrier
    // A's rows as the MFMA's `a` operand; Bt's rows read transposed are B.
    %fa = tile.lds_load %lds_a[%c0][%ra, %c0] : !lds -> !fa
    %fb = tile.lds_load %lds_b[%c0][%rb, %c0] transpose : !lds -> !fb
    %acc1 = tile.mma %fa, %fb, %acc : !fa, !fb -> !acc
    // No wave may start the next copy while another still reads this block.
    tile.barrier
    scf.yield %acc1 : !acc
  }
  %cm = arith.addi %m0, %ra : index
  %cn = arith.addi %n0, %rb : index
  tile.store %r, %bc[%cm, %cn] stride %N bounds %M, %N : !acc, !tile.buffer<f32>
  return
}
