/* COBS encode/decode (Cheshire & Baker 1999) and the 0x00-delimited stream framer. */
#include "cobs.h"

uint16_t cobs_encode(const uint8_t *in, uint16_t len, uint8_t *out)
{
    uint16_t code_at = 0, o = 1;
    uint8_t code = 1;
    for (uint16_t i = 0; i < len; i++) {
        if (in[i] == 0) {
            out[code_at] = code;
            code_at = o++;
            code = 1;
        } else {
            out[o++] = in[i];
            if (++code == 0xFF) {
                out[code_at] = code;
                code_at = o++;
                code = 1;
            }
        }
    }
    out[code_at] = code;
    return o;
}

int16_t cobs_decode(const uint8_t *in, uint16_t len, uint8_t *out)
{
    uint16_t i = 0, o = 0;
    while (i < len) {
        uint8_t code = in[i++];
        if (code == 0)
            return -1;
        for (uint8_t k = 1; k < code; k++) {
            if (i >= len || in[i] == 0)
                return -1;
            out[o++] = in[i++];
        }
        if (code != 0xFF && i < len)
            out[o++] = 0;
    }
    return (int16_t)o;
}

void framer_init(framer_t *f)
{
    f->len = 0;
    f->overflow = 0;
    f->overflows = 0;
}

uint16_t framer_push(framer_t *f, uint8_t byte)
{
    if (byte == 0) {
        uint16_t n = f->len;
        if (f->overflow) {
            f->overflows++;
            n = FRAMER_OVERSIZE;
        }
        f->len = 0;
        f->overflow = 0;
        return n;
    }
    if (f->overflow)
        return 0;
    if (f->len >= FRAMER_CAPACITY) {
        f->overflow = 1;
        return 0;
    }
    f->buf[f->len++] = byte;
    return 0;
}
