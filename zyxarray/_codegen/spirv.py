"""SPIR-V from the kernel IR, in Python: a module is built word by word, no GLSL and no
compiler process (issue 15). Thread-style kernels only (the lowering GPUs get).

Layer: ``_codegen``. Imports the IR, ``c_math``, ``spirv_math`` and ``cstyle``'s table of
complex ops.

The interface every module has (what the Vulkan runtime binds):

- descriptor set 0, binding ``i``: the kernel's buffer ``i``, a runtime array of its dtype
  (bool as uint8) in a ``Block`` struct, ``NonWritable`` unless the kernel writes it; or,
  where ``meta["addresses"]`` (devices with bufferDeviceAddress), no binding per buffer:
  buffer ``i``'s 64-bit address is the int argument after the kernel's own ints, made a
  ``PhysicalStorageBuffer`` pointer to the same struct (``PhysicalStorageBuffer64``
  addressing, loads and stores ``Aligned``), so a buffer may exceed maxStorageBufferRange
  and a kernel may read more buffers than a stage can bind;
- a push-constant block: a ``uint`` added to the work-group id (so that a grid larger than
  the device's dispatch limit runs as several dispatches), then at offset 8 the int64
  arguments the kernel reads, then its float arguments (float64, or float32 where the
  kernel's ``meta["fp64"]`` is false). Where they do not fit the device's push-constant
  size (``meta["push_constants"]``, 128 bytes if not given), the arguments are instead
  two storage buffers, the bindings after the kernel's buffers (int64, then floats; 0 and
  1 where the buffers go by address).
  ``SpirvSource.arguments`` says which: ``(ints, floats)`` pushed, or None;
- the entry point ``main``, ``LocalSize`` from ``meta["local_size"]``.

Control flow is structured as SPIR-V requires: a ``RANGE`` is a loop (header, condition,
body, continue and merge blocks, the counter in a function variable), an ``IF`` a selection;
accumulators are function arrays; ``GROUP_REDUCE``/``GROUP_SCAN`` go through workgroup
memory and ``OpControlBarrier``. Values follow NumPy's semantics as the C dialects' do (NaN-
propagating MAX/MIN, floor division and modulo of integers and floats (on an exact fmod),
shifts past the width).

float16 values are float32 in registers and uint16 in buffers, converted and rounded after
each operation with arithmetic only (the C dialects' HALF helpers: frexp, ldexp, rint), so
results match theirs bit for bit; the rounding goes through float64.

The transcendental functions are the project's own (``c_math``), translated to SPIR-V by
``spirv_math`` (GLSL.std.450 has no float64 versions and loose float32 accuracy); hypot and
logaddexp are built here from them.

Complex numbers are two-component vectors (real, imaginary), as the GPU C dialects hold
them, with ``complex_vec``'s helpers translated by ``spirv_math`` (same special values and
accuracy as on OpenCL and CUDA).
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from . import c_math, spirv_math
from .cstyle import VECTOR_COMPLEX
from .ir import BOOL, BOOL_RESULT, Instr, Kernel, Op, identity


class SpirvUnsupported(ValueError):
    """The SPIR-V renderer cannot render this kernel yet (the message names why)."""


# -- the module builder -------------------------------------------------------------------------
MAGIC = 0x07230203
VERSION = 0x00010300            # SPIR-V 1.3 (Vulkan 1.1)

# opcodes (SPIR-V 1.3 unified specification)
OpExtension, OpExtInstImport, OpExtInst, OpMemoryModel, OpEntryPoint = 10, 11, 12, 14, 15
OpExecutionMode, OpCapability, OpTypeVoid, OpTypeBool, OpTypeInt = 16, 17, 19, 20, 21
OpTypeFloat, OpTypeVector, OpTypeArray, OpTypeRuntimeArray, OpTypeStruct = 22, 23, 28, 29, 30
OpTypePointer, OpTypeFunction, OpConstantTrue, OpConstantFalse, OpConstant = 32, 33, 41, 42, 43
OpFunction, OpFunctionEnd, OpVariable, OpLoad, OpStore, OpAccessChain = 54, 56, 59, 61, 62, 65
OpConstantComposite, OpDecorate, OpMemberDecorate = 44, 71, 72
OpCompositeConstruct, OpCompositeExtract = 80, 81
OpConvertFToU, OpConvertFToS, OpConvertSToF, OpConvertUToF = 109, 110, 111, 112
OpUConvert, OpSConvert, OpFConvert, OpBitcast = 113, 114, 115, 124
OpSNegate, OpFNegate, OpIAdd, OpFAdd = 126, 127, 128, 129
OpISub, OpFSub, OpIMul, OpFMul = 130, 131, 132, 133
OpUDiv, OpSDiv, OpFDiv, OpUMod, OpSRem, OpFRem = 134, 135, 136, 137, 138, 140
OpIsNan, OpIsInf = 156, 157
OpLogicalEqual, OpLogicalNotEqual, OpLogicalOr, OpLogicalAnd, OpLogicalNot = 164, 165, 166, 167, 168
OpSelect, OpIEqual, OpINotEqual = 169, 170, 171
OpUGreaterThan, OpSGreaterThan, OpUGreaterThanEqual, OpSGreaterThanEqual = 172, 173, 174, 175
OpULessThan, OpSLessThan, OpULessThanEqual, OpSLessThanEqual = 176, 177, 178, 179
OpFOrdEqual, OpFUnordNotEqual, OpFOrdLessThan, OpFOrdGreaterThan = 180, 183, 184, 186
OpFOrdLessThanEqual, OpFOrdGreaterThanEqual = 188, 190
OpShiftRightLogical, OpShiftRightArithmetic, OpShiftLeftLogical = 194, 195, 196
OpBitwiseOr, OpBitwiseXor, OpBitwiseAnd, OpNot = 197, 198, 199, 200
OpControlBarrier = 224
OpLoopMerge, OpSelectionMerge, OpLabel, OpBranch = 246, 247, 248, 249
OpBranchConditional, OpReturn, OpReturnValue = 250, 253, 254
OpFunctionParameter, OpFunctionCall = 55, 57

# enumerants
CAP_SHADER, CAP_FLOAT64, CAP_INT64, CAP_INT16, CAP_INT8 = 1, 10, 11, 22, 39
CAP_STORAGE_16, CAP_STORAGE_8 = 4433, 4448
SC_INPUT, SC_WORKGROUP, SC_PRIVATE, SC_FUNCTION = 1, 4, 6, 7
SC_PUSH_CONSTANT, SC_STORAGE_BUFFER = 9, 12
SC_PHYSICAL_STORAGE_BUFFER, CAP_PHYSICAL_STORAGE_BUFFER = 5349, 5347
ADDRESSING_PHYSICAL_64, MEMORY_ALIGNED = 5348, 0x2
OpConvertUToPtr = 120
DEC_BLOCK, DEC_ARRAY_STRIDE, DEC_BUILTIN, DEC_NON_WRITABLE = 2, 6, 11, 24
DEC_BINDING, DEC_DESCRIPTOR_SET, DEC_OFFSET, DEC_NO_CONTRACTION = 33, 34, 35, 42
BUILTIN_WORKGROUP_ID, BUILTIN_LOCAL_INVOCATION_ID = 26, 27
BUILTIN_SUBGROUP_ID, BUILTIN_SUBGROUP_LOCAL_ID = 40, 41
CAP_GROUP_NON_UNIFORM, CAP_GROUP_NON_UNIFORM_SHUFFLE = 61, 65
SCOPE_SUBGROUP = 3
OpGroupNonUniformShuffleXor = 346
SCOPE_WORKGROUP = 2
SEMANTICS_WORKGROUP = 0x8 | 0x100      # AcquireRelease | WorkgroupMemory
GLSL_FABS, GLSL_SABS, GLSL_FLOOR, GLSL_CEIL, GLSL_TRUNC = 4, 5, 8, 9, 3
GLSL_ROUND_EVEN, GLSL_SQRT, GLSL_FREXP_STRUCT, GLSL_LDEXP, GLSL_FMA = 2, 31, 52, 53, 50


def _string(text: str) -> list[int]:
    data = text.encode() + b"\0"
    data += b"\0" * (-len(data) % 4)
    return list(struct.unpack(f"<{len(data) // 4}I", data))


class Module:
    """SPIR-V words in the sections the spec orders; types and constants deduplicated."""

    def __init__(self) -> None:
        self.bound = 1
        self.capabilities: set[int] = {CAP_SHADER}
        self.extensions: set[str] = set()
        self.imports: list[int] = []
        self.entry: list[int] = []
        self.modes: list[int] = []
        self.decorations: list[int] = []
        self.globals: list[int] = []       # types, constants, global variables
        self.variables: list[int] = []     # function variables (the first block's start)
        self.code: list[int] = []          # the function body
        self.functions: list[int] = []     # other functions (the math helpers), after it
        self._types: dict[tuple, int] = {}
        self._consts: dict[tuple, int] = {}
        self.value_types: dict[int, int] = {}   # value id -> its type id
        self.glsl: int | None = None
        self.addressing = 0                # Logical; PhysicalStorageBuffer64 with addresses

    def id(self) -> int:
        self.bound += 1
        return self.bound - 1

    @staticmethod
    def _op(out: list[int], opcode: int, *operands: int) -> None:
        out.append(((len(operands) + 1) << 16) | opcode)
        out.extend(operands)

    def op(self, opcode: int, *operands: int) -> None:
        self._op(self.code, opcode, *operands)

    def value(self, opcode: int, type_id: int, *operands: int) -> int:
        """An instruction in the body that produces a value; its id."""
        r = self.id()
        self._op(self.code, opcode, type_id, r, *operands)
        self.value_types[r] = type_id
        return r

    def decorate(self, target: int, *decoration: int) -> None:
        self._op(self.decorations, OpDecorate, target, *decoration)

    def type(self, *key: Any) -> int:
        t = self._types.get(key)
        if t is None:
            t = self._types[key] = self.id()
            opcode, *operands = key
            self._op(self.globals, opcode, t, *operands)
        return t

    def new_type(self, opcode: int, *operands: int) -> int:
        """A type of its own (not shared with an equal one: decorations differ)."""
        t = self.id()
        self._op(self.globals, opcode, t, *operands)
        return t

    def const(self, type_id: int, words: tuple[int, ...]) -> int:
        key = (type_id, words)
        c = self._consts.get(key)
        if c is None:
            c = self._consts[key] = self.id()
            self._op(self.globals, OpConstant, type_id, c, *words)
            self.value_types[c] = type_id
        return c

    def composite_const(self, type_id: int, parts: tuple[int, ...]) -> int:
        key = ("composite", type_id, parts)
        c = self._consts.get(key)
        if c is None:
            c = self._consts[key] = self.id()
            self._op(self.globals, OpConstantComposite, type_id, c, *parts)
            self.value_types[c] = type_id
        return c

    def bool_const(self, value: bool) -> int:
        key = ("bool", value)
        c = self._consts.get(key)
        if c is None:
            c = self._consts[key] = self.id()
            self._op(self.globals, OpConstantTrue if value else OpConstantFalse,
                     self.type(OpTypeBool), c)
        return c

    def ext(self) -> int:
        if self.glsl is None:
            self.glsl = self.id()
            self._op(self.imports, OpExtInstImport, self.glsl, *_string("GLSL.std.450"))
        return self.glsl

    def binary(self) -> bytes:
        words: list[int] = [MAGIC, VERSION, 0, self.bound, 0]
        for cap in sorted(self.capabilities):
            self._op(words, OpCapability, cap)
        for name in sorted(self.extensions):
            self._op(words, OpExtension, *_string(name))
        words += self.imports
        self._op(words, OpMemoryModel, self.addressing, 1)     # (addressing), GLSL450
        words += self.entry + self.modes + self.decorations + self.globals + self.code
        words += self.functions
        return struct.pack(f"<{len(words)}I", *words)


# -- the renderer ------------------------------------------------------------------------------
_INT_KINDS = "iu"
#: SPV_KHR_float_controls: execution modes and the capabilities they need, by name
FLOAT_CONTROL_MODES = {"denorm_preserve": 4459, "signed_zero_inf_nan_preserve": 4461}
_FLOAT_CONTROL_CAPABILITY = {"denorm_preserve": 4464, "signed_zero_inf_nan_preserve": 4466}
#: GLSL.std.450's float32 sin, cos, tan: what a device without float64 computes them with
#: (c_math's float32 versions reduce the argument in float64)
_GLSL_F32 = {"sin": 13, "cos": 14, "tan": 15}
GLSL_POW = 26


#: 2/pi's 32-bit words and pi/2 - float64(pi/2), for the Payne-Hanek reduction (c_math's)
_TWO_OVER_PI, _PI_HALF_TAIL = c_math.TWO_OVER_PI, c_math.PI_HALF_TAIL


class _NeedsFloat64(Exception):
    """A float64 value was asked for while rendering for a device without float64."""
F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
U16 = np.dtype(np.uint16)
U32, I32 = np.dtype(np.uint32), np.dtype(np.int32)


def _part(dtype: np.dtype) -> np.dtype:
    """The component dtype of a complex dtype."""
    return F32 if dtype == np.complex64 else F64


class SpirvRenderer:
    """Renders one thread-style ``Kernel`` as a SPIR-V module (bytes)."""

    def render(self, kernel: Kernel) -> bytes:
        self.k = kernel
        self.m = m = Module()
        self.ids: dict[int, int] = {}
        self.actual: dict[int, np.dtype] = {}  # values whose type is not their IR dtype's
        self.ins = kernel.instrs
        self.scopes: list[tuple] = []          # open RANGE/IF: what their END must emit
        self.local: int | None = None
        self.fp64 = bool(kernel.meta.get("fp64", True))
        self.no_float64 = False                # (set while trying float32-only math)
        self._pi_table: int | None = None      # (2/pi's words, for huge trig arguments)
        self.lane_consts: dict[int, int] = {}  # integer constant id -> its value
        self.math_functions: dict[tuple, int] = {}   # (c_math name, suffix) -> function id
        void = m.type(OpTypeVoid)
        fn_type = m.type(OpTypeFunction, void)
        main = m.id()
        self._interface()
        entry_label = m.id()
        body_start = len(m.code)
        for i, x in enumerate(kernel.instrs):
            self._instr(i, x)
        if self.scopes:
            raise SpirvUnsupported(f"{kernel.name}: unclosed loop or selection")
        m.op(OpReturn)
        body = m.code[body_start:]
        m.code = m.code[:body_start]
        m._op(m.code, OpFunction, void, main, 0, fn_type)
        m._op(m.code, OpLabel, entry_label)
        m.code += m.variables + body
        m._op(m.code, OpFunctionEnd)
        local = int(kernel.meta.get("local_size", 1))
        m._op(m.entry, OpEntryPoint, 5, main, *_string("main"), self.wg_var, self.lid_var,
              *self.subgroup_vars.values())
        m._op(m.modes, OpExecutionMode, main, 17, local, 1, 1)       # LocalSize
        # float controls the device supports: subnormals kept (NVIDIA flushes float32 ones
        # otherwise), signed zeros, infinities and NaN kept through optimization
        for mode, width in kernel.meta.get("float_controls", ()):
            m.extensions.add("SPV_KHR_float_controls")
            m.capabilities.add(_FLOAT_CONTROL_CAPABILITY[mode])
            m._op(m.modes, OpExecutionMode, main, FLOAT_CONTROL_MODES[mode], width)
        return m.binary()

    # -- types -----------------------------------------------------------------------------
    def t(self, dtype: Any) -> int:
        """The SPIR-V type of values of ``dtype`` (in registers; float16 values are float32,
        rounded to float16 after each operation, as the C dialects compute them)."""
        d = np.dtype(dtype)
        if d == F16:
            d = F32
        m = self.m
        if d == BOOL:
            return m.type(OpTypeBool)
        if d.kind in _INT_KINDS:
            bits = d.itemsize * 8
            if bits == 64:
                m.capabilities.add(CAP_INT64)
            elif bits == 16:
                m.capabilities.add(CAP_INT16)
            elif bits == 8:
                m.capabilities.add(CAP_INT8)
            return m.type(OpTypeInt, bits, int(d.kind == "i"))
        if d.kind == "f" and d.itemsize in (4, 8):
            if d.itemsize == 8:
                if self.no_float64:
                    raise _NeedsFloat64
                m.capabilities.add(CAP_FLOAT64)
            return m.type(OpTypeFloat, d.itemsize * 8)
        if d.kind == "c":              # (a two-component vector: real, imaginary)
            return m.type(OpTypeVector, self.t(_part(d)), 2)
        raise SpirvUnsupported(f"{self.k.name}: the SPIR-V renderer has no {d} values yet")

    def stored(self, dtype: Any) -> np.dtype:
        """The dtype a buffer holds for values of ``dtype`` (bool as uint8)."""
        d = np.dtype(dtype)
        return np.dtype(np.uint8) if d == BOOL else (U16 if d == F16 else d)

    def ptr(self, storage: int, type_id: int) -> int:
        return self.m.type(OpTypePointer, storage, type_id)

    def _fdiv32(self, t: int, x: int, y: int) -> int:
        """float32 ``x / y``. Vulkan bounds OpFDiv's error (2.5 ulp) only for |y| in
        [2^-126, 2^126]; beyond, NVIDIA's driver divides through a reciprocal that flushes to
        zero (max / max gave 0). Where |y| > 2^64 both operands are scaled by 2^-64: the
        quotient is the same, the reciprocal far from the flush; what scaling x loses (x
        below 2^-62) is a quotient below 2^-126, itself flushed on such devices."""
        m = self.m
        b = self.t(BOOL)
        big = m.value(OpFOrdGreaterThan, b, self._glsl(GLSL_FABS, t, y),
                      self.const(2.0 ** 64, F32))
        quarter = self.const(2.0 ** -64, F32)
        xs = m.value(OpSelect, t, big, m.value(OpFMul, t, x, quarter), x)
        ys = m.value(OpSelect, t, big, m.value(OpFMul, t, y, quarter), y)
        return m.value(OpFDiv, t, xs, ys)

    def _fdiv32_in_64(self, x: int, y: int) -> int:
        """float64 ``x / y`` of float32 values: where |y| is outside [2^-126, 2^126] (a
        subnormal or huge float32, see ``_fdiv64``) both are scaled by 2^64 or 2^-64, which
        float64 holds exactly, and the quotient is the same."""
        m = self.m
        t, b = self.t(F64), self.t(BOOL)
        ay = self._glsl(GLSL_FABS, t, y)
        scale = m.value(OpSelect, t, m.value(OpFOrdLessThan, b, ay, self.const(2.0 ** -126, F64)),
                        self.const(2.0 ** 64, F64),
                        m.value(OpSelect, t, m.value(OpFOrdGreaterThan, b, ay,
                                                     self.const(2.0 ** 126, F64)),
                                self.const(2.0 ** -64, F64), self.const(1.0, F64)))
        return m.value(OpFDiv, t, m.value(OpFMul, t, x, scale), m.value(OpFMul, t, y, scale))

    def _fdiv64(self, x: int, y: int) -> int:
        """float64 ``x / y``. Vulkan bounds OpFDiv only for |y| in [2^-126, 2^126], and
        NVIDIA's driver divides float64 through a reciprocal seeded in float32's range:
        1 / 8.9e-300 gave inf. Outside that range y is split as 2^e y', y' in [1, 2) (its
        exponent bits replaced), x / y' is divided and the quotient scaled by 2^-e in two
        exact steps; a subnormal y is first scaled by 2^64, x with it (x then overflowing
        means x / y does too), and a small x by 2^64 before its division. Zero, infinite
        and NaN y divide as they are. The rounding is the division's own, except that a
        subnormal quotient is rounded twice. 32-bit words only: no Int64 needed."""
        m = self.m
        t, b = self.t(F64), self.t(BOOL)
        u32, i32 = self.t(U32), self.t(I32)
        v2 = m.type(OpTypeVector, u32, 2)

        def c(v: float) -> int:
            return self.const(v, F64)

        def u(v: int) -> int:
            return self.const(v, U32)

        plain = m.value(OpFDiv, t, x, y)
        ay = self._glsl(GLSL_FABS, t, y)
        keep = m.value(OpLogicalOr, b, m.value(OpLogicalAnd, b,
                       m.value(OpFOrdGreaterThanEqual, b, ay, c(2.0 ** -126)),
                       m.value(OpFOrdLessThanEqual, b, ay, c(2.0 ** 126))),
                       m.value(OpLogicalOr, b, m.value(OpFOrdEqual, b, ay, c(0.0)),
                               m.value(OpLogicalOr, b, m.value(OpIsInf, b, y),
                                       m.value(OpIsNan, b, y))))
        scale = m.value(OpSelect, t, m.value(OpFOrdLessThan, b, ay, c(2.0 ** -1022)),
                        c(2.0 ** 64), c(1.0))
        xs, ys = m.value(OpFMul, t, x, scale), m.value(OpFMul, t, y, scale)
        words = m.value(OpBitcast, v2, ys)
        lo = m.value(OpCompositeExtract, u32, words, 0)
        hi = m.value(OpCompositeExtract, u32, words, 1)
        field = m.value(OpBitwiseAnd, u32, m.value(OpShiftRightLogical, u32, hi, u(20)),
                        u(0x7FF))
        mantissa = m.value(OpBitwiseOr, u32, m.value(OpBitwiseAnd, u32, hi, u(0x800FFFFF)),
                           u(0x3FF00000))
        # a small x too (its quotient by y' would lose bits as a subnormal): times 2^64, the
        # 64 taken back with the scaling
        small = m.value(OpFOrdLessThan, b, self._glsl(GLSL_FABS, t, xs), c(2.0 ** -1020))
        xs = m.value(OpFMul, t, xs, m.value(OpSelect, t, small, c(2.0 ** 64), c(1.0)))
        q = m.value(OpFDiv, t, xs, m.value(OpBitcast, t,
                                           m.value(OpCompositeConstruct, v2, lo, mantissa)))
        # -e = 1023 - field (less 64 for a scaled x), in [-1087, 1022]: two halves, each
        # within [-544, 511]
        minus_e = m.value(OpISub, i32, m.value(OpSelect, i32, small, self.const(959, I32),
                                               self.const(1023, I32)),
                          m.value(OpBitcast, i32, field))
        half = m.value(OpShiftRightArithmetic, i32, minus_e, self.const(1, I32))
        for k in (half, m.value(OpISub, i32, minus_e, half)):
            biased = m.value(OpBitcast, u32, m.value(OpIAdd, i32, k, self.const(1023, I32)))
            power = m.value(OpBitcast, t, m.value(OpCompositeConstruct, v2, u(0), m.value(
                OpShiftLeftLogical, u32, biased, u(20))))
            q = m.value(OpFMul, t, q, power)
        return m.value(OpSelect, t, keep, plain, q)

    def const(self, value: Any, dtype: Any) -> int:
        d = np.dtype(dtype)
        if d == BOOL:
            return self.m.bool_const(bool(value))
        if d.kind == "c":
            c = complex(value)
            return self.m.composite_const(self.t(d), (self.const(c.real, _part(d)),
                                                      self.const(c.imag, _part(d))))
        t = self.t(d)
        if d == F16:
            raw = np.array(value).astype(F16).astype(F32).tobytes()
        elif d.kind == "f":
            raw = np.array(value).astype(d).tobytes()
        else:
            # (a literal narrower than a word fills it: sign-extended if signed)
            width = max(d.itemsize, 4)
            v = int(np.array(value).astype(d))
            raw = (v % (1 << (8 * width)) if d.kind == "i" else v).to_bytes(width, "little")
        return self.m.const(t, struct.unpack(f"<{len(raw) // 4}I", raw))

    # -- the interface -----------------------------------------------------------------------
    def _block(self, dtype: np.dtype) -> int:
        """The ``Block`` struct of a runtime array of ``dtype`` as stored (decorated once:
        bindings and addressed buffers share it)."""
        m = self.m
        d = self.stored(dtype)
        if d.itemsize == 1:
            m.capabilities.add(CAP_STORAGE_8)
            m.extensions.add("SPV_KHR_8bit_storage")
        elif d.itemsize == 2:
            m.capabilities.add(CAP_STORAGE_16)
            m.extensions.add("SPV_KHR_16bit_storage")
        elem = self.t(d)
        arr = m.type(OpTypeRuntimeArray, elem)
        block = m.type(OpTypeStruct, arr)
        if block not in self.blocks:
            self.blocks.add(block)
            m.decorate(arr, DEC_ARRAY_STRIDE, d.itemsize)
            m.decorate(block, DEC_BLOCK)
            m._op(m.decorations, OpMemberDecorate, block, 0, DEC_OFFSET, 0)
        return block

    def _storage_array(self, dtype: np.dtype, binding: int, writable: bool) -> int:
        m = self.m
        block = self._block(dtype)
        var = m.id()
        m._op(m.globals, OpVariable, self.ptr(SC_STORAGE_BUFFER, block), var, SC_STORAGE_BUFFER)
        m.decorate(var, DEC_DESCRIPTOR_SET, 0)
        m.decorate(var, DEC_BINDING, binding)
        if not writable:
            m.decorate(var, DEC_NON_WRITABLE)
        return var

    def _interface(self) -> None:
        m = self.m
        k = self.k
        self.blocks: set[int] = set()
        # buffers by address (``meta["addresses"]``): no binding per buffer; buffer i's
        # address is int argument ``n_ints + i`` (``self.addressed_from``), turned into a
        # PhysicalStorageBuffer pointer where the kernel takes the buffer
        self.addressed = bool(k.meta.get("addresses"))
        self.psb: set[int] = set()      # ids of PhysicalStorageBuffer pointers
        self.buf_vars = [] if self.addressed else [
            self._storage_array(np.dtype(dt), i, w) for i, (dt, w) in enumerate(k.buffers)]
        n = len(self.buf_vars)
        self.float_dtype = np.dtype(np.float64 if self.fp64 else np.float32)
        n_ints = 1 + max((x.arg for x in k.instrs if x.op is Op.INT_ARG), default=-1)
        self.addressed_from = n_ints
        if self.addressed:
            n_ints += len(k.buffers)
            m.addressing = ADDRESSING_PHYSICAL_64
            m.capabilities.update((CAP_PHYSICAL_STORAGE_BUFFER, CAP_INT64))
            m.extensions.add("SPV_KHR_physical_storage_buffer")
        n_floats = 1 + max((x.arg for x in k.instrs if x.op is Op.FLOAT_ARG), default=-1)
        size = 8 + 8 * n_ints + self.float_dtype.itemsize * n_floats
        self.arguments: tuple[int, int] | None = None
        if size <= int(k.meta.get("push_constants", 128)):
            self.arguments = (n_ints, n_floats)
        else:
            self.int_var = self._storage_array(np.dtype(np.int64), n, False)
            self.float_var = self._storage_array(self.float_dtype, n + 1, False)
        u32 = m.type(OpTypeInt, 32, 0)
        uvec3 = m.type(OpTypeVector, u32, 3)
        self.subgroup_vars: dict[int, int] = {}    # builtin -> Input variable, when used
        self.wg_var, self.lid_var = m.id(), m.id()
        for var, builtin in ((self.wg_var, BUILTIN_WORKGROUP_ID),
                             (self.lid_var, BUILTIN_LOCAL_INVOCATION_ID)):
            m._op(m.globals, OpVariable, self.ptr(SC_INPUT, uvec3), var, SC_INPUT)
            m.decorate(var, DEC_BUILTIN, builtin)
        # the push-constant block (its own struct: decorated Block): the group offset, and
        # the arguments where they fit
        members = [u32]
        offsets = [0]
        self.push_member: dict[str, int] = {}
        if self.arguments is not None:
            offset = 8
            for kind, count, dt in (("int", n_ints, np.dtype(np.int64)),
                                    ("float", n_floats, self.float_dtype)):
                if count:
                    arr = m.new_type(OpTypeArray, self.t(dt), self.const(count, np.uint32))
                    m.decorate(arr, DEC_ARRAY_STRIDE, dt.itemsize)
                    self.push_member[kind] = len(members)
                    members.append(arr)
                    offsets.append(offset)
                    offset += count * dt.itemsize
        push = m.new_type(OpTypeStruct, *members)
        m.decorate(push, DEC_BLOCK)
        for index, offset in enumerate(offsets):
            m._op(m.decorations, OpMemberDecorate, push, index, DEC_OFFSET, offset)
        self.push_var = m.id()
        m._op(m.globals, OpVariable, self.ptr(SC_PUSH_CONSTANT, push), self.push_var,
              SC_PUSH_CONSTANT)

    def _element_ptr(self, var: int, dtype: np.dtype, index: int) -> int:
        elem = self.t(self.stored(dtype))
        storage = SC_PHYSICAL_STORAGE_BUFFER if var in self.psb else SC_STORAGE_BUFFER
        p = self.m.value(OpAccessChain, self.ptr(storage, elem), var,
                         self.const(0, np.int32), index)
        if var in self.psb:
            self.psb.add(p)
        return p

    def _access(self, ptr: int, dtype: np.dtype) -> tuple[int, ...]:
        """The memory operands of a load or store through ``ptr``: an addressed buffer's
        must say its alignment (the element's size)."""
        return (MEMORY_ALIGNED, self.stored(dtype).itemsize) if ptr in self.psb else ()

    def _argument(self, integer: bool, index: int) -> int:
        """Int (int64) or float argument ``index``, from the push constants or their
        buffer."""
        m = self.m
        dt = np.dtype(np.int64) if integer else self.float_dtype
        if self.arguments is not None:
            member = self.push_member["int" if integer else "float"]
            p = m.value(OpAccessChain, self.ptr(SC_PUSH_CONSTANT, self.t(dt)),
                        self.push_var, self.const(member, np.int32),
                        self.const(index, np.int32))
        else:
            var = self.int_var if integer else self.float_var
            p = self._element_ptr(var, dt, self.const(index, np.int64))
        return m.value(OpLoad, self.t(dt), p)

    def _buffer_pointer(self, b: int) -> int:
        """Buffer ``b`` of an addressed kernel: a PhysicalStorageBuffer pointer to its
        ``Block`` made from its address."""
        m = self.m
        address = m.value(OpBitcast, self.t(np.uint64),
                          self._argument(True, self.addressed_from + b))
        block = self._block(np.dtype(self.k.buffers[b][0]))
        p = m.value(OpConvertUToPtr, self.ptr(SC_PHYSICAL_STORAGE_BUFFER, block), address)
        self.psb.add(p)
        return p

    # -- one instruction -----------------------------------------------------------------------
    def _instr(self, i: int, x: Instr) -> None:
        m = self.m
        a = [self.ids.get(s, -1) for s in x.srcs]
        op = x.op
        if op is Op.BUF:
            self.ids[i] = self._buffer_pointer(x.arg[0]) if self.addressed \
                else self.buf_vars[x.arg[0]]
        elif op in (Op.INT_ARG, Op.FLOAT_ARG):
            # (float32 on a device without float64: the CAST that follows is then a no-op)
            self.ids[i] = self._argument(op is Op.INT_ARG, x.arg)
            self.actual[i] = np.dtype(np.int64) if op is Op.INT_ARG else self.float_dtype
        elif op is Op.CONST:
            self.ids[i] = self.const(x.arg, x.dtype)
            if np.dtype(x.dtype).kind in "iu":
                self.lane_consts[self.ids[i]] = int(x.arg)
        elif op is Op.SPECIAL:
            self.ids[i] = self._special(x.arg)
        elif op is Op.RANGE:
            self._range(i, x, a)
        elif op is Op.IF:
            then, merge = m.id(), m.id()
            m.op(OpSelectionMerge, merge, 0)
            m.op(OpBranchConditional, a[0], then, merge)
            m.op(OpLabel, then)
            self.scopes.append(("if", merge))
        elif op is Op.END:
            self._end()
        elif op is Op.LOAD:
            self.ids[i] = self._load(x, a)
        elif op is Op.STORE:
            dt = self.ins[x.srcs[0]].dtype
            value = a[2]
            if dt == BOOL:
                value = m.value(OpSelect, self.t(np.uint8), value, self.const(1, np.uint8),
                                self.const(0, np.uint8))
            elif dt == F16:
                value = self._f2h(value)
            p = self._element_ptr(a[0], dt, a[1])
            m.op(OpStore, p, value, *self._access(p, dt))
        elif op is Op.ACC:
            self.ids[i] = self._acc(x)
        elif op in (Op.ACC_UPDATE, Op.ACC_SCAN):
            acc = self.ins[x.srcs[0]]
            p = self._acc_ptr(acc, a[0], a[1])
            cur = m.value(OpLoad, self.t(acc.dtype), p)
            new = self._combine(Op(acc.arg[0]), acc.dtype, cur, a[2])
            if op is Op.ACC_SCAN and acc.dtype == F16:     # (a running float16 value)
                new = self._rh(new)
            m.op(OpStore, p, new)
            if op is Op.ACC_SCAN:
                self.ids[i] = new
        elif op is Op.ACC_GET:
            acc = self.ins[x.srcs[0]]
            self.ids[i] = m.value(OpLoad, self.t(acc.dtype), self._acc_ptr(acc, a[0], a[1]))
        elif op is Op.ACC_RESULT:
            acc = self.ins[x.srcs[0]]
            v = m.value(OpLoad, self.t(acc.dtype), self._acc_ptr(acc, a[0], None, 0))
            for lane in range(1, acc.arg[1]):
                w = m.value(OpLoad, self.t(acc.dtype), self._acc_ptr(acc, a[0], None, lane))
                v = self._combine(Op(acc.arg[0]), acc.dtype, v, w)
            self.ids[i] = self._rh(v) if acc.dtype == F16 else v   # (rounded once)
        elif op in (Op.GROUP_REDUCE, Op.GROUP_SCAN):
            self.ids[i] = self._group(x, a[0])
        elif op is Op.CAST:
            src = self.actual.get(x.srcs[0], self.ins[x.srcs[0]].dtype)
            self.ids[i] = self._cast(a[0], src, x.dtype)
        elif op is Op.BITCAST:
            self.ids[i] = m.value(OpBitcast, self.t(x.dtype), a[0])
        else:
            v = self._alu(x, a)
            if np.dtype(x.dtype) == F16 and x.op not in BOOL_RESULT:
                v = self._rh(v)
            if x.op in BOOL_RESULT and np.dtype(x.dtype) != BOOL:
                # (a comparison may give its 0/1 as another dtype, as C's ``a != b`` does)
                v = m.value(OpSelect, self.t(x.dtype), v, self.const(1, x.dtype),
                            self.const(0, x.dtype))
            self.ids[i] = v

    def _special(self, name: str) -> int:
        m = self.m
        u32 = m.type(OpTypeInt, 32, 0)
        uvec3 = m.type(OpTypeVector, u32, 3)
        var = self.wg_var if name == "group_id" else self.lid_var
        vec = m.value(OpLoad, uvec3, var)
        v = m.value(OpCompositeExtract, u32, vec, 0)
        if name == "group_id":
            base_ptr = m.value(OpAccessChain, self.ptr(SC_PUSH_CONSTANT, u32), self.push_var,
                               self.const(0, np.int32))
            v = m.value(OpIAdd, u32, v, m.value(OpLoad, u32, base_ptr))
        out = m.value(OpBitcast, self.t(np.int64), m.value(OpUConvert, self.t(np.uint64), v))
        if name == "local_id":
            self.local = out
        return out

    def _negate_narrow(self, t: int, d: np.dtype, x: int) -> int:
        """``-x`` of an int8 or int16 ``x`` (``d``), subtracted from a zero NVIDIA's
        compiler cannot see: the work-group id's z component (every dispatch is one group
        deep). Its ptxas gets ``neg.s16`` wrong for -32768, and the compiler makes one of
        OpSNegate or of a subtraction from a constant zero (see ``cuda.CUDARenderer``)."""
        m = self.m
        z = self._group_z()
        narrow = m.value(OpUConvert, self.t(np.dtype(f"uint{8 * d.itemsize}")), z)
        return m.value(OpISub, t, m.value(OpBitcast, t, narrow), x)

    def negate_float(self, t: int, d: np.dtype, x: int) -> int:
        """``-x`` of a float32 or float64 ``x`` (``d``) inside the math routines: ``-0.0 -
        x``, the -0.0 made from the work-group id's z component (zero, unknown to the
        compiler). NVIDIA's Vulkan compiler folded an OpFNegate of a complex number's
        component built by a select into one that lost the zero's sign (``-(0+0j)`` gave
        ``0-0j`` when a conjugate followed); a subtraction it cannot see through keeps it."""
        return self.m.value(OpFSub, t, self.opaque_zero(t, d, negative=True), x)

    def _group_z(self) -> int:
        """The work-group id's z component (uint32): 0, as every dispatch is one group deep,
        and a value the compilers cannot see."""
        m = self.m
        u32 = m.type(OpTypeInt, 32, 0)
        return m.value(OpCompositeExtract, u32, m.value(OpLoad, m.type(OpTypeVector, u32, 3),
                                                        self.wg_var), 2)

    def _int_sign(self, t: int, d: np.dtype, x: int) -> int:
        """The sign of a signed integer without comparisons: (x >> (n-1)) | ((-x) >>> (n-1))
        (-1, 0 or 1; the minimum too, whose negation wraps to itself). Comparisons of int64
        with zero went wrong twice: lavapipe gave 1 for int64 widened from int32 compared
        with a plain 0, and NVIDIA's driver gave wrong signs (or failed the launch) when the
        zero was hidden from lavapipe as the work-group id's widened z. Narrow types work
        in int32."""
        m = self.m
        if d.itemsize < 4:
            i32 = self.t(I32)
            wide = m.value(OpSConvert, i32, x)
            return m.value(OpSConvert, t, self._int_sign(i32, I32, wide))
        shift = self.const(d.itemsize * 8 - 1, d)
        return m.value(OpBitwiseOr, t, m.value(OpShiftRightArithmetic, t, x, shift),
                       m.value(OpShiftRightLogical, t, m.value(OpSNegate, t, x), shift))

    def opaque_zero(self, t: int, d: np.dtype, negative: bool = False) -> int:
        """A float32 or float64 zero (``-0.0`` if ``negative``) that compilers cannot fold:
        the bits of the work-group id's z component (0: grids are one group deep).
        Lavapipe folds ``0.0 + y`` of a zero it can see into ``y`` (-0.0 for y = -0.0) and
        ``0.0 - y`` into ``-y``: ``complex64(0.0) - 3.0`` gave ``-3-0j``, and a bool it had
        proven false, cast to float, plus -0.0 gave -0.0."""
        m = self.m
        u32 = m.type(OpTypeInt, 32, 0)
        z = self._group_z()
        if d.itemsize == 8:
            u64 = m.type(OpTypeInt, 64, 0)
            bits = m.value(OpUConvert, u64, z)
            if negative:
                bits = m.value(OpBitwiseOr, u64, bits, self.const(1 << 63, np.uint64))
        else:
            bits = z
            if negative:
                bits = m.value(OpBitwiseOr, u32, z, self.const(1 << 31, np.uint32))
        return m.value(OpBitcast, t, bits)

    # -- structured control flow ---------------------------------------------------------------
    def _variable(self, type_id: int, init: int) -> int:
        """A function variable of ``type_id`` holding ``init``."""
        m = self.m
        var = m.id()
        m._op(m.variables, OpVariable, self.ptr(SC_FUNCTION, type_id), var, SC_FUNCTION)
        m.op(OpStore, var, init)
        return var

    def _loop_open(self) -> tuple[int, int, int, int]:
        """A structured loop's header, and the block that computes its condition (open
        now); the labels (body, continue, header, merge) for ``_loop_test``/``_loop_close``."""
        m = self.m
        header, cond, body, cont, merge = (m.id() for _ in range(5))
        m.op(OpBranch, header)
        m.op(OpLabel, header)
        m.op(OpLoopMerge, merge, cont, 0)
        m.op(OpBranch, cond)
        m.op(OpLabel, cond)
        return body, cont, header, merge

    def _loop_test(self, go: int, labels: tuple[int, int, int, int]) -> None:
        """Run the body while ``go`` holds (the body block is open after this)."""
        self.m.op(OpBranchConditional, go, labels[0], labels[3])
        self.m.op(OpLabel, labels[0])

    def _loop_close(self, labels: tuple[int, int, int, int], step: Any = None) -> None:
        """End the body; ``step()`` emits the continue block's work; the merge block is
        open after this."""
        m = self.m
        _, cont, header, merge = labels
        m.op(OpBranch, cont)
        m.op(OpLabel, cont)
        if step is not None:
            step()
        m.op(OpBranch, header)
        m.op(OpLabel, merge)

    def _range(self, i: int, x: Instr, a: list[int]) -> None:
        m = self.m
        i64 = self.t(np.int64)
        var = self._variable(i64, a[0])
        labels = self._loop_open()
        counter = m.value(OpLoad, i64, var)
        self._loop_test(m.value(OpSLessThan, self.t(BOOL), counter, a[1]), labels)
        self.ids[i] = counter
        step = a[2] if len(a) == 3 else self.const(1, np.int64)
        self.scopes.append(("loop", var, counter, step, labels))

    def _end(self) -> None:
        m = self.m
        scope = self.scopes.pop()
        if scope[0] == "if":
            m.op(OpBranch, scope[1])
            m.op(OpLabel, scope[1])
            return
        _, var, counter, step, labels = scope
        self._loop_close(labels, lambda: m.op(OpStore, var, m.value(
            OpIAdd, self.t(np.int64), counter, step)))

    # -- memory ----------------------------------------------------------------------------------
    def _load(self, x: Instr, a: list[int]) -> int:
        m = self.m
        dt = x.dtype
        index = a[1]
        if len(a) == 3:        # where valid is false: read element 0, give zero
            index = m.value(OpSelect, self.t(np.int64), a[2], index, self.const(0, np.int64))
        p = self._element_ptr(a[0], dt, index)
        raw = m.value(OpLoad, self.t(self.stored(dt)), p, *self._access(p, dt))
        v = m.value(OpINotEqual, self.t(BOOL), raw, self.const(0, np.uint8)) \
            if dt == BOOL else (self._h2f(raw) if dt == F16 else raw)
        if len(a) == 3:
            v = self._select(a[2], v, self.const(0 if dt != BOOL else False, dt), np.dtype(dt))
        return v

    def _acc(self, x: Instr) -> int:
        m = self.m
        combine, lanes = x.arg
        elem = self.t(x.dtype)
        arr = m.type(OpTypeArray, elem, self.const(lanes, np.uint32))
        var = m.id()
        m._op(m.variables, OpVariable, self.ptr(SC_FUNCTION, arr), var, SC_FUNCTION)
        init = self.const(identity(Op(combine), x.dtype), x.dtype)
        for lane in range(lanes):
            p = m.value(OpAccessChain, self.ptr(SC_FUNCTION, elem), var,
                        self.const(lane, np.int32))
            m.op(OpStore, p, init)
        return var

    def _acc_ptr(self, acc: Instr, var: int, lane: int | None, fixed: int = 0) -> int:
        """A pointer to an accumulator's lane, indexed by a 32-bit integer (as GLSL
        compilers index arrays: the form drivers are tested with; the blocked matrix product
        is the first kernel with many lanes)."""
        m = self.m
        if lane is None:
            index = self.const(fixed, np.int32)
        elif lane in self.lane_consts:
            index = self.const(self.lane_consts[lane], np.int32)
        else:
            index = m.value(OpSConvert, self.t(np.int32), lane)
        return m.value(OpAccessChain, self.ptr(SC_FUNCTION, self.t(acc.dtype)), var, index)

    def _group(self, x: Instr, value: int) -> int:
        """GROUP_REDUCE (a tree) or GROUP_SCAN (Hillis-Steele) through workgroup memory."""
        m = self.m
        if self.local is None:
            raise SpirvUnsupported(f"{self.k.name}: a group op before local_id is read")
        combine = Op(x.arg[0])
        size = x.arg[1]
        stride = x.arg[2] if x.op is Op.GROUP_REDUCE else 1
        elem = self.t(x.dtype)
        arr = m.type(OpTypeArray, elem, self.const(size, np.uint32))
        mem = m.id()
        m._op(m.globals, OpVariable, self.ptr(SC_WORKGROUP, arr), mem, SC_WORKGROUP)
        ptr_t = self.ptr(SC_WORKGROUP, elem)
        local = self.local
        i64, b = self.t(np.int64), self.t(BOOL)

        def at(index: int) -> int:
            return m.value(OpAccessChain, ptr_t, mem, index)

        def barrier() -> None:
            m.op(OpControlBarrier, self.const(SCOPE_WORKGROUP, np.uint32),
                 self.const(SCOPE_WORKGROUP, np.uint32),
                 self.const(SEMANTICS_WORKGROUP, np.uint32))

        def when(cond: int, emit: Any) -> None:
            then, merge = m.id(), m.id()
            m.op(OpSelectionMerge, merge, 0)
            m.op(OpBranchConditional, cond, then, merge)
            m.op(OpLabel, then)
            emit()
            m.op(OpBranch, merge)
            m.op(OpLabel, merge)

        subgroup = int(self.k.meta.get("subgroup", 0))
        if x.op is Op.GROUP_REDUCE and stride == 1 and subgroup > 1 and \
                size == int(self.k.meta.get("local_size", 0)) and size % subgroup == 0 and \
                size // subgroup <= 64:
            return self._subgroup_reduce(x, value, subgroup, barrier, when)
        m.op(OpStore, at(local), value)
        barrier()
        if x.op is Op.GROUP_REDUCE:
            s = size // 2
            while s >= stride:             # (unrolled: the sizes are constants)
                sc = self.const(s, np.int64)

                def step(sc: int = sc) -> None:
                    other = m.value(OpLoad, elem, at(m.value(OpIAdd, i64, local, sc)))
                    mine = m.value(OpLoad, elem, at(local))
                    m.op(OpStore, at(local), self._combine(combine, x.dtype, mine, other))

                when(m.value(OpSLessThan, b, local, sc), step)
                barrier()
                s //= 2
            slot = self.const(0, np.int64) if stride == 1 else \
                m.value(OpSRem, i64, local, self.const(stride, np.int64))
            out = m.value(OpLoad, elem, at(slot))
        else:
            s = 1
            while s < size:
                sc = self.const(s, np.int64)
                has = m.value(OpSGreaterThanEqual, b, local, sc)
                src = m.value(OpSelect, i64, has, m.value(OpISub, i64, local, sc),
                              self.const(0, np.int64))
                other = m.value(OpLoad, elem, at(src))
                mine = m.value(OpLoad, elem, at(local))
                combined = self._combine(combine, x.dtype, other, mine)
                new = self._select(has, combined, mine, np.dtype(x.dtype))
                barrier()
                m.op(OpStore, at(local), new)
                barrier()
                s *= 2
            out = m.value(OpLoad, elem, at(local))
        barrier()          # (the memory may be written again: a group op in a loop)
        return out

    def _index_divmod(self, op: Op, d: np.dtype, x: int, y: int) -> int:
        """Division and remainder of non-negative index values: in 32 bits where both fit,
        else in 64. (NVIDIA's driver miscompiles some 64-bit divisions: a blocked matrix
        product's column index came out wrong; the 32-bit ones are right, and faster.)"""
        m = self.m
        t, b = self.t(d), self.t(BOOL)
        code = OpSDiv if op is Op.IDIV else OpSRem
        if d.itemsize != 8:
            return m.value(code, t, x, y)
        t32 = self.t(np.int32)
        limit = self.const(2 ** 31 - 1, d)
        small = m.value(OpLogicalAnd, b, m.value(OpSLessThanEqual, b, x, limit),
                        m.value(OpSLessThanEqual, b, y, limit))
        narrow = m.value(OpSConvert, t, m.value(code, t32, m.value(OpSConvert, t32, x),
                                               m.value(OpSConvert, t32, y)))
        return m.value(OpSelect, t, small, narrow, m.value(code, t, x, y))

    def _subgroup_reduce(self, x: Instr, value: int, subgroup: int, barrier: Any,
                         when: Any) -> int:
        """GROUP_REDUCE over the whole work-group with subgroup shuffles: a butterfly of
        ``OpGroupNonUniformShuffleXor`` in each subgroup (every lane ends with its subgroup's
        total, no barrier), then, for several subgroups, one slot each in workgroup memory
        combined in subgroup order. The combine is the op's own (NaN-propagating MAX/MIN,
        complex, packed argmax keys), as the tree's."""
        m = self.m
        m.capabilities.update((CAP_GROUP_NON_UNIFORM, CAP_GROUP_NON_UNIFORM_SHUFFLE))
        combine, dtype = Op(x.arg[0]), np.dtype(x.dtype)
        elem = self.t(x.dtype)
        scope = self.const(SCOPE_SUBGROUP, np.uint32)
        v = value
        offset = subgroup // 2
        while offset >= 1:
            other = m.value(OpGroupNonUniformShuffleXor, elem, scope, v,
                            self.const(offset, np.uint32))
            v = self._combine(combine, dtype, v, other)
            offset //= 2
        count = x.arg[1] // subgroup
        if count == 1:
            return v
        u32, b = self.t(np.uint32), self.t(BOOL)
        arr = m.type(OpTypeArray, elem, self.const(count, np.uint32))
        mem = m.id()
        m._op(m.globals, OpVariable, self.ptr(SC_WORKGROUP, arr), mem, SC_WORKGROUP)
        ptr_t = self.ptr(SC_WORKGROUP, elem)
        lane = m.value(OpLoad, u32, self._builtin_var(BUILTIN_SUBGROUP_LOCAL_ID))
        sid = m.value(OpLoad, u32, self._builtin_var(BUILTIN_SUBGROUP_ID))
        when(m.value(OpIEqual, b, lane, self.const(0, np.uint32)),
             lambda: m.op(OpStore, m.value(OpAccessChain, ptr_t, mem, sid), v))
        barrier()
        out = m.value(OpLoad, elem, m.value(OpAccessChain, ptr_t, mem, self.const(0, np.int32)))
        for k in range(1, count):
            w = m.value(OpLoad, elem, m.value(OpAccessChain, ptr_t, mem, self.const(k, np.int32)))
            out = self._combine(combine, dtype, out, w)
        barrier()          # (the memory may be written again: a group op in a loop)
        return out

    def _builtin_var(self, builtin: int) -> int:
        """The Input variable of a scalar uint builtin (SubgroupId, ...), declared once."""
        var = self.subgroup_vars.get(builtin)
        if var is None:
            m = self.m
            var = self.subgroup_vars[builtin] = m.id()
            m._op(m.globals, OpVariable, self.ptr(SC_INPUT, self.t(np.uint32)), var, SC_INPUT)
            m.decorate(var, DEC_BUILTIN, builtin)
        return var

    # -- values ----------------------------------------------------------------------------------
    def _combine(self, op: Op, dtype: Any, a: int, b: int) -> int:
        fake = Instr(op, np.dtype(dtype), (0, 1))
        return self._alu(fake, [a, b], [np.dtype(dtype), np.dtype(dtype)])

    def _cast(self, v: int, src: Any, dst: Any) -> int:
        m = self.m
        s, d = np.dtype(src), np.dtype(dst)
        if s == d:
            return v
        if s.kind == "c" or d.kind == "c":
            return self._complex_cast(v, s, d)
        if d == F16:      # one rounding, from the value as a double
            if s == BOOL:
                return m.value(OpSelect, self.t(F32), v, self.const(1.0, F32),
                               self.opaque_zero(self.t(F32), F32))
            wide = v if s == F64 else self._cast(v, F32 if s == F16 else s, F64)
            return self._rh(wide)
        if s == F16:
            s = F32
            if s == d:
                return v
        if d == BOOL:
            zero = self.const(0, s)
            return m.value(OpFUnordNotEqual if s.kind == "f" else OpINotEqual, self.t(BOOL),
                           v, zero)
        if s == BOOL:
            # (a float's zero the compiler cannot see: lavapipe folds ``0.0 + y`` into ``y``,
            # which is -0.0 for y = -0.0, where a bool it has proven false is cast)
            zero = self.opaque_zero(self.t(d), d) if d in (F32, F64) else self.const(0, d)
            return m.value(OpSelect, self.t(d), v, self.const(1, d), zero)
        if s.kind == "f" and d.kind == "f":
            return m.value(OpFConvert, self.t(d), v)
        if s.kind == "f":
            return m.value(OpConvertFToS if d.kind == "i" else OpConvertFToU, self.t(d), v)
        if d.kind == "f":
            f = m.value(OpConvertSToF if s.kind == "i" else OpConvertUToF, self.t(d), v)
            if d not in (F32, F64):
                return f
            # (+ 0.0 the compiler cannot see, exact for every integer's value, none being
            # -0.0: lavapipe folds ``0.0 + y`` into ``y`` where it has proven an integer
            # zero, ``x - x``; here y is that 0.0, so even the fold keeps the sign)
            f = m.value(OpFAdd, self.t(d), f, self.opaque_zero(self.t(d), d))
            m.decorate(f, DEC_NO_CONTRACTION)
            return f
        if s.itemsize == d.itemsize:
            return m.value(OpBitcast, self.t(d), v)
        # integer width change: extend by the source's signedness, then reinterpret
        widened = np.dtype(f"{s.kind}{d.itemsize}")
        w = m.value(OpSConvert if s.kind == "i" else OpUConvert, self.t(widened), v)
        return w if widened == d else m.value(OpBitcast, self.t(d), w)

    def _alu(self, x: Instr, a: list[int], dts: list[np.dtype] | None = None) -> int:
        m = self.m
        op, d = x.op, np.dtype(x.dtype)
        if dts is None:
            dts = [np.dtype(self.ins[s].dtype) for s in x.srcs]
        # float16 is computed in float32 (the caller rounds the result)
        d = F32 if d == F16 else d
        dts = [F32 if s == F16 else s for s in dts]
        src = dts[1] if op is Op.WHERE else (dts[0] if dts else d)
        kind = src.kind
        t, b = self.t(d), self.t(BOOL)
        if kind == "c" or d.kind == "c" or op is Op.COMPLEX:
            return self._complex(x, a, dts)
        if op is Op.WHERE:
            return m.value(OpSelect, t, *a)
        if kind == "b":
            logic = {Op.AND: OpLogicalAnd, Op.MUL: OpLogicalAnd, Op.OR: OpLogicalOr,
                     Op.ADD: OpLogicalOr, Op.MAX: OpLogicalOr, Op.MIN: OpLogicalAnd,
                     Op.XOR: OpLogicalNotEqual, Op.SUB: OpLogicalNotEqual,
                     Op.CMPNE: OpLogicalNotEqual, Op.CMPEQ: OpLogicalEqual}
            if op in logic:
                return m.value(logic[op], b, *a)
            if op is Op.NOT:
                return m.value(OpLogicalNot, b, a[0])
            if op in (Op.CMPLT, Op.CMPLE):   # False < True
                na = m.value(OpLogicalNot, b, a[0])
                if op is Op.CMPLT:
                    return m.value(OpLogicalAnd, b, na, a[1])
                return m.value(OpLogicalOr, b, na, a[1])
            raise SpirvUnsupported(f"{self.k.name}: {op.value} of bool in SPIR-V")
        f = kind == "f"
        signed = kind == "i"
        simple = {Op.ADD: (OpFAdd, OpIAdd), Op.SUB: (OpFSub, OpISub),
                  Op.MUL: (OpFMul, OpIMul)}
        if op in simple:
            v = m.value(simple[op][0 if f else 1], t, *a)
            if f:   # (no fused multiply-add: results match the other devices', as CUDA's
                m.decorate(v, DEC_NO_CONTRACTION)   # --fmad=false does)
            return v
        if op is Op.NEG:
            if signed and d.itemsize < 4:
                return self._negate_narrow(t, d, a[0])
            return m.value(OpFNegate if f else OpSNegate, t, a[0])
        if op is Op.DIV:
            if not f:
                raise SpirvUnsupported(f"{self.k.name}: true division of integers")
            if d == F32 and self.fp64:
                # float64's quotient, rounded once to float32, is the correctly rounded one
                # (as sqrt below); float32's OpFDiv is allowed 2.5 ulp, and NVIDIA's was 1
                # ulp off for a third of the quotients
                f64 = self.t(F64)
                return m.value(OpFConvert, t, self._fdiv32_in_64(
                    m.value(OpFConvert, f64, a[0]), m.value(OpFConvert, f64, a[1])))
            if d == F32:
                return self._fdiv32(t, a[0], a[1])
            if d == F64:
                return self._fdiv64(*a)
            return m.value(OpFDiv, t, *a)
        if op in (Op.CMPLT, Op.CMPLE, Op.CMPEQ, Op.CMPNE):
            table = {Op.CMPLT: (OpFOrdLessThan, OpSLessThan, OpULessThan),
                     Op.CMPLE: (OpFOrdLessThanEqual, OpSLessThanEqual, OpULessThanEqual),
                     Op.CMPEQ: (OpFOrdEqual, OpIEqual, OpIEqual),
                     Op.CMPNE: (OpFUnordNotEqual, OpINotEqual, OpINotEqual)}[op]
            return m.value(table[0 if f else (1 if signed else 2)], b, *a)
        if op in (Op.MAX, Op.MIN):
            cmp = (OpFOrdGreaterThan if op is Op.MAX else OpFOrdLessThan) if f else \
                (OpSGreaterThan if op is Op.MAX else OpSLessThan) if signed else \
                (OpUGreaterThan if op is Op.MAX else OpULessThan)
            pick = m.value(cmp, b, a[0], a[1])
            if f:     # NaN propagates: a NaN first operand wins, a NaN second fails the test
                pick = m.value(OpLogicalOr, b, m.value(OpIsNan, b, a[0]), pick)
            return m.value(OpSelect, t, pick, a[0], a[1])
        if op in (Op.AND, Op.OR, Op.XOR):
            return m.value({Op.AND: OpBitwiseAnd, Op.OR: OpBitwiseOr,
                            Op.XOR: OpBitwiseXor}[op], t, *a)
        if op is Op.NOT:
            return m.value(OpNot, t, a[0])
        if op in (Op.ISNAN, Op.ISINF, Op.ISFINITE):
            if not f:
                return m.bool_const(op is Op.ISFINITE)
            if op is Op.ISNAN:
                return m.value(OpIsNan, b, a[0])
            inf = m.value(OpIsInf, b, a[0])
            if op is Op.ISINF:
                return inf
            return m.value(OpLogicalNot, b, m.value(OpLogicalOr, b, inf,
                                                     m.value(OpIsNan, b, a[0])))
        if op is Op.SIGNBIT:
            bits = np.dtype(f"i{src.itemsize}")
            raw = m.value(OpBitcast, self.t(bits), a[0])
            return m.value(OpSLessThan, b, raw, self.const(0, bits))
        if op is Op.ABS:
            if kind == "u":
                return a[0]
            if signed and d.itemsize < 4:
                negative = m.value(OpSLessThan, self.t(BOOL), a[0], self.const(0, d))
                return m.value(OpSelect, t, negative, self._negate_narrow(t, d, a[0]), a[0])
            return self._glsl(GLSL_FABS if f else GLSL_SABS, t, a[0])
        if op is Op.SQRT and d == F32 and self.fp64:
            # GLSL's float32 sqrt may be 3 ulp off (NVIDIA's was 1 ulp off NumPy's correctly
            # rounded one for a sixth of its arguments); float64's, rounded once to float32,
            # is correctly rounded (53 >= 2 * 24 + 2 bits: the double rounding is harmless)
            f64 = self.t(F64)
            return m.value(OpFConvert, t, self._glsl(GLSL_SQRT, f64,
                                                     m.value(OpFConvert, f64, a[0])))
        if op in (Op.SQRT, Op.FLOOR, Op.CEIL, Op.TRUNC, Op.ROUND) and f:
            code = {Op.SQRT: GLSL_SQRT, Op.FLOOR: GLSL_FLOOR, Op.CEIL: GLSL_CEIL,
                    Op.TRUNC: GLSL_TRUNC, Op.ROUND: GLSL_ROUND_EVEN}[op]
            return self._glsl(code, t, a[0])
        if op in (Op.FLOOR, Op.CEIL, Op.TRUNC, Op.ROUND):
            return a[0]            # (integers are whole already)
        if op is Op.SIGN and signed:
            return self._int_sign(t, d, a[0])
        if op is Op.SIGN:
            zero, one = self.const(0, d), self.const(1, d)
            pos = m.value(OpFOrdGreaterThan if f else OpUGreaterThan, b, a[0], zero)
            out = m.value(OpSelect, t, pos, one, zero)
            if f:
                neg = m.value(OpFOrdLessThan, b, a[0], zero)
                out = m.value(OpSelect, t, neg, self.const(-1, d), out)
            if f:          # (NaN stays NaN)
                out = m.value(OpSelect, t, m.value(OpIsNan, b, a[0]), a[0], out)
            return out
        if op in (Op.IDIV, Op.MOD) and x.arg == "index":
            return self._index_divmod(op, d, a[0], a[1])
        if op in (Op.IDIV, Op.MOD) and not f:
            return self._int_divmod(op, d, a[0], a[1])
        if op in (Op.IDIV, Op.MOD):
            return self._float_divmod(op, d, a[0], a[1])
        if op in (Op.SHL, Op.SHR) and not f:
            return self._shift(op, d, a[0], a[1])
        if op is Op.POW and not f:
            return self._int_pow(d, a[0], a[1])
        if op is Op.COPYSIGN and f:
            bits = np.dtype(f"u{d.itemsize}")
            sign = self.const(1 << (8 * d.itemsize - 1), bits)
            ua, ub = (m.value(OpBitcast, self.t(bits), v) for v in a)
            mag = m.value(OpBitwiseAnd, self.t(bits), ua, m.value(OpNot, self.t(bits), sign))
            return m.value(OpBitcast, t, m.value(OpBitwiseOr, self.t(bits), mag, m.value(
                OpBitwiseAnd, self.t(bits), ub, sign)))
        if op is Op.NEXTAFTER and f and x.dtype != F16:
            return self._nextafter(d, a[0], a[1])
        if op is Op.HYPOT and f:
            return self._hypot(d, a[0], a[1])
        if op is Op.LOGADDEXP and f:
            return self._logaddexp(d, a[0], a[1])
        name = op.value.lower()
        if f and name in c_math.FUNCTIONS:
            if d == F32 and not self.fp64:
                return self._float32_math(name, t, a)
            return spirv_math.Translator(self).call(name, "f32" if d == F32 else "f64", a)
        raise SpirvUnsupported(f"{self.k.name}: {op.value} of {src} is not rendered in SPIR-V "
                               f"yet (it needs the project's math routines)")

    def _float32_math(self, name: str, t: int, a: list[int]) -> int:
        """c_math's float32 ``name`` on a device without float64: the project's own where it
        computes in float32 only (exp, log, expm1, ...), else GLSL.std.450's (the driver's
        accuracy; pow with NumPy's signs and special cases around it)."""
        m = self.m
        mark = len(m.code), len(m.decorations)
        self.no_float64 = True
        try:
            return spirv_math.Translator(self).call(name, "f32", a)
        except _NeedsFloat64:
            del m.code[mark[0]:], m.decorations[mark[1]:]      # (the attempt's dead code)
        finally:
            self.no_float64 = False
        if name == "pow":
            return self._pow_f32(t, a[0], a[1])
        if name in ("asin", "acos", "atan", "atan2", "asinh", "acosh", "atanh", "sinh",
                    "cosh"):
            return self._inverse_f32(name, t, a)
        return self._glsl(_GLSL_F32[name], t, *a)       # (sin, cos, tan)

    def _inverse_f32(self, name: str, t: int, a: list[int]) -> int:
        """float32 inverse trigonometric and hyperbolic functions (and sinh, cosh) without
        float64: atan2 from a minimax atan on |x| <= tan(pi/8) after the classic reduction
        (about 2 ulp), asin/acos/atan through it, the rest from the project's own float32
        exp, expm1, log and log1p (a few ulp)."""
        m = self.m
        b = self.t(BOOL)
        c = lambda v: self.const(v, F32)

        def op(code: int, *xs: int) -> int:
            return m.value(code, t, *xs)

        def call(o: Op, *xs: int) -> int:
            return self._alu(Instr(o, F32, tuple(range(len(xs)))), list(xs), [F32] * len(xs))

        def sel(cond: int, x: int, y: int) -> int:
            return m.value(OpSelect, t, cond, x, y)

        def lt(x: int, y: int) -> int:
            return m.value(OpFOrdLessThan, b, x, y)

        def copysign(x: int, y: int) -> int:
            return call(Op.COPYSIGN, x, y)

        x = a[0]
        ax = self._glsl(GLSL_FABS, t, x)
        if name in ("asin", "acos", "atan", "atan2"):
            if name == "atan2":
                y, x = a[0], a[1]
            elif name == "atan":
                y, x = x, c(1.0)
            else:                  # sqrt((1 - x)(1 + x)): NaN beyond [-1, 1]
                root = self._glsl(GLSL_SQRT, t, op(OpFMul, op(OpFSub, c(1.0), x),
                                                   op(OpFAdd, c(1.0), x)))
                y, x = (x, root) if name == "asin" else (root, x)
            ay, axx = self._glsl(GLSL_FABS, t, y), self._glsl(GLSL_FABS, t, x)
            steep = lt(axx, ay)
            num, den = sel(steep, axx, ay), sel(steep, ay, axx)
            q = op(OpFDiv, num, den)            # in [0, 1]: 0/0 and inf/inf are fixed below
            both_zero = m.value(OpLogicalAnd, b, m.value(OpFOrdEqual, b, ay, c(0.0)),
                                m.value(OpFOrdEqual, b, axx, c(0.0)))
            both_inf = m.value(OpLogicalAnd, b, m.value(OpIsInf, b, ay), m.value(OpIsInf, b, axx))
            q = sel(both_zero, c(0.0), sel(both_inf, c(1.0), q))
            big = lt(c(0.41421356), q)           # tan(pi/8): atan q = pi/4 + atan((q-1)/(q+1))
            r = sel(big, op(OpFDiv, op(OpFSub, q, c(1.0)), op(OpFAdd, q, c(1.0))), q)
            z = op(OpFMul, r, r)
            poly = c(8.05374449538e-2)
            for k in (-1.38776856032e-1, 1.99777106478e-1, -3.33329491539e-1):
                poly = op(OpFAdd, op(OpFMul, poly, z), c(k))
            v = op(OpFAdd, op(OpFMul, op(OpFMul, poly, z), r), r)
            v = sel(big, op(OpFAdd, v, c(np.pi / 4)), v)
            v = sel(steep, op(OpFSub, c(np.pi / 2), v), v)
            neg_x = self._alu(Instr(Op.SIGNBIT, BOOL, (0,)), [x], [F32])
            v = sel(neg_x, op(OpFSub, c(np.pi), v), v)
            return copysign(v, y)
        if name in ("sinh", "cosh"):
            near = lt(ax, c(88.0))
            h = call(Op.EXP, op(OpFMul, c(0.5), ax))
            far = op(OpFMul, op(OpFMul, c(0.5), h), h)      # (e^a / 2 without overflow)
            if name == "sinh":
                em = call(Op.EXPM1, ax)
                v = op(OpFMul, c(0.5), op(OpFAdd, em, op(OpFDiv, em, op(OpFAdd, em, c(1.0)))))
                return copysign(sel(near, v, far), x)
            e = call(Op.EXP, ax)
            return sel(near, op(OpFAdd, op(OpFMul, c(0.5), e), op(OpFDiv, c(0.5), e)), far)
        huge = lt(c(4096.0), ax)
        log_2x = op(OpFAdd, call(Op.LOG, ax), c(np.log(2.0)))
        if name == "asinh":
            sq = op(OpFMul, ax, ax)
            v = call(Op.LOG1P, op(OpFAdd, ax, op(OpFDiv, sq, op(OpFAdd, c(1.0), self._glsl(
                GLSL_SQRT, t, op(OpFAdd, c(1.0), sq))))))
            return copysign(sel(huge, log_2x, v), x)
        if name == "acosh":
            u = op(OpFSub, x, c(1.0))
            v = call(Op.LOG1P, op(OpFAdd, u, self._glsl(GLSL_SQRT, t, op(
                OpFAdd, op(OpFMul, c(2.0), u), op(OpFMul, u, u)))))
            return sel(huge, log_2x, v)
        v = op(OpFMul, c(0.5), call(Op.LOG1P, op(OpFDiv, op(OpFMul, c(2.0), ax),
                                                 op(OpFSub, c(1.0), ax))))
        return copysign(v, x)                                            # atanh

    def _pow_f32(self, t: int, x: int, y: int) -> int:
        """float32 pow from GLSL's (defined for x > 0 only) with C's signs and cases."""
        m = self.m
        b = self.t(BOOL)
        zero, one = self.const(0.0, F32), self.const(1.0, F32)
        r = self._glsl(GLSL_POW, t, self._glsl(GLSL_FABS, t, x), y)
        whole = m.value(OpFOrdEqual, b, self._glsl(GLSL_TRUNC, t, y), y)
        half = m.value(OpFMul, t, y, self.const(0.5, F32))
        odd = m.value(OpLogicalAnd, b, whole, m.value(OpFUnordNotEqual, b, self._glsl(
            GLSL_TRUNC, t, half), half))
        neg = m.value(OpFOrdLessThan, b, x, zero)
        r = m.value(OpSelect, t, m.value(OpLogicalAnd, b, neg, odd),
                    m.value(OpFNegate, t, r), r)
        r = m.value(OpSelect, t, m.value(OpLogicalAnd, b, neg, m.value(OpLogicalNot, b, whole)),
                    self.const(np.nan, F32), r)
        # x == +-0: 0 for y > 0, inf for y < 0, with x's sign where y is odd
        at_zero = m.value(OpSelect, t, m.value(OpFOrdGreaterThan, b, y, zero), zero,
                          self.const(np.inf, F32))
        signed = m.value(OpSelect, t, odd, self._alu(Instr(Op.COPYSIGN, F32, (0, 1)),
                                                     [at_zero, x], [F32, F32]), at_zero)
        r = m.value(OpSelect, t, m.value(OpFOrdEqual, b, x, zero), signed, r)
        # y == 0 or x == 1: 1 (also for NaN)
        return m.value(OpSelect, t, m.value(OpLogicalOr, b, m.value(OpFOrdEqual, b, y, zero),
                                            m.value(OpFOrdEqual, b, x, one)), one, r)

    def _payne_hanek(self, x: int) -> tuple[int, int, int]:
        """x (float64, finite, |x| >= 2^22; used beyond 2^50) = (n + f) pi/2, |f| <= 1/2:
        (r_hi, r_lo, n mod 2^64) with r_hi + r_lo = f pi/2 as a double-double. c_math's
        ``zx__payne_hanek_f64``, step for step: x = mant * 2^s (53-bit integer mant); the
        words of 2/pi above 2^-32(j-1), j = floor((s + 30) / 32), only add multiples of 4 to
        x * 2/pi and are skipped; mant times the next seven words (224 bits) is formed
        exactly in 32-bit limbs; its bits from the binary point (bit 192 - a, a = s - 32 j in
        [-30, 1]) on give n's low bits and 128 bits of f, off by less than 2^-127. f >= 1/2
        becomes f - 1 and n + 1; |f| goes to a double-double exactly (53 + 53 + 22 bits) and
        is multiplied by pi/2 = P1 + P2 as a double-double (Dekker's exact product: GLSL's
        Fma need not be fused). No float64 is closer to a multiple of pi/2 than ~2^-61, so
        the result keeps more than 64 good bits everywhere."""
        m = self.m
        u64, i64, f64, b = (self.t(np.uint64), self.t(np.int64), self.t(F64),
                            self.t(BOOL))
        c64 = lambda v: self.const(v, np.uint64)
        i64c = lambda v: self.const(v, np.int64)
        f64c = lambda v: self.const(v, F64)

        def fop(code: int, p: int, q: int) -> int:     # rounded once, never fused
            v = m.value(code, f64, p, q)
            m.decorate(v, DEC_NO_CONTRACTION)
            return v

        table = self._two_over_pi()
        bits = m.value(OpBitcast, u64, x)
        expo = m.value(OpBitwiseAnd, u64, m.value(OpShiftRightLogical, u64, bits, c64(52)),
                       c64(0x7FF))
        mant = m.value(OpBitwiseOr, u64, m.value(OpBitwiseAnd, u64, bits, c64((1 << 52) - 1)),
                       c64(1 << 52))
        s = m.value(OpISub, i64, m.value(OpBitcast, i64, expo), i64c(1075))
        # j = (s + 30) / 32, kept in the table for the lanes that do not use the result
        j = m.value(OpShiftRightArithmetic, i64, m.value(OpIAdd, i64, s, i64c(30)), i64c(5))
        j = m.value(OpSelect, i64, m.value(OpSLessThan, b, j, i64c(0)), i64c(0), j)
        top = i64c(len(_TWO_OVER_PI) - 7)
        j = m.value(OpSelect, i64, m.value(OpSGreaterThan, b, j, top), top, j)
        # words[c] = word j + 6 - c: the seven words as one integer, least significant first
        words = [m.value(OpLoad, u64, m.value(OpAccessChain, self.ptr(SC_PRIVATE, u64), table,
                                               m.value(OpIAdd, i64, j, i64c(6 - c))))
                 for c in range(7)]
        low32 = c64(0xFFFFFFFF)
        ml = m.value(OpBitwiseAnd, u64, mant, low32)
        mh = m.value(OpShiftRightLogical, u64, mant, c64(32))
        # limbs[c] = bits 32c .. 32c + 31 of mant * words (column c: ml * words[c] and
        # mh * words[c - 1], plus the carry; bits from 224 on only add multiples of 4)
        limbs = []
        carry = c64(0)
        for c in range(7):
            pl = m.value(OpIMul, u64, ml, words[c])
            total = m.value(OpIAdd, u64, carry, m.value(OpBitwiseAnd, u64, pl, low32))
            high = m.value(OpShiftRightLogical, u64, pl, c64(32))
            if c:
                ph = m.value(OpIMul, u64, mh, words[c - 1])
                total = m.value(OpIAdd, u64, total, m.value(OpBitwiseAnd, u64, ph, low32))
                high = m.value(OpIAdd, u64, high, m.value(OpShiftRightLogical, u64, ph,
                                                           c64(32)))
            limbs.append(m.value(OpBitwiseAnd, u64, total, low32))
            carry = m.value(OpIAdd, u64, high, m.value(OpShiftRightLogical, u64, total,
                                                        c64(32)))
        # the binary point is at bit 192 - a, sh = 32 - a bits into limb 5 (31 .. 62; held
        # there for the lanes that do not use the result, whose shifts must stay below 64)
        a = m.value(OpISub, i64, s, m.value(OpShiftLeftLogical, i64, j, i64c(5)))
        sh = m.value(OpISub, i64, i64c(32), a)
        sh = m.value(OpSelect, i64, m.value(OpSLessThan, b, sh, i64c(31)), i64c(31), sh)
        sh = m.value(OpSelect, i64, m.value(OpSGreaterThan, b, sh, i64c(62)), i64c(62), sh)
        sh = m.value(OpBitcast, u64, sh)
        back = m.value(OpISub, u64, c64(64), sh)
        A, B, C = (m.value(OpBitwiseOr, u64, limbs[k], m.value(OpShiftLeftLogical, u64,
                                                                 limbs[k + 1], c64(32)))
                   for k in (1, 3, 5))
        fh = m.value(OpBitwiseOr, u64, m.value(OpShiftRightLogical, u64, B, sh),
                     m.value(OpShiftLeftLogical, u64, C, back))
        fl = m.value(OpBitwiseOr, u64, m.value(OpShiftRightLogical, u64, A, sh),
                     m.value(OpShiftLeftLogical, u64, B, back))
        n = m.value(OpShiftRightLogical, u64, C, sh)
        # f >= 1/2: n + 1 and |f - 1| = 2^128 - f as a 128-bit integer (gh, gl)
        up = m.value(OpSLessThan, b, m.value(OpBitcast, i64, fh), i64c(0))
        n = m.value(OpIAdd, u64, n, m.value(OpSelect, u64, up, c64(1), c64(0)))
        gl = m.value(OpSelect, u64, up, m.value(OpISub, u64, c64(0), fl), fl)
        borrow = m.value(OpSelect, u64, m.value(OpIEqual, b, fl, c64(0)), c64(1), c64(0))
        gh = m.value(OpSelect, u64, up, m.value(OpIAdd, u64, m.value(OpNot, u64, fh), borrow),
                     fh)
        # |f| = d1 + d2 + d3 exactly (each converted exactly), then th + tl (fast two-sum)
        d1 = m.value(OpConvertUToF, f64, m.value(OpShiftRightLogical, u64, gh, c64(11)))
        d2 = m.value(OpConvertUToF, f64, m.value(OpBitwiseOr, u64, m.value(
            OpShiftLeftLogical, u64, m.value(OpBitwiseAnd, u64, gh, c64(0x7FF)), c64(42)),
            m.value(OpShiftRightLogical, u64, gl, c64(22))))
        d3 = m.value(OpConvertUToF, f64, m.value(OpBitwiseAnd, u64, gl, c64(0x3FFFFF)))
        d1, d2, d3 = (fop(OpFMul, d, f64c(2.0 ** -e)) for d, e in ((d1, 53), (d2, 106),
                                                                    (d3, 128)))
        th = fop(OpFAdd, d1, d2)
        tl = fop(OpFAdd, fop(OpFAdd, fop(OpFSub, d1, th), d2), d3)
        # (th + tl) * (P1 + P2), pi/2 = P1 + P2
        p1, p2 = f64c(float(np.pi / 2)), f64c(_PI_HALF_TAIL)
        rh = fop(OpFMul, th, p1)
        err = spirv_math.Translator(self).exact_product_error(th, p1, rh)
        rl = fop(OpFAdd, err, fop(OpFAdd, fop(OpFMul, tl, p1), fop(OpFMul, th, p2)))
        hi = fop(OpFAdd, rh, rl)
        lo = fop(OpFAdd, fop(OpFSub, rh, hi), rl)
        # r = -|f| pi/2 for f - 1; x < 0: -(n + f)
        neg = m.value(OpSLessThan, b, m.value(OpBitcast, i64, bits), i64c(0))
        flip = m.value(OpLogicalNotEqual, b, up, neg)
        hi = m.value(OpSelect, f64, flip, m.value(OpFNegate, f64, hi), hi)
        lo = m.value(OpSelect, f64, flip, m.value(OpFNegate, f64, lo), lo)
        n = m.value(OpSelect, u64, neg, m.value(OpISub, u64, c64(0), n), n)
        return hi, lo, n

    def _two_over_pi(self) -> int:
        """The Private array of 2/pi's 32-bit words (word 0 the integer part), once."""
        if self._pi_table is None:
            m = self.m
            u64 = self.t(np.uint64)
            words = _TWO_OVER_PI
            arr = m.type(OpTypeArray, u64, self.const(len(words), np.uint32))
            init = m.composite_const(arr, tuple(self.const(w, np.uint64) for w in words))
            var = m.id()
            m._op(m.globals, OpVariable, self.ptr(SC_PRIVATE, arr), var, SC_PRIVATE, init)
            self._pi_table = var
        return self._pi_table

    # -- complex numbers (two-component vectors, complex_vec's helpers) -------------------
    def _complex(self, x: Instr, a: list[int], dts: list[np.dtype]) -> int:
        m = self.m
        op, d = x.op, np.dtype(x.dtype)
        if op is Op.COMPLEX:
            part = _part(d)
            re, im = (self._cast(v, dt, part) for v, dt in zip(a, dts))
            return m.value(OpCompositeConstruct, self.t(d), re, im)
        src = dts[1] if op is Op.WHERE else dts[0]
        if op is Op.WHERE:
            return self._select(a[0], a[1], a[2], src)
        if op in (Op.REAL, Op.IMAG):
            return m.value(OpCompositeExtract, self.t(_part(src)), a[0], int(op is Op.IMAG))
        name = VECTOR_COMPLEX.get(op)
        if name is None:
            raise SpirvUnsupported(f"{self.k.name}: {op.value} is not defined for complex "
                                   f"operands")
        v, dt = spirv_math.Translator(self).complex_call(name, src, list(zip(a, dts)))
        return v if dt == d or dt.kind == "c" else self._cast(v, dt, d)

    def _select(self, cond: int, a: int, b: int, dtype: np.dtype) -> int:
        """``cond ? a : b``; a complex value's components each (SPIR-V 1.3 selects vectors
        on a vector of conditions)."""
        m = self.m
        if dtype.kind != "c":
            return m.value(OpSelect, self.t(dtype), cond, a, b)
        both = m.value(OpCompositeConstruct, m.type(OpTypeVector, self.t(BOOL), 2), cond, cond)
        return m.value(OpSelect, self.t(dtype), both, a, b)

    def _complex_cast(self, v: int, s: np.dtype, d: np.dtype) -> int:
        m = self.m
        if s.kind == "c" and d.kind == "c":          # (component by component)
            return m.value(OpFConvert, self.t(d), v)
        if s.kind == "c":
            part = _part(s)
            re = m.value(OpCompositeExtract, self.t(part), v, 0)
            if d == BOOL:                            # (either component non-zero)
                im = m.value(OpCompositeExtract, self.t(part), v, 1)
                b = self.t(BOOL)
                return m.value(OpLogicalOr, b, self._cast(re, part, BOOL),
                               self._cast(im, part, BOOL))
            return self._cast(re, part, d)
        part = _part(d)
        re = self._cast(v, F32 if s == F16 else s, part)
        return m.value(OpCompositeConstruct, self.t(d), re,
                       self.opaque_zero(self.t(part), part))

    # -- float16 (as the C dialects' HALF helpers: arithmetic only) --------------------------
    def _frexp_exponent(self, x: int, dtype: np.dtype) -> int:
        """The exponent ``e`` of ``frexp(x)`` (int32)."""
        m = self.m
        i32 = self.t(np.int32)
        pair = m.type(OpTypeStruct, self.t(dtype), i32)
        both = m.value(OpExtInst, pair, m.ext(), GLSL_FREXP_STRUCT, x)
        return m.value(OpCompositeExtract, i32, both, 1)

    def _rh(self, x: int) -> int:
        """The float16 nearest ``x`` (a float32 or float64 value; ties to even, one rounding
        from the double), as float32: NumPy's rounding of each float16 result."""
        m = self.m
        f32, f64, b = self.t(F32), self.t(F64), self.t(BOOL)
        if not self.fp64:
            raise SpirvUnsupported(f"{self.k.name}: float16 needs float64 for its rounding")
        d = x if self._type_of(x) == f64 else m.value(OpFConvert, f64, x)
        a = self._glsl(GLSL_FABS, f64, d)
        tiny = m.value(OpFOrdLessThan, b, a, self.const(6.103515625e-05, F64))
        sub = m.value(OpFMul, f64, self._glsl(GLSL_ROUND_EVEN, f64, m.value(
            OpFMul, f64, d, self.const(16777216.0, F64))), self.const(5.9604644775390625e-08, F64))
        e = self._frexp_exponent(a, F64)
        scale = self._glsl(GLSL_LDEXP, f64, self.const(1.0, F64),
                           m.value(OpISub, self.t(np.int32), self.const(11, np.int32), e))
        norm = m.value(OpFDiv, f64, self._glsl(GLSL_ROUND_EVEN, f64,
                                               m.value(OpFMul, f64, d, scale)), scale)
        r = m.value(OpSelect, f64, tiny, sub, norm)
        inf = self.const(np.inf, F64)
        signed_inf = m.value(OpSelect, f64, m.value(OpFOrdLessThan, b, d, self.const(0.0, F64)),
                             self.const(-np.inf, F64), inf)
        big = m.value(OpLogicalNot, b, m.value(OpFOrdLessThan, b, a, self.const(65520.0, F64)))
        r = m.value(OpSelect, f64, big, m.value(OpSelect, f64, m.value(OpIsNan, b, d), d,
                                                 signed_inf), r)
        return m.value(OpFConvert, f32, r)

    def _type_of(self, value: int) -> int:
        """The type id of a value (for _rh's input: float32 or float64)."""
        return self.m.value_types.get(value, -1)

    def _h2f(self, h: int) -> int:
        """A float16's 16 bits (uint16) as its float32 value."""
        m = self.m
        u32, i32, f32, b = self.t(np.uint32), self.t(np.int32), self.t(F32), self.t(BOOL)
        w = m.value(OpUConvert, u32, h)
        e = m.value(OpBitwiseAnd, u32, m.value(OpShiftRightLogical, u32, w,
                                               self.const(10, np.uint32)),
                    self.const(31, np.uint32))
        f = m.value(OpBitwiseAnd, u32, w, self.const(1023, np.uint32))
        sub = self._glsl(GLSL_LDEXP, f32, m.value(OpConvertUToF, f32, f),
                         self.const(-24, np.int32))
        norm = self._glsl(GLSL_LDEXP, f32, m.value(OpConvertUToF, f32, m.value(
            OpIAdd, u32, f, self.const(1024, np.uint32))), m.value(
            OpISub, i32, m.value(OpBitcast, i32, e), self.const(25, np.int32)))
        special = m.value(OpSelect, f32, m.value(OpINotEqual, b, f, self.const(0, np.uint32)),
                          self.const(np.nan, F32), self.const(np.inf, F32))
        v = m.value(OpSelect, f32, m.value(OpIEqual, b, e, self.const(31, np.uint32)),
                    special, norm)
        v = m.value(OpSelect, f32, m.value(OpIEqual, b, e, self.const(0, np.uint32)), sub, v)
        neg = m.value(OpINotEqual, b, m.value(OpBitwiseAnd, u32, w,
                                              self.const(0x8000, np.uint32)),
                      self.const(0, np.uint32))
        return m.value(OpSelect, f32, neg, m.value(OpFNegate, f32, v), v)

    def _f2h(self, x: int) -> int:
        """A float32 holding a float16 value as the float16's 16 bits (uint16)."""
        m = self.m
        u32, i32, f32, b = self.t(np.uint32), self.t(np.int32), self.t(F32), self.t(BOOL)
        bits = m.value(OpBitcast, i32, x)
        sign = m.value(OpSelect, u32, m.value(OpSLessThan, b, bits, self.const(0, np.int32)),
                       self.const(0x8000, np.uint32), self.const(0, np.uint32))
        a = self._glsl(GLSL_FABS, f32, x)
        tiny = m.value(OpConvertFToU, u32, m.value(OpFMul, f32, a,
                                                    self.const(16777216.0, F32)))
        frac = m.value(OpExtInst, m.type(OpTypeStruct, f32, i32), m.ext(),
                       GLSL_FREXP_STRUCT, a)
        mant = m.value(OpCompositeExtract, f32, frac, 0)
        e = m.value(OpCompositeExtract, i32, frac, 1)
        top = m.value(OpShiftLeftLogical, u32, m.value(OpBitcast, u32, m.value(
            OpIAdd, i32, e, self.const(14, np.int32))), self.const(10, np.uint32))
        low = m.value(OpConvertFToU, u32, m.value(OpFSub, f32, m.value(
            OpFMul, f32, mant, self.const(2048.0, F32)), self.const(1024.0, F32)))
        r = m.value(OpBitwiseOr, u32, top, low)
        r = m.value(OpSelect, u32, m.value(OpFOrdLessThan, b, a,
                                           self.const(6.103515625e-05, F32)), tiny, r)
        r = m.value(OpSelect, u32, m.value(OpFOrdGreaterThan, b, a, self.const(65504.0, F32)),
                    self.const(0x7C00, np.uint32), r)
        r = m.value(OpSelect, u32, m.value(OpIsNan, b, a), self.const(0x7E00, np.uint32), r)
        return m.value(OpUConvert, self.t(U16), m.value(OpBitwiseOr, u32, sign, r))

    def _glsl(self, code: int, t: int, *args: int) -> int:
        return self.m.value(OpExtInst, t, self.m.ext(), code, *args)

    def _int_divmod(self, op: Op, d: np.dtype, x: int, y: int) -> int:
        """NumPy's floor division and remainder of integers; 0 for a zero divisor (and for
        MIN // -1's remainder), never a trap."""
        m = self.m
        t, b = self.t(d), self.t(BOOL)
        zero, one = self.const(0, d), self.const(1, d)
        bad = m.value(OpIEqual, b, y, zero)
        safe = m.value(OpSelect, t, bad, one, y)
        signed = d.kind == "i"
        if signed:
            minus1 = m.value(OpIEqual, b, safe, self.const(-1, d))
            # x // -1 is -x (wrapping at MIN, as C's unsigned negation); x % -1 is 0
            safe = m.value(OpSelect, t, minus1, one, safe)
            q = m.value(OpSDiv, t, x, safe)
            # (x - q * y, not OpSRem: NVIDIA's driver gives OpSRem of a negative dividend as
            # an unsigned remainder, -10 rem 5 = 1; its OpSDiv truncates as it should)
            r = m.value(OpISub, t, x, m.value(OpIMul, t, q, safe))
            adjust = m.value(OpLogicalAnd, b, m.value(OpINotEqual, b, r, zero),
                             m.value(OpLogicalNotEqual, b,
                                     m.value(OpSLessThan, b, r, zero),
                                     m.value(OpSLessThan, b, safe, zero)))
            if op is Op.IDIV:
                q = m.value(OpSelect, t, adjust, m.value(OpISub, t, q, one), q)
                q = m.value(OpSelect, t, minus1, m.value(OpSNegate, t, x), q)
                return m.value(OpSelect, t, bad, zero, q)
            r = m.value(OpSelect, t, adjust, m.value(OpIAdd, t, r, safe), r)
            r = m.value(OpSelect, t, minus1, zero, r)
            return m.value(OpSelect, t, bad, zero, r)
        out = m.value(OpUDiv if op is Op.IDIV else OpUMod, t, x, safe)
        return m.value(OpSelect, t, bad, zero, out)

    def _hypot(self, d: np.dtype, x: int, y: int) -> int:
        """C99's hypot: float32 in float64 (the sum of squares is then exact enough to round
        once), float64 as max * sqrt(1 + (min/max)^2); inf wins over NaN."""
        m = self.m
        t, b = self.t(d), self.t(BOOL)
        if d == F32 and self.fp64:
            f64 = self.t(F64)
            wx, wy = (m.value(OpFConvert, f64, v) for v in (x, y))
            sq = m.value(OpFAdd, f64, m.value(OpFMul, f64, wx, wx),
                         m.value(OpFMul, f64, wy, wy))
            m.decorate(sq, DEC_NO_CONTRACTION)
            h = m.value(OpFConvert, t, self._glsl(GLSL_SQRT, f64, sq))
        else:
            ax, ay = self._glsl(GLSL_FABS, t, x), self._glsl(GLSL_FABS, t, y)
            gt = m.value(OpFOrdGreaterThan, b, ax, ay)
            big = m.value(OpSelect, t, gt, ax, ay)
            small = m.value(OpSelect, t, gt, ay, ax)
            zero = self.const(0.0, d)
            safe = m.value(OpSelect, t, m.value(OpFOrdEqual, b, big, zero), self.const(1.0, d),
                           big)
            ratio = m.value(OpFDiv, t, small, safe)
            inner = m.value(OpFAdd, t, self.const(1.0, d), m.value(OpFMul, t, ratio, ratio))
            h = m.value(OpFMul, t, big, self._glsl(GLSL_SQRT, t, inner))
            for v in (inner, h):
                m.decorate(v, DEC_NO_CONTRACTION)
        nan = m.value(OpLogicalOr, b, m.value(OpIsNan, b, x), m.value(OpIsNan, b, y))
        inf = m.value(OpLogicalOr, b, m.value(OpIsInf, b, x), m.value(OpIsInf, b, y))
        h = m.value(OpSelect, t, nan, m.value(OpFAdd, t, x, y), h)
        return m.value(OpSelect, t, inf, self.const(np.inf, d), h)

    def _logaddexp(self, d: np.dtype, x: int, y: int) -> int:
        """log(e^x + e^y) as the C dialects' helper: x + log1p(e^-(x-y)) for the larger x."""
        m = self.m
        t, b = self.t(d), self.t(BOOL)
        suffix = "f32" if d == F32 else "f64"
        tr = spirv_math.Translator(self)
        diff = m.value(OpFSub, t, x, y)
        neg = m.value(OpFNegate, t, self._glsl(GLSL_FABS, t, diff))
        tail = tr.call("log1p", suffix, [tr.call("exp", suffix, [neg])])
        top = m.value(OpSelect, t, m.value(OpFOrdGreaterThan, b, diff, self.const(0.0, d)),
                      x, y)
        out = m.value(OpFAdd, t, top, tail)
        out = m.value(OpSelect, t, m.value(OpIsNan, b, diff), diff, out)
        same = m.value(OpFAdd, t, x, self.const(0.6931471805599453094, d))
        return m.value(OpSelect, t, m.value(OpFOrdEqual, b, x, y), same, out)

    def _fmod(self, d: np.dtype, x: int, y: int) -> int:
        """C's fmod, exact: |y| times the largest power of two not above the remainder is
        subtracted until the remainder is below |y| (each subtraction is exact; a loop of
        at most the exponents' difference)."""
        m = self.m
        t, b, i32 = self.t(d), self.t(BOOL), self.t(np.int32)
        ax, ay = self._glsl(GLSL_FABS, t, x), self._glsl(GLSL_FABS, t, y)
        bad = m.value(OpLogicalOr, b, m.value(OpLogicalOr, b, m.value(OpIsNan, b, x),
                                               m.value(OpIsNan, b, y)),
                      m.value(OpLogicalOr, b, m.value(OpIsInf, b, x),
                              m.value(OpFOrdEqual, b, ay, self.const(0.0, d))))
        big_y = m.value(OpIsInf, b, y)
        one = self.const(1.0, d)
        ay_safe = m.value(OpSelect, t, m.value(OpLogicalOr, b, bad, big_y), one, ay)
        r0 = m.value(OpSelect, t, m.value(OpLogicalOr, b, bad, big_y), self.const(0.0, d),
                     ax)
        var = self._variable(t, r0)
        labels = self._loop_open()
        r = m.value(OpLoad, t, var)
        self._loop_test(m.value(OpFOrdGreaterThanEqual, b, r, ay_safe), labels)
        k = m.value(OpISub, i32, self._frexp_exponent(r, d), self._frexp_exponent(ay_safe, d))
        step = self._glsl(GLSL_LDEXP, t, ay_safe, k)
        half = self._glsl(GLSL_LDEXP, t, ay_safe, m.value(OpISub, i32, k,
                                                           self.const(1, np.int32)))
        step = m.value(OpSelect, t, m.value(OpFOrdGreaterThan, b, step, r), half, step)
        diff = m.value(OpFSub, t, r, step)
        m.decorate(diff, DEC_NO_CONTRACTION)
        m.op(OpStore, var, diff)
        self._loop_close(labels)
        rem = m.value(OpLoad, t, var)
        fake = Instr(Op.COPYSIGN, d, (0, 1))
        rem = self._alu(fake, [rem, x], [d, d])
        rem = m.value(OpSelect, t, big_y, x, rem)
        return m.value(OpSelect, t, bad, self.const(np.nan, d), rem)

    def _float_divmod(self, op: Op, d: np.dtype, a: int, b_: int) -> int:
        """NumPy's floor division and remainder of floats (npy_divmod), as the C dialects'
        helpers compute them, on an exact fmod."""
        m = self.m
        t, b = self.t(d), self.t(BOOL)
        zero = self.const(0.0, d)
        mod = self._fmod(d, a, b_)
        sign_differs = m.value(OpLogicalNotEqual, b, m.value(OpFOrdLessThan, b, b_, zero),
                               m.value(OpFOrdLessThan, b, mod, zero))
        nonzero = m.value(OpFUnordNotEqual, b, mod, zero)
        fake = Instr(Op.COPYSIGN, d, (0, 1))
        if op is Op.MOD:
            shifted = m.value(OpSelect, t, sign_differs, m.value(OpFAdd, t, mod, b_), mod)
            out = m.value(OpSelect, t, nonzero, shifted, self._alu(fake, [zero, b_], [d, d]))
            return m.value(OpSelect, t, m.value(OpFOrdEqual, b, b_, zero), mod, out)
        div = self._fdiv64 if d == F64 else (lambda p, q: m.value(OpFDiv, t, p, q))
        quotient = div(a, b_)
        d0 = div(m.value(OpFSub, t, a, mod), b_)
        d0 = m.value(OpSelect, t, m.value(OpLogicalAnd, b, nonzero, sign_differs),
                     m.value(OpFSub, t, d0, self.const(1.0, d)), d0)
        fl = self._glsl(GLSL_FLOOR, t, d0)
        fl = m.value(OpSelect, t, m.value(OpFOrdGreaterThan, b, m.value(OpFSub, t, d0, fl),
                                          self.const(0.5, d)),
                     m.value(OpFAdd, t, fl, self.const(1.0, d)), fl)
        out = m.value(OpSelect, t, m.value(OpFOrdEqual, b, d0, zero),
                      self._alu(fake, [zero, quotient], [d, d]), fl)
        a_fin = m.value(OpLogicalNot, b, m.value(OpLogicalOr, b, m.value(OpIsInf, b, a),
                                                  m.value(OpIsNan, b, a)))
        b_fin = m.value(OpLogicalNot, b, m.value(OpLogicalOr, b, m.value(OpIsInf, b, b_),
                                                  m.value(OpIsNan, b, b_)))
        plain = m.value(OpLogicalOr, b, m.value(OpFOrdEqual, b, b_, zero), m.value(
            OpLogicalOr, b, m.value(OpLogicalAnd, b, m.value(OpIsInf, b, b_), a_fin),
            m.value(OpLogicalAnd, b, m.value(OpIsInf, b, a), b_fin)))
        return m.value(OpSelect, t, plain, quotient, out)

    def _int_pow(self, d: np.dtype, base: int, exponent: int) -> int:
        """NumPy's integer power: square-and-multiply over every bit of the exponent (a loop
        of the width's length), wrapping; a negative exponent gives 1, -1 or 0 as C's
        helper does (NumPy raises for it before a kernel runs)."""
        m = self.m
        t, b = self.t(d), self.t(BOOL)
        bits = d.itemsize * 8
        one, zero = self.const(1, d), self.const(0, d)
        i32 = self.t(np.int32)
        r, xv, ev = self._variable(t, one), self._variable(t, base), self._variable(t, exponent)
        counter = self._variable(i32, self.const(0, np.int32))
        labels = self._loop_open()
        k = m.value(OpLoad, i32, counter)
        self._loop_test(m.value(OpSLessThan, b, k, self.const(bits, np.int32)), labels)
        rv, x_, e_ = (m.value(OpLoad, t, v) for v in (r, xv, ev))
        odd = m.value(OpINotEqual, b, m.value(OpBitwiseAnd, t, e_, one), zero)
        m.op(OpStore, r, m.value(OpSelect, t, odd, m.value(OpIMul, t, rv, x_), rv))
        m.op(OpStore, xv, m.value(OpIMul, t, x_, x_))
        m.op(OpStore, ev, m.value(OpShiftRightLogical, t, e_, self.const(1, d)))
        self._loop_close(labels, lambda: m.op(OpStore, counter, m.value(
            OpIAdd, i32, k, self.const(1, np.int32))))
        out = m.value(OpLoad, t, r)
        if d.kind == "i":
            negative = m.value(OpSLessThan, b, exponent, zero)
            minus1 = self.const(-1, d)
            special = m.value(OpSelect, t, m.value(OpIEqual, b, base, one), one, m.value(
                OpSelect, t, m.value(OpIEqual, b, base, minus1), m.value(
                    OpSelect, t, m.value(OpINotEqual, b, m.value(OpBitwiseAnd, t, exponent,
                                                                 one), zero),
                    minus1, one), zero))
            out = m.value(OpSelect, t, negative, special, out)
        return out

    def _nextafter(self, d: np.dtype, x: int, y: int) -> int:
        """The next float after ``x`` towards ``y`` (C99's nextafter, NumPy's)."""
        m = self.m
        t, b = self.t(d), self.t(BOOL)
        it = np.dtype(f"i{d.itemsize}")
        ti = self.t(it)
        bits = m.value(OpBitcast, ti, x)
        zero = self.const(0.0, d)
        up = m.value(OpLogicalEqual, b, m.value(OpFOrdLessThan, b, x, y),
                     m.value(OpFOrdGreaterThan, b, x, zero))
        step = m.value(OpSelect, ti, up, self.const(1, it), self.const(-1, it))
        moved = m.value(OpBitcast, t, m.value(OpIAdd, ti, bits, step))
        # from a zero: the smallest subnormal with y's sign
        tiny = m.value(OpBitcast, t, self.const(1, it))
        neg_tiny = m.value(OpFNegate, t, tiny)
        from_zero = m.value(OpSelect, t, m.value(OpFOrdLessThan, b, y, zero), neg_tiny, tiny)
        out = m.value(OpSelect, t, m.value(OpFOrdEqual, b, x, zero), from_zero, moved)
        out = m.value(OpSelect, t, m.value(OpFOrdEqual, b, x, y), y, out)
        nan = m.value(OpLogicalOr, b, m.value(OpIsNan, b, x), m.value(OpIsNan, b, y))
        return m.value(OpSelect, t, nan, m.value(OpFAdd, t, x, y), out)

    def _shift(self, op: Op, d: np.dtype, x: int, y: int) -> int:
        """Shifts past the width give 0 (or -1 for a negative signed value shifted right)."""
        m = self.m
        t, b = self.t(d), self.t(BOOL)
        bits = d.itemsize * 8
        signed = d.kind == "i"
        zero = self.const(0, d)
        out_of_range = m.value(OpUGreaterThanEqual, b,
                               y if not signed else m.value(OpBitcast,
                                                            self.t(np.dtype(f"u{d.itemsize}")),
                                                            y),
                               self.const(bits, np.dtype(f"u{d.itemsize}")) if signed else
                               self.const(bits, d))
        safe = m.value(OpSelect, t, out_of_range, zero, y)
        if op is Op.SHL:
            shifted = m.value(OpShiftLeftLogical, t, x, safe)
            return m.value(OpSelect, t, out_of_range, zero, shifted)
        shifted = m.value(OpShiftRightArithmetic if signed else OpShiftRightLogical, t, x, safe)
        if not signed:
            return m.value(OpSelect, t, out_of_range, zero, shifted)
        fill = m.value(OpSelect, t, m.value(OpSLessThan, b, x, zero), self.const(-1, d), zero)
        return m.value(OpSelect, t, out_of_range, fill, shifted)


class SpirvSource(str):
    """What ``_codegen.render`` gives for SPIR-V: text to read (the kernel's IR listing),
    carrying the module's words in ``binary``."""

    binary: bytes
    arguments: tuple[int, int] | None      # (int64s, floats) pushed; None: in buffers


def render(kernel: Kernel) -> SpirvSource:
    """The SPIR-V module of a thread-style ``kernel`` (``.binary``), as readable text."""
    renderer = SpirvRenderer()
    binary = renderer.render(kernel)
    out = SpirvSource(f"; SPIR-V module of {len(binary) // 4} words, from this IR:\n{kernel}")
    out.binary = binary
    out.arguments = renderer.arguments
    return out
