"""Data types, the promotion table and the Python-scalar rules.

Layer: ``_api``. Imports nothing from the lower layers but NumPy's dtype objects, which are
how the lower layers name types.

Promotion: within a kind the standard's table, which NumPy's agrees with. Across kinds
(integer with floating, bool with numbers) the standard leaves the result undefined.
# Note: we follow NumPy there (int32 + float32 -> float64), as NumPy users expect.
Python scalars are "weak" (NEP 50): the array's dtype wins when the scalar's kind fits in it.
"""

from __future__ import annotations

import builtins as _builtins
from typing import Any

import numpy as np

builtins_bool = _builtins.bool


class DType:
    """A zyxarray data type. Equal to (and hashed like) the matching NumPy dtype, and printed
    like it. There is one instance per type: ``zyxarray.dtype("float32")`` (this class, as
    ``zyxarray.dtype``) returns ``zyxarray.float32``. Calling one converts, as NumPy's scalar
    types do: ``zyxarray.float64(3)`` is NumPy's ``float64(3.0)``, ``zyxarray.float32(x)`` of
    an array is ``astype``. NumPy's other dtype attributes (``char``, ``byteorder``...) are
    read from the matching NumPy dtype, and ``numpy.dtype(zyxarray.float32)`` works."""

    __slots__ = ("_hash", "itemsize", "kind", "name", "np")

    def __new__(cls, obj: Any = None, align: builtins_bool = False,
                copy: builtins_bool = False) -> DType:
        if _BY_NP:                  # (built: every instance exists, return the one asked for)
            return to_dtype(np.float64 if obj is None else obj, "dtype")
        return super().__new__(cls)

    def __init__(self, obj: Any = None, align: builtins_bool = False,
                 copy: builtins_bool = False) -> None:
        if _BY_NP:
            return                  # (an existing instance, returned by __new__)
        self.name = obj
        self.np = np.dtype(obj)
        self.kind = self.np.kind
        self.itemsize = self.np.itemsize
        self._hash = hash(self.np)

    def __repr__(self) -> str:
        return f"dtype('{self.name}')"

    def __str__(self) -> str:
        return self.name

    def __call__(self, value: Any = 0) -> Any:
        from ._array_object import Array
        if isinstance(value, Array):
            from ._data_type_functions import astype
            return astype(value, self)
        return self.np.type(value)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") or attr in DType.__slots__:
            raise AttributeError(attr)
        return getattr(self.np, attr)

    @property
    def dtype(self) -> np.dtype:
        """The matching NumPy dtype (what ``numpy.dtype(...)`` reads)."""
        return self.np

    def __eq__(self, other: object) -> bool:
        if other.__class__ is DType:
            return self is other      # one instance per dtype
        if other is None:
            return False
        try:
            return self.np == np.dtype(other)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return False

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> str:
        return self.name

    @property
    def type(self) -> type:
        return self.np.type

    @property
    def str(self) -> str:
        return self.np.str


_BY_NP: dict[np.dtype, DType] = {}      # (filled once every instance exists)
bool = DType("bool")
int8 = DType("int8")
int16 = DType("int16")
int32 = DType("int32")
int64 = DType("int64")
uint8 = DType("uint8")
uint16 = DType("uint16")
uint32 = DType("uint32")
uint64 = DType("uint64")
float16 = DType("float16")
float32 = DType("float32")
float64 = DType("float64")
complex64 = DType("complex64")
complex128 = DType("complex128")

ALL = (bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32,
       float64, complex64, complex128)
#: the standard's dtypes (float16 is NumPy's addition: stored in 16 bits, computed in float32
#: and rounded to float16 after each operation, as NumPy's loops do)
STANDARD = tuple(d for d in ALL if d.name != "float16")
_BY_NP.update({d.np: d for d in ALL})

SIGNED = (int8, int16, int32, int64)
UNSIGNED = (uint8, uint16, uint32, uint64)
INTEGER = SIGNED + UNSIGNED
REAL_FLOATING = (float16, float32, float64)
COMPLEX_FLOATING = (complex64, complex128)
FLOATING = REAL_FLOATING + COMPLEX_FLOATING
NUMERIC = INTEGER + FLOATING
REAL_NUMERIC = INTEGER + REAL_FLOATING

#: category name -> dtypes, as the standard's function signatures name them
CATEGORIES = {
    "bool": (bool,),
    "integer": INTEGER,
    "signed integer": SIGNED,
    "unsigned integer": UNSIGNED,
    "integer or boolean": INTEGER + (bool,),
    "real floating-point": REAL_FLOATING,
    "complex floating-point": COMPLEX_FLOATING,
    "floating-point": FLOATING,
    "real-valued": REAL_NUMERIC,
    "numeric": NUMERIC,
    "any": ALL,
}


def from_np(dt: np.dtype) -> DType:
    d = _BY_NP.get(dt)        # a NumPy dtype object (the common case) needs no conversion
    return d if d is not None else _BY_NP[np.dtype(dt)]


def to_dtype(obj: Any, where: str = "dtype") -> DType:
    """Accept our dtypes, NumPy dtypes and scalar types, and type names."""
    if isinstance(obj, DType):
        return obj
    if obj is builtins_bool:
        return bool
    if obj is int:
        return int64
    if obj is float:
        return float64
    if obj is complex:
        return complex128
    try:
        nd = np.dtype(obj)
    except (TypeError, ValueError):
        from ._numpy_args import Unsupported
        if isinstance(obj, Unsupported):        # (object_, str_, datetime64...: say why)
            raise TypeError(f"{where}: {obj._refuse()}") from None
        raise TypeError(f"{where}: {obj!r} is not a data type") from None
    if nd not in _BY_NP:
        raise TypeError(f"{where}: data type {nd} is not supported by zyxarray "
                        f"(supported: {', '.join(d.name for d in ALL)})")
    return _BY_NP[nd]


def promote(a: DType, b: DType, where: str = "") -> DType:
    """The standard's promotion of two array dtypes (NumPy's across kinds)."""
    if a is b:
        return a
    if (a in (uint64,) and b in SIGNED) or (b in (uint64,) and a in SIGNED):
        # Note: NumPy gives float64 here; the standard defines no result and array-api-strict
        # refuses. Mixing them is almost always a bug, so we refuse too.
        raise TypeError(f"{where}: no common data type for {a.name} and {b.name} "
                        "(mixing uint64 with a signed integer)")
    return _BY_NP[np.promote_types(a.np, b.np)]


def result_type_of(*items: Any, where: str = "result_type") -> DType:
    """Promote arrays/dtypes first, then let Python scalars join weakly."""
    from ._array_object import Array

    dtypes: list[DType] = []
    scalars: list[Any] = []
    for x in items:
        if isinstance(x, Array):
            dtypes.append(x.dtype)
        elif isinstance(x, (builtins_bool, int, float, complex)) and not isinstance(x, np.generic):
            scalars.append(x)
        elif isinstance(x, (np.ndarray, np.generic)):
            dtypes.append(to_dtype(x.dtype, where))
        else:
            dtypes.append(to_dtype(x, where))
    if not dtypes:
        if not scalars:
            raise ValueError(f"{where}: at least one array or dtype is required")
        return scalar_default(scalars[0]) if len(scalars) == 1 else \
            result_type_of(*[scalar_default(s) for s in scalars], where=where)
    out = dtypes[0]
    for d in dtypes[1:]:
        out = promote(out, d, where)
    for s in scalars:
        out = scalar_result(out, s)
    return out


def scalar_default(value: Any) -> DType:
    if isinstance(value, builtins_bool):
        return bool
    if isinstance(value, int):
        return int64
    if isinstance(value, float):
        return float64
    return complex128


def scalar_result(dtype: DType, value: Any) -> DType:
    """The dtype of ``array(dtype) op python_scalar`` (NEP 50 weak scalars)."""
    if isinstance(value, builtins_bool):
        return dtype
    if isinstance(value, int):
        return int64 if dtype is bool else dtype
    if isinstance(value, float):
        return dtype if dtype.kind in "fc" else float64
    if isinstance(value, complex):
        if dtype.kind == "c":
            return dtype
        return complex64 if dtype is float32 or dtype is float16 else complex128
    raise TypeError(f"unsupported scalar {value!r}")


_CATEGORY_NAMES = {name: frozenset(d.name for d in ds) for name, ds in CATEGORIES.items()}


def is_kind(dtype: DType, category: str) -> builtins_bool:
    return dtype.name in _CATEGORY_NAMES[category]   # (str hashes are cached; DType's is not)
