#!/usr/bin/env bash
# Installs the Debian 12 packages kcc builds and tests with, when they are missing.
# Safe to run again: packages already present are not touched.
set -euo pipefail

PACKAGES=(
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools lld-22 liblld-22-dev clang-22
  libzstd-dev libedit-dev libamdhip64-dev
  cmake ninja-build pkgconf googletest libgtest-dev g++ python3 openmpi-bin libopenmpi-dev
  # The Python package (python/): its binding, and what its tests run with.
  python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pytest python3-torch
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
