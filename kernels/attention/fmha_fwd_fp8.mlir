// kcc FlashAttention forward in FP8: O = softmax(scale * Q K^T [+ causal
// mask]) V with Q, K, V in the chip's e4m3 (OCP f8E4M3FN on gfx950, FNUZ
// f8E4M3FNUZ on gfx942) and O in bf16 or f16 (ODTYPE).
//
// The structure, pipeline, stagger and LDS traffic are fmha_fwd.mlir's (read
// its header first); what differs:
//  - the true values are the FP8 codes times per-tensor descale factors: the
//    host multiplies Q's and K's into `scale` (scores are then exact f32 sums
//    of FP8 products, descaled by the softmax's fma for free) and V's is
//    `vdescale`, applied with 1 / l at the end;
//  - P is quantised to e4m3 for O^T += V^T P^T, scaled by 2^PLOG2 so that
//    the largest P the lazy rescale lets through fits the format
//    (@exp_scores); the column sums l are of the unquantised P;
//  - the MFMAs are the chip's FP8 ones (gfx950: v_mfma_f32_32x32x64_f8f6f4,
//    V read by ds_read_b64_tr_b8; gfx942: v_mfma_f32_32x32x16_fp8_fp8, V
//    moved through registers and stored transposed), so a tile costs half
//    the matrix time of bf16 and the schedules are retuned (@schedule_a,
//    @schedule_b);
//  - rows of D one-byte elements (128 bytes for D = 128) are shorter than a
//    256-byte DMA line: K and V rows filled by DMA are not padded but
//    swizzled (KSWZ, VSWZ: the LDS type's swizzle), and K always comes by
//    DMA.
//
// Parameters: DTYPE (f8E4M3FN, f8E4M3FNUZ), ODTYPE (bf16, f16), D (64, 128),
// BN, BLOCK, CAUSAL, LSE_OUT, STAGGER, V_TR, LAZY, PAD, VPAD, VR/VC, VROWS
// as in fmha_fwd.mlir; PLOG2 (P's scale exponent), KSWZ, VSWZ (K's and V's
// LDS swizzle, 0 for none), WIDE (16-byte LDS DMA, gfx950), PAIRS, ROLES
// and INTERIOR (as in fmha_fwd.mlir: two query blocks per workgroup; one
// loop per wave group's role; the key tiles no wave masks in a loop of
// their own).
// Launch: grid (nb = ceil(S_q / (32 * waves)), H, B), block BLOCK (with PAIRS
// grid.x = ceil(nb / 2)); arguments those of fmha_fwd plus `vdescale` (f32)
// after `scale`.

tile.type_param_decl @DTYPE = f8E4M3FN of [f8E4M3FN, f8E4M3FNUZ] on {gfx942 = f8E4M3FNUZ}
tile.type_param_decl @ODTYPE = bf16 of [bf16, f16]
tile.param_decl @D : i64 = 128
tile.param_decl @BN : i64 = 64
tile.param_decl @BLOCK : i64 = 512
tile.param_decl @CAUSAL : i1 = false
tile.param_decl @LSE_OUT : i1 = false
tile.param_decl @STAGGER : i1 = true
tile.param_decl @V_TR : i1 = true on {gfx942 = false}
tile.param_decl @LAZY : i1 = true
tile.param_decl @PAD : i64 = 0
tile.param_decl @VPAD : i64 = 0 on {gfx942 = 4}
tile.param_decl @VR : i64 = 64 on {gfx942 = 128}
tile.param_decl @VC : i64 = 128 on {gfx942 = 64}
tile.param_decl @VROWS : i64 = 8 on {gfx942 = 16}
tile.param_decl @PLOG2 : i64 = 0 on {gfx942 = -1}
tile.param_decl @KSWZ : i64 = 8
tile.param_decl @VSWZ : i64 = 8 on {gfx942 = 0}
tile.param_decl @WIDE : i1 = true on {gfx942 = false}
tile.param_decl @PAIRS : i1 = false
tile.param_decl @ROLES : i1 = false
tile.param_decl @INTERIOR : i1 = false

// K and V tiles in LDS, and the register tiles of one wave.
!kl = !tile.lds<[BN, D], !tile.dtype<"DTYPE">, pad = PAD, swizzle = KSWZ>
!vl = !tile.lds<[VR, VC], !tile.dtype<"DTYPE">, pad = VPAD, swizzle = VSWZ>
!buf = !tile.buffer<!tile.dtype<"DTYPE">>
!ptr = !tile.ptr<!tile.dtype<"DTYPE">>
!qt = !tile.tile<[D, 32], !tile.dtype<"DTYPE">, #tile.mfma<b>>
!kf = !tile.tile<[BN, D], !tile.dtype<"DTYPE">, #tile.mfma<a>>
!vf = !tile.tile<[D, BN], !tile.dtype<"DTYPE">, #tile.mfma<a, k_from_acc>>
!s = !tile.tile<[BN, 32], f32, #tile.mfma<acc>>
!si = !tile.tile<[BN, 32], i32, #tile.mfma<acc>>
!sm = !tile.tile<[BN, 32], i1, #tile.mfma<acc>>
!pa = !tile.tile<[BN, 32], !tile.dtype<"DTYPE">, #tile.mfma<acc>>
!pb = !tile.tile<[BN, 32], !tile.dtype<"DTYPE">, #tile.mfma<b, k_from_acc>>
!o = !tile.tile<[D, 32], f32, #tile.mfma<acc>>
!ob = !tile.tile<[D, 32], !tile.dtype<"ODTYPE">, #tile.mfma<acc>>
!obuf = !tile.buffer<!tile.dtype<"ODTYPE">>
!optr = !tile.ptr<!tile.dtype<"ODTYPE">>
!row = !tile.tile<[1, 32], f32, #tile.slice<0, #tile.mfma<acc>>>
!rowm = !tile.tile<[1, 32], i1, #tile.slice<0, #tile.mfma<acc>>>
!rowi = !tile.tile<[1, 32], i32, #tile.slice<0, #tile.mfma<acc>>>
// V through registers (gfx942): 2 rows x 4 columns per lane, so that each
// load is one 4-byte register of a row, kept as loaded until the transposed
// stores after barrier X. With one column per lane the loads were single
// bytes, and with 4 rows x 2 columns (fmha_fwd.mlir's choice for 2-byte
// elements) their repacking into registers waited for them before the
// matrix work (timing model, S = 16384, D = 128: 993.9 TFLOPS one column,
// 1031.4 4 x 2, 1253.1 2 x 4; D = 64 583.2 -> 798.2).
!vreg = !tile.tile<[VROWS, D], !tile.dtype<"DTYPE">, #tile.blocked<[2, 4], [4, 16]>>
!vreg32 = !tile.tile<[VROWS, D], f32, #tile.blocked<[2, 4], [4, 16]>>

// Starts moving key tile `j` into `kb`: DMA shared by the first `issuers`
// waves. Rows past the end of the keys need no bounds: the buffer ends at the
// last key's last element, so the hardware's range check returns zeros.
func.func private @fetch_k(%kbuf: !buf, %kb: !kl, %j: index, %Skv: index,
                           %ks: index, %issuers: index) {
  %c0 = arith.constant 0 : index
  %bn = tile.param @BN : index
  %d = tile.param @D : index
  %r = arith.muli %j, %bn : index
  // WIDE: gfx950's 16-byte DMA, a quarter of the instructions (and of the
  // address arithmetic the issuing waves spend on them). A tile wholly
  // inside the keys is copied `inbounds`: its lines' rows go in scalar
  // offsets, with no vector add a line (timing model, S_kv = 4096, cycles
  // per iteration: gfx950 5005.0 -> 4967.6, gfx942 3657.0 -> 3532.0).
  %wide = tile.param @WIDE : i1
  %rend = arith.addi %r, %bn : index
  %inside = arith.cmpi ule, %rend, %Skv : index
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
  return
}

// Starts moving value tile `j` into `vb` by DMA (V_TR only).
func.func private @fetch_v(%vbuf: !buf, %vb: !vl, %j: index, %Skv: index,
                           %vs: index, %issuers: index) {
  %c0 = arith.constant 0 : index
  %bn = tile.param @BN : index
  %d = tile.param @D : index
  %r = arith.muli %j, %bn : index
  // Only V_TR copies V by DMA; without it V's LDS rows are D x BN, padded
  // freely (VPAD), which the DMA's 256-byte lines could not fill.
  %vtr = tile.param @V_TR : i1
  // As K's (@fetch_k).
  %rend = arith.addi %r, %bn : index
  %inside = arith.cmpi ule, %rend, %Skv : index
  scf.if %vtr {
    %wide = tile.param @WIDE : i1
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

// The second half: P^T = 2^(c s - c m + PLOG2) (one fma and one exp2 per
// score) as the FP8 B operand of the next MFMA, and its column sums. The
// factor 2^PLOG2 (in the fma's addend, so free) keeps the largest P the lazy
// rescale allows, 2^8, inside the format: 256 < 448 for OCP e4m3 (PLOG2 =
// 0), 128 < 240 for FNUZ e4m3 (PLOG2 = -1). O and l carry the same factor,
// which cancels in O / l.
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
  %plog2 = tile.param @PLOG2 : index
  %plog2i = arith.index_cast %plog2 : index to i64
  %plog2f = arith.sitofp %plog2i : i64 to f32
  %plog2t = tile.splat %plog2f : f32 -> !row
  %mneg = tile.fma %msafe, %negct, %plog2t : !row
  %mb = tile.broadcast %mneg : !row -> !s
  %cs = tile.splat %c : f32 -> !s
  %x = tile.fma %s, %cs, %mb : !s
  %p = tile.exp2 %x : !s
  %ps = tile.reduce_sum %p dim 0 : !s -> !row
  // P comes from exp2 and stays below the format's largest value (above):
  // the conversion needs neither a NaN check nor a clamp.
  %pd = tile.convert %p fast_rounding : !s -> !pa
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
// scheduler fills the groups from the instructions above the call). With
// FP8 operands an MFMA covers four times the bf16 depth on gfx950 (the
// f8f6f4 32x32x64, 16 passes) and twice on gfx942 (32x32x16, 8 passes), so
// a cluster has D / 32 MFMAs on gfx950 (V_TR, BN = 64) and D / 16 on gfx942
// (BN = 32), each twice the matrix work of a bf16 one per pass: the bf16
// kernel's exponentials over fewer, longer MFMAs. Tuned on the timing model
// (gfx950, S = 4096): reading an MFMA further ahead (4 K / 8 V reads first)
// measured 1-6% slower (the registers are at 256 then), as did the reads
// before the exponentials in cluster A and VALU groups in cluster B.
//  - Cluster A: per MFMA the exponentials of BN / 2 scores spread evenly
//    and the reads of K for the next MFMA (32 bytes per lane on gfx950, two
//    16-byte reads; 8 bytes on gfx942), one MFMA's worth issued first. On
//    gfx950 the two reads go between the exponentials, half and three
//    quarters of the way through them, rather than both after them: the
//    LDS waits before each MFMA shrank (timing model, S_kv = 4096, D =
//    128 with ROLES: 4766.9 -> 4521.7 cycles an iteration, causal 4865.4
//    -> 4713.6; D = 64 57.7 -> 56.0 us, causal 59.2 -> 57.5; both reads
//    right after the MFMA measured 4874.5). gfx942's measured slower so
//    (3532.0 -> 3539.9), and so did the bf16 kernel's.
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
      tile.sched_group_barrier #tile.group<ds_read, 2>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 4>, #tile.group<ds_read, 1>, #tile.group<trans, 2>, #tile.group<ds_read, 1>, #tile.group<trans, 2>] x 4
    } else {
      tile.sched_group_barrier #tile.group<ds_read, 2>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 2>, #tile.group<ds_read, 1>] x 8
      // 64-key tiles: twice the MFMAs, the pattern once more.
      scf.if %bn64 {
        tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 2>, #tile.group<ds_read, 1>] x 8
      }
    }
  } else {
    scf.if %vtr {
      tile.sched_group_barrier #tile.group<ds_read, 2>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 8>, #tile.group<ds_read, 1>, #tile.group<trans, 4>, #tile.group<ds_read, 1>, #tile.group<trans, 4>] x 2
    } else {
      tile.sched_group_barrier #tile.group<ds_read, 2>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 4>, #tile.group<ds_read, 1>] x 4
      // 64-key tiles: twice the MFMAs, the pattern once more.
      scf.if %bn64 {
        tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 4>, #tile.group<ds_read, 1>] x 4
      }
    }
  }
  return
}

//  - Cluster B: per MFMA the reads of V^T that feed the next one: four
//    transposing 8-byte reads (ds_read_b64_tr_b8) for gfx950's 32 bytes per
//    lane, one 8-byte read of V^T on gfx942.
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
      tile.sched_group_barrier #tile.group<ds_read, 4>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 4>] x 4
    } else {
      tile.sched_group_barrier #tile.group<ds_read, 2>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 1>] x 8
      // 64-key tiles: twice the MFMAs, the pattern once more.
      scf.if %bn64 {
        tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 1>] x 8
      }
    }
  } else {
    scf.if %vtr {
      tile.sched_group_barrier #tile.group<ds_read, 4>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 4>] x 2
    } else {
      tile.sched_group_barrier #tile.group<ds_read, 2>
      tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 1>] x 4
      // 64-key tiles: twice the MFMAs, the pattern once more.
      scf.if %bn64 {
        tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<ds_read, 1>] x 4
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
  scf.if %fetch {
    func.call @fetch_k(%kbuf, %kf, %j2, %Skv, %ks, %issuers) : (!buf, !kl, index, index, index, index) -> ()
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
    // Zeros, though nothing reads them: `tile.undef` (as fmha_fwd.mlir has
    // here) measured far slower for one-byte V (timing model, gfx942, S =
    // 16384: 1253.1 -> 975.8 TFLOPS).
    %zero = arith.constant 0.0 : f32
    %z32 = tile.splat %zero : f32 -> !vreg32
    %v = tile.convert %z32 : !vreg32 -> !vreg
    scf.yield %v : !vreg
  }

  // Cluster A: the MFMAs of S_{j+1} with the exponentials of S_j and the
  // LDS reads of K j+1 between them.
  tile.setprio 1
  %sn = func.call @scores(%kn, %qt) : (!kl, !qt) -> !s
  %p, %ps = func.call @exp_scores(%s, %scale, %m) : (!s, f32, !row) -> (!pb, !row)
  func.call @schedule_a() : () -> ()
  tile.setprio 0
  %l1 = tile.addf %l, %ps : !row

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
    // With V_TR, a fence where the mask's branch would be, so that cluster B
    // is scheduled apart from what precedes it, as in the edge steps (timing
    // model, gfx950: 4583.8 -> 4434.4 cycles an iteration with ROLES = 0).
    // With V through registers (gfx942) the fence measured slower (6494.1
    // -> 7371.8).
    scf.if %vtr {
      tile.sched_barrier []
    }
    scf.yield %sn : !s
  }

  // Cluster B: per MFMA of O^T, four transposing reads of V j and a share of
  // S_{j+1}'s maxima. Unlike the bf16 kernel, no raised priority: with four
  // MFMAs here the other group's exponentials (cluster A, raised) are what
  // bounds the tile, and letting them win the issue slots measured 1.5%
  // faster on the timing model (gfx950, S = 4096).
  %o1 = func.call @accumulate(%vc, %p, %o) : (!vl, !pb, !o) -> !o
  %mn, %rescale = func.call @grow(%snm, %scale, %m) : (!s, f32, !row) -> (!row, i1)
  func.call @schedule_b() : () -> ()
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

func.func @fmha_fwd_fp8(%q: !ptr, %k: !ptr, %v: !ptr, %o: !optr, %lse: !tile.ptr<f32>,
                    %Sq: index, %Skv: index, %H: index, %Hkv: index,
                    %q_b: index, %q_s: index, %q_h: index,
                    %k_b: index, %k_s: index, %k_h: index,
                    %v_b: index, %v_s: index, %v_h: index,
                    %o_b: index, %o_s: index, %o_h: index,
                    %scale: f32, %vdescale: f32)
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
  %op = tile.ptr_add %o, %ooff : !optr
  %qbuf = tile.make_buffer %qp, %qn : !ptr -> !buf
  %kbuf = tile.make_buffer %kp, %kn : !ptr -> !buf
  %vbuf = tile.make_buffer %vp, %vn : !ptr -> !buf
  %obuf = tile.make_buffer %op, %on : !optr -> !obuf

  // K and V tiles, double-buffered: one set for both query blocks.
  %ka = tile.lds_alloc "k_ping" : !kl
  %va = tile.lds_alloc "v_ping" : !vl
  %kb = tile.lds_alloc "k_pong" : !kl
  %vb = tile.lds_alloc "v_pong" : !vl

  // Two calls rather than a loop over the blocks: a loop would let LICM
  // hoist the epilogue's and prologue's invariant scalars above it, live
  // through the key loop.
  %any = arith.cmpi ugt, %blocks, %c0 : index
  scf.if %any {
    func.call @query_block(%qbuf, %kbuf, %vbuf, %obuf, %lse, %Sq, %Skv, %H, %q_s, %k_s,
                           %v_s, %o_s, %scale, %vdescale, %first, %h, %b, %ka, %va, %kb, %vb)
        : (!buf, !buf, !buf, !obuf, !tile.ptr<f32>, index, index, index, index, index,
           index, index, f32, f32, index, index, index, !kl, !vl, !kl, !vl) -> ()
  }
  %two = arith.cmpi ugt, %blocks, %c1 : index
  scf.if %two {
    // The first block's last reads of K and V are done before this block's
    // prologue refills their buffers.
    tile.barrier
    func.call @query_block(%qbuf, %kbuf, %vbuf, %obuf, %lse, %Sq, %Skv, %H, %q_s, %k_s,
                           %v_s, %o_s, %scale, %vdescale, %x, %h, %b, %ka, %va, %kb, %vb)
        : (!buf, !buf, !buf, !obuf, !tile.ptr<f32>, index, index, index, index, index,
           index, index, f32, f32, index, index, index, !kl, !vl, !kl, !vl) -> ()
  }
  return
}

// Query block `bq` (32 queries per wave) of head `h` of batch `b`.
func.func private @query_block(%qbuf: !buf, %kbuf: !buf, %vbuf: !buf, %obuf: !obuf,
                               %lse: !tile.ptr<f32>, %Sq: index, %Skv: index, %H: index,
                               %q_s: index, %k_s: index, %v_s: index, %o_s: index,
                               %scale: f32, %vdescale: f32, %bq: index, %h: index, %b: index,
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

  // Q^T, loaded once. Q's and K's descale factors are in `scale` (the host
  // multiplies them in), applied in f32 by the softmax's fma.
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
  %tile_bytes = arith.muli %bn, %d : index
  // A DMA instruction moves 64 lanes x 4 bytes, or x 16 with WIDE.
  %c1024 = arith.constant 1024 : index
  %wide = tile.param @WIDE : i1
  %line = arith.select %wide, %c1024, %c256 : index
  %tile_lines = arith.divui %tile_bytes, %line : index
  %ndma = arith.divui %tile_lines, %issuers : index
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
            %z:3 = func.call @loop(%kbuf, %vbuf, %ka, %va, %kb, %vb, %n, %nfree, %qt, %q0, %Sq, %Skv, %k_s, %v_s, %lead, %issuers, %ndma, %nv, %scale, %s0m, %ms, %l0, %o0)
              : (!buf, !buf, !kl, !vl, !kl, !vl, index, index, !qt, index, index, index, index, index, i1, index, index, index, f32, !s, !row, !row, !o) -> (!row, !row, !o)
            scf.yield %z#0, %z#1, %z#2 : !row, !row, !o
          } else {
            %lead = arith.constant false
            %z:3 = func.call @loop(%kbuf, %vbuf, %ka, %va, %kb, %vb, %n, %nfree, %qt, %q0, %Sq, %Skv, %k_s, %v_s, %lead, %issuers, %ndma, %nv, %scale, %s0m, %ms, %l0, %o0)
              : (!buf, !buf, !kl, !vl, !kl, !vl, index, index, !qt, index, index, index, index, index, i1, index, index, index, f32, !s, !row, !row, !o) -> (!row, !row, !o)
            scf.yield %z#0, %z#1, %z#2 : !row, !row, !o
          }
          scf.yield %r#0, %r#1, %r#2 : !row, !row, !o
        } else {
          %z:3 = func.call @loop(%kbuf, %vbuf, %ka, %va, %kb, %vb, %n, %nfree, %qt, %q0, %Sq, %Skv, %k_s, %v_s, %is_lead, %issuers, %ndma, %nv, %scale, %s0m, %ms, %l0, %o0)
              : (!buf, !buf, !kl, !vl, !kl, !vl, index, index, !qt, index, index, index, index, index, i1, index, index, index, f32, !s, !row, !row, !o) -> (!row, !row, !o)
          scf.yield %z#0, %z#1, %z#2 : !row, !row, !o
        }
        tile.yield %y#0, %y#1, %y#2 : !row, !row, !o
      }
      scf.yield %x#0, %x#1, %x#2 : !row, !row, !o
    } else {
      %y:3 = func.call @loop(%kbuf, %vbuf, %ka, %va, %kb, %vb, %n, %nfree, %qt, %q0, %Sq, %Skv, %k_s, %v_s, %is_lead, %issuers, %ndma, %nv, %scale, %s0m, %ms, %l0, %o0)
          : (!buf, !buf, !kl, !vl, !kl, !vl, index, index, !qt, index, index, index, index, index, i1, index, index, index, f32, !s, !row, !row, !o) -> (!row, !row, !o)
      scf.yield %y#0, %y#1, %y#2 : !row, !row, !o
    }
    scf.yield %r#0, %r#1, %r#2 : !row, !row, !o
  } else {
    scf.yield %m0, %l0, %o0 : !row, !row, !o
  }

  // O = vdescale O^T / l, stored transposed into O [S_q, D]; rows no key
  // reaches (l = 0) are 0.
  %zrow = tile.splat %zero : f32 -> !row
  %one = arith.constant 1.0 : f32
  %ones = tile.splat %one : f32 -> !row
  %empty = tile.cmpf oeq, %l, %zrow : !row -> !rowm
  %lsafe = tile.select %empty, %ones, %l : !rowm, !row
  %vdt = tile.splat %vdescale : f32 -> !row
  %inv = tile.divf %vdt, %lsafe : !row
  %invb = tile.broadcast %inv : !row -> !o
  %out = tile.mulf %oacc, %invb : !o
  %outd = tile.convert %out : !o -> !ob
  tile.store %outd, %obuf[%q0, %c0] stride %o_s bounds %Sq, %d transpose : !ob, !obuf

  scf.if %lse_out {
    // LSE = ln(sum_j e^(scale s_j)) = (c m + log2 l - PLOG2) ln 2, c =
    // scale log2(e), l carrying P's factor 2^PLOG2.
    %bh0 = arith.muli %b, %H : index
    %bh = arith.addi %bh0, %h : index
    %loff = arith.muli %bh, %Sq : index
    %lp = tile.ptr_add %lse, %loff : !tile.ptr<f32>
    %lbuf = tile.make_buffer %lp, %Sq : !tile.ptr<f32> -> !tile.buffer<f32>
    %lg = tile.log2 %l : !row
    %sct = tile.splat %scale : f32 -> !row
    %plog2 = tile.param @PLOG2 : index
    %plog2i = arith.index_cast %plog2 : index to i64
    %plog2f = arith.sitofp %plog2i : i64 to f32
    %plog2t = tile.splat %plog2f : f32 -> !row
    %lgs = tile.subf %lg, %plog2t : !row
    %lsum = tile.fma %m, %sct, %lgs : !row
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
  // With INTERIOR, the interior first, as in fmha_fwd.mlir: iterations
  // j = 0, 2, .. < ni whose steps mask no tile (they score tiles j + 1 and
  // j + 2 <= ni: below the diagonal, ni < nfree, and whole, ni < n - 1),
  // fetch one (tile j + 3 < n) and take both steps, so that their code has
  // none of those tests; the edge iterations after them test all three. ni
  // is even, so the edge loop starts on ping as the interior did. (Timing
  // model, gfx950, S_q = 512, S_kv = 4096, D = 128: 4521.7 -> 4355.0
  // cycles an iteration, causal 4713.6 -> 4362.6.)
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
    // A fence where the edge loop's branch between the steps is (gfx950,
    // D = 128: 4362.9 -> 4355.0; gfx942 6494.1 -> 6396.6).
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
