// Kernels that never end (test/kcc/run-budget.test). store_forever stores
// on every iteration, so the emulator's no-progress watchdog never fires and
// only the launch's budget or time limit stops it; spin_forever waits on a
// flag nothing sets, without writing: the watchdog's case.
#define KERNEL extern "C" __attribute__((global))

KERNEL void store_forever(volatile int *out) {
  for (int i = 0;; ++i)
    out[__builtin_amdgcn_workitem_id_x()] = i;
}

KERNEL void spin_forever(volatile int *flag) {
  while (flag[0] == 0)
    ;
}
