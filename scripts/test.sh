#!/usr/bin/env bash
# Installs, builds and runs every test through lit (dialect, passes, ISA,
# CLI, emulator, timing model, runtime, end to end, unit). Ends with one
# "check-kcc: N passed, M failed" line; exits non-zero if anything failed.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${KCC_BUILD_DIR:-build}"
# Every tool and test binary the suite runs (check-kcc's dependencies).
./scripts/build.sh all kcc-test-deps
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
set +e
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | head -1; }
passed=$(count Passed); failed=$(count Failed); unexpected=$(count 'Unexpectedly Passed')
echo "check-kcc: ${passed:-0} passed, $(( ${failed:-0} + ${unexpected:-0} )) failed"
exit "$status"
