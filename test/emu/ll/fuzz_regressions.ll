; Kernels for the mismatches kcc-emu-fuzz found between the emulator and the
; host (docs/testing.md, "Differential fuzzing"), compiled by llc for both chips; each
; is run by test/emu/FuzzRegressionTests.cpp with the inputs that showed the
; bug and random ones of the same kind, against results computed on the host.
; Every kernel reads lane i's operands from %in and writes its results to
; %out, as LLVM lowers the operation (so the test checks the whole sequence
; LLVM emits, as the fuzzer did).

declare i32 @llvm.amdgcn.workitem.id.x()

; f32 division: v_div_scale, v_rcp, the fma refinement, v_div_fmas and
; v_div_fixup. Quotients whose divisor's reciprocal is denormal (1 / 3.4e38)
; or whose numerator is tiny and quotient underflows (1e-33 / 6.4e27) came
; out as inf or 0.
define amdgpu_kernel void @fdiv_f32(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %i2 = mul i32 %tid, 2
  %pa = getelementptr float, ptr addrspace(1) %in, i32 %i2
  %a = load float, ptr addrspace(1) %pa
  %pb = getelementptr float, ptr addrspace(1) %pa, i32 1
  %b = load float, ptr addrspace(1) %pb
  %q = fdiv float %a, %b
  %po = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %q, ptr addrspace(1) %po
  ret void
}

; f64 division: the same sequence in f64 (v_div_scale_f64, v_rcp_f64, fma
; refinement, v_div_fmas_f64, v_div_fixup_f64). A denormal numerator over a
; huge divisor (1.2e-308 / -1.3e291) came out as -inf.
define amdgpu_kernel void @fdiv_f64(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %i2 = mul i32 %tid, 2
  %pa = getelementptr double, ptr addrspace(1) %in, i32 %i2
  %a = load double, ptr addrspace(1) %pa
  %pb = getelementptr double, ptr addrspace(1) %pa, i32 1
  %b = load double, ptr addrspace(1) %pb
  %q = fdiv double %a, %b
  %po = getelementptr double, ptr addrspace(1) %out, i32 %tid
  store double %q, ptr addrspace(1) %po
  ret void
}

; Saturating 8- and 16-bit adds and subtracts of bytes and half-words picked
; out of dwords: LLVM selects v_add_u16_sdwa / v_sub_u16_sdwa with clamp
; (and the signed v_add_i16 forms), which the emulator refused.
declare i16 @llvm.uadd.sat.i16(i16, i16)
declare i16 @llvm.usub.sat.i16(i16, i16)
declare i16 @llvm.sadd.sat.i16(i16, i16)
declare i16 @llvm.ssub.sat.i16(i16, i16)
declare i8 @llvm.uadd.sat.i8(i8, i8)
declare i8 @llvm.usub.sat.i8(i8, i8)
define amdgpu_kernel void @sat_narrow(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %i2 = mul i32 %tid, 2
  %pa = getelementptr i32, ptr addrspace(1) %in, i32 %i2
  %a = load i32, ptr addrspace(1) %pa
  %pb = getelementptr i32, ptr addrspace(1) %pa, i32 1
  %b = load i32, ptr addrspace(1) %pb
  %ah32 = lshr i32 %a, 16
  %ah = trunc i32 %ah32 to i16
  %al = trunc i32 %a to i16
  %bl = trunc i32 %b to i16
  %b8s = lshr i32 %b, 8
  %b8 = trunc i32 %b8s to i8
  %a8 = trunc i32 %a to i8
  %r0 = call i16 @llvm.uadd.sat.i16(i16 %al, i16 %ah)
  %r1 = call i16 @llvm.usub.sat.i16(i16 %bl, i16 %ah)
  %r2 = call i16 @llvm.sadd.sat.i16(i16 %ah, i16 %bl)
  %r3 = call i16 @llvm.ssub.sat.i16(i16 %bl, i16 %ah)
  %r4 = call i8 @llvm.uadd.sat.i8(i8 %a8, i8 %b8)
  %r5 = call i8 @llvm.usub.sat.i8(i8 %b8, i8 %a8)
  %o = mul i32 %tid, 6
  %p0 = getelementptr i32, ptr addrspace(1) %out, i32 %o
  %z0 = zext i16 %r0 to i32
  store i32 %z0, ptr addrspace(1) %p0
  %p1 = getelementptr i32, ptr addrspace(1) %p0, i32 1
  %z1 = zext i16 %r1 to i32
  store i32 %z1, ptr addrspace(1) %p1
  %p2 = getelementptr i32, ptr addrspace(1) %p0, i32 2
  %z2 = zext i16 %r2 to i32
  store i32 %z2, ptr addrspace(1) %p2
  %p3 = getelementptr i32, ptr addrspace(1) %p0, i32 3
  %z3 = zext i16 %r3 to i32
  store i32 %z3, ptr addrspace(1) %p3
  %p4 = getelementptr i32, ptr addrspace(1) %p0, i32 4
  %z4 = zext i8 %r4 to i32
  store i32 %z4, ptr addrspace(1) %p4
  %p5 = getelementptr i32, ptr addrspace(1) %p0, i32 5
  %z5 = zext i8 %r5 to i32
  store i32 %z5, ptr addrspace(1) %p5
  ret void
}
