/* Counter-per-square debouncer: cheap (one byte per square) and immune to single-scan glitches. */
#include "debounce.h"

void debounce_init(debounce_t *d, uint8_t rows, uint8_t cols, uint8_t threshold)
{
    d->rows = rows;
    d->cols = cols;
    d->threshold = threshold ? threshold : 1;
    for (uint8_t r = 0; r < BOARD_ROWS; r++) {
        d->stable[r] = 0;
        for (uint8_t c = 0; c < BOARD_COLS; c++)
            d->count[r][c] = 0;
    }
}

uint8_t debounce_row(debounce_t *d, uint8_t row, uint16_t raw, debounce_change_fn on_change, void *ctx)
{
    uint8_t changes = 0;
    if (row >= d->rows)
        return 0;
    for (uint8_t c = 0; c < d->cols; c++) {
        uint16_t bit = (uint16_t)1u << c;
        if ((raw & bit) == (d->stable[row] & bit)) {
            d->count[row][c] = 0;
            continue;
        }
        if (++d->count[row][c] < d->threshold)
            continue;
        d->count[row][c] = 0;
        d->stable[row] ^= bit;
        changes++;
        if (on_change)
            on_change(ctx, row, c, (d->stable[row] & bit) ? 1 : 0);
    }
    return changes;
}

void debounce_seed(debounce_t *d, uint8_t row, uint16_t raw)
{
    if (row >= d->rows)
        return;
    d->stable[row] = raw & (uint16_t)((1u << d->cols) - 1u);
    for (uint8_t c = 0; c < BOARD_COLS; c++)
        d->count[row][c] = 0;
}

uint8_t debounce_get(const debounce_t *d, uint8_t row, uint8_t col)
{
    return (row < d->rows && col < d->cols && (d->stable[row] >> col) & 1u) ? 1 : 0;
}
