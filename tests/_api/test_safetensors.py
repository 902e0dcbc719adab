"""safetensors files (``_api/_safetensors.py``, ``_lazy/files.py``): every stored type read
on every device against the ``safetensors`` package and against the formats' definitions,
values left in the file until used, slices that copy only their bytes, files written that
the package reads back, metadata, and clear errors for broken files."""

from __future__ import annotations

import json
import pickle
import struct
from pathlib import Path

import numpy as np
import pytest
from safetensors import TensorSpec, serialize_file
from safetensors.numpy import load_file, save_file

import zyxarray as xp
from tests.helpers import assert_close
from zyxarray._lazy import graph
from zyxarray._lazy.files import stats

BYTES = np.arange(256, dtype=np.uint8)
HALVES = np.arange(65536, dtype=np.uint16)


def _e4m3(b: np.ndarray) -> np.ndarray:
    """float8 e4m3fn from its definition: bias 7, NaN only at S.1111.111, no infinities."""
    s, e, m = b >> 7, (b >> 3) & 15, (b & 7).astype(np.float64)
    v = np.where(e == 0, m * 2.0 ** -9, (1 + m / 8) * 2.0 ** (e.astype(np.float64) - 7))
    v = np.where((e == 15) & (m == 7), np.nan, v)
    return np.where(s == 1, -v, v).astype(np.float32)


def _e2m1(nibbles: np.ndarray) -> np.ndarray:
    s, e, m = nibbles >> 3, (nibbles >> 1) & 3, (nibbles & 1).astype(np.float64)
    v = np.where(e == 0, m * 0.5, (1 + m / 2) * 2.0 ** (e.astype(np.float64) - 1))
    return np.where(s == 1, -v, v).astype(np.float32)


def _finite(codes: np.ndarray, exp_bits: int, man_bits: int, bias: int) -> np.ndarray:
    """A small float format without infinities, from its definition (float64 arithmetic)."""
    codes = codes.astype(np.int64)
    s = codes >> (exp_bits + man_bits)
    e = (codes >> man_bits) & ((1 << exp_bits) - 1)
    m = (codes & ((1 << man_bits) - 1)).astype(np.float64)
    v = np.where(e == 0, m * 2.0 ** (1 - bias - man_bits),
                 (1 + m / 2 ** man_bits) * 2.0 ** (e.astype(np.float64) - bias))
    return np.where(s == 1, -v, v)


def _fnuz(b: np.ndarray, exp_bits: int, man_bits: int, bias: int) -> np.ndarray:
    """AMD's float8 formats: no infinities, no negative zero: 0x80 is the NaN."""
    return np.where(b == 0x80, np.nan, _finite(b, exp_bits, man_bits, bias)).astype(np.float32)


EXPECTED = {
    "bfloat16": (HALVES, (HALVES.astype(np.uint32) << 16).view(np.float32)),
    "float8_e5m2": (BYTES, (BYTES.astype(np.uint16) << 8).view(np.float16).astype(np.float32)),
    "float8_e4m3fn": (BYTES, _e4m3(BYTES)),
    "float8_e8m0fnu": (BYTES, np.where(BYTES == 255, np.nan,
                                       2.0 ** (BYTES.astype(np.float64) - 127)
                                       ).astype(np.float32)),
    "float4_e2m1fn_x2": (BYTES, _e2m1(np.stack([BYTES & 15, BYTES >> 4], -1).ravel())),
    "float8_e4m3fnuz": (BYTES, _fnuz(BYTES, 4, 3, 8)),
    "float8_e5m2fnuz": (BYTES, _fnuz(BYTES, 5, 2, 16)),
}


def _pack6(codes: np.ndarray) -> bytes:
    """6-bit codes as a bit stream, least significant bit first, zero-padded to a byte."""
    bits = ((codes[:, None] >> np.arange(6)) & 1).astype(np.uint8).ravel()
    bits = np.concatenate([bits, np.zeros(-len(bits) % 8, np.uint8)])
    return np.packbits(bits, bitorder="little").tobytes()


@pytest.mark.parametrize("name,exp_bits,man_bits,bias", [("F6_E2M3", 2, 3, 1),
                                                         ("F6_E3M2", 3, 2, 3)])
def test_float6_streams(device: str, tmp_path: Path, name: str, exp_bits: int,
                        man_bits: int, bias: int) -> None:
    """Every 6-bit code, in a tensor whose length is not a multiple of four (the last group
    of three bytes is partial), then a slice with an odd start."""
    codes = np.concatenate([np.arange(64), np.arange(64)[::-1], [5, 37, 63]])   # 131 values
    expected = _finite(codes, exp_bits, man_bits, bias).astype(np.float32)
    data = _pack6(codes) + b"\xff" * 3                   # (a neighbour's bytes after it)
    header = json.dumps({"t": {"dtype": name, "shape": [codes.size],
                               "data_offsets": [0, -(-codes.size * 6 // 8)]},
                         "n": {"dtype": "U8", "shape": [3],
                               "data_offsets": [-(-codes.size * 6 // 8), len(data)]}}).encode()
    path = _raw(tmp_path / "f6.safetensors", header, data)
    t = xp.load_safetensors(path, device=device)["t"]
    _same(np.asarray(t[125:]), expected[125:])             # (the tail first: its padding)
    _same(np.asarray(t[3:11]), expected[3:11])
    _same(np.asarray(t), expected)


def _write_specs(path: Path) -> None:
    specs = {}
    for name, (raw, values) in EXPECTED.items():
        # (the package takes packed float4's storage shape, bytes, and doubles it)
        specs[name] = TensorSpec(dtype=name, shape=[raw.size if "float4" in name else
                                                    values.size],
                                 data_ptr=raw.ctypes.data, data_len=raw.nbytes)
    serialize_file(specs, str(path))


def _same(got: np.ndarray, expected: np.ndarray, subnormals_flushed: bool = False) -> None:
    if subnormals_flushed:           # (a device that flushes float32 subnormals to zero)
        tiny = np.abs(expected) < np.finfo(np.float32).tiny
        expected = np.where(tiny, np.copysign(0.0, expected), expected).astype(np.float32)
        got = np.where(np.abs(got) < np.finfo(np.float32).tiny, np.copysign(0.0, got), got)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(np.signbit(got[~np.isnan(got)]),
                                  np.signbit(expected[~np.isnan(expected)]))


def test_every_stored_format_decodes_exactly_on_the_device(device: str, tmp_path: Path
                                                            ) -> None:
    from tests.helpers import flushes_float32_subnormals
    path = tmp_path / "formats.safetensors"
    _write_specs(path)
    tensors = xp.load_safetensors(path, device=device)
    assert set(tensors) == set(EXPECTED)
    flushed = flushes_float32_subnormals(device)
    for name, (_, expected) in EXPECTED.items():
        x = tensors[name]
        assert x.dtype == xp.float32 and x.shape == expected.shape and \
            x.device == xp.Device(device)
        _same(np.asarray(x), expected, flushed)


def test_plain_types_round_trip_with_the_package(device: str, tmp_path: Path) -> None:
    values = {"f32": np.arange(12, dtype=np.float32).reshape(3, 4) - 5.5,
              "i64": np.array([[1, -2**40], [3, 4]], np.int64), "u8": BYTES[:7],
              "i8": np.array([-128, 127], np.int8), "u16": HALVES[-3:], "i16": np.array([-7],
                                                                                 np.int16),
              "u32": np.array([2**32 - 1], np.uint32), "i32": np.array([-5, 5], np.int32),
              "u64": np.array([2**63], np.uint64), "f16": np.array([1.5, -0.0, np.inf],
                                                                  np.float16),
              "b": np.array([True, False, True]), "c64": np.array([1 + 2j], np.complex64),
              "scalar": np.array(3.25, np.float32), "empty": np.zeros((0, 3), np.float32)}
    if xp.Device(device).info.float64:
        values["f64"] = np.array([np.pi, -1e300])
    theirs = tmp_path / "theirs.safetensors"
    save_file(values, str(theirs), metadata={"made_by": "safetensors"})
    loaded, meta = xp.load_safetensors(theirs, device=device, metadata=True)
    assert meta == {"made_by": "safetensors"}
    for k, v in values.items():
        assert_close(loaded[k], v)
        assert str(np.asarray(loaded[k]).dtype) == str(v.dtype)
    ours = tmp_path / "ours.safetensors"
    xp.save_safetensors(loaded, ours, metadata={"k": "v", "n": "1"})
    back = load_file(str(ours))
    assert set(back) == set(values)
    for k, v in values.items():
        np.testing.assert_array_equal(back[k], v)
        assert back[k].dtype == v.dtype
    with open(ours, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        assert json.loads(f.read(n))["__metadata__"] == {"k": "v", "n": "1"}
        assert n % 8 == 0


def test_values_stay_in_the_file_until_read_and_slices_copy_their_bytes(
        device: str, tmp_path: Path) -> None:
    rows = np.arange(4000, dtype=np.float32).reshape(1000, 4)
    path = tmp_path / "big.safetensors"
    save_file({"w": rows, "v": rows[:10].copy()}, str(path))
    before = stats["file_bytes"]
    t = xp.load_safetensors(path, device=device)
    w = t["w"]
    assert stats["file_bytes"] == before                 # opening reads only the header
    assert w._node.op == "FILE" and w._node in graph.pending_files
    part = w[10:20] * 2                                  # lazy: nothing read yet
    assert stats["file_bytes"] == before
    assert_close(part, rows[10:20] * 2)
    assert stats["file_bytes"] - before == 10 * 4 * 4    # exactly ten rows
    assert w._node.op == "FILE"                          # the rest is still in the file
    col = w[5:8, 1]
    assert_close(col, rows[5:8, 1])
    assert stats["file_bytes"] - before == 10 * 16 + (2 * 4 + 1) * 4   # what the column spans
    assert_close(xp.sum(w, axis=0), rows.sum(axis=0))    # used whole: read whole, once
    total = stats["file_bytes"]
    assert_close(w[900:], rows[900:])
    assert stats["file_bytes"] == total and w._node.op == "BUFFER"


def test_a_slice_of_a_decoded_format_copies_only_its_bytes(device: str, tmp_path: Path
                                                           ) -> None:
    path = tmp_path / "formats.safetensors"
    _write_specs(path)
    t = xp.load_safetensors(path, device=device)
    before = stats["file_bytes"]
    got = np.asarray(t["bfloat16"][0x3F80:0x3F90])
    assert stats["file_bytes"] - before == 32
    _same(got, EXPECTED["bfloat16"][1][0x3F80:0x3F90])
    before = stats["file_bytes"]
    got = np.asarray(t["float4_e2m1fn_x2"][3:8])           # odd start: bytes 1..3
    assert stats["file_bytes"] - before == 3
    _same(got, EXPECTED["float4_e2m1fn_x2"][1][3:8])
    got = np.asarray(t["float8_e4m3fn"][::-3])
    _same(got, EXPECTED["float8_e4m3fn"][1][::-3])


def test_writes_views_and_pickling_of_file_arrays(device: str, tmp_path: Path) -> None:
    rows = np.arange(12, dtype=np.float32).reshape(3, 4)
    path = tmp_path / "w.safetensors"
    save_file({"w": rows}, str(path))
    x = xp.load_safetensors(path, device=device)["w"]
    v = x[1]
    v[:] = 0                                              # a write through a view
    expected = rows.copy()
    expected[1] = 0
    assert_close(x, expected)
    y = xp.load_safetensors(path, device=device)["w"]
    y[0, 0] = 99
    assert_close(y[0], np.array([99, 1, 2, 3], np.float32))
    assert_close(xp.load_safetensors(path, device=device)["w"], rows)   # the file is as it was
    z = pickle.loads(pickle.dumps(xp.load_safetensors(path, device=device)["w"]))
    assert_close(z, rows)
    assert z.device == xp.Device(device)


def _raw(path: Path, header: bytes, data: bytes = b"") -> Path:
    path.write_bytes(struct.pack("<Q", len(header)) + header + data)
    return path


@pytest.mark.parametrize("header,data,message", [
    (b"", b"", "shorter than the 8-byte header length"),
    (None, b"", "a header length of"),
    (b"[1, 2]", b"", "not a JSON object"),
    (b"{not json", b"", "not JSON"),
    (b'{"t": {"dtype": "F33", "shape": [1], "data_offsets": [0, 4]}}', b"\0" * 4,
     "unknown dtype 'F33'"),
    (b'{"t": {"dtype": "F32", "shape": [2], "data_offsets": [0, 4]}}', b"\0" * 4,
     "is 8 bytes"),
    (b'{"t": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}', b"", "past the end"),
    (b'{"t": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}}', b"\0" * 4, "shape"),
    (b'{"t": {"dtype": "F32", "shape": [1]}}', b"\0" * 4, "needs dtype, shape and"),
    (b'{"__metadata__": {"a": 1}}', b"", "strings to strings"),
])
def test_broken_files_are_refused_clearly(tmp_path: Path, header: bytes | None, data: bytes,
                                          message: str) -> None:
    path = tmp_path / "bad.safetensors"
    if header == b"":
        path.write_bytes(b"\1\2")
    elif header is None:
        path.write_bytes(struct.pack("<Q", 10**12) + b"{}")
    else:
        _raw(path, header, data)
    with pytest.raises(ValueError, match=r"load_safetensors: .*bad\.safetensors") as e:
        xp.load_safetensors(path)
    assert message in str(e.value)


def test_saving_refuses_what_safetensors_cannot_hold(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="save_safetensors: tensor 'z' has dtype complex128"):
        xp.save_safetensors({"z": np.array([1j])}, tmp_path / "z.safetensors")
    with pytest.raises(TypeError, match="strings to strings"):
        xp.save_safetensors({"a": np.ones(1)}, tmp_path / "a.safetensors", metadata={"a": 1})
    with pytest.raises(TypeError, match="mapping"):
        xp.save_safetensors([np.ones(1)], tmp_path / "a.safetensors")


def test_a_file_larger_than_the_devices_memory_is_used_slice_by_slice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 64 MiB tensor on a cpu device allowed 24 MiB more than it holds: reading it whole
    fails with a MemoryError naming the device; slice by slice, each slice freed with its
    array, it is summed."""
    rows, cols = 4096, 4096                                # float32: 64 MiB
    path = tmp_path / "big.safetensors"
    header = json.dumps({"w": {"dtype": "F32", "shape": [rows, cols],
                               "data_offsets": [0, rows * cols * 4]}}).encode()
    header += b" " * (-len(header) % 8)
    with open(path, "wb") as f:                           # (sparse: the data reads as 0)
        f.write(struct.pack("<Q", len(header)) + header)
        f.truncate(8 + len(header) + rows * cols * 4)
        f.seek(8 + len(header) + 5 * cols * 4)            # one non-zero value, in row 5
        f.write(np.float32(2.5).tobytes())
    cpu = xp.Device("cpu")
    pool = cpu.pool
    monkeypatch.setattr(pool, "capacity", pool.in_use + 24 * 2**20)
    w = xp.load_safetensors(path, device="cpu")["w"]
    with pytest.raises(MemoryError, match="cpu"):
        float(xp.sum(w))
    total = 0.0
    for start in range(0, rows, 512):                     # 8 MiB slices
        total += float(xp.sum(w[start:start + 512]))
    assert total == 2.5
