#!/usr/bin/env bash
# Run the backend tests and the GPU benchmarks on the GPU machine (an NVIDIA H100/H200 with
# CuPy preinstalled and no network; see docs/design.md, "Thread-style devices"). Wheels it lacks (cffi, pyopencl and
# their dependencies) are carried in .wheels/ (make gpu-wheels, on a machine with network).
#
#   bash bench/gpu_machine.sh test    # backend tests on cuda:0, NVIDIA's OpenCL and Vulkan
#   bash bench/gpu_machine.sh bench   # bench/gpu.py on cuda:0, NVIDIA's OpenCL and Vulkan
#   bash bench/gpu_machine.sh hip     # the HIP dialect through NVRTC on cuda:0: tests, bench
#   bash bench/gpu_machine.sh all
# Results go to $OUT (or ./gpu-results) as logs and JSON.
set -u
what=${1:-all}
out=${OUT:-gpu-results}
mkdir -p "$out"
PY=${PYTHON:-python3}
if ls .wheels/*.whl >/dev/null 2>&1; then
  $PY -m pip install -q --no-deps --no-index .wheels/*.whl 2>&1 | tail -1
fi
# NVIDIA's OpenCL library is installed but not registered as an ICD there
if [ -e /etc/OpenCL/vendors ] || mkdir -p /etc/OpenCL/vendors 2>/dev/null; then
  [ -e /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd 2>/dev/null
fi
# NVIDIA's Vulkan driver: the machine has it but no Vulkan loader (libvulkan1's .deb is
# carried in .gl/) and its GLX ICD file fails headless; the EGL library serves compute
if ls .gl/*.deb >/dev/null 2>&1; then
  for f in .gl/*.deb; do dpkg -x "$f" / 2>/dev/null; done; ldconfig 2>/dev/null
  printf '{"file_format_version":"1.0.1","ICD":{"library_path":"libEGL_nvidia.so.0","api_version":"1.3"}}' > /tmp/nvidia_egl_icd.json
  export VK_DRIVER_FILES=/tmp/nvidia_egl_icd.json
fi
pick() {
  $PY - "$1" <<'PY'
import sys
import zyxarray._devices.registry as r
print(next((n for n, d in r.devices().items()
            if d.info.kind == sys.argv[1] and "NVIDIA" in d.info.description), ""))
PY
}
ocl=$(pick opencl)
vk=$(pick vulkan)
echo "NVIDIA OpenCL device: ${ocl:-none}; NVIDIA Vulkan device: ${vk:-none}"
$PY -m zyxarray > "$out/devices.txt" 2>&1; head -20 "$out/devices.txt"
if [ "$what" = test ] || [ "$what" = all ]; then
  devs="${DEVICES:-cuda:0${ocl:+,$ocl}${vk:+,$vk}}"
  ZYXARRAY_TEST_DEVICES=$devs ZYXARRAY_CUDA_CHECK=0 timeout ${TEST_TIMEOUT:-420} $PY -m pytest -q -p no:cacheprovider \
    --maxfail=30 -rf tests > "$out/tests.log" 2>&1
  echo "tests on $devs: exit $?"; tail -40 "$out/tests.log"
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
  timeout 240 $PY bench/gpu.py --device cuda:0 --json "$out/bench-cuda.json" 2>&1 | tee "$out/bench-cuda.txt"
  if [ -n "$ocl" ]; then
    timeout 200 $PY bench/gpu.py --device "$ocl" --json "$out/bench-opencl.json" 2>&1 | tee "$out/bench-opencl.txt"
  fi
  if [ -n "$vk" ]; then
    timeout 200 $PY bench/gpu.py --device "$vk" --json "$out/bench-vulkan.json" 2>&1 | tee "$out/bench-vulkan.txt"
  fi
fi
if [ "$what" = hip ]; then
  # issue 16: the HIP kernels' numerics on real hardware. ZYXARRAY_CUDA_DIALECT=hip renders
  # cuda:0's kernels in the HIP dialect (its prelude's NVIDIA branch maps the few HIP names to
  # CUDA's); NVRTC compiles them and the backend suite checks them against NumPy and the
  # reference device, as it checks every device.
  ZYXARRAY_CUDA_DIALECT=hip ZYXARRAY_TEST_DEVICES=cuda:0 ZYXARRAY_CUDA_CHECK=0 ZYXARRAY_HIP_CHECK=0 \
    timeout ${TEST_TIMEOUT:-420} $PY -m pytest -q -p no:cacheprovider --maxfail=30 -rf tests \
    > "$out/tests-hip.log" 2>&1
  echo "tests on cuda:0 in the HIP dialect: exit $?"; tail -40 "$out/tests-hip.log"
  ZYXARRAY_CUDA_DIALECT=hip timeout 200 $PY bench/gpu.py --device cuda:0 \
    --json "$out/bench-hip.json" 2>&1 | tee "$out/bench-hip.txt"
fi
