// RUN: kcc-opt %s --tile-specialize="chip=gfx942 params=BN=32,CAUSAL=1,DT=f16" | FileCheck %s --check-prefixes=CHECK,GFX942
// RUN: kcc-opt %s --tile-specialize="chip=gfx950 params=BN=32,CAUSAL=true,DT=f16" | FileCheck %s --check-prefixes=CHECK,GFX950
// RUN: kcc-opt %s --tile-specialize="chip=gfx950 params=CAUSAL=false" | FileCheck %s --check-prefix=DEFAULTS
// RUN: kcc-opt %s --tile-specialize="chip=gfx950 params=CAUSAL=0,BN=32,PAD=0,BLOCK=128,TR=1" | FileCheck %s --check-prefix=BOUND

// tile-specialize binds the parameters (given values first, then defaults),
// resolves the MFMA shapes left to the target, records the chip and the bound
// values on the module, and erases the declarations.

// GFX942: module attributes {tile.params = {BK = 16 : i64, BLOCK = 256 : i64, BM = 64 : i64, BN = 32 : i64, CAUSAL = 1 : i64, DT = f16, OUT = f32, PAD = 8 : i64, TR = 0 : i64}, tile.target = #tile.target<"gfx942">}
// GFX950: module attributes {tile.params = {BK = 16 : i64, BLOCK = 256 : i64, BM = 64 : i64, BN = 32 : i64, CAUSAL = 1 : i64, DT = f16, OUT = f32, PAD = 8 : i64, TR = 0 : i64}, tile.target = #tile.target<"gfx950">}
// CHECK-NOT: tile.param_decl
// CHECK-NOT: tile.type_param_decl
// DEFAULTS: module attributes {tile.params = {BK = 16 : i64, BLOCK = 256 : i64, BM = 64 : i64, BN = 64 : i64, CAUSAL = 0 : i64, DT = bf16, OUT = f32, PAD = 8 : i64, TR = 0 : i64}, tile.target = #tile.target<"gfx950">}
// DEFAULTS-NOT: tile.param_decl
// DEFAULTS-NOT: tile.type_param_decl
// BOUND: module attributes {tile.params = {BK = 16 : i64, BLOCK = 128 : i64, BM = 64 : i64, BN = 32 : i64, CAUSAL = 0 : i64, DT = bf16, OUT = f32, PAD = 0 : i64, TR = 1 : i64}, tile.target = #tile.target<"gfx950">}
tile.param_decl @BM : i64 = 64
tile.param_decl @BN : i64 = 64
tile.param_decl @BK : i64 = 16
tile.param_decl @CAUSAL : i1
tile.type_param_decl @DT = bf16
tile.type_param_decl @OUT = f32
tile.param_decl @PAD : i64 = 8
tile.param_decl @BLOCK : i64 = 256
tile.param_decl @TR : i1 = false

// CHECK-LABEL: func.func @values()
// CHECK-DAG: %[[BM:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[BN:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[BN64:.*]] = arith.constant 32 : i64
// CHECK-DAG: %[[CAUSAL:.*]] = arith.constant true
// CHECK-NOT: tile.param
// CHECK: return %[[BM]], %[[BN]], %[[BN64]], %[[CAUSAL]] : index, index, i64, i1
// DEFAULTS-LABEL: func.func @values()
// DEFAULTS-DAG: %[[BM:.*]] = arith.constant 64 : index
// DEFAULTS-DAG: %[[BN:.*]] = arith.constant 64 : index
// DEFAULTS-DAG: %[[BN64:.*]] = arith.constant 64 : i64
// DEFAULTS-DAG: %[[CAUSAL:.*]] = arith.constant false
// DEFAULTS: return %[[BM]], %[[BN]], %[[BN64]], %[[CAUSAL]] : index, index, i64, i1
func.func @values() -> (index, index, i64, i1) {
  %bm = tile.param @BM : index
  %bn = tile.param @BN : index
  %bn64 = tile.param @BN : i64
  %causal = tile.param @CAUSAL : i1
  return %bm, %bn, %bn64, %causal : index, index, i64, i1
}

// Parameter-named dimensions and dtypes, in block arguments and results, and
// MFMA shapes: 32x32x8 / 16x16x16 on gfx942, 32x32x16 / 16x16x32 on gfx950.
// Explicit shapes stay as written.
// CHECK-LABEL: func.func @types(
// GFX942-SAME: %{{.*}}: !tile.ptr<f16>, %{{.*}}: !tile.ptr<f32>,
// GFX942-SAME: %{{.*}}: !tile.tile<[64, 16], f16, #tile.mfma<a, 32x32x8>>,
// GFX942-SAME: %{{.*}}: !tile.tile<[16, 32], f16, #tile.mfma<b, 32x32x8>>,
// GFX942-SAME: %{{.*}}: !tile.tile<[64, 32], f32, #tile.mfma<acc, 32x32x8>>,
// GFX942-SAME: %{{.*}}: !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16x16>>,
// GFX942-SAME: %{{.*}}: !tile.tile<[64, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x8>>>,
// GFX942-SAME: %{{.*}}: !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16>>,
// GFX950-SAME: %{{.*}}: !tile.ptr<f16>, %{{.*}}: !tile.ptr<f32>,
// GFX950-SAME: %{{.*}}: !tile.tile<[64, 16], f16, #tile.mfma<a, 32x32x16>>,
// GFX950-SAME: %{{.*}}: !tile.tile<[16, 32], f16, #tile.mfma<b, 32x32x16>>,
// GFX950-SAME: %{{.*}}: !tile.tile<[64, 32], f32, #tile.mfma<acc, 32x32x16>>,
// GFX950-SAME: %{{.*}}: !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16x32>>,
// GFX950-SAME: %{{.*}}: !tile.tile<[64, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x16>>>,
// GFX950-SAME: %{{.*}}: !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16>>,
// CHECK: tile.make_buffer %{{.*}}, %{{.*}} : <f16> -> <f16>
// CHECK: tile.lds_alloc "a" : <[64, 16], f16, pad = 8, stages = 2>
// GFX942: tile.lds_load %{{.*}}[%{{.*}}] [%{{.*}}, %{{.*}}] : <[64, 16], f16, pad = 8, stages = 2> -> <[64, 16], f16, #tile.mfma<a, 32x32x8>>
// GFX950: tile.lds_load %{{.*}}[%{{.*}}] [%{{.*}}, %{{.*}}] : <[64, 16], f16, pad = 8, stages = 2> -> <[64, 16], f16, #tile.mfma<a, 32x32x16>>
// GFX942: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : <[64, 16], f16, #tile.mfma<a, 32x32x8>>, <[16, 32], f16, #tile.mfma<b, 32x32x8>> -> <[64, 32], f32, #tile.mfma<acc, 32x32x8>>
// GFX950: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : <[64, 16], f16, #tile.mfma<a, 32x32x16>>, <[16, 32], f16, #tile.mfma<b, 32x32x16>> -> <[64, 32], f32, #tile.mfma<acc, 32x32x16>>
// GFX942: tile.reduce_max %{{.*}} dim 1 : <[64, 32], f32, #tile.mfma<acc, 32x32x8>> -> <[64, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x8>>>
// GFX950: tile.reduce_max %{{.*}} dim 1 : <[64, 32], f32, #tile.mfma<acc, 32x32x16>> -> <[64, 1], f32, #tile.slice<1, #tile.mfma<acc, 32x32x16>>>
// CHECK: tile.convert %{{.*}} : <[64, 32], f32, #tile.mfma<acc, {{32x32x8|32x32x16}}>> -> <[64, 32], f32, #tile.mfma<acc, {{32x32x8|32x32x16}}>>
// DEFAULTS-LABEL: func.func @types(
// DEFAULTS-SAME: %{{.*}}: !tile.ptr<bf16>, %{{.*}}: !tile.ptr<f32>,
// DEFAULTS-SAME: %{{.*}}: !tile.tile<[64, 16], bf16, #tile.mfma<a, 32x32x16>>,
// DEFAULTS-SAME: %{{.*}}: !tile.tile<[16, 64], bf16, #tile.mfma<b, 32x32x16>>,
// DEFAULTS-SAME: %{{.*}}: !tile.tile<[64, 64], f32, #tile.mfma<acc, 32x32x16>>,
func.func @types(%p: !tile.ptr<!tile.dtype<"DT">>, %q: !tile.ptr<!tile.dtype<"OUT">>,
                 %a: !tile.tile<[BM, BK], !tile.dtype<"DT">, #tile.mfma<a>>,
                 %b: !tile.tile<[BK, BN], !tile.dtype<"DT">, #tile.mfma<b>>,
                 %c: !tile.tile<[BM, BN], f32, #tile.mfma<acc>>,
                 %d: !tile.tile<[32, 32], f32, #tile.mfma<acc, 16x16>>,
                 %e: !tile.tile<[BM, 1], f32, #tile.slice<1, #tile.mfma<acc>>>,
                 %g: !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16>>,
                 %n: index, %i: index) {
  %buf = tile.make_buffer %p, %n : !tile.ptr<!tile.dtype<"DT">> -> !tile.buffer<!tile.dtype<"DT">>
  %lds = tile.lds_alloc "a" : !tile.lds<[BM, BK], !tile.dtype<"DT">, pad = 8, stages = 2>
  %fa = tile.lds_load %lds[%i][%i, %i] : !tile.lds<[BM, BK], !tile.dtype<"DT">, pad = 8, stages = 2> -> !tile.tile<[BM, BK], !tile.dtype<"DT">, #tile.mfma<a>>
  %0 = tile.mma %fa, %b, %c : !tile.tile<[BM, BK], !tile.dtype<"DT">, #tile.mfma<a>>, !tile.tile<[BK, BN], !tile.dtype<"DT">, #tile.mfma<b>> -> !tile.tile<[BM, BN], f32, #tile.mfma<acc>>
  %1 = tile.reduce_max %0 dim 1 : !tile.tile<[BM, BN], f32, #tile.mfma<acc>> -> !tile.tile<[BM, 1], f32, #tile.slice<1, #tile.mfma<acc>>>
  %2 = tile.convert %0 : !tile.tile<[BM, BN], f32, #tile.mfma<acc>> -> !tile.tile<[BM, BN], !tile.dtype<"OUT">, #tile.mfma<acc>>
  return
}

// Ops whose types hold no parameters pass through unchanged.
// CHECK-LABEL: func.func @untouched(
// CHECK: tile.splat %{{.*}} : f32 -> <[8, 64], f32, #tile.blocked<[1, 8], [8, 8]>>
// CHECK: tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<valu, 2>] x 4
func.func @untouched(%f: f32) {
  %0 = tile.splat %f : f32 -> !tile.tile<[8, 64], f32, #tile.blocked<[1, 8], [8, 8]>>
  tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<valu, 2>] x 4
  return
}

// A parameter-named LDS pad and workgroup size are bound like dimensions; a
// pad of 0 is no pad.
// CHECK-LABEL: func.func @named_pad_and_block()
// CHECK-SAME: attributes {tile.block_size = 256 : i64, tile.kernel}
// CHECK: tile.lds_alloc "k" : <[64, 64], bf16, pad = 8>
// CHECK: tile.lds_alloc "v" : <[64, 16], {{f16|bf16}}, pad = 8, stages = 2>
// DEFAULTS-LABEL: func.func @named_pad_and_block()
// DEFAULTS-SAME: attributes {tile.block_size = 256 : i64, tile.kernel}
// DEFAULTS: tile.lds_alloc "k" : <[64, 64], bf16, pad = 8>
// BOUND-LABEL: func.func @named_pad_and_block()
// BOUND-SAME: attributes {tile.block_size = 128 : i64, tile.kernel}
// BOUND: tile.lds_alloc "k" : <[64, 64], bf16>
// BOUND: tile.lds_alloc "v" : <[64, 16], bf16, stages = 2>
func.func @named_pad_and_block() attributes {tile.kernel, tile.block_size = @BLOCK} {
  %k = tile.lds_alloc "k" : !tile.lds<[BM, 64], bf16, pad = PAD>
  %v = tile.lds_alloc "v" : !tile.lds<[BM, BK], !tile.dtype<"DT">, stages = 2, pad = PAD>
  return
}

// scf.if on a condition that folds from the parameters is replaced by the
// branch it takes (its results by the yielded values); the other branch is
// erased. Conditions that do not fold stay, and nothing else is folded (the
// compare that decided a branch is still there).
// CHECK-LABEL: func.func @branches(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[I:[^:]*]]: index
// GFX942-NOT: arith.mulf
// GFX942: %[[A:.*]] = arith.addf %[[X]], %[[X]] : f32
// GFX942-NOT: arith.mulf
// GFX942: arith.cmpi sge
// GFX942-NOT: tile.setprio 1
// GFX942: tile.setprio 2
// CHECK-NOT: tile.setprio 1
// CHECK: %[[DYN:.*]] = arith.cmpi eq, %[[I]], %{{.*}} : index
// CHECK-NEXT: scf.if %[[DYN]] {
// CHECK-NEXT:   tile.setprio 3
// CHECK-NEXT: }
// GFX942-NEXT: return %[[A]] : f32
// DEFAULTS-LABEL: func.func @branches(
// DEFAULTS-SAME: %[[X:[^:]*]]: f32, %[[I:[^:]*]]: index
// DEFAULTS-NOT: arith.addf
// DEFAULTS: %[[M:.*]] = arith.mulf %[[X]], %[[X]] : f32
// DEFAULTS-NOT: arith.addf
// DEFAULTS-NOT: tile.setprio 2
// DEFAULTS: tile.setprio 1
// DEFAULTS-NOT: tile.setprio 2
// DEFAULTS: scf.if
// DEFAULTS-NEXT: tile.setprio 3
// DEFAULTS: return %[[M]] : f32
func.func @branches(%x: f32, %i: index) -> f32 {
  %causal = tile.param @CAUSAL : i1
  %r = scf.if %causal -> f32 {
    %a = arith.addf %x, %x : f32
    scf.yield %a : f32
  } else {
    %m = arith.mulf %x, %x : f32
    scf.yield %m : f32
  }
  %bn = tile.param @BN : index
  %c64 = arith.constant 64 : index
  %wide = arith.cmpi sge, %bn, %c64 : index
  scf.if %wide {
    tile.setprio 1
  } else {
    tile.setprio 2
  }
  %dyn = arith.cmpi eq, %i, %c64 : index
  scf.if %dyn {
    tile.setprio 3
  }
  return %r : f32
}

// A branch for one chip (gfx950's 32x32x16 MFMA and transposing LDS read)
// behind a flag: erased, with the scf.if nested in it, when the flag is off,
// so the module verifies on gfx942; taken, with its nested scf.if decided
// too, when it is on.
// CHECK-LABEL: func.func @chip_branch(
// CHECK-NOT: scf.if
// CHECK-NOT: tile.mma
// CHECK-NOT: tile.lds_load
// CHECK-NOT: tile.barrier
// CHECK: tile.setprio 2
// CHECK-NEXT: return
// BOUND-LABEL: func.func @chip_branch(
// BOUND-NOT: scf.if
// BOUND: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : <[32, 16], bf16, #tile.mfma<a, 32x32x16>>
// BOUND: tile.lds_load %{{.*}}[%{{.*}}] [%{{.*}}, %{{.*}}] : <[16, 32], bf16> -> <[16, 32], bf16, #tile.mfma<b, 32x32x16>>
// BOUND-NOT: tile.barrier unfenced
// BOUND: tile.barrier{{$}}
// BOUND-NOT: tile.setprio 2
// BOUND: return
func.func @chip_branch(%i: index, %a: !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16>>,
                       %b: !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16>>,
                       %c: !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>) {
  %tr = tile.param @TR : i1
  %causal = tile.param @CAUSAL : i1
  scf.if %tr {
    %0 = tile.mma %a, %b, %c : !tile.tile<[32, 16], bf16, #tile.mfma<a, 32x32x16>>, !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc, 32x32x16>>
    %l = tile.lds_alloc "b" : !tile.lds<[16, 32], bf16>
    %1 = tile.lds_load %l[%i][%i, %i] : !tile.lds<[16, 32], bf16> -> !tile.tile<[16, 32], bf16, #tile.mfma<b, 32x32x16>>
    scf.if %causal {
      tile.barrier unfenced
    } else {
      tile.barrier
    }
  } else {
    tile.setprio 2
  }
  return
}
