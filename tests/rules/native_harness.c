/* A plain C program around the native core (no Python): reads a variant's rules tables and a position as
 * whitespace-separated numbers on stdin, prints perft at each depth up to the one asked, then the node count
 * of a fixed-depth search with a material-only evaluation. tests/rules/test_native_portable.py builds it
 * with -DDC_NO_BUILTINS to check the plain C fallbacks; the same file cross-compiles for the Raspberry Pi
 * (arm-linux-gnueabihf-gcc, aarch64-linux-gnu-gcc), see the README.
 *
 * Input: n pad_size | squares[n] | adj[8][n] | step[8][n] | dirs: 4 kinds x 2 colors, each "len items" |
 * crown: 2 x "len items" | man_long king_flying king_mode removal_end mid man_takes_kings partial
 * land_to_continue | rev[9] | "nprec items" | zobrist[4][n] zturn | position: 3 x "len squares" (white,
 * black, kings) turn | perft depth | search depth
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>

#include "dcore.h"
#include "deval.h"
#include "dsearch.h"

static long next(void) {
    long x;
    if (scanf("%ld", &x) != 1) {
        fprintf(stderr, "harness: input ended early\n");
        exit(2);
    }
    return x;
}

static bb_t read_set(void) {
    bb_t b = BB_ZERO;
    for (long k = next(); k > 0; k--) b = bb_or(b, bb_bit((int)next()));
    return b;
}

int main(void) {
    static Rules R;
    static Search S;
    R.n = (int)next();
    R.pad_size = (int)next();
    R.mask = BB_ZERO;
    for (int i = 0; i < R.n; i++) {
        R.sq_pad[i] = (int)next();
        R.mask = bb_or(R.mask, bb_bit(i));
    }
    for (int d = 0; d < DC_NDIR; d++)
        for (int s = 0; s < R.n; s++) {
            long v = next();
            R.adj[d][s] = v < 0 ? DC_NONE : (uint8_t)v;
        }
    for (int d = 0; d < DC_NDIR; d++)
        for (int s = 0; s < R.n; s++) {
            long v = next();
            R.step[d][s] = v < 0 ? DC_NONE : (uint8_t)v;
        }
    for (int kind = 0; kind < 4; kind++)
        for (int c = 0; c < 2; c++) {
            R.ndirs[kind][c] = (uint8_t)next();
            for (int i = 0; i < R.ndirs[kind][c]; i++) R.dirs[kind][c][i] = (uint8_t)next();
        }
    for (int c = 0; c < 2; c++) R.crown[c] = read_set();
    R.man_long = (int)next();
    R.king_flying = (int)next();
    R.king_mode = (int)next();
    R.removal_end = (int)next();
    R.mid = (int)next();
    R.man_takes_kings = (int)next();
    R.partial = (int)next();
    R.land_to_continue = (int)next();
    for (int i = 0; i <= DC_NDIR; i++) R.rev[i] = (int8_t)next();
    R.nprec = (int)next();
    for (int i = 0; i < R.nprec; i++) R.prec[i] = (uint8_t)next();
    for (int k = 0; k < 4; k++)
        for (int s = 0; s < R.n; s++)
            if (scanf("%" SCNu64, &R.zob[k][s]) != 1) return 2;
    if (scanf("%" SCNu64, &R.zturn) != 1) return 2;
    rules_finish(&R);
    Pos p;
    p.side[0] = read_set();
    p.side[1] = read_set();
    p.kings = read_set();
    p.turn = (int)next();
    int depth = (int)next(), sdepth = (int)next();
    for (int d = 1; d <= depth; d++) {
        for (int keep = 0; keep < 2; keep++) {
            int64_t n = perft(&R, &p, d, keep);
            if (n < 0) return 3;
            printf("perft %d %s %" PRId64 "\n", d, keep ? "keep" : "drop", n);
        }
    }
    /* a fixed-depth search with a material-only evaluation: same node count on every machine */
    S.R = R;
    for (int c = 0; c < 2; c++)
        for (int s = 0; s < R.n; s++) S.E.man_value[c][s] = 100;
    for (int s = 0; s < R.n; s++) S.E.king_value[s] = 300;
    eval_finish(&S.E, &R);
    S.no_move_loses = 1;
    S.extend_single = 1;
    S.reductions = 1;
    if (search_init(&S, 1 << 16)) return 3;
    RootInfo ri = {p, {0, 0}};
    MoveList moves;
    if (ml_init(&moves, 0)) return 3;
    int c = p.turn;
    gen_legal(&R, p.side[c], p.side[1 - c], p.kings, c, 0, &moves);
    RootResult res = {0};
    search_begin(&S, 0, 0);
    for (int d = 1; d <= sdepth && moves.n; d++) root_search(&S, &ri, &moves, d, &res);
    printf("search %d nodes %" PRIu64 " score %d\n", sdepth, S.nodes, moves.n ? res.score : 0);
    ml_free(&moves);
    search_free(&S);
    return 0;
}
