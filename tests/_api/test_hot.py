"""The C hot path of Array (``_api/_hot.c``): element reads and writes in host memory and
arithmetic on known scalars give exactly what the Python path and NumPy give, for every
dtype it computes in, and never break NumPy's aliasing (views see writes, pending results
do not). Each case runs with the C shortcuts on and off (``_hot.set_enabled``) and compares;
``ZYXARRAY_HOT=0`` (no C at all) is checked in a subprocess."""

from __future__ import annotations

import operator
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import zyxarray as xp
from zyxarray._api import _hot, _indexing
from zyxarray._lazy import realize
from zyxarray._lazy.graph import Node

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64"]
VALUES = {
    "bool": [True, False, True],
    "int8": [127, -128, 5], "int16": [32767, -32768, 7], "int32": [2**31 - 1, -2**31, 9],
    "int64": [2**63 - 1, -2**63, 11], "uint8": [255, 0, 3], "uint16": [65535, 0, 4],
    "uint32": [2**32 - 1, 0, 6], "uint64": [2**64 - 1, 0, 8],
    "float32": [3.4e38, -0.0, 0.1], "float64": [1.7e308, -0.0, 0.1],
}
OPERANDS = [0, 1, 2, -1, 0.5, 0.1, -0.0, 1e-45, 1e300, float("inf"), float("nan"), 300, 2**40,
            -2**63, 2**64]

needs_core = pytest.mark.skipif(_hot.core is None, reason="the C hot path did not build here")


@pytest.fixture
def both() -> object:
    """Runs the body's callable with the C shortcuts on, then off; returns both results."""
    def run(fn: object) -> tuple[object, object]:
        previous = _hot.set_enabled(True)
        try:
            fast = fn()             # type: ignore[operator]
            _hot.set_enabled(False)
            slow = fn()             # type: ignore[operator]
        finally:
            _hot.set_enabled(previous)
        return fast, slow
    return run


def _outcome(fn: object) -> object:
    """The value of ``fn()`` as (dtype, Python value), or the error's type."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = fn()                # type: ignore[operator]
        except Exception as e:      # (the error is what is compared)
            return type(e)
    if isinstance(r, xp.Array):
        host = np.asarray(r)
        return (str(host.dtype), host.shape, repr(host.tolist()))
    return (type(r).__name__, repr(r))


def _realized(values: list, dtype: str, device: str = "cpu") -> xp.Array:
    a = xp.asarray(np.array(values, dtype=dtype), device=device)
    realize.realize(a._node)
    return a


@needs_core
def test_the_core_is_the_base_and_its_scalars_are_arrays() -> None:
    a = _realized([1.0, 2.0], "float64")
    s = a[1]
    assert type(s) is xp.Array and isinstance(s, _hot.core.Core)
    assert s.shape == () and s.dtype == xp.float64 and s.device == a.device
    assert s._node.op == "CONST" and s._node.arg == 2.0     # (made when asked for)
    assert hash(s) == hash(2.0)      # (a 0-d array hashes as NumPy's scalar would)
    with pytest.raises(TypeError, match="hash"):
        hash(a)


@pytest.mark.parametrize("dtype", DTYPES)
def test_element_reads_and_writes_match_the_python_path(dtype: str, both: object,
                                                        device: str) -> None:
    values = VALUES[dtype]

    def program() -> object:
        a = _realized(values, dtype, device)
        out = [_outcome(lambda i=i: a[i]) for i in (0, 1, 2, -1, -3)]
        out += [_outcome(lambda: a[3]), _outcome(lambda: a[-4])]       # IndexError
        for v in (values[2], values[0], 1, 2.5, -1, True, 2**70):
            out.append(_outcome(lambda v=v: a.__setitem__(1, v)))
            out.append(_outcome(lambda: a[1]))
        a[2] = a[0]                                         # a known scalar as the value
        out.append(_outcome(lambda: a))
        return out

    fast, slow = both(program)                              # type: ignore[operator]
    assert fast == slow


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["add", "sub", "mul", "truediv", "lt", "le", "eq", "ne", "gt",
                                "ge"])
def test_scalar_arithmetic_matches_the_python_path_and_numpy(dtype: str, op: str,
                                                              both: object) -> None:
    fn = getattr(operator, op)

    def program() -> object:
        a = _realized(VALUES[dtype], dtype)
        out = []
        for k in range(3):
            s = a[k]
            for y in OPERANDS:
                out.append(_outcome(lambda s=s, y=y: fn(s, y)))
                out.append(_outcome(lambda s=s, y=y: fn(y, s)))
            out.append(_outcome(lambda s=s, k=k: fn(s, a[(k + 1) % 3])))
            out.append(_outcome(lambda s=s: -s))
        return out

    fast, slow = both(program)                              # type: ignore[operator]
    assert fast == slow
    # and NumPy's values where both take the operand as a weak scalar (NEP 50)
    a = np.array(VALUES[dtype], dtype=dtype)
    for k in range(3):
        for y in (0.5, 2) if dtype.startswith("float") else (2,):
            if dtype == "bool":
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = fn(a[k], y)
            got = fn(_realized(VALUES[dtype], dtype)[k], y)
            if isinstance(want, np.generic) and want.dtype.kind == "f" and np.isnan(want):
                assert np.isnan(float(got))
            else:
                assert np.asarray(got).dtype == np.asarray(want).dtype
                assert np.asarray(got).tolist() == np.asarray(want).tolist()


@pytest.mark.parametrize("dtype", DTYPES)
def test_conversions_match_the_python_path(dtype: str, both: object) -> None:
    def program() -> object:
        a = _realized([*VALUES[dtype], float("nan")] if dtype.startswith("float")
                      else VALUES[dtype], dtype)
        out = []
        for k in range(a.shape[0]):
            for conv in (float, int, bool, operator.index, complex):
                out.append(_outcome(lambda k=k, conv=conv: conv(a[k])))
        return out

    fast, slow = both(program)                              # type: ignore[operator]
    assert fast == slow


def test_integer_wraparound_and_float32_rounding_are_numpys() -> None:
    assert int(_realized([127], "int8")[0] + 1) == -128
    assert int(_realized([0], "uint8")[0] - 1) == 255
    assert int(_realized([2**63 - 1], "int64")[0] * 2) == -2
    f = _realized([0.1], "float32")[0]
    want = np.float32(0.1) * np.float32(3.0) + np.float32(0.7)
    got = f * 3.0 + 0.7
    assert got.dtype == xp.float32 and float(got) == float(want)
    z = _realized([0.0], "float64")[0]
    assert float(1.0 / z) == float("inf") and np.isnan(float(z / z))


def test_a_pending_result_does_not_see_a_later_element_write() -> None:
    a = _realized([1.0, 2.0, 3.0], "float64")
    b = a * 2               # pending: reads a's buffer when it runs
    a[0] = 10.0             # a copy-on-write now, not a store under b
    assert np.asarray(b).tolist() == [2.0, 4.0, 6.0]
    assert np.asarray(a).tolist() == [10.0, 2.0, 3.0]


def test_views_see_element_writes_and_writes_through_them() -> None:
    a = _realized(np.arange(12.0).reshape(3, 4).tolist(), "float64")
    row = a[1]
    a[1, 2] = 100.0
    assert float(row[2]) == 100.0
    row[3] = -1.0
    assert float(a[1, 3]) == -1.0
    col = a[:, 0]
    col[2] = 7.0
    assert float(a[2, 0]) == 7.0 and float(a.T[0, 2]) == 7.0


def test_an_element_read_after_an_in_place_kernel_write_sees_it() -> None:
    a = _realized(np.zeros(8).tolist(), "float64")
    assert float(a[3]) == 0.0
    a[2:6] = xp.arange(4.0) + 1.0       # a kernel into a's own buffer
    assert [float(a[i]) for i in range(8)] == [0, 0, 1, 2, 3, 4, 0, 0]
    a += 1.0
    assert float(a[0]) == 1.0 and float(a[5]) == 5.0


def test_element_loops_launch_no_kernel_and_keep_the_values() -> None:
    a = _realized(np.zeros(200).tolist(), "float64")
    before = realize.stats["kernels"]
    for i in range(1, 200):
        a[i] = a[i - 1] * 0.5 + 1
    assert realize.stats["kernels"] == before
    want = np.zeros(200)
    for i in range(1, 200):
        want[i] = want[i - 1] * 0.5 + 1
    assert np.asarray(a).tolist() == want.tolist()


def test_the_first_element_write_into_a_pending_array_computes_it_once() -> None:
    a = xp.zeros(100)
    a[0] = 1.0                          # (computed now: the loop's writes are stores)
    before = realize.stats["kernels"]
    for i in range(1, 100):
        a[i] = a[i - 1] + 1
    assert realize.stats["kernels"] == before
    assert np.asarray(a).tolist() == [float(i + 1) for i in range(100)]


@needs_core
@pytest.mark.parametrize("dtype", ["int64", "uint8", "float32", "bool"])
def test_a_confusion_matrix_loop_reads_and_adds_elements_now(
        dtype: str, both: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """``conf[t, p] += 1`` over the pairs of two label arrays, as a confusion matrix is
    filled: ``conf[t, p]`` (every axis indexed, by ints or by 0-d elements of other
    arrays) is a known scalar read now, and ``+= 1`` updates that scalar's value in place
    (an array that took its node keeps the old value). No kernel, no node, the Python
    path's values and errors."""
    truth = _realized([0, 1, 1, 2, 2, 2, 0], "int64")
    guess = _realized([0, 1, 2, 2, 1, 2, 0], "int64")

    def program() -> object:
        conf = _realized(np.zeros((3, 3)).tolist(), dtype)
        out = []
        for t, p in zip(truth, guess):
            if dtype == "bool":
                out.append(_outcome(lambda t=t, p=p: conf.__setitem__((t, p), ~conf[t, p])))
            else:
                conf[t, p] += 1
        out.append(_outcome(lambda: conf))
        out += [_outcome(lambda i=i: conf[i, -1 - i]) for i in range(3)]
        out += [_outcome(lambda: conf[3, 0]), _outcome(lambda: conf[0, 0, 0])]
        if dtype != "bool":
            x = conf[0, 0]
            keep = x._node                  # (an array made on its node keeps the value)
            y = xp.asarray(0, dtype=x.dtype) + x
            x += 2
            x *= 3
            out += [_outcome(lambda: x), _outcome(lambda: y), keep.arg]

            def far() -> object:            # (out of uint8's range: the slow path's error)
                z = conf[1, 1]
                z -= 1000
                return z
            out.append(_outcome(far))
        return out

    fast, slow = both(program)                              # type: ignore[operator]
    assert fast == slow
    conf = _realized(np.zeros((3, 3)).tolist(), "int64")
    made, slow, taken = [], [], []
    init, inplace = Node.__init__, _hot.inplace
    monkeypatch.setattr(Node, "__init__", lambda self, *a, **k: (made.append(a[0]),
                                                                   init(self, *a, **k))[1])
    monkeypatch.setattr(_indexing, "getitem", lambda *a: slow.append(a))
    monkeypatch.setattr(_hot, "inplace", lambda *a: taken.append(inplace(*a)) or taken[-1])
    before = realize.stats["kernels"]
    for t, p in zip(truth, guess):
        conf[t, p] += 1
    assert realize.stats["kernels"] == before and made == []    # (no kernel, no node)
    assert slow == [] and taken == [True] * 7       # (read in C; each sum taken in place)
    assert conf[2, 2]._node.op == "CONST"       # (a known scalar: its node made on asking)


def test_known_scalars_feed_lazy_graphs_and_indices() -> None:
    a = _realized([3, 1, 2], "int64")
    x = xp.arange(5.0)
    i = a[1]
    assert float(x[i]) == 1.0                           # a known int as an index
    assert np.asarray(x + a[0]).tolist() == [3.0, 4.0, 5.0, 6.0, 7.0]
    assert np.asarray(x[a[2]:]).tolist() == [2.0, 3.0, 4.0]
    with pytest.raises(TypeError, match="deletion"):
        del a[0]


def test_gpu_style_devices_take_the_python_path(device: str) -> None:
    a = xp.asarray(np.arange(4.0), device=device)
    s = a[2] * 2.0 + 1.0
    assert float(s) == 5.0 and s.device == a.device
    a[1] = s
    assert np.asarray(a).tolist() == [0.0, 5.0, 2.0, 3.0]


def test_without_the_c_path_everything_still_works() -> None:
    code = ("import numpy as np, zyxarray as xp\n"
            "from zyxarray._api import _hot\n"
            "assert _hot.core is None and xp.Array.__mro__[1] is _hot.PyBase\n"
            "a = xp.zeros(50)\n"
            "for i in range(1, 50):\n"
            "    a[i] = a[i - 1] * 0.5 + 1\n"
            "w = np.zeros(50)\n"
            "for i in range(1, 50):\n"
            "    w[i] = w[i - 1] * 0.5 + 1\n"
            "assert np.asarray(a).tolist() == w.tolist()\n"
            "assert bool(a[3] > 1) and int(a[1]) == 1 and -a[1] == -1.0\n"
            "assert (a == a).all() and hash is not None\n"
            "b = xp.reshape(xp.arange(12.0), (3, 4))\n"
            "assert [float(r.sum()) for r in b] == [6.0, 22.0, 38.0]\n"
            "assert float(b[1].mean()) == 5.5 and float(xp.sum(b[2])) == 38.0\n")
    env = {**os.environ, "ZYXARRAY_HOT": "0"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr


REDUCE_DTYPES = ["bool", "int8", "int32", "int64", "uint8", "uint64", "float32", "float64"]


@pytest.mark.parametrize("where", ["cpu", "reference"])
@pytest.mark.parametrize("dtype", REDUCE_DTYPES)
def test_small_reductions_now_are_the_kernels_to_the_bit(dtype: str, where: str,
                                                         both: object) -> None:
    rng = np.random.default_rng(7)
    special = {"float32": [-0.0, 1e-45, 3e38, 3e38], "float64": [-0.0, 5e-324, 1e308, 1e308]}
    for n in (1, 3, 4, 15, 16, 17, 33, 100, 1000):
        values = rng.standard_normal(n) * 1e3
        host = values.astype(dtype) if dtype != "bool" else values > 0
        if dtype in special and n >= 4:
            host[:4] = special[dtype]
        flat = _realized(host.tolist(), dtype, where)
        grid = _realized(np.stack([host, host[::-1]]).tolist(), dtype, where)
        cases = (lambda f, g: f.sum(), lambda f, g: f.mean(), lambda f, g: xp.sum(f),
                 lambda f, g: xp.mean(f), lambda f, g: g[1].sum(), lambda f, g: g.sum(),
                 lambda f, g: g.T.sum(), lambda f, g: g[:, ::-1][0].mean(),
                 lambda f, g: [float(r.sum()) for r in g])
        for fn in cases:
            fast, slow = both(lambda fn=fn, f=flat, g=grid: _outcome(lambda: fn(f, g)))
            assert fast == slow, (n, fast, slow)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = host.sum()
            assert np.isclose(float(flat.sum()), float(want), rtol=1e-5, equal_nan=True)


@needs_core
def test_row_loops_reduce_without_kernels_and_make_no_nodes_until_asked() -> None:
    a = _realized(np.arange(800.0).reshape(100, 8).tolist(), "float64")
    float(a[0].sum())
    before = realize.stats["kernels"]
    totals = [float(row.sum()) for row in a]
    means = [float(xp.mean(a[i])) for i in range(100)]
    assert realize.stats["kernels"] == before
    assert totals == np.arange(800.0).reshape(100, 8).sum(axis=1).tolist()
    assert means == np.arange(800.0).reshape(100, 8).mean(axis=1).tolist()
    row = a[3]
    assert row._node.shape == (8,) and row.device == a.device    # (its node: made now)
    i = _realized([2], "int64")[0]      # (a known int as the index)
    assert float(a[-1][-1]) == 799.0 and float(a[i][1]) == 17.0


def test_rows_alias_as_numpys_views_whenever_they_are_looked_at() -> None:
    base = np.arange(24.0).reshape(4, 6)
    a = _realized(base.tolist(), "float64")
    rows = list(a)                      # pending rows: no node yet
    a[1, 2] = 100.0                     # a write to the base after the rows were made
    base[1, 2] = 100.0
    assert float(rows[1].sum()) == base[1].sum() and float(rows[1][2]) == 100.0
    a += 1.0                            # in place: every row sees it
    base += 1.0
    assert [float(r.sum()) for r in rows] == base.sum(axis=1).tolist()
    rows[2][0] = -5.0                   # a write through a row reaches the base
    base[2, 0] = -5.0
    assert np.asarray(a).tolist() == base.tolist()
    rows[3][:] = 0.0
    base[3, :] = 0.0
    assert float(a.sum()) == base.sum() and float(rows[3].sum()) == 0.0
    cube = _realized(np.arange(24).reshape(2, 3, 4).tolist(), "int32")
    inner = cube[1][2]                  # a row of a row
    cube[1, 2, 3] = 50
    assert np.asarray(inner).tolist() == [20, 21, 22, 50] and int(inner.sum()) == 113
    t = _realized(base.tolist(), "float64").T      # rows of a transposed view
    assert [float(r.sum()) for r in t] == base.sum(axis=0).tolist()
