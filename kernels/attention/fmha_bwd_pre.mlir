// kcc FlashAttention backward, preprocessing: the per-query terms both
// backward kernels (fmha_bwd_dkdv.mlir, fmha_bwd_dq.mlir) need, side by side
// in one array STATS [B, H, 2, S_q] f32 (packed):
//   row 0, the exponent bias  -LSE log2(e): P = 2^(c s + bias), c the
//          softmax scale times log2(e); 0 for a query that sees no key
//          (LSE = -inf: its scores are all masked, and 0 keeps P at 0
//          instead of NaN);
//   row 1, Delta = rowsum(dO * O): the term the softmax's Jacobian
//          subtracts, dS = P * (dP - Delta).
// Computing them once here saves the other kernels a pass over O each, and
// having both in one array lets a workgroup move a query tile's values into
// LDS with one load per lane.
//
// O, dO [B, S_q, H, D] (strides in elements: batch, token, head; the head
// dimension contiguous); LSE [B, H, S_q] f32 packed, the forward's
// log-sum-exp (natural log).
//
// A wave takes 32 queries and reads O^T and dO^T [D, 32] in the MFMA
// accumulator layout (one query column per lane), so that the reduction
// over D is within the lane's registers plus one exchange between the
// wave's halves.
//
// Parameters: DTYPE (bf16, f16), D (64, 128), BLOCK (work-items; 32 queries
// per 64-lane wave).
// Launch: grid (ceil(S_q / (32 * waves)), H, B), block BLOCK.

tile.type_param_decl @DTYPE = bf16 of [bf16, f16]
tile.param_decl @D : i64 = 128
tile.param_decl @BLOCK : i64 = 256

!buf = !tile.buffer<!tile.dtype<"DTYPE">>
!ptr = !tile.ptr<!tile.dtype<"DTYPE">>
!ot = !tile.tile<[D, 32], !tile.dtype<"DTYPE">, #tile.mfma<acc>>
!o32 = !tile.tile<[D, 32], f32, #tile.mfma<acc>>
!row = !tile.tile<[1, 32], f32, #tile.slice<0, #tile.mfma<acc>>>
!rowm = !tile.tile<[1, 32], i1, #tile.slice<0, #tile.mfma<acc>>>

func.func @fmha_bwd_pre(%o: !ptr, %do: !ptr, %lse: !tile.ptr<f32>, %stats: !tile.ptr<f32>,
                        %Sq: index, %H: index,
                        %o_b: index, %o_s: index, %o_h: index,
                        %do_b: index, %do_s: index, %do_h: index)
    attributes {tile.kernel, tile.block_size = @BLOCK} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %d = tile.param @D : index
  %block = tile.param @BLOCK : index
  %bq = tile.program_id 0
  %h = tile.program_id 1
  %b = tile.program_id 2
  %waves = arith.divui %block, %c64 : index
  %wave = tile.wave_id
  %per_wg = arith.muli %waves, %c32 : index
  %qwg = arith.muli %bq, %per_wg : index
  %qw = arith.muli %wave, %c32 : index
  %q0 = arith.addi %qwg, %qw : index

  // Buffers over this batch and head, ending at the last query's row.
  %sq1 = arith.subi %Sq, %c1 : index
  %ooff_b = arith.muli %b, %o_b : index
  %ooff_h = arith.muli %h, %o_h : index
  %ooff = arith.addi %ooff_b, %ooff_h : index
  %doff_b = arith.muli %b, %do_b : index
  %doff_h = arith.muli %h, %do_h : index
  %doff = arith.addi %doff_b, %doff_h : index
  %on0 = arith.muli %sq1, %o_s : index
  %on = arith.addi %on0, %d : index
  %dn0 = arith.muli %sq1, %do_s : index
  %dn = arith.addi %dn0, %d : index
  %op = tile.ptr_add %o, %ooff : !ptr
  %dp = tile.ptr_add %do, %doff : !ptr
  %obuf = tile.make_buffer %op, %on : !ptr -> !buf
  %dbuf = tile.make_buffer %dp, %dn : !ptr -> !buf

  // Queries past S_q read as zero and their Delta is not stored.
  %ot = tile.load %obuf[%q0, %c0] stride %o_s bounds %Sq, %d transpose : !buf -> !ot
  %dot = tile.load %dbuf[%q0, %c0] stride %do_s bounds %Sq, %d transpose : !buf -> !ot
  %o32 = tile.convert %ot : !ot -> !o32
  %do32 = tile.convert %dot : !ot -> !o32
  %prod = tile.mulf %o32, %do32 : !o32
  %sum = tile.reduce_sum %prod dim 0 : !o32 -> !row

  %bh0 = arith.muli %b, %H : index
  %bh = arith.addi %bh0, %h : index
  %loff = arith.muli %bh, %Sq : index
  %lp = tile.ptr_add %lse, %loff : !tile.ptr<f32>
  %lbuf = tile.make_buffer %lp, %Sq : !tile.ptr<f32> -> !tile.buffer<f32>
  %lse_r = tile.load %lbuf[%c0, %q0] stride %c0 bounds %c1, %Sq : !tile.buffer<f32> -> !row
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %nlog2e = arith.constant -1.44269504 : f32
  %ninft = tile.splat %ninf : f32 -> !row
  %zt = tile.splat %zero : f32 -> !row
  %nlt = tile.splat %nlog2e : f32 -> !row
  %unseen = tile.cmpf oeq, %lse_r, %ninft : !row -> !rowm
  %lsafe = tile.select %unseen, %zt, %lse_r : !rowm, !row
  %bias = tile.mulf %lsafe, %nlt : !row

  %c2 = arith.constant 2 : index
  %soff = arith.muli %loff, %c2 : index
  %sp = tile.ptr_add %stats, %soff : !tile.ptr<f32>
  %sn = arith.muli %Sq, %c2 : index
  %sbuf = tile.make_buffer %sp, %sn : !tile.ptr<f32> -> !tile.buffer<f32>
  tile.store %bias, %sbuf[%c0, %q0] stride %Sq bounds %c2, %Sq : !row, !tile.buffer<f32>
  tile.store %sum, %sbuf[%c1, %q0] stride %Sq bounds %c2, %Sq : !row, !tile.buffer<f32>
  return
}
