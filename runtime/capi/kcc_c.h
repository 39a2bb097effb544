/*===- kcc_c.h - kcc's runtime from C: load code objects, launch ---*- C -*-===*
 *
 * A small C ABI over kcc's runtime (libkcc_c.so on libkcc_runtime.so, no
 * compiler): open a device (a HIP GPU when there is one, else the CPU
 * emulator), move memory, load a code object, launch its kernels. It is what
 * the launchers `kcc FILE.mlir --emit=launcher` writes are built on, and C
 * programs may call it directly.
 *
 * Every function returns 0 on success and -1 on failure; kcc_last_error()
 * then says what went wrong (the calling thread's last failure). Launches
 * check their arguments against the code object's metadata (count, pointer
 * or value, size) before anything runs, and wait for the kernel.
 *
 *===----------------------------------------------------------------------===*/
#ifndef KCC_C_H
#define KCC_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kcc_device kcc_device; /* owned by the library */
typedef struct kcc_module kcc_module; /* kcc_module_unload() frees it */

/* A device address (a GPU's virtual address, or the emulator's). */
typedef uint64_t kcc_devptr;
/* A hipStream_t on HIP devices (0: the null stream); the emulator ignores it. */
typedef uint64_t kcc_stream;

typedef struct {
  uint32_t x, y, z;
} kcc_dim3;

typedef enum {
  KCC_ARG_POINTER, /* value.pointer: a kcc_devptr */
  KCC_ARG_I32,
  KCC_ARG_U32,
  KCC_ARG_I64,
  KCC_ARG_U64,
  KCC_ARG_F32,
  KCC_ARG_F64
} kcc_arg_kind;

typedef struct {
  kcc_arg_kind kind;
  union {
    kcc_devptr pointer;
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    uint64_t u64;
    float f32;
    double f64;
  } value;
} kcc_arg;

/* The calling thread's last error message ("" when none). */
const char *kcc_last_error(void);

/* The device `spec` names ("hip:0", "emu:gfx942", "emu:gfx950"); NULL or "":
 * $KCC_DEVICE, else the first GPU, else the emulated gfx950. */
int kcc_device_open(const char *spec, kcc_device **device);
/* "hip:0", "emu:gfx950" */
const char *kcc_device_spec(const kcc_device *device);
/* "gfx942" or "gfx950" */
const char *kcc_device_chip(const kcc_device *device);

int kcc_malloc(kcc_device *device, size_t bytes, kcc_devptr *address);
int kcc_free(kcc_device *device, kcc_devptr address);
int kcc_memcpy_to_device(kcc_device *device, kcc_devptr dst, const void *src,
                         size_t bytes);
int kcc_memcpy_to_host(kcc_device *device, void *dst, kcc_devptr src,
                       size_t bytes);
int kcc_synchronize(kcc_device *device);

/* Loads code object bytes (copied); fails for another chip's code. */
int kcc_module_load(kcc_device *device, const void *code_object, size_t bytes,
                    kcc_module **module);
/* The same, loaded once per device and `code_object` address: the module
 * stays loaded until the process ends (what launchers use). Thread-safe. */
int kcc_module_load_cached(kcc_device *device, const void *code_object,
                           size_t bytes, kcc_module **module);
void kcc_module_unload(kcc_module *module);

/* Runs `kernel` of `module` and waits for it. grid: workgroups per
 * dimension; block: work-items per workgroup (as HIP). */
int kcc_launch(kcc_module *module, const char *kernel, kcc_stream stream,
               kcc_dim3 grid, kcc_dim3 block, const kcc_arg *args,
               size_t arg_count);

#ifdef __cplusplus
}
#endif

#endif /* KCC_C_H */
