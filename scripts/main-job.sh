#!/usr/bin/env bash
# The main job: build kcc, compile the GEMM kernel for gfx942 and gfx950 and
# print what kcc --stats says of each, then run both code objects on the
# default device (the emulator: no AMD GPU here) against a float64 reference.
# Last, the user's view: tools/examples/gemm_example.cpp JIT-compiles the GEMM
# through the runtime, runs it on the default device (a GPU if there is one,
# else emulated gfx950) and on emulated gfx942, and prints the max error vs a
# float64 reference and PASS/FAIL. Then attention: kernels/attention/
# fmha_fwd.mlir compiled for both chips (kcc --stats), and
# tools/examples/attention_example.cpp runs kcc::ops::attention_forward
# (causal GQA, bf16, D = 128) on the default device (the gfx950 fast path on
# the emulator here) and on emulated gfx942, each checked against a float64
# reference (max error, PASS/FAIL).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
BUILD_DIR="${KCC_BUILD_DIR:-build}"
out="$BUILD_DIR/main-job"
mkdir -p "$out"
# The GEMM with the tiles kcc::ops::gemm picks (kernels/gemm/GemmOp.cpp).
"$BUILD_DIR/bin/kcc" kernels/gemm/gemm.mlir --mcpu=gfx942 -D PAD=4 -D REG=1 -D RROWS=16 \
  -o "$out/gemm-gfx942.hsaco" --stats
"$BUILD_DIR/bin/kcc" kernels/gemm/gemm.mlir --mcpu=gfx950 -D BK=128 -D PAD=8 \
  -o "$out/gemm-gfx950.hsaco" --stats
# Compile again in-process, run on emulated gfx942 and gfx950, compare.
"$BUILD_DIR/test/e2e/KCCEndToEndTests" --gtest_brief=1 --gtest_filter='*100x70x52*:*96x64x96*'
# The JIT's disk cache stays in the build tree, so that reruns show a hit.
export KCC_CACHE_DIR="${KCC_CACHE_DIR:-$BUILD_DIR/kcc-cache}"
"$BUILD_DIR/bin/kcc-gemm-example"
KCC_DEVICE=emu:gfx942 "$BUILD_DIR/bin/kcc-gemm-example"
# The parameters kcc::ops::attention_forward picks for D = 128 on each chip.
# The D = 128 attention kernels with the parameters kcc::ops::attention_forward
# picks on each chip (kernels/attention/AttentionOp.cpp).
"$BUILD_DIR/bin/kcc" kernels/attention/fmha_fwd.mlir --mcpu=gfx942 -D BN=32 -D BLOCK=512 \
  -D STAGGER=1 -D V_TR=0 -D PAD=4 -D VPAD=4 -D VR=128 -D VC=32 -D VROWS=8 \
  -o "$out/fmha-gfx942.hsaco" --stats
"$BUILD_DIR/bin/kcc" kernels/attention/fmha_fwd.mlir --mcpu=gfx950 -D BN=64 -D BLOCK=512 \
  -D STAGGER=1 -D V_TR=1 -D PAD=8 -D VPAD=32 -D VR=64 -D VC=128 -D VROWS=8 \
  -o "$out/fmha-gfx950.hsaco" --stats
"$BUILD_DIR/bin/kcc-attention-example"
KCC_DEVICE=emu:gfx942 "$BUILD_DIR/bin/kcc-attention-example"
echo "main job: GEMM and attention compiled for gfx942 and gfx950 and checked on the emulator"
