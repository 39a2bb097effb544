// C = A * B as in gemm_lds.mlir, made faster: the tutorial's third step
// (docs/tutorial.md). Same arguments, launch and results; what changes:
//
// - BK = 64 (-D BK=32 still works): more MFMAs per block of K;
// - the LDS buffers have two stages: while the waves multiply the block of
//   K in one stage, the DMA fills the other with the next block, so the
//   loop no longer waits a whole memory latency per block;
// - `tile.sched_interleave` asks LLVM's scheduler to alternate the LDS
//   reads of each K slice with the MFMAs that consume them, instead of
//   issuing every read first;
// - `tile.setprio 1` raises the wave's issue priority around its MFMAs, so
//   that of the waves sharing a SIMD the one with work for the matrix pipe
//   issues first.
// Launch: grid (ceil(M / 64), ceil(N / 64)), block 256.

tile.param_decl @BK : i64 = 64

!buf = !tile.buffer<f16>
!lds = !tile.lds<[64, BK], f16, stages = 2>
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
  // Block 0 into stage 0 before the loop.
  tile.async_copy %ba[%m0, %c0] stride %K bounds %M, %K -> %lds_a[%c0] : !buf, !lds
  tile.async_copy %bb[%n0, %c0] stride %K bounds %N, %K -> %lds_b[%c0] : !buf, !lds
  %r = scf.for %kb = %c0 to %nk step %c1 iter_args(%acc = %acc0) -> (!acc) {
    %s = arith.remui %kb, %c2 : index
    // Block kb has landed in stage s, and (the barrier) every wave is done
    // reading stage 1 - s, which held block kb - 1.
    tile.wait vmcnt(0)
    tile.barrier
    // Start the next block's DMA into the other stage; it runs during this
    // block's MFMAs.
    %kn = arith.addi %kb, %c1 : index
    %more = arith.cmpi ult, %kn, %nk : index
    scf.if %more {
      %sn = arith.subi %c1, %s : index
      %k1 = arith.muli %kn, %bk : index
      tile.async_copy %ba[%m0, %k1] stride %K bounds %M, %K -> %lds_a[%sn] : !buf, !lds
      tile.async_copy %bb[%n0, %k1] stride %K bounds %N, %K -> %lds_b[%sn] : !buf, !lds
    }
    // One scheduling region from here to `tile.setprio 0`: the reads and
    // the MFMAs, at raised priority.
    tile.setprio 1
    %fa = tile.lds_load %lds_a[%s][%ra, %c0] : !lds -> !fa
    %fb = tile.lds_load %lds_b[%s][%rb, %c0] transpose : !lds -> !fb
    %acc1 = tile.mma %fa, %fb, %acc : !fa, !fb -> !acc
    // Alternate LDS reads and MFMAs, four times: BK = 64 is four MFMAs of
    // K = 16 on gfx950, and the final code reads the two 16-byte operands
    // of each just before it (`kcc -S`). A group is a request that the
    // scheduler meets where the dependences allow (gfx942's eight MFMAs of
    // K = 8 read their operands two slices a `ds_read2_b64`).
    tile.sched_interleave [#tile.group<ds_read, 1>, #tile.group<mfma, 1>] x 4
    tile.setprio 0
    scf.yield %acc1 : !acc
  }
  %cm = arith.addi %m0, %ra : index
  %cn = arith.addi %n0, %rb : index
  tile.store %r, %bc[%cm, %cn] stride %N bounds %M, %N : !acc, !tile.buffer<f32>
  return
}
