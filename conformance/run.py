"""Run the Array API conformance suite (data-apis/array-api-tests) against zyxarray.

Usage::

    python conformance/run.py PATH/TO/array-api-tests [--device cpu] [--max-examples 100]
                              [--out summary.json] [-- extra pytest arguments]

PATH must be a checkout of array-api-tests with its ``array-api`` submodule (the standard's
text, at the commit the suite pins) checked out inside it. The suite's code is never copied
into this repository. The run uses ``xfails-<device>.txt`` beside this script: every entry
there is preceded by a ``#`` line that says why it fails. At the end it prints, and writes to
``--out``, the pass/fail/xfail/skip counts and the wall time.

Hypothesis's per-example deadline (800 ms in the suite) is turned off with the suite's own
``--disable-deadline`` option: the first example that uses a new kernel structure pays a
one-time C compile (0.1-0.3 s per structure, more on a loaded machine), so the deadline
measured the compiler, not zyxarray. ``--deadline`` keeps it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("suite", type=Path, help="checkout of data-apis/array-api-tests")
    p.add_argument("--device", default="cpu", help="zyxarray device (ZYXARRAY_DEVICE)")
    p.add_argument("--max-examples", type=int, default=100)
    p.add_argument("--version", default="2025.12", help="ARRAY_API_TESTS_VERSION")
    p.add_argument("--out", type=Path, help="write the summary (JSON) here")
    p.add_argument("--no-xfails", action="store_true", help="ignore the xfails file")
    p.add_argument("--deadline", action="store_true",
                   help="keep Hypothesis's 800 ms per-example deadline (off by default: the "
                        "first use of a kernel structure compiles C, a one-time cost)")
    p.add_argument("pytest_args", nargs="*", help="passed on to pytest (after --)")
    args = p.parse_args()

    suite = args.suite.resolve()
    if not (suite / "array_api_tests").is_dir():
        p.error(f"{suite} is not an array-api-tests checkout (no array_api_tests/ folder)")
    if not (suite / "array-api" / "src").is_dir():
        p.error(f"{suite}/array-api is empty: check out the array-api submodule at the "
                "commit the suite pins (git submodule update --init)")
    xfails = HERE / f"xfails-{args.device.split(':')[0]}.txt"
    env = dict(os.environ,
               ARRAY_API_TESTS_MODULE="zyxarray",
               ARRAY_API_TESTS_VERSION=args.version,
               ZYXARRAY_DEVICE=args.device,
               PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        cmd = [sys.executable, "-m", "pytest", "array_api_tests", "-q", "-p", "no:cacheprovider",
               f"--max-examples={args.max_examples}", "--json-report",
               f"--json-report-file={report}", "--json-report-omit", "collectors", "log",
               "streams", "keywords"]
        if not args.deadline:
            cmd.append("--disable-deadline")
        if xfails.exists() and not args.no_xfails:
            cmd.append(f"--xfails-file={xfails}")
        cmd += args.pytest_args
        print("running:", " ".join(cmd), flush=True)
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=suite, env=env, check=False)
        wall = time.perf_counter() - t0
        data = json.loads(report.read_text()) if report.exists() else {"summary": {}}
    summary = data.get("summary", {})
    failed = sorted(t["nodeid"] for t in data.get("tests", []) if t["outcome"] == "failed")
    result = {"device": args.device, "api_version": args.version,
              "max_examples": args.max_examples, "wall_seconds": round(wall, 1),
              "passed": summary.get("passed", 0), "failed": summary.get("failed", 0),
              "xfailed": summary.get("xfailed", 0), "xpassed": summary.get("xpassed", 0),
              "skipped": summary.get("skipped", 0), "errors": summary.get("error", 0),
              "total": summary.get("total", 0), "failures": failed}
    ran = result["passed"] + result["failed"] + result["xfailed"] + result["xpassed"]
    rate = 100.0 * result["passed"] / ran if ran else 0.0
    print(f"\nzyxarray on {args.device}: {result['passed']} passed, {result['failed']} failed, "
          f"{result['xfailed']} xfailed, {result['xpassed']} xpassed, {result['skipped']} "
          f"skipped ({rate:.1f}% of run tests pass) in {wall / 60:.1f} min")
    for f in failed:
        print("  FAILED", f)
    if args.out:
        args.out.write_text(json.dumps(result, indent=1))
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
