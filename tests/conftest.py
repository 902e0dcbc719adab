"""Shared test setup: the ``device`` fixture, a private kernel cache, hypothesis profiles.

Every backend test takes the ``device`` fixture, which runs it once per available device
(``registry.devices()``), with the device's name in the test id. ``ZYXARRAY_TEST_DEVICES``
(comma-separated kinds or names, e.g. ``cpu`` or ``reference,opencl:0``) narrows the set.

The suite runs on one pytest-xdist worker per core (``-n auto`` in pyproject.toml; ``-n 0``
runs it in one process); the session-end CUDA and SPIR-V checks gather every worker's kernels
and run once, in the controller.

Hypothesis profiles (``--hypothesis-profile NAME``): ``zyxarray`` (the default, sized so the
whole suite runs in a few minutes on two cores: every new kernel structure costs a C
compile; derandomized, so CI draws the same examples on every run and a red run is
reproducible) and ``thorough`` (300 random examples, to look for new failures). Tests
parametrized over many functions use ``tests.helpers.scaled`` fractions of the profile's
count.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from zyxarray import _env

# scikit-learn's array API dispatch (tests/test_scikit_learn.py) needs SciPy's, which is read
# when SciPy is first imported
os.environ.setdefault("SCIPY_ARRAY_API", "1")
# PoCL (the opencl device of CI) compiles every kernel twice by default: a generic work-group
# function when the program's binary is read for the kernel cache, and one specialized for
# the launch's local size at the first launch. With specialization off the first serves
# both: a new kernel costs about 240 ms instead of 330, and the suite's ~3,800 opencl
# compiles were most of its running time on a fresh machine (PoCL's own cache empty).
# Results are the same; only the speed of PoCL's kernels differs.
os.environ.setdefault("POCL_WORK_GROUP_SPECIALIZATION", "0")

settings.register_profile(
    "zyxarray", max_examples=25, deadline=None, print_blob=True, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.function_scoped_fixture])
settings.register_profile(
    "thorough", parent=settings.get_profile("zyxarray"), max_examples=300, derandomize=False)
settings.load_profile("zyxarray")

_own_cache_dir: str | None = None
_cuda_check: Any = None
_hip_check: Any = None
_spirv_check: Any = None


def pytest_configure(config: pytest.Config) -> None:
    """Keep compiled kernels in a session directory, not the user's cache."""
    global _own_cache_dir
    # third-party noise (libcst, pulled in by hypothesis' plugin) that says nothing about us
    config.addinivalue_line("filterwarnings",
                            "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning")
    config.addinivalue_line(
        "markers", "numpy_layer: a test of the layers above the kernels (composites of core "
        "ops: numpy-style math, statistics and manipulation, masked arrays, dask, "
        "scikit-learn, the example programs, the operators' dtype rules). It runs "
        "on every device except an OpenCL on PoCL unless ZYXARRAY_TEST_DEVICES names the "
        "devices: the opencl renderer is tested by the backend tests there, and by the whole "
        "suite on a GPU's OpenCL (ZYXARRAY_TEST_DEVICES=opencl).")
    # PoCL's optimizing OpenCL builds take seconds per kernel; the tests check results, so
    # they build without optimization (about 7x faster)
    os.environ.setdefault(_env.OPENCL_OPTIONS, "-cl-opt-disable")
    if not os.environ.get(_env.CACHE_DIR):
        _own_cache_dir = tempfile.mkdtemp(prefix="zyxarray-test-cache-")
        os.environ[_env.CACHE_DIR] = _own_cache_dir
    global _cuda_check
    from tests import cuda_check
    nvcc = cuda_check.enabled()
    if nvcc is not None:
        _cuda_check = cuda_check.CudaCheck(nvcc)
        _cuda_check.install()
    global _hip_check
    from tests import hip_check
    tools = hip_check.enabled()
    if tools is not None:
        _hip_check = hip_check.HipCheck(*tools)
        _hip_check.install()
    global _spirv_check
    from tests import spirv_check
    validator = spirv_check.enabled()
    if validator is not None:
        _spirv_check = spirv_check.SpirvCheck(validator)
        _spirv_check.install()
    # pytest-xdist's controller: a directory for the workers' records of the checks
    if not hasattr(config, "workerinput") and config.pluginmanager.hasplugin("xdist") and \
            getattr(config.option, "numprocesses", None):
        config._zyx_check_dir = tempfile.mkdtemp(prefix="zyxarray-test-checks-")  # type: ignore


def _check_dir(config: pytest.Config) -> str | None:
    """Under pytest-xdist, the directory where each worker leaves what its session-end
    checks recorded, for the controller to check once (None without xdist)."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        return workerinput.get("zyx_check_dir")
    return getattr(config, "_zyx_check_dir", None)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:      # (xdist: a worker is being started)
    node.workerinput["zyx_check_dir"] = node.config._zyx_check_dir


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Compile-check the CUDA and HIP renderings and validate the SPIR-V rendering of every
    kernel the session built (see cuda_check, hip_check and spirv_check). Under pytest-xdist
    each worker hands what it recorded to the controller (a pickle in a shared directory),
    which checks the union once."""
    import glob
    import pickle
    import time
    shared = _check_dir(session.config)
    if shared is not None:
        if hasattr(session.config, "workerinput"):
            state = {"spirv": _spirv_check.state() if _spirv_check is not None else None,
                     "cuda": _cuda_check.state() if _cuda_check is not None else None,
                     "hip": _hip_check.state() if _hip_check is not None else None,
                     "counts": _counts()}
            name = os.path.join(shared, f"{os.getpid()}.pickle")
            with open(name, "wb") as f:
                pickle.dump(state, f)
            return
        for name in sorted(glob.glob(os.path.join(shared, "*.pickle"))):
            with open(name, "rb") as f:
                state = pickle.load(f)
            if _spirv_check is not None and state["spirv"] is not None:
                _spirv_check.merge(state["spirv"])
            if _cuda_check is not None and state["cuda"] is not None:
                _cuda_check.merge(state["cuda"])
            if _hip_check is not None and state["hip"] is not None:
                _hip_check.merge(state["hip"])
            launches, compiles = state["counts"]
            _worker_counts[0] += launches
            for dev, n in compiles.items():
                _worker_counts[1][dev] = _worker_counts[1].get(dev, 0) + n
    if _spirv_check is not None and _spirv_check.modules:
        start = time.perf_counter()
        failures = _spirv_check.check()
        summary = f"{_spirv_check.summary()} (in {time.perf_counter() - start:.0f} s)"
        session.config._zyx_spirv_report = (summary, failures)  # type: ignore
        if failures:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
    if _hip_check is not None and _hip_check.sources:
        start = time.perf_counter()
        failures = _hip_check.check()
        session.config._zyx_hip_report = (_hip_check.count(), _hip_check.stats,  # type: ignore
                                          failures, time.perf_counter() - start)
        if failures:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
    if _cuda_check is None or not _cuda_check.sources:
        return
    start = time.perf_counter()
    failures = _cuda_check.check()
    session.config._zyx_cuda_report = (len(_cuda_check.sources), failures,  # type: ignore
                                       time.perf_counter() - start)
    if failures:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config: pytest.Config) -> None:
    if _own_cache_dir is not None:
        shutil.rmtree(_own_cache_dir, ignore_errors=True)
    shared = getattr(config, "_zyx_check_dir", None)
    if shared is not None:
        shutil.rmtree(shared, ignore_errors=True)


def selected_devices() -> list[str]:
    """The devices the backend tests run on: all available, narrowed by the environment."""
    from zyxarray._devices import registry

    names = list(registry.devices())
    wanted = _env.get(_env.TEST_DEVICES)
    if not wanted:
        return names
    picks = [w.strip().lower() for w in wanted.split(",") if w.strip()]
    chosen = [n for n in names if n in picks or n.split(":")[0] in picks]
    if not chosen:
        raise pytest.UsageError(f"{_env.TEST_DEVICES}={wanted!r} matches no available device "
                                f"(available: {', '.join(names)})")
    return chosen


@pytest.fixture
def kernels_only() -> Any:
    """Every result a kernel's: the cpu device computes no small result at once
    (``_api/_hot.c``), for tests of the lazy machinery (scheduling, fusion, kernel counts)
    built on small arrays."""
    from zyxarray._api import _hot
    previous = _hot.set_now_max(0)
    yield
    _hot.set_now_max(previous)


@pytest.fixture
def device(request: pytest.FixtureRequest) -> str:
    """The name of one available device (the test runs once per device)."""
    return request.param


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # Parametrizing here (not with fixture params) keeps discovery lazy: the registry is
    # consulted after pytest_configure has pointed the kernel cache at the session dir.
    if "device" in metafunc.fixturenames:
        names = selected_devices()
        if metafunc.definition.get_closest_marker("numpy_layer") is not None and \
                not _env.get(_env.TEST_DEVICES):
            names = [n for n in names if not _compiles_slowly(n)]
        metafunc.parametrize("device", names, ids=names, indirect=True)


def _compiles_slowly(name: str) -> bool:
    """Whether device ``name`` is an OpenCL on PoCL: a CPU stand-in for OpenCL hardware
    whose builds cost about 250 ms a kernel on a fresh machine (its own cache empty), 3 to
    10 times what the other devices' compiles cost; its tests were most of CI's time."""
    from zyxarray._devices import registry
    info = registry.devices()[name].info
    return info.kind == "opencl" and \
        str(info.extra.get("platform", "")).startswith("Portable Computing Language")


#: kernel launches and compiler invocations by device, summed over pytest-xdist's workers
_worker_counts: list[Any] = [0, {}]


def _counts() -> tuple[int, dict[str, int]]:
    """This process's kernel launches and compiler invocations by device."""
    import sys
    if "zyxarray._devices.registry" not in sys.modules:
        return 0, {}
    from zyxarray._devices import registry
    from zyxarray._lazy.realize import stats
    compiles = {name: getattr(dev, "compiles", None) for name, dev in registry.devices().items()}
    return stats.get("kernels", 0), {n: c for n, c in compiles.items() if c is not None}


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """How many kernels the session compiled: the suite's running time is mostly compiles."""
    launches, compiles = _counts()
    launches += _worker_counts[0]
    for dev, n in _worker_counts[1].items():
        compiles[dev] = compiles.get(dev, 0) + n
    if launches or compiles:
        counted = ", ".join(f"{n}: {c}" for n, c in compiles.items())
        terminalreporter.write_line(f"zyxarray: {launches} kernel launches; "
                                    f"compiler invocations: {counted or 'none'}")
    spirv = getattr(terminalreporter.config, "_zyx_spirv_report", None)
    if spirv is not None:
        text, failures = spirv
        terminalreporter.write_line(f"{text}: {len(failures)} failure(s)")
        for failure in failures[:5]:
            terminalreporter.write_line(failure)
    hip = getattr(terminalreporter.config, "_zyx_hip_report", None)
    if hip is not None:
        count, stats, failures, seconds = hip
        terminalreporter.write_line(
            f"zyxarray: HIP rendering of {count} kernels compiled with clang for gfx942, "
            f"gfx90a and gfx1100 (in {seconds:.0f} s): {stats.get('objects', 0)} code "
            f"objects, at most {stats.get('max_vgprs', 0)} VGPRs, "
            f"{stats.get('scratch', 0)} using scratch memory, "
            f"{stats.get('sgpr_spills', 0)} spilling SGPRs; "
            f"{len(failures)} failure(s)")
        for failure in failures[:5]:
            terminalreporter.write_line(failure)
    report = getattr(terminalreporter.config, "_zyx_cuda_report", None)
    if report is not None:
        count, failures, seconds = report
        terminalreporter.write_line(f"zyxarray: CUDA rendering of {count} kernels compiled "
                                    f"with nvcc --ptx (in {seconds:.0f} s): "
                                    f"{len(failures)} failure(s)")
        for failure in failures:
            terminalreporter.write_line(failure)
