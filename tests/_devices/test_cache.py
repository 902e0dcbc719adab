"""The on-disk kernel cache: a second process running the same computation with the same
ZYXARRAY_CACHE_DIR compiles nothing; keys are stable; entries are written atomically."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import child_env
from zyxarray._devices import cache, registry

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import numpy as np, zyxarray as xp
from zyxarray._devices import registry
x = xp.asarray(np.arange(12.0).reshape(3, 4), device="cpu")
y = xp.sum(xp.exp(x.T) * 2 - 1, axis=1) + xp.max(x)
z = xp.where(x > 5, x, -x)[::-1, 1:]
print(np.asarray(y).tolist(), np.asarray(z).tolist())
print("COMPILES", registry.get("cpu").compiles)
"""


def _child(cache_dir: Path) -> tuple[str, int]:
    env = child_env(ROOT, ZYXARRAY_CACHE_DIR=str(cache_dir))
    env.pop("ZYXARRAY_DISK_CACHE", None)
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    values, count = out.stdout.strip().rsplit("\n", 1)
    return values, int(count.split()[1])


@pytest.mark.skipif("cpu" not in registry.devices(), reason="no cpu device")
def test_second_process_compiles_nothing(tmp_path: Path) -> None:
    first_values, first = _child(tmp_path)
    assert first > 0, "the first process compiles its kernels"
    assert list((tmp_path / "cpu").glob("*.so")), "and stores them in ZYXARRAY_CACHE_DIR"
    second_values, second = _child(tmp_path)
    assert second == 0, f"the second process compiled {second} kernel(s)"
    assert second_values == first_values
    assert not [p for p in (tmp_path / "cpu").iterdir() if p.name.startswith(".tmp-")], \
        "no temporary files are left behind"


@pytest.mark.skipif("cpu" not in registry.devices(), reason="no cpu device")
def test_corrupt_entries_are_recompiled(tmp_path: Path) -> None:
    values, _ = _child(tmp_path)
    entries = sorted((tmp_path / "cpu").glob("*.so"))
    assert entries
    entries[0].write_bytes(b"not a shared object")           # a damaged entry
    entries[-1].write_bytes(entries[-1].read_bytes()[:100])   # a truncated one
    again, compiled = _child(tmp_path)
    assert again == values
    assert compiled == len({entries[0], entries[-1]})
    _, third = _child(tmp_path)
    assert third == 0, "the recompiled entries replaced the damaged ones"


VULKAN_CHILD = """
import numpy as np, zyxarray as xp
from zyxarray._lazy.realize import stats
x = xp.asarray(np.arange(12.0, dtype=np.float32).reshape(3, 4), device="vulkan:0")
y = xp.sum(xp.exp(x.T) * 2 - 1, axis=1) + xp.max(x)
z = xp.where(x > 5, xp.sin(x), -x)[::-1, 1:]
print(np.asarray(y).tolist(), np.asarray(z).tolist())
print("RENDERED", stats["compiles"], stats["rendered_hits"])
"""


def _vulkan_child(cache_dir: Path) -> tuple[str, int, int]:
    env = child_env(ROOT, ZYXARRAY_CACHE_DIR=str(cache_dir))
    env.pop("ZYXARRAY_DISK_CACHE", None)
    out = subprocess.run([sys.executable, "-c", VULKAN_CHILD], capture_output=True,
                         text=True, env=env, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    values, counts = out.stdout.strip().rsplit("\n", 1)
    _, built, hits = counts.split()
    return values, int(built), int(hits)


@pytest.mark.skipif("vulkan:0" not in registry.devices(), reason="no vulkan device")
def test_a_second_process_reuses_rendered_spirv(tmp_path: Path) -> None:
    """SPIR-V is emitted in Python (about 3 ms a kernel): the disk keeps each kernel's IR and
    module by structure, so a second process neither lowers nor renders; a damaged entry is
    rendered again and replaced."""
    values, built, hits = _vulkan_child(tmp_path)
    assert built > 0 and hits == 0
    entries = sorted((tmp_path / "rendered").glob("*.pickle"))
    assert len(entries) == built
    again, built2, hits2 = _vulkan_child(tmp_path)
    assert again == values and hits2 == built2 == built
    entries[0].write_bytes(b"not a pickle")
    third, _, hits3 = _vulkan_child(tmp_path)
    assert third == values and hits3 == built - 1
    ir, source = pickle.loads(entries[0].read_bytes())     # (replaced by a good entry)
    assert ir.name and source.binary


@pytest.mark.skipif("vulkan:0" not in registry.devices(), reason="no vulkan device")
def test_a_kernel_the_cache_cannot_keep_still_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    import zyxarray as xp
    from zyxarray._lazy import realize

    def refuse(*args: object, **kwargs: object) -> bytes:
        raise TypeError("cannot pickle this")

    monkeypatch.setattr(realize.pickle, "dumps", refuse)
    h = np.linspace(-2, 2, 7, dtype=np.float32)
    x = xp.asarray(h, device="vulkan:0")
    got = np.asarray(xp.tanh(xp.sin(x) * x) - xp.cos(x * x) * 0.375 + x)
    np.testing.assert_allclose(got, np.tanh(np.sin(h) * h) - np.cos(h * h) * 0.375 + h,
                               rtol=1e-5, atol=1e-6)


def test_rendered_kernels_are_keyed_by_the_code_that_made_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from zyxarray._lazy import realize
    digest = realize._code_digest()
    assert len(digest) == 64 and realize._code_digest() == digest
    c = type("C", (), {"info": "vulkan:0 info", "key": ("g_row", 256)})()
    before = realize._rendered_key(c, "g_row_1", 0)     # type: ignore[arg-type]
    assert before == realize._rendered_key(c, "g_row_1", 0)  # type: ignore[arg-type]
    assert before != realize._rendered_key(c, "g_row_1", 1)  # type: ignore[arg-type]
    monkeypatch.setattr(realize, "_code", "another version")
    assert realize._rendered_key(c, "g_row_1", 0) != before  # type: ignore[arg-type]


def test_key_is_stable_and_separates_parts() -> None:
    assert cache.key("a", "b") == cache.key("a", "b")
    assert cache.key("a", "b") != cache.key("ab", "")
    assert cache.key("a", b"b") == cache.key("a", "b")
    assert len(cache.key("x")) == 40


def test_store_is_atomic_and_lookup_finds_it(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZYXARRAY_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("ZYXARRAY_DISK_CACHE", raising=False)
    digest = cache.key("test entry")
    assert cache.lookup("unit", digest, ".bin") is None
    final = cache.store_bytes("unit", digest, ".bin", b"payload")
    assert final == tmp_path / "unit" / f"{digest}.bin"
    assert cache.lookup("unit", digest, ".bin") == final and final.read_bytes() == b"payload"
    assert [p.name for p in (tmp_path / "unit").iterdir()] == [final.name]
    monkeypatch.setenv("ZYXARRAY_DISK_CACHE", "0")
    assert not cache.enabled() and cache.lookup("unit", digest, ".bin") is None


def _start(cache_dir: Path) -> subprocess.Popen:
    env = child_env(ROOT, ZYXARRAY_CACHE_DIR=str(cache_dir))
    env.pop("ZYXARRAY_DISK_CACHE", None)
    return subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)


@pytest.mark.skipif("cpu" not in registry.devices(), reason="no cpu device")
def test_eight_processes_compiling_the_same_kernels_at_once(tmp_path: Path) -> None:
    """Eight processes start together on an empty cache: each gets the right values, the
    entries they race to store are whole, and a ninth process compiles nothing."""
    children = [_start(tmp_path) for _ in range(8)]
    outputs = [c.communicate(timeout=300) for c in children]
    assert all(c.returncode == 0 for c in children), [e for _, e in outputs]
    values = {out.strip().rsplit("\n", 1)[0] for out, _ in outputs}
    assert len(values) == 1
    again, compiled = _child(tmp_path)
    assert compiled == 0 and {again} == values
    assert not [p for p in (tmp_path / "cpu").iterdir() if p.name.startswith(".tmp-")]


@pytest.mark.skipif("cpu" not in registry.devices(), reason="no cpu device")
def test_an_unwritable_cache_directory_is_warned_about_once(tmp_path: Path) -> None:
    """A cache path that cannot be made (a file stands in its way; the tests run as root,
    for whom permissions do not stop a write): one warning, the right values, and the
    entries of a readable cache are still used."""
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    env = child_env(ROOT, ZYXARRAY_CACHE_DIR=str(blocked / "cache"))
    env.pop("ZYXARRAY_DISK_CACHE", None)
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stderr.count("cannot be written") == 1, out.stderr
    good_values, _ = _child(tmp_path / "good")
    assert out.stdout.strip().rsplit("\n", 1)[0] == good_values
