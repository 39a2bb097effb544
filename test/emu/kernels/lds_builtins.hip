// LDS instructions through clang's builtins (EmuTests.cpp, LdsBuiltins.*):
// __builtin_amdgcn_global_load_lds of 1 and 2 bytes (global_load_lds_ubyte
// and _ushort, both chips) and gfx950's __builtin_amdgcn_ds_read_tr4_b64 /
// ds_read_tr6_b96 (ds_read_b64_tr_b4, ds_read_b96_tr_b6).
#include "common.h"

typedef int v2i __attribute__((ext_vector_type(2)));
typedef int v3i __attribute__((ext_vector_type(3)));
#define LDS __attribute__((address_space(3)))
#define GLOBAL __attribute__((address_space(1)))

// Lane t loads byte t of src into LDS dword t, and the 2 bytes at 2t into
// LDS dword 64 + t; both come back through plain LDS reads.
KERNEL void narrow_lds_dma(unsigned char *src, unsigned *out) {
  __shared__ unsigned lds[128];
  unsigned t = tidX();
  __builtin_amdgcn_global_load_lds((GLOBAL void *)(src + t), (LDS void *)lds, 1, 0, 0);
  __builtin_amdgcn_global_load_lds((GLOBAL void *)(src + 2 * t), (LDS void *)(lds + 64), 2, 0, 0);
  __builtin_amdgcn_s_waitcnt(0);
  syncthreads();
  out[t] = lds[t];
  out[64 + t] = lds[64 + t];
}

#if defined(__gfx950__)
// Lane t stores 16 bytes of src at LDS byte 16t and reads them back
// transposed as 4-bit (two dwords) and 6-bit (three dwords) elements.
KERNEL void transpose_b4_b6(const unsigned *src, unsigned *out) {
  __shared__ unsigned lds[64 * 4];
  unsigned t = tidX();
  for (int i = 0; i < 4; ++i)
    lds[4 * t + i] = src[4 * t + i];
  syncthreads();
  v2i a = __builtin_amdgcn_ds_read_tr4_b64_v2i32((LDS v2i *)(lds + 4 * t));
  v3i b = __builtin_amdgcn_ds_read_tr6_b96_v3i32((LDS v3i *)(lds + 4 * t));
  out[2 * t] = a.x;
  out[2 * t + 1] = a.y;
  out[128 + 4 * t] = b.x;
  out[128 + 4 * t + 1] = b.y;
  out[128 + 4 * t + 2] = b.z;
}
#endif
