/* dcore.h - the native draughts rules core: bitboards, move generation, make-move and perft.
 *
 * Header-only (every function is static) so that the rules and the engine extensions each compile their
 * own copy. Nothing here knows a variant by name: a Rules table is filled from the parameters that
 * rules/native.py derives from a rules.variants.Variant, and every rule below is a branch on those
 * parameters. The capture search mirrors rules/movegen.py step by step, so both cores emit the same moves
 * in the same order; the pure-Python one is the reference.
 *
 * Squares are dense indices 0..n-1 (the playing squares in ascending order of the Python core's padded
 * bit index); a bitboard is two 64-bit words, enough for 128 squares (a 12x12 board has 72). Only
 * portable C11 and the GCC/Clang bit builtins are used, with plain C fallbacks for other compilers.
 */
#ifndef DCORE_H
#define DCORE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DC_MAXSQ 128   /* playing squares a Rules table can hold */
#define DC_NDIR 8      /* direction indices, as rules.geometry.DIRECTIONS */
#define DC_NONE 0xFF   /* "no square" in the uint8_t square tables */

/* ---------------------------------------------------------------------------------------------------
 * Bitboards
 * ------------------------------------------------------------------------------------------------- */
typedef struct {
    uint64_t lo, hi;
} bb_t;

/* The builtin is one instruction on aarch64 and on x86-64 built with -mpopcnt (setup.py adds it when the
 * build machine has the instruction); elsewhere it would be a library call, slower than this SWAR count. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(DC_NO_BUILTINS)
#define DC_BUILTINS 1 /* DC_NO_BUILTINS forces the plain C paths (tests/rules/test_native_portable.py) */
#endif

static inline int dc_popcount64(uint64_t x) {
#if defined(DC_BUILTINS) && (defined(__POPCNT__) || defined(__aarch64__))
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

static inline int dc_ctz64(uint64_t x) { /* x != 0 */
#if defined(DC_BUILTINS)
    return __builtin_ctzll(x);
#else
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

static const bb_t BB_ZERO = {0, 0};

static inline bb_t bb_bit(int i) {
    uint64_t b = (uint64_t)1 << (i & 63);
    bb_t r;
    r.lo = i < 64 ? b : 0;
    r.hi = i < 64 ? 0 : b;
    return r;
}
static inline bb_t bb_and(bb_t a, bb_t b) { bb_t r = {a.lo & b.lo, a.hi & b.hi}; return r; }
static inline bb_t bb_or(bb_t a, bb_t b) { bb_t r = {a.lo | b.lo, a.hi | b.hi}; return r; }
static inline bb_t bb_xor(bb_t a, bb_t b) { bb_t r = {a.lo ^ b.lo, a.hi ^ b.hi}; return r; }
static inline bb_t bb_andnot(bb_t a, bb_t b) { bb_t r = {a.lo & ~b.lo, a.hi & ~b.hi}; return r; }
static inline int bb_empty(bb_t a) { return !(a.lo | a.hi); }
static inline int bb_eq(bb_t a, bb_t b) { return a.lo == b.lo && a.hi == b.hi; }
static inline int bb_any(bb_t a, bb_t b) { return ((a.lo & b.lo) | (a.hi & b.hi)) != 0; }
static inline int bb_test(bb_t a, int i) {
    uint64_t w = i < 64 ? a.lo : a.hi;
    return (int)((w >> (i & 63)) & 1);
}
static inline int bb_count(bb_t a) { return dc_popcount64(a.lo) + dc_popcount64(a.hi); }
/* Lowest set square, removed from *a (a must not be empty). */
static inline int bb_pop(bb_t *a) {
    if (a->lo) {
        int i = dc_ctz64(a->lo);
        a->lo &= a->lo - 1;
        return i;
    }
    int i = dc_ctz64(a->hi);
    a->hi &= a->hi - 1;
    return 64 + i;
}

/* ---------------------------------------------------------------------------------------------------
 * The rules of one variant as tables
 * ------------------------------------------------------------------------------------------------- */
enum { DIR_MAN_MOVE, DIR_MAN_CAP, DIR_KING_MOVE, DIR_KING_CAP };
enum { KC_SHORT, KC_LONG_ANY, KC_LONG_BEHIND, KC_LONG_ANY_LAST_BEHIND };
enum { MID_STOP, MID_CONTINUE_AS_KING, MID_PASS_THROUGH };
enum { PREC_MAX_PIECES, PREC_MAX_KINGS, PREC_CAPTURE_WITH_KING, PREC_EARLIEST_KING };

#define DC_MAXPREC 8

typedef struct {
    int n;                               /* playing squares */
    bb_t mask;                           /* every playing square */
    uint8_t adj[DC_NDIR][DC_MAXSQ];      /* geometric neighbour (men's quiet steps), DC_NONE if none */
    uint8_t step[DC_NDIR][DC_MAXSQ];     /* next square along the ray (captures, kings), DC_NONE */
    uint8_t ndirs[4][2];                 /* [DIR_*][color] */
    uint8_t dirs[4][2][DC_NDIR];
    bb_t crown[2];                       /* squares where a man of the color is crowned */
    /* short jumps per color and square: (direction, jumped square, landing square) */
    uint8_t mj_n[2][DC_MAXSQ], mj[2][DC_MAXSQ][DC_NDIR][3];
    uint8_t kj_n[2][DC_MAXSQ], kj[2][DC_MAXSQ][DC_NDIR][3];
    bb_t mj_over[2][DC_MAXSQ], kj_over[2][DC_MAXSQ]; /* the squares those jumps pass over, as one set */
    int man_long, king_flying, king_mode, king_long, removal_end, mid, man_takes_kings, partial;
    int land_to_continue;
    int8_t rev[DC_NDIR + 1];             /* direction forbidden after the last one; [DC_NDIR] = first jump */
    int nprec;
    uint8_t prec[DC_MAXPREC];
    int need_korder;                     /* the earliest-king rule needs each capture's king order */
    uint64_t zob[4][DC_MAXSQ];           /* [color * 2 + is_king][square] */
    uint64_t zturn;                      /* xor-ed in when Black is to move */
    int pad_size;                        /* the Python core's padded bit count (stride * height) */
    int sq_pad[DC_MAXSQ];                /* padded index of each dense square */
    int16_t pad2dense[192];              /* dense index of a padded index, -1 for a non-playing one */
} Rules;

/* The short jumps of one kind of piece (DIR_MAN_CAP or DIR_KING_CAP) from `sq`; returns how many. */
static int jump_table(const Rules *R, int kind, int c, int sq, uint8_t tbl[DC_NDIR][3], bb_t *over_set) {
    int k = 0;
    *over_set = BB_ZERO;
    for (int i = 0; i < R->ndirs[kind][c]; i++) {
        int d = R->dirs[kind][c][i];
        int over = R->step[d][sq];
        int land = over == DC_NONE ? DC_NONE : R->step[d][over];
        if (land == DC_NONE) continue;
        tbl[k][0] = (uint8_t)d;
        tbl[k][1] = (uint8_t)over;
        tbl[k][2] = (uint8_t)land;
        *over_set = bb_or(*over_set, bb_bit(over));
        k++;
    }
    return k;
}

/* Fill the jump tables and derived flags once the raw tables are set. */
static void rules_finish(Rules *R) {
    R->king_long = R->king_mode != KC_SHORT;
    R->need_korder = 0;
    for (int i = 0; i < R->nprec; i++)
        if (R->prec[i] == PREC_EARLIEST_KING) R->need_korder = 1;
    for (int c = 0; c < 2; c++) {
        for (int sq = 0; sq < R->n; sq++) {
            R->mj_n[c][sq] = (uint8_t)jump_table(R, DIR_MAN_CAP, c, sq, R->mj[c][sq], &R->mj_over[c][sq]);
            R->kj_n[c][sq] = (uint8_t)jump_table(R, DIR_KING_CAP, c, sq, R->kj[c][sq], &R->kj_over[c][sq]);
        }
    }
}

/* ---------------------------------------------------------------------------------------------------
 * Move lists
 * ------------------------------------------------------------------------------------------------- */
typedef struct {
    bb_t cap;          /* captured squares */
    uint64_t korder;   /* captured kings in capture order, first capture at bit 63 (earliest-king rule) */
    int32_t score;     /* move ordering */
    uint8_t from, to, promo, ncap;
    uint32_t pofs;     /* offset of path (ncap + 1 squares) then captures (ncap squares) in the list's pb */
} DMove;

typedef struct {
    DMove *m;
    int n, cap;
    uint8_t *pb;
    uint32_t pn, pcap;
    int want_paths;    /* record each capture's path and capture order */
    int oom;           /* an allocation failed: the list is incomplete */
} MoveList;

static int ml_init(MoveList *ml, int want_paths) {
    memset(ml, 0, sizeof *ml);
    ml->want_paths = want_paths;
    ml->cap = 64;
    ml->m = (DMove *)malloc(sizeof(DMove) * (size_t)ml->cap);
    if (!ml->m) return -1;
    if (want_paths) {
        ml->pcap = 1024;
        ml->pb = (uint8_t *)malloc(ml->pcap);
        if (!ml->pb) {
            free(ml->m);
            ml->m = NULL;
            return -1;
        }
    }
    return 0;
}

static void ml_free(MoveList *ml) {
    free(ml->m);
    free(ml->pb);
    ml->m = NULL;
    ml->pb = NULL;
    ml->n = ml->cap = 0;
}

static inline void ml_clear(MoveList *ml) {
    ml->n = 0;
    ml->pn = 0;
    ml->oom = 0;
}

static inline DMove *ml_add(MoveList *ml) {
    if (ml->n == ml->cap) {
        int ncap = ml->cap * 2;
        DMove *m = (DMove *)realloc(ml->m, sizeof(DMove) * (size_t)ncap);
        if (!m) {
            ml->oom = 1;
            return NULL;
        }
        ml->m = m;
        ml->cap = ncap;
    }
    return &ml->m[ml->n++];
}

static inline int ml_reserve_path(MoveList *ml, uint32_t len) {
    if (ml->pn + len > ml->pcap) {
        uint32_t ncap = ml->pcap;
        while (ml->pn + len > ncap) ncap *= 2;
        uint8_t *pb = (uint8_t *)realloc(ml->pb, ncap);
        if (!pb) {
            ml->oom = 1;
            return -1;
        }
        ml->pb = pb;
        ml->pcap = ncap;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------------
 * Quiet moves
 * ------------------------------------------------------------------------------------------------- */
static inline void add_quiet(MoveList *ml, int from, int to, int promo) {
    DMove *m = ml_add(ml);
    if (!m) return;
    m->from = (uint8_t)from;
    m->to = (uint8_t)to;
    m->promo = (uint8_t)promo;
    m->ncap = 0;
    m->cap = BB_ZERO;
    m->korder = 0;
    m->score = 0;
    if (ml->want_paths) {
        if (ml_reserve_path(ml, 2)) {
            ml->n--;
            return;
        }
        m->pofs = ml->pn;
        ml->pb[ml->pn++] = (uint8_t)from;
        ml->pb[ml->pn++] = (uint8_t)to;
    } else {
        m->pofs = 0;
    }
}

/* Every non-capturing move into ml, or only their number when ml is NULL. Men by direction (targets
 * ascending within a direction), then kings by square, direction, distance: MoveGen.quiet_moves's order. */
static int walk_quiet(const Rules *R, bb_t own, bb_t opp, bb_t kings, int color, MoveList *ml) {
    bb_t empty = bb_andnot(R->mask, bb_or(own, opp));
    bb_t men = bb_andnot(own, kings);
    bb_t crown = R->crown[color];
    int n = 0;
    for (int i = 0; i < R->ndirs[DIR_MAN_MOVE][color]; i++) {
        const uint8_t *adj = R->adj[R->dirs[DIR_MAN_MOVE][color][i]];
        bb_t it = men;
        while (!bb_empty(it)) {
            int s = bb_pop(&it);
            int t = adj[s];
            if (t == DC_NONE || !bb_test(empty, t)) continue;
            n++;
            if (ml) add_quiet(ml, s, t, bb_test(crown, t));
        }
    }
    bb_t k = bb_and(own, kings);
    while (!bb_empty(k)) {
        int s = bb_pop(&k);
        for (int i = 0; i < R->ndirs[DIR_KING_MOVE][color]; i++) {
            const uint8_t *step = R->step[R->dirs[DIR_KING_MOVE][color][i]];
            int t = step[s];
            while (t != DC_NONE && bb_test(empty, t)) {
                n++;
                if (ml) add_quiet(ml, s, t, 0);
                if (!R->king_flying) break;
                t = step[t];
            }
        }
    }
    return n;
}

static inline void gen_quiet(const Rules *R, bb_t own, bb_t opp, bb_t kings, int color, MoveList *ml) {
    walk_quiet(R, own, opp, kings, color, ml);
}

static inline int count_quiet(const Rules *R, bb_t own, bb_t opp, bb_t kings, int color) {
    return walk_quiet(R, own, opp, kings, color, NULL);
}

/* Whether the side owning `own` has a non-capturing move (count_quiet > 0, stopping at the first). */
static int has_quiet(const Rules *R, bb_t own, bb_t opp, bb_t kings, int color) {
    bb_t empty = bb_andnot(R->mask, bb_or(own, opp));
    bb_t men = bb_andnot(own, kings);
    for (int i = 0; i < R->ndirs[DIR_MAN_MOVE][color]; i++) {
        const uint8_t *adj = R->adj[R->dirs[DIR_MAN_MOVE][color][i]];
        bb_t it = men;
        while (!bb_empty(it)) {
            int t = adj[bb_pop(&it)];
            if (t != DC_NONE && bb_test(empty, t)) return 1;
        }
    }
    bb_t k = bb_and(own, kings);
    while (!bb_empty(k)) {
        int s = bb_pop(&k);
        for (int i = 0; i < R->ndirs[DIR_KING_MOVE][color]; i++) {
            int t = R->step[R->dirs[DIR_KING_MOVE][color][i]][s];
            if (t != DC_NONE && bb_test(empty, t)) return 1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------------
 * Captures
 * ------------------------------------------------------------------------------------------------- */
static int any_long_capture(const Rules *R, bb_t pieces, int kind, int color, bb_t occ, bb_t targets) {
    while (!bb_empty(pieces)) {
        int s = bb_pop(&pieces);
        for (int i = 0; i < R->ndirs[kind][color]; i++) {
            const uint8_t *step = R->step[R->dirs[kind][color][i]];
            int t = step[s];
            while (t != DC_NONE && !bb_test(occ, t)) t = step[t];
            if (t == DC_NONE) continue;
            int land = step[t];
            if (land != DC_NONE && bb_test(targets, t) && !bb_test(occ, land)) return 1;
        }
    }
    return 0;
}

static int any_short_capture(const Rules *R, bb_t pieces, int king, int color, bb_t empty, bb_t targets) {
    const bb_t *over = king ? R->kj_over[color] : R->mj_over[color];
    while (!bb_empty(pieces)) {
        int s = bb_pop(&pieces);
        if (!bb_any(over[s], targets)) continue; /* no target next to it: most pieces, most of the time */
        int nj = king ? R->kj_n[color][s] : R->mj_n[color][s];
        const uint8_t(*tbl)[3] = king ? R->kj[color][s] : R->mj[color][s];
        for (int j = 0; j < nj; j++)
            if (bb_test(targets, tbl[j][1]) && bb_test(empty, tbl[j][2])) return 1;
    }
    return 0;
}

/* Whether the side owning `own` must capture (MoveGen.has_capture). */
static int has_capture(const Rules *R, bb_t own, bb_t opp, bb_t kings, int color) {
    bb_t occ = bb_or(own, opp);
    bb_t empty = bb_andnot(R->mask, occ);
    bb_t men = bb_andnot(own, kings);
    if (!bb_empty(men)) {
        bb_t targets = R->man_takes_kings ? opp : bb_andnot(opp, kings);
        if (R->man_long) {
            if (any_long_capture(R, men, DIR_MAN_CAP, color, occ, targets)) return 1;
        } else if (any_short_capture(R, men, 0, color, empty, targets)) {
            return 1;
        }
    }
    bb_t k = bb_and(own, kings);
    if (!bb_empty(k)) {
        if (R->king_long) return any_long_capture(R, k, DIR_KING_CAP, color, occ, opp);
        return any_short_capture(R, k, 1, color, empty, opp);
    }
    return 0;
}

#define DC_MAXSEQ DC_MAXSQ

typedef struct {
    const Rules *R;
    int color, start, depth;
    bb_t opp, opp_kings;
    MoveList *out;
    uint8_t path[DC_MAXSEQ + 2];   /* path[0] = start, path[depth] = current square */
    uint8_t caps[DC_MAXSEQ + 1];   /* caps[0 .. depth-1] = captured squares in order */
} CapCtx;

static inline void cc_push(CapCtx *c, int land, int over) {
    c->caps[c->depth] = (uint8_t)over;
    c->depth++;
    c->path[c->depth] = (uint8_t)land;
}
static inline void cc_pop(CapCtx *c) { c->depth--; }

/* Record the sequence on the stack (its last landing already pushed) as a move. */
static void cc_emit(CapCtx *c, bb_t captured, int promo) {
    MoveList *ml = c->out;
    DMove *m = ml_add(ml);
    if (!m) return;
    int n = c->depth;
    m->from = (uint8_t)c->start;
    m->to = c->path[n];
    m->promo = (uint8_t)(promo != 0);
    m->ncap = (uint8_t)(n > 255 ? 255 : n);
    m->cap = captured;
    m->score = 0;
    m->korder = 0;
    if (c->R->need_korder) {
        for (int i = 0; i < n && i < 64; i++)
            if (bb_test(c->opp_kings, c->caps[i])) m->korder |= (uint64_t)1 << (63 - i);
    }
    m->pofs = 0;
    if (ml->want_paths) {
        if (ml_reserve_path(ml, (uint32_t)(2 * n + 1))) {
            ml->n--;
            return;
        }
        m->pofs = ml->pn;
        memcpy(ml->pb + ml->pn, c->path, (size_t)n + 1);
        memcpy(ml->pb + ml->pn + n + 1, c->caps, (size_t)n);
        ml->pn += (uint32_t)(2 * n + 1);
    }
}

static int cap_dfs(CapCtx *c, int sq, int king, int promoted, bb_t occ, bb_t captured, int last_dir);
static int cap_sdfs(CapCtx *c, int sq, int king, int promoted, bb_t occ, bb_t captured, int last_dir);

/* The king's capture search (MoveGen._kdfs). */
static inline int cap_kdfs(CapCtx *c, int sq, int promoted, bb_t occ, bb_t captured, int last_dir) {
    return c->R->king_long ? cap_dfs(c, sq, 1, promoted, occ, captured, last_dir)
                           : cap_sdfs(c, sq, 1, promoted, occ, captured, last_dir);
}

/* Short jumps, table driven (MoveGen._sdfs). Captured pieces stay in `occ`: short landings and jumped
 * squares never coincide. */
static int cap_sdfs(CapCtx *c, int sq, int king, int promoted, bb_t occ, bb_t captured, int last_dir) {
    const Rules *R = c->R;
    int color = c->color;
    bb_t capturable;
    int nj;
    const uint8_t(*tbl)[3];
    if (king) {
        capturable = bb_andnot(c->opp, captured);
        nj = R->kj_n[color][sq];
        tbl = R->kj[color][sq];
    } else {
        capturable = bb_andnot(R->man_takes_kings ? c->opp : bb_andnot(c->opp, c->opp_kings), captured);
        nj = R->mj_n[color][sq];
        tbl = R->mj[color][sq];
    }
    int rev = R->rev[last_dir < 0 ? DC_NDIR : last_dir];
    bb_t crown = king ? BB_ZERO : R->crown[color];
    int partial = R->partial;
    int found = 0;
    for (int j = 0; j < nj; j++) {
        int d = tbl[j][0], over = tbl[j][1], land = tbl[j][2];
        if (!bb_test(capturable, over) || bb_test(occ, land) || d == rev) continue;
        found = 1;
        bb_t ncap = bb_or(captured, bb_bit(over));
        cc_push(c, land, over);
        if (bb_test(crown, land)) {
            if (R->mid == MID_STOP) {
                cc_emit(c, ncap, 1);
            } else if (R->mid == MID_CONTINUE_AS_KING) {
                if (!cap_kdfs(c, land, 1, occ, ncap, d) || partial) cc_emit(c, ncap, 1);
            } else if (!cap_sdfs(c, land, 0, promoted, occ, ncap, d) || partial) {
                cc_emit(c, ncap, 1);
            }
        } else if (!cap_sdfs(c, land, king, promoted, occ, ncap, d) || partial) {
            cc_emit(c, ncap, promoted);
        }
        cc_pop(c);
    }
    return found;
}

/* Long (flying) captures and every removal rule (MoveGen._dfs). */
static int cap_dfs(CapCtx *c, int sq, int king, int promoted, bb_t occ, bb_t captured, int last_dir) {
    const Rules *R = c->R;
    int color = c->color;
    bb_t occ_eff = R->removal_end ? occ : bb_andnot(occ, captured);
    bb_t capturable = bb_andnot(c->opp, captured);
    int kind, lng, mode;
    if (king) {
        kind = DIR_KING_CAP;
        lng = R->king_long;
        mode = R->king_mode;
    } else {
        kind = DIR_MAN_CAP;
        lng = R->man_long;
        mode = lng ? KC_LONG_ANY : KC_SHORT;
        if (!R->man_takes_kings) capturable = bb_andnot(capturable, c->opp_kings);
    }
    bb_t crown = R->crown[color];
    int rev = R->rev[last_dir < 0 ? DC_NDIR : last_dir];
    int found = 0;
    uint8_t landings[DC_MAXSQ];
    uint8_t term[DC_MAXSQ][2], stops[DC_MAXSQ][2];
    for (int i = 0; i < R->ndirs[kind][color]; i++) {
        int d = R->dirs[kind][color][i];
        if (d == rev) continue;
        const uint8_t *step = R->step[d];
        int t = step[sq];
        if (lng)
            while (t != DC_NONE && !bb_test(occ_eff, t)) t = step[t];
        if (t == DC_NONE) continue;
        int first = step[t];
        if (first == DC_NONE || !bb_test(capturable, t) || bb_test(occ_eff, first)) continue;
        int nl = 0;
        landings[nl++] = (uint8_t)first;
        if (mode == KC_LONG_ANY || mode == KC_LONG_ANY_LAST_BEHIND) {
            int j = step[first];
            while (j != DC_NONE && !bb_test(occ_eff, j)) {
                landings[nl++] = (uint8_t)j;
                j = step[j];
            }
        }
        found = 1;
        bb_t ncap = bb_or(captured, bb_bit(t));
        int nterm = 0, nstops = 0, cont = 0;
        for (int li = 0; li < nl; li++) {
            int land = landings[li];
            cc_push(c, land, t);
            if (!king && bb_test(crown, land)) {
                if (R->mid == MID_STOP) {
                    term[nterm][0] = (uint8_t)land;
                    term[nterm++][1] = 1;
                    cc_pop(c);
                    continue;
                }
                if (R->mid == MID_CONTINUE_AS_KING) {
                    if (cap_kdfs(c, land, 1, occ, ncap, d)) {
                        cont = 1;
                        if (R->partial) {
                            stops[nstops][0] = (uint8_t)land;
                            stops[nstops++][1] = 1;
                        }
                    } else {
                        term[nterm][0] = (uint8_t)land;
                        term[nterm++][1] = 1;
                    }
                    cc_pop(c);
                    continue;
                }
            }
            int promo = promoted || (!king && bb_test(crown, land));
            if (cap_dfs(c, land, king, promoted, occ, ncap, d)) {
                cont = 1;
                if (R->partial) {
                    stops[nstops][0] = (uint8_t)land;
                    stops[nstops++][1] = (uint8_t)promo;
                }
            } else {
                term[nterm][0] = (uint8_t)land;
                term[nterm++][1] = (uint8_t)promo;
            }
            cc_pop(c);
        }
        if (cont && R->land_to_continue && !R->partial) continue;
        for (int k = 0; k < nterm; k++) {
            if (mode == KC_LONG_ANY_LAST_BEHIND && term[k][0] != first) continue;
            cc_push(c, term[k][0], t);
            cc_emit(c, ncap, term[k][1]);
            cc_pop(c);
        }
        for (int k = 0; k < nstops; k++) {
            cc_push(c, stops[k][0], t);
            cc_emit(c, ncap, stops[k][1]);
            cc_pop(c);
        }
    }
    return found;
}

static inline int dmove_cmp_order(const DMove *a, const DMove *b) { /* earliest-king order: <0, 0, >0 */
    if (a->korder != b->korder) return a->korder < b->korder ? -1 : 1;
    if (a->ncap != b->ncap) return a->ncap < b->ncap ? -1 : 1;
    return 0;
}

/* Keep the captures the variant's precedence rules prefer, applied in order (MoveGen._apply_precedence). */
static void apply_precedence(const Rules *R, MoveList *ml, bb_t own_kings, bb_t opp_kings) {
    for (int p = 0; p < R->nprec; p++) {
        int n = ml->n, k = 0;
        if (n <= 1) break;
        DMove *m = ml->m;
        switch (R->prec[p]) {
        case PREC_MAX_PIECES: {
            int best = 0;
            for (int i = 0; i < n; i++)
                if (m[i].ncap > best) best = m[i].ncap;
            if (best <= 1) break;
            for (int i = 0; i < n; i++)
                if (m[i].ncap == best) m[k++] = m[i];
            ml->n = k;
            break;
        }
        case PREC_MAX_KINGS: {
            int best = -1;
            for (int i = 0; i < n; i++) {
                int c = bb_count(bb_and(m[i].cap, opp_kings));
                if (c > best) best = c;
            }
            for (int i = 0; i < n; i++)
                if (bb_count(bb_and(m[i].cap, opp_kings)) == best) m[k++] = m[i];
            ml->n = k;
            break;
        }
        case PREC_CAPTURE_WITH_KING: {
            int any = 0;
            for (int i = 0; i < n; i++)
                if (bb_test(own_kings, m[i].from)) any = 1;
            if (!any) break;
            for (int i = 0; i < n; i++)
                if (bb_test(own_kings, m[i].from)) m[k++] = m[i];
            ml->n = k;
            break;
        }
        case PREC_EARLIEST_KING: {
            int best = 0;
            for (int i = 1; i < n; i++)
                if (dmove_cmp_order(&m[i], &m[best]) > 0) best = i;
            DMove top = m[best];
            for (int i = 0; i < n; i++)
                if (dmove_cmp_order(&m[i], &top) == 0) m[k++] = m[i];
            ml->n = k;
            break;
        }
        default:
            break;
        }
    }
}

/* Merge captures with the same (from, to, captured set, promotion), keeping the first path. */
static void drop_duplicates(MoveList *ml) {
    int n = ml->n;
    if (n <= 1) return;
    int multi = 0;
    for (int i = 0; i < n; i++)
        if (ml->m[i].ncap > 1) {
            multi = 1;
            break;
        }
    if (!multi) return; /* single captures: a different path always means a different landing */
    int k = 0;
    DMove *m = ml->m;
    for (int i = 0; i < n; i++) {
        int dup = 0;
        for (int j = 0; j < k; j++) {
            if (m[j].from == m[i].from && m[j].to == m[i].to && m[j].promo == m[i].promo &&
                bb_eq(m[j].cap, m[i].cap)) {
                dup = 1;
                break;
            }
        }
        if (!dup) m[k++] = m[i];
    }
    ml->n = k;
}

/* Every legal capture into ml (cleared first), precedence applied, duplicates merged unless keep. */
static void gen_captures(const Rules *R, bb_t own, bb_t opp, bb_t kings, int color, int keep, MoveList *ml) {
    CapCtx c;
    ml_clear(ml);
    c.R = R;
    c.color = color;
    c.opp = opp;
    c.opp_kings = bb_and(opp, kings);
    c.out = ml;
    bb_t occ = bb_or(own, opp);
    bb_t own_kings = bb_and(own, kings);
    bb_t men = bb_andnot(own, kings);
    bb_t man_targets = R->man_takes_kings ? opp : bb_andnot(opp, kings);
    while (!bb_empty(men)) {
        int s = bb_pop(&men);
        if (!R->man_long && !bb_any(R->mj_over[color][s], man_targets)) continue; /* cannot start a capture */
        c.start = s;
        c.depth = 0;
        c.path[0] = (uint8_t)s;
        bb_t o = bb_xor(occ, bb_bit(s));
        if (R->man_long)
            cap_dfs(&c, s, 0, 0, o, BB_ZERO, -1);
        else
            cap_sdfs(&c, s, 0, 0, o, BB_ZERO, -1);
    }
    bb_t k = own_kings;
    while (!bb_empty(k)) {
        int s = bb_pop(&k);
        c.start = s;
        c.depth = 0;
        c.path[0] = (uint8_t)s;
        cap_kdfs(&c, s, 0, bb_xor(occ, bb_bit(s)), BB_ZERO, -1);
    }
    if (ml->n == 0) return;
    if (R->nprec && ml->n > 1) apply_precedence(R, ml, own_kings, c.opp_kings);
    if (!keep) drop_duplicates(ml);
}

/* The legal moves: the captures when there are any (compulsory), else the quiet moves. */
static void gen_legal(const Rules *R, bb_t own, bb_t opp, bb_t kings, int color, int keep, MoveList *ml) {
    ml_clear(ml);
    if (has_capture(R, own, opp, kings, color))
        gen_captures(R, own, opp, kings, color, keep, ml);
    else
        gen_quiet(R, own, opp, kings, color, ml);
}

/* ---------------------------------------------------------------------------------------------------
 * Positions, make-move and perft
 * ------------------------------------------------------------------------------------------------- */
typedef struct {
    bb_t side[2]; /* white, black */
    bb_t kings;
    int turn;
} Pos;

/* Copy-make: the position after `m`, side to move switched. */
static inline void make_move(const Pos *p, const DMove *m, Pos *q) {
    int c = p->turn;
    bb_t fb = bb_bit(m->from), tb = bb_bit(m->to);
    bb_t kings = p->kings;
    if (bb_test(kings, m->from))
        kings = bb_andnot(bb_xor(bb_xor(kings, fb), tb), m->cap);
    else if (m->promo)
        kings = bb_andnot(bb_or(kings, tb), m->cap);
    else
        kings = bb_andnot(kings, m->cap);
    q->side[c] = bb_xor(bb_xor(p->side[c], fb), tb);
    q->side[1 - c] = bb_andnot(p->side[1 - c], m->cap);
    q->kings = kings;
    q->turn = 1 - c;
}

/* The Zobrist key change of `m` in `p` (the side-to-move key included). */
static inline uint64_t move_key_delta(const Rules *R, const Pos *p, const DMove *m) {
    int c = p->turn;
    int was_king = bb_test(p->kings, m->from);
    uint64_t d = R->zob[2 * c + was_king][m->from] ^ R->zob[2 * c + (was_king || m->promo)][m->to] ^ R->zturn;
    bb_t cap = m->cap;
    int o = 2 * (1 - c);
    while (!bb_empty(cap)) {
        int s = bb_pop(&cap);
        d ^= R->zob[o + bb_test(p->kings, s)][s];
    }
    return d;
}

static uint64_t pos_key(const Rules *R, const Pos *p) {
    uint64_t key = p->turn ? R->zturn : 0;
    for (int c = 0; c < 2; c++) {
        bb_t it = p->side[c];
        while (!bb_empty(it)) {
            int s = bb_pop(&it);
            key ^= R->zob[2 * c + bb_test(p->kings, s)][s];
        }
    }
    return key;
}

/* Number of legal moves (perft leaves) without building the quiet ones. */
static int count_legal(const Rules *R, bb_t own, bb_t opp, bb_t kings, int color, int keep, MoveList *scratch) {
    if (has_capture(R, own, opp, kings, color)) {
        gen_captures(R, own, opp, kings, color, keep, scratch);
        return scratch->n;
    }
    return count_quiet(R, own, opp, kings, color);
}

#define DC_MAXPERFT 64

typedef struct {
    const Rules *R;
    int keep;
    int oom;
    MoveList lists[DC_MAXPERFT + 1];
} PerftCtx;

static uint64_t perft_rec(PerftCtx *ctx, const Pos *p, int depth) {
    const Rules *R = ctx->R;
    int c = p->turn;
    MoveList *ml = &ctx->lists[depth];
    if (depth == 1) {
        int n = count_legal(R, p->side[c], p->side[1 - c], p->kings, c, ctx->keep, ml);
        if (ml->oom) ctx->oom = 1;
        return (uint64_t)n;
    }
    gen_legal(R, p->side[c], p->side[1 - c], p->kings, c, ctx->keep, ml);
    if (ml->oom) ctx->oom = 1;
    uint64_t total = 0;
    for (int i = 0; i < ml->n; i++) {
        Pos q;
        make_move(p, &ml->m[i], &q);
        total += perft_rec(ctx, &q, depth - 1);
    }
    return total;
}

/* Leaves at exactly `depth` plies; returns -1 when memory runs out (depth must be 1..DC_MAXPERFT). */
static int64_t perft(const Rules *R, const Pos *p, int depth, int keep) {
    PerftCtx ctx;
    int ok = 1;
    ctx.R = R;
    ctx.keep = keep;
    ctx.oom = 0;
    for (int d = 0; d <= depth; d++)
        if (ml_init(&ctx.lists[d], 0)) ok = 0;
    uint64_t n = ok ? perft_rec(&ctx, p, depth) : 0;
    for (int d = 0; d <= depth; d++) ml_free(&ctx.lists[d]);
    return ok && !ctx.oom ? (int64_t)n : -1;
}

#endif /* DCORE_H */
