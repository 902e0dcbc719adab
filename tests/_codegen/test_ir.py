"""The kernel IR: the verifier rejects broken IR, hand-built kernels render, compile and run
on every device, and rendering is deterministic (within and across processes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import zyxarray as xp
from tests.helpers import child_env
from zyxarray._codegen import render
from zyxarray._codegen.ir import (
    BOOL,
    INDEX,
    Builder,
    Instr,
    Kernel,
    Op,
    VerifyError,
    identity,
    verify,
)
from zyxarray._devices import registry

ROOT = Path(__file__).resolve().parents[2]
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)


def _scale_kernel(name: str = "scale") -> Kernel:
    """y[i] = x[i] * c over n elements (the IR module's docstring example)."""
    b = Builder(name)
    src = b.buf(F32, False)
    dst = b.buf(F32, True)
    n = b.int_arg()
    r = b.range(b.const(0), n, "global")
    v = b.load(src, r)
    c = b.cast(b.float_arg(), F32)
    b.store(dst, r, b.alu(Op.MUL, v, c))
    b.end(r)
    return b.finish()


def _thread_scale_kernel() -> Kernel:
    """The same for thread-style devices: one work item per element, 64 per group."""
    b = Builder("scale_threads")
    src = b.buf(F32, False)
    dst = b.buf(F32, True)
    n = b.int_arg()
    groups = b.int_arg()
    gid = b.idx(Op.ADD, b.idx(Op.MUL, b.emit(Op.SPECIAL, INDEX, (), "group_id"), b.const(64)),
                b.emit(Op.SPECIAL, INDEX, (), "local_id"))
    guard = b.if_(b.alu(Op.CMPLT, gid, n))
    c = b.cast(b.float_arg(), F32)
    b.store(dst, gid, b.alu(Op.MUL, b.load(src, gid), c))
    b.end(guard)
    return b.finish(local_size=64, groups_arg=b.instrs[groups].arg, fp64=True)


def _thread_sum_kernel() -> Kernel:
    """out[0] = sum(x[0:n]) by one group of 64 work items: strided loop, then a tree."""
    b = Builder("sum_threads")
    src = b.buf(F64, False)
    dst = b.buf(F64, True)
    n = b.int_arg()
    groups = b.int_arg()
    local = b.emit(Op.SPECIAL, INDEX, (), "local_id")
    acc = b.acc(Op.ADD, F64, 1)
    r = b.range(local, n, "reduce", b.const(64))
    b.acc_update(acc, b.const(0), b.load(src, r))
    b.end(r)
    part = b.emit(Op.ACC_RESULT, F64, (acc,))
    total = b.emit(Op.GROUP_REDUCE, F64, (part,), ("ADD", 64, 1))
    guard = b.if_(b.alu(Op.CMPEQ, local, b.const(0)))
    b.store(dst, b.const(0), total)
    b.end(guard)
    return b.finish(local_size=64, groups_arg=b.instrs[groups].arg, fp64=True)


def _sum_kernel(lanes: int) -> Kernel:
    """out[0] = sum(x[0:n]) with ``lanes`` accumulator lanes."""
    b = Builder(f"sum{lanes}")
    src = b.buf(F64, False)
    dst = b.buf(F64, True)
    n = b.int_arg()
    zero = b.const(0)
    acc = b.acc(Op.ADD, F64, lanes)
    r = b.range(zero, n, "reduce")
    lane = b.idx(Op.MOD, r, b.const(lanes))
    b.acc_update(acc, lane, b.load(src, r))
    b.end(r)
    total = b.emit(Op.ACC_RESULT, F64, (acc,))
    b.store(dst, zero, total)
    return b.finish()


def _run(device: str, kernel: Kernel, inputs: list[np.ndarray], out: np.ndarray,
         ints: list[int], floats: list[float]) -> np.ndarray:
    dev = registry.get(device)
    prog = dev.compile(render(kernel, dev.info.language), kernel)
    bufs = []
    for a in inputs:
        buf = dev.alloc(a.nbytes)
        dev.copy_in(buf, a)
        bufs.append(buf)
    out_buf = dev.alloc(out.nbytes)
    prog(bufs + [out_buf], ints, floats).wait()
    return np.array(dev.copy_out(out_buf)[:out.nbytes].view(out.dtype).reshape(out.shape))


def _threads(device: str) -> bool:
    return registry.get(device).info.style == "threads"


def test_hand_built_kernel_runs(device: str) -> None:
    x = np.arange(100, dtype=np.float32)
    if _threads(device):
        got = _run(device, _thread_scale_kernel(), [x], np.empty(100, np.float32), [100, 2],
                   [2.5])
    else:
        got = _run(device, _scale_kernel(), [x], np.empty(100, np.float32), [100], [2.5])
    np.testing.assert_array_equal(got, x * np.float32(2.5))


@pytest.mark.parametrize("lanes", [1, 4, 16])
def test_hand_built_reduction_runs(device: str, lanes: int) -> None:
    x = np.linspace(-1, 3, 370)
    kernel = _thread_sum_kernel() if _threads(device) else _sum_kernel(lanes)
    ints = [370, 1] if _threads(device) else [370]
    got = _run(device, kernel, [x], np.empty(1), ints, [])
    np.testing.assert_allclose(got[0], x.sum(), rtol=1e-13)
    empty = _run(device, kernel, [np.zeros(1)], np.empty(1), [0] + ints[1:], [])
    assert empty[0] == identity(Op.ADD, F64) == 0


def test_c_rendering_compiles() -> None:
    """The C renderer's output of hand-built kernels is accepted by the compiler."""
    if "cpu" not in registry.devices():
        pytest.skip("no cpu device (no C compiler)")
    cpu = registry.get("cpu")
    for k in (_scale_kernel(), _sum_kernel(8)):
        source = render(k, "c")
        assert "zx_kernel" in source
        cpu.compile(source, k)


def test_rendering_is_deterministic() -> None:
    a, b = _scale_kernel(), _scale_kernel()
    assert str(a) == str(b)
    assert render(a, "c") == render(b, "c") == render(a, "c")
    assert render(a, "ir") == str(a)
    with pytest.raises(ValueError, match="no renderer"):
        render(a, "cobol")


def test_generated_kernels_verify_and_render_stably(device: str) -> None:
    x = xp.asarray(np.ones((4, 5), np.float32), device=device)
    exprs = [xp.exp(x) + 1, xp.sum(x * x, axis=1), xp.max(x.T[::-1], axis=0),
             xp.where(x > 0, x, -x)[1:, ::2], xp.var(x, axis=1)]
    for e in exprs:
        plans = [xp.explain(e), xp.explain(e)]
        assert [k.source for k in plans[0]] == [k.source for k in plans[1]]
        for k in plans[0]:
            verify(k.ir)


def _explain_in_subprocess(device: str, seed: str) -> str:
    code = ("import numpy as np, zyxarray as xp\n"
            f"x = xp.asarray(np.ones((3, 4), np.float32), device={device!r})\n"
            "for k in xp.explain(xp.sum(xp.exp(x.T) * 2, axis=1), xp.sin(x) + x[0]):\n"
            "    print('NAME', k.name)\n"
            "    print(k.source)\n")
    env = child_env(ROOT, PYTHONHASHSEED=seed)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip()
    return out.stdout


def test_sources_are_the_same_in_another_process(device: str) -> None:
    """Same expression, fresh interpreter (another hash seed): identical kernel sources,
    which the on-disk cache relies on."""
    a, b = (_explain_in_subprocess(device, seed) for seed in ("1", "2"))
    strip = [ln for ln in a.splitlines() if not ln.startswith("NAME")]
    assert strip == [ln for ln in b.splitlines() if not ln.startswith("NAME")]


def test_kernel_names_are_the_same_in_another_process(device: str) -> None:
    """Names come from the structure, not from hash() (salted per process)."""
    a, b = (_explain_in_subprocess(device, seed) for seed in ("1", "2"))
    assert [ln for ln in a.splitlines() if ln.startswith("NAME")] == \
        [ln for ln in b.splitlines() if ln.startswith("NAME")]


# -- the verifier rejects broken IR ---------------------------------------------------------
def _valid() -> list[Instr]:
    return list(_scale_kernel().instrs)


def _kernel(instrs: list[Instr], buffers: list | None = None) -> Kernel:
    return Kernel("broken", instrs, buffers or [(F32, False), (F32, True)], 1, 1)


def test_verifier_accepts_valid_ir() -> None:
    verify(_kernel(_valid()))
    verify(_sum_kernel(4))


def _replace(instrs: list[Instr], i: int, **changes: object) -> list[Instr]:
    old = instrs[i]
    fields = dict(op=old.op, dtype=old.dtype, srcs=old.srcs, arg=old.arg)
    fields.update(changes)
    out = list(instrs)
    out[i] = Instr(**fields)  # type: ignore[arg-type]
    return out


BROKEN = {
    # index layout of _scale_kernel: 0 BUF, 1 BUF, 2 INT_ARG, 3 CONST, 4 RANGE, 5 LOAD,
    # 6 FLOAT_ARG, 7 CAST, 8 MUL, 9 STORE, 10 END
    "source not earlier": lambda k: _replace(k, 8, srcs=(5, 9)),
    "END closes nothing open": lambda k: k + [Instr(Op.END, None, (4,))],
    "RANGE left open": lambda k: k[:10],
    "RANGE bounds not int64": lambda k: _replace(k, 4, srcs=(3, 6)),
    "RANGE kind unknown": lambda k: _replace(k, 4, arg="sideways"),
    "LOAD dtype differs from the buffer": lambda k: _replace(k, 5, dtype=F64),
    "LOAD index not int64": lambda k: _replace(k, 5, srcs=(0, 6)),
    "STORE into a read-only buffer": lambda k: _replace(k, 9, srcs=(0, 4, 8)),
    "STORE of another dtype": lambda k: _replace(k, 9, srcs=(1, 4, 6)),
    "binary operands of different dtypes": lambda k: _replace(k, 8, srcs=(5, 6)),
    "value used after its loop": lambda k: k + [Instr(Op.NEG, F32, (8,))],
}


@pytest.mark.parametrize("why", sorted(BROKEN))
def test_verifier_rejects(why: str) -> None:
    with pytest.raises(VerifyError):
        verify(_kernel(BROKEN[why](_valid())))


def test_verifier_rejects_bad_where_and_accumulators() -> None:
    base = [Instr(Op.BUF, F32, (), (0, "float32", True)),
            Instr(Op.CONST, INDEX, (), 0),
            Instr(Op.CONST, F32, (), 1.0),
            Instr(Op.CONST, BOOL, (), True)]
    ok = base + [Instr(Op.WHERE, F32, (3, 2, 2))]
    verify(_kernel(ok, [(F32, True)]))
    with pytest.raises(VerifyError, match="WHERE"):
        verify(_kernel(base + [Instr(Op.WHERE, F32, (2, 2, 2))], [(F32, True)]))
    with pytest.raises(VerifyError, match="WHERE"):
        verify(_kernel(base + [Instr(Op.WHERE, F64, (3, 2, 2))], [(F32, True)]))
    acc = base + [Instr(Op.ACC, F32, (), ("ADD", 1))]
    with pytest.raises(VerifyError, match="ACC_UPDATE"):
        verify(_kernel(acc + [Instr(Op.ACC_UPDATE, None, (4, 1, 2))], [(F32, True)]))
    with pytest.raises(VerifyError, match="reduce op"):
        verify(_kernel(base + [Instr(Op.ACC, F32, (), ("SUB", 1))], [(F32, True)]))
    in_loop = acc + [Instr(Op.RANGE, INDEX, (1, 1), "reduce"),
                     Instr(Op.ACC_UPDATE, None, (4, 1, 3)),      # bool into a float acc
                     Instr(Op.END, None, (5,))]
    with pytest.raises(VerifyError, match="dtype"):
        verify(_kernel(in_loop, [(F32, True)]))
    with pytest.raises(VerifyError, match="ACC"):
        verify(_kernel(base + [Instr(Op.ACC_RESULT, F32, (2,))], [(F32, True)]))
    verify(_kernel(base + [Instr(Op.BITCAST, np.dtype(np.int32), (2,))], [(F32, True)]))
    for wrong in (np.int64, np.uint32, np.float32):
        with pytest.raises(VerifyError, match="BITCAST"):
            verify(_kernel(base + [Instr(Op.BITCAST, np.dtype(wrong), (2,))], [(F32, True)]))


def test_verifier_checks_work_item_ops() -> None:
    verify(_thread_scale_kernel())
    verify(_thread_sum_kernel())
    base = [Instr(Op.BUF, F64, (), (0, "float64", True)),
            Instr(Op.CONST, INDEX, (), 0),
            Instr(Op.CONST, F64, (), 1.0),
            Instr(Op.CONST, BOOL, (), True)]
    with pytest.raises(VerifyError, match="SPECIAL"):
        verify(_kernel(base + [Instr(Op.SPECIAL, INDEX, (), "warp_id")], [(F64, True)]))
    with pytest.raises(VerifyError, match="IF"):
        verify(_kernel(base + [Instr(Op.IF, None, (2,)), Instr(Op.END, None, (4,))],
                       [(F64, True)]))
    with pytest.raises(VerifyError, match="power-of-two"):
        verify(_kernel(base + [Instr(Op.GROUP_REDUCE, F64, (2,), ("ADD", 48, 1))],
                       [(F64, True)]))
    inside_if = base + [Instr(Op.IF, None, (3,)),
                        Instr(Op.GROUP_REDUCE, F64, (2,), ("ADD", 64, 1)),
                        Instr(Op.END, None, (4,))]
    with pytest.raises(VerifyError, match="top level"):
        verify(_kernel(inside_if, [(F64, True)]))
    # a loop whose bounds are the same for the whole group may hold group ops (a scan's
    # tiles); one whose bounds depend on the work item may not
    local = [Instr(Op.SPECIAL, INDEX, (), "local_id"), Instr(Op.CONST, INDEX, (), 8)]
    for start, ok in ((1, True), (4, False)):
        loop = base + local + [Instr(Op.RANGE, INDEX, (start, 5), "reduce"),
                               Instr(Op.GROUP_SCAN, F64, (2,), ("ADD", 64)),
                               Instr(Op.GROUP_REDUCE, F64, (2,), ("ADD", 64, 1)),
                               Instr(Op.END, None, (6,))]
        if ok:
            verify(_kernel(loop, [(F64, True)]))
        else:
            with pytest.raises(VerifyError, match="every work item"):
                verify(_kernel(loop, [(F64, True)]))


def test_verifier_checks_running_accumulators() -> None:
    """ACC_SCAN (a scan's running value) sits in the loop directly inside its ACC."""
    base = [Instr(Op.BUF, F64, (), (0, "float64", True)),
            Instr(Op.CONST, INDEX, (), 0),
            Instr(Op.CONST, INDEX, (), 4),
            Instr(Op.CONST, F64, (), 1.0),
            Instr(Op.ACC, F64, (), ("ADD", 1))]
    one = [Instr(Op.RANGE, INDEX, (1, 2), "reduce"), Instr(Op.ACC_SCAN, F64, (4, 1, 3)),
           Instr(Op.STORE, None, (0, 5, 6)), Instr(Op.END, None, (5,))]
    verify(_kernel(base + one, [(F64, True)]))
    two = [Instr(Op.RANGE, INDEX, (1, 2), "reduce"), Instr(Op.RANGE, INDEX, (1, 2), "inner"),
           Instr(Op.ACC_SCAN, F64, (4, 1, 3)), Instr(Op.END, None, (6,)),
           Instr(Op.END, None, (5,))]
    with pytest.raises(VerifyError, match="ACC_SCAN"):
        verify(_kernel(base + two, [(F64, True)]))
    with pytest.raises(VerifyError, match="ACC_SCAN"):
        verify(_kernel(base + [Instr(Op.ACC_SCAN, F64, (4, 1, 3))], [(F64, True)]))


def test_builder_merges_common_subexpressions_within_scope() -> None:
    b = Builder("cse")
    x = b.const(2.0, F32)
    assert b.alu(Op.ADD, x, x) == b.alu(Op.ADD, x, x)
    y = b.const(3.0, F32)
    assert b.alu(Op.MUL, x, y) == b.alu(Op.MUL, y, x), "commutative operands are ordered"
    assert b.alu(Op.SUB, x, y) != b.alu(Op.SUB, y, x)
    r = b.range(b.const(0), b.const(4), "global")
    inner = b.alu(Op.NEG, b.cast(r, F32))
    b.end(r)
    r2 = b.range(b.const(0), b.const(4), "global")
    assert b.alu(Op.NEG, b.cast(r2, F32)) != inner, "no reuse of a value out of its loop"
    b.end(r2)
    assert b.idx(Op.ADD, b.const(0), r2) == r2
    assert b.idx(Op.MUL, b.const(1), r2) == r2
    assert b.instrs[b.idx(Op.MUL, b.const(3), b.const(4))].arg == 12
    b.finish()
