// kcc ring attention: moving K/V chunks between ranks over a symmetric heap.
//
// Every rank publishes its K/V shard into its part of the symmetric heap and
// releases a per-chunk flag; a rank fetching that chunk at a later step reads
// it straight from the owner's heap (peer access) after acquiring the flag.
// Chunks are read from their owner directly (not forwarded hop by hop), so
// the chunk of rank i is fetched by rank j only at step |i - j| of the
// bidirectional schedule and the owner's copy is never overwritten during a
// call.
//
//  * ring_pack: copies one [B, S, H, D] tensor with arbitrary token/head/
//    batch strides (the caller's K or V) into a packed tensor (the heap's
//    chunk area). Grid (ceil(S / 64), H, B), block 256: a wave moves 16
//    tokens x D.
//  * ring_signal: flags[index] = value with release at system scope (one
//    wave). Launched after ring_pack on the same device: the launches are
//    ordered, and the release makes the packed chunk visible to every agent
//    that acquires the flag - other GPUs and, in shared memory, other
//    processes.
//  * ring_fetch: copies up to two packed regions of `rows` x D elements from
//    ranks src0 and src1 (a step's left and right neighbours at distance s)
//    into this rank's staging buffers. `src*` and `flags` are addresses in
//    this rank's heap; tile.peer_ptr moves them to the owner's heap. Every
//    wave first spins on the owner's ready flag (acquire, system scope) so
//    that no byte is read before the owner released it. Grid
//    (ceil(max rows / 64), 2), block 256; program_id 1 picks the region; a
//    region of 0 rows is skipped.
//
// Parameters: DTYPE (bf16, f16), D (64, 128).

tile.type_param_decl @DTYPE = bf16
tile.param_decl @D : i64 = 128

!t = !tile.tile<[16, D], !tile.dtype<"DTYPE">, #tile.blocked<[1, 4], [4, 16]>>
!hb = !tile.buffer<!tile.dtype<"DTYPE">>
!hp = !tile.ptr<!tile.dtype<"DTYPE">>
!ip = !tile.ptr<i32>
!bp = !tile.ptr<i64>

func.func @ring_pack(%src: !hp, %dst: !hp, %S: index,
                     %s_b: index, %s_s: index, %s_h: index,
                     %d_b: index, %d_s: index, %d_h: index)
    attributes {tile.kernel, tile.block_size = 256 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %d = tile.param @D : index
  %blk = tile.program_id 0
  %h = tile.program_id 1
  %b = tile.program_id 2
  %wave = tile.wave_id
  %tb = arith.muli %blk, %c64 : index
  %tw = arith.muli %wave, %c16 : index
  %t0 = arith.addi %tb, %tw : index
  %sm1 = arith.subi %S, %c1 : index

  %so0 = arith.muli %b, %s_b : index
  %so1 = arith.muli %h, %s_h : index
  %so = arith.addi %so0, %so1 : index
  %sn0 = arith.muli %sm1, %s_s : index
  %sn = arith.addi %sn0, %d : index
  %sp = tile.ptr_add %src, %so : !hp
  %sbuf = tile.make_buffer %sp, %sn : !hp -> !hb
  %do0 = arith.muli %b, %d_b : index
  %do1 = arith.muli %h, %d_h : index
  %do = arith.addi %do0, %do1 : index
  %dn0 = arith.muli %sm1, %d_s : index
  %dn = arith.addi %dn0, %d : index
  %dp = tile.ptr_add %dst, %do : !hp
  %dbuf = tile.make_buffer %dp, %dn : !hp -> !hb

  %x = tile.load %sbuf[%t0, %c0] stride %s_s bounds %S, %d : !hb -> !t
  tile.store %x, %dbuf[%t0, %c0] stride %d_s bounds %S, %d : !t, !hb
  return
}

func.func @ring_signal(%flags: !ip, %index: index, %value: i32)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  tile.flag_store %flags[%index], %value system : !ip
  return
}

func.func @ring_fetch(%bases: !bp, %me: index, %flags: !ip, %epoch: i32,
                      %src0: !hp, %dst0: !hp, %rank0: index, %rows0: index,
                      %src1: !hp, %dst1: !hp, %rank1: index, %rows1: index)
    attributes {tile.kernel, tile.block_size = 256 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %d = tile.param @D : index
  %blk = tile.program_id 0
  %which = tile.program_id 1
  %wave = tile.wave_id
  %tb = arith.muli %blk, %c64 : index
  %tw = arith.muli %wave, %c16 : index
  %t0 = arith.addi %tb, %tw : index

  %second = arith.cmpi eq, %which, %c1 : index
  %src = arith.select %second, %src1, %src0 : !hp
  %dst = arith.select %second, %dst1, %dst0 : !hp
  %rank = arith.select %second, %rank1, %rank0 : index
  %rows = arith.select %second, %rows1, %rows0 : index
  // Whole workgroups past the region (the other region may be longer, or
  // this one empty) have nothing to move and must not wait on a flag that
  // nobody releases in this call.
  %active = arith.cmpi ult, %tb, %rows : index
  scf.if %active {
    %pflags = tile.peer_ptr %flags, %bases, %me, %rank : !ip, !bp
    tile.flag_wait %pflags[%c0] ge %epoch system : !ip
    %psrc = tile.peer_ptr %src, %bases, %me, %rank : !hp, !bp
    %n = arith.muli %rows, %d : index
    %sbuf = tile.make_buffer %psrc, %n : !hp -> !hb
    %dbuf = tile.make_buffer %dst, %n : !hp -> !hb
    %x = tile.load %sbuf[%t0, %c0] stride %d bounds %rows, %d : !hb -> !t
    tile.store %x, %dbuf[%t0, %c0] stride %d bounds %rows, %d : !t, !hb
  }
  return
}
