/* engine._native - the compiled search and evaluation behind engine.native.NativeSearcher.
 *
 * Searcher(rules_params, eval_params, options) builds its own Rules table from the same parameters as
 * rules._native (see rules/native.py) and the evaluation tables from an engine.evaluation.Evaluator.
 * Each call searches one iteration (or scores the root moves) with the GIL released, and calls the
 * Python `stop` callable now and then so that a search stays cancellable.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "dcore.h"
#include "dparams.h"
#include "deval.h"
#include "dsearch.h"
#include "dsmp.h"

typedef struct {
    PyObject_HEAD
    Search *s;
    DcErrors err;
    int busy;
    PyObject *stop_cb;
    PyThreadState *ts;
    int stop_error;
    MoveList root;
    EgTables *eg;       /* the endgame tables set_endgames() gave, NULL when none */
    PyObject *eg_refs;  /* ... and the bytes objects they point into */
    Smp smp;   /* the helper threads of the parallel search (none: the single-threaded search) */
} SearcherObject;

static PyTypeObject SearcherType;

/* ---------------------------------------------------------------------------------------------------
 * Evaluation tables
 * ------------------------------------------------------------------------------------------------- */
static int ep_ints(PyObject *params, const char *key, long lo, long hi, long *out, Py_ssize_t len) {
    PyObject *v = dp_item(params, key);
    if (!v) return -1;
    Py_ssize_t n = dp_ints(v, key, lo, hi, out, len);
    if (n < 0) return -1;
    if (n != len) {
        PyErr_Format(PyExc_ValueError, "native eval parameters: %s needs %zd values", key, len);
        return -1;
    }
    return 0;
}

/* A per-color table of n values. */
static int ep_color_ints(PyObject *params, const char *key, int n, long lo, long hi, int32_t out[2][DC_MAXSQ]) {
    PyObject *v = dp_item(params, key);
    long buf[2 * DC_MAXSQ];
    Py_ssize_t lens[2];
    if (!v || dp_rows(v, key, 2, lo, hi, buf, DC_MAXSQ, lens)) return -1;
    for (int c = 0; c < 2; c++) {
        if (lens[c] != n) {
            PyErr_Format(PyExc_ValueError, "native eval parameters: %s rows need %d values", key, n);
            return -1;
        }
        for (int s = 0; s < n; s++) out[c][s] = (int32_t)buf[c * DC_MAXSQ + s];
    }
    return 0;
}

/* A per-color, per-square list of squares, as bitboards. */
static int ep_color_masks(PyObject *params, const char *key, int n, bb_t out[2][DC_MAXSQ]) {
    PyObject *v = dp_item(params, key);
    if (!v) return -1;
    PyObject *fast = PySequence_Fast(v, key);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 2) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "native eval parameters: %s needs 2 colors", key);
        return -1;
    }
    long buf[DC_MAXSQ];
    for (int c = 0; c < 2; c++) {
        PyObject *rows = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, c), key);
        if (!rows) {
            Py_DECREF(fast);
            return -1;
        }
        if (PySequence_Fast_GET_SIZE(rows) != n) {
            Py_DECREF(rows);
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "native eval parameters: %s rows need %d squares", key, n);
            return -1;
        }
        for (int s = 0; s < n; s++) {
            Py_ssize_t m = dp_ints(PySequence_Fast_GET_ITEM(rows, s), key, 0, n - 1, buf, DC_MAXSQ);
            if (m < 0) {
                Py_DECREF(rows);
                Py_DECREF(fast);
                return -1;
            }
            out[c][s] = BB_ZERO;
            for (Py_ssize_t i = 0; i < m; i++) out[c][s] = bb_or(out[c][s], bb_bit((int)buf[i]));
        }
        Py_DECREF(rows);
    }
    Py_DECREF(fast);
    return 0;
}

static int eval_from_params(Eval *E, int n, PyObject *params) {
    long x;
    long buf[2 * DC_MAXSQ];
    if (!PyDict_Check(params)) {
        PyErr_SetString(PyExc_TypeError, "native eval parameters must be a dict");
        return -1;
    }
    memset(E, 0, sizeof *E);
    if (dp_int(params, "giveaway", 0, 1, &x)) return -1;
    E->giveaway = (int)x;
    if (dp_int(params, "orthogonal", 0, 1, &x)) return -1;
    E->orthogonal = (int)x;
    if (ep_color_ints(params, "man_value", n, -1000000, 1000000, E->man_value)) return -1;
    if (ep_ints(params, "king_value", -1000000, 1000000, buf, n)) return -1;
    for (int s = 0; s < n; s++) E->king_value[s] = (int32_t)buf[s];
    if (dp_int(params, "mobility", -100000, 100000, &x)) return -1;
    E->mobility = (int)x;
    if (ep_color_ints(params, "runaway", n, -1000000, 1000000, E->runaway)) return -1;
    if (ep_color_masks(params, "cone", n, E->cone)) return -1;
    if (ep_color_masks(params, "steps", n, E->steps)) return -1;
    for (int c = 0; c < 2; c++) {
        E->zone[c] = BB_ZERO;
        for (int s = 0; s < n; s++)
            if (!bb_empty(E->cone[c][s])) E->zone[c] = bb_or(E->zone[c], bb_bit(s));
    }
    if (dp_int(params, "backed", -100000, 100000, &x)) return -1;
    E->backed = (int)x;
    if (dp_int(params, "side", -100000, 100000, &x)) return -1;
    E->side = (int)x;
    if (dp_int(params, "chase", -100000, 100000, &x)) return -1;
    E->chase = (int)x;
    {
        int32_t behind[2][DC_MAXSQ];
        if (ep_color_ints(params, "behind", n, -1, n - 1, behind)) return -1;
        for (int c = 0; c < 2; c++)
            for (int s = 0; s < n; s++) E->behind[c][s] = behind[c][s] < 0 ? DC_NONE : (uint8_t)behind[c][s];
    }
    if (ep_ints(params, "left", -1, n - 1, buf, n)) return -1;
    for (int s = 0; s < n; s++) E->left[s] = buf[s] < 0 ? DC_NONE : (uint8_t)buf[s];
    if (ep_ints(params, "right", -1, n - 1, buf, n)) return -1;
    for (int s = 0; s < n; s++) E->right[s] = buf[s] < 0 ? DC_NONE : (uint8_t)buf[s];
    if (ep_ints(params, "row", 0, 127, buf, n)) return -1;
    for (int s = 0; s < n; s++) E->row[s] = (int8_t)buf[s];
    if (ep_ints(params, "col", 0, 127, buf, n)) return -1;
    for (int s = 0; s < n; s++) E->col[s] = (int8_t)buf[s];
    return 0;
}

/* ---------------------------------------------------------------------------------------------------
 * Endgame tables (dendgame.h; engine/endgame.py reads and writes the files)
 * ------------------------------------------------------------------------------------------------- */
/* One signature key: a tuple of four counts, each 0..EG_MAXK-1. */
static int eg_key(PyObject *key, int cnt[4]) {
    if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != 4) {
        PyErr_SetString(PyExc_ValueError, "an endgame signature is a tuple (white men, white kings, black men, "
                                          "black kings)");
        return -1;
    }
    for (int g = 0; g < 4; g++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(key, g));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || v >= EG_MAXK) {
            PyErr_Format(PyExc_ValueError, "an endgame signature's counts are 0..%d", EG_MAXK - 1);
            return -1;
        }
        cnt[g] = (int)v;
    }
    return 0;
}

/* Fill T from {signature: packed bytes}; *refs gets a new list holding the bytes (keep it while T is used). */
static int eg_load(const Rules *R, PyObject *options, PyObject *tables, EgTables *T, PyObject **refs) {
    long x;
    memset(T, 0, sizeof *T);
    eg_domains(R, &T->D);
    if (dp_int(options, "no_move_loses", 0, 1, &x)) return -1;
    T->no_move_loses = (int)x;
    if (dp_int(options, "king_vs_single_man", 0, 1, &x)) return -1;
    T->king_vs_man = (int)x;
    if (!PyDict_Check(tables)) {
        PyErr_SetString(PyExc_TypeError, "endgame tables must be a dict {signature: bytes}");
        return -1;
    }
    PyObject *list = PyList_New(0);
    if (!list) return -1;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(tables, &pos, &key, &value)) {
        int cnt[4];
        if (eg_key(key, cnt)) goto fail;
        if (!PyBytes_Check(value)) {
            PyErr_SetString(PyExc_TypeError, "an endgame table must be bytes");
            goto fail;
        }
        uint64_t size = eg_size(&T->D, cnt);
        if ((uint64_t)PyBytes_GET_SIZE(value) != (size + 3) / 4) {
            PyErr_Format(PyExc_ValueError, "endgame table %d-%d-%d-%d: %zd bytes, expected %llu", cnt[0], cnt[1],
                         cnt[2], cnt[3], PyBytes_GET_SIZE(value), (unsigned long long)((size + 3) / 4));
            goto fail;
        }
        if (PyList_Append(list, value)) goto fail;
        int sig = eg_sig(cnt);
        T->data[sig] = (const uint8_t *)PyBytes_AS_STRING(value);
        T->size[sig] = size;
        int pieces = cnt[0] + cnt[1] + cnt[2] + cnt[3];
        if (pieces > T->max_pieces) T->max_pieces = pieces;
    }
    *refs = list;
    return 0;
fail:
    Py_DECREF(list);
    return -1;
}

static PyObject *py_endgame_size(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *rp, *key;
    if (!PyArg_ParseTuple(args, "OO", &rp, &key)) return NULL;
    Rules *R = (Rules *)PyMem_RawCalloc(1, sizeof(Rules));
    EgDomains *D = (EgDomains *)PyMem_RawCalloc(1, sizeof(EgDomains));
    PyObject *result = NULL;
    int cnt[4];
    if (!R || !D) {
        PyErr_NoMemory();
    } else if (!rules_from_params(R, rp) && !eg_key(key, cnt)) {
        eg_domains(R, D);
        result = PyLong_FromUnsignedLongLong(eg_size(D, cnt));
    }
    PyMem_RawFree(R);
    PyMem_RawFree(D);
    return result;
}

static PyObject *py_endgame_build(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *rp, *options, *key, *tables;
    if (!PyArg_ParseTuple(args, "OO!OO", &rp, &PyDict_Type, &options, &key, &tables)) return NULL;
    Rules *R = (Rules *)PyMem_RawCalloc(1, sizeof(Rules));
    EgTables *T = (EgTables *)PyMem_RawCalloc(1, sizeof(EgTables));
    PyObject *refs = NULL, *out = NULL;
    int cnt[4];
    if (!R || !T) {
        PyErr_NoMemory();
        goto done;
    }
    if (rules_from_params(R, rp) || eg_key(key, cnt) || eg_load(R, options, tables, T, &refs)) goto done;
    uint64_t size = eg_size(&T->D, cnt);
    if (size == 0 || size > 0xFFFFFFFFULL) {
        PyErr_Format(PyExc_ValueError, "endgame table %d-%d-%d-%d: %llu positions is beyond the builder", cnt[0],
                     cnt[1], cnt[2], cnt[3], (unsigned long long)size);
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((size + 3) / 4));
    if (!out) goto done;
    uint8_t *data = (uint8_t *)PyBytes_AS_STRING(out);
    memset(data, 0, (size + 3) / 4);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = eg_build(R, T, cnt, data);
    Py_END_ALLOW_THREADS
    if (rc) {
        Py_CLEAR(out);
        if (rc == -1)
            PyErr_NoMemory();
        else
            PyErr_Format(PyExc_ValueError, "endgame table %d-%d-%d-%d: a capture or promotion reaches a table "
                         "that is not loaded", cnt[0], cnt[1], cnt[2], cnt[3]);
    }
done:
    Py_XDECREF(refs);
    PyMem_RawFree(R);
    PyMem_RawFree(T);
    return out;
}

static int check_idle(SearcherObject *self);

static PyObject *searcher_set_endgames(SearcherObject *self, PyObject *args) {
    PyObject *options, *tables;
    if (!PyArg_ParseTuple(args, "O!O", &PyDict_Type, &options, &tables)) return NULL;
    if (check_idle(self)) return NULL;
    if (tables == Py_None) {
        self->s->eg = NULL;
        PyMem_RawFree(self->eg);
        self->eg = NULL;
        Py_CLEAR(self->eg_refs);
        Py_RETURN_NONE;
    }
    EgTables *T = (EgTables *)PyMem_RawCalloc(1, sizeof(EgTables));
    PyObject *refs = NULL;
    if (!T) return PyErr_NoMemory();
    if (eg_load(&self->s->R, options, tables, T, &refs)) {
        PyMem_RawFree(T);
        return NULL;
    }
    PyMem_RawFree(self->eg);
    Py_XDECREF(self->eg_refs);
    self->eg = T;
    self->eg_refs = refs;
    self->s->eg = T->max_pieces ? T : NULL;
    Py_RETURN_NONE;
}

static PyObject *searcher_endgame_hits(SearcherObject *self, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromUnsignedLongLong(self->s->eg_hits);
}

/* ---------------------------------------------------------------------------------------------------
 * The type
 * ------------------------------------------------------------------------------------------------- */
static void searcher_dealloc(SearcherObject *self) {
    smp_free(&self->smp);
    if (self->s) {
        search_free(self->s);
        PyMem_RawFree(self->s);
    }
    ml_free(&self->root);
    PyMem_RawFree(self->eg);
    Py_XDECREF(self->eg_refs);
    Py_XDECREF(self->err.rules_error);
    Py_XDECREF(self->err.invalid_square);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int opt_int(PyObject *options, const char *key, long lo, long hi, long *out) { return dp_int(options, key, lo, hi, out); }

static PyObject *searcher_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"rules_params", "eval_params", "options", NULL};
    PyObject *rp, *ep, *opts;
    long x;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO!", kwlist, &rp, &ep, &PyDict_Type, &opts)) return NULL;
    SearcherObject *self = (SearcherObject *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    self->s = (Search *)PyMem_RawCalloc(1, sizeof(Search));
    if (!self->s) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    Search *s = self->s;
    if (rules_from_params(&s->R, rp) || eval_from_params(&s->E, s->R.n, ep) || dc_errors_load(&self->err)) {
        Py_DECREF(self);
        return NULL;
    }
    eval_finish(&s->E, &s->R);
    if (opt_int(opts, "tt_entries", 1024, 1L << 30, &x)) goto fail;
    size_t entries = (size_t)x;
    if (opt_int(opts, "no_move_loses", 0, 1, &x)) goto fail;
    s->no_move_loses = (int)x;
    if (opt_int(opts, "king_vs_single_man", 0, 1, &x)) goto fail;
    s->king_vs_single_man = (int)x;
    if (opt_int(opts, "endgame_rules", 0, 1, &x)) goto fail;
    s->endgame_rules = (int)x;
    if (opt_int(opts, "extend_single", 0, 1, &x)) goto fail;
    s->extend_single = (int)x;
    if (opt_int(opts, "reductions", 0, 1, &x)) goto fail;
    s->reductions = (int)x;
    if (opt_int(opts, "lmr", 0, 1, &x)) goto fail;
    s->lmr = (int)x;
    if (opt_int(opts, "lmr_divisor", 10, 10000, &x)) goto fail;
    s->lmr_divisor = (int)x;
    if (opt_int(opts, "probcut_margin", 0, 10000, &x)) goto fail;
    s->probcut_margin = (int)x;
    if (opt_int(opts, "probcut_reduction", 1, 16, &x)) goto fail;
    s->probcut_reduction = (int)x;
    if (opt_int(opts, "probcut_depth", 2, 64, &x)) goto fail;
    s->probcut_depth = (int)x;
    if (opt_int(opts, "aspiration", 0, 10000, &x)) goto fail;
    s->aspiration = (int)x;
    if (opt_int(opts, "history_malus", 0, 1, &x)) goto fail;
    s->history_malus = (int)x;
    lmr_init(s);
    if (opt_int(opts, "threads", 1, SMP_MAX_THREADS + 1, &x)) goto fail;
    int threads = (int)x;
    if (search_init(s, entries) || ml_init(&self->root, 0) || smp_init(&self->smp, s, threads - 1)) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static PyObject *searcher_repr(SearcherObject *self) {
    return PyUnicode_FromFormat("<engine._native.Searcher: %d squares, %zu table entries, %d threads>",
                                self->s->R.n, (size_t)(self->s->tt_mask + 1), self->smp.n + 1);
}

static int check_idle(SearcherObject *self) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the native searcher is already searching in another thread");
        return -1;
    }
    return 0;
}

static int py_stop(Search *s) {
    SearcherObject *self = (SearcherObject *)s->stop_ctx;
    PyEval_RestoreThread(self->ts);
    int stop = 1;
    PyObject *r = PyObject_CallNoArgs(self->stop_cb);
    if (!r) {
        self->stop_error = 1;
    } else {
        stop = PyObject_IsTrue(r);
        Py_DECREF(r);
        if (stop < 0) {
            self->stop_error = 1;
            stop = 1;
        }
    }
    self->ts = PyEval_SaveThread();
    return stop;
}

/* Position, game keys and counters shared by iterate() and score_moves(), after checking that the searcher
 * is idle and the depth and stop arguments are sound; the root moves go into self->root. */
static int parse_root(SearcherObject *self, PyObject *own, PyObject *opp, PyObject *kings, PyObject *color,
                      PyObject *game_keys, int quiet, int quiet_limit, int cp, int draw, int depth,
                      PyObject *stop, RootInfo *ri) {
    Search *s = self->s;
    if (check_idle(self)) return -1;
    if (depth < 1 || depth > S_MAX_PLY) {
        PyErr_Format(PyExc_ValueError, "search depth must be 1..%d, not %d", S_MAX_PLY, depth);
        return -1;
    }
    if (stop != Py_None && !PyCallable_Check(stop)) {
        PyErr_SetString(PyExc_TypeError, "stop must be a callable or None");
        return -1;
    }
    if (dc_position(&s->R, own, opp, kings, color, &ri->root, &self->err)) return -1;
    PyObject *fast = PySequence_Fast(game_keys, "game_keys must be a sequence of ints");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > S_MAX_GAME) n = S_MAX_GAME;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long k = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(fast, i));
        if (k == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        s->game_keys[i] = (uint64_t)k;
    }
    Py_DECREF(fast);
    s->ngame = (int)n;
    if (quiet < 0 || quiet_limit < 0 || cp < 0) {
        PyErr_SetString(PyExc_ValueError, "move counters must not be negative");
        return -1;
    }
    ri->cnt.quiet = quiet;
    ri->cnt.cp = cp;
    s->quiet_limit = quiet_limit;
    if (draw < -S_MATE_BOUND || draw > S_MATE_BOUND) {
        PyErr_Format(PyExc_ValueError, "a draw's score must be within +-%d, not %d", S_MATE_BOUND, draw);
        return -1;
    }
    s->draw_root = draw;
    int c = ri->root.turn;
    gen_legal(&s->R, ri->root.side[c], ri->root.side[1 - c], ri->root.kings, c, 0, &self->root);
    if (self->root.oom) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Keep only the root moves named in `only` (a sequence of (from, to, captured) in padded squares). */
static int filter_root(SearcherObject *self, PyObject *only) {
    if (only == Py_None) return 0;
    const Rules *R = &self->s->R;
    PyObject *fast = PySequence_Fast(only, "root moves must be a sequence of (from, to, captured)");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int k = 0;
    for (int i = 0; i < self->root.n; i++) {
        DMove *m = &self->root.m[i];
        int keep = 0;
        for (Py_ssize_t j = 0; j < n && !keep; j++) {
            long f, t;
            PyObject *cap;
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, j), "llO", &f, &t, &cap)) {
                Py_DECREF(fast);
                return -1;
            }
            if (f != R->sq_pad[m->from] || t != R->sq_pad[m->to]) continue;
            bb_t c;
            if (dc_from_pyint(R, cap, &c, "captured", &self->err)) {
                Py_DECREF(fast);
                return -1;
            }
            keep = bb_eq(c, m->cap);
        }
        if (keep) self->root.m[k++] = *m;
    }
    self->root.n = k;
    Py_DECREF(fast);
    return 0;
}

static PyObject *move_tuple(const Rules *R, const DMove *m) {
    return Py_BuildValue("(iiN)", R->sq_pad[m->from], R->sq_pad[m->to], dc_to_pyint(R, m->cap));
}

/* Run fn with the GIL released and the stop callable installed. */
#define RUN_SEARCH(self, stop, body)                                  \
    do {                                                              \
        (self)->busy = 1;                                             \
        (self)->stop_error = 0;                                       \
        (self)->stop_cb = (stop) == Py_None ? NULL : (stop);          \
        (self)->s->stop_fn = (self)->stop_cb ? py_stop : NULL;        \
        (self)->s->stop_ctx = (self);                                 \
        (self)->ts = PyEval_SaveThread();                             \
        body;                                                         \
        PyEval_RestoreThread((self)->ts);                             \
        (self)->stop_cb = NULL;                                       \
        (self)->busy = 0;                                             \
    } while (0)

static PyObject *searcher_iterate(SearcherObject *self, PyObject *args) {
    PyObject *own, *opp, *kings, *color, *game_keys, *stop, *only;
    int quiet, quiet_limit, cp, draw, depth, guess = 0;
    double seconds;
    unsigned long long node_limit;
    RootInfo ri;
    RootResult res;
    if (!PyArg_ParseTuple(args, "OOOOOiiiiidKOO|i", &own, &opp, &kings, &color, &game_keys, &quiet, &quiet_limit,
                          &cp, &draw, &depth, &seconds, &node_limit, &stop, &only, &guess))
        return NULL;
    if (parse_root(self, own, opp, kings, color, game_keys, quiet, quiet_limit, cp, draw, depth, stop, &ri))
        return NULL;
    Search *s = self->s;
    if (filter_root(self, only)) return NULL;
    search_begin(s, seconds, (uint64_t)node_limit);
    res.completed = res.has_move = res.improved = 0;
    res.pv.n = 0;
    uint64_t helper_nodes = 0;
    if (self->root.n && self->smp.n)
        RUN_SEARCH(self, stop, helper_nodes = smp_iterate(&self->smp, s, &ri, &self->root, depth, guess, &res));
    else if (self->root.n)
        RUN_SEARCH(self, stop, root_search_from(s, &ri, &self->root, depth, guess, &res));
    if (self->stop_error) return NULL;
    PyObject *pv = PyList_New(0);
    if (!pv) return NULL;
    if (res.has_move && (res.completed || res.improved)) {
        for (int i = 0; i < res.pv.n; i++) {
            PyObject *t = move_tuple(&s->R, &res.pv.m[i]);
            if (!t || PyList_Append(pv, t)) {
                Py_XDECREF(t);
                Py_DECREF(pv);
                return NULL;
            }
            Py_DECREF(t);
        }
    }
    return Py_BuildValue("(OiNK)", res.completed || !self->root.n ? Py_True : Py_False, res.has_move ? res.score : 0,
                         pv, (unsigned long long)(s->nodes + helper_nodes));
}

static PyObject *searcher_score_moves(SearcherObject *self, PyObject *args) {
    PyObject *own, *opp, *kings, *color, *game_keys, *stop;
    int quiet, quiet_limit, cp, draw, depth, window;
    double seconds;
    RootInfo ri;
    if (!PyArg_ParseTuple(args, "OOOOOiiiiiidO", &own, &opp, &kings, &color, &game_keys, &quiet, &quiet_limit, &cp,
                          &draw, &depth, &window, &seconds, &stop))
        return NULL;
    if (parse_root(self, own, opp, kings, color, game_keys, quiet, quiet_limit, cp, draw, depth, stop, &ri))
        return NULL;
    Search *s = self->s;
    int *scores = (int *)PyMem_Malloc(sizeof(int) * (size_t)(self->root.n + 1));
    if (!scores) return PyErr_NoMemory();
    search_begin(s, seconds, 0);
    int rc = 0;
    RUN_SEARCH(self, stop, rc = score_root_moves(s, &ri, &self->root, depth, window, scores));
    if (self->stop_error) {
        PyMem_Free(scores);
        return NULL;
    }
    PyObject *out = rc ? (Py_INCREF(Py_None), Py_None) : PyList_New(self->root.n);
    for (int i = 0; out && out != Py_None && i < self->root.n; i++) {
        const DMove *m = &self->root.m[i];
        PyObject *t = Py_BuildValue("(iiNi)", s->R.sq_pad[m->from], s->R.sq_pad[m->to], dc_to_pyint(&s->R, m->cap),
                                    scores[i]);
        if (!t) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, t);
    }
    PyMem_Free(scores);
    if (!out) return NULL;
    return Py_BuildValue("(NK)", out, (unsigned long long)s->nodes);
}

static PyObject *searcher_hash_move(SearcherObject *self, PyObject *args) {
    PyObject *own, *opp, *kings, *color;
    Pos p;
    if (!PyArg_ParseTuple(args, "OOOO", &own, &opp, &kings, &color)) return NULL;
    if (check_idle(self)) return NULL;
    Search *s = self->s;
    if (dc_position(&s->R, own, opp, kings, color, &p, &self->err)) return NULL;
    TTEntry *e = tt_probe(s, pos_key(&s->R, &p));
    if (!e || e->from == DC_NONE) Py_RETURN_NONE;
    int c = p.turn;
    gen_legal(&s->R, p.side[c], p.side[1 - c], p.kings, c, 0, &self->root);
    for (int i = 0; i < self->root.n; i++)
        if (tt_move_is(e, &self->root.m[i])) return move_tuple(&s->R, &self->root.m[i]);
    Py_RETURN_NONE;
}

static PyObject *searcher_evaluate(SearcherObject *self, PyObject *args) {
    PyObject *own, *opp, *kings, *color;
    Pos p;
    if (!PyArg_ParseTuple(args, "OOOO", &own, &opp, &kings, &color)) return NULL;
    if (dc_position(&self->s->R, own, opp, kings, color, &p, &self->err)) return NULL;
    return PyLong_FromLong(evaluate(&self->s->R, &self->s->E, &p));
}

static PyObject *searcher_new_search(SearcherObject *self, PyObject *Py_UNUSED(ignored)) {
    if (check_idle(self)) return NULL;
    self->s->age++;
    Py_RETURN_NONE;
}

static PyObject *searcher_clear(SearcherObject *self, PyObject *Py_UNUSED(ignored)) {
    if (check_idle(self)) return NULL;
    search_clear(self->s);
    smp_clear(&self->smp);
    Py_RETURN_NONE;
}

static PyMethodDef searcher_methods[] = {
    {"iterate", (PyCFunction)searcher_iterate, METH_VARARGS,
     "iterate(own, opp, kings, color, game_keys, quiet, quiet_limit, plies_since_capture, draw, depth, seconds, "
     "node_limit, stop, root_moves[, guess]) -> (completed, score, pv, nodes): one iteration at the root (guess: the "
     "last iteration's score, where the aspiration window starts)"},
    {"score_moves", (PyCFunction)searcher_score_moves, METH_VARARGS,
     "score_moves(own, opp, kings, color, game_keys, quiet, quiet_limit, plies_since_capture, draw, depth, window, "
     "seconds, stop) -> ([(from, to, captured, score)] or None if stopped, nodes)"},
    {"hash_move", (PyCFunction)searcher_hash_move, METH_VARARGS,
     "hash_move(own, opp, kings, color) -> (from, to, captured) or None: the table's best move"},
    {"evaluate", (PyCFunction)searcher_evaluate, METH_VARARGS,
     "evaluate(own, opp, kings, color) -> static score for the side to move"},
    {"new_search", (PyCFunction)searcher_new_search, METH_NOARGS, "age the table's entries: a new search"},
    {"clear", (PyCFunction)searcher_clear, METH_NOARGS, "forget the table, killers and history"},
    {"set_endgames", (PyCFunction)searcher_set_endgames, METH_VARARGS,
     "set_endgames(options, {signature: packed bytes} or None): the endgame tables probed in the tree"},
    {"endgame_hits", (PyCFunction)searcher_endgame_hits, METH_NOARGS,
     "endgame_hits() -> how many nodes the endgame tables have scored since the searcher was made"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._native.Searcher",
    .tp_basicsize = sizeof(SearcherObject),
    .tp_dealloc = (destructor)searcher_dealloc,
    .tp_repr = (reprfunc)searcher_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Searcher(rules_params, eval_params, options): the compiled search of one variant.",
    .tp_methods = searcher_methods,
    .tp_new = searcher_new,
};

static PyMethodDef module_methods[] = {
    {"endgame_build", (PyCFunction)py_endgame_build, METH_VARARGS,
     "endgame_build(rules_params, options, signature, {signature: packed bytes}) -> packed bytes: one table "
     "by retrograde analysis (dendgame.h); every table a capture or promotion reaches must be given"},
    {"endgame_size", (PyCFunction)py_endgame_size, METH_VARARGS,
     "endgame_size(rules_params, signature) -> positions of the signature's table (both sides to move)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "engine._native",
    "Compiled alpha-beta search and evaluation over the native rules core.", -1, module_methods,
};

PyMODINIT_FUNC PyInit__native(void) {
    if (PyType_Ready(&SearcherType) < 0) return NULL;
    PyObject *m = PyModule_Create(&native_module);
    if (!m) return NULL;
    Py_INCREF(&SearcherType);
    if (PyModule_AddObject(m, "Searcher", (PyObject *)&SearcherType) < 0 ||
        PyModule_AddIntConstant(m, "MATE", S_MATE) < 0 || PyModule_AddIntConstant(m, "MAX_PLY", S_MAX_PLY) < 0 ||
        PyModule_AddIntConstant(m, "QUIESCENCE_PLIES", S_QPLIES) < 0) {
        Py_DECREF(&SearcherType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
