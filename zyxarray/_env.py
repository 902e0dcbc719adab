"""Every environment variable zyxarray reads, declared in one place.

Foundation module: importable from every layer; imports nothing from zyxarray.
"""

from __future__ import annotations

import os
from pathlib import Path

#: Comma-separated debug topics (see ``zyxarray._debug.TOPICS``), or ``all``/``1``.
DEBUG = "ZYXARRAY_DEBUG"
#: The default device, e.g. ``cpu``, ``reference``, ``opencl:0``.
DEVICE = "ZYXARRAY_DEVICE"
#: Comma-separated device kinds or ids to use in tests (narrows the parametrization).
TEST_DEVICES = "ZYXARRAY_TEST_DEVICES"
#: Directory of the on-disk kernel cache.
CACHE_DIR = "ZYXARRAY_CACHE_DIR"
#: Set to ``0`` to disable the on-disk kernel cache (the in-memory cache stays).
DISK_CACHE = "ZYXARRAY_DISK_CACHE"
#: Path of the JSON config file.
CONFIG = "ZYXARRAY_CONFIG"
#: The C compiler used by the cpu device (default: ``cc``, then ``gcc``, then ``clang``).
CC = "ZYXARRAY_CC"
#: Number of threads for the cpu device's OpenMP loops (default: all cores).
NUM_THREADS = "ZYXARRAY_NUM_THREADS"
#: Depth of pending graph after which an array is realized eagerly (bounds memory and recursion).
MAX_DEPTH = "ZYXARRAY_MAX_DEPTH"

#: Extra OpenCL build options, space-separated (the tests use -cl-opt-disable on PoCL, whose
#: optimizing builds take seconds per kernel).
OPENCL_OPTIONS = "ZYXARRAY_OPENCL_OPTIONS"

#: Set to ``1`` to measure the work-group size of each new GPU kernel structure (see
#: ``_lazy/tune.py``; the choices are kept on disk and used by later processes either way).
TUNE = "ZYXARRAY_TUNE"

#: ``hip`` renders the kernels of ``cuda:N`` devices in the HIP dialect (compiled by NVRTC
#: through the HIP prelude's NVIDIA branch): how the HIP kernels are checked on NVIDIA GPUs.
CUDA_DIALECT = "ZYXARRAY_CUDA_DIALECT"

#: Where an unpickled array of a device this machine lacks goes: ``default`` or a device
#: name (unset: unpickling it raises ValueError). The config file's ``unpickle_device``.
UNPICKLE_DEVICE = "ZYXARRAY_UNPICKLE_DEVICE"

#: Set to ``0`` to keep Array's hot path in Python (``_api/_hot.py``: element reads and writes
#: and scalar arithmetic in C, built with the cpu device's compiler).
HOT = "ZYXARRAY_HOT"

#: The most elements of a result the cpu device computes at once, without a kernel, when its
#: operands are small arrays in memory (``_api/_hot.c``; default 4096; ``0``: every result
#: is a fused kernel's, as on the other devices).
NOW_MAX = "ZYXARRAY_NOW_MAX"

#: ``1`` or ``0``: Vulkan kernels take their buffers by device address, or bind them as
#: descriptors (then a buffer stops at the storage range). Unset: by address where the
#: device's storage-buffer range is small (``_devices/vulkan.py``, ``ADDRESSES_BELOW``).
VULKAN_ADDRESSES = "ZYXARRAY_VULKAN_ADDRESSES"

#: Programs per device in ``tests/test_fuzz.py``'s campaign test (tests only; ``make fuzz``
#: runs ``tests/fuzz_campaign.py``).
FUZZ_EXAMPLES = "ZYXARRAY_FUZZ_EXAMPLES"

ALL = (DEBUG, DEVICE, TEST_DEVICES, CACHE_DIR, DISK_CACHE, CONFIG, CC, NUM_THREADS, MAX_DEPTH,
       OPENCL_OPTIONS, TUNE, CUDA_DIALECT, UNPICKLE_DEVICE, HOT, NOW_MAX, VULKAN_ADDRESSES,
       FUZZ_EXAMPLES)


def get(name: str, default: str | None = None) -> str | None:
    """Read one declared variable; an undeclared name is a programming error."""
    assert name in ALL, f"undeclared environment variable {name}"
    value = os.environ.get(name)
    return default if value is None or value == "" else value


def cache_dir() -> Path:
    """The kernel cache directory: $ZYXARRAY_CACHE_DIR, else $XDG_CACHE_HOME/zyxarray."""
    explicit = get(CACHE_DIR)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "zyxarray"


def config_path() -> Path:
    """The JSON config file: $ZYXARRAY_CONFIG, else $XDG_CONFIG_HOME/zyxarray/config.json."""
    explicit = get(CONFIG)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "zyxarray" / "config.json"
