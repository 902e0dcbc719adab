"""The bad-input corpus: invalid calls across the public namespace raise the exception NumPy
raises for the same call (or the standard's), with a message that names the function the
user called, before any kernel runs.

Two parts:

- ``KEYWORD_FAULTS``, generated: every public function that NumPy also has and that takes one
  of the keywords below is called as NumPy accepts it (with a 3 x 4 float array, then two),
  then with each bad value of that keyword. Where NumPy refuses the bad value, zyxarray must
  refuse it with NumPy's exception type (AxisError for an axis out of range, a subclass of
  ValueError and IndexError as in NumPy), naming the function, without a kernel. Two
  families follow the standard instead of NumPy, which is not consistent there itself:
  an unknown ``device`` is a ValueError (NumPy: TypeError, having no such keyword in most
  functions), and a tuple where one axis is expected is a TypeError (NumPy: ``argmax``
  TypeError, ``nanargmax`` ValueError).
- ``CALLS``, written: wrong shapes, negative sizes, out-of-range indices, wrong dtypes and
  values, each against NumPy's own call. Calls whose error depends on the values (an index
  array out of range) may read them: they are marked ``reads``.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from zyxarray._lazy import realize

X = np.arange(12.0).reshape(3, 4) + 0.5

#: keyword -> the bad values tried
KEYWORDS: dict[str, list[Any]] = {
    "axis": [5, -3, (0, 0), 1.5], "dtype": ["flaot32", "int33"], "device": ["nodev:9"],
    "order": ["Q"], "kind": ["nosuchsort"], "side": ["middle"], "mode": ["nosuchmode"],
    "norm": ["nosuchnorm"], "method": ["nosuchmethod"], "ord": ["fro2"], "n": [-1],
    "num": [-1], "decimals": ["two"], "ddof": ["one"], "bins": [-3], "k": [1.5],
}
#: functions whose first argument is not an array (a buffer, a file, a function, text)
SKIPPED = {"frombuffer", "fromfile", "fromfunction", "fromiter", "fromstring", "loadtxt",
           "genfromtxt", "load", "vectorize", "frompyfunc", "piecewise", "apply_along_axis",
           "apply_over_axes", "einsum", "einsum_path", "printoptions", "set_printoptions",
           "errstate", "seterr", "geterr", "setbufsize", "getbufsize", "info", "source"}


def _numpy_accepts(fn: Callable[..., Any], args: tuple, kwargs: dict) -> BaseException | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn(*args, **kwargs)
        except Exception as e:
            return e
    return None


def _keyword_faults() -> list[tuple[str, str, Any, tuple]]:
    cases = []
    for name in sorted(dir(xp)):
        f, g = getattr(xp, name), getattr(np, name, None)
        if name.startswith("_") or name in SKIPPED or not callable(f) or g is None or \
                isinstance(f, type) or isinstance(g, type) or not callable(g):
            continue
        try:
            params = inspect.signature(f).parameters
        except (TypeError, ValueError):
            continue
        base = next((args for args in ((X,), (X, X)) if _numpy_accepts(g, args, {}) is None),
                    None)
        if base is None:
            continue
        for key, bads in KEYWORDS.items():
            if key not in params:
                continue
            for bad in bads:
                if _numpy_accepts(g, base, {key: bad}) is not None:
                    cases.append((name, key, bad, base))
    return cases


KEYWORD_FAULTS = _keyword_faults()


def test_the_keyword_corpus_is_large() -> None:
    functions = {c[0] for c in KEYWORD_FAULTS}
    assert len(KEYWORD_FAULTS) >= 300 and len(functions) >= 70, (len(KEYWORD_FAULTS),
                                                                 len(functions))


def _builtin(err: BaseException) -> tuple[type[BaseException], ...]:
    """The exception types zyxarray must raise for NumPy's ``err``: its own for the public
    ones (AxisError, LinAlgError, ZeroDivisionError...), the nearest builtin base of NumPy's
    private classes (``UFuncTypeError`` is a TypeError)."""
    if isinstance(err, np.exceptions.AxisError):
        return (xp.AxisError,)
    if isinstance(err, np.linalg.LinAlgError):
        return (np.linalg.LinAlgError,)
    t = next(c for c in type(err).__mro__ if c.__module__ == "builtins")
    return (t,)


def _expected(name: str, key: str, bad: Any, base: tuple) -> tuple[type[BaseException], ...]:
    err = _numpy_accepts(getattr(np, name), base, {key: bad})
    assert err is not None
    if key == "device":
        return (ValueError,)
    if isinstance(bad, tuple) and key == "axis" and not isinstance(err, np.exceptions.AxisError):
        return (TypeError, *_builtin(err))
    return _builtin(err)


def _refused(call: Callable[[], Any], name: str, expected: tuple, reads: bool = False) -> str:
    kernels = realize.stats["kernels"]
    try:
        call()
    except expected as e:
        assert name in str(e), f"{name}: the message does not name it: {e}"
        if not reads:
            assert realize.stats["kernels"] == kernels, f"{name}: a kernel ran before: {e}"
        return str(e)
    except Exception as e:
        raise AssertionError(f"{name}: {type(e).__name__}: {e}; expected "
                             f"{[t.__name__ for t in expected]}") from e
    raise AssertionError(f"{name}: no error; expected {[t.__name__ for t in expected]}")


@pytest.mark.parametrize("name,key,bad,base", KEYWORD_FAULTS,
                         ids=[f"{c[0]}-{c[1]}={c[2]!r}" for c in KEYWORD_FAULTS])
def test_bad_keywords(name: str, key: str, bad: Any, base: tuple) -> None:
    args = tuple(xp.asarray(a) if isinstance(a, np.ndarray) else a for a in base)
    for a in args:
        if isinstance(a, xp.Array):
            realize.realize(a._node)
    _refused(lambda: getattr(xp, name)(*args, **{key: bad}), name,
             _expected(name, key, bad, base))


def _a(*shape: int, dtype: str = "float64") -> Any:
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape) + (
        1 if dtype.startswith("float") else 0)


#: (function, args, kwargs, reads): each call is refused by NumPy too
CALLS: list[tuple[str, tuple, dict, bool]] = [
    # negative sizes
    ("zeros", ((-1, 2),), {}, False), ("ones", (-3,), {}, False),
    ("empty", ((2, -2),), {}, False), ("full", ((-1,), 1.0), {}, False),
    ("eye", (-2,), {}, False), ("identity", (-1,), {}, False),
    ("linspace", (0.0, 1.0, -5), {}, False),
    ("reshape", (_a(3, 4), (5, -1)), {}, False), ("reshape", (_a(3, 4), (-1, -1)), {}, False),
    ("repeat", (_a(3), -1), {}, False), ("tile", (_a(3), -1), {}, False),
    ("broadcast_to", (_a(3), (-1,)), {}, False),
    # shapes that do not fit
    ("matmul", (_a(3, 4), _a(3, 4)), {}, False), ("dot", (_a(3, 4), _a(3)), {}, False),
    ("concatenate", ([_a(3, 4), _a(3, 5)],), {}, False),
    ("stack", ([_a(3, 4), _a(4, 3)],), {}, False), ("vstack", ([_a(3, 4), _a(3, 5)],), {}, False),
    ("hstack", ([_a(3, 4), _a(4, 4)],), {}, False), ("add", (_a(3, 4), _a(5)), {}, False),
    ("where", (_a(3) > 1, _a(3), _a(4)), {}, False),
    ("tensordot", (_a(3, 4), _a(5, 6)), {"axes": 1}, False),
    ("outer", (_a(2), _a(3)), {"out": np.zeros((3, 3))}, False),
    ("broadcast_to", (_a(3), (4,)), {}, False), ("broadcast_arrays", (_a(3), _a(4)), {}, False),
    ("reshape", (_a(3, 4), (5, 3)), {}, False), ("squeeze", (_a(3, 4),), {"axis": 0}, False),
    ("split", (_a(6), 4), {}, False), ("moveaxis", (_a(3, 4), 0, 2), {}, False),
    ("swapaxes", (_a(3, 4), 0, 3), {}, False), ("expand_dims", (_a(3, 4), 4), {}, False),
    ("transpose", (_a(3, 4), (0, 0)), {}, False), ("flip", (_a(3, 4),), {"axis": 2}, False),
    ("roll", (_a(3, 4), 1), {"axis": 3}, False), ("diff", (_a(3, 4),), {"axis": 2}, False),
    ("trace", (_a(3),), {}, False), ("diagonal", (_a(3),), {}, False),
    ("linalg.cross", (_a(3, 4), _a(3, 4)), {}, False),
    # linear algebra
    ("linalg.inv", (_a(3, 4),), {}, False), ("linalg.det", (_a(3, 4),), {}, False),
    ("linalg.solve", (_a(3, 3), _a(4)), {}, False), ("linalg.cholesky", (_a(2, 3),), {}, False),
    ("linalg.eigh", (_a(2, 3),), {}, False), ("linalg.norm", (_a(3, 4),), {"ord": 3}, False),
    ("linalg.matrix_power", (_a(2, 3), 2), {}, False),
    # dtypes and values
    ("bitwise_and", (_a(3), _a(3)), {}, False), ("left_shift", (_a(3), 1), {}, False),
    ("invert", (_a(3),), {}, False), ("astype", (_a(3), "flaot32"), {}, False),
    ("zeros", (3,), {"dtype": "flaot32"}, False), ("arange", (0, 5, 0), {}, False),
    ("power", (np.arange(1, 4), -1), {}, True), ("bincount", (_a(3),), {}, False),
    ("bincount", (np.array([1, -1]),), {}, True), ("histogram", (_a(3),), {"bins": -1}, False),
    ("percentile", (_a(3), 150), {}, False), ("quantile", (_a(3), -0.5), {}, False),
    ("searchsorted", (_a(3), 1.0), {"side": "middle"}, False),
    ("pad", (_a(3), 1), {"mode": "nosuchmode"}, False),
    ("pad", (_a(3), -1), {}, False), ("round", (_a(3),), {"decimals": 1.5}, False),
    ("interp", (_a(3), _a(3), _a(4)), {}, False),
    ("convolve", (np.zeros(0), _a(3)), {}, False), ("unravel_index", (20, (3, 4)), {}, True),
    ("ravel_multi_index", ((3, 1), (3, 4)), {}, True),
    # indices out of range
    ("take", (_a(3), np.array([5])), {}, True), ("take", (_a(3), 5), {}, False),
    ("take_along_axis", (_a(3, 4), np.zeros((3, 1), np.int64) + 9), {"axis": 1}, True),
    ("delete", (_a(3), 7), {}, False), ("insert", (_a(3), 9, 1.0), {}, False),
    ("put", (np.zeros(3), [7], [1.0]), {}, True),
]


def _fn(module: Any, name: str) -> Any:
    for part in name.split("."):
        module = getattr(module, part)
    return module


def _convert(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return xp.asarray(v)
    if isinstance(v, list):
        return [_convert(i) for i in v]
    return v


@pytest.mark.parametrize("name,args,kwargs,reads", CALLS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CALLS)])
def test_bad_calls(device: str, name: str, args: tuple, kwargs: dict, reads: bool) -> None:
    if name == "astype":
        expected_error = _numpy_accepts(lambda a, d: a.astype(d), args, kwargs)
    else:
        expected_error = _numpy_accepts(_fn(np, name), args, kwargs)
    assert expected_error is not None, f"NumPy accepts {name}{args}"
    expected = _builtin(expected_error)
    with xp.Device(device):
        zargs = tuple(_convert(a) for a in args)
        zkwargs = {k: (xp.zeros(v.shape) if isinstance(v, np.ndarray) else v)
                   for k, v in kwargs.items()}
        for a in zargs:
            if isinstance(a, xp.Array):
                realize.realize(a._node)
        _refused(lambda: _fn(xp, name)(*zargs, **zkwargs), name.split(".")[-1], expected,
                 reads)
