#!/usr/bin/env bash
# Installs what is missing, configures and builds kcc (Release, Ninja) into
# ./build (or $KCC_BUILD_DIR). Extra arguments are ninja targets (default:
# all).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
BUILD_DIR="${KCC_BUILD_DIR:-build}"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
fi
# Two jobs: MLIR's generated sources need ~1.5 GiB each to compile.
ninja -C "$BUILD_DIR" -j "${KCC_JOBS:-2}" "${@:-all}"
