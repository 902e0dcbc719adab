"""Creation functions: asarray, zeros, ones, full, empty, *_like, arange, linspace, eye,
tril, triu, from_dlpack.

Layer: ``_api``. Constant-filled arrays are a broadcast constant (no memory until a kernel
stores them); arange, eye and triangles are index arithmetic inside kernels.
"""

from __future__ import annotations

import builtins
import math
import operator as _operator
from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._devices import registry
from .._devices.base import Device
from .._lazy import graph as g
from . import _dtypes as dt
from . import _hot
from ._array_object import Array
from ._elementwise_functions import broadcast_node, default_float


def _device(device: Any) -> Device:
    return registry.default() if device is None else registry.get(device)


from .._lazy import choose as _choose  # noqa: E402,F401  (sets device="auto"'s chooser)


def _shape(name: str, shape: Any) -> tuple[int, ...]:
    if shape.__class__ is int and shape >= 0:
        return (shape,)
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, builtins.bool):
        shape = (shape,)
    try:
        out = tuple(int(operator_index(s)) for s in shape)
    except TypeError:
        raise TypeError(f"{name}: shape must be an int or a tuple of ints, got {shape!r}") \
            from None
    if any(s < 0 for s in out):
        raise ValueError(f"{name}: negative dimensions are not allowed, got {out}")
    return out


def operator_index(x: Any) -> int:
    return _operator.index(x)


def _check_dtype_device(name: str, dtype: dt.DType, device: Device) -> None:
    if (dtype is dt.float64 or dtype is dt.complex128) and not device.info.float64:
        raise TypeError(f"{name}: device {device.name} does not support {dtype.name}")


# Note: the parameters that NumPy takes positionally (dtype, k, endpoint) are
# positional-or-keyword here too; the standard makes them keyword-only, and its signature
# tests allow this.
def _order(name: str, order: Any) -> None:
    # Note: NumPy's memory orders are accepted; every array here is laid out as zyxarray
    # chooses (views are index arithmetic), so 'F' changes nothing observable but strides.
    if order not in (None, "K", "A", "C", "F"):
        raise ValueError(f"{name}: order must be one of 'C', 'F', 'A', 'K', got {order!r}")


def _holds_arrays(obj: Any) -> builtins.bool:
    """True if the (nested) list or tuple ``obj`` holds a zyxarray array."""
    if isinstance(obj, Array):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_holds_arrays(o) for o in obj)
    return False


def _stacked(obj: Any, dtype: Any, device: Any) -> Array:
    """A (nested) list of arrays and scalars stacked on the device (no trip to the host)."""
    from ._manipulation_functions import stack
    from ._numpy_args import device_for
    if not isinstance(obj, (list, tuple)):
        return asarray(obj, dtype=dtype, device=device)
    dev = device if device is not None else device_for(obj)
    parts = [_stacked(o, dtype, dev) for o in obj]
    if not parts:
        return asarray(np.asarray(obj), dtype=dtype, device=dev)
    if len({p.shape for p in parts}) > 1:
        raise ValueError(f"asarray: the nested sequence is ragged (shapes "
                         f"{[p.shape for p in parts]})")
    common = dt.result_type_of(*parts, where="asarray")
    if parts[0].ndim == 0 and hasattr(parts[0].device, "host_array"):
        # scalars in host memory (``np.array([f(v) for v in rows])``): each read (its
        # computation one structure, memoized after the first), then copied in as one
        # array (a stack would be a kernel per scalar)
        from .._lazy.realize import read_scalar
        values = np.array([read_scalar(p._node) for p in parts], dtype=common.np)
        return asarray(values, device=parts[0].device)
    from ._data_type_functions import astype
    return stack([astype(p, common) if p.dtype != common else p for p in parts])


def asarray(obj: Any, /, dtype: Any = None, order: Any = None, *, device: Any = None,
            copy: builtins.bool | None = None, like: Any = None) -> Array:
    """Convert lists, scalars, NumPy arrays, buffers and arrays to an array. Lists that hold
    zyxarray arrays are stacked on their device. (``order`` and ``like`` are NumPy's:
    ``like`` gives the device when ``device`` is not.)"""
    _order("asarray", order)
    if device is None and isinstance(like, Array):
        device = like.device
    if not isinstance(obj, Array) and _holds_arrays(obj):
        if copy is False:
            raise ValueError("asarray: copy=False but stacking the arrays makes a copy")
        out = _stacked(obj, None, device)
        return out if dtype is None else asarray(out, dtype=dtype)
    want = None if dtype is None else dt.to_dtype(dtype, "asarray")
    if isinstance(obj, Array):
        out = obj
        if device is not None:
            out = out.to_device(device)
        if want is not None and want != out.dtype:
            if copy is False:
                raise ValueError("asarray: copy=False but a dtype conversion needs a copy")
            from ._data_type_functions import astype
            out = astype(out, want)
        return Array._new(out._node) if copy else out
    dev = _device(device)
    if isinstance(obj, (builtins.bool, int, float, complex)) and not isinstance(obj, np.generic):
        d = want or dt.scalar_default(obj)
        if d is dt.float64 and not dev.info.float64 and want is None:
            d = dt.float32
        if isinstance(obj, int) and d in dt.INTEGER:
            info = np.iinfo(d.np)
            if not info.min <= obj <= info.max:
                raise OverflowError(f"asarray: Python integer {obj} is out of bounds for "
                                    f"{d.name}")
        if isinstance(obj, complex) and d not in dt.COMPLEX_FLOATING:
            raise TypeError(f"asarray: cannot convert the complex {obj} to {d.name}")
        _check_dtype_device("asarray", d, dev)
        return Array._new(g.const(obj, d.np, dev))
    if copy is False:
        raise ValueError("asarray: copy=False is impossible for host data: zyxarray keeps "
                         "its own device buffers")
    if isinstance(obj, (bytes, bytearray)):
        host = np.frombuffer(obj, dtype=want.np if want else np.uint8)
    else:
        try:
            host = np.asarray(obj, dtype=want.np if want else None)
        except OverflowError:
            raise OverflowError("asarray: a Python integer is out of bounds for int64") \
                from None
    if want is None:
        if host.dtype == np.float64 and not dev.info.float64:
            host = host.astype(np.float32)
        if host.dtype.kind == "O":
            raise TypeError("asarray: cannot convert objects of mixed or unknown types")
    d = dt.to_dtype(host.dtype, "asarray")
    _check_dtype_device("asarray", d, dev)
    return Array._new(g.from_host(host, dev))


def full(shape: Any, fill_value: Any, dtype: Any = None, order: Any = "C", *,
         device: Any = None, like: Any = None) -> Array:
    """An array of ``shape`` filled with ``fill_value``."""
    if device is None and isinstance(like, Array):
        device = like.device
    return _full("full", shape, fill_value, dtype, order, device)


def _full(name: str, shape: Any, fill_value: Any, dtype: Any, order: Any, device: Any,
          floats: builtins.bool = False) -> Array:
    """``full`` for the public function ``name`` (its errors name it); ``floats``: without a
    dtype, the device's default float (zeros, ones, empty)."""
    if order != "C":
        _order(name, order)
    dev = _device(device)
    shape = _shape(name, shape)
    if floats and dtype is None:
        dtype = default_float(dev)
        fill_value = float(fill_value)
    if dtype is None and isinstance(fill_value, (Array, np.generic)):
        # a NumPy scalar or an array keeps its dtype, as in NumPy
        dtype = dt.to_dtype(fill_value.dtype, name)
    if isinstance(fill_value, (Array, np.generic)):
        fill_value = fill_value.item()
    if dtype is None:
        d = dt.scalar_default(fill_value)
        if d is dt.float64 and not dev.info.float64:
            d = dt.float32
    else:
        d = dt.to_dtype(dtype, name)
    _check_dtype_device(name, d, dev)
    integer = d.kind in "iu"
    if integer and isinstance(fill_value, int):
        info = np.iinfo(d.np)
        if not info.min <= fill_value <= info.max:
            raise OverflowError(f"{name}: fill value {fill_value} is out of bounds for {d.name}")
    if d is dt.float64 and fill_value.__class__ in (float, int):
        value = float(fill_value)
    elif integer and fill_value.__class__ is int:
        value = fill_value          # (in range: checked above)
    elif d.kind == "c":
        value = complex(fill_value)
    else:
        value = np.asarray(fill_value).astype(d.np).item()
    now = _hot.created(dev, d.np, shape, _hot.FILL, value)
    if now is not None:
        return now
    node = g.const(value, d.np, dev)
    return Array._new(broadcast_node(node, shape))


def zeros(shape: Any, dtype: Any = None, order: Any = "C", *, device: Any = None,
          like: Any = None) -> Array:
    """An array of zeros."""
    if device is None and isinstance(like, Array):
        device = like.device
    return _full("zeros", shape, 0, dtype, order, device, floats=True)


def ones(shape: Any, dtype: Any = None, order: Any = "C", *, device: Any = None,
         like: Any = None) -> Array:
    """An array of ones."""
    if device is None and isinstance(like, Array):
        device = like.device
    return _full("ones", shape, 1, dtype, order, device, floats=True)


def empty(shape: Any, dtype: Any = None, order: Any = "C", *, device: Any = None,
          like: Any = None) -> Array:
    """An array whose values are unspecified (zyxarray gives zeros: they cost no memory)."""
    if device is None and isinstance(like, Array):
        device = like.device
    return _full("empty", shape, 0, dtype, order, device, floats=True)


def _like(name: str, x: Any, dtype: Any, order: Any, shape: Any, device: Any
          ) -> tuple[Any, Any, tuple[int, ...]]:
    """(dtype, device, shape) of a ``*_like`` result; ``x`` may be any array-like, as in
    NumPy, and ``shape`` overrides its shape."""
    _order(name, order)
    if not isinstance(x, Array):
        x = asarray(x, device=device)
    out_shape = x.shape if shape is None else _shape(name, shape)
    return (x.dtype if dtype is None else dtype), (x.device if device is None else device), \
        out_shape


# Note: NumPy's ``order``, ``subok`` and ``shape`` are accepted after ``dtype``.
def zeros_like(x: Any, /, dtype: Any = None, order: Any = "K", subok: builtins.bool = True,
               shape: Any = None, *, device: Any = None) -> Array:
    """Zeros with the shape, dtype and device of ``x`` (unless given)."""
    d, dev, sh = _like("zeros_like", x, dtype, order, shape, device)
    return _full("zeros_like", sh, 0, d, "C", dev)


def ones_like(x: Any, /, dtype: Any = None, order: Any = "K", subok: builtins.bool = True,
              shape: Any = None, *, device: Any = None) -> Array:
    """Ones with the shape, dtype and device of ``x`` (unless given)."""
    d, dev, sh = _like("ones_like", x, dtype, order, shape, device)
    return _full("ones_like", sh, 1, d, "C", dev)


def empty_like(x: Any, /, dtype: Any = None, order: Any = "K", subok: builtins.bool = True,
               shape: Any = None, *, device: Any = None) -> Array:
    """An array like ``x`` whose values are unspecified (zeros here)."""
    d, dev, sh = _like("empty_like", x, dtype, order, shape, device)
    return _full("empty_like", sh, 0, d, "C", dev)


def full_like(x: Any, /, fill_value: Any, dtype: Any = None, order: Any = "K",
              subok: builtins.bool = True, shape: Any = None, *, device: Any = None) -> Array:
    """``fill_value`` with the shape, dtype and device of ``x`` (unless given)."""
    d, dev, sh = _like("full_like", x, dtype, order, shape, device)
    return _full("full_like", sh, fill_value, d, "C", dev)


class _ZeroStep(ZeroDivisionError, ValueError):
    """``arange``'s zero step: NumPy's ZeroDivisionError, and a ValueError (an invalid
    argument, as the standard's functions report them)."""


def arange(start: Any, /, stop: Any = None, step: Any = 1, dtype: Any = None, *,
           device: Any = None) -> Array:
    """Evenly spaced values in [start, stop) with ``step``."""
    if stop is None:
        start, stop = 0, start
    for v in (start, stop, step):
        if isinstance(v, complex):
            raise TypeError("arange: complex arguments are not supported")
    if step == 0:
        raise _ZeroStep("arange: step must not be zero")
    dev = _device(device)
    if dtype is None:
        is_float = any(isinstance(v, (float, np.floating)) for v in (start, stop, step))
        d = default_float(dev) if is_float else dt.int64
    else:
        d = dt.to_dtype(dtype, "arange")
    n = builtins.max(math.ceil((stop - start) / step), 0)
    if d in dt.INTEGER:
        info = np.iinfo(d.np)
        if n and not (info.min <= start <= info.max and
                      info.min <= start + (n - 1) * step <= info.max):
            raise OverflowError(f"arange: values do not fit in {d.name}")
    if d in dt.INTEGER and all(isinstance(v, (int, np.integer)) for v in (start, step)):
        now = _hot.created(dev, d.np, (n,), _hot.INT_RAMP, int(start), int(step))
        if now is not None:
            return now
        # (start + i * step, without the identities: ``arange(k)`` is the iota itself, one
        # node, not five at 11 us: k-means' one-hot labels build it every step)
        node = g.iota(n, dev)
        if step != 1:
            node = g.alu(Op.MUL, node, broadcast_node(g.const(int(step), np.int64, dev), (n,)))
        if start != 0:
            node = g.alu(Op.ADD, node, broadcast_node(g.const(int(start), np.int64, dev), (n,)))
        return Array._new(g.cast(node, d.np))
    f = np.float64 if dev.info.float64 else np.float32
    i = g.iota(n, dev)
    if d in dt.REAL_FLOATING:
        return _float_arange(start, step, n, d.np, np.dtype(np.float64 if d is dt.float64
                                                            and f is np.float64
                                                            else np.float32), dev, i)
    s = broadcast_node(g.const(float(step), f, dev), (n,))
    b = broadcast_node(g.const(float(start), f, dev), (n,))
    return Array._new(g.cast(g.alu(Op.ADD, g.alu(Op.MUL, g.cast(i, f), s), b), d.np))


def _float_arange(start: Any, step: Any, n: int, d: np.dtype, w: np.dtype, dev: Any,
                  i: g.Node) -> Array:
    """A float ``arange`` with NumPy's values to the bit. NumPy stores ``start`` and
    ``start + step`` (added as the Python numbers they are), then fills element i >= 2 with
    ``first + i * (second - first)`` computed in ``w``: float64 for float64, float32 for
    float32 and float16."""
    with np.errstate(over="ignore", invalid="ignore"):
        first, second = d.type(start), d.type(start + step)
        s0 = w.type(first)
        delta = w.type(w.type(second) - s0)
    now = _hot.created(dev, d, (n,), _hot.F64_RAMP if w == np.float64 else _hot.F32_RAMP,
                       float(s0), float(delta), None, float(second))
    if now is not None:
        return now
    ramp = g.alu(Op.ADD, g.alu(Op.MUL, g.cast(i, w), broadcast_node(g.const(float(delta), w,
                                                                            dev), (n,))),
                 broadcast_node(g.const(float(s0), w, dev), (n,)))
    if n > 1:
        at_one = g.alu(Op.CMPEQ, i, broadcast_node(g.const(1, np.int64, dev), (n,)),
                       dtype=np.bool_)
        ramp = g.alu(Op.WHERE, at_one, broadcast_node(g.const(float(second), w, dev), (n,)),
                     ramp)
    return Array._new(g.cast(ramp, d))


def linspace(start: Any, stop: Any, /, num: int = 50, endpoint: builtins.bool = True,
             retstep: builtins.bool = False, dtype: Any = None, axis: int = 0, *,
             device: Any = None) -> Any:
    """``num`` evenly spaced values from start to stop (stop included if ``endpoint``).
    NumPy's ``retstep`` (also return the step) and array ``start``/``stop`` (the values
    along ``axis``) are accepted."""
    num = _count("linspace", num)
    if isinstance(axis, builtins.bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"linspace: axis must be an integer, got {axis!r}")
    if isinstance(start, (Array, np.ndarray, list, tuple)) or \
            isinstance(stop, (Array, np.ndarray, list, tuple)):
        return _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis, device)
    if retstep:
        div = (num - 1) if endpoint else num
        step = (stop - start) / div if div > 0 else float("nan")
        return linspace(start, stop, num, endpoint, dtype=dtype, device=device), step
    dev = _device(device)
    if num < 0:
        raise ValueError(f"linspace: num must be non-negative, got {num}")
    is_complex = isinstance(start, complex) or isinstance(stop, complex)
    if dtype is None:
        d = (dt.complex128 if dev.info.float64 else dt.complex64) if is_complex else \
            default_float(dev)
    else:
        d = dt.to_dtype(dtype, "linspace")
    # (NumPy computes in float64 whatever the dtype, then casts)
    work = d if d in dt.COMPLEX_FLOATING else default_float(dev)
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else 0.0
    if d in dt.REAL_FLOATING and not is_complex:
        now = _hot.created(dev, d.np, (num,), _hot.F64_RAMP if work is dt.float64 else
                           _hot.F32_RAMP, start, step, stop if endpoint and num > 1 else None)
        if now is not None:
            return now
    i = g.cast(g.iota(num, dev), work.np)
    val = g.alu(Op.ADD, g.alu(Op.MUL, i, broadcast_node(g.const(step, work.np, dev), (num,))),
                broadcast_node(g.const(start, work.np, dev), (num,)))
    if endpoint and num > 1:
        last = g.alu(Op.CMPEQ, g.iota(num, dev),
                     broadcast_node(g.const(num - 1, np.int64, dev), (num,)), dtype=np.bool_)
        val = g.alu(Op.WHERE, last, broadcast_node(g.const(stop, work.np, dev), (num,)), val)
    if d in dt.INTEGER:
        val = g.alu(Op.FLOOR, val)   # NumPy 2 rounds toward -inf for integer dtypes
    return Array._new(g.cast(val, d.np))


def _count(name: str, num: Any) -> int:
    """``num``, a number of samples, checked: an integer (NumPy's TypeError otherwise), not
    negative (ValueError)."""
    import operator
    try:
        n = operator.index(num)
    except TypeError:
        if isinstance(num, float) and num.is_integer():
            n = int(num)            # (NumPy takes 5.0)
        else:
            raise TypeError(f"{name}: num must be an integer, got {num!r}") from None
    if n < 0:
        raise ValueError(f"{name}: num must be non-negative, got {n}")
    return n


def _linspace_arrays(start: Any, stop: Any, num: int, endpoint: builtins.bool,
                     retstep: builtins.bool, dtype: Any, axis: int, device: Any) -> Any:
    """linspace between arrays: ``start + t * (stop - start)`` with t along a new axis."""
    from ._manipulation_functions import moveaxis, normalize_axis
    from ._numpy_args import as_arrays
    if dtype is not None:
        dt.to_dtype(dtype, "linspace")      # (refused before any work)
    a, b = as_arrays(start, stop)
    dev = a.device if device is None else _device(device)
    work = default_float(dev)
    div = (num - 1) if endpoint else num
    t = linspace(0.0, 1.0 if endpoint else (num / div if div else 0.0), num,
                 endpoint=endpoint or num < 2, dtype=work, device=dev)
    a = asarray(a, dtype=dt.result_type_of(a, work))
    b = asarray(b, dtype=dt.result_type_of(b, work))
    span = b - a
    shape = (num,) + tuple(np.broadcast_shapes(a.shape, b.shape))
    normalize_axis("linspace", axis, len(shape))   # (before any work)
    t = t.reshape((num,) + (1,) * (len(shape) - 1))
    out = a + t * span
    if endpoint and num > 1:
        out[-1] = b
    if dtype is not None:
        out = asarray(out, dtype=dtype)
    out = moveaxis(out, 0, axis) if axis != 0 else out
    if retstep:
        return out, span / div if div > 0 else span * float("nan")
    return out


def _row_col(n: int, m: int, device: Device) -> tuple[g.Node, g.Node]:
    rows = g.expand(g.reshape(g.iota(n, device), (n, 1)), (n, m))
    cols = g.expand(g.reshape(g.iota(m, device), (1, m)), (n, m))
    return rows, cols


def eye(n_rows: int, n_cols: int | None = None, /, k: int = 0, dtype: Any = None,
        order: Any = "C", *, device: Any = None, like: Any = None) -> Array:
    """A matrix with ones on the k-th diagonal."""
    _order("eye", order)
    if device is None and isinstance(like, Array):
        device = like.device
    dev = _device(device)
    m = n_rows if n_cols is None else n_cols
    if n_rows < 0 or m < 0:
        raise ValueError(f"eye: negative dimensions are not allowed, got ({n_rows}, {m})")
    d = default_float(dev) if dtype is None else dt.to_dtype(dtype, "eye")
    k = _clamp_diagonal(k, n_rows, m)
    rows, cols = _row_col(n_rows, m, dev)
    diag = g.alu(Op.CMPEQ, g.alu(Op.SUB, cols, rows),
                 broadcast_node(g.const(k, np.int64, dev), (n_rows, m)), dtype=np.bool_)
    return Array._new(g.cast(diag, d.np))


def _clamp_diagonal(k: Any, n: int, m: int) -> int:
    """k limited to [-n, m]: a diagonal outside an n x m matrix selects the same (nothing,
    or everything) as the nearest one outside it, and the clamped k fits a kernel's int64."""
    return builtins.max(-n, builtins.min(operator_index(k), m))


def _triangle(name: str, x: Array, k: int, lower: builtins.bool) -> Array:
    if x.ndim < 2:
        raise ValueError(f"{name}: needs at least 2 dimensions, got shape {x.shape}")
    n, m = x.shape[-2:]
    k = _clamp_diagonal(k, n, m)
    rows, cols = _row_col(n, m, x.device)
    diff = g.alu(Op.SUB, cols, rows)
    kk = broadcast_node(g.const(k, np.int64, x.device), (n, m))
    keep = g.alu(Op.CMPLE, diff, kk, dtype=np.bool_) if lower else \
        g.alu(Op.CMPLE, kk, diff, dtype=np.bool_)
    keep = broadcast_node(keep, x.shape)
    zero = broadcast_node(g.const(0, x.dtype.np, x.device), x.shape)
    return Array._new(g.alu(Op.WHERE, keep, x._node, zero))


def tril(x: Array, /, k: int = 0) -> Array:
    """The lower triangle (on and below the k-th diagonal) of the last two axes."""
    return _triangle("tril", x, k, True)


def triu(x: Array, /, k: int = 0) -> Array:
    """The upper triangle (on and above the k-th diagonal) of the last two axes."""
    return _triangle("triu", x, k, False)


def from_dlpack(x: Any, /, *, device: Any = None, copy: builtins.bool | None = None) -> Array:
    """An array from any object that exports DLPack. On a host-memory device a contiguous
    producer's memory is shared (no copy) unless ``copy=True``."""
    if isinstance(x, Array):      # one of ours (any device): no DLPack needed
        target = x.device if device is None else _device(device)
        if copy is False and target is not x.device:
            raise BufferError(f"from_dlpack: moving {x.device.name} data to {target.name} "
                              "needs a copy (copy=False)")
        y = x.to_device(target)
        return asarray(y, copy=True) if copy and y is x else y
    kind = x.__dlpack_device__()[0] if hasattr(x, "__dlpack_device__") else 1
    if kind in (2, 10):     # kDLCUDA, kDLROCM: stays on the GPU
        return _from_cuda_dlpack(x, device, copy, "hip" if kind == 10 else "cuda")
    host = np.from_dlpack(x)
    dev = _device(device)
    wrap = getattr(dev, "wrap_host", None)
    if copy is not True and wrap is not None and host.flags.c_contiguous and \
            host.dtype in (d.np for d in dt.ALL):
        return Array._new(g.buffer_node(wrap(host), host.dtype, host.shape))
    if copy is False:
        raise BufferError("from_dlpack: the data cannot be shared with this device without a "
                          "copy (copy=False)")
    return asarray(np.array(host, copy=True), device=dev)


def _from_cuda_dlpack(x: Any, device: Any, copy: builtins.bool | None, kind: str) -> Array:
    """A CUDA or ROCm producer (CuPy, PyTorch...): its memory is shared with the cuda (hip)
    device it lives on (no copy) unless ``copy=True`` or another device is asked for."""
    import cupy

    arr = cupy.from_dlpack(x)
    dev = registry.get(f"{kind}:{arr.device.id}")
    if device is not None and registry.get(device) is not dev:
        if copy is False:
            raise BufferError(f"from_dlpack: the data is on {dev.name}; moving it to {device} "
                              "needs a copy (copy=False)")
        return asarray(cupy.asnumpy(arr), device=device)
    if copy is True or not arr.flags.c_contiguous:
        if copy is False:
            raise BufferError("from_dlpack: a non-contiguous CUDA array cannot be shared "
                              "(copy=False)")
        arr = cupy.array(arr, copy=True, order="C")
    buf = dev.wrap_cupy(arr)   # type: ignore[attr-defined]
    return Array._new(g.buffer_node(buf, arr.dtype, tuple(arr.shape)))


def meshgrid(*arrays: Array, indexing: str = "xy") -> tuple[Array, ...]:
    """Coordinate grids from 1-D arrays (broadcast views: no copies). As in NumPy, an
    input of another rank is flattened first, and each grid keeps its input's dtype."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    for a in arrays:
        if not isinstance(a, Array):
            raise TypeError(f"meshgrid: expected arrays, got {type(a).__name__}")
    from ._manipulation_functions import reshape
    arrays = tuple(a if a.ndim == 1 else reshape(a, (-1,)) for a in arrays)
    n = len(arrays)
    sizes = [a.shape[0] for a in arrays]
    if indexing == "xy" and n >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    shape = tuple(sizes)
    out = []
    for i, a in enumerate(arrays):
        pos = i
        if indexing == "xy" and n >= 2 and i < 2:
            pos = 1 - i
        view = [1] * n
        view[pos] = a.shape[0]
        out.append(Array._new(broadcast_node(g.reshape(a._node, tuple(view)), shape)))
    return tuple(out)
