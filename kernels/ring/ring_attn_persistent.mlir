// kcc ring attention, persistent form: one launch per rank walks the whole
// bidirectional ring and keeps the running softmax state in registers.
//
// The attention + merge form (RingAttention.cpp) launches fmha_fwd per
// (query chunk, key chunk) pair and folds its bf16/f16 partial into an f32
// running (O, LSE) with ring_merge. Here instead each worker workgroup owns
// a block of 128 queries of one (batch, head) and visits every chunk in the
// ring's order (its own at step 0, then the chunks of ranks me - t and
// me + t at step t), folding each key tile into (m, l, O) by the online
// softmax recurrence in f32; O = O / l and the LSE are written once at the
// end, so nothing is rounded before the final result.
//
// The workgroups of the launch split by program id, fetchers first (they
// are dispatched first, so they are resident before any worker waits on
// them):
//  * fetchers (0 .. FETCHERS-1) copy, for t = 1 .. world-1, the packed K/V
//    of the step's sources from the owners' heaps (tile.peer_ptr, after an
//    acquire at system scope on the owner's publish flag, as ring_fetch
//    does) into staging slot (t - 1) % NSLOTS, then release
//    ready[t * FETCHERS + f] (workgroup barrier first: every wave's stores
//    precede the release). Before reusing a slot a fetcher acquires
//    done[w * world + t - NSLOTS] of every worker w: the slot's previous
//    step has been read by all of them. 64-row blocks of a region are dealt
//    to the fetchers round robin.
//  * workers take items (query block, head, batch) w, w + workers, ...; an
//    item walks all steps, acquiring ready[t * FETCHERS + f] for every f
//    before reading step t's slot (every wave: each reads the slot), and
//    after step t releases done[w * world + t] (barrier first).
// The host sizes the grid so that every workgroup is resident. With two
// slots that needs one item per worker (a worker owning several items
// would revisit old steps after their slot was reused); when the items do
// not fit, the host gives world - 1 slots (every step its own) and fetchers
// never wait. Flags live in a buffer the host zeroes per call and hold 1
// when set.
//
// Inside a worker each wave owns 32 queries and computes S^T = K Q^T for a
// key tile of BN rows (keys down, its queries across: softmax reductions
// over keys stay within a lane's column), then O^T += V^T P^T with P^T
// taken from the accumulator by tile.relayout (k_from_acc). The four waves
// share each key tile through LDS: each loads a quarter of K and V into
// registers two tiles ahead (the loads of tile j + 2 are in flight while
// tile j is computed) and stores it into the K and V buffers (V as is, read
// back with ds_read_b64_tr_b16, with V_TR on gfx950; else transposed into
// V^T). With STAGES = 2 the buffers are double-buffered and one barrier per
// tile suffices; with 1 (gfx942, whose 64 KiB of LDS would otherwise hold
// one workgroup) a second barrier separates the reads of a tile from the
// stores of the next. No DMA: simpler than fmha_fwd's pipeline.
//
// Causal masking is over global token positions. A rank's local tokens are
// one chunk (contiguous: global r S ..) or two (zig-zag: its first A tokens
// are chunk r at r A, the rest chunk 2 world - 1 - r at world A + (world -
// 1 - r) (S - A)); positions grow with the local index in both cases. A
// source's chunk is a segment of its local keys; a segment whose first key
// lies after the workgroup's last query is skipped (the pair is above the
// diagonal), and so are the segment's tiles past that query; a wave skips
// the arithmetic of a tile that starts after its own last query, and masks
// a tile only when it crosses the diagonal or the segment's end.
//
// Parameters: DTYPE (bf16, f16), D (64, 128), BN (keys per tile, 32), QR
// (= BN / 4), CAUSAL, LSE_OUT, V_TR (gfx950: V read back with
// ds_read_b64_tr_b16), VR and VC (the V stage: BN x D with V_TR, else
// D x BN), KPAD and VPAD (padding of the stages' rows, per chip: the host
// picks them), STAGES (1, 2) and KR (= BN * STAGES: K's rows; VR or VC
// hold BN * STAGES too).
// Launch: grid (FETCHERS + workers), block 256.

tile.type_param_decl @DTYPE = bf16 of [bf16, f16]
tile.param_decl @D : i64 = 128
tile.param_decl @BN : i64 = 32
tile.param_decl @CAUSAL : i1 = false
tile.param_decl @LSE_OUT : i1 = false
tile.param_decl @V_TR : i1 = false
tile.param_decl @VR : i64 = 128
tile.param_decl @VC : i64 = 32
tile.param_decl @QR : i64 = 8
tile.param_decl @KPAD : i64 = 8
tile.param_decl @STAGES : i64 = 2
tile.param_decl @KR : i64 = 64
tile.param_decl @VPAD : i64 = 0

!ptr = !tile.ptr<!tile.dtype<"DTYPE">>
!buf = !tile.buffer<!tile.dtype<"DTYPE">>
!ip = !tile.ptr<i32>
!bp = !tile.ptr<i64>
!fp = !tile.ptr<f32>
!qt = !tile.tile<[D, 32], !tile.dtype<"DTYPE">, #tile.mfma<b>>
!kf = !tile.tile<[BN, D], !tile.dtype<"DTYPE">, #tile.mfma<a>>
!vf = !tile.tile<[D, BN], !tile.dtype<"DTYPE">, #tile.mfma<a, k_from_acc>>
!s = !tile.tile<[BN, 32], f32, #tile.mfma<acc>>
!si = !tile.tile<[BN, 32], i32, #tile.mfma<acc>>
!sm = !tile.tile<[BN, 32], i1, #tile.mfma<acc>>
!pa = !tile.tile<[BN, 32], !tile.dtype<"DTYPE">, #tile.mfma<acc>>
!pb = !tile.tile<[BN, 32], !tile.dtype<"DTYPE">, #tile.mfma<b, k_from_acc>>
!o = !tile.tile<[D, 32], f32, #tile.mfma<acc>>
!ob = !tile.tile<[D, 32], !tile.dtype<"DTYPE">, #tile.mfma<acc>>
!row = !tile.tile<[1, 32], f32, #tile.slice<0, #tile.mfma<acc>>>
!rowi = !tile.tile<[1, 32], i32, #tile.slice<0, #tile.mfma<acc>>>
!rowm = !tile.tile<[1, 32], i1, #tile.slice<0, #tile.mfma<acc>>>
// The workgroup's key tile in LDS: K [BN, D], V as [BN, D] with V_TR, else
// as V^T [D, BN] (VR x VC); rows padded by KPAD / VPAD against the bank
// conflicts of the MFMA operand reads.
!kl = !tile.lds<[KR, D], !tile.dtype<"DTYPE">, pad = KPAD>
!vl = !tile.lds<[VR, VC], !tile.dtype<"DTYPE">, pad = VPAD>
// A wave's quarter of a tile (QR = BN / 4 rows): K and V (V_TR) with
// 16-byte loads; V in 4 x 2 blocks per lane (4-byte loads along the rows,
// 8-byte LDS writes down V^T's rows once stored transposed).
!kq = !tile.tile<[QR, D], !tile.dtype<"DTYPE">, #tile.blocked<[1, 8], [8, 8]>>
!vq = !tile.tile<[QR, D], !tile.dtype<"DTYPE">, #tile.blocked<[1, 8], [8, 8]>>
!vqf = !tile.tile<[QR, D], f32, #tile.blocked<[1, 8], [8, 8]>>
!vq4 = !tile.tile<[QR, D], !tile.dtype<"DTYPE">, #tile.blocked<[4, 2], [2, 32]>>
!vq4f = !tile.tile<[QR, D], f32, #tile.blocked<[4, 2], [2, 32]>>
!piece = !tile.tile<[16, D], !tile.dtype<"DTYPE">, #tile.blocked<[1, 4], [4, 16]>>

// Global position of local token `i` of a rank whose first chunk (a tokens)
// starts at g0 and second at g1.
func.func private @position(%i: index, %a: index, %g0: index, %g1: index) -> index {
  %first = arith.cmpi ult, %i, %a : index
  %p0 = arith.addi %i, %g0 : index
  %i1 = arith.subi %i, %a : index
  %p1 = arith.addi %i1, %g1 : index
  %p = arith.select %first, %p0, %p1 : index
  return %p : index
}

// The [S, D] matrix of batch b, head h of a [B, S, H, D] tensor with the
// given element strides, as a buffer that ends at its last element.
func.func private @head_rows(%base: !ptr, %b: index, %h: index, %sb: index, %ss: index,
                             %sh: index, %S: index) -> !buf {
  %c1 = arith.constant 1 : index
  %d = tile.param @D : index
  %at_b = arith.muli %b, %sb : index
  %first = arith.muli %h, %sh : index
  %start = arith.addi %first, %at_b : index
  %last_row = arith.subi %S, %c1 : index
  %span = arith.muli %last_row, %ss : index
  %n = arith.addi %span, %d : index
  %p = tile.ptr_add %base, %start : !ptr
  %buf = tile.make_buffer %p, %n : !ptr -> !buf
  return %buf : !buf
}

// Where rank `rank`'s chunks start in the global sequence: (a, g0, g1).
func.func private @chunks(%rank: index, %world: index, %S: index, %zig: i1)
    -> (index, index, index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s1 = arith.addi %S, %c1 : index
  %half = arith.divui %s1, %c2 : index
  %a = arith.select %zig, %half, %S : index
  %g0 = arith.muli %rank, %a : index
  %b = arith.subi %S, %a : index
  %wa = arith.muli %world, %a : index
  %w1 = arith.subi %world, %c1 : index
  %later = arith.subi %w1, %rank : index
  %lb = arith.muli %later, %b : index
  %g1 = arith.addi %wa, %lb : index
  return %a, %g0, %g1 : index, index, index
}

// This wave's quarter (BN / 4 rows) of key tile k0 into registers; rows at
// or past `ke` read as zero. V with V_TR row by row, else in 4 x 2 blocks
// per lane (stored transposed into V^T).
func.func private @load_quarter(%kbuf: !buf, %vbuf: !buf, %kstride: index, %k0: index,
                                %ke: index) -> (!kq, !vq, !vq4) {
  %c0 = arith.constant 0 : index
  %d = tile.param @D : index
  %bn = tile.param @BN : index
  %vtr = tile.param @V_TR : i1
  %c4 = arith.constant 4 : index
  %wave = tile.wave_id
  %rows = arith.divui %bn, %c4 : index
  %wr = arith.muli %wave, %rows : index
  %r = arith.addi %k0, %wr : index
  %kq = tile.load %kbuf[%r, %c0] stride %kstride bounds %ke, %d : !buf -> !kq
  %zero = arith.constant 0.0 : f32
  %v:2 = scf.if %vtr -> (!vq, !vq4) {
    %x = tile.load %vbuf[%r, %c0] stride %kstride bounds %ke, %d : !buf -> !vq
    %z = tile.splat %zero : f32 -> !vq4f
    %zh = tile.convert %z : !vq4f -> !vq4
    scf.yield %x, %zh : !vq, !vq4
  } else {
    %x = tile.load %vbuf[%r, %c0] stride %kstride bounds %ke, %d : !buf -> !vq4
    %z = tile.splat %zero : f32 -> !vqf
    %zh = tile.convert %z : !vqf -> !vq
    scf.yield %zh, %x : !vq, !vq4
  }
  return %kq, %v#0, %v#1 : !kq, !vq, !vq4
}

// Stores this wave's quarter into stage `st` of the shared K and V buffers
// (V as V^T without V_TR). A stage is BN consecutive rows of K and of V
// (columns of V^T).
func.func private @store_quarter(%kl: !kl, %vl: !vl, %st: index, %kq: !kq, %vq: !vq,
                                 %vq4: !vq4) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %bn = tile.param @BN : index
  %vtr = tile.param @V_TR : i1
  %wave = tile.wave_id
  %rows = arith.divui %bn, %c4 : index
  %wr = arith.muli %wave, %rows : index
  %base = arith.muli %st, %bn : index
  %at = arith.addi %base, %wr : index
  tile.lds_store %kq, %kl[%c0][%at, %c0] : !kq, !kl
  scf.if %vtr {
    tile.lds_store %vq, %vl[%c0][%at, %c0] : !vq, !vl
  } else {
    tile.lds_store %vq4, %vl[%c0][%c0, %at] transpose : !vq4, !vl
  }
  return
}

// Folds the key tile in stage `st` of K and V (keys k0 .. k0 + BN - 1 of a
// segment ending at `ke`; `kg` the global position of k0) into (m, l, O).
// `qpos` are the wave's query positions (one per column), `qlo` the first.
// `c` = scale log2 e.
func.func private @fold_tile(%kl: !kl, %vl: !vl, %st: index, %k0: index, %ke: index, %kg: index,
                             %qt: !qt, %qpos: !rowi, %qlo: index, %c: f32,
                             %m: !row, %l: !row, %o: !o) -> (!row, !row, !o) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %bn = tile.param @BN : index
  %causal = tile.param @CAUSAL : i1
  %vtr = tile.param @V_TR : i1

  %srow = arith.muli %st, %bn : index
  %kt = tile.lds_load %kl[%c0][%srow, %c0] : !kl -> !kf
  %z = tile.splat %zero : f32 -> !s
  %raw = tile.mma %kt, %qt, %z : !kf, !qt -> !s

  // Rows past the segment, and (causal) keys after a column's query, are
  // -inf. Wave-uniform test: only tiles at an edge pay for the mask.
  %rows_left = arith.subi %ke, %k0 : index
  %short = arith.cmpi ult, %rows_left, %bn : index
  %bn1 = arith.subi %bn, %c1 : index
  %kg_last = arith.addi %kg, %bn1 : index
  %late = arith.cmpi ugt, %kg_last, %qlo : index
  %diag = arith.andi %causal, %late : i1
  %edge = arith.ori %short, %diag : i1
  %sc = scf.if %edge -> !s {
    %last = arith.subi %rows_left, %c1 : index
    %last32 = arith.index_cast %last : index to i32
    %tail = tile.splat %last32 : i32 -> !rowi
    // Row r holds global key kg + r: visible while r <= qpos - kg.
    %lim = scf.if %causal -> !rowi {
      %kg32 = arith.index_cast %kg : index to i32
      %kgt = tile.splat %kg32 : i32 -> !rowi
      %seen = tile.subi %qpos, %kgt : !rowi
      %fewer = tile.cmpi slt, %seen, %tail : !rowi -> !rowm
      %clip = tile.select %fewer, %seen, %tail : !rowm, !rowi
      scf.yield %clip : !rowi
    } else {
      scf.yield %tail : !rowi
    }
    %r = tile.iota 0 : !si
    %limb = tile.broadcast %lim : !rowi -> !si
    %keep = tile.cmpi sle, %r, %limb : !si -> !sm
    %neg = tile.splat %ninf : f32 -> !s
    %masked = tile.select %keep, %raw, %neg : !sm, !s
    scf.yield %masked : !s
  } else {
    scf.yield %raw : !s
  }

  // Online softmax in exp2 units, with a lazy frame: the running maximum m
  // (the frame P is computed in) only moves when some column's maximum rose
  // by more than 8 / c, i.e. P stays below 2^8, far from any f32 or bf16
  // limit; then l and O are rescaled by 2^(c (m_old - m_new)). A column
  // leaving -inf always moves the frame (its bound is -inf). Where the frame
  // is still -inf (no key seen) P is computed against 0 instead: its scores
  // are -inf too, so P = 0, never NaN.
  %tmax = tile.reduce_max %sc dim 0 : !s -> !row
  %mnew = tile.maxf %m, %tmax : !row
  %ninfr = tile.splat %ninf : f32 -> !row
  %zr = tile.splat %zero : f32 -> !row
  %eight = arith.constant 8.0 : f32
  %slack = arith.divf %eight, %c : f32
  %slackr = tile.splat %slack : f32 -> !row
  %bound = tile.addf %m, %slackr : !row
  %rose = tile.cmpf ogt, %mnew, %bound : !row -> !rowm
  %move = tile.any %rose : !rowm
  %fr:3 = scf.if %move -> (!row, !row, !o) {
    %unseen = tile.cmpf oeq, %mnew, %ninfr : !row -> !rowm
    %to = tile.select %unseen, %zr, %mnew : !rowm, !row
    %cr = tile.splat %c : f32 -> !row
    %shift = tile.subf %m, %to : !row
    %shiftc = tile.mulf %shift, %cr : !row
    %w = tile.exp2 %shiftc : !row
    %wb = tile.broadcast %w : !row -> !o
    %o2 = tile.mulf %o, %wb : !o
    %l2 = tile.mulf %l, %w : !row
    scf.yield %mnew, %l2, %o2 : !row, !row, !o
  } else {
    scf.yield %m, %l, %o : !row, !row, !o
  }
  %empty = tile.cmpf oeq, %fr#0, %ninfr : !row -> !rowm
  %base = tile.select %empty, %zr, %fr#0 : !rowm, !row
  %nc = arith.negf %c : f32
  %ncr = tile.splat %nc : f32 -> !row
  %off = tile.mulf %base, %ncr : !row
  %offb = tile.broadcast %off : !row -> !s
  %cs = tile.splat %c : f32 -> !s
  %e = tile.fma %sc, %cs, %offb : !s
  %p = tile.exp2 %e : !s
  %psum = tile.reduce_sum %p dim 0 : !s -> !row
  %lnew = tile.addf %fr#1, %psum : !row

  // O^T += V^T P^T: V^T read transposed from [BN, D] (V_TR) or along the
  // rows of the V^T stage.
  // P comes from exp2 (no NaN but the canonical one): no NaN check in the
  // rounding to bf16 (gfx942 rounds in integer arithmetic).
  %ph = tile.convert %p fast_rounding : !s -> !pa
  %pt = tile.relayout %ph : !pa -> !pb
  %vt = scf.if %vtr -> !vf {
    %x = tile.lds_load %vl[%c0][%srow, %c0] transpose : !vl -> !vf
    scf.yield %x : !vf
  } else {
    %x = tile.lds_load %vl[%c0][%c0, %srow] : !vl -> !vf
    scf.yield %x : !vf
  }
  %onew = tile.mma %vt, %pt, %fr#2 : !vf, !pb -> !o
  return %fr#0, %lnew, %onew : !row, !row, !o
}

// One source's chunks (K and V for one (batch, kv head) at kbuf / vbuf,
// `S` local tokens in the source's order) folded into (m, l, O). Called by
// every wave of the workgroup (the tile loop has barriers): the waves share
// each key tile through the LDS stages, each loading a quarter of it, and
// the next tile's quarter is loaded into registers while the current one
// is computed. Causal: segments and tiles wholly after the workgroup's last
// query (`qhi_wg`) are not visited; a wave whose queries all precede a
// tile, or that has no query (`active` false), skips its arithmetic.
func.func private @fold_source(%kbuf: !buf, %vbuf: !buf, %kl: !kl, %vl: !vl, %kstride: index,
                               %src: index, %world: index, %S: index, %zig: i1, %qt: !qt,
                               %qpos: !rowi, %qlo: index, %qhi: index, %qhi_wg: index,
                               %active: i1, %c: f32,
                               %m0: !row, %l0: !row, %o0: !o) -> (!row, !row, !o) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %bn = tile.param @BN : index
  %causal = tile.param @CAUSAL : i1
  %nstages = tile.param @STAGES : index
  %a, %g0, %g1 = func.call @chunks(%src, %world, %S, %zig)
      : (index, index, index, i1) -> (index, index, index)
  %r:3 = scf.for %seg = %c0 to %c2 step %c1 iter_args(%m = %m0, %l = %l0, %o = %o0)
      -> (!row, !row, !o) {
    %second = arith.cmpi eq, %seg, %c1 : index
    %ks = arith.select %second, %a, %c0 : index
    %ke = arith.select %second, %S, %a : index
    %g = arith.select %second, %g1, %g0 : index
    // Above the diagonal: the segment's first key is after the last query.
    %after = arith.cmpi ugt, %g, %qhi_wg : index
    %skip = arith.andi %causal, %after : i1
    %empty = arith.cmpi uge, %ks, %ke : index
    %none = arith.ori %skip, %empty : i1
    %x:3 = scf.if %none -> (!row, !row, !o) {
      scf.yield %m, %l, %o : !row, !row, !o
    } else {
      // Causal: only keys up to the workgroup's last query.
      %seen0 = arith.subi %qhi_wg, %g : index
      %seen1 = arith.addi %seen0, %c1 : index
      %kc = arith.addi %ks, %seen1 : index
      %kcut = arith.minui %kc, %ke : index
      %kend = arith.select %causal, %kcut, %ke : index
      // Tile 0 into stage 0, tile 1 into registers.
      %q0:3 = func.call @load_quarter(%kbuf, %vbuf, %kstride, %ks, %ke)
          : (!buf, !buf, index, index, index) -> (!kq, !vq, !vq4)
      func.call @store_quarter(%kl, %vl, %c0, %q0#0, %q0#1, %q0#2)
          : (!kl, !vl, index, !kq, !vq, !vq4) -> ()
      %k1 = arith.addi %ks, %bn : index
      %q1:3 = func.call @load_quarter(%kbuf, %vbuf, %kstride, %k1, %ke)
          : (!buf, !buf, index, index, index) -> (!kq, !vq, !vq4)
      tile.barrier
      // Two stages: tile j is in stage j % 2. Iteration j first stores tile
      // j + 1 (loaded one iteration ago) into the other stage, which every
      // wave finished reading before the barrier that ended iteration j - 1,
      // then starts loading tile j + 2, computes tile j and ends with the
      // barrier that publishes tile j + 1 and frees stage j % 2. One stage
      // (where two would cost occupancy): tile j + 1 is stored after that
      // barrier, and a second barrier publishes it.
      %two = arith.cmpi eq, %nstages, %c2 : index
      %y:7 = scf.for %k0 = %ks to %kend step %bn
          iter_args(%mi = %m, %li = %l, %oi = %o, %nk = %q1#0, %nv = %q1#1, %nv4 = %q1#2,
                    %st = %c0) -> (!row, !row, !o, !kq, !vq, !vq4, index) {
        %kn = arith.addi %k0, %bn : index
        %has_next = arith.cmpi ult, %kn, %kend : index
        %flip = arith.subi %c1, %st : index
        %other = arith.select %two, %flip, %c0 : index
        %early = arith.andi %has_next, %two : i1
        scf.if %early {
          func.call @store_quarter(%kl, %vl, %other, %nk, %nv, %nv4)
              : (!kl, !vl, index, !kq, !vq, !vq4) -> ()
        }
        %kn2 = arith.addi %kn, %bn : index
        %nq:3 = func.call @load_quarter(%kbuf, %vbuf, %kstride, %kn2, %ke)
            : (!buf, !buf, index, index, index) -> (!kq, !vq, !vq4)
        %dk = arith.subi %k0, %ks : index
        %kg = arith.addi %g, %dk : index
        // Causal: a tile whose first key is after this wave's last query
        // adds nothing to it.
        %beyond = arith.cmpi ugt, %kg, %qhi : index
        %drop0 = arith.andi %causal, %beyond : i1
        %true = arith.constant true
        %idle = arith.xori %active, %true : i1
        %drop = arith.ori %drop0, %idle : i1
        %f:3 = scf.if %drop -> (!row, !row, !o) {
          scf.yield %mi, %li, %oi : !row, !row, !o
        } else {
          %t:3 = func.call @fold_tile(%kl, %vl, %st, %k0, %ke, %kg, %qt, %qpos, %qlo, %c, %mi, %li, %oi)
              : (!kl, !vl, index, index, index, index, !qt, !rowi, index, f32, !row, !row, !o) -> (!row, !row, !o)
          scf.yield %t#0, %t#1, %t#2 : !row, !row, !o
        }
        tile.barrier
        %late = arith.cmpi ult, %nstages, %c2 : index
        %late_store = arith.andi %has_next, %late : i1
        scf.if %late_store {
          func.call @store_quarter(%kl, %vl, %c0, %nk, %nv, %nv4)
              : (!kl, !vl, index, !kq, !vq, !vq4) -> ()
          tile.barrier
        }
        scf.yield %f#0, %f#1, %f#2, %nq#0, %nq#1, %nq#2, %other
            : !row, !row, !o, !kq, !vq, !vq4, index
      }
      scf.yield %y#0, %y#1, %y#2 : !row, !row, !o
    }
    scf.yield %x#0, %x#1, %x#2 : !row, !row, !o
  }
  return %r#0, %r#1, %r#2 : !row, !row, !o
}

// The fetcher side (see the header).
func.func private @fetch_all(%f: index, %nf: index, %nw: index, %nslots: index,
                             %world: index, %me: index, %bases: !bp, %pflags: !ip,
                             %epoch: i32, %heap_kv: !ptr, %staging: !ptr, %flags: !ip,
                             %rows: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1 : i32
  %d = tile.param @D : index
  %wave = tile.wave_id
  %is_w0 = arith.cmpi eq, %wave, %c0 : index
  %tw = arith.muli %wave, %c16 : index
  %region = arith.muli %rows, %d : index
  %rows63 = arith.addi %rows, %c63 : index
  %nblk = arith.divui %rows63, %c64 : index
  %ready0 = arith.muli %world, %nw : index
  scf.for %t = %c1 to %world step %c1 {
    %t1 = arith.subi %t, %c1 : index
    %slot = arith.remui %t1, %nslots : index
    // The slot last held step t - NSLOTS: wait until every worker read it.
    %reuse = arith.cmpi ugt, %t, %nslots : index
    scf.if %reuse {
      %old = arith.subi %t, %nslots : index
      scf.for %w = %c0 to %nw step %c1 {
        %wi0 = arith.muli %w, %world : index
        %wi = arith.addi %wi0, %old : index
        tile.flag_wait %flags[%wi] ge %one agent : !ip
      }
    }
    scf.for %side = %c0 to %c2 step %c1 {
      %right = arith.cmpi eq, %side, %c1 : index
      %src_r = arith.addi %me, %t : index
      %has_r = arith.cmpi ult, %src_r, %world : index
      %has_l = arith.cmpi uge, %me, %t : index
      %has = arith.select %right, %has_r, %has_l : i1
      scf.if %has {
        %src_l = arith.subi %me, %t : index
        %src = arith.select %right, %src_r, %src_l : index
        %peer_flag = tile.peer_ptr %pflags, %bases, %me, %src : !ip, !bp
        tile.flag_wait %peer_flag[%c0] ge %epoch system : !ip
        %psrc = tile.peer_ptr %heap_kv, %bases, %me, %src : !ptr, !bp
        %sbuf = tile.make_buffer %psrc, %region : !ptr -> !buf
        %slot2 = arith.muli %slot, %c2 : index
        %part = arith.addi %slot2, %side : index
        %doff = arith.muli %part, %region : index
        %pdst = tile.ptr_add %staging, %doff : !ptr
        %dbuf = tile.make_buffer %pdst, %region : !ptr -> !buf
        scf.for %blk = %f to %nblk step %nf {
          %r0 = arith.muli %blk, %c64 : index
          %r = arith.addi %r0, %tw : index
          %x = tile.load %sbuf[%r, %c0] stride %d bounds %rows, %d : !buf -> !piece
          tile.store %x, %dbuf[%r, %c0] stride %d bounds %rows, %d : !piece, !buf
        }
      }
    }
    // Every wave's stores, then the release.
    tile.barrier
    scf.if %is_w0 {
      %ri0 = arith.muli %t, %nf : index
      %ri1 = arith.addi %ri0, %f : index
      %ri = arith.addi %ready0, %ri1 : index
      tile.flag_store %flags[%ri], %one agent : !ip
    }
  }
  return
}

func.func @ring_attn_persistent(%q: !ptr, %out: !ptr, %lse: !fp, %heap_kv: !ptr,
                                %staging: !ptr, %flags: !ip, %bases: !bp, %pflags: !ip,
                                %me: index, %world: index, %epoch: i32, %zig32: i32,
                                %B: index, %S: index, %H: index, %Hkv: index,
                                %q_b: index, %q_s: index, %q_h: index,
                                %o_b: index, %o_s: index, %o_h: index,
                                %nf: index, %nslots: index, %c: f32)
    attributes {tile.kernel, tile.block_size = 256 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %fone = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ln2 = arith.constant 0.693147182 : f32
  %d = tile.param @D : index
  %lse_out = tile.param @LSE_OUT : i1
  %zero32 = arith.constant 0 : i32
  %zig = arith.cmpi ne, %zig32, %zero32 : i32

  %pid = tile.program_id 0
  %np = tile.num_programs 0
  %nw = arith.subi %np, %nf : index
  %wave = tile.wave_id
  // Packed K/V: [B, S, H_kv, D] each, K then V; a region is both.
  %hkvd = arith.muli %Hkv, %d : index
  %nkv0 = arith.muli %B, %S : index
  %nkv = arith.muli %nkv0, %hkvd : index
  %rows0 = arith.muli %nkv, %c2 : index
  %rows = arith.divui %rows0, %d : index
  %is_fetcher = arith.cmpi ult, %pid, %nf : index
  scf.if %is_fetcher {
    func.call @fetch_all(%pid, %nf, %nw, %nslots, %world, %me, %bases, %pflags, %epoch, %heap_kv, %staging, %flags, %rows)
        : (index, index, index, index, index, index, !bp, !ip, i32, !ptr, !ptr, !ip, index) -> ()
  } else {
    %w = arith.subi %pid, %nf : index
    %s127 = arith.addi %S, %c127 : index
    %nqb = arith.divui %s127, %c128 : index
    %nqh = arith.muli %nqb, %H : index
    %items = arith.muli %nqh, %B : index
    %group = arith.divui %H, %Hkv : index
    %region = arith.muli %rows, %d : index
    %ready0 = arith.muli %world, %nw : index
    %a, %g0, %g1 = func.call @chunks(%me, %world, %S, %zig)
        : (index, index, index, i1) -> (index, index, index)
    %s1 = arith.subi %S, %c1 : index
    %kl = tile.lds_alloc "k_tile" : !kl
    %vl = tile.lds_alloc "v_tile" : !vl
    scf.for %item = %w to %items step %nw {
      %qb = arith.remui %item, %nqb : index
      %bh = arith.divui %item, %nqb : index
      %h = arith.remui %bh, %H : index
      %b = arith.divui %bh, %H : index
      %hk = arith.divui %h, %group : index
      %qb0 = arith.muli %qb, %c128 : index
      %qw = arith.muli %wave, %c32 : index
      %q0 = arith.addi %qb0, %qw : index
      %active = arith.cmpi ult, %q0, %S : index
      // This wave's queries (zeros past S) and their global positions.
      %qbuf = func.call @head_rows(%q, %b, %h, %q_b, %q_s, %q_h, %S)
          : (!ptr, index, index, index, index, index, index) -> !buf
      %qt = tile.load %qbuf[%q0, %c0] stride %q_s bounds %S, %d transpose : !buf -> !qt
      %q31 = arith.addi %q0, %c31 : index
      %qend = arith.minui %q31, %s1 : index
      %qlo = func.call @position(%q0, %a, %g0, %g1) : (index, index, index, index) -> index
      %qhi = func.call @position(%qend, %a, %g0, %g1) : (index, index, index, index) -> index
      %qb_last = arith.addi %qb0, %c127 : index
      %qwg_end = arith.minui %qb_last, %s1 : index
      %qhi_wg = func.call @position(%qwg_end, %a, %g0, %g1) : (index, index, index, index) -> index
      %cols = tile.iota 1 : !rowi
      %q032 = arith.index_cast %q0 : index to i32
      %q0t = tile.splat %q032 : i32 -> !rowi
      %lq = tile.addi %cols, %q0t : !rowi
      %a32 = arith.index_cast %a : index to i32
      %at = tile.splat %a32 : i32 -> !rowi
      %in_first = tile.cmpi slt, %lq, %at : !rowi -> !rowm
      %g032 = arith.index_cast %g0 : index to i32
      %g0t = tile.splat %g032 : i32 -> !rowi
      %ga = arith.subi %g1, %a : index
      %ga32 = arith.index_cast %ga : index to i32
      %gat = tile.splat %ga32 : i32 -> !rowi
      %p0 = tile.addi %lq, %g0t : !rowi
      %p1 = tile.addi %lq, %gat : !rowi
      %qpos = tile.select %in_first, %p0, %p1 : !rowm, !rowi

      // The (b, kv head) slice of a packed region at element offset `base`.
      %kvo_b = arith.muli %b, %S : index
      %kvo_b2 = arith.muli %kvo_b, %hkvd : index
      %kvo_h = arith.muli %hk, %d : index
      %kvo = arith.addi %kvo_b2, %kvo_h : index
      %kvn0 = arith.muli %s1, %hkvd : index
      %kvn = arith.addi %kvn0, %d : index

      %m0 = tile.splat %ninf : f32 -> !row
      %l0 = tile.splat %zero : f32 -> !row
      %o0 = tile.splat %zero : f32 -> !o
      %st:3 = scf.for %t = %c0 to %world step %c1 iter_args(%m = %m0, %l = %l0, %o = %o0)
          -> (!row, !row, !o) {
        %later = arith.cmpi ugt, %t, %c0 : index
        // Step t's slot is complete once every fetcher released it.
        scf.if %later {
          %ri0 = arith.muli %t, %nf : index
          %ri = arith.addi %ready0, %ri0 : index
          scf.for %f = %c0 to %nf step %c1 {
            %rf = arith.addi %ri, %f : index
            tile.flag_wait %flags[%rf] ge %one agent : !ip
          }
        }
        %t1 = arith.subi %t, %c1 : index
        %slot = arith.remui %t1, %nslots : index
        %sides:3 = scf.for %side = %c0 to %c2 step %c1 iter_args(%ms = %m, %ls = %l, %os = %o)
            -> (!row, !row, !o) {
          %right = arith.cmpi eq, %side, %c1 : index
          %src_r = arith.addi %me, %t : index
          %has_r0 = arith.cmpi ult, %src_r, %world : index
          %has_r = arith.andi %has_r0, %later : i1
          %has_l = arith.cmpi uge, %me, %t : index
          // Every wave takes part (the tile loop has barriers), those
          // without queries only in the loads.
          %has = arith.select %right, %has_r, %has_l : i1
          %x:3 = scf.if %has -> (!row, !row, !o) {
            %src_l = arith.subi %me, %t : index
            %src = arith.select %right, %src_r, %src_l : index
            // Step 0: the rank's own packed chunk in its heap; else the slot.
            %slot2 = arith.muli %slot, %c2 : index
            %part = arith.addi %slot2, %side : index
            %soff = arith.muli %part, %region : index
            %sp = tile.ptr_add %staging, %soff : !ptr
            %base = arith.select %later, %sp, %heap_kv : !ptr
            %kp = tile.ptr_add %base, %kvo : !ptr
            %vo = arith.addi %kvo, %nkv : index
            %vp = tile.ptr_add %base, %vo : !ptr
            %kbuf = tile.make_buffer %kp, %kvn : !ptr -> !buf
            %vbuf = tile.make_buffer %vp, %kvn : !ptr -> !buf
            %y:3 = func.call @fold_source(%kbuf, %vbuf, %kl, %vl, %hkvd, %src, %world, %S, %zig, %qt, %qpos, %qlo, %qhi, %qhi_wg, %active, %c, %ms, %ls, %os)
                : (!buf, !buf, !kl, !vl, index, index, index, index, i1, !qt, !rowi, index, index, index, i1, f32, !row, !row, !o) -> (!row, !row, !o)
            scf.yield %y#0, %y#1, %y#2 : !row, !row, !o
          } else {
            scf.yield %ms, %ls, %os : !row, !row, !o
          }
          scf.yield %x#0, %x#1, %x#2 : !row, !row, !o
        }
        // Every wave is done with the slot: tell the fetchers.
        scf.if %later {
          tile.barrier
          %is_w0 = arith.cmpi eq, %wave, %c0 : index
          scf.if %is_w0 {
            %di0 = arith.muli %w, %world : index
            %di = arith.addi %di0, %t : index
            tile.flag_store %flags[%di], %one agent : !ip
          }
        }
        scf.yield %sides#0, %sides#1, %sides#2 : !row, !row, !o
      }

      scf.if %active {
        // O = O^T / l, stored transposed into this head's rows of O. A query
        // no key reaches has l = 0 and O = 0: its scale is 0 rather than
        // 1/0, and its LSE comes out -inf (log2 0).
        %obuf = func.call @head_rows(%out, %b, %h, %o_b, %o_s, %o_h, %S)
            : (!ptr, index, index, index, index, index, index) -> !buf
        %onesr = tile.splat %fone : f32 -> !row
        %recip = tile.divf %onesr, %st#1 : !row
        %zr = tile.splat %zero : f32 -> !row
        %reached = tile.cmpf ogt, %st#1, %zr : !row -> !rowm
        %scl = tile.select %reached, %recip, %zr : !rowm, !row
        %sclb = tile.broadcast %scl : !row -> !o
        %res = tile.mulf %st#2, %sclb : !o
        %resh = tile.convert %res : !o -> !ob
        tile.store %resh, %obuf[%q0, %c0] stride %o_s bounds %S, %d transpose : !ob, !buf
        scf.if %lse_out {
          // LSE [B, H, S]: ln l + scale m, with ln l = log2(l) ln 2 and
          // scale = c ln 2 (m is in raw score units).
          %lrow = arith.muli %bh, %S : index
          %lp = tile.ptr_add %lse, %lrow : !fp
          %lbuf = tile.make_buffer %lp, %S : !fp -> !tile.buffer<f32>
          %ln2r = tile.splat %ln2 : f32 -> !row
          %l2 = tile.log2 %st#1 : !row
          %lnl = tile.mulf %l2, %ln2r : !row
          %sc = arith.mulf %c, %ln2 : f32
          %scr = tile.splat %sc : f32 -> !row
          %lv = tile.fma %st#0, %scr, %lnl : !row
          tile.store %lv, %lbuf[%c0, %q0] stride %c0 bounds %c1, %S : !row, !tile.buffer<f32>
        }
      }
    }
  }
  return
}
