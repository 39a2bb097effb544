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
//    job is BM = 2 WM rows by KG columns of one shard; the four waves copy a
//    quarter of the rows each (FR = WM / 2) with tile.load / tile.store. The
//    job ends with a workgroup barrier - the stores of all four waves must
//    be ordered before the release - and wave 0 then stores the flag with
//    release semantics at agent scope. The value stored is the call's epoch:
//    flags only grow, so a workspace serves any number of calls without a
//    reset (workers wait for `flag >= epoch`).
//  * GEMM workers (the other program ids) take output tiles of BM x BN
//    (BN = 2 WN) in turn (a persistent loop) and run the GEMM of
//    kernels/gemm/gemm.mlir over the staging buffer: K blocks of BK through
//    LDS ping/pong by DMA. Before the first block of a k group a worker
//    acquires the group's flag (every wave: each wave issues DMA from the
//    staging buffer, so each must see the fetched data).
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
//    workers fill LDS by DMA exactly as the GEMM does.
//  * true, m-contiguous: staging is [K, M] row-major (A transposed; the
//    layout a consumer that reads columns of A, or a column-major GEMM,
//    wants); fetchers store transposed, workers load [BK, WM] blocks into
//    registers and store them transposed into LDS (the path attention takes
//    for V on gfx942, which has no transposing LDS read).
//
// RELEASE_BARRIER = false builds the broken variant with no barrier between
// the fetch stores and the release: waves 1-3's staging stores are then not
// ordered before wave 0's flag store, which check mode reports as a race
// between those stores and the workers' DMA reads (a test asserts it).
//
// RECORD = true writes 8 i32 words per workgroup to `stats` [num_programs, 8]:
// role (1 fetcher, 2 worker), jobs (fetch jobs / output tiles), flag
// operations (flags released / flags acquired), K blocks (BK-wide blocks
// copied / multiplied), then s_memtime ticks spent in all, fetching, waiting
// on flags and computing (the low 32 bits of each difference).
//
// Parameters: DTYPE (bf16, f16), OUT (bf16, f16, f32), WM, WN (64), BK
// (multiple of the MFMA K), KG (k group: a multiple of BK dividing Kl), FR
// (= WM / 2), HAS_BIAS, STAGE_MN, RELEASE_BARRIER, RECORD, SWZ (the LDS
// rows' swizzle, as kernels/gemm's: 16-byte chunks XORed by row, so that the
// MFMA operand reads of a wave's rows spread over the banks; unswizzled rows
// of BK = 32 put the reads of 4 rows on the same banks, and the GEMM's loop
// on gfx942 runs at 0.43x the swizzled one's rate on the timing model).
// Launch: grid (FETCHERS + workers), block 256; every K block lies inside
// one k group and every k group inside one shard (K % (world * KG) == 0).

tile.type_param_decl @DTYPE = bf16 of [bf16, f16]
tile.type_param_decl @OUT = f32
tile.param_decl @WM : i64 = 64
tile.param_decl @WN : i64 = 64
tile.param_decl @BK : i64 = 32
tile.param_decl @KG : i64 = 64
tile.param_decl @FR : i64 = 32
tile.param_decl @HAS_BIAS : i1 = false
tile.param_decl @STAGE_MN : i1 = false
tile.param_decl @RELEASE_BARRIER : i1 = true
tile.param_decl @RECORD : i1 = false
tile.param_decl @SWZ : i64 = 0

!ptr = !tile.ptr<!tile.dtype<"DTYPE">>
!buf = !tile.buffer<!tile.dtype<"DTYPE">>
!la = !tile.lds<[WM, BK], !tile.dtype<"DTYPE">, stages = 2, swizzle = SWZ>
!lb = !tile.lds<[WN, BK], !tile.dtype<"DTYPE">, stages = 2, swizzle = SWZ>
!acc = !tile.tile<[WM, WN], f32, #tile.mfma<acc>>
!fa = !tile.tile<[WM, BK], !tile.dtype<"DTYPE">, #tile.mfma<a, k_wide>>
!fb = !tile.tile<[BK, WN], !tile.dtype<"DTYPE">, #tile.mfma<b, k_wide>>
// A fetch piece: FR rows by BK columns, 4 elements (8 bytes) per lane.
!piece = !tile.tile<[FR, BK], !tile.dtype<"DTYPE">, #tile.blocked<[1, 4], [8, 8]>>
// A block of m-contiguous staging: BK rows (k) by WM columns (m).
!mblk = !tile.tile<[BK, WM], !tile.dtype<"DTYPE">, #tile.blocked<[1, 4], [4, 16]>>
!stat = !tile.tile<[1, 64], i32, #tile.blocked<[1, 1], [1, 64]>>

// Starts moving K block `kb` of this workgroup's rows of A (from staging)
// and Bt into one LDS buffer. k-contiguous staging: by DMA, shared by the
// waves. m-contiguous: waves 0 and 1 load the [BK, WM] block of A for stage
// 0 and 1 into registers and store it transposed (synchronously).
func.func private @fetch(%sbuf: !buf, %bbuf: !buf, %lds_a: !la, %lds_b: !lb,
                         %kb: index, %m0: index, %m1: index, %n0: index, %n1: index,
                         %M: index, %N: index, %K: index, %ldb: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %bk = tile.param @BK : index
  %mn = tile.param @STAGE_MN : i1
  %k0 = arith.muli %kb, %bk : index
  scf.if %mn {
    %wave = tile.wave_id
    %first = arith.cmpi ult, %wave, %c2 : index
    scf.if %first {
      %is1 = arith.cmpi eq, %wave, %c1 : index
      %mr = arith.select %is1, %m1, %m0 : index
      %blk = tile.load %sbuf[%k0, %mr] stride %M bounds %K, %M : !buf -> !mblk
      tile.lds_store %blk, %lds_a[%wave][%c0, %c0] transpose : !mblk, !la
    }
  } else {
    tile.async_copy %sbuf[%m0, %k0] stride %K bounds %M, %K -> %lds_a[%c0] : !buf, !la
    tile.async_copy %sbuf[%m1, %k0] stride %K bounds %M, %K -> %lds_a[%c1] : !buf, !la
  }
  tile.async_copy %bbuf[%n0, %k0] stride %ldb bounds %N, %K -> %lds_b[%c0] : !buf, !lb
  tile.async_copy %bbuf[%n1, %k0] stride %ldb bounds %N, %K -> %lds_b[%c1] : !buf, !lb
  return
}

// acc += A block * B block from one buffer (as in gemm.mlir).
func.func private @multiply(%lds_a: !la, %lds_b: !lb, %wrow: index, %wcol: index, %acc: !acc) -> !acc {
  %c0 = arith.constant 0 : index
  %fa = tile.lds_load %lds_a[%wrow][%c0, %c0] : !la -> !fa
  %fb = tile.lds_load %lds_b[%wcol][%c0, %c0] transpose : !lb -> !fb
  %r = tile.mma %fa, %fb, %acc : !fa, !fb -> !acc
  tile.sched_interleave [#tile.group<ds_read, 1>, #tile.group<mfma, 1>] x 16
  return %r : !acc
}

// The K block a worker handles `b`-th: blocks in the rotated order that
// starts at this rank's shard.
func.func private @block_at(%b: index, %rank: index, %Kl: index, %nk: index) -> index {
  %bk = tile.param @BK : index
  %first = arith.divui %Kl, %bk : index
  %start = arith.muli %rank, %first : index
  %s = arith.addi %start, %b : index
  %kb = arith.remui %s, %nk : index
  return %kb : index
}

// Acquires the ready flag of K block `kb`'s group for m tile `mt` when `kb`
// opens its group; returns 1 when it waited (for the counters), else 0.
func.func private @acquire(%flags: !tile.ptr<i32>, %kb: index, %mt: index, %nkg: index,
                           %epoch: i32) -> (index, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %bk = tile.param @BK : index
  %kg = tile.param @KG : index
  %bpg = arith.divui %kg, %bk : index
  %in = arith.remui %kb, %bpg : index
  %opens = arith.cmpi eq, %in, %c0 : index
  // The count of flags acquired and the clock ticks spent waiting on them.
  %n, %ticks = scf.if %opens -> (index, i64) {
    %g = arith.divui %kb, %bpg : index
    %row = arith.muli %mt, %nkg : index
    %f = arith.addi %row, %g : index
    %t0 = tile.memtime
    tile.flag_wait %flags[%f] ge %epoch agent : !tile.ptr<i32>
    %t1 = tile.memtime
    %dt = arith.subi %t1, %t0 : i64
    scf.yield %c1, %dt : index, i64
  } else {
    scf.yield %c0, %z : index, i64
  }
  return %n, %ticks : index, i64
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
    attributes {tile.kernel, tile.block_size = 256 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %wm = tile.param @WM : index
  %wn = tile.param @WN : index
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
  %bm = arith.muli %wm, %c2 : index
  %bn = arith.muli %wn, %c2 : index
  %mt_n0 = arith.addi %M, %bm : index
  %mt_n1 = arith.subi %mt_n0, %c1 : index
  %nmt = arith.divui %mt_n1, %bm : index
  %Kl = arith.divui %K, %world : index
  %gpr = arith.divui %Kl, %kg : index
  %nkg = arith.divui %K, %kg : index
  %nk = arith.divui %K, %bk : index

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
      // All four waves' stores before the one release.
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
    %wrow = arith.divui %wave, %c2 : index
    %wcol = arith.remui %wave, %c2 : index
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
      %m1 = arith.addi %m0, %wm : index
      %n1 = arith.addi %n0, %wn : index

      %kb0 = func.call @block_at(%c0, %rank, %Kl, %nk) : (index, index, index, index) -> index
      %w_0, %tk_0 = func.call @acquire(%flags, %kb0, %mt, %nkg, %epoch) : (!tile.ptr<i32>, index, index, index, i32) -> (index, i64)
      func.call @fetch(%sbuf, %bbuf, %a0, %b0, %kb0, %m0, %m1, %n0, %n1, %M, %N, %K, %ldb)
          : (!buf, !buf, !la, !lb, index, index, index, index, index, index, index, index, index) -> ()
      tile.wait vmcnt(0)
      tile.barrier
      %wt0 = arith.addi %wt, %w_0 : index
      %tk0 = arith.addi %tk, %tk_0 : i64

      %acc0 = tile.splat %zero : f32 -> !acc
      %acc, %wt_end, %tk_end = scf.for %k = %c0 to %nk step %c2 iter_args(%acc_i = %acc0, %wt_i = %wt0, %tk_i = %tk0) -> (!acc, index, i64) {
        %k1 = arith.addi %k, %c1 : index
        %has1 = arith.cmpi ult, %k1, %nk : index
        %wt_p, %tk_p = scf.if %has1 -> (index, i64) {
          %kb1 = func.call @block_at(%k1, %rank, %Kl, %nk) : (index, index, index, index) -> index
          %w_1, %tk_1 = func.call @acquire(%flags, %kb1, %mt, %nkg, %epoch) : (!tile.ptr<i32>, index, index, index, i32) -> (index, i64)
          func.call @fetch(%sbuf, %bbuf, %a1, %b1, %kb1, %m0, %m1, %n0, %n1, %M, %N, %K, %ldb)
              : (!buf, !buf, !la, !lb, index, index, index, index, index, index, index, index, index) -> ()
          %s = arith.addi %wt_i, %w_1 : index
          %st = arith.addi %tk_i, %tk_1 : i64
          scf.yield %s, %st : index, i64
        } else {
          scf.yield %wt_i, %tk_i : index, i64
        }
        %acc_p = func.call @multiply(%a0, %b0, %wrow, %wcol, %acc_i) : (!la, !lb, index, index, !acc) -> !acc
        tile.wait vmcnt(0)
        tile.barrier
        %acc_n, %wt_n, %tk_n = scf.if %has1 -> (!acc, index, i64) {
          %k2 = arith.addi %k, %c2 : index
          %has2 = arith.cmpi ult, %k2, %nk : index
          %wt_q, %tk_q = scf.if %has2 -> (index, i64) {
            %kb2 = func.call @block_at(%k2, %rank, %Kl, %nk) : (index, index, index, index) -> index
            %w_2, %tk_2 = func.call @acquire(%flags, %kb2, %mt, %nkg, %epoch) : (!tile.ptr<i32>, index, index, index, i32) -> (index, i64)
            func.call @fetch(%sbuf, %bbuf, %a0, %b0, %kb2, %m0, %m1, %n0, %n1, %M, %N, %K, %ldb)
                : (!buf, !buf, !la, !lb, index, index, index, index, index, index, index, index, index) -> ()
            %s = arith.addi %wt_p, %w_2 : index
            %st = arith.addi %tk_p, %tk_2 : i64
            scf.yield %s, %st : index, i64
          } else {
            scf.yield %wt_p, %tk_p : index, i64
          }
          %acc_q = func.call @multiply(%a1, %b1, %wrow, %wcol, %acc_p) : (!la, !lb, index, index, !acc) -> !acc
          tile.wait vmcnt(0)
          tile.barrier
          scf.yield %acc_q, %wt_q, %tk_q : !acc, index, i64
        } else {
          scf.yield %acc_p, %wt_p, %tk_p : !acc, index, i64
        }
        scf.yield %acc_n, %wt_n, %tk_n : !acc, index, i64
      }

      %mw0 = arith.muli %wrow, %wm : index
      %nw0 = arith.muli %wcol, %wn : index
      %mw = arith.addi %m0, %mw0 : index
      %nw_ = arith.addi %n0, %nw0 : index
      %with_bias = scf.if %has_bias -> (!acc) {
        %biasbuf = tile.make_buffer %bias, %N : !ptr -> !buf
        %brow = tile.load %biasbuf[%c0, %nw_] stride %c0 bounds %c1, %N : !buf -> !tile.tile<[1, WN], !tile.dtype<"DTYPE">, #tile.slice<0, #tile.mfma<acc>>>
        %brow32 = tile.convert %brow : !tile.tile<[1, WN], !tile.dtype<"DTYPE">, #tile.slice<0, #tile.mfma<acc>>> -> !tile.tile<[1, WN], f32, #tile.slice<0, #tile.mfma<acc>>>
        %bfull = tile.broadcast %brow32 : !tile.tile<[1, WN], f32, #tile.slice<0, #tile.mfma<acc>>> -> !acc
        %sum = tile.addf %acc, %bfull : !acc
        scf.yield %sum : !acc
      } else {
        scf.yield %acc : !acc
      }
      %out = tile.convert %with_bias : !acc -> !tile.tile<[WM, WN], !tile.dtype<"OUT">, #tile.mfma<acc>>
      %mend = arith.addi %mw, %wm : index
      %nend = arith.addi %nw_, %wn : index
      %m_in = arith.cmpi ule, %mend, %M : index
      %n_in = arith.cmpi ule, %nend, %N : index
      %inside = arith.andi %m_in, %n_in : i1
      scf.if %inside {
        tile.store %out, %cbuf[%mw, %nw_] stride %ldc : !tile.tile<[WM, WN], !tile.dtype<"OUT">, #tile.mfma<acc>>, !tile.buffer<!tile.dtype<"OUT">>
      } else {
        tile.store %out, %cbuf[%mw, %nw_] stride %ldc bounds %M, %N : !tile.tile<[WM, WN], !tile.dtype<"OUT">, #tile.mfma<acc>>, !tile.buffer<!tile.dtype<"OUT">>
      }
      %td1 = arith.addi %td, %c1 : index
      %bl1 = arith.addi %bl, %nk : index
      scf.yield %td1, %wt_end, %bl1, %tk_end : index, index, index, i64
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
