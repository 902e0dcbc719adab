# The few commands people run. `make help` lists them.
PYTHON ?= python

.PHONY: help install test fuzz lint typecheck bench demo ci clean gpu-wheels gpu-test gpu-bench

help:
	@echo "make install    install zyxarray with its test extras and PoCL (see README)"
	@echo "make test       run the tests (python -m pytest)"
	@echo "make fuzz       differential fuzzing campaign, 10^5 programs per device (FUZZ=N,"
	@echo "                FUZZ_WORKERS=N processes, FUZZ_DEVICES=\"cpu opencl:0\"; fuzz-out/)"
	@echo "make lint       ruff check zyxarray tests (skipped if ruff is not installed)"
	@echo "make typecheck  mypy zyxarray"
	@echo "make bench      benchmarks against NumPy (python bench/run.py)"
	@echo "make demo       the self-check: devices, a fused kernel, timings (python -m zyxarray)"
	@echo "make ci         what CI runs (.ci/run)"
	@echo "make gpu-wheels download the wheels the GPU machine lacks into .wheels/"
	@echo "make gpu-test   on the GPU machine: backend tests on cuda:0 and NVIDIA OpenCL"
	@echo "make gpu-bench  on the GPU machine: bench/gpu.py against CuPy"
	@echo "make clean      build outputs and tool caches (not the kernel cache)"

install:
	sh tests/install-system-deps.sh && $(PYTHON) -m pip install ".[test,opencl,vulkan]"

test:
	$(PYTHON) -m pytest

# random programs against NumPy on every device (tests/fuzzing.py); a failure prints its
# minimized program, to be added to REGRESSIONS in tests/test_fuzz.py
# (in parallel processes: tests/fuzz_campaign.py; FUZZ_DEVICES narrows the devices)
FUZZ ?= 100000
FUZZ_WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
fuzz:
	$(PYTHON) -m tests.fuzz_campaign $(FUZZ_DEVICES) --programs $(FUZZ) \
		--workers $(FUZZ_WORKERS) --out fuzz-out

lint:
	@if command -v ruff >/dev/null 2>&1; then \
		ruff check zyxarray tests; \
	else \
		echo "ruff is not installed (pip install ruff, or pip install \".[dev]\"): lint skipped"; \
	fi

typecheck:
	$(PYTHON) -m mypy zyxarray

bench:
	$(PYTHON) bench/run.py

demo:
	$(PYTHON) -m zyxarray

ci:
	bash .ci/run

gpu-wheels:
	$(PYTHON) -m pip download -q --only-binary=:all: --python-version 3.12 \
		--platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 -d .wheels \
		cffi pycparser pyopencl pytools platformdirs siphash24 typing_extensions \
		pytest-xdist execnet
	rm -f .wheels/numpy-*.whl .wheels/pytest-[0-9]*.whl .wheels/pluggy-*.whl \
		.wheels/iniconfig-*.whl .wheels/packaging-*.whl .wheels/pygments-*.whl

gpu-test:
	bash bench/gpu_machine.sh test

gpu-bench:
	bash bench/gpu_machine.sh bench

clean:
	rm -rf build dist *.egg-info .pytest_cache .hypothesis .mypy_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
