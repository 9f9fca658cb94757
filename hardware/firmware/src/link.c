/* Message handling of protocol v1. Outgoing frames are small (<= 32 payload bytes), so they are built on
 * the stack; the incoming frame is decoded in place inside the framer buffer. */
#include "link.h"
#include "crc16.h"

#define TX_BODY_MAX (4 + 2 + BOARD_BITMAP_BYTES) /* SNAPSHOT is the largest MCU->host body */
#define TX_PAYLOAD_MAX (4 + TX_BODY_MAX + 2)
#define TX_FRAME_MAX (COBS_MAX_ENCODED(TX_PAYLOAD_MAX) + 1)

static void put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (uint8_t i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

uint16_t link_encode_frame(uint8_t type, uint16_t seq, const uint8_t *body, uint16_t body_len, uint8_t *out)
{
    uint8_t payload[TX_PAYLOAD_MAX];
    if (body_len > TX_BODY_MAX)
        return 0;
    payload[0] = PROTO_VERSION;
    payload[1] = type;
    put_u16(payload + 2, seq);
    for (uint16_t i = 0; i < body_len; i++)
        payload[4 + i] = body[i];
    put_u16(payload + 4 + body_len, crc16(payload, (uint16_t)(4 + body_len)));
    uint16_t n = cobs_encode(payload, (uint16_t)(6 + body_len), out);
    out[n++] = 0;
    return n;
}

static void send_msg(link_t *k, uint8_t type, const uint8_t *body, uint16_t body_len)
{
    uint8_t frame[TX_FRAME_MAX];
    uint16_t n = link_encode_frame(type, k->tx_seq++, body, body_len, frame);
    if (n && k->send)
        k->send(k->send_ctx, frame, n);
}

static void send_error(link_t *k, uint8_t code, uint8_t detail)
{
    uint8_t body[2] = {code, detail};
    k->rx_errors++;
    send_msg(k, MSG_ERROR, body, 2);
}

void link_init(link_t *k, uint8_t rows, uint8_t cols, uint16_t boot_id, leds_t *leds, link_send_fn send,
               void *send_ctx)
{
    k->rows = rows;
    k->cols = cols;
    k->boot_id = boot_id;
    k->scan_hz = SCAN_HZ_NOMINAL;
    k->tx_seq = 0;
    k->event_seq = 0;
    for (uint8_t i = 0; i < BOARD_BITMAP_BYTES; i++)
        k->occupied[i] = 0;
    k->rx_dropped = 0;
    k->rx_errors = 0;
    framer_init(&k->rx);
    k->leds = leds;
    k->send = send;
    k->send_ctx = send_ctx;
}

void link_send_hello_reply(link_t *k)
{
    uint8_t body[8] = {FW_MAJOR, FW_MINOR, k->rows, k->cols};
    put_u16(body + 4, k->boot_id);
    put_u16(body + 6, k->scan_hz);
    send_msg(k, MSG_HELLO_REPLY, body, sizeof body);
}

void link_send_snapshot(link_t *k)
{
    uint8_t body[TX_BODY_MAX];
    uint8_t nbytes = (uint8_t)(((uint16_t)k->rows * k->cols + 7) / 8);
    put_u32(body, k->event_seq);
    body[4] = k->rows;
    body[5] = k->cols;
    for (uint8_t i = 0; i < nbytes; i++)
        body[6 + i] = k->occupied[i];
    send_msg(k, MSG_SNAPSHOT, body, (uint16_t)(6 + nbytes));
}

void link_square_changed(link_t *k, uint8_t row, uint8_t col, uint8_t occupied, uint32_t now_ms)
{
    link_set_square(k, row, col, occupied);
    uint8_t body[11];
    put_u32(body, ++k->event_seq);
    body[4] = row;
    body[5] = col;
    body[6] = occupied ? 1 : 0;
    put_u32(body + 7, now_ms);
    send_msg(k, MSG_CHANGE, body, sizeof body);
}

void link_handle_payload(link_t *k, const uint8_t *p, uint16_t len, uint32_t now_ms)
{
    if (len < PROTO_MIN_PAYLOAD) {
        send_error(k, ERR_BAD_LENGTH, len >= 2 ? p[1] : 0);
        return;
    }
    if (len > PROTO_MAX_PAYLOAD) {
        send_error(k, ERR_BAD_SIZE, p[1]);
        return;
    }
    uint16_t body_len = (uint16_t)(len - 6);
    uint16_t want = (uint16_t)(p[len - 2] | (p[len - 1] << 8));
    if (crc16(p, (uint16_t)(len - 2)) != want) {
        send_error(k, ERR_BAD_CRC, p[1]);
        return;
    }
    if (p[0] != PROTO_VERSION) {
        send_error(k, ERR_BAD_VERSION, p[1]);
        return;
    }
    uint8_t type = p[1];
    uint16_t seq = (uint16_t)(p[2] | (p[3] << 8));
    const uint8_t *body = p + 4;
    switch (type) {
    case MSG_HELLO:
    case MSG_SNAPSHOT_REQUEST:
    case MSG_HEARTBEAT:
        if (body_len != 0) {
            send_error(k, ERR_BAD_LENGTH, type);
            return;
        }
        if (type == MSG_HELLO) {
            link_send_hello_reply(k);
        } else if (type == MSG_SNAPSHOT_REQUEST) {
            link_send_snapshot(k);
        } else {
            uint8_t reply[8];
            put_u32(reply, now_ms);
            put_u32(reply + 4, k->event_seq);
            send_msg(k, MSG_HEARTBEAT_REPLY, reply, sizeof reply);
        }
        return;
    case MSG_LED_FRAME: {
        uint8_t err = k->leds ? leds_set_frame(k->leds, body, body_len) : ERR_BAD_SIZE;
        if (err) {
            send_error(k, err, type);
            return;
        }
        uint8_t ack[3] = {type, (uint8_t)seq, (uint8_t)(seq >> 8)};
        send_msg(k, MSG_ACK, ack, sizeof ack);
        return;
    }
    default:
        send_error(k, ERR_UNKNOWN_TYPE, type);
        return;
    }
}

void link_set_square(link_t *k, uint8_t row, uint8_t col, uint8_t occupied)
{
    uint16_t i = (uint16_t)row * k->cols + col;
    if (occupied)
        k->occupied[i >> 3] |= (uint8_t)(1u << (i & 7));
    else
        k->occupied[i >> 3] &= (uint8_t)~(1u << (i & 7));
}

void link_rx_byte(link_t *k, uint8_t byte, uint32_t now_ms)
{
    uint16_t n = framer_push(&k->rx, byte);
    if (n == FRAMER_OVERSIZE) {
        send_error(k, ERR_BAD_SIZE, 0); /* longer than any valid frame: dropped whole */
        return;
    }
    if (!n)
        return;
    int16_t len = cobs_decode(k->rx.buf, n, k->rx.buf);
    if (len < 0) {
        k->rx_dropped++;
        return;
    }
    link_handle_payload(k, k->rx.buf, (uint16_t)len, now_ms);
}
