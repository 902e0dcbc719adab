"""The Array object: a handle on a lazy graph node.

Layer: ``_api``. Builds graph nodes through ``_lazy``; never touches a device directly except
through ``_lazy``'s realize and host-transfer functions.

Laziness is invisible: every observation (repr, bool/int/float/complex/index, len, iter,
``__array__``, DLPack, ``tolist``) realizes the value first.

Views alias as NumPy's do. A view made by basic indexing, a transpose, a reshape that needs
no copy, ``squeeze``/``expand_dims``/``flip`` and the like (``Array._view``) shares a
``_Storage`` with its base: the base's current value and the live arrays that show it. A
write through any of them (``x[key] = v``, ``x += 1``, ``out=``) records the new value of
the base (a SETITEM node, lazily, so a loop of writes still fuses) and re-derives every
member from it; when nothing else can observe the base's buffer the write goes straight into
it. Arrays nobody took a view of carry no storage and pay nothing for this.
"""

from __future__ import annotations

import builtins
import operator
import sys
import warnings
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from .._codegen.ir import Op
from .._devices.base import Device, export_host, is_fresh
from .._lazy import graph as g
from .._lazy import realize as _realize
from .._lazy.realize import bound_depth, read_scalar, realize, store_element, to_host, write_region
from .._lazy.view import ShapeTracker, View, compose
from . import _dtypes as dt
from . import _hot


def _operator(name: str, reflected: builtins.bool = False) -> Callable[[Array, Any], Any]:
    """An arithmetic operator method. The common cases take one step: an array with a Python
    int or float, or with an array of its dtype and device (broadcast), where the result keeps
    the array's dtype (``_FAST`` lists them; ``_elementwise_functions`` gives the same node the
    long way, through ``Array._binop``). In long chains the fused kernel is nearly free and
    Python's time per operator is what remains."""

    memo: dict[tuple, tuple] = {}   # (key, operand, type) -> what graph.scalar_op worked out

    def method(self: Array, other: Any) -> Any:
        node = self._node
        t = type(other)
        n = None
        if node.op == "CONST" and node.shape == ():     # a known scalar: computed now
            value = other if t is float or t is int else (
                other._node.arg if t is Array and other._node.op == "CONST"
                and other._node.dtype == node.dtype and other._node.device is node.device
                and other._node.shape == () else None)
            if value is not None:
                n = g.fold(_FOLD[name], node, value, reflected)
                if n is not None:
                    out = _object_new(Array)
                    out._node = n
                    out._alias = None
                    return out
        if t is float or t is int:
            m = memo.get((node.key, other, t))     # (no key: None, never stored)
            if m is not None:
                n = g.scalar_replay(node, m)
        if n is None:
            rule = _FAST.get((name, node.dtype, t))
            if rule is None:
                return self._binop(name, other, reflected)
            op, lo, hi = rule
            if t is Array:      # one dtype and device, broadcast: as the functions do it
                same = (_ew or _elementwise()).operands_fast(name, self, other)
                if same is None:
                    return self._binop(name, other, reflected)
                n = g.alu2(op, *same[0])
            elif lo is None or lo <= other <= hi:
                n = g.scalar_op(op, node, other, reflected, memo)
            else:               # (an int out of the dtype's range: the long way raises)
                return self._binop(name, other, reflected)
        out = _object_new(Array)
        out._node = n
        out._alias = None
        if n.depth > g.MAX_DEPTH:
            bound_depth(n)
        return out

    method.__name__ = f"__{'r' if reflected else ''}{_DUNDER[name]}__"
    return method


_DUNDER = {"add": "add", "subtract": "sub", "multiply": "mul", "divide": "truediv"}
_FOLD = {"add": Op.ADD, "subtract": Op.SUB, "multiply": Op.MUL, "divide": Op.DIV}
_object_new = object.__new__


def _fast_rules() -> dict[tuple[str, np.dtype, type], tuple[Op, int | None, int | None]]:
    """(function, array dtype, operand type) -> (IR op, the int operand's range or None)."""
    arith = {"add": Op.ADD, "subtract": Op.SUB, "multiply": Op.MUL}
    rules: dict[tuple[str, np.dtype, type], tuple[Op, int | None, int | None]] = {}
    for d in dt.FLOATING:
        for name, op in {**arith, "divide": Op.DIV}.items():
            for t in (int, float, Array):
                rules[(name, d.np, t)] = (op, None, None)
    for d in dt.INTEGER:
        info = np.iinfo(d.np)
        for name, op in arith.items():
            rules[(name, d.np, int)] = (op, int(info.min), int(info.max))
            rules[(name, d.np, Array)] = (op, None, None)
    return rules


def element_index(key: Any, shape: tuple[int, ...]) -> tuple[int, ...] | None:
    """The element that ``key`` (an int for a 1-D array, or a tuple of one int per axis)
    names, as non-negative indices; None for any other key or an index out of range (the
    long way then raises NumPy's IndexError). An index may also be a NumPy integer or a
    known 0-d integer array (an element read from another array: ``conf[t, p] += 1`` in a
    loop over labels)."""
    if type(key) is int:
        key = (key,)
    if len(key) != len(shape) or not shape:
        return None
    idx = []
    for k, s in zip(key, shape):
        if type(k) is not int:
            k = _known_int(k)
            if k is None:
                return None
        if not -s <= k < s:
            return None
        idx.append(k % s)
    return tuple(idx)


def _known_int(k: Any) -> int | None:
    """``k`` as an int where its value is known without a read: a NumPy integer, or a 0-d
    integer array whose node is a constant; else None."""
    if isinstance(k, Array):
        n = k._node
        return int(n.arg) if n.op == "CONST" and n.shape == () and n.dtype.kind in "iu" \
            else None
    return int(k) if isinstance(k, np.integer) else None


def _hand_over(host: np.ndarray) -> np.ndarray:
    """A host array that a read from a device's own memory made (``copy_out`` allocates it
    for this read alone, read-only, in memory it owns or in pinned memory it marked
    ``fresh``): made writable and handed out as it is, without the copy that a view of
    host-memory devices' buffers needs (a 32 MB result read from a GPU: one copy, not
    two)."""
    chain = [host]
    while isinstance(chain[-1].base, np.ndarray):
        chain.append(chain[-1].base)
    if not all(a.flags.owndata or isinstance(a.base, np.ndarray) or is_fresh(a)
               for a in chain):
        return np.array(host, copy=True)    # (memory of something else: not ours to give)
    for a in reversed(chain):               # (the base first: a view follows its base)
        a.flags.writeable = True
    return host


class _Storage:
    """The memory a base array and its views share: ``node``, the base's current value, and
    the live ``members`` (weak references to arrays, each with ``alias = (storage, st,
    writeable)``: ``st`` maps the member into the base's layout, None for the base itself;
    a member's node is ``graph.view_of(node, st)``)."""

    __slots__ = ("added", "members", "node")

    def __init__(self, node: g.Node) -> None:
        self.node = node
        self.members: list[weakref.ref[Array]] = []
        self.added = 0

    def add(self, a: Array) -> None:
        self.members.append(weakref.ref(a))
        self.added += 1
        if self.added >= 64:      # forget the dead members now and then (loops over rows)
            self.added = 0
            self.members = [r for r in self.members if r() is not None]

    def store(self, value: g.Node, region: ShapeTracker | None) -> None:
        """Write ``value`` (of the region's shape) into the base at ``region`` (None: all of
        it), then show the new value in every member."""
        shape = self.node.shape
        if region is None or (region == (View.contiguous(shape),) and value.shape == shape):
            if value.dtype != self.node.dtype:
                value = g.cast(value, self.node.dtype)
            self.node = value
        elif self._exclusive():     # (no local may refer to the node while this counts)
            write_region(self.node, value, region)  # the members' views of it stay valid
            return
        else:
            self.node = g.setitem(self.node, value, region)
            if self.node.depth > g.MAX_DEPTH:
                bound_depth(self.node)
        self._refresh()

    def _exclusive(self) -> builtins.bool:
        """True if the base's buffer can take the write in place: it is realized and only
        this storage and its members' own views refer to it (no pending result, no view
        outside the storage would see the write)."""
        node = self.node
        if not node.realized or node.buffer.exported:
            return False
        expected = 3              # self.node, the local ``node``, getrefcount's argument
        for ref in self.members:
            m = ref()
            if m is None:
                continue
            mn = m._node
            if mn is node:
                expected += 1
            elif mn.srcs and mn.srcs[0] is node:
                expected += 1     # (the member's VIEW node refers to it, in its sources
                leaves = mn.leaves    # and in its structure key's leaves)
                if leaves is not None and any(leaf is node for leaf in leaves):
                    expected += 1
                if sys.getrefcount(mn) != 3:   # m's slot, ``mn``, the argument
                    return False
            else:
                return False
            # (``mn`` let go: had it stayed the base's node after the last member, that
            # reference was counted as someone else's, and no write was ever in place once
            # a view had been taken and dropped: each element write then built an update
            # and two kernels, 36 us instead of a store)
            mn = None
        return sys.getrefcount(node) == expected

    def _refresh(self) -> None:
        node = self.node
        live = []
        for ref in self.members:
            m = ref()
            if m is None:
                continue
            live.append(ref)
            st = m._alias[1]
            m._node = node if st is None else g.view_of(node, st, m._node.shape)
        self.members = live


class Array(_hot.Base):
    """A zyxarray array. Create one with ``zyxarray.asarray`` or another creation function."""

    __slots__ = ("__weakref__",)    # (and _hot.Base's: _node, _alias)
    __array_priority__ = 100
    _node: g.Node
    _alias: tuple[_Storage, ShapeTracker | None, builtins.bool] | None

    def __new__(cls, *args: Any, **kwargs: Any) -> Array:
        raise TypeError("zyxarray.Array cannot be constructed directly; "
                        "use zyxarray.asarray(...) or another creation function")

    @classmethod
    def _new(cls, node: g.Node) -> Array:
        obj = object.__new__(cls)
        obj._node = node
        obj._alias = None
        if node.depth > g.MAX_DEPTH:
            # bound the pending graph: long loops without observation stay cheap to schedule
            bound_depth(node)
        return obj

    @classmethod
    def _view(cls, source: Array, make: Callable[..., g.Node], *args: Any,
              writeable: builtins.bool = True) -> Array:
        """``make(source._node, *args)`` as a view that shares memory with ``source``, as
        NumPy's views do, when it is one strided window of source's storage (otherwise, e.g.
        a reshape of a transposed array, NumPy copies, and so does this: no aliasing). The
        window is learnt by applying ``make`` to a placeholder of source's shape."""
        source._storage()
        storage, within, source_writeable = source._alias
        node = make(source._node, *args)
        if node.op == "VIEW" and node.srcs[0] is storage.node:
            st = node.arg      # (a view of the storage's own node says where it looks)
        else:
            st = _within(source._node, within, make, *args)
        if len(st) != 1 or st[0].mask is not None:
            return cls._new(node)
        return cls._member(storage, st, node, writeable and source_writeable)

    @classmethod
    def _member(cls, storage: _Storage, st: ShapeTracker, node: g.Node | None,
                writeable: builtins.bool) -> Array:
        """A new array showing ``storage`` through ``st`` (its node: ``node``, or built)."""
        if node is None:
            node = g.view_of(storage.node, st, st[0].shape)
        out = cls._new(node)
        out._join(storage, st, writeable)
        return out

    def _join(self, storage: _Storage, st: ShapeTracker, writeable: builtins.bool) -> None:
        """Make this array (its node already showing ``storage`` through ``st``) a member."""
        self._alias = (storage, st, writeable)
        storage.add(self)

    @staticmethod
    def _resolve_row(row: Array, alias: tuple, node0: g.Node, base: g.Node,
                     i: int | None) -> None:
        """Make ``row``, a pending view that ``_hot.c`` made as ``base[i]`` (``i`` None:
        ``base.T``) of an array with ``alias`` while its storage held ``node0``, the storage
        member that ``Array._view`` would have made then; its node shows the storage's value
        now (NumPy's view shows the writes made since)."""
        storage, within, writeable = alias
        if i is None:
            make, args = g.permute, (tuple(reversed(range(len(base.shape)))),)
        else:
            make, args = g.index_first, (i,)
        st = _within(base, within, make, *args)
        if len(st) != 1 or st[0].mask is not None:     # (not one window: a copy, as _view)
            row._node = make(base, *args)
            row._alias = None
            return
        row._node = g.view_of(storage.node, st, st[0].shape)
        row._join(storage, st, writeable)

    def _storage(self) -> _Storage:
        """The storage this array shares with its views (made on first use)."""
        alias = self._alias
        if alias is not None:
            return alias[0]
        storage = _Storage(self._node)
        self._alias = (storage, None, True)
        storage.add(self)
        return storage

    # -- attributes ---------------------------------------------------------------------------
    @property
    def dtype(self) -> dt.DType:
        return dt.from_np(self._node.dtype)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._node.shape

    @property
    def ndim(self) -> int:
        return len(self._node.shape)

    @property
    def size(self) -> int:
        return self._node.size

    @property
    def device(self) -> Device:
        return self._node.device

    @property
    def nbytes(self) -> int:
        return self._node.nbytes

    @property
    def itemsize(self) -> int:
        return self._node.dtype.itemsize

    def _T(self) -> Array:
        """``self.T`` (``_hot.install`` makes it the property; in C a window's transpose is a
        pending view). The standard defines .T for 2-D arrays only; like NumPy we reverse
        all axes."""
        return Array._view(self, g.permute, tuple(reversed(range(self.ndim))))

    @property
    def mT(self) -> Array:
        if self.ndim < 2:
            raise ValueError(f"mT: needs at least 2 dimensions, got shape {self.shape}")
        order = tuple(range(self.ndim - 2)) + (self.ndim - 1, self.ndim - 2)
        return Array._view(self, g.permute, order)

    def __array_namespace__(self, api_version: str | None = None) -> Any:
        if api_version is not None and api_version not in ("2021.12", "2022.12", "2023.12",
                                                           "2024.12", "2025.12"):
            raise ValueError(f"__array_namespace__: unsupported api_version {api_version!r}")
        import zyxarray
        return zyxarray

    # -- observation --------------------------------------------------------------------------
    def _host(self) -> np.ndarray:
        return to_host(self._node)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        if copy is False:
            raise ValueError("__array__: zyxarray cannot share its memory with NumPy without "
                             "a copy (arrays are immutable buffers)")
        host = self._host()
        if hasattr(self.device, "host_array"):
            out = np.array(host, copy=True)     # (a view of the device's own memory)
        else:
            out = _hand_over(host)
        return out if dtype is None else out.astype(dtype)

    def _scalar(self, name: str) -> Any:
        if self._node.size != 1:
            raise TypeError(f"{name}: only arrays with one element can be converted to Python "
                            f"scalars, got shape {self.shape}")
        return read_scalar(self._node)

    def _bool(self) -> builtins.bool:
        if self.size != 1:
            # (NumPy's error: ``if x:`` of several elements is a ValueError there too)
            raise ValueError(f"__bool__: the truth value of an array of shape {self.shape} "
                             f"is ambiguous ({self.size} elements): use any() or all()")
        return builtins.bool(self._scalar("__bool__"))

    def _int(self) -> int:
        if self.dtype in dt.COMPLEX_FLOATING:
            raise TypeError("__int__: cannot convert a complex array to int")
        v = self._scalar("__int__")
        if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
            raise (ValueError if v != v else OverflowError)(f"__int__: cannot convert {v}")
        return int(v)

    def _float(self) -> float:
        if self._node.dtype.kind == "c":
            raise TypeError("__float__: cannot convert a complex array to float")
        return float(self._scalar("__float__"))

    def __complex__(self) -> complex:
        return complex(self._scalar("__complex__"))

    def _index(self) -> int:
        if self.dtype not in dt.INTEGER:
            raise TypeError(f"__index__: only integer arrays are valid indices, "
                            f"got {self.dtype.name}")
        return int(self._scalar("__index__"))

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __iter__(self) -> Any:
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        realize(self._node)
        return _hot.rows(self)      # (``self[0]``, ``self[1]``, ...: in C, pending rows)

    def __repr__(self) -> str:
        """As NumPy prints it (``array([1., 2.])``, ``dtype=`` where NumPy shows it), with
        the device when it is not the default one."""
        text = repr(self._host())
        from .._devices import registry
        if self.device is not registry.default():
            text = f"{text[:-1]}, device='{self.device.name}')"
        return text

    def __str__(self) -> str:
        return str(self._host())

    def tolist(self) -> Any:
        return self._host().tolist()

    def item(self, *args: Any) -> Any:
        if args:
            return self._host().item(*args)
        return self._scalar("item")

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None,
                   copy: builtins.bool | None = None) -> Any:
        """Export through DLPack. On host-memory devices the capsule shares this array's
        memory unless ``copy=True`` (or the array is a masked or chained view)."""
        host_memory = self.device.info.style == "loops"
        if not host_memory and dl_device is not None and dl_device[0] == 1:
            # the consumer asks for a host copy (NumPy's ``from_dlpack(x, device="cpu")``)
            if copy is False:
                raise BufferError(f"__dlpack__: {self.device.name} memory reaches the host "
                                  "only by a copy (copy=False)")
            return np.array(self._host(), copy=True).__dlpack__()
        if hasattr(self.device, "as_cupy"):
            return _cupy_view(self._node, copy).__dlpack__(stream=stream)
        if not host_memory:
            raise BufferError(f"__dlpack__: {self.device.name} memory cannot be shared through "
                              "DLPack; ask for a host copy (dl_device=(1, 0))")
        shared = None if copy else _shared_host_view(self._node)
        if shared is None:
            if copy is False:
                raise BufferError("__dlpack__: this view cannot be exported without a copy "
                                  "(copy=False)")
            shared = np.array(self._host(), copy=True)
        kwargs: dict[str, Any] = {}
        if max_version is not None:
            kwargs["max_version"] = max_version
        if dl_device is not None:
            kwargs["dl_device"] = dl_device
        return shared.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        if hasattr(self.device, "as_cupy"):   # kDLROCM, kDLCUDA
            return (10 if self.device.info.kind == "hip" else 2, self.device.index)
        if self.device.info.kind == "opencl":
            return (4, self.device.index)    # kDLOpenCL
        if self.device.info.kind == "vulkan":
            return (7, self.device.index)    # kDLVulkan
        return (1, 0)   # kDLCPU: the cpu and reference devices keep host memory

    def to_device(self, device: Any, /, *, stream: Any = None) -> Array:
        from .._devices import registry
        target = registry.get(device)
        if target is self.device:
            return self
        return Array._new(g.copy_to(self._node, target))

    # -- indexing -----------------------------------------------------------------------------
    def _getitem(self, key: Any) -> Array:
        return (_ix or _indexing()).getitem(self, key)

    def _setitem(self, key: Any, value: Any) -> None:
        node = self._node
        tk = type(key)
        if (tk is int or tk is tuple) and node.buffer is not None and self._alias is None \
                and not node.buffer.exported and sys.getrefcount(node) == 3:
            # one element of an array that only this array shows (the slot, ``node``, the
            # argument): in host memory, a store (``a[i] = a[i - 1] * 0.5 + 1``, a[i, j] = v)
            idx = element_index(key, node.shape)
            v = value if _number_of_kind(value, node.dtype.kind) else (
                value._node.arg if type(value) is Array and value._node.op == "CONST"
                and value._node.dtype == node.dtype and value._node.device is node.device
                else None)
            if idx is not None and v is not None and store_element(node, idx, v):
                return
        del node
        ix = _ix or _indexing()
        if self._alias is not None:       # shares memory with views: NumPy's aliasing
            if not self._alias[2]:
                raise ValueError("assignment destination is read-only")
            if (tk is int or tk is tuple or tk is Array) and self._alias[0]._exclusive() and \
                    (self._mask_store(key, value) if tk is Array else
                     self._store_shared(key, value)):
                return
            ix.write_shared(self, key, value)
            return
        # Exclusive: only this array refers to its node (2 = our attribute + the call's
        # argument), so no view or pending result can observe a write into its buffer.
        # (``x[:, ::-1] = x`` passes this very array as the value: not exclusive then)
        exclusive = sys.getrefcount(self._node) == 2 and self._node.realized and \
            not self._node.buffer.exported and \
            not (isinstance(value, Array) and value._node is self._node)
        if exclusive and tk is Array and self._mask_store(key, value):
            return
        self._node = ix.setitem(self, key, value, in_place=exclusive)._node
        if not exclusive and (tk is int or tk is tuple) and \
                hasattr(self._node.device, "host_array") and \
                element_index(key, self._node.shape) is not None:
            # an element written into a pending array in host memory: the array is computed
            # now, so the writes that follow (a loop over elements) are stores into it
            realize(self._node)

    def _store_shared(self, key: Any, value: Any) -> builtins.bool:
        """``self[key] = value`` for one element and a Python number of this array's kind,
        when the memory it shares with its views is realized host memory that no pending
        result reads (``_Storage._exclusive``, checked by the caller): a store there, which
        every view sees (9 us of update, region and write_region before); False where the
        general path must do it."""
        node = self._node
        idx = element_index(key, node.shape)
        if idx is None or not _number_of_kind(value, node.dtype.kind):
            return False
        _realize.on_write()     # (as ``write_region`` does before its store)
        return store_element(node, idx, value)

    def _mask_store(self, mask: Array, value: Any) -> builtins.bool:
        """``self[mask] = value`` for a bool mask of this array's shape and a Python number
        of its kind, both small and in the cpu device's memory that only this array (and
        its views) show (the caller checks): NumPy's masked store there, in place (``x[x <
        0] = 0``: 40 us of pending update and kernel before, NumPy 0.9); False where the
        general path must do it."""
        node = self._node
        kind = node.dtype.kind
        if mask.shape != node.shape or mask._node.dtype.kind != "b" or \
                node.size > _hot.now_max() or not (
                    _number_of_kind(value, kind) or (type(value) is builtins.bool and kind == "b")):
            return False
        values = _hot.host_values([node, mask._node])
        if values is None or not values[0].flags.writeable:
            return False
        _realize.on_write()
        try:
            values[0][values[1]] = value
        except (OverflowError, ValueError, TypeError):   # (a kernel's cast decides those)
            return False
        return True

    # -- operators ----------------------------------------------------------------------------
    def _binop(self, name: str, other: Any, reflected: builtins.bool = False) -> Any:
        if isinstance(other, (list, tuple)):
            # NumPy leniency: ``x + [1, 2, 3]`` (the list goes to x's device)
            from ._creation_functions import asarray
            other = asarray(other, device=self.device)
        if not isinstance(other, _OPERAND_TYPES):
            return NotImplemented
        fn = getattr(_ew or _elementwise(), name)
        return fn(other, self) if reflected else fn(self, other)

    def _inplace(self, name: str, other: Any) -> Array:
        from . import _elementwise_functions as ew
        result = getattr(ew, name)(self, other)
        if result.shape != self.shape:
            raise ValueError(f"in-place {name}: the result shape {result.shape} differs from "
                             f"the array's shape {self.shape}")
        if result.dtype != self.dtype:
            from ._data_type_functions import can_cast
            if not can_cast(result.dtype, self.dtype) and not _same_kind(result.dtype,
                                                                          self.dtype):
                raise TypeError(f"in-place {name}: cannot store the {result.dtype.name} result "
                                f"in a {self.dtype.name} array")
            result = Array._new(g.cast(result._node, self.dtype.np))
        self._assign(result)
        return self

    def _inplace_fast(self, name: str, other: Any, op: Any) -> Array:
        """``a += b`` (``-=``, ``*=``, ``/=``) of an array nothing else shows: the operator's
        result (``_hot.c``'s path for known scalars: a loop's running ``mean += delta / k``)
        becomes its value where it keeps the shape and dtype; else ``_inplace``."""
        if self._alias is None and isinstance(other, _OPERAND_TYPES):
            if _hot.inplace(self, other, name):     # (a small result computed now, taken)
                return self
            result = op(self, other)
            if result is not NotImplemented and result.shape == self.shape and \
                    result.dtype == self.dtype:
                self._node = result._node
                return self
        return self._inplace(name, other)

    def _assign(self, result: Array) -> None:
        """This array's whole value becomes ``result`` (of its shape and dtype): in place, as
        NumPy's ``a += b``, seen by every view of it."""
        if self._alias is None:
            self._node = result._node       # (nothing else shows this value)
        else:
            self[...] = result

    _add = _operator("add")
    _radd = _operator("add", reflected=True)
    def __iadd__(self, o: Any) -> Any: return self._inplace_fast("add", o, operator.add)
    _sub = _operator("subtract")
    _rsub = _operator("subtract", reflected=True)
    def __isub__(self, o: Any) -> Any: return self._inplace_fast("subtract", o, operator.sub)
    _mul = _operator("multiply")
    _rmul = _operator("multiply", reflected=True)
    def __imul__(self, o: Any) -> Any: return self._inplace_fast("multiply", o, operator.mul)
    _truediv = _operator("divide")
    _rtruediv = _operator("divide", reflected=True)
    def __itruediv__(self, o: Any) -> Any: return self._inplace_fast("divide", o, operator.truediv)
    def __floordiv__(self, o: Any) -> Any: return self._binop("floor_divide", o)
    def __rfloordiv__(self, o: Any) -> Any: return self._binop("floor_divide", o, True)
    def __ifloordiv__(self, o: Any) -> Any: return self._inplace("floor_divide", o)
    def __mod__(self, o: Any) -> Any: return self._binop("remainder", o)
    def __rmod__(self, o: Any) -> Any: return self._binop("remainder", o, True)
    def __imod__(self, o: Any) -> Any: return self._inplace("remainder", o)
    def __pow__(self, o: Any) -> Any: return self._binop("pow", o)
    def __rpow__(self, o: Any) -> Any: return self._binop("pow", o, True)
    def __ipow__(self, o: Any) -> Any: return self._inplace("pow", o)
    def __and__(self, o: Any) -> Any: return self._binop("bitwise_and", o)
    def __rand__(self, o: Any) -> Any: return self._binop("bitwise_and", o, True)
    def __iand__(self, o: Any) -> Any: return self._inplace("bitwise_and", o)
    def __or__(self, o: Any) -> Any: return self._binop("bitwise_or", o)
    def __ror__(self, o: Any) -> Any: return self._binop("bitwise_or", o, True)
    def __ior__(self, o: Any) -> Any: return self._inplace("bitwise_or", o)
    def __xor__(self, o: Any) -> Any: return self._binop("bitwise_xor", o)
    def __rxor__(self, o: Any) -> Any: return self._binop("bitwise_xor", o, True)
    def __ixor__(self, o: Any) -> Any: return self._inplace("bitwise_xor", o)
    def __lshift__(self, o: Any) -> Any: return self._binop("bitwise_left_shift", o)
    def __rlshift__(self, o: Any) -> Any: return self._binop("bitwise_left_shift", o, True)
    def __ilshift__(self, o: Any) -> Any: return self._inplace("bitwise_left_shift", o)
    def __rshift__(self, o: Any) -> Any: return self._binop("bitwise_right_shift", o)
    def __rrshift__(self, o: Any) -> Any: return self._binop("bitwise_right_shift", o, True)
    def __irshift__(self, o: Any) -> Any: return self._inplace("bitwise_right_shift", o)
    def _matmul(self, o: Any) -> Any:
        return (_matmul or _load_matmul())(self, o) if _is_operand(o) else NotImplemented

    def _rmatmul(self, o: Any) -> Any:
        return (_matmul or _load_matmul())(o, self) if _is_operand(o) else NotImplemented

    def __imatmul__(self, o: Any) -> Any:
        from ._linear_algebra_functions import matmul
        result = matmul(self, o)
        if result.shape != self.shape or result.dtype != self.dtype:
            raise ValueError("in-place matmul: the result's shape or dtype differs")
        self._assign(result)
        return self

    def _lt(self, o: Any) -> Any: return self._binop("less", o)
    def _le(self, o: Any) -> Any: return self._binop("less_equal", o)
    def _gt(self, o: Any) -> Any: return self._binop("greater", o)
    def _ge(self, o: Any) -> Any: return self._binop("greater_equal", o)
    def _eq(self, o: object) -> Any: return self._binop("equal", o)
    def _ne(self, o: object) -> Any: return self._binop("not_equal", o)

    def _neg(self) -> Array:
        node = self._node
        if node.dtype.kind in "iufc" and not g.is_constant(node):
            return Array._new(g.alu1(Op.NEG, node))
        return (_ew or _elementwise()).negative(self)

    def __pos__(self) -> Array:
        from ._elementwise_functions import positive
        return positive(self)

    def __abs__(self) -> Array:
        from ._elementwise_functions import abs as abs_
        return abs_(self)

    def __invert__(self) -> Array:
        from ._elementwise_functions import bitwise_invert
        return bitwise_invert(self)

    # -- NumPy's ndarray methods ------------------------------------------------------------
    # Each is NumPy's function of the same name applied to this array (NumPy defines its
    # methods that way), with NumPy's parameters in NumPy's order, so NumPy's own functions
    # and code written for NumPy work on zyxarray arrays; ``out=`` writes in place.
    # (``sum`` and ``mean`` are _hot's: a small window's now, else these)
    def _sum(self, *args: Any, **kwargs: Any) -> Array:
        node = self._node
        if not args and not kwargs and node.dtype.kind == "f" and node.shape and \
                not g.is_constant(node):
            # ``a.sum()`` of a float array, the commonest reduction (a loop over rows): the
            # node the namespace's sum builds, in one step
            r = g.reduce(node, Op.ADD, tuple(range(len(node.shape))))
            return Array._new(g.reshape(r, ()))
        return _ns().sum(self, *args, **kwargs)

    def prod(self, *args: Any, **kwargs: Any) -> Array:
        return _ns().prod(self, *args, **kwargs)

    def _mean(self, *args: Any, **kwargs: Any) -> Array:
        return _ns().mean(self, *args, **kwargs)

    def var(self, *args: Any, **kwargs: Any) -> Array:
        return _ns().var(self, *args, **kwargs)

    def std(self, *args: Any, **kwargs: Any) -> Array:
        return _ns().std(self, *args, **kwargs)

    def max(self, *args: Any, **kwargs: Any) -> Array:
        return _ns().max(self, *args, **kwargs)

    def min(self, *args: Any, **kwargs: Any) -> Array:
        return _ns().min(self, *args, **kwargs)

    def ptp(self, *args: Any, **kwargs: Any) -> Array:
        return _ns().ptp(self, *args, **kwargs)

    def argmax(self, *args: Any, **kwargs: Any) -> Array:
        return _ns().argmax(self, *args, **kwargs)

    def argmin(self, *args: Any, **kwargs: Any) -> Array:
        return _ns().argmin(self, *args, **kwargs)

    def any(self, *args: Any, **kwargs: Any) -> Array:
        return _ns().any(self, *args, **kwargs)

    def all(self, *args: Any, **kwargs: Any) -> Array:
        return _ns().all(self, *args, **kwargs)

    def cumsum(self, *args: Any, **kwargs: Any) -> Array:
        return _ns().cumsum(self, *args, **kwargs)

    def cumprod(self, *args: Any, **kwargs: Any) -> Array:
        return _ns().cumprod(self, *args, **kwargs)

    def clip(self, *args: Any, **kwargs: Any) -> Array:
        return _ns().clip(self, *args, **kwargs)

    def round(self, decimals: int = 0, out: Any = None) -> Array:
        return _ns().round(self, decimals, out=out) if out is not None else \
            _ns().round(self, decimals)

    def dot(self, b: Any, out: Any = None) -> Array:
        from ._numpy_args import write_out
        from ._numpy_compat import dot
        return write_out("dot", out, dot(self, b))

    def nonzero(self) -> tuple[Array, ...]:
        return _ns().nonzero(self)

    def searchsorted(self, v: Any, side: str = "left", sorter: Any = None) -> Array:
        return _ns().searchsorted(self, v, side=side, sorter=sorter)

    def sort(self, axis: int = -1, kind: Any = None, order: Any = None, *,
             stable: builtins.bool | None = None) -> None:
        """In place, as NumPy's ``ndarray.sort`` (views of this array see the order)."""
        self._assign(_ns().sort(self, axis, kind, order, stable=stable))

    def argsort(self, axis: int | None = -1, kind: Any = None, order: Any = None, *,
                stable: builtins.bool | None = None) -> Array:
        return _ns().argsort(self, axis, kind, order, stable=stable)

    def partition(self, kth: Any, axis: int = -1, kind: str = "introselect",
                  order: Any = None) -> None:
        """In place, as NumPy's ``ndarray.partition``."""
        self._assign(_ns().partition(self, kth, axis, kind, order))

    def argpartition(self, kth: Any, axis: int | None = -1, kind: str = "introselect",
                     order: Any = None) -> Array:
        return _ns().argpartition(self, kth, axis, kind, order)

    def take(self, *args: Any, **kwargs: Any) -> Array:
        return _ns().take(self, *args, **kwargs)

    def put(self, *args: Any, **kwargs: Any) -> None:
        _ns().put(self, *args, **kwargs)

    def compress(self, condition: Any, axis: int | None = None, out: Any = None) -> Array:
        return _ns().compress(condition, self, axis, out)

    def repeat(self, repeats: Any, axis: int | None = None) -> Array:
        from ._manipulation_functions import repeat
        return repeat(self if axis is not None else self.ravel(), repeats,
                      axis=0 if axis is None else axis)

    def trace(self, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
              out: Any = None) -> Array:
        return _ns().trace(self, offset, axis1, axis2, dtype, out)

    def reshape(self, *shape: Any, order: str = "C", copy: builtins.bool | None = None
                ) -> Array:
        """A view with another shape where NumPy's would be one (else a copy)."""
        from ._manipulation_functions import reshape
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        if order not in ("C", "A"):
            raise ValueError(f"reshape: only order 'C' is supported, got {order!r}")
        return reshape(self, shape, copy=copy)

    def ravel(self, order: str = "C") -> Array:
        """The flattened array: a view where one strided view can say it, else a copy."""
        from ._manipulation_functions import reshape
        if order not in ("C", "A", "K"):
            raise ValueError(f"ravel: only order 'C' is supported, got {order!r}")
        return reshape(self, (-1,))

    def flatten(self, order: str = "C") -> Array:
        """A flattened copy (never a view)."""
        return Array._new(self.ravel(order)._node)

    def astype(self, dtype: Any, order: str = "K", casting: str = "unsafe",
               subok: builtins.bool = True, copy: builtins.bool = True) -> Array:
        from ._data_type_functions import astype
        return astype(self, dtype, copy=copy)

    def copy(self, order: str = "C") -> Array:
        """A copy: later writes to either are not seen by the other."""
        return Array._new(self._node)

    def transpose(self, *axes: Any) -> Array:
        from ._manipulation_functions import permute_dims
        if not axes or axes == (None,):
            return self.T
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return permute_dims(self, axes)

    def squeeze(self, axis: Any = None) -> Array:
        from ._manipulation_functions import squeeze
        return squeeze(self, axis=axis)

    def fill(self, value: Any) -> None:
        """Every element set to ``value``, in place."""
        from ._creation_functions import full
        self._assign(full(self.shape, value, dtype=self.dtype, device=self.device))

    @property
    def real(self) -> Array:
        """The real part: this very memory (a view) for a real array; for a complex one a
        read-only result (``x.real = v`` sets it).
        # Note: NumPy's real part of a complex array is a writable strided view of every
        # other float; here writing into it raises instead of being lost."""
        if self._node.dtype.kind != "c":
            return Array._view(self, _identity)
        from ._elementwise_functions import real
        return _read_only(real(self))

    @real.setter
    def real(self, value: Any) -> None:
        self._set_part(value, imaginary=False)

    @property
    def imag(self) -> Array:
        """The imaginary part (read-only; zeros for a real array, as in NumPy)."""
        from ._elementwise_functions import imag
        if self._node.dtype.kind != "c":
            from ._creation_functions import zeros_like
            return _read_only(zeros_like(self))
        return _read_only(imag(self))

    @imag.setter
    def imag(self, value: Any) -> None:
        if self._node.dtype.kind != "c":
            raise TypeError("array does not have imaginary part to set")
        self._set_part(value, imaginary=True)

    def _set_part(self, value: Any, imaginary: builtins.bool) -> None:
        from ._elementwise_functions import imag, real
        from ._numpy_args import as_array
        v = as_array(value, device=self.device)
        if self._node.dtype.kind != "c":
            self[...] = v
            return
        part = np.empty(0, self._node.dtype).real.dtype
        v = Array._new(g.cast(v._node, part))
        re, im = (real(self), v) if imaginary else (v, imag(self))
        from ._elementwise_functions import broadcast_node
        re_n = broadcast_node(re._node, self.shape)
        im_n = broadcast_node(im._node, self.shape)
        self._assign(Array._new(g.alu(Op.COMPLEX, re_n, im_n, dtype=self._node.dtype)))

    def conj(self) -> Array:
        from ._elementwise_functions import conj
        return conj(self)

    conjugate = conj

    # -- NumPy's memory layout and protocols ---------------------------------------------------
    @property
    def strides(self) -> tuple[int, ...]:
        """Bytes between neighbours along each axis, as NumPy would report for the same
        views of a C-ordered array."""
        from ._numpy_views import strides
        return strides(self)

    @property
    def base(self) -> Array | None:
        """The array whose memory this view shows (None if it owns its memory)."""
        from ._numpy_views import base
        return base(self)

    @property
    def flags(self) -> Any:
        from ._numpy_views import Flags
        return Flags(self)

    @property
    def flat(self) -> Any:
        from ._numpy_views import FlatIter
        return FlatIter(self)

    @flat.setter
    def flat(self, value: Any) -> None:
        from ._numpy_views import FlatIter
        FlatIter(self)[...] = value

    def view(self, dtype: Any = None, type: Any = None) -> Array:
        """The same memory as another array (aliased); with another dtype, the bytes
        reinterpreted (see ``_numpy_views.view``)."""
        from ._numpy_views import view
        return view(self, dtype, type)

    def setflags(self, write: builtins.bool | None = None, align: Any = None,
                 uic: Any = None) -> None:
        """Only ``write`` means anything here (arrays are always aligned)."""
        if write is not None:
            from ._numpy_views import set_writeable
            set_writeable(self, write)

    def tobytes(self, order: str = "C") -> bytes:
        return self._host().tobytes(order=order)

    def tofile(self, fid: Any, sep: str = "", format: str = "%s") -> None:
        from ._io import tofile
        tofile(self, fid, sep=sep, format=format)

    def resize(self, *new_shape: Any, refcheck: builtins.bool = True) -> None:
        """In place: the array takes ``new_shape``, keeping its elements in C order and
        filling any new ones with zeros (NumPy's ``ndarray.resize``). As in NumPy, an array
        that shares its memory with a view cannot be resized."""
        from ._creation_functions import zeros
        from ._manipulation_functions import concat, reshape
        shape = new_shape[0] if len(new_shape) == 1 and not isinstance(new_shape[0], int) \
            else new_shape
        shape = (int(shape),) if isinstance(shape, int) else tuple(int(s) for s in shape)
        if self._alias is not None and refcheck and any(
                m is not None and m is not self for m in (r() for r in self._alias[0].members)):
            raise ValueError("cannot resize an array that references or is referenced by "
                             "another array in this way. Use the np.resize function.")
        n = int(np.prod(shape))
        flat = reshape(self, (-1,), copy=True)
        if n <= flat.size:
            flat = flat[:n]
        else:
            flat = concat([flat, zeros(n - flat.size, dtype=self.dtype, device=self.device)])
        self._node = reshape(flat, shape)._node
        self._alias = None

    def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
        """The diagonal over ``axis1`` and ``axis2`` (a read-only view, as NumPy's)."""
        from ._numpy_views import diagonal
        return diagonal(self, offset, axis1, axis2)

    def swapaxes(self, axis1: int, axis2: int) -> Array:
        """Two axes exchanged (a view)."""
        from ._manipulation_functions import normalize_axis, permute_dims
        order = list(range(self.ndim))
        a = normalize_axis("swapaxes", axis1, self.ndim)
        b = normalize_axis("swapaxes", axis2, self.ndim)
        order[a], order[b] = order[b], order[a]
        return permute_dims(self, tuple(order))

    def __format__(self, spec: str) -> str:
        """``f"{x:.2f}"``: a 0-d array formats as its value; others only with an empty spec
        (as NumPy's)."""
        if self.ndim == 0:
            return format(self.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to Array.__format__")
        return str(self)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickling: the values (one copy to the host) and the device's name; unpickling
        puts them back on a device of that name (see ``_rebuild``)."""
        return (_rebuild, (np.array(self._host(), copy=True), self.device.name))

    def __copy__(self) -> Array:
        return self.copy()

    def __deepcopy__(self, memo: Any) -> Array:
        return self.copy()

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        """NumPy's ufuncs on zyxarray arrays run as zyxarray's functions, on the device
        (``numpy.exp(x)`` is ``zyxarray.exp(x)``), as CuPy does."""
        from ._numpy_protocols import array_ufunc
        return array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        """NumPy's functions on zyxarray arrays run as zyxarray's functions of the same name
        (``numpy.concatenate([x, y])``, ``numpy.linalg.norm(x)``)."""
        from ._numpy_protocols import array_function
        return array_function(func, types, args, kwargs)

    def __hash__(self) -> int:
        """A 0-d array hashes as its value (NumPy's scalars do: ``names[a[i]]``,
        ``set(a)``, ``Counter(a)``); other arrays are unhashable, as NumPy's. (A 0-d array
        written after it became a key is the caller's to avoid, as any mutable key.)"""
        if self._node.shape != ():
            raise TypeError(f"unhashable type: 'Array' (shape {self.shape}: only 0-d arrays, "
                            "which stand for NumPy's scalars, hash)")
        return hash(self._scalar("__hash__"))

    def __contains__(self, value: Any) -> builtins.bool:
        """``value in a``: NumPy's ``(a == value).any()``."""
        from ._utility_functions import any as any_
        return builtins.bool(any_(self == value))

    def __divmod__(self, other: Any) -> Any:
        from ._numpy_math import divmod_
        return divmod_(self, other)

    def __rdivmod__(self, other: Any) -> Any:
        from ._numpy_math import divmod_
        return divmod_(other, self)


def _within(node: g.Node, within: ShapeTracker | None, make: Callable[..., g.Node],
            *args: Any) -> ShapeTracker:
    """Where ``make(node, *args)`` looks in the storage that ``node`` shows through
    ``within`` (None: the storage's own layout), learnt by applying ``make`` to a
    placeholder of node's shape. Memoized by (shape, dtype, ``within``, ``make``, args): a
    loop's ``X.T`` of a view (``X = data[:, :-1]``) cost 9.5 us, most of it composing."""
    try:
        key: tuple | None = (node.shape, node.dtype, within, make, args)
        found = _within_memo.get(key)       # type: ignore[arg-type]
    except TypeError:                       # (an unhashable argument: a slice, a list)
        key, found = None, None
    if found is not None:
        return found
    probe = g.probe(node.shape, node.dtype, node.device)
    rel = make(probe, *args)
    st = (View.contiguous(rel.shape),) if rel is probe else rel.arg
    out = st if within is None else compose(st, within)
    if key is not None:
        if len(_within_memo) >= 4096:
            _within_memo.clear()
        _within_memo[key] = out
    return out


_within_memo: dict[tuple, ShapeTracker] = {}


def _cupy_view(node: g.Node, copy: builtins.bool | None) -> Any:
    """A CuPy array over a cuda node's memory: shared for buffers and plain strided views
    (unless ``copy``), a fresh contiguous copy otherwise (``copy=False`` then refuses)."""
    base = node.base()
    if base.op != "CONST":
        realize(base)
    st = node.arg if node.op == "VIEW" else None
    plain = base.buffer is not None and (st is None or (len(st) == 1 and st[0].mask is None))
    if copy or not plain:
        if copy is False:
            raise BufferError("__dlpack__: this view cannot be exported without a copy "
                              "(copy=False)")
        fresh = g.from_host(to_host(node), node.device)    # (through the host: rare)
        realize(fresh)
        base, st = fresh, None
    dev: Any = base.device
    base.buffer.ready.wait()     # consumers on other streams see finished data
    if st is None:
        return dev.as_cupy(base.buffer, base.dtype, node.shape)
    return dev.as_cupy(base.buffer, base.dtype, node.shape, st[0].strides, st[0].offset)


def _identity(node: g.Node) -> g.Node:
    return node


def _read_only(x: Array) -> Array:
    """``x`` made read-only (a write into it raises, instead of landing nowhere)."""
    storage = x._storage()
    x._alias = (storage, None, False)
    return x


def _rebuild(values: np.ndarray, device: str) -> Array:
    """Unpickle an array: ``values`` on the device named ``device``. Where this process has
    no such device, the config's ``unpickle_device`` ("default" or a device name) says where
    they go instead, with a warning; unset, a ValueError names the devices there are."""
    from .. import _config
    from .._devices import registry
    from ._creation_functions import asarray
    try:
        target = registry.get(device)
    except (ValueError, KeyError) as e:
        fallback = _config.get("unpickle_device")
        if fallback is None:
            raise ValueError(
                f"unpickling a zyxarray array of device {device!r}: no such device here "
                f"(available: {', '.join(registry.devices())}); {e}. Set unpickle_device "
                "in the config file (or ZYXARRAY_UNPICKLE_DEVICE) to 'default' or a device "
                "name to put such arrays there instead") from None
        target = registry.default() if fallback == "default" else registry.get(fallback)
        warnings.warn(f"unpickling a zyxarray array of device {device!r}, which this "
                      f"process does not have: it goes to {target.name} (unpickle_device)",
                      RuntimeWarning, stacklevel=2)
    return asarray(values, device=target)


_zyxarray: Any = None


def _ns() -> Any:
    """The public namespace (imported on first use: it imports this module)."""
    global _zyxarray
    if _zyxarray is None:
        import zyxarray
        _zyxarray = zyxarray
    return _zyxarray


def _shared_host_view(node: g.Node) -> np.ndarray | None:
    """A NumPy array over the node's device memory (writable, shared), or None."""
    if node.size == 0:
        return np.empty(node.shape, node.dtype)
    base = node.base()
    if base.op == "CONST":
        # a broadcast scalar has no memory of its own: give it some, then share that
        node = g.from_host(to_host(node), node.device)
        base = node
    realize(base)
    memory = export_host(base.buffer) if base.buffer is not None else None
    if memory is None:
        return None
    from .._lazy import realize as realize_module
    realize_module.on_write()       # (windows learnt before it was exported: learnt again)
    flat = memory[:base.nbytes].view(base.dtype)
    if node.op != "VIEW":
        return flat.reshape(node.shape)
    st = node.arg
    if len(st) != 1 or st[0].mask is not None:
        return None
    v = st[0]
    if node.size == 0:
        return np.empty(node.shape, node.dtype)
    item = base.dtype.itemsize
    return np.lib.stride_tricks.as_strided(flat[v.offset:], node.shape,
                                           tuple(s * item for s in v.strides))


_ew: Any = None


def _elementwise() -> Any:
    """The elementwise functions' module (imported on first use: it imports this one)."""
    global _ew
    from . import _elementwise_functions
    _ew = _elementwise_functions
    return _ew


_ix: Any = None


def _indexing() -> Any:
    """The indexing module (imported on first use: it imports this one)."""
    global _ix
    from . import _indexing as module
    _ix = module
    return _ix


_hot.install(Array)     # (its hot slots: in C where _hot.c builds, else these methods)
_FAST = _fast_rules()
_OPERAND_TYPES = (Array, builtins.bool, int, float, complex, np.ndarray, np.generic)


_matmul: Callable[[Any, Any], Any] | None = None


def _load_matmul() -> Callable[[Any, Any], Any]:
    """``matmul`` (imported on first use: that module imports this one)."""
    global _matmul
    from ._linear_algebra_functions import matmul
    _matmul = matmul
    return matmul


def _is_operand(x: Any) -> builtins.bool:
    return isinstance(x, _OPERAND_TYPES)


def _number_of_kind(value: Any, kind: str) -> builtins.bool:
    """Whether ``value`` is a Python float for a float array, or a Python int for a numeric
    one (``kind``: a NumPy dtype kind): what an element store takes as it is."""
    t = type(value)
    return (t is float and kind in "fc") or (t is int and kind in "iufc")


def _same_kind(src: dt.DType, dst: dt.DType) -> builtins.bool:
    return np.can_cast(src.np, dst.np, casting="same_kind")


def asarray_operand(x: Any, like: Array | None = None) -> Array:
    """Arrays pass through; NumPy arrays and scalars become arrays on ``like``'s device."""
    if isinstance(x, Array):
        return x
    from ._creation_functions import asarray
    return asarray(x, device=like.device if like is not None else None)

