; buffer_format_llc.ll - the typed buffer intrinsics as LLVM compiles them (llc):
; raw.buffer.load.format.v4f32 through a V# of 16_16_16_16 UNORM (num_records
; 324: lane 40 gets x, y; lanes 41.. zeros), raw.tbuffer.load.v4i32 as
; [8_8_8_8, UINT], raw.buffer.load.format.v2f16 through 8_8 UNORM (d16_xy),
; and raw.tbuffer.store.v2f32 of the first two as [16_16, FLOAT] into dst
; (num_records 200: lanes 50.. dropped). Arguments: src (u8[1024]), out
; (16 bytes per lane, then 16, then 4), dst (u32[64]); one wave.
target triple = "amdgcn-amd-amdhsa"

declare <4 x float> @llvm.amdgcn.raw.buffer.load.format.v4f32(<4 x i32>, i32, i32, i32)
declare <2 x half> @llvm.amdgcn.raw.buffer.load.format.v2f16(<4 x i32>, i32, i32, i32)
declare <4 x i32> @llvm.amdgcn.raw.tbuffer.load.v4i32(<4 x i32>, i32, i32, i32, i32)
declare void @llvm.amdgcn.raw.tbuffer.store.v2f32(<2 x float>, <4 x i32>, i32, i32, i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @formats(ptr addrspace(1) %src, ptr addrspace(1) %out, ptr addrspace(1) %dst) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = ptrtoint ptr addrspace(1) %src to i64
  %lo = trunc i64 %p to i32
  %p.hi = lshr i64 %p, 32
  %hi64 = and i64 %p.hi, 65535
  %hi = trunc i64 %hi64 to i32
  %r0 = insertelement <4 x i32> undef, i32 %lo, i32 0
  %r1 = insertelement <4 x i32> %r0, i32 %hi, i32 1
  %r2 = insertelement <4 x i32> %r1, i32 324, i32 2
  %unorm16 = insertelement <4 x i32> %r2, i32 393216, i32 3   ; 16_16_16_16 UNORM, NR 324
  %r2b = insertelement <4 x i32> %r1, i32 1024, i32 2
  %unorm8 = insertelement <4 x i32> %r2b, i32 98304, i32 3    ; 8_8 UNORM
  %off8 = shl i32 %tid, 3
  %off4 = shl i32 %tid, 2
  %off2 = shl i32 %tid, 1
  %v = call <4 x float> @llvm.amdgcn.raw.buffer.load.format.v4f32(<4 x i32> %unorm16, i32 %off8, i32 0, i32 0)
  %t = call <4 x i32> @llvm.amdgcn.raw.tbuffer.load.v4i32(<4 x i32> %r2b, i32 %off4, i32 0, i32 74, i32 0) ; [8_8_8_8, UINT]
  %h = call <2 x half> @llvm.amdgcn.raw.buffer.load.format.v2f16(<4 x i32> %unorm8, i32 %off2, i32 0, i32 0)
  %i = zext i32 %tid to i64
  %o16 = mul i64 %i, 16
  %po = getelementptr i8, ptr addrspace(1) %out, i64 %o16
  store <4 x float> %v, ptr addrspace(1) %po, align 16
  %o16b = add i64 %o16, 1024
  %pt = getelementptr i8, ptr addrspace(1) %out, i64 %o16b
  store <4 x i32> %t, ptr addrspace(1) %pt, align 16
  %o4 = mul i64 %i, 4
  %o4b = add i64 %o4, 2048
  %ph = getelementptr i8, ptr addrspace(1) %out, i64 %o4b
  store <2 x half> %h, ptr addrspace(1) %ph, align 4
  ; tbuffer store of (x, y) of the UNORM load as [16_16, FLOAT] into dst.
  %q = ptrtoint ptr addrspace(1) %dst to i64
  %qlo = trunc i64 %q to i32
  %q.hi = lshr i64 %q, 32
  %qhi64 = and i64 %q.hi, 65535
  %qhi = trunc i64 %qhi64 to i32
  %d0 = insertelement <4 x i32> undef, i32 %qlo, i32 0
  %d1 = insertelement <4 x i32> %d0, i32 %qhi, i32 1
  %d2 = insertelement <4 x i32> %d1, i32 200, i32 2
  %d3 = insertelement <4 x i32> %d2, i32 0, i32 3
  %x = extractelement <4 x float> %v, i32 0
  %y = extractelement <4 x float> %v, i32 1
  %xy0 = insertelement <2 x float> undef, float %x, i32 0
  %xy = insertelement <2 x float> %xy0, float %y, i32 1
  call void @llvm.amdgcn.raw.tbuffer.store.v2f32(<2 x float> %xy, <4 x i32> %d3, i32 %off4, i32 0, i32 117, i32 0) ; [16_16, FLOAT]
  ret void
}
