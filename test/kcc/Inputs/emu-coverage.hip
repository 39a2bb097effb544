// Input of emu-coverage.test: a clang-built kernel the emulator runs, and one
// with an instruction it does not implement (ds_condxchg32_rtn_b64, whose
// semantics the CDNA guides do not give, via inline asm).
#define KERNEL extern "C" __attribute__((global))

KERNEL void saxpy(const float *x, float *y, float a) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  y[i] = a * x[i] + y[i];
}

KERNEL void uses_condxchg(unsigned long long *out) {
  unsigned long long data = out[0], old;
  asm volatile("ds_condxchg32_rtn_b64 %0, %1, %2" : "=v"(old) : "v"(0u), "v"(data) : "memory");
  out[1] = old;
}
