/* dendgame.h - endgame tables: win/draw/loss of every position of one material signature, by retrograde
 * analysis over the native rules core, and their probe in the search.
 *
 * engine/endgame.py is the reference (the same index, and a plain fixed-point builder the tests compare
 * with). A signature is (white men, white kings, black men, black kings); a position's index is the side
 * to move, then each group's squares ranked in the combinatorial number system over the group's domain
 * (men: every square but their own crowning squares, where a man never stands; kings: every square), in
 * mixed radix: ((((turn * Nwm + wm) * Nwk + wk) * Nbm + bm) * Nbk + bk). Indices whose groups overlap are
 * no position. Values are 2 bits, four to a byte, lowest bits first: 0 none, 1 win, 2 draw, 3 loss for the
 * side to move. The tables are pure: the game ends only when a side cannot move (or, with the Turkish rule,
 * a lone king faces a lone man); no move counter or repetition is known to them.
 *
 * The build: every position's successors are generated once; a capture or a promotion leaves the
 * signature and is looked up in a smaller (already built) table, a loss there is a win here, a draw there
 * is a way out; quiet moves stay in the signature and are counted. Decided positions then go through a
 * queue: each one's predecessors by a quiet move (unmoves, checked for a compulsory capture) are wins when
 * it is a loss, and lose one count when it is a win; a count reaching zero is a loss, or a draw when a way
 * out was seen. What is left undecided is a draw (neither side can force an end).
 */
#ifndef DENDGAME_H
#define DENDGAME_H

#include "dcore.h"

#define EG_MAXK 6                 /* pieces per group a table can hold (0..5) */
#define EG_NSIG (EG_MAXK * EG_MAXK * EG_MAXK * EG_MAXK)
#define EG_NONE 0
#define EG_WIN 1
#define EG_DRAW 2
#define EG_LOSS 3

static const int8_t EG_REVERSE[DC_NDIR] = {3, 2, 1, 0, 7, 6, 5, 4}; /* rules.geometry.REVERSE */

typedef struct {
    int n;
    int dom_n[4];                 /* group 0 white men, 1 white kings, 2 black men, 3 black kings */
    uint8_t dom[4][DC_MAXSQ];     /* domain index -> square */
    int16_t pos_in[4][DC_MAXSQ];  /* square -> domain index, -1 outside the domain */
    uint64_t binom[DC_MAXSQ + 1][EG_MAXK + 1];
} EgDomains;

typedef struct {
    EgDomains D;
    int no_move_loses, king_vs_man;
    int max_pieces;               /* the most pieces of any loaded table (0: none loaded) */
    const uint8_t *data[EG_NSIG]; /* packed tables by signature, NULL when not loaded */
    uint64_t size[EG_NSIG];
} EgTables;

static void eg_domains(const Rules *R, EgDomains *D) {
    memset(D, 0, sizeof *D);
    D->n = R->n;
    for (int g = 0; g < 4; g++) {
        int color = g >> 1, man = !(g & 1);
        for (int s = 0; s < R->n; s++) {
            if (man && bb_test(R->crown[color], s)) {
                D->pos_in[g][s] = -1;
                continue;
            }
            D->pos_in[g][s] = (int16_t)D->dom_n[g];
            D->dom[g][D->dom_n[g]++] = (uint8_t)s;
        }
    }
    for (int n = 0; n <= DC_MAXSQ; n++) {
        D->binom[n][0] = 1;
        for (int k = 1; k <= EG_MAXK; k++)
            D->binom[n][k] = n == 0 ? 0 : D->binom[n - 1][k - 1] + D->binom[n - 1][k];
    }
}

static inline int eg_sig(const int cnt[4]) {
    return ((cnt[0] * EG_MAXK + cnt[1]) * EG_MAXK + cnt[2]) * EG_MAXK + cnt[3];
}

static inline void eg_counts(const Pos *p, int cnt[4]) {
    for (int c = 0; c < 2; c++) {
        cnt[2 * c] = bb_count(bb_andnot(p->side[c], p->kings));
        cnt[2 * c + 1] = bb_count(bb_and(p->side[c], p->kings));
    }
}

/* Positions of a signature (both sides to move); 0 when a group does not fit its domain. */
static uint64_t eg_size(const EgDomains *D, const int cnt[4]) {
    uint64_t size = 2;
    for (int g = 0; g < 4; g++) {
        if (cnt[g] >= EG_MAXK) return 0;
        size *= D->binom[D->dom_n[g]][cnt[g]];
    }
    return size;
}

static inline bb_t eg_group(const Pos *p, int g) {
    bb_t side = p->side[g >> 1];
    return (g & 1) ? bb_and(side, p->kings) : bb_andnot(side, p->kings);
}

/* The index of `p` in its signature's table (cnt: its counts), or -1 when a man stands outside its domain. */
static int64_t eg_index(const EgDomains *D, const int cnt[4], const Pos *p) {
    uint64_t idx = (uint64_t)p->turn;
    for (int g = 0; g < 4; g++) {
        bb_t it = eg_group(p, g);
        uint64_t rank = 0;
        int i = 0;
        while (!bb_empty(it)) {
            int d = D->pos_in[g][bb_pop(&it)];
            if (d < 0) return -1;
            rank += D->binom[d][++i];
        }
        idx = idx * D->binom[D->dom_n[g]][cnt[g]] + rank;
    }
    return (int64_t)idx;
}

/* The position of index `idx`; -1 when two groups share a square (no position). */
static int eg_decode(const EgDomains *D, const int cnt[4], uint64_t idx, Pos *p) {
    uint64_t rank[4];
    for (int g = 3; g >= 0; g--) {
        uint64_t radix = D->binom[D->dom_n[g]][cnt[g]];
        rank[g] = idx % radix;
        idx /= radix;
    }
    p->turn = (int)idx;
    p->side[0] = p->side[1] = p->kings = BB_ZERO;
    bb_t occ = BB_ZERO;
    for (int g = 0; g < 4; g++) {
        uint64_t r = rank[g];
        int d = D->dom_n[g];
        for (int i = cnt[g]; i >= 1; i--) {
            do d--; while (D->binom[d][i] > r);
            r -= D->binom[d][i];
            bb_t b = bb_bit(D->dom[g][d]);
            if (bb_any(occ, b)) return -1;
            occ = bb_or(occ, b);
            p->side[g >> 1] = bb_or(p->side[g >> 1], b);
            if (g & 1) p->kings = bb_or(p->kings, b);
        }
    }
    return 0;
}

static inline int eg_get(const uint8_t *data, uint64_t i) { return (data[i >> 2] >> (2 * (i & 3))) & 3; }

/* A position decided by the rules alone: the side to move has no piece, or the Turkish lone king against a
 * lone man; EG_NONE when the game goes on. */
static int eg_rule_value(const EgTables *T, const Pos *p) {
    int me = p->turn;
    if (bb_empty(p->side[me])) return T->no_move_loses ? EG_LOSS : EG_WIN;
    if (T->king_vs_man) {
        for (int c = 0; c < 2; c++) {
            bb_t a = p->side[c], b = p->side[1 - c];
            if (bb_count(a) == 1 && bb_count(b) == 1 && bb_any(a, p->kings) && !bb_any(b, p->kings))
                return c == me ? EG_WIN : EG_LOSS;
        }
    }
    return EG_NONE;
}

/* The value of `p` for the side to move: by rule, else from a loaded table; EG_NONE when not known. */
static int eg_probe(const EgTables *T, const Pos *p) {
    int v = eg_rule_value(T, p);
    if (v) return v;
    int cnt[4];
    eg_counts(p, cnt);
    for (int g = 0; g < 4; g++)
        if (cnt[g] >= EG_MAXK) return EG_NONE;
    int sig = eg_sig(cnt);
    const uint8_t *data = T->data[sig];
    if (!data) return EG_NONE;
    int64_t idx = eg_index(&T->D, cnt, p);
    if (idx < 0 || (uint64_t)idx >= T->size[sig]) return EG_NONE;
    return eg_get(data, (uint64_t)idx);
}

#define EG_DRAWEXIT 0x80
#define EG_INVALID 4

/* Build the table of signature `cnt` into `out` (packed, eg_size/4 rounded up bytes, zeroed by the caller).
 * Every smaller table a capture or promotion reaches must be loaded in T. Returns 0, -1 when memory ran
 * out, -2 when a needed table is missing. `*decided_rounds` gets the number of queue passes. */
static int eg_build(const Rules *R, const EgTables *T, const int cnt[4], uint8_t *out) {
    const EgDomains *D = &T->D;
    uint64_t size = eg_size(D, cnt);
    uint8_t *val = (uint8_t *)calloc(size ? size : 1, 1);
    uint8_t *count = (uint8_t *)calloc(size ? size : 1, 1);
    uint32_t *queue = (uint32_t *)malloc(sizeof(uint32_t) * (size ? size : 1));
    MoveList ml;
    int rc = 0;
    if (!val || !count || !queue || ml_init(&ml, 0)) {
        rc = -1;
        goto done;
    }
    uint64_t qn = 0;
    for (uint64_t i = 0; i < size; i++) {
        Pos p;
        if (eg_decode(D, cnt, i, &p)) {
            val[i] = EG_INVALID;
            continue;
        }
        int v = eg_rule_value(T, &p);
        if (v) {
            val[i] = (uint8_t)v;
            queue[qn++] = (uint32_t)i;
            continue;
        }
        int c = p.turn;
        gen_legal(R, p.side[c], p.side[1 - c], p.kings, c, 0, &ml);
        if (ml.oom) {
            rc = -1;
            goto done;
        }
        if (ml.n == 0) {
            val[i] = T->no_move_loses ? EG_LOSS : EG_WIN;
            queue[qn++] = (uint32_t)i;
            continue;
        }
        int inside = 0, exit_draw = 0, win = 0;
        for (int j = 0; j < ml.n && !win; j++) {
            Pos q;
            make_move(&p, &ml.m[j], &q);
            int qc[4];
            eg_counts(&q, qc);
            if (qc[0] == cnt[0] && qc[1] == cnt[1] && qc[2] == cnt[2] && qc[3] == cnt[3]) {
                inside++;
                continue;
            }
            int w = eg_probe(T, &q);
            if (w == EG_NONE) {
                rc = -2;
                goto done;
            }
            if (w == EG_LOSS) win = 1;
            else if (w == EG_DRAW) exit_draw = 1;
        }
        if (win) {
            val[i] = EG_WIN;
            queue[qn++] = (uint32_t)i;
        } else if (inside == 0) {
            val[i] = exit_draw ? EG_DRAW : EG_LOSS;
            if (!exit_draw) queue[qn++] = (uint32_t)i;
        } else {
            count[i] = (uint8_t)(inside > 255 ? 255 : inside);
            if (exit_draw) val[i] = EG_DRAWEXIT;
        }
    }
    /* propagate through the quiet moves that lead into each decided position */
    for (uint64_t head = 0; head < qn; head++) {
        uint64_t i = queue[head];
        Pos p;
        eg_decode(D, cnt, i, &p);
        int lost = val[i] == EG_LOSS;
        int o = 1 - p.turn; /* the side that moved last */
        bb_t occ = bb_or(p.side[0], p.side[1]);
        bb_t pieces = p.side[o];
        while (!bb_empty(pieces)) {
            int s = bb_pop(&pieces);
            int king = bb_test(p.kings, s);
            int kind = king ? DIR_KING_MOVE : DIR_MAN_MOVE;
            for (int di = 0; di < R->ndirs[kind][o]; di++) {
                int d = R->dirs[kind][o][di];
                int back = EG_REVERSE[d];
                int t = king ? R->step[back][s] : R->adj[back][s];
                while (t != DC_NONE && !bb_test(occ, t)) {
                    /* a king's ray is a straight chain of steps (rules.native checks it), so each empty
                     * square behind it is a start; a man's step must lead back here, from off its crown */
                    int ok = king || (R->adj[d][t] == s && !bb_test(R->crown[o], t) && !bb_test(R->crown[o], s));
                    if (ok) {
                        Pos q = p;
                        bb_t move = bb_or(bb_bit(s), bb_bit(t));
                        q.side[o] = bb_xor(q.side[o], move);
                        if (king) q.kings = bb_xor(q.kings, move);
                        q.turn = o;
                        int64_t iq = eg_index(D, cnt, &q);
                        /* (decided first: it is cheaper than the capture test, and most are) */
                        if (iq >= 0 && (val[iq] & 0x7F) == EG_NONE) {
                            if (!has_capture(R, q.side[o], q.side[1 - o], q.kings, o)) {
                                uint8_t *vq = &val[iq];
                                {
                                    if (lost) {
                                        *vq = EG_WIN;
                                        queue[qn++] = (uint32_t)iq;
                                    } else if (count[iq] && --count[iq] == 0) {
                                        if (*vq & EG_DRAWEXIT) {
                                            *vq = EG_DRAW;
                                        } else {
                                            *vq = EG_LOSS;
                                            queue[qn++] = (uint32_t)iq;
                                        }
                                    }
                                }
                            }
                        }
                    }
                    if (!king || !R->king_flying) break;
                    t = R->step[back][t];
                }
            }
        }
    }
    for (uint64_t i = 0; i < size; i++) {
        int v = val[i] & 0x7F;
        if (v == EG_INVALID) continue;
        if (v == EG_NONE) v = EG_DRAW;
        out[i >> 2] |= (uint8_t)(v << (2 * (i & 3)));
    }
done:
    free(val);
    free(count);
    free(queue);
    ml_free(&ml);
    return rc;
}

#endif /* DENDGAME_H */
