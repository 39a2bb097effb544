// RUN: kcc-opt %s --tile-expand-schedule | FileCheck %s
// RUN: kcc-opt %s --tile-expand-schedule --tile-expand-schedule | FileCheck %s

// tile.sched_interleave [P] x N becomes N copies of the group barriers of P,
// in order, with the pattern's sync id.
// CHECK-LABEL: func.func @interleave()
// CHECK-NEXT: tile.sched_group_barrier <mfma, 1>{{$}}
// CHECK-NEXT: tile.sched_group_barrier <valu, 2>{{$}}
// CHECK-NEXT: tile.sched_group_barrier <trans, 1>{{$}}
// CHECK-NEXT: tile.sched_group_barrier <mfma, 1>{{$}}
// CHECK-NEXT: tile.sched_group_barrier <valu, 2>{{$}}
// CHECK-NEXT: tile.sched_group_barrier <trans, 1>{{$}}
// CHECK-NEXT: tile.sched_group_barrier <ds_read, 1> sync 2{{$}}
// CHECK-NEXT: tile.sched_group_barrier <ds_read, 1> sync 2{{$}}
// CHECK-NEXT: tile.sched_group_barrier <ds_read, 1> sync 2{{$}}
// CHECK-NEXT: tile.sched_group_barrier <vmem_read, 4> sync 2{{$}}
// CHECK-NEXT: tile.setprio 1
// CHECK-NEXT: return
// CHECK-NOT: tile.sched_interleave
func.func @interleave() {
  tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<valu, 2>, #tile.group<trans, 1>] x 2
  tile.sched_interleave [#tile.group<ds_read, 1>] x 3 sync 2
  tile.sched_group_barrier #tile.group<vmem_read, 4> sync 2
  tile.setprio 1
  return
}

// tile.stagger: the lagging waves take an extra unfenced barrier before the
// body, the leading ones (lagging xor true) one after it.
// CHECK-LABEL: func.func @stagger(
// CHECK-SAME: %[[LAG:[^:]+]]: i1
// CHECK-NEXT: tile.setprio 3
// CHECK-NEXT: scf.if %[[LAG]] {
// CHECK-NEXT:   tile.barrier unfenced
// CHECK-NEXT: }
// CHECK-NEXT: tile.setprio 1
// CHECK-NEXT: tile.sched_group_barrier <mfma, 1>
// CHECK-NEXT: tile.barrier{{$}}
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[LEAD:.*]] = arith.xori %[[LAG]], %[[TRUE]] : i1
// CHECK-NEXT: scf.if %[[LEAD]] {
// CHECK-NEXT:   tile.barrier unfenced
// CHECK-NEXT: }
// CHECK-NEXT: tile.setprio 0
// CHECK-NEXT: return
// CHECK-NOT: tile.stagger
func.func @stagger(%lagging: i1) {
  tile.setprio 3
  tile.stagger %lagging {
    tile.setprio 1
    tile.sched_interleave [#tile.group<mfma, 1>] x 1
    tile.barrier
  }
  tile.setprio 0
  return
}

// A nested stagger expands where it lands; both leave balanced barriers.
// CHECK-LABEL: func.func @nested(
// CHECK-SAME: %[[A:[^:]+]]: i1, %[[B:[^:]+]]: i1
// CHECK-NEXT: scf.if %[[A]] {
// CHECK-NEXT:   tile.barrier unfenced
// CHECK-NEXT: }
// CHECK-NEXT: tile.setprio 2
// CHECK-NEXT: scf.if %[[B]] {
// CHECK-NEXT:   tile.barrier unfenced
// CHECK-NEXT: }
// CHECK-NEXT: tile.barrier{{$}}
// CHECK-NEXT: %[[T1:.*]] = arith.constant true
// CHECK-NEXT: %[[NB:.*]] = arith.xori %[[B]], %[[T1]] : i1
// CHECK-NEXT: scf.if %[[NB]] {
// CHECK-NEXT:   tile.barrier unfenced
// CHECK-NEXT: }
// CHECK-NEXT: %[[T2:.*]] = arith.constant true
// CHECK-NEXT: %[[NA:.*]] = arith.xori %[[A]], %[[T2]] : i1
// CHECK-NEXT: scf.if %[[NA]] {
// CHECK-NEXT:   tile.barrier unfenced
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @nested(%a: i1, %b: i1) {
  tile.stagger %a {
    tile.setprio 2
    tile.stagger %b {
      tile.barrier
    }
  }
  return
}

// Inside a loop, the expansion stays in the loop body.
// CHECK-LABEL: func.func @in_loop(
// CHECK: scf.for
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT:   tile.barrier unfenced
// CHECK-NEXT: }
// CHECK-NEXT: tile.sched_group_barrier <ds_read, 2>
// CHECK-NEXT: tile.sched_group_barrier <mfma, 1>
// CHECK-NEXT: tile.sched_group_barrier <ds_read, 2>
// CHECK-NEXT: tile.sched_group_barrier <mfma, 1>
// CHECK-NEXT: arith.constant true
// CHECK-NEXT: arith.xori
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT:   tile.barrier unfenced
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @in_loop(%lagging: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    tile.stagger %lagging {
      tile.sched_interleave [#tile.group<ds_read, 2>, #tile.group<mfma, 1>] x 2
    }
  }
  return
}

// A stagger with results: its uses take the values the body yielded, and
// the yield goes with the stagger.
// CHECK-LABEL: func.func @stagger_results(
// CHECK-SAME: %[[LAG:[^:]+]]: i1, %[[X:[^:]+]]: f32
// CHECK-NEXT: scf.if %[[LAG]] {
// CHECK-NEXT:   tile.barrier unfenced
// CHECK-NEXT: }
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[X]], %[[X]] : f32
// CHECK-NEXT: tile.barrier{{$}}
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[LEAD:.*]] = arith.xori %[[LAG]], %[[TRUE]] : i1
// CHECK-NEXT: scf.if %[[LEAD]] {
// CHECK-NEXT:   tile.barrier unfenced
// CHECK-NEXT: }
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[A]], %[[X]] : f32
// CHECK-NEXT: return %[[P]], %[[A]] : f32, f32
// CHECK-NOT: tile.yield
func.func @stagger_results(%lagging: i1, %x: f32) -> (f32, f32) {
  %r:2 = tile.stagger %lagging -> (f32, f32) {
    %a = arith.addf %x, %x : f32
    tile.barrier
    tile.yield %a, %x : f32, f32
  }
  %p = arith.mulf %r#0, %r#1 : f32
  return %p, %r#0 : f32, f32
}
