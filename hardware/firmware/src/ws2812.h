/* WS2812 ("NeoPixel") output bit-banged on PB4 at 16 MHz. */
#ifndef DB_WS2812_H
#define DB_WS2812_H
#include <stdint.h>

void ws2812_init(void);

/* Shift out `len` bytes (G, R, B per LED). Call with interrupts disabled. Between bytes (line low, well
 * inside the latch threshold) USART0's receiver is polled and bytes are stored in `rx` (up to `rx_cap`),
 * so nothing sent by the host is lost during the ~3 ms a 100-LED frame takes (the USART holds only
 * two bytes). Returns the number of bytes stored; the caller queues them before re-enabling interrupts. */
uint8_t ws2812_send(const uint8_t *grb, uint16_t len, uint8_t *rx, uint8_t rx_cap);

#endif
