/* Host unit tests of the firmware logic (no AVR): CRC, COBS, framer, debounce, LEDs, protocol handling.
 * Expected bytes come from the examples in hardware/protocol.md. Prints one line per failed check and a
 * final "N passed, N failed" line (N = test functions); exits non-zero on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cobs.h"
#include "crc16.h"
#include "debounce.h"
#include "leds.h"
#include "link.h"

static int failures_in_test;

#define CHECK(cond)                                                                                 \
    do {                                                                                            \
        if (!(cond)) {                                                                              \
            printf("  FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                \
            failures_in_test++;                                                                     \
        }                                                                                           \
    } while (0)

#define CHECK_EQ(a, b)                                                                              \
    do {                                                                                            \
        long long _a = (long long)(a), _b = (long long)(b);                                         \
        if (_a != _b) {                                                                             \
            printf("  FAIL %s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, #a, _a, _b);    \
            failures_in_test++;                                                                     \
        }                                                                                           \
    } while (0)

static size_t parse_hex(const char *hex, uint8_t *out)
{
    size_t n = 0;
    unsigned v;
    int used;
    while (sscanf(hex, " %2x%n", &v, &used) == 1) {
        out[n++] = (uint8_t)v;
        hex += used;
    }
    return n;
}

#define CHECK_BYTES(got, got_len, hex)                                                              \
    do {                                                                                            \
        uint8_t _want[1024];                                                                        \
        size_t _wn = parse_hex(hex, _want);                                                         \
        if ((size_t)(got_len) != _wn || memcmp(got, _want, _wn) != 0) {                             \
            printf("  FAIL %s:%d: bytes differ from %s:\n   got ", __FILE__, __LINE__, hex);        \
            for (size_t _i = 0; _i < (size_t)(got_len); _i++)                                       \
                printf("%02x ", (got)[_i]);                                                         \
            printf("\n");                                                                           \
            failures_in_test++;                                                                     \
        }                                                                                           \
    } while (0)

/* ---- a capture of everything the link sends ---------------------------------------------------- */
typedef struct {
    uint8_t bytes[8192];
    size_t len;
} capture_t;

static void capture_send(void *ctx, const uint8_t *bytes, uint16_t len)
{
    capture_t *c = ctx;
    memcpy(c->bytes + c->len, bytes, len);
    c->len += len;
}

/* Decode the i-th frame of a capture into payload; returns payload length or -1. */
static int capture_frame(const capture_t *c, int index, uint8_t *payload)
{
    size_t start = 0;
    for (size_t i = 0; i < c->len; i++) {
        if (c->bytes[i] != 0)
            continue;
        if (index-- == 0)
            return cobs_decode(c->bytes + start, (uint16_t)(i - start), payload);
        start = i + 1;
    }
    return -1;
}

static int capture_count(const capture_t *c)
{
    int n = 0;
    for (size_t i = 0; i < c->len; i++)
        n += c->bytes[i] == 0;
    return n;
}

static void feed(link_t *k, const uint8_t *wire, size_t n, uint32_t now)
{
    for (size_t i = 0; i < n; i++)
        link_rx_byte(k, wire[i], now);
}

/* Encode a host->MCU frame with arbitrary payload (CRC appended when `with_crc`). */
static size_t host_frame(const uint8_t *payload_wo_crc, size_t n, int with_crc, uint8_t *wire)
{
    uint8_t p[600];
    memcpy(p, payload_wo_crc, n);
    if (with_crc) {
        uint16_t crc = crc16(p, (uint16_t)n);
        p[n++] = (uint8_t)crc;
        p[n++] = (uint8_t)(crc >> 8);
    }
    size_t w = cobs_encode(p, (uint16_t)n, wire);
    wire[w++] = 0;
    return w;
}

static leds_t test_leds;
static capture_t cap;

static void new_link(link_t *k, uint8_t rows, uint8_t cols)
{
    memset(&cap, 0, sizeof cap);
    leds_init(&test_leds, rows, cols);
    link_init(k, rows, cols, 0xBEEF, &test_leds, capture_send, &cap);
}

/* ---- tests -------------------------------------------------------------------------------------- */
static void test_crc_check_value(void)
{
    CHECK_EQ(crc16((const uint8_t *)"123456789", 9), 0x29B1);
    CHECK_EQ(crc16((const uint8_t *)"", 0), 0xFFFF);
    uint8_t hello[4] = {1, 1, 0, 0};
    CHECK_EQ(crc16(hello, 4), 0xC544);
}

static void test_cobs_protocol_example(void)
{
    uint8_t payload[32], wire[40], back[40];
    size_t n = parse_hex("01 83 07 00 01 00 00 00 02 03 01 e8 03 00 00 88 74", payload);
    uint16_t w = cobs_encode(payload, (uint16_t)n, wire);
    CHECK_BYTES(wire, w, "04 01 83 07 02 01 01 01 06 02 03 01 e8 03 01 03 88 74");
    CHECK_EQ(cobs_decode(wire, w, back), (long long)n);
    CHECK(memcmp(back, payload, n) == 0);
}

static void test_cobs_round_trip_all_lengths(void)
{
    static uint8_t in[600], enc[700], dec[700];
    unsigned seed = 12345;
    for (int len = 0; len <= 600; len++) {
        for (int i = 0; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            /* mix long zero-free runs (254-byte block boundary) with frequent zeros */
            in[i] = (len % 3 == 0) ? (uint8_t)(1 + (seed >> 16) % 255) : (uint8_t)((seed >> 16) % 4);
        }
        uint16_t w = cobs_encode(in, (uint16_t)len, enc);
        CHECK(w <= COBS_MAX_ENCODED(len));
        CHECK(memchr(enc, 0, w) == NULL);
        int16_t d = cobs_decode(enc, w, dec);
        CHECK_EQ(d, len);
        if (d == len)
            CHECK(memcmp(in, dec, (size_t)len) == 0);
    }
}

static void test_cobs_254_run(void)
{
    uint8_t in[254], enc[300], dec[300];
    for (int i = 0; i < 254; i++)
        in[i] = (uint8_t)(i + 1 > 255 ? 1 : i + 1);
    uint16_t w = cobs_encode(in, 254, enc);
    CHECK_EQ(w, 256); /* 0xFF block of 254 + trailing code 0x01 */
    CHECK_EQ(enc[0], 0xFF);
    CHECK_EQ(enc[255], 0x01);
    CHECK_EQ(cobs_decode(enc, w, dec), 254);
}

static void test_cobs_rejects_bad_input(void)
{
    uint8_t out[16];
    const uint8_t zero_inside[] = {0x03, 0x01, 0x00};
    const uint8_t runs_past_end[] = {0x05, 0x01, 0x02};
    const uint8_t zero_code[] = {0x00};
    CHECK_EQ(cobs_decode(zero_inside, 3, out), -1);
    CHECK_EQ(cobs_decode(runs_past_end, 3, out), -1);
    CHECK_EQ(cobs_decode(zero_code, 1, out), -1);
}

static void test_framer_splits_and_recovers(void)
{
    static framer_t f;
    framer_init(&f);
    CHECK_EQ(framer_push(&f, 0), 0); /* empty frame ignored */
    CHECK_EQ(framer_push(&f, 7), 0);
    CHECK_EQ(framer_push(&f, 8), 0);
    CHECK_EQ(framer_push(&f, 0), 2);
    CHECK(f.buf[0] == 7 && f.buf[1] == 8);
    for (int i = 0; i < FRAMER_CAPACITY + 10; i++)
        CHECK_EQ(framer_push(&f, 1), 0);
    CHECK_EQ(framer_push(&f, 0), FRAMER_OVERSIZE);
    CHECK_EQ(f.overflows, 1);
    CHECK_EQ(framer_push(&f, 9), 0);
    CHECK_EQ(framer_push(&f, 0), 1);
}

static void test_encode_matches_protocol_examples(void)
{
    uint8_t wire[64];
    uint8_t change[11] = {1, 0, 0, 0, 2, 3, 1, 0xe8, 0x03, 0, 0};
    uint16_t n = link_encode_frame(MSG_CHANGE, 7, change, 11, wire);
    CHECK_BYTES(wire, n, "04 01 83 07 02 01 01 01 06 02 03 01 e8 03 01 03 88 74 00");
    uint8_t hb[8] = {0x40, 0xe2, 0x01, 0x00, 42, 0, 0, 0};
    n = link_encode_frame(MSG_HEARTBEAT_REPLY, 3, hb, 8, wire);
    CHECK_BYTES(wire, n, "04 01 85 03 04 40 e2 01 02 2a 01 01 03 72 a2 00");
    uint8_t ack[3] = {0x04, 17, 0};
    n = link_encode_frame(MSG_ACK, 4, ack, 3, wire);
    CHECK_BYTES(wire, n, "04 01 86 04 03 04 11 03 ea 75 00");
}

static void test_hello_reply_example(void)
{
    link_t k;
    new_link(&k, 8, 8);
    k.scan_hz = 500;
    link_send_hello_reply(&k);
    CHECK_BYTES(cap.bytes, cap.len, "03 01 81 01 02 01 09 08 08 ef be f4 01 0d e4 00");
}

static void test_snapshot_example(void)
{
    link_t k;
    new_link(&k, 8, 8);
    k.tx_seq = 2;
    link_set_square(&k, 0, 0, 1);
    link_set_square(&k, 2, 3, 1);
    link_set_square(&k, 7, 7, 1);
    link_set_square(&k, 5, 5, 1);
    link_set_square(&k, 5, 5, 0);
    k.event_seq = 5;
    link_send_snapshot(&k);
    CHECK_BYTES(cap.bytes, cap.len, "04 01 82 02 02 05 01 01 04 08 08 01 02 08 01 01 01 04 80 56 1a 00");
}

static void test_snapshot_10x10_unused_bits_zero(void)
{
    link_t k;
    uint8_t p[64];
    new_link(&k, 10, 10);
    link_set_square(&k, 9, 9, 1);
    link_send_snapshot(&k);
    int n = capture_frame(&cap, 0, p);
    CHECK_EQ(n, 6 + 19);
    CHECK_EQ(p[1], MSG_SNAPSHOT);
    CHECK_EQ(p[4 + 4], 10);
    CHECK_EQ(p[4 + 5], 10);
    CHECK_EQ(p[4 + 6 + 12], 0x08); /* square 99 = byte 12 bit 3; bits 100..103 zero */
}

static void test_hello_heartbeat_snapshot_requests(void)
{
    link_t k;
    uint8_t wire[64], p[64];
    new_link(&k, 10, 10);
    feed(&k, (const uint8_t *)"\x03\x01\x01\x01\x03\x44\xc5\x00", 8, 5); /* HELLO example from protocol.md */
    int n = capture_frame(&cap, 0, p);
    CHECK_EQ(n, 14);
    CHECK_EQ(p[1], MSG_HELLO_REPLY);
    CHECK(p[4] == FW_MAJOR && p[6] == 10 && p[7] == 10 && p[8] == 0xEF && p[9] == 0xBE);

    link_square_changed(&k, 4, 6, 1, 77);
    uint8_t hb[4] = {1, MSG_HEARTBEAT, 9, 0};
    feed(&k, wire, host_frame(hb, 4, 1, wire), 123456);
    n = capture_frame(&cap, 2, p);
    CHECK_EQ(n, 14);
    CHECK_EQ(p[1], MSG_HEARTBEAT_REPLY);
    CHECK_EQ(p[2], 2); /* our third frame */
    CHECK(p[4] == 0x40 && p[5] == 0xe2 && p[6] == 0x01 && p[7] == 0);
    CHECK_EQ(p[8], 1); /* event_seq */

    uint8_t sr[4] = {1, MSG_SNAPSHOT_REQUEST, 10, 0};
    feed(&k, wire, host_frame(sr, 4, 1, wire), 200);
    n = capture_frame(&cap, 3, p);
    CHECK_EQ(p[1], MSG_SNAPSHOT);
    CHECK_EQ(p[4], 1);
    CHECK_EQ(p[4 + 6 + 5], 1u << 6); /* square 46 = byte 5 bit 6 */
}

static void test_change_numbering(void)
{
    link_t k;
    uint8_t p[64];
    new_link(&k, 10, 10);
    link_square_changed(&k, 2, 3, 1, 1000);
    link_square_changed(&k, 2, 3, 0, 1500);
    CHECK_EQ(capture_count(&cap), 2);
    CHECK_EQ(capture_frame(&cap, 1, p), 17);
    CHECK_EQ(p[1], MSG_CHANGE);
    CHECK_EQ(p[2], 1);  /* frame_seq */
    CHECK_EQ(p[4], 2);  /* event_seq */
    CHECK(p[8] == 2 && p[9] == 3 && p[10] == 0);
    CHECK(p[11] == 0xdc && p[12] == 0x05); /* 1500 ms */
    CHECK_EQ(k.occupied[2], 0);
}

static size_t led_frame_payload(uint8_t *p, uint8_t rows, uint8_t cols, uint8_t brightness, uint16_t seq)
{
    size_t n = 0;
    p[n++] = 1;
    p[n++] = MSG_LED_FRAME;
    p[n++] = (uint8_t)seq;
    p[n++] = (uint8_t)(seq >> 8);
    p[n++] = rows;
    p[n++] = cols;
    p[n++] = brightness;
    for (int i = 0; i < rows * cols; i++) {
        p[n++] = (uint8_t)(i == 0 ? 255 : 0);
        p[n++] = (uint8_t)(i == 0 ? 3 : 0);
        p[n++] = (uint8_t)(i == rows * cols - 1 ? 255 : 0);
        p[n++] = (uint8_t)(i == 0 ? LED_ON : (i == rows * cols - 1 ? LED_FAST_BLINK : LED_OFF));
    }
    return n;
}

static void test_led_frame_ack_and_render(void)
{
    link_t k;
    static uint8_t pl[600], wire[700], p[64], grb[LED_GRB_BYTES];
    new_link(&k, 10, 10);
    size_t n = led_frame_payload(pl, 10, 10, 128, 0x1234);
    feed(&k, wire, host_frame(pl, n, 1, wire), 0);
    CHECK_EQ(capture_frame(&cap, 0, p), 9);
    CHECK_EQ(p[1], MSG_ACK);
    CHECK(p[4] == MSG_LED_FRAME && p[5] == 0x34 && p[6] == 0x12);
    CHECK(leds_due(&test_leds, 0));
    CHECK_EQ(leds_render(&test_leds, 10, grb), 300);
    CHECK(grb[0] == 1 && grb[1] == 128 && grb[2] == 0); /* G, R, B of (0,0): 3 * 128 / 255 floors to 1 */
    /* (9,9): row 9 is odd, so serpentine puts column 9 at chain index 90 */
    CHECK_EQ(leds_chain_index(&test_leds, 9, 9), 90);
    CHECK_EQ(leds_chain_index(&test_leds, 1, 0), 19);
    CHECK_EQ(grb[3 * 90 + 2], 128); /* fast blink lit during 0..124 ms */
    CHECK(!leds_due(&test_leds, 100));
    CHECK(leds_due(&test_leds, 130)); /* fast blink phase flips at 125 ms */
    leds_render(&test_leds, 130, grb);
    CHECK_EQ(grb[3 * 90 + 2], 0);
    CHECK_EQ(grb[1], 128); /* steady square stays lit */
}

static void test_led_frame_errors(void)
{
    link_t k;
    static uint8_t pl[600], wire[700], p[64];
    new_link(&k, 10, 10);
    size_t n = led_frame_payload(pl, 8, 8, 255, 1); /* well-formed 8x8 frame to a 10x10 board */
    feed(&k, wire, host_frame(pl, n, 1, wire), 0);
    CHECK_EQ(capture_frame(&cap, 0, p), 8);
    CHECK(p[1] == MSG_ERROR && p[4] == ERR_BAD_SIZE && p[5] == MSG_LED_FRAME);
    n = led_frame_payload(pl, 10, 10, 255, 2);
    feed(&k, wire, host_frame(pl, n - 1, 1, wire), 0); /* one byte short */
    capture_frame(&cap, 1, p);
    CHECK(p[1] == MSG_ERROR && p[4] == ERR_BAD_LENGTH && p[5] == MSG_LED_FRAME);
    CHECK_EQ(test_leds.dirty, 1); /* still only the boot blanking pending: frame not taken */
    CHECK_EQ(test_leds.px[0][3], LED_OFF);
}

static void test_bad_frames_answered_with_errors(void)
{
    link_t k;
    uint8_t wire[64], p[64];
    new_link(&k, 10, 10);
    uint8_t hello[4] = {1, MSG_HELLO, 0, 0};
    size_t n = host_frame(hello, 4, 1, wire);
    wire[1] ^= 0x40; /* corrupt a byte that is not the delimiter: CRC fails */
    feed(&k, wire, n, 0);
    capture_frame(&cap, 0, p);
    CHECK(p[1] == MSG_ERROR && p[4] == ERR_BAD_CRC);

    uint8_t v2[4] = {2, MSG_HELLO, 0, 0};
    feed(&k, wire, host_frame(v2, 4, 1, wire), 0);
    capture_frame(&cap, 1, p);
    CHECK(p[1] == MSG_ERROR && p[4] == ERR_BAD_VERSION && p[5] == MSG_HELLO);

    uint8_t unknown[4] = {1, 0x33, 0, 0};
    feed(&k, wire, host_frame(unknown, 4, 1, wire), 0);
    capture_frame(&cap, 2, p);
    CHECK(p[1] == MSG_ERROR && p[4] == ERR_UNKNOWN_TYPE && p[5] == 0x33);

    uint8_t hello_body[5] = {1, MSG_HELLO, 0, 0, 9};
    feed(&k, wire, host_frame(hello_body, 5, 1, wire), 0);
    capture_frame(&cap, 3, p);
    CHECK(p[1] == MSG_ERROR && p[4] == ERR_BAD_LENGTH && p[5] == MSG_HELLO);

    uint8_t tiny[3] = {1, MSG_HELLO, 0};
    feed(&k, wire, host_frame(tiny, 3, 0, wire), 0);
    capture_frame(&cap, 4, p);
    CHECK(p[1] == MSG_ERROR && p[4] == ERR_BAD_LENGTH);

    const uint8_t bad_cobs[] = {0x05, 0x01, 0x00};
    feed(&k, bad_cobs, sizeof bad_cobs, 0);
    CHECK_EQ(capture_count(&cap), 5); /* COBS failures are only counted */
    CHECK_EQ(k.rx_dropped, 1);

    for (int i = 0; i < 700; i++)
        link_rx_byte(&k, 0x11, 0);
    link_rx_byte(&k, 0, 0);
    capture_frame(&cap, 5, p);
    CHECK(p[1] == MSG_ERROR && p[4] == ERR_BAD_SIZE);

    /* and the link still works afterwards */
    uint8_t ok[4] = {1, MSG_HELLO, 1, 0};
    feed(&k, wire, host_frame(ok, 4, 1, wire), 0);
    capture_frame(&cap, 6, p);
    CHECK_EQ(p[1], MSG_HELLO_REPLY);
    CHECK_EQ(k.rx_errors, 6);
}

typedef struct {
    int n;
    uint8_t row[32], col[32], occ[32];
} changes_t;

static void record_change(void *ctx, uint8_t row, uint8_t col, uint8_t occupied)
{
    changes_t *c = ctx;
    c->row[c->n] = row;
    c->col[c->n] = col;
    c->occ[c->n] = occupied;
    c->n++;
}

static void test_debounce_needs_n_equal_readings(void)
{
    debounce_t d;
    changes_t ch = {0};
    debounce_init(&d, 10, 10, 4);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(debounce_row(&d, 2, 1u << 3, record_change, &ch), 0);
    CHECK_EQ(debounce_get(&d, 2, 3), 0);
    CHECK_EQ(debounce_row(&d, 2, 1u << 3, record_change, &ch), 1);
    CHECK(ch.n == 1 && ch.row[0] == 2 && ch.col[0] == 3 && ch.occ[0] == 1);
    CHECK_EQ(debounce_get(&d, 2, 3), 1);
}

static void test_debounce_ignores_bounce(void)
{
    debounce_t d;
    changes_t ch = {0};
    debounce_init(&d, 10, 10, 4);
    /* a bouncing contact: closed, open, closed, closed, open, ... never 4 in a row */
    const int pattern[] = {1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 0};
    for (size_t i = 0; i < sizeof pattern / sizeof *pattern; i++)
        debounce_row(&d, 0, pattern[i] ? 1u : 0u, record_change, &ch);
    CHECK_EQ(ch.n, 0);
    for (int i = 0; i < 4; i++)
        debounce_row(&d, 0, 1u, record_change, &ch);
    CHECK_EQ(ch.n, 1);
}

static void test_debounce_reports_in_column_order_and_seed(void)
{
    debounce_t d;
    changes_t ch = {0};
    debounce_init(&d, 10, 10, 2);
    debounce_seed(&d, 5, (1u << 9) | (1u << 0));
    CHECK_EQ(debounce_get(&d, 5, 9), 1);
    for (int i = 0; i < 2; i++)
        debounce_row(&d, 5, (1u << 1) | (1u << 8), record_change, &ch);
    CHECK_EQ(ch.n, 4);
    CHECK(ch.col[0] == 0 && ch.occ[0] == 0);
    CHECK(ch.col[1] == 1 && ch.occ[1] == 1);
    CHECK(ch.col[2] == 8 && ch.occ[2] == 1);
    CHECK(ch.col[3] == 9 && ch.occ[3] == 0);
    CHECK_EQ(debounce_row(&d, 12, 0x3FF, record_change, &ch), 0); /* out-of-range row ignored */
}

static void test_brightness_scaling_is_exact(void)
{
    static leds_t l;
    static uint8_t grb[LED_GRB_BYTES];
    leds_init(&l, 10, 10);
    for (int i = 0; i < 100; i++) {
        l.px[i][0] = (uint8_t)i;               /* r: 0..99 */
        l.px[i][1] = (uint8_t)(100 + i);       /* g: 100..199 */
        l.px[i][2] = (uint8_t)(i < 56 ? 200 + i : 255); /* b: 200..255 */
        l.px[i][3] = LED_ON;
    }
    int bad = 0;
    for (int b = 0; b < 256; b++) {
        l.brightness = (uint8_t)b;
        leds_render(&l, 0, grb);
        for (int row = 0; row < 10; row++)
            for (int col = 0; col < 10; col++) {
                int i = row * 10 + col;
                const uint8_t *o = grb + 3 * leds_chain_index(&l, (uint8_t)row, (uint8_t)col);
                bad += o[0] != l.px[i][1] * b / 255 || o[1] != l.px[i][0] * b / 255 ||
                       o[2] != l.px[i][2] * b / 255;
            }
    }
    CHECK_EQ(bad, 0);
}

static void test_blink_phases(void)
{
    CHECK_EQ(leds_phase(0), 3);
    CHECK_EQ(leds_phase(124), 3);
    CHECK_EQ(leds_phase(125), 1);
    CHECK_EQ(leds_phase(250), 3);
    CHECK_EQ(leds_phase(499), 1);
    CHECK_EQ(leds_phase(500), 2);
    CHECK_EQ(leds_phase(999), 0);
    CHECK_EQ(leds_phase(1000), 3);
}

static void test_leds_periodic_refresh(void)
{
    leds_t l;
    uint8_t grb[LED_GRB_BYTES];
    leds_init(&l, 8, 8);
    CHECK(leds_due(&l, 0)); /* blank once at boot */
    CHECK_EQ(leds_render(&l, 0, grb), 192);
    CHECK(!leds_due(&l, 999));
    CHECK(leds_due(&l, LED_REFRESH_MS));
}

typedef struct {
    const char *name;
    void (*fn)(void);
} test_t;

#define T(f) {#f, f}

int main(void)
{
    const test_t tests[] = {
        T(test_crc_check_value),
        T(test_cobs_protocol_example),
        T(test_cobs_round_trip_all_lengths),
        T(test_cobs_254_run),
        T(test_cobs_rejects_bad_input),
        T(test_framer_splits_and_recovers),
        T(test_encode_matches_protocol_examples),
        T(test_hello_reply_example),
        T(test_snapshot_example),
        T(test_snapshot_10x10_unused_bits_zero),
        T(test_hello_heartbeat_snapshot_requests),
        T(test_change_numbering),
        T(test_led_frame_ack_and_render),
        T(test_led_frame_errors),
        T(test_bad_frames_answered_with_errors),
        T(test_debounce_needs_n_equal_readings),
        T(test_debounce_ignores_bounce),
        T(test_debounce_reports_in_column_order_and_seed),
        T(test_brightness_scaling_is_exact),
        T(test_blink_phases),
        T(test_leds_periodic_refresh),
    };
    int passed = 0, failed = 0;
    for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
        failures_in_test = 0;
        tests[i].fn();
        if (failures_in_test) {
            printf("FAIL %s\n", tests[i].name);
            failed++;
        } else {
            printf("ok   %s\n", tests[i].name);
            passed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
