/* dsmp.h - the parallel search (Lazy SMP): helper threads search the same root over the shared
 * transposition table while the main thread runs the iteration Python asked for; only the main thread's
 * result is played, the helpers' work reaches it through the table (their entries cut its subtrees short).
 *
 * One iteration: smp_iterate() starts the helpers (the first, third, ... one ply deeper than the main thread,
 * the others at its depth, each then deepening on its own), runs root_search_from() on the main Search, then
 * raises the shared stop flag and joins them. The helpers never call Python (only the main thread does, with the GIL), so they poll the flag and
 * the deadline. With no helpers the main search runs exactly as it does alone.
 *
 * The table is shared without locks, as Lazy SMP engines do: a 16-byte entry written by one thread while
 * another reads it can be torn; a torn move never matches a generated move (tt_move_is), a torn score is
 * a wrong bound for one node - the cost of no locking, never a crash.
 */
#ifndef DSMP_H
#define DSMP_H

#include <pthread.h>

#include "dsearch.h"

#define SMP_MAX_THREADS 64

typedef struct {
    Search s;        /* its own lists, killers, history, path and counts; s.tt is the main search's */
    RootInfo ri;
    MoveList root;   /* its own copy of the root moves (root_search reorders them) */
    int depth;       /* the first depth it searches */
    int guess;       /* the score its aspiration window starts around */
    pthread_t thread;
    int running;
} Helper;

typedef struct {
    int n;           /* helpers: threads - 1 */
    Helper *h[SMP_MAX_THREADS];
    atomic_int stop;
} Smp;

/* n helpers sharing main's table and copying its rules and evaluation; -1 when out of memory. */
static int smp_init(Smp *smp, const Search *main, int n) {
    memset(smp, 0, sizeof *smp);
    atomic_init(&smp->stop, 0);
    for (int i = 0; i < n && i < SMP_MAX_THREADS; i++) {
        Helper *h = (Helper *)calloc(1, sizeof(Helper));
        if (!h) return -1;
        smp->h[smp->n++] = h;
        h->s.R = main->R;
        h->s.E = main->E;
        h->s.tt = main->tt;
        h->s.tt_mask = main->tt_mask;
        for (int j = 0; j < S_MAX_PLY + 2; j++)
            if (ml_init(&h->s.lists[j], 0)) return -1;
        if (ml_init(&h->root, 0)) return -1;
    }
    return 0;
}

static void smp_free(Smp *smp) {
    for (int i = 0; i < smp->n; i++) {
        Helper *h = smp->h[i];
        for (int j = 0; j < S_MAX_PLY + 2; j++) ml_free(&h->s.lists[j]);
        ml_free(&h->root);
        free(h);
        smp->h[i] = NULL;
    }
    smp->n = 0;
}

/* The helpers' killers and history (the table is the main search's, cleared with it). */
static void smp_clear(Smp *smp) {
    for (int i = 0; i < smp->n; i++) {
        memset(smp->h[i]->s.history, 0, sizeof smp->h[i]->s.history);
        memset(smp->h[i]->s.killers, 0, sizeof smp->h[i]->s.killers);
    }
}

static void *smp_helper_main(void *arg) {
    Helper *h = (Helper *)arg;
    for (int d = h->depth; d <= S_MAX_PLY; d++) {
        RootResult r;
        root_search_from(&h->s, &h->ri, &h->root, d, h->guess, &r);
        if (h->s.aborted || atomic_load_explicit(h->s.stop_flag, memory_order_relaxed)) break;
        if (r.has_move) h->guess = r.score;
    }
    return NULL;
}

/* One helper's view of this search: main's options, game, counters and deadline, its own node count. */
static int smp_prepare(Smp *smp, Helper *h, const Search *main, const RootInfo *ri, const MoveList *moves) {
    Search *s = &h->s;
    s->no_move_loses = main->no_move_loses;
    s->king_vs_single_man = main->king_vs_single_man;
    s->endgame_rules = main->endgame_rules;
    s->extend_single = main->extend_single;
    s->reductions = main->reductions;
    s->lmr = main->lmr;
    s->lmr_divisor = main->lmr_divisor;
    memcpy(s->lmr_table, main->lmr_table, sizeof s->lmr_table);
    s->probcut_margin = main->probcut_margin;
    s->probcut_reduction = main->probcut_reduction;
    s->probcut_depth = main->probcut_depth;
    s->aspiration = main->aspiration;
    s->history_malus = main->history_malus;
    s->eg = main->eg;   /* the endgame tables are read only: every thread probes them */
    s->eg_hits = 0;
    s->age = main->age;
    memcpy(s->game_keys, main->game_keys, sizeof s->game_keys);
    s->ngame = main->ngame;
    s->quiet_limit = main->quiet_limit;
    s->draw_root = main->draw_root;
    s->nodes = 0;
    s->node_limit = 0;
    s->next_check = 1024;
    s->checks = 0;
    s->aborted = 0;
    s->deadline = main->deadline;
    s->stop_fn = NULL;
    s->stop_ctx = NULL;
    s->stop_flag = &smp->stop;
    h->ri = *ri;
    ml_clear(&h->root);
    for (int i = 0; i < moves->n; i++) {
        DMove *m = ml_add(&h->root);
        if (!m) return -1;
        *m = moves->m[i];
    }
    return 0;
}

/* root_search() on main with the helpers searching alongside; returns the nodes of the helpers. */
static uint64_t smp_iterate(Smp *smp, Search *main, const RootInfo *ri, MoveList *moves, int depth, int guess,
                            RootResult *out) {
    atomic_store(&smp->stop, 0);
    for (int i = 0; i < smp->n; i++) {
        Helper *h = smp->h[i];
        h->running = 0;
        h->depth = depth + (i % 2 == 0 ? 1 : 0);
        h->guess = guess;
        if (h->depth > S_MAX_PLY) h->depth = S_MAX_PLY;
        if (smp_prepare(smp, h, main, ri, moves)) continue;
        h->running = pthread_create(&h->thread, NULL, smp_helper_main, h) == 0;
    }
    root_search_from(main, ri, moves, depth, guess, out);
    atomic_store(&smp->stop, 1);
    uint64_t nodes = 0;
    for (int i = 0; i < smp->n; i++) {
        Helper *h = smp->h[i];
        if (!h->running) continue;
        pthread_join(h->thread, NULL);
        h->running = 0;
        nodes += h->s.nodes;
    }
    return nodes;
}

#endif /* DSMP_H */
