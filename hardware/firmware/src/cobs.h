/* Consistent Overhead Byte Stuffing, and a byte-stream framer that splits input at 0x00 delimiters. */
#ifndef DB_COBS_H
#define DB_COBS_H
#include <stdint.h>

/* Worst-case encoded size of `n` payload bytes (without the trailing 0x00 delimiter). */
#define COBS_MAX_ENCODED(n) ((n) + (n) / 254 + 1)

/* Encode `len` bytes of `in` into `out` (no delimiter appended); returns the encoded length. */
uint16_t cobs_encode(const uint8_t *in, uint16_t len, uint8_t *out);

/* Decode `len` bytes (delimiter excluded) into `out`; `out` may equal `in`. Returns the decoded
 * length, or -1 if the input contains a zero byte or a code byte runs past the end. */
int16_t cobs_decode(const uint8_t *in, uint16_t len, uint8_t *out);

#define FRAMER_CAPACITY COBS_MAX_ENCODED(512)
#define FRAMER_OVERSIZE 0xFFFFu /* framer_push result: a frame longer than the capacity ended (dropped) */

/* Accumulates encoded bytes until a 0x00; frames longer than the capacity are discarded whole. */
typedef struct {
    uint8_t buf[FRAMER_CAPACITY];
    uint16_t len;
    uint8_t overflow;
    uint16_t overflows; /* frames dropped for being too long */
} framer_t;

void framer_init(framer_t *f);

/* Feed one byte; returns the encoded frame length (> 0) when `byte` completes a frame held in
 * f->buf, FRAMER_OVERSIZE when it ends a frame that was too long (dropped), else 0. The frame stays valid
 * until the next call. */
uint16_t framer_push(framer_t *f, uint8_t byte);

#endif
