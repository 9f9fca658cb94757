/* Per-square debouncing of the reed-switch matrix: a square changes after N equal consecutive readings. */
#ifndef DB_DEBOUNCE_H
#define DB_DEBOUNCE_H
#include <stdint.h>
#include "config.h"

typedef void (*debounce_change_fn)(void *ctx, uint8_t row, uint8_t col, uint8_t occupied);

typedef struct {
    uint8_t rows, cols, threshold;
    uint16_t stable[BOARD_ROWS];          /* debounced state, bit c = column c occupied */
    uint8_t count[BOARD_ROWS][BOARD_COLS]; /* consecutive readings that differ from `stable` */
} debounce_t;

/* All squares start empty; `threshold` readings (>= 1) of a new value make it the stable one. */
void debounce_init(debounce_t *d, uint8_t rows, uint8_t cols, uint8_t threshold);

/* Feed one raw reading of `row` (bit c set = switch closed); calls `on_change` for each square whose
 * debounced state flips, in column order. Returns the number of changes. */
uint8_t debounce_row(debounce_t *d, uint8_t row, uint16_t raw, debounce_change_fn on_change, void *ctx);

/* Take `raw` as the settled state of `row` without reporting changes (the state found at boot). */
void debounce_seed(debounce_t *d, uint8_t row, uint16_t raw);

/* The debounced state of one square (0/1). */
uint8_t debounce_get(const debounce_t *d, uint8_t row, uint8_t col);

#endif
