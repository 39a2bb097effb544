// Input of emu-coverage.test: a clang-built kernel the emulator runs, and one
// with an instruction it does not implement (s_scratch_load_dword, whose
// address the CDNA guides do not define, via inline asm).
#define KERNEL extern "C" __attribute__((global))

KERNEL void saxpy(const float *x, float *y, float a) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  y[i] = a * x[i] + y[i];
}

KERNEL void uses_scratch_load(unsigned *out) {
  unsigned v;
  asm volatile("s_scratch_load_dword %0, s[0:1], 0x0\n s_waitcnt lgkmcnt(0)" : "=s"(v) : : "memory");
  out[0] = v;
}
