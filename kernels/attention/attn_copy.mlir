// kcc attention operand copy: copies a [B, S, H, D] tensor of 16-bit
// elements between two strided views (element strides of batch, token and
// head; the pointers already at the views' first elements), any parity. The
// attention kernel reads K and V rows by 4-byte LDS DMA and Q, O rows with
// 4-byte and wider accesses, so rows must start 4-byte aligned:
// kcc::ops::attention_forward packs an operand whose strides or offset are
// odd into a contiguous copy with this kernel first (and copies O back).
//
// A workgroup is one wave; it copies 4 tokens of one (batch, head), one
// element per lane and row at a time, rows past S untouched.
// Launch: grid (ceil(S / 4), H, B), block 64.

tile.type_param_decl @DTYPE = bf16
tile.param_decl @D : i64 = 128

!buf = !tile.buffer<!tile.dtype<"DTYPE">>
!ptr = !tile.ptr<!tile.dtype<"DTYPE">>
!rows = !tile.tile<[4, D], !tile.dtype<"DTYPE">, #tile.blocked<[1, 1], [1, 64]>>

func.func @attn_copy(%src: !ptr, %dst: !ptr, %S: index,
                     %s_b: index, %s_s: index, %s_h: index,
                     %d_b: index, %d_s: index, %d_h: index)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %d = tile.param @D : index
  %t = tile.program_id 0
  %h = tile.program_id 1
  %b = tile.program_id 2
  %s0 = arith.muli %t, %c4 : index
  // This (batch, head)'s rows: S of them, `stride` apart.
  %sb = arith.muli %b, %s_b : index
  %sh = arith.muli %h, %s_h : index
  %soff = arith.addi %sb, %sh : index
  %db = arith.muli %b, %d_b : index
  %dh = arith.muli %h, %d_h : index
  %doff = arith.addi %db, %dh : index
  %s1 = arith.subi %S, %c1 : index
  %slast = arith.muli %s1, %s_s : index
  %sn = arith.addi %slast, %d : index
  %dlast = arith.muli %s1, %d_s : index
  %dn = arith.addi %dlast, %d : index
  %sp = tile.ptr_add %src, %soff : !ptr
  %dp = tile.ptr_add %dst, %doff : !ptr
  %sbuf = tile.make_buffer %sp, %sn : !ptr -> !buf
  %dbuf = tile.make_buffer %dp, %dn : !ptr -> !buf
  %x = tile.load %sbuf[%s0, %c0] stride %s_s bounds %S, %d : !buf -> !rows
  tile.store %x, %dbuf[%s0, %c0] stride %d_s bounds %S, %d : !rows, !buf
  return
}
