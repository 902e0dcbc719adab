"""The kernel IR: a linear SSA list of instructions with structured loops.

Layer: ``_codegen``. Imports only ``_devices`` (below it) and the foundation modules; it
knows nothing of graphs or arrays.

A kernel is a list of ``Instr``; an instruction refers to earlier ones by index. Loops are
``RANGE``/``END`` pairs; a value defined inside a loop is visible only until its ``END``.
Reductions go through accumulators: ``ACC`` (defined outside the loops it reduces over),
``ACC_UPDATE`` inside them, and ``ACC_GET``/``ACC_RESULT`` after them. Because an update is
an associative combine, a backend may reorder it (several accumulators, tree reductions).

Op names are plain strings (``Op`` is a ``str`` enum) so the reference interpreter in
``_devices`` can read the IR without importing this module.

Example (``y = a * 2`` over n elements)::

    0 BUF        float32*  (0, 'float32', False)
    1 BUF        float32*  (1, 'float32', True)
    2 INT_ARG    int64     0          # n
    3 CONST      int64     0
    4 RANGE      int64     [3, 2]  'global'
    5 LOAD       float32   [0, 4]
    6 FLOAT_ARG  float64   0          # the constant 2.0
    7 CAST       float32   [6]
    8 MUL        float32   [5, 7]
    9 STORE      -         [1, 4, 8]
   10 END        -         [4]
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

import numpy as np


class Op(str, enum.Enum):
    # kernel arguments
    BUF = "BUF"               # arg (index, dtype name, writable) -> pointer
    INT_ARG = "INT_ARG"       # arg index into the int64 argument array
    FLOAT_ARG = "FLOAT_ARG"   # arg index into the float64 argument array
    CONST = "CONST"           # arg a Python value of the instruction's dtype
    # loops
    RANGE = "RANGE"           # srcs (start, end[, step]); kind: global|inner|reduce|lane
    END = "END"               # srcs (range or if,)
    IF = "IF"                 # srcs (bool,): the instructions up to its END run where it holds
    # work items (threads-style devices only)
    SPECIAL = "SPECIAL"       # arg "group_id" | "local_id": this work item's place, int64
    GROUP_REDUCE = "GROUP_REDUCE"  # srcs (value,); arg (combine op, group size, stride):
    #                           the combine of ``value`` over the work items of the group whose
    #                           local ids agree modulo ``stride``; every work item of the group
    #                           must reach it (it synchronizes them)
    GROUP_SCAN = "GROUP_SCAN"  # srcs (value,); arg (combine op, group size): the combine of
    #                           ``value`` over the work items whose local id is at most this
    #                           one's (an inclusive scan in local-id order); every work item
    #                           must reach it
    # memory
    LOAD = "LOAD"             # srcs (buf, index[, valid]): zero where valid is false
    STORE = "STORE"           # srcs (buf, index, value)
    # accumulators
    ACC = "ACC"               # arg (combine op name, lanes); dtype of the value
    ACC_UPDATE = "ACC_UPDATE"  # srcs (acc, lane, value): acc[lane] = op(acc[lane], value)
    ACC_GET = "ACC_GET"       # srcs (acc, lane): one lane, after the update loops
    ACC_RESULT = "ACC_RESULT"  # srcs (acc,): all lanes combined, after the update loops
    ACC_SCAN = "ACC_SCAN"     # srcs (acc, lane, value): ACC_UPDATE that also gives the new
    #                           acc[lane] (a running value); in the loop directly inside its ACC
    # conversions
    CAST = "CAST"
    BITCAST = "BITCAST"       # the bits of a float as the signed integer of its width, or
    #                           back (a signed integer's bits as the float of its width)
    # unary
    NEG = "NEG"
    NOT = "NOT"               # logical not on bool, bitwise invert on integers
    ABS = "ABS"
    SQRT = "SQRT"
    EXP = "EXP"
    EXPM1 = "EXPM1"
    LOG = "LOG"
    LOG1P = "LOG1P"
    LOG2 = "LOG2"
    LOG10 = "LOG10"
    SIN = "SIN"
    COS = "COS"
    TAN = "TAN"
    ASIN = "ASIN"
    ACOS = "ACOS"
    ATAN = "ATAN"
    SINH = "SINH"
    COSH = "COSH"
    TANH = "TANH"
    ASINH = "ASINH"
    ACOSH = "ACOSH"
    ATANH = "ATANH"
    FLOOR = "FLOOR"
    CEIL = "CEIL"
    TRUNC = "TRUNC"
    ROUND = "ROUND"           # half to even
    SIGN = "SIGN"
    ISNAN = "ISNAN"
    ISINF = "ISINF"
    ISFINITE = "ISFINITE"
    SIGNBIT = "SIGNBIT"
    REAL = "REAL"
    IMAG = "IMAG"
    CONJ = "CONJ"
    # binary
    ADD = "ADD"
    SUB = "SUB"
    MUL = "MUL"
    DIV = "DIV"               # true division (floats, complex)
    IDIV = "IDIV"             # floor division
    MOD = "MOD"               # floor remainder (sign of the divisor), as Python and NumPy
    POW = "POW"
    MAX = "MAX"               # NaN-propagating maximum
    MIN = "MIN"               # NaN-propagating minimum
    ATAN2 = "ATAN2"
    HYPOT = "HYPOT"
    COPYSIGN = "COPYSIGN"
    NEXTAFTER = "NEXTAFTER"
    LOGADDEXP = "LOGADDEXP"
    CMPLT = "CMPLT"
    CMPLE = "CMPLE"
    CMPEQ = "CMPEQ"
    CMPNE = "CMPNE"
    AND = "AND"               # bitwise on integers, logical on bool
    OR = "OR"
    XOR = "XOR"
    SHL = "SHL"
    SHR = "SHR"               # arithmetic for signed, logical for unsigned
    COMPLEX = "COMPLEX"       # srcs (real, imag) -> complex
    # ternary
    WHERE = "WHERE"           # srcs (cond, a, b)
    # a reduction of the graph only (lowered as MIN, never an accumulator's combine)
    FIRST = "FIRST"           # the min of ``where(c, x, stop)`` where x rises along the axis
    #                           and stays below stop: the first x where c holds, else stop; a
    #                           serial loop stops computing c once one holds (a rejection
    #                           sampler's first accepted attempt)

    def __repr__(self) -> str:
        return self.value


UNARY = frozenset({Op.NEG, Op.NOT, Op.ABS, Op.SQRT, Op.EXP, Op.EXPM1, Op.LOG, Op.LOG1P, Op.LOG2,
                   Op.LOG10, Op.SIN, Op.COS, Op.TAN, Op.ASIN, Op.ACOS, Op.ATAN, Op.SINH,
                   Op.COSH, Op.TANH, Op.ASINH, Op.ACOSH, Op.ATANH, Op.FLOOR, Op.CEIL, Op.TRUNC,
                   Op.ROUND, Op.SIGN, Op.ISNAN, Op.ISINF, Op.ISFINITE, Op.SIGNBIT, Op.REAL,
                   Op.IMAG, Op.CONJ, Op.BITCAST})
BINARY = frozenset({Op.ADD, Op.SUB, Op.MUL, Op.DIV, Op.IDIV, Op.MOD, Op.POW, Op.MAX, Op.MIN,
                    Op.ATAN2, Op.HYPOT, Op.COPYSIGN, Op.NEXTAFTER, Op.LOGADDEXP, Op.CMPLT,
                    Op.CMPLE, Op.CMPEQ, Op.CMPNE, Op.AND, Op.OR, Op.XOR, Op.SHL, Op.SHR,
                    Op.COMPLEX})
TERNARY = frozenset({Op.WHERE})
ALU = UNARY | BINARY | TERNARY
COMPARISON = frozenset({Op.CMPLT, Op.CMPLE, Op.CMPEQ, Op.CMPNE})
PREDICATES = frozenset({Op.ISNAN, Op.ISINF, Op.ISFINITE, Op.SIGNBIT})
#: ops whose result is bool whatever their operands
BOOL_RESULT = COMPARISON | PREDICATES
#: ops that turn complex operands into their real component type
TO_REAL = frozenset({Op.REAL, Op.IMAG})
#: ops that may combine an accumulator (associative and commutative)
REDUCE_OPS = frozenset({Op.ADD, Op.MUL, Op.MAX, Op.MIN, Op.OR, Op.AND})
COMMUTATIVE = frozenset({Op.ADD, Op.MUL, Op.MAX, Op.MIN, Op.CMPEQ, Op.CMPNE, Op.AND, Op.OR,
                         Op.XOR, Op.HYPOT, Op.LOGADDEXP})
#: instructions with effects or scope: never merged by common-subexpression elimination
EFFECTS = frozenset({Op.RANGE, Op.END, Op.IF, Op.STORE, Op.ACC, Op.ACC_UPDATE, Op.ACC_GET,
                     Op.ACC_RESULT, Op.ACC_SCAN, Op.GROUP_REDUCE, Op.GROUP_SCAN})
#: group ops: every work item of the group must reach them (they synchronize the group)
GROUP_OPS = frozenset({Op.GROUP_REDUCE, Op.GROUP_SCAN})
SCOPES = frozenset({Op.RANGE, Op.IF})
SPECIALS = ("group_id", "local_id")
RANGE_KINDS = ("global", "inner", "reduce", "lane")

INDEX = np.dtype(np.int64)
BOOL = np.dtype(np.bool_)


def identity(op: Op, dtype: np.dtype) -> Any:
    """The neutral element of a reduce op for ``dtype`` (the value an empty reduction gives)."""
    dtype = np.dtype(dtype)
    if op is Op.ADD:
        return False if dtype == BOOL else 0
    if op is Op.MUL:
        return True if dtype == BOOL else 1
    if op is Op.OR:
        return False
    if op is Op.AND:
        return True
    if op is Op.FIRST:
        op = Op.MIN
    if op in (Op.MAX, Op.MIN):
        sign = -1 if op is Op.MAX else 1
        if dtype.kind == "f":
            return sign * float("inf")
        if dtype == BOOL:
            return op is Op.MIN
        info = np.iinfo(dtype)
        return info.min if op is Op.MAX else info.max
    raise ValueError(f"{op} is not a reduce op")


@dataclass(frozen=True)
class Instr:
    op: Op
    dtype: np.dtype | None
    srcs: tuple[int, ...] = ()
    arg: Any = None

    def __repr__(self) -> str:
        dt = "-" if self.dtype is None else str(self.dtype)
        text = f"{self.op.value:<11}{dt:<10}"
        if self.srcs:
            text += f" {list(self.srcs)}"
        if self.arg is not None:
            text += f"  {self.arg!r}"
        return text


@dataclass
class Kernel:
    """A whole kernel: instructions plus the shape of its argument arrays."""

    name: str
    instrs: list[Instr]
    buffers: list[tuple[np.dtype, bool]]   # (dtype, writable) per buffer argument
    n_ints: int
    n_floats: int
    meta: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        lines = [f"kernel {self.name}: {len(self.buffers)} buffers, {self.n_ints} ints, "
                 f"{self.n_floats} floats"]
        depth = 0
        for i, ins in enumerate(self.instrs):
            if ins.op is Op.END:
                depth -= 1
            lines.append(f"{i:4d} {'  ' * depth}{ins!r}")
            if ins.op in SCOPES:
                depth += 1
        return "\n".join(lines)


class VerifyError(AssertionError):
    """The IR broke one of its rules (a bug in the code that produced it)."""


def verify(kernel: Kernel) -> None:
    """Check the IR's rules: SSA order, loop scopes, accumulator placement, dtypes."""
    ins = kernel.instrs
    scope_of: dict[int, int] = {}     # instruction -> the RANGE it lives in (-1: top)
    open_ranges: list[int] = [-1]
    closed: set[int] = set()
    acc_depth: dict[int, int] = {}

    def fail(i: int, why: str) -> None:
        raise VerifyError(f"{kernel.name}: instruction {i} ({ins[i]!r}): {why}\n{kernel}")

    # values that may differ between the work items of a group (thread-style kernels)
    varying: set[int] = set()
    for i, x in enumerate(ins):
        if (x.op is Op.SPECIAL and x.arg == "local_id") or any(s in varying for s in x.srcs) \
                or x.op in (Op.ACC_GET, Op.ACC_RESULT, Op.ACC_SCAN, Op.GROUP_SCAN) \
                or (x.op is Op.GROUP_REDUCE and x.arg[2] > 1):
            varying.add(i)
        for s in x.srcs:
            if not 0 <= s < i:
                fail(i, f"source {s} is not an earlier instruction")
            if scope_of.get(s, -1) in closed:
                fail(i, f"source {s} is used after the END of its loop")
        if x.op is Op.RANGE:
            if x.arg not in RANGE_KINDS or len(x.srcs) not in (2, 3):
                fail(i, "RANGE needs (start, end[, step]) and a kind")
            if any(ins[s].dtype != INDEX for s in x.srcs):
                fail(i, "RANGE bounds must be int64")
        elif x.op is Op.IF:
            if len(x.srcs) != 1 or ins[x.srcs[0]].dtype != BOOL:
                fail(i, "IF needs one bool operand")
        elif x.op is Op.SPECIAL:
            if x.arg not in SPECIALS or x.dtype != INDEX:
                fail(i, f"SPECIAL must be one of {SPECIALS}, int64")
        elif x.op in GROUP_OPS:
            op, size, stride = x.arg if x.op is Op.GROUP_REDUCE else (*x.arg, 1)
            if op not in REDUCE_OPS or size & (size - 1) or stride & (stride - 1) or \
                    not 0 < stride <= size:
                fail(i, f"{x.op.value} needs a reduce op and power-of-two size >= stride")
            if ins[x.srcs[0]].dtype != x.dtype:
                fail(i, f"{x.op.value} gives its operand's dtype")
            if any(ins[r].op is not Op.RANGE or any(s in varying for s in ins[r].srcs)
                   for r in open_ranges[1:]):
                fail(i, f"{x.op.value} must be reached by every work item: at the top level "
                        f"or in loops whose bounds are the same for the whole group")
        elif x.op is Op.END:
            if len(open_ranges) == 1 or x.srcs != (open_ranges[-1],):
                fail(i, "END does not close the innermost open RANGE or IF")
            closed.add(open_ranges.pop())
            continue
        elif x.op in (Op.LOAD, Op.STORE):
            buf = ins[x.srcs[0]]
            if buf.op is not Op.BUF or ins[x.srcs[1]].dtype != INDEX:
                fail(i, "LOAD/STORE need (BUF, int64 index)")
            if x.op is Op.STORE and (not buf.arg[2] or ins[x.srcs[2]].dtype != buf.dtype):
                fail(i, "STORE needs a writable buffer of the value's dtype")
            if x.op is Op.LOAD and x.dtype != buf.dtype:
                fail(i, "LOAD dtype differs from the buffer's")
            if x.op is Op.LOAD and len(x.srcs) == 3 and ins[x.srcs[2]].dtype != BOOL:
                fail(i, "a guarded LOAD needs a bool validity operand")
        elif x.op is Op.ACC:
            if x.arg[0] not in REDUCE_OPS:
                fail(i, "ACC combine op is not a reduce op")
            acc_depth[i] = len(open_ranges)
        elif x.op is Op.ACC_UPDATE:
            acc = x.srcs[0]
            if ins[acc].op is not Op.ACC or len(open_ranges) <= acc_depth[acc]:
                fail(i, "ACC_UPDATE must be inside a loop nested in its ACC's scope")
            if ins[x.srcs[2]].dtype != ins[acc].dtype:
                fail(i, "ACC_UPDATE value dtype differs from the accumulator's")
        elif x.op in (Op.ACC_GET, Op.ACC_RESULT):
            if ins[x.srcs[0]].op is not Op.ACC:
                fail(i, "ACC_GET/ACC_RESULT need an ACC")
        elif x.op is Op.ACC_SCAN:
            acc = x.srcs[0]
            if ins[acc].op is not Op.ACC or len(open_ranges) != acc_depth[acc] + 1:
                fail(i, "ACC_SCAN must be in the loop directly inside its ACC's scope")
            if ins[x.srcs[2]].dtype != ins[acc].dtype or x.dtype != ins[acc].dtype:
                fail(i, "ACC_SCAN value dtype differs from the accumulator's")
        elif x.op is Op.BITCAST:
            src = ins[x.srcs[0]].dtype
            if src is None or x.dtype is None or {src.kind, x.dtype.kind} != {"f", "i"} or \
                    x.dtype.itemsize != src.itemsize or src.itemsize not in (4, 8):
                fail(i, "BITCAST takes float32/float64 to the signed integer of its width, "
                        "or back")
        elif x.op in BINARY and x.op not in (Op.SHL, Op.SHR, Op.COMPLEX):
            a, b = (ins[s].dtype for s in x.srcs)
            if a != b:
                fail(i, f"operand dtypes differ: {a} and {b}")
        elif x.op is Op.WHERE:
            c, a, b = (ins[s].dtype for s in x.srcs)
            if c != BOOL or a != b or x.dtype != a:
                fail(i, "WHERE needs (bool, T, T) -> T")
        scope_of[i] = open_ranges[-1]
        if x.op in SCOPES:
            open_ranges.append(i)
    if len(open_ranges) != 1:
        raise VerifyError(f"{kernel.name}: {len(open_ranges) - 1} RANGE(s) left open")


class Builder:
    """Appends instructions, merging identical pure ones (common-subexpression elimination).

    The merge table is scoped like the loops: a value made inside a loop is forgotten at its
    END, so nothing is ever reused out of scope. ``remember``/``recall`` keep a caller's own
    memo (an expression already lowered at some index) under the same scoping.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.instrs: list[Instr] = []
        self._memo: list[dict[Instr, int]] = [{}]
        self._named: list[dict[Any, int]] = [{}]
        self._ranges: list[int] = []
        self.buffers: list[tuple[np.dtype, bool]] = []
        self.n_ints = 0
        self.n_floats = 0
        #: per int argument, a value to use as a constant in its place (the argument stays
        #: in the signature, unread), or None; set before the arguments are declared
        self.fixed: tuple[int | None, ...] = ()

    def emit(self, op: Op, dtype: Any, srcs: tuple[int, ...] = (), arg: Any = None) -> int:
        dt = None if dtype is None else np.dtype(dtype)
        if op in COMMUTATIVE and len(srcs) == 2 and srcs[0] > srcs[1]:
            srcs = (srcs[1], srcs[0])
        instr = Instr(op, dt, tuple(srcs), arg)
        if op not in EFFECTS:
            for table in reversed(self._memo):
                hit = table.get(instr)
                if hit is not None:
                    return hit
        self.instrs.append(instr)
        index = len(self.instrs) - 1
        if op not in EFFECTS:
            self._memo[-1][instr] = index
        return index

    # -- arguments ----------------------------------------------------------------------------
    def buf(self, dtype: Any, writable: bool) -> int:
        self.buffers.append((np.dtype(dtype), writable))
        return self.emit(Op.BUF, dtype, (), (len(self.buffers) - 1, np.dtype(dtype).name,
                                              writable))

    def int_arg(self) -> int:
        self.n_ints += 1
        n = self.n_ints - 1
        if n < len(self.fixed) and self.fixed[n] is not None:
            return self.const(self.fixed[n])
        return self.emit(Op.INT_ARG, INDEX, (), n)

    def float_arg(self) -> int:
        self.n_floats += 1
        return self.emit(Op.FLOAT_ARG, np.float64, (), self.n_floats - 1)

    def const(self, value: Any, dtype: Any = INDEX) -> int:
        dt = np.dtype(dtype)
        return self.emit(Op.CONST, dt, (), _canonical(value, dt))

    # -- loops --------------------------------------------------------------------------------
    def range(self, start: int, end: int, kind: str, step: int | None = None) -> int:
        srcs = (start, end) if step is None else (start, end, step)
        r = self.emit(Op.RANGE, INDEX, srcs, kind)
        self._ranges.append(r)
        self._memo.append({})
        self._named.append({})
        return r

    def if_(self, cond: int) -> int:
        """Open a block that runs where ``cond`` holds (closed by ``end``)."""
        r = self.emit(Op.IF, None, (cond,))
        self._ranges.append(r)
        self._memo.append({})
        self._named.append({})
        return r

    def end(self, r: int) -> None:
        assert self._ranges and self._ranges[-1] == r, "END must close the innermost scope"
        self._ranges.pop()
        self._memo.pop()
        self._named.pop()
        self.emit(Op.END, None, (r,))

    def recall(self, key: Any) -> int | None:
        """The instruction ``remember`` stored under ``key`` in a scope still open, if any."""
        for table in reversed(self._named):
            hit = table.get(key)
            if hit is not None:
                return hit
        return None

    def remember(self, key: Any, index: int) -> None:
        """Keep ``index`` under ``key`` until the innermost open scope ends."""
        self._named[-1][key] = index

    # -- values -------------------------------------------------------------------------------
    def dtype(self, i: int) -> np.dtype:
        d = self.instrs[i].dtype
        assert d is not None
        return d

    def alu(self, op: Op, *srcs: int, dtype: Any = None) -> int:
        if op is Op.WHERE and self.instrs[srcs[0]].op is Op.CONST:
            return srcs[1] if self.instrs[srcs[0]].arg else srcs[2]
        if op is Op.AND and self.dtype(srcs[0]).kind == "b":
            for x, y in ((srcs[0], srcs[1]), (srcs[1], srcs[0])):
                if self.instrs[x].op is Op.CONST:
                    return y if self.instrs[x].arg else x
        if dtype is None:
            first = self.dtype(srcs[1] if op is Op.WHERE else srcs[0])
            if op in BOOL_RESULT:
                dtype = BOOL
            elif op in TO_REAL or (op is Op.ABS and first.kind == "c"):
                dtype = np.empty(0, first).real.dtype
            else:
                dtype = first
        return self.emit(op, dtype, srcs)

    def cast(self, x: int, dtype: Any) -> int:
        if self.dtype(x) == np.dtype(dtype):
            return x
        return self.emit(Op.CAST, dtype, (x,))

    def idx(self, op: Op, a: int, b: int) -> int:
        """Integer index arithmetic, folding constants (0 + x, 1 * x, x // 1)."""
        ia, ib = self.instrs[a], self.instrs[b]
        if ia.op is Op.CONST and ib.op is Op.CONST:
            value = {Op.ADD: ia.arg + ib.arg, Op.MUL: ia.arg * ib.arg, Op.SUB: ia.arg - ib.arg,
                     Op.MIN: min(ia.arg, ib.arg)}.get(op)
            if value is not None:
                return self.const(value)
        if op is Op.ADD:
            if ia.op is Op.CONST and ia.arg == 0:
                return b
            if ib.op is Op.CONST and ib.arg == 0:
                return a
        if op is Op.MUL:
            for x, y in ((ia, b), (ib, a)):
                if x.op is Op.CONST and x.arg == 1:
                    return y
                if x.op is Op.CONST and x.arg == 0:
                    return self.const(0)
        if op in (Op.IDIV,) and ib.op is Op.CONST and ib.arg == 1:
            return a
        if op is Op.MOD and ib.op is Op.CONST and ib.arg == 1:
            return self.const(0)
        # (offsets: marked "index", so renderers keep them plain signed arithmetic; a
        # division keeps no mark, since only ``_nonneg`` knows its operands are not negative)
        return self.emit(op, INDEX, (a, b), None if op in (Op.IDIV, Op.MOD) else "index")

    def load(self, buf: int, index: int) -> int:
        return self.emit(Op.LOAD, self.dtype(buf), (buf, index))

    def store(self, buf: int, index: int, value: int) -> None:
        self.emit(Op.STORE, None, (buf, index, value))

    def acc(self, op: Op, dtype: Any, lanes: int) -> int:
        return self.emit(Op.ACC, dtype, (), (op.value, lanes))

    def acc_update(self, acc: int, lane: int, value: int) -> None:
        self.emit(Op.ACC_UPDATE, None, (acc, lane, value))

    def finish(self, **meta: Any) -> Kernel:
        assert not self._ranges, "unclosed RANGE"
        k = Kernel(self.name, self.instrs, self.buffers, self.n_ints, self.n_floats, dict(meta))
        verify(k)
        return k


def _canonical(value: Any, dtype: np.dtype) -> Any:
    """Constants are stored as plain Python values so instructions hash and print simply."""
    if dtype.kind == "b":
        return bool(value)
    if dtype.kind in "iu":
        return int(value)
    if dtype.kind == "f":
        return float(value)
    return complex(value)
