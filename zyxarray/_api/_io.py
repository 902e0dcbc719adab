"""Files and buffers: NumPy's .npy/.npz files, text files, raw binary data, memory maps.

Layer: ``_api``. A file, a buffer and a text are host data: reading one parses it on the host
with NumPy's own readers (``numpy.load``, ``numpy.loadtxt``, ``numpy.fromfile``, ...) and puts
the result on ``device=`` (the default device if None) with one copy; writing reads the array
to the host once and hands it to NumPy's writer. So the formats are NumPy's, byte for byte,
and files go both ways between NumPy and zyxarray. Imports nothing below ``_api``.

zyxarray has no object, string or structured dtypes: files that hold them are
refused with a TypeError naming the dtype, and pickled data (object arrays, pickle files)
with a ValueError, whatever ``allow_pickle`` says: nothing here ever unpickles.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, cast

import numpy as np

from . import _dtypes as dt
from ._array_object import Array
from ._creation_functions import asarray

#: NumPy's memory-map modes, long names included, by their short names
_MMAP_MODES = {"r": "r", "readonly": "r", "c": "c", "copyonwrite": "c",
               "r+": "r+", "readwrite": "r+", "w+": "w+", "write": "w+"}


# -- host data in, device arrays out -------------------------------------------------------
def _explicit(dtype: Any) -> bool:
    """Whether the caller chose ``dtype`` (NumPy's defaults, None and ``float``, are no
    choice: float64 then becomes float32 on a device without it, as in ``asarray``)."""
    return dtype is not None and dtype is not float


def _device_of(device: Any, like: Any = None) -> Any:
    """``device``, or that of ``like`` (NumPy's ``like=``) when it is a zyxarray array."""
    if device is None and isinstance(like, Array):
        return like.device
    return device


def _requested_dtype(name: str, dtype: Any) -> np.dtype:
    """``dtype`` as a NumPy dtype to read with (any byte order), refused unless zyxarray has
    its native form: structured dtypes with a TypeError that says so."""
    if isinstance(dtype, dt.DType):
        return dtype.np
    try:
        nd = np.dtype(dtype)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: {dtype!r} is not a data type") from None
    if nd.names is not None or nd.subdtype is not None:
        raise TypeError(f"{name}: structured data type {nd} is not supported: a zyxarray "
                        "array holds one numeric type (read each field as its own array)")
    dt.to_dtype(nd.newbyteorder("="), name)      # (raises a TypeError naming the dtype)
    return nd


def _check_host(name: str, host: np.ndarray) -> np.ndarray:
    """``host`` in native byte order, refused (naming ``name``) if zyxarray lacks its dtype."""
    d = host.dtype
    if d.hasobject:
        raise ValueError(f"{name}: object arrays are not supported (zyxarray has no object "
                         "dtype and never pickles)")
    if d.names is not None or d.subdtype is not None:
        raise TypeError(f"{name}: structured data type {d} is not supported: a zyxarray "
                        "array holds one numeric type (read each field as its own array)")
    if not d.isnative:
        host = host.astype(d.newbyteorder("="))
    dt.to_dtype(host.dtype, name)
    return host


def _to_device(name: str, host: np.ndarray, device: Any, dtype_given: bool = False) -> Array:
    """Host data as an array on ``device`` (one copy). A Fortran-ordered block (a .npy file
    written in that order, a memory map with order='F') is copied as it lies and viewed
    transposed, rather than reordered on the host first."""
    host = _check_host(name, host)
    # an explicit dtype is kept, or refused where the device lacks it; otherwise float64
    # becomes float32 on such a device, as in ``asarray``
    want = host.dtype if dtype_given else None
    if host.ndim > 1 and host.flags.f_contiguous and not host.flags.c_contiguous:
        return asarray(host.T, dtype=want, device=device).T
    return asarray(host, dtype=want, device=device)


def _host_of(name: str, x: Any) -> np.ndarray:
    """The host data to write: a zyxarray array read from its device once (on the cpu
    device, its memory itself), anything else as NumPy reads it."""
    if isinstance(x, Array):
        return x._host()
    return _check_host(name, np.asarray(x))


@contextlib.contextmanager
def _no_pickles(name: str) -> Iterator[None]:
    """NumPy's refusals of pickled data (it never unpickles with ``allow_pickle=False``)
    reworded to say why zyxarray refuses them."""
    try:
        yield
    except ValueError as e:
        if "allow_pickle" not in str(e):
            raise
        raise ValueError(f"{name}: the file holds pickled Python objects (an object array or "
                         "a pickle); zyxarray has no object dtype and never unpickles") from e


# -- .npy and .npz ---------------------------------------------------------------------------
class NpzFile(Mapping[str, Any]):
    """The arrays of an .npz file, as NumPy's ``NpzFile``: ``files``, ``keys()``,
    ``f[name]``, ``name in f``, iteration, ``close()`` and ``with``. Each array is read
    when it is asked for and lands on the file's device; the file stays open until
    ``close()`` (or the end of the ``with`` block)."""

    def __init__(self, npz: Any, device: Any) -> None:
        self._npz = npz
        self._device = device

    @property
    def files(self) -> list[str]:
        """The arrays' names (NumPy's, without the ``.npy`` suffix)."""
        return list(self._npz.files)

    @property
    def zip(self) -> Any:
        """The underlying ``zipfile.ZipFile`` (None once closed)."""
        return self._npz.zip

    def __getitem__(self, key: str) -> Any:
        with _no_pickles("load"):
            value = self._npz[key]
        if isinstance(value, np.ndarray):
            return _to_device("load", value, self._device)
        return value       # (a member that is not a .npy: its bytes, as NumPy gives them)

    def __contains__(self, key: object) -> bool:
        return key in self._npz

    def __iter__(self) -> Iterator[str]:
        return iter(self._npz.files)

    def __len__(self) -> int:
        return len(self._npz.files)

    def close(self) -> None:
        """Close the file (reading an array afterwards raises)."""
        self._npz.close()

    def __enter__(self) -> NpzFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"NpzFile({self.files!r}, device={self._device!r})"


def save(file: Any, arr: Any, allow_pickle: bool = True) -> None:
    """Write ``arr`` to a NumPy .npy file (a path, to which ``.npy`` is appended as NumPy
    does, or an open binary file). The array is read to the host once and written by
    NumPy's writer. ``allow_pickle`` changes nothing: object arrays, the only ones that
    need a pickle, do not exist here."""
    host = _host_of("save", arr)
    np.save(file, host, allow_pickle=False)


def savez(file: Any, *args: Any, allow_pickle: bool = True, **kwds: Any) -> None:
    """Write several arrays to an uncompressed .npz file: positional ones as ``arr_0``,
    ``arr_1``, ..., keyword ones under their names (NumPy's ``savez``)."""
    hosts = [_host_of("savez", a) for a in args]
    named = {k: _host_of("savez", v) for k, v in kwds.items()}
    np.savez(file, *hosts, allow_pickle=False, **named)


def savez_compressed(file: Any, *args: Any, allow_pickle: bool = True, **kwds: Any) -> None:
    """As ``savez``, compressed (zip deflate), as NumPy's ``savez_compressed``."""
    hosts = [_host_of("savez_compressed", a) for a in args]
    named = {k: _host_of("savez_compressed", v) for k, v in kwds.items()}
    np.savez_compressed(file, *hosts, allow_pickle=False, **named)


def load(file: Any, mmap_mode: Any = None, allow_pickle: bool = False,
         fix_imports: bool = True, encoding: Any = "ASCII", *, max_header_size: int = 10000,
         device: Any = None) -> Any:
    """Read a .npy file (an array on ``device``) or an .npz file (an ``NpzFile`` whose
    arrays land on ``device``), from a path or an open binary file.

    ``mmap_mode='r'`` or ``'c'`` maps the file and copies it to the device from the mapping
    (the bytes are read as the copy reaches them): the result is an ordinary array, which
    writes never reach the file in either mode.
    # Note: ``mmap_mode='r+'`` and ``'w+'`` (writes that go through to the file) are refused
    # with a ValueError: a device array is not the file's memory.
    Pickled data is refused (ValueError) whatever ``allow_pickle`` says."""
    if mmap_mode is not None:
        if mmap_mode not in ("r", "c", "r+", "w+"):
            raise ValueError(f"load: mmap_mode must be None, 'r', 'c', 'r+' or 'w+', got "
                             f"{mmap_mode!r}")
        if mmap_mode not in ("r", "c"):
            raise ValueError(f"load: mmap_mode={mmap_mode!r} writes through to the file, which "
                             "a device array cannot do; use 'r' or 'c' and write the result "
                             "with zyxarray.save")
    with _no_pickles("load"):
        data = np.load(file, mmap_mode=mmap_mode, allow_pickle=False, fix_imports=fix_imports,
                       encoding=encoding, max_header_size=max_header_size)
    if isinstance(data, np.ndarray):
        return _to_device("load", data, device)
    return NpzFile(data, device)


# -- memory maps -----------------------------------------------------------------------------
class memmap(Array):
    """A memory-mapped file read onto the device (NumPy's ``memmap``, for modes ``'r'`` and
    ``'c'``).

    Construction maps the file, lets the device copy read it from the mapping (the
    operating system reads the pages as the copy reaches them; nothing else is read into
    host memory) and keeps the result: an ordinary zyxarray array with NumPy's ``filename``,
    ``offset`` and ``mode`` attributes and ``flush()``. With ``mode='r'`` it is read-only as
    in NumPy (writing to it or to a view of it raises ValueError); with ``mode='c'``
    (copy-on-write) writes change the array and never the file, as in NumPy.
    # Note: ``mode='r+'`` (NumPy's default) and ``'w+'``, whose writes go through to the
    # file, are refused with a ValueError: a device array is not the file's memory, and a
    # write-back that happened only on ``flush()`` would lose the writes of code that relies
    # on deleting the map. The device copy also means the file's later changes are not seen.
    """

    __slots__ = ("filename", "mode", "offset")

    filename: str | None
    mode: str
    offset: int

    def __new__(cls, filename: Any, dtype: Any = np.uint8, mode: str = "r+", offset: int = 0,
                shape: Any = None, order: str = "C", *, device: Any = None) -> memmap:
        kind = _MMAP_MODES.get(mode)
        if kind is None:
            raise ValueError(f"memmap: mode must be one of {sorted(_MMAP_MODES)}, got {mode!r}")
        if kind not in ("r", "c"):
            raise ValueError(f"memmap: mode={mode!r} writes through to the file, which a device "
                             "array cannot do; use mode='r' (read) or 'c' (copy-on-write), and "
                             "write with zyxarray.save or tofile")
        want = _requested_dtype("memmap", dtype)
        mapped = np.memmap(  # type: ignore[call-overload]
            filename, dtype=want, mode=kind, offset=offset, shape=shape, order=order)
        arr = _to_device("memmap", mapped, device, dtype_given=True)
        obj = cast(memmap, cls._new(arr._node))
        obj.filename = mapped.filename
        obj.mode = kind
        obj.offset = offset
        if kind == "r":
            # read-only: the array and every view of it refuse writes, as NumPy's do
            storage = obj._storage()
            obj._alias = (storage, None, False)
        return obj

    def flush(self) -> None:
        """Write changes to the file: with modes 'r' and 'c' there are none to write (NumPy's
        ``flush`` of such a map changes no file either)."""
        return None


# -- text ----------------------------------------------------------------------------------
def loadtxt(fname: Any, dtype: Any = float, comments: Any = "#", delimiter: str | None = None,
            converters: Any = None, skiprows: int = 0, usecols: Any = None,
            unpack: bool = False, ndmin: int = 0, encoding: str | None = None,
            max_rows: int | None = None, *, quotechar: str | None = None, like: Any = None,
            device: Any = None) -> Array:
    """Parse a text file (a path, an open file, or an iterable of lines) of numbers into an
    array on ``device`` (NumPy's ``loadtxt``, parsed on the host). ``unpack=True`` gives the
    transpose, so that ``x, y = loadtxt(..., unpack=True)`` unpacks the columns.
    # Note: structured dtypes are refused (TypeError)."""
    want = _requested_dtype("loadtxt", dtype)
    host = np.loadtxt(  # type: ignore[call-overload]
        fname, dtype=want, comments=comments, delimiter=delimiter, converters=converters,
        skiprows=skiprows, usecols=usecols, unpack=False, ndmin=ndmin, encoding=encoding,
        max_rows=max_rows, quotechar=quotechar)
    out = _to_device("loadtxt", host, _device_of(device, like), _explicit(dtype))
    return out.T if unpack else out


def genfromtxt(fname: Any, dtype: Any = float, comments: str = "#", delimiter: Any = None,
               skip_header: int = 0, skip_footer: int = 0, converters: Any = None,
               missing_values: Any = None, filling_values: Any = None, usecols: Any = None,
               names: Any = None, excludelist: Any = None,
               deletechars: Any = " !#$%&'()*+,-./:;<=>?@[\\]^{|}~", replace_space: str = "_",
               autostrip: bool = False, case_sensitive: Any = True, defaultfmt: str = "f%i",
               unpack: bool | None = None, usemask: bool = False, loose: bool = True,
               invalid_raise: bool = True, max_rows: int | None = None,
               encoding: str | None = None, *, ndmin: int = 0, like: Any = None,
               device: Any = None) -> Array:
    """Parse a text file with missing values (NumPy's ``genfromtxt``, on the host) into an
    array on ``device``: empty or ``missing_values`` fields become ``filling_values`` (NaN
    for floats by default). ``dtype=None`` guesses the type, which must come out the same
    for every column.
    # Note: ``names`` (which makes a structured array), structured dtypes, and columns of
    # different guessed types are refused with a TypeError; ``usemask=True`` (a masked
    # array) too."""
    if names is not None and names is not False:
        raise TypeError("genfromtxt: names= makes a structured array, which zyxarray does not "
                        "support; read the columns with usecols= instead")
    if usemask:
        raise TypeError("genfromtxt: usemask=True makes a masked array, which zyxarray does not "
                        "support; fill the missing values with filling_values= instead")
    want = None if dtype is None else _requested_dtype("genfromtxt", dtype)
    host = np.genfromtxt(  # type: ignore[call-overload]
        fname, dtype=want, comments=comments, delimiter=delimiter, skip_header=skip_header,
        skip_footer=skip_footer, converters=converters, missing_values=missing_values,
        filling_values=filling_values, usecols=usecols, names=None, excludelist=excludelist,
        deletechars=deletechars, replace_space=replace_space, autostrip=autostrip,
        case_sensitive=case_sensitive, defaultfmt=defaultfmt, unpack=False, usemask=False,
        loose=loose, invalid_raise=invalid_raise, max_rows=max_rows, encoding=encoding,
        ndmin=ndmin)
    if host.dtype.names is not None:
        raise TypeError(f"genfromtxt: the columns have different types ({host.dtype}); zyxarray "
                        "has no structured arrays: pass a dtype= or read them with usecols=")
    out = _to_device("genfromtxt", host, _device_of(device, like), _explicit(dtype))
    return out.T if unpack else out


def savetxt(fname: Any, X: Any, fmt: Any = "%.18e", delimiter: str = " ",
            newline: str = "\n", header: str = "", footer: str = "", comments: str = "# ",
            encoding: str | None = None) -> None:
    """Write a 1-D or 2-D array to a text file (NumPy's ``savetxt``: the same text for the
    same values); the array is read to the host once."""
    host = _host_of("savetxt", X)
    np.savetxt(fname, host, fmt=fmt, delimiter=delimiter, newline=newline, header=header,
               footer=footer, comments=comments, encoding=encoding)


# -- raw data ------------------------------------------------------------------------------
def tofile(x: Any, fid: Any, sep: str = "", format: str = "%s") -> None:
    """Write ``x``'s elements in C order to a file (a path or an open file): raw bytes when
    ``sep`` is empty, else text items separated by ``sep`` and written with ``format``
    (NumPy's ``ndarray.tofile``). ``x`` is read to the host once."""
    host = _host_of("tofile", x)
    if isinstance(fid, os.PathLike):
        fid = os.fspath(fid)
    host.tofile(fid, sep=sep, format=format)


def fromfile(file: Any, dtype: Any = None, count: int = -1, sep: str = "", offset: int = 0,
             *, like: Any = None, device: Any = None) -> Array:
    """A 1-D array on ``device`` from a file's raw bytes (``sep=''``) or text items separated
    by ``sep``, starting ``offset`` bytes in (NumPy's ``fromfile``, read on the host)."""
    want = _requested_dtype("fromfile", dtype)
    host = np.fromfile(file, dtype=want, count=count, sep=sep, offset=offset)
    return _to_device("fromfile", host, _device_of(device, like), _explicit(dtype))


def frombuffer(buffer: Any, dtype: Any = None, count: int = -1, offset: int = 0, *,
               like: Any = None, device: Any = None) -> Array:
    """A 1-D array on ``device`` holding a copy of ``buffer``'s bytes (anything with the
    buffer protocol: bytes, bytearray, memoryview, a NumPy array) read as ``dtype``.
    # Note: NumPy's result shares the buffer's memory; this one is a device copy, which later
    # changes to the buffer do not reach."""
    want = _requested_dtype("frombuffer", dtype)
    host = np.frombuffer(buffer, dtype=want, count=count, offset=offset)
    return _to_device("frombuffer", host, _device_of(device, like), _explicit(dtype))


def fromiter(iter: Iterable[Any], dtype: Any, count: int = -1, *, like: Any = None,
             device: Any = None) -> Array:
    """A 1-D array on ``device`` of the values of an iterable (at most ``count`` of them),
    collected on the host (NumPy's ``fromiter``)."""
    want = _requested_dtype("fromiter", dtype)
    host = np.fromiter(iter, dtype=want, count=count)
    return _to_device("fromiter", host, _device_of(device, like), _explicit(dtype))


def fromstring(string: str | bytes, dtype: Any = float, count: int = -1, *, sep: str,
               like: Any = None, device: Any = None) -> Array:
    """A 1-D array on ``device`` from a text of numbers separated by ``sep`` (NumPy's
    ``fromstring``; as in NumPy 2, its binary mode ``sep=''`` is an error: use
    ``frombuffer``)."""
    want = _requested_dtype("fromstring", dtype)
    host = np.fromstring(string, dtype=want, count=count, sep=sep)
    return _to_device("fromstring", host, _device_of(device, like), _explicit(dtype))
