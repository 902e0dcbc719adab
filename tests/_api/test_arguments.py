"""What every public function does with its arguments (``_api/_arguments.py``).

Mixed devices: every public function of the namespace (and of ``linalg`` and ``fft``)
refuses arrays on two devices with the same ValueError, naming the function and both
devices, before any work; the operators do too. Run with ``cpu`` and ``reference``, which
every machine has.

Array-likes: lists, tuples, NumPy arrays and scalars, and Python numbers are taken where
NumPy's function takes them, giving NumPy's values and dtypes, on the call's device."""

from __future__ import annotations

import types

import numpy as np
import pytest

import zyxarray as xp
from zyxarray._api._arguments import UNCHECKED
from zyxarray._lazy.realize import stats


def _public() -> list[tuple[str, object]]:
    out = []
    for module, prefix in ((xp, ""), (xp.linalg, "linalg."), (xp.fft, "fft.")):
        for name in module.__all__:
            fn = getattr(module, name, None)
            if isinstance(fn, types.FunctionType) and name not in UNCHECKED:
                out.append((prefix + name, fn))
    return out


PUBLIC = _public()


def _pair() -> tuple[xp.Array, xp.Array]:
    a = xp.asarray(np.arange(1.0, 10.0).reshape(3, 3), device="cpu")
    b = xp.asarray(np.arange(1.0, 10.0).reshape(3, 3), device="reference")
    return a, b


def test_the_namespace_is_covered() -> None:
    assert len(PUBLIC) > 300
    names = {n for n, _ in PUBLIC}
    for must in ("matmul", "einsum", "tensordot", "where", "concat", "stack", "isin",
                 "searchsorted", "take", "linalg.solve", "linalg.lstsq", "fft.fft",
                 "intersect1d", "allclose", "vecdot", "broadcast_arrays", "meshgrid"):
        assert must in names, must


@pytest.mark.parametrize("name", [n for n, _ in PUBLIC])
def test_mixed_devices_are_refused_before_any_work(name: str) -> None:
    fn = dict(PUBLIC)[name]
    a, b = _pair()
    launches = stats.get("kernels", 0)
    for call in (lambda: fn(a, b), lambda: fn([a, b]), lambda: fn(a, x2=b)):
        with pytest.raises(ValueError, match=r"arrays are on different devices \(cpu, "
                                             r"reference\)") as e:
            call()
        assert str(e.value).startswith(fn.__name__ + ":"), str(e.value)
    assert stats.get("kernels", 0) == launches


def test_two_arrays_skip_the_argument_survey(monkeypatch: pytest.MonkeyPatch) -> None:
    """A call with two arrays and nothing else (``logical_and(a, b)``, ``maximum``) checks
    their devices once, without surveying its arguments for devices and array-likes (3 us
    of a 0.5 us computation); other calls still survey them."""
    from zyxarray._api import _arguments
    surveyed: list[int] = []
    survey = _arguments._devices_in
    monkeypatch.setattr(_arguments, "_devices_in",
                        lambda values, found: surveyed.append(1) or survey(values, found))
    a = xp.asarray(np.array([True, False, True]))
    b = xp.asarray(np.array([True, True, False]))
    assert np.asarray(xp.logical_and(a, b)).tolist() == [True, False, False]
    assert np.asarray(xp.maximum(xp.asarray([1.0, 5.0]), xp.asarray([3.0, 2.0]))).tolist() \
        == [3.0, 5.0]
    assert surveyed == []
    assert np.asarray(xp.logical_and(a, [True, False, True])).tolist() == [True, False, True]
    assert surveyed == [1]


def test_the_message_names_the_function() -> None:
    a, b = _pair()
    with pytest.raises(ValueError, match=r"^tensordot: arrays are on different devices"):
        xp.tensordot(a, b)
    with pytest.raises(ValueError, match=r"^solve: arrays are on different devices"):
        xp.linalg.solve(a, b)
    with pytest.raises(ValueError, match=r"^concat: arrays are on different devices"):
        xp.concat((a, b))


def test_operators_check_too() -> None:
    a, b = _pair()
    for op in (lambda: a @ b, lambda: a + b, lambda: a < b, lambda: a.__rmatmul__(b)):
        with pytest.raises(ValueError, match="different devices"):
            op()
    i = xp.asarray([0, 1], device="reference")
    with pytest.raises(ValueError, match="index array is on reference"):
        a[i]
    with pytest.raises(ValueError, match="value is on reference"):
        a[0] = b[0]


def test_one_device_and_the_unchecked_functions_still_work() -> None:
    a, b = _pair()
    np.testing.assert_allclose(np.asarray(xp.matmul(a, a)), np.asarray(a) @ np.asarray(a))
    assert xp.asarray(b, device="cpu").device == a.device        # moving data is the point
    assert xp.result_type(a, b) == xp.float64
    assert xp.concat([a, xp.asarray(b, device="cpu")]).shape == (6, 3)


# -- array-likes ----------------------------------------------------------------------------
ARRAY_LIKE_CALLS = [
    ("sqrt", (8,)), ("sin", ([1, 2],)), ("add", (1, 2)), ("add", (1, 2.5)),
    ("maximum", ([1, 5], 3)), ("isnan", (1.0,)), ("abs", (-3,)), ("round", (2.567, 2)),
    ("clip", ([1, 5], 2, 3)), ("hypot", (3, 4)), ("where", ([True, False], 1, 2.0)),
    ("sum", ([1, 2, 3],)), ("mean", ((1.0, 2.0),)), ("tile", ([1, 2], 3)),
    ("tile", (np.array([[1, 2]]), (2, 2))), ("broadcast_to", (2, 3)),
    ("concat", ([[1, 2], [3.0]],)), ("stack", ([1.5, -2.0, 3.0],)),
    ("outer", ([1, 2], [3, 4])), ("matmul", ([[1.0, 2.0]], [[3.0], [4.0]])),
    ("allclose", ([1.0, 2.0], [1.0, 2.0 + 1e-12])), ("squeeze", ([[1, 2]],)),
    ("tril", ([[1, 2], [3, 4]],)), ("einsum", ("ij->j", [[1, 2], [3, 4]])),
    ("block", ([[1, 2], [3, 4]],)), ("meshgrid", ([1, 2], 3.0)),
    ("argsort", ([3, 1, 2],)), ("cumsum", (np.float32(2),)), ("exp", (np.float32(1),)),
]


@pytest.mark.parametrize("name,args", ARRAY_LIKE_CALLS,
                         ids=[f"{n}{i}" for i, (n, _) in enumerate(ARRAY_LIKE_CALLS)])
def test_array_likes_are_taken_as_numpy_takes_them(name: str, args: tuple) -> None:
    expected = getattr(np, name)(*args)
    got = getattr(xp, name)(*args)
    for e, g_ in (zip(expected, got) if isinstance(expected, (tuple, list)) else
                  [(expected, got)]):
        e = np.asarray(e)
        assert isinstance(g_, (xp.Array, bool)), type(g_)
        np.testing.assert_allclose(np.asarray(g_), e, rtol=1e-6)
        assert str(np.asarray(g_).dtype) == str(e.dtype), (name, g_.dtype, e.dtype)


def test_array_likes_join_the_calls_device_and_scalars_stay_weak() -> None:
    x = xp.asarray(np.ones(3, np.float32), device="reference")
    for got in (xp.add(x, [1, 2, 3]), xp.add([1, 2, 3], x), xp.maximum(x, np.ones(3)),
                xp.concat([x, [4.0]]), xp.where([True, False, True], x, 0.5)):
        assert got.device == x.device
    assert xp.add(x, 1.0).dtype == xp.float32            # a Python number is weak
    assert xp.add(x, [1.0]).dtype == xp.float64           # a list is a float64 array
    assert xp.multiply(xp.asarray([1, 2], dtype=xp.int8), 3).dtype == xp.int8


def test_in_place_functions_refuse_lists_as_numpy_does() -> None:
    with pytest.raises((TypeError, AttributeError, ValueError)):
        xp.fill_diagonal([[1, 2], [3, 4]], 0)
    with pytest.raises(TypeError, match="astype"):
        xp.astype([1, 2], xp.int8)


def _first_parameter_is_an_array(fn: object) -> bool:
    import inspect

    from zyxarray._api._arguments import ARRAY_PARAMETERS, NOT_CONVERTED, SEQUENCE_PARAMETERS
    try:
        params = list(inspect.signature(inspect.unwrap(fn)).parameters.values())  # type: ignore
    except (TypeError, ValueError):
        return False
    return bool(params) and fn.__name__ not in NOT_CONVERTED and \
        params[0].name in ARRAY_PARAMETERS | SEQUENCE_PARAMETERS  # type: ignore[attr-defined]


ARRAY_FIRST = [(n, f) for n, f in PUBLIC if _first_parameter_is_an_array(f)]


def test_objects_that_are_not_arrays_are_refused_naming_the_function() -> None:
    """Every public function that takes an array first refuses an arbitrary object with a
    TypeError that starts with its name (before any work), and takes an object that offers
    its values through NumPy's ``__array__`` as NumPy does."""
    assert len(ARRAY_FIRST) > 250
    refused = []
    for name, fn in ARRAY_FIRST:
        try:
            fn(object())
        except TypeError as e:
            if not str(e).startswith(fn.__name__ + ":"):
                refused.append(f"{name}: {e}")
        except Exception as e:      # (what the test is about)
            refused.append(f"{name}: {type(e).__name__}: {e}")
        else:
            refused.append(f"{name}: no error")
    assert not refused, "\n".join(refused)

    class Values:
        def __array__(self, dtype: object = None, copy: object = None) -> np.ndarray:
            return np.array([1.0, 4.0, 9.0])

    np.testing.assert_allclose(np.asarray(xp.sqrt(Values())), [1.0, 2.0, 3.0])
    np.testing.assert_allclose(np.asarray(xp.concat([Values(), [16.0]])), [1, 4, 9, 16])
