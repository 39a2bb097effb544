// kcc fused all-gather + GEMM over a symmetric heap:
//
//   C[M, N] = A_gathered[M, K] * B[K, N] (+ bias[N]),  f32 accumulation,
//
// where rank r of `world` ranks holds the shard A_r [M, Kl] (Kl = K / world,
// row-major, row stride Kl) in its symmetric heap, and A_gathered is the
// concatenation of the shards along K. B is given transposed as the
// row-major [N, K] matrix Bt, as in kernels/gemm/gemm.mlir. C is row-major
// [M, N] (row stride ldc).
//
// The workgroups of one launch split into two roles by program id:
//
//  * fetchers (program ids 0 .. FETCHERS-1) pull blocks of remote shards
//    through tile.peer_ptr into a local staging buffer (in this rank's heap)
//    and publish each block with a per-(m tile, k group) ready flag. A fetch
//    job is BM rows by KG columns of one shard; each wave copies FR = BM /
//    waves of the rows with tile.load / tile.store. The job ends with a
//    workgroup barrier - the stores of all waves must be ordered before the
//    release - and wave 0 then stores the flag with release semantics at
//    agent scope. The value stored is the call's epoch: flags only grow, so
//    a workspace serves any number of calls without a reset (workers wait
//    for `flag >= epoch`).
//  * GEMM workers (the other program ids) take output tiles of BM x BN in
//    turn (a persistent loop) and run, per tile, the main loop of
//    kernels/gemm/gemm.mlir's PINGPONG GEMM over the staging buffer: eight
//    waves in two groups one barrier apart (tile.stagger), each wave reading
//    its whole K block of operands in one phase and running its MFMAs back to
//    back in the next, K blocks of BK through two LDS buffers. The blocks
//    reach LDS by the leading group's DMA (gfx950's 16-byte DMA, WIDE) or,
//    with PPREG, through every wave's registers (gfx942, whose DMA moves 4
//    bytes a lane; and the m-contiguous staging, which must be transposed on
//    the way). A wave acquires the flag of a k group before it first reads
//    the staging buffer for it: with the DMA the leading group's waves (the
//    only ones that read it), with PPREG every wave.
//
// Both sides walk the k groups starting at this rank's own shard (rotated
// order): the local copy is the fastest, so workers start at once, and the
// remote groups arrive in the order they are consumed. Fetchers take jobs
// m-tile-major (every k group of an m tile before the next m tile), the
// order in which workers take output tiles: the first round of tiles has
// all its data once its few m tiles have arrived, instead of each of its
// tiles waiting for its last k group until the whole gather is done (as a
// group-major order would make it: at 8 ranks, M = 16384 the workers would
// idle for most of the gather; ag_gemm_bench --estimate). The consecutive
// jobs of one m tile read every rank's shard, so all links carry data at
// once. Program ids are dispatched in order, so every fetcher is resident
// before any worker: a worker can only wait on a workgroup that runs. The
// host op additionally sizes the grid to the chip's residency (persistent
// kernel), so no workgroup waits for a slot that a spinning one holds.
//
// Staging layouts (STAGE_MN):
//  * false, k-contiguous: staging is [M, K] row-major (the gathered A);
//    workers fill LDS as the GEMM does.
//  * true, m-contiguous: staging is [K, M] row-major (A transposed; the
//    layout a consumer that reads columns of A, or a column-major GEMM,
//    wants); fetchers store transposed, workers (PPREG) load their share as
//    [BK, RA] blocks and store it transposed into LDS (the path attention
//    takes for V on gfx942, which has no transposing LDS read).
//
// RELEASE_BARRIER = false builds the broken variant with no barrier between
// the fetch stores and the release: the other waves' staging stores are
// then not ordered before wave 0's flag store, which check mode reports as
// a race between those stores and the workers' reads (a test asserts it).
//
// RECORD = true writes 8 i32 words per workgroup to `stats` [num_programs, 8]:
// role (1 fetcher, 2 worker), jobs (fetch jobs / output tiles), flag
// operations (flags released / flags acquired), K blocks (BK-wide blocks
// copied / multiplied), then s_memtime ticks spent in all, fetching, waiting
// on flags and computing (the low 32 bits of each difference).
//
// Parameters: DTYPE (bf16, f16), OUT (bf16, f16, f32), WM, WN, WGM, WGN
// (the waves' blocks and grid, as gemm.mlir's; an even wave count), BK
// (multiple of the MFMA K), KG (k group: a multiple of BK dividing Kl), FR
// (= BM / waves), PPREG, RA (= BM / waves), RB (= BN / waves: each wave's
// share of a block with PPREG, multiples of 16), WIDE (the 16-byte DMA,
// gfx950), SWZ (the LDS rows' swizzle, as gemm.mlir's), WPS (waves per
// SIMD), HAS_BIAS, STAGE_MN (needs PPREG), RELEASE_BARRIER, RECORD.
// Launch: grid (FETCHERS + workers), block BLOCK = 64 WGM WGN; every K block
// lies inside one k group and every k group inside one shard
// (K % (world * KG) == 0).

tile.type_param_decl @DTYPE = bf16 of [bf16, f16]
tile.type_param_decl @OUT = f32
tile.param_decl @WM : i64 = 128
tile.param_decl @WN : i64 = 64
tile.param_decl @WGM : i64 = 2
tile.param_decl @WGN : i64 = 4
tile.param_decl @BM : i64 product [@WM, @WGM]
tile.param_decl @BN : i64 product [@WN, @WGN]
tile.param_decl @BLOCK : i64 product [@WGM, @WGN, 64]
tile.param_decl @WPS : i64 = 2
tile.param_decl @BK : i64 = 32
tile.param_decl @KG : i64 = 64
tile.param_decl @FR : i64 = 32
tile.param_decl @PPREG : i1 = true
tile.param_decl @RA : i64 = 32
tile.param_decl @RB : i64 = 32
tile.param_decl @WIDE : i1 = false
tile.param_decl @SWZ : i64 = 0
tile.param_decl @HAS_BIAS : i1 = false
tile.param_decl @STAGE_MN : i1 = false
tile.param_decl @RELEASE_BARRIER : i1 = true
tile.param_decl @RECORD : i1 = false

!ptr = !tile.ptr<!tile.dtype<"DTYPE">>
!buf = !tile.buffer<!tile.dtype<"DTYPE">>
!la = !tile.lds<[BM, BK], !tile.dtype<"DTYPE">, swizzle = SWZ>
!lb = !tile.lds<[BN, BK], !tile.dtype<"DTYPE">, swizzle = SWZ>
// The accumulators hold C^T = Bt A^T, as gemm.mlir's: a lane's
// consecutive registers run along a row of C, so the epilogue stores 8
// bytes a lane (16 on gfx950, whose lane-half swaps double the runs).
!acc = !tile.tile<[WN, WM], f32, #tile.mfma<acc>>
!fa = !tile.tile<[BK, WM], !tile.dtype<"DTYPE">, #tile.mfma<b, k_wide>>
!fb = !tile.tile<[WN, BK], !tile.dtype<"DTYPE">, #tile.mfma<a, k_wide>>
// PPREG: a wave's share of one K block of A (RA rows; from m-contiguous
// staging the same elements as BK rows of RA) and of Bt (RB rows), 16
// bytes a lane.
!sa = !tile.tile<[RA, BK], !tile.dtype<"DTYPE">, #tile.blocked<[1, 8], [16, 4]>>
!sat = !tile.tile<[BK, RA], !tile.dtype<"DTYPE">, #tile.blocked<[1, 8], [16, 4]>>
!sb = !tile.tile<[RB, BK], !tile.dtype<"DTYPE">, #tile.blocked<[1, 8], [16, 4]>>
// A fetch piece: FR rows by BK columns, 4 elements (8 bytes) per lane.
!piece = !tile.tile<[FR, BK], !tile.dtype<"DTYPE">, #tile.blocked<[1, 4], [8, 8]>>
!stat = !tile.tile<[1, 64], i32, #tile.blocked<[1, 1], [1, 64]>>

// The K block a worker handles `b`-th: blocks in the rotated order that
// starts at this rank's shard (K block `start` = rank Kl / BK, below nk);
// b >= nk gives nk, the block past K, which every bounded read fills with
// zeros (the pair loops take one when the block count is odd). A compare
// and subtract, not a remainder: this runs once a block.
func.func private @block_at(%b: index, %start: index, %nk: index) -> index {
  %s = arith.addi %start, %b : index
  %wraps = arith.cmpi uge, %s, %nk : index
  %s_w = arith.subi %s, %nk : index
  %kb = arith.select %wraps, %s_w, %s : index
  %past = arith.cmpi uge, %b, %nk : index
  %r = arith.select %past, %nk, %kb : index
  return %r : index
}

// Acquires the ready flag of K block `kb`'s group for m tile `mt` when `kb`
// opens its group (never for the block past K); returns 1 when it waited
// (for the counters), else 0, and the clock ticks spent waiting.
func.func private @acquire(%flags: !tile.ptr<i32>, %kb: index, %nk: index, %mt: index,
                           %nkg: index, %epoch: i32, %ready: i1) -> (index, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %bk = tile.param @BK : index
  %kg = tile.param @KG : index
  %bpg = arith.divui %kg, %bk : index
  %in = arith.remui %kb, %bpg : index
  %starts = arith.cmpi eq, %in, %c0 : index
  %real = arith.cmpi ult, %kb, %nk : index
  %true = arith.constant true
  %unready = arith.xori %ready, %true : i1
  %opens_any = arith.andi %starts, %real : i1
  %opens = arith.andi %opens_any, %unready : i1
  %n, %ticks = scf.if %opens -> (index, i64) {
    %g = arith.divui %kb, %bpg : index
    %row = arith.muli %mt, %nkg : index
    %f = arith.addi %row, %g : index
    // The clock only with RECORD: s_memtime is a scalar memory read, which
    // the LDS stores before it would wait for with it.
    %record = tile.param @RECORD : i1
    %dt = scf.if %record -> (i64) {
      %t0 = tile.memtime
      tile.flag_wait %flags[%f] ge %epoch agent : !tile.ptr<i32>
      %t1 = tile.memtime
      %d = arith.subi %t1, %t0 : i64
      scf.yield %d : i64
    } else {
      tile.flag_wait %flags[%f] ge %epoch agent : !tile.ptr<i32>
      scf.yield %z : i64
    }
    scf.yield %c1, %dt : index, i64
  } else {
    scf.yield %c0, %z : index, i64
  }
  return %n, %ticks : index, i64
}

// Starts the DMA of K block `kb` of the tile's rows of A (from k-contiguous
// staging) and Bt into one buffer, shared by `issuers` waves; blocks wholly
// inside both take the copy without bounds.
func.func private @dma(%sbuf: !buf, %bbuf: !buf, %lds_a: !la, %lds_b: !lb,
                       %kb: index, %m0: index, %n0: index,
                       %M: index, %N: index, %K: index, %ldb: index, %issuers: index) {
  %c0 = arith.constant 0 : index
  %bk = tile.param @BK : index
  %bm = tile.param @BM : index
  %bn = tile.param @BN : index
  %wide = tile.param @WIDE : i1
  %k0 = arith.muli %kb, %bk : index
  %mend = arith.addi %m0, %bm : index
  %nend = arith.addi %n0, %bn : index
  %kend = arith.addi %k0, %bk : index
  %m_in = arith.cmpi ule, %mend, %M : index
  %n_in = arith.cmpi ule, %nend, %N : index
  %k_in = arith.cmpi ule, %kend, %K : index
  %mn_in = arith.andi %m_in, %n_in : i1
  %inside = arith.andi %mn_in, %k_in : i1
  scf.if %inside {
    scf.if %wide {
      tile.async_copy inbounds %sbuf[%m0, %k0] stride %K -> %lds_a[%c0] waves %issuers {width = 16 : i64} : !buf, !la
      tile.async_copy inbounds %bbuf[%n0, %k0] stride %ldb -> %lds_b[%c0] waves %issuers {width = 16 : i64} : !buf, !lb
    } else {
      tile.async_copy inbounds %sbuf[%m0, %k0] stride %K -> %lds_a[%c0] waves %issuers : !buf, !la
      tile.async_copy inbounds %bbuf[%n0, %k0] stride %ldb -> %lds_b[%c0] waves %issuers : !buf, !lb
    }
  } else {
    scf.if %wide {
      tile.async_copy %sbuf[%m0, %k0] stride %K bounds %M, %K -> %lds_a[%c0] waves %issuers {width = 16 : i64} : !buf, !la
      tile.async_copy %bbuf[%n0, %k0] stride %ldb bounds %N, %K -> %lds_b[%c0] waves %issuers {width = 16 : i64} : !buf, !lb
    } else {
      tile.async_copy %sbuf[%m0, %k0] stride %K bounds %M, %K -> %lds_a[%c0] waves %issuers : !buf, !la
      tile.async_copy %bbuf[%n0, %k0] stride %ldb bounds %N, %K -> %lds_b[%c0] waves %issuers : !buf, !lb
    }
  }
  return
}

// PPREG: this wave's share of K block `kb` (rows w RA.. of the tile's A
// rows, w RB.. of its Bt rows) into registers, zeros past M, N and K. From
// m-contiguous staging A's share comes as its [BK, RA] block (!sat; the
// unused one of !sa and !sat is a constant the compiler drops).
func.func private @share_load(%sbuf: !buf, %bbuf: !buf, %kb: index, %m0: index, %n0: index,
                              %M: index, %N: index, %K: index, %ldb: index)
    -> (!sa, !sat, !sb) {
  %zero = arith.constant 0.0 : f32
  %bk = tile.param @BK : index
  %rav = tile.param @RA : index
  %rbv = tile.param @RB : index
  %mn = tile.param @STAGE_MN : i1
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
  %a, %at, %b = scf.if %mn -> (!sa, !sat, !sb) {
    %x32 = tile.splat %zero : f32 -> !tile.tile<[RA, BK], f32, #tile.blocked<[1, 8], [16, 4]>>
    %x = tile.convert %x32 : !tile.tile<[RA, BK], f32, #tile.blocked<[1, 8], [16, 4]>> -> !sa
    %t, %y = scf.if %inside -> (!sat, !sb) {
      %t1 = tile.load %sbuf[%k0, %ma] stride %M : !buf -> !sat
      %y1 = tile.load %bbuf[%nb, %k0] stride %ldb : !buf -> !sb
      scf.yield %t1, %y1 : !sat, !sb
    } else {
      %t1 = tile.load %sbuf[%k0, %ma] stride %M bounds %K, %M : !buf -> !sat
      %y1 = tile.load %bbuf[%nb, %k0] stride %ldb bounds %N, %K : !buf -> !sb
      scf.yield %t1, %y1 : !sat, !sb
    }
    scf.yield %x, %t, %y : !sa, !sat, !sb
  } else {
    %t32 = tile.splat %zero : f32 -> !tile.tile<[BK, RA], f32, #tile.blocked<[1, 8], [16, 4]>>
    %t = tile.convert %t32 : !tile.tile<[BK, RA], f32, #tile.blocked<[1, 8], [16, 4]>> -> !sat
    %x, %y = scf.if %inside -> (!sa, !sb) {
      %x1 = tile.load %sbuf[%ma, %k0] stride %K : !buf -> !sa
      %y1 = tile.load %bbuf[%nb, %k0] stride %ldb : !buf -> !sb
      scf.yield %x1, %y1 : !sa, !sb
    } else {
      %x1 = tile.load %sbuf[%ma, %k0] stride %K bounds %M, %K : !buf -> !sa
      %y1 = tile.load %bbuf[%nb, %k0] stride %ldb bounds %N, %K : !buf -> !sb
      scf.yield %x1, %y1 : !sa, !sb
    }
    scf.yield %x, %t, %y : !sa, !sat, !sb
  }
  return %a, %at, %b : !sa, !sat, !sb
}

// PPREG: stores this wave's share (see @share_load) into a buffer.
func.func private @share_store(%a: !sa, %at: !sat, %b: !sb, %lds_a: !la, %lds_b: !lb) {
  %c0 = arith.constant 0 : index
  %rav = tile.param @RA : index
  %rbv = tile.param @RB : index
  %mn = tile.param @STAGE_MN : i1
  %wave = tile.wave_id
  %wa = arith.muli %wave, %rav : index
  %wb = arith.muli %wave, %rbv : index
  scf.if %mn {
    tile.lds_store %at, %lds_a[%c0][%wa, %c0] transpose : !sat, !la
  } else {
    tile.lds_store %a, %lds_a[%c0][%wa, %c0] : !sa, !la
  }
  tile.lds_store %b, %lds_b[%c0][%wb, %c0] : !sb, !lb
  return
}

// PPREG: the `b`-th block's share of this wave, its flag acquired first;
// also returns what @acquire counted.
func.func private @share_fetch(%sbuf: !buf, %bbuf: !buf, %flags: !tile.ptr<i32>, %b: index,
                               %start: index, %nk: index, %mt: index, %nkg: index,
                               %epoch: i32, %ready: i1, %m0: index, %n0: index,
                               %M: index, %N: index, %K: index, %ldb: index)
    -> (!sa, !sat, !sb, index, i64) {
  %kb = func.call @block_at(%b, %start, %nk) : (index, index, index) -> index
  %n, %t = func.call @acquire(%flags, %kb, %nk, %mt, %nkg, %epoch, %ready)
      : (!tile.ptr<i32>, index, index, index, index, i32, i1) -> (index, i64)
  %a, %at, %s = func.call @share_load(%sbuf, %bbuf, %kb, %m0, %n0, %M, %N, %K, %ldb)
      : (!buf, !buf, index, index, index, index, index, index, index) -> (!sa, !sat, !sb)
  return %a, %at, %s, %n, %t : !sa, !sat, !sb, index, i64
}

// DMA: block `b` into one buffer by `issuers` waves, its flag acquired
// first; returns what @acquire counted.
func.func private @dma_fetch(%sbuf: !buf, %bbuf: !buf, %flags: !tile.ptr<i32>, %lds_a: !la, %lds_b: !lb,
                             %b: index, %start: index, %nk: index, %mt: index, %nkg: index,
                             %epoch: i32, %ready: i1, %m0: index, %n0: index,
                             %M: index, %N: index, %K: index, %ldb: index, %issuers: index)
    -> (index, i64) {
  %kb = func.call @block_at(%b, %start, %nk) : (index, index, index) -> index
  %n, %t = func.call @acquire(%flags, %kb, %nk, %mt, %nkg, %epoch, %ready)
      : (!tile.ptr<i32>, index, index, index, index, i32, i1) -> (index, i64)
  func.call @dma(%sbuf, %bbuf, %lds_a, %lds_b, %kb, %m0, %n0, %M, %N, %K, %ldb, %issuers)
      : (!buf, !buf, !la, !lb, index, index, index, index, index, index, index, index) -> ()
  return %n, %t : index, i64
}

// One K block of the PINGPONG loop by DMA (gemm.mlir's @pingpong_block):
// in the memory phase the wave reads its whole block of operands from the
// current buffer and the leading group acquires and starts block `f` into
// the next; in the matrix phase it runs the block's MFMAs. The memory
// phase's barrier publishes nothing (the DMA in flight lands in a buffer
// nobody reads yet) and has no fence, whose release would wait for it.
func.func private @pingpong_block(%sbuf: !buf, %bbuf: !buf, %flags: !tile.ptr<i32>,
                                  %cur_a: !la, %cur_b: !lb, %next_a: !la, %next_b: !lb,
                                  %f: index, %start: index, %nk: index, %mt: index,
                                  %nkg: index, %epoch: i32, %ready: i1, %m0: index, %n0: index,
                                  %M: index, %N: index, %K: index, %ldb: index,
                                  %ra: index, %rb: index, %lagging: i1, %issuers: index,
                                  %acc: !acc, %waits: index, %ticks: i64) -> (!acc, index, i64) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i64
  %true = arith.constant true
  %leading = arith.xori %lagging, %true : i1
  %n, %t = scf.if %leading -> (index, i64) {
    %n1, %t1 = func.call @dma_fetch(%sbuf, %bbuf, %flags, %next_a, %next_b, %f, %start, %nk, %mt, %nkg,
                                    %epoch, %ready, %m0, %n0, %M, %N, %K, %ldb, %issuers)
        : (!buf, !buf, !tile.ptr<i32>, !la, !lb, index, index, index, index, index, i32, i1, index,
           index, index, index, index, index, index) -> (index, i64)
    scf.yield %n1, %t1 : index, i64
  } else {
    scf.yield %c0, %z : index, i64
  }
  %fa = tile.lds_load %cur_a[%c0][%ra, %c0] transpose : !la -> !fa
  %fb = tile.lds_load %cur_b[%c0][%rb, %c0] : !lb -> !fb
  tile.wait lgkmcnt(0)
  tile.sched_barrier []
  tile.barrier unfenced
  tile.sched_barrier []
  // The matrix phase outranks the other wave's memory phase at the SIMD's
  // issue port: when the pipe frees, the next MFMA issues, not a read
  // (gfx950 8192^3, whole run on the model: 97.9 -> 98.3% MFMA busy in the
  // steady state, 1585.8 -> 1588.4 TFLOPS).
  tile.setprio 1
  %out = tile.mma %fb, %fa, %acc : !fb, !fa -> !acc
  tile.sched_barrier []
  tile.setprio 0
  // The next block has landed (the lagging group has nothing to wait for).
  tile.wait vmcnt(0)
  tile.barrier
  tile.sched_barrier []
  %w = arith.addi %waits, %n : index
  %tk = arith.addi %ticks, %t : i64
  return %out, %w, %tk : !acc, index, i64
}

// One K block of the PINGPONG loop with PPREG (gemm.mlir's @ppreg_block):
// the wave stores the share of block `f` it loaded one block ago into the
// next buffer, acquires and loads its share of block f + 1, and reads its
// operands; then runs the MFMAs. Neither barrier needs a fence.
func.func private @ppreg_block(%sbuf: !buf, %bbuf: !buf, %flags: !tile.ptr<i32>,
                               %cur_a: !la, %cur_b: !lb, %next_a: !la, %next_b: !lb,
                               %f: index, %start: index, %nk: index, %mt: index,
                               %nkg: index, %epoch: i32, %ready: i1, %m0: index, %n0: index,
                               %M: index, %N: index, %K: index, %ldb: index,
                               %ra: index, %rb: index, %acc: !acc, %waits: index, %ticks: i64,
                               %sa: !sa, %sat: !sat, %sb: !sb)
    -> (!acc, index, i64, !sa, !sat, !sb) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // The operand reads first: their latency passes under the share's store
  // and the next loads' address and flag work.
  %fa = tile.lds_load %cur_a[%c0][%ra, %c0] transpose : !la -> !fa
  %fb = tile.lds_load %cur_b[%c0][%rb, %c0] : !lb -> !fb
  func.call @share_store(%sa, %sat, %sb, %next_a, %next_b) : (!sa, !sat, !sb, !la, !lb) -> ()
  %f1 = arith.addi %f, %c1 : index
  %na, %nat, %nb, %n, %t = func.call @share_fetch(%sbuf, %bbuf, %flags, %f1, %start, %nk, %mt, %nkg,
                                                  %epoch, %ready, %m0, %n0, %M, %N, %K, %ldb)
      : (!buf, !buf, !tile.ptr<i32>, index, index, index, index, index, i32, i1, index, index, index,
         index, index, index) -> (!sa, !sat, !sb, index, i64)
  tile.wait lgkmcnt(0)
  tile.sched_barrier []
  tile.barrier unfenced
  tile.sched_barrier []
  // The matrix phase outranks the memory phase (see @pingpong_block).
  tile.setprio 1
  %out = tile.mma %fb, %fa, %acc : !fb, !fa -> !acc
  tile.sched_barrier []
  tile.setprio 0
  tile.barrier unfenced
  tile.sched_barrier []
  %w = arith.addi %waits, %n : index
  %tk = arith.addi %ticks, %t : i64
  return %out, %w, %tk, %na, %nat, %nb : !acc, index, i64, !sa, !sat, !sb
}

// One output tile: block 0 into the first buffer (every wave), then the
// K loop of two blocks (ping, pong) an iteration, the lagging group one
// barrier behind. Returns the accumulators and the flags acquired and
// ticks spent waiting (this wave's).
func.func private @tile_product(%sbuf: !buf, %bbuf: !buf, %flags: !tile.ptr<i32>,
                                %a0: !la, %b0: !lb, %a1: !la, %b1: !lb,
                                %start: index, %nk: index, %mt: index,
                                %nkg: index, %epoch: i32, %m0: index, %n0: index,
                                %M: index, %N: index, %K: index, %ldb: index,
                                %ra: index, %rb: index) -> (!acc, index, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %block = tile.param @BLOCK : index
  %waves = arith.divui %block, %c64 : index
  %half = arith.divui %waves, %c2 : index
  %ppreg = tile.param @PPREG : i1
  %wave = tile.wave_id
  %lagging = arith.cmpi uge, %wave, %half : index
  %acc0 = tile.splat %zero : f32 -> !acc
  // Once the gather has passed this m tile (every tile after the first
  // round), all its k groups' flags are set: one test of them all (a word a
  // lane, up to 64 groups) spares the tile the blocking flag load that
  // opens each group, whose latency the memory phase cannot hide.
  %testable = arith.cmpi ule, %nkg, %c64 : index
  %ready = scf.if %testable -> (i1) {
    %row = arith.muli %mt, %nkg : index
    %all = tile.flag_test %flags[%row] count %nkg ge %epoch agent : !tile.ptr<i32>
    scf.yield %all : i1
  } else {
    %false = arith.constant false
    scf.yield %false : i1
  }
  // A passed test acquired every group's flag (the counters count it so).
  %tested = arith.select %ready, %nkg, %c0 : index
  // Pairs of blocks: an odd count takes the block past K (zeros).
  %nk_up = arith.addi %nk, %c1 : index
  %npairs = arith.divui %nk_up, %c2 : index
  %kpairs = arith.muli %npairs, %c2 : index
  %acc, %waits, %ticks = scf.if %ppreg -> (!acc, index, i64) {
    %s0:5 = func.call @share_fetch(%sbuf, %bbuf, %flags, %c0, %start, %nk, %mt, %nkg,
                                   %epoch, %ready, %m0, %n0, %M, %N, %K, %ldb)
        : (!buf, !buf, !tile.ptr<i32>, index, index, index, index, index, i32, i1, index, index,
           index, index, index, index) -> (!sa, !sat, !sb, index, i64)
    func.call @share_store(%s0#0, %s0#1, %s0#2, %a0, %b0) : (!sa, !sat, !sb, !la, !lb) -> ()
    tile.wait lgkmcnt(0)
    tile.barrier
    %r:3 = tile.stagger %lagging -> (!acc, index, i64) {
      %s1:5 = func.call @share_fetch(%sbuf, %bbuf, %flags, %c1, %start, %nk, %mt, %nkg,
                                     %epoch, %ready, %m0, %n0, %M, %N, %K, %ldb)
          : (!buf, !buf, !tile.ptr<i32>, index, index, index, index, index, i32, i1, index, index,
             index, index, index, index) -> (!sa, !sat, !sb, index, i64)
      %w01 = arith.addi %s0#3, %s1#3 : index
      %w1 = arith.addi %w01, %tested : index
      %t1 = arith.addi %s0#4, %s1#4 : i64
      %l:6 = scf.for %k = %c0 to %kpairs step %c2
          iter_args(%acc_i = %acc0, %w_i = %w1, %t_i = %t1, %sa = %s1#0, %sat = %s1#1, %sb = %s1#2)
          -> (!acc, index, i64, !sa, !sat, !sb) {
        %k1 = arith.addi %k, %c1 : index
        %k2 = arith.addi %k, %c2 : index
        %x:6 = func.call @ppreg_block(%sbuf, %bbuf, %flags, %a0, %b0, %a1, %b1, %k1, %start, %nk, %mt,
                                      %nkg, %epoch, %ready, %m0, %n0, %M, %N, %K, %ldb, %ra, %rb,
                                      %acc_i, %w_i, %t_i, %sa, %sat, %sb)
            : (!buf, !buf, !tile.ptr<i32>, !la, !lb, !la, !lb, index, index, index, index, index,
               i32, i1, index, index, index, index, index, index, index, index, !acc, index, i64,
               !sa, !sat, !sb) -> (!acc, index, i64, !sa, !sat, !sb)
        %y:6 = func.call @ppreg_block(%sbuf, %bbuf, %flags, %a1, %b1, %a0, %b0, %k2, %start, %nk, %mt,
                                      %nkg, %epoch, %ready, %m0, %n0, %M, %N, %K, %ldb, %ra, %rb,
                                      %x#0, %x#1, %x#2, %x#3, %x#4, %x#5)
            : (!buf, !buf, !tile.ptr<i32>, !la, !lb, !la, !lb, index, index, index, index, index,
               i32, i1, index, index, index, index, index, index, index, index, !acc, index, i64,
               !sa, !sat, !sb) -> (!acc, index, i64, !sa, !sat, !sb)
        scf.yield %y#0, %y#1, %y#2, %y#3, %y#4, %y#5 : !acc, index, i64, !sa, !sat, !sb
      }
      tile.yield %l#0, %l#1, %l#2 : !acc, index, i64
    }
    scf.yield %r#0, %r#1, %r#2 : !acc, index, i64
  } else {
    %n0w, %t0w = func.call @dma_fetch(%sbuf, %bbuf, %flags, %a0, %b0, %c0, %start, %nk, %mt, %nkg,
                                      %epoch, %ready, %m0, %n0, %M, %N, %K, %ldb, %waves)
        : (!buf, !buf, !tile.ptr<i32>, !la, !lb, index, index, index, index, index, i32, i1, index,
           index, index, index, index, index, index) -> (index, i64)
    %n0t = arith.addi %n0w, %tested : index
    tile.wait vmcnt(0)
    tile.barrier
    %r:3 = tile.stagger %lagging -> (!acc, index, i64) {
      // Past the last block the copy fetches the block past K (zeros, no
      // flag) into a buffer nobody reads any more, so the loop takes no
      // branch.
      %l:3 = scf.for %k = %c0 to %kpairs step %c2 iter_args(%acc_i = %acc0, %w_i = %n0t, %t_i = %t0w)
          -> (!acc, index, i64) {
        %k1 = arith.addi %k, %c1 : index
        %k2 = arith.addi %k, %c2 : index
        %x:3 = func.call @pingpong_block(%sbuf, %bbuf, %flags, %a0, %b0, %a1, %b1, %k1, %start, %nk, %mt,
                                         %nkg, %epoch, %ready, %m0, %n0, %M, %N, %K, %ldb, %ra, %rb, %lagging, %half,
                                         %acc_i, %w_i, %t_i)
            : (!buf, !buf, !tile.ptr<i32>, !la, !lb, !la, !lb, index, index, index, index, index,
               i32, i1, index, index, index, index, index, index, index, index, i1, index, !acc,
               index, i64) -> (!acc, index, i64)
        %y:3 = func.call @pingpong_block(%sbuf, %bbuf, %flags, %a1, %b1, %a0, %b0, %k2, %start, %nk, %mt,
                                         %nkg, %epoch, %ready, %m0, %n0, %M, %N, %K, %ldb, %ra, %rb, %lagging, %half,
                                         %x#0, %x#1, %x#2)
            : (!buf, !buf, !tile.ptr<i32>, !la, !lb, !la, !lb, index, index, index, index, index,
               i32, i1, index, index, index, index, index, index, index, index, i1, index, !acc,
               index, i64) -> (!acc, index, i64)
        scf.yield %y#0, %y#1, %y#2 : !acc, index, i64
      }
      tile.yield %l#0, %l#1, %l#2 : !acc, index, i64
    }
    scf.yield %r#0, %r#1, %r#2 : !acc, index, i64
  }
  return %acc, %waits, %ticks : !acc, index, i64
}

// Writes word `col` of workgroup `pid`'s 8 (wave 0 only): role, jobs, flags,
// K blocks, then clock ticks in all, fetching, waiting, computing.
func.func private @record(%sbuf: !tile.buffer<i32>, %pid: index, %nprog: index,
                          %col: index, %value: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 8 : index
  %wave = tile.wave_id
  %w0 = arith.cmpi eq, %wave, %c0 : index
  scf.if %w0 {
    %v = arith.index_cast %value : index to i32
    %t = tile.splat %v : i32 -> !stat
    %cols = arith.addi %col, %c1 : index
    %rows = arith.addi %pid, %c1 : index
    tile.store %t, %sbuf[%pid, %col] stride %c4 bounds %rows, %cols : !stat, !tile.buffer<i32>
  }
  return
}

// Words 4-7: tick counts (s_memtime differences, 32 bits kept).
func.func private @record_ticks(%sbuf: !tile.buffer<i32>, %pid: index, %nprog: index,
                                %total: i64, %fetch: i64, %wait: i64, %compute: i64) {
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %t = arith.index_cast %total : i64 to index
  %f = arith.index_cast %fetch : i64 to index
  %w = arith.index_cast %wait : i64 to index
  %c = arith.index_cast %compute : i64 to index
  func.call @record(%sbuf, %pid, %nprog, %c4, %t) : (!tile.buffer<i32>, index, index, index, index) -> ()
  func.call @record(%sbuf, %pid, %nprog, %c5, %f) : (!tile.buffer<i32>, index, index, index, index) -> ()
  func.call @record(%sbuf, %pid, %nprog, %c6, %w) : (!tile.buffer<i32>, index, index, index, index) -> ()
  func.call @record(%sbuf, %pid, %nprog, %c7, %c) : (!tile.buffer<i32>, index, index, index, index) -> ()
  return
}

func.func @ag_gemm(%a: !ptr, %bases: !tile.ptr<i64>, %bt: !ptr,
                   %c: !tile.ptr<!tile.dtype<"OUT">>, %bias: !ptr,
                   %staging: !ptr, %flags: !tile.ptr<i32>, %stats: !tile.ptr<i32>,
                   %M: index, %N: index, %K: index, %ldb: index, %ldc: index,
                   %rank: index, %world: index, %fetchers: index, %epoch_i: index)
    attributes {tile.kernel, tile.block_size = @BLOCK, tile.waves_per_simd = @WPS} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %wm = tile.param @WM : index
  %wn = tile.param @WN : index
  %bm = tile.param @BM : index
  %bn = tile.param @BN : index
  %wgn = tile.param @WGN : index
  %bk = tile.param @BK : index
  %kg = tile.param @KG : index
  %fr = tile.param @FR : index
  %has_bias = tile.param @HAS_BIAS : i1
  %mn = tile.param @STAGE_MN : i1
  %fence = tile.param @RELEASE_BARRIER : i1
  %record = tile.param @RECORD : i1
  %epoch = arith.index_cast %epoch_i : index to i32

  %pid = tile.program_id 0
  %nprog = tile.num_programs 0
  %wave = tile.wave_id
  %mt_n0 = arith.addi %M, %bm : index
  %mt_n1 = arith.subi %mt_n0, %c1 : index
  %nmt = arith.divui %mt_n1, %bm : index
  %Kl = arith.divui %K, %world : index
  %gpr = arith.divui %Kl, %kg : index
  %nkg = arith.divui %K, %kg : index
  %nk = arith.divui %K, %bk : index
  // The first K block of this rank's shard: workers start there.
  %kl_blocks = arith.divui %Kl, %bk : index
  %start = arith.muli %rank, %kl_blocks : index

  %sbytes = arith.muli %M, %K : index
  %sbuf = tile.make_buffer %staging, %sbytes : !ptr -> !buf
  %c8s = arith.constant 8 : index
  %stat_n4 = arith.muli %nprog, %c8s : index
  %statbuf = tile.make_buffer %stats, %stat_n4 : !tile.ptr<i32> -> !tile.buffer<i32>

  %is_fetcher = arith.cmpi ult, %pid, %fetchers : index
  scf.if %is_fetcher {
    //===------------------------------------------------------------===//
    // Fetcher: jobs pid, pid + FETCHERS, ... of nmt * nkg, m-tile-major.
    //===------------------------------------------------------------===//
    %t_fbegin = tile.memtime
    %njobs = arith.muli %nkg, %nmt : index
    %rw = arith.muli %wave, %fr : index
    %shard_n = arith.muli %M, %Kl : index
    %njobs_done, %nblocks = scf.for %j = %pid to %njobs step %fetchers
        iter_args(%jd = %c0, %bd = %c0) -> (index, index) {
      %mt = arith.divui %j, %nkg : index
      %i = arith.remui %j, %nkg : index
      %rot = arith.muli %rank, %gpr : index
      %gi = arith.addi %rot, %i : index
      %g = arith.remui %gi, %nkg : index
      %src_rank = arith.divui %g, %gpr : index
      %g_in = arith.remui %g, %gpr : index
      %kin = arith.muli %g_in, %kg : index
      %kout = arith.muli %g, %kg : index
      %src = tile.peer_ptr %a, %bases, %rank, %src_rank : !ptr, !tile.ptr<i64>
      %srcbuf = tile.make_buffer %src, %shard_n : !ptr -> !buf
      %mrow = arith.muli %mt, %bm : index
      %r0 = arith.addi %mrow, %rw : index
      %bd_n = scf.for %kc = %c0 to %kg step %bk iter_args(%b = %bd) -> (index) {
        %ks = arith.addi %kin, %kc : index
        %kd = arith.addi %kout, %kc : index
        %p = tile.load %srcbuf[%r0, %ks] stride %Kl bounds %M, %Kl : !buf -> !piece
        scf.if %mn {
          tile.store %p, %sbuf[%kd, %r0] stride %M bounds %K, %M transpose : !piece, !buf
        } else {
          tile.store %p, %sbuf[%r0, %kd] stride %K bounds %M, %K : !piece, !buf
        }
        %b1 = arith.addi %b, %c1 : index
        scf.yield %b1 : index
      }
      // All waves' stores before the one release.
      scf.if %fence {
        tile.barrier
      }
      %w0 = arith.cmpi eq, %wave, %c0 : index
      scf.if %w0 {
        %row = arith.muli %mt, %nkg : index
        %f = arith.addi %row, %g : index
        tile.flag_store %flags[%f], %epoch agent : !tile.ptr<i32>
      }
      %jd1 = arith.addi %jd, %c1 : index
      scf.yield %jd1, %bd_n : index, index
    }
    scf.if %record {
      func.call @record(%statbuf, %pid, %nprog, %c0, %c1) : (!tile.buffer<i32>, index, index, index, index) -> ()
      func.call @record(%statbuf, %pid, %nprog, %c1, %njobs_done) : (!tile.buffer<i32>, index, index, index, index) -> ()
      func.call @record(%statbuf, %pid, %nprog, %c2, %njobs_done) : (!tile.buffer<i32>, index, index, index, index) -> ()
      func.call @record(%statbuf, %pid, %nprog, %c3, %nblocks) : (!tile.buffer<i32>, index, index, index, index) -> ()
      %t_fend = tile.memtime
      %ftotal = arith.subi %t_fend, %t_fbegin : i64
      %fz = arith.constant 0 : i64
      func.call @record_ticks(%statbuf, %pid, %nprog, %ftotal, %ftotal, %fz, %fz) : (!tile.buffer<i32>, index, index, i64, i64, i64, i64) -> ()
    }
  } else {
    //===------------------------------------------------------------===//
    // GEMM worker: output tiles w, w + W, ... of nmt * nnt.
    //===------------------------------------------------------------===//
    %w = arith.subi %pid, %fetchers : index
    %nw = arith.subi %nprog, %fetchers : index
    %nt_n0 = arith.addi %N, %bn : index
    %nt_n1 = arith.subi %nt_n0, %c1 : index
    %nnt = arith.divui %nt_n1, %bn : index
    %ntiles = arith.muli %nmt, %nnt : index
    %wrow = arith.divui %wave, %wgn : index
    %wcol = arith.remui %wave, %wgn : index
    %ra = arith.muli %wrow, %wm : index
    %rb = arith.muli %wcol, %wn : index
    %b_elems = arith.muli %N, %ldb : index
    %c_elems = arith.muli %M, %ldc : index
    %bbuf = tile.make_buffer %bt, %b_elems : !ptr -> !buf
    %cbuf = tile.make_buffer %c, %c_elems : !tile.ptr<!tile.dtype<"OUT">> -> !tile.buffer<!tile.dtype<"OUT">>
    %a0 = tile.lds_alloc "a0" : !la
    %b0 = tile.lds_alloc "b0" : !lb
    %a1 = tile.lds_alloc "a1" : !la
    %b1 = tile.lds_alloc "b1" : !lb

    %t_begin = tile.memtime
    %z64 = arith.constant 0 : i64
    %tiles_done, %waits, %blocks, %wait_ticks = scf.for %t = %w to %ntiles step %nw
        iter_args(%td = %c0, %wt = %c0, %bl = %c0, %tk = %z64) -> (index, index, index, i64) {
      %mt = arith.divui %t, %nnt : index
      %nt = arith.remui %t, %nnt : index
      %m0 = arith.muli %mt, %bm : index
      %n0 = arith.muli %nt, %bn : index
      %acc, %wt_t, %tk_t = func.call @tile_product(%sbuf, %bbuf, %flags, %a0, %b0, %a1, %b1, %start, %nk, %mt,
                                                   %nkg, %epoch, %m0, %n0, %M, %N, %K, %ldb, %ra, %rb)
          : (!buf, !buf, !tile.ptr<i32>, !la, !lb, !la, !lb, index, index, index, index, i32, index,
             index, index, index, index, index, index, index) -> (!acc, index, i64)

      %mw = arith.addi %m0, %ra : index
      %nw_ = arith.addi %n0, %rb : index
      %with_bias = scf.if %has_bias -> (!acc) {
        %biasbuf = tile.make_buffer %bias, %N : !ptr -> !buf
        // The bias runs down the columns of C^T (rows of the accumulators).
        %bcol = tile.load %biasbuf[%nw_, %c0] stride %c1 bounds %N, %c1 : !buf -> !tile.tile<[WN, 1], !tile.dtype<"DTYPE">, #tile.slice<1, #tile.mfma<acc>>>
        %bcol32 = tile.convert %bcol : !tile.tile<[WN, 1], !tile.dtype<"DTYPE">, #tile.slice<1, #tile.mfma<acc>>> -> !tile.tile<[WN, 1], f32, #tile.slice<1, #tile.mfma<acc>>>
        %bfull = tile.broadcast %bcol32 : !tile.tile<[WN, 1], f32, #tile.slice<1, #tile.mfma<acc>>> -> !acc
        %sum = tile.addf %acc, %bfull : !acc
        scf.yield %sum : !acc
      } else {
        scf.yield %acc : !acc
      }
      %out = tile.convert %with_bias : !acc -> !tile.tile<[WN, WM], !tile.dtype<"OUT">, #tile.mfma<acc>>
      %mend = arith.addi %mw, %wm : index
      %nend = arith.addi %nw_, %wn : index
      %m_in = arith.cmpi ule, %mend, %M : index
      %n_in = arith.cmpi ule, %nend, %N : index
      %inside = arith.andi %m_in, %n_in : i1
      scf.if %inside {
        tile.store %out, %cbuf[%mw, %nw_] stride %ldc transpose : !tile.tile<[WN, WM], !tile.dtype<"OUT">, #tile.mfma<acc>>, !tile.buffer<!tile.dtype<"OUT">>
      } else {
        tile.store %out, %cbuf[%mw, %nw_] stride %ldc bounds %M, %N transpose : !tile.tile<[WN, WM], !tile.dtype<"OUT">, #tile.mfma<acc>>, !tile.buffer<!tile.dtype<"OUT">>
      }
      %td1 = arith.addi %td, %c1 : index
      %wt1 = arith.addi %wt, %wt_t : index
      %bl1 = arith.addi %bl, %nk : index
      %tk1 = arith.addi %tk, %tk_t : i64
      scf.yield %td1, %wt1, %bl1, %tk1 : index, index, index, i64
    }
    scf.if %record {
      func.call @record(%statbuf, %pid, %nprog, %c0, %c2) : (!tile.buffer<i32>, index, index, index, index) -> ()
      func.call @record(%statbuf, %pid, %nprog, %c1, %tiles_done) : (!tile.buffer<i32>, index, index, index, index) -> ()
      func.call @record(%statbuf, %pid, %nprog, %c2, %waits) : (!tile.buffer<i32>, index, index, index, index) -> ()
      func.call @record(%statbuf, %pid, %nprog, %c3, %blocks) : (!tile.buffer<i32>, index, index, index, index) -> ()
      // Clock ticks: the whole role, fetching (none), waiting on flags, the
      // rest (computing).
      %t_end = tile.memtime
      %total = arith.subi %t_end, %t_begin : i64
      %compute = arith.subi %total, %wait_ticks : i64
      func.call @record_ticks(%statbuf, %pid, %nprog, %total, %z64, %wait_ticks, %compute) : (!tile.buffer<i32>, index, index, i64, i64, i64, i64) -> ()
    }
  }
  return
}
