/* deval.h - the static evaluation of engine/evaluation.py in C, over tables that the Python Evaluator builds
 * from its Weights (engine/native.py passes them in): the weights stay Python data, the terms are the same
 * and so are the scores, to the hundredth of a man.
 */
#ifndef DEVAL_H
#define DEVAL_H

#include "dcore.h"

#define EV_MAN 100

typedef struct {
    int giveaway, orthogonal;
    int32_t man_value[2][DC_MAXSQ];  /* material + advance + centre + back rank of a man */
    int32_t king_value[DC_MAXSQ];
    int mobility;                    /* weight of one free forward step of a man */
    bb_t zone[2];                    /* men that may be runaways */
    bb_t cone[2][DC_MAXSQ];          /* squares that must be free of enemies for a runaway */
    int32_t runaway[2][DC_MAXSQ];
    int backed, side, chase;         /* Turkish terms; king chase in won endings */
    uint8_t behind[2][DC_MAXSQ];     /* the square right behind (orthogonal), DC_NONE if none */
    uint8_t left[DC_MAXSQ], right[DC_MAXSQ];
    int8_t row[DC_MAXSQ], col[DC_MAXSQ];
    bb_t steps[2][DC_MAXSQ];         /* giveaway: a man's forward steps */
    bb_t mob[2][DC_MAXSQ];           /* a man's quiet-move targets (eval_finish) */
} Eval;

/* Tables derived from the rules once both are read. */
static void eval_finish(Eval *E, const Rules *R) {
    for (int c = 0; c < 2; c++)
        for (int s = 0; s < R->n; s++) {
            E->mob[c][s] = BB_ZERO;
            for (int i = 0; i < R->ndirs[DIR_MAN_MOVE][c]; i++) {
                int t = R->adj[R->dirs[DIR_MAN_MOVE][c][i]][s];
                if (t != DC_NONE) E->mob[c][s] = bb_or(E->mob[c][s], bb_bit(t));
            }
        }
}

static int king_distance(const Eval *E, bb_t kings, bb_t enemy) {
    if (bb_empty(enemy)) return 0;
    int total = 0;
    while (!bb_empty(kings)) {
        int s = bb_pop(&kings);
        int best = 1 << 20;
        bb_t it = enemy;
        while (!bb_empty(it)) {
            int t = bb_pop(&it);
            int dr = abs(E->row[s] - E->row[t]), dc = abs(E->col[s] - E->col[t]);
            int d = dr > dc ? dr : dc;
            if (d < best) best = d;
        }
        total += best;
    }
    return total;
}

static int evaluate_giveaway(const Rules *R, const Eval *E, const Pos *p) {
    (void)R;
    bb_t occ = bb_or(p->side[0], p->side[1]);
    int count[2], mob[2];
    for (int c = 0; c < 2; c++) {
        count[c] = bb_count(p->side[c]) + bb_count(bb_and(p->side[c], p->kings));
        mob[c] = 0;
        bb_t men = bb_andnot(p->side[c], p->kings);
        while (!bb_empty(men)) mob[c] += bb_count(bb_andnot(E->steps[c][bb_pop(&men)], occ));
    }
    int me = p->turn;
    return EV_MAN * (count[1 - me] - count[me]) + 3 * (mob[1 - me] - mob[me]);
}

/* Score for the side to move (Evaluator.evaluate). */
static int evaluate(const Rules *R, const Eval *E, const Pos *p) {
    if (E->giveaway) return evaluate_giveaway(R, E, p);
    bb_t empty = bb_andnot(R->mask, bb_or(p->side[0], p->side[1]));
    int score[2], count[2];
    for (int c = 0; c < 2; c++) {
        bb_t own = p->side[c];
        bb_t men = bb_andnot(own, p->kings);
        bb_t own_kings = bb_and(own, p->kings);
        bb_t enemy = p->side[1 - c];
        int total = 0, mobility = 0;
        const int32_t *man_value = E->man_value[c];
        const bb_t *mob = E->mob[c];
        bb_t it = men;
        while (!bb_empty(it)) {
            int s = bb_pop(&it);
            total += man_value[s];
            mobility += bb_count(bb_and(mob[s], empty));
            if (E->orthogonal) {
                int b = E->behind[c][s];
                if (b != DC_NONE && bb_test(own, b)) total += E->backed;
                if (E->left[s] != DC_NONE && bb_test(own, E->left[s])) total += E->side;
                if (E->right[s] != DC_NONE && bb_test(own, E->right[s])) total += E->side;
            }
        }
        it = own_kings;
        while (!bb_empty(it)) total += E->king_value[bb_pop(&it)];
        total += E->mobility * mobility;
        bb_t near = bb_and(men, E->zone[c]);
        if (!bb_empty(near) && !bb_any(enemy, p->kings)) {
            while (!bb_empty(near)) {
                int s = bb_pop(&near);
                if (!bb_any(enemy, E->cone[c][s])) total += E->runaway[c][s];
            }
        }
        score[c] = total;
        count[c] = bb_count(own);
    }
    int pieces = count[0] + count[1];
    if (pieces <= 10) {
        int diff = score[0] - score[1];
        int ahead = diff > 0 ? 0 : 1;
        int adiff = diff < 0 ? -diff : diff;
        if (pieces <= 8) score[ahead] += adiff / (4 * (pieces > 1 ? pieces : 1));
        bb_t ahead_kings = bb_and(p->side[ahead], p->kings);
        if (adiff >= EV_MAN / 2 && !bb_empty(ahead_kings))
            score[ahead] -= E->chase * king_distance(E, ahead_kings, p->side[1 - ahead]);
    }
    int me = p->turn;
    return score[me] - score[1 - me];
}

#endif /* DEVAL_H */
