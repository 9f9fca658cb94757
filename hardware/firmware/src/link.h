/* The MCU side of serial protocol v1 (hardware/protocol.md): framing, message handling, event numbering.
 * Pure logic: bytes come in through link_rx_byte and go out through the `send` callback. */
#ifndef DB_LINK_H
#define DB_LINK_H
#include <stdint.h>
#include "cobs.h"
#include "config.h"
#include "leds.h"

#define PROTO_VERSION 0x01
#define PROTO_MAX_PAYLOAD 512
#define PROTO_MIN_PAYLOAD 6

enum {
    MSG_HELLO = 0x01,
    MSG_SNAPSHOT_REQUEST = 0x02,
    MSG_LED_FRAME = 0x04,
    MSG_HEARTBEAT = 0x05,
    MSG_HELLO_REPLY = 0x81,
    MSG_SNAPSHOT = 0x82,
    MSG_CHANGE = 0x83,
    MSG_HEARTBEAT_REPLY = 0x85,
    MSG_ACK = 0x86,
    MSG_ERROR = 0x87,
};

enum { ERR_BAD_CRC = 1, ERR_UNKNOWN_TYPE = 2, ERR_BAD_LENGTH = 3, ERR_BAD_VERSION = 4, ERR_BAD_SIZE = 5 };

/* Emits one complete encoded frame, trailing 0x00 included. */
typedef void (*link_send_fn)(void *ctx, const uint8_t *bytes, uint16_t len);

typedef struct {
    uint8_t rows, cols;
    uint16_t boot_id;
    uint16_t scan_hz;
    uint16_t tx_seq;     /* frame_seq of the next frame we send */
    uint32_t event_seq;  /* seq of the last CHANGE sent (0 = none since boot) */
    uint8_t occupied[BOARD_BITMAP_BYTES];
    uint16_t rx_dropped; /* frames dropped without an ERROR reply: COBS failures */
    uint16_t rx_errors;  /* frames answered with ERROR */
    framer_t rx;
    leds_t *leds;
    link_send_fn send;
    void *send_ctx;
} link_t;

void link_init(link_t *k, uint8_t rows, uint8_t cols, uint16_t boot_id, leds_t *leds, link_send_fn send,
               void *send_ctx);

/* Feed one received byte; answers complete frames through `send`. */
void link_rx_byte(link_t *k, uint8_t byte, uint32_t now_ms);

/* Handle one decoded payload (version .. CRC). */
void link_handle_payload(link_t *k, const uint8_t *payload, uint16_t len, uint32_t now_ms);

/* Set a square of the reported state without an event (the initial state taken at boot). */
void link_set_square(link_t *k, uint8_t row, uint8_t col, uint8_t occupied);

/* Record a debounced change, number it and send a CHANGE. */
void link_square_changed(link_t *k, uint8_t row, uint8_t col, uint8_t occupied, uint32_t now_ms);

void link_send_hello_reply(link_t *k);
void link_send_snapshot(link_t *k);

/* Build payload (version, type, seq, body, CRC) and COBS-encode it with its delimiter into `out`;
 * returns the encoded length. Exposed for the unit tests. */
uint16_t link_encode_frame(uint8_t type, uint16_t seq, const uint8_t *body, uint16_t body_len, uint8_t *out);

#endif
