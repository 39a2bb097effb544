// kcc FlashAttention forward: O = softmax(scale * Q K^T [+ causal mask]) V.
//
// Q, O [B, S_q, H, D]; K, V [B, S_kv, H_kv, D] (H a multiple of H_kv: MHA,
// GQA, MQA); strides in elements (batch, token, head) are arguments, the
// head dimension is contiguous. Optional log-sum-exp output
// LSE [B, H, S_q] (f32, natural log). Causal masking aligns the diagonal
// bottom-right: query i sees keys j <= i + (S_kv - S_q).
//
// The computation is transposed, as in AMD's hand-written MI355X kernels: a
// wave owns 32 queries and computes S^T = K Q^T (KV tokens down, its queries
// across), so that
//   - each lane holds one query column: the softmax reductions over keys are
//     a reduction within the lane's registers plus one exchange between the
//     two halves of the wave (v_permlane32_swap on gfx950);
//   - P^T is already the B operand of O^T = V^T P^T: an accumulator becomes
//     an MFMA operand by `tile.relayout` alone, with K (keys) taken in the
//     accumulator's row order (`k_from_acc`) on both operands.
// The softmax runs on exp2: the `scale` argument is scale * log2(e), applied
// in f32 by the one fma per score that also subtracts the maximum. Rows of a key tile are masked only on tiles that
// cross the diagonal or the end of the sequence; tiles entirely above the
// diagonal are never visited. Lazy rescale: the running maximum is only
// raised (and O, l rescaled) when it grew by more than 8 (a factor of 256 in
// exp2) in some lane; otherwise the stale maximum keeps P below 2^8.
//
// The key loop is software-pipelined inside each wave: while the matrix
// cores compute the scores of tile j+1 (cluster A), the VALU and
// transcendental units exponentiate those of tile j; while they accumulate
// O += P_j V_j (cluster B), the VALU finds the maxima of tile j+1. Each
// cluster is one scheduling region between s_setprio 2 (A) or 1 (B) and 0,
// interleaved by
// sched_group_barrier pairs (@schedule_a, @schedule_b); the lazy-rescale
// branch and the masking of diagonal tiles sit between clusters. A prologue
// computes the scores of tile 0, the last tile drains the pipeline.
//
// K and V tiles are double-buffered in LDS (ping a, pong b; one alias scope
// each) and filled by buffer_load ... lds DMA while the other buffer is
// used. With K_IMAGE and V_IMAGE (gfx950) each tile is stored in the order
// in which its MFMA operand reads it (`order` on the LDS type): every read
// is one contiguous line, free of bank conflicts, and every 16-byte DMA
// line (WIDE) fills one such read. Otherwise K rows are padded (PAD) and V
// rows (VPAD) so that the LDS reads are free of bank conflicts (the host
// picks per chip, see AttentionOp.cpp). V reaches the MFMA with K (keys)
// within lanes:
//   - V_TR: V is copied by DMA as [BN, D] and read with the transposing LDS
//     read ds_read_b64_tr_b16 (gfx950);
//   - otherwise each wave loads its rows of V into registers and stores them
//     transposed, as V^T [D, BN], from which plain ds_reads serve (gfx942).
// With STAGGER the workgroup's two wave groups run half a tile apart (one
// computes its softmax while the other keeps the matrix cores busy): the
// lagging group waits at one extra barrier before the loop, the leading
// group at one after, and only the leading group issues DMA, at points where
// both groups are done with the buffer it overwrites.
//
// Parameters: DTYPE (bf16, f16), D (64, 128), BN (keys per tile), BLOCK
// (work-items: 64 per wave, 32 queries per wave), CAUSAL, LSE_OUT, STAGGER,
// V_TR, LAZY, PAD, VPAD, VR/VC (V's LDS shape: BN x D with V_TR, else D x BN),
// VROWS (= BN / waves: the rows of V each wave moves without V_TR), K_REG
// (K through registers instead of DMA, so that rows shorter than a DMA line
// can be padded), KROWS (= BN / waves: the rows of K each wave moves with
// K_REG), PAIRS (each workgroup takes two query blocks, the longest and the
// shortest loop of a causal launch: the same work in every workgroup, so no
// round ends with a tail of long blocks), P_TIES_ANY (P's exact ties to bf16
// may round away from zero: `tile.convert ... ties_any`, cheaper on gfx942),
// K_IMAGE / V_IMAGE (K / V stored in its MFMA operand's reading order; PAD /
// VPAD 0), WIDE (16-byte DMA lanes, gfx950), ROLES (with STAGGER, the key
// loop compiled once per wave group's role, the leading group's with the
// DMA and the lagging group's without: no branches on the role in either),
// INTERIOR (the key tiles no wave of the workgroup masks, causal: below its
// diagonal, in a loop of their own before the others, with no mask, fetch
// or loop-end tests; see @loop).
// Launch: grid (nb = ceil(S_q / (32 * waves)), H, B), block BLOCK; with PAIRS
// grid.x = ceil(nb / 2).

tile.type_param_decl @DTYPE = bf16 of [bf16, f16]
tile.param_decl @D : i64 = 128
tile.param_decl @BN : i64 = 64 on {gfx942 = 32}
tile.param_decl @BLOCK : i64 = 512
tile.param_decl @CAUSAL : i1 = false
tile.param_decl @LSE_OUT : i1 = false
tile.param_decl @STAGGER : i1 = true
tile.param_decl @V_TR : i1 = true on {gfx942 = false}
tile.param_decl @LAZY : i1 = true
tile.param_decl @PAD : i64 = 8 on {gfx942 = 4}
tile.param_decl @VPAD : i64 = 0 on {gfx942 = 4}
tile.param_decl @VR : i64 = 64 on {gfx942 = 128}
tile.param_decl @VC : i64 = 128 on {gfx942 = 32}
tile.param_decl @VROWS : i64 = 8
tile.param_decl @K_REG : i1 = false
tile.param_decl @KROWS : i64 = 16
tile.param_decl @PAIRS : i1 = false
tile.param_decl @ROLES : i1 = false
tile.param_decl @INTERIOR : i1 = false
tile.param_decl @P_TIES_ANY : i1 = false
tile.param_decl @K_IMAGE : i1 = false
tile.param_decl @V_IMAGE : i1 = false
tile.param_decl @WIDE : i1 = false

// The register tiles of one wave, and K and V tiles in LDS: with K_IMAGE
// (V_IMAGE) stored in the order in which the MFMA operands read them (one
// contiguous line per read, no bank conflicts, the 16-byte DMA's lines),
// else row-major with padded rows.
!qt = !tile.tile<[D, 32], !tile.dtype<"DTYPE">, #tile.mfma<b>>
!kf = !tile.tile<[BN, D], !tile.dtype<"DTYPE">, #tile.mfma<a>>
!vf = !tile.tile<[D, BN], !tile.dtype<"DTYPE">, #tile.mfma<a, k_from_acc>>
!kl = !tile.lds<[BN, D], !tile.dtype<"DTYPE">, pad = PAD, order = !kf if K_IMAGE>
!vl = !tile.lds<[VR, VC], !tile.dtype<"DTYPE">, pad = VPAD, order = transpose !vf if V_IMAGE>
!buf = !tile.buffer<!tile.dtype<"DTYPE">>
!ptr = !tile.ptr<!tile.dtype<"DTYPE">>
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
// V through registers (without V_TR): each lane holds 4 rows x 2 columns, so
// that it loads 4 bytes per row and stores each column's 4 rows as one
// 8-byte write into V^T. With one column per lane the loads were 2 bytes
// each (16 per wave, each with its own bounds check) and the repacking of
// their halves sat right after them, waiting for the loads before the
// matrix work (timing model, gfx942 S = 16384: 684.5 -> 712.2 TFLOPS at
// D = 128, 508.0 -> 605.1 at D = 64).
!vreg = !tile.tile<[VROWS, D], !tile.dtype<"DTYPE">, #tile.blocked<[4, 2], [2, 32]>>
!kreg = !tile.tile<[KROWS, D], !tile.dtype<"DTYPE">, #tile.blocked<[1, 8], [8, 8]>>

// Starts moving key tile `j` into `kb`: DMA shared by the first `issuers`
// waves.
func.func private @fetch_k(%kbuf: !buf, %kb: !kl, %j: index, %Skv: index,
                           %ks: index, %issuers: index) {
  %c0 = arith.constant 0 : index
  %bn = tile.param @BN : index
  %r = arith.muli %j, %bn : index
  // With K_REG K moves through registers instead (@load_k, @store_k), so
  // that its LDS rows may be padded even when they are shorter than the
  // DMA's 256-byte lines (D = 64).
  %kreg = tile.param @K_REG : i1
  %true = arith.constant true
  %dma = arith.xori %kreg, %true : i1
  // 16-byte DMA lanes with WIDE (gfx950), else 4; `inbounds` when the
  // tile lies wholly inside the keys, so that the lines' rows go in scalar
  // offsets (no vector add a line, which waits behind the other wave
  // group's exponentials for a VALU slot). Otherwise (the last tile of a
  // sequence whose length BN does not divide) the rows past the keys need
  // no bounds: the buffer ends at the last key's last element, so the
  // hardware's range check returns zeros.
  %wide = tile.param @WIDE : i1
  %rend = arith.addi %r, %bn : index
  %inside = arith.cmpi ule, %rend, %Skv : index
  scf.if %dma {
    scf.if %inside {
      scf.if %wide {
        tile.async_copy inbounds %kbuf[%r, %c0] stride %ks -> %kb[%c0] waves %issuers {width = 16 : i64} : !buf, !kl
      } else {
        tile.async_copy inbounds %kbuf[%r, %c0] stride %ks -> %kb[%c0] waves %issuers : !buf, !kl
      }
    } else {
      scf.if %wide {
        tile.async_copy %kbuf[%r, %c0] stride %ks -> %kb[%c0] waves %issuers {width = 16 : i64} : !buf, !kl
      } else {
        tile.async_copy %kbuf[%r, %c0] stride %ks -> %kb[%c0] waves %issuers : !buf, !kl
      }
    }
  }
  return
}

// This wave's KROWS rows of key tile `j`, into registers (K_REG); rows past
// the keys read as zero.
func.func private @load_k(%kbuf: !buf, %j: index, %Skv: index, %ks: index) -> !kreg {
  %c0 = arith.constant 0 : index
  %bn = tile.param @BN : index
  %d = tile.param @D : index
  %krows = tile.param @KROWS : index
  %wave = tile.wave_id
  %r0 = arith.muli %j, %bn : index
  %rw = arith.muli %wave, %krows : index
  %r = arith.addi %r0, %rw : index
  %k = tile.load %kbuf[%r, %c0] stride %ks bounds %Skv, %d : !buf -> !kreg
  return %k : !kreg
}

// Stores this wave's rows of a key tile into its LDS buffer (K_REG).
func.func private @store_k(%k: !kreg, %kb: !kl) {
  %c0 = arith.constant 0 : index
  %krows = tile.param @KROWS : index
  %wave = tile.wave_id
  %row = arith.muli %wave, %krows : index
  tile.lds_store %k, %kb[%c0][%row, %c0] : !kreg, !kl
  return
}

// Starts moving value tile `j` into `vb` by DMA (V_TR only).
func.func private @fetch_v(%vbuf: !buf, %vb: !vl, %j: index, %Skv: index,
                           %vs: index, %issuers: index) {
  %c0 = arith.constant 0 : index
  %bn = tile.param @BN : index
  %r = arith.muli %j, %bn : index
  // Only V_TR copies V by DMA; without it V's LDS rows are D x BN, padded
  // freely (VPAD), which the DMA's 256-byte lines could not fill.
  %vtr = tile.param @V_TR : i1
  // As K's (@fetch_k).
  %wide = tile.param @WIDE : i1
  %rend = arith.addi %r, %bn : index
  %inside = arith.cmpi ule, %rend, %Skv : index
  scf.if %vtr {
    scf.if %inside {
      scf.if %wide {
        tile.async_copy inbounds %vbuf[%r, %c0] stride %vs -> %vb[%c0] waves %issuers {width = 16 : i64} : !buf, !vl
      } else {
        tile.async_copy inbounds %vbuf[%r, %c0] stride %vs -> %vb[%c0] waves %issuers : !buf, !vl
      }
    } else {
      scf.if %wide {
        tile.async_copy %vbuf[%r, %c0] stride %vs -> %vb[%c0] waves %issuers {width = 16 : i64} : !buf, !vl
      } else {
        tile.async_copy %vbuf[%r, %c0] stride %vs -> %vb[%c0] waves %issuers : !buf, !vl
      }
    }
  }
  return
}

// This wave's rows of value tile `j`, into registers (without V_TR).
func.func private @load_v(%vbuf: !buf, %j: index, %Skv: index, %vs: index) -> !vreg {
  %c0 = arith.constant 0 : index
  %bn = tile.param @BN : index
  %d = tile.param @D : index
  %vrows = tile.param @VROWS : index
  %wave = tile.wave_id
  %r0 = arith.muli %j, %bn : index
  %rw = arith.muli %wave, %vrows : index
  %r = arith.addi %r0, %rw : index
  %v = tile.load %vbuf[%r, %c0] stride %vs bounds %Skv, %d : !buf -> !vreg
  return %v : !vreg
}

// Stores this wave's rows of a value tile transposed: V^T [D, BN] in LDS.
func.func private @store_vt(%v: !vreg, %vb: !vl) {
  %c0 = arith.constant 0 : index
  %vrows = tile.param @VROWS : index
  %wave = tile.wave_id
  %col = arith.muli %wave, %vrows : index
  tile.lds_store %v, %vb[%c0][%c0, %col] transpose : !vreg, !vl
  return
}

// S^T = K Q^T for the key tile in `kb` (unmasked).
func.func private @scores(%kb: !kl, %qt: !qt) -> !s {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %kf = tile.lds_load %kb[%c0][%c0, %c0] : !kl -> !kf
  %z = tile.splat %zero : f32 -> !s
  %s = tile.mma %kf, %qt, %z : !kf, !qt -> !s
  return %s : !s
}

// Masks the scores of key tile `j` where it crosses the diagonal or the end
// of the keys (a wave-uniform decision; other tiles pass through).
func.func private @mask(%s: !s, %j: index, %q0: index, %Sq: index, %Skv: index) -> !s {
  %c1 = arith.constant 1 : index
  %ninf = arith.constant 0xFF800000 : f32
  %bn = tile.param @BN : index
  %causal = tile.param @CAUSAL : i1
  // Keys k0 .. k0 + BN - 1 against queries q0 .. q0 + 31, which see keys up
  // to q + (S_kv - S_q).
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
    // Key row r of the tile is visible to query column c when
    // r <= limit(c) = min(q0 + c + (S_kv - S_q) - k0, S_kv - 1 - k0): one
    // limit per column (a register per lane), one compare per score, so no
    // [BN, 32] index tile stays live next to S and O.
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

// The first half of the online softmax of a tile of raw scores s (scale not
// applied): the new maximum mn per column, and whether O and l must be
// rescaled to it. `c` is scale * log2(e). Lazy rescale: only when the
// maximum grew by more than 8 (a factor of 256 in exp2) in some lane;
// otherwise the stale maximum keeps P below 2^8.
func.func private @grow(%s: !s, %c: f32, %m: !row) -> (!row, i1) {
  %eight = arith.constant 8.0 : f32
  %true = arith.constant true
  %lazy = tile.param @LAZY : i1
  %ct = tile.splat %c : f32 -> !row
  %mt = tile.reduce_max %s dim 0 : !s -> !row
  %mn = tile.maxf %m, %mt : !row
  %diff = tile.subf %mn, %m : !row
  %grow = tile.mulf %diff, %ct : !row
  %thr = tile.splat %eight : f32 -> !row
  // NaN (no key seen yet in a column) compares false: nothing to rescale.
  %grew = tile.cmpf ogt, %grow, %thr : !row -> !rowm
  %any = tile.any %grew : !rowm
  %notlazy = arith.xori %lazy, %true : i1
  %rescale = arith.ori %any, %notlazy : i1
  return %mn, %rescale : !row, i1
}

// Raises the running maximum m to mn, rescaling l and O, when `rescale`.
func.func private @rescale(%rescale: i1, %c: f32, %m: !row, %mn: !row, %l: !row, %o: !o)
    -> (!row, !row, !o) {
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %res:3 = scf.if %rescale -> (!row, !row, !o) {
    // corr = 2^(c (m_old - m_new)); 1 where no key is seen yet (both -inf).
    %ct = tile.splat %c : f32 -> !row
    %ninft = tile.splat %ninf : f32 -> !row
    %onet = tile.splat %one : f32 -> !row
    %dm = tile.subf %m, %mn : !row
    %dmc = tile.mulf %dm, %ct : !row
    %e = tile.exp2 %dmc : !row
    %none = tile.cmpf oeq, %mn, %ninft : !row -> !rowm
    %corr = tile.select %none, %onet, %e : !rowm, !row
    %cb = tile.broadcast %corr : !row -> !o
    %o2 = tile.mulf %o, %cb : !o
    %l2 = tile.mulf %l, %corr : !row
    scf.yield %mn, %l2, %o2 : !row, !row, !o
  } else {
    scf.yield %m, %l, %o : !row, !row, !o
  }
  return %res#0, %res#1, %res#2 : !row, !row, !o
}

// The second half: P^T = 2^(c s - c m) (one fma and one exp2 per score) as
// the B operand of the next MFMA, and its column sums.
func.func private @exp_scores(%s: !s, %c: f32, %m: !row) -> (!pb, !row) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  // m = -inf is read as 0 (the column's scores are -inf too).
  %ninft = tile.splat %ninf : f32 -> !row
  %zt = tile.splat %zero : f32 -> !row
  %unseen = tile.cmpf oeq, %m, %ninft : !row -> !rowm
  %msafe = tile.select %unseen, %zt, %m : !rowm, !row
  %negc = arith.negf %c : f32
  %negct = tile.splat %negc : f32 -> !row
  %mneg = tile.mulf %msafe, %negct : !row
  %mb = tile.broadcast %mneg : !row -> !s
  %cs = tile.splat %c : f32 -> !s
  %x = tile.fma %s, %cs, %mb : !s
  %p = tile.exp2 %x : !s
  %ps = tile.reduce_sum %p dim 0 : !s -> !row
  // P comes from exp2: no signalling NaN, so the rounding to bf16 needs no
  // NaN check (gfx942 rounds in integer arithmetic). P_TIES_ANY lets exact
  // ties round away from zero there (one add per element instead of two).
  %ties_any = tile.param @P_TIES_ANY : i1
  %pd = scf.if %ties_any -> !pa {
    %t = tile.convert %p fast_rounding ties_any : !s -> !pa
    scf.yield %t : !pa
  } else {
    %t = tile.convert %p fast_rounding : !s -> !pa
    scf.yield %t : !pa
  }
  %pb = tile.relayout %pd : !pa -> !pb
  return %pb, %ps : !pb, !row
}

// O^T += V^T P^T from one value buffer.
func.func private @accumulate(%vb: !vl, %p: !pb, %o: !o) -> !o {
  %c0 = arith.constant 0 : index
  %vtr = tile.param @V_TR : i1
  %vf = scf.if %vtr -> !vf {
    %t = tile.lds_load %vb[%c0][%c0, %c0] transpose : !vl -> !vf
    scf.yield %t : !vf
  } else {
    %t = tile.lds_load %vb[%c0][%c0, %c0] : !vl -> !vf
    scf.yield %t : !vf
  }
  %r = tile.mma %vf, %p, %o : !vf, !pb -> !o
  return %r : !o
}

// The interleaving of the clusters, as sched_group_barrier pairs (the
// scheduler fills the groups from the instructions above the call). Each
// cluster has (BN / 32) (D / K) MFMAs, D / 8 in every configuration the host
// picks, K being the chip's MFMA depth: 16 on gfx950, which also has V_TR,
// and 8 on gfx942. The LDS reads run a few MFMAs ahead of their use (a first
// group of reads, then one group per MFMA), so that the LDS latency hides
// under the MFMAs between; pinning them there also keeps the scheduler from
// hoisting all of them, which costs registers the 2-waves-per-SIMD budget
// does not have. The depths were tuned on the timing model (kcc run
// --timing): deeper spills on gfx950.
//  - Cluster A: per MFMA the exponentials of BN / 2 scores spread evenly
//    (16 K / D per MFMA) and one read of K for a later MFMA. The VALU work
//    (fma, sums, conversions) fills the remaining issue slots on its own:
//    adding VALU groups to the pattern measured 25-40% slower on the timing
//    model (the solver splits the fma -> exp chains across MFMAs).
func.func private @schedule_a() {
  %d = tile.param @D : index
  %vtr = tile.param @V_TR : i1
  %c128 = arith.constant 128 : index
  %d128 = arith.cmpi eq, %d, %c128 : index
  %bn = tile.param @BN : index
  %c64 = arith.constant 64 : index
  %bn64 = arith.cmpi eq, %bn, %c64 : index
  scf.if %d128 {
    scf.if %vtr {
      tile.sched_group_barrier #tile.group<ds_read, 3>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 2>, #tile.group<ds_read, 1>] x 16
    } else {
      tile.sched_group_barrier #tile.group<ds_read, 2>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 1>, #tile.group<ds_read, 1>] x 16
    }
  } else {
    scf.if %vtr {
      tile.sched_group_barrier #tile.group<ds_read, 2>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 4>, #tile.group<ds_read, 1>] x 8
    } else {
      tile.sched_group_barrier #tile.group<ds_read, 2>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 2>, #tile.group<ds_read, 1>] x 8
      // 64-key tiles: twice the MFMAs, the pattern once more.
      scf.if %bn64 {
        tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 2>, #tile.group<ds_read, 1>] x 8
      }
    }
  }
  return
}

//  - Cluster B: per MFMA the reads of V^T that feed a later one: two
//    transposing reads of 4 elements for K = 16 (V_TR), one 4-element read
//    for K = 8.
func.func private @schedule_b() {
  %d = tile.param @D : index
  %vtr = tile.param @V_TR : i1
  %c128 = arith.constant 128 : index
  %d128 = arith.cmpi eq, %d, %c128 : index
  %bn = tile.param @BN : index
  %c64 = arith.constant 64 : index
  %bn64 = arith.cmpi eq, %bn, %c64 : index
  scf.if %d128 {
    scf.if %vtr {
      tile.sched_group_barrier #tile.group<ds_read, 6>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 2>] x 16
    } else {
      tile.sched_group_barrier #tile.group<ds_read, 2>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 1>] x 16
    }
  } else {
    scf.if %vtr {
      tile.sched_group_barrier #tile.group<ds_read, 4>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 2>] x 8
    } else {
      tile.sched_group_barrier #tile.group<ds_read, 2>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 1>] x 8
      // 64-key tiles: twice the MFMAs, the pattern once more.
      scf.if %bn64 {
        tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 1>] x 8
      }
    }
  }
  return
}

// One key tile j of the software-pipelined loop (j + 1 < n). On entry the
// masked scores S_j, the maximum m they are exponentiated against, and O
// and l scaled to m are ready; K j+1 is in `kn` and V j in `vc`.
//  - Cluster A: the matrix cores compute S_{j+1} = K_{j+1} Q^T while the
//    VALU and transcendental units exponentiate S_j.
//  - Cluster B: the matrix cores accumulate O^T += V_j^T P_j^T while the
//    VALU finds S_{j+1}'s column maxima.
// Meanwhile K j+2 moves into `kf` (free: K j was read by the previous
// step's cluster A) and, after barrier X, V j+1 into `vn` (free: V j-1 was
// read by the previous step's cluster B). Barrier X also publishes V j,
// barrier Y K j+2. With a stagger the other wave group is half a step
// behind: its cluster B runs against this group's cluster A.
func.func private @step(%kbuf: !buf, %vbuf: !buf, %kn: !kl, %kf: !kl, %vc: !vl, %vn: !vl,
                        %j: index, %n: index, %qt: !qt, %q0: index,
                        %Sq: index, %Skv: index, %ks: index, %vs: index,
                        %issuer: i1, %edge: i1, %issuers: index, %nk: index, %nv: index,
                        %scale: f32, %s: !s, %m: !row, %l: !row, %o: !o)
    -> (!s, !row, !row, !o) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %true = arith.constant true
  %vtr = tile.param @V_TR : i1
  %j1 = arith.addi %j, %c1 : index
  %j2 = arith.addi %j, %c2 : index
  %has2e = arith.cmpi ult, %j2, %n : index
  %has2 = arith.select %edge, %has2e, %true : i1
  %fetch = arith.andi %issuer, %has2 : i1
  // Raised priority from here on gfx950 (V_TR) and from barrier X on
  // gfx942 (below): the DMA issue's (or V's stores') VALU then no longer
  // waits behind the other group's cluster at priority 1 (timing model,
  // S = 16384: gfx950 1412.9 -> 1419.0 TFLOPS, gfx942 718.1 -> 722.1; each
  // measured slower on the other chip).
  scf.if %vtr {
    tile.setprio 1
  }
  scf.if %fetch {
    func.call @fetch_k(%kbuf, %kf, %j2, %Skv, %ks, %issuers) : (!buf, !kl, index, index, index, index) -> ()
  }
  // With K_REG every wave loads its rows of K j+2 now and stores them after
  // cluster A (K j's buffer has been free since the previous barrier Y).
  %kreg = tile.param @K_REG : i1
  %kload0 = arith.andi %kreg, %has2 : i1
  %kload = arith.andi %kload0, %issuer : i1
  %knext = scf.if %kload -> !kreg {
    %k = func.call @load_k(%kbuf, %j2, %Skv, %ks) : (!buf, index, index, index) -> !kreg
    scf.yield %k : !kreg
  } else {
    // Not read on this path (stored under the same condition).
    %k = tile.undef : !kreg
    scf.yield %k : !kreg
  }
  // Without V_TR every wave moves its rows of V j+1 through registers:
  // loaded now, stored transposed once V j-1's buffer is free.
  // With a stagger only the leading group moves V (as it issues the DMA),
  // at points where both groups are done with the buffer.
  %stagger = tile.param @STAGGER : i1
  %novtr = arith.xori %vtr, %true : i1
  %nostagger = arith.xori %stagger, %true : i1
  %mover = arith.ori %nostagger, %issuer : i1
  %vload = arith.andi %novtr, %mover : i1
  %vnext = scf.if %vload -> !vreg {
    %v = func.call @load_v(%vbuf, %j1, %Skv, %vs) : (!buf, index, index, index) -> !vreg
    scf.yield %v : !vreg
  } else {
    // Not read on this path (stored under the same condition).
    %v = tile.undef : !vreg
    scf.yield %v : !vreg
  }

  // Cluster A: the MFMAs of S_{j+1} with the exponentials of S_j and the
  // LDS reads of K j+1 between them. At priority 2, above the other
  // group's cluster B: a wave issues in order, so this cluster's
  // exponentials wait behind its MFMAs, and an MFMA that lost the pipe to
  // the other group held them up until that group's cluster ended, leaving
  // a tail of exponentials with the matrix core half idle (timing model,
  // S = 16384: gfx950 1428.3 -> 1444.7 TFLOPS, causal 1408.7 with both;
  // gfx942 721.8 -> 723.1, causal 708.7 -> 711.4).
  tile.setprio 2
  %sn = func.call @scores(%kn, %qt) : (!kl, !qt) -> !s
  %p, %ps = func.call @exp_scores(%s, %scale, %m) : (!s, f32, !row) -> (!pb, !row)
  func.call @schedule_a() : () -> ()
  tile.setprio 0
  %l1 = tile.addf %l, %ps : !row
  scf.if %kload {
    func.call @store_k(%knext, %kf) : (!kreg, !kl) -> ()
  }

  // V j (DMA issued during the previous step) must have landed; K j+2 may
  // not have yet.
  %vwait = arith.andi %issuer, %vtr : i1
  scf.if %vwait {
    scf.if %fetch {
      tile.wait_vmcnt %nk
    } else {
      tile.wait vmcnt(0)
    }
  }
  tile.barrier
  %vdma = arith.andi %issuer, %vtr : i1
  scf.if %novtr {
    tile.setprio 1
  }
  scf.if %vdma {
    func.call @fetch_v(%vbuf, %vn, %j1, %Skv, %vs, %issuers) : (!buf, !vl, index, index, index, index) -> ()
  }
  scf.if %vload {
    func.call @store_vt(%vnext, %vn) : (!vreg, !vl) -> ()
  }
  %snm = scf.if %edge -> !s {
    %x = func.call @mask(%sn, %j1, %q0, %Sq, %Skv) : (!s, index, index, index, index) -> !s
    scf.yield %x : !s
  } else {
    scf.yield %sn : !s
  }

  // Cluster B: per MFMA of O^T, two LDS reads of V j and a share of S_{j+1}'s
  // maxima.
  tile.setprio 1
  %o1 = func.call @accumulate(%vc, %p, %o) : (!vl, !pb, !o) -> !o
  %mn, %rescale = func.call @grow(%snm, %scale, %m) : (!s, f32, !row) -> (!row, i1)
  func.call @schedule_b() : () -> ()
  tile.setprio 0
  %m2, %l2, %o2 = func.call @rescale(%rescale, %scale, %m, %mn, %l1, %o1)
      : (i1, f32, !row, !row, !row, !o) -> (!row, !row, !o)

  // K j+2 must have landed; V j+1 may not have yet.
  scf.if %issuer {
    scf.if %vdma {
      tile.wait_vmcnt %nv
    } else {
      tile.wait vmcnt(0)
    }
  }
  tile.barrier
  return %snm, %m2, %l2, %o2 : !s, !row, !row, !o
}

// The last key tile drains the pipeline: its exponentials, then (after
// barrier X publishes V) its accumulation, with nothing left to overlap.
func.func private @last(%vc: !vl, %issuer: i1, %scale: f32, %s: !s, %m: !row, %l: !row, %o: !o)
    -> (!row, !row, !o) {
  %vtr = tile.param @V_TR : i1
  %p, %ps = func.call @exp_scores(%s, %scale, %m) : (!s, f32, !row) -> (!pb, !row)
  %l1 = tile.addf %l, %ps : !row
  %vwait = arith.andi %issuer, %vtr : i1
  scf.if %vwait {
    tile.wait vmcnt(0)
  }
  tile.barrier
  tile.setprio 1
  %o1 = func.call @accumulate(%vc, %p, %o) : (!vl, !pb, !o) -> !o
  tile.setprio 0
  return %m, %l1, %o1 : !row, !row, !o
}

func.func @fmha_fwd(%q: !ptr, %k: !ptr, %v: !ptr, %o: !ptr, %lse: !tile.ptr<f32>,
                    %Sq: index, %Skv: index, %H: index, %Hkv: index,
                    %q_b: index, %q_s: index, %q_h: index,
                    %k_b: index, %k_s: index, %k_h: index,
                    %v_b: index, %v_s: index, %v_h: index,
                    %o_b: index, %o_s: index, %o_h: index,
                    %scale: f32)
    attributes {tile.kernel, tile.block_size = @BLOCK} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %block = tile.param @BLOCK : index
  %pairs = tile.param @PAIRS : i1
  %x = tile.program_id 0
  %h = tile.program_id 1
  %b = tile.program_id 2
  // With PAIRS workgroup x takes query blocks nb - 1 - x (the longest loop
  // first) and x, so that every workgroup of a causal launch visits the same
  // number of key tiles; block (nb - 1) / 2 of an odd nb is alone.
  %waves = arith.divui %block, %c64 : index
  %per_wg = arith.muli %waves, %c32 : index
  %per_wg1 = arith.subi %per_wg, %c1 : index
  %sqb = arith.addi %Sq, %per_wg1 : index
  %nb = arith.divui %sqb, %per_wg : index
  %nb1 = arith.subi %nb, %c1 : index
  %far = arith.subi %nb1, %x : index
  %distinct = arith.cmpi sgt, %far, %x : index
  %same = arith.cmpi eq, %far, %x : index
  %one_or_none = arith.select %same, %c1, %c0 : index
  %paired = arith.select %distinct, %c2, %one_or_none : index
  %blocks = arith.select %pairs, %paired, %c1 : index
  %first = arith.select %pairs, %far, %x : index

  // Buffers over this batch and head, the same for both query blocks.
  %d = tile.param @D : index
  %group = arith.divui %H, %Hkv : index
  %hk = arith.divui %h, %group : index
  %qoff_b = arith.muli %b, %q_b : index
  %qoff_h = arith.muli %h, %q_h : index
  %qoff = arith.addi %qoff_b, %qoff_h : index
  %koff_b = arith.muli %b, %k_b : index
  %koff_h = arith.muli %hk, %k_h : index
  %koff = arith.addi %koff_b, %koff_h : index
  %voff_b = arith.muli %b, %v_b : index
  %voff_h = arith.muli %hk, %v_h : index
  %voff = arith.addi %voff_b, %voff_h : index
  %ooff_b = arith.muli %b, %o_b : index
  %ooff_h = arith.muli %h, %o_h : index
  %ooff = arith.addi %ooff_b, %ooff_h : index
  %sq1 = arith.subi %Sq, %c1 : index
  %skv1 = arith.subi %Skv, %c1 : index
  %qn0 = arith.muli %sq1, %q_s : index
  %qn = arith.addi %qn0, %d : index
  %kn0 = arith.muli %skv1, %k_s : index
  %kn = arith.addi %kn0, %d : index
  %vn0 = arith.muli %skv1, %v_s : index
  %vn = arith.addi %vn0, %d : index
  %on0 = arith.muli %sq1, %o_s : index
  %on = arith.addi %on0, %d : index
  %qp = tile.ptr_add %q, %qoff : !ptr
  %kp = tile.ptr_add %k, %koff : !ptr
  %vp = tile.ptr_add %v, %voff : !ptr
  %op = tile.ptr_add %o, %ooff : !ptr
  %qbuf = tile.make_buffer %qp, %qn : !ptr -> !buf
  %kbuf = tile.make_buffer %kp, %kn : !ptr -> !buf
  %vbuf = tile.make_buffer %vp, %vn : !ptr -> !buf
  %obuf = tile.make_buffer %op, %on : !ptr -> !buf

  // K and V tiles, double-buffered: one set for both query blocks.
  %ka = tile.lds_alloc "k_ping" : !kl
  %va = tile.lds_alloc "v_ping" : !vl
  %kb = tile.lds_alloc "k_pong" : !kl
  %vb = tile.lds_alloc "v_pong" : !vl

  // Two calls rather than a loop over the blocks: a loop would let LICM
  // hoist the epilogue's and prologue's invariant scalars above it, live
  // through the key loop (80 SGPRs spilled on gfx950).
  %any = arith.cmpi ugt, %blocks, %c0 : index
  scf.if %any {
    func.call @query_block(%qbuf, %kbuf, %vbuf, %obuf, %lse, %Sq, %Skv, %H, %q_s, %k_s,
                           %v_s, %o_s, %scale, %first, %h, %b, %ka, %va, %kb, %vb)
        : (!buf, !buf, !buf, !buf, !tile.ptr<f32>, index, index, index, index, index,
           index, index, f32, index, index, index, !kl, !vl, !kl, !vl) -> ()
  }
  %two = arith.cmpi ugt, %blocks, %c1 : index
  scf.if %two {
    // The first block's last reads of K and V are done before this block's
    // prologue refills their buffers.
    tile.barrier
    func.call @query_block(%qbuf, %kbuf, %vbuf, %obuf, %lse, %Sq, %Skv, %H, %q_s, %k_s,
                           %v_s, %o_s, %scale, %x, %h, %b, %ka, %va, %kb, %vb)
        : (!buf, !buf, !buf, !buf, !tile.ptr<f32>, index, index, index, index, index,
           index, index, f32, index, index, index, !kl, !vl, !kl, !vl) -> ()
  }
  return
}

// Query block `bq` (32 queries per wave) of head `h` of batch `b`.
func.func private @query_block(%qbuf: !buf, %kbuf: !buf, %vbuf: !buf, %obuf: !buf,
                               %lse: !tile.ptr<f32>, %Sq: index, %Skv: index, %H: index,
                               %q_s: index, %k_s: index, %v_s: index, %o_s: index,
                               %scale: f32, %bq: index, %h: index, %b: index,
                               %ka: !kl, %va: !vl, %kb: !kl, %vb: !vl) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ln2 = arith.constant 0.693147182 : f32
  %d = tile.param @D : index
  %bn = tile.param @BN : index
  %block = tile.param @BLOCK : index
  %causal = tile.param @CAUSAL : i1
  %lse_out = tile.param @LSE_OUT : i1
  %stagger = tile.param @STAGGER : i1
  %vtr = tile.param @V_TR : i1

  // Which queries.
  %waves = arith.divui %block, %c64 : index
  %wave = tile.wave_id
  %per_wg = arith.muli %waves, %c32 : index
  %qwg = arith.muli %bq, %per_wg : index
  %qw = arith.muli %wave, %c32 : index
  %q0 = arith.addi %qwg, %qw : index

  // Q^T, loaded once. The scale is applied in f32 inside the softmax's fma:
  // rounding a pre-scaled Q back to bf16 would cost the log-sum-exp output
  // about 2e-3 of accuracy, for no fewer instructions.
  %qt = tile.load %qbuf[%q0, %c0] stride %q_s bounds %Sq, %d transpose : !buf -> !qt

  // Key tiles to visit: all of them, or (causal) up to the one holding the
  // last key the workgroup's last query sees.
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
  // Leading tiles that no wave of the workgroup masks for the diagonal:
  // causal, those below the workgroup's first query's,
  // (t + 1) BN - 1 <= qwg + S_kv - S_q; all of them otherwise. (The last
  // tile, the one that may be short, is never run as an interior tile: see
  // @loop.)
  %qsee0 = arith.addi %qwg, %offs : index
  %qsee1 = arith.addi %qsee0, %c1 : index
  %below0 = arith.divsi %qsee1, %bn : index
  %below = arith.maxsi %below0, %c0 : index
  %nfree = arith.select %causal, %below, %n : index

  // The waves that issue DMA: the leading group of a stagger, else all.
  %half = arith.divui %waves, %c2 : index
  %issuers = arith.select %stagger, %half, %waves : index
  %lagging = arith.cmpi uge, %wave, %half : index
  %is_lead = arith.cmpi ult, %wave, %issuers : index
  // DMA instructions per issuing wave for one K and one V tile.
  %dbytes = arith.muli %d, %c2 : index
  %tile_bytes = arith.muli %bn, %dbytes : index
  %wide = tile.param @WIDE : i1
  %c1024 = arith.constant 1024 : index
  %line_bytes = arith.select %wide, %c1024, %c256 : index
  %tile_lines = arith.divui %tile_bytes, %line_bytes : index
  %ndma = arith.divui %tile_lines, %issuers : index
  %kreg_n = tile.param @K_REG : i1
  %nk = arith.select %kreg_n, %c0, %ndma : index
  %nv = arith.select %vtr, %ndma, %c0 : index

  // Prologue: key tiles 0 and 1 and value tile 0 into LDS.
  %has0 = arith.cmpi ult, %c0, %n : index
  %has1 = arith.cmpi ult, %c1, %n : index
  %fetch0 = arith.andi %has0, %is_lead : i1
  scf.if %fetch0 {
    func.call @fetch_k(%kbuf, %ka, %c0, %Skv, %k_s, %issuers) : (!buf, !kl, index, index, index, index) -> ()
    scf.if %vtr {
      func.call @fetch_v(%vbuf, %va, %c0, %Skv, %v_s, %issuers) : (!buf, !vl, index, index, index, index) -> ()
    }
  }
  %fetch1 = arith.andi %has1, %is_lead : i1
  scf.if %fetch1 {
    func.call @fetch_k(%kbuf, %kb, %c1, %Skv, %k_s, %issuers) : (!buf, !kl, index, index, index, index) -> ()
  }
  %true = arith.constant true
  %novtr0 = arith.xori %vtr, %true : i1
  %kreg0 = tile.param @K_REG : i1
  %kreg0b = arith.andi %kreg0, %has0 : i1
  %kreg0a = arith.andi %kreg0b, %is_lead : i1
  scf.if %kreg0a {
    %k0 = func.call @load_k(%kbuf, %c0, %Skv, %k_s) : (!buf, index, index, index) -> !kreg
    func.call @store_k(%k0, %ka) : (!kreg, !kl) -> ()
  }
  %kreg1b = arith.andi %kreg0, %has1 : i1
  %kreg1a = arith.andi %kreg1b, %is_lead : i1
  scf.if %kreg1a {
    %k1 = func.call @load_k(%kbuf, %c1, %Skv, %k_s) : (!buf, index, index, index) -> !kreg
    func.call @store_k(%k1, %kb) : (!kreg, !kl) -> ()
  }
  %vreg00 = arith.andi %has0, %novtr0 : i1
  %vreg0 = arith.andi %vreg00, %is_lead : i1
  scf.if %vreg0 {
    %v0 = func.call @load_v(%vbuf, %c0, %Skv, %v_s) : (!buf, index, index, index) -> !vreg
    func.call @store_vt(%v0, %va) : (!vreg, !vl) -> ()
  }
  tile.wait vmcnt(0)
  tile.barrier

  %m0 = tile.splat %ninf : f32 -> !row
  %l0 = tile.splat %zero : f32 -> !row
  %o0 = tile.splat %zero : f32 -> !o
  %m, %l, %oacc = scf.if %has0 -> (!row, !row, !o) {
    // S_0 and its maxima start the pipeline (O and l are still 0: nothing
    // to rescale).
    tile.setprio 1
    %s0 = func.call @scores(%ka, %qt) : (!kl, !qt) -> !s
    tile.setprio 0
    %s0m = func.call @mask(%s0, %c0, %q0, %Sq, %Skv) : (!s, index, index, index, index) -> !s
    %ms = tile.reduce_max %s0m dim 0 : !s -> !row
    // Every wave has read K 0: the loop's first DMA may overwrite it.
    tile.barrier
    %r:3 = scf.if %stagger -> (!row, !row, !o) {
      %x:3 = tile.stagger %lagging -> (!row, !row, !o) {
        // With ROLES, one loop per role, the role a constant in each: the
        // leading group's with the DMA, the lagging group's without, neither
        // branching on the role around its fetches and waits.
        %roles = tile.param @ROLES : i1
        %y:3 = scf.if %roles -> (!row, !row, !o) {
          %r:3 = scf.if %is_lead -> (!row, !row, !o) {
            %lead = arith.constant true
            %z:3 = func.call @loop(%kbuf, %vbuf, %ka, %va, %kb, %vb, %n, %nfree, %qt, %q0, %Sq, %Skv, %k_s, %v_s, %lead, %issuers, %nk, %nv, %scale, %s0m, %ms, %l0, %o0)
              : (!buf, !buf, !kl, !vl, !kl, !vl, index, index, !qt, index, index, index, index, index, i1, index, index, index, f32, !s, !row, !row, !o) -> (!row, !row, !o)
            scf.yield %z#0, %z#1, %z#2 : !row, !row, !o
          } else {
            %lead = arith.constant false
            %z:3 = func.call @loop(%kbuf, %vbuf, %ka, %va, %kb, %vb, %n, %nfree, %qt, %q0, %Sq, %Skv, %k_s, %v_s, %lead, %issuers, %nk, %nv, %scale, %s0m, %ms, %l0, %o0)
              : (!buf, !buf, !kl, !vl, !kl, !vl, index, index, !qt, index, index, index, index, index, i1, index, index, index, f32, !s, !row, !row, !o) -> (!row, !row, !o)
            scf.yield %z#0, %z#1, %z#2 : !row, !row, !o
          }
          scf.yield %r#0, %r#1, %r#2 : !row, !row, !o
        } else {
          %z:3 = func.call @loop(%kbuf, %vbuf, %ka, %va, %kb, %vb, %n, %nfree, %qt, %q0, %Sq, %Skv, %k_s, %v_s, %is_lead, %issuers, %nk, %nv, %scale, %s0m, %ms, %l0, %o0)
              : (!buf, !buf, !kl, !vl, !kl, !vl, index, index, !qt, index, index, index, index, index, i1, index, index, index, f32, !s, !row, !row, !o) -> (!row, !row, !o)
          scf.yield %z#0, %z#1, %z#2 : !row, !row, !o
        }
        tile.yield %y#0, %y#1, %y#2 : !row, !row, !o
      }
      scf.yield %x#0, %x#1, %x#2 : !row, !row, !o
    } else {
      %y:3 = func.call @loop(%kbuf, %vbuf, %ka, %va, %kb, %vb, %n, %nfree, %qt, %q0, %Sq, %Skv, %k_s, %v_s, %is_lead, %issuers, %nk, %nv, %scale, %s0m, %ms, %l0, %o0)
          : (!buf, !buf, !kl, !vl, !kl, !vl, index, index, !qt, index, index, index, index, index, i1, index, index, index, f32, !s, !row, !row, !o) -> (!row, !row, !o)
      scf.yield %y#0, %y#1, %y#2 : !row, !row, !o
    }
    scf.yield %r#0, %r#1, %r#2 : !row, !row, !o
  } else {
    scf.yield %m0, %l0, %o0 : !row, !row, !o
  }

  // O = O^T / l, stored transposed into O [S_q, D]; rows no key reaches
  // (l = 0) are 0.
  %zrow = tile.splat %zero : f32 -> !row
  %one = arith.constant 1.0 : f32
  %ones = tile.splat %one : f32 -> !row
  %empty = tile.cmpf oeq, %l, %zrow : !row -> !rowm
  %lsafe = tile.select %empty, %ones, %l : !rowm, !row
  %inv = tile.divf %ones, %lsafe : !row
  %invb = tile.broadcast %inv : !row -> !o
  %out = tile.mulf %oacc, %invb : !o
  %outd = tile.convert %out : !o -> !ob
  tile.store %outd, %obuf[%q0, %c0] stride %o_s bounds %Sq, %d transpose : !ob, !buf

  scf.if %lse_out {
    // LSE = ln(sum_j e^(scale s_j)) = (c m + log2 l) ln 2, c = scale log2(e).
    %bh0 = arith.muli %b, %H : index
    %bh = arith.addi %bh0, %h : index
    %loff = arith.muli %bh, %Sq : index
    %lp = tile.ptr_add %lse, %loff : !tile.ptr<f32>
    %lbuf = tile.make_buffer %lp, %Sq : !tile.ptr<f32> -> !tile.buffer<f32>
    %lg = tile.log2 %l : !row
    %sct = tile.splat %scale : f32 -> !row
    %lsum = tile.fma %m, %sct, %lg : !row
    %ln2t = tile.splat %ln2 : f32 -> !row
    %lse_v = tile.mulf %lsum, %ln2t : !row
    tile.store %lse_v, %lbuf[%c0, %q0] stride %c0 bounds %c1, %Sq : !row, !tile.buffer<f32>
  }
  return
}

// The key/value loop over tiles 0 .. n-1 (n >= 1), S_0 and its maxima
// given: two tiles per iteration, so that every LDS access names its buffer
// (and alias scope) statically. Even tiles' K and V are in ping (a), odd
// ones' in pong (b); step j reads K j+1 and V j. The last tile drains the
// pipeline.
func.func private @loop(%kbuf: !buf, %vbuf: !buf, %ka: !kl, %va: !vl, %kb: !kl, %vb: !vl,
                        %n: index, %nfree: index, %qt: !qt, %q0: index, %Sq: index, %Skv: index,
                        %ks: index, %vs: index, %issuer: i1, %issuers: index,
                        %nk: index, %nv: index, %scale: f32, %s0: !s, %m0: !row, %l0: !row, %o0: !o)
    -> (!row, !row, !o) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %true = arith.constant true
  %false = arith.constant false
  %n1 = arith.subi %n, %c1 : index
  // With INTERIOR, the interior first: iterations j = 0, 2, .. < ni whose
  // steps mask no tile (they score tiles j + 1 and j + 2 <= ni: below the
  // diagonal, ni < nfree, and whole, ni < n - 1), fetch one (tile j + 3 <
  // n) and take both steps, so that their code has none of those tests;
  // the edge iterations after them test all three. ni is even, so the edge
  // loop starts on ping as the interior did.
  %ni0 = arith.subi %nfree, %c1 : index
  %n2 = arith.subi %n, %c2 : index
  %ni1 = arith.minsi %ni0, %n2 : index
  %ni2 = arith.maxsi %ni1, %c0 : index
  %odd_ni = arith.remui %ni2, %c2 : index
  %ni3 = arith.subi %ni2, %odd_ni : index
  %interior = tile.param @INTERIOR : i1
  %ni = arith.select %interior, %ni3, %c0 : index
  %ri:4 = scf.for %j = %c0 to %ni step %c2 iter_args(%s = %s0, %m = %m0, %l = %l0, %o = %o0) -> (!s, !row, !row, !o) {
    %a:4 = func.call @step(%kbuf, %vbuf, %kb, %ka, %va, %vb, %j, %n, %qt, %q0, %Sq, %Skv, %ks, %vs, %issuer, %false, %issuers, %nk, %nv, %scale, %s, %m, %l, %o)
        : (!buf, !buf, !kl, !kl, !vl, !vl, index, index, !qt, index, index, index, index, index, i1, i1, index, index, index, f32, !s, !row, !row, !o) -> (!s, !row, !row, !o)
    %j1 = arith.addi %j, %c1 : index
    // A fence where the edge loop's branch between the steps is (the FP8
    // kernel's measured faster with it; here cluster A's raised priority
    // already parts the steps: S_q = 512, S_kv = 4096, the same to 0.2%).
    tile.sched_barrier []
    %x:4 = func.call @step(%kbuf, %vbuf, %ka, %kb, %vb, %va, %j1, %n, %qt, %q0, %Sq, %Skv, %ks, %vs, %issuer, %false, %issuers, %nk, %nv, %scale, %a#0, %a#1, %a#2, %a#3)
        : (!buf, !buf, !kl, !kl, !vl, !vl, index, index, !qt, index, index, index, index, index, i1, i1, index, index, index, f32, !s, !row, !row, !o) -> (!s, !row, !row, !o)
    scf.yield %x#0, %x#1, %x#2, %x#3 : !s, !row, !row, !o
  }
  %r:4 = scf.for %j = %ni to %n1 step %c2 iter_args(%s = %ri#0, %m = %ri#1, %l = %ri#2, %o = %ri#3) -> (!s, !row, !row, !o) {
    %a:4 = func.call @step(%kbuf, %vbuf, %kb, %ka, %va, %vb, %j, %n, %qt, %q0, %Sq, %Skv, %ks, %vs, %issuer, %true, %issuers, %nk, %nv, %scale, %s, %m, %l, %o)
        : (!buf, !buf, !kl, !kl, !vl, !vl, index, index, !qt, index, index, index, index, index, i1, i1, index, index, index, f32, !s, !row, !row, !o) -> (!s, !row, !row, !o)
    %j1 = arith.addi %j, %c1 : index
    %more = arith.cmpi ult, %j1, %n1 : index
    %b:4 = scf.if %more -> (!s, !row, !row, !o) {
      %x:4 = func.call @step(%kbuf, %vbuf, %ka, %kb, %vb, %va, %j1, %n, %qt, %q0, %Sq, %Skv, %ks, %vs, %issuer, %true, %issuers, %nk, %nv, %scale, %a#0, %a#1, %a#2, %a#3)
          : (!buf, !buf, !kl, !kl, !vl, !vl, index, index, !qt, index, index, index, index, index, i1, i1, index, index, index, f32, !s, !row, !row, !o) -> (!s, !row, !row, !o)
      scf.yield %x#0, %x#1, %x#2, %x#3 : !s, !row, !row, !o
    } else {
      scf.yield %a#0, %a#1, %a#2, %a#3 : !s, !row, !row, !o
    }
    scf.yield %b#0, %b#1, %b#2, %b#3 : !s, !row, !row, !o
  }
  %parity = arith.remui %n1, %c2 : index
  %odd = arith.cmpi ne, %parity, %c0 : index
  %f:3 = scf.if %odd -> (!row, !row, !o) {
    %x:3 = func.call @last(%vb, %issuer, %scale, %r#0, %r#1, %r#2, %r#3) : (!vl, i1, f32, !s, !row, !row, !o) -> (!row, !row, !o)
    scf.yield %x#0, %x#1, %x#2 : !row, !row, !o
  } else {
    %x:3 = func.call @last(%va, %issuer, %scale, %r#0, %r#1, %r#2, %r#3) : (!vl, i1, f32, !s, !row, !row, !o) -> (!row, !row, !o)
    scf.yield %x#0, %x#1, %x#2 : !row, !row, !o
  }
  return %f#0, %f#1, %f#2 : !row, !row, !o
}
