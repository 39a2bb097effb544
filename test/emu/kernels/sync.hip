//===- sync.hip - Workgroups that wait on each other ----------------------===//
//
// A chain of flag handshakes between workgroups: workgroup k spins (acquire,
// agent scope) until workgroup k+1 has released its result, so the kernel
// finishes only if all workgroups are resident at once and run interleaved,
// as on hardware; workgroup 0, the first one dispatched, waits longest.
// A second kernel waits for a flag nobody sets: the emulator must report a
// deadlock instead of hanging.
//
//===----------------------------------------------------------------------===//
#include "common.h"

#define AGENT __HIP_MEMORY_SCOPE_AGENT

// One wave per workgroup. data[k*64 + l] = data[(k+1)*64 + l] + in[k*64 + l]
// (the last workgroup starts from in), so out is a suffix sum over
// workgroups that is right only if each acquire saw the released data.
KERNEL void chain(const int *in, int *data, unsigned *flags, int nwg) {
  unsigned k = bidX(), l = tidX();
  int v = in[k * 64 + l];
  if ((int)k + 1 < nwg) {
    while (__hip_atomic_load(&flags[k + 1], __ATOMIC_ACQUIRE, AGENT) == 0)
      __builtin_amdgcn_s_sleep(1);
    v += data[(k + 1) * 64 + l];
  }
  data[k * 64 + l] = v;
  // The release orders every lane's store above before the flag (the whole
  // wave waits for its stores at the fence).
  if (l == 0)
    __hip_atomic_store(&flags[k], 1u, __ATOMIC_RELEASE, AGENT);
}

// Spins on a flag that stays 0: a deadlock the emulator must detect.
KERNEL void wait_forever(unsigned *flag, int *out) {
  while (__hip_atomic_load(flag, __ATOMIC_ACQUIRE, AGENT) == 0)
    __builtin_amdgcn_s_sleep(1);
  out[tidX()] = 1;
}
