// Input of emu-coverage.test: a clang-built kernel the emulator runs, and one
// with an instruction it does not implement (v_mqsad_u32_u8, via inline asm).
#define KERNEL extern "C" __attribute__((global))

KERNEL void saxpy(const float *x, float *y, float a) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  y[i] = a * x[i] + y[i];
}

KERNEL void uses_mqsad(unsigned long long *out) {
  unsigned long long src = out[0];
  unsigned long long acc[2] = {0, 0};
  asm volatile("v_mqsad_u32_u8 %0, %1, %2, %0" : "+v"(*(__attribute__((ext_vector_type(4))) unsigned *)acc) : "v"(src), "v"(1u));
  out[1] = acc[0];
}
