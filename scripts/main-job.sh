#!/usr/bin/env bash
# The main job, as a newcomer runs it on a fresh Debian 12 machine: install
# what is missing, build kcc, then compile the GEMM and the attention kernel
# for gfx942 and gfx950 (kcc --stats prints what each code object holds) and
# run them on the default device (the emulator when there is no AMD GPU)
# against float64 references:
#   - test/e2e/KCCEndToEndTests runs two GEMM shapes on emulated gfx942 and
#     gfx950;
#   - tools/examples/gemm_example.cpp JIT-compiles the GEMM through the
#     runtime and runs it on the default device and on emulated gfx942;
#   - tools/examples/attention_example.cpp runs kcc::ops::attention_forward
#     (causal GQA, bf16, D = 128) on the default device (the gfx950 fast path
#     on the emulator) and on emulated gfx942.
# Each step prints one header line and its own output; the install and the
# build write theirs to a log file whose name is printed, shown in full only
# if they fail, and the compile steps show the registers and occupancy of
# each kernel (kcc --stats in full is in $BUILD_DIR/main-job/*.stats.txt).
# The last line counts the steps that passed.
set -uo pipefail
case "${1:-}" in
  -h | --help)
    # The comment above, without its leading '# '.
    sed -n '2,/^set /{/^#/s/^# \{0,1\}//p}' "$0"
    echo "usage: scripts/main-job.sh   (no arguments; KCC_BUILD_DIR names the build directory, default build)"
    exit 0
    ;;
  "") ;;
  *)
    echo "main-job.sh: takes no arguments, not '$1' (--help says what it does)" >&2
    exit 2
    ;;
esac
cd "$(dirname "$0")/.."
BUILD_DIR="${KCC_BUILD_DIR:-build}"
out="$BUILD_DIR/main-job"
mkdir -p "$out"
log="$out/build.log"
: > "$log"
total=11
done_steps=0
n=0

# step TITLE COMMAND...: a numbered header, then the command's output.
step() {
  local title="$1"
  shift
  n=$((n + 1))
  echo
  echo "== [$n/$total] $title"
  if "$@"; then
    done_steps=$((done_steps + 1))
  else
    echo "main job: step $n ($title) failed; $done_steps of $total steps passed"
    exit 1
  fi
}

# compile CHIP NAME KCC-ARGS...: one kernel file to NAME-CHIP.hsaco, its
# --stats saved beside it and summed up in two lines.
compile() {
  local chip="$1" name="$2"
  shift 2
  "$BUILD_DIR/bin/kcc" "$@" --mcpu="$chip" -o "$out/$name-$chip.hsaco" --stats \
    > "$out/$name-$chip.stats.txt" || return 1
  grep -E '^kernel|^  (registers|occupancy)' "$out/$name-$chip.stats.txt"
}

# quietly COMMAND...: runs it with its output in the log file, shown only
# if it fails.
quietly() {
  echo "(output in $log)"
  if ! "$@" >> "$log" 2>&1; then
    cat "$log"
    return 1
  fi
}

# quiet TITLE COMMAND...: a step whose output goes to the log file.
quiet() {
  local title="$1"
  shift
  step "$title" quietly "$@"
}

quiet "install the Debian packages kcc needs" ./scripts/install-deps.sh
quiet "build kcc (Release, Ninja) into $BUILD_DIR" ./scripts/build.sh
# The GEMM with the tiles kcc::ops::gemm picks (kernels/gemm/GemmOp.cpp).
step "compile the GEMM for gfx942" \
  compile gfx942 gemm kernels/gemm/gemm.mlir -D PAD=4 -D REG=1 -D RROWS=16
step "compile the GEMM for gfx950" compile gfx950 gemm kernels/gemm/gemm.mlir -D BK=128 -D PAD=8
step "run the GEMM on emulated gfx942 and gfx950 vs a float64 reference" \
  "$BUILD_DIR/test/e2e/KCCEndToEndTests" --gtest_brief=1 --gtest_filter='*100x70x52*:*96x64x96*'
# The JIT's disk cache stays in the build tree, so that reruns show a hit.
export KCC_CACHE_DIR="${KCC_CACHE_DIR:-$BUILD_DIR/kcc-cache}"
step "JIT-compile and run the GEMM on the default device" "$BUILD_DIR/bin/kcc-gemm-example"
step "the same on emulated gfx942" env KCC_DEVICE=emu:gfx942 "$BUILD_DIR/bin/kcc-gemm-example"
# The D = 128 attention kernels with the parameters kcc::ops::attention_forward
# picks on each chip (kernels/attention/AttentionOp.cpp).
step "compile the attention kernel for gfx942" \
  compile gfx942 fmha kernels/attention/fmha_fwd.mlir -D BN=32 -D BLOCK=512 -D STAGGER=1 \
  -D V_TR=0 -D PAD=4 -D VPAD=4 -D VR=128 -D VC=32 -D VROWS=8
step "compile the attention kernel for gfx950" \
  compile gfx950 fmha kernels/attention/fmha_fwd.mlir -D BN=64 -D BLOCK=512 -D STAGGER=1 \
  -D V_TR=1 -D PAD=8 -D VPAD=32 -D VR=64 -D VC=128 -D VROWS=8
step "run the attention on the default device vs a float64 reference" \
  "$BUILD_DIR/bin/kcc-attention-example"
step "the same on emulated gfx942" env KCC_DEVICE=emu:gfx942 "$BUILD_DIR/bin/kcc-attention-example"
echo
echo "main job: $done_steps of $total steps passed (GEMM and attention compiled for gfx942 and gfx950 and checked against float64 references)"
