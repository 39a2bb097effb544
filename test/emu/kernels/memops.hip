//===- memops.hip - LDS packed adds and LDS DMA as clang emits them -------===//
//
// ds_pk_add_rtn_f16 / ds_pk_add_rtn_bf16 from atomic packed adds on
// __shared__ memory (every lane adds to one of 16 slots, so lanes collide
// and the sum of the returned old values checks the serialisation), and
// global_load_lds_dword from __builtin_amdgcn_global_load_lds.
//
//===----------------------------------------------------------------------===//
#include "common.h"

// slots: 16 packed pairs, prefilled from init; out: the old value each lane
// saw, then the final slots. One block of 64; lane l adds add[l] to slot
// l % 16, so each slot sees four adds in some order.
KERNEL void pk_add_f16_lds(const unsigned *init, const v2h *add, v2h *old,
                           unsigned *slotsOut) {
  __shared__ v2h slots[16];
  unsigned l = tidX();
  if (l < 16)
    slots[l] = __builtin_bit_cast(v2h, init[l]);
  syncthreads();
  old[l] = __builtin_amdgcn_ds_atomic_fadd_v2f16(&slots[l % 16], add[l]);
  syncthreads();
  if (l < 16)
    slotsOut[l] = __builtin_bit_cast(unsigned, slots[l]);
}

typedef short v2s __attribute__((ext_vector_type(2)));

KERNEL void pk_add_bf16_lds(const unsigned *init, const v2s *add, v2s *old,
                            unsigned *slotsOut) {
  __shared__ v2s slots[16];
  unsigned l = tidX();
  if (l < 16)
    slots[l] = __builtin_bit_cast(v2s, init[l]);
  syncthreads();
  old[l] = __builtin_amdgcn_ds_atomic_fadd_v2bf16(&slots[l % 16], add[l]);
  syncthreads();
  if (l < 16)
    slotsOut[l] = __builtin_bit_cast(unsigned, slots[l]);
}

// out[i] = src[perm[i]] through LDS filled by DMA: each of the 64 lanes
// loads src[perm[l]] into LDS dword l (+ 64 with the offset form).
KERNEL void global_load_lds(const unsigned *src, const unsigned *perm,
                            unsigned *out) {
  __shared__ unsigned buf[128];
  unsigned l = tidX();
  typedef __attribute__((address_space(1))) void *GlobalPtr;
  typedef __attribute__((address_space(3))) void *LdsPtr;
  GlobalPtr p = (GlobalPtr)(src + perm[l]);
  __builtin_amdgcn_global_load_lds(p, (LdsPtr)buf, 4, 0, 0);
  __builtin_amdgcn_global_load_lds(p, (LdsPtr)buf, 4, 256, 0);
  __builtin_amdgcn_s_waitcnt(0x0070); // vmcnt(0)
  syncthreads();
  out[l] = buf[l];
  out[64 + l] = buf[64 + l];
}
