/* Compile-time configuration of the draughts-board firmware (override with -D on the command line). */
#ifndef DB_CONFIG_H
#define DB_CONFIG_H

#ifndef BOARD_ROWS
#define BOARD_ROWS 10 /* driven rows of the reed-switch matrix (max 10) */
#endif
#ifndef BOARD_COLS
#define BOARD_COLS 10 /* read columns of the reed-switch matrix (max 10) */
#endif
#ifndef DEBOUNCE_N
#define DEBOUNCE_N 4 /* equal consecutive readings (one per 1 ms scan) before a square changes */
#endif

#define BOARD_SQUARES (BOARD_ROWS * BOARD_COLS)
#define BOARD_BITMAP_BYTES ((BOARD_SQUARES + 7) / 8)

#define FW_MAJOR 1
#define FW_MINOR 0
#define SCAN_PERIOD_MS 1                      /* one full matrix scan per millisecond */
#define SCAN_HZ_NOMINAL (1000 / SCAN_PERIOD_MS)
#define LED_REFRESH_MS 1000                   /* refresh the LED chain at least this often */

#if BOARD_ROWS > 10 || BOARD_COLS > 10 || BOARD_ROWS < 1 || BOARD_COLS < 1
#error "BOARD_ROWS and BOARD_COLS must be 1..10 (the pin map has 10 rows and 10 columns)"
#endif

#endif
