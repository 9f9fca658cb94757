/* draughts-board firmware for the ATmega2560 (Arduino Mega): scans the reed-switch matrix once per
 * millisecond, debounces it, reports changes over USART0 (protocol v1) and drives the WS2812 chain.
 * All protocol logic lives in link.c / debounce.c / leds.c; this file is only the hardware glue. */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <avr/wdt.h>
#include <util/delay.h>
#include "config.h"
#include "debounce.h"
#include "leds.h"
#include "link.h"
#include "pins.h"
#include "ws2812.h"

#define BAUD_UBRR 16 /* 115200 baud with U2X at 16 MHz (117647, +2.1 %), as the Arduino core does */
#define ROW_SETTLE_US 5 /* let the pulled-up column lines settle after a row is driven */
#define BOOT_ID_EEPROM ((uint16_t *)0)
#define TX_REPLY_RESERVE 48 /* bytes: the largest frame we send (a 10x10 SNAPSHOT) is 28 on the wire */

/* ---- USART0: interrupt-driven RX and TX ring buffers ------------------------------------------ */
static volatile uint8_t rx_ring[256];
static volatile uint8_t rx_head, rx_tail; /* uint8_t indices wrap for free */
static volatile uint8_t rx_overruns;
static volatile uint8_t tx_ring[256];
static volatile uint8_t tx_head, tx_tail;

static void rx_push(uint8_t b)
{
    uint8_t next = (uint8_t)(rx_head + 1);
    if (next == rx_tail) {
        rx_overruns++;
        return;
    }
    rx_ring[rx_head] = b;
    rx_head = next;
}

ISR(USART0_RX_vect)
{
    rx_push(UDR0);
}

static int16_t tx_pop(void)
{
    if (tx_head == tx_tail)
        return -1;
    uint8_t b = tx_ring[tx_tail];
    tx_tail = (uint8_t)(tx_tail + 1);
    return b;
}

ISR(USART0_UDRE_vect)
{
    int16_t b = tx_pop();
    if (b < 0)
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
    else
        UDR0 = (uint8_t)b;
}

/* Free space in the TX ring. */
static uint8_t tx_free(void)
{
    return (uint8_t)(tx_tail - tx_head - 1u);
}

static void uart_init(void)
{
    UCSR0A = _BV(U2X0);
    UBRR0 = BAUD_UBRR;
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

/* Queue a whole frame; waits (interrupts on) while the ring is full, so no byte is ever dropped. */
static void uart_send(void *ctx, const uint8_t *bytes, uint16_t len)
{
    (void)ctx;
    for (uint16_t i = 0; i < len; i++) {
        uint8_t next = (uint8_t)(tx_head + 1);
        while (next == tx_tail)
            wdt_reset();
        tx_ring[tx_head] = bytes[i];
        tx_head = next;
        UCSR0B |= _BV(UDRIE0);
    }
}

/* ---- time: Timer1 free-running at 250 kHz, folded into milliseconds by the main loop -------------- */
static uint16_t t1_last;
static uint32_t now_ms;

static void time_init(void)
{
    TCCR1A = 0;
    TCCR1B = _BV(CS11) | _BV(CS10); /* clk/64 = 250 kHz, wraps every 262 ms */
    /* Timer0 CTC at 2 kHz only wakes the CPU from idle sleep (twice per scan period, so no millisecond
     * boundary of Timer1 is slept through). */
    TCCR0A = _BV(WGM01);
    TCCR0B = _BV(CS01) | _BV(CS00); /* clk/64 */
    OCR0A = 124;
    TIMSK0 = _BV(OCIE0A);
    t1_last = TCNT1;
}

EMPTY_INTERRUPT(TIMER0_COMPA_vect);

/* Advance now_ms; returns how many milliseconds passed. Robust to interrupts being off for a while. */
static uint16_t time_update(void)
{
    uint16_t now = TCNT1, passed = 0;
    while ((uint16_t)(now - t1_last) >= 250u) {
        t1_last += 250u;
        now_ms++;
        passed++;
    }
    return passed;
}

/* ---- matrix ------------------------------------------------------------------------------------- */
static const board_pin_t row_pins[10] = BOARD_ROW_PINS;
static const board_pin_t col_pins[10] = BOARD_COL_PINS;

typedef struct {
    volatile uint8_t *pin; /* PINx; DDRx = pin + 1, PORTx = pin + 2 on every AVR port */
    uint8_t mask;
} io_t;

static io_t rows_io[BOARD_ROWS], cols_io[BOARD_COLS];

static volatile uint8_t *pin_reg(char port)
{
    switch (port) {
    case 'A': return &PINA;
    case 'B': return &PINB;
    case 'C': return &PINC;
    case 'D': return &PIND;
    case 'E': return &PINE;
    case 'F': return &PINF;
    case 'G': return &PING;
    case 'H': return &PINH;
    case 'J': return &PINJ;
    case 'K': return &PINK;
    default: return &PINL;
    }
}

static void matrix_init(void)
{
    for (uint8_t r = 0; r < BOARD_ROWS; r++) {
        rows_io[r].pin = pin_reg(row_pins[r].port);
        rows_io[r].mask = (uint8_t)(1u << row_pins[r].bit);
        rows_io[r].pin[2] &= (uint8_t)~rows_io[r].mask; /* PORT 0: low when driven */
        rows_io[r].pin[1] &= (uint8_t)~rows_io[r].mask; /* DDR 0: high impedance */
    }
    for (uint8_t c = 0; c < BOARD_COLS; c++) {
        cols_io[c].pin = pin_reg(col_pins[c].port);
        cols_io[c].mask = (uint8_t)(1u << col_pins[c].bit);
        cols_io[c].pin[1] &= (uint8_t)~cols_io[c].mask; /* input */
        cols_io[c].pin[2] |= cols_io[c].mask;           /* pull-up */
    }
}

static debounce_t deb;
static leds_t leds;
static link_t link;
static uint8_t grb[LED_GRB_BYTES];

static void on_change(void *ctx, uint8_t row, uint8_t col, uint8_t occupied)
{
    (void)ctx;
    link_square_changed(&link, row, col, occupied, now_ms);
}

/* Drive one row low, read which columns it pulls low (bit c = switch (row, c) closed), release it. */
static uint16_t read_row(uint8_t r)
{
    io_t row = rows_io[r];
    row.pin[1] |= row.mask;
    _delay_us(ROW_SETTLE_US);
    uint16_t closed = 0;
    for (uint8_t c = 0; c < BOARD_COLS; c++)
        if (!(*cols_io[c].pin & cols_io[c].mask))
            closed |= (uint16_t)1u << c;
    row.pin[1] &= (uint8_t)~row.mask;
    return closed;
}

static void scan_matrix(void)
{
    for (uint8_t r = 0; r < BOARD_ROWS; r++)
        debounce_row(&deb, r, read_row(r), on_change, 0);
}

/* At boot: scan once per millisecond until DEBOUNCE_N consecutive full scans agree (at most 250 ms)
 * and take that as the initial state, reporting no CHANGEs for it (protocol.md section 5). */
static void settle_matrix(void)
{
    uint16_t prev[BOARD_ROWS], cur[BOARD_ROWS];
    uint8_t same = 0;
    for (uint8_t tries = 0; tries < 250 && same < DEBOUNCE_N; tries++) {
        while (!time_update())
            ;
        uint8_t equal = 1;
        for (uint8_t r = 0; r < BOARD_ROWS; r++) {
            cur[r] = read_row(r);
            if (tries && cur[r] != prev[r])
                equal = 0;
            prev[r] = cur[r];
        }
        same = equal ? (uint8_t)(same + 1) : 1;
    }
    for (uint8_t r = 0; r < BOARD_ROWS; r++) {
        debounce_seed(&deb, r, cur[r]);
        for (uint8_t c = 0; c < BOARD_COLS; c++)
            link_set_square(&link, r, c, (cur[r] >> c) & 1u);
    }
}

/* boot_id: a counter in EEPROM, incremented at every reset. */
static uint16_t next_boot_id(void)
{
    uint16_t id = (uint16_t)(eeprom_read_word(BOOT_ID_EEPROM) + 1u);
    eeprom_update_word(BOOT_ID_EEPROM, id);
    return id;
}

int main(void)
{
    MCUSR = 0;
    wdt_disable();
    uint16_t boot_id = next_boot_id();
    matrix_init();
    ws2812_init();
    uart_init();
    time_init();
    debounce_init(&deb, BOARD_ROWS, BOARD_COLS, DEBOUNCE_N);
    leds_init(&leds, BOARD_ROWS, BOARD_COLS);
    link_init(&link, BOARD_ROWS, BOARD_COLS, boot_id, &leds, uart_send, 0);
    wdt_enable(WDTO_1S);
    sei(); /* the RX ring buffers whatever the host sends while the matrix settles */
    settle_matrix();
    link_send_hello_reply(&link);

    uint16_t scans = 0;
    uint32_t second_start = 0;
    for (;;) {
        wdt_reset();
        /* Handle received bytes only while a whole reply fits in the TX ring: a host that sends faster
         * than the replies can leave must not stall the matrix scan (the RX ring absorbs the burst). */
        while (rx_tail != rx_head && tx_free() >= TX_REPLY_RESERVE) {
            uint8_t b = rx_ring[rx_tail];
            rx_tail = (uint8_t)(rx_tail + 1);
            link_rx_byte(&link, b, now_ms);
        }
        if (time_update()) {
            scan_matrix();
            scans++;
            if (now_ms - second_start >= 1000u) {
                link.scan_hz = scans;
                scans = 0;
                second_start = now_ms;
            }
            if (leds_due(&leds, now_ms)) {
                uint16_t n = leds_render(&leds, now_ms, grb);
                uint8_t during[48]; /* 3.2 ms at 115200 baud is at most 37 bytes */
                cli();
                uint8_t got = ws2812_send(grb, n, during, sizeof during);
                for (uint8_t i = 0; i < got; i++)
                    rx_push(during[i]);
                sei();
            }
        }
        cli();
        if (rx_tail == rx_head) {
            sleep_enable(); /* idle: timers and USART keep running and wake us */
            sei();
            sleep_cpu();
            sleep_disable();
        }
        sei();
    }
}
