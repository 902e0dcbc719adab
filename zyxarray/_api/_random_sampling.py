"""Random bits and the samplers built on them, for ``_random`` (``numpy.random``).

Layer: ``_api``. Philox4x32-10 as elementwise graph ops on uint64 words (``_philox``), the
seed's key (SplitMix64 on the host), ``_Draw`` (the counters of one call) and the
distributions' transforms: uniform floats, Box-Muller normals, exponentials by inversion,
Lemire's bounded integers, exact Poisson and binomial samplers of bounded work (see
``_random``'s docstring). Imports ``_lazy.graph`` and ``_api`` functions; never
``numpy.random``'s generators.
"""

from __future__ import annotations

import copy
import functools
import math
import operator
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._devices.base import Device
from .._lazy import graph as g
from . import _dtypes as dt
from . import _elementwise_functions as ew
from ._array_object import Array
from ._creation_functions import _shape, asarray
from ._data_type_functions import astype
from ._manipulation_functions import broadcast_to, reshape
from ._searching_functions import where

_M32 = 0xFFFFFFFF
_M64 = (1 << 64) - 1
_U64 = np.dtype(np.uint64)
_PHILOX_M = (0xD2511F53, 0xCD9E8D57)    # the round multipliers
_PHILOX_W = (0x9E3779B9, 0xBB67AE85)    # the key's increments per round
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)
#: the largest mean ``poisson`` takes (NumPy's: its variates must fit in int64)
_LAM_MAX = float(np.iinfo(np.int64).max - math.sqrt(np.iinfo(np.int64).max) * 10)

#: a uint64 word of the Philox computation: a graph node, or a Python int folded on the host
Word = int | g.Node

_FOLD: dict[Op, Callable[[int, int], int]] = {
    Op.ADD: operator.add, Op.SUB: operator.sub, Op.MUL: operator.mul, Op.AND: operator.and_,
    Op.OR: operator.or_, Op.XOR: operator.xor, Op.SHL: operator.lshift,
    Op.SHR: operator.rshift,
}


# -- the bit generator's arithmetic ---------------------------------------------------------
def _w(op: Op, a: Word, b: Word, device: Device) -> Word:
    """``a op b`` on uint64 words (wrapping as C's unsigned arithmetic does). Two Python ints
    fold on the host, and so do the identities of 0, so the counter's constant words make
    Philox's first round partly constant."""
    if isinstance(a, int) and isinstance(b, int):
        return _FOLD[op](a, b) & _M64
    if isinstance(b, int) and b == 0 and op in (Op.ADD, Op.SUB, Op.OR, Op.XOR, Op.SHL,
                                                  Op.SHR):
        return a
    if isinstance(a, int) and a == 0:
        if op in (Op.ADD, Op.OR, Op.XOR):
            return b
        if op in (Op.MUL, Op.AND, Op.SHL, Op.SHR):
            return 0
    if isinstance(b, int) and b == 0 and op in (Op.MUL, Op.AND):
        return 0
    # (a Python int here is a fixed constant of the algorithm, written into the kernel;
    # values that change from call to call are ``_fresh`` nodes)
    na = a if isinstance(a, g.Node) else g.literal(a, _U64, device)
    nb = b if isinstance(b, g.Node) else g.literal(b, _U64, device)
    return g.alu(op, na, nb)


def _split_key(key: int) -> tuple[int, int]:
    """A 64-bit key as Philox's two 32-bit key words."""
    return key & _M32, key >> 32


def _philox(counter: tuple[Word, Word, Word, Word], key: tuple[Word, Word],
            device: Device) -> tuple[Word, Word, Word, Word]:
    """Philox4x32-10 of ``counter`` under ``key`` (two words below 2**32): four words below
    2**32. Round i maps (c0, c1, c2, c3) to (hi(M1 c2) ^ c1 ^ k0_i, lo(M1 c2),
    hi(M0 c0) ^ c3 ^ k1_i, lo(M0 c0)), with the round keys k_i = k + i W (mod 2**32) made
    in the kernel from the key's two words: two arguments, not twenty (a compiler hoists
    them out of its loops; as arguments they were most of a random graph's leaves, past
    what the scheduler's structure keys take, and they spilled scalar registers on AMD)."""
    c0, c1, c2, c3 = counter
    m0, m1 = _PHILOX_M
    shape = next(w.shape for w in counter if isinstance(w, g.Node))
    for i in range(10):
        k0 = _round_key(key[0], i * _PHILOX_W[0] & _M32, shape, device)
        k1 = _round_key(key[1], i * _PHILOX_W[1] & _M32, shape, device)
        p0 = _w(Op.MUL, c0, m0, device)
        p1 = _w(Op.MUL, c2, m1, device)
        c0, c1, c2, c3 = (
            _w(Op.XOR, _w(Op.XOR, _w(Op.SHR, p1, 32, device), c1, device), k0, device),
            _w(Op.AND, p1, _M32, device),
            _w(Op.XOR, _w(Op.XOR, _w(Op.SHR, p0, 32, device), c3, device), k1, device),
            _w(Op.AND, p0, _M32, device))
    return c0, c1, c2, c3


def _round_key(word: Word, increment: int, shape: tuple[int, ...], device: Device) -> Word:
    """``(word + increment) mod 2**32``, a round key. A key word is a CONST (an argument), so
    ``alu`` would fold this sum on the host into a new argument: it is made on the word's
    broadcast, which nothing folds, and computed in the kernel (once, where the compiler
    hoists it)."""
    if isinstance(word, int):
        return (word + increment) & _M32
    if not increment:
        return word
    wide = g.broadcast(word, shape) if word.shape != shape else word
    total = g.alu2(Op.ADD, wide, g.literal(increment, _U64, device))
    return g.alu2(Op.AND, total, g.literal(_M32, _U64, device))


def _philox_nodes(counter: tuple[Word, Word, Word, Word], key: tuple[Word, Word],
                  device: Device) -> tuple[Word, Word, Word, Word]:
    """``_philox`` through ``graph.rebuilt``: a draw of the structure of one made before
    (same counter layout, any key and offset) remakes its 100-odd nodes from a template,
    without the operators' Python. Philox's graph depends on its words' values nowhere:
    the ints among them (fixed words, folded on the host) are the template's parameters,
    and no op it makes has only constant operands."""
    words = [*counter, *key]
    nodes = tuple([w for w in words if isinstance(w, g.Node)])
    ints = tuple([None if isinstance(w, g.Node) else w for w in words])
    return g.rebuilt(_philox_of, (ints, device), nodes)   # type: ignore[return-value]


def _philox_of(*args: Any) -> tuple[Word, Word, Word, Word]:
    """``_philox`` of the words ``_philox_nodes`` split into nodes (first) and ints."""
    *nodes, ints, device = args
    it = iter(nodes)
    words = [next(it) if v is None else v for v in ints]
    return _philox((words[0], words[1], words[2], words[3]), (words[4], words[5]), device)


def _fresh(value: int | float, dtype: np.dtype, device: Device) -> g.Node:
    """A constant node of its own for a value that changes from call to call (the offset,
    the key, scalar parameters). ``g.const`` shares equal Python ints and floats, so such a
    value that happened to equal one of the kernel's fixed constants would change the
    kernel's structure and compile it again; a NumPy scalar is never shared."""
    return g.const(dtype.type(value), dtype, device)


def _splitmix64(state: int) -> tuple[int, int]:
    """One step of SplitMix64 (Steele, Lea and Flood, 2014): (next state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & _M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return state, z ^ (z >> 31)


def _seed_words(seed: Any, name: str) -> list[int]:
    """A seed (None, a non-negative int, a sequence of them, a NumPy SeedSequence) as
    64-bit words; None takes 128 bits of entropy from the operating system."""
    if seed is None:
        entropy = int.from_bytes(os.urandom(16), "little")
        return [entropy & _M64, entropy >> 64]
    if isinstance(seed, np.random.SeedSequence):
        return [int(w) for w in seed.generate_state(4, np.uint64)]
    if isinstance(seed, (Array, float, np.floating)) or (
            isinstance(seed, np.ndarray) and seed.dtype.kind not in "iub"):
        raise TypeError(f"{name}: a seed must be an int or a sequence of ints, not {seed!r}")
    values = [seed] if isinstance(seed, (int, np.integer)) else list(np.ravel(seed))
    words: list[int] = []
    for v in values:
        if isinstance(v, (float, np.floating)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{name}: a seed must be an int or a sequence of ints, not {v!r}")
        v = int(v)
        if v < 0:
            raise ValueError(f"{name}: a seed must be non-negative, got {v}")
        words.append(v & _M64)
        v >>= 64
        while v:
            words.append(v & _M64)
            v >>= 64
        words.append(len(words))        # (so [1, 0] and 1 + 2**64 differ)
    return words


def _key(words: list[int]) -> int:
    """The 64-bit Philox key of seed words: SplitMix64 over them."""
    state = 0
    out = 0
    for w in words:
        state, out = _splitmix64(state ^ w)
    return out


def _key_words(key: int, device: Device) -> tuple[Word, Word]:
    """The two words of ``key`` as kernel arguments (``_fresh``: a new seed must not compile
    new kernels), the same nodes for every draw of the key: a kernel that combines several
    draws of one generator (a beta's two gammas) takes them once, not once per draw."""
    nodes = _key_nodes.get((key, device))
    if nodes is None:
        if len(_key_nodes) >= 256:
            _key_nodes.clear()
        k0, k1 = _split_key(key)
        nodes = _key_nodes[(key, device)] = (_fresh(k0, _U64, device), _fresh(k1, _U64, device))
    return nodes


_key_nodes: dict[tuple[int, Device], tuple[Word, Word]] = {}


def _fixed_constants(f: Callable[..., Any]) -> Callable[..., Any]:
    """``f`` with the Python numbers it writes (``u * 2.53 + 0.931``) taken as literals
    (``graph.literals``): a sampler's own constants, written into its kernel rather than
    passed as dozens of arguments (which spilled scalar registers on AMD targets). Its
    parameters reach it as arrays (``_operand``) and its per-call values as ``_fresh``
    nodes, which stay arguments: a new seed or parameter compiles nothing."""
    @functools.wraps(f)
    def run(*args: Any, **kwargs: Any) -> Any:
        with g.literals():
            return f(*args, **kwargs)
    return run


def _counter_of(offset: g.Node, shape: tuple[int, ...], device: Device
                ) -> tuple[g.Node, g.Node]:
    """The counter words (low, high) of a draw of ``shape`` from ``offset``: element i (C
    order) reads counter offset + i (made through ``graph.rebuilt`` by ``_Draw``)."""
    index = g.cast(g.reshape(g.iota(math.prod(shape), device), shape), _U64)
    counter = g.alu(Op.ADD, index, offset)
    return (_w(Op.AND, counter, _M32, device), _w(Op.SHR, counter, 32, device))  # type: ignore


class _Draw:
    """The random words of one call: element ``i`` (C order) of ``shape`` reads counter
    ``offset + i``; its block ``b`` is Philox of (counter, b, 0), four 32-bit words."""

    def __init__(self, key: int, offset: int, shape: tuple[int, ...], device: Device) -> None:
        self.key = _key_words(key, device)
        self.shape = shape
        self.device = device
        self.counter = g.rebuilt(_counter_of, (shape, device),      # type: ignore[assignment]
                                 (_fresh(offset, _U64, device),))
        self.block: Word = 0
        self._blocks: dict[int, tuple[Word, Word, Word, Word]] = {}

    def words(self, block: int) -> tuple[Word, Word, Word, Word]:
        out = self._blocks.get(block)
        if out is None:
            counter = (*self.counter, _w(Op.ADD, self.block, block, self.device), 0)
            out = self._blocks[block] = _philox_nodes(counter, self.key, self.device)
        return out

    def over_attempts(self, attempts: int) -> _Draw:
        """This draw's counters along a new last axis of ``attempts``: attempt i of an
        element reads block i of its counter. A rejection sampler's independent
        attempts become an axis that a reduction walks, so its kernel holds the code of one
        attempt, not one copy per attempt."""
        out = copy.copy(self)
        out.shape = self.shape + (attempts,)
        column = self.shape + (1,)
        c0, c1 = (g.broadcast(g.reshape(_node(c), column), out.shape) for c in self.counter)
        out.counter = (c0, c1)
        index = g.reshape(g.shared_iota(attempts, self.device),
                          (1,) * len(self.shape) + (attempts,))
        out.block = g.cast(g.broadcast(index, out.shape), _U64)
        out._blocks = {}
        return out


    def bits64(self, block: int = 0) -> Array:
        """64 random bits per element (uint64)."""
        w = self.words(block)
        return _array(_w(Op.OR, _w(Op.SHL, w[0], 32, self.device), w[1], self.device))

    @_fixed_constants
    def unit(self, block: int, half: int, dtype: dt.DType, open_low: bool = False) -> Array:
        """Uniform floats of ``dtype`` in [0, 1) (in (0, 1] if ``open_low``) from words
        2*half and 2*half+1 of ``block``: 53 random bits for float64, 24 for float32."""
        w = self.words(block)
        dev = self.device
        if dtype == dt.float64:
            bits = _w(Op.OR, _w(Op.SHL, w[2 * half], 21, dev), _w(Op.SHR, w[2 * half + 1], 11,
                                                                   dev), dev)
            scale = 2.0 ** -53
        else:
            bits = _w(Op.SHR, w[2 * half], 8, dev)
            scale = 2.0 ** -24
        if open_low:
            bits = _w(Op.ADD, bits, 1, dev)
        return _array(g.cast(_node(bits), dtype.np)) * scale


def _node(w: Word) -> g.Node:
    assert isinstance(w, g.Node), "a draw's words depend on the counter"
    return w


def _array(w: Word) -> Array:
    return Array._new(_node(w))


# -- distributions on a draw (arrays of the draw's shape) -----------------------------------
def _work_float(device: Device) -> dt.DType:
    return ew.default_float(device)


def _standard_normal(draw: _Draw, work: dt.DType) -> Array:
    """``_standard_normal_built``, remade from a template after the first call of a
    structure (``_templated``)."""
    return _templated(_standard_normal_built, draw, [], (work,))[0]


@_fixed_constants
def _standard_normal_built(draw: _Draw, work: dt.DType) -> Array:
    """Box-Muller: sqrt(-2 log u1) cos(2 pi u2), u1 in (0, 1] (block 0, words 0-1) and u2 in
    [0, 1) (words 2-3); exact, one variate per element (53-bit u1: |z| < 8.6, a tail of
    probability 1e-17)."""
    radius = ew.sqrt(ew.log(draw.unit(0, 0, work, open_low=True)) * -2.0)
    return radius * _cos_two_pi(draw.unit(0, 1, work))


#: sin's Taylor coefficients 1/1!, -1/3!, ..., -1/23! (on [-pi/2, pi/2] the first left out,
#: x**25/25!, is below 5e-21)
_SIN_TAYLOR = [(-1) ** k / math.factorial(2 * k + 1) for k in range(12)]


def _cos_two_pi(u: Array) -> Array:
    """cos(2 pi u) for u in [0, 1), to about 1e-16: u is already its own reduced argument, so
    no general reduction is needed (a generic cos of 2 pi u costs six times more on the cpu
    device, most of it in the reduction that huge arguments need). With v = u folded into
    (-1/2, 1/2], cos(2 pi v) = sin(2 pi (1/4 - |v|)), an argument in [-pi/2, pi/2] where an
    odd polynomial is exact to rounding."""
    v = where(u > 0.5, u - 1.0, u)
    x = (0.25 - ew.abs(v)) * (2.0 * math.pi)
    x2 = x * x
    p = x2 * _SIN_TAYLOR[-1] + _SIN_TAYLOR[-2]
    for c in reversed(_SIN_TAYLOR[:-2]):
        p = p * x2 + c
    return x * p


@_fixed_constants
def _standard_exponential(draw: _Draw, work: dt.DType) -> Array:
    """Inversion: -log u, u in (0, 1]."""
    return -ew.log(draw.unit(0, 0, work, open_low=True))


def _uniform_built(draw: _Draw, work: dt.DType) -> Array:
    """Uniform floats in [0, 1) (``random``; through ``_templated``)."""
    return draw.unit(0, 0, work)


def _integers_built(draw: _Draw, lo: Array, span: Array) -> Array:
    """lo + a uniform integer in [0, span), as uint64 words (span 0: all 2**64 values;
    ``integers``, through ``_templated``)."""
    dev = draw.device
    x = draw.words(0)
    whole = _w(Op.OR, _w(Op.SHL, x[3], 32, dev), x[2], dev)    # span 2**64 wraps to 0
    is_whole = g.alu(Op.CMPEQ, span._node, g.const(0, _U64, dev), dtype=np.bool_)
    offset = g.alu(Op.WHERE, is_whole, _node(whole), _node(_below(draw, span._node)))
    return _array(_w(Op.ADD, offset, lo._node, dev))


def _below(draw: _Draw, r: Word) -> Word:
    """floor(x r / 2**128) for the 128 random bits x of block 0 (Lemire's multiply-shift on
    32-bit limbs): uniform on [0, r) for 0 < r < 2**64, each value's probability within a
    relative r / 2**128 <= 2**-64 of 1/r (no modulo bias that any sample could show)."""
    dev = draw.device
    x = draw.words(0)                      # limbs, low first
    r0 = _w(Op.AND, r, _M32, dev)
    r1 = _w(Op.SHR, r, 32, dev)

    def hi(v: Word) -> Word:
        return _w(Op.SHR, v, 32, dev)

    def lo(v: Word) -> Word:
        return _w(Op.AND, v, _M32, dev)

    def add(*vs: Word) -> Word:
        out = vs[0]
        for v in vs[1:]:
            out = _w(Op.ADD, out, v, dev)
        return out

    carry = hi(_w(Op.MUL, x[0], r0, dev))
    for col in (1, 2, 3):               # the columns of limbs 1..3 of the 192-bit product
        a = _w(Op.MUL, x[col], r0, dev)
        b = _w(Op.MUL, x[col - 1], r1, dev)
        s = add(carry, lo(a), lo(b))
        carry = add(hi(s), hi(a), hi(b))
    a = _w(Op.MUL, x[3], r1, dev)
    s = add(carry, lo(a))
    return _w(Op.OR, _w(Op.SHL, add(hi(s), hi(a)), 32, dev), lo(s), dev)


def _tail_steps(mean: float) -> int:
    """The smallest K with P(X >= K) < 1e-16 for X ~ Poisson(mean): the steps an inversion
    by sequential search needs for means up to ``mean`` (it bounds the tail of a binomial of
    that mean too, Anderson and Samuels 1967)."""
    top = int(mean + 20 * math.sqrt(mean) + 40)
    pmf = [math.exp(k * math.log(mean) - mean - math.lgamma(k + 1)) for k in range(top)]
    tail = 0.0
    for k in range(top - 1, -1, -1):
        tail += pmf[k]
        if tail >= 1e-16:
            return k + 1
    return 1


#: inversion is used below this mean, rejection from it (where rejection accepts often)
_INVERSION_MAX = 30.0
#: (largest mean, inversion steps): few steps for small means, one kernel structure each
_STEPS = tuple((m, _tail_steps(m)) for m in (1.0, 4.0, 10.0, _INVERSION_MAX))
#: attempts of the rejection samplers: PTRS accepts with probability > 0.81 from mean 30 and
#: BTRS > 0.76 (measured; bounds 0.80 and 0.75 used), so all attempts fail with probability
#: below 0.2**22 and 0.25**25, both < 1e-15
_PTRS_ATTEMPTS = 22
_BTRS_ATTEMPTS = 25
#: lgamma(k + 1) - ((k + 1/2) log(k + 1) - (k + 1) + log(2 pi) / 2) for k < 10
_TAIL_TABLE = tuple(math.lgamma(k + 1) - ((k + 0.5) * math.log(k + 1) - (k + 1) +
                                          _HALF_LOG_2PI) for k in range(10))


def _steps_for(largest: float | None) -> int:
    """Inversion steps for means up to ``largest`` (None: unknown, the most)."""
    for mean, steps in _STEPS:
        if largest is not None and largest <= mean:
            return steps
    return _STEPS[-1][1]


def _stirling_tail(k: Array) -> Array:
    """lgamma(k+1) - ((k+1/2) log(k+1) - (k+1) + log(2 pi)/2) for integer-valued k >= 0: the
    Stirling series to 1/(1680 y**7), y = k + 1, from k = 10 (error < 4e-13), a table
    below."""
    r = 1.0 / (k + 1.0)
    r2 = r * r
    tail = r * (1 / 12 - r2 * (1 / 360 - r2 * (1 / 1260 - r2 * (1 / 1680))))
    for j, value in enumerate(_TAIL_TABLE):
        tail = where(k == float(j), value, tail)
    return tail


def _count_inversion(u: Array, first: Array, ratio: Callable[[int], Array],
                     steps: int) -> Array:
    """Inversion by sequential search, unrolled: the number of j < steps with
    F(j) <= u, where F(j) = p(0) + ... + p(j), p(0) = ``first``, p(j) = p(j-1) ratio(j).
    (A chain of selects, ``where(F(j) <= u, j + 1, count)``, gives the same count, since F
    rises, and gcc compiled it vectorized in 6 s rather than 170; but clang then kept the
    conditions live and spilled VGPRs on gfx1100. The cpu device's compile budget bounds
    gcc's time instead: ``cpu.COMPILE_BUDGET``.)"""
    p = first
    cdf = first
    count = astype(cdf <= u, u.dtype)
    for j in range(1, steps):
        p = p * ratio(j)
        cdf = cdf + p
        count = count + astype(cdf <= u, u.dtype)
    return count


def _poisson(draw: _Draw, lam: Array, smallest: float | None, largest: float | None) -> Array:
    """``_poisson_built``, remade from a template after the first call of a structure."""
    return _templated(_poisson_built, draw, [lam], (smallest, largest))[0]


@_fixed_constants
def _poisson_built(draw: _Draw, lam: Array, smallest: float | None,
                   largest: float | None) -> Array:
    """Poisson variates (as float64) of means ``lam``: inversion below mean 30, PTRS from it;
    a branch that no element needs (the bounds known on the host) is not built."""
    work = dt.float64
    inversion = rejection = None
    if smallest is None or smallest < _INVERSION_MAX:
        steps = _steps_for(largest)
        inversion = _count_inversion(draw.unit(0, 0, work), ew.exp(-lam),
                                     lambda j: lam * (1.0 / j), steps)
    if largest is None or largest >= _INVERSION_MAX:
        rejection = _ptrs(draw, ew.maximum(lam, _INVERSION_MAX))
    if inversion is None:
        assert rejection is not None
        return rejection
    if rejection is None:
        return inversion
    return where(lam < _INVERSION_MAX, inversion, rejection)


def _first_accepted(draw: _Draw, params: list[Array], attempts: int,
                    attempt: Callable[..., tuple[Array, Array]]) -> tuple[Array, Array]:
    """(found, value) per element: the value of the first accepted of ``attempts``
    independent attempts (``attempt(draw, *params)`` gives (accepted, value) of attempt i
    from block i). Each element's search stops at its first accepted attempt
    (``_attempts_built``): no attempt is made for nothing, so the samplers no longer run
    in stages of gathered elements (20,000 Zipf variates made 30 attempts each in 52 ms on
    the cpu device; the stages that followed cost Python and host syncs: 3,000 binomial
    variates 12 ms, 0.7 ms now)."""
    found, value = _templated(_attempts_on, draw, params, (attempts, attempt))
    return found, value


def _attempts_on(draw: _Draw, *rest: Any) -> tuple[Array, Array]:
    """``_attempts_built`` with the parameters spread (``_templated``'s form)."""
    *params, attempts, attempt = rest
    return _attempts_built(draw, list(params), attempts, attempt)


def _templated(fn: Callable[..., Any], draw: _Draw, arrays: list[Array], statics: tuple
               ) -> tuple[Array, ...]:
    """``fn(draw, *arrays, *statics)`` (an array or a tuple of them) as a tuple, remade from
    a template (``graph.rebuilt``) after the first call of a structure: a distribution's
    graph, hundreds of nodes, then costs its operators' Python once, not at every call.
    The template is keyed by the draw's shape and counter structure, ``statics``
    (hashable) and the arrays' structure, and by the values of the arrays that are one
    value (a scalar parameter the distribution may fold into its constants); a draw with a
    block of its own (an attempt axis) is built."""
    keys = list(draw.key)
    words = [*draw.counter, *keys]
    if draw.block != 0 or not all(isinstance(w, g.Node) for w in words):
        out = fn(draw, *arrays, *statics)
        return out if isinstance(out, tuple) else (out,)
    nodes = g.rebuilt(_templated_of, (fn, draw.shape, draw.device, len(draw.counter),
                                      len(keys), statics),
                      (*words, *[a._node for a in arrays]), values=True)
    return tuple(Array._new(n) for n in nodes)


def _templated_of(*args: Any) -> tuple[g.Node, ...]:
    """``fn`` of the nodes ``_templated`` passed ``graph.rebuilt`` (the draw's counter words
    and key, then the arrays), as nodes."""
    *nodes, fn, shape, device, n_counter, n_keys, statics = args
    draw = _Draw.__new__(_Draw)
    draw.shape, draw.device = shape, device
    draw.counter = tuple(nodes[:n_counter])
    draw.key = tuple(nodes[n_counter:n_counter + n_keys])
    draw.block, draw._blocks = 0, {}
    out = fn(draw, *[Array._new(n) for n in nodes[n_counter + n_keys:]], *statics)
    return tuple(a._node for a in (out if isinstance(out, tuple) else (out,)))


def _attempts_built(draw: _Draw, params: list[Array], attempts: int,
                    attempt: Callable[..., tuple[Array, Array]]) -> tuple[Array, Array]:
    """(found, value): the first accepted attempt's index, a ``FIRST`` reduction over the
    attempt axis (a search: each element's loop computes no attempt after the first
    accepted), then that attempt made again for its value, in the same kernel. Each element
    makes about two attempts, not ``attempts``: on an H100 4M gamma variates took 2.3 ms
    as 16 attempts per element reduced twice (a min for the index, a sum for its value)."""
    over = draw.over_attempts(attempts)
    column = draw.shape + (1,)
    accepted, _ = attempt(over, *[broadcast_to(reshape(p, column), over.shape) for p in params])
    index = astype(_array(over.block), dt.float64)
    candidates = where(accepted, index, float(attempts))
    first = reshape(Array._new(g.reduce(candidates._node, Op.FIRST, (len(draw.shape),))),
                    draw.shape)
    again = copy.copy(draw)
    again.block = g.cast(first._node, _U64)
    again._blocks = {}
    _, value = attempt(again, *params)
    return first < float(attempts), value


def _ptrs(draw: _Draw, lam: Array) -> Array:
    """Hörmann's PTRS (transformed rejection with squeeze, 1993) for means >= 10, with
    ``_PTRS_ATTEMPTS`` independent attempts; the first accepted wins (the mode if none is,
    with probability < 1e-15)."""
    found, k = _first_accepted(draw, [lam], _PTRS_ATTEMPTS, _ptrs_attempt)
    return where(found, k, ew.floor(lam))


def _ptrs_attempt(draw: _Draw, lam: Array) -> tuple[Array, Array]:
    """One PTRS attempt: (accepted, k). The acceptance bound -lam + k log lam - lgamma(k+1)
    is evaluated as d - k log1p(d/lam) - log(k+1)/2 - log(2 pi)/2 - tail(k), d = k + 1 - lam,
    which keeps its absolute error near 1e-11 up to lam = 1e8 (1e-8 at 1e15) where the
    textbook form loses digits to cancellation."""
    work = dt.float64
    b = ew.sqrt(lam) * 2.53 + 0.931
    a = b * 0.02483 - 0.059
    inv_alpha = 1.1328 / (b - 3.4) + 1.1239
    vr = 0.9277 - 3.6224 / (b - 2.0)
    u = draw.unit(0, 0, work) - 0.5
    v = draw.unit(0, 1, work, open_low=True)
    us = 0.5 - ew.abs(u)
    k = ew.floor((a * 2.0 / us + b) * u + lam + 0.43)
    kk = ew.maximum(k, 0.0)
    d = kk + 1.0 - lam
    bound = d - kk * ew.log1p(d / lam) - ew.log(kk + 1.0) * 0.5 - _HALF_LOG_2PI - \
        _stirling_tail(kk)
    squeeze = (us >= 0.07) & (v <= vr)
    test = (k >= 0.0) & ~((us < 0.013) & (v > us)) & \
        (ew.log(v * inv_alpha / (a / (us * us) + b)) <= bound)
    return squeeze | test, k


def _binomial(draw: _Draw, n: Array, p: Array, smallest: float | None,
              largest: float | None) -> Array:
    """``_binomial_built``, remade from a template after the first call of a structure."""
    return _templated(_binomial_built, draw, [n, p], (smallest, largest))[0]


@_fixed_constants
def _binomial_built(draw: _Draw, n: Array, p: Array, smallest: float | None,
                    largest: float | None) -> Array:
    """Binomial variates (as float64): with q = min(p, 1 - p), inversion where n q < 30 and
    BTRS from it, mirrored (n - x) where p > 1/2; ``smallest``/``largest`` bound n q when
    the host knows them."""
    flip = p > 0.5
    q = where(flip, 1.0 - p, p)
    mean = n * q
    inversion = rejection = None
    if smallest is None or smallest < _INVERSION_MAX:
        steps = _steps_for(largest)
        odds = q / (1.0 - q)
        first = ew.exp(n * ew.log1p(-q))
        inversion = ew.minimum(_count_inversion(
            draw.unit(0, 0, dt.float64), first, lambda j: (n - float(j - 1)) * (odds / j),
            steps), n)
    if largest is None or largest >= _INVERSION_MAX:
        if inversion is None:
            rejection = _btrs(draw, n, q)
        else:       # (elements of the other branch get harmless parameters: n 60, q 1/2)
            big = mean >= _INVERSION_MAX
            rejection = _btrs(draw, where(big, n, 60.0), where(big, q, 0.5))
    if inversion is None:
        assert rejection is not None
        x = rejection
    elif rejection is None:
        x = inversion
    else:
        x = where(mean < _INVERSION_MAX, inversion, rejection)
    return where(flip, n - x, x)


def _btrs(draw: _Draw, n: Array, q: Array) -> Array:
    """Hörmann's BTRS (transformed rejection with squeeze, 1993) for n q >= 10, q <= 1/2,
    with ``_BTRS_ATTEMPTS`` independent attempts; the first accepted wins (the mode if none
    is, with probability < 1e-15)."""
    found, k = _first_accepted(draw, [n, q], _BTRS_ATTEMPTS, _btrs_attempt)
    return where(found, k, ew.floor((n + 1.0) * q))


def _btrs_attempt(draw: _Draw, n: Array, q: Array) -> tuple[Array, Array]:
    """One BTRS attempt: (accepted, k). The bound lgamma(m+1) + lgamma(n-m+1) - lgamma(k+1)
    - lgamma(n-k+1) + (k-m) log(q/(1-q)) is evaluated from Stirling's form with the large
    terms cancelled analytically (absolute error about 1e-12 at n = 1e6, 1e-9 at 1e12)."""
    work = dt.float64
    spq = ew.sqrt(n * q * (1.0 - q))
    b = spq * 2.53 + 1.15
    a = b * 0.0248 + q * 0.01 - 0.0873
    vr = 0.92 - 4.2 / b
    alpha = (5.1 / b + 2.83) * spq
    m = ew.floor((n + 1.0) * q)
    u = draw.unit(0, 0, work) - 0.5
    v = draw.unit(0, 1, work, open_low=True)
    us = 0.5 - ew.abs(u)
    k = ew.floor((a * 2.0 / us + b) * u + n * q + 0.5)
    kk = ew.minimum(ew.maximum(k, 0.0), n)
    rest = n - kk + 1.0
    bound = (m + 0.5) * ew.log1p((m - kk) / (kk + 1.0)) + \
        (n - m + 0.5) * ew.log1p((kk - m) / rest) + \
        (m - kk) * ew.log((kk + 1.0) / rest * ((1.0 - q) / q)) + \
        _stirling_tail(m) + _stirling_tail(n - m) - _stirling_tail(kk) - _stirling_tail(n - kk)
    squeeze = (us >= 0.07) & (v <= vr)
    test = ew.log(v * alpha / (a / (us * us) + b)) <= bound
    return (k >= 0.0) & (k <= n) & (squeeze | test), k


# -- arguments --------------------------------------------------------------------------------
def _shape_of(value: Any) -> tuple[int, ...]:
    return value.shape if isinstance(value, Array) else np.shape(value)


def _out_shape(name: str, size: Any, *params: Any) -> tuple[int, ...]:
    """The result's shape: ``size``, which the parameters must broadcast to, or (size None)
    the parameters' broadcast shape."""
    shapes = [_shape_of(p) for p in params]
    if size is None:
        return ew.broadcast_shapes(name, *shapes)
    shape = _shape(name, size)
    try:
        together = ew.broadcast_shapes(name, shape, *shapes)
    except ValueError:
        together = None
    if together != shape:
        raise ValueError(f"{name}: shape mismatch: parameters of shapes "
                         f"{', '.join(map(str, shapes))} cannot be broadcast to size {shape}")
    return shape


# Note: parameters given as device arrays are not checked as NumPy checks them (that would
# read them back): where NumPy would raise, the results are NaN (floats) or -1 (integers).
def _host(value: Any) -> np.ndarray | None:
    """Host data as a float64 NumPy array (to check it as NumPy does); None for an Array."""
    if isinstance(value, Array):
        return None
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"parameters must be numbers or arrays of numbers, got "
                        f"{type(value).__name__}") from None


def _operand(value: Any, shape: tuple[int, ...], dtype: dt.DType, device: Device) -> Array:
    """A parameter as an Array of ``shape`` and ``dtype`` on ``device``: a scalar is one
    kernel argument, an array a broadcast view."""
    if isinstance(value, Array):
        a = value if value.dtype == dtype else astype(value, dtype)
        return a if a.shape == shape else broadcast_to(a, shape)
    host = np.asarray(value, dtype=dtype.np)
    if host.ndim == 0:
        return Array._new(g.broadcast(_fresh(host.item(), dtype.np, device), shape))
    return broadcast_to(asarray(host, device=device), shape)


def _check(name: str, value: Any, bad: Callable[[np.ndarray], Any], message: str) -> None:
    host = _host(value)
    if host is not None and host.size and np.any(bad(host)):
        raise ValueError(f"{name}: {message}")


def _float_dtype(name: str, dtype: Any, device: Device) -> dt.DType:
    """float64 or float32 (NumPy's choice for these methods); None: float64, or float32 on a
    device without float64."""
    if dtype is None:
        return ew.default_float(device)
    d = dt.to_dtype(dtype, name)
    if d not in dt.REAL_FLOATING:
        raise TypeError(f"{name}: unsupported dtype {d.name} (float64 or float32)")
    return d


def _float64_on(name: str, device: Device) -> dt.DType:
    """float64, which the discrete samplers compute in (their means reach 1e18)."""
    if not device.info.float64:
        raise TypeError(f"{name}: needs float64, which device {device.name} does not support")
    return dt.float64


def _bounds(host: np.ndarray | None) -> tuple[float | None, float | None]:
    if host is None or host.size == 0:
        return None, None
    return float(np.min(host)), float(np.max(host))


# -- the bit generator ----------------------------------------------------------------------
# Note: the numbers differ from NumPy's Philox (another key schedule and counter layout),
# and ``state`` is ``{"bit_generator": "Philox", "state": {"key": int, "counter": int}}``.
