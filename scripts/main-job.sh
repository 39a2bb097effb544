#!/usr/bin/env bash
# The main job: build kcc, compile the GEMM kernel for gfx942 and gfx950 and
# print what kcc --stats says of each, then run both code objects on the
# default device (the emulator: no AMD GPU here) against a float64 reference.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
BUILD_DIR="${KCC_BUILD_DIR:-build}"
out="$BUILD_DIR/main-job"
mkdir -p "$out"
for chip in gfx942 gfx950; do
  "$BUILD_DIR/bin/kcc" kernels/gemm/gemm.mlir --mcpu=$chip -o "$out/gemm-$chip.hsaco" --stats
done
# Compile again in-process, run on emulated gfx942 and gfx950, compare.
"$BUILD_DIR/test/e2e/KCCEndToEndTests" --gtest_brief=1 --gtest_filter='*100x70x52*:*96x64x96*'
echo "main job: GEMM compiled for gfx942 and gfx950 and checked on the emulator"
