#!/bin/sh
# Regenerates docs/timing-gemm-gfx950.svg (docs/timing-model.md's picture):
# kcc's GEMM (bf16 in, f32 out, the tiles kcc::ops::gemm picks: BK=128 with
# LDS rows padded by 8) compiled for gfx950, one CU's
# workgroup of a 256 x 256 x 4096 problem run on the emulator in steady-state
# mode, one iteration of its K loop drawn. Usage: scripts/timing-picture.sh
# [BUILD_DIR] (default build).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
kcc=$build/bin/kcc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
M=256 N=256 K=4096
"$kcc" "$root/kernels/gemm/gemm.mlir" --mcpu=gfx950 -D DTYPE=bf16 -D OUT=f32 \
  -D BK=128 -D PAD=8 -o "$tmp/gemm.hsaco"
head -c $((M * K * 2)) /dev/zero > "$tmp/a.bin"
head -c $((N * K * 2)) /dev/zero > "$tmp/bt.bin"
head -c $((N * 2)) /dev/zero > "$tmp/bias.bin"
mkdir -p "$root/docs"
"$kcc" run "$tmp/gemm.hsaco" --kernel gemm --device emu:gfx950 \
  --grid $((M / 128)),$((N / 128)) --block 256 \
  --arg in="$tmp/a.bin" --arg in="$tmp/bt.bin" --arg out="$tmp/c.bin:$((M * N * 4))" \
  --arg in="$tmp/bias.bin" --arg i32=$M --arg i32=$N --arg i32=$K --arg i32=$K \
  --arg i32=$K --arg i32=$N \
  --timing --steady-state --bank-conflicts --flops $((2 * M * N * K)) \
  --timeline "$root/docs/timing-gemm-gfx950.svg"
