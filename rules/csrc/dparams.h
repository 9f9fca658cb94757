/* dparams.h - fill a Rules table from the parameter dict built by rules/native.py, and convert between
 * the Python core's padded-int bitboards and the dense native ones. Shared by both extensions.
 */
#ifndef DPARAMS_H
#define DPARAMS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "dcore.h"

/* The rules core's error classes (rules.errors), looked up once per extension. */
typedef struct {
    PyObject *rules_error;
    PyObject *invalid_square;
} DcErrors;

static int dc_errors_load(DcErrors *e) {
    PyObject *mod = PyImport_ImportModule("rules.errors");
    if (!mod) return -1;
    e->rules_error = PyObject_GetAttrString(mod, "RulesError");
    e->invalid_square = PyObject_GetAttrString(mod, "InvalidSquareError");
    Py_DECREF(mod);
    if (!e->rules_error || !e->invalid_square) return -1;
    return 0;
}

static PyObject *dp_item(PyObject *params, const char *key) {
    PyObject *v = PyDict_GetItemString(params, key); /* borrowed */
    if (!v) PyErr_Format(PyExc_KeyError, "native rules parameters: missing %s", key);
    return v;
}

static int dp_int(PyObject *params, const char *key, long lo, long hi, long *out) {
    PyObject *v = dp_item(params, key);
    if (!v) return -1;
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (x < lo || x > hi) {
        PyErr_Format(PyExc_ValueError, "native rules parameters: %s = %ld, expected %ld..%ld", key, x, lo, hi);
        return -1;
    }
    *out = x;
    return 0;
}

/* A sequence of small ints into out[0..len) (each in lo..hi); returns its length or -1. */
static Py_ssize_t dp_ints(PyObject *seq, const char *what, long lo, long hi, long *out, Py_ssize_t maxlen) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > maxlen) {
        PyErr_Format(PyExc_ValueError, "native rules parameters: %s has %zd items, at most %zd", what, n, maxlen);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (x < lo || x > hi) {
            PyErr_Format(PyExc_ValueError, "native rules parameters: %s[%zd] = %ld, expected %ld..%ld", what, i,
                         x, lo, hi);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = x;
    }
    Py_DECREF(fast);
    return n;
}

/* A sequence of `count` sequences (item i of the outer one into a row of out). */
static int dp_rows(PyObject *seq, const char *what, Py_ssize_t count, long lo, long hi, long *out,
                   Py_ssize_t width, Py_ssize_t *lens) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        PyErr_Format(PyExc_ValueError, "native rules parameters: %s needs %zd rows", what, count);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_ssize_t n = dp_ints(PySequence_Fast_GET_ITEM(fast, i), what, lo, hi, out + i * width, width);
        if (n < 0) {
            Py_DECREF(fast);
            return -1;
        }
        if (lens) lens[i] = n;
    }
    Py_DECREF(fast);
    return 0;
}

static int dp_square_table(PyObject *params, const char *key, int n, uint8_t table[DC_NDIR][DC_MAXSQ]) {
    PyObject *v = dp_item(params, key);
    long buf[DC_NDIR * DC_MAXSQ];
    Py_ssize_t lens[DC_NDIR];
    if (!v || dp_rows(v, key, DC_NDIR, -1, n - 1, buf, DC_MAXSQ, lens)) return -1;
    for (int d = 0; d < DC_NDIR; d++) {
        if (lens[d] != n) {
            PyErr_Format(PyExc_ValueError, "native rules parameters: %s rows need %d squares", key, n);
            return -1;
        }
        for (int s = 0; s < n; s++) table[d][s] = buf[d * DC_MAXSQ + s] < 0 ? DC_NONE : (uint8_t)buf[d * DC_MAXSQ + s];
    }
    return 0;
}

/* Fill R from the dict of rules.native.rules_params(variant). */
static int rules_from_params(Rules *R, PyObject *params) {
    long x;
    long buf[DC_NDIR * DC_MAXSQ];
    if (!PyDict_Check(params)) {
        PyErr_SetString(PyExc_TypeError, "native rules parameters must be a dict");
        return -1;
    }
    memset(R, 0, sizeof *R);
    if (dp_int(params, "n", 1, DC_MAXSQ, &x)) return -1;
    R->n = (int)x;
    if (dp_int(params, "pad_size", 1, 192, &x)) return -1;
    R->pad_size = (int)x;
    PyObject *v = dp_item(params, "squares");
    if (!v) return -1;
    Py_ssize_t got = dp_ints(v, "squares", 0, R->pad_size - 1, buf, DC_MAXSQ);
    if (got < 0) return -1;
    if (got != R->n) {
        PyErr_SetString(PyExc_ValueError, "native rules parameters: squares must list n squares");
        return -1;
    }
    for (int i = 0; i < 192; i++) R->pad2dense[i] = -1;
    R->mask = BB_ZERO;
    for (int i = 0; i < R->n; i++) {
        R->sq_pad[i] = (int)buf[i];
        if (i && buf[i] <= buf[i - 1]) {
            PyErr_SetString(PyExc_ValueError, "native rules parameters: squares must ascend");
            return -1;
        }
        R->pad2dense[buf[i]] = (int16_t)i;
        R->mask = bb_or(R->mask, bb_bit(i));
    }
    if (dp_square_table(params, "adj", R->n, R->adj) || dp_square_table(params, "step", R->n, R->step)) return -1;
    v = dp_item(params, "dirs");
    if (!v) return -1;
    {
        PyObject *fast = PySequence_Fast(v, "dirs");
        if (!fast) return -1;
        if (PySequence_Fast_GET_SIZE(fast) != 4) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "native rules parameters: dirs needs 4 kinds");
            return -1;
        }
        for (int kind = 0; kind < 4; kind++) {
            Py_ssize_t lens[2];
            if (dp_rows(PySequence_Fast_GET_ITEM(fast, kind), "dirs", 2, 0, DC_NDIR - 1, buf, DC_NDIR, lens)) {
                Py_DECREF(fast);
                return -1;
            }
            for (int c = 0; c < 2; c++) {
                R->ndirs[kind][c] = (uint8_t)lens[c];
                for (int i = 0; i < lens[c]; i++) R->dirs[kind][c][i] = (uint8_t)buf[c * DC_NDIR + i];
            }
        }
        Py_DECREF(fast);
    }
    {
        Py_ssize_t lens[2];
        v = dp_item(params, "crown");
        if (!v || dp_rows(v, "crown", 2, 0, R->n - 1, buf, DC_MAXSQ, lens)) return -1;
        for (int c = 0; c < 2; c++) {
            R->crown[c] = BB_ZERO;
            for (int i = 0; i < lens[c]; i++) R->crown[c] = bb_or(R->crown[c], bb_bit((int)buf[c * DC_MAXSQ + i]));
        }
    }
    if (dp_int(params, "man_long", 0, 1, &x)) return -1;
    R->man_long = (int)x;
    if (dp_int(params, "king_flying", 0, 1, &x)) return -1;
    R->king_flying = (int)x;
    if (dp_int(params, "king_mode", 0, 3, &x)) return -1;
    R->king_mode = (int)x;
    if (dp_int(params, "removal_end", 0, 1, &x)) return -1;
    R->removal_end = (int)x;
    if (dp_int(params, "mid", 0, 2, &x)) return -1;
    R->mid = (int)x;
    if (dp_int(params, "man_takes_kings", 0, 1, &x)) return -1;
    R->man_takes_kings = (int)x;
    if (dp_int(params, "partial", 0, 1, &x)) return -1;
    R->partial = (int)x;
    if (dp_int(params, "land_to_continue", 0, 1, &x)) return -1;
    R->land_to_continue = (int)x;
    v = dp_item(params, "rev");
    if (!v) return -1;
    got = dp_ints(v, "rev", -1, DC_NDIR - 1, buf, DC_NDIR + 1);
    if (got < 0) return -1;
    if (got != DC_NDIR + 1) {
        PyErr_SetString(PyExc_ValueError, "native rules parameters: rev needs 9 entries");
        return -1;
    }
    for (int i = 0; i <= DC_NDIR; i++) R->rev[i] = (int8_t)buf[i];
    v = dp_item(params, "precedence");
    if (!v) return -1;
    got = dp_ints(v, "precedence", 0, 3, buf, DC_MAXPREC);
    if (got < 0) return -1;
    R->nprec = (int)got;
    for (int i = 0; i < got; i++) R->prec[i] = (uint8_t)buf[i];
    v = dp_item(params, "zobrist");
    if (!v) return -1;
    {
        PyObject *fast = PySequence_Fast(v, "zobrist");
        if (!fast) return -1;
        if (PySequence_Fast_GET_SIZE(fast) != 4) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "native rules parameters: zobrist needs 4 rows");
            return -1;
        }
        for (int k = 0; k < 4; k++) {
            PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, k), "zobrist row");
            if (!row) {
                Py_DECREF(fast);
                return -1;
            }
            if (PySequence_Fast_GET_SIZE(row) != R->n) {
                Py_DECREF(row);
                Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError, "native rules parameters: zobrist rows need n keys");
                return -1;
            }
            for (int s = 0; s < R->n; s++) {
                unsigned long long z = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(row, s));
                if (z == (unsigned long long)-1 && PyErr_Occurred()) {
                    Py_DECREF(row);
                    Py_DECREF(fast);
                    return -1;
                }
                R->zob[k][s] = (uint64_t)z;
            }
            Py_DECREF(row);
        }
        Py_DECREF(fast);
    }
    v = dp_item(params, "zturn");
    if (!v) return -1;
    {
        unsigned long long z = PyLong_AsUnsignedLongLong(v);
        if (z == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        R->zturn = (uint64_t)z;
    }
    rules_finish(R);
    return 0;
}

/* ---------------------------------------------------------------------------------------------------
 * Python int bitboards (padded bit indices) <-> dense bitboards
 * ------------------------------------------------------------------------------------------------- */
#define DC_PADWORDS 3

/* The low 192 bits of a non-negative int, or -1 with an error set. */
static int dc_long_words(PyObject *v, uint64_t w[DC_PADWORDS], const char *what, const DcErrors *err) {
    unsigned char bytes[8 * DC_PADWORDS];
    if (!PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int bitboard, not %.80s", what, Py_TYPE(v)->tp_name);
        return -1;
    }
    PyObject *zero = PyLong_FromLong(0);
    int negative = zero ? PyObject_RichCompareBool(v, zero, Py_LT) : -1;
    Py_XDECREF(zero);
    if (negative < 0) return -1;
    if (negative) {
        PyErr_Format(err->invalid_square, "%s bitboard is negative", what);
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(v, bytes, sizeof bytes,
                                           Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
    if (need < 0) return -1;
    if ((size_t)need > sizeof bytes) {
        PyErr_Format(err->invalid_square, "%s bitboard has bits beyond the board", what);
        return -1;
    }
#else
    if (_PyLong_AsByteArray((PyLongObject *)v, bytes, sizeof bytes, 1, 0) < 0) {
        PyErr_Clear();
        PyErr_Format(err->invalid_square, "%s bitboard has bits beyond the board", what);
        return -1;
    }
#endif
    for (int i = 0; i < DC_PADWORDS; i++) {
        uint64_t x = 0;
        for (int b = 7; b >= 0; b--) x = (x << 8) | bytes[8 * i + b];
        w[i] = x;
    }
    return 0;
}

/* A padded Python int bitboard as a dense one; InvalidSquareError for a bit on no playing square. */
static int dc_from_pyint(const Rules *R, PyObject *v, bb_t *out, const char *what, const DcErrors *err) {
    uint64_t w[DC_PADWORDS];
    if (dc_long_words(v, w, what, err)) return -1;
    bb_t r = BB_ZERO;
    for (int i = 0; i < DC_PADWORDS; i++) {
        while (w[i]) {
            int b = 64 * i + dc_ctz64(w[i]);
            w[i] &= w[i] - 1;
            int d = b < R->pad_size ? R->pad2dense[b] : -1;
            if (d < 0) {
                PyErr_Format(err->invalid_square, "%s bitboard: bit %d is not a playing square index of this board",
                             what, b);
                return -1;
            }
            r = bb_or(r, bb_bit(d));
        }
    }
    *out = r;
    return 0;
}

/* A dense bitboard as a padded Python int. */
static PyObject *dc_to_pyint(const Rules *R, bb_t b) {
    uint64_t w[DC_PADWORDS] = {0, 0, 0};
    while (!bb_empty(b)) {
        int p = R->sq_pad[bb_pop(&b)];
        w[p >> 6] |= (uint64_t)1 << (p & 63);
    }
    if (!w[1] && !w[2]) return PyLong_FromUnsignedLongLong(w[0]);
    PyObject *r = PyLong_FromUnsignedLongLong(w[2]);
    for (int i = 1; i >= 0 && r; i--) {
        PyObject *sh = PyLong_FromLong(64);
        PyObject *t = sh ? PyNumber_Lshift(r, sh) : NULL;
        Py_XDECREF(sh);
        Py_DECREF(r);
        if (!t) return NULL;
        PyObject *lo = PyLong_FromUnsignedLongLong(w[i]);
        r = lo ? PyNumber_Or(t, lo) : NULL;
        Py_XDECREF(lo);
        Py_DECREF(t);
    }
    return r;
}

/* (own, opp, kings, color) Python values (the side to move's pieces first) -> a Pos; RulesError for an
 * inconsistent position, InvalidSquareError for a bit on no playing square. */
static int dc_position(const Rules *R, PyObject *own, PyObject *opp, PyObject *k, PyObject *color, Pos *p,
                       const DcErrors *err) {
    if (!PyLong_Check(color)) {
        PyErr_Format(PyExc_TypeError, "color must be an int (rules.Color), not %.80s", Py_TYPE(color)->tp_name);
        return -1;
    }
    long c = PyLong_AsLong(color);
    if (c == -1 && PyErr_Occurred()) return -1;
    if (c != 0 && c != 1) {
        PyErr_Format(err->rules_error, "color must be 0 (white) or 1 (black), not %ld", c);
        return -1;
    }
    p->turn = (int)c;
    if (dc_from_pyint(R, own, &p->side[c], "own", err) || dc_from_pyint(R, opp, &p->side[1 - c], "opp", err) ||
        dc_from_pyint(R, k, &p->kings, "kings", err))
        return -1;
    if (bb_any(p->side[0], p->side[1])) {
        PyErr_SetString(err->rules_error, "white and black pieces share a square");
        return -1;
    }
    if (!bb_empty(bb_andnot(p->kings, bb_or(p->side[0], p->side[1])))) {
        PyErr_SetString(err->rules_error, "the kings bitboard marks an empty square");
        return -1;
    }
    return 0;
}

#endif /* DPARAMS_H */
