/* The hot path of zyxarray.Array, in C: what Python loops over small arrays do most.
 *
 * `_hot.py` compiles this file with the cpu device's C compiler (once, into the kernel
 * cache) and makes its type, `Core`, the base class of `Array`. Core holds an array's two
 * fields (`_node`, `_alias`) and implements the slots that element loops hit:
 *
 *   a[i], a[i, j]          an element of host memory (cpu, reference), read now: a scalar
 *   a[i] = v               an element stored in host memory the array alone owns
 *   x + y, x - y, x * y, x / y, comparisons, -x   on known scalars: computed now
 *   float(x), int(x), bool(x), operator.index(x)  of a known scalar: no read
 *   a[i] of an array of 2 or more dimensions   a *pending row*: a view made without a node
 *   for row in a           the same, row by row (`rows`)
 *   a.sum(), a.mean()      of a small window: computed now, in the loop kernels' order
 *
 * A *known scalar* is a 0-d array whose value is known on the host: a CONST node, or an
 * element this file read. It is made without a graph node; `_node` builds one (a CONST, by
 * `make_const`) when Python code asks for it. A *window* is where an array's elements lie in
 * host memory (address, dtype, shape, byte strides), learnt from `host_window` and trusted
 * until the array's node changes (the `_node` setter forgets it) or anything writes into an
 * existing buffer by a kernel (`bump`, called by realize and write_region, moves the epoch).
 *
 * A *pending row* holds where its elements are (its window, from its base's) and what it
 * was made from (`pend`: the base's alias, the storage's node then, the base's node, the
 * index). Its window is trusted while the storage still holds that node and the epoch has
 * not moved; the first time Python asks for its `_node` or `_alias` (or the window is no
 * longer trusted), `resolve_row` makes it the storage member `a[i]` would have made, from
 * the storage's value now: what NumPy's view shows after any write made since.
 *
 * Every other case, and every case that would need an error, calls the Python method of the
 * same name with a leading underscore (`Array._getitem`, `Array._add`, ...): the slow path
 * is the whole semantics, this file only shortcuts cases whose result it computes exactly as
 * the kernels do (IEEE arithmetic in the array's dtype, two's complement integer wrap). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

/* @c_math@: _hot.py puts the kernels' math helpers here (zx_exp_f64, ...) */

enum { C_BOOL, C_I8, C_I16, C_I32, C_I64, C_U8, C_U16, C_U32, C_U64, C_F32, C_F64, C_COUNT };
enum { SC_UNKNOWN, SC_KNOWN, SC_NONE };
enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MAX, OP_MIN,     /* (MAX on: results now only) */
       OP_MOD, OP_IDIV, OP_AND, OP_OR, OP_XOR };
#define MAXDIM 8
#define MAXLANES 64
#define REDUCE_NOW_MAX 16384     /* larger windows reduce in a (multithreaded) kernel */

typedef union { double f; int64_t i; uint64_t u; } Value;

typedef struct {
    PyObject_HEAD
    PyObject *node;         /* the graph node (NULL for a known scalar not yet asked for) */
    PyObject *alias;        /* (storage, view, writeable) or None */
    PyObject *device;       /* a known scalar's or a window's device */
    int sc;                 /* SC_*: is this a known scalar? (a node's kind never changes) */
    int code;               /* the known scalar's dtype (C_*) */
    Value value;
    PyObject *pend;         /* a pending row: (alias, storage node, base node, index) */
    uint64_t win_epoch;     /* the epoch the window was learnt at; 0: never */
    int win_ok, win_direct, win_code, win_ndim;
    int win_lanes;          /* the device's loop-kernel reduction lanes (0: no reduce_now) */
    int win_now;            /* the device computes small results now (the cpu device) */
    int fill;               /* the block holds a creation function's fill, never written: its
                             * node is the constant (`make_fill`), which fuses as one, and
                             * the block stays its window until a write or a view */
    PyObject *block;        /* a result computed now, before its node: the Block holding it */
    char *win_ptr;
    Py_ssize_t win_shape[MAXDIM], win_strides[MAXDIM];
} Core;

static PyTypeObject CoreType;
static PyTypeObject *ArrayType;             /* zyxarray.Array, the one subclass */
static uint64_t epoch = 1;
static int enabled = 1;
/* Python callables given to `install` */
static PyObject *make_const, *host_window, *dtype_codes, *resolve_row, *slow_storage,
                *slow_sum, *slow_mean, *adopt, *slow_matmul, *slow_rmatmul, *slow_T,
                *make_fill;
static PyObject *slow_getitem, *slow_setitem, *slow_float, *slow_int, *slow_bool, *slow_index,
                *slow_neg, *slow_compare[6], *slow_arith[4], *slow_rarith[4];
static PyObject *s_op, *s_shape, *s_dtype, *s_arg, *s_device, *s_CONST, *s_node, *s_srcs,
                *s_BUFFER, *s_VIEW;
/* graph.Node's slots, read at their offsets (the attribute lookup costs more than the rest
 * of a scalar operation): op, shape, dtype, arg, device */
static PyTypeObject *NodeType;
static Py_ssize_t node_offsets[6];

static PyObject *node_slot(PyObject *node, int k, PyObject *name) {
    /* a new reference to the node's slot k, or NULL (no error set) */
    if (Py_TYPE(node) == NodeType) {
        PyObject *v = *(PyObject **)((char *)node + node_offsets[k]);
        Py_XINCREF(v);
        return v;
    }
    PyObject *v = PyObject_GetAttr(node, name);
    if (v == NULL) PyErr_Clear();
    return v;
}

static int is_float(int code) { return code == C_F32 || code == C_F64; }
static int is_signed(int code) { return code >= C_I8 && code <= C_I64; }
static int is_unsigned(int code) { return code >= C_U8 && code <= C_U64; }

/* An integer wrapped into the dtype's width (two's complement, as the kernels' casts). */
static Value wrap(int code, uint64_t u) {
    Value v;
    switch (code) {
    case C_I8: v.i = (int8_t)u; break;
    case C_I16: v.i = (int16_t)u; break;
    case C_I32: v.i = (int32_t)u; break;
    case C_I64: v.i = (int64_t)u; break;
    case C_U8: v.u = (uint8_t)u; break;
    case C_U16: v.u = (uint16_t)u; break;
    case C_U32: v.u = (uint32_t)u; break;
    default: v.u = u; break;
    }
    return v;
}

static int in_range(int code, PyObject *o, Value *out) {
    /* A Python int as the dtype's value, if it fits (else the slow path decides). */
    int overflow = 0;
    if (is_unsigned(code)) {
        long long s = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (s == -1 && PyErr_Occurred()) { PyErr_Clear(); return 0; }
        uint64_t u;
        if (overflow > 0) {
            u = PyLong_AsUnsignedLongLong(o);
            if (u == (uint64_t)-1 && PyErr_Occurred()) { PyErr_Clear(); return 0; }
        } else if (overflow < 0 || s < 0) {
            return 0;
        } else {
            u = (uint64_t)s;
        }
        static const uint64_t umax[] = {0, 0, 0, 0, 0, 0xFFu, 0xFFFFu, 0xFFFFFFFFu,
                                        UINT64_MAX};
        if (u > umax[code]) return 0;
        out->u = u;
        return 1;
    }
    long long s = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (s == -1 && PyErr_Occurred())) { PyErr_Clear(); return 0; }
    static const int64_t lo[] = {0, INT8_MIN, INT16_MIN, INT32_MIN, INT64_MIN};
    static const int64_t hi[] = {0, INT8_MAX, INT16_MAX, INT32_MAX, INT64_MAX};
    if (s < lo[code] || s > hi[code]) return 0;
    out->i = s;
    return 1;
}

/* -- known scalars ------------------------------------------------------------------------ */

/* A new array made here, not tracked by the cycle collector until it can be part of a cycle
 * (a node or an alias set from Python: `track`): it holds only its device, None and a Block.
 * An element loop makes millions of them; each tracked one costs a little and counts towards
 * the next young-generation collection. */
#define FREE_MAX 128
static Core *free_cores[FREE_MAX];      /* dead arrays kept for reuse (Core_dealloc) */
static int free_count = 0;

static Core *new_core(void) {
    if (free_count > 0) {       /* (untracked, its fields cleared, its type's ref dropped) */
        Core *o = free_cores[--free_count];
        /* (the fields zeroed, as tp_alloc's; the window's shape and strides are read only
         * once a window is learnt, which writes them; then Array's __weakref__ slot) */
        memset((char *)o + sizeof(PyObject), 0, offsetof(Core, win_shape) - sizeof(PyObject));
        memset((char *)o + sizeof(Core), 0, ArrayType->tp_basicsize - sizeof(Core));
        return (Core *)PyObject_Init((PyObject *)o, ArrayType);
    }
    Core *o = (Core *)ArrayType->tp_alloc(ArrayType, 0);
    if (o != NULL) PyObject_GC_UnTrack(o);
    return o;
}

static void track(Core *self) {
    if (!PyObject_GC_IsTracked((PyObject *)self)) PyObject_GC_Track((PyObject *)self);
}

static PyObject *new_scalar(int code, Value v, PyObject *device) {
    Core *o = new_core();
    if (o == NULL) return NULL;
    o->sc = SC_KNOWN;
    o->code = code;
    o->value = v;
    Py_INCREF(device);
    o->device = device;
    Py_INCREF(Py_None);
    o->alias = Py_None;
    return (PyObject *)o;
}

static PyObject *box(int code, Value v) {
    if (is_float(code)) return PyFloat_FromDouble(v.f);
    if (is_signed(code)) return PyLong_FromLongLong(v.i);
    if (is_unsigned(code)) return PyLong_FromUnsignedLongLong(v.u);
    return PyBool_FromLong(v.i != 0);
}

/* Is `self` a known scalar? Learns it from the node the first time (one CONST node of shape
 * () and a dtype this file computes in). */
static int known(Core *self) {
    if (self->sc != SC_UNKNOWN) return self->sc == SC_KNOWN;
    PyObject *node = self->node;
    self->sc = SC_NONE;
    if (node == NULL) return 0;
    PyObject *op = node_slot(node, 0, s_op);
    if (op == NULL) return 0;
    int is_const = op == s_CONST || (PyUnicode_Check(op) &&
                                     PyUnicode_Compare(op, s_CONST) == 0);
    Py_DECREF(op);
    if (!is_const) return 0;
    PyObject *shape = node_slot(node, 1, s_shape);
    PyObject *dtype = node_slot(node, 2, s_dtype);
    PyObject *arg = node_slot(node, 3, s_arg);
    PyObject *device = node_slot(node, 4, s_device);
    PyObject *code_obj = dtype ? PyDict_GetItemWithError(dtype_codes, dtype) : NULL;
    int ok = 0;
    if (shape && dtype && arg && device && code_obj && PyTuple_Check(shape) &&
            PyTuple_GET_SIZE(shape) == 0) {
        int code = (int)PyLong_AsLong(code_obj);
        Value v;
        if (is_float(code)) {
            v.f = PyFloat_AsDouble(arg);
            if (code == C_F32) v.f = (float)v.f;
            ok = !(v.f == -1.0 && PyErr_Occurred());
        } else if (code == C_BOOL) {
            int t = PyObject_IsTrue(arg);
            v.i = t;
            ok = t >= 0;
        } else if (PyLong_Check(arg)) {     /* (a CONST's int holds its dtype's value) */
            ok = in_range(code, arg, &v);
        }
        if (ok) {
            self->code = code;
            self->value = v;
            Py_INCREF(device);
            Py_XSETREF(self->device, device);
            self->sc = SC_KNOWN;
        }
    }
    if (PyErr_Occurred()) PyErr_Clear();
    Py_XDECREF(shape); Py_XDECREF(dtype); Py_XDECREF(arg); Py_XDECREF(device);
    return ok;
}

/* A Python number or a known scalar of the same dtype and device, as the dtype's value (a
 * Python number converted to the dtype, as the standard converts a scalar operand); 0 when
 * the slow path must decide (another type, a value out of range, a bool). */
static int operand(PyObject *o, int code, PyObject *device, Value *out) {
    if (PyFloat_CheckExact(o)) {
        if (!is_float(code)) return 0;
        double d = PyFloat_AS_DOUBLE(o);
        out->f = code == C_F32 ? (double)(float)d : d;
        return 1;
    }
    if (PyLong_CheckExact(o)) {
        if (code == C_BOOL) return 0;
        if (is_float(code)) {
            int overflow = 0;
            long long s = PyLong_AsLongLongAndOverflow(o, &overflow);
            if (overflow || (s == -1 && PyErr_Occurred()) || s > (1LL << 53) ||
                    s < -(1LL << 53)) {
                PyErr_Clear();
                return 0;
            }
            out->f = code == C_F32 ? (double)(float)s : (double)s;
            return 1;
        }
        return in_range(code, o, out);
    }
    if (Py_TYPE(o) == ArrayType) {
        Core *c = (Core *)o;
        if (!known(c) || c->code != code || c->device != device) return 0;
        *out = c->value;
        return 1;
    }
    return 0;
}

static int arith(int op, int code, Value x, Value y, Value *r) {
    if (code == C_F64) {
        double a = x.f, b = y.f;
        r->f = op == OP_ADD ? a + b : op == OP_SUB ? a - b : op == OP_MUL ? a * b : a / b;
        return 1;
    }
    if (code == C_F32) {
        float a = (float)x.f, b = (float)y.f;
        float c = op == OP_ADD ? a + b : op == OP_SUB ? a - b : op == OP_MUL ? a * b : a / b;
        r->f = c;
        return 1;
    }
    if (code == C_BOOL || op == OP_DIV) return 0;   /* (int / int is float64: slow path) */
    uint64_t a = x.u, b = y.u;
    *r = wrap(code, op == OP_ADD ? a + b : op == OP_SUB ? a - b : a * b);
    return 1;
}

/* Python's rich comparison `op` of a and b (one C type for both). */
#define COMPARE(a, b)                                                       \
    (op == Py_LT ? (a) < (b) : op == Py_LE ? (a) <= (b) : op == Py_EQ ? (a) == (b) : \
     op == Py_NE ? (a) != (b) : op == Py_GT ? (a) > (b) : (a) >= (b))

static int compare(int op, int code, Value x, Value y) {
    if (is_float(code)) return COMPARE(x.f, y.f);
    if (is_unsigned(code)) return COMPARE(x.u, y.u);
    return COMPARE(x.i, y.i);
}

/* -- windows -------------------------------------------------------------------------------- */

/* Make a pending row the storage member it stands for (`resolve_row`); 0, or -1 with an
 * error set. */
static int resolve(Core *self) {
    PyObject *p = self->pend;
    if (p == NULL) return 0;
    self->pend = NULL;
    PyObject *args[5] = {(PyObject *)self, PyTuple_GET_ITEM(p, 0), PyTuple_GET_ITEM(p, 1),
                         PyTuple_GET_ITEM(p, 2), PyTuple_GET_ITEM(p, 3)};
    PyObject *r = PyObject_Vectorcall(resolve_row, args, 5, NULL);
    Py_DECREF(p);
    if (r == NULL) return -1;
    Py_DECREF(r);
    return 0;
}

/* Does the storage of a pending row still hold the node its window was taken from? */
static int pend_current(Core *self) {
    PyObject *storage = PyTuple_GET_ITEM(PyTuple_GET_ITEM(self->pend, 0), 0);
    PyObject *now = PyObject_GetAttr(storage, s_node);
    if (now == NULL) { PyErr_Clear(); return 0; }
    int same = now == PyTuple_GET_ITEM(self->pend, 1);
    Py_DECREF(now);
    return same;
}

static int is_op(PyObject *node, PyObject *name) {
    PyObject *op = node_slot(node, 0, s_op);
    int same = op == name || (op != NULL && PyUnicode_Check(op) &&
                              PyUnicode_Compare(op, name) == 0);
    if (PyErr_Occurred()) PyErr_Clear();
    Py_XDECREF(op);
    return same;
}

/* Could `node` have a window: realized data (a BUFFER), or a VIEW of it? A cheap test that
 * keeps pending graphs (an operator on a pending array: every step of a lazy chain) from
 * calling `host_window`; not remembered, since realizing a node changes it. */
#define FAR_DEVICES 8
static PyObject *far_devices[FAR_DEVICES];     /* devices whose memory is not the host's */

static int far_device(PyObject *node) {
    PyObject *device = node_slot(node, 4, s_device);
    int far = 0;
    for (int k = 0; k < FAR_DEVICES && far_devices[k] != NULL && !far; k++)
        far = far_devices[k] == device;
    Py_XDECREF(device);
    return far;
}

static void remember_far(PyObject *node) {
    PyObject *device = node_slot(node, 4, s_device);
    if (device == NULL) return;
    for (int k = 0; k < FAR_DEVICES; k++) {
        if (far_devices[k] == device) break;
        if (far_devices[k] == NULL) { far_devices[k] = device; return; }   /* (kept) */
    }
    Py_DECREF(device);
}

static int may_have_window(PyObject *node) {
    if (NodeType == NULL || Py_TYPE(node) != NodeType) return 1;    /* (host_window decides) */
    if (far_device(node)) return 0;
    if (is_op(node, s_BUFFER)) return 1;
    if (!is_op(node, s_VIEW)) return 0;
    PyObject *srcs = node_slot(node, 5, s_srcs);
    int ok = srcs != NULL && PyTuple_Check(srcs) && PyTuple_GET_SIZE(srcs) >= 1 &&
             is_op(PyTuple_GET_ITEM(srcs, 0), s_BUFFER);
    Py_XDECREF(srcs);
    return ok;
}

/* 1 if the array's elements are in host memory at a known window, 0 if not (or not now). */
static int window(Core *self) {
    if (self->block != NULL && (self->node == NULL || self->fill)) {
        /* (its memory: no kernel writes it; a fill's block holds its constant's values) */
        self->win_epoch = epoch;
        return 1;
    }
    if (self->pend != NULL) {
        if (self->win_epoch == epoch && pend_current(self)) return self->win_ok;
        if (resolve(self) < 0) { PyErr_Clear(); return 0; }
    }
    if (self->win_epoch == epoch) return self->win_ok;
    PyObject *node = self->node;
    if (node == NULL || host_window == NULL || !may_have_window(node)) return 0;
    Py_INCREF(node);
    PyObject *r = PyObject_CallOneArg(host_window, node);
    int ok = 0;
    if (r == NULL) {
        PyErr_Clear();      /* (the slow path meets the same problem and reports it) */
    } else if (self->node == node) {    /* (still this array's node: no other thread moved it) */
        self->win_ok = 0;
        if (r == Py_False) remember_far(node);
        if (r != Py_None && r != Py_False) {
            PyObject *shape = PyTuple_GET_ITEM(r, 2), *strides = PyTuple_GET_ITEM(r, 3);
            Py_ssize_t n = PyTuple_GET_SIZE(shape);
            self->win_ptr = (char *)PyLong_AsVoidPtr(PyTuple_GET_ITEM(r, 0));
            PyObject *code = PyDict_GetItemWithError(dtype_codes, PyTuple_GET_ITEM(r, 1));
            self->win_code = code ? (int)PyLong_AsLong(code) : -1;
            self->win_direct = PyObject_IsTrue(PyTuple_GET_ITEM(r, 4));
            self->win_lanes = (int)PyLong_AsLong(PyTuple_GET_ITEM(r, 6));
            self->win_now = PyObject_IsTrue(PyTuple_GET_ITEM(r, 7)) == 1;
            self->win_ndim = (int)n;
            for (Py_ssize_t k = 0; k < n && k < MAXDIM; k++) {
                self->win_shape[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, k));
                self->win_strides[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(strides, k));
            }
            PyObject *device = PyTuple_GET_ITEM(r, 5);
            Py_INCREF(device);
            Py_XSETREF(self->device, device);
            if (PyErr_Occurred()) PyErr_Clear();
            else if (self->win_code >= 0 && n <= MAXDIM) ok = self->win_ok = 1;
        }
        self->win_epoch = epoch;
    }
    Py_XDECREF(r);
    Py_DECREF(node);
    return ok;
}

/* An index as a Py_ssize_t: a Python int or a known integer scalar; 0 if neither. */
static int index_of(PyObject *k, Py_ssize_t *out) {
    if (PyLong_CheckExact(k)) {
        Py_ssize_t i = PyLong_AsSsize_t(k);
        if (i == -1 && PyErr_Occurred()) { PyErr_Clear(); return 0; }
        *out = i;
        return 1;
    }
    if (Py_TYPE(k) == ArrayType) {
        Core *c = (Core *)k;
        if (!known(c) || !(is_signed(c->code) || is_unsigned(c->code))) return 0;
        if (is_unsigned(c->code) && c->value.u > (uint64_t)PY_SSIZE_T_MAX) return 0;
        *out = (Py_ssize_t)c->value.i;
        return 1;
    }
    return 0;
}

/* The address of the element `key` names (an int, or a tuple of one per axis), in range;
 * NULL for any other key or an index out of range (the slow path raises IndexError). */
static char *element(Core *self, PyObject *key) {
    int nd = self->win_ndim;
    Py_ssize_t off = 0;
    if (PyTuple_CheckExact(key)) {
        if (PyTuple_GET_SIZE(key) != nd || nd == 0) return NULL;
        for (int k = 0; k < nd; k++) {
            Py_ssize_t i, s = self->win_shape[k];
            if (!index_of(PyTuple_GET_ITEM(key, k), &i)) return NULL;
            if (i < 0) i += s;
            if (i < 0 || i >= s) return NULL;
            off += i * self->win_strides[k];
        }
        return self->win_ptr + off;
    }
    Py_ssize_t i, s = self->win_shape[0];
    if (nd != 1 || !index_of(key, &i)) return NULL;
    if (i < 0) i += s;
    if (i < 0 || i >= s) return NULL;
    return self->win_ptr + i * self->win_strides[0];
}

static Value load(int code, const char *p) {
    Value v;
    switch (code) {
    case C_BOOL: v.i = *(const uint8_t *)p != 0; break;
    case C_I8: v.i = *(const int8_t *)p; break;
    case C_I16: { int16_t t; memcpy(&t, p, 2); v.i = t; break; }
    case C_I32: { int32_t t; memcpy(&t, p, 4); v.i = t; break; }
    case C_I64: { int64_t t; memcpy(&t, p, 8); v.i = t; break; }
    case C_U8: v.u = *(const uint8_t *)p; break;
    case C_U16: { uint16_t t; memcpy(&t, p, 2); v.u = t; break; }
    case C_U32: { uint32_t t; memcpy(&t, p, 4); v.u = t; break; }
    case C_U64: { uint64_t t; memcpy(&t, p, 8); v.u = t; break; }
    case C_F32: { float t; memcpy(&t, p, 4); v.f = t; break; }
    default: { double t; memcpy(&t, p, 8); v.f = t; break; }
    }
    return v;
}

static void store(int code, char *p, Value v) {
    switch (code) {
    case C_BOOL: *(uint8_t *)p = v.i != 0; break;
    case C_I8: case C_U8: *(uint8_t *)p = (uint8_t)v.u; break;
    case C_I16: case C_U16: { uint16_t t = (uint16_t)v.u; memcpy(p, &t, 2); break; }
    case C_I32: case C_U32: { uint32_t t = (uint32_t)v.u; memcpy(p, &t, 4); break; }
    case C_I64: case C_U64: memcpy(p, &v.u, 8); break;
    case C_F32: { float t = (float)v.f; memcpy(p, &t, 4); break; }
    default: memcpy(p, &v.f, 8); break;
    }
}

/* -- small results computed now ------------------------------------------------------------- */

/* Arithmetic on small arrays whose elements are in host memory, on a device that computes
 * small results now (the cpu device: `host_window` says which), is done at once, as NumPy
 * does it: a kernel's launch costs more than the work below `now_max` elements. The result
 * is an array without a node whose memory is a `Block`; `_node` makes it a buffer node over
 * that memory (`adopt`) when Python code first asks. Each operation computes what the
 * kernels compute, to the bit: IEEE arithmetic in the array's dtype, integers wrapped, and
 * the same math helpers (`_codegen/c_math.py`'s, inserted at build time by `_hot.py`; libm's
 * where the kernels call libm). Matrix products add in order along the inner axis, one
 * rounding per step (NumPy's BLAS may differ in the last bits, as it does between shapes). */

static Py_ssize_t now_max = 4096;       /* elements; 0: every result is a kernel's */
#define MATMUL_NOW_MAX 32768            /* multiply-adds of a matrix product computed now */
#define UNARY_NOW_MAX 512               /* elements of exp, log, ... computed now in a
                                         * scalar loop (strided, or sin and cos: past this
                                         * a kernel wins); contiguous ones up to now_max */
static const int item_size[C_COUNT] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8};
/* the dtype two arrays of different dtypes promote to (`_dtypes.promote`, given to
 * `install`), or -1 where the slow path decides (no common dtype: it says why) */
static signed char promote_table[C_COUNT][C_COUNT];

typedef struct {
    PyObject_HEAD
    char *ptr;
    Py_ssize_t nbytes;
} Block;

static void Block_dealloc(Block *b) {
    free(b->ptr);
    PyObject_Free(b);
}

static int Block_getbuffer(Block *b, Py_buffer *view, int flags) {
    return PyBuffer_FillInfo(view, (PyObject *)b, b->ptr, b->nbytes, 0, flags);
}

static PyBufferProcs Block_buffer = {(getbufferproc)Block_getbuffer, NULL};

static PyTypeObject BlockType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "zyxarray._hot.Block",
    .tp_doc = "The memory of a result computed now (see _hot.c); lent as a writable buffer.",
    .tp_basicsize = sizeof(Block),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)Block_dealloc,
    .tp_as_buffer = &Block_buffer,
};

/* A new array of `code` and `shape` (C-contiguous) over a new Block on `device` (whose
 * loop kernels reduce in `lanes` accumulators), its elements not yet written; NULL with an
 * error set. */
static Core *new_array(int code, int nd, const Py_ssize_t *shape, PyObject *device,
                       int lanes) {
    Py_ssize_t n = 1;
    for (int k = 0; k < nd; k++) n *= shape[k];
    Block *b = PyObject_New(Block, &BlockType);
    if (b == NULL) return NULL;
    b->nbytes = n * item_size[code];
    b->ptr = NULL;
    if (posix_memalign((void **)&b->ptr, 64, b->nbytes > 0 ? b->nbytes : 1) != 0) {
        b->ptr = NULL;
        Py_DECREF(b);
        PyErr_Format(PyExc_MemoryError, "cannot allocate %zd bytes on device cpu", b->nbytes);
        return NULL;
    }
    Core *o = new_core();
    if (o == NULL) { Py_DECREF(b); return NULL; }
    o->block = (PyObject *)b;
    o->sc = SC_NONE;
    Py_INCREF(Py_None);
    o->alias = Py_None;
    Py_INCREF(device);
    o->device = device;
    o->win_epoch = epoch;
    o->win_ok = o->win_direct = o->win_now = 1;
    o->win_code = code;
    o->win_lanes = lanes;
    o->win_ndim = nd;
    o->win_ptr = b->ptr;
    Py_ssize_t stride = item_size[code];
    for (int k = nd - 1; k >= 0; k--) {
        o->win_shape[k] = shape[k];
        o->win_strides[k] = stride;
        stride *= shape[k];
    }
    return o;
}

/* As `new_array`, on `like`'s device. */
static Core *new_result(int code, int nd, const Py_ssize_t *shape, Core *like) {
    return new_array(code, nd, shape, like->device, like->win_lanes);
}

/* Would `self` compute a result now? (A window on such a device; the caller checks sizes.) */
static int now_ok(Core *self) {
    return enabled && now_max > 0 && window(self) && self->win_now;
}

/* The loop over a result's elements: `nd` axes of `shape`, each operand `k` read at
 * `ptr[k]` with byte strides `st[k]` (0 along broadcast axes and for a scalar). */
typedef struct {
    int nd, out_nd;                     /* the loop's axes; the result's (before merging) */
    Py_ssize_t n, shape[MAXDIM], st[2][MAXDIM], out_shape[MAXDIM];
    const char *ptr[2];
} Loop;

/* `a` and `b` (b NULL: a scalar at `scalar`) broadcast to one shape; 0 when they do not
 * broadcast (the slow path says so), or the result is empty or larger than `now_max`. */
static int broadcast(Loop *L, Core *a, Core *b, const void *scalar) {
    int nd = a->win_ndim;
    if (b != NULL && b->win_ndim > nd) nd = b->win_ndim;
    L->nd = nd;
    L->n = 1;
    for (int k = 0; k < nd; k++) {
        Py_ssize_t size = 1;
        for (int j = 0; j < 2; j++) {
            Core *c = j == 0 ? a : b;
            L->st[j][k] = 0;
            if (c == NULL) continue;
            int at = k - (nd - c->win_ndim);
            if (at < 0) continue;
            Py_ssize_t s = c->win_shape[at];
            if (s != 1) {
                if (size != 1 && size != s) return 0;
                size = s;
                L->st[j][k] = c->win_strides[at];
            }
        }
        L->shape[k] = size;
        L->n *= size;
    }
    L->ptr[0] = a->win_ptr;
    L->ptr[1] = b != NULL ? b->win_ptr : (const char *)scalar;
    L->out_nd = nd;
    memcpy(L->out_shape, L->shape, sizeof L->shape);
    /* axes that both operands step through as one are one axis (the inner loop is longer) */
    int m = 0;
    for (int k = 1; k < nd; k++) {
        if (L->st[0][m] == L->st[0][k] * L->shape[k] &&
                L->st[1][m] == L->st[1][k] * L->shape[k]) {
            L->shape[m] *= L->shape[k];
            L->st[0][m] = L->st[0][k];
            L->st[1][m] = L->st[1][k];
        } else {
            m++;
            L->shape[m] = L->shape[k];
            L->st[0][m] = L->st[0][k];
            L->st[1][m] = L->st[1][k];
        }
    }
    if (nd > 0) L->nd = m + 1;
    return L->n > 0 && L->n <= now_max;
}

/* One row of EACH: `inner_` elements at byte steps S0 and S1 (constants where they can be). */
#define EACH_ROW(TIN, TOUT, TWO, S0, S1, BODY)                                             \
    for (Py_ssize_t i_ = 0; i_ < inner_; i_++) {                                           \
        TIN x, y;                                                                          \
        TOUT r;                                                                            \
        memcpy(&x, q0_ + i_ * (S0), sizeof(TIN));                                          \
        if (TWO) memcpy(&y, q1_ + i_ * (S1), sizeof(TIN)); else y = x;                     \
        BODY;                                                                              \
        memcpy(o_ + i_ * sizeof(TOUT), &r, sizeof(TOUT));                                  \
    }

/* Run BODY for each element: `x` (and `y`) read as TIN from the operands, `r` of TOUT
 * stored in order at `out`. */
#define EACH_(FAST, TIN, TOUT, TWO, BODY) do {                                                    \
    Py_ssize_t idx_[MAXDIM] = {0};                                                         \
    const char *p0_ = L->ptr[0], *p1_ = L->ptr[1];                                         \
    char *o_ = out;                                                                        \
    int nd_ = L->nd;                                                                       \
    Py_ssize_t inner_ = nd_ ? L->shape[nd_ - 1] : 1;                                       \
    Py_ssize_t s0_ = nd_ ? L->st[0][nd_ - 1] : 0, s1_ = nd_ ? L->st[1][nd_ - 1] : 0;       \
    /* (contiguous operands and scalars get loops the compiler vectorizes) */              \
    int unit0_ = s0_ == (Py_ssize_t)sizeof(TIN) || s0_ == 0;                               \
    int unit1_ = s1_ == (Py_ssize_t)sizeof(TIN) || s1_ == 0;                               \
    for (Py_ssize_t outer_ = L->n / inner_; outer_ > 0; outer_--) {                        \
        const char *q0_ = p0_, *q1_ = p1_;                                                 \
        if (!(FAST)) {                                                                     \
            EACH_ROW(TIN, TOUT, TWO, s0_, s1_, BODY);                                      \
        } else if (!(TWO)) {                                                               \
            if (s0_ == (Py_ssize_t)sizeof(TIN)) {                                          \
                EACH_ROW(TIN, TOUT, 0, sizeof(TIN), 0, BODY);                              \
            } else {                                                                       \
                EACH_ROW(TIN, TOUT, 0, s0_, 0, BODY);                                      \
            }                                                                              \
        } else if (unit0_ && unit1_ && s0_ && s1_) {                                       \
            EACH_ROW(TIN, TOUT, TWO, sizeof(TIN), sizeof(TIN), BODY);                      \
        } else if (unit0_ && unit1_ && s0_) {                                              \
            EACH_ROW(TIN, TOUT, TWO, sizeof(TIN), 0, BODY);                                \
        } else if (unit0_ && unit1_ && s1_) {                                              \
            EACH_ROW(TIN, TOUT, TWO, 0, sizeof(TIN), BODY);                                \
        } else {                                                                           \
            EACH_ROW(TIN, TOUT, TWO, s0_, s1_, BODY);                                      \
        }                                                                                  \
        o_ += inner_ * sizeof(TOUT);                                                       \
        for (int k_ = nd_ - 2; k_ >= 0; k_--) {                                            \
            p0_ += L->st[0][k_];                                                           \
            p1_ += L->st[1][k_];                                                           \
            if (++idx_[k_] < L->shape[k_]) break;                                          \
            p0_ -= L->st[0][k_] * L->shape[k_];                                            \
            p1_ -= L->st[1][k_] * L->shape[k_];                                            \
            idx_[k_] = 0;                                                                  \
        }                                                                                  \
    }                                                                                      \
} while (0)
/* vectorizable rows for float math; one strided row for the rest (less code to compile) */
#define EACH(TIN, TOUT, TWO, BODY) EACH_(1, TIN, TOUT, TWO, BODY)
#define EACH1(TIN, TOUT, TWO, BODY) EACH_(0, TIN, TOUT, TWO, BODY)

/* (maximum and minimum: NaN from either side; of equal values the second, as NumPy's on
 * x86, so of -0.0 and 0.0 the second given: the standard leaves that choice open, and
 * kernels, whose operands the scheduler may order, can give either) */
#define ARITH(E, T, MOD, IDIV, W)                                                          \
    switch (op) {                                                                          \
    case OP_ADD: E(T, T, 1, r = (T)(x + y)); break;                                        \
    case OP_SUB: E(T, T, 1, r = (T)(x - y)); break;                                        \
    case OP_MUL: E(T, T, 1, r = (T)(x * y)); break;                                        \
    case OP_MAX: E(T, T, 1, r = (x != x || x > y) ? x : y); break;                         \
    case OP_MIN: E(T, T, 1, r = (x != x || x < y) ? x : y); break;                         \
    case OP_MOD: E1(T, T, 1, r = (T)MOD((W)x, (W)y)); break;                               \
    case OP_IDIV: E1(T, T, 1, r = (T)IDIV((W)x, (W)y)); break;                             \
    default: E(T, T, 1, r = (T)(x / y)); break;                                            \
    }

/* remainder and floor division as the kernels' helpers compute them (`_codegen/cstyle.py`'s
 * _INT_HELPERS and _FLOAT_HELPERS, NumPy's semantics: no trap on x / 0 or INT_MIN / -1,
 * which give 0; the remainder takes the divisor's sign). Signed integers of every width in
 * int64 and unsigned ones in uint64 give the narrow type's values once cast back. */
static inline int64_t mod_s(int64_t a, int64_t b) {
    if (b == 0 || b == -1) return 0;
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
static inline int64_t idiv_s(int64_t a, int64_t b) {
    if (b == 0) return 0;
    if (b == -1) return (int64_t)(0 - (uint64_t)a);
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
}
static inline uint64_t mod_u(uint64_t a, uint64_t b) { return b == 0 ? 0 : a % b; }
static inline uint64_t idiv_u(uint64_t a, uint64_t b) { return b == 0 ? 0 : a / b; }
#define FLOAT_DIVMOD(T, S, F)                                                              \
static inline T mod_##S(T a, T b) {                                                        \
    T m = fmod##F(a, b);                                                                   \
    if (b == 0) return m;                                                                  \
    if (m != 0) { if ((b < 0) != (m < 0)) m += b; } else m = copysign##F((T)0, b);        \
    return m;                                                                              \
}                                                                                          \
static inline T idiv_##S(T a, T b) {                                                       \
    if (b == 0) return a / b;                                                              \
    if (isinf(b) && isfinite(a)) return a / b;                                             \
    if (isinf(a) && isfinite(b)) return a / b;                                             \
    T m = fmod##F(a, b);                                                                   \
    T d = (a - m) / b;                                                                     \
    if (m != 0 && ((b < 0) != (m < 0))) d -= 1;                                            \
    if (d == 0) return copysign##F((T)0, a / b);                                           \
    T f = floor##F(d);                                                                     \
    if (d - f > (T)0.5) f += 1;                                                            \
    return f;                                                                              \
}
FLOAT_DIVMOD(double, f64, )
FLOAT_DIVMOD(float, f32, f)

/* out[...] = a op b for the bitwise operators (OP_AND, OP_OR, OP_XOR) of integers and
 * bools, by their bytes (a bool is 0 or 1, and so is its result). */
#define BITS(E, T)                                                                         \
    switch (op) {                                                                          \
    case OP_AND: E(T, T, 1, r = (T)(x & y)); break;                                        \
    case OP_OR: E(T, T, 1, r = (T)(x | y)); break;                                         \
    default: E(T, T, 1, r = (T)(x ^ y)); break;                                            \
    }

static void bits_loop(int op, int code, const Loop *L, char *out) {
    switch (item_size[code]) {
    case 1: BITS(EACH, uint8_t) break;
    case 2: BITS(EACH, uint16_t) break;
    case 4: BITS(EACH, uint32_t) break;
    default: BITS(EACH, uint64_t) break;
    }
}

/* out[...] = a op b over the loop (op OP_*; division only of floats). */
#define E1 EACH1
static void arith_loop(int op, int code, const Loop *L, char *out) {
    switch (code) {
    case C_F64: ARITH(EACH, double, mod_f64, idiv_f64, double) break;
    case C_F32: ARITH(EACH, float, mod_f32, idiv_f32, float) break;
    case C_I8: ARITH(EACH1, int8_t, mod_s, idiv_s, int64_t) break;
    case C_I16: ARITH(EACH1, int16_t, mod_s, idiv_s, int64_t) break;
    case C_I32: ARITH(EACH1, int32_t, mod_s, idiv_s, int64_t) break;
    case C_I64: ARITH(EACH1, int64_t, mod_s, idiv_s, int64_t) break;
    case C_U8: ARITH(EACH1, uint8_t, mod_u, idiv_u, uint64_t) break;
    case C_U16: ARITH(EACH1, uint16_t, mod_u, idiv_u, uint64_t) break;
    case C_U32: ARITH(EACH1, uint32_t, mod_u, idiv_u, uint64_t) break;
    default: ARITH(EACH1, uint64_t, mod_u, idiv_u, uint64_t) break;
    }
}
#undef E1

#define COMPARE_LOOP(T) EACH1(T, uint8_t, 1, r = (uint8_t)COMPARE(x, y))

static void compare_loop(int op, int code, const Loop *L, char *out) {
    switch (code) {
    case C_F64: COMPARE_LOOP(double); break;
    case C_F32: COMPARE_LOOP(float); break;
    case C_I8: COMPARE_LOOP(int8_t); break;
    case C_I16: COMPARE_LOOP(int16_t); break;
    case C_I32: COMPARE_LOOP(int32_t); break;
    case C_I64: COMPARE_LOOP(int64_t); break;
    case C_U16: COMPARE_LOOP(uint16_t); break;
    case C_U32: COMPARE_LOOP(uint32_t); break;
    case C_U64: COMPARE_LOOP(uint64_t); break;
    default: COMPARE_LOOP(uint8_t); break;     /* uint8, and bool (== and != only) */
    }
}

static Core *converted(Core *s, int to, Py_ssize_t most);
static Value convert(int from, int to, Value v);
static PyObject *binary_now(Core *s, PyObject *other, int reflected, int op, int compare);

/* `s op b` of two arrays of different dtypes: each converted to the dtype they promote to
 * (as the graph's casts do), then computed as one dtype; NULL with no error set where not
 * computed here (no common dtype in the table). */
static PyObject *mixed_now(Core *s, Core *b, int reflected, int op, int compare) {
    int to = promote_table[s->win_code][b->win_code];
    if (to < 0) return NULL;
    Core *cs = s->win_code == to ? s : converted(s, to, now_max);
    if (cs == NULL) return NULL;
    Core *cb = b->win_code == to ? b : converted(b, to, now_max);
    if (cb == NULL) {
        if (cs != s) Py_DECREF(cs);
        return NULL;
    }
    PyObject *r = binary_now(cs, (PyObject *)cb, reflected, op, compare);
    if (cs != s) Py_DECREF(cs);
    if (cb != b) Py_DECREF(cb);
    return r;
}

/* `s op b` for a known scalar `b` of another dtype (a 0-d array: it promotes as an array
 * does, unlike a Python number): `s` converted, the scalar too, then as one dtype. */
static PyObject *mixed_scalar_now(Core *s, Core *b, int reflected, int op, int compare) {
    int to = promote_table[s->win_code][b->code];
    if (to < 0) return NULL;
    Core *cs = s->win_code == to ? s : converted(s, to, now_max);
    if (cs == NULL) return NULL;
    PyObject *scalar = new_scalar(to, convert(b->code, to, b->value), b->device);
    PyObject *r = scalar == NULL ? NULL : binary_now(cs, scalar, reflected, op, compare);
    Py_XDECREF(scalar);
    if (cs != s) Py_DECREF(cs);
    return r;
}

/* `a op b` (reflected: `b op a`) computed now, or NULL with no error set when it is not
 * computed here. compare: op is Py_LT... and the result is bool. */
static PyObject *binary_now(Core *s, PyObject *other, int reflected, int op, int compare) {
    if (!now_ok(s)) return NULL;
    int code = s->win_code, bitwise = !compare && op >= OP_AND;
    if (Py_TYPE(other) == ArrayType) {         /* (another dtype: both converted first) */
        Core *b = (Core *)other;
        if (!known(b)) {
            if (now_ok(b) && b->device == s->device && b->win_code != code)
                return mixed_now(s, b, reflected, op, compare);
        } else if (b->code != code && b->device == s->device) {
            return mixed_scalar_now(s, b, reflected, op, compare);
        }
    }
    if (!compare && op == OP_DIV && code != C_BOOL && !is_float(code)) {
        /* true division of integers: in float64 (the default float of the devices that
         * compute now, as `divide` casts), the other operand converted likewise */
        Core *cs = converted(s, C_F64, now_max);
        if (cs == NULL) return NULL;
        PyObject *r = binary_now(cs, other, reflected, op, compare);
        Py_DECREF(cs);
        return r;
    }
    if (compare ? (code == C_BOOL && op != Py_EQ && op != Py_NE)
                : bitwise ? is_float(code)
                          : (code == C_BOOL || (op == OP_DIV && !is_float(code))))
        return NULL;
    Core *b = NULL;
    Value v;
    char scalar[8];
    if (Py_TYPE(other) == ArrayType && !known((Core *)other)) {
        b = (Core *)other;
        if (!now_ok(b) || b->win_code != code || b->device != s->device) return NULL;
    } else if (operand(other, code, s->device, &v)) {
        store(code, scalar, v);      /* (its bytes, read with stride 0) */
    } else {
        return NULL;
    }
    Loop L;
    if (!broadcast(&L, s, b, scalar) || L.nd == 0) return NULL;
    if (reflected) {                    /* scalar op array: the scalar is operand 0 */
        const char *t = L.ptr[0]; L.ptr[0] = L.ptr[1]; L.ptr[1] = t;
        for (int k = 0; k < L.nd; k++) {
            Py_ssize_t u = L.st[0][k]; L.st[0][k] = L.st[1][k]; L.st[1][k] = u;
        }
    }
    Core *o = new_result(compare ? C_BOOL : code, L.out_nd, L.out_shape, s);
    if (o == NULL) return NULL;
    if (compare) compare_loop(op, code, &L, o->win_ptr);
    else if (bitwise) bits_loop(op, code, &L, o->win_ptr);
    else arith_loop(op, code, &L, o->win_ptr);
    return (PyObject *)o;
}

/* -x computed now (or NULL, no error set). */
static PyObject *neg_now(Core *s) {
    if (!now_ok(s) || s->win_code == C_BOOL) return NULL;
    Loop L;
    if (!broadcast(&L, s, NULL, NULL) || L.nd == 0) return NULL;
    int code = s->win_code;
    Core *o = new_result(code, L.out_nd, L.out_shape, s);
    if (o == NULL) return NULL;
    char *out = o->win_ptr;
    Loop *Lp = &L;
    {
        const Loop *L = Lp;
        switch (code) {
        case C_F64: EACH(double, double, 0, r = -x); break;
        case C_F32: EACH(float, float, 0, r = -x); break;
        case C_I8: EACH1(int8_t, int8_t, 0, r = (int8_t)-x); break;
        case C_I16: EACH1(int16_t, int16_t, 0, r = (int16_t)-x); break;
        case C_I32: EACH1(int32_t, int32_t, 0, r = (int32_t)-x); break;
        case C_I64: EACH1(int64_t, int64_t, 0, r = (int64_t)(0 - (uint64_t)x)); break;
        case C_U8: EACH1(uint8_t, uint8_t, 0, r = (uint8_t)-x); break;
        case C_U16: EACH1(uint16_t, uint16_t, 0, r = (uint16_t)-x); break;
        case C_U32: EACH1(uint32_t, uint32_t, 0, r = (uint32_t)(0u - x)); break;
        default: EACH1(uint64_t, uint64_t, 0, r = (uint64_t)(0u - x)); break;
        }
    }
    return (PyObject *)o;
}

/* The float functions computed now, by the code `_hot.py` gives each (UNARY there): the
 * kernels' own helpers, or libm where the kernels call libm (sqrt, sin, cos). */
enum { U_EXP, U_LOG, U_SQRT, U_TANH, U_SIN, U_COS, U_ABS, U_COUNT };

/* The contiguous case, vectorized: `flatten` inlines the math helpers (straight-line code,
 * written for the kernels' vectorizer) into loops the `omp simd` pragmas vectorize; the
 * operations, and so the bits, are the scalar loop's. sin and cos stay libm's calls. */
#define UNARY_CONTIG(NAME, T, EXP, LOG, SQRT, TANH, SIN, COS, ABS)                          \
    __attribute__((flatten)) static void NAME(int fn, const T *restrict x, T *restrict r,   \
                                              Py_ssize_t n) {                               \
        switch (fn) {                                                                      \
        case U_EXP: _Pragma("omp simd") for (Py_ssize_t i = 0; i < n; i++) r[i] = EXP(x[i]);  \
            break;                                                                         \
        case U_LOG: _Pragma("omp simd") for (Py_ssize_t i = 0; i < n; i++) r[i] = LOG(x[i]);  \
            break;                                                                         \
        case U_SQRT: _Pragma("omp simd") for (Py_ssize_t i = 0; i < n; i++) r[i] = SQRT(x[i]); \
            break;                                                                         \
        case U_TANH: _Pragma("omp simd") for (Py_ssize_t i = 0; i < n; i++) r[i] = TANH(x[i]); \
            break;                                                                         \
        case U_ABS: _Pragma("omp simd") for (Py_ssize_t i = 0; i < n; i++) r[i] = ABS(x[i]);  \
            break;                                                                         \
        case U_SIN: for (Py_ssize_t i = 0; i < n; i++) r[i] = SIN(x[i]); break;            \
        default: for (Py_ssize_t i = 0; i < n; i++) r[i] = COS(x[i]); break;               \
        }                                                                                  \
    }
UNARY_CONTIG(unary_f64, double, zx_exp_f64, zx_log_f64, sqrt, zx_tanh_f64, sin, cos, fabs)
UNARY_CONTIG(unary_f32, float, zx_exp_f32, zx_log_f32, sqrtf, zx_tanh_f32, sinf, cosf, fabsf)

static PyObject *unary_now(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || Py_TYPE(args[1]) != ArrayType) Py_RETURN_NONE;
    int fn = (int)PyLong_AsLong(args[0]);
    if (fn < 0 || fn >= U_COUNT) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    Core *s = (Core *)args[1];
    if (known(s) || !now_ok(s) || !is_float(s->win_code)) Py_RETURN_NONE;
    Loop L;
    if (!broadcast(&L, s, NULL, NULL) || L.nd == 0) Py_RETURN_NONE;
    int contiguous = L.nd == 1 && L.st[0][0] == item_size[s->win_code];
    if (L.n > UNARY_NOW_MAX && !(contiguous && fn != U_SIN && fn != U_COS)) Py_RETURN_NONE;
    Core *o = new_result(s->win_code, L.out_nd, L.out_shape, s);
    if (o == NULL) return NULL;
    char *out = o->win_ptr;
    if (contiguous) {
        if (s->win_code == C_F64) unary_f64(fn, (const double *)L.ptr[0], (double *)out, L.n);
        else unary_f32(fn, (const float *)L.ptr[0], (float *)out, L.n);
        return (PyObject *)o;
    }
    Loop *Lp = &L;
    {
        const Loop *L = Lp;
        if (s->win_code == C_F64) {
            switch (fn) {
            case U_EXP: EACH(double, double, 0, r = zx_exp_f64(x)); break;
            case U_LOG: EACH(double, double, 0, r = zx_log_f64(x)); break;
            case U_SQRT: EACH(double, double, 0, r = sqrt(x)); break;
            case U_TANH: EACH(double, double, 0, r = zx_tanh_f64(x)); break;
            case U_SIN: EACH(double, double, 0, r = sin(x)); break;
            case U_ABS: EACH(double, double, 0, r = fabs(x)); break;
            default: EACH(double, double, 0, r = cos(x)); break;
            }
        } else {
            switch (fn) {
            case U_EXP: EACH(float, float, 0, r = zx_exp_f32(x)); break;
            case U_LOG: EACH(float, float, 0, r = zx_log_f32(x)); break;
            case U_SQRT: EACH(float, float, 0, r = sqrtf(x)); break;
            case U_TANH: EACH(float, float, 0, r = zx_tanh_f32(x)); break;
            case U_SIN: EACH(float, float, 0, r = sinf(x)); break;
            case U_ABS: EACH(float, float, 0, r = fabsf(x)); break;
            default: EACH(float, float, 0, r = cosf(x)); break;
            }
        }
    }
    return (PyObject *)o;
}

/* a @ b of small float matrices or vectors (one or two axes each) computed now: NULL with no
 * error set when it is not computed here (other dtypes, stacks, shapes that do not match:
 * the slow path decides). A vector product is a known scalar. */
static PyObject *matmul_now(Core *a, Core *b) {
    if (!now_ok(a) || !now_ok(b) || known(a) || known(b) || a->win_code != b->win_code ||
            !is_float(a->win_code) || a->device != b->device || a->win_ndim < 1 ||
            a->win_ndim > 2 || b->win_ndim < 1 || b->win_ndim > 2)
        return NULL;
    int code = a->win_code;
    Py_ssize_t n = a->win_ndim == 2 ? a->win_shape[0] : 1;
    Py_ssize_t k = a->win_shape[a->win_ndim - 1];
    Py_ssize_t m = b->win_ndim == 2 ? b->win_shape[1] : 1;
    Py_ssize_t sak = a->win_strides[a->win_ndim - 1], san = a->win_ndim == 2 ? a->win_strides[0] : 0;
    Py_ssize_t sbk = b->win_strides[0], sbm = b->win_ndim == 2 ? b->win_strides[1] : 0;
    if (b->win_shape[0] != k || k == 0 || n * m == 0 || n * m > now_max ||
            n * m * k > MATMUL_NOW_MAX)
        return NULL;
    Py_ssize_t shape[2];
    int nd = 0;
    if (a->win_ndim == 2) shape[nd++] = n;
    if (b->win_ndim == 2) shape[nd++] = m;
    Value v;
    char *out;
    Core *o = NULL;
    if (nd == 0) {
        out = (char *)&v;
    } else {
        o = new_result(code, nd, shape, a);
        if (o == NULL) return NULL;
        out = o->win_ptr;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        for (Py_ssize_t j = 0; j < m; j++) {
            const char *pa = a->win_ptr + i * san, *pb = b->win_ptr + j * sbm;
            if (code == C_F64) {
                double acc = 0.0, x, y;
                for (Py_ssize_t t = 0; t < k; t++, pa += sak, pb += sbk) {
                    memcpy(&x, pa, 8); memcpy(&y, pb, 8);
                    acc = acc + x * y;
                }
                memcpy(out + (i * m + j) * 8, &acc, 8);
            } else {
                float acc = 0.0f, x, y;
                for (Py_ssize_t t = 0; t < k; t++, pa += sak, pb += sbk) {
                    memcpy(&x, pa, 4); memcpy(&y, pb, 4);
                    acc = acc + x * y;
                }
                memcpy(out + (i * m + j) * 4, &acc, 4);
            }
        }
    if (nd == 0) {
        Value r;
        if (code == C_F64) memcpy(&r.f, &v, 8);
        else { float f; memcpy(&f, &v, 4); r.f = f; }
        return new_scalar(code, r, a->device);
    }
    return (PyObject *)o;
}

/* -- slots ---------------------------------------------------------------------------------- */

static PyObject *call2(PyObject *fn, PyObject *a, PyObject *b) {
    PyObject *args[2] = {a, b};
    return PyObject_Vectorcall(fn, args, 2, NULL);
}

/* Could `key` name one element (ints, or known scalars)? Checked before `window`, whose
 * first call for an array costs a Python call: slices never pay it. */
static int int_key(PyObject *key) {
    if (PyLong_CheckExact(key) || Py_TYPE(key) == ArrayType) return 1;
    if (!PyTuple_CheckExact(key) || PyTuple_GET_SIZE(key) == 0) return 0;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(key); k++) {
        PyObject *item = PyTuple_GET_ITEM(key, k);
        if (!PyLong_CheckExact(item) && Py_TYPE(item) != ArrayType) return 0;
    }
    return 1;
}

static PyObject *pending_view(Core *self, Py_ssize_t i);

/* `self[key]` for an index on the first axis of a window of 2 or more dimensions: a pending
 * row (see the top of this file); NULL with no error set when the slow path must make it. */
static PyObject *row_view(Core *self, PyObject *key) {
    Py_ssize_t i, s = self->win_shape[0];
    if (PyTuple_CheckExact(key) || !index_of(key, &i)) return NULL;
    if (i < 0) i += s;
    if (i < 0 || i >= s) return NULL;
    return pending_view(self, i);
}

/* A pending view of `self` (a window of 2 or more dimensions): row `i`, or with i == -1 the
 * transpose (`self.T`: every axis reversed); NULL with no error set when the slow path must
 * make it. */
static PyObject *pending_view(Core *self, Py_ssize_t i) {
    if (self->node == NULL && (resolve(self) < 0 || !window(self) || self->win_ndim < 2))
        return NULL;    /* (a pending view of a pending view: the first made a member now) */
    if (self->alias == Py_None) {       /* the base shares its memory from now on */
        PyObject *r = PyObject_CallOneArg(slow_storage, (PyObject *)self);
        if (r == NULL) return NULL;
        Py_DECREF(r);
        if (self->win_epoch != epoch || !self->win_ok) return NULL;
    }
    PyObject *alias = self->alias;
    if (alias == NULL || !PyTuple_CheckExact(alias) || PyTuple_GET_SIZE(alias) != 3)
        return NULL;
    PyObject *node0 = PyObject_GetAttr(PyTuple_GET_ITEM(alias, 0), s_node);
    if (node0 == NULL) return NULL;
    PyObject *index = i >= 0 ? PyLong_FromSsize_t(i) : Py_NewRef(Py_None);
    PyObject *pend = index ? PyTuple_Pack(4, alias, node0, self->node, index) : NULL;
    Py_DECREF(node0);
    Py_XDECREF(index);
    if (pend == NULL) return NULL;
    Core *o = (Core *)ArrayType->tp_alloc(ArrayType, 0);
    if (o == NULL) { Py_DECREF(pend); return NULL; }
    o->pend = pend;
    o->sc = SC_NONE;
    Py_INCREF(self->device);
    o->device = self->device;
    o->win_epoch = epoch;
    o->win_ok = 1;
    o->win_direct = 0;
    o->win_code = self->win_code;
    o->win_lanes = self->win_lanes;
    o->win_now = self->win_now;
    int nd = self->win_ndim;
    if (i < 0) {
        o->win_ndim = nd;
        o->win_ptr = self->win_ptr;
        for (int k = 0; k < nd; k++) {
            o->win_shape[k] = self->win_shape[nd - 1 - k];
            o->win_strides[k] = self->win_strides[nd - 1 - k];
        }
        return (PyObject *)o;
    }
    o->win_ndim = nd - 1;
    o->win_ptr = self->win_ptr + i * self->win_strides[0];
    for (int k = 1; k < nd; k++) {
        o->win_shape[k - 1] = self->win_shape[k];
        o->win_strides[k - 1] = self->win_strides[k];
    }
    return (PyObject *)o;
}

static PyObject *Core_getitem(Core *self, PyObject *key) {
    if (enabled && int_key(key) && window(self)) {
        if (PyTuple_CheckExact(key) && PyTuple_GET_SIZE(key) == self->win_ndim) {
            /* an element (`conf[i, j]` in a loop): a known scalar, as for 1-D */
            char *p = element(self, key);
            if (p != NULL)
                return new_scalar(self->win_code, load(self->win_code, p), self->device);
        } else if (self->win_ndim >= 2) {
            PyObject *r = row_view(self, key);
            if (r != NULL || PyErr_Occurred()) return r;
        } else {
            char *p = element(self, key);
            if (p != NULL)
                return new_scalar(self->win_code, load(self->win_code, p), self->device);
        }
    }
    return call2(slow_getitem, (PyObject *)self, key);
}

/* -- reductions now ------------------------------------------------------------------------- */

/* The sum (or mean) of a small window's elements as a known scalar, added in the order of
 * the device's loop kernels (`lower.py`'s "row" strategy: `lanes` accumulators from 0, lane
 * k taking elements k, k + lanes, ...; the tail into lane 0; the lanes added in order), so
 * the value is the kernel's to the bit; integers add exactly (wrapping) in 64 bits. NULL with
 * no error set when a kernel must do it: no window, too large, empty, a layout other than
 * 1-D or C-contiguous, a dtype of another kind. */
/* A window a whole-array reduction reads now: its `n` elements (1 to REDUCE_NOW_MAX), 1-D
 * at any `step` in bytes or C-contiguous; 0 for any other. */
static int reducible(Core *self, Py_ssize_t *n, Py_ssize_t *step) {
    int nd = self->win_ndim;
    *n = 1;
    *step = self->win_strides[nd - 1];
    for (int k = 0; k < nd; k++) *n *= self->win_shape[k];
    if (*n == 0 || *n > REDUCE_NOW_MAX) return 0;
    if (nd > 1) {
        Py_ssize_t expected = item_size[self->win_code];
        for (int k = nd - 1; k >= 0; k--) {
            if (self->win_shape[k] != 1 && self->win_strides[k] != expected) return 0;
            expected *= self->win_shape[k];
        }
        *step = item_size[self->win_code];
    }
    return 1;
}

static PyObject *reduce_now(Core *self, int mean) {
    if (!enabled || !window(self) || self->win_lanes <= 0 || self->win_lanes > MAXLANES ||
            self->win_ndim == 0)
        return NULL;
    int code = self->win_code, lanes = self->win_lanes;
    Py_ssize_t n, step;
    if (!reducible(self, &n, &step)) return NULL;
    const char *p = self->win_ptr;
    Value r;
    if (code == C_F32) {
        float acc[MAXLANES], t;
        for (int l = 0; l < lanes; l++) acc[l] = 0.0f;
        Py_ssize_t full = n / lanes, i = 0;
        for (Py_ssize_t c = 0; c < full; c++)
            for (int l = 0; l < lanes; l++, i++) {
                memcpy(&t, p + i * step, 4);
                acc[l] = acc[l] + t;
            }
        for (; i < n; i++) { memcpy(&t, p + i * step, 4); acc[0] = acc[0] + t; }
        float total = acc[0];
        for (int l = 1; l < lanes; l++) total = total + acc[l];
        if (mean) total = total / (float)n;
        r.f = total;
        return new_scalar(C_F32, r, self->device);
    }
    if (code == C_F64 || mean) {
        double acc[MAXLANES];
        for (int l = 0; l < lanes; l++) acc[l] = 0.0;
        Py_ssize_t full = n / lanes, i = 0;
        for (Py_ssize_t c = 0; c < full; c++)
            for (int l = 0; l < lanes; l++, i++) {
                Value v = load(code, p + i * step);
                acc[l] = acc[l] + (code == C_F64 ? v.f : is_unsigned(code) ? (double)v.u
                                                                            : (double)v.i);
            }
        for (; i < n; i++) {
            Value v = load(code, p + i * step);
            acc[0] = acc[0] + (code == C_F64 ? v.f : is_unsigned(code) ? (double)v.u
                                                                        : (double)v.i);
        }
        double total = acc[0];
        for (int l = 1; l < lanes; l++) total = total + acc[l];
        if (mean) total = total / (double)n;
        r.f = total;
        return new_scalar(C_F64, r, self->device);
    }
    uint64_t total = 0;         /* (bools count; signed and unsigned wrap alike) */
    for (Py_ssize_t i = 0; i < n; i++) total += load(code, p + i * step).u;
    r.u = total;
    return new_scalar(is_unsigned(code) ? C_U64 : C_I64, r, self->device);
}

/* The largest or smallest element of a small window on a device that computes results now
 * (`which`: 0 max, 1 min, 2 argmax, 3 argmin), as a known scalar: the value in the array's
 * dtype, or the int64 index of its first occurrence in C order; a NaN wins (the first), as
 * in NumPy; of zeros of both signs the first (the standard leaves it open). Exact, so any
 * order gives the kernels' value. NULL with no error set where a kernel must do it (as
 * `reduce_now`; an empty array's error is the slow path's). */
static PyObject *extremum_now(Core *self, int which) {
    if (!now_ok(self) || self->win_ndim == 0) return NULL;
    int code = self->win_code;
    Py_ssize_t n, step;
    if (!reducible(self, &n, &step)) return NULL;
    const char *p = self->win_ptr;
    int largest = which == 0 || which == 2;
    Py_ssize_t best = 0;
    Value b = load(code, p);
    if (is_float(code)) {
        for (Py_ssize_t i = 1; i < n && b.f == b.f; i++) {
            Value v = load(code, p + i * step);
            if (v.f != v.f || (largest ? v.f > b.f : v.f < b.f)) { b = v; best = i; }
        }
    } else if (is_unsigned(code)) {
        for (Py_ssize_t i = 1; i < n; i++) {
            Value v = load(code, p + i * step);
            if (largest ? v.u > b.u : v.u < b.u) { b = v; best = i; }
        }
    } else {        /* (signed integers and bools) */
        for (Py_ssize_t i = 1; i < n; i++) {
            Value v = load(code, p + i * step);
            if (largest ? v.i > b.i : v.i < b.i) { b = v; best = i; }
        }
    }
    if (which < 2) return new_scalar(code, b, self->device);
    Value index;
    index.i = best;
    return new_scalar(C_I64, index, self->device);
}

/* `self.sum(...)` / `self.mean(...)`: `reduce_now` without arguments, else the method. */
static PyObject *method_or_slow(PyObject *slow, Core *self, int mean, PyObject *const *args,
                                Py_ssize_t nargsf, PyObject *kwnames) {
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs == 0 && nkw == 0) {
        PyObject *r = reduce_now(self, mean);
        if (r != NULL || PyErr_Occurred()) return r;
    }
    PyObject *stack[16];
    PyObject **all = nargs + nkw + 1 <= 16 ? stack
                     : PyMem_Malloc((nargs + nkw + 1) * sizeof(PyObject *));
    if (all == NULL) return PyErr_NoMemory();
    all[0] = (PyObject *)self;
    for (Py_ssize_t k = 0; k < nargs + nkw; k++) all[k + 1] = args[k];
    PyObject *r = PyObject_Vectorcall(slow, all, nargs + 1, kwnames);
    if (all != stack) PyMem_Free(all);
    return r;
}

static PyObject *Core_sum(Core *self, PyObject *const *args, Py_ssize_t nargsf,
                          PyObject *kwnames) {
    return method_or_slow(slow_sum, self, 0, args, nargsf, kwnames);
}

static PyObject *Core_mean(Core *self, PyObject *const *args, Py_ssize_t nargsf,
                           PyObject *kwnames) {
    return method_or_slow(slow_mean, self, 1, args, nargsf, kwnames);
}

/* -- iteration over the first axis ---------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *array;
    Py_ssize_t i, n;
} Rows;

static PyTypeObject RowsType;

static PyObject *Rows_next(Rows *self) {
    if (self->i >= self->n) return NULL;
    PyObject *key = PyLong_FromSsize_t(self->i++);
    if (key == NULL) return NULL;
    PyObject *r = PyObject_GetItem(self->array, key);
    Py_DECREF(key);
    return r;
}

static void Rows_dealloc(Rows *self) {
    Py_XDECREF(self->array);
    PyObject_Free(self);
}

static PyTypeObject RowsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "zyxarray._hot.Rows",
    .tp_doc = "for row in a: a[0], a[1], ... (see _hot.c)",
    .tp_basicsize = sizeof(Rows),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)Rows_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Rows_next,
};

static int Core_setitem(Core *self, PyObject *key, PyObject *value) {
    if (value == NULL) {
        PyErr_Format(PyExc_TypeError, "'%.200s' object doesn't support item deletion",
                     Py_TYPE(self)->tp_name);
        return -1;
    }
    /* one element of a realized array that only this array shows: no view or pending
     * result refers to its node (one reference: our field), so a store is the write */
    if (enabled && self->alias == Py_None && int_key(key) && window(self) &&
            self->win_direct && (self->node == NULL ? self->block != NULL
                                                    : Py_REFCNT(self->node) == 1)) {
        Value v;
        char *p = element(self, key);
        if (p != NULL && operand(value, self->win_code, self->device, &v)) {
            if (self->fill) {       /* (its constant node, shown to nobody, goes) */
                self->fill = 0;
                Py_CLEAR(self->node);
            }
            store(self->win_code, p, v);
            return 0;
        }
    }
    /* a region written into a fill nothing else shows: the block becomes the array's
     * buffer (its node, when asked for, adopts the block), so the general path writes into
     * it in place rather than recording a pending update of the constant, which would leave
     * every result computed from the array pending as well (`z = zeros(n); z[:5] = 1`) */
    if (enabled && self->node == NULL && self->block != NULL && self->fill)
        self->fill = 0;
    PyObject *args[3] = {(PyObject *)self, key, value};
    PyObject *r = PyObject_Vectorcall(slow_setitem, args, 3, NULL);
    if (r == NULL) return -1;
    Py_DECREF(r);
    return 0;
}

static PyObject *binary(PyObject *a, PyObject *b, int op) {
    int reflected = !PyObject_TypeCheck(a, &CoreType);
    Core *s = (Core *)(reflected ? b : a);
    PyObject *other = reflected ? a : b;
    if (enabled && known(s)) {
        Value y, r;
        if (operand(other, s->code, s->device, &y)) {
            Value x = s->value;
            if (reflected) { Value t = x; x = y; y = t; }
            if (arith(op, s->code, x, y, &r)) return new_scalar(s->code, r, s->device);
        }
    }
    if (enabled) {      /* an array of host memory and a scalar or another: now, if small */
        PyObject *r = known(s) && Py_TYPE(other) == ArrayType
                      ? binary_now((Core *)other, (PyObject *)s, !reflected, op, 0)
                      : binary_now(s, other, reflected, op, 0);
        if (r != NULL || PyErr_Occurred()) return r;
    }
    return call2(reflected ? slow_rarith[op] : slow_arith[op], (PyObject *)s, other);
}

static PyObject *Core_add(PyObject *a, PyObject *b) { return binary(a, b, OP_ADD); }
static PyObject *Core_sub(PyObject *a, PyObject *b) { return binary(a, b, OP_SUB); }
static PyObject *Core_mul(PyObject *a, PyObject *b) { return binary(a, b, OP_MUL); }
static PyObject *Core_div(PyObject *a, PyObject *b) { return binary(a, b, OP_DIV); }

static PyObject *Core_richcompare(PyObject *a, PyObject *b, int op) {
    Core *s = (Core *)a;
    if (enabled && known(s) && (s->code != C_BOOL || op == Py_EQ || op == Py_NE)) {
        Value y;       /* (bools are not ordered in the standard: the slow path says so) */
        if (operand(b, s->code, s->device, &y)) {
            Value r;
            r.i = compare(op, s->code, s->value, y);
            return new_scalar(C_BOOL, r, s->device);
        }
    }
    if (enabled && !known(s)) {
        PyObject *r = binary_now(s, b, 0, op, 1);
        if (r != NULL || PyErr_Occurred()) return r;
    }
    return call2(slow_compare[op], a, b);
}

static PyObject *call1(PyObject *fn, PyObject *a) { return PyObject_CallOneArg(fn, a); }

static PyObject *Core_neg(PyObject *a) {
    Core *s = (Core *)a;
    if (enabled && known(s) && s->code != C_BOOL) {
        Value r;
        if (is_float(s->code)) r.f = -s->value.f;
        else r = wrap(s->code, (uint64_t)0 - s->value.u);
        return new_scalar(s->code, r, s->device);
    }
    if (enabled && !known(s)) {
        PyObject *r = neg_now(s);
        if (r != NULL || PyErr_Occurred()) return r;
    }
    return call1(slow_neg, a);
}

static PyObject *Core_matmul(PyObject *a, PyObject *b) {
    if (enabled && Py_TYPE(a) == ArrayType && Py_TYPE(b) == ArrayType) {
        PyObject *r = matmul_now((Core *)a, (Core *)b);
        if (r != NULL || PyErr_Occurred()) return r;
    }
    if (PyObject_TypeCheck(a, &CoreType)) return call2(slow_matmul, a, b);
    return call2(slow_rmatmul, b, a);
}

static double as_double(Core *s) {
    if (is_float(s->code)) return s->value.f;
    if (is_unsigned(s->code)) return (double)s->value.u;
    return (double)s->value.i;
}

static PyObject *Core_float(PyObject *a) {
    Core *s = (Core *)a;
    if (enabled && known(s)) return PyFloat_FromDouble(as_double(s));
    return call1(slow_float, a);
}

static PyObject *Core_int(PyObject *a) {
    Core *s = (Core *)a;
    if (enabled && known(s)) {
        if (!is_float(s->code)) return box(s->code == C_BOOL ? C_I64 : s->code, s->value);
        if (isfinite(s->value.f)) return PyLong_FromDouble(s->value.f);
    }
    return call1(slow_int, a);
}

static PyObject *Core_index(PyObject *a) {
    Core *s = (Core *)a;
    if (enabled && known(s) && (is_signed(s->code) || is_unsigned(s->code)))
        return box(s->code, s->value);
    return call1(slow_index, a);
}

static int Core_bool(PyObject *a) {
    Core *s = (Core *)a;
    if (enabled && known(s)) return is_float(s->code) ? s->value.f != 0.0 : s->value.u != 0;
    PyObject *r = call1(slow_bool, a);
    if (r == NULL) return -1;
    int t = PyObject_IsTrue(r);
    Py_DECREF(r);
    return t;
}

/* -- the type ------------------------------------------------------------------------------- */

/* The node of a creation function's fill never written (`fill`): the constant broadcast to
 * the shape, as the lazy path makes it (a kernel then reads no memory for it, and concat
 * of zeros stays a padded view). The block, holding the same values, stays the window. */
static PyObject *fill_node(Core *self) {
    PyObject *shape = PyTuple_New(self->win_ndim);
    if (shape == NULL) return NULL;
    Py_ssize_t n = 1;
    for (int k = 0; k < self->win_ndim; k++) {
        PyObject *s = PyLong_FromSsize_t(self->win_shape[k]);
        if (s == NULL) { Py_DECREF(shape); return NULL; }
        PyTuple_SET_ITEM(shape, k, s);
        n *= self->win_shape[k];
    }
    Value zero = {0};
    PyObject *v = box(self->win_code, n > 0 ? load(self->win_code, self->win_ptr) : zero);
    PyObject *code = PyLong_FromLong(self->win_code);
    PyObject *args[4] = {code, v, shape, self->device};
    PyObject *node = code && v ? PyObject_Vectorcall(make_fill, args, 4, NULL) : NULL;
    Py_DECREF(shape);
    Py_XDECREF(code);
    Py_XDECREF(v);
    if (node == NULL) return NULL;
    if (self->node == NULL) self->node = node;
    else Py_DECREF(node);
    Py_INCREF(self->node);
    return self->node;
}

/* A fill shared with views (an alias) or replaced: the block goes, the node stays. */
static void drop_fill(Core *self) {
    self->fill = 0;
    self->win_ok = 0;
    self->win_epoch = 0;
    Py_CLEAR(self->block);
}

static PyObject *Core_get_node(Core *self, void *closure) {
    if (self->node == NULL && self->pend != NULL && resolve(self) < 0) return NULL;
    if (self->node == NULL && self->block != NULL && self->fill)
        return fill_node(self);
    if (self->node == NULL && self->block != NULL) {    /* a result computed now */
        PyObject *shape = PyTuple_New(self->win_ndim);
        if (shape == NULL) return NULL;
        for (int k = 0; k < self->win_ndim; k++) {
            PyObject *s = PyLong_FromSsize_t(self->win_shape[k]);
            if (s == NULL) { Py_DECREF(shape); return NULL; }
            PyTuple_SET_ITEM(shape, k, s);
        }
        PyObject *code = PyLong_FromLong(self->win_code);
        PyObject *address = PyLong_FromVoidPtr(((Block *)self->block)->ptr);
        PyObject *args[5] = {self->block, address, code, shape, self->device};
        PyObject *n = code && address ? PyObject_Vectorcall(adopt, args, 5, NULL) : NULL;
        Py_DECREF(shape);
        Py_XDECREF(code);
        Py_XDECREF(address);
        if (n == NULL) return NULL;
        if (self->node == NULL) {
            self->node = n;         /* (the window stays: the buffer is the block's memory) */
            Py_CLEAR(self->block);
        } else {
            Py_DECREF(n);
        }
    }
    if (self->node == NULL) {
        if (self->sc != SC_KNOWN) {
            PyErr_SetString(PyExc_AttributeError, "_node");
            return NULL;
        }
        PyObject *v = box(self->code, self->value);
        if (v == NULL) return NULL;
        PyObject *code = PyLong_FromLong(self->code);
        PyObject *args[3] = {code, v, self->device};
        PyObject *n = code ? PyObject_Vectorcall(make_const, args, 3, NULL) : NULL;
        Py_DECREF(v);
        Py_XDECREF(code);
        if (n == NULL) return NULL;
        if (self->node == NULL) self->node = n;     /* (the known value stays known) */
        else Py_DECREF(n);
    }
    Py_INCREF(self->node);
    return self->node;
}

static int Core_set_node(Core *self, PyObject *value, void *closure) {
    track(self);
    PyObject *old = self->node;
    Py_XINCREF(value);
    self->node = value;
    Py_CLEAR(self->pend);
    Py_CLEAR(self->block);
    self->fill = 0;
    self->sc = SC_UNKNOWN;
    self->win_epoch = 0;
    Py_CLEAR(self->device);
    Py_XDECREF(old);
    return 0;
}

static PyObject *Core_get_alias(Core *self, void *closure) {
    if (self->alias == NULL && self->pend != NULL && resolve(self) < 0) return NULL;
    if (self->alias == NULL) {
        PyErr_SetString(PyExc_AttributeError, "_alias");
        return NULL;
    }
    Py_INCREF(self->alias);
    return self->alias;
}

static int Core_set_alias(Core *self, PyObject *value, void *closure) {
    if (value != Py_None && self->fill) {     /* (views write to the node's storage) */
        if (self->node == NULL) {
            PyObject *n = fill_node(self);
            if (n == NULL) return -1;
            Py_DECREF(n);
        }
        drop_fill(self);
    }
    if (value != Py_None) track(self);
    Py_XINCREF(value);
    Py_XSETREF(self->alias, value);
    return 0;
}

static PyObject *Core_get_T(Core *self, void *closure) {
    if (enabled && window(self) && self->win_ndim >= 2) {
        PyObject *r = pending_view(self, -1);
        if (r != NULL || PyErr_Occurred()) return r;
    }
    return PyObject_CallOneArg(slow_T, (PyObject *)self);
}

static PyGetSetDef Core_getset[] = {
    {"T", (getter)Core_get_T, NULL,
     "the transpose (every axis reversed, as NumPy's); a pending view of a window", NULL},
    {"_node", (getter)Core_get_node, (setter)Core_set_node,
     "the array's graph node (made for a known scalar or a pending row when first asked for)",
     NULL},
    {"_alias", (getter)Core_get_alias, (setter)Core_set_alias,
     "(storage, view, writeable) shared with views, or None", NULL},
    {NULL}
};

static PyMethodDef Core_methods[] = {
    {"sum", (PyCFunction)(void (*)(void))Core_sum, METH_FASTCALL | METH_KEYWORDS,
     "numpy.sum(self, ...): a small window's now, else Array._sum"},
    {"mean", (PyCFunction)(void (*)(void))Core_mean, METH_FASTCALL | METH_KEYWORDS,
     "numpy.mean(self, ...): a small window's now, else Array._mean"},
    {NULL}
};

static int Core_traverse(Core *self, visitproc visit, void *arg) {
    Py_VISIT(self->node);
    Py_VISIT(self->alias);
    Py_VISIT(self->device);
    Py_VISIT(self->pend);
    Py_VISIT(self->block);
    return 0;
}

static int Core_clear(Core *self) {
    Py_CLEAR(self->node);
    Py_CLEAR(self->alias);
    Py_CLEAR(self->device);
    Py_CLEAR(self->pend);
    Py_CLEAR(self->block);
    return 0;
}

static void Core_dealloc(Core *self) {
    PyObject_GC_UnTrack(self);
    Core_clear(self);
    if (Py_TYPE(self) == ArrayType && free_count < FREE_MAX) {
        free_cores[free_count++] = self;    /* (Array's dealloc drops the type's ref) */
        return;
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Array's dealloc (and, through Python's, a subclass's): its weak references, its fields,
 * then the freelist; as every heap type's dealloc, it drops the type's reference. */
static void Array_dealloc(Core *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (*(PyObject **)((char *)self + ArrayType->tp_weaklistoffset) != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    Core_clear(self);
    if (tp == ArrayType && free_count < FREE_MAX)
        free_cores[free_count++] = self;
    else
        tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyNumberMethods Core_number = {
    .nb_add = Core_add,
    .nb_subtract = Core_sub,
    .nb_multiply = Core_mul,
    .nb_true_divide = Core_div,
    .nb_matrix_multiply = Core_matmul,
    .nb_negative = Core_neg,
    .nb_bool = Core_bool,
    .nb_int = Core_int,
    .nb_float = Core_float,
    .nb_index = Core_index,
};

static PyMappingMethods Core_mapping = {
    .mp_subscript = (binaryfunc)Core_getitem,
    .mp_ass_subscript = (objobjargproc)Core_setitem,
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "zyxarray._hot.Core",
    .tp_doc = "The fields and hot slots of zyxarray.Array (see _hot.c).",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Core_traverse,
    .tp_clear = (inquiry)Core_clear,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_as_number = &Core_number,
    .tp_as_mapping = &Core_mapping,
    .tp_richcompare = Core_richcompare,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_getset = Core_getset,
    .tp_methods = Core_methods,
};

/* -- module functions ----------------------------------------------------------------------- */

static PyObject *get(PyObject *d, const char *name) {
    PyObject *v = PyDict_GetItemString(d, name);
    if (v == NULL) PyErr_Format(PyExc_KeyError, "install: missing %s", name);
    Py_XINCREF(v);
    return v;
}

static PyObject *install(PyObject *mod, PyObject *args) {
    PyObject *cls, *d;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &cls, &PyDict_Type, &d)) return NULL;
    if (!PyType_IsSubtype((PyTypeObject *)cls, &CoreType)) {
        PyErr_SetString(PyExc_TypeError, "install: the class must derive from Core");
        return NULL;
    }
    static const char *cmp[6] = {"_lt", "_le", "_eq", "_ne", "_gt", "_ge"};
    static const char *ar[4] = {"_add", "_sub", "_mul", "_truediv"};
    static const char *rar[4] = {"_radd", "_rsub", "_rmul", "_rtruediv"};
    if (!(make_const = get(d, "make_const")) || !(host_window = get(d, "host_window")) ||
            !(dtype_codes = get(d, "dtype_codes")) || !(slow_getitem = get(d, "_getitem")) ||
            !(slow_setitem = get(d, "_setitem")) || !(slow_float = get(d, "_float")) ||
            !(slow_int = get(d, "_int")) || !(slow_bool = get(d, "_bool")) ||
            !(slow_index = get(d, "_index")) || !(slow_neg = get(d, "_neg")) ||
            !(resolve_row = get(d, "resolve_row")) || !(slow_storage = get(d, "_storage")) ||
            !(slow_sum = get(d, "_sum")) || !(slow_mean = get(d, "_mean")) ||
            !(adopt = get(d, "adopt")) || !(slow_matmul = get(d, "_matmul")) ||
            !(make_fill = get(d, "make_fill")) ||
            !(slow_rmatmul = get(d, "_rmatmul")) || !(slow_T = get(d, "_T")))
        return NULL;
    for (int k = 0; k < 6; k++)
        if (!(slow_compare[k] = get(d, cmp[k]))) return NULL;
    for (int k = 0; k < 4; k++)
        if (!(slow_arith[k] = get(d, ar[k])) || !(slow_rarith[k] = get(d, rar[k]))) return NULL;
    memset(promote_table, -1, sizeof promote_table);
    PyObject *table = PyDict_GetItemString(d, "promote");
    if (table != NULL && PyBytes_Check(table) && PyBytes_GET_SIZE(table) == C_COUNT * C_COUNT) {
        const unsigned char *t = (const unsigned char *)PyBytes_AS_STRING(table);
        for (int i = 0; i < C_COUNT; i++)
            for (int j = 0; j < C_COUNT; j++)
                promote_table[i][j] = t[i * C_COUNT + j] < C_COUNT
                                      ? (signed char)t[i * C_COUNT + j] : -1;
    }
    PyObject *node_cls = PyDict_GetItemString(d, "node_type");
    if (node_cls != NULL && PyType_Check(node_cls)) {
        static const char *names[6] = {"op", "shape", "dtype", "arg", "device", "srcs"};
        int ok = 1;
        for (int k = 0; k < 6 && ok; k++) {
            PyObject *descr = PyObject_GetAttrString(node_cls, names[k]);
            if (descr != NULL && Py_TYPE(descr) == &PyMemberDescr_Type &&
                    ((PyMemberDescrObject *)descr)->d_member->type == T_OBJECT_EX)
                node_offsets[k] = ((PyMemberDescrObject *)descr)->d_member->offset;
            else
                ok = 0;
            Py_XDECREF(descr);
        }
        PyErr_Clear();
        if (ok) {
            Py_INCREF(node_cls);
            NodeType = (PyTypeObject *)node_cls;
        }
    }
    Py_INCREF(cls);
    ArrayType = (PyTypeObject *)cls;
    /* (Array adds only __weakref__: its dealloc is Array_dealloc, not Python's generic one
     * for classes, which costs a fifth of an element loop's time) */
    if (ArrayType->tp_base == &CoreType && ArrayType->tp_dictoffset == 0 &&
            ArrayType->tp_finalize == NULL && ArrayType->tp_del == NULL &&
            ArrayType->tp_basicsize == (Py_ssize_t)(sizeof(Core) + sizeof(PyObject *)) &&
            ArrayType->tp_weaklistoffset == (Py_ssize_t)sizeof(Core))
        ArrayType->tp_dealloc = (destructor)Array_dealloc;
    Py_RETURN_NONE;
}

static PyObject *rows(PyObject *mod, PyObject *array) {
    Rows *it = PyObject_New(Rows, &RowsType);
    if (it == NULL) return NULL;
    Py_INCREF(array);
    it->array = array;
    it->i = 0;
    it->n = PyObject_Length(array);
    if (it->n < 0) { Py_DECREF(it); return NULL; }
    return (PyObject *)it;
}

static PyObject *quick(PyObject *array, int mean) {
    if (Py_TYPE(array) != ArrayType) Py_RETURN_NONE;
    PyObject *r = reduce_now((Core *)array, mean);
    if (r != NULL || PyErr_Occurred()) return r;
    Py_RETURN_NONE;
}

/* One element converted from dtype `from` to `to` as the kernels' C casts convert it (one
 * rounding: an integer to float32 directly, not through double); a float to an integer is
 * not done here (`cast_now` leaves it to the kernels). */
static Value convert(int from, int to, Value v) {
    Value r;
    if (to == C_BOOL) {
        r.i = is_float(from) ? v.f != 0.0 : v.u != 0;
    } else if (to == C_F32) {
        float f = is_float(from) ? (float)v.f : is_unsigned(from) ? (float)v.u : (float)v.i;
        r.f = f;
    } else if (to == C_F64) {
        r.f = is_float(from) ? v.f : is_unsigned(from) ? (double)v.u : (double)v.i;
    } else {
        r.u = v.u;      /* (from an integer or a bool: `store` keeps the low bytes) */
    }
    return r;
}

#define CAST_NOW_MAX 2048       /* elements of a conversion computed now (a scalar loop) */

/* `s` (a window that computes now) converted to dtype `to` as the kernels' casts convert,
 * a new array; NULL (no error set) for a float to an integer, whose out-of-range values
 * are the kernels' to define, or more than `most` elements (a 0-d array gives a 0-d one: an
 * operand, not a result); NULL with MemoryError set when the block cannot be had. */
static Core *converted(Core *s, int to, Py_ssize_t most) {
    int from = s->win_code;
    if (is_float(from) && !is_float(to) && to != C_BOOL) return NULL;
    Loop L;
    if (!broadcast(&L, s, NULL, NULL) || L.n > most) return NULL;
    Core *o = new_result(to, L.out_nd, L.out_shape, s);
    if (o == NULL) return NULL;
    Py_ssize_t idx[MAXDIM] = {0}, osize = item_size[to];
    const char *p = L.ptr[0];
    char *q = o->win_ptr;
    for (Py_ssize_t e = 0; e < L.n; e++, q += osize) {
        store(to, q, convert(from, to, load(from, p)));
        for (int k = L.nd - 1; k >= 0; k--) {       /* (the next element in C order) */
            p += L.st[0][k];
            if (++idx[k] < L.shape[k]) break;
            p -= L.st[0][k] * L.shape[k];
            idx[k] = 0;
        }
    }
    return o;
}

/* cast_now(x, code): x converted to dtype `code`, computed now (a small window on the cpu
 * device; not a float to an integer), or None. */
static PyObject *cast_now(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || Py_TYPE(args[0]) != ArrayType) Py_RETURN_NONE;
    Core *s = (Core *)args[0];
    int to = (int)PyLong_AsLong(args[1]);
    if (to < 0 || to >= C_COUNT) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    if (known(s) || !now_ok(s) || s->win_ndim == 0) Py_RETURN_NONE;
    Core *o = converted(s, to, CAST_NOW_MAX);
    if (o == NULL) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    return (PyObject *)o;
}

/* where_now(condition, x1, x2): the elements of x1 where the bool condition holds, else
 * of x2, all three broadcast, computed now: the condition a window on the cpu device, at
 * least one of x1 and x2 a window, both of one dtype (or a Python number or known scalar
 * that `operand` converts to it), the result at most `now_max` elements of 1 or more
 * dimensions. A selection, so the kernels' bits. None where the general path serves. */
static PyObject *where_now(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || !enabled || Py_TYPE(args[0]) != ArrayType) Py_RETURN_NONE;
    Core *c = (Core *)args[0];
    if (known(c) || !now_ok(c) || c->win_code != C_BOOL) Py_RETURN_NONE;
    Core *ops[3] = {c, NULL, NULL};
    int code = -1;
    for (int j = 1; j < 3; j++) {
        PyObject *o = args[j];
        if (Py_TYPE(o) != ArrayType || known((Core *)o)) continue;
        Core *a = (Core *)o;
        if (!now_ok(a) || a->device != c->device || (code >= 0 && a->win_code != code))
            Py_RETURN_NONE;
        code = a->win_code;
        ops[j] = a;
    }
    if (code < 0) Py_RETURN_NONE;
    char scalar[3][8];
    for (int j = 1; j < 3; j++) {
        Value v;
        if (ops[j] != NULL) continue;
        if (!operand(args[j], code, c->device, &v)) {
            if (PyErr_Occurred()) PyErr_Clear();
            Py_RETURN_NONE;
        }
        store(code, scalar[j], v);
    }
    int nd = 0;
    for (int j = 0; j < 3; j++)
        if (ops[j] != NULL && ops[j]->win_ndim > nd) nd = ops[j]->win_ndim;
    if (nd == 0) Py_RETURN_NONE;
    Py_ssize_t shape[MAXDIM], st[3][MAXDIM], n = 1;
    const char *ptr[3];
    for (int k = 0; k < nd; k++) {
        Py_ssize_t size = 1;
        for (int j = 0; j < 3; j++) {
            st[j][k] = 0;
            Core *a = ops[j];
            if (a == NULL) continue;
            int at = k - (nd - a->win_ndim);
            if (at < 0 || a->win_shape[at] == 1) continue;
            if (size != 1 && size != a->win_shape[at]) Py_RETURN_NONE;
            size = a->win_shape[at];
            st[j][k] = a->win_strides[at];
        }
        shape[k] = size;
        n *= size;
    }
    if (n == 0 || n > now_max) Py_RETURN_NONE;
    for (int j = 0; j < 3; j++) ptr[j] = ops[j] != NULL ? ops[j]->win_ptr : scalar[j];
    Core *o = new_result(code, nd, shape, c);
    if (o == NULL) return NULL;
    Py_ssize_t idx[MAXDIM] = {0}, item = item_size[code];
    char *q = o->win_ptr;
    for (Py_ssize_t e = 0; e < n; e++, q += item) {
        memcpy(q, *ptr[0] ? ptr[1] : ptr[2], item);
        for (int k = nd - 1; k >= 0; k--) {         /* (the next element in C order) */
            for (int j = 0; j < 3; j++) ptr[j] += st[j][k];
            if (++idx[k] < shape[k]) break;
            for (int j = 0; j < 3; j++) ptr[j] -= st[j][k] * shape[k];
            idx[k] = 0;
        }
    }
    return (PyObject *)o;
}

/* diff_now(x): x[1:] - x[:-1] of a 1-D window on the cpu device of 2 to `now_max` + 1
 * elements, now: the kernels' subtraction (for bools the exclusive or, NumPy's not_equal);
 * None otherwise (the general path: other axes, n > 1, prepend/append, unsigned ints
 * wrap there as here). */
static PyObject *diff_now(PyObject *mod, PyObject *x_) {
    if (!enabled || Py_TYPE(x_) != ArrayType) Py_RETURN_NONE;
    Core *x = (Core *)x_;
    if (known(x) || !now_ok(x) || x->win_ndim != 1) Py_RETURN_NONE;
    Py_ssize_t n = x->win_shape[0] - 1, step = x->win_strides[0];
    if (n < 1 || n > now_max) Py_RETURN_NONE;
    Loop L;
    L.nd = L.out_nd = 1;
    L.n = n;
    L.shape[0] = L.out_shape[0] = n;
    L.st[0][0] = L.st[1][0] = step;
    L.ptr[0] = x->win_ptr + step;        /* (later) */
    L.ptr[1] = x->win_ptr;               /* (earlier) */
    int code = x->win_code;
    Core *o = new_result(code, 1, &n, x);
    if (o == NULL) return NULL;
    if (code == C_BOOL) bits_loop(OP_XOR, code, &L, o->win_ptr);
    else arith_loop(OP_SUB, code, &L, o->win_ptr);
    return (PyObject *)o;
}

/* roll_now(x, shift): x's elements in C order shifted by `shift` (NumPy's roll with no
 * axis), now, for a window on the cpu device of at most `now_max` elements that is 1-D
 * (any step) or C-contiguous; None otherwise (a ring buffer's neighbours each step). */
static PyObject *roll_now(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !enabled || Py_TYPE(args[0]) != ArrayType || !PyLong_CheckExact(args[1]))
        Py_RETURN_NONE;
    Core *x = (Core *)args[0];
    if (known(x) || !now_ok(x) || x->win_ndim < 1) Py_RETURN_NONE;
    int nd = x->win_ndim;
    Py_ssize_t n = 1, item = item_size[x->win_code], step = x->win_strides[nd - 1];
    for (int k = 0; k < nd; k++) n *= x->win_shape[k];
    if (n == 0 || n > now_max) Py_RETURN_NONE;
    if (nd > 1) {               /* (the flat order must be one step through memory) */
        Py_ssize_t expected = item;
        for (int k = nd - 1; k >= 0; k--) {
            if (x->win_shape[k] != 1 && x->win_strides[k] != expected) Py_RETURN_NONE;
            expected *= x->win_shape[k];
        }
        step = item;
    }
    int overflow = 0;
    long long shift = PyLong_AsLongLongAndOverflow(args[1], &overflow);
    if (overflow || (shift == -1 && PyErr_Occurred())) { PyErr_Clear(); Py_RETURN_NONE; }
    Py_ssize_t k = (Py_ssize_t)(((shift % n) + n) % n);
    Core *o = new_result(x->win_code, nd, x->win_shape, x);
    if (o == NULL) return NULL;
    char *q = o->win_ptr;
    const char *p = x->win_ptr;
    /* out[(i + k) % n] = x[i]: out[k:] = x[:n-k], out[:k] = x[n-k:] */
    if (step == item) {
        memcpy(q + k * item, p, (n - k) * item);
        memcpy(q, p + (n - k) * item, k * item);
    } else {
        for (Py_ssize_t i = 0; i < n; i++)
            memcpy(q + ((i + k) % n) * item, p + i * step, item);
    }
    return (PyObject *)o;
}

/* concat_now(arrays, axis): the arrays (a list or tuple of at least one) joined along
 * `axis` (an int, negative from the end) into a new array, now, where each is a window on
 * the cpu device of one dtype and rank (at least 1), equal outside `axis`, and together at
 * most `now_max` elements; None otherwise (the slow path decides, and raises the errors).
 * A small grid's edges joined every step of a loop: a copy, not Python around NumPy's. */
static PyObject *concat_now(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !enabled || now_max == 0 || !PyLong_CheckExact(args[1]) ||
            !(PyList_CheckExact(args[0]) || PyTuple_CheckExact(args[0])))
        Py_RETURN_NONE;
    PyObject *seq = args[0];
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count < 1 || count > 64) Py_RETURN_NONE;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t j = 0; j < count; j++)
        if (Py_TYPE(items[j]) != ArrayType) Py_RETURN_NONE;
    Core *first = (Core *)items[0];
    if (known(first) || !now_ok(first)) Py_RETURN_NONE;
    int nd = first->win_ndim, code = first->win_code;
    long ax = PyLong_AsLong(args[1]);
    if (ax == -1 && PyErr_Occurred()) { PyErr_Clear(); Py_RETURN_NONE; }
    if (nd < 1 || ax < -nd || ax >= nd) Py_RETURN_NONE;
    if (ax < 0) ax += nd;
    Py_ssize_t shape[MAXDIM], total = 0, n = 0;
    memcpy(shape, first->win_shape, sizeof shape);
    for (Py_ssize_t j = 0; j < count; j++) {
        Core *c = (Core *)items[j];
        /* (an unwritten fill, `zeros` around a grid, is left to the general path: a padded
         * view of the grid, which fuses into the stencil that reads it) */
        if ((j > 0 && (known(c) || !now_ok(c))) || c->win_ndim != nd || c->win_code != code ||
                c->device != first->device || c->fill)
            Py_RETURN_NONE;
        Py_ssize_t size = 1;
        for (int k = 0; k < nd; k++) {
            if (k != ax && c->win_shape[k] != shape[k]) Py_RETURN_NONE;
            size *= c->win_shape[k];
        }
        total += c->win_shape[ax];
        n += size;
    }
    if (n == 0 || n > now_max) Py_RETURN_NONE;
    shape[ax] = total;
    Core *o = new_result(code, nd, shape, first);
    if (o == NULL) return NULL;
    Py_ssize_t item = item_size[code], start = 0;
    for (Py_ssize_t j = 0; j < count; j++) {
        Core *c = (Core *)items[j];
        /* row by row: the last axis, one memcpy where the input's row is contiguous */
        Py_ssize_t idx[MAXDIM] = {0}, rows = 1, inner = c->win_shape[nd - 1];
        Py_ssize_t step = c->win_strides[nd - 1];
        for (int k = 0; k < nd - 1; k++) rows *= c->win_shape[k];
        const char *p = c->win_ptr;
        char *q = o->win_ptr + start * o->win_strides[ax];
        for (Py_ssize_t r = 0; r < rows && inner > 0; r++) {
            if (step == item) {
                memcpy(q, p, inner * item);
            } else {
                for (Py_ssize_t e = 0; e < inner; e++) memcpy(q + e * item, p + e * step, item);
            }
            for (int k = nd - 2; k >= 0; k--) {     /* (the next row in C order) */
                p += c->win_strides[k];
                q += o->win_strides[k];
                if (++idx[k] < c->win_shape[k]) break;
                p -= c->win_strides[k] * c->win_shape[k];
                q -= o->win_strides[k] * c->win_shape[k];
                idx[k] = 0;
            }
        }
        start += c->win_shape[ax];
    }
    return (PyObject *)o;
}

/* quick_extremum(array, which): `extremum_now` (0 max, 1 min, 2 argmax, 3 argmin), or
 * None. */
static PyObject *quick_extremum(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || Py_TYPE(args[0]) != ArrayType) Py_RETURN_NONE;
    int which = (int)PyLong_AsLong(args[1]);
    if (which < 0 || which > 3) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    PyObject *r = extremum_now((Core *)args[0], which);
    if (r != NULL || PyErr_Occurred()) return r;
    Py_RETURN_NONE;
}

static PyObject *quick_sum(PyObject *mod, PyObject *array) { return quick(array, 0); }
static PyObject *quick_mean(PyObject *mod, PyObject *array) { return quick(array, 1); }

/* binary_now(x1, x2, op): x1 op x2 (op: OP_*, maximum and minimum included) computed now
 * for the functions that are not operators (`xp.maximum(x, 0)`), or None. */
static PyObject *binary_fn_now(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || !enabled) Py_RETURN_NONE;
    int op = (int)PyLong_AsLong(args[2]);
    if (op < OP_ADD || op > OP_XOR) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NONE;
    }
    PyObject *r = NULL;
    if (Py_TYPE(args[0]) == ArrayType && !known((Core *)args[0]))
        r = binary_now((Core *)args[0], args[1], 0, op, 0);
    else if (Py_TYPE(args[1]) == ArrayType && !known((Core *)args[1]))
        r = binary_now((Core *)args[1], args[0], 1, op, 0);
    if (r != NULL || PyErr_Occurred()) return r;
    Py_RETURN_NONE;
}

/* inplace(dst, other, op): `dst op= other` (op: 0 +, 1 -, 2 *, 3 /) of an array nothing
 * else shows (the caller checks: no views, no storage), computed now into a new block that
 * dst takes, without a node (a loop's `w -= lr * g`); True if done, else False and nothing
 * changed (the caller takes the general path). The result never leaves this function, so
 * no other array shares its block. */
static PyObject *inplace(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || Py_TYPE(args[0]) != ArrayType) Py_RETURN_FALSE;
    Core *dst = (Core *)args[0];
    int op = (int)PyLong_AsLong(args[2]);
    if (op < OP_ADD || op > OP_DIV) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_FALSE;
    }
    if (!enabled || dst->pend != NULL) Py_RETURN_FALSE;
    if (known(dst)) {
        /* a known scalar (`conf[i, j] += 1` adds to the element read first): its new value,
         * of its dtype; its node, if one was made, is dropped (made again when asked) */
        Value y, r;
        if (!operand(args[1], dst->code, dst->device, &y) ||
                !arith(op, dst->code, dst->value, y, &r))
            Py_RETURN_FALSE;
        PyObject *old_node = dst->node;
        dst->node = NULL;
        dst->value = r;
        Py_XDECREF(old_node);
        Py_RETURN_TRUE;
    }
    Core *r = (Core *)binary_now(dst, args[1], 0, op, 0);
    if (r == NULL) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_FALSE;
    }
    int same = r->win_ndim == dst->win_ndim && r->win_code == dst->win_code;
    for (int k = 0; same && k < r->win_ndim; k++) same = r->win_shape[k] == dst->win_shape[k];
    if (!same) { Py_DECREF(r); Py_RETURN_FALSE; }
    PyObject *old_node = dst->node, *old_block = dst->block;
    dst->node = NULL;
    dst->block = r->block;                  /* (the reference moves: r is dropped below) */
    r->block = NULL;
    dst->sc = SC_NONE;
    dst->fill = 0;
    dst->win_epoch = epoch;
    dst->win_ok = dst->win_direct = dst->win_now = 1;
    dst->win_ptr = r->win_ptr;
    memcpy(dst->win_strides, r->win_strides, sizeof dst->win_strides);
    Py_XDECREF(old_node);                   /* (last: a collection may run Python code) */
    Py_XDECREF(old_block);
    Py_DECREF(r);
    Py_RETURN_TRUE;
}

/* created(device, lanes, code, shape, kind, start, step, stop): a new array made now on
 * the cpu device by a creation function (zeros, ones, full, empty, arange, linspace and
 * their *_like), or None when it has more than CREATE_NOW_FACTOR * now_max elements (a
 * kernel fills it: lazily, fused into its consumers). `kind` (MAKE_*) says what element i
 * is, computed as the creation function's graph computes it:
 *   MAKE_FILL      start (a Python number, already the dtype's value)
 *   MAKE_INT_RAMP  (dtype)(i * step + start) in wrapping int64 arithmetic
 *   MAKE_F64_RAMP  (dtype)((double)i * step + start); element 1 `second` and the last
 *                  element `stop` unless None (arange's start + step, linspace's endpoint)
 *   MAKE_F32_RAMP  the same in float arithmetic (float32 and float16 arange as NumPy, and
 *                  a device without float64) */
enum { MAKE_FILL, MAKE_INT_RAMP, MAKE_F64_RAMP, MAKE_F32_RAMP };
#define CREATE_NOW_FACTOR 16

static int value_of(PyObject *o, int code, Value *v) {
    if (is_float(code)) v->f = PyFloat_AsDouble(o);
    else if (code == C_BOOL) v->i = PyObject_IsTrue(o);
    else if (is_unsigned(code)) v->u = PyLong_AsUnsignedLongLong(o);
    else v->i = PyLong_AsLongLong(o);
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *created(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9 || !PyTuple_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError,
                        "created(device, lanes, code, shape, kind, start, step, stop, second)");
        return NULL;
    }
    int lanes = (int)PyLong_AsLong(args[1]), code = (int)PyLong_AsLong(args[2]),
        kind = (int)PyLong_AsLong(args[4]);
    if (PyErr_Occurred()) return NULL;
    Py_ssize_t nd = PyTuple_GET_SIZE(args[3]), shape[MAXDIM], n = 1;
    if (!enabled || now_max == 0 || nd > MAXDIM || code < 0 || code >= C_COUNT ||
            kind < MAKE_FILL || kind > MAKE_F32_RAMP)
        Py_RETURN_NONE;
    for (Py_ssize_t k = 0; k < nd; k++) {
        shape[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(args[3], k));
        if (shape[k] < 0) {
            if (PyErr_Occurred()) return NULL;
            Py_RETURN_NONE;
        }
        if (shape[k] > 0 && n > now_max * CREATE_NOW_FACTOR / shape[k]) Py_RETURN_NONE;
        n *= shape[k];
    }
    if (n > now_max * CREATE_NOW_FACTOR) Py_RETURN_NONE;
    Value start, step, stop, second;
    int has_stop = args[7] != Py_None, has_second = args[8] != Py_None;
    stop.f = second.f = 0.0;
    if (kind == MAKE_FILL ? value_of(args[5], code, &start) < 0 :
            kind == MAKE_INT_RAMP ? value_of(args[5], C_I64, &start) < 0 ||
                                    value_of(args[6], C_I64, &step) < 0 :
            value_of(args[5], C_F64, &start) < 0 || value_of(args[6], C_F64, &step) < 0 ||
            (has_stop && value_of(args[7], C_F64, &stop) < 0) ||
            (has_second && value_of(args[8], C_F64, &second) < 0))
        return NULL;
    Core *o = new_array(code, (int)nd, shape, args[0], lanes);
    if (o == NULL) return NULL;
    char *p = o->win_ptr;
    Py_ssize_t size = item_size[code], nbytes = n * size;
    Value v;
    switch (kind) {
    case MAKE_FILL:
        o->fill = 1;
        if (n == 0) break;
        store(code, p, start);
        for (Py_ssize_t done = size; done < nbytes; done *= 2)   /* (doubling copies) */
            memcpy(p + done, p, done < nbytes - done ? done : nbytes - done);
        break;
    case MAKE_INT_RAMP:
        for (Py_ssize_t i = 0; i < n; i++, p += size) {
            v.u = (uint64_t)i * step.u + start.u;
            store(code, p, v);
        }
        break;
    case MAKE_F64_RAMP:
        for (Py_ssize_t i = 0; i < n; i++, p += size) {
            v.f = (double)i * step.f + start.f;
            store(code, p, v);
        }
        break;
    default: {
        float a = (float)step.f, b = (float)start.f;
        for (Py_ssize_t i = 0; i < n; i++, p += size) {
            float r = (float)i * a + b;
            v.f = r;
            store(code, p, v);
        }
        stop.f = (float)stop.f;
        second.f = (float)second.f;
    }
    }
    if (has_second && n > 1 && kind >= MAKE_F64_RAMP)
        store(code, o->win_ptr + size, second);
    if (has_stop && n > 0 && kind >= MAKE_F64_RAMP)
        store(code, o->win_ptr + (n - 1) * size, stop);
    return (PyObject *)o;
}

static PyObject *bump(PyObject *mod, PyObject *unused) {
    epoch++;
    Py_RETURN_NONE;
}

static PyObject *set_now_max(PyObject *mod, PyObject *value) {
    Py_ssize_t n = PyLong_AsSsize_t(value);
    if (n == -1 && PyErr_Occurred()) return NULL;
    PyObject *previous = PyLong_FromSsize_t(now_max);
    now_max = n < 0 ? 0 : n;
    return previous;
}

static PyObject *get_now_max(PyObject *mod, PyObject *unused) {
    return PyLong_FromSsize_t(enabled ? now_max : 0);
}

static PyObject *set_enabled(PyObject *mod, PyObject *flag) {
    int t = PyObject_IsTrue(flag);
    if (t < 0) return NULL;
    PyObject *previous = PyBool_FromLong(enabled);
    enabled = t;
    return previous;
}

/* launch(kernel, flag, buffers, ints, floats): call a cpu kernel, `void kernel(void **bufs,
 * const int64_t *ip, const double *fp)` at address `kernel`, with the GIL released; `flag`
 * is the address of its stop flag (`zx_abort`, cleared first; 0: none). Returns the flag's
 * value after the call (nonzero: interrupted). The cpu device's programs launch through
 * this (cffi's call converts the lists for about 2 us; this for a tenth of that). */
typedef void (*kernel_fn)(void **, const int64_t *, const double *);

static PyObject *launch(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5 || !PyList_Check(args[2]) || !PyList_Check(args[3]) ||
            !PyList_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "launch(kernel, flag, buffers, ints, floats)");
        return NULL;
    }
    kernel_fn fn = (kernel_fn)PyLong_AsVoidPtr(args[0]);
    volatile int *flag = (volatile int *)PyLong_AsVoidPtr(args[1]);
    if (PyErr_Occurred()) return NULL;
    Py_ssize_t nb = PyList_GET_SIZE(args[2]), ni = PyList_GET_SIZE(args[3]),
               nf = PyList_GET_SIZE(args[4]);
    void *bstack[32];
    int64_t istack[128];
    double fstack[32];
    void **bufs = nb <= 32 ? bstack : PyMem_Malloc(nb * sizeof(void *));
    int64_t *ip = ni <= 128 ? istack : PyMem_Malloc(ni * sizeof(int64_t));
    double *fp = nf <= 32 ? fstack : PyMem_Malloc(nf * sizeof(double));
    PyObject *result = NULL;
    if (bufs == NULL || ip == NULL || fp == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < nb; k++)
        bufs[k] = PyLong_AsVoidPtr(PyList_GET_ITEM(args[2], k));
    for (Py_ssize_t k = 0; k < ni; k++)
        ip[k] = (int64_t)PyLong_AsLongLong(PyList_GET_ITEM(args[3], k));
    for (Py_ssize_t k = 0; k < nf; k++)
        fp[k] = PyFloat_AsDouble(PyList_GET_ITEM(args[4], k));
    if (PyErr_Occurred()) goto done;
    if (flag) *flag = 0;
    Py_BEGIN_ALLOW_THREADS
    fn(bufs, ip, fp);
    Py_END_ALLOW_THREADS
    int stopped = flag ? *flag : 0;
    if (flag) *flag = 0;
    result = PyLong_FromLong(stopped);
done:
    if (bufs != bstack) PyMem_Free(bufs);
    if (ip != istack) PyMem_Free(ip);
    if (fp != fstack) PyMem_Free(fp);
    return result;
}

/* graph._remake in C: a template's nodes made around new inputs, every slot of graph.Node
 * written at its offset (the Python loop cost about half a microsecond a node, a random
 * draw's 150 of them most of the call). remake(Node, pool, nodes, leaf_sets, epoch) appends
 * the nodes to `pool`; each entry of `nodes` is (op, arg, dtype, shape, device, source
 * positions, key, leaf set or -1), positions index `pool`, and nodes with the same leaf set
 * share one tuple of leaves. */
#define REMAKE_SLOTS 11
static const char *remake_names[REMAKE_SLOTS] = {"op", "arg", "dtype", "shape", "device",
                                                 "buffer", "srcs", "depth", "key", "epoch",
                                                 "leaves"};
enum { R_OP, R_ARG, R_DTYPE, R_SHAPE, R_DEVICE, R_BUFFER, R_SRCS, R_DEPTH, R_KEY, R_EPOCH,
       R_LEAVES };
static Py_ssize_t remake_offsets[REMAKE_SLOTS];
static PyTypeObject *remake_type;

static int remake_ready(PyObject *cls) {
    if ((PyTypeObject *)cls == remake_type) return 1;
    if (!PyType_Check(cls)) return 0;
    Py_ssize_t offsets[REMAKE_SLOTS];
    for (int k = 0; k < REMAKE_SLOTS; k++) {
        PyObject *descr = PyObject_GetAttrString(cls, remake_names[k]);
        int ok = descr != NULL && Py_TYPE(descr) == &PyMemberDescr_Type &&
                 ((PyMemberDescrObject *)descr)->d_member->type == T_OBJECT_EX;
        if (ok) offsets[k] = ((PyMemberDescrObject *)descr)->d_member->offset;
        Py_XDECREF(descr);
        if (!ok) { PyErr_Clear(); return 0; }
    }
    memcpy(remake_offsets, offsets, sizeof(offsets));
    Py_INCREF(cls);
    Py_XDECREF((PyObject *)remake_type);
    remake_type = (PyTypeObject *)cls;
    return 1;
}

#define SLOT(o, k) (*(PyObject **)((char *)(o) + remake_offsets[k]))

static PyObject *pool_item(PyObject *pool, PyObject *position) {
    /* a borrowed reference to pool[position], or NULL with an error set */
    Py_ssize_t i = PyLong_AsSsize_t(position);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || i >= PyList_GET_SIZE(pool)) {
        PyErr_SetString(PyExc_IndexError, "remake: a position outside the pool");
        return NULL;
    }
    return PyList_GET_ITEM(pool, i);
}

static PyObject *remake(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5 || !PyList_Check(args[1]) || !PyTuple_Check(args[2]) ||
            !PyTuple_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "remake(Node, pool, nodes, leaf_sets, epoch)");
        return NULL;
    }
    if (!remake_ready(args[0])) {
        PyErr_SetString(PyExc_TypeError, "remake: the node class has other slots");
        return NULL;
    }
    PyObject *pool = args[1], *nodes = args[2], *sets = args[3], *epoch = args[4];
    Py_ssize_t n_sets = PyTuple_GET_SIZE(sets);
    PyObject **made = PyMem_Calloc(n_sets ? (size_t)n_sets : 1, sizeof(PyObject *));
    if (made == NULL) return PyErr_NoMemory();
    PyObject *result = NULL;
    for (Py_ssize_t e = 0; e < PyTuple_GET_SIZE(nodes); e++) {
        PyObject *entry = PyTuple_GET_ITEM(nodes, e);
        if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 8 ||
                !PyTuple_Check(PyTuple_GET_ITEM(entry, 5))) {
            PyErr_SetString(PyExc_TypeError, "remake: a malformed template entry");
            goto done;
        }
        PyObject *positions = PyTuple_GET_ITEM(entry, 5);
        Py_ssize_t m = PyTuple_GET_SIZE(positions);
        PyObject *srcs = PyTuple_New(m);
        if (srcs == NULL) goto done;
        long depth = 0;
        for (Py_ssize_t j = 0; j < m; j++) {
            PyObject *x = pool_item(pool, PyTuple_GET_ITEM(positions, j));
            if (x == NULL) { Py_DECREF(srcs); goto done; }
            Py_INCREF(x);
            PyTuple_SET_ITEM(srcs, j, x);
            PyObject *xd = Py_TYPE(x) == remake_type ? SLOT(x, R_DEPTH) : NULL;
            long d = xd != NULL ? PyLong_AsLong(xd) : -2;
            if (d == -2 || (d == -1 && PyErr_Occurred())) {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError, "remake: a source that is not a node");
                Py_DECREF(srcs);
                goto done;
            }
            if (d >= depth) depth = d + 1;
        }
        PyObject *leaves = Py_None;
        Py_ssize_t k = PyLong_AsSsize_t(PyTuple_GET_ITEM(entry, 7));
        if (k == -1 && PyErr_Occurred()) { Py_DECREF(srcs); goto done; }
        if (k >= n_sets) {
            PyErr_SetString(PyExc_IndexError, "remake: a leaf set outside the template");
            Py_DECREF(srcs);
            goto done;
        }
        if (k >= 0) {
            if (made[k] == NULL) {      /* (a leaf comes before what is made on it) */
                PyObject *where = PyTuple_GET_ITEM(sets, k);
                if (!PyTuple_Check(where)) {
                    PyErr_SetString(PyExc_TypeError, "remake: a malformed leaf set");
                    Py_DECREF(srcs);
                    goto done;
                }
                PyObject *t = PyTuple_New(PyTuple_GET_SIZE(where));
                if (t == NULL) { Py_DECREF(srcs); goto done; }
                for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(where); j++) {
                    PyObject *x = pool_item(pool, PyTuple_GET_ITEM(where, j));
                    if (x == NULL) { Py_DECREF(t); Py_DECREF(srcs); goto done; }
                    Py_INCREF(x);
                    PyTuple_SET_ITEM(t, j, x);
                }
                made[k] = t;
            }
            leaves = made[k];
        }
        PyObject *depth_obj = PyLong_FromLong(depth);
        if (depth_obj == NULL) { Py_DECREF(srcs); goto done; }
        PyObject *n = remake_type->tp_alloc(remake_type, 0);
        if (n == NULL) { Py_DECREF(depth_obj); Py_DECREF(srcs); goto done; }
        static const int from_entry[5] = {R_OP, R_ARG, R_DTYPE, R_SHAPE, R_DEVICE};
        for (int f = 0; f < 5; f++) {
            PyObject *v = PyTuple_GET_ITEM(entry, f);
            Py_INCREF(v);
            SLOT(n, from_entry[f]) = v;
        }
        Py_INCREF(Py_None);
        SLOT(n, R_BUFFER) = Py_None;
        SLOT(n, R_SRCS) = srcs;
        SLOT(n, R_DEPTH) = depth_obj;
        Py_INCREF(PyTuple_GET_ITEM(entry, 6));
        SLOT(n, R_KEY) = PyTuple_GET_ITEM(entry, 6);
        Py_INCREF(epoch);
        SLOT(n, R_EPOCH) = epoch;
        Py_INCREF(leaves);
        SLOT(n, R_LEAVES) = leaves;
        int failed = PyList_Append(pool, n);
        Py_DECREF(n);
        if (failed) goto done;
    }
    result = Py_None;
    Py_INCREF(result);
done:
    for (Py_ssize_t k = 0; k < n_sets; k++) Py_XDECREF(made[k]);
    PyMem_Free(made);
    return result;
}
#undef SLOT

static PyMethodDef module_methods[] = {
    {"launch", (PyCFunction)(void (*)(void))launch, METH_FASTCALL,
     "launch(kernel, flag, buffers, ints, floats): call a cpu kernel by address."},
    {"remake", (PyCFunction)(void (*)(void))remake, METH_FASTCALL,
     "remake(Node, pool, nodes, leaf_sets, epoch): graph._remake in C"},
    {"install", install, METH_VARARGS,
     "install(Array, callables): the class and the Python slow paths (see _hot.py)"},
    {"rows", rows, METH_O, "rows(array): an iterator over array[0], array[1], ..."},
    {"quick_sum", quick_sum, METH_O,
     "quick_sum(array): sum(array) of a small window, now, in the kernels' order; or None"},
    {"quick_mean", quick_mean, METH_O, "quick_mean(array): as quick_sum, the mean"},
    {"where_now", (PyCFunction)(void (*)(void))where_now, METH_FASTCALL,
     "where_now(condition, x1, x2): a selection of small windows now, or None"},
    {"diff_now", diff_now, METH_O,
     "diff_now(x): x[1:] - x[:-1] of a small 1-D window now, or None"},
    {"roll_now", (PyCFunction)(void (*)(void))roll_now, METH_FASTCALL,
     "roll_now(x, shift): a small window's elements rolled in C order now, or None"},
    {"concat_now", (PyCFunction)(void (*)(void))concat_now, METH_FASTCALL,
     "concat_now(arrays, axis): small windows of one dtype joined along axis now, or None"},
    {"cast_now", (PyCFunction)(void (*)(void))cast_now, METH_FASTCALL,
     "cast_now(x, code): x converted to the dtype `code` now, or None"},
    {"quick_extremum", (PyCFunction)(void (*)(void))quick_extremum, METH_FASTCALL,
     "quick_extremum(array, which): max, min, argmax, argmin (0-3) of a small window, or None"},
    {"created", (PyCFunction)(void (*)(void))created, METH_FASTCALL,
     "created(device, lanes, code, shape, kind, start, step, stop): made now, or None"},
    {"bump", bump, METH_NOARGS,
     "A kernel may write into existing buffers: forget every array's window."},
    {"unary_now", (PyCFunction)(void (*)(void))unary_now, METH_FASTCALL,
     "unary_now(fn, x): a float function (U_*) of a small array computed now, or None"},
    {"binary_now", (PyCFunction)(void (*)(void))binary_fn_now, METH_FASTCALL,
     "binary_now(x1, x2, op): x1 op x2 of small arrays in memory computed now, or None"},
    {"inplace", (PyCFunction)(void (*)(void))inplace, METH_FASTCALL,
     "inplace(dst, other, op): dst op= other computed now (True), or False"},
    {"set_now_max", set_now_max, METH_O,
     "The most elements of a result computed now (0: none); returns the previous."},
    {"get_now_max", get_now_max, METH_NOARGS,
     "The most elements of a result computed now (0: none, or the shortcuts are off)."},
    {"set_enabled", set_enabled, METH_O,
     "Turn the fast paths on or off (tests compare both); returns the previous setting."},
    {NULL}
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_hotcore", "The hot path of zyxarray.Array (see _hot.c).", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__hotcore(void) {
    CoreType.tp_new = PyBaseObject_Type.tp_new;    /* (object.__new__(Array) stays valid) */
    if (PyType_Ready(&CoreType) < 0 || PyType_Ready(&RowsType) < 0 ||
            PyType_Ready(&BlockType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    s_op = PyUnicode_InternFromString("op");
    s_shape = PyUnicode_InternFromString("shape");
    s_dtype = PyUnicode_InternFromString("dtype");
    s_arg = PyUnicode_InternFromString("arg");
    s_device = PyUnicode_InternFromString("device");
    s_CONST = PyUnicode_InternFromString("CONST");
    s_node = PyUnicode_InternFromString("node");
    s_srcs = PyUnicode_InternFromString("srcs");
    s_BUFFER = PyUnicode_InternFromString("BUFFER");
    s_VIEW = PyUnicode_InternFromString("VIEW");
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) return NULL;
    return m;
}
