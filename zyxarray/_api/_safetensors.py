"""safetensors files: read lazily, straight into a device's memory; written in the format the
``safetensors`` package reads.

Layer: ``_api``. The format: 8 bytes (little-endian uint64, the header's length), a JSON
header (``{name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {str:
str}}``), then the data, row-major, little-endian, offsets counted from the data's start.

``load_safetensors`` reads the header itself, maps the file and returns arrays whose values
stay in the file (``_lazy/files.py``): opening a file of any size reads its header and
nothing else, and a computation copies only the byte ranges it reads (``w[10:20]`` copies
ten rows), straight from the mapping to the device. Formats that no device computes in are
decoded on the device by a small kernel, into float32:

===========  ======================================================  ==========
stored       what it is                                              dtype here
===========  ======================================================  ==========
BF16         bfloat16: float32's top 16 bits                          float32
F8_E4M3      float8 e4m3fn: bias 7, no infinities, NaN at S.1111.111  float32
F8_E5M2      float8 e5m2: bias 15, IEEE infinities and NaNs           float32
F8_E4M3FNUZ  float8 e4m3fnuz (AMD): bias 8, NaN at 0x80, no -0, no inf float32
F8_E5M2FNUZ  float8 e5m2fnuz (AMD): bias 16, NaN at 0x80, no -0/inf    float32
F8_E8M0      float8 e8m0fnu: a power of two 2**(e - 127), NaN at 255  float32
F6_E2M3      float6 e2m3fn: bias 1, no inf or NaN; 4 values in 3 bytes float32
F6_E3M2      float6 e3m2fn: bias 3, no inf or NaN; 4 values in 3 bytes float32
F4           float4 e2m1fn, two per byte (first in the low nibble)    float32
===========  ======================================================  ==========

Every other stored type (BOOL, U8..U64, I8..I64, F16, F32, F64, C64) is its own dtype.
Every decoded value is exact: float32 holds all of these formats' values. The packed formats
are a bit stream, least significant bit first (float4's first value is the low nibble of its
byte; float6's four values fill three bytes so, as ONNX packs FLOAT6).
"""

from __future__ import annotations

import json
import mmap
import os
import struct
from collections.abc import Mapping
from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._devices import registry
from .._lazy import graph as g
from .._lazy.files import Codec, FileSource, file_node
from ._array_object import Array

_F32 = np.dtype(np.float32)
_I32 = np.dtype(np.int32)
_BOOL = np.dtype(np.bool_)

#: the header's length is refused above this (the safetensors package's own limit)
MAX_HEADER = 100 * 1024 * 1024


# -- decoding on the device (graph nodes of int32 and float32 values) ----------------------
def _k(value: Any, dtype: np.dtype, like: g.Node) -> g.Node:
    return g.const(value, dtype, like.device)


def _op(op: Op, *srcs: g.Node, dtype: Any = None) -> g.Node:
    return g.alu(op, *srcs, dtype=dtype)


def _bits(x: g.Node, shift: int, width: int) -> g.Node:
    """``(x >> shift) & (2**width - 1)`` of an int32 node."""
    if shift:
        x = _op(Op.SHR, x, _k(shift, _I32, x))
    return _op(Op.AND, x, _k((1 << width) - 1, _I32, x))


def _eq(x: g.Node, value: int) -> g.Node:
    return _op(Op.CMPEQ, x, _k(value, _I32, x), dtype=_BOOL)


def _float_of(bits: g.Node) -> g.Node:
    return _op(Op.BITCAST, bits, dtype=_F32)


def _signed(sign: g.Node, magnitude: g.Node) -> g.Node:
    """``-magnitude`` where ``sign`` (an int32 0/1 node) is 1 (so -0.0 comes out right)."""
    return _op(Op.WHERE, _eq(sign, 1), _op(Op.NEG, magnitude), magnitude)


def _minifloat(exp_bits: int, man_bits: int, bias: int, nan: str) -> Any:
    """The decoder of a small float format (sign, ``exp_bits``, ``man_bits``): normal values
    are built as float32 bits (exponent rebiased, mantissa moved up), subnormal ones as
    ``mantissa * 2**(1 - bias - man_bits)`` (exact). ``nan``: "ieee" (an all-ones exponent
    is infinity or NaN), "fn" (only all-ones exponent and mantissa is NaN), "fnuz" (only the
    negative-zero code is NaN: AMD's formats) or "none"."""
    top = (1 << exp_bits) - 1

    def decode(stored: g.Node) -> g.Node:
        b = g.cast(stored, _I32)
        e = _bits(b, man_bits, exp_bits)
        m = _bits(b, 0, man_bits)
        s = _bits(b, exp_bits + man_bits, 1)
        normal = _op(Op.OR, _op(Op.SHL, _op(Op.ADD, e, _k(127 - bias, _I32, e)),
                                _k(23, _I32, e)),
                     _op(Op.SHL, m, _k(23 - man_bits, _I32, m)))
        value = _float_of(normal)
        sub = _op(Op.MUL, g.cast(m, _F32), _k(2.0 ** (1 - bias - man_bits), _F32, m))
        value = _op(Op.WHERE, _eq(e, 0), sub, value)
        if nan == "ieee":
            special = _float_of(_op(Op.OR, _k(0xFF << 23, _I32, m),
                                    _op(Op.SHL, m, _k(23 - man_bits, _I32, m))))
            value = _op(Op.WHERE, _eq(e, top), special, value)
        elif nan == "fn":
            is_nan = _op(Op.AND, _eq(e, top), _eq(m, (1 << man_bits) - 1), dtype=_BOOL)
            value = _op(Op.WHERE, is_nan, _k(float("nan"), _F32, m), value)
        out = _signed(s, value)
        if nan == "fnuz":             # (no negative zero: its code is the one NaN)
            out = _op(Op.WHERE, _eq(b, 1 << (exp_bits + man_bits)), _k(float("nan"), _F32, m),
                      out)
        return out

    return decode


def _bfloat16(stored: g.Node) -> g.Node:
    b = g.cast(stored, _I32)
    magnitude = _float_of(_op(Op.SHL, _bits(b, 0, 15), _k(16, _I32, b)))
    return _signed(_bits(b, 15, 1), magnitude)


def _e8m0(stored: g.Node) -> g.Node:
    e = g.cast(stored, _I32)
    value = _float_of(_op(Op.SHL, e, _k(23, _I32, e)))
    value = _op(Op.WHERE, _eq(e, 0), _k(2.0 ** -127, _F32, e), value)
    return _op(Op.WHERE, _eq(e, 255), _k(float("nan"), _F32, e), value)


_E2M1 = _minifloat(2, 1, 1, "none")


def _float4(stored: g.Node) -> g.Node:
    """Two values per byte, the first in the low nibble: byte ``i // 2`` read twice, then
    shifted by 4 for odd ``i``."""
    count = stored.shape[0]
    pairs = g.expand(g.reshape(g.cast(stored, _I32), (count, 1)), (count, 2))
    pairs = g.reshape(pairs, (count * 2,))
    odd = g.cast(_op(Op.AND, g.iota(count * 2, stored.device),
                     _k(1, np.dtype(np.int64), stored)), _I32)
    nibble = _bits(_op(Op.SHR, pairs, _op(Op.SHL, odd, _k(2, _I32, odd))), 0, 4)
    return _E2M1(nibble)


def _float6(exp_bits: int, man_bits: int, bias: int) -> Any:
    """Four values in three bytes, least significant bit first (as ONNX packs FLOAT6 and as
    float4's first value is its low nibble): bytes b0 b1 b2 hold v0 = b0[0:6],
    v1 = b0[6:8] + b1[0:4], v2 = b1[4:8] + b2[0:2], v3 = b2[2:8]."""
    code = _minifloat(exp_bits, man_bits, bias, "none")

    def decode(stored: g.Node) -> g.Node:
        groups = stored.shape[0] // 3
        b = g.reshape(g.cast(stored, _I32), (groups, 3))

        def byte(i: int) -> g.Node:
            return g.slice_view(b, ((0, 1, groups), (i, 1, 1)))

        def lsh(x: g.Node, k: int) -> g.Node:
            return _op(Op.SHL, x, _k(k, _I32, x))

        b0, b1, b2 = byte(0), byte(1), byte(2)
        parts = [_bits(b0, 0, 6),
                 _op(Op.OR, _bits(b0, 6, 2), lsh(_bits(b1, 0, 4), 2)),
                 _op(Op.OR, _bits(b1, 4, 4), lsh(_bits(b2, 0, 2), 4)),
                 _bits(b2, 2, 6)]
        lane = g.expand(g.reshape(g.iota(4, stored.device), (1, 4)), (groups, 4))
        six = g.expand(parts[3], (groups, 4))
        for i in (2, 1, 0):
            is_i = _op(Op.CMPEQ, lane, _k(i, np.dtype(np.int64), lane), dtype=_BOOL)
            six = _op(Op.WHERE, is_i, g.expand(parts[i], (groups, 4)), six)
        return code(g.reshape(six, (groups * 4,)))

    return decode


def _plain(name: str, dtype: Any) -> Codec:
    d = np.dtype(dtype).newbyteorder("<")
    return Codec(name, d, np.dtype(dtype))


CODECS: dict[str, Codec] = {c.name: c for c in (
    _plain("BOOL", np.bool_), _plain("U8", np.uint8), _plain("I8", np.int8),
    _plain("U16", np.uint16), _plain("I16", np.int16), _plain("U32", np.uint32),
    _plain("I32", np.int32), _plain("U64", np.uint64), _plain("I64", np.int64),
    _plain("F16", np.float16), _plain("F32", np.float32), _plain("F64", np.float64),
    _plain("C64", np.complex64),
    Codec("BF16", np.dtype("<u2"), _F32, 0, _bfloat16),
    Codec("F8_E4M3", np.dtype(np.uint8), _F32, 0, _minifloat(4, 3, 7, "fn")),
    Codec("F8_E5M2", np.dtype(np.uint8), _F32, 0, _minifloat(5, 2, 15, "ieee")),
    Codec("F8_E4M3FNUZ", np.dtype(np.uint8), _F32, 0, _minifloat(4, 3, 8, "fnuz")),
    Codec("F8_E5M2FNUZ", np.dtype(np.uint8), _F32, 0, _minifloat(5, 2, 16, "fnuz")),
    Codec("F8_E8M0", np.dtype(np.uint8), _F32, 0, _e8m0),
    Codec("F6_E2M3", np.dtype(np.uint8), _F32, 6, _float6(2, 3, 1)),
    Codec("F6_E3M2", np.dtype(np.uint8), _F32, 6, _float6(3, 2, 3)),
    Codec("F4", np.dtype(np.uint8), _F32, 4, _float4),
)}

#: the stored type of each dtype when saving
_SAVE_NAMES = {np.dtype(np.bool_): "BOOL", np.dtype(np.uint8): "U8", np.dtype(np.int8): "I8",
               np.dtype(np.uint16): "U16", np.dtype(np.int16): "I16",
               np.dtype(np.uint32): "U32", np.dtype(np.int32): "I32",
               np.dtype(np.uint64): "U64", np.dtype(np.int64): "I64",
               np.dtype(np.float16): "F16", np.dtype(np.float32): "F32",
               np.dtype(np.float64): "F64", np.dtype(np.complex64): "C64"}


# -- reading ------------------------------------------------------------------------------------
def _bad(path: Any, why: str) -> ValueError:
    return ValueError(f"load_safetensors: {os.fspath(path)!s} is not a valid safetensors file: "
                      f"{why}")


def read_header(path: Any, f: Any) -> tuple[dict[str, Any], dict[str, str], int]:
    """(the tensors' entries, the metadata, the data's byte offset) of the safetensors file
    ``path``, open as ``f``, each entry checked: a known dtype, a shape of non-negative
    ints, and data offsets that hold exactly its bytes inside the file."""
    size = os.fstat(f.fileno()).st_size
    head = f.read(8)
    if len(head) < 8:
        raise _bad(path, f"{size} bytes, shorter than the 8-byte header length")
    (n,) = struct.unpack("<Q", head)
    if n > MAX_HEADER or n > size - 8:
        raise _bad(path, f"a header length of {n} bytes (the file has {size})")
    text = f.read(n)
    try:
        header = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _bad(path, f"the header is not JSON ({e})") from None
    if not isinstance(header, dict):
        raise _bad(path, "the header is not a JSON object")
    metadata = header.pop("__metadata__", None) or {}
    if not isinstance(metadata, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
        raise _bad(path, "__metadata__ must map strings to strings")
    data_start = 8 + n
    for name, entry in header.items():
        if not isinstance(entry, dict) or set(entry) != {"dtype", "shape", "data_offsets"}:
            raise _bad(path, f"tensor {name!r}: an entry needs dtype, shape and data_offsets")
        codec = CODECS.get(entry["dtype"])
        if codec is None:
            raise _bad(path, f"tensor {name!r}: unknown dtype {entry['dtype']!r} (known: "
                             f"{', '.join(CODECS)})")
        shape, offsets = entry["shape"], entry["data_offsets"]
        if not isinstance(shape, list) or not all(type(s) is int and s >= 0 for s in shape):
            raise _bad(path, f"tensor {name!r}: shape {shape!r}")
        if not isinstance(offsets, list) or len(offsets) != 2 or \
                not all(type(o) is int for o in offsets) or not 0 <= offsets[0] <= offsets[1]:
            raise _bad(path, f"tensor {name!r}: data_offsets {offsets!r}")
        count = int(np.prod(shape, dtype=np.int64)) if shape else 1
        nbytes = codec.nbytes(count)
        if offsets[1] - offsets[0] != nbytes:
            raise _bad(path, f"tensor {name!r}: {entry['dtype']}{shape} is {nbytes} bytes, "
                             f"data_offsets {offsets} hold {offsets[1] - offsets[0]}")
        if data_start + offsets[1] > size:
            raise _bad(path, f"tensor {name!r}: its data ends at byte "
                             f"{data_start + offsets[1]}, past the end of the file ({size})")
    return header, metadata, data_start


def load_safetensors(path: Any, device: Any = None, *, metadata: bool = False) -> Any:
    """The tensors of a safetensors file, as a dict of arrays on ``device`` (the default
    device if None) whose values stay in the file until a computation reads them; with
    ``metadata=True``, ``(tensors, metadata)``. Only the header is read here; see the
    module's docstring for what is copied when, and the dtypes of the stored formats."""
    target = registry.get(device) if device is not None else registry.default()
    with open(path, "rb") as f:
        header, meta, data_start = read_header(path, f)
        # (a header alone, no tensor data: nothing to map)
        mapping = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if header else None
    out: dict[str, Array] = {}
    if header:
        for name, entry in header.items():
            codec = CODECS[entry["dtype"]]
            if codec.dtype == np.float64 and not target.info.float64:
                raise TypeError(f"load_safetensors: tensor {name!r} is F64 and device "
                                f"{target.name} has no float64")
            shape = tuple(entry["shape"])
            count = int(np.prod(shape, dtype=np.int64)) if shape else 1
            if count == 0:
                from ._creation_functions import zeros
                out[name] = zeros(shape, dtype=codec.dtype, device=target)
                continue
            begin, end = entry["data_offsets"]
            source = FileSource(mapping, data_start + begin, codec, end - begin,
                                os.fspath(path))
            out[name] = Array._new(file_node(source, shape, target))
    return (out, dict(meta)) if metadata else out


# -- writing -----------------------------------------------------------------------------------
def save_safetensors(tensors: Mapping[str, Any], path: Any,
                     metadata: Mapping[str, str] | None = None) -> None:
    """Write ``tensors`` (names to arrays: zyxarray's, NumPy's, array-likes) to ``path`` as a
    safetensors file, with ``metadata`` (strings to strings) in ``__metadata__``. Each array
    is read to the host once; complex128 has no safetensors type and is refused."""
    if not isinstance(tensors, Mapping):
        raise TypeError(f"save_safetensors: expected a mapping of names to arrays, got "
                        f"{type(tensors).__name__}")
    if metadata is not None and not all(isinstance(k, str) and isinstance(v, str)
                                        for k, v in dict(metadata).items()):
        raise TypeError("save_safetensors: metadata must map strings to strings")
    arrays: list[tuple[str, np.ndarray]] = []
    for name, value in tensors.items():
        if not isinstance(name, str) or name == "__metadata__":
            raise ValueError(f"save_safetensors: invalid tensor name {name!r}")
        host = np.ascontiguousarray(np.asarray(value))
        if host.dtype not in _SAVE_NAMES:
            raise TypeError(f"save_safetensors: tensor {name!r} has dtype {host.dtype}, which "
                            f"safetensors cannot store (it stores "
                            f"{', '.join(str(d) for d in _SAVE_NAMES)})")
        arrays.append((name, host.astype(host.dtype.newbyteorder("<"), copy=False)))
    header: dict[str, Any] = {}
    if metadata:
        header["__metadata__"] = dict(metadata)
    offset = 0
    for name, host in arrays:
        header[name] = {"dtype": _SAVE_NAMES[host.dtype.newbyteorder("=")],
                        "shape": list(host.shape), "data_offsets": [offset,
                                                                    offset + host.nbytes]}
        offset += host.nbytes
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)              # (the data starts 8-byte aligned)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for _, host in arrays:
            f.write(host.tobytes())
