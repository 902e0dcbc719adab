"""Small real NumPy programs (``examples/numpy_programs``), written as people write NumPy
code, run unchanged with ``import zyxarray as np`` on every device (as the default device)
and give NumPy's results: values, dtypes and shapes (issue 13, item 7).

Each program leaves a ``results`` dict. Programs that draw random numbers compare
statistics with a tolerance that the sample sizes make safe.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from zyxarray._devices import registry

PROGRAMS = sorted((Path(__file__).parent.parent / "examples" / "numpy_programs").glob("*.py"))
LOOSE = {"random_walk.py": 0.05, "simulations.py": 0.05}


def _run(source: str, name: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "__main__", "__file__": name}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, name, "exec"), namespace)
    return namespace["results"]


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
@pytest.mark.numpy_layer
def test_numpy_program_runs_unchanged(device: str, program: Path) -> None:
    source = program.read_text()
    assert "import numpy as np" in source
    expected = _run(source, program.name)
    registry.set_default(device)
    try:
        got = _run(source.replace("import numpy as np", "import zyxarray as np"), program.name)
    finally:
        registry.set_default(None)
    assert got.keys() == expected.keys()
    tol = LOOSE.get(program.name)
    for key, want in expected.items():
        have = got[key]
        want_a = np.asarray(want)
        have_a = np.asarray(have.to_device("cpu") if hasattr(have, "to_device") else have)
        assert have_a.shape == want_a.shape, (key, have_a.shape, want_a.shape)
        if tol is None:
            # (a Python scalar where NumPy gives a NumPy scalar, e.g. finfo's attributes,
            # which the standard makes Python floats: the value is compared)
            if not isinstance(have, (bool, int, float, complex)):
                assert have_a.dtype == want_a.dtype, (key, have_a.dtype, want_a.dtype)
            np.testing.assert_allclose(have_a, want_a, rtol=1e-9, atol=1e-12, err_msg=key)
        else:
            np.testing.assert_allclose(have_a, want_a, rtol=tol, atol=tol, err_msg=key)
        if hasattr(have, "device"):
            assert have.device.name == device, (key, have.device.name)
