// out = x + x on 64 floats: the kernel test/python/override.test dumps,
// edits (v_add_f32 -> v_mul_f32: x * x) and runs again through the JIT.
!t = !tile.tile<[1, 64], f32, #tile.blocked<[1, 1], [1, 64]>>
func.func @double(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %bx = tile.make_buffer %x, %c64 : !tile.ptr<f32> -> !tile.buffer<f32>
  %bo = tile.make_buffer %out, %c64 : !tile.ptr<f32> -> !tile.buffer<f32>
  %v = tile.load %bx[%c0, %c0] stride %c64 : !tile.buffer<f32> -> !t
  %d = tile.addf %v, %v : !t
  tile.store %d, %bo[%c0, %c0] stride %c64 : !t, !tile.buffer<f32>
  return
}
