//===- common.h - Shared definitions of the emulator test kernels -*- C++ -*-===//
//
// The kernels are compiled by clang-22 in HIP device-only mode without ROCm
// headers (-nogpuinc), so the few HIP spellings they need are defined here on
// top of clang's own attributes and __builtin_amdgcn_* builtins.
//
//===----------------------------------------------------------------------===//
#ifndef KCC_TEST_EMU_KERNELS_COMMON_H
#define KCC_TEST_EMU_KERNELS_COMMON_H

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define KERNEL extern "C" __global__

typedef float v2f __attribute__((ext_vector_type(2)));
typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v16f __attribute__((ext_vector_type(16)));
typedef float v32f __attribute__((ext_vector_type(32)));
typedef int v4i __attribute__((ext_vector_type(4)));
typedef int v16i __attribute__((ext_vector_type(16)));
typedef short v4s __attribute__((ext_vector_type(4)));
typedef _Float16 v2h __attribute__((ext_vector_type(2)));
typedef _Float16 v4h __attribute__((ext_vector_type(4)));
typedef _Float16 v8h __attribute__((ext_vector_type(8)));
typedef __bf16 v2bf __attribute__((ext_vector_type(2)));
typedef __bf16 v8bf __attribute__((ext_vector_type(8)));
typedef double v4d __attribute__((ext_vector_type(4)));

__device__ static inline unsigned tidX() { return __builtin_amdgcn_workitem_id_x(); }
__device__ static inline unsigned tidY() { return __builtin_amdgcn_workitem_id_y(); }
__device__ static inline unsigned tidZ() { return __builtin_amdgcn_workitem_id_z(); }
__device__ static inline unsigned bidX() { return __builtin_amdgcn_workgroup_id_x(); }
__device__ static inline unsigned bidY() { return __builtin_amdgcn_workgroup_id_y(); }
__device__ static inline unsigned bidZ() { return __builtin_amdgcn_workgroup_id_z(); }
// Reads hidden_group_size_x from the implicit kernel arguments (code object
// v5), which the runtime, here the emulator, must fill.
__device__ static inline unsigned blockDimX() { return __builtin_amdgcn_workgroup_size_x(); }
__device__ static inline unsigned blockDimY() { return __builtin_amdgcn_workgroup_size_y(); }
__device__ static inline unsigned blockDimZ() { return __builtin_amdgcn_workgroup_size_z(); }

// HIP's __syncthreads(): a workgroup-scope release fence, the barrier, and an
// acquire fence (the fences make LDS and global writes before the barrier
// visible to the other waves after it).
__device__ static inline void syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

#endif // KCC_TEST_EMU_KERNELS_COMMON_H
