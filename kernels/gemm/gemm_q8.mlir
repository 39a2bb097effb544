// kcc 8-bit GEMM: C[M, N] = (A * sa)[M, K] (Bt * sb)[N, K]^T (+ bias[N]),
// A and Bt in the chip's e4m3 (OCP f8E4M3FN on gfx950, FNUZ f8E4M3FNUZ on
// gfx942) with f32 accumulation, or in i8 with exact i32 accumulation
// (ACC = i32); C in bf16, f16 or f32.
//
// The true values are the FP8 codes times scales, in one of three
// granularities for each operand (ASCALE for A, BSCALE for Bt):
//  0: per tensor: sa[0], sb[0];
//  1: per token (row of A), per channel (row of Bt): sa[M], sb[N];
//  2: blocks: sa[M, nkb] over 1 x 128 blocks of A, sb[ceil(N / 128), nkb]
//     over 128 x 128 blocks of Bt (nkb = ceil(K / 128), both row-major);
//     both operands or neither; FP8 only.
// Scales constant along K (0, 1, mixed freely) multiply the finished sum
// once (for i8 after its conversion from i32 to f32). Block
// scales change every 128 of K, so the sum of each K block is scaled on its
// own, in f32, before it joins the accumulators (what the format means: a
// scale applied after the whole sum would mix the blocks' dynamic ranges):
// the block's MFMAs start from zero and one fma per accumulator adds their
// result times sa * sb. A K block here is one scale block (BK = 128).
//
// Layout and flow as gemm.mlir's plain loop (read its header first): A row-
// major [M, K] (row stride lda), Bt row-major [N, K] (ldb), C row-major
// (ldc); a workgroup of WGM x WGN waves computes a BM x BN block of C, each
// wave WM x WN of it as C^T = Bt A^T (Bt the MFMA's `a` operand), with the
// chip's 8-bit 32x32 MFMAs (gfx942: v_mfma_f32_32x32x16_fp8_fp8 and
// v_mfma_i32_32x32x16_i8, two instances a 16-byte read; gfx950:
// v_mfma_f32_32x32x64_f8f6f4 and v_mfma_i32_32x32x32_i8). K advances
// by DMA into two LDS buffers (ping, pong), one K block each; their rows
// of 128 one-byte elements are shorter than a DMA line, so they are not
// padded but swizzled by 8 16-byte chunks. With block scales each wave's
// scales of the next K block are loaded while it multiplies this one.
//
// Tails: rows past M and N read as zero, K past its end reads as zero in
// the DMA's units (4 bytes; 16 with WIDE): K, lda and ldb must be
// multiples of them, which kcc::ops::gemmFp8 arranges by packing
// (gemm_pack.mlir). Blocks of C at the edges are stored element by element.
// With block scales a wave's WN columns must lie in one 128-row block of
// Bt's scales: WN divides 128.
//
// Parameters: DTYPE (f8E4M3FN, f8E4M3FNUZ, i8), ACC (the accumulators:
// f32 for FP8, i32 for i8), OUT (bf16, f16, f32), ASCALE, BSCALE (0, 1, 2
// above), HAS_BIAS (bias of BDTYPE: bf16, f16, f32), WM, WN
// (multiples of 32), WGM, WGN (the wave grid), KS (the K slice of the
// software-pipelined multiply: a multiple of 32, and of 64 for FP8 on
// gfx950; divides 128), SWZ (the LDS rows' swizzle), WIDE (16-byte DMA,
// gfx950), SPLITK (the K blocks split over that many workgroups per
// block of C, for problems with too few blocks of C to fill the CUs (decode):
// workgroup z = program_id 2 runs blocks z ceil(nk / SPLITK).., a share
// that may be short or empty at the end, and stores its f32 partial sum
// (its blocks' scales applied, zeros for an empty share) into C + z M ldc;
// gemm_reduce.mlir sums them and adds the bias. Needs OUT = f32, no bias;
// 1: no split).
// Launch: grid (ceil(M / BM), ceil(N / BN), SPLITK), block BLOCK = 64 WGM WGN.

tile.type_param_decl @DTYPE = f8E4M3FN of [f8E4M3FN, f8E4M3FNUZ, i8] on {gfx942 = f8E4M3FNUZ}
tile.type_param_decl @ACC = f32 of [f32, i32]
tile.type_param_decl @OUT = bf16 of [bf16, f16, f32]
tile.type_param_decl @BDTYPE = f32 of [bf16, f16, f32]
tile.param_decl @ASCALE : i64 = 2
tile.param_decl @BSCALE : i64 = 2
tile.param_decl @HAS_BIAS : i1 = false
tile.param_decl @WM : i64 = 64
tile.param_decl @WN : i64 = 64
tile.param_decl @WGM : i64 = 2
tile.param_decl @WGN : i64 = 2
tile.param_decl @BM : i64 product [@WM, @WGM]
tile.param_decl @BN : i64 product [@WN, @WGN]
tile.param_decl @BLOCK : i64 product [@WGM, @WGN, 64]
tile.param_decl @BK : i64 = 128
tile.param_decl @KS : i64 = 64
tile.param_decl @SWZ : i64 = 8
tile.param_decl @WIDE : i1 = false on {gfx950 = true}
tile.param_decl @SPLITK : i64 = 1

!buf = !tile.buffer<!tile.dtype<"DTYPE">>
!ptr = !tile.ptr<!tile.dtype<"DTYPE">>
!la = !tile.lds<[BM, BK], !tile.dtype<"DTYPE">, swizzle = SWZ>
!lb = !tile.lds<[BN, BK], !tile.dtype<"DTYPE">, swizzle = SWZ>
// The accumulators hold the wave's block of C transposed (see gemm.mlir):
// rows are columns n of C, columns rows m.
!acc = !tile.tile<[WN, WM], !tile.dtype<"ACC">, #tile.mfma<acc>>
// The accumulators in f32: what block scales add into (ACC = f32 there),
// and where an i32 sum goes before its scales.
!accf = !tile.tile<[WN, WM], f32, #tile.mfma<acc>>
!acci = !tile.tile<[WN, WM], i32, #tile.mfma<acc>>
!fa = !tile.tile<[KS, WM], !tile.dtype<"DTYPE">, #tile.mfma<b, k_wide>>
!fb = !tile.tile<[WN, KS], !tile.dtype<"DTYPE">, #tile.mfma<a, k_wide>>
// A's scales run along the accumulators' columns (rows m of C), Bt's
// along their rows (columns n of C).
!srow = !tile.tile<[1, WM], f32, #tile.slice<0, #tile.mfma<acc>>>
!scol = !tile.tile<[WN, 1], f32, #tile.slice<1, #tile.mfma<acc>>>
!sbuf = !tile.buffer<f32>
!sptr = !tile.ptr<f32>

// Starts the DMA of K block `kb` of this workgroup's rows of A and Bt.
func.func private @fetch(%abuf: !buf, %bbuf: !buf, %lds_a: !la, %lds_b: !lb,
                         %kb: index, %m0: index, %n0: index,
                         %M: index, %N: index, %K: index, %lda: index, %ldb: index,
                         %waves: index) {
  %c0 = arith.constant 0 : index
  %bk = tile.param @BK : index
  %bm = tile.param @BM : index
  %bn = tile.param @BN : index
  %k0 = arith.muli %kb, %bk : index
  // Blocks wholly inside A and Bt take the copy without bounds (one vector
  // add per line instead of the bounds' compares and selects).
  %mend = arith.addi %m0, %bm : index
  %nend = arith.addi %n0, %bn : index
  %kend = arith.addi %k0, %bk : index
  %m_in = arith.cmpi ule, %mend, %M : index
  %n_in = arith.cmpi ule, %nend, %N : index
  %k_in = arith.cmpi ule, %kend, %K : index
  %mn_in = arith.andi %m_in, %n_in : i1
  %inside = arith.andi %mn_in, %k_in : i1
  %wide = tile.param @WIDE : i1
  scf.if %inside {
    scf.if %wide {
      tile.async_copy inbounds %abuf[%m0, %k0] stride %lda -> %lds_a[%c0] waves %waves {width = 16 : i64} : !buf, !la
      tile.async_copy inbounds %bbuf[%n0, %k0] stride %ldb -> %lds_b[%c0] waves %waves {width = 16 : i64} : !buf, !lb
    } else {
      tile.async_copy inbounds %abuf[%m0, %k0] stride %lda -> %lds_a[%c0] waves %waves : !buf, !la
      tile.async_copy inbounds %bbuf[%n0, %k0] stride %ldb -> %lds_b[%c0] waves %waves : !buf, !lb
    }
  } else {
    scf.if %wide {
      tile.async_copy %abuf[%m0, %k0] stride %lda bounds %M, %K -> %lds_a[%c0] waves %waves {width = 16 : i64} : !buf, !la
      tile.async_copy %bbuf[%n0, %k0] stride %ldb bounds %N, %K -> %lds_b[%c0] waves %waves {width = 16 : i64} : !buf, !lb
    } else {
      tile.async_copy %abuf[%m0, %k0] stride %lda bounds %M, %K -> %lds_a[%c0] waves %waves : !buf, !la
      tile.async_copy %bbuf[%n0, %k0] stride %ldb bounds %N, %K -> %lds_b[%c0] waves %waves : !buf, !lb
    }
  }
  return
}

// acc += the product of one K block from one buffer (the wave's rows of A
// from row `ra` of the buffer, its columns of B from row `rb` of Bt's), KS
// of K at a time, the operands of slice s + 1 read while slice s's MFMAs
// run.
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

// Block scales: sa * sb of K block `kb` for the wave's rows mw.. of C (its
// columns nw.. lie in one 128-row block of Bt's scales). A block past K
// (the pair loop's, when the blocks are odd) takes the last block's
// scales: its products are zero, and a finite scale keeps them so.
func.func private @block_scales(%sabuf: !sbuf, %sbbuf: !sbuf, %kb: index, %nk: index,
                                %mw: index, %nw: index, %M: index) -> !srow {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %nk1 = arith.subi %nk, %c1 : index
  %k = arith.minui %kb, %nk1 : index
  // sa[m, k] for m = mw..: the transposed matrix's row k.
  %sa = tile.load %sabuf[%mw, %k] stride %nk bounds %M, %nk transpose : !sbuf -> !srow
  // sb[nw / 128, k], the same for every element (stride 0).
  %nb = arith.divui %nw, %c128 : index
  %nbk = arith.muli %nb, %nk : index
  %sbk = arith.addi %nbk, %k : index
  %sb = tile.load %sbbuf[%c0, %sbk] stride %c0 transpose : !sbuf -> !srow
  %s = tile.mulf %sa, %sb : !srow
  return %s : !srow
}

// One K block from one buffer: with block scales its sum on its own,
// scaled by `s` and added into the f32 accumulators `accf`; otherwise
// straight into the accumulators `acc` (of ACC). The other of the two
// passes through untouched (and is dropped as the loop is simplified).
func.func private @step(%lds_a: !la, %lds_b: !lb, %ra: index, %rb: index,
                        %s: !srow, %acc: !acc, %accf: !accf) -> (!acc, !accf) {
  %c2 = arith.constant 2 : index
  %scale = tile.param @ASCALE : index
  %blocks = arith.cmpi eq, %scale, %c2 : index
  %out:2 = scf.if %blocks -> (!acc, !accf) {
    %z = func.call @zeros() : () -> !acc
    %blk = func.call @multiply(%lds_a, %lds_b, %ra, %rb, %z) : (!la, !lb, index, index, !acc) -> !acc
    %blkf = tile.convert %blk : !acc -> !accf
    %sfull = tile.broadcast %s : !srow -> !accf
    %x = tile.fma %blkf, %sfull, %accf : !accf
    scf.yield %acc, %x : !acc, !accf
  } else {
    %x = func.call @multiply(%lds_a, %lds_b, %ra, %rb, %acc) : (!la, !lb, index, index, !acc) -> !acc
    scf.yield %x, %accf : !acc, !accf
  }
  return %out#0, %out#1 : !acc, !accf
}

// Accumulators of ACC at zero (an i32 zero converts exactly to either).
func.func private @zeros() -> !acc {
  %zi = arith.constant 0 : i32
  %z = tile.splat %zi : i32 -> !acci
  %acc = tile.convert %z : !acci -> !acc
  return %acc : !acc
}

// The scales of block `kb` with block scales, else ones (unused).
func.func private @scales_of(%sabuf: !sbuf, %sbbuf: !sbuf, %kb: index, %nk: index,
                             %mw: index, %nw: index, %M: index) -> !srow {
  %c2 = arith.constant 2 : index
  %scale = tile.param @ASCALE : index
  %blocks = arith.cmpi eq, %scale, %c2 : index
  %s = scf.if %blocks -> (!srow) {
    %x = func.call @block_scales(%sabuf, %sbbuf, %kb, %nk, %mw, %nw, %M)
        : (!sbuf, !sbuf, index, index, index, index, index) -> !srow
    scf.yield %x : !srow
  } else {
    %one = arith.constant 1.0 : f32
    %x = tile.splat %one : f32 -> !srow
    scf.yield %x : !srow
  }
  return %s : !srow
}

func.func @gemm_q8(%a: !ptr, %bt: !ptr, %c: !tile.ptr<!tile.dtype<"OUT">>,
                    %sa: !sptr, %sb: !sptr, %bias: !tile.ptr<!tile.dtype<"BDTYPE">>,
                    %M: index, %N: index, %K: index,
                    %lda: index, %ldb: index, %ldc: index)
    attributes {tile.kernel, tile.block_size = @BLOCK} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %wm = tile.param @WM : index
  %wn = tile.param @WN : index
  %bk = tile.param @BK : index
  %bm = tile.param @BM : index
  %bn = tile.param @BN : index
  %wgn = tile.param @WGN : index
  %ascale = tile.param @ASCALE : index
  %bscale = tile.param @BSCALE : index

  // This workgroup's block of C and this wave's part of it.
  %pm = tile.program_id 0
  %pn = tile.program_id 1
  %m0 = arith.muli %pm, %bm : index
  %n0 = arith.muli %pn, %bn : index
  %wave = tile.wave_id
  %wrow = arith.divui %wave, %wgn : index
  %wcol = arith.remui %wave, %wgn : index
  %ra = arith.muli %wrow, %wm : index
  %rb = arith.muli %wcol, %wn : index
  %mw = arith.addi %m0, %ra : index
  %nw = arith.addi %n0, %rb : index

  %a_elems = arith.muli %M, %lda : index
  %b_elems = arith.muli %N, %ldb : index
  %c_elems = arith.muli %M, %ldc : index
  %abuf = tile.make_buffer %a, %a_elems : !ptr -> !buf
  %bbuf = tile.make_buffer %bt, %b_elems : !ptr -> !buf

  // K blocks, and the scales' extents for each granularity.
  %kb_up = arith.addi %K, %bk : index
  %kb_up1 = arith.subi %kb_up, %c1 : index
  %nk = arith.divui %kb_up1, %bk : index
  // SPLITK: this workgroup's share of the K blocks, kb0.. (nkw of them),
  // read with K bounded at the share's end kw, so that the block the pair
  // loop takes past an odd share reads zeros even where K goes on; its
  // partial sum goes to slice z of C. Without a split the share is all of
  // K (the values fold away). The scales stay indexed by the global block.
  %splits = tile.param @SPLITK : index
  %pz = tile.program_id 2
  %per_up = arith.addi %nk, %splits : index
  %per_up1 = arith.subi %per_up, %c1 : index
  %per = arith.divui %per_up1, %splits : index
  %kb0_raw = arith.muli %pz, %per : index
  %kb0 = arith.minui %kb0_raw, %nk : index
  %kbe_raw = arith.addi %kb0, %per : index
  %kbe = arith.minui %kbe_raw, %nk : index
  %nkw = arith.subi %kbe, %kb0 : index
  %kend = arith.muli %kbe, %bk : index
  %kw = arith.minui %kend, %K : index
  %coff = arith.muli %pz, %c_elems : index
  %cz = tile.ptr_add %c, %coff : !tile.ptr<!tile.dtype<"OUT">>
  %cbuf = tile.make_buffer %cz, %c_elems : !tile.ptr<!tile.dtype<"OUT">> -> !tile.buffer<!tile.dtype<"OUT">>
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %nb_up = arith.addi %N, %c127 : index
  %nnb = arith.divui %nb_up, %c128 : index
  %a_tensor = arith.cmpi eq, %ascale, %c0 : index
  %a_rows = arith.cmpi eq, %ascale, %c1 : index
  %b_tensor = arith.cmpi eq, %bscale, %c0 : index
  %b_rows = arith.cmpi eq, %bscale, %c1 : index
  %sa_blk = arith.muli %M, %nk : index
  %sb_blk = arith.muli %nnb, %nk : index
  %sa_row = arith.select %a_rows, %M, %sa_blk : index
  %sb_row = arith.select %b_rows, %N, %sb_blk : index
  %sa_n = arith.select %a_tensor, %c1, %sa_row : index
  %sb_n = arith.select %b_tensor, %c1, %sb_row : index
  %sabuf = tile.make_buffer %sa, %sa_n : !sptr -> !sbuf
  %sbbuf = tile.make_buffer %sb, %sb_n : !sptr -> !sbuf

  %a0 = tile.lds_alloc "a0" : !la
  %b0 = tile.lds_alloc "b0" : !lb
  %a1 = tile.lds_alloc "a1" : !la
  %b1 = tile.lds_alloc "b1" : !lb
  %c64 = arith.constant 64 : index
  %block = tile.param @BLOCK : index
  %waves = arith.divui %block, %c64 : index

  func.call @fetch(%abuf, %bbuf, %a0, %b0, %kb0, %m0, %n0, %M, %N, %kw, %lda, %ldb, %waves)
      : (!buf, !buf, !la, !lb, index, index, index, index, index, index, index, index, index) -> ()
  %s0 = func.call @scales_of(%sabuf, %sbbuf, %kb0, %nk, %mw, %nw, %M)
      : (!sbuf, !sbuf, index, index, index, index, index) -> !srow
  tile.wait vmcnt(0)
  tile.barrier

  // Whole pairs of K blocks (ping, pong) an iteration, as gemm.mlir's plain
  // loop: an odd count takes one block past K, which the bounded copy
  // fills with zeros. Block k's scales (s_k) were loaded a block earlier.
  %acc0 = func.call @zeros() : () -> !acc
  %accf0 = tile.splat %zero : f32 -> !accf
  %nk_up2 = arith.addi %nkw, %c1 : index
  %npairs = arith.divui %nk_up2, %c2 : index
  %kpairs = arith.muli %npairs, %c2 : index
  %r:3 = scf.for %k = %c0 to %kpairs step %c2 iter_args(%acc_i = %acc0, %accf_i = %accf0, %s_k = %s0) -> (!acc, !accf, !srow) {
    %kl1 = arith.addi %k, %c1 : index
    %k1 = arith.addi %kb0, %kl1 : index
    func.call @fetch(%abuf, %bbuf, %a1, %b1, %k1, %m0, %n0, %M, %N, %kw, %lda, %ldb, %waves)
        : (!buf, !buf, !la, !lb, index, index, index, index, index, index, index, index, index) -> ()
    %s_k1 = func.call @scales_of(%sabuf, %sbbuf, %k1, %nk, %mw, %nw, %M)
        : (!sbuf, !sbuf, index, index, index, index, index) -> !srow
    tile.sched_barrier []
    %acc_p:2 = func.call @step(%a0, %b0, %ra, %rb, %s_k, %acc_i, %accf_i) : (!la, !lb, index, index, !srow, !acc, !accf) -> (!acc, !accf)
    // Pong has landed, and every wave is done with ping.
    tile.wait vmcnt(0)
    tile.barrier
    %kl2 = arith.addi %k, %c2 : index
    %k2 = arith.addi %kb0, %kl2 : index
    %has2 = arith.cmpi ult, %kl2, %nkw : index
    scf.if %has2 {
      func.call @fetch(%abuf, %bbuf, %a0, %b0, %k2, %m0, %n0, %M, %N, %kw, %lda, %ldb, %waves)
          : (!buf, !buf, !la, !lb, index, index, index, index, index, index, index, index, index) -> ()
    }
    %s_k2 = func.call @scales_of(%sabuf, %sbbuf, %k2, %nk, %mw, %nw, %M)
        : (!sbuf, !sbuf, index, index, index, index, index) -> !srow
    tile.sched_barrier []
    %acc_q:2 = func.call @step(%a1, %b1, %ra, %rb, %s_k1, %acc_p#0, %acc_p#1) : (!la, !lb, index, index, !srow, !acc, !accf) -> (!acc, !accf)
    tile.wait vmcnt(0)
    tile.barrier
    scf.yield %acc_q#0, %acc_q#1, %s_k2 : !acc, !accf, !srow
  }

  // Scales constant along K multiply the finished sum: sa along the
  // accumulators' columns, sb along their rows (stride 0: per tensor).
  %along = arith.cmpi ult, %ascale, %c2 : index
  %scaled = scf.if %along -> (!accf) {
    %sum = tile.convert %r#0 : !acc -> !accf
    %sta = arith.select %a_rows, %c1, %c0 : index
    %stb = arith.select %b_rows, %c1, %c0 : index
    %sam = tile.load %sabuf[%mw, %c0] stride %sta transpose : !sbuf -> !srow
    %sbn = tile.load %sbbuf[%nw, %c0] stride %stb : !sbuf -> !scol
    %x = tile.broadcast %sam : !srow -> !accf
    %y = tile.broadcast %sbn : !scol -> !accf
    %xy = tile.mulf %x, %y : !accf
    %out = tile.mulf %sum, %xy : !accf
    scf.yield %out : !accf
  } else {
    scf.yield %r#1 : !accf
  }
  %has_bias = tile.param @HAS_BIAS : i1
  %with_bias = scf.if %has_bias -> (!accf) {
    %biasbuf = tile.make_buffer %bias, %N : !tile.ptr<!tile.dtype<"BDTYPE">> -> !tile.buffer<!tile.dtype<"BDTYPE">>
    %bcol = tile.load %biasbuf[%nw, %c0] stride %c1 bounds %N, %c1 : !tile.buffer<!tile.dtype<"BDTYPE">> -> !tile.tile<[WN, 1], !tile.dtype<"BDTYPE">, #tile.slice<1, #tile.mfma<acc>>>
    %bcol32 = tile.convert %bcol : !tile.tile<[WN, 1], !tile.dtype<"BDTYPE">, #tile.slice<1, #tile.mfma<acc>>> -> !scol
    %bfull = tile.broadcast %bcol32 : !scol -> !accf
    %sum = tile.addf %scaled, %bfull : !accf
    scf.yield %sum : !accf
  } else {
    scf.yield %scaled : !accf
  }
  %out = tile.convert %with_bias : !accf -> !tile.tile<[WN, WM], !tile.dtype<"OUT">, #tile.mfma<acc>>

  // The accumulators are C^T: the stores transpose them back; whole
  // blocks take vector stores, blocks at the edges of C are masked.
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
