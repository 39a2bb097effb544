; Kernels for the mismatches kcc-emu-fuzz found between the emulator and the
; host (README, "Differential fuzzing"), compiled by llc for both chips; each
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
