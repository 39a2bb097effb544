// c = a + b on n floats: the tutorial's first kernel (docs/tutorial.md).
// Each workgroup is one wave of 64 lanes and adds 256 elements, four per
// lane; elements at n and past it are neither read nor written.
// Launch: grid ceil(n / 256), block 64.

// One row of 256 f32: each lane holds 4 consecutive elements, the 64 lanes
// side by side.
!row = !tile.tile<[1, 256], f32, #tile.blocked<[1, 4], [1, 64]>>

func.func @vadd(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>,
                %n: index)
    attributes {tile.kernel, tile.block_size = 64 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %wg = tile.program_id 0
  %col = arith.muli %wg, %c256 : index
  %ba = tile.make_buffer %a, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %bb = tile.make_buffer %b, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %bc = tile.make_buffer %c, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  // The vectors as a 1 x n matrix; `bounds` masks the columns at n and past.
  %x = tile.load %ba[%c0, %col] stride %n bounds %c1, %n : !tile.buffer<f32> -> !row
  %y = tile.load %bb[%c0, %col] stride %n bounds %c1, %n : !tile.buffer<f32> -> !row
  %s = tile.addf %x, %y : !row
  tile.store %s, %bc[%c0, %col] stride %n bounds %c1, %n : !row, !tile.buffer<f32>
  return
}
