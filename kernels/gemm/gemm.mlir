// kcc GEMM: C[M, N] = A[M, K] * B[K, N] (+ bias[N]), f32 accumulation.
//
// A is row-major [M, K] (row stride lda). B is given transposed, as the
// row-major [N, K] matrix Bt (row stride ldb) - the layout of a Linear
// layer's weight - so that both operands reach LDS by DMA with K contiguous
// and are read into MFMA operands with ds_read_b64/b128 on both chips.
// C is row-major [M, N] (row stride ldc) of OUT elements.
//
// A workgroup of WGM x WGN waves computes a BM x BN = (WGM WM) x (WGN WN)
// block of C; each wave a WM x WN block with 32x32 MFMAs (32x32x8 on
// gfx942, 32x32x16 on gfx950). K advances BK at a time through two LDS
// buffers, ping (a0, b0) and pong (a1, b1): while the waves multiply the
// tiles of one, DMA (buffer_load ... lds) fills the other. The loop body
// handles one K block from each, so every LDS access names its buffer
// statically: each buffer has its own alias scope and the backend need not
// wait for the DMA into one buffer before reading the other. A buffer holds
// the workgroup's BM rows of A (BN of Bt), filled by one copy that all
// waves share; wave (r, c) reads rows r WM.. of A and c WN.. of Bt.
//
// Tails: rows of A past M and of Bt past N read as zero; K and lda, ldb
// must be even (the DMA moves K in pairs of elements and zero-fills a pair
// only whole): kcc::ops::gemm packs operands that are not (gemm_pack.mlir).
// C blocks at the edges are stored element by element.
//
// Parameters: DTYPE (bf16, f16), OUT (bf16, f16, f32), WM, WN (multiples of
// 32), WGM, WGN (the wave grid: 2 x 2 is four waves, 2 x 4 eight, which
// share a SIMD two by two and so get at most 256 registers each), BK (a multiple of KS; WM * BK and WN * BK multiples of 512), KS (the
// K slice of the software-pipelined multiply, a multiple of the MFMA K),
// HAS_BIAS, PAD (elements of padding after each LDS row, which spreads the
// rows over the banks; the DMA needs rows of whole 256-byte lines to pad,
// i.e. BK = 128 for 16-bit elements), WIDE (16-byte DMA, gfx950: 1 KiB
// lines, too long to pad a row of BK = 128; K a multiple of 8), SWZ (the LDS
// rows' swizzle, which spreads them over the banks instead of PAD), REG (A and Bt through registers
// instead of DMA, so that shorter rows can be padded: each wave moves two
// runs of RROWS = WM / 4 rows; needs WM = WN and the 2 x 2 wave grid), FETCH_ALWAYS (no branch
// around the loop's second fetch: gfx950, whose 16-byte DMA leaves scalar
// registers to spare; gfx942's 4-byte DMA lines would spill them), PINGPONG
// (the waves in two groups one barrier apart, see @pingpong_block: with
// eight waves every SIMD holds one of each, and its matrix pipe is fed by
// one while the other reads; a wave holds a whole K block of operands in
// registers, so KS plays no part; WPS = 2 for eight waves), PPREG (with
// PINGPONG: every wave moves its share of the blocks, RA = BM / waves rows
// of A and RB = BN / waves of Bt, through registers instead of LDS DMA,
// see @ppreg_block: gfx942, whose DMA moves 4 bytes a lane; RA and RB
// multiples of 16, BK = 32), WPS (waves per SIMD that
// the register allocation must allow), SPLITK (the K blocks split over
// that many workgroups per block of C, for problems whose blocks of C are
// too few to fill the CUs: workgroup z = program_id 2 runs blocks
// z ceil(nk / SPLITK).. of the nk = ceil(K / BK), a share that may be short
// or empty at the end, and stores its f32 partial sum, zeros for an empty
// share, into C + z M ldc; gemm_reduce.mlir sums them. Needs OUT = f32,
// no bias; 1: no split).
// Launch: grid (ceil(M / BM), ceil(N / BN), SPLITK), block BLOCK = 64 WGM WGN.

tile.type_param_decl @DTYPE = bf16 of [bf16, f16]
tile.type_param_decl @OUT = f32
tile.param_decl @WM : i64 = 64
tile.param_decl @WN : i64 = 64
tile.param_decl @WGM : i64 = 2
tile.param_decl @WGN : i64 = 2
tile.param_decl @BM : i64 product [@WM, @WGM]
tile.param_decl @BN : i64 product [@WN, @WGN]
tile.param_decl @BLOCK : i64 product [@WGM, @WGN, 64]
tile.param_decl @WPS : i64 = 1
tile.param_decl @BK : i64 = 32
tile.param_decl @HAS_BIAS : i1 = false
tile.param_decl @PAD : i64 = 0
tile.param_decl @REG : i1 = false
tile.param_decl @RROWS : i64 = 16
tile.param_decl @WIDE : i1 = false
tile.param_decl @SWZ : i64 = 0
tile.param_decl @KS : i64 = 32
tile.param_decl @FETCH_ALWAYS : i1 = false
tile.param_decl @PINGPONG : i1 = false
tile.param_decl @PPREG : i1 = false
tile.param_decl @RA : i64 = 32
tile.param_decl @RB : i64 = 16
tile.param_decl @SPLITK : i64 = 1

// The operands' buffers, their LDS tiles (one K block of the workgroup's
// rows of A and of Bt), a wave's accumulators and one K slice of its MFMA
// operands.
!buf = !tile.buffer<!tile.dtype<"DTYPE">>
!la = !tile.lds<[BM, BK], !tile.dtype<"DTYPE">, pad = PAD, swizzle = SWZ>
!lb = !tile.lds<[BN, BK], !tile.dtype<"DTYPE">, pad = PAD, swizzle = SWZ>
// The accumulators hold the wave's block of C transposed, C^T = Bt A^T:
// Bt is the MFMA's `a` operand and A its `b`. An accumulator lane's
// consecutive registers then run along a row of C (4 columns of C per
// 32x32 instance), so the epilogue stores them with one wide instruction
// instead of one per element (16 bytes on gfx950, whose lane-half swaps
// double the runs; 8 on gfx942; f32: 16). The LDS reads are the same
// ds_read_b128 as for C (both operands hold K-consecutive elements of a
// row a lane), and in @multiply Bt's slice is read first as A's was: the
// MFMAs run along the rows of the accumulators, Bt's operand outermost.
!acc = !tile.tile<[WN, WM], f32, #tile.mfma<acc>>
!fa = !tile.tile<[KS, WM], !tile.dtype<"DTYPE">, #tile.mfma<b, k_wide>>
!fb = !tile.tile<[WN, KS], !tile.dtype<"DTYPE">, #tile.mfma<a, k_wide>>
!fba = !tile.tile<[BK, WM], !tile.dtype<"DTYPE">, #tile.mfma<b, k_wide>>
!fbb = !tile.tile<[WN, BK], !tile.dtype<"DTYPE">, #tile.mfma<a, k_wide>>
// PPREG: a wave's share of one K block of A (RA rows) and of Bt (RB rows),
// 16 bytes a lane (BK = 32: 4 lanes a row).
!sa = !tile.tile<[RA, BK], !tile.dtype<"DTYPE">, #tile.blocked<[1, 8], [16, 4]>>
!sb = !tile.tile<[RB, BK], !tile.dtype<"DTYPE">, #tile.blocked<[1, 8], [16, 4]>>

// With REG each wave moves two runs of RROWS (= WM / 4 = WN / 4) rows of
// each buffer through registers (rows r.. and WM + r..), pairs of elements
// per lane (the DMA's granularity).
!reg = !tile.tile<[RROWS, BK], !tile.dtype<"DTYPE">, #tile.blocked<[1, 2], [8, 8]>>
!reg32 = !tile.tile<[RROWS, BK], f32, #tile.blocked<[1, 2], [8, 8]>>

// Starts the DMA of K block `kb` of this workgroup's rows of A and Bt into
// one buffer (rows m0.. of A, n0.. of Bt).
func.func private @fetch(%abuf: !buf, %bbuf: !buf,
                         %lds_a: !la, %lds_b: !lb,
                         %kb: index, %m0: index, %n0: index,
                         %M: index, %N: index, %K: index, %lda: index, %ldb: index,
                         %issuers: index, %known_inside: i1) {
  %bk = tile.param @BK : index
  %k0 = arith.muli %kb, %bk : index
  func.call @dma(%abuf, %bbuf, %lds_a, %lds_b, %k0, %m0, %n0, %M, %N, %K, %lda, %ldb, %issuers, %known_inside)
      : (!buf, !buf, !la, !lb, index, index, index, index, index, index, index, index, index, i1) -> ()
  return
}

// The DMA of one K block (see @fetch).
func.func private @dma(%abuf: !buf, %bbuf: !buf,
                       %lds_a: !la, %lds_b: !lb,
                       %k0: index, %m0: index, %n0: index,
                       %M: index, %N: index, %K: index, %lda: index, %ldb: index,
                       %issuers: index, %known_inside: i1) {
  %c0 = arith.constant 0 : index
  %bk = tile.param @BK : index
  %bm = tile.param @BM : index
  %bn = tile.param @BN : index
  // Blocks wholly inside A and Bt need no bounds: one vector add per DMA
  // line instead of the bounds' compare and select (and their address
  // arithmetic). Only the edges of the matrices take the bounded copy.
  %wm2 = arith.addi %m0, %bm : index
  %wn2 = arith.addi %n0, %bn : index
  %kend = arith.addi %k0, %bk : index
  %m_in = arith.cmpi ule, %wm2, %M : index
  %n_in = arith.cmpi ule, %wn2, %N : index
  %k_in = arith.cmpi ule, %kend, %K : index
  %mn_in = arith.andi %m_in, %n_in : i1
  %found_inside = arith.andi %mn_in, %k_in : i1
  // A caller that knows (a constant true: @pingpong_loop's interior
  // version) spares the check and its branch.
  %inside = arith.ori %known_inside, %found_inside : i1
  // Without REG only: with it the rows may be padded although shorter than
  // the DMA's 256-byte lines, which this copy could not fill.
  %reg = tile.param @REG : i1
  %true = arith.constant true
  %dma = arith.xori %reg, %true : i1
  // WIDE: 16 bytes per lane (gfx950; K a multiple of 8, so that a lane's
  // 16 bytes are all inside K or all past it), else 4.
  %wide = tile.param @WIDE : i1
  scf.if %dma {
    scf.if %inside {
      scf.if %wide {
        tile.async_copy inbounds %abuf[%m0, %k0] stride %lda -> %lds_a[%c0] waves %issuers {width = 16 : i64} : !buf, !la
        tile.async_copy inbounds %bbuf[%n0, %k0] stride %ldb -> %lds_b[%c0] waves %issuers {width = 16 : i64} : !buf, !lb
      } else {
        tile.async_copy inbounds %abuf[%m0, %k0] stride %lda -> %lds_a[%c0] waves %issuers : !buf, !la
        tile.async_copy inbounds %bbuf[%n0, %k0] stride %ldb -> %lds_b[%c0] waves %issuers : !buf, !lb
      }
    } else {
      scf.if %wide {
        tile.async_copy %abuf[%m0, %k0] stride %lda bounds %M, %K -> %lds_a[%c0] waves %issuers {width = 16 : i64} : !buf, !la
        tile.async_copy %bbuf[%n0, %k0] stride %ldb bounds %N, %K -> %lds_b[%c0] waves %issuers {width = 16 : i64} : !buf, !lb
      } else {
        tile.async_copy %abuf[%m0, %k0] stride %lda bounds %M, %K -> %lds_a[%c0] waves %issuers : !buf, !la
        tile.async_copy %bbuf[%n0, %k0] stride %ldb bounds %N, %K -> %lds_b[%c0] waves %issuers : !buf, !lb
      }
    }
  }
  return
}

// With REG: this wave's two runs of RROWS rows of K block `kb` of A and Bt
// (rows r.. and WM + r.. of the block), into registers (elements outside A
// and Bt read as zero). Rows of BK elements too short for padded DMA lines
// can then be padded in LDS.
func.func private @load_regs(%abuf: !buf, %bbuf: !buf, %kb: index,
                             %m0: index, %n0: index,
                             %M: index, %N: index, %K: index, %lda: index, %ldb: index)
    -> (!reg, !reg, !reg, !reg) {
  %bk = tile.param @BK : index
  %rrows = tile.param @RROWS : index
  %wave = tile.wave_id
  %r = arith.muli %wave, %rrows : index
  %k0 = arith.muli %kb, %bk : index
  %wm = tile.param @WM : index
  %wn = tile.param @WN : index
  %m1 = arith.addi %m0, %wm : index
  %n1 = arith.addi %n0, %wn : index
  %ra0 = arith.addi %m0, %r : index
  %ra1 = arith.addi %m1, %r : index
  %rb0 = arith.addi %n0, %r : index
  %rb1 = arith.addi %n1, %r : index
  %a0 = tile.load %abuf[%ra0, %k0] stride %lda bounds %M, %K : !buf -> !reg
  %a1 = tile.load %abuf[%ra1, %k0] stride %lda bounds %M, %K : !buf -> !reg
  %b0 = tile.load %bbuf[%rb0, %k0] stride %ldb bounds %N, %K : !buf -> !reg
  %b1 = tile.load %bbuf[%rb1, %k0] stride %ldb bounds %N, %K : !buf -> !reg
  return %a0, %a1, %b0, %b1 : !reg, !reg, !reg, !reg
}

// Registers that stand in for @load_regs where nothing is loaded.
func.func private @no_regs() -> (!reg, !reg, !reg, !reg) {
  %zero = arith.constant 0.0 : f32
  %z32 = tile.splat %zero : f32 -> !reg32
  %z = tile.convert %z32 : !reg32 -> !reg
  return %z, %z, %z, %z : !reg, !reg, !reg, !reg
}

// With REG: stores this wave's rows of a K block into one buffer.
func.func private @store_regs(%a0: !reg, %a1: !reg, %b0: !reg, %b1: !reg,
                              %lds_a: !la, %lds_b: !lb) {
  %c0 = arith.constant 0 : index
  %rrows = tile.param @RROWS : index
  %wave = tile.wave_id
  %r = arith.muli %wave, %rrows : index
  %wm = tile.param @WM : index
  %wn = tile.param @WN : index
  %ra1 = arith.addi %r, %wm : index
  %rb1 = arith.addi %r, %wn : index
  tile.lds_store %a0, %lds_a[%c0][%r, %c0] : !reg, !la
  tile.lds_store %a1, %lds_a[%c0][%ra1, %c0] : !reg, !la
  tile.lds_store %b0, %lds_b[%c0][%r, %c0] : !reg, !lb
  tile.lds_store %b1, %lds_b[%c0][%rb1, %c0] : !reg, !lb
  return
}

// acc += A block * B block, from one buffer; the wave's rows of A start at
// row `ra` of the buffer and its columns of B at row `rb` of Bt's. K goes
// KS columns at a time, software-pipelined: the operands of slice s + 1 are read from LDS while
// the MFMAs of slice s run, so that no MFMA waits for a read issued just
// before it.
func.func private @multiply(%lds_a: !la, %lds_b: !lb, %ra: index, %rb: index,
                            %acc: !acc) -> !acc {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bk = tile.param @BK : index
  %ks = tile.param @KS : index
  %slices = arith.divui %bk, %ks : index
  %last = arith.subi %slices, %c1 : index
  %fb0 = tile.lds_load %lds_b[%c0][%rb, %c0] : !lb -> !fb
  %fa0 = tile.lds_load %lds_a[%c0][%ra, %c0] transpose : !la -> !fa
  %r:3 = scf.for %s = %c0 to %last step %c1 iter_args(%acc_s = %acc, %fa = %fa0, %fb = %fb0) -> (!acc, !fa, !fb) {
    %s1 = arith.addi %s, %c1 : index
    %k1 = arith.muli %s1, %ks : index
    %fb1 = tile.lds_load %lds_b[%c0][%rb, %k1] : !lb -> !fb
    %fa1 = tile.lds_load %lds_a[%c0][%ra, %k1] transpose : !la -> !fa
    %acc1 = tile.mma %fb, %fa, %acc_s : !fb, !fa -> !acc
    scf.yield %acc1, %fa1, %fb1 : !acc, !fa, !fb
  }
  %out = tile.mma %r#2, %r#1, %r#0 : !fb, !fa -> !acc
  return %out : !acc
}

// PINGPONG: one K block in two phases, each ended by a barrier. In the
// memory phase the wave reads its whole block of operands (WM x BK of A,
// BK x WN of B) from the current buffer into registers, and the leading
// wave group starts the DMA of block `f` into the next buffer; in the
// matrix phase it runs the block's MFMAs back to back. The lagging group
// runs one barrier behind, so on every SIMD one wave's matrix phase
// overlaps the other's memory phase: the matrix pipe always has a wave
// whose operands are in registers, and nothing of the LDS and memory
// latencies shows. The next buffer is free: the lagging group read its
// last block from it before the barrier that starts this block.
func.func private @pingpong_block(%abuf: !buf, %bbuf: !buf, %cur_a: !la, %cur_b: !lb, %next_a: !la, %next_b: !lb,
                                  %f: index, %m0: index, %n0: index,
                                  %M: index, %N: index, %K: index, %lda: index, %ldb: index,
                                  %ra: index, %rb: index, %lagging: i1, %issuers: index,
                                  %interior: i1, %a: !tile.ptr<!tile.dtype<"DTYPE">>,
                                  %bt: !tile.ptr<!tile.dtype<"DTYPE">>, %a_elems: index,
                                  %b_elems: index, %acc: !acc) -> !acc {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %false = arith.constant false
  %leading = arith.xori %lagging, %true : i1
  scf.if %leading {
    scf.if %interior {
      // The operands' buffers start at the block's K column: the lines'
      // offsets are then the same for every block (loop-invariant scalar
      // offsets and lane VGPRs) and moving along K is a 64-bit scalar add
      // to each buffer's base. The buffers' sizes overstate what follows
      // the new base, which an interior copy never checks.
      %bk = tile.param @BK : index
      %k0 = arith.muli %f, %bk : index
      %ak = tile.ptr_add %a, %k0 : !tile.ptr<!tile.dtype<"DTYPE">>
      %bk0 = tile.ptr_add %bt, %k0 : !tile.ptr<!tile.dtype<"DTYPE">>
      %abuf_k = tile.make_buffer %ak, %a_elems : !tile.ptr<!tile.dtype<"DTYPE">> -> !buf
      %bbuf_k = tile.make_buffer %bk0, %b_elems : !tile.ptr<!tile.dtype<"DTYPE">> -> !buf
      func.call @fetch(%abuf_k, %bbuf_k, %next_a, %next_b, %c0, %m0, %n0, %M, %N, %K, %lda, %ldb, %issuers, %true)
          : (!buf, !buf, !la, !lb, index, index, index, index, index, index, index, index, index, i1) -> ()
    } else {
      func.call @fetch(%abuf, %bbuf, %next_a, %next_b, %f, %m0, %n0, %M, %N, %K, %lda, %ldb, %issuers, %false)
          : (!buf, !buf, !la, !lb, index, index, index, index, index, index, index, index, index, i1) -> ()
    }
  }
  %fa = tile.lds_load %cur_a[%c0][%ra, %c0] transpose : !la -> !fba
  %fb = tile.lds_load %cur_b[%c0][%rb, %c0] : !lb -> !fbb
  // In the interior versions (constant role) the DMA and the reads share
  // one block: each line's M0 write, then a read, then the line's DMA, so
  // that the read fills the wait state the DMA needs after an M0 write
  // (otherwise an s_nop).
  %interleave = arith.andi %interior, %leading : i1
  scf.if %interleave {
    func.call @fetch_schedule() : () -> ()
  }
  // The reads are done before the barrier: after it the leading group's
  // DMA may refill this buffer. The barrier publishes nothing (the DMA
  // in flight lands in a buffer nobody reads yet), so it has no fence,
  // whose release would wait for that DMA. The scheduler keeps the MFMAs
  // after it.
  tile.wait lgkmcnt(0)
  tile.sched_barrier []
  tile.barrier unfenced
  tile.sched_barrier []
  // The matrix phase outranks the other wave's memory phase at the SIMD's
  // issue port: when the pipe frees, the next MFMA issues, not a read
  // (gfx950 8192^3, whole run on the model: 97.9 -> 98.3% MFMA busy in the
  // steady state, 1585.8 -> 1588.4 TFLOPS).
  tile.setprio 1
  %out = tile.mma %fb, %fa, %acc : !fbb, !fba -> !acc
  tile.sched_barrier []
  tile.setprio 0
  // The next block has landed (the lagging group has nothing to wait for).
  tile.wait vmcnt(0)
  tile.barrier
  tile.sched_barrier []
  return %out : !acc
}

// PINGPONG, interior loop: the leading group's memory phase as groups of
// one DMA line's M0 write, one LDS read and the line's DMA (then the rest
// of the reads), for the 16-byte DMA's line counts a wave: (BM + BN) BK
// elements of 2 bytes in lines of 512, over the BLOCK / 128 issuing waves.
func.func private @fetch_schedule() {
  %wide = tile.param @WIDE : i1
  %bm = tile.param @BM : index
  %bn = tile.param @BN : index
  %bk = tile.param @BK : index
  %block = tile.param @BLOCK : index
  %rows = arith.addi %bm, %bn : index
  %elems = arith.muli %rows, %bk : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %issuers = arith.divui %block, %c128 : index
  %all = arith.divui %elems, %c512 : index
  %lines = arith.divui %all, %issuers : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %l16 = arith.cmpi eq, %lines, %c16 : index
  %l8 = arith.cmpi eq, %lines, %c8 : index
  %l4 = arith.cmpi eq, %lines, %c4 : index
  scf.if %wide {
    scf.if %l16 {
      tile.sched_interleave [#tile.group<ds_read, 1>, #tile.group<vmem, 1>] x 16
    }
    scf.if %l8 {
      tile.sched_interleave [#tile.group<ds_read, 1>, #tile.group<vmem, 1>] x 8
    }
    scf.if %l4 {
      tile.sched_interleave [#tile.group<ds_read, 1>, #tile.group<vmem, 1>] x 4
    }
  }
  return
}

// PINGPONG: the K loop, two blocks (ping, pong) an iteration. Past the
// last block the copy fetches that block again into a buffer nobody reads
// any more, so the loop takes no branch.
func.func private @pingpong_loop(%abuf: !buf, %bbuf: !buf, %a0: !la, %b0: !lb, %a1: !la, %b1: !lb,
                                 %kb0: index, %kpairs: index, %m0: index, %n0: index,
                                 %M: index, %N: index, %K: index, %lda: index, %ldb: index,
                                 %ra: index, %rb: index, %lagging: i1, %issuers: index,
                                 %interior: i1, %a: !tile.ptr<!tile.dtype<"DTYPE">>,
                                 %bt: !tile.ptr<!tile.dtype<"DTYPE">>, %a_elems: index,
                                 %b_elems: index, %acc0: !acc) -> !acc {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %last = arith.subi %kpairs, %c1 : index
  %acc = scf.for %k = %c0 to %kpairs step %c2 iter_args(%acc_i = %acc0) -> (!acc) {
    %k1 = arith.addi %k, %c1 : index
    %k2 = arith.addi %k, %c2 : index
    %f2 = arith.minui %k2, %last : index
    %g1 = arith.addi %kb0, %k1 : index
    %g2 = arith.addi %kb0, %f2 : index
    %x = func.call @pingpong_block(%abuf, %bbuf, %a0, %b0, %a1, %b1, %g1, %m0, %n0, %M, %N, %K, %lda, %ldb, %ra, %rb, %lagging, %issuers, %interior, %a, %bt, %a_elems, %b_elems, %acc_i)
        : (!buf, !buf, !la, !lb, !la, !lb, index, index, index, index, index, index, index, index, index, index, i1, index, i1, !tile.ptr<!tile.dtype<"DTYPE">>, !tile.ptr<!tile.dtype<"DTYPE">>, index, index, !acc) -> !acc
    %y = func.call @pingpong_block(%abuf, %bbuf, %a1, %b1, %a0, %b0, %g2, %m0, %n0, %M, %N, %K, %lda, %ldb, %ra, %rb, %lagging, %issuers, %interior, %a, %bt, %a_elems, %b_elems, %x)
        : (!buf, !buf, !la, !lb, !la, !lb, index, index, index, index, index, index, index, index, index, index, i1, index, i1, !tile.ptr<!tile.dtype<"DTYPE">>, !tile.ptr<!tile.dtype<"DTYPE">>, index, index, !acc) -> !acc
    scf.yield %y : !acc
  }
  return %acc : !acc
}

// PPREG: this wave's share of K block `kb` (rows w RA.. of the
// workgroup's A rows, w RB.. of its Bt rows), from memory into registers;
// zeros past M, N and K.
func.func private @ppreg_load(%abuf: !buf, %bbuf: !buf, %kb: index, %m0: index, %n0: index,
                              %M: index, %N: index, %K: index, %lda: index, %ldb: index)
    -> (!sa, !sb) {
  %bk = tile.param @BK : index
  %rav = tile.param @RA : index
  %rbv = tile.param @RB : index
  %wave = tile.wave_id
  %k0 = arith.muli %kb, %bk : index
  %wa = arith.muli %wave, %rav : index
  %wb = arith.muli %wave, %rbv : index
  %ma = arith.addi %m0, %wa : index
  %nb = arith.addi %n0, %wb : index
  // Blocks wholly inside A and Bt (all but the edges) load without the
  // bounds' compares and selects.
  %bm = tile.param @BM : index
  %bn = tile.param @BN : index
  %mend = arith.addi %m0, %bm : index
  %nend = arith.addi %n0, %bn : index
  %kend = arith.addi %k0, %bk : index
  %m_in = arith.cmpi ule, %mend, %M : index
  %n_in = arith.cmpi ule, %nend, %N : index
  %k_in = arith.cmpi ule, %kend, %K : index
  %mn_in = arith.andi %m_in, %n_in : i1
  %inside = arith.andi %mn_in, %k_in : i1
  %a, %b = scf.if %inside -> (!sa, !sb) {
    %x = tile.load %abuf[%ma, %k0] stride %lda : !buf -> !sa
    %y = tile.load %bbuf[%nb, %k0] stride %ldb : !buf -> !sb
    scf.yield %x, %y : !sa, !sb
  } else {
    %x = tile.load %abuf[%ma, %k0] stride %lda bounds %M, %K : !buf -> !sa
    %y = tile.load %bbuf[%nb, %k0] stride %ldb bounds %N, %K : !buf -> !sb
    scf.yield %x, %y : !sa, !sb
  }
  return %a, %b : !sa, !sb
}

// PPREG: stores this wave's share (see @ppreg_load) into a buffer.
func.func private @ppreg_store(%a: !sa, %b: !sb, %lds_a: !la, %lds_b: !lb) {
  %c0 = arith.constant 0 : index
  %rav = tile.param @RA : index
  %rbv = tile.param @RB : index
  %wave = tile.wave_id
  %wa = arith.muli %wave, %rav : index
  %wb = arith.muli %wave, %rbv : index
  tile.lds_store %a, %lds_a[%c0][%wa, %c0] : !sa, !la
  tile.lds_store %b, %lds_b[%c0][%wb, %c0] : !sb, !lb
  return
}

// PINGPONG with PPREG (gfx942, whose LDS DMA moves 4 bytes a lane, each
// line with its M0 write): every wave moves its share of the blocks
// through registers instead, 16 bytes a lane. In its memory phase a wave
// stores the share of block `f` it loaded one block ago into the next
// buffer (free, as for the DMA), starts loading its share of block f + 1,
// and reads its operands; both groups do, one phase apart, and the
// leading group reads block f two phases after the lagging group stored
// its share (one barrier at least between). Nothing waits for memory but
// the stores, a block after their loads; neither barrier needs a fence.
func.func private @ppreg_block(%abuf: !buf, %bbuf: !buf, %cur_a: !la, %cur_b: !lb, %next_a: !la, %next_b: !lb,
                               %f: index, %m0: index, %n0: index,
                               %M: index, %N: index, %K: index, %lda: index, %ldb: index,
                               %ra: index, %rb: index, %acc: !acc, %sa: !sa, %sb: !sb)
    -> (!acc, !sa, !sb) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // The operand reads first: their latency passes under the share's stores
  // and the next loads' address work (8192^3: 98.0 -> 98.8% MFMA busy).
  %fa = tile.lds_load %cur_a[%c0][%ra, %c0] transpose : !la -> !fba
  %fb = tile.lds_load %cur_b[%c0][%rb, %c0] : !lb -> !fbb
  func.call @ppreg_store(%sa, %sb, %next_a, %next_b) : (!sa, !sb, !la, !lb) -> ()
  %f1 = arith.addi %f, %c1 : index
  %na, %nb = func.call @ppreg_load(%abuf, %bbuf, %f1, %m0, %n0, %M, %N, %K, %lda, %ldb)
      : (!buf, !buf, index, index, index, index, index, index, index, index) -> (!sa, !sb)
  // The stores and reads are done before the barrier: after it others
  // read what this wave stored, and the buffer read may be refilled.
  tile.wait lgkmcnt(0)
  tile.sched_barrier []
  tile.barrier unfenced
  tile.sched_barrier []
  // The matrix phase outranks the memory phase (see @pingpong_block).
  tile.setprio 1
  %out = tile.mma %fb, %fa, %acc : !fbb, !fba -> !acc
  tile.sched_barrier []
  tile.setprio 0
  tile.barrier unfenced
  tile.sched_barrier []
  return %out, %na, %nb : !acc, !sa, !sb
}

// PPREG: the K loop (see @pingpong_loop), each wave's share of block 1
// loaded first.
func.func private @ppreg_loop(%abuf: !buf, %bbuf: !buf, %a0: !la, %b0: !lb, %a1: !la, %b1: !lb,
                              %kb0: index, %kpairs: index, %m0: index, %n0: index,
                              %M: index, %N: index, %K: index, %lda: index, %ldb: index,
                              %ra: index, %rb: index, %acc0: !acc) -> !acc {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %g0 = arith.addi %kb0, %c1 : index
  %sa0, %sb0 = func.call @ppreg_load(%abuf, %bbuf, %g0, %m0, %n0, %M, %N, %K, %lda, %ldb)
      : (!buf, !buf, index, index, index, index, index, index, index, index) -> (!sa, !sb)
  %r:3 = scf.for %k = %c0 to %kpairs step %c2 iter_args(%acc_i = %acc0, %sa = %sa0, %sb = %sb0) -> (!acc, !sa, !sb) {
    %k1 = arith.addi %k, %c1 : index
    %k2 = arith.addi %k, %c2 : index
    %g1 = arith.addi %kb0, %k1 : index
    %g2 = arith.addi %kb0, %k2 : index
    %x:3 = func.call @ppreg_block(%abuf, %bbuf, %a0, %b0, %a1, %b1, %g1, %m0, %n0, %M, %N, %K, %lda, %ldb, %ra, %rb, %acc_i, %sa, %sb)
        : (!buf, !buf, !la, !lb, !la, !lb, index, index, index, index, index, index, index, index, index, index, !acc, !sa, !sb) -> (!acc, !sa, !sb)
    %y:3 = func.call @ppreg_block(%abuf, %bbuf, %a1, %b1, %a0, %b0, %g2, %m0, %n0, %M, %N, %K, %lda, %ldb, %ra, %rb, %x#0, %x#1, %x#2)
        : (!buf, !buf, !la, !lb, !la, !lb, index, index, index, index, index, index, index, index, index, index, !acc, !sa, !sb) -> (!acc, !sa, !sb)
    scf.yield %y#0, %y#1, %y#2 : !acc, !sa, !sb
  }
  return %r#0 : !acc
}

// Without PINGPONG: the K loop, two blocks (ping, pong) an iteration, block
// k + 1 fetched while block k is multiplied. With `interior` (a constant
// true in the version @gemm runs for blocks of C whose fetched K blocks all
// lie inside A, Bt and K) the fetches take no bounds test and no branch; a
// scheduling barrier after each keeps its DMA ahead of the multiply, as
// the branch around it did (without one LLVM spread the lines over the
// multiply's reads and MFMAs: gfx950 4096x1280x8192, 1350.6 TFLOPS with
// the bounded loop, 1306.4 interior unfenced, 1378.1 fenced).
func.func private @plain_loop(%abuf: !buf, %bbuf: !buf, %a0: !la, %b0: !lb, %a1: !la, %b1: !lb,
                              %kb0: index, %nkw: index, %kpairs: index, %m0: index, %n0: index,
                              %M: index, %N: index, %kw: index, %lda: index, %ldb: index,
                              %ra: index, %rb: index, %issuers: index, %interior: i1,
                              %acc0: !acc) -> !acc {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %reg = tile.param @REG : i1
  %acc_pp = scf.for %k = %c0 to %kpairs step %c2 iter_args(%acc_i = %acc0) -> (!acc) {
    // Block k is in ping; block k + 1 goes to pong meanwhile.
    %k1 = arith.addi %k, %c1 : index
    %g1 = arith.addi %kb0, %k1 : index
    func.call @fetch(%abuf, %bbuf, %a1, %b1, %g1, %m0, %n0, %M, %N, %kw, %lda, %ldb, %issuers, %interior)
        : (!buf, !buf, !la, !lb, index, index, index, index, index, index, index, index, index, i1) -> ()
    tile.sched_barrier []
    // With REG block k + 1 comes through registers: loaded now, stored
    // into pong (free since the last barrier) after the multiply.
    %r1:4 = scf.if %reg -> (!reg, !reg, !reg, !reg) {
      %x:4 = func.call @load_regs(%abuf, %bbuf, %g1, %m0, %n0, %M, %N, %kw, %lda, %ldb)
          : (!buf, !buf, index, index, index, index, index, index, index, index) -> (!reg, !reg, !reg, !reg)
      scf.yield %x#0, %x#1, %x#2, %x#3 : !reg, !reg, !reg, !reg
    } else {
      %x:4 = func.call @no_regs() : () -> (!reg, !reg, !reg, !reg)
      scf.yield %x#0, %x#1, %x#2, %x#3 : !reg, !reg, !reg, !reg
    }
    %acc_p = func.call @multiply(%a0, %b0, %ra, %rb, %acc_i) : (!la, !lb, index, index, !acc) -> !acc
    scf.if %reg {
      func.call @store_regs(%r1#0, %r1#1, %r1#2, %r1#3, %a1, %b1) : (!reg, !reg, !reg, !reg, !la, !lb) -> ()
    }
    // Pong has landed, and every wave is done with ping.
    tile.wait vmcnt(0)
    tile.barrier
    // Block k + 2 (if any) goes to ping while pong is multiplied. With
    // FETCH_ALWAYS the fetch takes no branch: past the last block the last
    // one is fetched again, into a buffer nobody reads any more, so the
    // loop body stays one block (the accumulators crossing a branch cost
    // the register allocator copies, and the loop a taken branch).
    %k2 = arith.addi %k, %c2 : index
    %nk1 = arith.subi %nkw, %c1 : index
    %kf = arith.minui %k2, %nk1 : index
    %gf = arith.addi %kb0, %kf : index
    %g2 = arith.addi %kb0, %k2 : index
    %has2 = arith.cmpi ult, %k2, %nkw : index
    %always = tile.param @FETCH_ALWAYS : i1
    %fetch2 = arith.ori %has2, %always : i1
    scf.if %fetch2 {
      func.call @fetch(%abuf, %bbuf, %a0, %b0, %gf, %m0, %n0, %M, %N, %kw, %lda, %ldb, %issuers, %interior)
          : (!buf, !buf, !la, !lb, index, index, index, index, index, index, index, index, index, i1) -> ()
    }
    tile.sched_barrier []
    %reg2 = arith.andi %reg, %has2 : i1
    %r2:4 = scf.if %reg2 -> (!reg, !reg, !reg, !reg) {
      %x:4 = func.call @load_regs(%abuf, %bbuf, %g2, %m0, %n0, %M, %N, %kw, %lda, %ldb)
          : (!buf, !buf, index, index, index, index, index, index, index, index) -> (!reg, !reg, !reg, !reg)
      scf.yield %x#0, %x#1, %x#2, %x#3 : !reg, !reg, !reg, !reg
    } else {
      %x:4 = func.call @no_regs() : () -> (!reg, !reg, !reg, !reg)
      scf.yield %x#0, %x#1, %x#2, %x#3 : !reg, !reg, !reg, !reg
    }
    %acc_q = func.call @multiply(%a1, %b1, %ra, %rb, %acc_p) : (!la, !lb, index, index, !acc) -> !acc
    scf.if %reg2 {
      func.call @store_regs(%r2#0, %r2#1, %r2#2, %r2#3, %a0, %b0) : (!reg, !reg, !reg, !reg, !la, !lb) -> ()
    }
    tile.wait vmcnt(0)
    tile.barrier
    scf.yield %acc_q : !acc
  }
  return %acc_pp : !acc
}

func.func @gemm(%a: !tile.ptr<!tile.dtype<"DTYPE">>, %bt: !tile.ptr<!tile.dtype<"DTYPE">>,
                %c: !tile.ptr<!tile.dtype<"OUT">>, %bias: !tile.ptr<!tile.dtype<"DTYPE">>,
                %M: index, %N: index, %K: index,
                %lda: index, %ldb: index, %ldc: index)
    attributes {tile.kernel, tile.block_size = @BLOCK, tile.waves_per_simd = @WPS} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %true = arith.constant true
  %false = arith.constant false
  %wm = tile.param @WM : index
  %wn = tile.param @WN : index
  %bk = tile.param @BK : index
  %has_bias = tile.param @HAS_BIAS : i1

  // This workgroup's block of C and this wave's part of it.
  %pm = tile.program_id 0
  %pn = tile.program_id 1
  %bm = tile.param @BM : index
  %bn = tile.param @BN : index
  %wgn = tile.param @WGN : index
  %m0 = arith.muli %pm, %bm : index
  %n0 = arith.muli %pn, %bn : index
  %wave = tile.wave_id
  %wrow = arith.divui %wave, %wgn : index
  %wcol = arith.remui %wave, %wgn : index
  %ra = arith.muli %wrow, %wm : index
  %rb = arith.muli %wcol, %wn : index

  %a_elems = arith.muli %M, %lda : index
  %b_elems = arith.muli %N, %ldb : index
  %c_elems = arith.muli %M, %ldc : index
  %abuf = tile.make_buffer %a, %a_elems : !tile.ptr<!tile.dtype<"DTYPE">> -> !buf
  %bbuf = tile.make_buffer %bt, %b_elems : !tile.ptr<!tile.dtype<"DTYPE">> -> !buf

  // SPLITK: this workgroup's share of the K blocks, kb0.. (nkw of them,
  // the last shares short or empty), read with K bounded at the share's
  // end kw, so that the block the pair loop takes past an odd share reads
  // zeros even where K goes on. Its partial sum goes to slice z of C.
  // Without a split the share is all of K (the values fold away).
  %splits = tile.param @SPLITK : index
  %split = arith.cmpi ugt, %splits, %c1 : index
  %kb = arith.addi %K, %bk : index
  %kb1 = arith.subi %kb, %c1 : index
  %nk = arith.divui %kb1, %bk : index
  %pz = tile.program_id 2
  %per_up = arith.addi %nk, %splits : index
  %per_up1 = arith.subi %per_up, %c1 : index
  %per = arith.divui %per_up1, %splits : index
  %z_kb0 = arith.muli %pz, %per : index
  %z_kb0_end = arith.addi %z_kb0, %per : index
  %z_kbe = arith.minui %z_kb0_end, %nk : index
  %z_some = arith.cmpi ugt, %z_kbe, %z_kb0 : index
  %z_count = arith.subi %z_kbe, %z_kb0 : index
  %z_nk = arith.select %z_some, %z_count, %c0 : index
  %z_kend = arith.muli %z_kbe, %bk : index
  %z_kw = arith.minui %z_kend, %K : index
  %kb0 = arith.select %split, %z_kb0, %c0 : index
  %nkw = arith.select %split, %z_nk, %nk : index
  %kw = arith.select %split, %z_kw, %K : index
  %z_coff = arith.muli %pz, %c_elems : index
  %coff = arith.select %split, %z_coff, %c0 : index
  %cz = tile.ptr_add %c, %coff : !tile.ptr<!tile.dtype<"OUT">>
  %cbuf = tile.make_buffer %cz, %c_elems : !tile.ptr<!tile.dtype<"OUT">> -> !tile.buffer<!tile.dtype<"OUT">>

  %a0 = tile.lds_alloc "a0" : !la
  %b0 = tile.lds_alloc "b0" : !lb
  %a1 = tile.lds_alloc "a1" : !la
  %b1 = tile.lds_alloc "b1" : !lb

  // Every wave shares the copies; with PINGPONG the leading group's waves
  // do in the loop, the other group reading a buffer one phase behind.
  %c64 = arith.constant 64 : index
  %block = tile.param @BLOCK : index
  %waves = arith.divui %block, %c64 : index
  %half = arith.divui %waves, %c2 : index
  %pingpong = tile.param @PINGPONG : i1
  %issuers = arith.select %pingpong, %half, %waves : index

  // K blocks (nk above, nkw of this workgroup's share from kb0), taken
  // two per iteration (ping, pong).
  func.call @fetch(%abuf, %bbuf, %a0, %b0, %kb0, %m0, %n0, %M, %N, %kw, %lda, %ldb, %waves, %false)
      : (!buf, !buf, !la, !lb, index, index, index, index, index, index, index, index, index, i1) -> ()
  %reg = tile.param @REG : i1
  scf.if %reg {
    %r0:4 = func.call @load_regs(%abuf, %bbuf, %kb0, %m0, %n0, %M, %N, %kw, %lda, %ldb)
        : (!buf, !buf, index, index, index, index, index, index, index, index) -> (!reg, !reg, !reg, !reg)
    func.call @store_regs(%r0#0, %r0#1, %r0#2, %r0#3, %a0, %b0) : (!reg, !reg, !reg, !reg, !la, !lb) -> ()
  }
  tile.wait vmcnt(0)
  tile.barrier

  // The loop takes whole pairs of K blocks, so that the accumulators flow
  // through it and out of it without a branch (a branch would give the
  // register allocator copies of them to make, and a phi of them after an
  // odd last block let the code generator's GVN keep partial copies of all
  // of them alive: 146 VGPRs instead of 104). An odd block count gets one
  // block past K, which the bounded copy fills with zeros.
  %acc0 = tile.splat %zero : f32 -> !acc
  %nk_up2 = arith.addi %nkw, %c1 : index
  %npairs2 = arith.divui %nk_up2, %c2 : index
  %kpairs2 = arith.muli %npairs2, %c2 : index
  // Blocks of C whose fetched K blocks (kb0 .. kb0 + kpairs - 1) all lie
  // inside A, Bt and K run the loops' interior versions (no bounds tests).
  %fetched = arith.addi %kb0, %kpairs2 : index
  %kfetched = arith.muli %fetched, %bk : index
  %k_all_in = arith.cmpi ule, %kfetched, %kw : index
  %bm_end = arith.addi %m0, %bm : index
  %bn_end = arith.addi %n0, %bn : index
  %m_all_in = arith.cmpi ule, %bm_end, %M : index
  %n_all_in = arith.cmpi ule, %bn_end, %N : index
  %mn_all_in = arith.andi %m_all_in, %n_all_in : i1
  %interior = arith.andi %mn_all_in, %k_all_in : i1
  %acc = scf.if %pingpong -> (!acc) {
    %lagging = arith.cmpi uge, %wave, %half : index
    %ppreg = tile.param @PPREG : i1
    %r = tile.stagger %lagging -> (!acc) {
      %x = scf.if %ppreg -> (!acc) {
        %y = func.call @ppreg_loop(%abuf, %bbuf, %a0, %b0, %a1, %b1, %kb0, %kpairs2, %m0, %n0, %M, %N, %kw, %lda, %ldb, %ra, %rb, %acc0)
            : (!buf, !buf, !la, !lb, !la, !lb, index, index, index, index, index, index, index, index, index, index, index, !acc) -> !acc
        scf.yield %y : !acc
      } else {
        // Interior blocks run a version of the loop per role with the role
        // and the bounds constant: no branch in the loop but its back edge,
        // the leading group's DMA in the block of its reads
        // (@fetch_schedule), the lagging group's loop without it.
        %y = scf.if %interior -> (!acc) {
          %z = scf.if %lagging -> (!acc) {
            %w = func.call @pingpong_loop(%abuf, %bbuf, %a0, %b0, %a1, %b1, %kb0, %kpairs2, %m0, %n0, %M, %N, %kw, %lda, %ldb, %ra, %rb, %true, %issuers, %true, %a, %bt, %a_elems, %b_elems, %acc0)
                : (!buf, !buf, !la, !lb, !la, !lb, index, index, index, index, index, index, index, index, index, index, index, i1, index, i1, !tile.ptr<!tile.dtype<"DTYPE">>, !tile.ptr<!tile.dtype<"DTYPE">>, index, index, !acc) -> !acc
            scf.yield %w : !acc
          } else {
            %w = func.call @pingpong_loop(%abuf, %bbuf, %a0, %b0, %a1, %b1, %kb0, %kpairs2, %m0, %n0, %M, %N, %kw, %lda, %ldb, %ra, %rb, %false, %issuers, %true, %a, %bt, %a_elems, %b_elems, %acc0)
                : (!buf, !buf, !la, !lb, !la, !lb, index, index, index, index, index, index, index, index, index, index, index, i1, index, i1, !tile.ptr<!tile.dtype<"DTYPE">>, !tile.ptr<!tile.dtype<"DTYPE">>, index, index, !acc) -> !acc
            scf.yield %w : !acc
          }
          scf.yield %z : !acc
        } else {
          %z = func.call @pingpong_loop(%abuf, %bbuf, %a0, %b0, %a1, %b1, %kb0, %kpairs2, %m0, %n0, %M, %N, %kw, %lda, %ldb, %ra, %rb, %lagging, %issuers, %false, %a, %bt, %a_elems, %b_elems, %acc0)
              : (!buf, !buf, !la, !lb, !la, !lb, index, index, index, index, index, index, index, index, index, index, index, i1, index, i1, !tile.ptr<!tile.dtype<"DTYPE">>, !tile.ptr<!tile.dtype<"DTYPE">>, index, index, !acc) -> !acc
          scf.yield %z : !acc
        }
        scf.yield %y : !acc
      }
      tile.yield %x : !acc
    }
    scf.yield %r : !acc
  } else {
  // Interior blocks take @plain_loop's interior version with the 16-byte
  // DMA only (on the model gfx950's split shapes 1350.6 -> 1378.1 and 1496.8
  // -> 1526.0 TFLOPS; gfx942's 4-byte lines 589.0 -> 585.8, 718.2 -> 714.1).
  %wide = tile.param @WIDE : i1
  %interior_wide = arith.andi %interior, %wide : i1
  %acc_pp = scf.if %interior_wide -> (!acc) {
    %x = func.call @plain_loop(%abuf, %bbuf, %a0, %b0, %a1, %b1, %kb0, %nkw, %kpairs2, %m0, %n0, %M, %N, %kw, %lda, %ldb, %ra, %rb, %issuers, %true, %acc0)
        : (!buf, !buf, !la, !lb, !la, !lb, index, index, index, index, index, index, index, index, index, index, index, index, index, i1, !acc) -> !acc
    scf.yield %x : !acc
  } else {
    %x = func.call @plain_loop(%abuf, %bbuf, %a0, %b0, %a1, %b1, %kb0, %nkw, %kpairs2, %m0, %n0, %M, %N, %kw, %lda, %ldb, %ra, %rb, %issuers, %false, %acc0)
        : (!buf, !buf, !la, !lb, !la, !lb, index, index, index, index, index, index, index, index, index, index, index, index, index, i1, !acc) -> !acc
    scf.yield %x : !acc
  }
  scf.yield %acc_pp : !acc
  }
  %mw = arith.addi %m0, %ra : index
  %nw = arith.addi %n0, %rb : index
  %with_bias = scf.if %has_bias -> (!acc) {
    %biasbuf = tile.make_buffer %bias, %N : !tile.ptr<!tile.dtype<"DTYPE">> -> !buf
    // The bias runs down the columns of C^T: element n of the wave's
    // columns of C is row n of the accumulators.
    %bcol = tile.load %biasbuf[%nw, %c0] stride %c1 bounds %N, %c1 : !buf -> !tile.tile<[WN, 1], !tile.dtype<"DTYPE">, #tile.slice<1, #tile.mfma<acc>>>
    %bcol32 = tile.convert %bcol : !tile.tile<[WN, 1], !tile.dtype<"DTYPE">, #tile.slice<1, #tile.mfma<acc>>> -> !tile.tile<[WN, 1], f32, #tile.slice<1, #tile.mfma<acc>>>
    %bfull = tile.broadcast %bcol32 : !tile.tile<[WN, 1], f32, #tile.slice<1, #tile.mfma<acc>>> -> !acc
    %sum = tile.addf %acc, %bfull : !acc
    scf.yield %sum : !acc
  } else {
    scf.yield %acc : !acc
  }
  %out = tile.convert %with_bias : !acc -> !tile.tile<[WN, WM], !tile.dtype<"OUT">, #tile.mfma<acc>>

  // The accumulators are C^T: the stores transpose them back, 4 columns of
  // C per instruction. Whole blocks take vector stores; blocks at the edges
  // of C are masked.
  %mend = arith.addi %mw, %wm : index
  %nend = arith.addi %nw, %wn : index
  %m_in = arith.cmpi ule, %mend, %M : index
  %n_in = arith.cmpi ule, %nend, %N : index
  %inside = arith.andi %m_in, %n_in : i1
  scf.if %inside {
    tile.store %out, %cbuf[%mw, %nw] stride %ldc transpose : !tile.tile<[WN, WM], !tile.dtype<"OUT">, #tile.mfma<acc>>, !tile.buffer<!tile.dtype<"OUT">>
  } else {
    tile.store %out, %cbuf[%mw, %nw] stride %ldc bounds %M, %N transpose : !tile.tile<[WN, WM], !tile.dtype<"OUT">, #tile.mfma<acc>>, !tile.buffer<!tile.dtype<"OUT">>
  }
  return
}
