/* WS2812 timing at 16 MHz (62.5 ns/cycle): every bit is 20 cycles = 1.25 us; the line is high for
 * 6 cycles (375 ns) for a 0 and 13 cycles (812 ns) for a 1 (datasheet: T0H 0.4 us, T1H 0.8 us, each
 * +-150 ns). Interrupts are off while shifting; the per-byte gap stays near 2 us, far below the
 * >= 50 us reset (latch) time. */
#include <avr/io.h>
#include "pins.h"
#include "ws2812.h"

#if F_CPU != 16000000UL
#error "ws2812.c cycle counts are written for F_CPU = 16 MHz"
#endif

void ws2812_init(void)
{
    PORTB &= (uint8_t)~_BV(WS2812_BIT);
    DDRB |= _BV(WS2812_BIT);
}

static inline void send_byte(uint8_t byte, uint8_t hi, uint8_t lo)
{
    uint8_t bits;
    __asm__ volatile(
        "ldi  %[bits], 8\n\t"
        "1:\n\t"
        "out  %[port], %[hi]\n\t"   /* c0: line high */
        "nop\n\t"                   /* c1 */
        "nop\n\t"                   /* c2 */
        "nop\n\t"                   /* c3 */
        "nop\n\t"                   /* c4 */
        "sbrs %[byte], 7\n\t"       /* c5 (c5-c6 when skipping for a 1 bit) */
        "out  %[port], %[lo]\n\t"   /* c6: a 0 bit ends its high time (6 cycles) */
        "lsl  %[byte]\n\t"          /* c7 */
        "nop\n\t"                   /* c8 */
        "nop\n\t"                   /* c9 */
        "nop\n\t"                   /* c10 */
        "nop\n\t"                   /* c11 */
        "nop\n\t"                   /* c12 */
        "out  %[port], %[lo]\n\t"   /* c13: a 1 bit ends its high time (13 cycles) */
        "nop\n\t"                   /* c14 */
        "nop\n\t"                   /* c15 */
        "nop\n\t"                   /* c16 */
        "dec  %[bits]\n\t"          /* c17 */
        "brne 1b\n\t"               /* c18-c19: next bit starts at c20 */
        : [bits] "=&d"(bits), [byte] "+r"(byte)
        : [port] "I"(_SFR_IO_ADDR(PORTB)), [hi] "r"(hi), [lo] "r"(lo));
}

uint8_t ws2812_send(const uint8_t *grb, uint16_t len, uint8_t *rx, uint8_t rx_cap)
{
    uint8_t hi = PORTB | _BV(WS2812_BIT);
    uint8_t lo = PORTB & (uint8_t)~_BV(WS2812_BIT);
    uint8_t got = 0;
    while (len--) {
        send_byte(*grb++, hi, lo);
        if ((UCSR0A & _BV(RXC0)) && got < rx_cap)
            rx[got++] = UDR0;
    }
    return got;
}
