#!/usr/bin/env sh
# System packages the test suite uses beyond Python's: PoCL, an OpenCL implementation that
# runs on the CPU, so the opencl backend is tested on any machine (issue 4); lavapipe (Mesa's
# Vulkan on the CPU) and the Vulkan loader, for the Vulkan runtime's tests, and spirv-tools,
# whose spirv-val checks the SPIR-V rendering of every kernel the tests build (issue 15);
# clang 19 with lld and llvm-readelf, which compile the HIP rendering of every kernel the
# tests build for AMD GPUs (gfx942, gfx90a, gfx1100) and read their registers (issue 16).
# Needs apt-get and root (or sudo); elsewhere it says what it skipped and the tests that need
# those packages are skipped with it.
# nvcc (CUDA's compiler) is not installed here: where it exists, the tests compile-check the
# CUDA rendering of every kernel with it (tests/cuda_check.py).
set -u
PKGS="pocl-opencl-icd ocl-icd-libopencl1 mesa-vulkan-drivers libvulkan1 spirv-tools clang-19 lld-19 llvm-19"
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-system-deps: no apt-get; install $PKGS by hand for the opencl, vulkan and HIP checks"
    exit 0
fi
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-system-deps: not root and no sudo; skipping $PKGS (their tests will be skipped)"
    exit 0
fi
missing=""
for p in $PKGS; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -z "$missing" ]; then
    echo "install-system-deps: $PKGS already installed"
    exit 0
fi
$SUDO apt-get update -qq && \
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing \
    || echo "install-system-deps: apt-get failed; the opencl, vulkan and HIP checks will be skipped"
exit 0
