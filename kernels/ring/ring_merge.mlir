// kcc ring attention: fold one partial attention result into the running one.
//
// Ring attention computes each rank's output from partial results, one per
// K/V chunk that reaches the rank: the attention kernel (fmha_fwd with
// LSE_OUT) gives a partial output P [B, S, H, D] (DTYPE) normalised over its
// chunk's keys and the natural-log log-sum-exp L_p [B, H, S] of its scores.
// Two normalised partials over disjoint key sets merge exactly through their
// log-sum-exps:
//   m = max(L_a, L_b),  w_a = exp(L_a - m),  w_b = exp(L_b - m)
//   O = (w_a O_a + w_b O_b) / (w_a + w_b),  L = m + log(w_a + w_b)
// all in f32 (the running O is kept in f32 between steps so that only the
// partials and the final result are rounded to DTYPE). A row that has seen
// no key yet has L = -inf and weight 0 (its O is 0); a row that sees no key
// at all keeps O = 0 and L = -inf, as the attention kernel reports it.
//
// The running state is ACC [B, S, H, D] (f32) and LSE [B, H, S] (f32, token
// stride 1); with FINAL the merged O is written, rounded to DTYPE, to OUT
// instead, and with LSE_OUT the merged L to OLSE (token stride 1). Tensor
// strides (elements) are arguments; the head dimension is contiguous.
//
// Layout: a wave owns 16 tokens x D in #tile.blocked<[1, 4], [4, 16]> (four
// consecutive elements of a row per lane: 16-byte f32 and 8-byte DTYPE
// accesses); the per-token weights are [16, 1] slices of that layout, so a
// lane holds the weights of exactly the rows it scales and the broadcast
// moves no data. Rows past S are neither read (zero) nor written.
//
// Parameters: DTYPE (bf16, f16), D (64, 128), FINAL, LSE_OUT.
// Launch: grid (ceil(S / 64), H, B), block 256 (4 waves x 16 tokens).

tile.type_param_decl @DTYPE = bf16
tile.param_decl @D : i64 = 128
tile.param_decl @FINAL : i1 = false
tile.param_decl @LSE_OUT : i1 = false

!f = !tile.tile<[16, D], f32, #tile.blocked<[1, 4], [4, 16]>>
!h = !tile.tile<[16, D], !tile.dtype<"DTYPE">, #tile.blocked<[1, 4], [4, 16]>>
!r = !tile.tile<[16, 1], f32, #tile.slice<1, #tile.blocked<[1, 4], [4, 16]>>>
!rm = !tile.tile<[16, 1], i1, #tile.slice<1, #tile.blocked<[1, 4], [4, 16]>>>
!fb = !tile.buffer<f32>
!hb = !tile.buffer<!tile.dtype<"DTYPE">>
!fp = !tile.ptr<f32>
!hp = !tile.ptr<!tile.dtype<"DTYPE">>

func.func @ring_merge(%acc: !fp, %lse: !fp, %po: !hp, %plse: !fp, %out: !hp, %olse: !fp,
                      %S: index,
                      %a_b: index, %a_s: index, %a_h: index,
                      %l_b: index, %l_h: index,
                      %p_b: index, %p_s: index, %p_h: index,
                      %q_b: index, %q_h: index,
                      %o_b: index, %o_s: index, %o_h: index,
                      %e_b: index, %e_h: index)
    attributes {tile.kernel, tile.block_size = 256 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %log2e = arith.constant 1.4426950408889634 : f32
  %ln2 = arith.constant 0.6931471805599453 : f32
  %d = tile.param @D : index
  %final = tile.param @FINAL : i1
  %lse_out = tile.param @LSE_OUT : i1

  %blk = tile.program_id 0
  %h = tile.program_id 1
  %b = tile.program_id 2
  %wave = tile.wave_id
  %tb = arith.muli %blk, %c64 : index
  %tw = arith.muli %wave, %c16 : index
  %t0 = arith.addi %tb, %tw : index

  // The (b, h) slice of every operand: a [S, D] matrix (row stride = token
  // stride) or an [S] row of log-sum-exps. Buffers end at the slice's last
  // element, so even a stray access could not reach the next head.
  %sm1 = arith.subi %S, %c1 : index
  %a_off0 = arith.muli %b, %a_b : index
  %a_off1 = arith.muli %h, %a_h : index
  %a_off = arith.addi %a_off0, %a_off1 : index
  %a_n0 = arith.muli %sm1, %a_s : index
  %a_n = arith.addi %a_n0, %d : index
  %p_off0 = arith.muli %b, %p_b : index
  %p_off1 = arith.muli %h, %p_h : index
  %p_off = arith.addi %p_off0, %p_off1 : index
  %p_n0 = arith.muli %sm1, %p_s : index
  %p_n = arith.addi %p_n0, %d : index
  %l_off0 = arith.muli %b, %l_b : index
  %l_off1 = arith.muli %h, %l_h : index
  %l_off = arith.addi %l_off0, %l_off1 : index
  %q_off0 = arith.muli %b, %q_b : index
  %q_off1 = arith.muli %h, %q_h : index
  %q_off = arith.addi %q_off0, %q_off1 : index

  %accp = tile.ptr_add %acc, %a_off : !fp
  %accbuf = tile.make_buffer %accp, %a_n : !fp -> !fb
  %lsep = tile.ptr_add %lse, %l_off : !fp
  %lsebuf = tile.make_buffer %lsep, %S : !fp -> !fb
  %pop = tile.ptr_add %po, %p_off : !hp
  %pobuf = tile.make_buffer %pop, %p_n : !hp -> !hb
  %plsep = tile.ptr_add %plse, %q_off : !fp
  %plsebuf = tile.make_buffer %plsep, %S : !fp -> !fb

  // Running state and the new partial. Log-sum-exps are read as [16, 1]
  // columns of a row-stride-1 matrix: token t is row t.
  %run_o = tile.load %accbuf[%t0, %c0] stride %a_s bounds %S, %d : !fb -> !f
  %run_l = tile.load %lsebuf[%t0, %c0] stride %c1 bounds %S, %c1 : !fb -> !r
  %p16 = tile.load %pobuf[%t0, %c0] stride %p_s bounds %S, %d : !hb -> !h
  %part_o = tile.convert %p16 : !h -> !f
  %part_l = tile.load %plsebuf[%t0, %c0] stride %c1 bounds %S, %c1 : !fb -> !r

  // m = max(L_a, L_b); where both are -inf use 0 instead, so that the
  // differences below are -inf (weight 0), never NaN.
  %m = tile.maxf %run_l, %part_l : !r
  %ninf_r = tile.splat %ninf : f32 -> !r
  %zero_r = tile.splat %zero : f32 -> !r
  %one_r = tile.splat %one : f32 -> !r
  %log2e_r = tile.splat %log2e : f32 -> !r
  %ln2_r = tile.splat %ln2 : f32 -> !r
  %empty = tile.cmpf oeq, %m, %ninf_r : !r -> !rm
  %ms = tile.select %empty, %zero_r, %m : !rm, !r
  %da = tile.subf %run_l, %ms : !r
  %db = tile.subf %part_l, %ms : !r
  %xa = tile.mulf %da, %log2e_r : !r
  %xb = tile.mulf %db, %log2e_r : !r
  %wa = tile.exp2 %xa : !r
  %wb = tile.exp2 %xb : !r
  %sum = tile.addf %wa, %wb : !r
  // A row with no key on either side: keep O = 0 (divide by 1, not 0).
  %nokey = tile.cmpf oeq, %sum, %zero_r : !r -> !rm
  %den = tile.select %nokey, %one_r, %sum : !rm, !r
  %inv = tile.divf %one_r, %den : !r
  %sa = tile.mulf %wa, %inv : !r
  %sb = tile.mulf %wb, %inv : !r
  %sa_f = tile.broadcast %sa : !r -> !f
  %sb_f = tile.broadcast %sb : !r -> !f
  %o_a_s = tile.mulf %sa_f, %run_o : !f
  %o_new = tile.fma %sb_f, %part_o, %o_a_s : !f
  // L = m + ln(sum) = m + log2(sum) * ln 2 (log2(0) = -inf: still empty).
  %lg = tile.log2 %sum : !r
  %l_new = tile.fma %lg, %ln2_r, %ms : !r

  scf.if %final {
    %o_off0 = arith.muli %b, %o_b : index
    %o_off1 = arith.muli %h, %o_h : index
    %o_off = arith.addi %o_off0, %o_off1 : index
    %o_n0 = arith.muli %sm1, %o_s : index
    %o_n = arith.addi %o_n0, %d : index
    %outp = tile.ptr_add %out, %o_off : !hp
    %outbuf = tile.make_buffer %outp, %o_n : !hp -> !hb
    %o16 = tile.convert %o_new : !f -> !h
    tile.store %o16, %outbuf[%t0, %c0] stride %o_s bounds %S, %d : !h, !hb
    scf.if %lse_out {
      %e_off0 = arith.muli %b, %e_b : index
      %e_off1 = arith.muli %h, %e_h : index
      %e_off = arith.addi %e_off0, %e_off1 : index
      %olsep = tile.ptr_add %olse, %e_off : !fp
      %olsebuf = tile.make_buffer %olsep, %S : !fp -> !fb
      tile.store %l_new, %olsebuf[%t0, %c0] stride %c1 bounds %S, %c1 : !r, !fb
    }
  } else {
    tile.store %o_new, %accbuf[%t0, %c0] stride %a_s bounds %S, %d : !f, !fb
    tile.store %l_new, %lsebuf[%t0, %c0] stride %c1 bounds %S, %c1 : !r, !fb
  }
  return
}
