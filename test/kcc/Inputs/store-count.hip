// A loop that ends after n iterations, storing on each, until one flipped
// bit makes its counter's increment write another register
// (test/kcc/run-budget.test). Alone in its file, so that the increment's
// encoding occurs once in the code object.
#define KERNEL extern "C" __attribute__((global))

KERNEL void store_count(volatile int *out, int n) {
  for (int i = 0; i < n; ++i)
    out[__builtin_amdgcn_workitem_id_x()] = i;
}
