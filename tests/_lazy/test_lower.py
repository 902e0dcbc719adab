"""Lowering: one compiled kernel per *structure*, not per shape (ARCHITECTURE.md, decision
2). Sizes, strides, offsets and constants are arguments, so new shapes of a known structure
cost no compile."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import assert_close
from zyxarray._lazy import realize


def _compiles() -> int:
    return realize.stats["compiles"]


def test_new_shapes_of_one_structure_compile_once(device: str) -> None:
    def f(x: xp.Array) -> xp.Array:
        return xp.tanh(x * 0.37) - x          # an expression no other test builds

    results = []
    for shape in [(7,), (3, 5), (2, 3, 4), (1000,), (0,), (1, 1, 9)]:
        a = np.linspace(-2, 2, int(np.prod(shape))).reshape(shape)
        results.append((f(xp.asarray(a, device=device)), np.tanh(a * 0.37) - a))
    before = None
    for i, (x, want) in enumerate(results):
        np.asarray(x)
        if i == 0:
            before = _compiles()
        assert_close(x, want, rtol=1e-12, atol=1e-15)
    assert _compiles() == before, "contiguous shapes of any rank share one kernel"


def test_constants_are_arguments(device: str) -> None:
    x = xp.asarray(np.arange(10.0), device=device)
    np.asarray(xp.exp(x) * 0.123 + 4.5)
    before = _compiles()
    for c in (1.0, -2.5, 1e10, 0.0):
        y = xp.exp(x) * c + (c * 2)
        assert_close(y, np.exp(np.arange(10.0)) * c + c * 2, rtol=1e-12)
    assert _compiles() == before


def test_slices_with_other_offsets_and_steps_reuse_the_kernel(device: str) -> None:
    base = np.arange(200.0).reshape(10, 20)
    x = xp.asarray(base, device=device)
    np.asarray(xp.sqrt(x[1:5, 2:18:3]))
    before = _compiles()
    # (keys whose rows do not merge into one axis: step * count != 20, the row stride; a
    # merged pair of axes is another structure, of lower rank)
    for key in [(slice(0, 9), slice(1, 20, 3)), (slice(3, 10), slice(0, 19, 6)),
                (slice(2, 4), slice(4, 16, 4)), (slice(9, 0, -2), slice(19, 0, -7))]:
        assert_close(xp.sqrt(x[key]), np.sqrt(base[key]), rtol=1e-15)
    assert _compiles() == before


def test_reductions_of_any_length_reuse_the_kernel(device: str) -> None:
    """Lengths never make new kernels, except through the strategy (on GPUs a short
    reduction runs in one work item, a long one in a work-group: at most one kernel each)."""
    np.asarray(xp.sum(xp.asarray(np.ones((3, 7)), device=device) * 3, axis=1))
    before = _compiles()
    strategies = set()
    for shape in [(5, 11), (2, 2), (40, 3), (2, 100)]:     # (a size-1 axis would be dropped)
        a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
        y = xp.sum(xp.asarray(a, device=device) * 3, axis=1)
        strategies |= {k.strategy for k in xp.explain(y)}
        assert_close(y, (a * 3).sum(axis=1), rtol=1e-12)
    assert _compiles() - before <= len(strategies) - 1


# -- thread-style strategies (GPU devices), checked without a GPU ------------------------------
def _thread_strategy(y: xp.Array) -> tuple[str, object]:
    from zyxarray._devices.base import DeviceInfo
    from zyxarray._lazy.lower import canonicalize, lower
    from zyxarray._lazy.schedule import schedule

    info = DeviceInfo(name="gpu:test", kind="test", language="ir", style="threads",
                      max_work_group=1024, simd_lanes=1)
    (plan,) = schedule([y._node.base()])
    c = canonicalize(plan, info)
    return c.strategy, lower(c, "k")


def test_thread_strategies_follow_the_layout() -> None:
    x = xp.asarray(np.ones((64, 512), np.float32), device="cpu")
    cases = {
        "g_elementwise": xp.exp(x) * 2,
        "g_row": xp.sum(x, axis=1),           # reduce the contiguous axis: a group per row
        "g_column": xp.sum(x, axis=0),        # keep the contiguous axis: groups of columns
        "g_serial": xp.sum(x[:, :5], axis=1),  # short reductions: one work item per output
        "g_tile": x[:, :64] + x[:, :64].T,   # a transposed read: 32 x 32 squares
        "g_scan": xp.cumulative_sum(x, axis=1),          # a work-group per line, in tiles
        "g_scan_serial": xp.cumulative_sum(x, axis=0),   # strided lines: an item per line
    }
    for want, y in cases.items():
        strategy, ir = _thread_strategy(y)
        assert strategy == want
        ops = [ins.op.value for ins in ir.instrs]
        assert "SPECIAL" in ops and ("IF" in ops or "GROUP_REDUCE" in ops)
        assert ("GROUP_SCAN" in ops) == (want == "g_scan")
        # without launch bounds a group has 256 work items, a row's group about one per 8
        # elements (512 here)
        assert ir.meta["local_size"] == (64 if want == "g_row" else 256)
        assert ir.meta["groups_arg"] < ir.n_ints


def test_few_long_columns_are_split_over_groups(device: str) -> None:
    """A column reduction with too few column groups to fill a GPU (k-means' counts: 50,000
    x 8, one work-group of 1024 items) is split: each column's rows over several groups,
    whose partial results a second kernel combines (``g_column_split``); wide ones stay
    ``g_column``. Values are NumPy's on every device, epilogue and several reductions
    included."""
    from zyxarray._devices.base import DeviceInfo
    from zyxarray._lazy.lower import canonicalize, phases, scratch
    from zyxarray._lazy.schedule import schedule

    info = DeviceInfo(name="gpu:test", kind="test", language="ir", style="threads",
                      max_work_group=1024, simd_lanes=1, compute_units=132)
    rng = np.random.default_rng(7)
    a = rng.standard_normal((50_000, 8))
    x = xp.asarray(a, device=device)
    for y, want in [(xp.sum(x, axis=0), a.sum(axis=0)),
                    (xp.mean(x, axis=0) + xp.max(x, axis=0), a.mean(axis=0) + a.max(axis=0)),
                    (xp.sum(x[:, 2:5] * 2, axis=0) / xp.sum(x[:, 2:5] > 0, axis=0),
                     (a[:, 2:5] * 2).sum(axis=0) / (a[:, 2:5] > 0).sum(axis=0))]:
        (plan,) = schedule([y._node.base()])
        c = canonicalize(plan, info)
        assert c.strategy == "g_column_split" and phases(c) == 2
        assert all(n >= 2 * 8 for _, n in scratch(c))      # (splits x outputs partials)
        assert_close(y, want, rtol=1e-12)
    n = np.arange(3 * 4000 * 5, dtype=np.int64).reshape(3, 4000, 5) % 7
    assert_close(xp.sum(xp.asarray(n, device=device), axis=1), n.sum(axis=1), rtol=0)
    wide = xp.sum(xp.asarray(np.ones((64, 8192)), device=device), axis=0)
    (plan,) = schedule([wide._node.base()])
    assert canonicalize(plan, info).strategy == "g_column"


def test_matrix_products_are_register_blocked_on_thread_devices() -> None:
    """A sum over one axis of a product whose operands each ignore one kept axis (a matrix
    product, its operands loads or fused elementwise expressions, any epilogue) is
    ``g_matmul``; a product that is not one (a row-wise dot, a tiny size) is not."""
    rng = np.random.default_rng(0)
    a = xp.asarray(rng.standard_normal((64, 48)).astype(np.float32), device="cpu")
    b = xp.asarray(rng.standard_normal((48, 40)).astype(np.float32), device="cpu")

    def mm(p: xp.Array, q: xp.Array) -> xp.Array:     # (as matmul builds it without BLAS)
        return xp.sum(p[..., :, :, None] * q[..., None, :, :], axis=-2)

    for y in (mm(a, b), xp.maximum(mm(a, b) + 1, 0), mm(a * 2 + 1, b - 1), mm(a, b[:, :20])):
        strategy, ir = _thread_strategy(y)
        assert strategy == "g_matmul"
        acc = [ins for ins in ir.instrs if ins.op.value == "ACC"]
        assert len(acc) == 1 and acc[0].arg[1] == 16          # a 4 x 4 block per item
    for y in (xp.sum(a * a, axis=1), mm(a[:8, :8], b[:8]), mm(a, b[:, :1])):
        assert _thread_strategy(y)[0] != "g_matmul"


def test_matrix_products_match_numpy(device: str) -> None:
    """Blocks past the edges (sizes not multiples of 4), batches, broadcast batches,
    transposed operands, fused producers and epilogues, integers, on every device."""
    rng = np.random.default_rng(4)
    for sa, sb in (((70, 53), (53, 45)), ((3, 33, 17), (17, 19)), ((2, 1, 20, 18), (3, 18, 21))):
        for dtype in (np.float32, np.float64, np.int32):
            ha = (rng.standard_normal(sa) * 4).astype(dtype)
            hb = (rng.standard_normal(sb) * 4).astype(dtype)
            x, y = xp.asarray(ha, device=device), xp.asarray(hb, device=device)
            tol = {np.float32: 1e-5, np.float64: 1e-12, np.int32: 0}[dtype]
            assert_close(x @ y, ha @ hb, rtol=tol, atol=tol * 100)
            if dtype != np.int32:
                assert_close(xp.maximum(xp.exp(x * 0.1) @ y + 1, 0),
                             np.maximum(np.exp(ha * dtype(0.1)) @ hb + 1, 0), rtol=tol,
                             atol=tol * 100)
    h = rng.standard_normal((40, 30)).astype(np.float32)
    x = xp.asarray(h, device=device)
    assert_close(x.T @ x, h.T @ h, rtol=1e-5, atol=1e-4)
    assert_close(x @ x.T, h @ h.T, rtol=1e-5, atol=1e-4)


def test_transposed_reads_tile(device: str) -> None:
    """Elementwise kernels that read an operand transposed (g_tile on GPUs): edges of
    partial tiles, a batch axis, shapes below a tile."""
    rng = np.random.default_rng(3)
    for shape in ((100, 70), (65, 65), (3, 40, 50), (31, 40)):
        h = rng.standard_normal(shape).astype(np.float32)
        x = xp.asarray(h, device=device)
        t = xp.swapaxes(x, -1, -2)
        want = np.swapaxes(h, -1, -2)
        assert_close(t * 2 + 1, want * 2 + 1)
        if shape[-1] == shape[-2]:
            assert_close(x + t, h + want)


def test_thread_softmax_is_one_kernel_with_two_group_reductions() -> None:
    x = xp.asarray(np.ones((8, 300), np.float32), device="cpu")
    m = xp.max(x, axis=1, keepdims=True)
    e = xp.exp(x - m)
    strategy, ir = _thread_strategy(e / xp.sum(e, axis=1, keepdims=True))
    assert strategy == "g_row"
    reduces = [ins for ins in ir.instrs if ins.op.value == "GROUP_REDUCE"]
    assert [r.arg[0] for r in reduces] == ["MAX", "ADD"]
    assert all(r.arg[1:] == (64, 1) for r in reduces)     # (300 elements: 64 items)


def test_a_short_row_is_loaded_once_into_registers() -> None:
    """A group-per-row kernel of a short row loads each element once into a register, all
    at once, and every stage reads it there (a layer norm: the mean, the variance, the
    output); a tail past the group's last full step is guarded; a row too long for
    registers keeps the strided loops."""
    from zyxarray._lazy.lower import row_cache

    def layer_norm(x: xp.Array, g: xp.Array) -> xp.Array:
        mu = xp.mean(x, axis=1, keepdims=True)
        var = xp.mean((x - mu) ** 2, axis=1, keepdims=True)
        return (x - mu) / xp.sqrt(var + 1e-5) * g

    for cols, guarded in ((1024, False), (1000, True)):
        x = xp.asarray(np.ones((8, cols), np.float32), device="cpu")
        g = xp.asarray(np.ones(cols, np.float32), device="cpu")
        strategy, ir = _thread_strategy(layer_norm(x, g))
        assert strategy == "g_row" and ir.meta["local_size"] == 128
        ops = [ins.op.value for ins in ir.instrs]
        assert "RANGE" not in ops        # (eight points per work item, written out)
        loads = [ins for ins in ir.instrs if ins.op.value == "LOAD"]
        assert len(loads) == 2 * 8       # x and g, each element once
        assert ("IF" in ops) == guarded
        e = xp.exp(x - xp.max(x, axis=1, keepdims=True))
        _, ir = _thread_strategy(e / xp.sum(e, axis=1, keepdims=True))
        assert [ins.op.value for ins in ir.instrs].count("EXP") == 8    # once per element
    long = xp.asarray(np.ones((8, 8192), np.float32), device="cpu")
    centred = long - xp.max(long, axis=1, keepdims=True)
    for y, loops in ((centred, True), (xp.sum(long, axis=1), True), (xp.sum(x, axis=1), False)):
        strategy, ir = _thread_strategy(y)
        assert strategy == "g_row" and ("RANGE" in [ins.op.value for ins in ir.instrs]) == loops
    (plan,) = realize.schedule([centred._node.base()])
    cats = [("0", "1"), ("0", "1")]
    assert row_cache(plan, "g_row", (8192,), 256, cats) is None     # (32 per work item)
    assert row_cache(plan, "g_row", (1000,), 128, cats) == (8, False)


@pytest.mark.parametrize("cols", [1000, 77, 2048])
def test_rows_kept_in_registers_match_numpy(device: str, cols: int) -> None:
    """Layer norm, logsumexp, softmax (also of a padded row), a row centred on its max,
    sums, var and argmax, rows of a whole number of group steps and not, with NaN and -inf
    rows: the same values as NumPy on every device (the thread devices read these rows
    straight into registers)."""
    rng = np.random.default_rng(cols)
    h = (rng.standard_normal((6, cols)) * 3).astype(np.float32)
    h[1, 5] = np.nan
    h[2] = -np.inf
    gh = rng.standard_normal(cols).astype(np.float32)
    x, g = xp.asarray(h, device=device), xp.asarray(gh, device=device)

    def layer_norm(x: Any, g: Any, m: Any) -> Any:
        mu = m.mean(x, axis=1, keepdims=True)
        var = m.mean((x - mu) ** 2, axis=1, keepdims=True)
        return (x - mu) / m.sqrt(var + 1e-5) * g

    def logsumexp(x: Any, g: Any, m: Any) -> Any:
        mx = m.max(x, axis=1, keepdims=True)
        return m.log(m.sum(m.exp(x - mx), axis=1)) + mx[:, 0]

    def softmax(x: Any, g: Any, m: Any) -> Any:
        e = m.exp(x - m.max(x, axis=1, keepdims=True))
        return e / m.sum(e, axis=1, keepdims=True)

    def padded(x: Any, g: Any, m: Any) -> Any:
        return softmax(m.concat([m.zeros_like(x[:, :3]), x, m.zeros_like(x[:, :2])], axis=1),
                       g, m)

    def centred(x: Any, g: Any, m: Any) -> Any:
        return x - m.max(x, axis=1, keepdims=True) + g

    with np.errstate(all="ignore"):
        for fn in (layer_norm, logsumexp, softmax, padded, centred):
            npm = np if fn is not padded else type("NP", (), {
                "concat": staticmethod(np.concatenate), "zeros_like": staticmethod(np.zeros_like),
                "exp": staticmethod(np.exp), "max": staticmethod(np.max),
                "sum": staticmethod(np.sum)})
            assert_close(fn(x, g, xp), fn(h, gh, npm), rtol=1e-4, atol=1e-5)
    hi = rng.integers(-50, 50, (6, cols)).astype(np.int32)
    xi = xp.asarray(hi, device=device)
    assert_close(xi - xp.max(xi, axis=1, keepdims=True), hi - hi.max(axis=1, keepdims=True))
    assert_close(xp.argmax(x, axis=1), np.argmax(h, axis=1))
    assert_close(xp.sum(xi, axis=1), hi.sum(axis=1))
    hv = rng.standard_normal((6, cols)).astype(np.float32) + 10
    assert_close(xp.var(xp.asarray(hv, device=device), axis=1), np.var(hv, axis=1), rtol=1e-4)


def test_softmax_computes_exp_once(device: str) -> None:
    """On loop-style devices the exp summed by the last reduction is kept in the output and
    read back by the output loop (``_stash``), not computed twice."""
    h = np.linspace(-3, 3, 7 * 50, dtype=np.float32).reshape(7, 50)
    h[2, 3] = np.nan
    h[4] = -np.inf
    x = xp.asarray(h, device=device)
    e = xp.exp(x - xp.max(x, axis=1, keepdims=True))
    y = e / xp.sum(e, axis=1, keepdims=True)
    (k,) = xp.explain(y).kernels
    if k.strategy == "row":
        ops = [ins.op.value for ins in k.ir.instrs]
        last_reduction = max(i for i, op in enumerate(ops) if op == "ACC_RESULT")
        assert "EXP" not in ops[last_reduction:], "the output loop recomputes exp"
    with np.errstate(all="ignore"):
        ee = np.exp(h - h.max(axis=1, keepdims=True))
        assert_close(y, ee / ee.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


def test_inlined_shapes_compute_the_same_values(device: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A device that writes kernels' sizes and view parameters into their source (AMD's:
    ``extra["inline_shapes"]``, here forced on every test device with the limit at 0)
    computes what NumPy does: concatenated, padded and strided views, a reduction, a
    window that moves (its offset stays an argument), and a shape it has not seen (a new
    program, not the last one's)."""
    from zyxarray._devices import registry
    from zyxarray._lazy import lower
    info = registry.get(device).info
    monkeypatch.setitem(info.extra, "inline_shapes", 0)
    lower._parts_cache.clear()
    rng = np.random.default_rng(11)
    for rows, cols in ((37, 29), (41, 23)):
        h = rng.standard_normal((rows, cols))
        a = xp.asarray(h, device=device)
        got = xp.concat([xp.pad(a[::2, 1:], ((1, 0), (0, 2))),
                         xp.pad(a[1::2, ::-1], ((0, 0), (1, 0)))], axis=0)
        want = np.concatenate([np.pad(h[::2, 1:], ((1, 0), (0, 2))),
                               np.pad(h[1::2, ::-1], ((0, 0), (1, 0)))], axis=0)
        assert_close(got, want, rtol=1e-12)
        assert_close(xp.sum(a[:, 3:] * 2.0, axis=1), np.sum(h[:, 3:] * 2.0, axis=1),
                     rtol=1e-12)
        for i in range(3):             # (a window at three offsets: one program)
            assert_close(a[i:i + 5, 2:] + 1.0, h[i:i + 5, 2:] + 1.0, rtol=1e-12)
    lower._parts_cache.clear()


# -- elementwise loops split where masks begin and end (cpu) ----------------------------------
def _jacobi_step(m: Any, u: Any) -> Any:
    """A Jacobi sweep that keeps the boundary: the new interior between the old edges, by
    ``concat`` of slices along both axes (as people write it with NumPy)."""
    inner = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    mid = m.concatenate([u[1:-1, :1], inner, u[1:-1, -1:]], axis=1)
    return m.concatenate([u[:1], mid, u[-1:]], axis=0)


def test_a_concat_of_slices_is_a_loop_per_interval_without_tests() -> None:
    """Each part of a concat along the inner loop reads in its own interval of it: the loop
    is split where the parts' masks begin and end, and in each interval a part's loads are
    plain (its mask holds) or gone (it fails). The tests on the rows are the same along the
    loop: those loads read from rows clamped into range, selected by the test. No load is
    guarded, so gcc vectorizes every interval. (A Jacobi sweep on 300 x 300: 1.75 ms a step
    with three kernels of guarded loads, 0.24 ms as one kernel of plain ones.)"""
    from zyxarray._codegen.ir import Op
    from zyxarray._devices import registry
    from zyxarray._lazy.lower import canonicalize, inner_intervals, lower
    from zyxarray._lazy.schedule import schedule

    u = xp.asarray(np.arange(36.0).reshape(6, 6), device="cpu")
    (plan,) = schedule([_jacobi_step(xp, u)._node.base()])
    c = canonicalize(plan, registry.get("cpu").info)
    assert c.strategy == "elementwise"
    cuts = inner_intervals(c.sts, c.outer)
    assert cuts is not None and len(cuts[0]) == 2           # at columns 1 and 5
    assert cuts[2][0] != cuts[2][1] != cuts[2][2]
    assert ("intervals", *cuts) in c.key
    ir = lower(c, "k")
    inner = [ins for ins in ir.instrs if ins.op is Op.RANGE and ins.arg == "inner"]
    assert len(inner) == 3
    loads = [ins for ins in ir.instrs if ins.op is Op.LOAD]
    assert loads and all(len(ins.srcs) == 2 for ins in loads), "no guarded load"


@pytest.mark.parametrize("n", [3, 4, 5, 9, 33])
def test_concats_of_slices_match_numpy(device: str, n: int) -> None:
    """Jacobi sweeps, a roll along the inner axis and ragged concats, at sizes where the
    intervals are empty, one point wide or long."""
    h = np.random.default_rng(n).standard_normal((n, n))
    u, expected = xp.asarray(h, device=device), h
    for _ in range(3):
        u, expected = _jacobi_step(xp, u), _jacobi_step(np, expected)
    assert_close(u, expected, rtol=1e-12)
    a = xp.asarray(h, device=device)
    assert_close(xp.roll(a, 2, axis=1) * 2, np.roll(h, 2, axis=1) * 2)
    assert_close(xp.concat([a[:, 1:], a[:, :1] + 1, a[:, :2]], axis=1),
                 np.concatenate([h[:, 1:], h[:, :1] + 1, h[:, :2]], axis=1))
    assert_close(xp.concat([a[1:], a[:1] * 3], axis=0)[:, ::-1],
                 np.concatenate([h[1:], h[:1] * 3], axis=0)[:, ::-1])


def test_the_larger_read_decides_rows_or_columns() -> None:
    """A reduction over axis 0 of ``x * s[:, None]``: ``s`` is contiguous along the reduced
    axis, ``x`` along the kept one and 1024 times larger. Going by rows because some load
    was contiguous along them walked x's columns (4096 x 1024 on the cpu device: 14.7 ms,
    NumPy 5.3; by columns 0.58 ms). The same rule serves the GPU strategies and scans."""
    from zyxarray._devices import registry
    from zyxarray._lazy.lower import canonicalize
    from zyxarray._lazy.schedule import schedule

    h, hs = np.ones((256, 128)), np.arange(256.0)
    x, s = xp.asarray(h, device="cpu"), xp.asarray(hs, device="cpu")
    w = xp.asarray(np.arange(128.0), device="cpu")
    cases = {"column": xp.sum(x * s[:, None], axis=0), "row": xp.sum(x * w, axis=1)}
    for want, y in cases.items():
        (plan,) = schedule([y._node.base()])
        assert canonicalize(plan, registry.get("cpu").info).strategy == want
    assert _thread_strategy(cases["column"])[0] == "g_column"
    assert _thread_strategy(cases["row"])[0] == "g_row"
    assert _thread_strategy(xp.cumulative_sum(x * s[:, None], axis=0))[0] == "g_scan_serial"
    assert_close(cases["column"], (h * hs[:, None]).sum(axis=0), rtol=1e-12)
    assert_close(cases["row"], (h * np.arange(128.0)).sum(axis=1), rtol=1e-12)


def test_reductions_whose_loads_disagree_on_the_layout_match_numpy(device: str) -> None:
    h = np.random.default_rng(4).standard_normal((300, 70))
    hs, hw = np.linspace(-1, 1, 300), np.linspace(2, 3, 70)
    x = xp.asarray(h, device=device)
    s, w = xp.asarray(hs, device=device), xp.asarray(hw, device=device)
    assert_close(xp.sum(x * s[:, None], axis=0), (h * hs[:, None]).sum(axis=0), rtol=1e-12)
    assert_close(xp.max(x * w, axis=1), (h * hw).max(axis=1), rtol=1e-12)
    assert_close(xp.cumulative_sum(x * s[:, None], axis=0),
                 np.cumsum(h * hs[:, None], axis=0), rtol=1e-12)
    assert_close(x.T @ s, h.T @ hs, rtol=1e-12)
