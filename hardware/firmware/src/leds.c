/* LED frame storage and rendering: pure logic, the AVR side only shifts the bytes out. */
#include "leds.h"

void leds_init(leds_t *l, uint8_t rows, uint8_t cols)
{
    l->rows = rows;
    l->cols = cols;
    l->brightness = 255;
    for (uint16_t i = 0; i < BOARD_SQUARES; i++)
        l->px[i][0] = l->px[i][1] = l->px[i][2] = l->px[i][3] = 0;
    l->dirty = 1; /* blank the chain once at boot */
    l->blinking = 0;
    l->phase = 0;
    l->rendered_ms = 0;
}

uint8_t leds_set_frame(leds_t *l, const uint8_t *body, uint16_t len)
{
    if (len < 3)
        return LEDS_BAD_LENGTH;
    if (body[0] != l->rows || body[1] != l->cols)
        return LEDS_BAD_SIZE;
    uint16_t n = (uint16_t)l->rows * l->cols;
    if (len != 3u + 4u * n)
        return LEDS_BAD_LENGTH;
    uint8_t blinking = 0;
    for (uint16_t i = 0; i < n; i++) {
        for (uint8_t k = 0; k < 4; k++)
            l->px[i][k] = body[3 + 4 * i + k];
        if (l->px[i][3] >= LED_SLOW_BLINK)
            blinking = 1;
    }
    l->brightness = body[2];
    l->blinking = blinking;
    l->dirty = 1;
    return LEDS_OK;
}

uint8_t leds_phase(uint32_t now_ms)
{
    return (uint8_t)(((now_ms % 1000u) < 500u ? 1u : 0u) | ((now_ms % 250u) < 125u ? 2u : 0u));
}

uint8_t leds_due(const leds_t *l, uint32_t now_ms)
{
    if (l->dirty)
        return 1;
    if (l->blinking && leds_phase(now_ms) != l->phase)
        return 1;
    return (uint32_t)(now_ms - l->rendered_ms) >= LED_REFRESH_MS;
}

static uint8_t scale(uint8_t v, uint8_t brightness)
{
    /* floor(value * brightness / 255) as protocol.md says, without a division (exact for x <= 65025) */
    uint16_t x = (uint16_t)v * brightness;
    return (uint8_t)((x + 1u + (x >> 8)) >> 8);
}

uint16_t leds_chain_index(const leds_t *l, uint8_t row, uint8_t col)
{
    uint8_t c = (row & 1u) ? (uint8_t)(l->cols - 1u - col) : col; /* serpentine: odd rows run backwards */
    return (uint16_t)((uint16_t)row * l->cols + c);
}

uint16_t leds_render(leds_t *l, uint32_t now_ms, uint8_t *grb)
{
    uint8_t phase = leds_phase(now_ms);
    uint16_t i = 0;
    for (uint8_t row = 0; row < l->rows; row++) {
        for (uint8_t col = 0; col < l->cols; col++, i++) {
            uint8_t pattern = l->px[i][3];
            uint8_t lit = pattern == LED_ON || (pattern == LED_SLOW_BLINK && (phase & 1u)) ||
                          (pattern == LED_FAST_BLINK && (phase & 2u)); /* unknown patterns: off */
            uint8_t *out = grb + 3u * leds_chain_index(l, row, col);
            out[0] = lit ? scale(l->px[i][1], l->brightness) : 0;
            out[1] = lit ? scale(l->px[i][0], l->brightness) : 0;
            out[2] = lit ? scale(l->px[i][2], l->brightness) : 0;
        }
    }
    l->dirty = 0;
    l->phase = phase;
    l->rendered_ms = now_ms;
    return (uint16_t)(3u * i);
}
