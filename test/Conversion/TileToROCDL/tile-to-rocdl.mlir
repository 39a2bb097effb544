// RUN: split-file %s %t
// RUN: kcc-opt %t/common.mlir --tile-specialize=chip=gfx942 --tile-allocate-lds --tile-expand-schedule --convert-tile-to-rocdl | FileCheck %t/common.mlir --check-prefixes=CHECK,GFX942
// RUN: kcc-opt %t/common.mlir --tile-specialize=chip=gfx950 --tile-allocate-lds --tile-expand-schedule --convert-tile-to-rocdl | FileCheck %t/common.mlir --check-prefixes=CHECK,GFX950
// RUN: kcc-opt %t/common.mlir --tile-specialize="chip=gfx942 params=DT=f16" --tile-allocate-lds --tile-expand-schedule --convert-tile-to-rocdl | FileCheck %t/common.mlir --check-prefix=F16-GFX942
// RUN: kcc-opt %t/common.mlir --tile-specialize="chip=gfx950 params=DT=f16" --tile-allocate-lds --tile-expand-schedule --convert-tile-to-rocdl | FileCheck %t/common.mlir --check-prefix=F16-GFX950
//
// What only gfx950 has (the transposing LDS read, 16-byte LDS DMA); the same
// source is rejected at the ops on gfx942.
// RUN: kcc-opt %t/gfx950.mlir --tile-specialize=chip=gfx950 --tile-allocate-lds --tile-expand-schedule --convert-tile-to-rocdl | FileCheck %t/gfx950.mlir
// RUN: kcc-opt %t/gfx950.mlir --tile-specialize=chip=gfx942 -verify-diagnostics
//
// The ops and layouts of attention (k_from_acc operands, transposed stores,
// log2/any/cmpf/divf/fma, ptr_add, wait_vmcnt, DMA by some waves).
// RUN: kcc-opt %t/attention.mlir --tile-specialize=chip=gfx942 --tile-allocate-lds --tile-expand-schedule --convert-tile-to-rocdl | FileCheck %t/attention.mlir --check-prefixes=CHECK,GFX942
// RUN: kcc-opt %t/attention.mlir --tile-specialize=chip=gfx950 --tile-allocate-lds --tile-expand-schedule --convert-tile-to-rocdl | FileCheck %t/attention.mlir --check-prefixes=CHECK,GFX950
// A wait count that is not a constant when lowered (no canonicalisation ran).
// RUN: not kcc-opt %t/wait-vmcnt.mlir --tile-specialize=chip=gfx942 --convert-tile-to-rocdl 2>&1 | FileCheck %t/wait-vmcnt.mlir

// The lowering of every tile op family to LLVM + ROCDL, after the passes that
// precede it in the pipeline.

//--- common.mlir
// One LDS alias scope domain per kernel, one scope per buffer.
// CHECK: #[[DOMAIN:alias_scope_domain[0-9]*]] = #llvm.alias_scope_domain<id = distinct[{{[0-9]+}}]<>, description = "kcc LDS of lds">
// CHECK-DAG: #[[SCOPE_A:alias_scope[0-9]*]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOMAIN]], description = "a">
// CHECK-DAG: #[[SCOPE_C:alias_scope[0-9]*]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOMAIN]], description = "c">
// CHECK: module attributes {{{.*}}tile.target = #tile.target<"{{gfx942|gfx950}}">
// CHECK: llvm.mlir.global internal @__kcc_lds.lds() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4096 x i8>
// CHECK-NOT: llvm.mlir.global
tile.type_param_decl @DT = bf16

// Kernels get rocdl.kernel and their workgroup size (64 when not given);
// other functions neither.
// CHECK-LABEL: llvm.func @kernel()
// CHECK-SAME: rocdl.flat_work_group_size = "256,256", rocdl.kernel, rocdl.reqd_work_group_size = array<i32: 256, 1, 1>
func.func @kernel() attributes {tile.kernel, tile.block_size = 256 : i64} {
  return
}

// CHECK-LABEL: llvm.func @kernel_default_block()
// CHECK-SAME: rocdl.flat_work_group_size = "64,64", rocdl.kernel, rocdl.reqd_work_group_size = array<i32: 64, 1, 1>
func.func @kernel_default_block() attributes {tile.kernel} {
  return
}

// CHECK-LABEL: llvm.func @not_a_kernel()
// CHECK-SAME: attributes {tile.lds_bytes = 0 : i64} {
func.func @not_a_kernel() {
  return
}

//===----------------------------------------------------------------------===//
// Ids
//===----------------------------------------------------------------------===//

// CHECK-LABEL: llvm.func @ids() -> !llvm.struct<(i32, i32, i32, i32, i32)>
// CHECK: %[[X:.*]] = rocdl.workgroup.id.x : i32
// CHECK: %[[Y:.*]] = rocdl.workgroup.id.y : i32
// num_programs 2: hidden_block_count_z, the third word of the implicit arguments.
// CHECK: %[[IMPL:.*]] = llvm.call_intrinsic "llvm.amdgcn.implicitarg.ptr"() : () -> !llvm.ptr<4>
// CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[IMPL]][8] : (!llvm.ptr<4>) -> !llvm.ptr<4>, i8
// CHECK: %[[NZ:.*]] = llvm.load %[[ADDR]] invariant {alignment = 4 : i64} : !llvm.ptr<4> -> i32
// wave_id: workitem id / 64, made uniform.
// CHECK: %[[TID:.*]] = rocdl.workitem.id.x : i32
// CHECK: %[[SIX:.*]] = llvm.mlir.constant(6 : i32) : i32
// CHECK: %[[WAVE:.*]] = llvm.lshr %[[TID]], %[[SIX]] : i32
// CHECK: %[[UNIFORM:.*]] = rocdl.readfirstlane %[[WAVE]] : i32
// lane_id: mbcnt over the whole exec mask.
// CHECK: %[[ALL:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK: %[[LO:.*]] = rocdl.mbcnt.lo %[[ALL]], %{{.*}} : (i32, i32) -> i32
// CHECK: %[[LANE:.*]] = rocdl.mbcnt.hi %[[ALL]], %[[LO]] : (i32, i32) -> i32
// CHECK: llvm.insertvalue %[[X]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[Y]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[NZ]], %{{.*}}[2]
// CHECK: llvm.insertvalue %[[UNIFORM]], %{{.*}}[3]
// CHECK: llvm.insertvalue %[[LANE]], %{{.*}}[4]
func.func @ids() -> (index, index, index, index, index) {
  %0 = tile.program_id 0
  %1 = tile.program_id 1
  %2 = tile.num_programs 2
  %3 = tile.wave_id
  %4 = tile.lane_id
  return %0, %1, %2, %3, %4 : index, index, index, index, index
}

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

// A buffer resource over n * 2 bytes with the CDNA data format word
// (7 << 12 | 4 << 15); 8 bf16 per lane in a row: one 16-byte load and store.
// CHECK-LABEL: llvm.func @global(%arg0: !llvm.ptr<1>, %arg1: i32, %arg2: i32)
// CHECK: %[[N:.*]] = llvm.zext %arg1 : i32 to i64
// CHECK: %[[ESIZE:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK: %[[BYTES:.*]] = llvm.mul %[[N]], %[[ESIZE]] : i64
// CHECK: %[[STRIDE:.*]] = llvm.mlir.constant(0 : i16) : i16
// CHECK: %[[FLAGS:.*]] = llvm.mlir.constant(159744 : i32) : i32
// CHECK: %[[RSRC:.*]] = rocdl.make.buffer.rsrc %arg0, %[[STRIDE]], %[[BYTES]], %[[FLAGS]] : <1> to <8>
// CHECK: %[[V:.*]] = rocdl.raw.ptr.buffer.load %[[RSRC]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK-NEXT: llvm.bitcast %[[V]] : vector<4xi32> to vector<8xbf16>
// CHECK-NOT: rocdl.raw.ptr.buffer.load
// CHECK: %[[W:.*]] = llvm.bitcast %{{.*}} : vector<8xbf16> to vector<4xi32>
// CHECK-NEXT: rocdl.raw.ptr.buffer.store %[[W]], %[[RSRC]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK-NOT: rocdl.raw.ptr.buffer.store
// CHECK: llvm.return
func.func @global(%p: !tile.ptr<bf16>, %n: index, %i: index) {
  %buf = tile.make_buffer %p, %n : !tile.ptr<bf16> -> !tile.buffer<bf16>
  %t = tile.load %buf[%i, %i] stride %n : !tile.buffer<bf16> -> !tile.tile<[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>
  tile.store %t, %buf[%i, %i] stride %n : !tile.tile<[8, 64], bf16, #tile.blocked<[1, 8], [8, 8]>>, !tile.buffer<bf16>
  return
}

// With bounds, an access outside them gets an offset past every buffer
// (0x80000000): the load reads 0 and the store is dropped. Loads stay wide,
// stores go element by element.
// CHECK-LABEL: llvm.func @global_bounds(
// CHECK: %[[RSRC:.*]] = rocdl.make.buffer.rsrc
// CHECK: %[[INROW:.*]] = llvm.icmp "ult" %{{.*}}, %arg1 : i32
// CHECK: %[[INCOL:.*]] = llvm.icmp "ult" %{{.*}}, %arg1 : i32
// CHECK: %[[IN:.*]] = llvm.and %[[INROW]], %[[INCOL]] : i1
// CHECK: %[[OUT:.*]] = llvm.mlir.constant(-2147483648 : i32) : i32
// CHECK: %[[OFF:.*]] = llvm.select %[[IN]], %{{.*}}, %[[OUT]] : i1, i32
// CHECK: rocdl.raw.ptr.buffer.load %[[RSRC]], %[[OFF]], %{{.*}}, %{{.*}} : vector<2xi32>
// The second element of the pair is zeroed when its column is outside.
// CHECK: %[[ZERO:.*]] = llvm.mlir.zero : f32
// CHECK: llvm.select %{{.*}}, %{{.*}}, %[[ZERO]] : i1, f32
// CHECK-NOT: rocdl.raw.ptr.buffer.load
// CHECK: llvm.mlir.constant(-2147483648 : i32)
// CHECK: rocdl.raw.ptr.buffer.store %{{.*}}, %[[RSRC]], %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK: llvm.mlir.constant(-2147483648 : i32)
// CHECK: rocdl.raw.ptr.buffer.store %{{.*}}, %[[RSRC]], %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK-NOT: rocdl.raw.ptr.buffer.store
// CHECK: llvm.return
func.func @global_bounds(%p: !tile.ptr<f32>, %n: index, %i: index) {
  %buf = tile.make_buffer %p, %n : !tile.ptr<f32> -> !tile.buffer<f32>
  %t = tile.load %buf[%i, %i] stride %n bounds %n, %n : !tile.buffer<f32> -> !tile.tile<[64, 2], f32, #tile.blocked<[1, 2], [64, 1]>>
  tile.store %t, %buf[%i, %i] stride %n bounds %n, %n : !tile.tile<[64, 2], f32, #tile.blocked<[1, 2], [64, 1]>>, !tile.buffer<f32>
  return
}

// A b operand read from the transposed (N x K) matrix: each lane's K run is
// contiguous, 4 elements on gfx942 (32x32x8), 8 on gfx950 (32x32x16).
// CHECK-LABEL: llvm.func @global_transpose(%arg0: !llvm.ptr<8>, %arg1: i32, %arg2: i32) -> vector<8xbf16>
// GFX942-COUNT-2: rocdl.raw.ptr.buffer.load %arg0, %{{.*}}, %{{.*}}, %{{.*}} : vector<2xi32>
// GFX950: rocdl.raw.ptr.buffer.load %arg0, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK-NOT: rocdl.raw.ptr.buffer.load
// CHECK: llvm.return
func.func @global_transpose(%b: !tile.buffer<bf16>, %n: index, %i: index) -> !tile.tile<[16, 32], bf16, #tile.mfma<b>> {
  %t = tile.load %b[%i, %i] stride %n transpose : !tile.buffer<bf16> -> !tile.tile<[16, 32], bf16, #tile.mfma<b>>
  return %t : !tile.tile<[16, 32], bf16, #tile.mfma<b>>
}

//===----------------------------------------------------------------------===//
// LDS
//===----------------------------------------------------------------------===//

// "a" (32 x 16 bf16, 1024 bytes) at 0 and "c" (32 rows of 16 + 8 bf16, two
// stages) at 1024 in the kernel's LDS array, each with its own alias scope.
// CHECK-LABEL: llvm.func @lds(%arg0: !llvm.ptr<8>, %arg1: i32, %arg2: i32)
// CHECK-SAME: rocdl.flat_work_group_size = "128,128", rocdl.kernel
// CHECK-SAME: tile.lds_bytes = 4096 : i64
// CHECK: %[[G0:.*]] = llvm.mlir.addressof @__kcc_lds.lds : !llvm.ptr<3>
// CHECK-NEXT: %[[A:.*]] = llvm.getelementptr inbounds %[[G0]][0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[G1:.*]] = llvm.mlir.addressof @__kcc_lds.lds : !llvm.ptr<3>
// CHECK-NEXT: %[[C:.*]] = llvm.getelementptr inbounds %[[G1]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// async_copy: 4 DMA lines of 64 lanes x 4 bytes, 2 for each of the 2 waves.
// CHECK: %[[TID:.*]] = rocdl.workitem.id.x : i32
// CHECK: rocdl.readfirstlane
// CHECK: %[[STAGE:.*]] = llvm.getelementptr inbounds %[[A]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[W1:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: rocdl.raw.ptr.buffer.load.lds %arg0, %{{.*}}, %[[W1]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {alias_scopes = [#[[SCOPE_A]]], noalias_scopes = [#[[SCOPE_C]]]}
// CHECK: %[[W2:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: rocdl.raw.ptr.buffer.load.lds %arg0, %{{.*}}, %[[W2]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {alias_scopes = [#[[SCOPE_A]]], noalias_scopes = [#[[SCOPE_C]]]}
// CHECK-NOT: rocdl.raw.ptr.buffer.load.lds
// An a operand (32x32x8: 4 registers per instance, two instances on gfx942;
// 32x32x16: 8 registers on gfx950) is read row-wise with ds_read_b64 / b128.
// GFX942-COUNT-2: llvm.load %{{.*}} {alias_scopes = [#[[SCOPE_A]]], alignment = 8 : i64, noalias_scopes = [#[[SCOPE_C]]]} : !llvm.ptr<3> -> vector<4xbf16>
// GFX950: llvm.load %{{.*}} {alias_scopes = [#[[SCOPE_A]]], alignment = 16 : i64, noalias_scopes = [#[[SCOPE_C]]]} : !llvm.ptr<3> -> vector<8xbf16>
// The b operand read with 'transpose' from its N x K copy is as wide.
// GFX942-COUNT-2: llvm.load %{{.*}} {alias_scopes = [#[[SCOPE_C]]], alignment = 8 : i64, noalias_scopes = [#[[SCOPE_A]]]} : !llvm.ptr<3> -> vector<4xbf16>
// GFX950: llvm.load %{{.*}} {alias_scopes = [#[[SCOPE_C]]], alignment = 16 : i64, noalias_scopes = [#[[SCOPE_A]]]} : !llvm.ptr<3> -> vector<8xbf16>
// CHECK-NOT: rocdl.ds.read.tr16.b64
// CHECK-NOT: llvm.load {{.*}}!llvm.ptr<3>
// lds_store: 8 bf16 per lane in a row, one ds_write_b128.
// CHECK: rocdl.raw.ptr.buffer.load %arg0, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alias_scopes = [#[[SCOPE_C]]], alignment = 16 : i64, noalias_scopes = [#[[SCOPE_A]]]} : vector<8xbf16>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: llvm.return
func.func @lds(%b: !tile.buffer<bf16>, %n: index, %i: index) attributes {tile.kernel, tile.block_size = 128 : i64} {
  %a = tile.lds_alloc "a" : !tile.lds<[32, 16], bf16>
  %c = tile.lds_alloc "c" : !tile.lds<[32, 16], bf16, pad = 8, stages = 2>
  tile.async_copy %b[%i, %i] stride %n -> %a[%i] : !tile.buffer<bf16>, !tile.lds<[32, 16], bf16>
  %fa = tile.lds_load %a[%i][%i, %i] : !tile.lds<[32, 16], bf16> -> !tile.tile<[32, 16], bf16, #tile.mfma<a>>
  %fb = tile.lds_load %c[%i][%i, %i] transpose : !tile.lds<[32, 16], bf16, pad = 8, stages = 2> -> !tile.tile<[16, 32], bf16, #tile.mfma<b>>
  %t = tile.load %b[%i, %i] stride %n : !tile.buffer<bf16> -> !tile.tile<[32, 16], bf16, #tile.blocked<[1, 8], [32, 2]>>
  tile.lds_store %t, %c[%i][%i, %i] : !tile.tile<[32, 16], bf16, #tile.blocked<[1, 8], [32, 2]>>, !tile.lds<[32, 16], bf16, pad = 8, stages = 2>
  return
}

// s_waitcnt in the gfx9 encoding: vmcnt[3:0] in bits 3:0, vmcnt[5:4] in
// 15:14, expcnt in 6:4, lgkmcnt in 11:8; counters not named stay at their
// maximum (vmcnt 63, expcnt 7, lgkmcnt 15).
// CHECK-LABEL: llvm.func @wait()
// vmcnt(0): 0x0F70
// CHECK-NEXT: rocdl.s.waitcnt 3952{{$}}
// lgkmcnt(0): 0xC07F
// CHECK-NEXT: rocdl.s.waitcnt 49279{{$}}
// vmcnt(0) lgkmcnt(0): 0x0070
// CHECK-NEXT: rocdl.s.waitcnt 112{{$}}
// vmcnt(20) = 0b01_0100: 0x4F74
// CHECK-NEXT: rocdl.s.waitcnt 20340{{$}}
// vmcnt(63) lgkmcnt(15): 0xCF7F
// CHECK-NEXT: rocdl.s.waitcnt 53119{{$}}
// CHECK-NEXT: llvm.return
func.func @wait() {
  tile.wait vmcnt(0)
  tile.wait lgkmcnt(0)
  tile.wait vmcnt(0) lgkmcnt(0)
  tile.wait vmcnt(20)
  tile.wait vmcnt(63) lgkmcnt(15)
  return
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

// The widest 32x32 MFMA of each chip, K blocks chained through the
// accumulator.
// CHECK-LABEL: llvm.func @mma(
// GFX942: %[[D0:.*]] = rocdl.mfma.f32.32x32x8bf16.1k %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (vector<4xi16>, vector<4xi16>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
// GFX942: rocdl.mfma.f32.32x32x8bf16.1k %{{.*}}, %{{.*}}, %[[D0]], %{{.*}}, %{{.*}}, %{{.*}} : (vector<4xi16>, vector<4xi16>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
// GFX950: rocdl.mfma.f32.32x32x16.bf16 %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (vector<8xbf16>, vector<8xbf16>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
// CHECK-NOT: rocdl.mfma
// CHECK: llvm.return
// F16-GFX942-LABEL: llvm.func @mma(
// F16-GFX942-COUNT-2: rocdl.mfma.f32.32x32x8f16 %{{.*}} : (vector<4xf16>, vector<4xf16>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
// F16-GFX942-NOT: rocdl.mfma
// F16-GFX950-LABEL: llvm.func @mma(
// F16-GFX950: rocdl.mfma.f32.32x32x16.f16 %{{.*}} : (vector<8xf16>, vector<8xf16>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
// F16-GFX950-NOT: rocdl.mfma
func.func @mma(%a: !tile.tile<[32, 16], !tile.dtype<"DT">, #tile.mfma<a>>,
               %b: !tile.tile<[16, 32], !tile.dtype<"DT">, #tile.mfma<b>>,
               %c: !tile.tile<[32, 32], f32, #tile.mfma<acc>>) -> !tile.tile<[32, 32], f32, #tile.mfma<acc>> {
  %0 = tile.mma %a, %b, %c : !tile.tile<[32, 16], !tile.dtype<"DT">, #tile.mfma<a>>, !tile.tile<[16, 32], !tile.dtype<"DT">, #tile.mfma<b>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  return %0 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>
}

// k_wide: the two 32x32x8 instances along K of a gfx942 a operand
// interleave, so that a lane's 8 K values are adjacent: one 16-byte LDS
// read where the plain order takes two of 8 bytes. A gfx950 32x32x16
// instance already holds 16 bytes a lane: the same read either way.
// CHECK-LABEL: llvm.func @lds_k_wide(
// GFX942: llvm.load %{{.*}} {alias_scopes = {{.*}}, alignment = 16 : i64{{.*}}} : !llvm.ptr<3> -> vector<8xbf16>
// GFX942-COUNT-2: llvm.load %{{.*}} {alias_scopes = {{.*}}, alignment = 8 : i64{{.*}}} : !llvm.ptr<3> -> vector<4xbf16>
// GFX950-COUNT-2: llvm.load %{{.*}} {alias_scopes = {{.*}}, alignment = 16 : i64{{.*}}} : !llvm.ptr<3> -> vector<8xbf16>
// CHECK-NOT: llvm.load
// CHECK: llvm.return
func.func @lds_k_wide(%i: index) -> (!tile.tile<[32, 16], bf16, #tile.mfma<a, k_wide>>, !tile.tile<[32, 16], bf16, #tile.mfma<a>>) attributes {tile.kernel} {
  %l = tile.lds_alloc "kw" : !tile.lds<[32, 16], bf16>
  %0 = tile.lds_load %l[%i][%i, %i] : !tile.lds<[32, 16], bf16> -> !tile.tile<[32, 16], bf16, #tile.mfma<a, k_wide>>
  %1 = tile.lds_load %l[%i][%i, %i] : !tile.lds<[32, 16], bf16> -> !tile.tile<[32, 16], bf16, #tile.mfma<a>>
  return %0, %1 : !tile.tile<[32, 16], bf16, #tile.mfma<a, k_wide>>, !tile.tile<[32, 16], bf16, #tile.mfma<a>>
}

// CHECK-LABEL: llvm.func @mma_16x16(
// GFX942-COUNT-2: rocdl.mfma.f32.16x16x16bf16.1k %{{.*}} : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
// GFX950: rocdl.mfma.f32.16x16x32.bf16 %{{.*}} : (vector<8xbf16>, vector<8xbf16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
// CHECK-NOT: rocdl.mfma
// CHECK: llvm.return
// F16-GFX942-LABEL: llvm.func @mma_16x16(
// F16-GFX942-COUNT-2: rocdl.mfma.f32.16x16x16f16 %{{.*}} : (vector<4xf16>, vector<4xf16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
// F16-GFX942-NOT: rocdl.mfma
// F16-GFX950-LABEL: llvm.func @mma_16x16(
// F16-GFX950: rocdl.mfma.f32.16x16x32.f16 %{{.*}} : (vector<8xf16>, vector<8xf16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
// F16-GFX950-NOT: rocdl.mfma
func.func @mma_16x16(%a: !tile.tile<[16, 32], !tile.dtype<"DT">, #tile.mfma<a, 16x16>>,
                     %b: !tile.tile<[32, 16], !tile.dtype<"DT">, #tile.mfma<b, 16x16>>,
                     %c: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>) -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>> {
  %0 = tile.mma %a, %b, %c : !tile.tile<[16, 32], !tile.dtype<"DT">, #tile.mfma<a, 16x16>>, !tile.tile<[32, 16], !tile.dtype<"DT">, #tile.mfma<b, 16x16>> -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  return %0 : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
}

// A row spread over all 64 lanes: ds_swizzle (xor 1, 2, 4, 8, 16 within 32
// lanes: offset = xor_mask << 10 | and_mask 0x1f), then across the halves:
// ds_bpermute from lane ^ 32 on gfx942, v_permlane32_swap on gfx950.
// CHECK-LABEL: llvm.func @reduce_row(
// CHECK: %[[LANE:.*]] = rocdl.mbcnt.hi
// CHECK: llvm.mlir.constant(1055 : i32)
// CHECK-NEXT: rocdl.ds_swizzle
// CHECK: llvm.intr.maxnum
// CHECK: llvm.mlir.constant(2079 : i32)
// CHECK-NEXT: rocdl.ds_swizzle
// CHECK: llvm.mlir.constant(4127 : i32)
// CHECK-NEXT: rocdl.ds_swizzle
// CHECK: llvm.mlir.constant(8223 : i32)
// CHECK-NEXT: rocdl.ds_swizzle
// CHECK: llvm.mlir.constant(16415 : i32)
// CHECK-NEXT: rocdl.ds_swizzle
// CHECK-NOT: rocdl.ds_swizzle
// GFX942: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
// GFX942: %[[HALF:.*]] = llvm.mlir.constant(32 : i32) : i32
// GFX942: %[[OTHER:.*]] = llvm.xor %[[LANE]], %[[HALF]] : i32
// GFX942: %[[BYTE:.*]] = llvm.mul %[[OTHER]], %[[FOUR]] : i32
// GFX942: rocdl.ds_bpermute %[[BYTE]], %{{.*}} : (i32, i32) -> i32
// GFX942-NOT: permlane32
// GFX950-NOT: ds_bpermute
// GFX950: %[[PAIR:.*]] = rocdl.permlane32.swap %[[X:.*]], %[[X]], false, false : (i32, i32) -> <(i32, i32)>
// GFX950: llvm.extractvalue %[[PAIR]][0]
// GFX950: llvm.extractvalue %[[PAIR]][1]
// CHECK: llvm.intr.maxnum
// CHECK: llvm.return
func.func @reduce_row(%x: !tile.tile<[1, 64], f32, #tile.blocked<[1, 1], [1, 64]>>) -> !tile.tile<[1, 1], f32, #tile.slice<1, #tile.blocked<[1, 1], [1, 64]>>> {
  %0 = tile.reduce_max %x dim 1 : !tile.tile<[1, 64], f32, #tile.blocked<[1, 1], [1, 64]>> -> !tile.tile<[1, 1], f32, #tile.slice<1, #tile.blocked<[1, 1], [1, 64]>>>
  return %0 : !tile.tile<[1, 1], f32, #tile.slice<1, #tile.blocked<[1, 1], [1, 64]>>>
}

// Columns of a 32x32 accumulator: the 16 registers of a lane, summed as a
// chain of register pairs (v_pk_add_f32: 7 packed adds and one of the
// pair's halves, where a chain of scalars took 15), then the two halves of
// the wave; no swizzle.
// CHECK-LABEL: llvm.func @reduce_acc(
// CHECK-NOT: rocdl.ds_swizzle
// CHECK-COUNT-7: llvm.fadd %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK-NOT: llvm.fadd %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK: llvm.fadd %{{.*}}, %{{.*}} : f32
// GFX942: rocdl.ds_bpermute
// GFX950: rocdl.permlane32.swap
// CHECK: llvm.fadd
// CHECK-NOT: rocdl.ds_swizzle
// CHECK: llvm.return
func.func @reduce_acc(%x: !tile.tile<[32, 32], f32, #tile.mfma<acc>>) -> !tile.tile<[1, 32], f32, #tile.slice<0, #tile.mfma<acc>>> {
  %0 = tile.reduce_sum %x dim 0 : !tile.tile<[32, 32], f32, #tile.mfma<acc>> -> !tile.tile<[1, 32], f32, #tile.slice<0, #tile.mfma<acc>>>
  return %0 : !tile.tile<[1, 32], f32, #tile.slice<0, #tile.mfma<acc>>>
}

// CHECK-LABEL: llvm.func @elementwise(%arg0: vector<4xf32>, %arg1: f32, %arg2: i32) -> vector<4xbf16>
// CHECK: llvm.fadd %arg0, %arg0 : vector<4xf32>
// CHECK: llvm.fsub
// CHECK: llvm.fmul
// CHECK: llvm.intr.maxnum(%{{.*}}, %arg0) : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK: llvm.intr.minnum(%{{.*}}, %arg0) : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.amdgcn.exp2"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.shufflevector %{{.*}}, %{{.*}} [0, 0, 0, 0] : vector<4xf32>
// iota 0 of a 16x16 accumulator: row = 4 * lane[5:4] + register.
// CHECK: %[[ROWS:.*]] = llvm.mlir.constant(dense<[0, 1, 2, 3]> : vector<4xi32>) : vector<4xi32>
// CHECK: %[[R:.*]] = llvm.add %{{.*}}, %[[ROWS]] : vector<4xi32>
// iota 1: column = lane[3:0], the same in every register.
// CHECK: llvm.mlir.constant(15 : i32) : i32
// CHECK: %[[COLS:.*]] = llvm.mlir.constant(dense<0> : vector<4xi32>) : vector<4xi32>
// CHECK: %[[C:.*]] = llvm.add %{{.*}}, %[[COLS]] : vector<4xi32>
// CHECK: %[[RK:.*]] = llvm.add %[[R]], %[[K:.*]] : vector<4xi32>
// CHECK: %[[RK2:.*]] = llvm.sub %[[RK]], %[[K]] : vector<4xi32>
// CHECK: %[[M:.*]] = llvm.icmp "sge" %[[RK2]], %[[C]] : vector<4xi32>
// CHECK: llvm.select %[[M]], %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xf32>
// CHECK: llvm.sitofp %[[K]] : vector<4xi32> to vector<4xf32>
// CHECK: llvm.fptrunc %{{.*}} : vector<4xf32> to vector<4xbf16>
func.func @elementwise(%x: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>, %f: f32, %k: i32) -> !tile.tile<[16, 16], bf16, #tile.mfma<acc, 16x16>> {
  %0 = tile.addf %x, %x : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %1 = tile.subf %0, %x : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %2 = tile.mulf %1, %x : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %3 = tile.maxf %2, %x : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %4 = tile.minf %3, %x : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %5 = tile.exp2 %4 : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %s = tile.splat %f : f32 -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %r = tile.iota 0 : !tile.tile<[16, 16], i32, #tile.mfma<acc, 16x16>>
  %c = tile.iota 1 : !tile.tile<[16, 16], i32, #tile.mfma<acc, 16x16>>
  %ks = tile.splat %k : i32 -> !tile.tile<[16, 16], i32, #tile.mfma<acc, 16x16>>
  %rk = tile.addi %r, %ks : !tile.tile<[16, 16], i32, #tile.mfma<acc, 16x16>>
  %rk2 = tile.subi %rk, %ks : !tile.tile<[16, 16], i32, #tile.mfma<acc, 16x16>>
  %m = tile.cmpi sge, %rk2, %c : !tile.tile<[16, 16], i32, #tile.mfma<acc, 16x16>> -> !tile.tile<[16, 16], i1, #tile.mfma<acc, 16x16>>
  %sel = tile.select %m, %5, %s : !tile.tile<[16, 16], i1, #tile.mfma<acc, 16x16>>, !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %ci = tile.convert %ks : !tile.tile<[16, 16], i32, #tile.mfma<acc, 16x16>> -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %sum = tile.addf %sel, %ci : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %h = tile.convert %sum : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>> -> !tile.tile<[16, 16], bf16, #tile.mfma<acc, 16x16>>
  return %h : !tile.tile<[16, 16], bf16, #tile.mfma<acc, 16x16>>
}

// f32 -> bf16 with fast_rounding: gfx942 rounds to nearest even in integer
// arithmetic without the NaN check (add 0x7fff and the lowest kept bit, keep
// the high half); gfx950 converts in hardware as without it.
// CHECK-LABEL: llvm.func @fast_round(
// GFX942-NOT: llvm.fptrunc
// GFX942: %[[BITS:.*]] = llvm.bitcast %arg0 : vector<4xf32> to vector<4xi32>
// GFX942: llvm.lshr %[[BITS]], %{{.*}} : vector<4xi32>
// GFX942: llvm.and
// GFX942: llvm.add %[[BITS]], %{{.*}} : vector<4xi32>
// GFX942: llvm.add
// GFX942: llvm.lshr
// GFX942: llvm.trunc %{{.*}} : vector<4xi32> to vector<4xi16>
// GFX942: llvm.bitcast %{{.*}} : vector<4xi16> to vector<4xbf16>
// GFX942-NOT: llvm.fptrunc
// GFX950: llvm.fptrunc %arg0 : vector<4xf32> to vector<4xbf16>
// CHECK: llvm.return
func.func @fast_round(%x: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>) -> !tile.tile<[16, 16], bf16, #tile.mfma<acc, 16x16>> {
  %h = tile.convert %x fast_rounding : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>> -> !tile.tile<[16, 16], bf16, #tile.mfma<acc, 16x16>>
  return %h : !tile.tile<[16, 16], bf16, #tile.mfma<acc, 16x16>>
}

// tile.undef is poison: no instruction.
// CHECK-LABEL: llvm.func @undef()
// CHECK-NEXT: %[[U:.*]] = llvm.mlir.poison : vector<16xbf16>
// CHECK-NEXT: llvm.return %[[U]] : vector<16xbf16>
func.func @undef() -> !tile.tile<[8, 128], bf16, #tile.blocked<[4, 2], [2, 32]>> {
  %u = tile.undef : !tile.tile<[8, 128], bf16, #tile.blocked<[4, 2], [2, 32]>>
  return %u : !tile.tile<[8, 128], bf16, #tile.blocked<[4, 2], [2, 32]>>
}

// With ties_any gfx942 adds 0x8000 (ties away from zero) instead of 0x7fff
// and the lowest kept bit; gfx950 converts in hardware (ties to even).
// CHECK-LABEL: llvm.func @ties_any(
// GFX942-NOT: llvm.fptrunc
// GFX942: %[[BITS:.*]] = llvm.bitcast %arg0 : vector<4xf32> to vector<4xi32>
// GFX942-NEXT: %[[HALF:.*]] = llvm.mlir.constant(dense<32768> : vector<4xi32>) : vector<4xi32>
// GFX942-NEXT: %[[SUM:.*]] = llvm.add %[[BITS]], %[[HALF]] : vector<4xi32>
// GFX942-NOT: llvm.and
// GFX942: llvm.lshr %[[SUM]]
// GFX942: llvm.trunc %{{.*}} : vector<4xi32> to vector<4xi16>
// GFX950: llvm.fptrunc %arg0 : vector<4xf32> to vector<4xbf16>
// CHECK: llvm.return
func.func @ties_any(%x: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>) -> !tile.tile<[16, 16], bf16, #tile.mfma<acc, 16x16>> {
  %h = tile.convert %x fast_rounding ties_any : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>> -> !tile.tile<[16, 16], bf16, #tile.mfma<acc, 16x16>>
  return %h : !tile.tile<[16, 16], bf16, #tile.mfma<acc, 16x16>>
}

// broadcast picks the slice register of each row; relayout moves nothing.
// CHECK-LABEL: llvm.func @slices(%arg0: vector<4xf32>, %arg1: vector<4xbf16>, %arg2: vector<4xf16>)
// CHECK-NEXT: %[[B:.*]] = llvm.shufflevector %arg0, %arg0 [0, 1, 2, 3] : vector<4xf32>
// CHECK-NEXT: %[[E:.*]] = llvm.fpext %arg2 : vector<4xf16> to vector<4xf32>
// CHECK: llvm.insertvalue %[[B]], %{{.*}}[0]
// CHECK: llvm.insertvalue %arg1, %{{.*}}[1]
// CHECK: llvm.insertvalue %[[E]], %{{.*}}[2]
func.func @slices(%x: !tile.tile<[16, 1], f32, #tile.slice<1, #tile.mfma<acc, 16x16>>>,
                  %p: !tile.tile<[16, 16], bf16, #tile.mfma<acc, 16x16>>,
                  %h: !tile.tile<[16, 16], f16, #tile.mfma<acc, 16x16>>)
    -> (!tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>, !tile.tile<[16, 16], bf16, #tile.mfma<b, 16x16x16>>, !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>) {
  %0 = tile.broadcast %x : !tile.tile<[16, 1], f32, #tile.slice<1, #tile.mfma<acc, 16x16>>> -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %1 = tile.relayout %p : !tile.tile<[16, 16], bf16, #tile.mfma<acc, 16x16>> -> !tile.tile<[16, 16], bf16, #tile.mfma<b, 16x16x16>>
  %2 = tile.convert %h : !tile.tile<[16, 16], f16, #tile.mfma<acc, 16x16>> -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  return %0, %1, %2 : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>, !tile.tile<[16, 16], bf16, #tile.mfma<b, 16x16x16>>, !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
}

//===----------------------------------------------------------------------===//
// Synchronisation and scheduling
//===----------------------------------------------------------------------===//

// tile.barrier is release fence + s_barrier + acquire fence; the unfenced
// barriers of a stagger are bare s_barriers. Group masks: valu 2 | salu 4,
// ds_read 256, mfma 8, trans 1024.
// CHECK-LABEL: llvm.func @sched(%arg0: i1)
// CHECK-NEXT: llvm.fence syncscope("workgroup") release
// CHECK-NEXT: rocdl.s.barrier
// CHECK-NEXT: llvm.fence syncscope("workgroup") acquire
// CHECK-NEXT: rocdl.s.barrier
// CHECK-NEXT: rocdl.sched.barrier 0{{$}}
// CHECK-NEXT: rocdl.sched.barrier 6{{$}}
// CHECK-NEXT: rocdl.sched.group.barrier 256, 2, 1{{$}}
// CHECK-NEXT: rocdl.sched.group.barrier 8, 1, 3{{$}}
// CHECK-NEXT: rocdl.sched.group.barrier 1024, 2, 3{{$}}
// CHECK-NEXT: rocdl.sched.group.barrier 8, 1, 3{{$}}
// CHECK-NEXT: rocdl.sched.group.barrier 1024, 2, 3{{$}}
// CHECK-NEXT: rocdl.s.setprio 3{{$}}
// CHECK-NEXT: llvm.cond_br %arg0, ^[[LAG:bb[0-9]+]], ^[[BODY:bb[0-9]+]]
// CHECK-NEXT: ^[[LAG]]:
// CHECK-NEXT: rocdl.s.barrier
// CHECK-NEXT: llvm.br ^[[BODY]]
// CHECK-NEXT: ^[[BODY]]:
// CHECK-NEXT: rocdl.s.setprio 1{{$}}
// CHECK-NEXT: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
// CHECK-NEXT: %[[LEAD:.*]] = llvm.xor %arg0, %[[TRUE]] : i1
// CHECK-NEXT: llvm.cond_br %[[LEAD]], ^[[LEADING:bb[0-9]+]], ^[[AFTER:bb[0-9]+]]
// CHECK-NEXT: ^[[LEADING]]:
// CHECK-NEXT: rocdl.s.barrier
// CHECK-NEXT: llvm.br ^[[AFTER]]
// CHECK-NEXT: ^[[AFTER]]:
// CHECK-NEXT: rocdl.s.setprio 0{{$}}
// CHECK-NEXT: llvm.return
func.func @sched(%lagging: i1) {
  tile.barrier
  tile.barrier unfenced
  tile.sched_barrier []
  tile.sched_barrier [valu, salu]
  tile.sched_group_barrier #tile.group<ds_read, 2> sync 1
  tile.sched_interleave [#tile.group<mfma, 1>, #tile.group<trans, 2>] x 2 sync 3
  tile.setprio 3
  tile.stagger %lagging {
    tile.setprio 1
  }
  tile.setprio 0
  return
}

//--- gfx950.mlir
// CHECK: #[[DOMAIN_DMA:alias_scope_domain[0-9]*]] = #llvm.alias_scope_domain<id = distinct[{{[0-9]+}}]<>, description = "kcc LDS of dma16">
// CHECK: #[[DOMAIN_TR:alias_scope_domain[0-9]*]] = #llvm.alias_scope_domain<id = distinct[{{[0-9]+}}]<>, description = "kcc LDS of tr">
// CHECK-DAG: #[[SCOPE_D:alias_scope[0-9]*]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOMAIN_DMA]], description = "d">
// CHECK-DAG: #[[SCOPE_B:alias_scope[0-9]*]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOMAIN_TR]], description = "b">
// CHECK-DAG: #[[SCOPE_W:alias_scope[0-9]*]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOMAIN_TR]], description = "w">
// CHECK-DAG: llvm.mlir.global internal @__kcc_lds.tr() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<5120 x i8>
// CHECK-DAG: llvm.mlir.global internal @__kcc_lds.dma16() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4096 x i8>

// 16 bytes per lane: 4 lines of 1024 bytes for the 4096-byte stage.
// CHECK-LABEL: llvm.func @dma16(
// CHECK: %[[W:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT: rocdl.raw.ptr.buffer.load.lds %arg0, %{{.*}}, %[[W]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {alias_scopes = [#[[SCOPE_D]]]}
// CHECK-COUNT-3: rocdl.raw.ptr.buffer.load.lds %arg0, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {alias_scopes = [#[[SCOPE_D]]]}
// CHECK-NOT: rocdl.raw.ptr.buffer.load.lds
// CHECK: llvm.return
func.func @dma16(%b: !tile.buffer<bf16>, %n: index, %i: index) attributes {tile.kernel} {
  %d = tile.lds_alloc "d" : !tile.lds<[32, 64], bf16>
  // expected-error@+1 {{'tile.async_copy' op LDS DMA of 16 bytes per lane needs gfx950; gfx942 moves 4 (use width = 4)}}
  tile.async_copy %b[%i, %i] stride %n -> %d[%i] {width = 16 : i64} : !tile.buffer<bf16>, !tile.lds<[32, 64], bf16>
  return
}

// A b operand of a K x N array: each lane's 8 registers run down a column,
// gathered by two ds_read_b64_tr_b16. Read with 'transpose' from an N x K
// array, the same operand is one ds_read_b128.
// CHECK-LABEL: llvm.func @tr(
// CHECK-COUNT-2: rocdl.ds.read.tr16.b64 %{{.*}} {alias_scopes = [#[[SCOPE_B]]], noalias_scopes = [#[[SCOPE_W]]]} : <3> -> vector<4xbf16>
// CHECK-NOT: rocdl.ds.read.tr16.b64
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[SCOPE_W]]], alignment = 16 : i64, noalias_scopes = [#[[SCOPE_B]]]} : !llvm.ptr<3> -> vector<8xbf16>
// CHECK-NOT: rocdl.ds.read.tr16.b64
// CHECK-NOT: llvm.load
// CHECK: llvm.return
func.func @tr(%i: index) -> (!tile.tile<[16, 32], bf16, #tile.mfma<b>>, !tile.tile<[16, 32], bf16, #tile.mfma<b>>) attributes {tile.kernel} {
  %l = tile.lds_alloc "b" : !tile.lds<[16, 32], bf16>
  %w = tile.lds_alloc "w" : !tile.lds<[32, 64], bf16>
  // expected-error@+1 {{'tile.lds_load' op reads each lane's b operand down an LDS column, which needs the transposing LDS read (ds_read_b64_tr_b16) of gfx950; gfx942 has none}}
  %0 = tile.lds_load %l[%i][%i, %i] : !tile.lds<[16, 32], bf16> -> !tile.tile<[16, 32], bf16, #tile.mfma<b>>
  %1 = tile.lds_load %w[%i][%i, %i] transpose : !tile.lds<[32, 64], bf16> -> !tile.tile<[16, 32], bf16, #tile.mfma<b>>
  return %0, %1 : !tile.tile<[16, 32], bf16, #tile.mfma<b>>, !tile.tile<[16, 32], bf16, #tile.mfma<b>>
}

// A k_from_acc b operand read down its columns: runs of 4 K, one
// ds_read_b64_tr_b16 each (gfx942 has none, as for the plain order).
// CHECK-LABEL: llvm.func @tr_k_from_acc(
// CHECK-COUNT-4: rocdl.ds.read.tr16.b64 %{{.*}} : <3> -> vector<4xbf16>
// CHECK-NOT: rocdl.ds.read.tr16.b64
// CHECK-NOT: llvm.load
// CHECK: llvm.return
func.func @tr_k_from_acc(%i: index) -> !tile.tile<[32, 32], bf16, #tile.mfma<b, k_from_acc>> attributes {tile.kernel} {
  %l = tile.lds_alloc "p" : !tile.lds<[32, 32], bf16>
  // expected-error@+1 {{'tile.lds_load' op reads each lane's b operand down an LDS column, which needs the transposing LDS read (ds_read_b64_tr_b16) of gfx950; gfx942 has none}}
  %0 = tile.lds_load %l[%i][%i, %i] : !tile.lds<[32, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<b, k_from_acc>>
  return %0 : !tile.tile<[32, 32], bf16, #tile.mfma<b, k_from_acc>>
}

//--- attention.mlir
tile.param_decl @BLOCK : i64 = 256
tile.param_decl @ISSUERS : i64 = 2
tile.param_decl @N : i64 = 5

//===----------------------------------------------------------------------===//
// k_from_acc
//===----------------------------------------------------------------------===//

// An accumulator becomes a k_from_acc b operand without moving a register,
// for 32x32 and for 16x16 on both chips.
// CHECK-LABEL: llvm.func @relayout_k_from_acc(%arg0: vector<16xbf16>) -> vector<16xbf16>
// CHECK-NEXT: llvm.return %arg0 : vector<16xbf16>
func.func @relayout_k_from_acc(%p: !tile.tile<[32, 32], bf16, #tile.mfma<acc>>) -> !tile.tile<[32, 32], bf16, #tile.mfma<b, k_from_acc>> {
  %0 = tile.relayout %p : !tile.tile<[32, 32], bf16, #tile.mfma<acc>> -> !tile.tile<[32, 32], bf16, #tile.mfma<b, k_from_acc>>
  return %0 : !tile.tile<[32, 32], bf16, #tile.mfma<b, k_from_acc>>
}

// CHECK-LABEL: llvm.func @relayout_k_from_acc_16x16(%arg0: vector<8xf16>) -> vector<8xf16>
// CHECK-NEXT: llvm.return %arg0 : vector<8xf16>
func.func @relayout_k_from_acc_16x16(%p: !tile.tile<[32, 16], f16, #tile.mfma<acc, 16x16>>) -> !tile.tile<[32, 16], f16, #tile.mfma<b, 16x16, k_from_acc>> {
  %0 = tile.relayout %p : !tile.tile<[32, 16], f16, #tile.mfma<acc, 16x16>> -> !tile.tile<[32, 16], f16, #tile.mfma<b, 16x16, k_from_acc>>
  return %0 : !tile.tile<[32, 16], f16, #tile.mfma<b, 16x16, k_from_acc>>
}

// That is right because the orders agree: the K index (iota 0) of each
// register of a k_from_acc b operand is the row of the same register of the
// accumulator, (j / 4) * 4 * (64 / N) + (l / N) * 4 + j % 4. The plain b
// order agrees with it on gfx942 (32x32x8) only; on gfx950 (32x32x16) a lane
// holds 8 consecutive K.
// CHECK-LABEL: llvm.func @iota_k_from_acc()
// acc 32x32:
// CHECK: llvm.and %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[F0:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: llvm.mul %{{.*}}, %[[F0]] : i32
// CHECK-NEXT: llvm.add
// CHECK-NEXT: llvm.mlir.constant(dense<[0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27]> : vector<16xi32>) : vector<16xi32>
// b 32x32 k_from_acc, both chips:
// CHECK: llvm.and %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[F1:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: llvm.mul %{{.*}}, %[[F1]] : i32
// CHECK-NEXT: llvm.add
// CHECK-NEXT: llvm.mlir.constant(dense<[0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27]> : vector<16xi32>) : vector<16xi32>
// plain b 32x32:
// GFX942: llvm.and %{{.*}}, %{{.*}} : i32
// GFX942-NEXT: %[[F2:.*]] = llvm.mlir.constant(4 : i32) : i32
// GFX942-NEXT: llvm.mul %{{.*}}, %[[F2]] : i32
// GFX942-NEXT: llvm.add
// GFX942-NEXT: llvm.mlir.constant(dense<[0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27]> : vector<16xi32>) : vector<16xi32>
// GFX950: llvm.and %{{.*}}, %{{.*}} : i32
// GFX950-NEXT: %[[F2:.*]] = llvm.mlir.constant(8 : i32) : i32
// GFX950-NEXT: llvm.mul %{{.*}}, %[[F2]] : i32
// GFX950-NEXT: llvm.add
// GFX950-NEXT: llvm.mlir.constant(dense<[0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]> : vector<16xi32>) : vector<16xi32>
// acc 16x16 (two row blocks) and b 16x16 k_from_acc (two 16x16x16 K blocks on
// gfx942, one 16x16x32 on gfx950): lane group l / 16 picks 4 rows.
// CHECK: llvm.and %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[F3:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: llvm.mul %{{.*}}, %[[F3]] : i32
// CHECK-NEXT: llvm.add
// CHECK-NEXT: llvm.mlir.constant(dense<[0, 1, 2, 3, 16, 17, 18, 19]> : vector<8xi32>) : vector<8xi32>
// CHECK: llvm.and %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[F4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: llvm.mul %{{.*}}, %[[F4]] : i32
// CHECK-NEXT: llvm.add
// CHECK-NEXT: llvm.mlir.constant(dense<[0, 1, 2, 3, 16, 17, 18, 19]> : vector<8xi32>) : vector<8xi32>
// CHECK-NOT: llvm.mlir.constant(dense
// CHECK: llvm.return
func.func @iota_k_from_acc() -> (!tile.tile<[32, 32], i32, #tile.mfma<acc>>, !tile.tile<[32, 32], i32, #tile.mfma<b, k_from_acc>>, !tile.tile<[32, 32], i32, #tile.mfma<b>>, !tile.tile<[32, 16], i32, #tile.mfma<acc, 16x16>>, !tile.tile<[32, 16], i32, #tile.mfma<b, 16x16, k_from_acc>>) {
  %0 = tile.iota 0 : !tile.tile<[32, 32], i32, #tile.mfma<acc>>
  %1 = tile.iota 0 : !tile.tile<[32, 32], i32, #tile.mfma<b, k_from_acc>>
  %2 = tile.iota 0 : !tile.tile<[32, 32], i32, #tile.mfma<b>>
  %3 = tile.iota 0 : !tile.tile<[32, 16], i32, #tile.mfma<acc, 16x16>>
  %4 = tile.iota 0 : !tile.tile<[32, 16], i32, #tile.mfma<b, 16x16, k_from_acc>>
  return %0, %1, %2, %3, %4 : !tile.tile<[32, 32], i32, #tile.mfma<acc>>, !tile.tile<[32, 32], i32, #tile.mfma<b, k_from_acc>>, !tile.tile<[32, 32], i32, #tile.mfma<b>>, !tile.tile<[32, 16], i32, #tile.mfma<acc, 16x16>>, !tile.tile<[32, 16], i32, #tile.mfma<b, 16x16, k_from_acc>>
}

// The K order changes which element a register holds, not the instruction:
// O^T += V^T P^T is the chip's widest 32x32 bf16 MFMA over K = 32, with the
// operands sliced as for the plain order.
// CHECK-LABEL: llvm.func @mma_k_from_acc(%arg0: vector<16xbf16>, %arg1: vector<16xbf16>, %arg2: vector<16xf32>)
// GFX942: llvm.shufflevector %arg0, %arg0 [0, 1, 2, 3] : vector<16xbf16>
// GFX942-COUNT-4: rocdl.mfma.f32.32x32x8bf16.1k %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (vector<4xi16>, vector<4xi16>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
// GFX950: llvm.shufflevector %arg0, %arg0 [0, 1, 2, 3, 4, 5, 6, 7] : vector<16xbf16>
// GFX950-COUNT-2: rocdl.mfma.f32.32x32x16.bf16 %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (vector<8xbf16>, vector<8xbf16>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
// CHECK-NOT: rocdl.mfma
// CHECK: llvm.return
func.func @mma_k_from_acc(%v: !tile.tile<[32, 32], bf16, #tile.mfma<a, k_from_acc>>,
                          %p: !tile.tile<[32, 32], bf16, #tile.mfma<acc>>,
                          %o: !tile.tile<[32, 32], f32, #tile.mfma<acc>>) -> !tile.tile<[32, 32], f32, #tile.mfma<acc>> {
  %pb = tile.relayout %p : !tile.tile<[32, 32], bf16, #tile.mfma<acc>> -> !tile.tile<[32, 32], bf16, #tile.mfma<b, k_from_acc>>
  %0 = tile.mma %v, %pb, %o : !tile.tile<[32, 32], bf16, #tile.mfma<a, k_from_acc>>, !tile.tile<[32, 32], bf16, #tile.mfma<b, k_from_acc>> -> !tile.tile<[32, 32], f32, #tile.mfma<acc>>
  return %0 : !tile.tile<[32, 32], f32, #tile.mfma<acc>>
}

// An operand read along its K rows: the plain 32x32x16 operand of gfx950 is
// 8 consecutive K per lane (2 ds_read_b128 for [32, 32]); in the k_from_acc
// order runs of 4 (4 ds_read_b64), as on gfx942.
// CHECK-LABEL: llvm.func @lds_k_from_acc(
// CHECK-COUNT-4: llvm.load %{{.*}} {alias_scopes = [#{{.*}}], alignment = 8 : i64} : !llvm.ptr<3> -> vector<4xbf16>
// CHECK-NOT: llvm.load
// GFX942-COUNT-4: llvm.load %{{.*}} {alias_scopes = [#{{.*}}], alignment = 8 : i64} : !llvm.ptr<3> -> vector<4xbf16>
// GFX950-COUNT-2: llvm.load %{{.*}} {alias_scopes = [#{{.*}}], alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
// CHECK-NOT: llvm.load
// CHECK: llvm.return
func.func @lds_k_from_acc(%i: index) -> (!tile.tile<[32, 32], bf16, #tile.mfma<b, k_from_acc>>, !tile.tile<[32, 32], bf16, #tile.mfma<b>>) attributes {tile.kernel} {
  %l = tile.lds_alloc "kv" : !tile.lds<[32, 32], bf16>
  %0 = tile.lds_load %l[%i][%i, %i] transpose : !tile.lds<[32, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<b, k_from_acc>>
  %1 = tile.lds_load %l[%i][%i, %i] transpose : !tile.lds<[32, 32], bf16> -> !tile.tile<[32, 32], bf16, #tile.mfma<b>>
  return %0, %1 : !tile.tile<[32, 32], bf16, #tile.mfma<b, k_from_acc>>, !tile.tile<[32, 32], bf16, #tile.mfma<b>>
}

//===----------------------------------------------------------------------===//
// Transposed stores
//===----------------------------------------------------------------------===//

// blocked<[4, 1], [2, 32]>: 4 rows of one column per lane. Transposed, the
// 4 registers are consecutive in an LDS row: one 8-byte ds_write_b64;
// as written, 4 ds_write_b16.
// CHECK-LABEL: llvm.func @lds_store_transpose(
// CHECK: llvm.store %{{.*}}, %{{.*}} {alias_scopes = [#{{.*}}], alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<3>
// CHECK-NOT: llvm.store %{{.*}} vector
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alias_scopes = [#{{.*}}], alignment = 2 : i64} : bf16, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: llvm.return
func.func @lds_store_transpose(%t: !tile.tile<[8, 32], bf16, #tile.blocked<[4, 1], [2, 32]>>, %i: index) attributes {tile.kernel} {
  %l = tile.lds_alloc "vt" : !tile.lds<[32, 8], bf16>
  tile.lds_store %t, %l[%i][%i, %i] transpose : !tile.tile<[8, 32], bf16, #tile.blocked<[4, 1], [2, 32]>>, !tile.lds<[32, 8], bf16>
  tile.lds_store %t, %l[%i][%i, %i] : !tile.tile<[8, 32], bf16, #tile.blocked<[4, 1], [2, 32]>>, !tile.lds<[32, 8], bf16>
  return
}

// The same into global memory: one 8-byte buffer store per lane, at
// ((row + c) * stride + col + r) * 2 bytes.
// CHECK-LABEL: llvm.func @store_transpose(%arg0: !llvm.ptr<8>, %arg1: vector<4xbf16>, %arg2: i32, %arg3: i32)
// CHECK: %[[W:.*]] = llvm.bitcast %{{.*}} : vector<4xbf16> to vector<2xi32>
// CHECK-NEXT: rocdl.raw.ptr.buffer.store %[[W]], %arg0, %{{.*}}, %{{.*}}, %{{.*}} : vector<2xi32>
// CHECK-NOT: rocdl.raw.ptr.buffer.store
// CHECK: llvm.return
func.func @store_transpose(%b: !tile.buffer<bf16>, %t: !tile.tile<[8, 32], bf16, #tile.blocked<[4, 1], [2, 32]>>, %n: index, %i: index) {
  tile.store %t, %b[%i, %i] stride %n transpose : !tile.tile<[8, 32], bf16, #tile.blocked<[4, 1], [2, 32]>>, !tile.buffer<bf16>
  return
}

//===----------------------------------------------------------------------===//
// Softmax and normalisation
//===----------------------------------------------------------------------===//

// A splatted factor of tile.fma (a tile-level scalar) is splatted again at
// the fma from a readfirstlane of the scalar: a splat hoisted out of a loop
// as a whole vector was held in one SGPR per register.
// CHECK-LABEL: llvm.func @fma_splat(
// CHECK: %[[BITS:.*]] = llvm.bitcast %arg1 : f32 to i32
// CHECK-NEXT: %[[FIRST:.*]] = rocdl.readfirstlane %[[BITS]] : i32
// CHECK-NEXT: %[[C:.*]] = llvm.bitcast %[[FIRST]] : i32 to f32
// CHECK: %[[ONE:.*]] = llvm.insertelement %[[C]]
// CHECK-NEXT: %[[SPLAT:.*]] = llvm.shufflevector %[[ONE]], %[[ONE]] [0, 0, 0, 0] : vector<4xf32>
// CHECK-NEXT: llvm.intr.fma(%arg0, %[[SPLAT]], %arg2) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
func.func @fma_splat(%x: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>, %c: f32,
                     %z: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>) -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>> {
  %cs = tile.splat %c : f32 -> !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %0 = tile.fma %x, %cs, %z : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  return %0 : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
}

// fma and divf map onto LLVM's vector ops; log2 is v_log_f32 per element;
// tile.any ORs the lane's registers and tests the ballot against zero.
// CHECK-LABEL: llvm.func @softmax_ops(%arg0: vector<4xf32>, %arg1: vector<4xf32>, %arg2: vector<4xf32>)
// CHECK-NEXT: %[[F:.*]] = llvm.intr.fma(%arg0, %arg1, %arg2) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT: %[[D:.*]] = llvm.fdiv %[[F]], %arg1 : vector<4xf32>
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.amdgcn.log"(%{{.*}}) : (f32) -> f32
// CHECK-NOT: llvm.call_intrinsic
// CHECK: %[[GT:.*]] = llvm.fcmp "ogt" %[[L:.*]], %arg0 : vector<4xf32>
// CHECK: %[[E0:.*]] = llvm.extractelement %[[GT]][%{{.*}} : i32] : vector<4xi1>
// CHECK: %[[E1:.*]] = llvm.extractelement %[[GT]][%{{.*}} : i32] : vector<4xi1>
// CHECK-NEXT: %[[O1:.*]] = llvm.or %[[E0]], %[[E1]] : i1
// CHECK: %[[O2:.*]] = llvm.or %[[O1]], %{{.*}} : i1
// CHECK: %[[O3:.*]] = llvm.or %[[O2]], %{{.*}} : i1
// CHECK-NEXT: %[[B:.*]] = rocdl.ballot %[[O3]] : i64
// CHECK-NEXT: %[[Z:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT: %[[ANY:.*]] = llvm.icmp "ne" %[[B]], %[[Z]] : i64
// CHECK: llvm.insertvalue %[[L]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[ANY]], %{{.*}}[1]
func.func @softmax_ops(%x: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>,
                       %y: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>,
                       %z: !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>) -> (!tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>, i1) {
  %0 = tile.fma %x, %y, %z : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %1 = tile.divf %0, %y : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %2 = tile.log2 %1 : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>
  %3 = tile.cmpf ogt, %2, %x : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>> -> !tile.tile<[16, 16], i1, #tile.mfma<acc, 16x16>>
  %4 = tile.any %3 : !tile.tile<[16, 16], i1, #tile.mfma<acc, 16x16>>
  return %2, %4 : !tile.tile<[16, 16], f32, #tile.mfma<acc, 16x16>>, i1
}

// A row vector (one register per lane): no OR, the ballot of that register.
// CHECK-LABEL: llvm.func @any_row(%arg0: vector<1xf32>, %arg1: vector<1xf32>) -> i1
// CHECK-NEXT: %[[M:.*]] = llvm.fcmp "oeq" %arg0, %arg1 : vector<1xf32>
// CHECK-NEXT: %[[I:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[E:.*]] = llvm.extractelement %[[M]][%[[I]] : i32] : vector<1xi1>
// CHECK-NEXT: %[[B:.*]] = rocdl.ballot %[[E]] : i64
// CHECK-NEXT: %[[Z:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT: %[[R:.*]] = llvm.icmp "ne" %[[B]], %[[Z]] : i64
// CHECK-NEXT: llvm.return %[[R]] : i1
func.func @any_row(%m: !tile.tile<[64, 1], f32, #tile.blocked<[1, 1], [64, 1]>>,
                   %n: !tile.tile<[64, 1], f32, #tile.blocked<[1, 1], [64, 1]>>) -> i1 {
  %0 = tile.cmpf oeq, %m, %n : !tile.tile<[64, 1], f32, #tile.blocked<[1, 1], [64, 1]>> -> !tile.tile<[64, 1], i1, #tile.blocked<[1, 1], [64, 1]>>
  %1 = tile.any %0 : !tile.tile<[64, 1], i1, #tile.blocked<[1, 1], [64, 1]>>
  return %1 : i1
}

//===----------------------------------------------------------------------===//
// Pointers, waits, DMA by some waves
//===----------------------------------------------------------------------===//

// CHECK-LABEL: llvm.func @ptr_add(%arg0: !llvm.ptr<1>, %arg1: i32) -> !llvm.ptr<1>
// The offset is unsigned: zero-extended to the pointer's width.
// CHECK-NEXT: %[[N:.*]] = llvm.zext %arg1 : i32 to i64
// CHECK-NEXT: %[[P:.*]] = llvm.getelementptr %arg0[%[[N]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.return %[[P]] : !llvm.ptr<1>
func.func @ptr_add(%p: !tile.ptr<bf16>, %n: index) -> !tile.ptr<bf16> {
  %0 = tile.ptr_add %p, %n : !tile.ptr<bf16>
  return %0 : !tile.ptr<bf16>
}

// s_waitcnt vmcnt(N) as tile.wait encodes it (lgkmcnt and expcnt not
// waited); a count past the counter's 63 waits for nothing more than 63.
// CHECK-LABEL: llvm.func @wait_vmcnt()
// vmcnt(5) from a parameter: 0x0F75
// CHECK: rocdl.s.waitcnt 3957{{$}}
// vmcnt(20): 0x4F74
// CHECK-NEXT: rocdl.s.waitcnt 20340{{$}}
// vmcnt(0): 0x0F70
// CHECK-NEXT: rocdl.s.waitcnt 3952{{$}}
// vmcnt(100) -> vmcnt(63): 0xCF7F
// CHECK-NEXT: rocdl.s.waitcnt 53119{{$}}
// CHECK-NEXT: llvm.return
func.func @wait_vmcnt() {
  %n = tile.param @N : index
  %c20 = arith.constant 20 : index
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100 : index
  tile.wait_vmcnt %n
  tile.wait_vmcnt %c20
  tile.wait_vmcnt %c0
  tile.wait_vmcnt %c100
  return
}

// A [16, 32] bf16 stage is 4 DMA lines of 256 bytes (4 rows each). With
// 'waves 2' in a workgroup of 256 (a parameter), waves 0 and 1 take 2 lines
// each: line k * 2 + wave % 2, i.e. rows 4 * (wave % 2) + 8 k, the second line
// one uniform step (8 rows) after the first.
// CHECK-LABEL: llvm.func @dma_waves(
// CHECK-SAME: rocdl.flat_work_group_size = "256,256", rocdl.kernel, rocdl.reqd_work_group_size = array<i32: 256, 1, 1>
// CHECK-SAME: tile.block_size = 256 : i64
// CHECK: %[[TID:.*]] = rocdl.workitem.id.x : i32
// CHECK-NEXT: %[[SIX:.*]] = llvm.mlir.constant(6 : i32) : i32
// CHECK-NEXT: %[[W:.*]] = llvm.lshr %[[TID]], %[[SIX]] : i32
// CHECK-NEXT: %[[WU:.*]] = rocdl.readfirstlane %[[W]] : i32
// CHECK-NEXT: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT: %[[WAVE:.*]] = llvm.urem %[[WU]], %[[TWO]] : i32
// CHECK: %[[RPL:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: llvm.mul %[[WAVE]], %[[RPL]] : i32
// CHECK: rocdl.raw.ptr.buffer.load.lds
// CHECK: %[[STEPPED:.*]] = llvm.add %{{.*}}, %{{.*}} : i32
// CHECK: rocdl.raw.ptr.buffer.load.lds
// CHECK-NOT: rocdl.raw.ptr.buffer.load.lds
// Without 'waves', all 4 waves share the lines: one each, no remainder.
// CHECK: %[[TID2:.*]] = rocdl.workitem.id.x : i32
// CHECK-NEXT: llvm.mlir.constant(6 : i32) : i32
// CHECK-NEXT: %[[W2:.*]] = llvm.lshr %[[TID2]], %{{.*}} : i32
// CHECK-NEXT: %[[WU2:.*]] = rocdl.readfirstlane %[[W2]] : i32
// CHECK-NOT: llvm.urem %[[WU2]]
// CHECK: llvm.mul %[[WU2]], %{{.*}} : i32
// CHECK: rocdl.raw.ptr.buffer.load.lds
// CHECK-NOT: rocdl.raw.ptr.buffer.load.lds
// CHECK: llvm.return
func.func @dma_waves(%b: !tile.buffer<bf16>, %n: index, %i: index) attributes {tile.kernel, tile.block_size = @BLOCK} {
  %l = tile.lds_alloc "k" : !tile.lds<[16, 32], bf16>
  %issuers = tile.param @ISSUERS : index
  tile.async_copy %b[%i, %i] stride %n -> %l[%i] waves %issuers : !tile.buffer<bf16>, !tile.lds<[16, 32], bf16>
  tile.async_copy %b[%i, %i] stride %n -> %l[%i] : !tile.buffer<bf16>, !tile.lds<[16, 32], bf16>
  return
}

// A stagger's results are the values its body yielded.
// CHECK-LABEL: llvm.func @stagger_results(%arg0: i1, %arg1: f32) -> f32
// CHECK: ^bb2:
// CHECK-NEXT: %[[A:.*]] = llvm.fadd %arg1, %arg1 : f32
// CHECK: ^bb4:
// CHECK-NEXT: llvm.return %[[A]] : f32
func.func @stagger_results(%lagging: i1, %x: f32) -> f32 {
  %r = tile.stagger %lagging -> (f32) {
    %a = arith.addf %x, %x : f32
    tile.yield %a : f32
  }
  return %r : f32
}

//--- wait-vmcnt.mlir
// CHECK: wait-vmcnt.mlir:[[# @LINE + 4]]:3: error: 'tile.wait_vmcnt' op count must be a compile-time constant after specialisation
func.func @k(%i: index) {
  %c2 = arith.constant 2 : index
  %m = arith.muli %i, %c2 : index
  tile.wait_vmcnt %m
  return
}
