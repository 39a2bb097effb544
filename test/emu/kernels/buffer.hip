//===- buffer.hip - Buffer resource loads and stores with range checks -----===//
//
// Raw buffer loads/stores (buffer_load_ubyte/ushort/dword/dwordx2/dwordx4,
// buffer_store_dword) through a resource made by
// __builtin_amdgcn_make_buffer_rsrc. With stride 0 (a raw buffer) an access
// whose offset is at or past num_records bytes is out of range: loads return
// 0 and stores are dropped. Offsets are chosen so that every access is
// entirely inside or entirely outside the range.
//
//===----------------------------------------------------------------------===//
#include "common.h"

typedef unsigned v2u __attribute__((ext_vector_type(2)));
typedef unsigned v4u __attribute__((ext_vector_type(4)));

// Word 3 of the resource as Composable Kernel sets it for gfx9 (DATA_FORMAT
// 32, bits 15-18 = 4): untyped buffer instructions ignore the format, but a
// zero (invalid) data format is not what real code uses.
#define RSRC_FLAGS 0x00020000

// Lane l of workgroup w loads at byte offset (w * 64 + l) * size; the buffer
// holds numBytes bytes, the rest reads as 0.
KERNEL void buffer_loads(unsigned char *src, int numBytes, unsigned *o8,
                         unsigned *o16, unsigned *o32, v2u *o64, v4u *o128,
                         unsigned *oSoff) {
  unsigned l = bidX() * 64 + tidX();
  __amdgpu_buffer_rsrc_t r =
      __builtin_amdgcn_make_buffer_rsrc(src, 0, numBytes, RSRC_FLAGS);
  o8[l] = __builtin_amdgcn_raw_buffer_load_b8(r, l, 0, 0);
  o16[l] = __builtin_amdgcn_raw_buffer_load_b16(r, l * 2, 0, 0);
  o32[l] = __builtin_amdgcn_raw_buffer_load_b32(r, l * 4, 0, 0);
  o64[l] = __builtin_amdgcn_raw_buffer_load_b64(r, l * 8, 0, 0);
  o128[l] = __builtin_amdgcn_raw_buffer_load_b128(r, l * 16, 0, 0);
  // A scalar offset of 12 bytes added to an in-range vector offset.
  oSoff[l] = __builtin_amdgcn_raw_buffer_load_b32(r, (l & 15) * 4, 12, 0);
}

// Lane l stores value l + 1 at byte offset l * 4 through a resource of
// numBytes bytes over a larger allocation: stores past numBytes are dropped,
// so the host's sentinel survives there.
KERNEL void buffer_stores(unsigned *dst, int numBytes) {
  unsigned l = bidX() * 64 + tidX();
  __amdgpu_buffer_rsrc_t r =
      __builtin_amdgcn_make_buffer_rsrc(dst, 0, numBytes, RSRC_FLAGS);
  __builtin_amdgcn_raw_buffer_store_b32(l + 1, r, l * 4, 0, 0);
}
