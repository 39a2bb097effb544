// kcc FlashAttention backward, the key and value gradients:
//   dV = P^T dO,  dK = scale * dS^T Q,  dS = P * (dP - Delta),  dP = dO V^T,
//   P = exp(scale * Q K^T - LSE)  [+ causal mask]
//
// Q, dO [B, S_q, H, D]; K, V, dK, dV [B, S_kv, H_kv, D] (H a multiple of
// H_kv: MHA, GQA, MQA); strides in elements (batch, token, head), the head
// dimension contiguous. LSE and Delta [B, H, S_q] f32 packed, as for
// fmha_bwd_dq.mlir. Causal masking aligns the diagonal bottom-right: query i
// sees keys j <= i + (S_kv - S_q).
//
// A workgroup owns 32 keys per wave of one key/value head and walks, for
// every query head of its group, the query tiles that see them: dK and dV of
// a GQA group are reduced in registers, with no atomics and no second pass.
// A wave keeps K^T and V^T of its 32 keys as B operands for the whole loop,
// and the accumulators dV^T and dK^T [D, 32] (its keys across the lanes):
//   S    = Q K^T          [BM, 32]  (Q from LDS)
//   P    = 2^(c S - LSE log2 e)      (LSE per query: one value per row)
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
// into LDS, between two barriers. Keys past S_kv and queries past S_q read
// as zero and need no mask: their rows and columns of S never meet a stored
// output (a key's column only feeds that key's dK and dV; a query's row has
// dO = 0 and Delta = 0, so adds nothing).
//
// Parameters: DTYPE (bf16, f16), D (64, 128), BM (queries per tile), BLOCK
// (work-items: 32 keys per 64-lane wave), CAUSAL, Q_TR, PAD (Q and dO rows
// padding), TPAD (Q^T and dO^T rows padding), QROWS (= BM / waves).
// Launch: grid (ceil(S_kv / (32 * waves)), H_kv, B), block BLOCK.

tile.type_param_decl @DTYPE = bf16 of [bf16, f16]
tile.param_decl @D : i64 = 128
tile.param_decl @BM : i64 = 32
tile.param_decl @BLOCK : i64 = 256
tile.param_decl @CAUSAL : i1 = false
tile.param_decl @Q_TR : i1 = true
tile.param_decl @PAD : i64 = 8
tile.param_decl @TPAD : i64 = 4
tile.param_decl @QROWS : i64 = 8

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
!colm = !tile.tile<[BM, 1], i1, #tile.slice<1, #tile.mfma<acc>>>
!qreg = !tile.tile<[QROWS, D], !tile.dtype<"DTYPE">, #tile.blocked<[1, 8], [8, 8]>>
!qtreg = !tile.tile<[QROWS, D], !tile.dtype<"DTYPE">, #tile.blocked<[4, 1], [2, 32]>>

// Moves this wave's QROWS rows of query tile `i0..` of one matrix (Q or dO)
// into LDS through registers, and without Q_TR once more transposed.
func.func private @fill(%buf: !buf, %l: !ql, %tl: !qtl, %i0: index, %Sq: index,
                        %stride: index) {
  %c0 = arith.constant 0 : index
  %d = tile.param @D : index
  %rows = tile.param @QROWS : index
  %qtr = tile.param @Q_TR : i1
  %wave = tile.wave_id
  %rw = arith.muli %wave, %rows : index
  %r = arith.addi %i0, %rw : index
  %x = tile.load %buf[%r, %c0] stride %stride bounds %Sq, %d : !buf -> !qreg
  tile.lds_store %x, %l[%c0][%rw, %c0] : !qreg, !ql
  %true = arith.constant true
  %noqtr = arith.xori %qtr, %true : i1
  scf.if %noqtr {
    %xt = tile.load %buf[%r, %c0] stride %stride bounds %Sq, %d : !buf -> !qtreg
    tile.lds_store %xt, %tl[%c0][%c0, %rw] transpose : !qtreg, !qtl
  }
  return
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

// One query tile (in LDS) against this wave's keys.
func.func private @tile(%ql: !ql, %dol: !ql, %qtl: !qtl, %dotl: !qtl,
                        %i0: index, %kw: index, %offs: index, %kt: !kt, %vt: !kt,
                        %c: f32, %bias: !col, %delta: !col, %dk: !g, %dv: !g) -> (!g, !g) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %z = tile.splat %zero : f32 -> !s
  tile.setprio 1
  %qf = tile.lds_load %ql[%c0][%c0, %c0] : !ql -> !qf
  %s = tile.mma %qf, %kt, %z : !qf, !kt -> !s
  %dof = tile.lds_load %dol[%c0][%c0, %c0] : !ql -> !qf
  %dp = tile.mma %dof, %vt, %z : !qf, !kt -> !s
  tile.setprio 0
  %sm = func.call @mask(%s, %i0, %kw, %offs) : (!s, index, index, index) -> !s
  %cs = tile.splat %c : f32 -> !s
  %bb = tile.broadcast %bias : !col -> !s
  %x = tile.fma %sm, %cs, %bb : !s
  %p = tile.exp2 %x : !s
  %pd = tile.convert %p : !s -> !pa
  %pb = tile.relayout %pd : !pa -> !pb
  %db = tile.broadcast %delta : !col -> !s
  %dd = tile.subf %dp, %db : !s
  %ds = tile.mulf %p, %dd : !s
  %dsd = tile.convert %ds : !s -> !pa
  %dsb = tile.relayout %dsd : !pa -> !pb
  %dot = func.call @transposed(%dol, %dotl) : (!ql, !qtl) -> !qtf
  %qtt = func.call @transposed(%ql, %qtl) : (!ql, !qtl) -> !qtf
  tile.setprio 1
  %dv2 = tile.mma %dot, %pb, %dv : !qtf, !pb -> !g
  %dk2 = tile.mma %qtt, %dsb, %dk : !qtf, !pb -> !g
  tile.setprio 0
  return %dk2, %dv2 : !g, !g
}

func.func @fmha_bwd_dkdv(%q: !ptr, %k: !ptr, %v: !ptr, %do: !ptr, %dk: !ptr, %dv: !ptr,
                         %lse: !fptr, %delta: !fptr,
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
  %qn0 = arith.muli %sq1, %q_s : index
  %qn = arith.addi %qn0, %d : index
  %don0 = arith.muli %sq1, %do_s : index
  %don = arith.addi %don0, %d : index
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

  %ninft = tile.splat %ninf : f32 -> !col
  %zt = tile.splat %zero : f32 -> !col
  %nlt = tile.splat %nlog2e : f32 -> !col
  %g0 = tile.splat %zero : f32 -> !g
  // One loop over (query head of the group, query tile) pairs, heads
  // outermost, so that the steady state is one loop whose trip count the
  // loop header states (and a later software pipeline has one loop to
  // work on): the pair advances by a compare and two selects.
  %nt = arith.subi %ntiles, %first_t : index
  %pairs = arith.muli %group, %nt : index
  %hq0 = arith.muli %hk, %group : index
  %bh0 = arith.muli %b, %H : index
  %qoff_b = arith.muli %b, %q_b : index
  %dooff_b = arith.muli %b, %do_b : index
  %acc:4 = scf.for %t = %c0 to %pairs step %c1
      iter_args(%dka = %g0, %dva = %g0, %hg = %c0, %it = %first_t) -> (!g, !g, index, index) {
    // Query head h of the group: its Q, dO, LSE and Delta.
    %h = arith.addi %hq0, %hg : index
    %qoff_h = arith.muli %h, %q_h : index
    %qoff = arith.addi %qoff_b, %qoff_h : index
    %dooff_h = arith.muli %h, %do_h : index
    %dooff = arith.addi %dooff_b, %dooff_h : index
    %qp = tile.ptr_add %q, %qoff : !ptr
    %dop = tile.ptr_add %do, %dooff : !ptr
    %qbuf = tile.make_buffer %qp, %qn : !ptr -> !buf
    %dobuf = tile.make_buffer %dop, %don : !ptr -> !buf
    %bh = arith.addi %bh0, %h : index
    %loff = arith.muli %bh, %Sq : index
    %lp = tile.ptr_add %lse, %loff : !fptr
    %dp = tile.ptr_add %delta, %loff : !fptr
    %lbuf = tile.make_buffer %lp, %Sq : !fptr -> !fbuf
    %dbuf = tile.make_buffer %dp, %Sq : !fptr -> !fbuf

    %i0 = arith.muli %it, %bm : index
    func.call @fill(%qbuf, %ql, %qtl, %i0, %Sq, %q_s) : (!buf, !ql, !qtl, index, index, index) -> ()
    func.call @fill(%dobuf, %dol, %dotl, %i0, %Sq, %do_s) : (!buf, !ql, !qtl, index, index, index) -> ()
    // LSE and Delta of the tile's queries, one value per accumulator row.
    // P = 2^(c s - LSE log2 e); a query that sees no key has LSE = -inf,
    // its scores are all masked, and a bias of 0 keeps P at 0.
    %lse_c = tile.load %lbuf[%i0, %c0] stride %c1 bounds %Sq, %c1 : !fbuf -> !col
    %delta_c = tile.load %dbuf[%i0, %c0] stride %c1 bounds %Sq, %c1 : !fbuf -> !col
    %unseen = tile.cmpf oeq, %lse_c, %ninft : !col -> !colm
    %lsafe = tile.select %unseen, %zt, %lse_c : !colm, !col
    %bias = tile.mulf %lsafe, %nlt : !col
    tile.barrier
    %x:2 = func.call @tile(%ql, %dol, %qtl, %dotl, %i0, %kw, %offs, %kt, %vt, %c, %bias, %delta_c, %dka, %dva)
        : (!ql, !ql, !qtl, !qtl, index, index, index, !kt, !kt, f32, !col, !col, !g, !g) -> (!g, !g)
    // Every wave is done with the tile before the next one overwrites it.
    tile.barrier
    %it1 = arith.addi %it, %c1 : index
    %wrap = arith.cmpi eq, %it1, %ntiles : index
    %itn = arith.select %wrap, %first_t, %it1 : index
    %hg1 = arith.addi %hg, %c1 : index
    %hgn = arith.select %wrap, %hg1, %hg : index
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
