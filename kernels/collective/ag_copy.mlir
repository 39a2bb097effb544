// kcc all-gather by copy: the baseline of the fused all-gather + GEMM.
//
// Rank `rank` gathers the shards A_p [M, Kl] (row-major, row stride Kl; one
// symmetric-heap allocation, at the same offset on every rank) of all ranks
// into its local [M, K] matrix (K = world * Kl): workgroup (i, p) copies
// rows [128 i, 128 i + 128) of rank p's shard, reading rank p's heap through
// tile.peer_ptr, into columns [p Kl, (p + 1) Kl). Each wave copies 32 rows,
// 64 columns per step; the stores are bounded by the shard's own columns, so
// a partial last step never writes a neighbour's columns.
//
// The GEMM that follows is a separate launch: the kernel boundary is the
// only synchronisation the baseline needs (and what the fused kernel saves).
//
// Parameters: DTYPE (bf16, f16). Launch: grid (ceil(M / 128), world),
// block 256.

tile.type_param_decl @DTYPE = bf16

!ptr = !tile.ptr<!tile.dtype<"DTYPE">>
!buf = !tile.buffer<!tile.dtype<"DTYPE">>
!piece = !tile.tile<[32, 64], !tile.dtype<"DTYPE">, #tile.blocked<[1, 4], [8, 8]>>

func.func @ag_copy(%a: !ptr, %bases: !tile.ptr<i64>, %gathered: !ptr,
                   %M: index, %K: index, %rank: index, %world: index)
    attributes {tile.kernel, tile.block_size = 256 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %i = tile.program_id 0
  %p = tile.program_id 1
  %wave = tile.wave_id
  %Kl = arith.divui %K, %world : index
  %shard_n = arith.muli %M, %Kl : index
  %src = tile.peer_ptr %a, %bases, %rank, %p : !ptr, !tile.ptr<i64>
  %srcbuf = tile.make_buffer %src, %shard_n : !ptr -> !buf
  %dst_n = arith.muli %M, %K : index
  %dstbuf = tile.make_buffer %gathered, %dst_n : !ptr -> !buf
  %rb = arith.muli %i, %c128 : index
  %rw = arith.muli %wave, %c32 : index
  %r0 = arith.addi %rb, %rw : index
  %col0 = arith.muli %p, %Kl : index
  %colend = arith.addi %col0, %Kl : index
  scf.for %k = %c0 to %Kl step %c64 {
    %t = tile.load %srcbuf[%r0, %k] stride %Kl bounds %M, %Kl : !buf -> !piece
    %kd = arith.addi %col0, %k : index
    tile.store %t, %dstbuf[%r0, %kd] stride %K bounds %M, %colend : !piece, !buf
  }
  return
}
