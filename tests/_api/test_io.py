"""Files and buffers (``zyxarray/_api/_io.py``) against NumPy 2 on every device: .npy/.npz
files both ways (NumPy writes, zyxarray reads and the reverse), memory maps, text files, raw
binary files and buffers; paths, pathlib paths and open files; the refusals (pickles, object
and structured dtypes, write-through memory maps)."""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import assert_close
from zyxarray._api._dtypes import DType
from zyxarray._api._io import tofile
from zyxarray._devices import registry

BASE = np.arange(-10, 14).reshape(4, 6)


def _views(device: str) -> list[tuple[xp.Array, np.ndarray]]:
    """(zyxarray array on ``device``, the same values in NumPy): contiguous, transposed,
    stepped and reversed, in a few dtypes."""
    out = []
    for dtype in ("float32", "int16", "complex128", "bool", "uint64"):
        host = (BASE * 3 % 7).astype(dtype)
        x = xp.asarray(host, device=device)
        out += [(x, host), (x.T, host.T), (x[::2, ::-1], host[::2, ::-1])]
    return out


def _np(kw: dict) -> dict:
    """Keywords for NumPy's function: zyxarray dtypes as NumPy's."""
    return {k: v.np if isinstance(v, DType) else v for k, v in kw.items()}


def _on(device: str, result: xp.Array, expected: np.ndarray) -> None:
    assert isinstance(result, xp.Array)
    assert result.device.name == device
    assert_close(result, expected)


# -- .npy ----------------------------------------------------------------------------------
def test_save_then_numpy_and_zyxarray_load(device: str, tmp_path: Path) -> None:
    for i, (x, host) in enumerate(_views(device)):
        path = tmp_path / f"a{i}.npy"
        xp.save(path, x)
        assert_close(np.load(path), host)
        _on(device, xp.load(path, device=device), host)
    # a str path gets NumPy's suffix; an open file is written where it stands
    xp.save(str(tmp_path / "plain"), xp.asarray([1.5, 2.5], device=device))
    assert_close(np.load(tmp_path / "plain.npy"), np.array([1.5, 2.5]))
    buf = io.BytesIO()
    buf.write(b"xx")
    xp.save(buf, xp.asarray(BASE, device=device))
    buf.seek(2)
    assert_close(np.load(buf), BASE)
    # host data is saved as NumPy would save it
    xp.save(tmp_path / "list.npy", [[1, 2], [3, 4]])
    assert_close(np.load(tmp_path / "list.npy"), np.array([[1, 2], [3, 4]]))


def test_load_numpy_files(device: str, tmp_path: Path) -> None:
    cases = {
        "c": BASE.astype(np.float64),
        "f": np.asfortranarray(BASE.astype(np.int32)),
        "big_endian": BASE.astype(">f8"),
        "scalar": np.array(2.5 + 1j, dtype=np.complex64),
        "empty": np.zeros((0, 3), dtype=np.uint8),
        "bool3d": (BASE.reshape(2, 3, 4) % 3 == 0),
    }
    for name, host in cases.items():
        np.save(tmp_path / f"{name}.npy", host)
        want = host.astype(host.dtype.newbyteorder("="))
        _on(device, xp.load(tmp_path / f"{name}.npy", device=device), want)
        with open(tmp_path / f"{name}.npy", "rb") as f:
            _on(device, xp.load(f, device=device), want)
        _on(device, xp.load(str(tmp_path / f"{name}.npy"), mmap_mode="r", device=device), want)
    b = io.BytesIO()
    np.save(b, BASE)
    b.seek(0)
    _on(device, xp.load(b, device=device), BASE)
    default = xp.load(tmp_path / "c.npy")
    assert default.device is registry.default()


def test_load_mmap_modes(device: str, tmp_path: Path) -> None:
    path = tmp_path / "m.npy"
    np.save(path, BASE.astype(np.float32))
    for mode in ("r", "c"):
        x = xp.load(path, mmap_mode=mode, device=device)
        _on(device, x, BASE.astype(np.float32))
    # 'c': writes change the array, never the file
    x = xp.load(path, mmap_mode="c", device=device)
    x[0] = -1.0
    assert float(x[0, 0]) == -1.0
    assert_close(np.load(path), BASE.astype(np.float32))
    for mode in ("r+", "w+"):
        with pytest.raises(ValueError, match="writes through"):
            xp.load(path, mmap_mode=mode, device=device)
    for mode in ("x", "readonly"):          # (NumPy's load takes the short names only)
        with pytest.raises(ValueError, match="mmap_mode"):
            xp.load(path, mmap_mode=mode, device=device)


def test_refusals(device: str, tmp_path: Path) -> None:
    np.save(tmp_path / "obj.npy", np.array([1, None], dtype=object), allow_pickle=True)
    for allow in (False, True):
        with pytest.raises(ValueError, match="never unpickles"):
            xp.load(tmp_path / "obj.npy", allow_pickle=allow, device=device)
    with open(tmp_path / "p.pkl", "wb") as f:
        pickle.dump([1, 2], f)
    with pytest.raises(ValueError, match="never unpickles"):
        xp.load(tmp_path / "p.pkl", allow_pickle=True, device=device)
    np.save(tmp_path / "long.npy", np.ones(3, np.longdouble))
    with pytest.raises(TypeError, match="float128"):
        xp.load(tmp_path / "long.npy", device=device)
    np.save(tmp_path / "rec.npy", np.zeros(2, dtype=[("a", "i4"), ("b", "f8")]))
    with pytest.raises(TypeError, match="structured"):
        xp.load(tmp_path / "rec.npy", device=device)
    with pytest.raises(ValueError, match="object"):
        xp.save(tmp_path / "o.npy", np.array([1, "a"], dtype=object))
    with pytest.raises(TypeError, match="float128"):
        xp.save(tmp_path / "h.npy", np.ones(2, np.longdouble))
    with pytest.raises(FileNotFoundError):
        xp.load(tmp_path / "missing.npy", device=device)


# -- .npz ----------------------------------------------------------------------------------
def test_savez_both_ways(device: str, tmp_path: Path) -> None:
    x = xp.asarray(BASE.astype(np.float32), device=device)
    y = xp.asarray(BASE % 2 == 0, device=device)
    for save, name in ((xp.savez, "a.npz"), (xp.savez_compressed, "b.npz")):
        save(tmp_path / name, x.T, [1, 2, 3], flags=y[1:, ::2])
        with np.load(tmp_path / name) as f:
            assert sorted(f.files) == ["arr_0", "arr_1", "flags"]
            assert_close(f["arr_0"], BASE.astype(np.float32).T)
            assert_close(f["arr_1"], np.array([1, 2, 3]))
            assert_close(f["flags"], (BASE % 2 == 0)[1:, ::2])
    np.savez(tmp_path / "n.npz", BASE, w=BASE.astype(">c16"), e=np.zeros((2, 0)))
    with xp.load(tmp_path / "n.npz", device=device) as f, np.load(tmp_path / "n.npz") as n:
        assert f.files == n.files and sorted(f.files) == ["arr_0", "e", "w"]
        assert list(f) == list(f.keys()) == f.files
        assert len(f) == 3 and "w" in f and "v" not in f
        _on(device, f["arr_0"], BASE)
        _on(device, f["w"], BASE.astype(np.complex128))
        _on(device, f.get("e"), np.zeros((2, 0)))
        assert f.get("v") is None
        for key, value in f.items():
            assert value.device.name == device, key
        with pytest.raises(KeyError):
            f["v"]
    assert f.zip is None         # closed by the with block
    f = xp.load(tmp_path / "n.npz", device=device)
    f.close()
    with pytest.raises(AttributeError):
        f["arr_0"]
    np.savez(tmp_path / "o.npz", o=np.array([None], dtype=object))
    with xp.load(tmp_path / "o.npz", device=device) as f, \
            pytest.raises(ValueError, match="never unpickles"):
        f["o"]


# -- memory maps -----------------------------------------------------------------------------
def test_memmap(device: str, tmp_path: Path) -> None:
    path = tmp_path / "raw.bin"
    data = np.arange(26, dtype=np.int32)
    data.tofile(path)
    for dtype, shape, offset, order in (("<i4", (4, 6), 8, "C"), (">i4", (3, 4), 4, "F"),
                                        (np.int16, None, 2, "C"), (xp.uint8, 7, 0, "C")):
        want = np.memmap(path, mode="r", shape=shape, offset=offset, order=order,
                         **_np(dict(dtype=dtype)))
        for mode in ("r", "readonly", "c", "copyonwrite"):
            m = xp.memmap(path, dtype=dtype, mode=mode, shape=shape, offset=offset, order=order,
                          device=device)
            assert isinstance(m, xp.memmap) and isinstance(m, xp.Array)
            _on(device, m, np.asarray(want).astype(want.dtype.newbyteorder("=")))
            assert m.mode == mode[0] and m.offset == offset    # (long names: 'r', 'c')
            assert m.filename == want.filename
            m.flush()
        del want
    r = xp.memmap(str(path), dtype=np.int32, mode="r", shape=(2, 13), device=device)
    with pytest.raises(ValueError, match="read-only"):
        r[0, 0] = 5
    with pytest.raises(ValueError, match="read-only"):
        r[1][2:4] = 5
    with pytest.raises(ValueError, match="read-only"):
        r += 1
    _on(device, r * 2, data.reshape(2, 13) * 2)
    c = xp.memmap(path, dtype=np.int32, mode="c", shape=(2, 13), device=device)
    c[0, :3] = -7
    want = data.reshape(2, 13).copy()
    want[0, :3] = -7
    _on(device, c, want)
    assert_close(np.fromfile(path, dtype=np.int32), data)    # the file is untouched
    with open(path, "rb") as f:
        _on(device, xp.memmap(f, dtype=np.int32, mode="r", device=device), data)
    for mode in ("r+", "w+", "readwrite", "write"):
        with pytest.raises(ValueError, match="writes through"):
            xp.memmap(path, dtype=np.int32, mode=mode, device=device)
    with pytest.raises(ValueError, match="writes through"):
        xp.memmap(path)                  # NumPy's default mode is 'r+'
    with pytest.raises(ValueError, match="mode must be"):
        xp.memmap(path, mode="rw")
    with pytest.raises(TypeError, match="float128"):
        xp.memmap(path, dtype=np.longdouble, mode="r")


# -- text ----------------------------------------------------------------------------------
TEXT = """# a header line
1, 2.5, 3
4, 5, 6e1  # trailing comment
-7, 8, 9
10, 11, 12
"""


def test_loadtxt(device: str, tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text(TEXT)
    calls = [dict(delimiter=","), dict(delimiter=",", usecols=(0, 1), dtype=np.int32,
                                       skiprows=2),
             dict(delimiter=",", usecols=1, ndmin=2, max_rows=2, skiprows=1),
             dict(delimiter=",", dtype=xp.float32), dict(delimiter=",", unpack=True)]
    for kw in calls:
        want = np.loadtxt(path, **_np(kw))  # type: ignore[call-overload]
        _on(device, xp.loadtxt(path, device=device, **kw), want)
        _on(device, xp.loadtxt(io.StringIO(TEXT), device=device, **kw), want)
        _on(device, xp.loadtxt(TEXT.splitlines(), device=device, **kw), want)
    a, _, c = xp.loadtxt(str(path), delimiter=",", unpack=True, device=device)
    _on(device, a, np.array([1.0, 4.0, -7.0, 10.0]))
    _on(device, c, np.array([3.0, 60.0, 9.0, 12.0]))
    _on(device, xp.loadtxt(io.StringIO("1 2\n% x\n3 4"), comments="%", device=device),
        np.array([[1.0, 2.0], [3.0, 4.0]]))
    like = xp.asarray([0], device=device)
    assert xp.loadtxt(io.StringIO("1 2"), like=like).device.name == device
    with pytest.raises(TypeError, match="structured"):
        xp.loadtxt(path, delimiter=",", dtype=[("a", "f8"), ("b", "f8"), ("c", "f8")])
    with pytest.raises(TypeError, match="not supported"):
        xp.loadtxt(path, delimiter=",", dtype=str)
    with pytest.raises(ValueError):
        xp.loadtxt(io.StringIO("1 2\n3"), device=device)


def test_genfromtxt(device: str, tmp_path: Path) -> None:
    text = "x y z\n1,,3\n4,5,N/A\n7,8,9\n"
    path = tmp_path / "g.csv"
    path.write_text(text)
    calls = [dict(delimiter=",", skip_header=1),
             dict(delimiter=",", skip_header=1, missing_values="N/A", filling_values=-1),
             dict(delimiter=",", skip_header=1, usecols=(0, 2), dtype=np.int64,
                  filling_values=0),
             dict(delimiter=",", skip_header=2, dtype=None, missing_values="N/A"),
             dict(delimiter=",", skip_header=1, unpack=True, max_rows=2)]
    for kw in calls:
        want = np.genfromtxt(path, **kw)  # type: ignore[call-overload]
        _on(device, xp.genfromtxt(path, device=device, **kw), want)
        _on(device, xp.genfromtxt(io.StringIO(text), device=device, **kw), want)
    with pytest.raises(TypeError, match="names="):
        xp.genfromtxt(io.StringIO("a b\n1 2"), names=True)
    with pytest.raises(TypeError, match="different types"):
        xp.genfromtxt(io.StringIO("1 2.5\n3 4"), dtype=None)
    with pytest.raises(TypeError, match="masked"):
        xp.genfromtxt(io.StringIO("1 2"), usemask=True)
    with pytest.raises(TypeError, match="structured"):
        xp.genfromtxt(io.StringIO("1 2"), dtype="i4,f8")


def test_savetxt(device: str, tmp_path: Path) -> None:
    host = (BASE / 3.0).astype(np.float64)
    x = xp.asarray(host, device=device)
    calls = [dict(), dict(fmt="%.3f", delimiter=",", header="a,b", footer="end",
                          comments="// "),
             dict(fmt="%d", newline=";\n"), dict(fmt=["%.1e", "%g", "%.2f", "%5.1f"])]
    for kw in calls:
        for mine, theirs in ((x.T[:, :6], host.T[:, :6]), (x[1], host[1])):
            if isinstance(kw.get("fmt"), list) and mine.ndim == 1:
                continue
            a, b = io.StringIO(), io.StringIO()
            xp.savetxt(a, mine, **kw)
            np.savetxt(b, theirs, **kw)  # type: ignore[arg-type]
            assert a.getvalue() == b.getvalue()
    xp.savetxt(tmp_path / "s.txt", x[::-1])
    np.savetxt(tmp_path / "n.txt", host[::-1])
    assert (tmp_path / "s.txt").read_bytes() == (tmp_path / "n.txt").read_bytes()
    _on(device, xp.loadtxt(tmp_path / "s.txt", device=device), host[::-1])
    with pytest.raises(ValueError):
        xp.savetxt(io.StringIO(), xp.zeros((2, 2, 2), device=device))


# -- raw bytes -------------------------------------------------------------------------------
def test_tofile_fromfile(device: str, tmp_path: Path) -> None:
    for i, (x, host) in enumerate(_views(device)[:9]):
        mine, theirs = tmp_path / f"x{i}.bin", tmp_path / f"n{i}.bin"
        tofile(x, mine)
        host.tofile(theirs)
        assert mine.read_bytes() == theirs.read_bytes()
        _on(device, xp.fromfile(mine, dtype=host.dtype, device=device), host.reshape(-1))
    x = xp.asarray(BASE / 4, device=device)
    tofile(x[:, 1::2], str(tmp_path / "t.txt"), sep=", ", format="%.2f")
    (BASE / 4)[:, 1::2].tofile(tmp_path / "u.txt", sep=", ", format="%.2f")
    assert (tmp_path / "t.txt").read_text() == (tmp_path / "u.txt").read_text()
    _on(device, xp.fromfile(tmp_path / "t.txt", sep=",", device=device),
        np.fromfile(tmp_path / "u.txt", sep=","))
    with open(tmp_path / "f.bin", "wb") as f:
        tofile(xp.asarray(BASE.astype(np.int64), device=device), f)
    for kw in (dict(dtype=np.int64), dict(dtype=np.int32, count=5, offset=8),
               dict(dtype=xp.uint16, offset=16), dict()):
        want = np.fromfile(tmp_path / "f.bin", **_np(kw))  # type: ignore[call-overload]
        _on(device, xp.fromfile(tmp_path / "f.bin", device=device, **kw), want)
        with open(tmp_path / "f.bin", "rb") as f:
            _on(device, xp.fromfile(f, device=device, **kw), want)
    with pytest.raises(TypeError, match="structured"):
        xp.fromfile(tmp_path / "f.bin", dtype="i4,i4")


def test_frombuffer_fromiter_fromstring(device: str) -> None:
    raw = BASE.astype(np.int32).tobytes()
    for buf in (raw, bytearray(raw), memoryview(raw), BASE.astype(np.int32)):
        _on(device, xp.frombuffer(buf, dtype=np.int32, device=device),
            BASE.astype(np.int32).reshape(-1))
    for kw in (dict(dtype=np.uint8, count=6, offset=3), dict(dtype=">i2", offset=4),
               dict(dtype=xp.complex64), dict()):
        want = np.frombuffer(raw, **_np(kw))  # type: ignore[call-overload]
        _on(device, xp.frombuffer(raw, device=device, **kw),
            want.astype(want.dtype.newbyteorder("=")))
    with pytest.raises(ValueError):
        xp.frombuffer(b"abc", dtype=np.int32, device=device)
    _on(device, xp.fromiter((i * i for i in range(6)), dtype=np.int16, device=device),
        np.arange(6, dtype=np.int16) ** 2)
    _on(device, xp.fromiter(iter([1.5, 2.5, 3.5]), dtype=xp.float32, count=2, device=device),
        np.array([1.5, 2.5], np.float32))
    _on(device, xp.fromiter([], dtype=float, device=device), np.zeros(0))
    with pytest.raises(ValueError):
        xp.fromiter([1, 2], dtype=np.int8, count=3, device=device)
    _on(device, xp.fromstring("1, 2,3.5", sep=",", device=device), np.array([1.0, 2.0, 3.5]))
    _on(device, xp.fromstring("4 5 6", dtype=np.uint8, count=2, sep=" ", device=device),
        np.array([4, 5], np.uint8))
    with pytest.raises(ValueError):
        xp.fromstring(b"\x00\x01", dtype=np.uint8, sep="", device=device)
    like = xp.asarray([0], device=device)
    assert xp.frombuffer(raw, dtype=np.int32, like=like).device.name == device
