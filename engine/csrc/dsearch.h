/* dsearch.h - the engine's search in C: PVS with a transposition table, quiescence over the compulsory
 * captures, killers and history, late-move reductions, ProbCut, aspiration windows at the root, and each
 * variant's draw rules inside the tree
 * (repetition against the game and the path, the no-progress count, the FMJD 16/5-move endgame rule, the
 * Turkish king-versus-single-man win; a draw scores the root side's contempt, Searcher.draw_value).
 * engine/search.py is the readable reference of the same search; the iterative deepening and progress
 * reports stay in Python (engine/native.py) around root_search().
 * Needs POSIX clock_gettime (Python.h asks for it; a plain C program defines _POSIX_C_SOURCE first).
 */
#ifndef DSEARCH_H
#define DSEARCH_H

#include <stdatomic.h>
#include <time.h>

#include "dcore.h"
#include "deval.h"
#include "dendgame.h"

#define S_MATE 100000
#define S_MATE_BOUND (S_MATE - 1000)
#define S_INF (S_MATE + 1)
#define S_MAX_PLY 96
#define S_QPLIES 8
#define S_MAX_GAME 128
#define S_TABLE_WIN 50000 /* a won ending by the endgame tables (engine.endgame.TABLE_WIN), < S_MATE_BOUND */
#define S_TABLE_SPAN 5000 /* ... plus the evaluation within this, so that the winner makes progress */
#define S_EXACT 0
#define S_LOWER 1
#define S_UPPER 2

/* 16 bytes: four to a 64-byte bucket, one cache line per probe */
typedef struct {
    uint32_t check; /* the key's high half (the low bits chose the bucket) */
    int32_t score;
    uint16_t caph;  /* the best move: from, to and a hash of its captured set */
    int8_t depth;
    uint8_t flag, from, to, age, unused;
} TTEntry;

#define TT_BUCKET 4

typedef struct {
    uint8_t from, to, valid;
    uint16_t caph;
} MoveRef;

typedef struct {
    DMove m[S_MAX_PLY + 2];
    int n;
} PvLine;

typedef struct Search Search;
typedef int (*StopFn)(Search *s); /* nonzero: stop now */

struct Search {
    Rules R;
    Eval E;
    /* options */
    int no_move_loses, king_vs_single_man, endgame_rules, extend_single, reductions;
    /* selectivity (engine.native.Selectivity): late-move reductions by table, ProbCut, root aspiration */
    int lmr, lmr_divisor, probcut_margin, probcut_reduction, probcut_depth, aspiration;
    int history_malus; /* ordering: the quiet moves tried before a cutoff lose what the cutting one gains */
    int8_t lmr_table[64][64];
    /* tables kept between searches */
    TTEntry *tt;
    size_t tt_mask;
    uint8_t age;
    int32_t history[DC_MAXSQ][DC_MAXSQ];
    MoveRef killers[S_MAX_PLY + 2][2];
    MoveList lists[S_MAX_PLY + 2];
    /* one search */
    uint64_t nodes, node_limit, next_check;
    double deadline;
    int aborted;
    StopFn stop_fn;
    void *stop_ctx;
    int checks;
    uint64_t game_keys[S_MAX_GAME];
    int ngame;
    uint64_t path[S_MAX_PLY + 2];
    int quiet_limit;           /* no-progress draw in plies, 0 when off */
    int draw_root;             /* a draw by rule for the side to move at the root (contempt, Searcher.draw_value) */
    int extension_plies;
    atomic_int *stop_flag; /* a helper thread of the parallel search: stop when set (NULL: the main search) */
    PvLine pv[S_MAX_PLY + 2];
    const EgTables *eg;        /* endgame tables probed below the root (NULL: none) */
    uint64_t eg_hits;
};

static double s_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline uint16_t cap_hash(bb_t cap) {
    uint64_t h = cap.lo * 0x9E3779B97F4A7C15ULL ^ cap.hi * 0xC2B2AE3D27D4EB4FULL;
    return (uint16_t)(h >> 48);
}

static inline int ref_is(const MoveRef *r, const DMove *m) {
    return r->valid && r->from == m->from && r->to == m->to && r->caph == cap_hash(m->cap);
}

static int search_init(Search *s, size_t tt_entries) {
    size_t n = 64;
    while (n < tt_entries) n <<= 1;
    s->tt = (TTEntry *)aligned_alloc(64, n * sizeof(TTEntry));
    if (!s->tt) return -1;
    memset(s->tt, 0, n * sizeof(TTEntry));
    s->tt_mask = n - 1;
    for (int i = 0; i < S_MAX_PLY + 2; i++)
        if (ml_init(&s->lists[i], 0)) return -1;
    return 0;
}

/* The natural logarithm of x >= 1 without libm (the plain C harness links none): halve to [1, 2), then
 * the atanh series, which converges fast there. */
static double s_ln(double x) {
    int k = 0;
    while (x >= 2.0) {
        x /= 2.0;
        k++;
    }
    double y = (x - 1.0) / (x + 1.0), y2 = y * y, term = y, sum = 0.0;
    for (int n = 1; n < 40; n += 2) {
        sum += term / n;
        term *= y2;
    }
    return k * 0.6931471805599453 + 2.0 * sum;
}

/* Late-move reductions by depth and move number: ln(depth) * ln(move) * 100 / lmr_divisor, rounded. */
static void lmr_init(Search *s) {
    for (int d = 0; d < 64; d++)
        for (int i = 0; i < 64; i++) {
            double r = d && i ? s_ln((double)d) * s_ln((double)i) * 100.0 / s->lmr_divisor + 0.5 : 0.0;
            s->lmr_table[d][i] = (int8_t)(r > 60 ? 60 : r);
        }
}

static void search_free(Search *s) {
    free(s->tt);
    s->tt = NULL;
    for (int i = 0; i < S_MAX_PLY + 2; i++) ml_free(&s->lists[i]);
}

static void search_clear(Search *s) {
    memset(s->tt, 0, sizeof(TTEntry) * (s->tt_mask + 1));
    memset(s->history, 0, sizeof s->history);
    memset(s->killers, 0, sizeof s->killers);
    s->age = 0;
}

/* ---------------------------------------------------------------------------------------------------
 * Transposition table: two slots per index, same key first, else the shallower or older one is replaced.
 * ------------------------------------------------------------------------------------------------- */
static inline int to_tt(int score, int ply) {
    if (score >= S_MATE_BOUND) return score + ply;
    if (score <= -S_MATE_BOUND) return score - ply;
    return score;
}
static inline int from_tt(int score, int ply) {
    if (score >= S_MATE_BOUND) return score - ply;
    if (score <= -S_MATE_BOUND) return score + ply;
    return score;
}

static inline TTEntry *tt_bucket(const Search *s, uint64_t key) {
    return &s->tt[(size_t)key & s->tt_mask & ~(size_t)(TT_BUCKET - 1)];
}

static inline TTEntry *tt_probe(Search *s, uint64_t key) {
    TTEntry *b = tt_bucket(s, key);
    uint32_t check = (uint32_t)(key >> 32);
    for (int i = 0; i < TT_BUCKET; i++)
        if (b[i].check == check && b[i].flag) return &b[i];
    return NULL;
}

static inline void tt_prefetch(const Search *s, uint64_t key) {
#if defined(DC_BUILTINS)
    __builtin_prefetch(tt_bucket(s, key));
#else
    (void)s;
    (void)key;
#endif
}

/* The same key's slot, else the shallowest of the bucket (entries of older searches count as shallower).
 * flag is stored + 1 so that a zeroed slot reads as empty. */
static inline void tt_store(Search *s, uint64_t key, int depth, int flag, int score, const DMove *best) {
    TTEntry *b = tt_bucket(s, key), *e = NULL;
    uint32_t check = (uint32_t)(key >> 32);
    int worst = 1 << 30;
    for (int i = 0; i < TT_BUCKET; i++) {
        if (b[i].check == check && b[i].flag) {
            e = &b[i];
            break;
        }
        int value = b[i].flag ? b[i].depth - (b[i].age != s->age ? 128 : 0) : -1000;
        if (value < worst) {
            worst = value;
            e = &b[i];
        }
    }
    e->check = check;
    e->score = score;
    e->depth = (int8_t)(depth > 127 ? 127 : depth);
    e->flag = (uint8_t)(flag + 1);
    e->age = s->age;
    if (best) {
        e->from = best->from;
        e->to = best->to;
        e->caph = cap_hash(best->cap);
    } else {
        e->from = e->to = DC_NONE;
        e->caph = 0;
    }
}

static inline int tt_move_is(const TTEntry *e, const DMove *m) {
    return e && e->from == m->from && e->to == m->to && e->caph == cap_hash(m->cap);
}

/* ---------------------------------------------------------------------------------------------------
 * Rules of the game inside the tree
 * ------------------------------------------------------------------------------------------------- */
/* The FMJD endgame rule's limit in moves each for the material on the board (16, 5 or 0 for none). */
static int endgame_limit(const Pos *p) {
    int k[2], m[2];
    for (int c = 0; c < 2; c++) {
        k[c] = bb_count(bb_and(p->side[c], p->kings));
        m[c] = bb_count(bb_andnot(p->side[c], p->kings));
    }
    for (int weak = 0; weak < 2; weak++) {
        int strong = 1 - weak;
        if (k[weak] != 1 || m[weak] != 0) continue;
        int ks = k[strong], ms = m[strong];
        if ((ks == 3 && ms == 0) || (ks == 2 && ms == 1) || (ks == 1 && ms == 2)) return 16;
        if ((ks == 2 && ms == 0) || (ks == 1 && ms == 1) || (ks == 1 && ms == 0)) return 5;
    }
    return 0;
}

/* Turkish: a lone king against a lone man wins; +1 the side to move wins, -1 it loses, 0 neither. */
static int king_vs_man(const Pos *p) {
    int me = p->turn;
    for (int c = 0; c < 2; c++) {
        bb_t a = p->side[c], b = p->side[1 - c];
        if (bb_count(a) == 1 && bb_count(b) == 1 && bb_any(a, p->kings) && !bb_any(b, p->kings))
            return c == me ? 1 : -1;
    }
    return 0;
}

/* A position of the path or of the game repeats; only positions since the last capture or promotion (both
 * irreversible) can, so the scan stops there (`since` plies back). */
static int is_repetition(const Search *s, uint64_t key, int ply, int since) {
    int stop = ply - since;
    for (int i = ply - 2; i >= 0 && i >= stop; i -= 2)
        if (s->path[i] == key) return 1;
    if (stop <= 0)
        for (int i = 0; i < s->ngame; i++)
            if (s->game_keys[i] == key) return 1;
    return 0;
}

static int check_abort(Search *s) {
    if (s->node_limit && s->nodes >= s->node_limit) return s->aborted = 1;
    if (s->nodes >= s->next_check) {
        s->next_check = s->nodes + 1024;
        if (s->stop_flag && atomic_load_explicit(s->stop_flag, memory_order_relaxed)) return s->aborted = 1;
        if (s_now() > s->deadline) return s->aborted = 1;
        if (s->stop_fn && ++s->checks % 16 == 0 && s->stop_fn(s)) return s->aborted = 1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------------
 * Move ordering: hash move, captures by size, promotions, killers, history (Searcher._order)
 * ------------------------------------------------------------------------------------------------- */
static void score_moves(Search *s, MoveList *ml, const TTEntry *hash, int ply) {
    const MoveRef *k = s->killers[ply];
    for (int i = 0; i < ml->n; i++) {
        DMove *m = &ml->m[i];
        int r;
        if (tt_move_is(hash, m)) {
            r = 1 << 30;
        } else {
            r = m->ncap * 1000000 + (m->promo ? 500000 : 0);
            if (ref_is(&k[0], m))
                r += 400000;
            else if (ref_is(&k[1], m))
                r += 300000;
            int h = s->history[m->from][m->to];
            r += h < 200000 ? h : 200000;
        }
        m->score = r;
    }
}

/* Bring the best remaining move to position i (stable: the first of equal scores). */
static inline void pick_move(MoveList *ml, int i) {
    int best = i;
    for (int j = i + 1; j < ml->n; j++)
        if (ml->m[j].score > ml->m[best].score) best = j;
    if (best != i) {
        DMove t = ml->m[best];
        memmove(&ml->m[i + 1], &ml->m[i], sizeof(DMove) * (size_t)(best - i));
        ml->m[i] = t;
    }
}

static void note_cutoff(Search *s, const DMove *m, int ply, int depth) {
    if (m->ncap) return;
    MoveRef *k = s->killers[ply];
    if (!ref_is(&k[0], m)) {
        k[1] = k[0];
        k[0].from = m->from;
        k[0].to = m->to;
        k[0].caph = cap_hash(m->cap);
        k[0].valid = 1;
    }
    int32_t *h = &s->history[m->from][m->to];
    int d2 = depth > 0 ? depth * depth : 0;
    *h = *h + d2 > (1 << 28) ? (1 << 28) : *h + d2;
}

/* The quiet moves before the i-th of ml (they failed to cut) lose depth^2 of history, floored. */
static void history_malus(Search *s, const MoveList *ml, int i, int depth) {
    int d2 = depth > 0 ? depth * depth : 0;
    for (int j = 0; j < i; j++) {
        const DMove *m = &ml->m[j];
        if (m->ncap) continue;
        int32_t *h = &s->history[m->from][m->to];
        *h = *h - d2 < -(1 << 28) ? -(1 << 28) : *h - d2;
    }
}

/* ---------------------------------------------------------------------------------------------------
 * The tree
 * ------------------------------------------------------------------------------------------------- */
typedef struct {
    int quiet; /* plies of king moves without capture (no-progress rule) */
    int cp;    /* plies since the last capture or promotion (endgame rule) */
} Counters;

static inline Counters next_counters(const Pos *p, const DMove *m, Counters c) {
    Counters n;
    n.quiet = (bb_test(p->kings, m->from) && !m->ncap) ? c.quiet + 1 : 0;
    n.cp = (m->ncap || m->promo) ? 0 : c.cp + 1;
    return n;
}

static inline void pv_set(Search *s, int ply, const DMove *m) {
    PvLine *dst = &s->pv[ply], *src = &s->pv[ply + 1];
    dst->m[0] = *m;
    int n = src->n;
    if (n > S_MAX_PLY) n = S_MAX_PLY;
    memcpy(&dst->m[1], src->m, sizeof(DMove) * (size_t)n);
    dst->n = n + 1;
}

static int node(Search *s, const Pos *p, uint64_t key, int depth, int alpha, int beta, int ply, int is_pv,
                Counters cnt) {
    s->nodes++;
    s->pv[ply].n = 0;
    if (check_abort(s)) return 0;
    if (s->king_vs_single_man) {
        int kvm = king_vs_man(p);
        if (kvm) return kvm > 0 ? S_MATE - ply : -S_MATE + ply;
    }
    int draw = ply & 1 ? -s->draw_root : s->draw_root;
    if (is_repetition(s, key, ply, cnt.cp)) return draw;
    if (s->quiet_limit && cnt.quiet >= s->quiet_limit) return draw;
    if (s->endgame_rules && cnt.cp >= 10) {
        int limit = endgame_limit(p);
        if (limit && cnt.cp >= 2 * limit) return draw;
    }
    if (s->eg && ply > 0 && bb_count(bb_or(p->side[0], p->side[1])) <= s->eg->max_pieces) {
        int v = eg_probe(s->eg, p);
        if (v == EG_DRAW) return s->eg_hits++, draw;
        if (v) {
            int e = evaluate(&s->R, &s->E, p);
            e = e > S_TABLE_SPAN ? S_TABLE_SPAN : (e < -S_TABLE_SPAN ? -S_TABLE_SPAN : e);
            s->eg_hits++;
            return v == EG_WIN ? S_TABLE_WIN + e : -S_TABLE_WIN + e;
        }
    }
    /* The quiescence plies neither read nor write the table: a static evaluation costs less than the cache
     * miss of a probe, and their entries would crowd out the ones that save whole subtrees. */
    TTEntry *e = depth > 0 ? tt_probe(s, key) : NULL;
    if (!is_pv && e && e->depth >= depth) {
        int ts = from_tt(e->score, ply);
        int flag = e->flag - 1;
        if (flag == S_EXACT || (flag == S_LOWER && ts >= beta) || (flag == S_UPPER && ts <= alpha)) return ts;
    }
    const Rules *R = &s->R;
    int c = p->turn;
    bb_t own = p->side[c], opp = p->side[1 - c];
    /* ProbCut: when a shallower search of this node clears beta by a margin, the full one would clear beta
     * (not where a capture is compulsory: the exchange is the position, nor near a mate score) */
    if (s->probcut_margin && s->reductions && !is_pv && depth >= s->probcut_depth && beta < S_MATE_BOUND &&
        beta > -S_MATE_BOUND && !has_capture(R, own, opp, p->kings, c)) {
        int pb = beta + s->probcut_margin;
        int v = node(s, p, key, depth - s->probcut_reduction, pb - 1, pb, ply, 0, cnt);
        if (s->aborted) return 0;
        if (v >= pb) return beta;
    }
    MoveList *ml = &s->lists[ply];
    int captures;
    if (depth <= 0 || ply >= S_MAX_PLY) {
        /* a leaf unless a capture is compulsory: no need to generate the quiet moves */
        captures = has_capture(R, own, opp, p->kings, c);
        if (!captures && !has_quiet(R, own, opp, p->kings, c))
            return s->no_move_loses ? -S_MATE + ply : S_MATE - ply;
        if (!captures || depth <= -S_QPLIES || ply >= S_MAX_PLY) return evaluate(R, &s->E, p);
        gen_captures(R, own, opp, p->kings, c, 0, ml);
    } else {
        gen_legal(R, own, opp, p->kings, c, 0, ml);
        if (ml->n == 0 && !ml->oom) return s->no_move_loses ? -S_MATE + ply : S_MATE - ply;
        captures = ml->n > 0 && ml->m[0].ncap > 0;
    }
    if (ml->oom) return s->aborted = 1, 0;
    int next;
    if (depth <= 0)
        next = depth - 1;
    else if (ml->n == 1 && s->extend_single && ply < s->extension_plies)
        next = depth;
    else
        next = depth - 1;
    score_moves(s, ml, e, ply);
    int best = -S_INF, orig_alpha = alpha, best_i = 0;
    s->path[ply] = key;
    for (int i = 0; i < ml->n; i++) {
        pick_move(ml, i);
        DMove *m = &ml->m[i];
        Pos q;
        make_move(p, m, &q);
        uint64_t qkey = key ^ move_key_delta(R, p, m);
        if (next > 0) tt_prefetch(s, qkey);
        Counters qc = next_counters(p, m, cnt);
        int score;
        if (i == 0) {
            score = -node(s, &q, qkey, next, -beta, -alpha, ply + 1, is_pv, qc);
        } else {
            int r = 0;
            if (s->reductions && next >= 2 && i >= (s->lmr ? 2 : 3) && !captures && !m->promo &&
                !ref_is(&s->killers[ply][0], m) && !ref_is(&s->killers[ply][1], m)) {
                if (s->lmr) {
                    r = s->lmr_table[next < 63 ? next : 63][i < 63 ? i : 63] - (is_pv ? 1 : 0);
                    if (r > next - 1) r = next - 1;
                    if (r < 0) r = 0;
                } else {
                    r = (i >= 8 && next >= 4) ? 2 : 1;
                }
            }
            score = -node(s, &q, qkey, next - r, -alpha - 1, -alpha, ply + 1, 0, qc);
            if (!s->aborted && r && score > alpha) score = -node(s, &q, qkey, next, -alpha - 1, -alpha, ply + 1, 0, qc);
            /* a wide window (PV nodes, score_moves' bounds) needs the exact score */
            if (!s->aborted && score > alpha && score < beta)
                score = -node(s, &q, qkey, next, -beta, -alpha, ply + 1, is_pv, qc);
        }
        if (s->aborted) return 0;
        if (score > best) {
            best = score;
            best_i = i;
            if (is_pv) pv_set(s, ply, m);
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) {
                    if (!captures) {
                        note_cutoff(s, m, ply, depth);
                        if (s->history_malus) history_malus(s, ml, i, depth);
                    }
                    break;
                }
            }
        }
    }
    int flag = (orig_alpha < best && best < beta) ? S_EXACT : (best >= beta ? S_LOWER : S_UPPER);
    if (depth > 0 && (!e || depth >= e->depth || flag == S_EXACT))
        tt_store(s, key, depth, flag, to_tt(best, ply), &ml->m[best_i]);
    return best;
}

/* The search state of one call from Python: the root, its counters and the game history. */
typedef struct {
    Pos root;
    Counters cnt;
} RootInfo;

static void search_begin(Search *s, double seconds, uint64_t node_limit) {
    s->nodes = 0;
    s->checks = 0;
    s->next_check = 1024;
    s->aborted = 0;
    s->deadline = seconds > 0 ? s_now() + seconds : 1e300;
    s->node_limit = node_limit;
}

typedef struct {
    int completed;  /* the iteration finished */
    int has_move;   /* best is set */
    int improved;   /* a move after the first one was proven best (worth playing if the search stops) */
    int score;
    DMove best;
    PvLine pv;
} RootResult;

/* The root's moves with PVS inside (alpha, beta): the best move's score, or a bound when it falls outside
 * (fail low: <= alpha and no move is set; fail high: >= beta, the move that did it is out->best). */
static int root_window(Search *s, const RootInfo *ri, MoveList *moves, int depth, int alpha, int beta,
                       RootResult *out) {
    const Rules *R = &s->R;
    const Pos *p = &ri->root;
    uint64_t key = s->path[0];
    for (int i = 0; i < moves->n; i++) {
        DMove *m = &moves->m[i];
        Pos q;
        make_move(p, m, &q);
        uint64_t qkey = key ^ move_key_delta(R, p, m);
        Counters qc = next_counters(p, m, ri->cnt);
        int score;
        if (i == 0) {
            score = -node(s, &q, qkey, depth - 1, -beta, -alpha, 1, 1, qc);
        } else {
            score = -node(s, &q, qkey, depth - 1, -alpha - 1, -alpha, 1, 0, qc);
            if (!s->aborted && score > alpha && score < beta)
                score = -node(s, &q, qkey, depth - 1, -beta, -alpha, 1, 1, qc);
        }
        if (s->aborted) return alpha;
        if (score > alpha) {
            alpha = score;
            out->score = score;
            out->best = *m;
            out->has_move = 1;
            out->improved = out->improved || i > 0;
            pv_set(s, 0, m);
            out->pv = s->pv[0];
            if (score >= beta) {   /* fail high: this move first when the window widens */
                memmove(&moves->m[1], &moves->m[0], sizeof(DMove) * (size_t)i);
                moves->m[0] = out->best;
                break;
            }
        }
    }
    return alpha;
}

/* One iteration at the root (Searcher._root): every move of `moves` with PVS. With s->aspiration, from
 * depth 4 on, first inside guess +- s->aspiration, the side that fails widened fourfold each time (a guess
 * of -S_INF or a mate score: the full window). */
static void root_search_from(Search *s, const RootInfo *ri, MoveList *moves, int depth, int guess,
                             RootResult *out) {
    const Rules *R = &s->R;
    const Pos *p = &ri->root;
    uint64_t key = pos_key(R, p);
    TTEntry *e = tt_probe(s, key);
    score_moves(s, moves, e, 0);
    for (int i = 0; i < moves->n; i++) pick_move(moves, i);
    s->path[0] = key;
    s->extension_plies = 2 * depth;
    out->completed = 0;
    out->has_move = 0;
    out->improved = 0;
    int alpha = -S_INF, beta = S_INF, w = s->aspiration;
    if (w && depth >= 4 && guess > -S_MATE_BOUND && guess < S_MATE_BOUND) {
        alpha = guess - w;
        beta = guess + w;
    }
    for (;;) {
        int score = root_window(s, ri, moves, depth, alpha, beta, out);
        if (s->aborted) return;
        if (score <= alpha && alpha > -S_INF) {
            out->has_move = 0;   /* nothing proven: every move is at most alpha */
            out->improved = 0;
            w *= 4;
            alpha = alpha - w > -S_MATE_BOUND ? alpha - w : -S_INF;
        } else if (score >= beta && beta < S_INF) {
            w *= 4;
            beta = beta + w < S_MATE_BOUND ? beta + w : S_INF;
        } else {
            break;
        }
    }
    if (out->has_move) tt_store(s, key, depth, S_EXACT, out->score, &out->best);
    out->completed = 1;
}

/* One iteration with no score to start the aspiration window from (a full window). */
static void root_search(Search *s, const RootInfo *ri, MoveList *moves, int depth, RootResult *out) {
    root_search_from(s, ri, moves, depth, -S_INF, out);
}

/* Scores of every root move at `depth` (Searcher.score_moves): exact within `window` of the best so far,
 * bounds below it. scores[i] belongs to moves->m[i] after the call (the list is put in search order). */
static int score_root_moves(Search *s, const RootInfo *ri, MoveList *moves, int depth, int window, int *scores) {
    const Rules *R = &s->R;
    const Pos *p = &ri->root;
    uint64_t key = pos_key(R, p);
    score_moves(s, moves, NULL, 0);
    for (int i = 0; i < moves->n; i++) pick_move(moves, i);
    s->path[0] = key;
    s->extension_plies = 2 * depth;
    int best = -S_INF;
    for (int i = 0; i < moves->n; i++) {
        DMove *m = &moves->m[i];
        Pos q;
        make_move(p, m, &q);
        int floor = best > -S_INF ? (best - window > -S_INF ? best - window : -S_INF) : -S_INF;
        int score = -node(s, &q, key ^ move_key_delta(R, p, m), depth - 1, -S_INF, -floor, 1, 0,
                          next_counters(p, m, ri->cnt));
        if (s->aborted) return -1;
        if (score > best) best = score;
        scores[i] = score;
    }
    return 0;
}

#endif /* DSEARCH_H */
