/* Pin map of the board on an Arduino Mega 2560, shared by the firmware and the simavr harness.
 * Each entry: AVR port letter, bit, Arduino Mega digital pin number. */
#ifndef DB_PINS_H
#define DB_PINS_H

typedef struct {
    char port;
    unsigned char bit;
    unsigned char arduino;
} board_pin_t;

/* Rows (driven low one at a time, high-impedance otherwise): Mega D22..D31. */
#define BOARD_ROW_PINS                                                                              \
    {{'A', 0, 22}, {'A', 1, 23}, {'A', 2, 24}, {'A', 3, 25}, {'A', 4, 26},                           \
     {'A', 5, 27}, {'A', 6, 28}, {'A', 7, 29}, {'C', 7, 30}, {'C', 6, 31}}

/* Columns (inputs with internal pull-ups; a closed switch pulls its column low through its diode
 * while its row is driven): Mega D40..D49. */
#define BOARD_COL_PINS                                                                              \
    {{'G', 1, 40}, {'G', 0, 41}, {'L', 7, 42}, {'L', 6, 43}, {'L', 5, 44},                           \
     {'L', 4, 45}, {'L', 3, 46}, {'L', 2, 47}, {'L', 1, 48}, {'L', 0, 49}}

/* WS2812 data line: PB4 = Mega D10 (PORTB is in I/O space, so the bit-bang loop can use OUT). */
#define WS2812_PORT_LETTER 'B'
#define WS2812_BIT 4
#define WS2812_ARDUINO_PIN 10

#endif
