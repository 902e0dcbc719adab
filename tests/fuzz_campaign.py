"""A long differential fuzzing campaign in parallel processes (``make fuzz``).

Usage: python -m tests.fuzz_campaign [DEVICE ...] [--programs 100000] [--workers N]
       [--seconds S] [--out DIR]

Each worker process draws programs from ``tests/fuzzing.py`` (``programs(device,
max_steps=24)``, the campaign's size) on one device, in chunks of ``--chunk`` with fresh random
seeds, until the device's ``--programs`` are drawn or ``--seconds`` are up. A failing chunk is
minimized by Hypothesis; its program (``Program.describe``) is printed, written to
``DIR/failures.txt`` and becomes a regression in ``tests/test_fuzz.py`` by hand. A worker that
stops answering (a hang) is reported and its device counted as failed. Without devices, every
available one (``registry.devices()``) takes part; workers are spread over them evenly.

The summary (``DIR/summary.txt`` and stdout) gives programs run and failures per device. The
exit status is 0 only when every device reached its programs with no failure.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import queue
import sys
import time
import traceback
from typing import Any

#: a worker that reports nothing for this long past the deadline is taken to hang
GRACE_S = 300
#: a worker stops after this many failures (each one minimized: the rest are likely the same)
MAX_FAILURES = 5


def _worker(device: str, target: int, deadline: float, chunk: int, counter: Any,
            failures: Any) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests import fuzzing

    done = [0]

    @settings(max_examples=chunk, derandomize=False, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), print_blob=False)
    @given(data=st.data())
    def one(data: st.DataObject) -> None:
        data.draw(fuzzing.programs(device, max_steps=24))
        done[0] += 1

    failed = 0
    parent = os.getppid()
    while time.time() < deadline and counter.value < target and failed < MAX_FAILURES:
        if os.getppid() != parent:      # (the campaign was killed: stop, not fuzz on alone)
            break
        done[0] = 0
        try:
            one()
        except Exception as e:      # (a mismatch, or zyxarray raising: the report is the text)
            failed += 1
            failures.put((device, _describe(e)))
        with counter.get_lock():
            counter.value += done[0]


def _describe(e: BaseException) -> str:
    """A failure's report: its message (a mismatch's names the program's steps) and the end
    of its traceback; each one of a group (Hypothesis reports distinct failures together)."""
    group = getattr(e, "exceptions", None)      # (an ExceptionGroup)
    if isinstance(group, tuple) and group:
        return "\n".join(f"[{k + 1}/{len(group)}] {_describe(sub)}"
                         for k, sub in enumerate(group))
    tail = "".join(traceback.format_exception(e)[-4:-1])
    return f"{type(e).__name__}: {e}\n{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("devices", nargs="*")
    parser.add_argument("--programs", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seconds", type=float, default=24 * 3600.0)
    parser.add_argument("--chunk", type=int, default=25)
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    devices = args.devices
    if not devices:
        from zyxarray._devices import registry
        devices = list(registry.devices())
    start = time.time()
    deadline = start + args.seconds
    ctx = mp.get_context("spawn")
    failures: Any = ctx.Queue()
    counters = {d: ctx.Value("q", 0) for d in devices}
    procs = []
    for k in range(max(args.workers, len(devices))):
        d = devices[k % len(devices)]
        p = ctx.Process(target=_worker, args=(d, args.programs, deadline, args.chunk,
                                              counters[d], failures), daemon=True)
        p.start()
        procs.append((d, p))
    found: list[tuple[str, str]] = []
    hung: set[str] = set()
    written = time.time()
    while any(p.is_alive() for _, p in procs):
        try:
            found.append(failures.get(timeout=5))
            print(f"FAILURE on {found[-1][0]}:\n{found[-1][1]}", flush=True)
        except queue.Empty:
            pass
        if time.time() > deadline + GRACE_S:
            for d, p in procs:
                if p.is_alive():
                    hung.add(d)
                    p.kill()
        if time.time() - written > 30:      # (so far: what a killed campaign leaves)
            _report(args, devices, counters, found, hung, start, final=False)
            written = time.time()
    while True:
        try:
            found.append(failures.get(timeout=1))
        except queue.Empty:
            break
    return 0 if _report(args, devices, counters, found, hung, start, final=True) else 1


def _report(args: Any, devices: list[str], counters: dict, found: list[tuple[str, str]],
            hung: set[str], start: float, final: bool) -> bool:
    """Write (and, at the end, print) the counts; True if every device is clean."""
    minutes = (time.time() - start) / 60
    lines = [f"campaign: {args.workers} workers, {minutes:.1f} min"
             f"{'' if final else ' so far'}"]
    ok = True
    for d in devices:
        n = counters[d].value
        bad = sum(1 for fd, _ in found if fd == d)
        good = n >= args.programs and not bad and d not in hung
        ok &= good
        lines.append(f"{d}: {n} programs, {bad} failures{', a worker hung' if d in hung else ''}"
                     f"{'' if good else '  <-- not clean'}")
    text = "\n".join(lines)
    if final:
        print(text)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "summary.txt"), "w") as f:
            f.write(text + "\n")
        with open(os.path.join(args.out, "failures.txt"), "w") as f:
            for d, msg in found:
                f.write(f"=== {d}\n{msg}\n")
    return ok


if __name__ == "__main__":
    sys.exit(main())
