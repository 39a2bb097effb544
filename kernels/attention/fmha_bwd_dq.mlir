// kcc FlashAttention backward, the query gradient:
//   dQ = scale * dS K,  dS = P * (dP - Delta),  dP = dO V^T,
//   P = exp(scale * Q K^T - LSE)  [+ causal mask]
//
// Q, dO, dQ [B, S_q, H, D]; K, V [B, S_kv, H_kv, D] (H a multiple of H_kv);
// strides in elements (batch, token, head), the head dimension contiguous.
// STATS [B, H, 2, S_q] f32 (fmha_bwd_pre.mlir) holds per query the exponent
// bias -LSE log2(e) (from the forward's log-sum-exp) and Delta =
// rowsum(dO * O).
// Causal masking aligns the diagonal bottom-right, as in the forward.
//
// This is the forward's structure with the backward's products: a wave owns
// 32 queries and works transposed (KV tokens down, its queries across), so
// that each lane holds one query column and every per-query quantity (LSE,
// Delta) is one register:
//   S^T  = K Q^T          (K from LDS, Q^T in registers for the whole loop)
//   P^T  = 2^(c S^T + bias)
//   dP^T = V dO^T         (V from LDS, dO^T in registers)
//   dS^T = P^T * (dP^T - Delta)
//   dQ^T += K^T dS^T      (dS^T, an accumulator, is the B operand by
//                          `tile.relayout` alone; K^T takes K in the
//                          accumulator's row order)
// dQ is a separate pass from dK and dV (fmha_bwd_dkdv.mlir, which walks the
// queries per key block) rather than accumulated there by atomics: it costs
// S and dP once more, but writes dQ once, in the input dtype, with no f32
// scratch tensor or atomic traffic and no dependence on the order of adds.
//
// K^T reaches the MFMA as an `a` operand with K (keys) within lanes:
//   - K_TR: read from K's rows by the transposing LDS read (gfx950);
//   - otherwise each wave also stores its rows of K transposed, K^T [D, BN],
//     from which plain reads serve (gfx942 has no transposing read).
// K and V move through registers into LDS, each wave KVROWS rows of each,
// between two barriers per key tile; the next tile's loads are issued
// before this tile's products, so that their latency hides under them.
//
// Parameters: DTYPE (bf16, f16), D (64, 128), BN (keys per tile), BLOCK
// (work-items: 32 queries per 64-lane wave), CAUSAL, K_TR, PAD (K and V rows
// padding), KTPAD (K^T rows padding), KVROWS (= BN / waves).
// Launch: grid (ceil(S_q / (32 * waves)), H, B), block BLOCK.

tile.type_param_decl @DTYPE = bf16 of [bf16, f16]
tile.param_decl @D : i64 = 128
tile.param_decl @BN : i64 = 64
tile.param_decl @BLOCK : i64 = 256
tile.param_decl @CAUSAL : i1 = false
tile.param_decl @K_TR : i1 = true on {gfx942 = false}
tile.param_decl @PAD : i64 = 8 on {gfx942 = 4}
tile.param_decl @KTPAD : i64 = 4
tile.param_decl @KVROWS : i64 = 16

!kl = !tile.lds<[BN, D], !tile.dtype<"DTYPE">, pad = PAD>
!ktl = !tile.lds<[D, BN], !tile.dtype<"DTYPE">, pad = KTPAD>
!buf = !tile.buffer<!tile.dtype<"DTYPE">>
!ptr = !tile.ptr<!tile.dtype<"DTYPE">>
!fbuf = !tile.buffer<f32>
!fptr = !tile.ptr<f32>
!qt = !tile.tile<[D, 32], !tile.dtype<"DTYPE">, #tile.mfma<b>>
!kf = !tile.tile<[BN, D], !tile.dtype<"DTYPE">, #tile.mfma<a>>
!ktf = !tile.tile<[D, BN], !tile.dtype<"DTYPE">, #tile.mfma<a, k_from_acc>>
!s = !tile.tile<[BN, 32], f32, #tile.mfma<acc>>
!si = !tile.tile<[BN, 32], i32, #tile.mfma<acc>>
!sm = !tile.tile<[BN, 32], i1, #tile.mfma<acc>>
!pa = !tile.tile<[BN, 32], !tile.dtype<"DTYPE">, #tile.mfma<acc>>
!pb = !tile.tile<[BN, 32], !tile.dtype<"DTYPE">, #tile.mfma<b, k_from_acc>>
!o = !tile.tile<[D, 32], f32, #tile.mfma<acc>>
!ob = !tile.tile<[D, 32], !tile.dtype<"DTYPE">, #tile.mfma<acc>>
!row = !tile.tile<[1, 32], f32, #tile.slice<0, #tile.mfma<acc>>>
!rowm = !tile.tile<[1, 32], i1, #tile.slice<0, #tile.mfma<acc>>>
!rowi = !tile.tile<[1, 32], i32, #tile.slice<0, #tile.mfma<acc>>>
!kvreg = !tile.tile<[KVROWS, D], !tile.dtype<"DTYPE">, #tile.blocked<[1, 8], [8, 8]>>

// This wave's KVROWS rows of key/value tile `j` of K and of V, in registers
// (rows past S_kv read as zero).
func.func private @load_kv(%kbuf: !buf, %vbuf: !buf, %j: index, %Skv: index, %ks: index,
                           %vs: index) -> (!kvreg, !kvreg) {
  %c0 = arith.constant 0 : index
  %bn = tile.param @BN : index
  %d = tile.param @D : index
  %rows = tile.param @KVROWS : index
  %wave = tile.wave_id
  %r0 = arith.muli %j, %bn : index
  %rw = arith.muli %wave, %rows : index
  %r = arith.addi %r0, %rw : index
  %k = tile.load %kbuf[%r, %c0] stride %ks bounds %Skv, %d : !buf -> !kvreg
  %v = tile.load %vbuf[%r, %c0] stride %vs bounds %Skv, %d : !buf -> !kvreg
  return %k, %v : !kvreg, !kvreg
}

// Stores rows from @load_kv into the LDS tile, and without K_TR K's rows
// once more transposed into K^T.
func.func private @store_kv(%k: !kvreg, %v: !kvreg, %kl: !kl, %vl: !kl, %ktl: !ktl) {
  %c0 = arith.constant 0 : index
  %rows = tile.param @KVROWS : index
  %ktr = tile.param @K_TR : i1
  %wave = tile.wave_id
  %rw = arith.muli %wave, %rows : index
  tile.lds_store %k, %kl[%c0][%rw, %c0] : !kvreg, !kl
  tile.lds_store %v, %vl[%c0][%rw, %c0] : !kvreg, !kl
  %true = arith.constant true
  %noktr = arith.xori %ktr, %true : i1
  scf.if %noktr {
    tile.lds_store %k, %ktl[%c0][%c0, %rw] transpose : !kvreg, !ktl
  }
  return
}

// Masks the scores S^T of key tile `j` where it crosses the diagonal or the
// end of the keys (a wave-uniform decision; other tiles pass through).
// Key row r is visible to query column c when
// r <= min(q0 + c + (S_kv - S_q) - k0, S_kv - 1 - k0).
func.func private @mask(%s: !s, %j: index, %q0: index, %Sq: index, %Skv: index) -> !s {
  %c1 = arith.constant 1 : index
  %ninf = arith.constant 0xFF800000 : f32
  %bn = tile.param @BN : index
  %causal = tile.param @CAUSAL : i1
  %k0 = arith.muli %j, %bn : index
  %klast = arith.addi %k0, %bn : index
  %klast1 = arith.subi %klast, %c1 : index
  %offs = arith.subi %Skv, %Sq : index
  %qsee = arith.addi %q0, %offs : index
  %crosses = arith.cmpi sgt, %klast1, %qsee : index
  %diag = arith.andi %causal, %crosses : i1
  %tail = arith.cmpi sgt, %klast, %Skv : index
  %skv1 = arith.subi %Skv, %c1 : index
  %mask = arith.ori %diag, %tail : i1
  %r = scf.if %mask -> !s {
    %tailc = arith.subi %skv1, %k0 : index
    %tailci = arith.index_cast %tailc : index to i32
    %tail_t = tile.splat %tailci : i32 -> !rowi
    %lim = scf.if %causal -> !rowi {
      %diagc = arith.subi %qsee, %k0 : index
      %diagci = arith.index_cast %diagc : index to i32
      %cols = tile.iota 1 : !rowi
      %diag_t = tile.splat %diagci : i32 -> !rowi
      %dlim = tile.addi %cols, %diag_t : !rowi
      %lt = tile.cmpi slt, %dlim, %tail_t : !rowi -> !rowm
      %l = tile.select %lt, %dlim, %tail_t : !rowm, !rowi
      scf.yield %l : !rowi
    } else {
      scf.yield %tail_t : !rowi
    }
    %rows = tile.iota 0 : !si
    %limb = tile.broadcast %lim : !rowi -> !si
    %seen = tile.cmpi sle, %rows, %limb : !si -> !sm
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
// A product has (BN / 32) (D / K) MFMAs (K the chip's MFMA depth: 16 on
// gfx950, which also has K_TR, 8 on gfx942); the patterns repeat 32 times,
// the most any configuration has, and groups past the last MFMA stay
// empty. The LDS reads run a few MFMAs ahead of their use.
//  - @schedule_s: S^T = K Q^T, one read of K per MFMA.
//  - @schedule_dp: dP^T = V dO^T, one read of V per MFMA, with the
//    exponentials of P^T (BN / 2 per lane) spread evenly: 16 K / D per MFMA.
//  - @schedule_dq: dQ^T += K^T dS^T, K^T's reads (two 4-element
//    transposing reads per MFMA on gfx950, one plain read on gfx942); dS's
//    VALU work fills the issue slots on its own.
func.func private @schedule_s() {
  tile.sched_group_barrier #tile.group<ds_read, 4>
  tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 1>] x 32
  return
}

func.func private @schedule_dp() {
  %d = tile.param @D : index
  %ktr = tile.param @K_TR : i1
  %c128 = arith.constant 128 : index
  %d128 = arith.cmpi eq, %d, %c128 : index
  scf.if %d128 {
    scf.if %ktr {
      tile.sched_group_barrier #tile.group<ds_read, 4>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 2>, #tile.group<ds_read, 1>] x 32
    } else {
      tile.sched_group_barrier #tile.group<ds_read, 4>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 1>, #tile.group<ds_read, 1>] x 32
    }
  } else {
    scf.if %ktr {
      tile.sched_group_barrier #tile.group<ds_read, 4>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 4>, #tile.group<ds_read, 1>] x 32
    } else {
      tile.sched_group_barrier #tile.group<ds_read, 4>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 2>, #tile.group<ds_read, 1>] x 32
    }
  }
  return
}

func.func private @schedule_dq() {
  %ktr = tile.param @K_TR : i1
  scf.if %ktr {
    tile.sched_group_barrier #tile.group<ds_read, 4>
    tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 2>] x 32
  } else {
    tile.sched_group_barrier #tile.group<ds_read, 2>
    tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 1>] x 32
  }
  return
}

// One key tile: dQ^T += K^T dS^T, in three clusters of MFMAs: S^T; dP^T
// with P's exponentials; dQ^T with dS's VALU work. Each is one scheduling
// region between s_setprio 1 and 0 (the mask's branch sits between the
// first two). `c` is scale * log2(e); `bias` is -LSE log2(e) per query (0
// for a query that sees no key, whose scores are all masked); `delta` is
// Delta per query.
func.func private @tile(%kl: !kl, %vl: !kl, %ktl: !ktl, %j: index, %q0: index,
                        %Sq: index, %Skv: index, %qt: !qt, %dot: !qt,
                        %c: f32, %bias: !row, %delta: !row, %dq: !o) -> !o {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %ktr = tile.param @K_TR : i1
  %z = tile.splat %zero : f32 -> !s
  tile.setprio 1
  %kf = tile.lds_load %kl[%c0][%c0, %c0] : !kl -> !kf
  %s = tile.mma %kf, %qt, %z : !kf, !qt -> !s
  func.call @schedule_s() : () -> ()
  tile.setprio 0
  %sm = func.call @mask(%s, %j, %q0, %Sq, %Skv) : (!s, index, index, index, index) -> !s
  tile.setprio 1
  %vf = tile.lds_load %vl[%c0][%c0, %c0] : !kl -> !kf
  %dpt = tile.mma %vf, %dot, %z : !kf, !qt -> !s
  %cs = tile.splat %c : f32 -> !s
  %bb = tile.broadcast %bias : !row -> !s
  %x = tile.fma %sm, %cs, %bb : !s
  %p = tile.exp2 %x : !s
  func.call @schedule_dp() : () -> ()
  tile.setprio 0
  tile.setprio 1
  %kt = scf.if %ktr -> !ktf {
    %t = tile.lds_load %kl[%c0][%c0, %c0] transpose : !kl -> !ktf
    scf.yield %t : !ktf
  } else {
    %t = tile.lds_load %ktl[%c0][%c0, %c0] : !ktl -> !ktf
    scf.yield %t : !ktf
  }
  %db = tile.broadcast %delta : !row -> !s
  %dd = tile.subf %dpt, %db : !s
  %ds = tile.mulf %p, %dd : !s
  %dsd = tile.convert %ds : !s -> !pa
  %dsb = tile.relayout %dsd : !pa -> !pb
  %r = tile.mma %kt, %dsb, %dq : !ktf, !pb -> !o
  func.call @schedule_dq() : () -> ()
  tile.setprio 0
  return %r : !o
}

func.func @fmha_bwd_dq(%q: !ptr, %k: !ptr, %v: !ptr, %do: !ptr, %dq: !ptr,
                       %stats: !fptr,
                       %Sq: index, %Skv: index, %H: index, %Hkv: index,
                       %q_b: index, %q_s: index, %q_h: index,
                       %k_b: index, %k_s: index, %k_h: index,
                       %v_b: index, %v_s: index, %v_h: index,
                       %do_b: index, %do_s: index, %do_h: index,
                       %dq_b: index, %dq_s: index, %dq_h: index,
                       %c: f32, %scale: f32)
    attributes {tile.kernel, tile.block_size = @BLOCK} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %d = tile.param @D : index
  %bn = tile.param @BN : index
  %block = tile.param @BLOCK : index
  %causal = tile.param @CAUSAL : i1

  // Causal: the last query blocks see the most keys, and go first (the
  // longest-first order balances the CUs' last round; it also lets the
  // timing model's steady state replay a full-length block).
  %bq0 = tile.program_id 0
  %nbq = tile.num_programs 0
  %nbq1 = arith.subi %nbq, %c1 : index
  %bqr = arith.subi %nbq1, %bq0 : index
  %bq = arith.select %causal, %bqr, %bq0 : index
  %h = tile.program_id 1
  %b = tile.program_id 2
  %waves = arith.divui %block, %c64 : index
  %wave = tile.wave_id
  %per_wg = arith.muli %waves, %c32 : index
  %qwg = arith.muli %bq, %per_wg : index
  %qw = arith.muli %wave, %c32 : index
  %q0 = arith.addi %qwg, %qw : index
  %group = arith.divui %H, %Hkv : index
  %hk = arith.divui %h, %group : index

  // Buffers over this batch and head, each ending at its last row.
  %sq1 = arith.subi %Sq, %c1 : index
  %skv1 = arith.subi %Skv, %c1 : index
  %qoff_b = arith.muli %b, %q_b : index
  %qoff_h = arith.muli %h, %q_h : index
  %qoff = arith.addi %qoff_b, %qoff_h : index
  %koff_b = arith.muli %b, %k_b : index
  %koff_h = arith.muli %hk, %k_h : index
  %koff = arith.addi %koff_b, %koff_h : index
  %voff_b = arith.muli %b, %v_b : index
  %voff_h = arith.muli %hk, %v_h : index
  %voff = arith.addi %voff_b, %voff_h : index
  %dooff_b = arith.muli %b, %do_b : index
  %dooff_h = arith.muli %h, %do_h : index
  %dooff = arith.addi %dooff_b, %dooff_h : index
  %dqoff_b = arith.muli %b, %dq_b : index
  %dqoff_h = arith.muli %h, %dq_h : index
  %dqoff = arith.addi %dqoff_b, %dqoff_h : index
  %qn0 = arith.muli %sq1, %q_s : index
  %qn = arith.addi %qn0, %d : index
  %kn0 = arith.muli %skv1, %k_s : index
  %kn = arith.addi %kn0, %d : index
  %vn0 = arith.muli %skv1, %v_s : index
  %vn = arith.addi %vn0, %d : index
  %don0 = arith.muli %sq1, %do_s : index
  %don = arith.addi %don0, %d : index
  %dqn0 = arith.muli %sq1, %dq_s : index
  %dqn = arith.addi %dqn0, %d : index
  %qp = tile.ptr_add %q, %qoff : !ptr
  %kp = tile.ptr_add %k, %koff : !ptr
  %vp = tile.ptr_add %v, %voff : !ptr
  %dop = tile.ptr_add %do, %dooff : !ptr
  %dqp = tile.ptr_add %dq, %dqoff : !ptr
  %qbuf = tile.make_buffer %qp, %qn : !ptr -> !buf
  %kbuf = tile.make_buffer %kp, %kn : !ptr -> !buf
  %vbuf = tile.make_buffer %vp, %vn : !ptr -> !buf
  %dobuf = tile.make_buffer %dop, %don : !ptr -> !buf
  %dqbuf = tile.make_buffer %dqp, %dqn : !ptr -> !buf
  %c2 = arith.constant 2 : index
  %bh0 = arith.muli %b, %H : index
  %bh = arith.addi %bh0, %h : index
  %soff0 = arith.muli %bh, %Sq : index
  %soff = arith.muli %soff0, %c2 : index
  %sp = tile.ptr_add %stats, %soff : !fptr
  %sn = arith.muli %Sq, %c2 : index
  %sbuf = tile.make_buffer %sp, %sn : !fptr -> !fbuf

  %kl = tile.lds_alloc "k" : !kl
  %vl = tile.lds_alloc "v" : !kl
  %ktl = tile.lds_alloc "kt" : !ktl

  // This wave's queries, loaded once: Q^T and dO^T as B operands, and the
  // per-query exponent bias and Delta (queries past S_q read as zero and
  // are never stored).
  %qt = tile.load %qbuf[%q0, %c0] stride %q_s bounds %Sq, %d transpose : !buf -> !qt
  %dot = tile.load %dobuf[%q0, %c0] stride %do_s bounds %Sq, %d transpose : !buf -> !qt
  %bias = tile.load %sbuf[%c0, %q0] stride %Sq bounds %c1, %Sq : !fbuf -> !row
  %delta_r = tile.load %sbuf[%c1, %q0] stride %Sq bounds %c2, %Sq : !fbuf -> !row

  // Key tiles to visit: all, or (causal) up to the one holding the last key
  // the workgroup's last query sees.
  %bn1 = arith.subi %bn, %c1 : index
  %skvb = arith.addi %Skv, %bn1 : index
  %ntiles = arith.divui %skvb, %bn : index
  %qwg_end = arith.addi %qwg, %per_wg : index
  %qlast0 = arith.minsi %qwg_end, %Sq : index
  %qlast = arith.subi %qlast0, %c1 : index
  %offs = arith.subi %Skv, %Sq : index
  %kmax = arith.addi %qlast, %offs : index
  %kmax_ok = arith.cmpi sge, %kmax, %c0 : index
  %kmax_t0 = arith.divsi %kmax, %bn : index
  %kmax_t = arith.addi %kmax_t0, %c1 : index
  %kmax_n = arith.select %kmax_ok, %kmax_t, %c0 : index
  %causal_n = arith.minsi %ntiles, %kmax_n : index
  %n = arith.select %causal, %causal_n, %ntiles : index

  // The next tile's rows of K and V are in flight from global memory while
  // the matrix cores work on this tile's (register double buffering: the
  // LDS tile is single, between two barriers).
  %dq0 = tile.splat %zero : f32 -> !o
  %k0, %v0 = func.call @load_kv(%kbuf, %vbuf, %c0, %Skv, %k_s, %v_s)
      : (!buf, !buf, index, index, index, index) -> (!kvreg, !kvreg)
  // Q^T, dO^T, the per-query terms and tile 0 have landed before the loop:
  // otherwise the wait-count pass, merging the loop's entry with its
  // back-edge (where only the prefetch is in flight), waits for every load
  // at the first MFMA of each iteration.
  tile.wait vmcnt(0)
  %acc:3 = scf.for %j = %c0 to %n step %c1 iter_args(%a = %dq0, %kr = %k0, %vr = %v0)
      -> (!o, !kvreg, !kvreg) {
    func.call @store_kv(%kr, %vr, %kl, %vl, %ktl) : (!kvreg, !kvreg, !kl, !kl, !ktl) -> ()
    tile.barrier
    %j1 = arith.addi %j, %c1 : index
    %more = arith.cmpi ult, %j1, %n : index
    %nk, %nv = scf.if %more -> (!kvreg, !kvreg) {
      %x, %y = func.call @load_kv(%kbuf, %vbuf, %j1, %Skv, %k_s, %v_s)
          : (!buf, !buf, index, index, index, index) -> (!kvreg, !kvreg)
      scf.yield %x, %y : !kvreg, !kvreg
    } else {
      scf.yield %kr, %vr : !kvreg, !kvreg
    }
    %a2 = func.call @tile(%kl, %vl, %ktl, %j, %q0, %Sq, %Skv, %qt, %dot, %c, %bias, %delta_r, %a)
        : (!kl, !kl, !ktl, index, index, index, index, !qt, !qt, f32, !row, !row, !o) -> !o
    // Every wave is done with the tile before the next one overwrites it.
    tile.barrier
    scf.yield %a2, %nk, %nv : !o, !kvreg, !kvreg
  }

  // dQ = scale dQ^T, stored transposed into dQ [S_q, D].
  %sc = tile.splat %scale : f32 -> !o
  %out = tile.mulf %acc#0, %sc : !o
  %outd = tile.convert %out : !o -> !ob
  tile.store %outd, %dqbuf[%q0, %c0] stride %dq_s bounds %Sq, %d transpose : !ob, !buf
  return
}
