// kcc FlashAttention backward, the key and value gradients:
//   dV = P^T dO,  dK = scale * dS^T Q,  dS = P * (dP - Delta),  dP = dO V^T,
//   P = exp(scale * Q K^T - LSE)  [+ causal mask]
//
// Q, dO [B, S_q, H, D]; K, V, dK, dV [B, S_kv, H_kv, D] (H a multiple of
// H_kv: MHA, GQA, MQA); strides in elements (batch, token, head), the head
// dimension contiguous. STATS [B, H, 2, S_q] f32 (fmha_bwd_pre.mlir) holds
// per query the exponent bias -LSE log2(e) and Delta = rowsum(dO * O). Causal masking aligns the diagonal bottom-right: query i
// sees keys j <= i + (S_kv - S_q).
//
// A workgroup owns 32 keys per wave of one key/value head and walks, for
// every query head of its group, the query tiles that see them: dK and dV of
// a GQA group are reduced in registers, with no atomics and no second pass.
// A wave keeps K^T and V^T of its 32 keys as B operands for the whole loop,
// and the accumulators dV^T and dK^T [D, 32] (its keys across the lanes):
//   S    = Q K^T          [BM, 32]  (Q from LDS)
//   P    = 2^(c S + bias)            (bias per query: one value per row)
//   dV^T += dO^T P        (P, an accumulator with queries down, is the B
//                          operand by `tile.relayout` alone; dO^T takes its
//                          K, the queries, in the accumulator's row order)
//   dP   = dO V^T         [BM, 32]  (dO from LDS)
//   dS   = P * (dP - Delta)
//   dK^T += Q^T dS        (likewise)
// Q and dO reach the second products as `a` operands with the queries
// within lanes:
//   - Q_TR: read from their rows by the transposing LDS read (gfx950);
//   - otherwise each wave also stores its rows of Q and dO transposed,
//     [D, BM], from which plain reads serve (gfx942).
// Per query tile each wave moves QROWS rows of Q and dO through registers
// into LDS, between two barriers, and wave 0 the tile's bias and Delta
// (read back by every wave as columns, one value per accumulator row); the
// next tile's loads are issued before this tile's products, so that their
// latency hides under them. Keys past S_kv and queries past S_q read
// as zero and need no mask: their rows and columns of S never meet a stored
// output (a key's column only feeds that key's dK and dV; a query's row has
// dO = 0 and Delta = 0, so adds nothing).
//
// Parameters: DTYPE (bf16, f16), D (64, 128), BM (queries per tile), BLOCK
// (work-items: 32 keys per 64-lane wave), CAUSAL, Q_TR, PAD (Q and dO rows
// padding), TPAD (Q^T and dO^T rows padding), QROWS (= BM / waves), LOAD_IF
// (see @step).
// Launch: grid (ceil(S_kv / (32 * waves)), H_kv, B), block BLOCK.

tile.type_param_decl @DTYPE = bf16 of [bf16, f16]
tile.param_decl @D : i64 = 128
tile.param_decl @BM : i64 = 32
tile.param_decl @BLOCK : i64 = 256
tile.param_decl @CAUSAL : i1 = false
tile.param_decl @Q_TR : i1 = true on {gfx942 = false}
tile.param_decl @PAD : i64 = 8 on {gfx942 = 4}
tile.param_decl @TPAD : i64 = 4
tile.param_decl @QROWS : i64 = 8
tile.param_decl @LOAD_IF : i1 = true on {gfx942 = false}

!ql = !tile.lds<[BM, D], !tile.dtype<"DTYPE">, pad = PAD>
!qtl = !tile.lds<[D, BM], !tile.dtype<"DTYPE">, pad = TPAD>
!buf = !tile.buffer<!tile.dtype<"DTYPE">>
!ptr = !tile.ptr<!tile.dtype<"DTYPE">>
!fbuf = !tile.buffer<f32>
!fptr = !tile.ptr<f32>
!kt = !tile.tile<[D, 32], !tile.dtype<"DTYPE">, #tile.mfma<b>>
!qf = !tile.tile<[BM, D], !tile.dtype<"DTYPE">, #tile.mfma<a>>
!qtf = !tile.tile<[D, BM], !tile.dtype<"DTYPE">, #tile.mfma<a, k_from_acc>>
!s = !tile.tile<[BM, 32], f32, #tile.mfma<acc>>
!si = !tile.tile<[BM, 32], i32, #tile.mfma<acc>>
!sm = !tile.tile<[BM, 32], i1, #tile.mfma<acc>>
!pa = !tile.tile<[BM, 32], !tile.dtype<"DTYPE">, #tile.mfma<acc>>
!pb = !tile.tile<[BM, 32], !tile.dtype<"DTYPE">, #tile.mfma<b, k_from_acc>>
!g = !tile.tile<[D, 32], f32, #tile.mfma<acc>>
!gb = !tile.tile<[D, 32], !tile.dtype<"DTYPE">, #tile.mfma<acc>>
!col = !tile.tile<[BM, 1], f32, #tile.slice<1, #tile.mfma<acc>>>
!st = !tile.tile<[2, BM], f32, #tile.blocked<[1, 1], [2, 32]>>
!stl = !tile.lds<[2, BM], f32, pad = 0>
!colm = !tile.tile<[BM, 1], i1, #tile.slice<1, #tile.mfma<acc>>>
!qreg = !tile.tile<[QROWS, D], !tile.dtype<"DTYPE">, #tile.blocked<[1, 8], [8, 8]>>
!qreg32 = !tile.tile<[QROWS, D], f32, #tile.blocked<[1, 8], [8, 8]>>

// This wave's QROWS rows of query tile `i0..` of one matrix (Q or dO), in
// registers (rows past S_q read as zero).
func.func private @load_rows(%buf: !buf, %i0: index, %Sq: index, %stride: index) -> !qreg {
  %c0 = arith.constant 0 : index
  %d = tile.param @D : index
  %rows = tile.param @QROWS : index
  %wave = tile.wave_id
  %rw = arith.muli %wave, %rows : index
  %r = arith.addi %i0, %rw : index
  %x = tile.load %buf[%r, %c0] stride %stride bounds %Sq, %d : !buf -> !qreg
  return %x : !qreg
}

// Stores rows from @load_rows into the query tile's LDS buffer, and
// without Q_TR once more transposed (one 2-byte write per element: cheaper
// than a second, element-wise load in the layout a wide transposed write
// would want).
func.func private @store_rows(%x: !qreg, %l: !ql, %tl: !qtl) {
  %c0 = arith.constant 0 : index
  %rows = tile.param @QROWS : index
  %qtr = tile.param @Q_TR : i1
  %wave = tile.wave_id
  %rw = arith.muli %wave, %rows : index
  tile.lds_store %x, %l[%c0][%rw, %c0] : !qreg, !ql
  %true = arith.constant true
  %noqtr = arith.xori %qtr, %true : i1
  scf.if %noqtr {
    tile.lds_store %x, %tl[%c0][%c0, %rw] transpose : !qreg, !qtl
  }
  return
}

// Everything one (query head, query tile) pair needs from memory, into
// registers: this wave's rows of Q and dO, and the tile's bias and Delta
// (one value per lane; rows past S_q read as zero).
func.func private @load_pair(%q: !ptr, %do: !ptr, %stats: !fptr,
                             %b: index, %h: index, %i0: index, %Sq: index, %H: index,
                             %q_b: index, %q_s: index, %q_h: index,
                             %do_b: index, %do_s: index, %do_h: index)
    -> (!qreg, !qreg, !st) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d = tile.param @D : index
  %sq1 = arith.subi %Sq, %c1 : index
  %qoff_b = arith.muli %b, %q_b : index
  %qoff_h = arith.muli %h, %q_h : index
  %qoff = arith.addi %qoff_b, %qoff_h : index
  %dooff_b = arith.muli %b, %do_b : index
  %dooff_h = arith.muli %h, %do_h : index
  %dooff = arith.addi %dooff_b, %dooff_h : index
  %qn0 = arith.muli %sq1, %q_s : index
  %qn = arith.addi %qn0, %d : index
  %don0 = arith.muli %sq1, %do_s : index
  %don = arith.addi %don0, %d : index
  %qp = tile.ptr_add %q, %qoff : !ptr
  %dop = tile.ptr_add %do, %dooff : !ptr
  %qbuf = tile.make_buffer %qp, %qn : !ptr -> !buf
  %dobuf = tile.make_buffer %dop, %don : !ptr -> !buf
  %bh0 = arith.muli %b, %H : index
  %bh = arith.addi %bh0, %h : index
  %soff0 = arith.muli %bh, %Sq : index
  %soff = arith.muli %soff0, %c2 : index
  %sp = tile.ptr_add %stats, %soff : !fptr
  %sn = arith.muli %Sq, %c2 : index
  %sbuf = tile.make_buffer %sp, %sn : !fptr -> !fbuf
  %x = func.call @load_rows(%qbuf, %i0, %Sq, %q_s) : (!buf, index, index, index) -> !qreg
  %y = func.call @load_rows(%dobuf, %i0, %Sq, %do_s) : (!buf, index, index, index) -> !qreg
  %st = tile.load %sbuf[%c0, %i0] stride %Sq bounds %c2, %Sq : !fbuf -> !st
  return %x, %y, %st : !qreg, !qreg, !st
}

// The transposed operand [D, BM] of a query tile in LDS.
func.func private @transposed(%l: !ql, %tl: !qtl) -> !qtf {
  %c0 = arith.constant 0 : index
  %qtr = tile.param @Q_TR : i1
  %t = scf.if %qtr -> !qtf {
    %x = tile.lds_load %l[%c0][%c0, %c0] transpose : !ql -> !qtf
    scf.yield %x : !qtf
  } else {
    %x = tile.lds_load %tl[%c0][%c0, %c0] : !qtl -> !qtf
    scf.yield %x : !qtf
  }
  return %t : !qtf
}

// Masks S (queries i0 + r down, keys kw + c across) above the diagonal:
// key kw + c is visible to query i0 + r when c - r <= i0 + (S_kv - S_q) - kw.
// Only tiles whose last key lies past the first query's diagonal need it
// (a wave-uniform decision).
func.func private @mask(%s: !s, %i0: index, %kw: index, %offs: index) -> !s {
  %c31 = arith.constant 31 : index
  %ninf = arith.constant 0xFF800000 : f32
  %causal = tile.param @CAUSAL : i1
  %see = arith.addi %i0, %offs : index
  %klast = arith.addi %kw, %c31 : index
  %crosses = arith.cmpi sgt, %klast, %see : index
  %mask = arith.andi %causal, %crosses : i1
  %r = scf.if %mask -> !s {
    %lim = arith.subi %see, %kw : index
    %limi = arith.index_cast %lim : index to i32
    %limt = tile.splat %limi : i32 -> !si
    %rows = tile.iota 0 : !si
    %cols = tile.iota 1 : !si
    %diff = tile.subi %cols, %rows : !si
    %seen = tile.cmpi sle, %diff, %limt : !si -> !sm
    %inf = tile.splat %ninf : f32 -> !s
    %masked = tile.select %seen, %s, %inf : !sm, !s
    scf.yield %masked : !s
  } else {
    scf.yield %s : !s
  }
  return %r : !s
}

// The interleaving of each cluster of @tile, as sched_group_barrier pairs
// (the scheduler fills the groups from the instructions above the call).
// A product has (BM / 32) (D / K) MFMAs (K the chip's MFMA depth: 16 on
// gfx950, which also has Q_TR, 8 on gfx942); the patterns repeat 32 times,
// the most any configuration has, and the groups past the last MFMA stay
// empty. The LDS reads run a few MFMAs ahead of their use, so that their
// latency hides under the MFMAs between (without the pairs the scheduler
// put each read right before its MFMA and waited on it).
//  - @schedule_s: S = Q K^T, one read of Q per MFMA.
//  - @schedule_dp: dP = dO V^T, one read of dO per MFMA, with the
//    exponentials of P (BM / 2 per lane) spread evenly: 16 K / D per MFMA.
//  - @schedule_t: dV^T += dO^T P and dK^T += Q^T dS, the transposed
//    operand's reads (two 4-element transposing reads per MFMA on gfx950,
//    one plain read on gfx942); dS's VALU work fills the issue slots of
//    dV's cluster on its own.
func.func private @schedule_s() {
  tile.sched_group_barrier #tile.group<ds_read, 4>
  tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 1>] x 32
  return
}

func.func private @schedule_dp() {
  %d = tile.param @D : index
  %qtr = tile.param @Q_TR : i1
  %c128 = arith.constant 128 : index
  %d128 = arith.cmpi eq, %d, %c128 : index
  scf.if %d128 {
    scf.if %qtr {
      tile.sched_group_barrier #tile.group<ds_read, 4>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 2>, #tile.group<ds_read, 1>] x 32
    } else {
      tile.sched_group_barrier #tile.group<ds_read, 4>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 1>, #tile.group<ds_read, 1>] x 32
    }
  } else {
    scf.if %qtr {
      tile.sched_group_barrier #tile.group<ds_read, 4>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 4>, #tile.group<ds_read, 1>] x 32
    } else {
      tile.sched_group_barrier #tile.group<ds_read, 4>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 2>, #tile.group<ds_read, 1>] x 32
    }
  }
  return
}

func.func private @schedule_t() {
  %qtr = tile.param @Q_TR : i1
  scf.if %qtr {
    tile.sched_group_barrier #tile.group<ds_read, 4>
    tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 2>] x 32
  } else {
    tile.sched_group_barrier #tile.group<ds_read, 2>
    tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 1>] x 32
  }
  return
}

// One query tile (in LDS) against this wave's keys, in four clusters of
// MFMAs: S; dP with P's exponentials; dV^T with dS's VALU work; dK^T. Each
// is one scheduling region between s_setprio 1 and 0 (the causal mask's
// branch sits between the first two).
func.func private @tile(%ql: !ql, %dol: !ql, %qtl: !qtl, %dotl: !qtl,
                        %i0: index, %kw: index, %offs: index, %kt: !kt, %vt: !kt,
                        %c: f32, %bias: !col, %delta: !col, %dk: !g, %dv: !g) -> (!g, !g) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %z = tile.splat %zero : f32 -> !s
  tile.setprio 1
  %qf = tile.lds_load %ql[%c0][%c0, %c0] : !ql -> !qf
  %s = tile.mma %qf, %kt, %z : !qf, !kt -> !s
  func.call @schedule_s() : () -> ()
  tile.setprio 0
  %sm = func.call @mask(%s, %i0, %kw, %offs) : (!s, index, index, index) -> !s
  tile.setprio 1
  %dof = tile.lds_load %dol[%c0][%c0, %c0] : !ql -> !qf
  %dp = tile.mma %dof, %vt, %z : !qf, !kt -> !s
  %cs = tile.splat %c : f32 -> !s
  %bb = tile.broadcast %bias : !col -> !s
  %x = tile.fma %sm, %cs, %bb : !s
  %p = tile.exp2 %x : !s
  %pd = tile.convert %p fast_rounding : !s -> !pa
  %pb = tile.relayout %pd : !pa -> !pb
  func.call @schedule_dp() : () -> ()
  tile.setprio 0
  tile.setprio 1
  %dot = func.call @transposed(%dol, %dotl) : (!ql, !qtl) -> !qtf
  %dv2 = tile.mma %dot, %pb, %dv : !qtf, !pb -> !g
  %db = tile.broadcast %delta : !col -> !s
  %dd = tile.subf %dp, %db : !s
  %ds = tile.mulf %p, %dd : !s
  %dsd = tile.convert %ds : !s -> !pa
  %dsb = tile.relayout %dsd : !pa -> !pb
  func.call @schedule_t() : () -> ()
  tile.setprio 0
  tile.setprio 1
  %qtt = func.call @transposed(%ql, %qtl) : (!ql, !qtl) -> !qtf
  %dk2 = tile.mma %qtt, %dsb, %dk : !qtf, !pb -> !g
  func.call @schedule_t() : () -> ()
  tile.setprio 0
  return %dk2, %dv2 : !g, !g
}

// One (query head, query tile) pair whose rows are in LDS: the next pair's
// rows are loaded into registers first, so that their latency hides under
// this pair's products, and stored after them, once every wave is done
// reading this pair's (the barrier before the stores). The last pair stores
// nothing; with LOAD_IF it loads nothing either (a branch around the loads),
// without it it loads its own rows again (`hn` and `in0` are then its own),
// with no branch. The timing model prefers the branch on gfx950 (dK/dV at
// S=4096: 1152 against 1015 TFLOPS) and its absence on gfx942 (471
// against 441): the scheduler places the loads' address arithmetic
// differently around the clusters.
func.func private @step(%q: !ptr, %do: !ptr, %stats: !fptr, %b: index, %hn: index,
                        %in0: index, %more: i1, %Sq: index, %H: index,
                        %q_b: index, %q_s: index, %q_h: index,
                        %do_b: index, %do_s: index, %do_h: index,
                        %ql: !ql, %dol: !ql, %qtl: !qtl, %dotl: !qtl, %statl: !stl,
                        %i0: index, %kw: index, %offs: index, %kt: !kt, %vt: !kt, %c: f32,
                        %dk: !g, %dv: !g) -> (!g, !g) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %wave = tile.wave_id
  %first_wave = arith.cmpi eq, %wave, %c0 : index
  %loadif = tile.param @LOAD_IF : i1
  %true = arith.constant true
  %always = arith.xori %loadif, %true : i1
  %load = arith.ori %more, %always : i1
  %n:3 = scf.if %load -> (!qreg, !qreg, !st) {
    %r:3 = func.call @load_pair(%q, %do, %stats, %b, %hn, %in0, %Sq, %H, %q_b, %q_s, %q_h, %do_b, %do_s, %do_h)
        : (!ptr, !ptr, !fptr, index, index, index, index, index, index, index, index, index, index, index)
        -> (!qreg, !qreg, !st)
    scf.yield %r#0, %r#1, %r#2 : !qreg, !qreg, !st
  } else {
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !qreg32
    %zq = tile.convert %z : !qreg32 -> !qreg
    %zs = tile.splat %zero : f32 -> !st
    scf.yield %zq, %zq, %zs : !qreg, !qreg, !st
  }
  // The tile's bias and Delta as columns: one value per accumulator row.
  %bias = tile.lds_load %statl[%c0][%c0, %c0] transpose : !stl -> !col
  %delta_c = tile.lds_load %statl[%c0][%c1, %c0] transpose : !stl -> !col
  %x:2 = func.call @tile(%ql, %dol, %qtl, %dotl, %i0, %kw, %offs, %kt, %vt, %c, %bias, %delta_c, %dk, %dv)
      : (!ql, !ql, !qtl, !qtl, index, index, index, !kt, !kt, f32, !col, !col, !g, !g) -> (!g, !g)
  // Every wave is done with the tile before the next one overwrites it.
  tile.barrier
  scf.if %more {
    func.call @store_rows(%n#0, %ql, %qtl) : (!qreg, !ql, !qtl) -> ()
    func.call @store_rows(%n#1, %dol, %dotl) : (!qreg, !ql, !qtl) -> ()
    scf.if %first_wave {
      tile.lds_store %n#2, %statl[%c0][%c0, %c0] : !st, !stl
    }
  }
  tile.barrier
  return %x#0, %x#1 : !g, !g
}

func.func @fmha_bwd_dkdv(%q: !ptr, %k: !ptr, %v: !ptr, %do: !ptr, %dk: !ptr, %dv: !ptr,
                         %stats: !fptr,
                         %Sq: index, %Skv: index, %H: index, %Hkv: index,
                         %q_b: index, %q_s: index, %q_h: index,
                         %k_b: index, %k_s: index, %k_h: index,
                         %v_b: index, %v_s: index, %v_h: index,
                         %do_b: index, %do_s: index, %do_h: index,
                         %dk_b: index, %dk_s: index, %dk_h: index,
                         %dv_b: index, %dv_s: index, %dv_h: index,
                         %c: f32, %scale: f32)
    attributes {tile.kernel, tile.block_size = @BLOCK} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %nlog2e = arith.constant -1.44269504 : f32
  %d = tile.param @D : index
  %bm = tile.param @BM : index
  %block = tile.param @BLOCK : index
  %causal = tile.param @CAUSAL : i1

  %bk = tile.program_id 0
  %hk = tile.program_id 1
  %b = tile.program_id 2
  %waves = arith.divui %block, %c64 : index
  %wave = tile.wave_id
  %per_wg = arith.muli %waves, %c32 : index
  %k0 = arith.muli %bk, %per_wg : index
  %kw0 = arith.muli %wave, %c32 : index
  %kw = arith.addi %k0, %kw0 : index
  %group = arith.divui %H, %Hkv : index

  // Buffers over this batch and key/value head.
  %sq1 = arith.subi %Sq, %c1 : index
  %skv1 = arith.subi %Skv, %c1 : index
  %koff_b = arith.muli %b, %k_b : index
  %koff_h = arith.muli %hk, %k_h : index
  %koff = arith.addi %koff_b, %koff_h : index
  %voff_b = arith.muli %b, %v_b : index
  %voff_h = arith.muli %hk, %v_h : index
  %voff = arith.addi %voff_b, %voff_h : index
  %dkoff_b = arith.muli %b, %dk_b : index
  %dkoff_h = arith.muli %hk, %dk_h : index
  %dkoff = arith.addi %dkoff_b, %dkoff_h : index
  %dvoff_b = arith.muli %b, %dv_b : index
  %dvoff_h = arith.muli %hk, %dv_h : index
  %dvoff = arith.addi %dvoff_b, %dvoff_h : index
  %kn0 = arith.muli %skv1, %k_s : index
  %kn = arith.addi %kn0, %d : index
  %vn0 = arith.muli %skv1, %v_s : index
  %vn = arith.addi %vn0, %d : index
  %dkn0 = arith.muli %skv1, %dk_s : index
  %dkn = arith.addi %dkn0, %d : index
  %dvn0 = arith.muli %skv1, %dv_s : index
  %dvn = arith.addi %dvn0, %d : index
  %kp = tile.ptr_add %k, %koff : !ptr
  %vp = tile.ptr_add %v, %voff : !ptr
  %dkp = tile.ptr_add %dk, %dkoff : !ptr
  %dvp = tile.ptr_add %dv, %dvoff : !ptr
  %kbuf = tile.make_buffer %kp, %kn : !ptr -> !buf
  %vbuf = tile.make_buffer %vp, %vn : !ptr -> !buf
  %dkbuf = tile.make_buffer %dkp, %dkn : !ptr -> !buf
  %dvbuf = tile.make_buffer %dvp, %dvn : !ptr -> !buf

  %ql = tile.lds_alloc "q" : !ql
  %dol = tile.lds_alloc "do" : !ql
  %qtl = tile.lds_alloc "qt" : !qtl
  %dotl = tile.lds_alloc "dot" : !qtl
  %statl = tile.lds_alloc "stats" : !stl

  // This wave's keys and values, loaded once as B operands.
  %kt = tile.load %kbuf[%kw, %c0] stride %k_s bounds %Skv, %d transpose : !buf -> !kt
  %vt = tile.load %vbuf[%kw, %c0] stride %v_s bounds %Skv, %d transpose : !buf -> !kt

  // The query tiles that see some key of the workgroup: from the one
  // holding query k0 - (S_kv - S_q) (causal) or 0, to the end.
  %offs = arith.subi %Skv, %Sq : index
  %first0 = arith.subi %k0, %offs : index
  %first_ok = arith.cmpi sgt, %first0, %c0 : index
  %first1 = arith.select %first_ok, %first0, %c0 : index
  %first_c = arith.divui %first1, %bm : index
  %first_t = arith.select %causal, %first_c, %c0 : index
  %bm1 = arith.subi %bm, %c1 : index
  %sqb = arith.addi %Sq, %bm1 : index
  %ntiles = arith.divui %sqb, %bm : index

  %g0 = tile.splat %zero : f32 -> !g
  // One loop over (query head of the group, query tile) pairs, heads
  // outermost, so that the steady state is one loop whose trip count the
  // loop header states (and a later software pipeline has one loop to
  // work on): the pair advances by a compare and two selects.
  %nt = arith.subi %ntiles, %first_t : index
  %pairs = arith.muli %group, %nt : index
  %first_i0 = arith.muli %first_t, %bm : index
  // The pipeline: the next pair's rows of Q and dO, bias and Delta are in
  // flight from global memory while the matrix cores work on this pair's
  // (register double buffering: the LDS tile is single, between two
  // barriers).
  %hq0 = arith.muli %hk, %group : index
  %first_wave = arith.cmpi eq, %wave, %c0 : index
  %f0:3 = func.call @load_pair(%q, %do, %stats, %b, %hq0, %first_i0, %Sq, %H, %q_b, %q_s, %q_h, %do_b, %do_s, %do_h)
      : (!ptr, !ptr, !fptr, index, index, index, index, index, index, index, index, index, index, index)
      -> (!qreg, !qreg, !st)
  func.call @store_rows(%f0#0, %ql, %qtl) : (!qreg, !ql, !qtl) -> ()
  func.call @store_rows(%f0#1, %dol, %dotl) : (!qreg, !ql, !qtl) -> ()
  scf.if %first_wave {
    tile.lds_store %f0#2, %statl[%c0][%c0, %c0] : !st, !stl
  }
  // K^T, V^T and the first pair have landed before the loop: otherwise
  // the wait-count pass, merging the loop's entry with its back-edge (where
  // only the prefetch is in flight), waits for every load at the first MFMA
  // of each iteration.
  tile.wait vmcnt(0)
  tile.barrier
  %acc:4 = scf.for %t = %c0 to %pairs step %c1
      iter_args(%dka = %g0, %dva = %g0, %hg = %c0, %it = %first_t) -> (!g, !g, index, index) {
    %i0 = arith.muli %it, %bm : index
    // The next pair: the next query tile, or the first of the next head.
    %it1 = arith.addi %it, %c1 : index
    %wrap = arith.cmpi eq, %it1, %ntiles : index
    %itn = arith.select %wrap, %first_t, %it1 : index
    %hg1 = arith.addi %hg, %c1 : index
    %hgn = arith.select %wrap, %hg1, %hg : index
    %t1 = arith.addi %t, %c1 : index
    %more = arith.cmpi ult, %t1, %pairs : index
    %hn0 = arith.addi %hq0, %hgn : index
    %in00 = arith.muli %itn, %bm : index
    %hcur = arith.addi %hq0, %hg : index
    %hn = arith.select %more, %hn0, %hcur : index
    %in0 = arith.select %more, %in00, %i0 : index
    %x:2 = func.call @step(%q, %do, %stats, %b, %hn, %in0, %more, %Sq, %H, %q_b, %q_s, %q_h, %do_b, %do_s, %do_h,
                           %ql, %dol, %qtl, %dotl, %statl,
                           %i0, %kw, %offs, %kt, %vt, %c, %dka, %dva)
        : (!ptr, !ptr, !fptr, index, index, index, i1, index, index, index, index, index, index, index, index,
           !ql, !ql, !qtl, !qtl, !stl,
           index, index, index, !kt, !kt, f32, !g, !g) -> (!g, !g)
    scf.yield %x#0, %x#1, %hgn, %itn : !g, !g, index, index
  }

  // dK = scale dK^T and dV = dV^T, stored transposed into [S_kv, D].
  %sc = tile.splat %scale : f32 -> !g
  %dks = tile.mulf %acc#0, %sc : !g
  %dkd = tile.convert %dks : !g -> !gb
  %dvd = tile.convert %acc#1 : !g -> !gb
  tile.store %dkd, %dkbuf[%kw, %c0] stride %dk_s bounds %Skv, %d transpose : !gb, !buf
  tile.store %dvd, %dvbuf[%kw, %c0] stride %dv_s bounds %Skv, %d transpose : !gb, !buf
  return
}
