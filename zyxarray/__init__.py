"""zyxarray: ``import zyxarray as xp`` replaces ``import numpy as np``.

Every operation records a node in a lazy graph; observing a value fuses the pending graph into
as few kernels as possible, compiles each once per structure, caches it, and runs it on the
array's device. This module only re-exports the public names.
"""

from __future__ import annotations

from ._api._array_object import Array
from ._api._creation_functions import (arange, asarray, empty, empty_like, eye, from_dlpack,
                                       full, full_like, linspace, ones, ones_like, tril, triu,
                                       zeros, zeros_like)
from ._api._data_type_functions import astype, can_cast, finfo, iinfo, isdtype, result_type
from ._api._dtypes import (bool, complex64, complex128, float32, float64, int8, int16, int32,
                           int64, uint8, uint16, uint32, uint64)
from ._api._elementwise_functions import (abs, acos, acosh, add, asin, asinh, atan, atan2,
                                          atanh, bitwise_and, bitwise_invert,
                                          bitwise_left_shift, bitwise_or, bitwise_right_shift,
                                          bitwise_xor, ceil, clip, conj, copysign, cos, cosh,
                                          divide, equal, exp, expm1, floor, floor_divide,
                                          greater, greater_equal, hypot, imag, isfinite, isinf,
                                          isnan, less, less_equal, log, log1p, log2, log10,
                                          logaddexp, logical_and, logical_not, logical_or,
                                          logical_xor, maximum, minimum, multiply, negative,
                                          nextafter, not_equal, positive, pow, real, reciprocal,
                                          remainder, round, sign, signbit, sin, sinh, sqrt,
                                          square, subtract, tan, tanh, trunc)
from ._api._inspection import __array_namespace_info__
from ._api._introspection import Plan, debug, explain
from ._api._linear_algebra_functions import matmul, matrix_transpose, vecdot
from ._api._manipulation_functions import (broadcast_arrays, broadcast_to, expand_dims, flip,
                                           permute_dims, reshape, squeeze)
from ._api._searching_functions import where
from ._api._statistical_functions import max, mean, min, prod, std, sum, var
from ._api._utility_functions import all, any
from ._errors import CompileError, DeviceError, ZyxarrayError

__version__ = "0.1.0"
__array_api_version__ = "2025.12"

e = 2.718281828459045
pi = 3.141592653589793
inf = float("inf")
nan = float("nan")
newaxis = None

__all__ = [
    "Array", "CompileError", "DeviceError", "Plan", "ZyxarrayError", "__array_api_version__",
    "__array_namespace_info__", "abs", "acos", "acosh", "add", "all", "any", "arange",
    "asarray", "asin", "asinh", "astype", "atan", "atan2", "atanh", "bitwise_and",
    "bitwise_invert", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift", "bitwise_xor",
    "bool", "broadcast_arrays", "broadcast_to", "can_cast", "ceil", "clip", "complex64",
    "complex128", "conj", "copysign", "cos", "cosh", "debug", "divide", "e", "empty",
    "empty_like", "equal", "exp", "expand_dims", "explain", "expm1", "eye", "finfo", "flip",
    "float32", "float64", "floor", "floor_divide", "from_dlpack", "full", "full_like",
    "greater", "greater_equal", "hypot", "iinfo", "imag", "inf", "int8", "int16", "int32",
    "int64", "isdtype", "isfinite", "isinf", "isnan", "less", "less_equal", "linspace", "log",
    "log1p", "log2", "log10", "logaddexp", "logical_and", "logical_not", "logical_or",
    "logical_xor", "matmul", "matrix_transpose", "max", "maximum", "mean", "min", "minimum",
    "multiply", "nan", "negative", "newaxis", "nextafter", "not_equal", "ones", "ones_like",
    "permute_dims", "pi", "positive", "pow", "prod", "real", "reciprocal", "remainder",
    "reshape", "result_type", "round", "sign", "signbit", "sin", "sinh", "sqrt", "square",
    "squeeze", "std", "subtract", "sum", "tan", "tanh", "tril", "triu", "trunc", "uint8",
    "uint16", "uint32", "uint64", "var", "vecdot", "where", "zeros", "zeros_like",
]
