/* The LED frame last received from the host and its rendering (brightness, blinking) to GRB bytes. */
#ifndef DB_LEDS_H
#define DB_LEDS_H
#include <stdint.h>
#include "config.h"

enum { LED_OFF = 0, LED_ON = 1, LED_SLOW_BLINK = 2, LED_FAST_BLINK = 3 };

#define LED_GRB_BYTES (BOARD_SQUARES * 3)

typedef struct {
    uint8_t rows, cols, brightness;
    uint8_t px[BOARD_SQUARES][4]; /* r, g, b, pattern per square in row-major order */
    uint8_t dirty;                /* a new frame arrived since the last render */
    uint8_t blinking;             /* some square blinks: re-render on phase changes */
    uint8_t phase;                /* blink phase of the last render */
    uint32_t rendered_ms;
} leds_t;

/* Error codes shared with the protocol's ERROR message. */
#define LEDS_OK 0
#define LEDS_BAD_LENGTH 3
#define LEDS_BAD_SIZE 5

void leds_init(leds_t *l, uint8_t rows, uint8_t cols);

/* Take a LED_FRAME body (rows, cols, brightness, then r,g,b,pattern per square). Returns LEDS_OK,
 * LEDS_BAD_SIZE when rows/cols differ from the board, LEDS_BAD_LENGTH when the body length is wrong;
 * the current frame is kept on error. Unknown patterns render as off. */
uint8_t leds_set_frame(leds_t *l, const uint8_t *body, uint16_t len);

/* Blink phase at `now_ms`: bit 0 = slow blink lit (1 Hz, 50 %), bit 1 = fast blink lit (4 Hz, 50 %). */
uint8_t leds_phase(uint32_t now_ms);

/* Whether the chain must be rewritten now (new frame, blink phase change or periodic refresh). */
uint8_t leds_due(const leds_t *l, uint32_t now_ms);

/* Position of square (row, col) along the LED chain: serpentine, row 0 left to right, row 1 right to
 * left, and so on (hardware/wiring.md#leds-and-power-both-sizes). */
uint16_t leds_chain_index(const leds_t *l, uint8_t row, uint8_t col);

/* Render the frame as the chain expects it (G, R, B per LED, in chain order) into
 * `grb` (rows*cols*3 bytes) and mark it rendered at `now_ms`. Returns the byte count. */
uint16_t leds_render(leds_t *l, uint32_t now_ms, uint8_t *grb);

#endif
