// out = x * factor on n floats (n <= 64): a kernel with a float and an index
// argument, for the C launcher test.
!t = !tile.tile<[1, 64], f32, #tile.blocked<[1, 1], [1, 64]>>
func.func @scale(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %factor: f32, %n: index)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %bx = tile.make_buffer %x, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %bo = tile.make_buffer %out, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %v = tile.load %bx[%c0, %c0] stride %c64 : !tile.buffer<f32> -> !t
  %f = tile.splat %factor : f32 -> !t
  %d = tile.mulf %v, %f : !t
  tile.store %d, %bo[%c0, %c0] stride %c64 : !t, !tile.buffer<f32>
  return
}
