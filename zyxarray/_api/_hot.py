"""The hot path of ``Array`` in C (``_hot.c``): element reads and writes in host memory,
arithmetic on known scalars, rows made without a graph node (``a[i]``, ``for row in a``) and
sums and means of small windows computed now, at NumPy's speed, for Python loops over small
arrays.

``Base`` is the class ``Array`` derives from: the C type ``Core`` when this machine's C
compiler (the cpu device's, ``ZYXARRAY_CC``) can build ``_hot.c`` against this Python's
headers, else ``PyBase``, the same fields in Python. Either way ``install(Array)`` binds
the slots to ``Array``'s Python methods of the same names with a leading underscore
(``_getitem``, ``_add``, ...), which hold the whole semantics: C only shortcuts the cases it
computes exactly as the kernels do and calls them for everything else. ``ZYXARRAY_HOT=0``
uses ``PyBase`` (the tests compare the two).

The shared library is built once per source, Python and compiler, and kept in the kernel
cache (``hot/``); a failed build is logged under the ``compile`` debug topic and leaves the
Python path, never an error.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import subprocess
import sys
import sysconfig
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from .. import _debug, _env

SOURCE = Path(__file__).with_name("_hot.c")
#: the dtypes the C path reads, writes and computes in, by their code in ``_hot.c``
CODES = {np.dtype(t): i for i, t in enumerate(
    (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
     np.uint64, np.float32, np.float64))}
DTYPES = {i: d for d, i in CODES.items()}
#: the slots ``install`` binds (C slot or Python dunder -> the Array method it falls back to)
SLOTS = {"__getitem__": "_getitem", "__setitem__": "_setitem", "__float__": "_float",
         "__int__": "_int", "__bool__": "_bool", "__index__": "_index", "__neg__": "_neg",
         "__lt__": "_lt", "__le__": "_le", "__eq__": "_eq", "__ne__": "_ne", "__gt__": "_gt",
         "__ge__": "_ge", "__add__": "_add", "__radd__": "_radd", "__sub__": "_sub",
         "__rsub__": "_rsub", "__mul__": "_mul", "__rmul__": "_rmul",
         "__truediv__": "_truediv", "__rtruediv__": "_rtruediv", "sum": "_sum",
         "mean": "_mean", "__matmul__": "_matmul", "__rmatmul__": "_rmatmul", "T": "_T"}
#: the float functions ``unary_now`` computes, by their code in ``_hot.c`` (U_*)
UNARY = {"exp": 0, "log": 1, "sqrt": 2, "tanh": 3, "sin": 4, "cos": 5, "abs": 6}
#: the binary functions ``binary_now`` computes, by their code in ``_hot.c`` (OP_*)
BINARY = {"add": 0, "subtract": 1, "multiply": 2, "divide": 3, "maximum": 4, "minimum": 5,
          "remainder": 6, "floor_divide": 7, "bitwise_and": 8, "bitwise_or": 9,
          "bitwise_xor": 10}
#: the kernels' math helpers ``_hot.c`` calls (``_codegen/c_math.py``: the same bits)
C_MATH = (("exp", "f64"), ("exp", "f32"), ("log", "f64"), ("log", "f32"), ("tanh", "f64"),
          ("tanh", "f32"))


class PyBase:
    """``Core``'s fields, for a machine that cannot build it (the slots are the methods)."""

    __slots__ = ("_alias", "_node")
    __hash__ = None     # type: ignore[assignment]


def _build() -> Any:
    """The compiled ``_hotcore`` module, or None (the reason logged)."""
    if _env.get(_env.HOT) == "0":
        return None
    from .._devices import cache
    from .._devices.cpu import _compiler_identity, _cpu_signature, find_compiler

    cc, why = find_compiler()
    include = sysconfig.get_paths().get("include")
    if cc is None or not include or not (Path(include) / "Python.h").exists():
        _debug.log("compile", f"hot path: Python's ({why or 'no Python.h'}); loops over "
                              "small arrays take the Python path")
        return None
    try:
        from .._codegen import c_math
        source = SOURCE.read_text().replace("/* @c_math@", c_math.preamble(C_MATH) + "\n/*", 1)
    except OSError as e:
        _debug.log("compile", f"hot path: no source ({e}); the Python path")
        return None
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    digest = cache.key(source, sys.version, include, _compiler_identity(cc), _cpu_signature())
    path = cache.lookup("hot", digest, suffix)
    try:
        if path is None:
            path = _compile(cc, include, source, digest, suffix, cache)
        if path is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader("_hotcore", str(path))
        spec = importlib.util.spec_from_file_location("_hotcore", str(path), loader=loader)
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        if not cache.enabled():
            cache.remove(path)      # (the loaded library stays mapped; nothing is kept)
        return module
    except (OSError, ImportError) as e:
        _debug.log("compile", f"hot path: {path} does not load ({e}); the Python path")
        if path is not None:
            cache.remove(path)
        return None


def _compile(cc: str, include: str, source: str, digest: str, suffix: str,
             cache: Any) -> Path | None:
    src = cache.temp_path("hot", ".c")
    out = src.with_suffix(suffix)
    # (-march=native as the cpu kernels: the math helpers' fma is then one instruction; the
    # kernels' flags keep the same bits. -O2 without -ftree-vectorize: 2 s to build, not 3.5,
    # for loops of a few thousand elements at most; -fopenmp-simd for the few loops marked
    # `omp simd`, the contiguous exp, log, tanh, ...)
    cmd = [cc, "-std=gnu11", "-O2", "-march=native", "-fPIC", "-shared", "-fopenmp-simd",
           "-fwrapv", "-fno-math-errno", "-ffp-contract=off", "-fno-strict-aliasing",
           f"-I{include}", "-o", str(out), str(src)]
    try:
        src.write_text(source)
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as e:
        _debug.log("compile", f"hot path: {' '.join(cmd)} failed to run ({e})")
        cache.remove(out)
        return None
    finally:
        cache.remove(src)
    if done.returncode != 0:
        _debug.log("compile", f"hot path: {' '.join(cmd)} failed:\n{done.stdout}{done.stderr}")
        cache.remove(out)
        return None
    if not cache.enabled():
        return out      # (loaded from the temporary name; ``_build`` leaves it to the OS)
    return cache.store_file("hot", digest, suffix, out)


core = _build()
Base: type = core.Core if core is not None else PyBase


def _now_max_from_env() -> None:
    value = _env.get(_env.NOW_MAX)
    if core is None or value is None:
        return
    try:
        core.set_now_max(int(value))
    except ValueError:
        warnings.warn(f"{_env.NOW_MAX}={value!r} is not an integer; the default (4096) stays",
                      stacklevel=2)


_now_max_from_env()


def make_const(code: int, value: Any, device: Any) -> Any:
    """The CONST node of a known scalar the C path made (asked for by ``Array._node``)."""
    from .._lazy import graph as g
    return g.const(value, DTYPES[code], device)


def make_fill(code: int, value: Any, shape: tuple[int, ...], device: Any) -> Any:
    """The node of a fill ``_hot.c`` made now and nothing wrote (asked for by
    ``Array._node``): the constant broadcast to ``shape``, as ``full`` records it."""
    from .._lazy import graph as g
    from ._elementwise_functions import broadcast_node
    return broadcast_node(g.const(value, DTYPES[code], device), shape)


def adopt(block: Any, address: int, code: int, shape: tuple[int, ...], device: Any) -> Any:
    """The buffer node of a result ``_hot.c`` computed now (asked for by ``Array._node``):
    a buffer of ``device`` over the block's memory (at ``address``), which the buffer keeps
    alive."""
    from .._lazy import graph as g
    dtype = DTYPES[code]
    raw = np.frombuffer(block, np.uint8)
    wrap = getattr(device, "wrap_block", None)
    buffer = wrap(raw, address) if wrap is not None else device.wrap_host(raw)
    return g.buffer_node(buffer, dtype, shape)


class _linked:
    """The layers above and below that the functions here call, bound by ``install`` (an
    import inside each call would cost a microsecond of a loop's step)."""

    in_base: Any = None
    host_memory: Any = None
    buffer_node: Any = None
    array: Any = None


def install(cls: type) -> None:
    """Bind ``cls``'s slots (``SLOTS``) to its underscore methods, in C or in Python."""
    from .._devices.base import host_memory
    from .._lazy.graph import buffer_node
    from .._lazy.realize import _in_base
    _linked.in_base, _linked.host_memory = staticmethod(_in_base), staticmethod(host_memory)
    _linked.buffer_node, _linked.array = staticmethod(buffer_node), staticmethod(cls._new)
    if core is None:
        for dunder, method in SLOTS.items():
            fn = getattr(cls, method)
            setattr(cls, dunder, property(fn) if dunder == "T" else fn)
        return
    from .._lazy import realize
    callables = {method: getattr(cls, method) for method in SLOTS.values()}
    from .._lazy.graph import Node
    callables.update(make_const=make_const, host_window=realize.host_window,
                     dtype_codes=CODES, node_type=Node, _storage=cls._storage,
                     resolve_row=cls._resolve_row, adopt=adopt, make_fill=make_fill,
                     promote=promotions())
    core.install(cls, callables)
    realize.on_write = core.bump
    from .._lazy import graph
    graph.remake_c = core.remake
    from .._devices import cpu
    cpu.launcher = core.launch


def promotions() -> bytes:
    """The dtype each pair of ``CODES``' dtypes promotes to (``_dtypes.promote``), by code,
    row-major; 255 where they have none (the slow path raises the error)."""
    from . import _dtypes as dt
    table = bytearray()
    for a in DTYPES.values():
        for b in DTYPES.values():
            try:
                table.append(CODES[dt.promote(dt.from_np(a), dt.from_np(b)).np])
            except (TypeError, KeyError):
                table.append(255)
    return bytes(table)


def rows(array: Any) -> Any:
    """An iterator over ``array[0], array[1], ...`` (in C: each row a pending row)."""
    if core is None:
        return (array[i] for i in range(len(array)))
    return core.rows(array)


def quick_sum(array: Any) -> Any:
    """``sum(array)`` of a small array in host memory, computed now in the loop kernels'
    order (a known scalar); None where a kernel computes it."""
    return None if core is None else core.quick_sum(array)


def quick_mean(array: Any) -> Any:
    """As ``quick_sum``, the mean (of the elements in the default float if integers)."""
    return None if core is None else core.quick_mean(array)


def cast_now(array: Any, dtype: Any) -> Any:
    """``array`` converted to ``dtype`` (a NumPy dtype), computed now for a small array in
    the cpu device's memory as the kernels' casts convert (not a float to an integer);
    None where a kernel converts it."""
    code = CODES.get(dtype)
    return None if core is None or code is None else core.cast_now(array, code)


def where_now(condition: Any, x1: Any, x2: Any) -> Any:
    """``where(condition, x1, x2)`` of small arrays in the cpu device's memory (a bool
    condition, x1 and x2 of one dtype or Python numbers), selected now in C; None where
    the general path serves."""
    return None if core is None else core.where_now(condition, x1, x2)


def diff_now(x: Any) -> Any:
    """``diff(x)`` of a small 1-D array in the cpu device's memory, now in C; None where the
    general path serves."""
    return None if core is None else core.diff_now(x)


def roll_now(x: Any, shift: Any) -> Any:
    """``roll(x, shift)`` with no axis of a small array in the cpu device's memory (1-D,
    or C-contiguous), now in C; None where the general path serves."""
    if core is None or type(shift) is not int:
        return None
    return core.roll_now(x, shift)


def concat_now(arrays: Any, axis: Any) -> Any:
    """``concat(arrays, axis)`` of small arrays of one dtype in the cpu device's memory,
    joined now in C; None where the general path serves (it raises the errors)."""
    if core is None or type(axis) is not int:
        return None
    return core.concat_now(arrays, axis)


#: the full reductions ``quick_extremum`` computes, by their code in ``_hot.c``
EXTREMA = {"max": 0, "min": 1, "argmax": 2, "argmin": 3}


def quick_extremum(name: str, array: Any) -> Any:
    """``max``, ``min``, ``argmax`` or ``argmin`` (``name``) of a whole small array in the
    cpu device's memory, computed now (a known scalar: exact, so the kernels' value); None
    where a kernel computes it."""
    return None if core is None else core.quick_extremum(array, EXTREMA[name])


def unary_now(name: str, array: Any) -> Any:
    """The float function ``name`` of a small array in host memory, computed now; None where
    a kernel computes it (``_hot.c``'s ``unary_now``)."""
    fn = UNARY.get(name)
    if core is None or fn is None:
        return None
    return core.unary_now(fn, array)


#: the in-place operators ``inplace`` computes (``BINARY``'s codes, without max and min)
INPLACE = {name: BINARY[name] for name in ("add", "subtract", "multiply", "divide")}


def inplace(dst: Any, other: Any, name: str) -> bool:
    """``dst op= other`` (``name``: add, subtract, multiply, divide) of an array nothing else
    shows, computed now into a new block that ``dst`` takes; False (nothing done) where the
    general path must do it."""
    code = INPLACE.get(name)
    return core is not None and code is not None and core.inplace(dst, other, code)


#: what element i of a creation function's result is (``_hot.c``'s MAKE_*): a fill value, an
#: integer ramp ``i * step + start``, a float one (float64 or float32 arithmetic)
FILL, INT_RAMP, F64_RAMP, F32_RAMP = range(4)


def created(device: Any, dtype: Any, shape: tuple[int, ...], kind: int, start: Any,
            step: Any = 0, stop: Any = None, second: Any = None) -> Any:
    """A creation function's result made now in the cpu device's memory, as NumPy makes it
    (``_hot.c``'s ``created``: at most 16 x ``now_max`` elements), or None where a kernel
    makes it lazily. Element i is what the function's graph computes (``kind``); ``stop``,
    when given, is a float ramp's last element (linspace's endpoint), ``second`` its element
    1 (arange's ``start + step``)."""
    code = CODES.get(dtype)
    info = device.info
    if core is None or code is None or info.kind != "cpu":
        return None
    lanes = max(info.simd_lanes, 1) if info.style == "loops" else 0
    return core.created(device, lanes, code, shape, kind, start, step, stop, second)


def now_max() -> int:
    """The most elements of a result ``_hot.c`` computes now; 0 when none is (no C module,
    shortcuts off, or ``set_now_max(0)``): then the cpu device's NumPy shortcuts (concat,
    convolve, bincount of values in its memory) are off too, every result a kernel's."""
    return int(core.get_now_max()) if core is not None else 0


def host_values(nodes: list[Any]) -> list[np.ndarray] | None:
    """The values of ``nodes`` as NumPy arrays over the cpu device's memory, for NumPy's own
    loop there (``concat`` of many inputs, ``roll``, ``convolve``), when every one already
    lies in it; None otherwise: another device, a pending node (the lazy path fuses it), or
    ``now_max()`` 0."""
    device = nodes[0].device
    if not now_max() or device.info.kind != "cpu":
        return None
    out = []
    for n in nodes:
        at = _linked.in_base(n) if n.device is device else None
        if at is None or at[0].buffer is None or at[0].dtype != n.dtype:
            return None
        base, offset, strides = at
        memory = _linked.host_memory(base.buffer, base.dtype)   # (waits for its producer)
        if memory is None:
            return None
        item = n.dtype.itemsize
        out.append(np.ndarray(n.shape, n.dtype, memory, offset * item,
                              tuple([s * item for s in strides])))
    return out


def wrapped(values: np.ndarray, device: Any) -> Any:
    """A new NumPy result that nothing else refers to, as an array of the cpu device
    ``device`` over the same memory (no copy, unless it is not C-contiguous: NumPy's roll
    of a transposed view keeps the view's layout)."""
    values = np.asarray(values, order="C")
    return _linked.array(_linked.buffer_node(device.wrap_host(values), values.dtype,
                                             values.shape))


def set_now_max(n: int) -> int:
    """The most elements of a result ``_hot.c`` computes now (0: none, every result is a
    kernel's); returns the previous setting (0 without the C module)."""
    return int(core.set_now_max(n)) if core is not None else 0


def set_enabled(flag: bool) -> bool:
    """Turn the C shortcuts on or off in this process (the previous setting); without the C
    module there is nothing to turn, and the answer is False."""
    return bool(core.set_enabled(flag)) if core is not None else False
