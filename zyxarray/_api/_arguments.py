"""What every public function does with its arguments before any work: array-likes become
arrays, and arrays on different devices are refused, with the same error everywhere.

Layer: ``_api``. ``zyxarray/__init__.py``, ``linalg.py`` and ``fft.py`` pass their public
functions through ``check_namespace`` once, at import: each becomes a thin wrapper that

- turns the array-likes that NumPy's function of that name accepts into arrays: a list, a
  tuple, a NumPy array or scalar given for an array parameter (one named in
  ``ARRAY_PARAMETERS``, or each element of a sequence parameter such as ``concat``'s
  ``arrays``) becomes an array on the call's device (that of the arrays among the arguments,
  else the default). A Python number stays as it is where an array is among the arguments
  (it is a weak scalar, as in NumPy 2: ``x_f32 + 1.0`` stays float32); where none is, Python
  numbers become arrays of their default dtype (``sqrt(8)``, ``add(1, 2.5)``);
- looks at the arrays among its arguments (positional, keyword, and inside lists and tuples,
  as ``concat([x, y])`` and ``einsum("ij,jk", x, y)`` take them) and raises ``ValueError``
  naming the function and the devices when they differ.

The functions that exist to move data between devices or that only read dtypes are left
alone (``UNCHECKED``); a few take their arguments as given (``NOT_CONVERTED``).

The operators (``x + y``, ``x @ y``, ``x[i] = y``) reach the same check through the functions
they call (``device_of`` in the elementwise module, ``matmul``, the indexing code).
"""

from __future__ import annotations

import functools
import inspect
import re
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from ._array_object import Array
from ._dtypes import DType

#: public functions that take arrays on several devices on purpose, or never compute with
#: their arrays' data (dtype and shape queries, writers of files, interop)
UNCHECKED = frozenset({
    "asarray", "array", "asanyarray", "ascontiguousarray", "asfortranarray", "from_dlpack",
    "result_type", "can_cast", "isdtype", "finfo", "iinfo", "broadcast_shapes", "shape",
    "ndim", "size", "save", "savez", "savez_compressed", "savetxt", "min_scalar_type",
    "common_type", "iscomplexobj", "isrealobj", "isscalar", "may_share_memory",
    "shares_memory", "get_include", "set_printoptions", "get_printoptions", "printoptions",
    "load_safetensors", "save_safetensors", "array2string", "array_repr", "array_str",
    "format_float_positional", "format_float_scientific", "binary_repr", "base_repr",
})


#: parameter names that take an array (or an array-like) across the namespace
ARRAY_PARAMETERS = frozenset({
    "x", "x1", "x2", "a", "b", "a1", "a2", "ar", "ar1", "ar2", "arr", "ary", "array", "v",
    "y", "condition", "values", "weights", "xp", "fp", "p", "u", "element", "test_elements",
    "z", "f", "filt", "seq_of_zeros",
})
#: parameters that take a sequence of arrays (each element may be an array-like)
SEQUENCE_PARAMETERS = frozenset({"arrays", "tup", "arys", "operands"})
#: functions whose arguments are not converted: those that write into an argument (NumPy's
#: refuse a list there, and so do these: a copy would lose the write), those that read the
#: nesting of lists themselves (``block``), those that ask what an object is, and
#: ``astype``, which takes only arrays in NumPy too, and ``cond``, whose ``p`` is a norm order
NOT_CONVERTED = frozenset({"fill_diagonal", "place", "put", "copyto", "put_along_axis",
                           "block", "iterable", "explain", "astype", "cond"})

_LIKE_TYPES = frozenset({list, tuple, np.ndarray})
_NUMBER_TYPES = frozenset({bool, int, float, complex})
_TEXT_TYPES = frozenset({str, bytes})


def mixed_devices(name: str, devices: set[Any]) -> ValueError:
    """The error for a call ``name`` given arrays on ``devices`` (more than one)."""
    return ValueError(f"{name}: arrays are on different devices "
                      f"({', '.join(sorted(d.name for d in devices))}); move them with "
                      "to_device first")


def _devices_in(values: Any, found: set[Any]) -> None:
    for v in values:
        if isinstance(v, Array):
            found.add(v.device)
        elif type(v) in (list, tuple):
            for w in v:
                if isinstance(w, Array):
                    found.add(w.device)


def _array_parameters(fn: Callable[..., Any], name: str
                      ) -> tuple[tuple[int, ...], frozenset[str], int, int]:
    """Where ``fn`` takes arrays: (positions, keyword names, position of a sequence
    parameter or -1, position of ``*arrays`` or -1)."""
    if name in NOT_CONVERTED:
        return (), frozenset(), -1, -1
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return (), frozenset(), -1, -1
    positions, names, sequence, varargs = [], set(), -1, -1
    for i, p in enumerate(params):
        if p.kind is p.VAR_POSITIONAL:
            if p.name in SEQUENCE_PARAMETERS:
                varargs = i
            break
        if p.name in ARRAY_PARAMETERS:
            names.add(p.name)
            if p.kind is not p.KEYWORD_ONLY:
                positions.append(i)
        elif p.name in SEQUENCE_PARAMETERS and p.kind is not p.KEYWORD_ONLY:
            sequence = i
    return tuple(positions), frozenset(names), sequence, varargs


def _like(v: Any) -> bool:
    t = type(v)
    return t is not Array and (t in _LIKE_TYPES or isinstance(v, np.generic))


def _foreign(v: Any) -> bool:
    """Neither an array, an array-like of the known kinds, a number, a string nor None."""
    t = type(v)
    return not (isinstance(v, Array) or t in _LIKE_TYPES or t in _NUMBER_TYPES or
                t in _TEXT_TYPES or v is None or isinstance(v, np.generic))


def _array_protocol(v: Any) -> bool:
    """Whether ``v`` offers its values as NumPy and zyxarray take them (pandas, CuPy,
    PyTorch objects...)."""
    return any(hasattr(v, a) for a in ("__array__", "__array_interface__", "__dlpack__",
                                       "__cuda_array_interface__"))


def _as_arrays(name: str, args: tuple[Any, ...], kwargs: dict[str, Any],
               spec: tuple[tuple[int, ...], frozenset[str], int, int], device: Any
               ) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """``args`` and ``kwargs`` with the array-likes at ``spec``'s places made arrays on
    ``device`` (the arrays' among the arguments; None: the default)."""
    from ._elementwise_functions import _require_array
    positions, names, sequence, varargs = spec
    places: list[tuple[Any, Any]] = [(i, args[i]) for i in positions if i < len(args)]
    places += [(k, kwargs[k]) for k in names if k in kwargs]
    if varargs >= 0:
        places += [(i, args[i]) for i in range(varargs, len(args))]
    none_is_array = not any(isinstance(v, Array) for _, v in places)
    out_args, out_kwargs = list(args), dict(kwargs)
    for where, v in places:
        if type(v) in _TEXT_TYPES:
            raise TypeError(f"{name}: expected an array, got {type(v).__name__} {v!r}")
        if _foreign(v) and not _array_protocol(v):   # (NumPy's __array__, DLPack... convert)
            raise TypeError(f"{name}: expected an array, got {type(v).__name__}")
        if _foreign(v) or _like(v) or (none_is_array and type(v) in _NUMBER_TYPES):
            v = _require_array(name, v, device)
            if isinstance(where, int):
                out_args[where] = v
            else:
                out_kwargs[where] = v
    if 0 <= sequence < len(args) and type(args[sequence]) not in (list, tuple) and \
            not isinstance(args[sequence], (Array, np.ndarray)):
        raise TypeError(f"{name}: expected a sequence of arrays, got "
                        f"{type(args[sequence]).__name__}")
    if 0 <= sequence < len(args) and type(args[sequence]) in (list, tuple):
        items = args[sequence]
        if any(_like(v) or type(v) in _NUMBER_TYPES for v in items):
            out_args[sequence] = [v if isinstance(v, Array) else
                                  _require_array(name, v, device) for v in items]
    return tuple(out_args), out_kwargs


def _needs_conversion(args: tuple[Any, ...], kwargs: dict[str, Any],
                      spec: tuple[tuple[int, ...], frozenset[str], int, int]) -> bool:
    """Whether ``_as_arrays`` would change anything (the common all-arrays call costs a few
    type checks)."""
    positions, names, sequence, varargs = spec
    values = [args[i] for i in positions if i < len(args)]
    if kwargs and names:
        values += [kwargs[k] for k in names if k in kwargs]
    if varargs >= 0:
        values += args[varargs:]
    numbers = False
    for v in values:
        t = type(v)
        if t is Array:
            continue
        if t in _LIKE_TYPES or t in _TEXT_TYPES or isinstance(v, np.generic):
            return True
        if t not in _NUMBER_TYPES and v is not None and not isinstance(v, Array):
            return True           # (another kind of object: an array-like, or refused)
        numbers = numbers or t in _NUMBER_TYPES
    if numbers and not any(isinstance(v, Array) for v in values):
        return True
    if not 0 <= sequence < len(args):
        return False
    seq = args[sequence]
    if type(seq) not in (list, tuple):
        return not isinstance(seq, (Array, np.ndarray))    # (refused by _as_arrays)
    return any(type(v) is not Array for v in seq)


def checked(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn`` taking array-likes and refusing arrays on different devices (``name``: the
    public name)."""
    spec = _array_parameters(fn, name)
    takes_arrays = spec != ((), frozenset(), -1, -1)

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        if len(args) == 2 and not kwargs and args[0].__class__ is Array and \
                args[1].__class__ is Array:
            # (two arrays, the next commonest call: ``logical_and(a, b)``, ``where``'s
            # condition aside: one device test, nothing to convert)
            if args[0]._node.device is not args[1]._node.device:
                raise mixed_devices(name, {args[0].device, args[1].device})
        # (one array and nothing else, the commonest call, needs no check; nor does one
        # array with keywords that cannot hold arrays: ``sum(x, axis=1)``, ``astype``)
        elif len(args) != 1 or args[0].__class__ is not Array or \
                (kwargs and not _plain_keywords(kwargs)):
            device = None       # (of the arrays among the arguments: array-likes join it)
            if len(args) + len(kwargs) > 1 or (args and type(args[0]) in (list, tuple)):
                found: set[Any] = set()
                _devices_in(args, found)
                if kwargs:
                    _devices_in(kwargs.values(), found)
                if len(found) > 1:
                    raise mixed_devices(name, found)
                device = next(iter(found), None)
            if takes_arrays and _needs_conversion(args, kwargs, spec):
                args, kwargs = _as_arrays(name, args, kwargs, spec, device)
        try:            # (inline, not a helper's call: every public call passes here)
            return fn(*args, **kwargs)
        except (TypeError, ValueError, IndexError) as e:
            name_the_call(e, name)
            raise

    call.__zyx_device_checked__ = True  # type: ignore[attr-defined]
    return call


#: keyword values that are neither arrays nor array-likes: no device to check, nothing to
#: convert (a tuple counts when it holds only ints: ``axis=(0, 1)``)
_PLAIN_TYPES = frozenset({bool, int, float, str, type(None), type, DType})


def _plain_keywords(kwargs: dict[str, Any]) -> bool:
    for v in kwargs.values():
        t = v.__class__
        if t in _PLAIN_TYPES or isinstance(v, np.dtype):
            continue
        if t is tuple and all(w.__class__ is int for w in v):
            continue
        return False
    return True


def _named(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn`` whose errors name ``name`` (``asanyarray`` reports what ``asarray`` found)."""
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (TypeError, ValueError, IndexError) as e:
            name_the_call(e, name)
            raise

    call.__zyx_device_checked__ = True  # type: ignore[attr-defined]
    return call


_PREFIX = re.compile(r"[A-Za-z_][\w.]*: ")


def name_the_call(error: BaseException, name: str) -> None:
    """Make ``error``'s message name ``name``, the function the user called, where it names
    another (``nansum`` reports what ``sum`` found: "sum: axis 5 is out of bounds" becomes
    "nansum: axis 5 is out of bounds") or none (a device lookup's "unknown device"). The
    exception keeps its type and traceback; messages that are not zyxarray's own form
    ("name: ...", such as an error of a user's callback) are left alone."""
    if not error.args or not isinstance(error.args[0], str):
        return
    msg = error.args[0]
    if msg.startswith((f"{name}: ", f"{name}(")):
        return
    m = _PREFIX.match(msg)
    if m is not None:
        msg = f"{name}: {msg[m.end():]}"
    elif msg.startswith("unknown device"):
        msg = f"{name}: {msg}"
    else:
        return
    error.args = (msg, *error.args[1:])


_wrapped: dict[Callable[..., Any], Callable[..., Any]] = {}   # one wrapper per function


def check_namespace(namespace: dict[str, Any], names: list[str]) -> None:
    """Wrap each public function of ``namespace`` listed in ``names`` (not ``UNCHECKED``).
    A function exported under several names (``concat``, ``concatenate``; ``xp.matmul``,
    ``xp.linalg.matmul``) keeps one wrapper, named after the function."""
    for name in names:
        fn = namespace.get(name)
        if isinstance(fn, types.FunctionType) and (name in UNCHECKED or
                                                   fn.__name__ in UNCHECKED) and \
                not getattr(fn, "__zyx_device_checked__", False):
            namespace[name] = _named(fn, name)    # (no checks: its errors name the call)
            continue
        if not isinstance(fn, types.FunctionType) or \
                getattr(fn, "__zyx_device_checked__", False):
            continue
        if fn not in _wrapped:
            _wrapped[fn] = checked(fn, fn.__name__)
        namespace[name] = _wrapped[fn]
