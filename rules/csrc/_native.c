/* rules._native - the compiled move generator behind rules.Board when the extension is built.
 *
 * MoveGen(params, move_class) takes the dict of rules.native.rules_params(variant) and offers the same
 * methods, arguments and raw-move tuples as rules.movegen.MoveGen, plus perft(). Squares in and out are the
 * Python core's padded bit indices; inside, everything is dense (see dcore.h).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "dcore.h"
#include "dparams.h"

typedef struct {
    PyObject_HEAD
    Rules R;
    DcErrors err;
    PyObject *move_class;
    PyObject **qcache; /* raw tuples of quiet moves, [(promo * n + from) * n + to], built on first use */
    MoveList ml;       /* scratch list, with paths */
} MoveGenObject;

static PyTypeObject MoveGenType;

static void movegen_dealloc(MoveGenObject *self) {
    if (self->qcache) {
        size_t count = (size_t)2 * (size_t)self->R.n * (size_t)self->R.n;
        for (size_t i = 0; i < count; i++) Py_XDECREF(self->qcache[i]);
        PyMem_Free(self->qcache);
    }
    ml_free(&self->ml);
    Py_XDECREF(self->move_class);
    Py_XDECREF(self->err.rules_error);
    Py_XDECREF(self->err.invalid_square);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *movegen_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"params", "move_class", NULL};
    PyObject *params, *move_class;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO", kwlist, &params, &move_class)) return NULL;
    if (!PyCallable_Check(move_class)) {
        PyErr_SetString(PyExc_TypeError, "move_class must be callable (rules.Move)");
        return NULL;
    }
    MoveGenObject *self = (MoveGenObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    if (rules_from_params(&self->R, params) || dc_errors_load(&self->err)) {
        Py_DECREF(self);
        return NULL;
    }
    size_t count = (size_t)2 * (size_t)self->R.n * (size_t)self->R.n;
    self->qcache = (PyObject **)PyMem_Calloc(count, sizeof(PyObject *));
    if (!self->qcache || ml_init(&self->ml, 1)) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    Py_INCREF(move_class);
    self->move_class = move_class;
    return (PyObject *)self;
}

static PyObject *movegen_repr(MoveGenObject *self) {
    return PyUnicode_FromFormat("<rules._native.MoveGen: %d squares>", self->R.n);
}

/* The raw tuple of a quiet move (cached, new reference). */
static PyObject *quiet_raw(MoveGenObject *self, int from, int to, int promo) {
    int n = self->R.n;
    PyObject **slot = &self->qcache[((size_t)promo * n + from) * n + to];
    if (!*slot) {
        int f = self->R.sq_pad[from], t = self->R.sq_pad[to];
        PyObject *move = PyObject_CallFunction(self->move_class, "ii(ii)()O", f, t, f, t, promo ? Py_True : Py_False);
        if (!move) return NULL;
        *slot = Py_BuildValue("(iiiO(ii)()N)", f, t, 0, promo ? Py_True : Py_False, f, t, move);
        if (!*slot) return NULL;
    }
    Py_INCREF(*slot);
    return *slot;
}

static PyObject *capture_raw(MoveGenObject *self, const MoveList *ml, const DMove *m) {
    const Rules *R = &self->R;
    int n = m->ncap;
    const uint8_t *p = ml->pb + m->pofs;
    PyObject *path = PyTuple_New(n + 1), *caps = PyTuple_New(n), *cap = dc_to_pyint(R, m->cap);
    if (!path || !caps || !cap) goto fail;
    for (int i = 0; i <= n; i++) {
        PyObject *s = PyLong_FromLong(R->sq_pad[p[i]]);
        if (!s) goto fail;
        PyTuple_SET_ITEM(path, i, s);
    }
    for (int i = 0; i < n; i++) {
        PyObject *s = PyLong_FromLong(R->sq_pad[p[n + 1 + i]]);
        if (!s) goto fail;
        PyTuple_SET_ITEM(caps, i, s);
    }
    return Py_BuildValue("(iiNONNO)", R->sq_pad[m->from], R->sq_pad[m->to], cap, m->promo ? Py_True : Py_False,
                         path, caps, Py_None);
fail:
    Py_XDECREF(path);
    Py_XDECREF(caps);
    Py_XDECREF(cap);
    return NULL;
}

static PyObject *raw_list(MoveGenObject *self, const MoveList *ml) {
    if (ml->oom) return PyErr_NoMemory();
    PyObject *out = PyList_New(ml->n);
    if (!out) return NULL;
    for (int i = 0; i < ml->n; i++) {
        const DMove *m = &ml->m[i];
        PyObject *raw = m->ncap ? capture_raw(self, ml, m) : quiet_raw(self, m->from, m->to, m->promo);
        if (!raw) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, raw);
    }
    return out;
}

/* Parse (own, opp, kings, color[, keep_duplicates]) into a position. */
static int parse_position(MoveGenObject *self, PyObject *args, PyObject *kwds, Pos *p, int *keep, int with_keep) {
    static char *kw_keep[] = {"own", "opp", "kings", "color", "keep_duplicates", NULL};
    static char *kw_plain[] = {"own", "opp", "kings", "color", NULL};
    PyObject *own, *opp, *kings, *color;
    int k = 0;
    if (with_keep) {
        if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO|p", kw_keep, &own, &opp, &kings, &color, &k)) return -1;
    } else if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO", kw_plain, &own, &opp, &kings, &color)) {
        return -1;
    }
    if (keep) *keep = k;
    return dc_position(&self->R, own, opp, kings, color, p, &self->err);
}

static PyObject *movegen_legal(MoveGenObject *self, PyObject *args, PyObject *kwds) {
    Pos p;
    int keep;
    if (parse_position(self, args, kwds, &p, &keep, 1)) return NULL;
    int c = p.turn;
    gen_legal(&self->R, p.side[c], p.side[1 - c], p.kings, c, keep, &self->ml);
    return raw_list(self, &self->ml);
}

static PyObject *movegen_captures(MoveGenObject *self, PyObject *args, PyObject *kwds) {
    Pos p;
    int keep;
    if (parse_position(self, args, kwds, &p, &keep, 1)) return NULL;
    int c = p.turn;
    gen_captures(&self->R, p.side[c], p.side[1 - c], p.kings, c, keep, &self->ml);
    return raw_list(self, &self->ml);
}

static PyObject *movegen_quiet_moves(MoveGenObject *self, PyObject *args, PyObject *kwds) {
    Pos p;
    if (parse_position(self, args, kwds, &p, NULL, 0)) return NULL;
    int c = p.turn;
    ml_clear(&self->ml);
    gen_quiet(&self->R, p.side[c], p.side[1 - c], p.kings, c, &self->ml);
    return raw_list(self, &self->ml);
}

static PyObject *movegen_has_capture(MoveGenObject *self, PyObject *args, PyObject *kwds) {
    Pos p;
    if (parse_position(self, args, kwds, &p, NULL, 0)) return NULL;
    int c = p.turn;
    return PyBool_FromLong(has_capture(&self->R, p.side[c], p.side[1 - c], p.kings, c));
}

static PyObject *movegen_count_legal(MoveGenObject *self, PyObject *args, PyObject *kwds) {
    Pos p;
    int keep;
    if (parse_position(self, args, kwds, &p, &keep, 1)) return NULL;
    int c = p.turn;
    int n = count_legal(&self->R, p.side[c], p.side[1 - c], p.kings, c, keep, &self->ml);
    if (self->ml.oom) return PyErr_NoMemory();
    return PyLong_FromLong(n);
}

static PyObject *movegen_count_quiet(MoveGenObject *self, PyObject *args, PyObject *kwds) {
    Pos p;
    if (parse_position(self, args, kwds, &p, NULL, 0)) return NULL;
    int c = p.turn;
    return PyLong_FromLong(count_quiet(&self->R, p.side[c], p.side[1 - c], p.kings, c));
}

static PyObject *movegen_perft(MoveGenObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"own", "opp", "kings", "color", "depth", "keep_duplicates", NULL};
    PyObject *own, *opp, *kings, *color;
    int depth, keep = 0;
    Pos p;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOi|p", kwlist, &own, &opp, &kings, &color, &depth, &keep))
        return NULL;
    if (dc_position(&self->R, own, opp, kings, color, &p, &self->err)) return NULL;
    if (depth < 0 || depth > DC_MAXPERFT) {
        PyErr_Format(PyExc_ValueError, "perft depth must be 0..%d, not %d", DC_MAXPERFT, depth);
        return NULL;
    }
    if (depth == 0) return PyLong_FromLong(1);
    int64_t n;
    Py_BEGIN_ALLOW_THREADS
    n = perft(&self->R, &p, depth, keep);
    Py_END_ALLOW_THREADS
    if (n < 0) return PyErr_NoMemory();
    return PyLong_FromLongLong(n);
}

static PyObject *movegen_key(MoveGenObject *self, PyObject *args, PyObject *kwds) {
    Pos p;
    if (parse_position(self, args, kwds, &p, NULL, 0)) return NULL;
    return PyLong_FromUnsignedLongLong(pos_key(&self->R, &p));
}

#define POS_DOC "(own, opp, kings, color"
static PyMethodDef movegen_methods[] = {
    {"legal", (PyCFunction)(void (*)(void))movegen_legal, METH_VARARGS | METH_KEYWORDS,
     POS_DOC ", keep_duplicates=False): legal raw moves, as rules.movegen.MoveGen.legal"},
    {"captures", (PyCFunction)(void (*)(void))movegen_captures, METH_VARARGS | METH_KEYWORDS,
     POS_DOC ", keep_duplicates=False): legal captures after precedence, duplicates merged unless kept"},
    {"quiet_moves", (PyCFunction)(void (*)(void))movegen_quiet_moves, METH_VARARGS | METH_KEYWORDS,
     POS_DOC "): every non-capturing move"},
    {"has_capture", (PyCFunction)(void (*)(void))movegen_has_capture, METH_VARARGS | METH_KEYWORDS,
     POS_DOC "): whether the side to move must capture"},
    {"count_legal", (PyCFunction)(void (*)(void))movegen_count_legal, METH_VARARGS | METH_KEYWORDS,
     POS_DOC ", keep_duplicates=False): number of legal moves"},
    {"count_quiet", (PyCFunction)(void (*)(void))movegen_count_quiet, METH_VARARGS | METH_KEYWORDS,
     POS_DOC "): number of non-capturing moves"},
    {"perft", (PyCFunction)(void (*)(void))movegen_perft, METH_VARARGS | METH_KEYWORDS,
     POS_DOC ", depth, keep_duplicates=False): leaves at exactly depth plies"},
    {"key", (PyCFunction)(void (*)(void))movegen_key, METH_VARARGS | METH_KEYWORDS,
     POS_DOC "): the Zobrist key, as rules.Board.key()"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject MoveGenType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rules._native.MoveGen",
    .tp_basicsize = sizeof(MoveGenObject),
    .tp_dealloc = (destructor)movegen_dealloc,
    .tp_repr = (reprfunc)movegen_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "MoveGen(params, move_class): the compiled move generator of one variant.",
    .tp_methods = movegen_methods,
    .tp_new = movegen_new,
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "rules._native",
    "Compiled move generation, make-move and perft for every variant the parameters describe.", -1, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    if (PyType_Ready(&MoveGenType) < 0) return NULL;
    PyObject *m = PyModule_Create(&native_module);
    if (!m) return NULL;
    Py_INCREF(&MoveGenType);
    if (PyModule_AddObject(m, "MoveGen", (PyObject *)&MoveGenType) < 0 ||
        PyModule_AddIntConstant(m, "MAX_SQUARES", DC_MAXSQ) < 0 ||
        PyModule_AddIntConstant(m, "MAX_PADDED_BITS", 64 * DC_PADWORDS) < 0) {
        Py_DECREF(&MoveGenType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
